"""The :class:`Store` protocol: what the table service needs from persistence.

Every back end implements it (today :class:`~albastini.store.SQLiteStore`), with the same
records (records.py), errors (errors.py) and checks of the values it is given (values.py), so
the service runs on any of them unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from ..shards import Shards
from .records import (
    DealRecord,
    DealResultRecord,
    GuildSettings,
    Language,
    LeaderboardPage,
    MatchSummary,
    MoveRecord,
    NewSeat,
    PlayerResult,
    PlayerStats,
    RatingEntry,
    RatingsPage,
    SeatRecord,
    TableRecord,
    TableSnapshot,
    TeamResult,
)

__all__ = ["Store"]


class Store(Protocol):
    """The persistence interface the table service uses; implemented by :class:`SQLiteStore`."""

    async def close(self) -> None: ...

    # tables
    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        settings: Mapping[str, Any],
        *,
        game: str,
        language: str = "en",
        seats: Sequence[NewSeat] = (),
    ) -> TableRecord: ...
    async def get_table(self, table_id: int) -> TableRecord: ...
    async def active_table(self, channel_id: int) -> TableRecord | None: ...
    async def update_table_settings(
        self, table_id: int, settings: Mapping[str, Any]
    ) -> TableRecord: ...
    async def set_message_id(self, table_id: int, message_id: int | None) -> None: ...
    async def set_thread_id(self, table_id: int, thread_id: int) -> None: ...
    async def start_table(
        self, table_id: int, dealer_seat: int, seed: int, deck: Sequence[str] | None = None
    ) -> DealRecord: ...
    async def cancel_table(self, table_id: int) -> None: ...
    async def finish_table(
        self,
        table_id: int,
        results: Sequence[PlayerResult],
        teams: Sequence[TeamResult] = (),
    ) -> None: ...
    async def load_table(self, table_id: int) -> TableSnapshot: ...
    async def unfinished_tables(self, shards: Shards | None = None) -> list[TableSnapshot]: ...

    # seats
    async def add_seat(
        self,
        table_id: int,
        seat_no: int,
        user_id: int | None,
        display_name: str,
        computer_level: str | None = None,
    ) -> SeatRecord: ...
    async def remove_seat(self, table_id: int, seat_no: int) -> None: ...
    async def replace_with_computer(
        self, table_id: int, seat_no: int, computer_level: str, display_name: str
    ) -> SeatRecord: ...
    async def update_seat(
        self,
        table_id: int,
        seat_no: int,
        *,
        away: bool | None = None,
        computer_control: bool | None = None,
        timeouts: int | None = None,
    ) -> SeatRecord: ...
    async def seats(self, table_id: int) -> list[SeatRecord]: ...

    # deals and moves
    async def begin_deal(
        self,
        table_id: int,
        deal_no: int,
        dealer_seat: int,
        seed: int,
        deck: Sequence[str] | None = None,
    ) -> DealRecord: ...
    async def record_deal_result(
        self,
        table_id: int,
        deal_no: int,
        card_points: Sequence[int],
        winner_team: int | None,
        game_points: Sequence[int],
    ) -> DealResultRecord: ...
    async def append_move(
        self,
        table_id: int,
        move_no: int,
        deal_no: int,
        seat_no: int,
        action: str,
        *,
        user_id: int | None,
        by_computer: bool,
    ) -> MoveRecord: ...
    async def moves(self, table_id: int, after: int = 0) -> list[MoveRecord]: ...

    # settings and statistics
    async def guild_settings(self, guild_id: int) -> GuildSettings: ...
    async def guild_language_chosen(self, guild_id: int) -> bool: ...
    async def set_guild_settings(
        self,
        guild_id: int,
        *,
        turn_time: int | None = None,
        target_vp: int | None = None,
        language: str | None = None,
        threads: bool | None = None,
    ) -> GuildSettings: ...
    async def user_language(self, user_id: int) -> Language | None: ...
    async def set_user_language(self, user_id: int, language: str | None) -> None: ...
    async def leaderboard(
        self,
        guild_id: int,
        limit: int = 10,
        offset: int = 0,
        *,
        game: str,
        season: int | None = None,
    ) -> LeaderboardPage: ...
    async def user_stats(
        self, guild_id: int, user_id: int, *, game: str
    ) -> PlayerStats: ...

    # seasons, ratings and history
    async def current_season(self, guild_id: int) -> int: ...
    async def start_season(self, guild_id: int) -> int: ...
    async def ratings(
        self,
        guild_id: int,
        limit: int = 10,
        offset: int = 0,
        *,
        game: str,
        season: int | None = None,
    ) -> RatingsPage: ...
    async def user_rating(
        self, guild_id: int, user_id: int, *, game: str, season: int | None = None
    ) -> RatingEntry | None: ...
    async def history(
        self,
        guild_id: int | None = None,
        user_id: int | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[MatchSummary]: ...
    async def recompute_ratings(self) -> int: ...
