"""Persistence: every SQL statement of the project lives behind the :class:`Store` interface.

A table's game state is never stored: it is derived by replaying the mode settings, each deal's
seed and dealer, and the ordered action log through the engine. The store keeps that log
(append-only, numbered without gaps), the results of finished deals and matches, and settings.

:class:`SQLiteStore` is the implementation for one bot process: SQLite in WAL mode. Every write
transaction is one function run on one plain :mod:`sqlite3` connection (:class:`_Writer`). With
the default ``synchronous=NORMAL`` a commit does not wait for the disk, so it runs right on the
event loop's thread; with ``synchronous="FULL"`` the writer has its own thread. Moves that arrive
together are committed together (group commit), each caller still awaiting its own commit. Reads
use a second connection on aiosqlite's thread (:class:`_Aio`), so they see committed data only
and never wait behind a write; the WAL checkpoints of an inline writer, which do wait for the
disk, run on a third.

Durability: ``synchronous=NORMAL`` in WAL mode (the default here). A commit has written its WAL
frames to the operating system before ``COMMIT`` returns, so a move acknowledged by
:meth:`SQLiteStore.append_move` survives the bot process being killed (SIGKILL, OOM killer,
crash). Only an operating-system crash or power loss may lose the last few commits, and never
corrupts the file. ``synchronous="FULL"`` (fsync on each commit) is available to
:meth:`SQLiteStore.open` for hosts where that matters more than speed.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import os
import re
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from os import PathLike
from pathlib import Path
from typing import Any, Literal, Protocol, Self, TypeVar, cast

import aiosqlite

_log = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_GUILD_SETTINGS",
    "ChannelBusy",
    "ConflictError",
    "CorruptDatabase",
    "DatabaseGone",
    "DatabaseReadOnly",
    "DealRecord",
    "DealResult",
    "GuildSettings",
    "InvalidValue",
    "LeaderboardPage",
    "MigrationError",
    "MoveGap",
    "MoveRecord",
    "NewSeat",
    "PlayerResult",
    "PlayerStats",
    "SQLiteStore",
    "SchemaTooNew",
    "SeatRecord",
    "StaleMove",
    "Store",
    "StoreBusy",
    "StoreClosed",
    "StoreError",
    "StoreUnavailable",
    "TableRecord",
    "TableSnapshot",
    "TableStatus",
    "UnknownSeat",
    "UnknownTable",
    "WrongStatus",
]

TableStatus = Literal["lobby", "running", "finished", "cancelled"]
Language = Literal["en", "sw"]
Synchronous = Literal["NORMAL", "FULL"]

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "data" / "migrations"
NAME_MAX = 100  # display names longer than this are truncated (they are cosmetic)
ACTION_MAX = 16
SETTINGS_MAX = 4096  # characters of JSON
LANGUAGES: tuple[Language, ...] = ("en", "sw")
TURN_TIME_RANGE = (15, 600)
TARGET_VP_RANGE = (1, 21)
_ACTION_RE = re.compile(r"[A-Za-z0-9:_.,+\-]{1,16}")
_CARD_RE = re.compile(r"[A-Za-z0-9]{1,4}")
_LEVEL_RE = re.compile(r"[A-Za-z0-9_\-]{1,16}")
_GAME_RE = re.compile(r"[a-z0-9_]{1,32}")
_MIGRATION_RE = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")
_SQLITE_MAGIC = b"SQLite format 3\x00"
_INT64_MAX = 2**63 - 1
_SEED_LIMIT = 2**64


# --------------------------------------------------------------------------- errors


class StoreError(Exception):
    """Base of every error the store raises; the message says what was refused and why."""


class CorruptDatabase(StoreError):
    """The database file is not an SQLite database or fails its integrity check."""


class SchemaTooNew(StoreError):
    """The database was written by a newer version of the bot; this code will not touch it."""


class MigrationError(StoreError):
    """A migration file is malformed or failed to apply (the database is left as it was)."""


class StoreClosed(StoreError):
    """The store was used before :meth:`SQLiteStore.open` or after ``close()``."""


class StoreUnavailable(StoreError):
    """The database cannot take a write now; nothing was written. The Discord layer answers
    "couldn't save, try again" (``error.storage``)."""


class StoreBusy(StoreUnavailable):
    """Another program holds the database's write lock longer than a click can wait."""


class DatabaseGone(StoreUnavailable):
    """The database file was deleted or replaced while the bot ran: writes would be lost, so
    every write is refused until the bot is restarted."""


class DatabaseReadOnly(StoreUnavailable):
    """The database (its file, or the folder where SQLite keeps its -wal and -shm files)
    cannot be written: permissions, a read-only file system, an immutable file."""


class InvalidValue(StoreError, ValueError):
    """A value has the wrong type, is out of range or is malformed; nothing was written."""


class UnknownTable(StoreError, LookupError):
    """No table has this id."""


class UnknownSeat(StoreError, LookupError):
    """The table has no such seat."""


class ConflictError(StoreError):
    """The write conflicts with what is stored (order, status, uniqueness); nothing was written."""


class ChannelBusy(ConflictError):
    """The channel already has a table in the lobby or running."""


class WrongStatus(ConflictError):
    """The table's status does not allow this operation (e.g. a move on a finished table)."""


class StaleMove(ConflictError):
    """A move with this number is already stored: another action got there first."""


class MoveGap(ConflictError):
    """The move number skips ahead of the log; moves are appended as last + 1 only."""


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class TableRecord:
    """One match hosted in one Discord channel."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    game: str
    settings: Mapping[str, Any]
    status: TableStatus
    language: Language
    message_id: int | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A seat; ``user_id`` is None for a computer seat (which then has a ``computer_level``)."""

    table_id: int
    seat_no: int
    user_id: int | None
    display_name: str
    computer_level: str | None
    away: bool
    computer_control: bool
    timeouts: int

    @property
    def is_computer(self) -> bool:
        """True for a seat played by the computer for good (not a person who is away)."""
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class NewSeat:
    """A seat taken when a lobby is created (:meth:`SQLiteStore.create_table`): the host's, or
    a rematch's players; ``user_id`` None with a ``computer_level`` for a computer."""

    seat_no: int
    user_id: int | None
    display_name: str
    computer_level: str | None = None


@dataclass(frozen=True, slots=True)
class DealResult:
    """The outcome of a finished deal: card points per team, winner (None on a tie) and VP."""

    table_id: int
    deal_no: int
    card_points: tuple[int, ...]
    winner_team: int | None
    vp: int
    finished_at: datetime


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A deal: the engine derives the deck from ``seed``; ``deck`` is kept only for audit."""

    table_id: int
    deal_no: int
    dealer_seat: int
    seed: int
    deck: tuple[str, ...] | None
    started_at: datetime
    result: DealResult | None = None


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One action of the log, e.g. ``play:7H``; ``user_id`` is None when the computer acted."""

    table_id: int
    move_no: int
    deal_no: int
    seat_no: int
    user_id: int | None
    action: str
    by_computer: bool
    created_at: datetime


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """All a replay needs: the table, its seats, deals and moves in order."""

    table: TableRecord
    seats: tuple[SeatRecord, ...]
    deals: tuple[DealRecord, ...]
    moves: tuple[MoveRecord, ...]

    @property
    def last_move_no(self) -> int:
        """Number of the last stored move (0 when none); the next move is this + 1."""
        return self.moves[-1].move_no if self.moves else 0


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """What the table service reports for one person at the end of a match (input record)."""

    user_id: int
    team: int
    team_vp: int
    won: bool
    deals_played: int
    deals_won: int
    deals_won_2vp: int
    card_points: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's totals over their finished matches in one guild; ``rank`` on leaderboards."""

    user_id: int
    matches_played: int
    matches_won: int
    vp: int
    deals_played: int
    deals_won: int
    deals_won_2vp: int
    card_points: int
    rank: int | None = None

    @property
    def avg_card_points_per_deal(self) -> float | None:
        """Card points their team ate per deal played, or None before the first deal."""
        return self.card_points / self.deals_played if self.deals_played else None


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    """One page of a guild's leaderboard and the number of ranked players (for paging)."""

    entries: tuple[PlayerStats, ...]
    total: int
    offset: int
    limit: int


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A guild's settings; the defaults apply until the guild changes them."""

    guild_id: int
    turn_time: int = 60
    target_vp: int = 5
    language: Language = "en"


DEFAULT_GUILD_SETTINGS = GuildSettings(guild_id=0)


# --------------------------------------------------------------------------- interface


class Store(Protocol):
    """The persistence interface the table service uses; implemented by :class:`SQLiteStore`."""

    async def close(self) -> None: ...

    # tables
    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        settings: Mapping[str, Any],
        *,
        game: str = "albastini",
        language: str = "en",
        seats: Sequence[NewSeat] = (),
    ) -> TableRecord: ...
    async def get_table(self, table_id: int) -> TableRecord: ...
    async def active_table(self, channel_id: int) -> TableRecord | None: ...
    async def update_table_settings(
        self, table_id: int, settings: Mapping[str, Any]
    ) -> TableRecord: ...
    async def set_message_id(self, table_id: int, message_id: int | None) -> None: ...
    async def start_table(
        self, table_id: int, dealer_seat: int, seed: int, deck: Sequence[str] | None = None
    ) -> DealRecord: ...
    async def cancel_table(self, table_id: int) -> None: ...
    async def finish_table(self, table_id: int, results: Sequence[PlayerResult]) -> None: ...
    async def load_table(self, table_id: int) -> TableSnapshot: ...
    async def unfinished_tables(self) -> list[TableSnapshot]: ...

    # seats
    async def add_seat(
        self,
        table_id: int,
        seat_no: int,
        user_id: int | None,
        display_name: str,
        computer_level: str | None = None,
    ) -> SeatRecord: ...
    async def remove_seat(self, table_id: int, seat_no: int) -> None: ...
    async def replace_with_computer(
        self, table_id: int, seat_no: int, computer_level: str, display_name: str
    ) -> SeatRecord: ...
    async def update_seat(
        self,
        table_id: int,
        seat_no: int,
        *,
        away: bool | None = None,
        computer_control: bool | None = None,
        timeouts: int | None = None,
    ) -> SeatRecord: ...
    async def seats(self, table_id: int) -> list[SeatRecord]: ...

    # deals and moves
    async def begin_deal(
        self,
        table_id: int,
        deal_no: int,
        dealer_seat: int,
        seed: int,
        deck: Sequence[str] | None = None,
    ) -> DealRecord: ...
    async def record_deal_result(
        self,
        table_id: int,
        deal_no: int,
        card_points: Sequence[int],
        winner_team: int | None,
        vp: int,
    ) -> DealResult: ...
    async def append_move(
        self,
        table_id: int,
        move_no: int,
        deal_no: int,
        seat_no: int,
        action: str,
        *,
        user_id: int | None,
        by_computer: bool,
    ) -> MoveRecord: ...
    async def moves(self, table_id: int, after: int = 0) -> list[MoveRecord]: ...

    # settings and statistics
    async def guild_settings(self, guild_id: int) -> GuildSettings: ...
    async def guild_language_chosen(self, guild_id: int) -> bool: ...
    async def set_guild_settings(
        self,
        guild_id: int,
        *,
        turn_time: int | None = None,
        target_vp: int | None = None,
        language: str | None = None,
    ) -> GuildSettings: ...
    async def user_language(self, user_id: int) -> Language | None: ...
    async def set_user_language(self, user_id: int, language: str | None) -> None: ...
    async def leaderboard(
        self, guild_id: int, limit: int = 10, offset: int = 0, *, game: str = "albastini"
    ) -> LeaderboardPage: ...
    async def user_stats(
        self, guild_id: int, user_id: int, *, game: str = "albastini"
    ) -> PlayerStats: ...


# --------------------------------------------------------------------------- validation


def _id(name: str, value: object) -> int:
    if type(value) is not int or not 0 < value <= _INT64_MAX:
        raise InvalidValue(f"{name} must be a positive 64-bit integer id, got {value!r}")
    return value


def _opt_id(name: str, value: object) -> int | None:
    return None if value is None else _id(name, value)


def _int(name: str, value: object, lo: int, hi: int) -> int:
    if type(value) is not int or not lo <= value <= hi:
        raise InvalidValue(f"{name} must be a whole number from {lo} to {hi}, got {value!r}")
    return value


def _bool(name: str, value: object) -> bool:
    if type(value) is not bool:
        raise InvalidValue(f"{name} must be True or False, got {value!r}")
    return value


def _language(value: object) -> Language:
    if value == "en" or value == "sw":
        return value
    raise InvalidValue(f"language must be 'en' or 'sw', got {value!r}")


def _name(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidValue(f"display name must be a non-empty string, got {value!r}")
    return value.strip()[:NAME_MAX]


def _level(value: object) -> str:
    if not isinstance(value, str) or not _LEVEL_RE.fullmatch(value):
        raise InvalidValue(f"computer level must be 1-16 letters/digits/_/-, got {value!r}")
    return value


def _action(value: object) -> str:
    if not isinstance(value, str) or not _ACTION_RE.fullmatch(value):
        raise InvalidValue(
            f"action code must be 1-{ACTION_MAX} characters of A-Z a-z 0-9 : _ . , + -, "
            f"got {value!r}"
        )
    return value


def _settings_json(value: object) -> str:
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise InvalidValue(f"table settings must be a mapping with string keys, got {value!r}")
    try:
        text = json.dumps(dict(value), sort_keys=True, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise InvalidValue(f"table settings must be JSON-serialisable: {exc}") from None
    if len(text) > SETTINGS_MAX:
        raise InvalidValue(f"table settings are {len(text)} characters of JSON, max {SETTINGS_MAX}")
    return text


def _seed_to_db(seed: object) -> int:
    if type(seed) is not int or not 0 <= seed < _SEED_LIMIT:
        raise InvalidValue(f"seed must be an integer from 0 to 2**64-1, got {seed!r}")
    return seed - _SEED_LIMIT if seed > _INT64_MAX else seed


def _seed_from_db(value: int) -> int:
    return value + _SEED_LIMIT if value < 0 else value


def _deck(deck: object) -> str | None:
    if deck is None:
        return None
    if isinstance(deck, str) or not isinstance(deck, Sequence) or not 1 <= len(deck) <= 64:
        raise InvalidValue(f"deck must be a sequence of 1-64 card codes, got {deck!r}")
    for card in deck:
        if not isinstance(card, str) or not _CARD_RE.fullmatch(card):
            raise InvalidValue(f"card code must be 1-4 letters/digits, got {card!r}")
    return " ".join(cast(Sequence[str], deck))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _ts(text: str) -> datetime:
    return datetime.fromisoformat(text)


# --------------------------------------------------------------------------- row mapping

_TABLE_COLS = (
    "id, guild_id, channel_id, host_id, game, settings, status, language, message_id, "
    "created_at, updated_at"
)
_SEAT_COLS = (
    "table_id, seat_no, user_id, display_name, computer_level, away, computer_control, timeouts"
)
_DEAL_COLS = "table_id, deal_no, dealer_seat, seed, deck, started_at"
_RESULT_COLS = "table_id, deal_no, card_points, winner_team, vp, finished_at"
_MOVE_COLS = "table_id, move_no, deal_no, seat_no, user_id, action, by_computer, created_at"
_STATS_COLS = (
    "user_id, count(*), total(won), total(team_vp), total(deals_played), total(deals_won), "
    "total(deals_won_2vp), total(card_points)"
)  # user_stats sums match_results itself: the source of truth, cheap for one player


def _table(r: tuple[Any, ...]) -> TableRecord:
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
        created_at=_ts(r[9]),
        updated_at=_ts(r[10]),
    )


def _seat(r: tuple[Any, ...]) -> SeatRecord:
    return SeatRecord(r[0], r[1], r[2], r[3], r[4], bool(r[5]), bool(r[6]), r[7])


def _deal(r: tuple[Any, ...], result: DealResult | None = None) -> DealRecord:
    deck = tuple(r[4].split()) if r[4] is not None else None
    return DealRecord(r[0], r[1], r[2], _seed_from_db(r[3]), deck, _ts(r[5]), result)


def _result(r: tuple[Any, ...]) -> DealResult:
    return DealResult(r[0], r[1], tuple(json.loads(r[2])), r[3], r[4], _ts(r[5]))


def _move(r: tuple[Any, ...]) -> MoveRecord:
    return MoveRecord(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), _ts(r[7]))


def _stats(r: tuple[Any, ...], rank: int | None = None) -> PlayerStats:
    return PlayerStats(
        user_id=r[0],
        matches_played=int(r[1]),
        matches_won=int(r[2]),
        vp=int(r[3]),
        deals_played=int(r[4]),
        deals_won=int(r[5]),
        deals_won_2vp=int(r[6]),
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


@dataclass(slots=True)
class _PendingMove:
    params: tuple[Any, ...]
    future: asyncio.Future[None] = field(repr=False)


# --------------------------------------------------------------------------- migrations


@dataclass(frozen=True, slots=True)
class _Migration:
    version: int
    name: str
    sql: str


def _load_migrations(directory: Path) -> list[_Migration]:
    found: list[_Migration] = []
    for path in sorted(directory.glob("*.sql")):
        m = _MIGRATION_RE.fullmatch(path.name)
        if not m:
            raise MigrationError(f"migration file name {path.name!r} is not NNNN_name.sql")
        found.append(_Migration(int(m[1]), m[2], path.read_text(encoding="utf-8")))
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise MigrationError(f"migrations in {directory} must be numbered 1, 2, 3...: {versions}")
    return found


# --------------------------------------------------------------------------- SQLite store

_T = TypeVar("_T")
Rows = list[tuple[Any, ...]]


class _Writer:
    """The writer's plain :mod:`sqlite3` connection. Each call runs a whole function (one
    transaction) on it: statements and the Python checks between them, with no hop in between.

    ``inline`` (``synchronous=NORMAL`` in WAL mode, where ``COMMIT`` hands its pages to the
    operating system and returns, ~0.1-0.3 ms): each call runs at once on the event loop's own
    thread. A hop to a thread and back costs more than the commit (bench/store.py
    ``--writer inline,aiosqlite`` prints both; bench/bot_load.py: moves answered ~2x faster
    inline). The one slow part of WAL writing, the checkpoint (which does wait for the disk), is
    switched off on this connection (``wal_autocheckpoint = 0``) and run by :class:`SQLiteStore`
    on a connection of its own (:class:`_Aio`). The loop never waits for another program's
    lock: the connection's busy_timeout is 0, and a call that finds the database locked runs
    again on the writer's thread, waiting there at most ``busy_ms`` (a locked database once
    stalled every click for 2 s per write).

    Not inline (``synchronous=FULL``: each commit waits for the disk): every call runs on the
    writer's thread. aiosqlite, which the reads use, offers no public way to run a function on
    its thread, only one statement per hop: a write transaction through it would be several
    hops, all under the store's write lock, and a caller cancelled between two of them would
    leave the transaction open. The thread is a ``ThreadPoolExecutor`` worker: Python stops it
    at exit even if the store was never closed.
    """

    def __init__(self, *, inline: bool) -> None:
        self.inline = inline
        self._db: sqlite3.Connection | None = None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="albastini-db-writer")
        # the last call handed to the thread: while it runs (its caller may have been cancelled
        # and the store's write lock released), later calls queue behind it on the thread
        self._last: concurrent.futures.Future[Any] | None = None
        self._busy_ms: int | None = None  # the busy_timeout a thread call set (not inline)
        self.closed = False

    async def connect(self, path: Path) -> None:
        # check_same_thread=False: a call goes on on self._pool (inline: one that met a lock);
        # the store's write lock, and the queue below, keep it to one thread at a time
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)

    async def call(self, fn: Callable[[sqlite3.Connection], _T], busy_ms: int | None = None) -> _T:
        """Run ``fn(connection)`` and return its result; with ``busy_ms``, it waits at most that
        long for another program's lock (on the thread; inline, only once it met the lock).

        ``fn`` must leave nothing behind when it fails (one transaction, rolled back)."""
        db = self._conn()
        if self.inline and (self._last is None or self._last.done()):
            try:
                return fn(db)
            except sqlite3.OperationalError as exc:
                if not busy_ms or not _is_busy(exc):
                    raise

        def on_thread() -> _T:
            if not self.inline:
                if busy_ms is not None and busy_ms != self._busy_ms:
                    db.execute(f"PRAGMA busy_timeout = {int(busy_ms)}")
                    self._busy_ms = busy_ms
                return fn(db)
            db.execute(f"PRAGMA busy_timeout = {int(busy_ms or 0)}")
            try:
                return fn(db)
            finally:
                db.execute("PRAGMA busy_timeout = 0")  # back on the loop: never wait there

        self._last = self._pool.submit(on_thread)
        return await asyncio.wrap_future(self._last)

    def _conn(self) -> sqlite3.Connection:
        if self.closed or self._db is None:
            raise StoreClosed("the database connection is closed")
        return self._db

    async def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        db, self._db = self._db, None

        def close() -> None:
            if db is not None:
                db.close()

        try:
            # after a call still on the thread (it uses the connection); closing the last
            # connection of a WAL database may write, so not on the event loop either
            await asyncio.get_running_loop().run_in_executor(self._pool, close)
        finally:
            self._pool.shutdown(wait=False)


# aiosqlite's thread is not a daemon thread: Python waits for it at exit, so a process whose
# store was never closed (an exception path that skips close()) would hang forever. A daemon
# thread of ours waits for the main thread to end (threading's shutdown marks it ended before
# it waits for the other threads) and stops the threads of the connections still open.
_unclosed: weakref.WeakSet[aiosqlite.Connection] = weakref.WeakSet()
_exit_watch: threading.Thread | None = None
_exit_watch_lock = threading.Lock()


def _stop_at_exit(conn: aiosqlite.Connection) -> None:
    global _exit_watch
    _unclosed.add(conn)
    with _exit_watch_lock:
        if _exit_watch is None:
            _exit_watch = threading.Thread(
                target=_stop_unclosed, name="albastini-db-exit", daemon=True
            )
            _exit_watch.start()


def _stop_unclosed() -> None:
    threading.main_thread().join()
    for conn in list(_unclosed):
        conn.stop()


class _Aio:
    """A connection on aiosqlite's own thread, for reads and for the WAL checkpoints: one
    statement per hop to the thread (aiosqlite's public interface).

    Several statements that must see one snapshot run in one read transaction (:meth:`many`),
    and no other statement may run on the connection between them: a single read put there
    would see the database as it was when that snapshot began, not the write just committed.
    So :meth:`many` holds a lock, and a single read arriving meanwhile waits for it (one
    arriving while nothing holds it goes to the thread at once, ahead of any later snapshot).
    """

    def __init__(self) -> None:
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self.closed = False

    async def connect(self, path: Path, *setup: str) -> None:
        """Open the connection and run the ``setup`` statements on it, in order."""
        db = aiosqlite.connect(path, isolation_level=None)
        _stop_at_exit(db)
        self._db = await db
        for sql in setup:
            await self._fetch(sql)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        """The rows of one statement."""
        if self._lock.locked():
            async with self._lock:
                return await self._fetch(sql, params)
        return await self._fetch(sql, params)

    async def many(self, queries: Sequence[tuple[str, Sequence[Any]]]) -> list[Rows]:
        """The rows of each query, all read in one transaction: one consistent snapshot."""
        # A task of its own, shielded from the caller's cancellation: cancelled between two
        # hops, the caller would leave the connection inside the transaction.
        task = asyncio.ensure_future(self._many(queries))
        task.add_done_callback(_retrieve)
        return await asyncio.shield(task)

    async def _many(self, queries: Sequence[tuple[str, Sequence[Any]]]) -> list[Rows]:
        async with self._lock:
            await self._fetch("BEGIN")
            try:
                return [await self._fetch(sql, params) for sql, params in queries]
            finally:
                await self._fetch("COMMIT")

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        if self.closed or self._db is None:
            raise StoreClosed("the database connection is closed")
        try:
            return cast(Rows, await self._db.execute_fetchall(sql, params))
        except ValueError:
            if self.closed:  # aiosqlite's "Connection closed": close() came first
                raise StoreClosed("the database connection is closed") from None
            raise

    async def close(self) -> None:
        """Close the connection once the statements queued before have run; aiosqlite's thread
        has stopped when this returns."""
        if self.closed:
            return
        self.closed = True
        db, self._db = self._db, None
        if db is not None:
            _unclosed.discard(db)
            await db.close()


def _retrieve(task: asyncio.Task[Any]) -> None:
    # the snapshot's caller may be gone: its error is then nobody's (not "never retrieved")
    if not task.cancelled():
        task.exception()


#: Seconds of inline move commits per turn of the event loop; more moves wait for the flusher.
INLINE_BUDGET = 0.002
#: How long a write waits for another program's write lock (an operator's sqlite3 shell, a
#: backup) before it is refused with StoreBusy (ms). The wait is on a thread, never on the event
#: loop; a click also waits for the write before it (a computer's move) and for Discord: all
#: of it must fit in Discord's 3 s for the first answer.
BUSY_WAIT_MS = 500
#: Once a write was refused for the lock, the next ones wait only this long until a write gets
#: through: a queue of writes behind the lock is refused together in time, not one by one.
BUSY_AGAIN_MS = 100
#: How long a read waits when the database is locked against reading (WAL readers normally
#: never are; only an exclusive-mode connection or a recovery can) (ms).
READ_BUSY_MS = 1000
#: How long closing waits for another program's lock to checkpoint the WAL into the file (ms).
CLOSE_BUSY_MS = 2000
#: Write transactions between two checkpoints of an inline writer's WAL (SQLite's own automatic
#: checkpoint runs every 1000 pages; a move batch is one to a few pages).
CHECKPOINT_EVERY = 200


#: Read once at the start, so that the connection opens the -wal and -shm files now, while they
#: are writable: SQLite keeps a file it had to open read-only read-only for the connection's life
#: (a checkpoint connection that first ran during a read-only episode failed until a restart).
_OPEN_FILES = "SELECT count(*) FROM sqlite_schema"
#: The checkpointer may wait for other connections: it is on a thread, never the event loop.
_CHECKPOINTER_SETUP = ("PRAGMA busy_timeout = 5000", _OPEN_FILES)


def _errcode(exc: sqlite3.Error) -> int:
    return int(getattr(exc, "sqlite_errorcode", -1)) & 0xFF  # the primary result code


def _is_busy(exc: sqlite3.Error) -> bool:
    return _errcode(exc) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _is_not_writable(exc: sqlite3.Error) -> bool:
    return _errcode(exc) in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM)


def _fetch_on(db: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> Rows:
    return db.execute(sql, params).fetchall()


def _table_status(db: sqlite3.Connection, table_id: int) -> TableStatus:
    rows = _fetch_on(db, "SELECT status FROM game_tables WHERE id = ?", (table_id,))
    if not rows:
        raise UnknownTable(f"no table {table_id}")
    return cast(TableStatus, rows[0][0])


def _require_status(
    db: sqlite3.Connection, table_id: int, allowed: tuple[TableStatus, ...], what: str
) -> TableStatus:
    status = _table_status(db, table_id)
    if status not in allowed:
        raise WrongStatus(f"cannot {what}: table {table_id} is {status}")
    return status


def _touch(db: sqlite3.Connection, table_id: int, now: str) -> None:
    db.execute("UPDATE game_tables SET updated_at = ? WHERE id = ?", (now, table_id))


def _in_transaction(
    db: sqlite3.Connection,
    fn: Callable[[sqlite3.Connection], _T],
    before_commit: Callable[[], None] | None = None,
) -> _T:
    """``fn`` as one write transaction: committed if it returns, rolled back if it (or
    ``before_commit``, a last check) raises."""
    db.execute("BEGIN IMMEDIATE")
    try:
        result = fn(db)
        if before_commit is not None:
            before_commit()
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return result


def _insert_seat(
    db: sqlite3.Connection, table_id: int, seat: tuple[int, int | None, str, str | None]
) -> None:
    seat_no, user_id, name, level = seat
    if _fetch_on(
        db, "SELECT 1 FROM seats WHERE table_id = ? AND seat_no = ?", (table_id, seat_no)
    ):
        raise ConflictError(f"seat {seat_no} of table {table_id} is taken")
    if user_id is not None and _fetch_on(
        db, "SELECT 1 FROM seats WHERE table_id = ? AND user_id = ?", (table_id, user_id)
    ):
        raise ConflictError(f"user {user_id} already sits at table {table_id}")
    db.execute(
        "INSERT INTO seats (table_id, seat_no, user_id, display_name, computer_level)"
        " VALUES (?, ?, ?, ?, ?)",
        (table_id, seat_no, user_id, name, level),
    )


def _check_seat(
    seat_no: int, user_id: int | None, display_name: str, computer_level: str | None
) -> tuple[int, int | None, str, str | None]:
    _int("seat_no", seat_no, 0, 15)
    _opt_id("user_id", user_id)
    name = _name(display_name)
    if (user_id is None) != (computer_level is not None):
        raise InvalidValue("a seat has either a user_id (person) or a computer_level")
    level = None if computer_level is None else _level(computer_level)
    return seat_no, user_id, name, level


class SQLiteStore:
    """The :class:`Store` on SQLite (WAL). Create with ``await SQLiteStore.open(path)``."""

    def __init__(
        self,
        path: Path,
        writer: _Writer,
        reader: _Aio,
        checkpointer: _Aio | None = None,
    ) -> None:
        """Use :meth:`open`; this only wires already-prepared connections."""
        self.path = path
        self._writer: _Writer | None = writer
        self._reader: _Aio | None = reader
        # an inline writer's WAL is checkpointed on this thread every CHECKPOINT_EVERY writes
        self._checkpointer = checkpointer
        self._checkpointer_failed = False  # the next checkpoint uses a fresh connection
        # the file the connections opened (device, inode): the path must still name it for a
        # commit to count, else the commit would go to a deleted or replaced file
        self._path_str = os.fspath(path)  # stat'ed on every commit: skip the Path conversion
        st = os.stat(self._path_str)
        self._file_id = (st.st_dev, st.st_ino)
        self._gone: str | None = None  # why writes are refused for good (file deleted/replaced)
        self._busy = False  # the last write was refused for another program's lock
        self._writes = 0
        self._checkpoint: asyncio.Task[None] | None = None
        self._wlock = asyncio.Lock()  # one write transaction at a time, in order of arrival
        self._pending: list[_PendingMove] = []
        self._flusher: asyncio.Task[None] | None = None
        # seconds spent this turn of the event loop committing moves inline (None: none yet)
        self._inline_spent: float | None = None

    # ---------------------------------------------------------------- open / close

    @classmethod
    async def open(
        cls,
        path: str | PathLike[str],
        *,
        synchronous: Synchronous = "NORMAL",
        migrations_dir: Path | None = None,
    ) -> Self:
        """Open (creating if missing) the database at ``path`` and bring its schema up to date.

        Creates the parent directory. Refuses, with :class:`CorruptDatabase` and without
        writing a byte, a file that is not an SQLite database or fails ``PRAGMA quick_check``;
        refuses with :class:`SchemaTooNew` a database written by newer code.
        """
        if synchronous not in ("NORMAL", "FULL"):
            raise InvalidValue(f"synchronous must be 'NORMAL' or 'FULL', got {synchronous!r}")
        db_path = Path(path)
        migrations = _load_migrations(migrations_dir or MIGRATIONS_DIR)
        try:
            db_path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the directory for database {db_path}: {exc}") from None
        _check_header(db_path)
        writer, checkpointer = cls._writers(synchronous)
        inline = writer.inline
        reader = _Aio()
        try:
            try:
                await writer.connect(db_path)
            except sqlite3.Error as exc:
                raise StoreError(f"cannot open database {db_path}: {exc}") from None

            def prepare(db: sqlite3.Connection) -> None:
                try:
                    _quick_check(db, db_path)
                    _configure(db, db_path, synchronous)
                    _migrate(db, db_path, migrations)
                    _check_writable(db, db_path)
                except sqlite3.OperationalError as exc:
                    if _is_not_writable(exc):
                        raise _read_only(db_path, exc) from None
                    raise StoreError(f"cannot use database {db_path}: {exc}") from None
                if checkpointer is not None:
                    db.execute("PRAGMA wal_autocheckpoint = 0")
                if inline:
                    # the event loop never waits for another program's write lock (_Writer)
                    db.execute("PRAGMA busy_timeout = 0")

            await writer.call(prepare)
            await reader.connect(
                db_path,
                f"PRAGMA busy_timeout = {READ_BUSY_MS}",
                "PRAGMA query_only = ON",
                _OPEN_FILES,
            )
            if checkpointer is not None:
                await checkpointer.connect(db_path, *_CHECKPOINTER_SETUP)
        except BaseException:
            await reader.close()
            await writer.close()
            if checkpointer is not None:
                await checkpointer.close()
            raise
        return cls(db_path, writer, reader, checkpointer)

    @classmethod
    def _writers(cls, synchronous: Synchronous) -> tuple[_Writer, _Aio | None]:
        """The writer, and the connection that checkpoints its WAL if it does not itself."""
        if synchronous == "NORMAL":  # commits that do not wait for the disk: inline
            return _Writer(inline=True), _Aio()
        return _Writer(inline=False), None

    async def close(self) -> None:
        """Wait for pending writes, then checkpoint the WAL into the file and close."""
        if self._writer is None or self._reader is None:
            return
        if self._flusher is not None:
            await asyncio.shield(self._flusher)
        if self._checkpoint is not None:  # it takes the write lock: let it finish first
            await asyncio.gather(asyncio.shield(self._checkpoint), return_exceptions=True)
        async with self._wlock:
            writer, reader = self._writer, self._reader
            self._writer = self._reader = None
            checkpointer, self._checkpointer = self._checkpointer, None
            if self._checkpoint is not None:  # asked for since, waiting for this lock: the
                self._checkpoint.cancel()  # TRUNCATE checkpoint below does its work

            def finish(db: sqlite3.Connection) -> None:
                db.execute("PRAGMA optimize")
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

            try:
                await reader.close()
                if checkpointer is not None:
                    await checkpointer.close()
                await writer.call(finish, CLOSE_BUSY_MS)
            except sqlite3.Error as exc:  # nothing is lost: the WAL is read at the next start
                _log.warning("could not checkpoint %s at close: %s", self.path, exc)
            finally:
                await writer.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _w(self) -> _Writer:
        if self._writer is None:
            raise StoreClosed(f"store {self.path} is closed")
        return self._writer

    def _r(self) -> _Aio:
        if self._reader is None:
            raise StoreClosed(f"store {self.path} is closed")
        return self._reader

    async def _write(self, fn: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``fn`` as one write transaction on the writer (inline, or its thread).

        Refused with a :class:`StoreUnavailable` (nothing written) when the database is locked
        by another program for too long, cannot be written, or was deleted or replaced."""
        async with self._wlock:
            db = self._w()
            try:
                return await self._call_writer(
                    db, lambda conn: _in_transaction(conn, fn, self._check_file)
                )
            finally:
                self._wrote()

    async def _call_writer(self, writer: _Writer, fn: Callable[[sqlite3.Connection], _T]) -> _T:
        """``fn`` (one transaction) on the writer; the database's troubles as store errors."""
        if self._gone is not None:
            raise DatabaseGone(self._gone)
        try:
            result = await writer.call(fn, BUSY_AGAIN_MS if self._busy else BUSY_WAIT_MS)
        except sqlite3.DatabaseError as exc:
            if type(exc) not in (sqlite3.OperationalError, sqlite3.DatabaseError):
                raise  # a refused row (IntegrityError: the caller explains it) or a bug
            if _is_busy(exc):
                self._busy = True
                raise StoreBusy(
                    f"database {self.path} is locked by another program (a sqlite3 shell, a "
                    "backup?) for longer than a click can wait; nothing was written"
                ) from None
            if _is_not_writable(exc):
                raise _read_only(self.path, exc) from None
            raise StoreUnavailable(f"could not write to database {self.path}: {exc}") from None
        self._busy = False
        return result

    def _check_file(self) -> None:
        """Refuse the commit if the path no longer names the file the store opened (deleted,
        or replaced by another, e.g. a backup put in its place): the moves would be lost at
        the next start. Once seen, every write is refused until a restart; said once."""
        if self._gone is not None:
            raise DatabaseGone(self._gone)
        try:
            st = os.stat(self._path_str)  # ~3-5 us, against ~40-100 us for the commit
        except FileNotFoundError:
            how = "deleted"
        except OSError:  # cannot tell (e.g. the folder is not searchable): the open file works
            return
        else:
            if (st.st_dev, st.st_ino) == self._file_id:
                return
            how = "replaced by another file"
        self._gone = (
            f"database file {self.path} was {how} while the bot was running; writes are "
            "refused so that none is acknowledged and then lost. Restart the bot to use the "
            "file now at that path"
        )
        _log.error("%s", self._gone)
        raise DatabaseGone(self._gone)

    def _wrote(self) -> None:
        """Count a write transaction; every CHECKPOINT_EVERY, checkpoint the WAL on the
        checkpointer's thread (inline writers only; one checkpoint at a time)."""
        if self._checkpointer is None:
            return
        self._writes += 1
        if self._writes < CHECKPOINT_EVERY or self._checkpoint is not None:
            return
        self._writes = 0

        async def checkpoint() -> None:
            # Writes wait (the event loop does not): a checkpoint that copies the whole log
            # lets the next commit start the log from its beginning again; with writes going
            # on during it, the log would only ever grow.
            try:
                async with self._wlock:
                    if self._checkpointer_failed:
                        await self._renew_checkpointer()
                    if self._checkpointer is not None:
                        # fetched: the statement does not stay open (it would hold a snapshot)
                        await self._checkpointer.fetch("PRAGMA wal_checkpoint(PASSIVE)")
                        self._checkpointer_failed = False
            except Exception as exc:  # the next one tries again; writing goes on regardless
                # ...on a fresh connection: a failed one may keep failing (one that opened the
                # WAL read-only keeps it read-only)
                self._checkpointer_failed = True
                _log.warning("WAL checkpoint of %s failed: %s", self.path, exc)
            finally:
                self._checkpoint = None

        self._checkpoint = asyncio.get_running_loop().create_task(checkpoint())

    async def _renew_checkpointer(self) -> None:
        old, self._checkpointer = self._checkpointer, None
        if old is None:  # closed
            return
        await old.close()
        fresh = _Aio()
        try:
            await fresh.connect(self.path, *_CHECKPOINTER_SETUP)
        except BaseException:
            await fresh.close()
            self._checkpointer = _Aio()  # unconnected: fails, renews
            raise
        self._checkpointer = fresh

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        """One query on the reader (committed data only; one hop to aiosqlite's thread)."""
        return await self._r().fetch(sql, params)

    async def _snapshot(self, queries: Sequence[tuple[str, Sequence[Any]]]) -> list[Rows]:
        """Several queries in one read transaction: one consistent snapshot."""
        return await self._r().many(queries)

    # ---------------------------------------------------------------- tables

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        settings: Mapping[str, Any],
        *,
        game: str = "albastini",
        language: str = "en",
        seats: Sequence[NewSeat] = (),
    ) -> TableRecord:
        """Open a lobby in ``channel_id``; :class:`ChannelBusy` if one is already active there.

        ``seats`` are taken in the same transaction (the host's seat, or a rematch's players),
        checked as :meth:`add_seat` checks them: a refused seat leaves no table behind.
        """
        params = (
            _id("guild_id", guild_id),
            _id("channel_id", channel_id),
            _id("host_id", host_id),
        )
        if not isinstance(game, str) or not _GAME_RE.fullmatch(game):
            raise InvalidValue(f"game must be 1-32 characters of a-z 0-9 _, got {game!r}")
        text = _settings_json(settings)
        lang = _language(language)
        checked = [
            _check_seat(s.seat_no, s.user_id, s.display_name, s.computer_level) for s in seats
        ]
        now = _now()

        def tx(db: sqlite3.Connection) -> Rows:
            cur = db.execute(
                "INSERT INTO game_tables (guild_id, channel_id, host_id, game, settings, "
                "status, language, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?)",
                (*params, game, text, lang, now, now),
            )
            table_id = cur.lastrowid
            assert table_id is not None
            for seat in checked:
                _insert_seat(db, table_id, seat)
            return _fetch_on(db, f"SELECT {_TABLE_COLS} FROM game_tables WHERE id = ?", (table_id,))

        try:
            rows = await self._write(tx)
        except sqlite3.IntegrityError as exc:
            if "game_tables.channel_id" in str(exc):
                raise ChannelBusy(
                    f"channel {channel_id} already has a table in the lobby or running"
                ) from None
            raise InvalidValue(f"table refused by the database: {exc}") from None
        return _table(rows[0])

    async def get_table(self, table_id: int) -> TableRecord:
        """The table with this id; :class:`UnknownTable` if there is none."""
        rows = await self._fetch(
            f"SELECT {_TABLE_COLS} FROM game_tables WHERE id = ?", (_id("table_id", table_id),)
        )
        if not rows:
            raise UnknownTable(f"no table {table_id}")
        return _table(rows[0])

    async def active_table(self, channel_id: int) -> TableRecord | None:
        """The channel's table in the lobby or running, if any."""
        rows = await self._fetch(
            f"SELECT {_TABLE_COLS} FROM game_tables "
            "WHERE channel_id = ? AND status IN ('lobby', 'running')",
            (_id("channel_id", channel_id),),
        )
        return _table(rows[0]) if rows else None

    async def update_table_settings(
        self, table_id: int, settings: Mapping[str, Any]
    ) -> TableRecord:
        """Replace the mode settings of a table still in the lobby."""
        _id("table_id", table_id)
        text = _settings_json(settings)

        def tx(db: sqlite3.Connection) -> Rows:
            _require_status(db, table_id, ("lobby",), "change the settings")
            db.execute(
                "UPDATE game_tables SET settings = ?, updated_at = ? WHERE id = ?",
                (text, _now(), table_id),
            )
            return _fetch_on(db, f"SELECT {_TABLE_COLS} FROM game_tables WHERE id = ?", (table_id,))

        return _table((await self._write(tx))[0])

    async def set_message_id(self, table_id: int, message_id: int | None) -> None:
        """Remember the public message of the table, so it can be edited after a restart."""
        _id("table_id", table_id)
        _opt_id("message_id", message_id)

        def tx(db: sqlite3.Connection) -> None:
            _table_status(db, table_id)
            db.execute(
                "UPDATE game_tables SET message_id = ?, updated_at = ? WHERE id = ?",
                (message_id, _now(), table_id),
            )

        await self._write(tx)

    async def start_table(
        self, table_id: int, dealer_seat: int, seed: int, deck: Sequence[str] | None = None
    ) -> DealRecord:
        """Lobby → running, and record deal 1 (dealer and seed) in the same transaction."""
        _id("table_id", table_id)
        _int("dealer_seat", dealer_seat, 0, 15)
        db_seed, deck_text = _seed_to_db(seed), _deck(deck)
        now = _now()

        def tx(db: sqlite3.Connection) -> None:
            _require_status(db, table_id, ("lobby",), "start")
            if not _fetch_on(
                db,
                "SELECT 1 FROM seats WHERE table_id = ? AND seat_no = ?",
                (table_id, dealer_seat),
            ):
                raise UnknownSeat(f"table {table_id} has no seat {dealer_seat} to deal")
            db.execute(
                "UPDATE game_tables SET status = 'running', updated_at = ? WHERE id = ?",
                (now, table_id),
            )
            db.execute(
                f"INSERT INTO deals ({_DEAL_COLS}) VALUES (?, 1, ?, ?, ?, ?)",
                (table_id, dealer_seat, db_seed, deck_text, now),
            )

        await self._write(tx)
        return DealRecord(table_id, 1, dealer_seat, seed, tuple(deck) if deck else None, _ts(now))

    async def cancel_table(self, table_id: int) -> None:
        """Lobby or running → cancelled (the log is kept; the channel is free again)."""
        await self._set_final_status(table_id, "cancelled", ())

    async def finish_table(self, table_id: int, results: Sequence[PlayerResult]) -> None:
        """Running → finished, storing one result row per person seated at the end.

        Every result must belong to a person holding a seat (computers get none); a person who
        left mid-match (their seat handed to the computer) gets no result.
        """
        rows = []
        seen: set[int] = set()
        if isinstance(results, str | bytes) or not isinstance(results, Sequence):
            raise InvalidValue(f"results must be a sequence of PlayerResult, got {results!r}")
        for r in results:
            if not isinstance(r, PlayerResult):
                raise InvalidValue(f"results must be PlayerResult records, got {r!r}")
            uid = _id("user_id", r.user_id)
            if uid in seen:
                raise InvalidValue(f"user {uid} has two results in table {table_id}")
            seen.add(uid)
            played = _int("deals_played", r.deals_played, 0, 10_000)
            won_deals = _int("deals_won", r.deals_won, 0, played)
            rows.append(
                (
                    uid,
                    _int("team", r.team, 0, 15),
                    _int("team_vp", r.team_vp, 0, 1000),
                    _bool("won", r.won),
                    played,
                    won_deals,
                    _int("deals_won_2vp", r.deals_won_2vp, 0, won_deals),
                    _int("card_points", r.card_points, 0, 1_000_000),
                )
            )
        await self._set_final_status(table_id, "finished", rows)

    async def _set_final_status(
        self, table_id: int, status: TableStatus, rows: Sequence[tuple[Any, ...]]
    ) -> None:
        _id("table_id", table_id)
        allowed: tuple[TableStatus, ...] = (
            ("running",) if status == "finished" else ("lobby", "running")
        )
        now = _now()

        def tx(db: sqlite3.Connection) -> None:
            _require_status(db, table_id, allowed, f"mark as {status}")
            db.execute(
                "UPDATE game_tables SET status = ?, updated_at = ? WHERE id = ?",
                (status, now, table_id),
            )
            if rows:
                seated = _fetch_on(
                    db,
                    "SELECT user_id FROM seats WHERE table_id = ? AND user_id IS NOT NULL",
                    (table_id,),
                )
                strangers = {r[0] for r in rows} - {r[0] for r in seated}
                if strangers:
                    raise ConflictError(
                        f"results for users {sorted(strangers)} who hold no seat at "
                        f"table {table_id}"
                    )
                db.executemany(
                    "INSERT INTO match_results (table_id, guild_id, game, user_id, team, "
                    "team_vp, won, deals_played, deals_won, deals_won_2vp, card_points, "
                    "finished_at) SELECT id, guild_id, game, ?, ?, ?, ?, ?, ?, ?, ?, ? "
                    "FROM game_tables WHERE id = ?",
                    [(*r, now, table_id) for r in rows],
                )

        await self._write(tx)

    async def load_table(self, table_id: int) -> TableSnapshot:
        """The table with its seats, deals (with results) and moves, as one consistent snapshot."""
        _id("table_id", table_id)
        snaps = await self._snapshots("WHERE id = ?", (table_id,))
        if not snaps:
            raise UnknownTable(f"no table {table_id}")
        return snaps[0]

    async def unfinished_tables(self) -> list[TableSnapshot]:
        """Every table in the lobby or running, with seats, deals and moves, ordered by id.

        The table service calls this at start-up and replays each table's moves.
        """
        return await self._snapshots("WHERE status IN ('lobby', 'running')", ())

    async def _snapshots(self, where: str, params: tuple[Any, ...]) -> list[TableSnapshot]:
        sub = f"SELECT id FROM game_tables {where}"

        tables, seats, deals, results, moves = await self._snapshot(
            [
                (f"SELECT {_TABLE_COLS} FROM game_tables {where} ORDER BY id", params),
                (
                    f"SELECT {_SEAT_COLS} FROM seats WHERE table_id IN ({sub}) "
                    "ORDER BY table_id, seat_no",
                    params,
                ),
                (
                    f"SELECT {_DEAL_COLS} FROM deals WHERE table_id IN ({sub}) "
                    "ORDER BY table_id, deal_no",
                    params,
                ),
                (f"SELECT {_RESULT_COLS} FROM deal_results WHERE table_id IN ({sub})", params),
                (
                    f"SELECT {_MOVE_COLS} FROM moves WHERE table_id IN ({sub}) "
                    "ORDER BY table_id, move_no",
                    params,
                ),
            ]
        )
        by_result = {(r[0], r[1]): _result(r) for r in results}
        seat_map: dict[int, list[SeatRecord]] = {}
        for r in seats:
            seat_map.setdefault(r[0], []).append(_seat(r))
        deal_map: dict[int, list[DealRecord]] = {}
        for r in deals:
            deal_map.setdefault(r[0], []).append(_deal(r, by_result.get((r[0], r[1]))))
        move_map: dict[int, list[MoveRecord]] = {}
        for r in moves:
            move_map.setdefault(r[0], []).append(_move(r))
        out = []
        for r in tables:
            t = _table(r)
            out.append(
                TableSnapshot(
                    t,
                    tuple(seat_map.get(t.id, ())),
                    tuple(deal_map.get(t.id, ())),
                    tuple(move_map.get(t.id, ())),
                )
            )
        return out

    # ---------------------------------------------------------------- seats

    async def add_seat(
        self,
        table_id: int,
        seat_no: int,
        user_id: int | None,
        display_name: str,
        computer_level: str | None = None,
    ) -> SeatRecord:
        """Seat a person (``user_id``) or a computer (``user_id=None`` + level) in the lobby.

        Names are stripped and truncated to 100 characters. :class:`ConflictError` if the seat
        is taken or the person already sits at this table.
        """
        _id("table_id", table_id)
        seat = _check_seat(seat_no, user_id, display_name, computer_level)

        def tx(db: sqlite3.Connection) -> None:
            _require_status(db, table_id, ("lobby",), "add a seat")
            _insert_seat(db, table_id, seat)
            _touch(db, table_id, _now())

        await self._write(tx)
        return SeatRecord(table_id, seat_no, user_id, seat[2], seat[3], False, False, 0)

    async def remove_seat(self, table_id: int, seat_no: int) -> None:
        """Free a seat in the lobby (someone leaves, or the host removes a computer)."""
        _id("table_id", table_id)
        _int("seat_no", seat_no, 0, 15)

        def tx(db: sqlite3.Connection) -> None:
            _require_status(db, table_id, ("lobby",), "remove a seat")
            cur = db.execute(
                "DELETE FROM seats WHERE table_id = ? AND seat_no = ?", (table_id, seat_no)
            )
            if cur.rowcount != 1:
                raise UnknownSeat(f"table {table_id} has no seat {seat_no}")
            _touch(db, table_id, _now())

        await self._write(tx)

    async def replace_with_computer(
        self, table_id: int, seat_no: int, computer_level: str, display_name: str
    ) -> SeatRecord:
        """A person leaves a running game: the computer takes their seat for good."""
        _id("table_id", table_id)
        _int("seat_no", seat_no, 0, 15)
        level, name = _level(computer_level), _name(display_name)

        def tx(db: sqlite3.Connection) -> None:
            _require_status(db, table_id, ("running",), "hand a seat over")
            cur = db.execute(
                "UPDATE seats SET user_id = NULL, computer_level = ?, display_name = ?, "
                "away = 0, computer_control = 0, timeouts = 0 "
                "WHERE table_id = ? AND seat_no = ?",
                (level, name, table_id, seat_no),
            )
            if cur.rowcount != 1:
                raise UnknownSeat(f"table {table_id} has no seat {seat_no}")
            _touch(db, table_id, _now())

        await self._write(tx)
        return SeatRecord(table_id, seat_no, None, name, level, False, False, 0)

    async def update_seat(
        self,
        table_id: int,
        seat_no: int,
        *,
        away: bool | None = None,
        computer_control: bool | None = None,
        timeouts: int | None = None,
    ) -> SeatRecord:
        """Set the away / under-computer-control flags or the consecutive timeout count.

        Arguments left as None are unchanged. Allowed while the table is in the lobby or running.
        """
        _id("table_id", table_id)
        _int("seat_no", seat_no, 0, 15)
        sets: list[str] = []
        params: list[Any] = []
        if away is not None:
            sets.append("away = ?")
            params.append(_bool("away", away))
        if computer_control is not None:
            sets.append("computer_control = ?")
            params.append(_bool("computer_control", computer_control))
        if timeouts is not None:
            sets.append("timeouts = ?")
            params.append(_int("timeouts", timeouts, 0, 1_000_000))

        def tx(db: sqlite3.Connection) -> Rows:
            _require_status(db, table_id, ("lobby", "running"), "update a seat")
            if sets:
                db.execute(
                    f"UPDATE seats SET {', '.join(sets)} WHERE table_id = ? AND seat_no = ?",
                    (*params, table_id, seat_no),
                )
            rows = _fetch_on(
                db,
                f"SELECT {_SEAT_COLS} FROM seats WHERE table_id = ? AND seat_no = ?",
                (table_id, seat_no),
            )
            if not rows:
                raise UnknownSeat(f"table {table_id} has no seat {seat_no}")
            return rows

        return _seat((await self._write(tx))[0])

    async def seats(self, table_id: int) -> list[SeatRecord]:
        """The table's seats by seat number (empty list for an unknown table)."""
        rows = await self._fetch(
            f"SELECT {_SEAT_COLS} FROM seats WHERE table_id = ? ORDER BY seat_no",
            (_id("table_id", table_id),),
        )
        return [_seat(r) for r in rows]

    # ---------------------------------------------------------------- deals and moves

    async def begin_deal(
        self,
        table_id: int,
        deal_no: int,
        dealer_seat: int,
        seed: int,
        deck: Sequence[str] | None = None,
    ) -> DealRecord:
        """Record the next deal (``deal_no`` = last + 1, after the last deal's result)."""
        _id("table_id", table_id)
        _int("deal_no", deal_no, 1, 1_000_000)
        _int("dealer_seat", dealer_seat, 0, 15)
        db_seed, deck_text = _seed_to_db(seed), _deck(deck)
        now = _now()

        def tx(db: sqlite3.Connection) -> None:
            _require_status(db, table_id, ("running",), "deal")
            rows = _fetch_on(
                db,
                "SELECT d.deal_no, r.deal_no FROM deals d LEFT JOIN deal_results r "
                "USING (table_id, deal_no) WHERE d.table_id = ? "
                "ORDER BY d.deal_no DESC LIMIT 1",
                (table_id,),
            )
            last = rows[0][0] if rows else 0
            if deal_no <= last:
                raise ConflictError(f"table {table_id} already has deal {deal_no}")
            if deal_no != last + 1:
                raise ConflictError(f"table {table_id}: the next deal is {last + 1}")
            if rows and rows[0][1] is None:
                raise ConflictError(f"deal {last} of table {table_id} has no result yet")
            db.execute(
                f"INSERT INTO deals ({_DEAL_COLS}) VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, deal_no, dealer_seat, db_seed, deck_text, now),
            )

        try:
            await self._write(tx)
        except sqlite3.IntegrityError:  # the dealer seat does not exist (foreign key)
            raise UnknownSeat(f"table {table_id} has no seat {dealer_seat} to deal") from None
        return DealRecord(
            table_id, deal_no, dealer_seat, seed, tuple(deck) if deck else None, _ts(now)
        )

    async def record_deal_result(
        self,
        table_id: int,
        deal_no: int,
        card_points: Sequence[int],
        winner_team: int | None,
        vp: int,
    ) -> DealResult:
        """Store a finished deal: card points per team, winner (None on a tie), VP (0 on a tie)."""
        _id("table_id", table_id)
        _int("deal_no", deal_no, 1, 1_000_000)
        if (
            isinstance(card_points, str | bytes)
            or not isinstance(card_points, Sequence)
            or not 1 <= len(card_points) <= 16
        ):
            raise InvalidValue(f"card_points must list 1-16 team totals, got {card_points!r}")
        points = tuple(_int("card points", p, 0, 1000) for p in card_points)
        if winner_team is None:
            if vp != 0:
                raise InvalidValue(f"a tied deal awards no VP, got vp={vp!r}")
        else:
            _int("winner_team", winner_team, 0, len(points) - 1)
            _int("vp", vp, 1, 2)
        now = _now()

        def tx(db: sqlite3.Connection) -> None:
            _require_status(db, table_id, ("running",), "score a deal")
            if not _fetch_on(
                db,
                "SELECT 1 FROM deals WHERE table_id = ? AND deal_no = ?",
                (table_id, deal_no),
            ):
                raise ConflictError(f"table {table_id} has no deal {deal_no}")
            if _fetch_on(
                db,
                "SELECT 1 FROM deal_results WHERE table_id = ? AND deal_no = ?",
                (table_id, deal_no),
            ):
                raise ConflictError(f"deal {deal_no} of table {table_id} is already scored")
            db.execute(
                f"INSERT INTO deal_results ({_RESULT_COLS}) VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, deal_no, json.dumps(list(points)), winner_team, vp, now),
            )

        await self._write(tx)
        return DealResult(table_id, deal_no, points, winner_team, vp, _ts(now))

    async def append_move(
        self,
        table_id: int,
        move_no: int,
        deal_no: int,
        seat_no: int,
        action: str,
        *,
        user_id: int | None,
        by_computer: bool,
    ) -> MoveRecord:
        """Append one action to the table's log; committed (durable) when this returns.

        ``move_no`` must be the last move number + 1 (1 for the first move): a number already
        used raises :class:`StaleMove`, one further ahead :class:`MoveGap`. The table must be
        running and ``deal_no`` its current, unscored deal. A computer's move has
        ``user_id=None`` and ``by_computer=True``. On any error nothing is written.

        Moves arriving while a commit is in flight are committed together (group commit).
        If the caller is cancelled after the move was handed to a commit, it may still be
        stored; reload the log to know.
        """
        params = (
            _id("table_id", table_id),
            _int("move_no", move_no, 1, _INT64_MAX),
            _int("deal_no", deal_no, 1, 1_000_000),
            _int("seat_no", seat_no, 0, 15),
            _opt_id("user_id", user_id),
            _action(action),
            _bool("by_computer", by_computer),
            _now(),
        )
        if (user_id is None) != by_computer:
            raise InvalidValue("a computer's move has user_id=None; a person's move has a user_id")
        writer = self._w()
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        pending = _PendingMove(params, fut)
        if (
            writer.inline
            and self._flusher is None
            and not self._wlock.locked()
            and (self._inline_spent or 0.0) < INLINE_BUDGET
        ):
            # Nothing else is writing: commit right here, without waiting for a turn of the
            # event loop (an inline commit is cheaper than the turn). Up to INLINE_BUDGET per
            # turn: beyond it, moves of the same turn are grouped by the flusher, so a caller
            # appending in a loop still lets the event loop run.
            started = time.perf_counter()
            try:
                async with self._wlock:
                    await self._commit_batch([pending])
            finally:
                if self._inline_spent is None:
                    asyncio.get_running_loop().call_soon(self._next_turn)
                self._inline_spent = (self._inline_spent or 0.0) + time.perf_counter() - started
        else:
            self._pending.append(pending)
            if self._flusher is None:
                self._flusher = asyncio.create_task(self._flush_moves())
        await fut
        return MoveRecord(
            table_id, move_no, deal_no, seat_no, user_id, action, by_computer, _ts(params[-1])
        )

    def _next_turn(self) -> None:
        self._inline_spent = None

    async def _flush_moves(self) -> None:
        """Commit pending moves in batches until none are left (runs as one task at a time)."""
        try:
            while self._pending:
                # One batch per turn of the (FIFO) lock, so that other writes are not starved
                # by a steady stream of moves.
                async with self._wlock:
                    batch = [p for p in self._pending if not p.future.done()]
                    self._pending = []
                    if batch:
                        await self._commit_batch(batch)
        finally:
            self._flusher = None
            for p in self._pending:  # only if the store broke down mid-way
                if not p.future.done():
                    p.future.set_exception(StoreClosed(f"store {self.path} is closed"))
            self._pending = []

    async def _commit_batch(self, batch: list[_PendingMove]) -> None:
        params = [p.params for p in batch]
        try:
            try:
                errors = await self._call_writer(
                    self._w(), lambda db: _insert_moves(db, params, self._check_file)
                )
            finally:
                self._wrote()
        except BaseException as exc:
            for p in batch:
                if not p.future.done():
                    p.future.set_exception(_wrap_commit_error(exc, self.path))
            if not isinstance(exc, Exception):
                raise
            return
        for i, p in enumerate(batch):
            if p.future.done():
                continue
            if i in errors:
                p.future.set_exception(errors[i])
            else:
                p.future.set_result(None)

    async def moves(self, table_id: int, after: int = 0) -> list[MoveRecord]:
        """The table's moves with number > ``after``, in order."""
        rows = await self._fetch(
            f"SELECT {_MOVE_COLS} FROM moves WHERE table_id = ? AND move_no > ? ORDER BY move_no",
            (_id("table_id", table_id), _int("after", after, 0, _INT64_MAX)),
        )
        return [_move(r) for r in rows]

    # ---------------------------------------------------------------- settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, or the defaults (60 s, 5 VP, English) if never set."""
        rows = await self._fetch(
            "SELECT turn_time, target_vp, language FROM guild_settings WHERE guild_id = ?",
            (_id("guild_id", guild_id),),
        )
        if not rows:
            return GuildSettings(guild_id)
        return GuildSettings(guild_id, rows[0][0], rows[0][1], rows[0][2])

    async def set_guild_settings(
        self,
        guild_id: int,
        *,
        turn_time: int | None = None,
        target_vp: int | None = None,
        language: str | None = None,
    ) -> GuildSettings:
        """Change some of a guild's settings (None = keep); returns the settings now in force.

        Turn time 15-600 s, target 1-21 VP, language 'en' or 'sw'; others raise
        :class:`InvalidValue` and change nothing.
        """
        _id("guild_id", guild_id)
        if turn_time is not None:
            _int("turn time (seconds)", turn_time, *TURN_TIME_RANGE)
        if target_vp is not None:
            _int("target VP", target_vp, *TARGET_VP_RANGE)
        if language is not None:
            _language(language)

        def tx(db: sqlite3.Connection) -> GuildSettings:
            rows = _fetch_on(
                db,
                "SELECT turn_time, target_vp, language FROM guild_settings WHERE guild_id = ?",
                (guild_id,),
            )
            old = GuildSettings(guild_id, *rows[0]) if rows else GuildSettings(guild_id)
            new = GuildSettings(
                guild_id,
                old.turn_time if turn_time is None else turn_time,
                old.target_vp if target_vp is None else target_vp,
                old.language if language is None else _language(language),
            )
            db.execute(
                "INSERT INTO guild_settings (guild_id, turn_time, target_vp, language, "
                "language_chosen, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET "
                "turn_time = excluded.turn_time, target_vp = excluded.target_vp, "
                "language = excluded.language, "
                "language_chosen = MAX(language_chosen, excluded.language_chosen), "
                "updated_at = excluded.updated_at",
                (
                    guild_id,
                    new.turn_time,
                    new.target_vp,
                    new.language,
                    int(language is not None),
                    _now(),
                ),
            )
            return new

        return await self._write(tx)

    async def guild_language_chosen(self, guild_id: int) -> bool:
        """Whether the guild ever set its language (False: the bot's default applies)."""
        rows = await self._fetch(
            "SELECT language_chosen FROM guild_settings WHERE guild_id = ?",
            (_id("guild_id", guild_id),),
        )
        return bool(rows and rows[0][0])

    async def user_language(self, user_id: int) -> Language | None:
        """The user's preferred language, or None to follow the guild's."""
        rows = await self._fetch(
            "SELECT language FROM user_preferences WHERE user_id = ?", (_id("user_id", user_id),)
        )
        return cast(Language | None, rows[0][0]) if rows else None

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        """Set ('en' or 'sw') or clear (None) the user's preferred language."""
        _id("user_id", user_id)
        lang = None if language is None else _language(language)

        def tx(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO user_preferences (user_id, language, updated_at) "
                "VALUES (?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                "language = excluded.language, updated_at = excluded.updated_at",
                (user_id, lang, _now()),
            )

        await self._write(tx)

    # ---------------------------------------------------------------- statistics

    async def leaderboard(
        self, guild_id: int, limit: int = 10, offset: int = 0, *, game: str = "albastini"
    ) -> LeaderboardPage:
        """A page of the guild's players ranked by matches won, then VP, then user id.

        Reads ``player_totals``, the per-player sums of ``match_results`` that triggers keep in
        the same transaction as each result (see migration 0002); ``rank`` starts at offset + 1.
        """
        _id("guild_id", guild_id)
        _int("limit", limit, 1, 100)
        _int("offset", offset, 0, 10_000_000)

        rows, total = await self._snapshot(
            [
                (
                    "SELECT user_id, matches_played, matches_won, vp, deals_played, deals_won, "
                    "deals_won_2vp, card_points FROM player_totals "
                    "WHERE guild_id = ? AND game = ? "
                    "ORDER BY matches_won DESC, vp DESC, user_id LIMIT ? OFFSET ?",
                    (guild_id, game, limit, offset),
                ),
                (
                    "SELECT count(*) FROM player_totals WHERE guild_id = ? AND game = ?",
                    (guild_id, game),
                ),
            ]
        )
        entries = tuple(_stats(r, offset + i + 1) for i, r in enumerate(rows))
        return LeaderboardPage(entries, int(total[0][0]), offset, limit)

    async def user_stats(
        self, guild_id: int, user_id: int, *, game: str = "albastini"
    ) -> PlayerStats:
        """A player's totals in the guild (zeros if they never finished a match there)."""
        _id("guild_id", guild_id)
        _id("user_id", user_id)
        rows = await self._fetch(
            f"SELECT {_STATS_COLS} FROM match_results "
            "WHERE guild_id = ? AND game = ? AND user_id = ?",
            (guild_id, game, user_id),
        )
        r = rows[0]
        if r[1] == 0:
            return PlayerStats(user_id, 0, 0, 0, 0, 0, 0, 0)
        return _stats(r)


# --------------------------------------------------------------------------- helpers


def _insert_moves(
    db: sqlite3.Connection,
    batch: list[tuple[Any, ...]],
    before_commit: Callable[[], None] | None = None,
) -> dict[int, StoreError]:
    """One transaction for a batch of moves; returns the refused ones by index (not written).

    Usually every move is fine: the whole batch goes in with one ``executemany``. If one is
    refused, the batch is retried one by one so that only the refused moves are left out.
    """
    sql = f"INSERT INTO moves ({_MOVE_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
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

    _in_transaction(db, insert, before_commit)
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


def _wrap_commit_error(exc: BaseException, path: Path) -> BaseException:
    if isinstance(exc, StoreError) or not isinstance(exc, Exception):
        return exc
    return StoreError(f"could not commit moves to {path}: {exc}")


def _check_header(path: Path) -> None:
    """Refuse a file that is not an SQLite database before SQLite is let near it."""
    try:
        with path.open("rb") as f:
            head = f.read(len(_SQLITE_MAGIC))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"cannot read database file {path}: {exc}") from None
    if head and head != _SQLITE_MAGIC:
        raise CorruptDatabase(
            f"{path} is not an SQLite database (wrong header); it was left untouched. "
            "Restore it from a backup or point ALBASTINI_DB at another file."
        )


def _quick_check(db: sqlite3.Connection, path: Path) -> None:
    try:
        rows = _fetch_on(db, "PRAGMA quick_check")
    except sqlite3.DatabaseError as exc:
        if _errcode(exc) not in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
            raise  # not the file's content: locked, read-only... (see SQLiteStore.open)
        raise CorruptDatabase(
            f"database {path} is unreadable ({exc}); it was left untouched. "
            "Restore it from a backup or point ALBASTINI_DB at another file."
        ) from None
    problems = [str(r[0]) for r in rows]
    if problems != ["ok"]:
        raise CorruptDatabase(
            f"database {path} fails its integrity check ({'; '.join(problems[:3])}); "
            "it was left untouched. Restore it from a backup."
        )


def _check_writable(db: sqlite3.Connection, path: Path) -> None:
    """Refuse at start a database that cannot be written, instead of saying "ready" and then
    failing every command: SQLite opens a file it may not write read-only without a word, and
    ``BEGIN IMMEDIATE`` succeeds on it; the first write to a page is what fails. This rewrites
    a header field with its own value and rolls back: nothing reaches the file."""
    version = int(_fetch_on(db, "PRAGMA user_version")[0][0])
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(f"PRAGMA user_version = {version}")
    finally:
        db.execute("ROLLBACK")


def _read_only(path: Path, exc: sqlite3.Error) -> DatabaseReadOnly:
    """The store error for a database SQLite cannot write, naming the likely cause."""
    return DatabaseReadOnly(
        f"database {path} cannot be written: {_why_not_writable(path, exc)}. Make the file and "
        "its folder writable for the user the bot runs as, or point ALBASTINI_DB at another "
        "file; nothing was changed."
    )


def _why_not_writable(path: Path, exc: sqlite3.Error) -> str:
    folder = path.parent
    with_wal = (path, Path(f"{path}-wal"), Path(f"{path}-shm"))
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return f"the file system holding {folder} is mounted read-only"
        for f in with_wal:
            if f.exists() and not os.access(f, os.W_OK):
                st = f.stat()
                return (
                    f"the file is read-only for this user ({f.name}: mode "
                    f"{st.st_mode & 0o777:04o}, owner uid {st.st_uid}; the bot runs as uid "
                    f"{os.geteuid()})"
                )
        if not os.access(folder, os.W_OK):
            return (
                f"the folder {folder} is not writable for this user (uid {os.geteuid()}), and "
                f"SQLite keeps {path.name}-wal and {path.name}-shm beside the database"
            )
    except OSError as err:
        return f"{exc} ({err})"
    return (
        f"{exc} (the permissions look right: is the file immutable (lsattr), or on a "
        "read-only mount?)"
    )


def _configure(db: sqlite3.Connection, path: Path, synchronous: Synchronous) -> None:
    db.execute("PRAGMA busy_timeout = 5000")
    rows = _fetch_on(db, "PRAGMA journal_mode = WAL")
    if str(rows[0][0]).lower() != "wal":
        raise StoreError(f"database {path} cannot use WAL mode (got {rows[0][0]!r})")
    db.execute(f"PRAGMA synchronous = {synchronous}")
    db.execute("PRAGMA foreign_keys = ON")


def _migrate(db: sqlite3.Connection, path: Path, migrations: list[_Migration]) -> None:
    db.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    rows = _fetch_on(db, "SELECT coalesce(max(version), 0) FROM schema_version")
    current = int(rows[0][0])
    known = len(migrations)
    if current > known:
        raise SchemaTooNew(
            f"database {path} has schema version {current}, but this code knows only up to "
            f"{known}: it was written by a newer version of the bot. Upgrade the bot; the "
            "database was not changed."
        )
    for m in migrations[current:]:
        script = (
            f"BEGIN IMMEDIATE;\n{m.sql}\n;\n"
            f"INSERT INTO schema_version (version, name, applied_at) "
            f"VALUES ({m.version}, '{m.name}', '{_now()}');\nCOMMIT;"
        )
        try:
            db.executescript(script)
        except sqlite3.Error as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise MigrationError(
                f"migration {m.version:04d}_{m.name}.sql failed on {path}: {exc}; "
                f"the database was left at version {m.version - 1}"
            ) from None


def _conforms(store: SQLiteStore) -> Store:
    return store  # mypy checks here that SQLiteStore implements the Store interface
