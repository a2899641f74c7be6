"""One process per shard: the shards a bot process serves are its own, through PostgreSQL.

Two processes serving one shard would both load its tables and both answer its clicks, and
fight over them (moves refused as stale, a table one finished still running in the other). So
a process on PostgreSQL owns its shards before it connects to Discord: it holds, on a
connection of its own (not the store's pool) kept for its whole life, a session-level advisory
lock per shard (``pg_advisory_lock(SHARD_LOCK, shard)``), and a process serving every shard
(no ``--shards``) holds the lock of every shard exclusively (``EVERY_SHARD``), which a cluster
holds shared. The server releases a session's locks when its connection ends: at a clean stop
(after the store's last commits), or when the process dies, whatever the death.

A process that finds one of its shards owned either waits for the owner to go (``wait``: a
rolling restart, the newcomer started before the old process is stopped) or refuses at once
(``refuse``): :class:`ShardsServed`, one line naming the owner. Once the locks are its own, a
waiting process also waits for the old owner's other connections (its store's pool) to end,
so the old owner's last commits are in before the newcomer reads its tables. Every connection
of the bot names its process in ``application_name`` (:func:`application_name`), so the owner
is named and its connections are found in ``pg_stat_activity``.

If the locks' connection is lost (the server restarted, the connection was killed), nobody
owns the shards for a moment: :meth:`ShardOwner.hold` takes them again as soon as the server
answers (the process serves on meanwhile: the store refuses writes while the server is down);
if another process took them meanwhile, ``hold`` returns why, and the bot stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from typing import Any

import asyncpg

from ...shards import Shards
from ..errors import StoreError

__all__ = [
    "EVERY_SHARD",
    "SHARD_LOCK",
    "ShardOwner",
    "ShardsServed",
    "application_name",
]

log = logging.getLogger(__name__)

#: The first key of the shards' advisory locks ("shar"), the second being the shard.
SHARD_LOCK = 0x73686172
#: The first key of the lock a cluster holds shared on its shard count (the second key): a
#: cluster started with another count would serve some servers of the others' shards.
COUNT_LOCK = 0x636F756E
#: The second key of the lock every process holds: exclusively when it serves every shard,
#: shared when it serves some (a cluster).
EVERY_SHARD = -1
#: Seconds between two tries while waiting for the owner to go, and between two checks of
#: the locks' connection.
POLL = 0.25
CHECK_EVERY = 1.0
#: Seconds to reach the server when reconnecting, and to wait for a check's answer.
CONNECT_TIMEOUT = 5.0
#: Seconds a newcomer waits for the old owner's other connections to end once it owns the
#: shards (its last commits); then it goes on with a warning.
HANDOVER_TIMEOUT = 30.0


#: Advisory locks are the database's: those of this one (the server may hold others).
_HERE = "database = (SELECT oid FROM pg_database WHERE datname = current_database())"
#: A cluster's shared locks: every shard's, its shard count's, and none of another count.
_TAKE_SHARED = f"""
SELECT pg_try_advisory_lock_shared($1, $2) AND pg_try_advisory_lock_shared($3, $4)
   AND NOT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND {_HERE}
                   AND classid = $3::oid AND objsubid = 2 AND objid <> $4::oid)"""
#: Who (application name) holds a lock this process needs: one of its shards ($2), every
#: shard's exclusively ($3; shared too for a process of every shard, not $4), another count's.
_OWNERS = f"""
SELECT DISTINCT coalesce(nullif(a.application_name, ''), 'pid ' || l.pid)
  FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
 WHERE l.locktype = 'advisory' AND l.granted AND l.{_HERE} AND l.objsubid = 2
   AND l.pid <> pg_backend_pid()
   AND ((l.classid = $1::oid AND (l.objid = ANY($2::oid[])
                                  OR (l.objid = $3::oid AND (l.mode = 'ExclusiveLock' OR NOT $4))))
        OR ($4 AND l.classid = $5::oid AND l.objid <> $6::oid))"""
#: The server's troubles on the locks' connection (unreachable, connection lost, refused).
_LOST: tuple[type[BaseException], ...] = (
    OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError,
)  # fmt: skip


class ShardsServed(StoreError):
    """Another process serves (some of) these shards and the process was told not to wait."""


def application_name() -> str:
    """This process as PostgreSQL shows it (``pg_stat_activity.application_name``, at most 63
    bytes): who owns a shard, and which connections are an old owner's."""
    return f"albastini pid {os.getpid()} on {socket.gethostname()}"[:63]


def _keys(shards: Shards | None) -> tuple[list[int], bool]:
    """The second keys of the exclusive locks, and whether EVERY_SHARD is taken shared."""
    if shards is None or shards.all:  # every server of the bot
        return [EVERY_SHARD], False
    return list(shards.ids), True


def describe(shards: Shards | None) -> str:
    return "every shard" if shards is None else f"shard(s) {shards.describe()}"


class ShardOwner:
    """The locks of this process's shards, on a connection of their own. :meth:`claim` once,
    then :meth:`hold` for as long as the process serves, :meth:`release` at the end (after the
    store is closed)."""

    def __init__(self, dsn: str, shards: Shards | None) -> None:
        self.dsn = dsn
        self.shards = shards
        self._exclusive, self._shared = _keys(shards)
        self._conn: Any | None = None
        #: re-acquisitions after a lost connection (a metric)
        self.reacquired = 0

    async def _connect(self) -> Any:
        return await asyncpg.connect(
            self.dsn,
            timeout=CONNECT_TIMEOUT,
            server_settings={"application_name": application_name()},
        )

    async def _try(self, conn: Any) -> bool:
        """Take every lock at once or none (no process ever holds some of another's shards
        while waiting for the rest: two newcomers could otherwise wait for each other)."""
        got: list[bool] = list(
            await conn.fetchval(
                "SELECT array_agg(pg_try_advisory_lock($1, k) ORDER BY k) FROM unnest($2::int[]) k",
                SHARD_LOCK,
                self._exclusive,
            )
        )
        shared = True
        if all(got) and self._shared:
            assert self.shards is not None
            shared = bool(
                await conn.fetchval(
                    _TAKE_SHARED, SHARD_LOCK, EVERY_SHARD, COUNT_LOCK, self.shards.count
                )
            )
        if all(got) and shared:
            return True
        await conn.execute("SELECT pg_advisory_unlock_all()")
        return False

    async def _owners(self, conn: Any) -> list[str]:
        """The processes (their application names) that hold a lock this one needs."""
        rows = await conn.fetch(
            _OWNERS,
            SHARD_LOCK,
            [k & 0xFFFFFFFF for k in self._exclusive],
            EVERY_SHARD & 0xFFFFFFFF,
            self._shared,
            COUNT_LOCK,
            self.shards.count if self.shards is not None else 0,
        )
        return sorted(r[0] for r in rows)

    async def claim(self, *, wait: bool) -> None:
        """Own this process's shards: at once if nobody serves them, else wait for the owner
        to stop (``wait``) or raise :class:`ShardsServed` naming it. Connection troubles are
        :class:`~albastini.store.StoreError`."""
        try:
            conn = await self._connect()
        except _LOST as exc:
            raise StoreError(f"cannot take the shards' lock: {exc}") from None
        self._conn = conn
        try:
            seen: set[str] = set()
            while not await self._try(conn):
                owners = await self._owners(conn)
                holder = ", ".join(owners) or "another process"
                if not wait:
                    raise ShardsServed(
                        f"{describe(self.shards)} already served by {holder}: stop it first, or "
                        "start this one with ALBASTINI_ON_SERVED_SHARD=wait to take over when "
                        "it stops"
                    )
                if not seen:
                    log.warning(
                        "%s served by %s; waiting for it to stop", describe(self.shards), holder
                    )
                seen.update(owners)
                await asyncio.sleep(POLL)
            if seen:
                await self._handover(conn, seen)
        except BaseException:
            await self.release()
            raise
        log.info("%s: this process owns them", describe(self.shards))

    async def _handover(self, conn: Any, old: set[str]) -> None:
        """Wait until the old owner's connections are gone: its last commits are in."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + HANDOVER_TIMEOUT
        while await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = ANY($1::text[]) "
            "AND datname = current_database() AND pid <> pg_backend_pid()",  # not this one
            sorted(old),
        ):
            if loop.time() > deadline:
                log.warning("the old owner's connections are still open; taking over anyway")
                return
            await asyncio.sleep(POLL)

    async def hold(self) -> str:
        """Keep the shards while the process runs; returns (the reason) only when they are
        lost for good: another process took them while the locks' connection was lost."""
        conn = self._conn
        lost = False
        while True:
            await asyncio.sleep(CHECK_EVERY)
            if conn is not None and not conn.is_closed():
                try:
                    await asyncio.wait_for(conn.fetchval("SELECT 1"), CONNECT_TIMEOUT)
                    continue
                except _LOST:
                    conn.terminate()
            if not lost:
                lost = True
                log.warning(
                    "lost the database connection that holds %s; taking them again when the "
                    "server answers", describe(self.shards),
                )  # fmt: skip
            try:
                conn = self._conn = await self._connect()
            except _LOST:
                conn = self._conn = None
                continue
            try:
                taken = await self._try(conn)
                owners = [] if taken else await self._owners(conn)
            except _LOST:
                continue
            if not taken:
                await self.release()
                holder = ", ".join(owners) or "another process"
                return (
                    f"{describe(self.shards)} taken over by {holder} while this process's "
                    "database connection was lost; stopping"
                )
            lost = False
            self.reacquired += 1
            log.warning("%s: owned again", describe(self.shards))

    async def release(self) -> None:
        """Let the shards go (after the store's last commits): close the locks' connection."""
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.close(), CONNECT_TIMEOUT)
            conn.terminate()
