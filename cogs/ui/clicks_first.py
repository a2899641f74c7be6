"""Clicks first: the edits that follow the game wait while a click is being answered.

A person who clicks waits for the answer; the edits that follow the game (a table's message,
the private hands that follow it) are paced, seen a moment later anyway, so a few milliseconds
more cost nobody anything. On a busy bot they are most of the event loop's work between
clicks, and a click that arrives while a burst of them is being composed waits behind the
whole burst. So the router counts the clicks being answered, and each such edit, before it
composes, takes its turn: only while no click is being answered, and one edit per turn of the
event loop (the loop reads the network between two), so a click that arrives in a burst waits
for one edit, not for the burst. An edit waits ``patience`` seconds at most: a steady stream of
clicks never starves the edits. Figures in ``bench/README.md`` (issue 28).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Iterator

#: Seconds an edit that follows the game waits at most for its turn.
PATIENCE = 0.05


class ClicksFirst:
    """The clicks being answered, and the turns of the edits that wait for them."""

    def __init__(self, patience: float = PATIENCE) -> None:
        self.patience = patience
        self._answering = 0
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._turn_taken = False  # an edit went in this turn of the loop; the next waits

    @property
    def answering(self) -> int:
        """How many clicks are being answered now."""
        return self._answering

    @contextlib.contextmanager
    def click(self) -> Iterator[None]:
        """Around the answering of one click."""
        self._answering += 1
        try:
            yield
        finally:
            self._answering -= 1
            self._next_turn()

    async def wait(self) -> None:
        """Return when it is this edit's turn (or ``patience`` seconds later)."""
        loop = asyncio.get_running_loop()
        if not self._answering and not self._waiting and not self._turn_taken:
            self._take_turn(loop)
            return
        turn: asyncio.Future[None] = loop.create_future()
        self._waiting.append(turn)
        self._next_turn()
        try:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.patience):
                    await turn
        finally:
            turn.cancel()  # timed out or cancelled: its turn goes to the next one

    def _take_turn(self, loop: asyncio.AbstractEventLoop) -> None:
        self._turn_taken = True
        loop.call_soon(self._turn_over)

    def _turn_over(self) -> None:
        self._turn_taken = False
        self._next_turn()

    def _next_turn(self) -> None:
        """Give the next waiting edit its turn, if no click is being answered and no edit has
        gone in this turn of the loop."""
        if self._answering or self._turn_taken:
            return
        while self._waiting:
            turn = self._waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                self._take_turn(asyncio.get_running_loop())
                return
