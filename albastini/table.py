"""The table model shared by the table service and the Discord layer: seats, tables, refusals.

Also the small adapter that keeps the service's code free of Albastini's rules
(:class:`AlbastiniRules`): the service asks it to start a match, check and apply an action code,
and score; another card game would bring its own adapter with the same methods.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Protocol

from .games.albastini.actions import parse_action
from .games.albastini.ai import DIFFICULTIES, LEVELS
from .games.albastini.cards import shuffled_pack
from .games.albastini.deal import DealResult, IllegalMove, mode_name
from .games.albastini.match import Match
from .store import PlayerResult, TableStatus

#: Computer levels the service accepts: the difficulty names and the player kinds.
COMPUTER_LEVELS: tuple[str, ...] = (*DIFFICULTIES, *LEVELS)
#: Levels whose decisions may take longer than a few milliseconds: they run in the executor.
#: (Measured: the heuristic player takes 2-3 ms on average but up to ~160 ms in some endgames.)
SLOW_LEVELS: frozenset[str] = frozenset({"normal", "heuristic", "hard", "search"})


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
    once running, by seat number (seats are numbered clockwise; team = seat % teams).
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
    game: str = "albastini"
    status: TableStatus = "lobby"
    seats: list[SeatInfo | None] = field(default_factory=list)
    match: Match | None = None
    deal_no: int = 0
    move_no: int = 1
    message_id: int | None = None
    turn_deadline: float | None = None
    #: running: ``slots[seat]`` is the store's seat row (lobby slot) of game seat ``seat``.
    slots: list[int] = field(default_factory=list, repr=False)
    #: running: whether the current deal's result is in the store (False while it is played).
    result_recorded: bool = field(default=False, repr=False)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)

    @property
    def teams(self) -> int:
        """Number of sides."""
        return self.players // self.team_size

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
        """Victory points per team (zeros before the match starts)."""
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
            "deal_no": self.deal_no,
            "move_no": self.move_no,
            "scores": self.scores(),
            "target": self.target,
            "names": self.names(),
        }

    def public_view(self) -> dict[str, Any]:
        """What everyone may see: the deal's public view (no hand, no history) plus the deal
        number, the next move number, the scores, the target and the names; {} in the lobby."""
        if self.match is None:
            return {}
        return {**self.match.deal.view(None), **self._extras()}

    def view_for(self, user_id: int) -> dict[str, Any] | None:
        """What a seated person may see (their hand, legal moves, history); None if they do not
        sit here, {} in the lobby."""
        seat = self.seat_of(user_id)
        if seat is None:
            return None
        if self.match is None or self.status == "lobby":
            return {}
        return {**self.match.deal.view(seat, history=True), **self._extras()}


# --------------------------------------------------------------------------- the game adapter


@dataclass(frozen=True, slots=True)
class RoundInfo:
    """A round that an action just finished: who ate it, its points, its cards in play order."""

    winner: int
    points: int
    plays: tuple[tuple[int, str], ...]


class GameRules(Protocol):
    """What the table service needs from a card game's engine."""

    name: str
    min_players: int
    max_players: int

    def default_team_size(self, players: int) -> int: ...
    def check_mode(self, players: int, team_size: int) -> None: ...
    def new_match(
        self, players: int, team_size: int, target: int, dealer: int, seed: int
    ) -> Match: ...
    def next_dealer(self, match: Match) -> int: ...
    def next_deal(self, match: Match, seed: int) -> None: ...
    def check(self, match: Match, code: str) -> str: ...
    def apply(self, match: Match, code: str) -> RoundInfo | None: ...
    def deal_over(self, match: Match) -> bool: ...
    def deal_result(self, match: Match) -> DealResult: ...
    def totals(self, match: Match, seat: int, user_id: int) -> PlayerResult: ...


class AlbastiniRules:
    """:class:`GameRules` for Albastini, over :class:`Match` and :class:`Deal`."""

    name: str = "albastini"
    min_players: int = 2
    max_players: int = 6
    max_code: int = 16

    def default_team_size(self, players: int) -> int:
        """Pairs for 4 and 6 players, individual play otherwise."""
        return 2 if players in (4, 6) else 1

    def check_mode(self, players: int, team_size: int) -> None:
        """ValueError unless (players, team_size) is one of the eight modes."""
        mode_name(players, team_size)

    def new_match(self, players: int, team_size: int, target: int, dealer: int, seed: int) -> Match:
        """A match whose first deal is shuffled from ``seed`` and dealt by ``dealer``."""
        match = Match(players, team_size, target, dealer, seed=seed, deck=shuffled_pack(seed))
        match.deal_seeds[0] = seed  # deal k is always shuffled_pack(its stored seed)
        return match

    def next_dealer(self, match: Match) -> int:
        """Who deals the next deal (the current one must be over)."""
        return match.next_dealer()

    def next_deal(self, match: Match, seed: int) -> None:
        """Start the next deal, shuffled from ``seed``."""
        match.next_deal(seed=seed)

    def check(self, match: Match, code: str) -> str:
        """The canonical code of ``code`` (``"play:7h"`` -> ``"play:7H"``) if it is a legal
        action for the seat to act, else IllegalMove; changes nothing."""
        if not isinstance(code, str) or len(code) > self.max_code:
            raise IllegalMove("That is not a move.", "illegal")
        try:
            action = parse_action(code)
        except ValueError as exc:
            raise IllegalMove(str(exc), "illegal") from None
        match.deal.check(action)
        return action.code

    def apply(self, match: Match, code: str) -> RoundInfo | None:
        """Apply a checked action; return the round it finished, if any."""
        deal = match.deal
        tricks = len(deal.tricks)
        deal.apply(code)
        if len(deal.tricks) == tricks:
            return None
        trick = deal.tricks[-1]
        return RoundInfo(trick.winner, trick.points, tuple((s, c.code) for s, c in trick.plays))

    def deal_over(self, match: Match) -> bool:
        """True once the current deal's hands are empty."""
        return match.deal.phase == "finished"

    def deal_result(self, match: Match) -> DealResult:
        """The current (finished) deal's score."""
        return match.deal.result()

    def totals(self, match: Match, seat: int, user_id: int) -> PlayerResult:
        """The statistics of ``seat``'s side over the whole (finished) match, as the result of
        ``user_id``, the person in that seat."""
        teams = match.teams
        team = seat % teams
        results = [r for _, r in match.history]
        if match.deal.phase == "finished":
            results.append(match.deal.result())
        scores = match.scores
        return PlayerResult(
            user_id=user_id,
            team=team,
            team_vp=scores[team],
            won=match.winner == team,
            deals_played=len(results),
            deals_won=sum(1 for r in results if r.winner == team),
            deals_won_2vp=sum(1 for r in results if r.winner == team and r.victory_points == 2),
            card_points=sum(r.points[team] for r in results),
        )


__all__ = [
    "COMPUTER_LEVELS",
    "SLOW_LEVELS",
    "AlbastiniRules",
    "GameRules",
    "Refusal",
    "RoundInfo",
    "SeatInfo",
    "Table",
    "TableStatus",
]
