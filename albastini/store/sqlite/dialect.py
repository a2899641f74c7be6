"""SQLite's side of the seam (../dialect.py): its transaction (:class:`SQLiteTx`), its words
(:class:`SQLiteDialect`) and the batch insert of the moves' group commit.

A write transaction runs whole on the writer's plain :mod:`sqlite3` connection, inline on the
event loop or on the writer's thread (see engine.py), with no hop between its statements. The
store's logic is written as coroutines (PostgreSQL's statements do wait); here each statement
is a coroutine that returns without ever suspending, so :func:`run_now` runs the whole
transaction to its end in one call, where the writer runs it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Coroutine, Iterable, Sequence
from typing import Any, TypeVar

from ..dialect import Refusal, Rows
from ..errors import StoreError
from ..shared import MOVE_COLS, move_refusal
from ..values import now_text
from .connections import in_transaction

__all__ = ["SQLiteDialect", "SQLiteTx", "insert_moves", "run_now"]

_T = TypeVar("_T")


def run_now(coro: Coroutine[Any, Any, _T]) -> _T:
    """Run ``coro``, a transaction of :class:`SQLiteTx` statements, to its end in this call.

    It never suspends (every statement is synchronous); one that tried to wait for something
    else would hold the writer, so it is refused as a bug."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coro.close()
    raise RuntimeError("an SQLite transaction waited for something other than its statements")


class SQLiteTx:
    """A write transaction on the writer's connection (see the module's docstring)."""

    __slots__ = ("_db",)

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        return self._db.execute(sql, params).fetchall()

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self._db.execute(sql, params).rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._db.executemany(sql, rows)

    async def lock(self, *key: int) -> None:
        """Nothing to wait for: the store's one writer runs its transactions one at a time."""


class SQLiteDialect:
    """SQLite's words: no row locks (one writer), a list as ``IN (?, ...)``, times as ISO
    text, and the refusals of a row from :class:`sqlite3.IntegrityError`'s message."""

    lock_table = ""
    lock_row = ""
    channel_taken = "game_tables.channel_id"

    def now(self) -> str:
        return now_text()

    def any_of(self, column: str, values: Sequence[int]) -> tuple[str, tuple[Any, ...]]:
        return f"{column} IN ({', '.join('?' * len(values))})", tuple(values)

    def refusal(self, exc: BaseException) -> Refusal | None:
        if not isinstance(exc, sqlite3.IntegrityError):
            return None
        text = str(exc)
        if text.startswith("UNIQUE constraint failed: "):
            return Refusal("unique", text, text.removeprefix("UNIQUE constraint failed: "))
        if text.startswith("FOREIGN KEY constraint failed"):
            return Refusal("foreign_key", text)
        if text.startswith(("CHECK constraint failed", "NOT NULL constraint failed")):
            return Refusal("other", text)
        return Refusal("trigger", text)  # a trigger's RAISE: its message is the reason


#: The dialect of every SQLite store (it keeps no state).
SQLITE = SQLiteDialect()


def insert_moves(
    db: sqlite3.Connection,
    batch: list[tuple[Any, ...]],
    before_commit: Callable[[], None] | None = None,
) -> dict[int, StoreError]:
    """One transaction for a batch of moves; returns the refused ones by index (not written).

    Usually every move is fine: the whole batch goes in with one ``executemany``. If one is
    refused, the batch is retried one by one so that only the refused moves are left out.
    """
    sql = f"INSERT INTO moves ({MOVE_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    errors: dict[int, StoreError] = {}

    def insert(db: sqlite3.Connection) -> None:
        fast = len(batch) > 1
        if fast:
            db.execute("SAVEPOINT batch")
            try:
                db.executemany(sql, batch)
                db.execute("RELEASE batch")
            except sqlite3.IntegrityError:
                db.execute("ROLLBACK TO batch")
                db.execute("RELEASE batch")
                fast = False
        if not fast:  # one by one: a refused statement rolls back alone
            for i, params in enumerate(batch):
                try:
                    db.execute(sql, params)
                except sqlite3.IntegrityError as exc:
                    errors[i] = move_refusal(params, SQLITE.refusal(exc), exc)

    in_transaction(db, insert, before_commit)
    return errors
