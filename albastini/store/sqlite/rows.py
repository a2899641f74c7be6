"""The statements SQLite's write transactions share (the table's status, a seat, a batch of
moves), with the triggers' refusals as store errors, and the columns of a player's totals in
SQLite's words. The columns and records both back ends read are ../shared.py's."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any, cast

from ..errors import ConflictError, StoreError, UnknownTable, WrongStatus
from ..records import TableStatus
from ..shared import MOVE_COLS, move_refusal
from .connections import fetch_on, in_transaction

__all__ = [
    "STATS_COLS",
    "insert_moves",
    "insert_seat",
    "require_status",
    "table_status",
    "touch",
]

STATS_COLS = (
    "user_id, count(*), total(won), total(score), total(deals_played), total(deals_won), "
    "total(deals_won_big), total(card_points)"
)  # user_stats sums match_results itself: the source of truth, cheap for one player


def table_status(db: sqlite3.Connection, table_id: int) -> TableStatus:
    rows = fetch_on(db, "SELECT status FROM game_tables WHERE id = ?", (table_id,))
    if not rows:
        raise UnknownTable(f"no table {table_id}")
    return cast(TableStatus, rows[0][0])


def require_status(
    db: sqlite3.Connection, table_id: int, allowed: tuple[TableStatus, ...], what: str
) -> TableStatus:
    status = table_status(db, table_id)
    if status not in allowed:
        raise WrongStatus(f"cannot {what}: table {table_id} is {status}")
    return status


def touch(db: sqlite3.Connection, table_id: int, now: str) -> None:
    db.execute("UPDATE game_tables SET updated_at = ? WHERE id = ?", (now, table_id))


def insert_seat(
    db: sqlite3.Connection, table_id: int, seat: tuple[int, int | None, str, str | None]
) -> None:
    seat_no, user_id, name, level = seat
    if fetch_on(db, "SELECT 1 FROM seats WHERE table_id = ? AND seat_no = ?", (table_id, seat_no)):
        raise ConflictError(f"seat {seat_no} of table {table_id} is taken")
    if user_id is not None and fetch_on(
        db, "SELECT 1 FROM seats WHERE table_id = ? AND user_id = ?", (table_id, user_id)
    ):
        raise ConflictError(f"user {user_id} already sits at table {table_id}")
    db.execute(
        "INSERT INTO seats (table_id, seat_no, user_id, display_name, computer_level)"
        " VALUES (?, ?, ?, ?, ?)",
        (table_id, seat_no, user_id, name, level),
    )


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
                    errors[i] = _move_error(exc, params)

    in_transaction(db, insert, before_commit)
    return errors


def _move_error(exc: sqlite3.IntegrityError, params: tuple[Any, ...]) -> StoreError:
    # a trigger's RAISE gives its reason as the whole message; a missing seat or deal is
    # SQLite's "FOREIGN KEY constraint failed"
    text = str(exc)
    return move_refusal(params, text, trigger=True, foreign_key="FOREIGN KEY" in text)
