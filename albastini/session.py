"""The table service: runs matches in channels, Discord-free and async.

One :class:`TableService` holds every open table of the bot. Each table has one asyncio lock:
commands and actions on a table run one at a time, so of two clicks for the same move exactly one
wins. An accepted action is validated against the rules engine, then **committed to the store**,
then applied to the in-memory match, then announced to the listeners as events; a refusal raises
:class:`Refusal` and changes nothing, in memory or in the store.

Computer players (computer seats, persons who are away, persons whose time ran out) move through
the same commit path. Time comes from a :class:`~albastini.timers.Clock`, so tests move it by hand.

State is never stored twice: ``start()`` rebuilds every lobby and running table from the store by
replaying each deal's seed and the move log through the engine.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any

from .events import (
    Acted,
    CloseReason,
    DealOver,
    DealStarted,
    Event,
    LobbyChanged,
    MatchOver,
    MatchStarted,
    RoundWon,
    SeatAway,
    SeatBack,
    SeatLeft,
    TableClosed,
    TurnStarted,
    TurnWarning,
)
from .games.albastini.ai import decide as ai_decide
from .games.albastini.deal import IllegalMove
from .store import (
    ChannelBusy,
    DealRecord,
    NewSeat,
    Store,
    StoreError,
    StoreUnavailable,
    TableSnapshot,
)
from .table import (
    COMPUTER_LEVELS,
    SLOW_LEVELS,
    AlbastiniRules,
    GameRules,
    Refusal,
    SeatInfo,
    Table,
)
from .timers import Clock, LoopClock

log = logging.getLogger(__name__)

Listener = Callable[[Table, list[Event]], None]
Op = Callable[[list[Event]], Awaitable[None]]

TURN_TIME_RANGE = (15, 600)
TARGET_RANGE = (1, 21)
LANGUAGES = ("en", "sw")
NAME_MAX = 100
_ID_MAX = 2**63 - 1
#: The level a computer falls back to, inline, when its own level failed (e.g. no worker).
FALLBACK_LEVEL = "normal"


def decide(level: str, view: Mapping[str, Any], seed: int | None = None) -> str:
    """A computer player's move (action code) for ``view``; top-level, so picklable for a
    process pool."""
    return ai_decide(level, dict(view), seed=seed)


def _is_id(value: object) -> bool:
    return type(value) is int and 0 < value <= _ID_MAX


class TableService:
    """Every table of the bot: lobbies, running matches, their timers and computer players.

    ``store``: the persistence (:class:`~albastini.store.Store`); the service does not close it.
    ``computer_pause``: seconds a computer waits before moving (so people can follow);
    ``deal_pause``: seconds between the end of a deal and the next deal; ``lobby_idle``: seconds
    after the last change before an unstarted lobby closes; ``warn_before``: a
    :class:`TurnWarning` comes this many seconds before a person's time runs out;
    ``executor``: where slow computer levels think (None = the loop's default executor);
    ``rng``: seating, first dealer, deal seeds, computer seeds; ``clock``: time (tests pass a
    :class:`~albastini.timers.ManualClock`); ``rules``: the card game (Albastini);
    ``retry_delay``: seconds before timers start again after the store failed.
    """

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
        rules: GameRules | None = None,
        retry_delay: float = 1.0,
    ) -> None:
        self._store = store
        self.computer_pause = computer_pause
        self.deal_pause = deal_pause
        self.lobby_idle = lobby_idle
        self.warn_before = warn_before
        self.retry_delay = retry_delay
        self._executor = executor
        self._rng = rng if rng is not None else random.Random()
        self._clock: Clock = clock if clock is not None else LoopClock()
        self._rules: GameRules = rules if rules is not None else AlbastiniRules()
        self._tables: dict[int, Table] = {}
        self._active: dict[int, int] = {}  # channel id -> table id (lobby or running)
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
        """The channel's table in the lobby or running, if any."""
        table_id = self._active.get(channel_id)
        return self._tables.get(table_id) if table_id is not None else None

    def get(self, table_id: int) -> Table | None:
        """A table by id: lobby, running, or the last closed table of its channel."""
        if not _is_id(table_id):
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
        """
        self._closing = False
        for snap in await self._store.unfinished_tables():
            try:
                table = self._rebuild(snap)
            except Exception:
                # Never leave a channel blocked by a table nobody can play: cancel it (its log
                # stays in the store for a post-mortem).
                log.exception("could not replay table %s; cancelling it", snap.table.id)
                await self._store.cancel_table(snap.table.id)
                continue
            self._tables[table.id] = table
            self._active[table.channel_id] = table.id
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

    # ------------------------------------------------------------------ lobby

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        *,
        players: int = 4,
        team_size: int | None = None,
        target: int | None = None,
        turn_time: int | None = None,
        computer_level: str = "normal",
        language: str | None = None,
    ) -> Table:
        """Open a lobby in a channel with the host in the first seat.

        Defaults: teams of 2 for 4 and 6 players, individual play otherwise; target, turn time
        and language from the guild's settings. Refuses ``bad_value`` (no such mode, target
        outside 1-21, turn time outside 15-600 s, unknown level or language) and
        ``table_exists`` (the channel has a table in the lobby or running).
        """
        self._check_open()
        for name, value in (("guild", guild_id), ("channel", channel_id), ("host", host_id)):
            if not _is_id(value):
                raise Refusal("bad_value", f"That is not a valid {name} id.", field=name)
        name = _clean_name(host_name)
        rules = self._rules
        if type(players) is not int or not rules.min_players <= players <= rules.max_players:
            raise Refusal(
                "bad_value",
                f"A table has {rules.min_players} to {rules.max_players} players.",
                field="players",
                value=players,
            )
        if team_size is None:
            team_size = rules.default_team_size(players)
        try:
            if type(team_size) is not int:
                raise ValueError
            rules.check_mode(players, team_size)
        except ValueError:
            raise Refusal(
                "bad_value",
                f"There is no mode for {players} players in teams of {team_size}.",
                field="team_size",
                value=team_size,
            ) from None
        if computer_level not in COMPUTER_LEVELS:
            raise Refusal(
                "bad_value",
                f"Unknown computer level {computer_level!r}: choose one of "
                + ", ".join(COMPUTER_LEVELS)
                + ".",
                field="computer_level",
                value=computer_level,
            )
        if language is not None and language not in LANGUAGES:
            raise Refusal(
                "bad_value", "The language must be en or sw.", field="language", value=language
            )
        _check_range("target", target, *TARGET_RANGE, "victory points")
        _check_range("turn_time", turn_time, *TURN_TIME_RANGE, "seconds")
        self._check_channel_free(channel_id)
        # Read outside the channel's lock: settings only change through the cogs, and a lobby
        # opened a moment before a change keeps the values it was opened with anyway.
        guild = await self._store.guild_settings(guild_id)
        async with self._channel_lock(channel_id):
            self._check_channel_free(channel_id)
            table = Table(
                id=0,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                players=players,
                team_size=team_size,
                target=target if target is not None else guild.target_vp,
                turn_time=turn_time if turn_time is not None else guild.turn_time,
                computer_level=computer_level,
                language=language if language is not None else guild.language,
                game=rules.name,
                seats=[None] * players,
            )
            table.seats[0] = SeatInfo(0, host_id, name, None)
            await self._create(table)
        return table

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        """A person takes the first free seat of the lobby."""
        table = self._table(table_id)
        if not _is_id(user_id):
            raise Refusal("bad_value", "That is not a valid user id.", field="user_id")
        clean = _clean_name(name)

        async def op(events: list[Event]) -> None:
            self._require_lobby(table)
            if table.seat_of(user_id) is not None:
                raise Refusal("already_seated", "You already have a seat at this table.")
            slot = _free_slot(table)
            await self._store.add_seat(table.id, slot, user_id, clean)
            table.seats[slot] = SeatInfo(slot, user_id, clean, None)
            events.append(LobbyChanged(table.id))
            self._schedule(table, events)

        return await self._run(table, op)

    async def leave(self, table_id: int, user_id: int) -> Table:
        """Leave the table.

        In the lobby the seat is freed; a host who leaves hands the host's role to the next
        person, and a lobby left without any person is cancelled. In a running match a computer
        plays the seat from now on (the seat is away, :class:`SeatLeft`); the person may come
        back with :meth:`back` and still gets the match's result.
        """
        table = self._table(table_id)

        async def op(events: list[Event]) -> None:
            seat = self._require_seat(table, user_id)
            if table.status == "lobby":
                await self._leave_lobby(table, seat, events)
            elif table.status == "running":
                info = _seat(table, seat)
                if not info.away:
                    await self._store.update_seat(
                        table.id, table.slots[seat], away=True, computer_control=True
                    )
                    info.away = True
                events.append(SeatLeft(table.id, seat, user_id))
                if table.to_act == seat:
                    self._schedule(table, events)
            else:
                raise Refusal("not_running", "This table is closed.")

        return await self._run(table, op)

    async def add_computer(self, table_id: int, user_id: int, level: str | None = None) -> Table:
        """The host seats a computer player (default: the table's level) in the first free
        seat."""
        table = self._table(table_id)

        async def op(events: list[Event]) -> None:
            self._require_lobby(table)
            self._require_host(table, user_id)
            lvl = self._level(table, level)
            await self._add_computer(table, lvl)
            events.append(LobbyChanged(table.id))
            self._schedule(table, events)

        return await self._run(table, op)

    async def fill_computers(self, table_id: int, user_id: int, level: str | None = None) -> Table:
        """The host seats computer players in every free seat."""
        table = self._table(table_id)

        async def op(events: list[Event]) -> None:
            self._require_lobby(table)
            self._require_host(table, user_id)
            lvl = self._level(table, level)
            if None not in table.seats:
                raise Refusal("table_full", "Every seat is taken.")
            while None in table.seats:
                await self._add_computer(table, lvl)
            events.append(LobbyChanged(table.id))
            self._schedule(table, events)

        return await self._run(table, op)

    async def start_match(self, table_id: int, user_id: int) -> Table:
        """The host starts the match once every seat is taken.

        The lobby's seats are shuffled into seat numbers (partners sit as the rules' table
        says: team = seat % teams) and the first dealer is drawn at random.
        """
        table = self._table(table_id)

        async def op(events: list[Event]) -> None:
            self._require_lobby(table)
            self._require_host(table, user_id)
            if None in table.seats:
                raise Refusal(
                    "seats_empty",
                    "Some seats are empty: wait for players or add computer players.",
                    empty=table.seats.count(None),
                )
            n = table.players
            order = list(range(n))  # order[seat] = lobby slot
            self._rng.shuffle(order)
            dealer = self._rng.randrange(n)
            seed = self._rng.getrandbits(63)
            match = self._rules.new_match(n, table.team_size, table.target, dealer, seed)
            await self._store.update_table_settings(table.id, _settings(table, seating=order))
            await self._store.start_table(table.id, order[dealer], seed)
            lobby = table.seats
            seats: list[SeatInfo | None] = []
            for seat, slot in enumerate(order):
                info = lobby[slot]
                assert info is not None
                info.seat = seat
                seats.append(info)
            table.seats = seats
            table.slots = order
            table.match = match
            table.status = "running"
            table.deal_no = 1
            table.move_no = 1
            events.append(MatchStarted(table.id))
            events.append(DealStarted(table.id, 1, dealer))
            self._schedule(table, events)

        return await self._run(table, op)

    async def cancel(self, table_id: int, user_id: int, *, moderator: bool = False) -> Table:
        """The host, or a moderator (``moderator=True``), cancels a lobby or a running match."""
        table = self._table(table_id)

        async def op(events: list[Event]) -> None:
            if table.status not in ("lobby", "running"):
                raise Refusal("not_running", "This table is already closed.")
            if not moderator:
                self._require_host(table, user_id)
            await self._close_table(table, "cancelled", events)

        return await self._run(table, op)

    async def set_message(self, table_id: int, message_id: int) -> None:
        """Remember the table's public message (kept in the store, for after a restart)."""
        table = self._table(table_id)
        if not _is_id(message_id):
            raise Refusal("bad_value", "That is not a valid message id.", field="message_id")

        async def op(events: list[Event]) -> None:
            if table.status in ("lobby", "running"):
                await self._store.set_message_id(table.id, message_id)
            table.message_id = message_id

        await self._run(table, op)

    async def rematch(self, table_id: int, user_id: int, guild_id: int | None = None) -> Table:
        """After a finished match, a person who played opens a new lobby in the same channel with
        the same people and computer players (the caller hosts it).

        A match that finished before the service started is read back from the store. Refused
        with ``table_gone`` when there is no such finished table (in ``guild_id``, if given).
        """
        self._check_open()
        old = self.get(table_id)
        if old is None:
            old = await self._finished_table(table_id)
        if guild_id is not None and old.guild_id != guild_id:
            raise Refusal("table_gone", "There is no such table here.", table_id=table_id)
        if old.status != "finished":
            raise Refusal("not_finished", "The match is not finished yet.")
        if old.seat_of(user_id) is None:
            raise Refusal("not_seated", "Only the players of this match can ask for a rematch.")
        async with self._channel_lock(old.channel_id):
            self._check_channel_free(old.channel_id)
            infos = [s for s in old.seats if s is not None]
            infos.sort(key=lambda s: s.user_id != user_id)  # the new host first
            table = Table(
                id=0,
                guild_id=old.guild_id,
                channel_id=old.channel_id,
                host_id=user_id,
                players=old.players,
                team_size=old.team_size,
                target=old.target,
                turn_time=old.turn_time,
                computer_level=old.computer_level,
                language=old.language,
                game=old.game,
                seats=[
                    SeatInfo(
                        i,
                        s.user_id,
                        s.name,
                        s.level if s.user_id is None else None,
                    )
                    for i, s in enumerate(infos)
                ],
            )
            await self._create(table)
        return table

    async def _finished_table(self, table_id: int) -> Table:
        """A finished table as the store keeps it (not kept in memory: only its seats and
        settings are used, for a rematch)."""
        gone = Refusal("table_gone", "That table is closed.", table_id=table_id)
        try:  # a malformed id is refused by the store (InvalidValue) like an unknown one
            snap = await self._store.load_table(table_id)
        except StoreError:
            raise gone from None
        if snap.table.status != "finished":
            raise gone
        try:
            return self._rebuild(snap)
        except Exception:
            log.exception("could not read back finished table %s", table_id)
            raise gone from None

    # ------------------------------------------------------------------ play

    async def act(self, table_id: int, user_id: int, move_no: int, code: str) -> Table:
        """A person's move: ``"play:7H"``, ``"bid:4C"`` or ``"pass"``, offered as ``move_no``.

        Refused (nothing written) when the person does not sit here (``not_seated``), the move
        number is not the current one (``stale``), it is not their turn (``not_your_turn``) or
        the rules forbid it (``illegal``, with the engine's ``rule`` and details). A person
        who is away and makes a legal move on their turn is back.
        """
        table = self._table(table_id)

        async def op(events: list[Event]) -> None:
            if table.status != "running" or table.match is None:
                raise Refusal("not_running", "The match is not running.")
            seat = self._require_seat(table, user_id)
            if type(move_no) is not int or move_no != table.move_no:
                raise Refusal(
                    "stale",
                    "That button is from an earlier move.",
                    expected=table.move_no,
                    got=move_no if type(move_no) is int else None,
                )
            to_act = table.to_act
            if to_act != seat:
                raise Refusal(
                    "not_your_turn",
                    "It's not your turn."
                    if to_act is not None
                    else "The deal is over; the next one starts in a moment.",
                    to_act=to_act,
                )
            canonical = self._check_move(table, code)
            info = _seat(table, seat)
            if info.away or info.timeouts:
                await self._store.update_seat(
                    table.id, table.slots[seat], away=False, computer_control=False, timeouts=0
                )
                info.away = False
                info.timeouts = 0
                events.append(SeatBack(table.id, seat))
            await self._commit_move(table, seat, canonical, user_id, events)
            self._schedule(table, events)

        return await self._run(table, op)

    async def back(self, table_id: int, user_id: int) -> Table:
        """ "I'm back": a person whose seat a computer played takes it again; their turn, if it
        is, gets a fresh full turn time. Refused with ``away_only`` when they were not away."""
        table = self._table(table_id)

        async def op(events: list[Event]) -> None:
            if table.status != "running":
                raise Refusal("not_running", "The match is not running.")
            seat = self._require_seat(table, user_id)
            info = _seat(table, seat)
            if not info.away and not info.timeouts:
                raise Refusal("away_only", "You are not away.")
            await self._store.update_seat(
                table.id, table.slots[seat], away=False, computer_control=False, timeouts=0
            )
            info.away = False
            info.timeouts = 0
            events.append(SeatBack(table.id, seat))
            if table.to_act == seat:
                self._schedule(table, events)

        return await self._run(table, op)

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
        task.add_done_callback(_retrieve)
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
            return self._rules.check(table.match, code)
        except IllegalMove as exc:
            raise Refusal(
                "illegal", str(exc), rule=exc.reason, reason=exc.reason, **exc.details
            ) from None

    async def _commit_move(
        self, table: Table, seat: int, code: str, user_id: int | None, events: list[Event]
    ) -> None:
        """Store the (checked) move, then apply it, then record a finished deal or match."""
        match = table.match
        assert match is not None
        move_no = table.move_no
        await self._store.append_move(
            table.id,
            move_no,
            table.deal_no,
            table.slots[seat],
            code,
            user_id=user_id,
            by_computer=user_id is None,
        )
        table.move_no = move_no + 1
        round_info = self._rules.apply(match, code)
        events.append(Acted(table.id, seat, code, move_no, user_id is None))
        if round_info is not None:
            events.append(
                RoundWon(table.id, round_info.winner, round_info.points, round_info.plays)
            )
        if self._rules.deal_over(match):
            await self._finish_deal(table, events)

    async def _finish_deal(self, table: Table, events: list[Event]) -> None:
        match = table.match
        assert match is not None
        result = self._rules.deal_result(match)
        await self._store.record_deal_result(
            table.id, table.deal_no, list(result.points), result.winner, result.victory_points
        )
        table.result_recorded = True
        scores = tuple(match.scores)
        if match.finished:
            events.append(DealOver(table.id, table.deal_no, result, scores, None))
            await self._finish_match(table, events)
        else:
            nxt = self._rules.next_dealer(match)
            events.append(DealOver(table.id, table.deal_no, result, scores, nxt))

    async def _finish_match(self, table: Table, events: list[Event]) -> None:
        match = table.match
        assert match is not None and match.winner is not None
        results = []
        for seat, info in enumerate(table.seats):
            if info is None or info.user_id is None:
                continue
            results.append(self._rules.totals(match, seat, info.user_id))
        await self._store.finish_table(table.id, results)
        events.append(MatchOver(table.id, match.winner, tuple(match.scores)))
        self._mark_closed(table, "finished")
        events.append(TableClosed(table.id, "finished"))

    async def _next_deal(self, table: Table, events: list[Event]) -> None:
        match = table.match
        if table.status != "running" or match is None or not self._rules.deal_over(match):
            return
        await self._ensure_deal_result(table, events)  # after a failure or a crash
        if table.status != "running":
            return
        if match.finished:  # recording the end of the match failed before: again
            await self._finish_match(table, events)
            return
        dealer = self._rules.next_dealer(match)
        seed = self._rng.getrandbits(63)
        await self._store.begin_deal(table.id, table.deal_no + 1, table.slots[dealer], seed)
        self._rules.next_deal(match, seed)
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
        previous = self._last_closed.get(table.channel_id)
        if previous is not None and previous != table.id:
            self._tables.pop(previous, None)
        self._last_closed[table.channel_id] = table.id

    # ------------------------------------------------------------------ internals: lobby

    def _check_channel_free(self, channel_id: int) -> None:
        if channel_id in self._active:
            raise Refusal(
                "table_exists",
                "There is already a table in this channel.",
                table_id=self._active[channel_id],
            )

    @contextlib.asynccontextmanager
    async def _channel_lock(self, channel_id: int) -> AsyncIterator[None]:
        """Hold the channel's opening lock; it is forgotten when nobody holds or waits for it."""
        lock, users = self._opening.get(channel_id, (asyncio.Lock(), 0))
        self._opening[channel_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._opening[channel_id]
            if users == 1:
                del self._opening[channel_id]
            else:
                self._opening[channel_id] = (lock, users - 1)

    async def _create(self, table: Table) -> None:
        """Store a new lobby with its seats and make it the channel's table (shielded: a caller
        that is cancelled never leaves a half-made table)."""
        task = asyncio.ensure_future(self._create_now(table))
        self._inflight.add(task)
        task.add_done_callback(self._inflight.discard)
        task.add_done_callback(_retrieve)
        await asyncio.shield(task)

    async def _create_now(self, table: Table) -> None:
        try:
            # The lobby and its first seats in one transaction: never a half-made table.
            record = await self._store.create_table(
                table.guild_id,
                table.channel_id,
                table.host_id,
                _settings(table),
                game=table.game,
                language=table.language,
                seats=[
                    NewSeat(slot, info.user_id, info.name, info.level)
                    for slot, info in enumerate(table.seats)
                    if info is not None
                ],
            )
        except ChannelBusy:
            raise Refusal("table_exists", "There is already a table in this channel.") from None
        table.id = record.id
        self._tables[table.id] = table
        self._active[table.channel_id] = table.id
        events: list[Event] = [LobbyChanged(table.id)]
        self._schedule(table, events)
        self._emit(table, events)

    async def _leave_lobby(self, table: Table, slot: int, events: list[Event]) -> None:
        persons = [
            s for s in table.seats if s is not None and s.user_id is not None and s.seat != slot
        ]
        leaving = _seat(table, slot)
        if not persons:
            await self._close_table(table, "cancelled", events)
            return
        await self._store.remove_seat(table.id, slot)
        table.seats[slot] = None
        if leaving.user_id == table.host_id:
            after = sorted(persons, key=lambda s: (s.seat - slot) % table.players)
            new_host = after[0].user_id
            assert new_host is not None
            table.host_id = new_host
            await self._store.update_table_settings(table.id, _settings(table))
        events.append(LobbyChanged(table.id))
        self._schedule(table, events)

    async def _add_computer(self, table: Table, level: str) -> None:
        # A computer's name is its number alone: the Discord layer names it in the reader's
        # language ("Kompyuta 2"); the service holds no text for people. Databases from before
        # hold "Computer 2": the number is read from the end of the name either way.
        slot = _free_slot(table)
        used = {
            _trailing_number(s.name) for s in table.seats if s is not None and s.user_id is None
        }
        k = 1
        while k in used:
            k += 1
        name = str(k)
        await self._store.add_seat(table.id, slot, None, name, level)
        table.seats[slot] = SeatInfo(slot, None, name, level)

    def _require_lobby(self, table: Table) -> None:
        if table.status != "lobby":
            raise Refusal("not_in_lobby", "The match has already started.")

    def _require_host(self, table: Table, user_id: int) -> None:
        if user_id != table.host_id:
            raise Refusal("not_host", "Only the host can do that.", host_id=table.host_id)

    def _require_seat(self, table: Table, user_id: int) -> int:
        seat = table.seat_of(user_id) if _is_id(user_id) else None
        if seat is None:
            raise Refusal("not_seated", "You're not at this table.")
        return seat

    def _level(self, table: Table, level: str | None) -> str:
        if level is None:
            return table.computer_level
        if level not in COMPUTER_LEVELS:
            raise Refusal(
                "bad_value",
                "Unknown computer level: choose one of " + ", ".join(COMPUTER_LEVELS) + ".",
                field="level",
                value=level,
            )
        return level

    # ------------------------------------------------------------------ internals: timers

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
            if self._rules.deal_over(match):
                coro = self._deal_timer(table)  # the next deal, or a pending end of match
            else:
                seat = table.to_act
                assert seat is not None
                info = _seat(table, seat)
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
            task.add_done_callback(_retrieve)
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
            info = _seat(table, seat)
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
            info = _seat(table, seat)
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
        view = match.deal.view(seat, history=True)
        legal = list(view["legal"])
        seed = self._rng.getrandbits(32)
        try:
            if level in SLOW_LEVELS:
                loop = asyncio.get_running_loop()
                code = await loop.run_in_executor(self._executor, ai_decide, level, view, seed)
            else:
                code = decide(level, view, seed)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if isinstance(exc, concurrent.futures.BrokenExecutor):
                # its worker died twice in a row (the executor already tried again on a new
                # one and said so): one line, not a traceback per move
                log.warning("computer player %s had no worker on table %s", level, table.id)
            else:
                log.exception("computer player %s failed on table %s", level, table.id)
            code = self._fallback_move(view, seed, legal)
        if code not in legal:
            log.error("computer player %s chose %r, not a legal move", level, code)
            code = legal[0]
        return code

    @staticmethod
    def _fallback_move(view: Mapping[str, Any], seed: int, legal: list[str]) -> str:
        """A sensible move when the computer's own level failed: the normal player, inline
        (a few milliseconds), rather than simply the first legal move."""
        try:
            return decide(FALLBACK_LEVEL, view, seed)
        except Exception:
            log.exception("the fallback computer player failed too")
            return legal[0]

    # ------------------------------------------------------------------ internals: restart

    def _rebuild(self, snap: TableSnapshot) -> Table:
        """A table as the store describes it, its match replayed through the engine."""
        rec = snap.table
        settings = dict(rec.settings)
        players = int(settings["players"])
        table = Table(
            id=rec.id,
            guild_id=rec.guild_id,
            channel_id=rec.channel_id,
            host_id=int(settings.get("host_id", rec.host_id)),
            players=players,
            team_size=int(settings["team_size"]),
            target=int(settings["target"]),
            turn_time=int(settings["turn_time"]),
            computer_level=str(settings["computer_level"]),
            language=rec.language,
            game=rec.game,
            status=rec.status,
            message_id=rec.message_id,
        )
        by_slot: dict[int, SeatInfo] = {}
        for s in snap.seats:
            by_slot[s.seat_no] = SeatInfo(
                s.seat_no,
                s.user_id,
                s.display_name,
                s.computer_level,
                away=(s.away or s.computer_control) if s.user_id is not None else False,
                timeouts=s.timeouts,
            )
        if rec.status == "lobby":
            table.seats = [by_slot.get(i) for i in range(players)]
            return table
        order = [int(x) for x in settings["seating"]]
        table.slots = order
        seats: list[SeatInfo | None] = []
        for seat, slot in enumerate(order):
            info = by_slot[slot]
            info.seat = seat
            seats.append(info)
        table.seats = seats
        self._replay(table, snap.deals, snap)
        return table

    def _replay(self, table: Table, deals: tuple[DealRecord, ...], snap: TableSnapshot) -> None:
        seat_of_slot = {slot: seat for seat, slot in enumerate(table.slots)}
        moves_by_deal: dict[int, list[tuple[int, str]]] = {}
        for m in snap.moves:
            moves_by_deal.setdefault(m.deal_no, []).append((seat_of_slot[m.seat_no], m.action))
        if not set(moves_by_deal) <= {d.deal_no for d in deals}:
            raise ValueError(f"table {table.id} has moves of a deal it never dealt")
        match = None
        for d in deals:
            dealer = seat_of_slot[d.dealer_seat]
            if match is None:
                match = self._rules.new_match(
                    table.players, table.team_size, table.target, dealer, d.seed
                )
            else:
                expected = self._rules.next_dealer(match)
                if expected != dealer:
                    raise ValueError(
                        f"table {table.id} deal {d.deal_no}: stored dealer {dealer}, "
                        f"rules say {expected}"
                    )
                self._rules.next_deal(match, d.seed)
            for seat, code in moves_by_deal.get(d.deal_no, []):
                if match.deal.to_act != seat:
                    raise ValueError(f"table {table.id}: a stored move of seat {seat} out of turn")
                self._rules.apply(match, code)  # IllegalMove if the log is corrupt
            table.result_recorded = d.result is not None
        table.match = match
        table.deal_no = len(deals)
        table.move_no = snap.last_move_no + 1

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
        if self._rules.deal_over(match) and not table.result_recorded:
            await self._finish_deal(table, events)  # finishes the match too, if it is over
        elif self._rules.deal_over(match) and match.finished:
            await self._finish_match(table, events)
        if table.status == "running":
            self._schedule(table, events)


# --------------------------------------------------------------------------- helpers


def _retrieve(task: asyncio.Future[None]) -> None:
    if not task.cancelled():
        exc = task.exception()
        if isinstance(exc, StoreUnavailable):
            return  # said by _locked, without a traceback: the store is refusing writes
        if exc is not None and not isinstance(exc, Refusal):
            log.error("table task failed", exc_info=exc)


def _seat(table: Table, seat: int) -> SeatInfo:
    info = table.seats[seat]
    assert info is not None
    return info


def _free_slot(table: Table) -> int:
    for i, s in enumerate(table.seats):
        if s is None:
            return i
    raise Refusal("table_full", "Every seat is taken.")


def _trailing_number(name: str) -> int | None:
    """The number a computer seat's name ends with ("2", or "Computer 2" from before)."""
    digits = len(name) - len(name.rstrip("0123456789"))
    return int(name[-digits:]) if digits else None


def _clean_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise Refusal("bad_value", "A name cannot be empty.", field="name")
    return name.strip()[:NAME_MAX]


def _check_range(field: str, value: object, lo: int, hi: int, unit: str) -> None:
    if value is None:
        return
    if type(value) is not int or not lo <= value <= hi:
        raise Refusal(
            "bad_value",
            f"The {field.replace('_', ' ')} must be from {lo} to {hi} {unit}.",
            field=field,
            value=value,
            min=lo,
            max=hi,
        )


def _settings(table: Table, seating: list[int] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "players": table.players,
        "team_size": table.team_size,
        "target": table.target,
        "turn_time": table.turn_time,
        "computer_level": table.computer_level,
        "host_id": table.host_id,
    }
    if seating is not None:
        out["seating"] = seating
    return out


__all__ = [
    "Acted",
    "DealOver",
    "DealStarted",
    "Event",
    "LobbyChanged",
    "MatchOver",
    "MatchStarted",
    "Refusal",
    "RoundWon",
    "SeatAway",
    "SeatBack",
    "SeatInfo",
    "SeatLeft",
    "Table",
    "TableClosed",
    "TableService",
    "TurnStarted",
    "TurnWarning",
    "decide",
]
