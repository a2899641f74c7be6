"""Skill ratings, seasons and match history on PostgreSQL: the same model and queries as the
SQLite store's (``sqlite/standings.py``, whose pure helpers are reused), in transactions of a
server many connections use at once.

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
from typing import Any

from ...ratings import Side, Skill, update
from ..records import MatchSummary, RatingEntry, RatingsPage, TeamResult
from ..sqlite.standings import TREND, _entry, _scopes, _sides, _summary
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
    sides = _sides(teams, users_by_team)
    after: dict[int, Skill] = {}
    for scope in _scopes(guild_id, season):
        rated = await _rate_scope(conn, game, scope, sides)
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
        rows, total = await self._snapshot(
            [
                (
                    "SELECT user_id, rating, mu, sigma, matches FROM ratings "
                    "WHERE guild_id = $1 AND game = $2 AND season = $3 "
                    "ORDER BY rating DESC, user_id LIMIT $4 OFFSET $5",
                    (guild_id, game, season, limit, offset),
                ),
                (
                    "SELECT count(*) FROM ratings "
                    "WHERE guild_id = $1 AND game = $2 AND season = $3",
                    (guild_id, game, season),
                ),
            ]
        )
        entries = tuple(_entry(r, offset + i + 1) for i, r in enumerate(rows))
        return RatingsPage(entries, int(total[0][0]), offset, limit)

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
        mine, trend = await self._snapshot(
            [
                (
                    "SELECT user_id, rating, mu, sigma, matches, (SELECT count(*) + 1 FROM "
                    "ratings o WHERE o.guild_id = r.guild_id AND o.game = r.game AND "
                    "o.season = r.season AND (o.rating > r.rating OR (o.rating = r.rating "
                    "AND o.user_id < r.user_id))) FROM ratings r "
                    "WHERE guild_id = $1 AND game = $2 AND season = $3 AND user_id = $4",
                    (guild_id, game, season, user_id),
                ),
                (
                    "SELECT rating_mu - 3 * rating_sigma FROM match_results "
                    "WHERE user_id = $1 AND guild_id = $2 AND game = $3 "
                    "AND rating_mu IS NOT NULL ORDER BY finished_at DESC, table_id DESC LIMIT $4",
                    (user_id, guild_id, game, TREND),
                ),
            ]
        )
        if not mine:
            return None
        return _entry(mine[0], int(mine[0][5]), tuple(float(r[0]) for r in reversed(trend)))

    async def history(
        self,
        guild_id: int | None = None,
        user_id: int | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[MatchSummary]:
        """Finished matches, newest first: a guild's (``guild_id``), a player's (``user_id``),
        or a player's in one guild (both)."""
        if guild_id is None and user_id is None:
            raise ValueError("history needs a guild or a user")
        check_int("limit", limit, 1, 100)
        check_int("offset", offset, 0, 10_000_000)
        params: list[Any]
        if user_id is not None:  # the matches the player finished seated (they have a result)
            check_id("user_id", user_id)
            where, params = "user_id = $1", [user_id]
            if guild_id is not None:
                check_id("guild_id", guild_id)
                where, params = "user_id = $1 AND guild_id = $2", [user_id, guild_id]
            n = len(params)
            picked = (
                f"SELECT table_id FROM match_results WHERE {where} "
                f"ORDER BY finished_at DESC, table_id DESC LIMIT ${n + 1} OFFSET ${n + 2}"
            )
        else:
            assert guild_id is not None
            check_id("guild_id", guild_id)
            picked = (
                "SELECT id FROM game_tables WHERE guild_id = $1 AND status = 'finished' "
                "ORDER BY updated_at DESC, id DESC LIMIT $2 OFFSET $3"
            )
            params = [guild_id]
        tables = await self._fetch(
            "SELECT t.id, t.guild_id, t.game, t.settings, t.updated_at FROM game_tables t "
            f"WHERE t.id IN ({picked}) ORDER BY t.updated_at DESC, t.id DESC",
            *params,
            limit,
            offset,
        )
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
        return [_summary(r, seats, teams) for r in tables]

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
                users: dict[int, list[int]] = {}
                for user, team in await conn.fetch(
                    "SELECT user_id, team FROM match_results WHERE table_id = $1 "
                    "ORDER BY user_id",
                    table_id,
                ):
                    users.setdefault(int(team), []).append(int(user))
                sides = _sides(teams, users)
                for scope in _scopes(int(guild_id), int(season)):
                    await _rate_scope(conn, str(game), scope, sides)
            return len(matches)

        return await self._write(tx)
