"""Discord's global rate limit, as one budget that the whole process spends.

A bot token may make about 50 requests per second across every route but the interaction
endpoints (callbacks, and follow-ups and edits through an interaction's token); a 429 with
``X-RateLimit-Global`` stops every request of the bot for a while, and every process of the
bot (every cluster) shares the one limit. So the bot never asks Discord to refuse it: each
counted request first takes a token from :class:`GlobalBudget`, a token bucket refilled at
``rate`` per second (``ALBASTINI_GLOBAL_RATE``, 45 by default) and holding one token, so
requests are spaced rather than sent in bursts.

Spacing the requests where they are paid for is not enough: a table edit is sent by another
process (the courier), after its picture is drawn, and a busy machine delays some requests and
then lets them go together, so Discord could count more in a second than were paid for in any
second. So the budget also keeps a **window**: a request occupies it from the moment it enters
(when it is paid for, for most) until one second after its answer came back, and none enters
while ``window`` requests occupy it. Whatever the delays, a request Discord counts in a second
was either in flight or answered less than a second before any later one entered, so Discord never
counts more than ``window`` in a second (49 at the default rate, just under 50). A table edit
pays (:meth:`GlobalBudget.reserve`) before it waits for one of the publisher's lanes and enters
the window (:meth:`GlobalBudget.enter`) only once it holds one: edits waiting for lanes never
fill the window that the lanes' holders (notices) wait for. Each process of the bot (cluster)
has its own window, its part of 49 (:func:`for_share`): their sum stays under 50.

When requests wait for tokens, the one with the smallest key goes first (:func:`priority`):

* ``URGENT`` (0): what no table edit should delay, e.g. a request made while answering a click
  or a command (every request not otherwise marked).
* ``NOTICE`` (1): a table's ordered public messages (turn pings, summaries, a table message
  posted again), in the order they were queued.
* ``EDIT`` (2): the edit of a table message, keyed by when the oldest change it will show was
  made: the table that has waited longest goes first, and since an edit shows the table's
  latest state, every change made while it waited goes out in that one edit. A table where no
  person is to play (a computer's turn, a finished match) counts as if its change came
  ``COMPUTER_DELAY`` seconds later: it yields to tables where a person waits, without being
  starved by them.

Where a message can be updated through an interaction's token, it is, and that costs nothing
here: a person's private hand (:mod:`cogs.hands`), and a table message for 14 minutes after a
click that updated it (:mod:`cogs.table_message`).

Clusters: every process has a budget of its own. On PostgreSQL its window is a lease of the
bot's window that the processes share through the database (:mod:`cogs.messages.pool`): a busy
cluster uses what an idle one leaves. Without the pool (SQLite, ``ALBASTINI_GLOBAL_POOL=off``, or
while the database is unreachable) it is its fixed part of ``ALBASTINI_GLOBAL_RATE`` and of the
window, in proportion to the bot's shards it runs (``bot.py --shards``, albastini/shards.py; see
bench/README.md, "Discord's global rate limit").
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import heapq
import itertools
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

#: Requests per second the bot spends by default (Discord allows about 50).
DEFAULT_RATE = 45.0
#: Requests in flight or answered within the last second, at most, at ``DEFAULT_RATE`` (and
#: in proportion at other rates): below Discord's 50.
DEFAULT_WINDOW = 49
#: Seconds a request occupies the window after its answer (Discord's limit is per second).
WINDOW_SECONDS = 1.0
#: Priority classes (smaller goes first).
URGENT, NOTICE, EDIT = 0, 1, 2
#: Seconds by which a table where no person is to play yields to the others.
COMPUTER_DELAY = 3.0
#: Routes outside the global limit: interaction callbacks and the interaction webhook.
EXEMPT = re.compile(r"^/(?:interactions/[^/]+/[^/]+/callback|webhooks/[^/]+/[^/]+)")

Key = tuple[int, float]

_priority: contextvars.ContextVar[Key | None] = contextvars.ContextVar(
    "albastini_budget_priority", default=None
)
_prepaid: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "albastini_budget_prepaid", default=False
)


def counted(path: str) -> bool:
    """Whether a request to ``path`` (after ``/api/vN``) counts toward the global limit."""
    return EXEMPT.match(path) is None


def window_for(rate: float) -> int:
    """The window that goes with a rate: 49 at 45 per second, in proportion below (never more
    than 49)."""
    return max(1, int(min(rate, DEFAULT_RATE) * DEFAULT_WINDOW / DEFAULT_RATE))


def for_share(rate: float, share: float = 1.0) -> GlobalBudget:
    """The budget of one of the bot's processes: ``share`` (its part of the bot's shards,
    ``Shards.share``; 1 for a process that runs them all) of ``rate`` requests per second,
    and the same part of the window that goes with ``rate``. The processes' windows add up to
    at most 49, so Discord never counts 50 requests of the token in a second, however the
    processes' requests interleave."""
    share = min(max(share, 0.0), 1.0)
    window = max(1, int(window_for(rate) * share))
    return GlobalBudget(max(rate * share, 0.01), window=window)


@contextlib.contextmanager
def priority(key: Key) -> Iterator[None]:
    """Requests made inside the block (in this task) wait for tokens with ``key``."""
    token = _priority.set(key)
    try:
        yield
    finally:
        _priority.reset(token)


@contextlib.contextmanager
def prepaid() -> Iterator[None]:
    """Requests made inside the block were paid for already (:meth:`GlobalBudget.take`)."""
    token = _prepaid.set(True)
    try:
        yield
    finally:
        _prepaid.reset(token)


class GlobalBudget:
    """A token bucket (``rate`` per second, at most ``capacity`` tokens) whose waiters are
    served smallest key first, and a window: at most ``window`` requests (default:
    :func:`window_for` the rate) paid for and not answered more than ``WINDOW_SECONDS`` ago.
    Every :meth:`take` is followed by :meth:`done` (the answer came) or :meth:`refund` (not
    sent). ``clock``: seconds, monotonic (for tests)."""

    def __init__(
        self,
        rate: float = DEFAULT_RATE,
        *,
        capacity: float = 1.0,
        window: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if rate <= 0:
            raise ValueError("the rate must be positive")
        self.rate = rate
        self.window = window_for(rate) if window is None else max(1, window)
        self._in_flight = 0
        self._answered: deque[float] = deque()  # when requests in the window were answered
        self.capacity = max(1.0, capacity)
        self._clock = clock
        self._tokens = self.capacity
        self._stamp = clock()
        # (key, order of arrival, future, needs a token, needs room in the window)
        self._waiters: list[tuple[Key, int, asyncio.Future[None], bool, bool]] = []
        self._seq = itertools.count()
        self._timer: asyncio.TimerHandle | None = None
        #: Tokens taken (requests paid for) and given back, since the start.
        self.taken = 0
        self.refunded = 0
        #: Requests that waited (not served at once), and the seconds they waited in all.
        self.waits = 0
        self.wait_seconds = 0.0

    @property
    def waiting(self) -> int:
        """Requests waiting for a token now."""
        return sum(1 for w in self._waiters if not w[2].done())

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.capacity, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now
        while self._answered and self._answered[0] <= now - WINDOW_SECONDS:
            self._answered.popleft()

    def _room(self, token: bool, window: bool) -> bool:
        return (not token or self._tokens >= 1) and (
            not window or self._in_flight + len(self._answered) < self.window
        )

    def _pay(self, token: bool, window: bool) -> None:
        if token:
            self._tokens -= 1
            self.taken += 1
        if window:
            self._in_flight += 1

    def resize(self, window: int, rate: float) -> None:
        """Change the window and the rate (a pooled budget, :mod:`cogs.messages.pool`, as this
        process's lease of the bot's window changes). A smaller window takes effect for the
        requests that enter from now on (those inside stay until they leave); ``window`` 0
        lets none enter."""
        self._refill()
        self.window = max(0, window)
        self.rate = max(rate, 0.01)
        self._grant()

    @property
    def occupied(self) -> int:
        """Requests in flight or answered within the last ``WINDOW_SECONDS``."""
        self._refill()
        return self._in_flight + len(self._answered)

    async def take(self, key: Key | None = None) -> None:
        """Wait for a token and room in the window (the request is then in flight until
        :meth:`done` or :meth:`refund`); with others waiting, the smallest ``key`` is served
        first (default: the current :func:`priority`, else ``URGENT`` in order of arrival)."""
        await self._wait(key, token=True, window=True)

    async def reserve(self, key: Key | None = None) -> None:
        """Wait for a token only (in the order of ``key``), for a request that must wait for
        something else before it is sent (a table edit, for a lane): :meth:`enter` then."""
        await self._wait(key, token=True, window=False)

    async def enter(self) -> None:
        """After :meth:`reserve`, wait for room in the window, before any other waiter (the
        request was paid for): waiting for the window never holds a place in it."""
        await self._wait((URGENT - 1, self._clock()), token=False, window=True)

    async def _wait(self, key: Key | None, *, token: bool, window: bool) -> None:
        if key is None:
            key = _priority.get() or (URGENT, self._clock())
        self._refill()
        if not self._waiters and self._room(token, window):
            self._pay(token, window)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (key, next(self._seq), fut, token, window))
        self.waits += 1
        queued = self._clock()
        self._grant()
        try:
            await fut
            self.wait_seconds += self._clock() - queued
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():  # served as it was cancelled: not spent
                if token:
                    self.refund(entered=window)
                else:
                    self.done(answered=False)
            raise

    def done(self, *, answered: bool = True) -> None:
        """The request in the window was answered (or failed): it leaves the window a second
        later (``answered=False``: it was never sent, it leaves now)."""
        self._in_flight = max(0, self._in_flight - 1)
        if answered:
            self._answered.append(self._clock())
        self._grant()

    def refund(self, *, entered: bool = True) -> None:
        """Give back the token of a request that was not sent (``entered``: it had entered
        the window, which it leaves now)."""
        self.taken -= 1
        self.refunded += 1
        if entered:
            self._in_flight = max(0, self._in_flight - 1)
        self._refill()
        self._tokens = min(self.capacity, self._tokens + 1)
        self._grant()

    def _grant(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._refill()
        while self._waiters:
            _key, _seq, fut, token, window = self._waiters[0]
            if fut.done():  # cancelled while waiting
                heapq.heappop(self._waiters)
                continue
            if not self._room(token, window):
                break
            heapq.heappop(self._waiters)
            self._pay(token, window)
            fut.set_result(None)
        if not self._waiters:
            return
        _key, _seq, _fut, token, window = self._waiters[0]
        wait = (1 - self._tokens) / self.rate if token and self._tokens < 1 else 0.0
        if window and self._in_flight + len(self._answered) >= self.window:
            if not self._answered:
                return  # all in flight: the next answer (done) calls again
            wait = max(wait, self._answered[0] + WINDOW_SECONDS - self._clock())
        self._timer = asyncio.get_running_loop().call_later(max(wait, 0.0), self._grant)


def guard(http: Any, budget: GlobalBudget) -> None:
    """Make every counted request of discord.py's HTTP client ``http`` take a token first
    (unless made inside :func:`prepaid`); the interaction endpoints pass freely."""
    original: Callable[..., Awaitable[Any]] = http.request
    if getattr(original, "albastini_budget", None) is not None:
        original = original.albastini_original  # type: ignore[attr-defined]

    async def request(route: Any, **kwargs: Any) -> Any:
        if _prepaid.get() or not counted(str(getattr(route, "path", ""))):
            return await original(route, **kwargs)
        await budget.take()
        try:
            return await original(route, **kwargs)
        finally:
            budget.done()

    request.albastini_budget = budget  # type: ignore[attr-defined]
    request.albastini_original = original  # type: ignore[attr-defined]
    http.request = request
