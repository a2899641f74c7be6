"""SQLite's connections for the store: the writer's plain :mod:`sqlite3` connection
(:class:`Writer`, inline on the event loop or on a thread of its own) and aiosqlite connections
for reads and WAL checkpoints (:class:`AioConnection`), with the few helpers every statement
uses (a write transaction, SQLite's error codes).

Nothing here knows the schema: that is the store's logic (../core.py) and dialect.py; the
engine (engine.py) decides which connection runs what.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import sqlite3
import threading
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from ..errors import StoreClosed

__all__ = [
    "AioConnection",
    "Rows",
    "Writer",
    "errcode",
    "fetch_on",
    "in_transaction",
    "is_busy",
    "is_not_writable",
]

_T = TypeVar("_T")
Rows = list[tuple[Any, ...]]


class Writer:
    """The writer's plain :mod:`sqlite3` connection. Each call runs a whole function (one
    transaction) on it: statements and the Python checks between them, with no hop in between.

    ``inline`` (``synchronous=NORMAL`` in WAL mode, where ``COMMIT`` hands its pages to the
    operating system and returns without waiting for the disk): each call runs at once on the
    event loop's own thread, because a hop to a thread and back costs more than the commit
    (``bench/store.py --writer inline,aiosqlite`` compares the two; figures in
    bench/README.md). The one slow part of WAL writing, the checkpoint (which does wait for the
    disk), is switched off on this connection (``wal_autocheckpoint = 0``) and run by
    :class:`SQLiteStore` on a connection of its own (:class:`AioConnection`). The loop never
    waits for another program's lock: the connection's busy_timeout is 0, and a call that finds
    the database locked runs again on the writer's thread, waiting there at most ``busy_ms`` (a
    wait on the loop would stall every click behind the lock).

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
                if not busy_ms or not is_busy(exc):
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


class AioConnection:
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


def errcode(exc: sqlite3.Error) -> int:
    return int(getattr(exc, "sqlite_errorcode", -1)) & 0xFF  # the primary result code


def is_busy(exc: sqlite3.Error) -> bool:
    return errcode(exc) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def is_not_writable(exc: sqlite3.Error) -> bool:
    return errcode(exc) in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM)


def fetch_on(db: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> Rows:
    return db.execute(sql, params).fetchall()


def in_transaction(
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
