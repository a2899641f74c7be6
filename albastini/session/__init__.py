"""The table service: runs matches in channels, Discord-free and async.

One :class:`TableService` holds every open table of the bot. Each table has one asyncio lock:
commands and actions on a table run one at a time, so of two clicks for the same move exactly one
wins. An accepted action is validated against the rules engine, then **committed to the store**,
then applied to the in-memory match, then announced to the listeners as events; a refusal raises
:class:`Refusal` and changes nothing, in memory or in the store.

Computer players (computer seats, persons who are away, persons whose time ran out) move through
the same commit path. Time comes from a :class:`~albastini.timers.Clock`, so tests move it by hand.

State is never stored twice: ``start()`` rebuilds every lobby and running table from the store by
replaying each deal's seed and the move log through the game's own ``Match``.

Every game is reached through one interface (:class:`~albastini.games.interface.Game`): a table
records its game's name, its moves are the game's action codes, and nothing here knows a rule.
The service is split along its seams: :mod:`.core` (state, life cycle, the commit path),
:mod:`.turns` (turns, timers, computer players), :mod:`.lobby` (opening and filling tables),
:mod:`.restore` (a table rebuilt from the store) and this module (people's moves).
"""

from __future__ import annotations

from ..events import (
    Acted,
    DealOver,
    DealStarted,
    Event,
    LobbyChanged,
    MatchOver,
    MatchStarted,
    SeatAway,
    SeatBack,
    SeatLeft,
    TableClosed,
    TrickWon,
    TurnStarted,
    TurnWarning,
)
from ..games.interface import decide
from ..table import Refusal, SeatInfo, Table
from .checks import seat_info
from .core import Listener
from .lobby import LobbyService
from .replays import DealReplay, ReplayStep, deal_replay


class TableService(LobbyService):
    """Every table of the bot: lobbies, running matches, their timers and computer players.

    ``store``: the persistence (:class:`~albastini.store.Store`); the service does not close it.
    ``computer_pause``: seconds a computer waits before moving (so people can follow);
    ``deal_pause``: seconds between the end of a deal and the next deal; ``lobby_idle``: seconds
    after the last change before an unstarted lobby closes; ``warn_before``: a
    :class:`TurnWarning` comes this many seconds before a person's time runs out;
    ``executor``: where slow computer levels think (None = the loop's default executor);
    ``rng``: seating, first dealer, deal seeds, computer seeds; ``clock``: time (tests pass a
    :class:`~albastini.timers.ManualClock`); ``retry_delay``: seconds before timers start
    again after the store failed.
    """

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
            info = seat_info(table, seat)
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
            info = seat_info(table, seat)
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


    async def deal_replay(
        self, table_id: int, deal_no: int, *, guild_id: int | None = None
    ) -> DealReplay:
        """Deal ``deal_no`` of a finished match, step by step with every hand face up (see
        :func:`~albastini.session.replays.deal_replay`)."""
        self._check_open()
        return await deal_replay(self._store, table_id, deal_no, guild_id=guild_id)

__all__ = [
    "Acted",
    "DealOver",
    "DealReplay",
    "DealStarted",
    "Event",
    "Listener",
    "LobbyChanged",
    "MatchOver",
    "MatchStarted",
    "Refusal",
    "ReplayStep",
    "SeatAway",
    "SeatBack",
    "SeatInfo",
    "SeatLeft",
    "Table",
    "TableClosed",
    "TableService",
    "TrickWon",
    "TurnStarted",
    "TurnWarning",
    "decide",
]
