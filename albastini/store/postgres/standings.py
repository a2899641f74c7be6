"""Skill ratings, seasons and match history on PostgreSQL: the same model and queries as the
SQLite store's (``sqlite/standings.py``; the statements and pure helpers both use are
``../shared.py``'s), in transactions of a server many connections use at once.

Ratings are updated in the transaction that records a finished match (:func:`record_ratings`,
called by ``PostgresStore.finish_table``). Two matches finishing at the same moment would
each read a player's rating and write back its own update, losing the other's: so every
rating write takes one transaction-level advisory lock (:func:`lock_ratings`) first, and the
matches are rated one after another in the order they finish, which is the order
:meth:`PostgresStandings.recompute_ratings` replays them in.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ...ratings import Side, Skill, update
from ..records import MatchSummary, RatingEntry, RatingsPage, TeamResult
from ..shared import (
    history_tables,
    numbered,
    numbered_queries,
    ratings_page,
    ratings_queries,
    scopes,
    sides,
    summary,
    user_rating,
    user_rating_queries,
    users_by_team,
)
from ..values import check_game, check_id, check_int, now_text, parse_ts
from .engine import Conn, PostgresEngine

__all__ = ["PostgresStandings", "current_season_on", "lock_ratings", "record_ratings"]

#: pg_advisory_xact_lock keys: rating writes, and a guild's seasons (with the guild's id).
_RATINGS_LOCK = 0x72617469  # "rati"
_SEASONS_LOCK = 0x73656173  # "seas"


async def lock_ratings(conn: Conn) -> None:
    """Take the ratings' lock until the transaction ends (see the module's docstring)."""
    await conn.execute("SELECT pg_advisory_xact_lock($1)", _RATINGS_LOCK)


async def current_season_on(conn: Conn, guild_id: int) -> int:
    """The guild's season now (1 until an admin starts another)."""
    value = await conn.fetchval("SELECT max(season) FROM seasons WHERE guild_id = $1", guild_id)
    return int(value or 1)


async def _rate_scope(
    conn: Conn, game: str, scope: tuple[int, int], sides: Sequence[Side]
) -> dict[int, Skill]:
    """Rate one match in one scope: read the people's ratings, update, write them back."""
    guild_id, season = scope
    users = [u for side in sides for u in side.users]
    rows = await conn.fetch(
        "SELECT user_id, mu, sigma, matches FROM ratings "
        "WHERE guild_id = $1 AND game = $2 AND season = $3 AND user_id = ANY($4::bigint[])",
        guild_id,
        game,
        season,
        users,
    )
    current = {int(r[0]): Skill(float(r[1]), float(r[2]), int(r[3])) for r in rows}
    new = update(sides, current)
    await conn.executemany(
        "INSERT INTO ratings (guild_id, game, season, user_id, mu, sigma, matches) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (guild_id, game, season, user_id) "
        "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, matches = excluded.matches",
        [(guild_id, game, season, u, s.mu, s.sigma, s.matches) for u, s in new.items()],
    )
    return new


async def record_ratings(
    conn: Conn,
    table_id: int,
    guild_id: int,
    game: str,
    season: int,
    users_by_team: dict[int, list[int]],
    teams: Sequence[TeamResult],
) -> dict[int, Skill]:
    """Store a finished match's sides and rate its people in every scope (the caller holds
    :func:`lock_ratings`); returns their guild all-time ratings (the trend the results keep)."""
    await conn.executemany(
        "INSERT INTO match_teams (table_id, team, score, computers) VALUES ($1, $2, $3, $4)",
        [(table_id, t.team, t.score, json.dumps(list(t.computers))) for t in teams],
    )
    match = sides(teams, users_by_team)
    after: dict[int, Skill] = {}
    for scope in scopes(guild_id, season):
        rated = await _rate_scope(conn, game, scope, match)
        if scope == (guild_id, 0):
            after = rated
    return after


class PostgresStandings(PostgresEngine):
    """Seasons, ratings and history queries of :class:`~albastini.store.PostgresStore`."""

    async def current_season(self, guild_id: int) -> int:
        """The guild's current season (1 until an admin starts another)."""
        check_id("guild_id", guild_id)
        rows = await self._fetch("SELECT max(season) FROM seasons WHERE guild_id = $1", guild_id)
        return int(rows[0][0] or 1)

    async def start_season(self, guild_id: int) -> int:
        """Start the guild's next season; returns its number. Results and ratings of earlier
        seasons stay (all-time boards keep counting them)."""
        check_id("guild_id", guild_id)
        now = parse_ts(now_text())

        async def tx(conn: Conn) -> int:
            await conn.execute(
                "SELECT pg_advisory_xact_lock($1, $2)", _SEASONS_LOCK, guild_id % 2**31
            )
            season = await current_season_on(conn, guild_id) + 1
            await conn.execute(
                "INSERT INTO seasons (guild_id, season, started_at) VALUES ($1, $2, $3)",
                guild_id,
                season,
                now,
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
        queries = ratings_queries(guild_id, game, season, limit, offset)
        return ratings_page(await self._snapshot(numbered_queries(queries)), offset, limit)

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
        queries = user_rating_queries(guild_id, user_id, game, season)
        return user_rating(await self._snapshot(numbered_queries(queries)))

    async def history(
        self,
        guild_id: int | None = None,
        user_id: int | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[MatchSummary]:
        """Finished matches, newest first: a guild's (``guild_id``), a player's (``user_id``),
        or a player's in one guild (both)."""
        sql, params = history_tables(guild_id, user_id, limit, offset)
        tables = await self._fetch(numbered(sql), *params)
        if not tables:
            return []
        ids = [int(r[0]) for r in tables]
        seats, teams = await self._snapshot(
            [
                (
                    "SELECT table_id, seat_no, user_id, display_name FROM seats "
                    "WHERE table_id = ANY($1::bigint[])",
                    (ids,),
                ),
                (
                    "SELECT table_id, team, score FROM match_teams "
                    "WHERE table_id = ANY($1::bigint[]) ORDER BY table_id, team",
                    (ids,),
                ),
            ]
        )
        return [summary(r, seats, teams) for r in tables]

    async def recompute_ratings(self) -> int:
        """Compute every rating again from the stored results, in the order the matches
        finished (what a changed rating model would need); returns the matches rated."""

        async def tx(conn: Conn) -> int:
            await lock_ratings(conn)
            await conn.execute("DELETE FROM ratings")
            matches = await conn.fetch(
                "SELECT DISTINCT r.table_id, r.guild_id, r.game, r.season, r.finished_at "
                "FROM match_results r JOIN match_teams m ON m.table_id = r.table_id "
                "ORDER BY r.finished_at, r.table_id"
            )
            for table_id, guild_id, game, season, _ in matches:
                teams = [
                    TeamResult(int(t), int(s), tuple(json.loads(c)))
                    for t, s, c in await conn.fetch(
                        "SELECT team, score, computers FROM match_teams WHERE table_id = $1",
                        table_id,
                    )
                ]
                results = await conn.fetch(
                    "SELECT user_id, team FROM match_results WHERE table_id = $1 "
                    "ORDER BY user_id",
                    table_id,
                )
                users = users_by_team(tuple(r) for r in results)
                match = sides(teams, users)
                for scope in scopes(int(guild_id), int(season)):
                    await _rate_scope(conn, str(game), scope, match)
            return len(matches)

        return await self._write(tx)
