"""The SQL both the store's reads and its write transactions share: the columns read, the rows
they become (records.py), and the statements a write transaction runs before its own (the
table's status, a seat, a batch of moves), with the triggers' refusals as store errors."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any, cast

from ..errors import (
    ConflictError,
    MoveGap,
    StaleMove,
    StoreError,
    UnknownSeat,
    UnknownTable,
    WrongStatus,
)
from ..records import (
    DealRecord,
    DealResultRecord,
    MoveRecord,
    PlayerStats,
    SeatRecord,
    TableRecord,
    TableStatus,
)
from ..values import parse_ts, seed_from_db
from .connections import fetch_on, in_transaction

__all__ = [
    "DEAL_COLS",
    "MOVE_COLS",
    "RESULT_COLS",
    "SEAT_COLS",
    "STATS_COLS",
    "TABLE_COLS",
    "deal_record",
    "insert_moves",
    "insert_seat",
    "move_record",
    "require_status",
    "result_record",
    "seat_record",
    "stats_record",
    "table_record",
    "table_status",
    "touch",
]

TABLE_COLS = (
    "id, guild_id, channel_id, host_id, game, settings, status, language, message_id, "
    "created_at, updated_at"
)
SEAT_COLS = (
    "table_id, seat_no, user_id, display_name, computer_level, away, computer_control, timeouts"
)
DEAL_COLS = "table_id, deal_no, dealer_seat, seed, deck, started_at"
RESULT_COLS = "table_id, deal_no, card_points, winner_team, game_points, finished_at"
MOVE_COLS = "table_id, move_no, deal_no, seat_no, user_id, action, by_computer, created_at"
STATS_COLS = (
    "user_id, count(*), total(won), total(score), total(deals_played), total(deals_won), "
    "total(deals_won_big), total(card_points)"
)  # user_stats sums match_results itself: the source of truth, cheap for one player


def table_record(r: tuple[Any, ...]) -> TableRecord:
    return TableRecord(
        id=r[0],
        guild_id=r[1],
        channel_id=r[2],
        host_id=r[3],
        game=r[4],
        settings=json.loads(r[5]),
        status=r[6],
        language=r[7],
        message_id=r[8],
        created_at=parse_ts(r[9]),
        updated_at=parse_ts(r[10]),
    )


def seat_record(r: tuple[Any, ...]) -> SeatRecord:
    return SeatRecord(r[0], r[1], r[2], r[3], r[4], bool(r[5]), bool(r[6]), r[7])


def deal_record(r: tuple[Any, ...], result: DealResultRecord | None = None) -> DealRecord:
    deck = tuple(r[4].split()) if r[4] is not None else None
    return DealRecord(r[0], r[1], r[2], seed_from_db(r[3]), deck, parse_ts(r[5]), result)


def result_record(r: tuple[Any, ...]) -> DealResultRecord:
    return DealResultRecord(
        r[0], r[1], tuple(json.loads(r[2])), r[3], tuple(json.loads(r[4])), parse_ts(r[5])
    )


def move_record(r: tuple[Any, ...]) -> MoveRecord:
    return MoveRecord(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), parse_ts(r[7]))


def stats_record(r: tuple[Any, ...], rank: int | None = None) -> PlayerStats:
    return PlayerStats(
        user_id=r[0],
        matches_played=int(r[1]),
        matches_won=int(r[2]),
        score=int(r[3]),
        deals_played=int(r[4]),
        deals_won=int(r[5]),
        deals_won_big=int(r[6]),
        card_points=int(r[7]),
        rank=rank,
    )


# Errors raised by the triggers of 0001_init.sql, mapped to the store's own exceptions.
_TRIGGER_ERRORS: dict[str, tuple[type[StoreError], str]] = {
    "unknown_table": (UnknownTable, "no table {t}"),
    "table_not_running": (WrongStatus, "table {t} is not running; moves are refused"),
    "stale_move": (StaleMove, "table {t} already has move {m}"),
    "move_gap": (MoveGap, "move {m} of table {t} skips ahead; the next move is last + 1"),
    "not_current_deal": (ConflictError, "deal {d} is not the current deal of table {t}"),
    "deal_finished": (ConflictError, "deal {d} of table {t} is finished; no more moves"),
}


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
    t, m, d, s = params[0], params[1], params[2], params[3]
    text = str(exc)
    if text in _TRIGGER_ERRORS:
        kind, msg = _TRIGGER_ERRORS[text]
        return kind(msg.format(t=t, m=m, d=d))
    if "FOREIGN KEY" in text:
        return UnknownSeat(f"table {t} has no seat {s} (or no deal {d})")
    return ConflictError(f"move {m} of table {t} refused by the database: {text}")
