"""The SQLite engine under :class:`~albastini.store.SQLiteStore`: opening and closing the
database, running write transactions and reads on the right connection, group commit of moves,
WAL checkpoints, and the database's troubles (a lock held by another program, a file deleted,
replaced or read-only) turned into store errors: SQLite's :class:`~albastini.store.dialect.Backend`.
The store's logic is ../core.py's and ../standings.py's, its SQLite words dialect.py's.

Every write transaction is one function run on one plain :mod:`sqlite3` connection
(:class:`~.connections.Writer`). With the default ``synchronous=NORMAL`` a commit does not wait
for the disk, so it runs right on the event loop's thread; with ``synchronous="FULL"`` the
writer has its own thread. Moves that arrive together are committed together (group commit),
each caller still awaiting its own commit. Reads use a second connection on aiosqlite's thread
(:class:`~.connections.AioConnection`), so they see committed data only and never wait behind a
write; the WAL checkpoints of an inline writer, which do wait for the disk, run on a third.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any, ClassVar, Literal, Self, TypeVar

from ..dialect import Backend, Dialect, Tx
from ..errors import (
    DatabaseGone,
    InvalidValue,
    StoreBusy,
    StoreClosed,
    StoreError,
    StoreUnavailable,
)
from .checks import check_header, check_writable, quick_check, read_only
from .connections import (
    AioConnection,
    Rows,
    Writer,
    fetch_on,
    in_transaction,
    is_busy,
    is_not_writable,
)
from .dialect import SQLITE, SQLiteTx, insert_moves, run_now
from .migrations import MIGRATIONS_DIR, load_migrations, migrate

_log = logging.getLogger(__name__)

__all__ = [
    "BUSY_AGAIN_MS",
    "BUSY_WAIT_MS",
    "CHECKPOINT_EVERY",
    "CLOSE_BUSY_MS",
    "INLINE_BUDGET",
    "READ_BUSY_MS",
    "SQLiteEngine",
    "Synchronous",
]

Synchronous = Literal["NORMAL", "FULL"]
_T = TypeVar("_T")

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


@dataclass(slots=True)
class _PendingMove:
    params: tuple[Any, ...]
    future: asyncio.Future[None] = field(repr=False)


class SQLiteEngine(Backend):
    """Connections, transactions and their failures; :class:`~albastini.store.SQLiteStore` adds
    the store's logic. Create with ``await SQLiteStore.open(path)``."""

    dialect: ClassVar[Dialect] = SQLITE

    def __init__(
        self,
        path: Path,
        writer: Writer,
        reader: AioConnection,
        checkpointer: AioConnection | None = None,
    ) -> None:
        """Use :meth:`open`; this only wires already-prepared connections."""
        self.path = path
        self._writer: Writer | None = writer
        self._reader: AioConnection | None = reader
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
        migrations = load_migrations(migrations_dir or MIGRATIONS_DIR)
        try:
            db_path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the directory for database {db_path}: {exc}") from None
        check_header(db_path)
        writer, checkpointer = cls._writers(synchronous)
        inline = writer.inline
        reader = AioConnection()
        try:
            try:
                await writer.connect(db_path)
            except sqlite3.Error as exc:
                raise StoreError(f"cannot open database {db_path}: {exc}") from None

            def prepare(db: sqlite3.Connection) -> None:
                try:
                    quick_check(db, db_path)
                    _configure(db, db_path, synchronous)
                    migrate(db, db_path, migrations)
                    check_writable(db, db_path)
                except sqlite3.OperationalError as exc:
                    if is_not_writable(exc):
                        raise read_only(db_path, exc) from None
                    raise StoreError(f"cannot use database {db_path}: {exc}") from None
                if checkpointer is not None:
                    db.execute("PRAGMA wal_autocheckpoint = 0")
                if inline:
                    # the event loop never waits for another program's write lock (Writer)
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
    def _writers(cls, synchronous: Synchronous) -> tuple[Writer, AioConnection | None]:
        """The writer, and the connection that checkpoints its WAL if it does not itself."""
        if synchronous == "NORMAL":  # commits that do not wait for the disk: inline
            return Writer(inline=True), AioConnection()
        return Writer(inline=False), None

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

    def _w(self) -> Writer:
        if self._writer is None:
            raise StoreClosed(f"store {self.path} is closed")
        return self._writer

    def _r(self) -> AioConnection:
        if self._reader is None:
            raise StoreClosed(f"store {self.path} is closed")
        return self._reader

    async def _write(self, fn: Callable[[Tx], Coroutine[Any, Any, _T]]) -> _T:
        """Run ``fn`` as one write transaction on the writer (inline, or its thread), whole:
        its statements never wait (dialect.py's :func:`run_now`).

        Refused with a :class:`StoreUnavailable` (nothing written) when the database is locked
        by another program for too long, cannot be written, or was deleted or replaced."""

        def tx(db: sqlite3.Connection) -> _T:
            return run_now(fn(SQLiteTx(db)))

        async with self._wlock:
            db = self._w()
            try:
                return await self._call_writer(
                    db, lambda conn: in_transaction(conn, tx, self._check_file)
                )
            finally:
                self._wrote()

    async def _execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        """One statement as a write transaction of its own."""
        await self._write(lambda tx: tx.execute(sql, params))

    async def _call_writer(self, writer: Writer, fn: Callable[[sqlite3.Connection], _T]) -> _T:
        """``fn`` (one transaction) on the writer; the database's troubles as store errors."""
        if self._gone is not None:
            raise DatabaseGone(self._gone)
        try:
            result = await writer.call(fn, BUSY_AGAIN_MS if self._busy else BUSY_WAIT_MS)
        except sqlite3.DatabaseError as exc:
            if type(exc) not in (sqlite3.OperationalError, sqlite3.DatabaseError):
                raise  # a refused row (IntegrityError: the caller explains it) or a bug
            if is_busy(exc):
                self._busy = True
                raise StoreBusy(
                    f"database {self.path} is locked by another program (a sqlite3 shell, a "
                    "backup?) for longer than a click can wait; nothing was written"
                ) from None
            if is_not_writable(exc):
                raise read_only(self.path, exc) from None
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
        fresh = AioConnection()
        try:
            await fresh.connect(self.path, *_CHECKPOINTER_SETUP)
        except BaseException:
            await fresh.close()
            self._checkpointer = AioConnection()  # unconnected: fails, renews
            raise
        self._checkpointer = fresh

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        """One query on the reader (committed data only; one hop to aiosqlite's thread)."""
        return await self._r().fetch(sql, params)

    async def _snapshot(self, queries: Sequence[tuple[str, Sequence[Any]]]) -> list[Rows]:
        """Several queries in one read transaction: one consistent snapshot."""
        return await self._r().many(queries)

    # ---------------------------------------------------------------- group commit of moves

    async def _commit_move(self, params: tuple[Any, ...]) -> None:
        """Commit one move's row (checked), grouped with the moves arriving meanwhile; returns
        once it is committed, raises what refused it."""
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
                    self._w(), lambda db: insert_moves(db, params, self._check_file)
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


def _wrap_commit_error(exc: BaseException, path: Path) -> BaseException:
    if isinstance(exc, StoreError) or not isinstance(exc, Exception):
        return exc
    return StoreError(f"could not commit moves to {path}: {exc}")


def _configure(db: sqlite3.Connection, path: Path, synchronous: Synchronous) -> None:
    db.execute("PRAGMA busy_timeout = 5000")
    rows = fetch_on(db, "PRAGMA journal_mode = WAL")
    if str(rows[0][0]).lower() != "wal":
        raise StoreError(f"database {path} cannot use WAL mode (got {rows[0][0]!r})")
    db.execute(f"PRAGMA synchronous = {synchronous}")
    db.execute("PRAGMA foreign_keys = ON")
