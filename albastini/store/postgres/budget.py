"""Discord's global rate limit, pooled by the bot's processes (clusters) through PostgreSQL.

Discord counts a bot token's requests across all its processes: at most about 50 a second. Each
process keeps a window (cogs/messages/budget.py): at most so many of its requests in flight or
answered within the last second. Here the processes lease parts of the bot's window from one
table, so that a busy cluster can use the part an idle one leaves, and the leases never add up
to more than the window:

* one row per process (``holder``): its ``base`` (its fixed part of the window, in proportion to
  its shards), what it ``want``\\s now (its requests in the window and waiting for it, plus a
  little room to grow), what it ``holds`` (the window it may be using: never less than it uses),
  and when its lease ``expires`` (the database's clock);
* a process renews its lease every fraction of a second (:meth:`Leases.renew`, one short
  transaction under an advisory lock, so renewals take turns); the database answers with its
  new window: it may grow only into what no other lease holds, and shrinks when others want
  their part back (:func:`allot`);
* a process whose lease has expired (it crashed, or cannot reach the database) still reserves
  the larger of its lease and its base for ``FORGET`` seconds: a process that lost the database
  spends its base meanwhile (cogs/messages/pool.py), so nobody else may lease it.

The table is coordination state, not the bot's data: ``UNLOGGED`` (no write-ahead log, emptied
by a crash of the server, which ends every lease anyway) and created on first use, outside the
schema's migrations.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import asyncpg

__all__ = ["FORGET", "RESERVE", "Lease", "Leases", "allot"]

#: Slots of the window a live process is always allotted (when its base allows), so that an
#: idle cluster's first requests never wait for a renewal.
RESERVE = 2
#: Seconds after its lease expired that a process's row still reserves its part.
FORGET = 60.0
#: pg_advisory_xact_lock key of the renewals ("albudget" in ASCII).
_LOCK_KEY = 0x616C627564676574
TABLE = "albastini_budget_leases"
_CREATE = (
    f"CREATE UNLOGGED TABLE IF NOT EXISTS {TABLE} ("
    "holder TEXT PRIMARY KEY, base INTEGER NOT NULL, want INTEGER NOT NULL, "
    "holds INTEGER NOT NULL, expires TIMESTAMPTZ NOT NULL)"
)


@dataclass(frozen=True)
class Lease:
    """One process's row: its fixed part, what it wants now, what it may use, and whether its
    lease is still current."""

    base: int
    want: int
    holds: int
    live: bool = True


def allot(limit: int, me: Lease, others: list[Lease]) -> int:
    """The window ``me`` may use from now on, out of ``limit`` shared with ``others``.

    Expired leases reserve the larger of what they held and their base. Every live process is
    first given what it wants up to its base (at least ``RESERVE``); what that leaves is shared
    among those who want more, in proportion to how much more. A process grows only into what
    no lease holds now (the others shrink first, at their next renewals); it shrinks at once."""
    gone = [o for o in others if not o.live]
    live = [me, *(o for o in others if o.live)]
    pool = max(0, limit - sum(max(o.holds, o.base) for o in gone))
    firm = [min(x.base, max(x.want, RESERVE)) for x in live]
    if sum(firm) > pool:  # stale rows reserve much: everyone's firm part in proportion
        total = sum(firm)
        firm = [f * pool // total for f in firm]
    spare = pool - sum(firm)
    more = [max(0, x.want - f) for x, f in zip(live, firm, strict=True)]
    extra = 0
    if spare > 0 and more[0] > 0:
        extra = min(more[0], spare * more[0] // sum(more))
    target = firm[0] + extra
    free = pool - sum(x.holds for x in live)
    return max(0, min(target, me.holds + free))


class Leases:
    """One process's lease of the pooled window, on a connection of its own to ``dsn`` (the
    store's pool stays for the store: a renewal never waits behind moves). Every method raises
    ``OSError``, ``asyncpg.PostgresError`` or ``TimeoutError`` when the database cannot be
    reached; the next call connects again."""

    def __init__(
        self,
        dsn: str,
        holder: str,
        *,
        life: float = 3.0,
        timeout: float = 2.0,
        succeeds: str | None = None,
    ) -> None:
        self.dsn = dsn
        self.holder = holder
        self.life = life
        self.timeout = timeout
        #: rows whose holder starts with this were an earlier process's for the same shards,
        #: which this one now owns alone (albastini/store/postgres/owner.py): that process is
        #: gone, so its row is deleted at once instead of reserving its part for ``FORGET`` s
        self.succeeds = succeeds
        self._conn: Any = None

    async def _connection(self) -> Any:
        if self._conn is None or self._conn.is_closed():
            self._conn = None
            self._conn = await asyncpg.connect(
                self.dsn, timeout=self.timeout, command_timeout=self.timeout
            )
            async with self._conn.transaction():  # two processes creating it take turns
                await self._conn.execute("SELECT pg_advisory_xact_lock($1)", _LOCK_KEY)
                await self._conn.execute(_CREATE)
                if self.succeeds:
                    await self._conn.execute(
                        f"DELETE FROM {TABLE} WHERE starts_with(holder, $1) AND holder <> $2",
                        self.succeeds,
                        self.holder,
                    )
        return self._conn

    async def renew(self, limit: int, base: int, want: int, holds: int) -> int:
        """Record this process's ``want`` and the window it ``holds`` (never less than it
        uses), renew its lease for ``life`` seconds, and return the window it may use now."""
        try:
            conn = await self._connection()
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", _LOCK_KEY)
                await conn.execute(
                    f"DELETE FROM {TABLE} WHERE expires < clock_timestamp() - "
                    "make_interval(secs => $1)",
                    FORGET,
                )
                others = [
                    Lease(r["base"], r["want"], r["holds"], r["live"])
                    for r in await conn.fetch(
                        f"SELECT base, want, holds, expires > clock_timestamp() AS live "
                        f"FROM {TABLE} WHERE holder <> $1",
                        self.holder,
                    )
                ]
                grant = allot(limit, Lease(base, want, holds), others)
                # what the database records is never less than what the process may use:
                # a grant before the process applies it, the old window until it reports less
                await conn.execute(
                    f"INSERT INTO {TABLE} (holder, base, want, holds, expires) "
                    "VALUES ($1, $2, $3, $4, clock_timestamp() + make_interval(secs => $5)) "
                    "ON CONFLICT (holder) DO UPDATE SET base = $2, want = $3, holds = $4, "
                    "expires = clock_timestamp() + make_interval(secs => $5)",
                    self.holder,
                    base,
                    want,
                    max(holds, grant),
                    self.life,
                )
            return grant
        except BaseException:
            await self._drop()
            raise

    async def release(self) -> None:
        """Give the lease back (a clean stop): its part is free for the others at once."""
        try:
            conn = await self._connection()
            await conn.execute(f"DELETE FROM {TABLE} WHERE holder = $1", self.holder)
        finally:
            await self._drop()

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None and not conn.is_closed():
            conn.terminate()  # never waits on a server that may be gone
