"""The store's records: what it keeps and returns, the same for every back end.

Frozen dataclasses with plain values (ids, names, codes, datetimes in UTC), no behaviour beyond
a derived property or two; the table service builds its tables from them (see session.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

__all__ = [
    "DEFAULT_GUILD_SETTINGS",
    "DealRecord",
    "DealResultRecord",
    "GuildSettings",
    "Language",
    "LeaderboardPage",
    "MatchSummary",
    "MoveRecord",
    "NewSeat",
    "PlayerResult",
    "PlayerStats",
    "RatingEntry",
    "RatingsPage",
    "SeatRecord",
    "TableRecord",
    "TableSnapshot",
    "TableStatus",
    "TeamResult",
]

TableStatus = Literal["lobby", "running", "finished", "cancelled"]
Language = Literal["en", "sw", "ml", "ru"]


@dataclass(frozen=True, slots=True)
class TableRecord:
    """One match hosted in one Discord channel."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    game: str
    settings: Mapping[str, Any]
    status: TableStatus
    language: Language
    message_id: int | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A seat; ``user_id`` is None for a computer seat (which then has a ``computer_level``)."""

    table_id: int
    seat_no: int
    user_id: int | None
    display_name: str
    computer_level: str | None
    away: bool
    computer_control: bool
    timeouts: int

    @property
    def is_computer(self) -> bool:
        """True for a seat played by the computer for good (not a person who is away)."""
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class NewSeat:
    """A seat taken when a lobby is created (:meth:`Store.create_table`): the host's, or
    a rematch's players; ``user_id`` None with a ``computer_level`` for a computer."""

    seat_no: int
    user_id: int | None
    display_name: str
    computer_level: str | None = None


@dataclass(frozen=True, slots=True)
class DealResultRecord:
    """A finished deal's result as stored: card points per team, the winning team (None when
    no single team won) and the game points it scored for every team (Albastini: the winner's
    victory points and zeros; other games may move points from side to side).

    The rules' own score of a deal, with more in it, is the game's ``DealResult``; this is the
    row the store keeps of it."""

    table_id: int
    deal_no: int
    card_points: tuple[int, ...]
    winner_team: int | None
    game_points: tuple[int, ...]
    finished_at: datetime


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A deal: the engine derives the deck from ``seed``; ``deck`` is kept only for audit."""

    table_id: int
    deal_no: int
    dealer_seat: int
    seed: int
    deck: tuple[str, ...] | None
    started_at: datetime
    result: DealResultRecord | None = None


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One action of the log, e.g. ``play:7H``; ``user_id`` is None when the computer acted."""

    table_id: int
    move_no: int
    deal_no: int
    seat_no: int
    user_id: int | None
    action: str
    by_computer: bool
    created_at: datetime


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """All a replay needs: the table, its seats, deals and moves in order."""

    table: TableRecord
    seats: tuple[SeatRecord, ...]
    deals: tuple[DealRecord, ...]
    moves: tuple[MoveRecord, ...]

    @property
    def last_move_no(self) -> int:
        """Number of the last stored move (0 when none); the next move is this + 1."""
        return self.moves[-1].move_no if self.moves else 0


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One person's share of a finished match, for the statistics: their side (``team``), its
    final score in the match (any sign), whether it won, its deals (won, and won scoring 2 game
    points or more: Albastini's 2-VP deals) and card points. The table service computes it from
    the deals' stored results; the store keeps it (``Store.finish_table``)."""

    user_id: int
    team: int
    score: int
    won: bool
    deals_played: int
    deals_won: int
    deals_won_big: int
    card_points: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's totals over their finished matches in one guild; ``rank`` on leaderboards."""

    user_id: int
    matches_played: int
    matches_won: int
    score: int
    deals_played: int
    deals_won: int
    deals_won_big: int
    card_points: int
    rank: int | None = None

    @property
    def avg_card_points_per_deal(self) -> float | None:
        """Card points their team ate per deal played, or None before the first deal."""
        return self.card_points / self.deals_played if self.deals_played else None


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    """One page of a guild's leaderboard and the number of ranked players (for paging)."""

    entries: tuple[PlayerStats, ...]
    total: int
    offset: int
    limit: int


@dataclass(frozen=True, slots=True)
class TeamResult:
    """One side of a finished match: its final score and the levels of the computers on it
    (the people on it have their :class:`PlayerResult`). Ratings are computed from these."""

    team: int
    score: int
    computers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RatingEntry:
    """A player's skill rating in one game and scope: the conservative score ``rating``
    (mu - 3 sigma), the model's ``mu`` and ``sigma``, the rated matches, the rank on a board,
    and ``trend``: their ratings after their last matches in this guild, oldest first."""

    user_id: int
    rating: float
    mu: float
    sigma: float
    matches: int
    rank: int | None = None
    trend: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class RatingsPage:
    """One page of a ratings board and how many players it ranks."""

    entries: tuple[RatingEntry, ...]
    total: int
    offset: int
    limit: int


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A finished match for the history: its game and mode, when it ended, the final score of
    every side, the winning sides (those ranked first) and who sat where: ``seats`` holds
    ``(user_id or None for a computer, name, team)`` in seat order."""

    table_id: int
    guild_id: int
    game: str
    players: int
    team_size: int
    finished_at: datetime
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    seats: tuple[tuple[int | None, str, int], ...]


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A guild's settings; the defaults apply until the guild changes them."""

    guild_id: int
    turn_time: int = 60
    target_vp: int = 5
    language: Language = "en"
    #: its tables are played in threads of their own
    threads: bool = False


DEFAULT_GUILD_SETTINGS = GuildSettings(guild_id=0)
