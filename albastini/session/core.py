"""The table service's core: its state, start and close, the lock every change runs under, and
the commit path of a move (store, then apply, then announce; a finished deal or match recorded).

The rest of the service builds on it: :mod:`.turns` (whose turn, timers, computer players),
:mod:`.lobby` (opening and filling tables) and :class:`~albastini.session.TableService` (moves
of people). A table's game is reached only through :class:`~albastini.games.interface.Game`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import random
import time
from collections.abc import Awaitable, Callable

from ..events import (
    Acted,
    CloseReason,
    DealOver,
    DealStarted,
    Event,
    MatchOver,
    TableClosed,
    TrickWon,
)
from ..shards import Shards
from ..store import PlayerResult, Store, StoreUnavailable, TeamResult
from ..table import Refusal, Table
from ..timers import Clock, LoopClock
from .checks import is_id, retrieve
from .restore import rebuild

log = logging.getLogger("albastini.session")

Listener = Callable[[Table, list[Event]], None]
Op = Callable[[list[Event]], Awaitable[None]]

__all__ = ["Listener", "Op", "ServiceCore", "player_results", "team_results"]


class ServiceCore:
    """State, life cycle and commit path of :class:`~albastini.session.TableService` (see its
    docstring for the options)."""

    def __init__(
        self,
        store: Store,
        *,
        computer_pause: float = 1.5,
        deal_pause: float = 4.0,
        lobby_idle: float = 600.0,
        warn_before: float = 15.0,
        executor: concurrent.futures.Executor | None = None,
        rng: random.Random | None = None,
        clock: Clock | None = None,
        retry_delay: float = 1.0,
        shards: Shards | None = None,
    ) -> None:
        self._store = store
        #: the shards of the process (a cluster): only their servers' tables are restored
        self.shards = shards
        self.computer_pause = computer_pause
        self.deal_pause = deal_pause
        self.lobby_idle = lobby_idle
        self.warn_before = warn_before
        self.retry_delay = retry_delay
        self._executor = executor
        self._rng = rng if rng is not None else random.Random()
        self._clock: Clock = clock if clock is not None else LoopClock()
        self._tables: dict[int, Table] = {}
        self._active: dict[int, int] = {}  # channel id -> table id (lobby or running)
        self._threads: dict[int, int] = {}  # thread id -> table id (lobby or running)
        self._last_closed: dict[int, int] = {}  # channel id -> last closed table id
        self._listeners: list[Listener] = []
        self._timers: dict[int, asyncio.Task[None]] = {}  # table id -> its timer/computer task
        self._inflight: set[asyncio.Future[None]] = set()
        # One lock per channel while a lobby is being opened there (no global lock: opening a
        # table waits on the store, and channels do not wait for each other); the database
        # refuses a second active table per channel in any case.
        self._opening: dict[int, tuple[asyncio.Lock, int]] = {}
        self._closing = False
        self._sleeping = 0  # timer tasks waiting for the clock to move
        #: Called after each move is committed with (table id, by a computer, seconds the
        #: store took): the metrics (albastini/metrics.py); None when they are off.
        self.on_commit: Callable[[int, bool, float], None] | None = None

    # ------------------------------------------------------------------ reading

    @property
    def clock(self) -> Clock:
        """The clock the service's deadlines are on."""
        return self._clock

    def add_listener(self, listener: Listener) -> None:
        """Call ``listener(table, events)`` after every committed change.

        Listeners are called synchronously, with the table already showing the change; they must
        not block (schedule your own work). An exception in a listener is logged and ignored.
        """
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        """Stop calling ``listener``."""
        self._listeners.remove(listener)

    def table_in_channel(self, channel_id: int) -> Table | None:
        """The channel's table in the lobby or running, if any (a thread's: the table played
        in it)."""
        table_id = self._active.get(channel_id, self._threads.get(channel_id))
        return self._tables.get(table_id) if table_id is not None else None

    def get(self, table_id: int) -> Table | None:
        """A table by id: lobby, running, or the last closed table of its channel."""
        if not is_id(table_id):
            return None
        return self._tables.get(table_id)

    def tables(self) -> list[Table]:
        """Every table in the lobby or running."""
        return [self._tables[t] for t in self._active.values()]

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Reload every lobby and running table from the store by replaying its moves.

        A person whose turn it was gets a fresh full turn time; a pending computer move or next
        deal is scheduled; an idle lobby gets a fresh idle time. A deal or match that ended just
        before a crash gets its result recorded now.

        With ``shards`` (a cluster), only the tables of the servers of those shards: the other
        clusters restore theirs.
        """
        self._closing = False
        for snap in await self._store.unfinished_tables(self.shards):
            try:
                table = rebuild(snap)
            except Exception:
                # Never leave a channel blocked by a table nobody can play: cancel it (its log
                # stays in the store for a post-mortem).
                log.exception("could not replay table %s; cancelling it", snap.table.id)
                await self._store.cancel_table(snap.table.id)
                continue
            self._tables[table.id] = table
            self._active[table.channel_id] = table.id
            if table.thread_id is not None:
                self._threads[table.thread_id] = table.id
            try:
                await self._locked(table, functools.partial(self._resume, table), [])
            except Exception:  # logged; its timers retry after retry_delay
                continue

    async def close(self) -> None:
        """Cancel timers and computer moves; wait for changes being committed. The store stays
        open (its owner closes it)."""
        self._closing = True
        timers = list(self._timers.values())
        self._timers.clear()
        for task in timers:
            task.cancel()
        await asyncio.gather(*timers, return_exceptions=True)
        while self._inflight:
            await asyncio.gather(*list(self._inflight), return_exceptions=True)

    async def wait_idle(self, timeout: float = 10.0) -> None:
        """Return once nothing is left to do until the clock moves: no change being committed,
        no computer thinking, every timer waiting on the clock (for tests and benchmarks).
        TimeoutError after ``timeout`` real seconds."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        quiet = 0
        while quiet < 3:  # quiet across three turns of the loop: nothing was about to start
            if not self._inflight and self._sleeping == len(self._timers):
                quiet += 1
                await asyncio.sleep(0)
            else:
                quiet = 0
                await asyncio.sleep(0.0005)
            if loop.time() > end:
                raise TimeoutError("the table service did not settle")

    # ------------------------------------------------------------------ internals: running ops

    def _check_open(self) -> None:
        if self._closing:
            raise Refusal("closed", "The bot is restarting; try again in a moment.")

    def _table(self, table_id: int) -> Table:
        self._check_open()
        table = self.get(table_id)
        if table is None:
            raise Refusal("no_table", "There is no such table.", table_id=table_id)
        return table

    async def _run(self, table: Table, op: Op) -> Table:
        """Run ``op`` under the table's lock as its own task: a caller that is cancelled never
        interrupts a commit half-way, and ``close()`` waits for it."""
        self._check_open()
        events: list[Event] = []
        task = asyncio.ensure_future(self._locked(table, op, events))
        self._inflight.add(task)
        task.add_done_callback(self._inflight.discard)
        task.add_done_callback(retrieve)
        await asyncio.shield(task)
        return table

    async def _locked(self, table: Table, op: Op, events: list[Event]) -> None:
        async with table.lock:
            try:
                await op(events)
            except Refusal:
                raise
            except Exception as exc:
                # The store failed (disk full, database locked...). Whatever was committed is
                # applied; the timers start again after a pause so play cannot get stuck.
                if isinstance(exc, StoreUnavailable):  # the store logged the cause once
                    log.warning("table %s: a change was not saved (%s)", table.id, exc)
                else:
                    log.exception("table %s: a change failed; retrying its timers", table.id)
                if table.status in ("lobby", "running") and not self._closing:
                    self._schedule(table, events, delay=self.retry_delay)
                raise
            finally:
                if events:
                    self._emit(table, events)

    def _emit(self, table: Table, events: list[Event]) -> None:
        batch = list(events)
        events.clear()
        for listener in list(self._listeners):
            try:
                listener(table, batch)
            except Exception:
                log.exception("table listener %r failed", listener)

    def _check_move(self, table: Table, code: object) -> str:
        assert table.match is not None
        if not isinstance(code, str):
            raise Refusal("illegal", "That is not a move.", rule="illegal", reason="illegal")
        try:
            return table.rules.check(table.match, code)
        except table.rules.illegal as exc:
            reason = str(getattr(exc, "reason", "illegal"))
            details: dict[str, object] = dict(getattr(exc, "details", {}))
            raise Refusal("illegal", str(exc), rule=reason, reason=reason, **details) from None

    async def _commit_move(
        self, table: Table, seat: int, code: str, user_id: int | None, events: list[Event]
    ) -> None:
        """Store the (checked) move, then apply it, then record a finished deal or match."""
        match = table.match
        assert match is not None
        move_no = table.move_no
        on_commit = self.on_commit
        started = time.perf_counter() if on_commit is not None else 0.0
        await self._store.append_move(
            table.id,
            move_no,
            table.deal_no,
            table.slots[seat],
            code,
            user_id=user_id,
            by_computer=user_id is None,
        )
        if on_commit is not None:
            on_commit(table.id, user_id is None, time.perf_counter() - started)
        table.move_no = move_no + 1
        trick = table.rules.apply(match, code)
        events.append(Acted(table.id, seat, code, move_no, user_id is None))
        if trick is not None:
            events.append(TrickWon(table.id, trick.winner, trick.points, trick.plays))
        if table.rules.deal_over(match):
            await self._finish_deal(table, events)

    async def _finish_deal(self, table: Table, events: list[Event]) -> None:
        match = table.match
        assert match is not None
        rules = table.rules
        score = rules.deal_score(match)
        await self._store.record_deal_result(
            table.id, table.deal_no, score.points, score.winner, score.game_points
        )
        table.result_recorded = True
        table.results.append(score)
        scores = tuple(match.scores)
        result = rules.result_json(match)
        if match.finished:
            events.append(DealOver(table.id, table.deal_no, result, scores, None))
            await self._finish_match(table, events)
        else:
            nxt = rules.next_dealer(match)
            events.append(DealOver(table.id, table.deal_no, result, scores, nxt))

    async def _finish_match(self, table: Table, events: list[Event]) -> None:
        match = table.match
        assert match is not None and match.finished
        await self._store.finish_table(table.id, player_results(table), team_results(table))
        events.append(MatchOver(table.id, match.winner, tuple(match.scores)))
        self._mark_closed(table, "finished")
        events.append(TableClosed(table.id, "finished"))

    async def _next_deal(self, table: Table, events: list[Event]) -> None:
        match = table.match
        if table.status != "running" or match is None or not table.rules.deal_over(match):
            return
        await self._ensure_deal_result(table, events)  # after a failure or a crash
        if table.status != "running":
            return
        if match.finished:  # recording the end of the match failed before: again
            await self._finish_match(table, events)
            return
        dealer = table.rules.next_dealer(match)
        seed = self._rng.getrandbits(63)
        await self._store.begin_deal(table.id, table.deal_no + 1, table.slots[dealer], seed)
        table.rules.next_deal(match, seed)
        table.deal_no += 1
        table.result_recorded = False
        events.append(DealStarted(table.id, table.deal_no, dealer))
        self._schedule(table, events)

    async def _ensure_deal_result(self, table: Table, events: list[Event]) -> None:
        if not table.result_recorded:
            await self._finish_deal(table, events)

    async def _close_table(self, table: Table, reason: CloseReason, events: list[Event]) -> None:
        await self._store.cancel_table(table.id)
        self._mark_closed(table, reason)
        events.append(TableClosed(table.id, reason))

    def _mark_closed(self, table: Table, reason: CloseReason) -> None:
        table.status = "finished" if reason == "finished" else "cancelled"
        table.turn_deadline = None
        timer = self._timers.pop(table.id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()
        if self._active.get(table.channel_id) == table.id:
            del self._active[table.channel_id]
        if table.thread_id is not None and self._threads.get(table.thread_id) == table.id:
            del self._threads[table.thread_id]
        previous = self._last_closed.get(table.channel_id)
        if previous is not None and previous != table.id:
            self._tables.pop(previous, None)
        self._last_closed[table.channel_id] = table.id

    async def _resume(self, table: Table, events: list[Event]) -> None:
        """After a reload: close an abandoned lobby, record what a crash left unrecorded, and
        start the timers again."""
        if table.status == "lobby":
            if not any(s is not None and s.user_id is not None for s in table.seats):
                await self._close_table(table, "cancelled", events)
                return
            self._schedule(table, events)
            return
        match = table.match
        if match is None:  # a running table without a deal cannot happen; cancel it
            await self._close_table(table, "cancelled", events)
            return
        if table.rules.deal_over(match) and not table.result_recorded:
            await self._finish_deal(table, events)  # finishes the match too, if it is over
        elif table.rules.deal_over(match) and match.finished:
            await self._finish_match(table, events)
        if table.status == "running":
            self._schedule(table, events)


    def _schedule(self, table: Table, events: list[Event], *, delay: float = 0.0) -> None:
        """Start the timer the table's state calls for (see :mod:`.turns`)."""
        raise NotImplementedError


def team_results(table: Table) -> list[TeamResult]:
    """Every side's final score and the levels of the computers on it (for the ratings)."""
    match = table.match
    assert match is not None
    scores = match.scores
    computers: dict[int, list[str]] = {}
    for seat, info in enumerate(table.seats):
        if info is not None and info.user_id is None:
            computers.setdefault(table.team_of(seat), []).append(info.level or "normal")
    return [TeamResult(team, score, tuple(computers.get(team, ()))) for team, score in
            enumerate(scores)]  # fmt: skip


def player_results(table: Table) -> list[PlayerResult]:
    """Every person's share of a finished match, from the deals' stored scores: their side,
    its final score, whether it won, its deals won (and won scoring 2 or more) and card
    points."""
    match = table.match
    assert match is not None
    scores = match.scores
    winners = table.rules.match_winners(match)
    out = []
    for seat, info in enumerate(table.seats):
        if info is None or info.user_id is None:
            continue
        team = table.team_of(seat)
        won = [r for r in table.results if r.winner == team]
        out.append(
            PlayerResult(
                user_id=info.user_id,
                team=team,
                score=scores[team],
                won=team in winners,
                deals_played=len(table.results),
                deals_won=len(won),
                deals_won_big=sum(1 for r in won if r.game_points[team] >= 2),
                card_points=sum(r.points[team] for r in table.results),
            )
        )
    return out
