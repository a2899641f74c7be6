"""The stores the tests of this package open, never mocks: a real SQLite file under tmp_path,
and a fresh database on a real PostgreSQL server that the test session starts itself
(:class:`tests.doubles.PostgresServer`: PostgreSQL 15 binaries, run as an unprivileged user).

``store`` is parametrized over both back ends, so every test that takes it runs twice
(``[sqlite]`` and ``[postgres]``); ``sqlite_store`` is for what only SQLite has (its file, WAL,
its engine's tunables); ``postgres_server`` and ``postgres_dsn`` (tests/conftest.py) for
PostgreSQL's own tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from albastini.store import PostgresStore, SQLiteStore, Store
from tests.doubles import PostgresServer


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[SQLiteStore]:
    s = await SQLiteStore.open(tmp_path / "db" / "albastini.db")
    yield s
    await s.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    if request.param == "sqlite":
        s: SQLiteStore | PostgresStore = await SQLiteStore.open(tmp_path / "db" / "albastini.db")
        yield s
        await s.close()
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    dsn = await server.database()
    s = await PostgresStore.open(dsn)
    try:
        yield s
    finally:
        await s.close()
        await server.drop(dsn)
