"""Opening and filling tables: the lobby (join, leave, computer players, start, cancel), the
table's public message, and a rematch of a finished match."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from ..events import DealStarted, Event, LobbyChanged, MatchStarted, SeatLeft
from ..games import GAMES
from ..games.interface import Game
from ..games.interface import game as game_rules
from ..store import ChannelBusy, NewSeat, StoreError
from ..table import Refusal, SeatInfo, Table
from .checks import (
    LANGUAGES,
    TARGET_RANGE,
    TURN_TIME_RANGE,
    check_range,
    clean_name,
    free_slot,
    is_id,
    retrieve,
    seat_info,
    stored_settings,
    trailing_number,
)
from .restore import rebuild
from .turns import TurnService

log = logging.getLogger("albastini.session")

__all__ = ["LobbyService"]


class LobbyService(TurnService):
    """The lobby and the table's life outside play, for :class:`~albastini.session.TableService`."""

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
        game: str,
        options: dict[str, int] | None = None,
        interactions_only: bool = False,
    ) -> Table:
        """Open a lobby of ``game`` in a channel with the host in the first seat.
        ``interactions_only``: the bot reaches the channel only through the players'
        interactions (:attr:`Table.interactions_only`).

        Defaults: the game's team size for that many players (Albastini: teams of 2 for 4 and
        6 players, individual play otherwise); the game's own target if it has one (its
        ``DEFAULT_TARGET``), else the guild's; turn time and language from the guild's
        settings. ``options``: the game's own choices for the match (its ``OPTIONS``; Ass:
        ``{"trumps": 3}``). Refuses ``bad_value`` (no such game or mode, target outside 1-21,
        turn time outside 15-600 s, unknown level or language, an option the game has not or
        that its match cannot be played with) and ``table_exists`` (the channel has a table in
        the lobby or running).
        """
        self._check_open()
        for name, value in (("guild", guild_id), ("channel", channel_id), ("host", host_id)):
            if not is_id(value):
                raise Refusal("bad_value", f"That is not a valid {name} id.", field=name)
        name = clean_name(host_name)
        if not isinstance(game, str) or game not in GAMES:
            raise Refusal("bad_value", f"There is no game {game!r}.", field="game", value=game)
        rules = game_rules(game)
        counts = sorted({p for p, _ in rules.modes})
        if type(players) is not int or players not in counts:
            raise Refusal(
                "bad_value",
                f"A table of this game has {', '.join(map(str, counts))} players.",
                field="players",
                value=players,
                choices=counts,
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
        options = dict(options or {})
        try:
            rules.check_options(players, team_size, options)
        except (ValueError, TypeError):
            raise Refusal(
                "bad_value",
                "This game has no such option, or not for this many players.",
                field="options",
                value=options,
            ) from None
        _check_level(rules, computer_level, "computer_level")
        if language is not None and language not in LANGUAGES:
            raise Refusal(
                "bad_value", "The language must be en, sw, ml or ru.", field="language",
                value=language,
            )
        check_range("target", target, *TARGET_RANGE, "points")
        if target is not None and not rules.has_target:
            raise Refusal(
                "bad_value", "This game's matches have no points target.", field="target",
                value=target,
            )
        check_range("turn_time", turn_time, *TURN_TIME_RANGE, "seconds")
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
                target=target if target is not None else rules.default_target or guild.target_vp,
                turn_time=turn_time if turn_time is not None else guild.turn_time,
                computer_level=computer_level,
                language=language if language is not None else guild.language,
                game=rules.name,
                options=options,
                interactions_only=interactions_only,
                seats=[None] * players,
            )
            table.seats[0] = SeatInfo(0, host_id, name, None)
            await self._create(table)
        return table

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        """A person takes the first free seat of the lobby."""
        table = self._table(table_id)
        if not is_id(user_id):
            raise Refusal("bad_value", "That is not a valid user id.", field="user_id")
        clean = clean_name(name)

        async def op(events: list[Event]) -> None:
            self._require_lobby(table)
            if table.seat_of(user_id) is not None:
                raise Refusal("already_seated", "You already have a seat at this table.")
            slot = free_slot(table)
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
                info = seat_info(table, seat)
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

        The lobby's seats are shuffled into seat numbers (the game's view then says who
        partners whom) and the first dealer is drawn at random.
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
            match = table.rules.new_match(n, table.team_size, table.target, dealer, seed,
                                          table.options)
            team_of = [int(match.deal.team_of(seat)) for seat in range(n)]
            await self._store.update_table_settings(
                table.id, stored_settings(table, seating=order, team_of=team_of)
            )
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
            table.results = []
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
        if not is_id(message_id):
            raise Refusal("bad_value", "That is not a valid message id.", field="message_id")

        async def op(events: list[Event]) -> None:
            if table.status in ("lobby", "running"):
                await self._store.set_message_id(table.id, message_id)
            table.message_id = message_id

        await self._run(table, op)

    async def set_thread(self, table_id: int, thread_id: int) -> None:
        """The table is played in a thread of its own from now on (its notices and summaries
        go there, and commands typed in it find the table); kept in the store. Started from
        the lobby's message, it may come once the match has begun (Start was quicker)."""
        table = self._table(table_id)
        if not is_id(thread_id):
            raise Refusal("bad_value", "That is not a valid thread id.", field="thread_id")

        async def op(events: list[Event]) -> None:
            if table.status not in ("lobby", "running"):
                raise Refusal("not_running", "This table is already closed.")
            await self._store.set_thread_id(table.id, thread_id)
            table.thread_id = thread_id
            self._threads[thread_id] = table.id

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
                options=dict(old.options),
                interactions_only=old.interactions_only,
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
            return rebuild(snap)
        except Exception:
            log.exception("could not read back finished table %s", table_id)
            raise gone from None

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
        task.add_done_callback(retrieve)
        await asyncio.shield(task)

    async def _create_now(self, table: Table) -> None:
        try:
            # The lobby and its first seats in one transaction: never a half-made table.
            record = await self._store.create_table(
                table.guild_id,
                table.channel_id,
                table.host_id,
                stored_settings(table),
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
        leaving = seat_info(table, slot)
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
            await self._store.update_table_settings(table.id, stored_settings(table))
        events.append(LobbyChanged(table.id))
        self._schedule(table, events)

    async def _add_computer(self, table: Table, level: str) -> None:
        # A computer's name is its number alone: the Discord layer names it in the reader's
        # language ("Kompyuta 2"); the service holds no text for people. Databases from before
        # hold "Computer 2": the number is read from the end of the name either way.
        slot = free_slot(table)
        used = {
            trailing_number(s.name) for s in table.seats if s is not None and s.user_id is None
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
        seat = table.seat_of(user_id) if is_id(user_id) else None
        if seat is None:
            raise Refusal("not_seated", "You're not at this table.")
        return seat

    def _level(self, table: Table, level: str | None) -> str:
        if level is None:
            return table.computer_level
        _check_level(table.rules, level, "level")
        return level



def _check_level(rules: Game, level: object, field: str) -> None:
    if not isinstance(level, str) or not rules.has_level(level):
        raise Refusal(
            "bad_value",
            f"Unknown computer level {level!r}: choose one of " + ", ".join(rules.levels) + ".",
            field=field,
            value=level,
        )
