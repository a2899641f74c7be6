"""Discord's global rate limit kept exactly across several fake Discord processes.

A load generator may spread the fake over processes (``bench/bot_load.py --drivers N``: each
serves some of the bot's shards, so a cluster's gateway and REST calls go to one of them), yet
Discord counts a bot token's requests in one place. :class:`SharedGlobalLimit` is that place:
a ring of the last ``limit`` admitted requests' times in shared memory, behind a lock. A request
is admitted when the oldest of them is at least ``per`` seconds old (then fewer than ``limit``
were admitted in the last ``per`` seconds, so the window Discord slides never holds more than
``limit``), and takes its place. One check is a few microseconds under the lock, no round trip
to another process; ``time.monotonic`` is the same clock in every process of the machine.

Create it in the parent before starting the processes (``multiprocessing``'s spawn context
pickles its shared memory and lock to the children), and pass it to each ``FakeDiscord(
global_limit=...)``. It counts every bot token together: one bot per shared limit.
"""

from __future__ import annotations

import multiprocessing
import time
from typing import Any


class SharedGlobalLimit:
    """At most ``limit`` admitted requests in any ``per`` seconds, across processes."""

    def __init__(self, limit: int, per: float, ctx: Any = None) -> None:
        if limit < 1 or per <= 0:
            raise ValueError("the limit must be positive")
        ctx = ctx or multiprocessing.get_context("spawn")
        self.limit = limit
        self.per = per
        # the admission times, oldest at ``_head``; -inf: a free place
        self._times = ctx.RawArray("d", [float("-inf")] * limit)
        self._head = ctx.RawValue("i", 0)
        self._lock = ctx.Lock()

    def admit(self, now: float | None = None) -> float | None:
        """Admit one request now (None), or refuse it: the seconds until one would be."""
        with self._lock:
            now = time.monotonic() if now is None else now
            head = self._head.value
            oldest: float = self._times[head]
            if oldest > now - self.per:
                return oldest + self.per - now
            self._times[head] = now
            self._head.value = (head + 1) % self.limit
            return None
