"""The table model shared by the table service and the Discord layer: seats, tables, refusals.

A table knows its game by name (``game``) and reads its deal through that game's
:class:`~albastini.games.interface.Game`; nothing here knows a game's rules.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from .games.interface import DealScore, Game, MatchLike, game
from .store import TableStatus


class Refusal(Exception):
    """An action or command the table refuses; nothing was written or changed.

    ``reason`` is a stable code for the Discord layer to translate:
    ``no_table`` ``table_exists`` ``not_seated`` ``not_your_turn`` ``stale`` ``illegal``
    ``not_host`` ``table_full`` ``already_seated`` ``not_in_lobby`` ``not_running``
    ``seats_empty`` ``bad_value`` ``away_only`` ``not_finished`` ``closed``.
    ``details`` holds the values the message mentions; for ``illegal`` they include the rules
    engine's own ``rule`` (the :class:`IllegalMove` reason) and its details. ``str(refusal)``
    is an English sentence a player can read.
    """

    def __init__(self, reason: str, message: str, /, **details: object) -> None:
        super().__init__(message)
        self.reason = reason
        self.details: dict[str, object] = details

    @property
    def message(self) -> str:
        """The English sentence."""
        return str(self)

    def __repr__(self) -> str:
        return f"Refusal({self.reason!r}, {str(self)!r}, **{self.details!r})"


@dataclass(slots=True)
class SeatInfo:
    """One seat: a person (``user_id``) or a computer (``user_id`` None, ``level`` set).

    ``away``: a person whose seat a computer plays (two timeouts in a row) until they are back;
    ``timeouts``: their consecutive timeouts; ``level``: the computer level playing the seat
    (the table's level for a person who is away), None for a person who is present.
    """

    seat: int
    user_id: int | None
    name: str
    level: str | None
    away: bool = False
    timeouts: int = 0

    @property
    def is_computer(self) -> bool:
        """True when a computer chooses this seat's moves: no person, or the person is away."""
        return self.user_id is None or self.away


@dataclass(eq=False)
class Table:
    """One table in one channel: lobby, then a running match, then finished or cancelled.

    Read-only for the Discord layer: every change goes through :class:`TableService`.
    ``seats``: in the lobby by lobby slot (a newcomer takes the first free slot, None = empty);
    once running, by seat number (the game's order of play; its view says which side each is on).
    ``move_no`` is the number of the next move (1 for the first); buttons carry it.
    ``turn_deadline`` is the service clock's time when the current person's turn runs out.
    """

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    players: int
    team_size: int
    target: int
    turn_time: int
    computer_level: str
    language: str
    #: the table's game (a key of ``albastini.games.GAMES``)
    game: str
    #: the game's own choices for the match (its package's ``OPTIONS``; Ass: ``trumps``, the
    #: trump variant); {} for the game's defaults
    options: dict[str, int] = field(default_factory=dict)
    #: the thread the table is played in (its turn notices and deal summaries), started from
    #: its message in ``channel_id``; None: the channel itself
    thread_id: int | None = None
    #: the bot cannot post or edit in the table's channel outside answers to the players'
    #: clicks and commands (a group DM, or a server the bot is not a member of, reached through
    #: a person's own install of the app): its public messages all go through interactions
    interactions_only: bool = False
    status: TableStatus = "lobby"
    seats: list[SeatInfo | None] = field(default_factory=list)
    match: MatchLike | None = None
    deal_no: int = 0
    move_no: int = 1
    message_id: int | None = None
    turn_deadline: float | None = None
    #: running: ``slots[seat]`` is the store's seat row (lobby slot) of game seat ``seat``.
    slots: list[int] = field(default_factory=list, repr=False)
    #: running: whether the current deal's result is in the store (False while it is played).
    result_recorded: bool = field(default=False, repr=False)
    #: running: the score of every finished deal whose result is in the store, in order.
    results: list[DealScore] = field(default_factory=list, repr=False)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    #: the deal's views by seat (None: the public one; ("hand", seat): the deal's own view of a
    #: seat, :meth:`hand_view`) as of ``_views_at``: a move is read by
    #: the acting person's answer, every followed hand and the table message, each several
    #: times, and the views only change with a move or a new deal
    _views: dict[object, dict[str, Any]] = field(default_factory=dict, repr=False)
    _views_at: tuple[object, int, int] | None = field(default=None, repr=False)

    @property
    def rules(self) -> Game:
        """The table's game, through the common interface."""
        return game(self.game)

    @property
    def teams(self) -> int:
        """Number of sides."""
        return self.players // self.team_size

    def team_of(self, seat: int) -> int:
        """The side ``seat`` plays on in the running match (the game's rule)."""
        assert self.match is not None
        return int(self.match.deal.team_of(seat))

    def seat_of(self, user_id: int) -> int | None:
        """The seat (running) or lobby slot of a person, None if they do not sit here."""
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.user_id is not None and seat.user_id == user_id:
                return i
        return None

    def names(self) -> list[str]:
        """Display names by seat ("" for an empty lobby slot)."""
        return [s.name if s is not None else "" for s in self.seats]

    def scores(self) -> list[int]:
        """The match score per team (zeros before the match starts)."""
        if self.match is None:
            return [0] * self.teams
        return self.match.scores

    @property
    def to_act(self) -> int | None:
        """The seat whose move it is, None outside a deal in progress."""
        if self.status != "running" or self.match is None:
            return None
        return self.match.deal.to_act

    def _extras(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "deal_no": self.deal_no,
            "move_no": self.move_no,
            "scores": self.scores(),
            "target": self.target,
            "names": self.names(),
        }

    def deal_view(self, seat: int | None) -> dict[str, Any]:
        """The current deal's view for ``seat`` (None: the public table), as the game gives it;
        worked out once per move and shared, so read it and never change it. The match must
        be on."""
        views = self._current_views()
        view = views.get(seat)
        if view is None:
            assert self.match is not None
            view = views[seat] = self.rules.view(self.match, seat)
        return view

    def hand_view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` holds and may do now as the deal itself tells it (``hand``, ``legal``,
        ``phase``...), without what the game adds for a reader (Albastini's history): enough to
        tell whether a private hand changed, and cheaper; the full view when it is already
        worked out. Shared like :meth:`deal_view`: read it, never change it."""
        views = self._current_views()
        view = views.get(seat) or views.get(("hand", seat))
        if view is None:
            assert self.match is not None
            view = views[("hand", seat)] = self.match.deal.view(seat)
        return view

    def _current_views(self) -> dict[object, dict[str, Any]]:
        match = self.match
        assert match is not None
        at = (match, self.deal_no, self.move_no)
        if self._views_at is None or self._views_at[0] is not match or self._views_at != at:
            self._views.clear()
            self._views_at = at
            _keep_views(self)
        return self._views

    def public_view(self) -> dict[str, Any]:
        """What everyone may see: the deal's public view (no hand) plus the game's name, the deal
        number, the next move number, the scores, the target and the names; {} in the lobby."""
        if self.match is None:
            return {}
        return {**self.deal_view(None), **self._extras()}

    def view_for(self, user_id: int) -> dict[str, Any] | None:
        """What a seated person may see (their hand, legal moves, history); None if they do not
        sit here, {} in the lobby."""
        seat = self.seat_of(user_id)
        if seat is None:
            return None
        if self.match is None or self.status == "lobby":
            return {}
        return {**self.deal_view(seat), **self._extras()}


#: The tables whose views are kept (see ``Table._views``), the latest moved last. The reads that
#: follow a move are over within milliseconds, so only the tables moved last keep theirs: the
#: views of a table where nobody moves would be memory spent for nothing.
_KEPT: OrderedDict[int, Table] = OrderedDict()
KEEP_VIEWS = 8


def _keep_views(table: Table) -> None:
    _KEPT[id(table)] = table
    _KEPT.move_to_end(id(table))
    while len(_KEPT) > KEEP_VIEWS:
        _key, old = _KEPT.popitem(last=False)
        old._views.clear()
        old._views_at = None


__all__ = ["Refusal", "SeatInfo", "Table", "TableStatus"]
