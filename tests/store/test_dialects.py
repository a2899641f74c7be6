"""The seam between the store's logic and its back ends (albastini/store/dialect.py) where a
back end could get it wrong without any Store method showing it: SQLite runs a transaction's
coroutine to its end in one call, so one that would wait for anything else must be refused
rather than left half-run on the writer, and the database left as it was."""

from __future__ import annotations

import asyncio

import pytest

from albastini.store import SQLiteStore
from albastini.store.dialect import Tx
from tests.doubles import CHANNEL, GUILD, HOST, MODE


async def test_an_sqlite_transaction_that_would_wait_is_refused_and_rolled_back(
    sqlite_store: SQLiteStore,
) -> None:
    async def waits(tx: Tx) -> None:
        await tx.execute("INSERT INTO user_preferences (user_id, language, updated_at) "
                         "VALUES (1, 'sw', '2026-01-01T00:00:00.000+00:00')")  # fmt: skip
        await asyncio.sleep(0)  # not a statement: the writer cannot wait for it

    with pytest.raises(RuntimeError, match="waited"):
        await sqlite_store._write(waits)
    assert await sqlite_store.user_language(1) is None  # rolled back
    table = await sqlite_store.create_table(GUILD, CHANNEL, HOST, MODE,
                                            game="albastini")  # the writer goes on
    assert (await sqlite_store.get_table(table.id)).status == "lobby"
