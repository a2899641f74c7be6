"""The PostgreSQL engine under :class:`~albastini.store.PostgresStore`: the asyncpg pool, opening
(reaching the server, migrating) and closing, write transactions and reads, and the server's
troubles turned into store errors: PostgreSQL's :class:`~albastini.store.dialect.Backend`. The
store's logic is ../core.py's and ../standings.py's, its PostgreSQL words dialect.py's.

Every write is one transaction on a connection of the pool, committed before the call returns:
with ``synchronous_commit`` on (the engine sets it on every connection where the server has it
off), ``COMMIT`` returns once the commit is flushed to the server's write-ahead log, so an
acknowledged move survives the bot's process, and the server's, being killed. Moves that arrive
together, of different tables, share one transaction (group commit, ``_commit_move``); other
writes run side by side on different connections. Writes of one table queue on its row in
``game_tables``, which each of them locks first (see the schema's ``moves_in_order``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import ssl
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Self, TypeVar
from urllib.parse import urlsplit

import asyncpg

from ..dialect import Backend, Dialect, Rows, Tx
from ..errors import (
    DatabaseReadOnly,
    StoreBusy,
    StoreClosed,
    StoreError,
    StoreUnavailable,
)
from ..shared import move_refusal, numbered
from .dialect import POSTGRES, Conn, PostgresTx, insert_moves
from .migrations import MIGRATIONS_DIR, load_migrations, migrate
from .owner import application_name

_log = logging.getLogger(__name__)

__all__ = [
    "CONNECT_TIMEOUT",
    "LOCK_TIMEOUT_MS",
    "MOVE_GROUPS",
    "POOL_SIZE",
    "PostgresEngine",
    "describe_dsn",
    "is_unavailable",
    "unavailable",
]

_T = TypeVar("_T")

#: Seconds to reach the server (each connection) before the store says it is unreachable.
CONNECT_TIMEOUT = 10.0
#: Connections the pool keeps at most: moves of different tables commit side by side.
POOL_SIZE = 10
#: Groups of moves committed side by side, each on a connection of its own: a move that comes
#: while they are all under way waits for the first to end, together with the others that come
#: meanwhile. One group at a time made each move wait for the group before it as well as its
#: own (the server's commits are quick; getting a turn of the CPU, on a busy machine, is not).
MOVE_GROUPS = 3
#: Seconds a statement may wait for a lock held elsewhere (another program, a long
#: transaction) before it is refused with StoreBusy: a click cannot wait longer.
LOCK_TIMEOUT_MS = 2000


def describe_dsn(dsn: str) -> str:
    """The DSN without its password, for messages and logs."""
    try:
        parts = urlsplit(dsn)
    except ValueError:
        return "the PostgreSQL database"
    if parts.password is None:
        return dsn
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return parts._replace(netloc=netloc).geturl()


#: Errors meaning the server could not be reached or the connection was lost.
_CONNECTION_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    asyncio.TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.exceptions.OperatorInterventionError,  # admin shutdown, crash shutdown...
    asyncpg.exceptions.InsufficientResourcesError,  # disk full, too many connections
)

#: Errors meaning another transaction holds what this one needs: worth trying again later.
_BUSY_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.SerializationError,
    asyncpg.DeadlockDetectedError,
    asyncpg.exceptions.LockNotAvailableError,
)


def unavailable(where: str, exc: BaseException) -> StoreUnavailable:
    """The store error for a database that cannot take a write now."""
    if isinstance(exc, asyncpg.ReadOnlySQLTransactionError):
        return DatabaseReadOnly(
            f"database {where} is read-only (a standby, or default_transaction_read_only): {exc}"
            "; nothing was written"
        )
    if isinstance(exc, _BUSY_ERRORS):
        return StoreBusy(
            f"database {where} is busy (a lock held by another transaction): {exc}; nothing was "
            "written"
        )
    text = str(exc) or type(exc).__name__
    return StoreUnavailable(f"cannot use PostgreSQL database {where}: {text}; nothing was written")


def is_unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` is the server's trouble (unreachable, read-only, busy), not the row's."""
    return isinstance(
        exc, (*_CONNECTION_ERRORS, *_BUSY_ERRORS, asyncpg.ReadOnlySQLTransactionError)
    )


class _FloorWarnings(logging.Filter):
    """While the server is down, asyncpg's pool tries to reconnect its floor of connections
    again and again, each failure a warning with a full traceback ("Failed to restore the pool
    connection floor"), about 8 in two minutes. Here the first of an outage is one line with
    its cause and the others are counted, not logged; :meth:`back` (a new connection was made)
    ends the outage with one line saying how many tries failed."""

    def __init__(self) -> None:
        super().__init__()
        self.failures = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith("Failed to restore the pool connection floor"):
            return True
        self.failures += 1
        if self.failures > 1:
            return False
        cause = record.exc_info[1] if record.exc_info else None
        record.msg = "PostgreSQL cannot be reached (%s); reconnecting in the background"
        record.args = (_reason(cause) if cause is not None else "no reason given",)
        record.exc_info = None
        record.exc_text = None
        return True

    def back(self) -> None:
        if self.failures:
            failures, self.failures = self.failures, 0
            _log.warning("PostgreSQL reached again (%d failed reconnection(s))", failures)


#: On asyncpg's pool logger, for every pool of the process (added once: a logger's filters
#: are a set).
FLOOR_WARNINGS = _FloorWarnings()
logging.getLogger("asyncpg.pool").addFilter(FLOOR_WARNINGS)


async def _init_connection(conn: Conn) -> None:
    """Every pool connection: commits wait for the server's write-ahead log (durability), and
    a lock held elsewhere makes a statement fail rather than hang a click (also a startup
    setting, ``server_settings``, so that even a ``RESET ALL`` keeps it). A new connection
    also ends an outage's warnings (:class:`_FloorWarnings`)."""
    FLOOR_WARNINGS.back()
    if await conn.fetchval("SHOW synchronous_commit") in ("off", "local"):
        await conn.execute("SET synchronous_commit = on")


async def _keep_session(conn: Conn) -> None:
    """What a connection handed back to the pool goes through besides asyncpg's own clean-up
    (an open transaction rolled back, listeners dropped): nothing. asyncpg's default sends
    ``RESET ALL`` and more, a round trip to the server at every release (the moves' group
    commit waited for it between two batches) that would also undo :func:`_init_connection`'s
    setting; the store keeps no other state in a session (its advisory locks are
    transaction-level, the migration's is released by the migration itself)."""


class PostgresEngine(Backend):
    """The pool, transactions and their failures; :class:`~albastini.store.PostgresStore` adds
    the store's logic. Create with ``await PostgresStore.open(dsn)``."""

    dialect: ClassVar[Dialect] = POSTGRES

    def __init__(self, dsn: str, pool: Any) -> None:
        """Use :meth:`open`; this only wires an already-open pool."""
        self.dsn = dsn
        self.where = describe_dsn(dsn)
        self._pool: Any | None = pool
        # group commit of moves (see _commit_move)
        self._pending: list[_PendingMove] = []
        self._groups: set[asyncio.Task[None]] = set()
        self._tables_committing: set[Any] = set()
        self._gathering = False

    @classmethod
    async def open(
        cls,
        dsn: str,
        *,
        pool_size: int = POOL_SIZE,
        connect_timeout: float = CONNECT_TIMEOUT,
        migrations_dir: Path | None = None,
        ssl_context: ssl.SSLContext | None = None,
    ) -> Self:
        """Connect to the database at ``dsn`` (``postgresql://user:password@host:port/db``) and
        bring its schema up to date.

        Refuses with :class:`StoreUnavailable` a server that cannot be reached (or refuses the
        login, or has no such database) within ``connect_timeout`` seconds, and with
        :class:`SchemaTooNew` a database written by newer code (left unchanged)."""
        migrations = load_migrations(migrations_dir or MIGRATIONS_DIR)
        where = describe_dsn(dsn)
        try:
            pool = await asyncpg.create_pool(
                dsn,
                min_size=1,
                max_size=pool_size,
                timeout=connect_timeout,
                command_timeout=None,
                init=_init_connection,
                reset=_keep_session,
                # the process's name: who owns a shard, and which connections are its (owner.py)
                server_settings={
                    "lock_timeout": str(LOCK_TIMEOUT_MS),
                    "application_name": application_name(),
                },
                ssl=ssl_context,
            )
        except (*_CONNECTION_ERRORS, asyncpg.PostgresError, ValueError) as exc:
            raise StoreUnavailable(
                f"cannot reach the PostgreSQL database {where}: {_reason(exc)}. Check that the "
                "server runs and that ALBASTINI_DB names the right host, port, user and "
                "database; nothing was changed"
            ) from None
        try:
            async with pool.acquire() as conn:
                await migrate(conn, where, migrations)
        except StoreError:
            await pool.close()
            raise
        except BaseException as exc:
            pool.terminate()
            if isinstance(exc, Exception) and is_unavailable(exc):
                raise unavailable(where, exc) from None
            raise
        return cls(dsn, pool)

    async def close(self) -> None:
        """Wait for the transactions under way, then close every connection."""
        while self._groups:  # the moves being committed (their callers wait)
            await asyncio.gather(*self._groups, return_exceptions=True)
        pool, self._pool = self._pool, None
        if pool is not None:
            try:
                await asyncio.wait_for(pool.close(), timeout=10)
            except Exception as exc:  # nothing is lost: every write was committed or refused
                _log.warning("closing the PostgreSQL pool of %s: %s", self.where, exc)
                pool.terminate()

    def _p(self) -> Any:
        if self._pool is None:
            raise StoreClosed(f"store {self.where} is closed")
        return self._pool

    async def _write(self, fn: Callable[[Tx], Coroutine[Any, Any, _T]]) -> _T:
        """Run ``fn`` as one transaction on a pooled connection; committed when this returns.

        The server's troubles are store errors (:class:`StoreUnavailable` and its kinds);
        a row the database refuses (asyncpg's integrity errors) is the caller's to explain."""
        try:
            async with self._p().acquire() as conn, conn.transaction():
                return await fn(PostgresTx(conn))
        except Exception as exc:
            if is_unavailable(exc):
                raise unavailable(self.where, exc) from None
            raise

    async def _on_conn(self, fn: Callable[[Conn], Awaitable[_T]]) -> _T:
        """Run ``fn`` on a pooled connection, outside any transaction block (one statement is
        then its own transaction, committed when this returns)."""
        try:
            async with self._p().acquire() as conn:
                return await fn(conn)
        except Exception as exc:
            if is_unavailable(exc):
                raise unavailable(self.where, exc) from None
            raise

    async def _execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        """One statement in its own transaction (autocommit): committed when this returns."""
        try:
            async with self._p().acquire() as conn:
                await conn.execute(numbered(sql), *params)
        except Exception as exc:
            if is_unavailable(exc):
                raise unavailable(self.where, exc) from None
            raise

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        """One query (committed data only)."""
        try:
            async with self._p().acquire() as conn:
                return [tuple(r) for r in await conn.fetch(numbered(sql), *params)]
        except Exception as exc:
            if is_unavailable(exc):
                raise unavailable(self.where, exc) from None
            raise

    async def _snapshot(self, queries: Sequence[tuple[str, Sequence[Any]]]) -> list[Rows]:
        """Several queries in one read-only transaction: one consistent snapshot."""
        try:
            async with (
                self._p().acquire() as conn,
                conn.transaction(isolation="repeatable_read", readonly=True),
            ):
                return [
                    [tuple(r) for r in await conn.fetch(numbered(sql), *args)]
                    for sql, args in queries
                ]
        except Exception as exc:
            if is_unavailable(exc):
                raise unavailable(self.where, exc) from None
            raise

    # ---------------------------------------------------------------- group commit of moves

    def _insert_moves(self, conn: Conn, batch: list[tuple[Any, ...]]) -> Awaitable[Any]:
        """Insert a batch of move rows in one statement (dialect.py's)."""
        return insert_moves(conn, batch)

    async def _commit_move(self, params: tuple[Any, ...]) -> None:
        """Commit one move's (checked) row, grouped with the moves that arrive meanwhile;
        returns once it is committed, raises what refused it.

        Each move as its own transaction costs the server a commit (a write-ahead log flush)
        and this process a round trip of its own; moves of many tables arriving together are
        instead inserted by one statement and committed once. Up to :data:`MOVE_GROUPS` groups
        are under way at once; the moves that come while they all are gather for the next.
        A table is in one group at a time (its moves are stored in their order). Nobody is
        answered before their group is committed. A group that a row of it spoils (a stale
        move, a lost race) is tried again move by move, so each is stored or refused on its
        own. A caller that stops waiting (cancelled) leaves the others' moves unharmed; its own
        move may still be stored, as a move whose answer was lost."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._p()  # StoreClosed now rather than from the group
        self._pending.append(_PendingMove(params, fut))
        if not self._gathering:  # the moves of this turn of the event loop go together
            self._gathering = True
            asyncio.get_running_loop().call_soon(self._start_groups)
        await fut

    def _start_groups(self) -> None:
        """Start groups of the pending moves while fewer than MOVE_GROUPS are under way."""
        self._gathering = False
        while self._pending and len(self._groups) < MOVE_GROUPS:
            group: list[_PendingMove] = []
            waiting: list[_PendingMove] = []
            for p in self._pending:
                if p.future.done():
                    continue  # its caller stopped waiting before it was sent
                (waiting if p.params[0] in self._tables_committing else group).append(p)
            self._pending = waiting
            if not group:
                return
            tables = {p.params[0] for p in group}
            self._tables_committing |= tables
            task = asyncio.create_task(self._commit_group(group, tables))
            self._groups.add(task)

    async def _commit_group(self, group: list[_PendingMove], tables: set[Any]) -> None:
        try:
            await self._commit_batch(group)
        except BaseException as exc:
            _fail(group, exc)
            if not isinstance(exc, Exception):
                raise
            _log.exception("committing a group of moves")
        finally:
            self._tables_committing -= tables
            if (me := asyncio.current_task()) is not None:
                self._groups.discard(me)
            if self._pool is None:
                _fail(self._pending, StoreClosed(f"store {self.where} is closed"))
                self._pending = []
            else:
                self._start_groups()

    async def _commit_batch(self, batch: list[_PendingMove]) -> None:
        # one order of the tables' row locks in every batch, so that batches of several
        # processes never wait for each other in a circle
        batch.sort(key=lambda p: (p.params[0], p.params[1]))
        if len(batch) > 1:
            try:
                rows = [p.params for p in batch]
                await self._on_conn(lambda conn: self._insert_moves(conn, rows))
            except StoreUnavailable as exc:
                if not isinstance(exc, StoreBusy):  # the server's trouble: every move's
                    _fail(batch, exc)
                    return
            except asyncpg.PostgresError:
                pass  # a row refused (nothing of the batch written): one by one, below
            except BaseException as exc:
                _fail(batch, exc)
                if not isinstance(exc, Exception):
                    raise
                return
            else:
                for p in batch:
                    if not p.future.done():
                        p.future.set_result(None)
                return
        for p in batch:
            if p.future.done():
                continue
            try:
                await self._on_conn(functools.partial(self._insert_moves, batch=[p.params]))
            except asyncpg.PostgresError as exc:
                _fail([p], move_refusal(p.params, self.dialect.refusal(exc), exc))
            except BaseException as exc:
                _fail([p], exc)
                if not isinstance(exc, Exception):
                    _fail(batch, exc)
                    raise
            else:
                if not p.future.done():  # its caller may have stopped waiting
                    p.future.set_result(None)


@dataclass(eq=False)
class _PendingMove:
    params: tuple[Any, ...]
    future: asyncio.Future[None]


def _fail(batch: list[_PendingMove], exc: BaseException) -> None:
    for p in batch:
        if not p.future.done():
            p.future.set_exception(exc)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused (is the server running, on that host and port?)"
    if isinstance(exc, FileNotFoundError | asyncio.TimeoutError | TimeoutError):
        return (
            "no server answered (is it running? is the host, port or socket folder right?)"
            if not isinstance(exc, asyncio.TimeoutError | TimeoutError)
            else "no answer in time (is the host reachable?)"
        )
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        return f"{exc} (create it with createdb, or fix the database name)"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
