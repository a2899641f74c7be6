"""Skill ratings, seasons and match history, written once for every back end (see dialect.py).

Ratings are kept in three scopes per game — a guild's season, a guild all time (season 0) and
every guild all time (guild 0, season 0) — and updated in the transaction that records a
finished match (:func:`record_ratings`, called by ``finish_table``), so they can never disagree
with the results; :meth:`Standings.recompute_ratings` computes them all again from the stored
results, in the order the matches finished.

Two matches finishing at the same moment would each read a player's rating and write back its
own update, losing the other's: so every rating write takes one lock (:data:`RATINGS_LOCK`)
first, and the matches are rated one after another in the order they finish, the order
``recompute_ratings`` replays them in. On SQLite the one writer already makes them take turns;
on PostgreSQL it is a transaction-level advisory lock.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..ratings import Side, Skill, update
from .dialect import Backend, Dialect, Tx
from .records import MatchSummary, RatingEntry, RatingsPage, TeamResult
from .shared import (
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
from .values import check_game, check_id, check_int

__all__ = ["RATINGS_LOCK", "SEASONS_LOCK", "Standings", "current_season_on", "record_ratings"]

#: Lock keys (:meth:`Tx.lock`): rating writes, and a guild's seasons (with the guild's id).
RATINGS_LOCK = 0x72617469  # "rati"
SEASONS_LOCK = 0x73656173  # "seas"


async def current_season_on(tx: Tx, guild_id: int) -> int:
    """The guild's season now (1 until an admin starts another)."""
    rows = await tx.fetch("SELECT max(season) FROM seasons WHERE guild_id = ?", (guild_id,))
    return int(rows[0][0] or 1)


async def _rate_scope(
    tx: Tx, dialect: Dialect, game: str, scope: tuple[int, int], sides: Sequence[Side]
) -> dict[int, Skill]:
    """Rate one match in one scope: read the people's ratings, update, write them back."""
    guild_id, season = scope
    users = [u for side in sides for u in side.users]
    current: dict[int, Skill] = {}
    if users:
        among, params = dialect.any_of("user_id", users)
        rows = await tx.fetch(
            "SELECT user_id, mu, sigma, matches FROM ratings "
            f"WHERE guild_id = ? AND game = ? AND season = ? AND {among}",
            (guild_id, game, season, *params),
        )
        current = {int(r[0]): Skill(float(r[1]), float(r[2]), int(r[3])) for r in rows}
    new = update(sides, current)
    await tx.executemany(
        "INSERT INTO ratings (guild_id, game, season, user_id, mu, sigma, matches) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, season, user_id) DO UPDATE "
        "SET mu = excluded.mu, sigma = excluded.sigma, matches = excluded.matches",
        [(guild_id, game, season, u, s.mu, s.sigma, s.matches) for u, s in new.items()],
    )
    return new


async def record_ratings(
    tx: Tx,
    dialect: Dialect,
    table_id: int,
    guild_id: int,
    game: str,
    season: int,
    users_by_team: dict[int, list[int]],
    teams: Sequence[TeamResult],
) -> dict[int, Skill]:
    """Store a finished match's sides and rate its people in every scope (the caller holds
    :data:`RATINGS_LOCK`); returns their guild all-time ratings (the trend the results keep)."""
    await tx.executemany(
        "INSERT INTO match_teams (table_id, team, score, computers) VALUES (?, ?, ?, ?)",
        [(table_id, t.team, t.score, json.dumps(list(t.computers))) for t in teams],
    )
    match = sides(teams, users_by_team)
    after: dict[int, Skill] = {}
    for scope in scopes(guild_id, season):
        rated = await _rate_scope(tx, dialect, game, scope, match)
        if scope == (guild_id, 0):
            after = rated
    return after


class Standings(Backend):
    """Seasons, ratings and history of the store (:class:`~albastini.store.core.StoreCore`)."""

    async def current_season(self, guild_id: int) -> int:
        """The guild's current season (1 until an admin starts another)."""
        check_id("guild_id", guild_id)
        rows = await self._fetch("SELECT max(season) FROM seasons WHERE guild_id = ?", (guild_id,))
        return int(rows[0][0] or 1)

    async def start_season(self, guild_id: int) -> int:
        """Start the guild's next season; returns its number. Results and ratings of earlier
        seasons stay (all-time boards keep counting them)."""
        check_id("guild_id", guild_id)
        now = self.dialect.now()

        async def write(tx: Tx) -> int:
            await tx.lock(SEASONS_LOCK, guild_id % 2**31)  # two admins at once: one season
            season = await current_season_on(tx, guild_id) + 1
            await tx.execute(
                "INSERT INTO seasons (guild_id, season, started_at) VALUES (?, ?, ?)",
                (guild_id, season, now),
            )
            return season

        return await self._write(write)

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
        game: str,
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
        self, guild_id: int, user_id: int, *, game: str, season: int | None = None
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
        among, ids = self.dialect.any_of("table_id", [int(r[0]) for r in tables])
        seats, teams = await self._snapshot(
            [
                (f"SELECT table_id, seat_no, user_id, display_name FROM seats WHERE {among}", ids),
                (
                    f"SELECT table_id, team, score FROM match_teams WHERE {among} "
                    "ORDER BY table_id, team",
                    ids,
                ),
            ]
        )
        return [summary(r, seats, teams) for r in tables]

    async def recompute_ratings(self) -> int:
        """Compute every rating again from the stored results, in the order the matches
        finished (what a changed rating model would need); returns the matches rated."""
        dialect = self.dialect

        async def write(tx: Tx) -> int:
            await tx.lock(RATINGS_LOCK)
            await tx.execute("DELETE FROM ratings")
            matches = await tx.fetch(
                "SELECT DISTINCT r.table_id, r.guild_id, r.game, r.season, r.finished_at "
                "FROM match_results r JOIN match_teams m ON m.table_id = r.table_id "
                "ORDER BY r.finished_at, r.table_id"
            )
            for table_id, guild_id, game, season, _ in matches:
                teams = [
                    TeamResult(int(t), int(s), tuple(json.loads(c)))
                    for t, s, c in await tx.fetch(
                        "SELECT team, score, computers FROM match_teams WHERE table_id = ?",
                        (table_id,),
                    )
                ]
                users = users_by_team(
                    await tx.fetch(
                        "SELECT user_id, team FROM match_results WHERE table_id = ? "
                        "ORDER BY user_id",
                        (table_id,),
                    )
                )
                match = sides(teams, users)
                for scope in scopes(int(guild_id), int(season)):
                    await _rate_scope(tx, dialect, str(game), scope, match)
            return len(matches)

        return await self._write(write)
