"""Skill ratings, seasons and match history on SQLite (schema 0005).

Ratings are kept in three scopes per game — a guild's season, a guild all time (season 0) and
every guild all time (guild 0, season 0) — and updated in the transaction that records a
finished match (:func:`record_ratings`, called by ``SQLiteStore.finish_table``), so they can
never disagree with the results; :meth:`StandingsStore.recompute_ratings` computes them all
again from the stored results, in the order the matches finished.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from ...ratings import Side, Skill, update
from ..records import MatchSummary, RatingEntry, RatingsPage, TeamResult
from ..shared import (
    history_tables,
    ratings_page,
    ratings_queries,
    scopes,
    sides,
    summary,
    user_rating,
    user_rating_queries,
    users_by_team,
)
from ..values import check_game, check_id, check_int, now_text
from .connections import fetch_on
from .engine import SQLiteEngine

__all__ = ["StandingsStore", "current_season_on", "record_ratings"]


def current_season_on(db: sqlite3.Connection, guild_id: int) -> int:
    """The guild's season now (1 until an admin starts another)."""
    rows = fetch_on(db, "SELECT max(season) FROM seasons WHERE guild_id = ?", (guild_id,))
    return int(rows[0][0] or 1)


def _rate_scope(
    db: sqlite3.Connection, game: str, scope: tuple[int, int], sides: Sequence[Side]
) -> dict[int, Skill]:
    """Rate one match in one scope: read the people's ratings, update, write them back."""
    guild_id, season = scope
    users = [u for side in sides for u in side.users]
    current: dict[int, Skill] = {}
    for user in users:
        rows = fetch_on(
            db,
            "SELECT mu, sigma, matches FROM ratings "
            "WHERE guild_id = ? AND game = ? AND season = ? AND user_id = ?",
            (guild_id, game, season, user),
        )
        if rows:
            current[user] = Skill(float(rows[0][0]), float(rows[0][1]), int(rows[0][2]))
    new = update(sides, current)
    db.executemany(
        "INSERT INTO ratings (guild_id, game, season, user_id, mu, sigma, matches) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, season, user_id) DO UPDATE "
        "SET mu = excluded.mu, sigma = excluded.sigma, matches = excluded.matches",
        [(guild_id, game, season, u, s.mu, s.sigma, s.matches) for u, s in new.items()],
    )
    return new


def record_ratings(
    db: sqlite3.Connection,
    table_id: int,
    guild_id: int,
    game: str,
    season: int,
    users_by_team: dict[int, list[int]],
    teams: Sequence[TeamResult],
) -> dict[int, Skill]:
    """Store a finished match's sides and rate its people in every scope; returns their guild
    all-time ratings (the trend the results keep)."""
    db.executemany(
        "INSERT INTO match_teams (table_id, team, score, computers) VALUES (?, ?, ?, ?)",
        [(table_id, t.team, t.score, json.dumps(list(t.computers))) for t in teams],
    )
    match = sides(teams, users_by_team)
    after: dict[int, Skill] = {}
    for scope in scopes(guild_id, season):
        rated = _rate_scope(db, game, scope, match)
        if scope == (guild_id, 0):
            after = rated
    return after


class StandingsStore(SQLiteEngine):
    """Seasons, ratings and history queries of :class:`~albastini.store.SQLiteStore`."""

    async def current_season(self, guild_id: int) -> int:
        """The guild's current season (1 until an admin starts another)."""
        check_id("guild_id", guild_id)
        rows = await self._fetch(
            "SELECT max(season) FROM seasons WHERE guild_id = ?", (guild_id,)
        )
        return int(rows[0][0] or 1)

    async def start_season(self, guild_id: int) -> int:
        """Start the guild's next season; returns its number. Results and ratings of earlier
        seasons stay (all-time boards keep counting them)."""
        check_id("guild_id", guild_id)
        now = now_text()

        def tx(db: sqlite3.Connection) -> int:
            season = current_season_on(db, guild_id) + 1
            db.execute(
                "INSERT INTO seasons (guild_id, season, started_at) VALUES (?, ?, ?)",
                (guild_id, season, now),
            )
            return season

        return await self._write(tx)

    async def _season(self, guild_id: int, season: int | None) -> int:
        if season is None:
            return await self.current_season(guild_id) if guild_id else 0
        return check_int("season", season, 0, 1_000_000)

    async def ratings(
        self,
        guild_id: int,
        limit: int = 10,
        offset: int = 0,
        *,
        game: str = "albastini",
        season: int | None = None,
    ) -> RatingsPage:
        """A page of players ranked by rating in a guild (``guild_id`` 0: every guild, all
        time), in ``season`` (None: the current one; 0: all time)."""
        if guild_id != 0:
            check_id("guild_id", guild_id)
        check_game(game)
        check_int("limit", limit, 1, 100)
        check_int("offset", offset, 0, 10_000_000)
        season = 0 if guild_id == 0 else await self._season(guild_id, season)
        rows = await self._snapshot(ratings_queries(guild_id, game, season, limit, offset))
        return ratings_page(rows, offset, limit)

    async def user_rating(
        self, guild_id: int, user_id: int, *, game: str = "albastini", season: int | None = None
    ) -> RatingEntry | None:
        """A player's rating in a guild and season (None: current; 0: all time) with its rank
        and trend, None before their first rated match there; ``guild_id`` 0: across every
        guild (all time, no trend)."""
        if guild_id != 0:
            check_id("guild_id", guild_id)
        check_id("user_id", user_id)
        check_game(game)
        season = 0 if guild_id == 0 else await self._season(guild_id, season)
        return user_rating(
            await self._snapshot(user_rating_queries(guild_id, user_id, game, season))
        )

    async def history(
        self,
        guild_id: int | None = None,
        user_id: int | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[MatchSummary]:
        """Finished matches, newest first: a guild's (``guild_id``), a player's (``user_id``),
        or a player's in one guild (both)."""
        tables = await self._fetch(*history_tables(guild_id, user_id, limit, offset))
        if not tables:
            return []
        ids = [int(r[0]) for r in tables]
        marks = ", ".join("?" * len(ids))
        seats, teams = await self._snapshot(
            [
                (
                    f"SELECT table_id, seat_no, user_id, display_name FROM seats "
                    f"WHERE table_id IN ({marks})",
                    ids,
                ),
                (
                    f"SELECT table_id, team, score FROM match_teams WHERE table_id IN ({marks}) "
                    "ORDER BY table_id, team",
                    ids,
                ),
            ]
        )
        return [summary(r, seats, teams) for r in tables]

    async def recompute_ratings(self) -> int:
        """Compute every rating again from the stored results, in the order the matches
        finished (what a changed rating model would need); returns the matches rated."""

        def tx(db: sqlite3.Connection) -> int:
            db.execute("DELETE FROM ratings")
            matches = fetch_on(
                db,
                "SELECT DISTINCT r.table_id, r.guild_id, r.game, r.season, r.finished_at "
                "FROM match_results r JOIN match_teams m ON m.table_id = r.table_id "
                "ORDER BY r.finished_at, r.table_id",
            )
            for table_id, guild_id, game, season, _ in matches:
                teams = [
                    TeamResult(int(t), int(s), tuple(json.loads(c)))
                    for t, s, c in fetch_on(
                        db,
                        "SELECT team, score, computers FROM match_teams WHERE table_id = ?",
                        (table_id,),
                    )
                ]
                users = users_by_team(
                    fetch_on(
                        db,
                        "SELECT user_id, team FROM match_results WHERE table_id = ? "
                        "ORDER BY user_id",
                        (table_id,),
                    )
                )
                match = sides(teams, users)
                for scope in scopes(int(guild_id), int(season)):
                    _rate_scope(db, str(game), scope, match)
            return len(matches)

        return await self._write(tx)
