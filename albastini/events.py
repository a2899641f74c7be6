"""What happened at a table, as the table service announces it to its listeners.

Every event is a frozen dataclass with the ``table_id`` it belongs to. The service calls its
listeners with ``(table, [events...])`` after the change is committed to the store and applied to
the table, so a listener always sees a table that already shows the change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all table events."""

    table_id: int


@dataclass(frozen=True, slots=True)
class LobbyChanged(Event):
    """Someone joined or left the lobby, a computer was added, or the host changed."""


@dataclass(frozen=True, slots=True)
class MatchStarted(Event):
    """The lobby became a running match; ``table.seats`` now lists the seats by seat number."""


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    """Deal ``deal_no`` (1 for the first) was dealt by ``dealer``."""

    deal_no: int
    dealer: int


@dataclass(frozen=True, slots=True)
class Acted(Event):
    """``seat`` did ``code`` (``"play:7H"``, ``"bid:4C"``, ``"pass"``) as move ``move_no``.

    ``by_computer`` is True when a computer player chose the move (a computer seat, a person
    who is away, or a person whose time ran out).
    """

    seat: int
    code: str
    move_no: int
    by_computer: bool


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """``seat`` won the trick just finished, worth ``points`` card points.

    ``plays`` is the trick's cards in play order as ``(seat, card_code)`` pairs.
    """

    seat: int
    points: int
    plays: tuple[tuple[int, str], ...]


@dataclass(frozen=True, slots=True)
class DealOver(Event):
    """Deal ``deal_no`` is scored; ``result`` is its result as the views show it (the game's
    JSON: ``points``, ``winner``, ``game_points`` and the game's own details); ``scores`` are
    the match's scores per team after it.

    ``next_dealer`` deals the next deal, or is None when this deal ended the match.
    """

    deal_no: int
    result: dict[str, Any]
    scores: tuple[int, ...]
    next_dealer: int | None


@dataclass(frozen=True, slots=True)
class MatchOver(Event):
    """The match is over: team ``winner_team`` won it, or None when the best score is shared
    (a game may end so: three players of Twenty-Eight); final scores per team in ``scores``."""

    winner_team: int | None
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """It is ``seat``'s turn for move ``move_no``.

    ``deadline`` is the service clock's time when a person's turn runs out; None when a computer
    plays the seat (a computer seat or a person who is away).
    """

    seat: int
    move_no: int
    deadline: float | None


@dataclass(frozen=True, slots=True)
class TurnWarning(Event):
    """``seat``'s turn runs out in ``seconds_left`` seconds."""

    seat: int
    seconds_left: float


@dataclass(frozen=True, slots=True)
class SeatAway(Event):
    """The person at ``seat`` let their time run out for the first time in a row; a computer
    moved for them. After a second timeout in a row the seat stays under computer control
    (``table.seats[seat].away``) until the person is back."""

    seat: int


@dataclass(frozen=True, slots=True)
class SeatBack(Event):
    """The person at ``seat`` takes their seat again (``back()`` or a move of their own)."""

    seat: int


@dataclass(frozen=True, slots=True)
class SeatLeft(Event):
    """Person ``user_id`` left a running match; a computer plays ``seat`` to the end."""

    seat: int
    user_id: int


CloseReason = Literal["cancelled", "idle", "finished"]


@dataclass(frozen=True, slots=True)
class TableClosed(Event):
    """The table is over: ``"cancelled"`` (host or moderator), ``"idle"`` (a lobby nobody
    started) or ``"finished"`` (after :class:`MatchOver`)."""

    reason: CloseReason


__all__ = [
    "Acted",
    "CloseReason",
    "DealOver",
    "DealStarted",
    "Event",
    "LobbyChanged",
    "MatchOver",
    "MatchStarted",
    "SeatAway",
    "SeatBack",
    "SeatLeft",
    "TableClosed",
    "TrickWon",
    "TurnStarted",
    "TurnWarning",
]
