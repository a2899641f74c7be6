"""Whose turn it is, and the timers of a table: a person's turn time (a warning, then a
timeout that lets the computer move and, after two, marks them away), the computer players'
turns (fast levels inline, the others in the executor, a fallback when they fail), the pause
between deals and the idle lobby's end."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
from collections.abc import Awaitable, Mapping
from typing import Any

from ..events import Event, SeatAway, TurnStarted, TurnWarning
from ..games.interface import decide
from ..table import Table
from .checks import retrieve, seat_info
from .core import Op, ServiceCore

log = logging.getLogger("albastini.session")

#: The level a computer falls back to, inline, when its own level failed (e.g. no worker).
FALLBACK_LEVEL = "normal"

__all__ = ["FALLBACK_LEVEL", "TurnService"]


class TurnService(ServiceCore):
    """The turns and timers of :class:`~albastini.session.TableService`."""

    def _schedule(self, table: Table, events: list[Event], *, delay: float = 0.0) -> None:
        """Replace the table's timer by the one its state calls for; announce a new turn.

        ``delay``: start the timer that much later (a retry after a failure)."""
        old = self._timers.pop(table.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        table.turn_deadline = None
        if self._closing:
            return
        coro: Awaitable[None] | None = None
        if table.status == "lobby":
            coro = self._idle_timer(table)
        elif table.status == "running" and table.match is not None:
            match = table.match
            if table.rules.deal_over(match):
                coro = self._deal_timer(table)  # the next deal, or a pending end of match
            else:
                seat = table.to_act
                assert seat is not None
                info = seat_info(table, seat)
                if info.is_computer:
                    level = info.level if info.user_id is None and info.level else None
                    coro = self._computer_turn(
                        table, table.move_no, seat, level or table.computer_level
                    )
                    events.append(TurnStarted(table.id, seat, table.move_no, None))
                else:
                    deadline = self._clock.time() + delay + table.turn_time
                    table.turn_deadline = deadline
                    coro = self._turn_timer(table, table.move_no, seat)
                    events.append(TurnStarted(table.id, seat, table.move_no, deadline))
        if coro is not None:
            if delay > 0:
                coro = self._after(delay, coro)
            task = asyncio.ensure_future(coro)
            task.add_done_callback(retrieve)
            self._timers[table.id] = task

    async def _after(self, delay: float, coro: Awaitable[None]) -> None:
        try:
            await self._sleep(delay)
        except BaseException:
            if asyncio.iscoroutine(coro):
                coro.close()
            raise
        await coro

    async def _sleep(self, delay: float) -> None:
        if delay <= 0:
            await self._clock.sleep(delay)
            return
        self._sleeping += 1
        try:
            await self._clock.sleep(delay)
        finally:
            self._sleeping -= 1

    async def _idle_timer(self, table: Table) -> None:
        await self._sleep(self.lobby_idle)

        async def op(events: list[Event]) -> None:
            if table.status == "lobby":
                await self._close_table(table, "idle", events)

        await self._timer_run(table, op)

    async def _deal_timer(self, table: Table) -> None:
        await self._sleep(self.deal_pause)
        await self._timer_run(table, lambda events: self._next_deal(table, events))

    async def _computer_turn(self, table: Table, move_no: int, seat: int, level: str) -> None:
        await self._sleep(self.computer_pause)
        code = await self._think(table, seat, level)

        async def op(events: list[Event]) -> None:
            if table.status != "running" or table.move_no != move_no:
                return  # someone else moved meanwhile (a person came back)
            info = seat_info(table, seat)
            if not info.is_computer or table.to_act != seat:
                return
            await self._commit_move(table, seat, code, None, events)
            self._schedule(table, events)

        await self._timer_run(table, op)

    async def _turn_timer(self, table: Table, move_no: int, seat: int) -> None:
        warn_at = table.turn_time - self.warn_before
        if self.warn_before > 0 and warn_at > 0:
            await self._sleep(warn_at)
            if table.status == "running" and table.move_no == move_no:
                self._emit(table, [TurnWarning(table.id, seat, self.warn_before)])
            await self._sleep(self.warn_before)
        else:
            await self._sleep(table.turn_time)
        code = await self._think(table, seat, table.computer_level)

        async def op(events: list[Event]) -> None:
            if table.status != "running" or table.move_no != move_no or table.to_act != seat:
                return
            info = seat_info(table, seat)
            if info.is_computer:
                return
            info.timeouts += 1
            info.away = info.timeouts >= 2
            await self._store.update_seat(
                table.id,
                table.slots[seat],
                timeouts=info.timeouts,
                away=info.away,
                computer_control=info.away,
            )
            if info.timeouts == 1:
                events.append(SeatAway(table.id, seat))
            await self._commit_move(table, seat, code, None, events)
            self._schedule(table, events)

        await self._timer_run(table, op)

    async def _timer_run(self, table: Table, op: Op) -> None:
        """Run a timer's op; the timer task is no longer the table's timer once it commits."""
        if self._timers.get(table.id) is asyncio.current_task():
            del self._timers[table.id]
        with contextlib.suppress(Exception):  # a failure is logged and retried by _locked
            await self._run(table, op)

    async def _think(self, table: Table, seat: int, level: str) -> str:
        """A computer's move for ``seat``: fast levels inline, slow ones in the executor."""
        match = table.match
        assert match is not None
        view = table.rules.view(match, seat)
        legal = list(view["legal"])
        seed = self._rng.getrandbits(32)
        try:
            if table.rules.is_fast(level):
                code = decide(table.game, level, view, seed)
            else:
                loop = asyncio.get_running_loop()
                code = await loop.run_in_executor(
                    self._executor, decide, table.game, level, view, seed
                )
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if isinstance(exc, concurrent.futures.BrokenExecutor):
                # its worker died twice in a row (the executor already tried again on a new
                # one and said so): one line, not a traceback per move
                log.warning("computer player %s had no worker on table %s", level, table.id)
            else:
                log.exception("computer player %s failed on table %s", level, table.id)
            code = _fallback_move(table.game, view, seed, legal)
        if code not in legal:
            # the kind of move only: a code may name a card that others may not see
            kind = code.partition(":")[0] if isinstance(code, str) else type(code).__name__
            log.error("computer player %s chose a %r move that is not legal", level, kind)
            code = legal[0]
        return code


def _fallback_move(game: str, view: Mapping[str, Any], seed: int, legal: list[str]) -> str:
    """A sensible move when the computer's own level failed: the normal player, inline
    (a few milliseconds), rather than simply the first legal move."""
    try:
        return decide(game, FALLBACK_LEVEL, view, seed)
    except Exception:
        log.exception("the fallback computer player failed too")
        return legal[0]
