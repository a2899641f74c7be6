"""One cluster's part of Discord's global rate limit, pooled with the bot's other processes.

Each process of the bot spends its requests through a :class:`~cogs.messages.budget.GlobalBudget`
whose window (requests in flight or answered within a second) bounds what Discord can count of
it in a second. With a fixed part per process (``budget.for_share``) a busy cluster waits while
an idle one's part goes unused. :class:`BudgetPool` instead keeps the budget's window at this
process's lease of the bot's window in PostgreSQL (albastini/store/postgres/budget.py): every
``interval`` seconds, in a task of its own, it tells the database what it uses and wants, and
resizes the window to what it is given. No request ever waits for the database: requests only
wait for the window, which the renewals resize.

The database unreachable: one warning line, and the window falls back to the process's fixed
part, as without the pool: at once to the smaller of its lease and that part, and to the whole
part only once every lease it could have overlapped has run out (``life`` + the window's second
+ one renewal after the last renewal that worked; meanwhile its expired row reserves that part
for it). When the database answers again, one line, and pooling resumes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Protocol

from .budget import WINDOW_SECONDS, GlobalBudget, window_for

log = logging.getLogger(__name__)

#: Seconds between renewals of the lease.
INTERVAL = 0.25
#: Slots wanted beyond what the process uses and waits for, so that a process using all its
#: window asks for more.
HEADROOM = 2


class LeaseSource(Protocol):
    """Where leases come from (``albastini.store.postgres.budget.Leases``)."""

    life: float

    async def renew(self, limit: int, base: int, want: int, holds: int) -> int:
        """Record use and want, renew the lease, return the window granted."""
        ...

    async def release(self) -> None:
        """Give the lease back."""
        ...


class BudgetPool:
    """Keeps ``budget``'s window at this process's lease of the bot's window (``rate``
    requests per second and the window that goes with it, shared by all processes); ``share``
    is this process's fixed part (its shards over all shards), used without the database."""

    def __init__(
        self,
        budget: GlobalBudget,
        leases: LeaseSource,
        *,
        rate: float,
        share: float,
        interval: float = INTERVAL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.budget = budget
        self.leases = leases
        self.rate = rate
        self.limit = window_for(rate)
        self.base = max(1, int(self.limit * min(max(share, 0.0), 1.0)))
        self.interval = interval
        self._clock = clock
        self._last_ok = clock()
        #: True while leases are renewed, False while the database is unreachable, None
        #: before the first renewal.
        self.pooling: bool | None = None
        self.renewals = 0
        #: Renewals that failed (the database unreachable or too slow).
        self.failures = 0
        #: The widest window this process was given, and its requests paid for.
        self.widest = 0
        self._task: asyncio.Task[None] | None = None

    @classmethod
    def start_with(
        cls, leases: LeaseSource, *, rate: float, share: float, interval: float = INTERVAL
    ) -> BudgetPool:
        """A budget with an empty window (nothing may be sent before the first lease, which
        is asked for at once) kept by a new pool, started (a running event loop is needed)."""
        budget = GlobalBudget(rate)
        budget.resize(0, 0.01)
        pool = cls(budget, leases, rate=rate, share=share, interval=interval)
        pool.start()
        return pool

    def start(self) -> None:
        """Renew the lease every ``interval`` seconds from now on."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await self.renew_once()
            await asyncio.sleep(self.interval)

    async def renew_once(self) -> None:
        """Report use and want, and resize the window to the lease granted (or fall back)."""
        budget = self.budget
        occupied = budget.occupied
        want = min(self.limit, occupied + budget.waiting + HEADROOM)
        holds = max(budget.window, occupied)
        try:
            granted = await self.leases.renew(self.limit, self.base, want, holds)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the database is down or unreachable: the fixed part
            self._unreachable(exc)
            return
        self._last_ok = self._clock()
        self.renewals += 1
        if self.pooling is False:
            log.info("global budget: the database answers again; pooling the rate limit")
        self.pooling = True
        self._resize(granted)

    def _unreachable(self, exc: BaseException) -> None:
        self.failures += 1
        if self.pooling is not False:
            log.warning(
                "global budget: cannot reach the database (%s); this process spends its fixed "
                "part of the rate limit (%d of %d) until it answers again",
                type(exc).__name__ if not str(exc) else f"{type(exc).__name__}: {exc}",
                self.base,
                self.limit,
            )
        self.pooling = False
        overlap = self.leases.life + WINDOW_SECONDS + self.interval
        if self._clock() - self._last_ok >= overlap:
            self._resize(self.base)
        else:  # another lease may still hold what this process lent: not beyond its lease
            self._resize(min(self.budget.window, self.base))

    def _resize(self, window: int) -> None:
        window = max(0, min(window, self.limit))
        self.widest = max(self.widest, window)
        if window != self.budget.window:
            self.budget.resize(window, self.rate * window / self.limit)

    async def close(self) -> None:
        """Stop renewing and give the lease back (the others may use it at once)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.leases.release(), 2.0)
        log.info(
            "global budget pool: widest window %d of %d (fixed part %d), %d requests paid, "
            "%d renewals",
            self.widest,
            self.limit,
            self.base,
            self.budget.taken,
            self.renewals,
        )
