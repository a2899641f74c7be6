"""Clocks for the table service: the event loop's clock, and a manual one for tests.

The service never calls ``asyncio.sleep`` or ``loop.time`` directly; it asks its clock. With
:class:`ManualClock` a test moves time forward by any amount at once, so turn timers, warnings
and idle lobbies are tested without waiting real seconds.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from typing import Protocol


class Clock(Protocol):
    """What the table service needs of time: read it, and wait for some of it to pass."""

    def time(self) -> float:
        """Seconds on this clock (monotonic; only differences matter)."""
        ...

    async def sleep(self, delay: float) -> None:
        """Return once ``delay`` seconds have passed on this clock."""
        ...


class LoopClock:
    """The running event loop's monotonic clock (``loop.time()``) and ``asyncio.sleep``."""

    def time(self) -> float:
        """The loop's time."""
        return asyncio.get_running_loop().time()

    async def sleep(self, delay: float) -> None:
        """``asyncio.sleep(delay)`` (a zero or negative delay just yields to the loop)."""
        await asyncio.sleep(max(0.0, delay))


class ManualClock:
    """A clock that moves only when told to (tests).

    ``sleep(d)`` with ``d <= 0`` yields to the loop once; a longer sleep waits until
    :meth:`advance` moves the clock to or past its deadline. Sleepers wake in deadline order,
    and the clock reads each one's deadline while it wakes.
    """

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._count = itertools.count()
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []

    def time(self) -> float:
        """The current manual time."""
        return self._now

    @property
    def sleepers(self) -> int:
        """How many sleeps are waiting for the clock to move."""
        return sum(1 for _, _, f in self._sleepers if not f.done())

    async def sleep(self, delay: float) -> None:
        """Wait until the clock has been advanced by ``delay`` seconds."""
        if delay <= 0:
            await asyncio.sleep(0)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + delay, next(self._count), fut))
        await fut

    async def advance(self, seconds: float, *, settle: int = 20) -> None:
        """Move the clock forward by ``seconds``, waking each sleeper whose deadline passes.

        After each wake-up the loop runs ``settle`` times so that the woken task can go to sleep
        again (a warning followed by the timeout within the same advance). Work that waits on
        threads (database writes) may still be running when this returns: wait for its events.
        """
        target = self._now + seconds
        while self._sleepers and self._sleepers[0][0] <= target:
            when, _, fut = heapq.heappop(self._sleepers)
            if fut.done():
                continue
            self._now = max(self._now, when)
            fut.set_result(None)
            for _ in range(settle):
                await asyncio.sleep(0)
        self._now = max(self._now, target)
        for _ in range(settle):
            await asyncio.sleep(0)


__all__ = ["Clock", "LoopClock", "ManualClock"]
