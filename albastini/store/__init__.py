"""Persistence: every SQL statement of the project lives behind the :class:`Store` interface.

A table's game state is never stored: it is derived by replaying the mode settings, each deal's
seed and dealer, and the ordered action log through the engine. The store keeps that log
(append-only, numbered without gaps), the results of finished deals and matches, and settings.

One store over two SQL dialects. What every back end shares:

- ``core.py``: every method of the :class:`Store` protocol written once (its checks, statements
  and transaction), ``standings.py`` the ratings, seasons and history among them;
  ``dialect.py``: the seam they run through (a write transaction, the words of SQL that differ,
  the database's refusals of a row, and what an engine provides);
- ``records.py``: the records stored and returned (:class:`TableRecord`, :class:`SeatRecord`,
  :class:`MoveRecord`, :class:`PlayerResult`...); ``errors.py``: the errors (:class:`StoreError`
  and its kinds); ``protocol.py``: the :class:`Store` protocol the table service uses;
  ``values.py``: the checks of the values given to a store, and the conversions SQL needs;
  ``shared.py``: the columns read and the records their rows become, the statements the
  methods share, and the pure part of results, ratings and history.

What differs, each back end's engine (connections, transactions, group commit of moves, the
database's troubles), dialect and migrations:

- ``sqlite/``: :class:`SQLiteStore`, for one bot process: SQLite in WAL mode (see its
  docstring);
- ``postgres/``: :class:`PostgresStore`, on a PostgreSQL server (asyncpg), chosen by a
  ``postgresql://`` URL in ``ALBASTINI_DB`` (:func:`open_store` picks the back end).

Durability: ``synchronous=NORMAL`` in WAL mode (the default here). A commit has written its WAL
frames to the operating system before ``COMMIT`` returns, so a move acknowledged by
:meth:`SQLiteStore.append_move` survives the bot process being killed (SIGKILL, OOM killer,
crash). Only an operating-system crash or power loss may lose the last few commits, and never
corrupts the file. ``synchronous="FULL"`` (fsync on each commit) is available to
:meth:`SQLiteStore.open` for hosts where that matters more than speed. On PostgreSQL a move is
acknowledged once its commit is flushed to the server's write-ahead log (``synchronous_commit``
on): it survives the bot and the server being killed.

Everything is imported from here (``from albastini.store import SQLiteStore, StoreError``);
the submodules are the layout, not the interface. The engine's tunables (``CHECKPOINT_EVERY``,
``INLINE_BUDGET``, the lock waits) live in ``albastini.store.sqlite.engine``, where they are read.
"""

from __future__ import annotations

from os import PathLike
from pathlib import Path

from .errors import (
    ChannelBusy,
    ConflictError,
    CorruptDatabase,
    DatabaseGone,
    DatabaseReadOnly,
    InvalidValue,
    MigrationError,
    MoveGap,
    SchemaTooNew,
    StaleMove,
    StoreBusy,
    StoreClosed,
    StoreError,
    StoreUnavailable,
    UnknownSeat,
    UnknownTable,
    WrongStatus,
)
from .postgres import PostgresStore
from .protocol import Store
from .records import (
    DEFAULT_GUILD_SETTINGS,
    DealRecord,
    DealResultRecord,
    GuildSettings,
    Language,
    LeaderboardPage,
    MatchSummary,
    MoveRecord,
    NewSeat,
    PlayerResult,
    PlayerStats,
    RatingEntry,
    RatingsPage,
    SeatRecord,
    TableRecord,
    TableSnapshot,
    TableStatus,
    TeamResult,
)
from .sqlite import MIGRATIONS_DIR, SQLiteStore, Synchronous
from .values import (
    ACTION_MAX,
    LANGUAGES,
    NAME_MAX,
    SETTINGS_MAX,
    TARGET_VP_RANGE,
    TURN_TIME_RANGE,
)

#: The URL schemes of ALBASTINI_DB that mean a PostgreSQL server (anything else is a file).
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(database: str | PathLike[str]) -> bool:
    """Whether ``database`` names a PostgreSQL server (a URL) rather than an SQLite file."""
    return isinstance(database, str) and database.strip().lower().startswith(POSTGRES_SCHEMES)


async def open_store(database: str | PathLike[str]) -> SQLiteStore | PostgresStore:
    """Open the store ``database`` names: a ``postgresql://`` (or ``postgres://``) URL is a
    PostgreSQL server (:class:`PostgresStore`), anything else the path of an SQLite file
    (:class:`SQLiteStore`). Refusals are :class:`StoreError` (see each ``open``)."""
    if is_postgres_url(database):
        return await PostgresStore.open(str(database).strip())
    return await SQLiteStore.open(Path(database))


__all__ = [
    "ACTION_MAX",
    "DEFAULT_GUILD_SETTINGS",
    "LANGUAGES",
    "MIGRATIONS_DIR",
    "NAME_MAX",
    "POSTGRES_SCHEMES",
    "SETTINGS_MAX",
    "TARGET_VP_RANGE",
    "TURN_TIME_RANGE",
    "ChannelBusy",
    "ConflictError",
    "CorruptDatabase",
    "DatabaseGone",
    "DatabaseReadOnly",
    "DealRecord",
    "DealResultRecord",
    "GuildSettings",
    "InvalidValue",
    "Language",
    "LeaderboardPage",
    "MatchSummary",
    "MigrationError",
    "MoveGap",
    "MoveRecord",
    "NewSeat",
    "PlayerResult",
    "PlayerStats",
    "PostgresStore",
    "RatingEntry",
    "RatingsPage",
    "SQLiteStore",
    "SchemaTooNew",
    "SeatRecord",
    "StaleMove",
    "Store",
    "StoreBusy",
    "StoreClosed",
    "StoreError",
    "StoreUnavailable",
    "Synchronous",
    "TableRecord",
    "TableSnapshot",
    "TableStatus",
    "TeamResult",
    "UnknownSeat",
    "UnknownTable",
    "WrongStatus",
    "is_postgres_url",
    "open_store",
]
