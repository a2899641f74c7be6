"""PostgreSQL's side of the seam (../dialect.py): its transaction (:class:`PostgresTx`), its
words (:class:`PostgresDialect`) and the one-statement insert of a group of moves.

The store's statements are written with ``?``; each is numbered ``$1, $2...`` here (once per
text: :func:`~albastini.store.shared.numbered` keeps them), so that one text serves both back
ends. Writers run side by side on the pool's connections, so a write of a table locks the
table's row first (:attr:`PostgresDialect.lock_table`), as the move log's trigger does.
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterable, Sequence
from typing import Any

import asyncpg

from ..dialect import Refusal, Rows
from ..shared import MOVE_COLS, numbered
from ..values import now_text, parse_ts

__all__ = ["POSTGRES", "Conn", "PostgresDialect", "PostgresTx", "insert_moves"]

Conn = Any  # an asyncpg connection (asyncpg ships no type information)


def _count(status: str) -> int:
    """The rows a command touched, from its status ("UPDATE 1", "DELETE 0")."""
    return int(status.rsplit(" ", 1)[-1])


class PostgresTx:
    """A write transaction on a pooled connection (the engine opens and ends it)."""

    __slots__ = ("_conn",)

    def __init__(self, conn: Conn) -> None:
        self._conn = conn

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        return [tuple(r) for r in await self._conn.fetch(numbered(sql), *params)]

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _count(await self._conn.execute(numbered(sql), *params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._conn.executemany(numbered(sql), rows)

    async def lock(self, *key: int) -> None:
        """A transaction-level advisory lock: released by the commit or the rollback."""
        marks = ", ".join(f"${i}" for i in range(1, len(key) + 1))
        await self._conn.execute(f"SELECT pg_advisory_xact_lock({marks})", *key)


class PostgresDialect:
    """PostgreSQL's words: row locks, a list as one array parameter, times as ``timestamptz``,
    and the refusals of a row from asyncpg's exceptions."""

    lock_table = " FOR NO KEY UPDATE"
    lock_row = " FOR UPDATE"
    channel_taken = "game_tables_one_active_per_channel"

    def now(self) -> Any:
        """Now, to the millisecond (what the SQLite store keeps, so both return the same)."""
        return parse_ts(now_text())

    def any_of(self, column: str, values: Sequence[int]) -> tuple[str, tuple[Any, ...]]:
        return f"{column} = ANY(?::bigint[])", (list(values),)

    def refusal(self, exc: BaseException) -> Refusal | None:
        if not isinstance(exc, asyncpg.IntegrityConstraintViolationError | asyncpg.RaiseError):
            return None
        text = str(getattr(exc, "message", None) or exc)
        if isinstance(exc, asyncpg.UniqueViolationError):
            return Refusal("unique", text, str(exc.constraint_name or ""))
        if isinstance(exc, asyncpg.ForeignKeyViolationError):
            return Refusal("foreign_key", text)
        if isinstance(exc, asyncpg.RaiseError):  # the schema's trigger: RAISE names the reason
            return Refusal("trigger", text)
        return Refusal("other", text)


#: The dialect of every PostgreSQL store (it keeps no state).
POSTGRES = PostgresDialect()


def insert_moves(conn: Conn, batch: list[tuple[Any, ...]]) -> Awaitable[Any]:
    """Insert a batch of move rows in one statement: one row as it is, several as columns."""
    if len(batch) == 1:
        return conn.execute(  # type: ignore[no-any-return]
            f"INSERT INTO moves ({MOVE_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            *batch[0],
        )
    columns = list(zip(*batch, strict=True))
    return conn.execute(  # type: ignore[no-any-return]
        f"INSERT INTO moves ({MOVE_COLS}) SELECT * FROM unnest($1::bigint[], $2::bigint[], "
        "$3::integer[], $4::smallint[], $5::bigint[], $6::text[], $7::boolean[], "
        "$8::timestamptz[])",
        *columns,
    )
