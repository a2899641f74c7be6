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
from collections.abc import Iterable, Sequence
from typing import Any

from ...ratings import Side, Skill, update
from ..records import MatchSummary, RatingEntry, RatingsPage, TeamResult
from ..values import check_game, check_id, check_int, now_text, parse_ts
from .connections import fetch_on
from .engine import SQLiteEngine

__all__ = ["StandingsStore", "current_season_on", "record_ratings"]

#: How many of a player's last ratings their stats show as a trend.
TREND = 5


def current_season_on(db: sqlite3.Connection, guild_id: int) -> int:
    """The guild's season now (1 until an admin starts another)."""
    rows = fetch_on(db, "SELECT max(season) FROM seasons WHERE guild_id = ?", (guild_id,))
    return int(rows[0][0] or 1)


def _scopes(guild_id: int, season: int) -> tuple[tuple[int, int], ...]:
    return ((guild_id, season), (guild_id, 0), (0, 0))


def _sides(teams: Iterable[TeamResult], users_by_team: dict[int, list[int]]) -> list[Side]:
    return [
        Side(t.score, tuple(users_by_team.get(t.team, ())), tuple(t.computers))
        for t in sorted(teams, key=lambda t: t.team)
    ]


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
    sides = _sides(teams, users_by_team)
    after: dict[int, Skill] = {}
    for scope in _scopes(guild_id, season):
        rated = _rate_scope(db, game, scope, sides)
        if scope == (guild_id, 0):
            after = rated
    return after


def check_teams(teams: object) -> list[TeamResult]:
    """The sides of a finished match, each checked (distinct teams, scores, computer levels)."""
    if isinstance(teams, str | bytes) or not isinstance(teams, Sequence):
        raise ValueError(f"teams must be a sequence of TeamResult, got {teams!r}")
    out: list[TeamResult] = []
    for t in teams:
        if not isinstance(t, TeamResult):
            raise ValueError(f"teams must be TeamResult records, got {t!r}")
        check_int("team", t.team, 0, 15)
        check_int("score", t.score, -100_000, 100_000)
        if any(not isinstance(c, str) or not 1 <= len(c) <= 16 for c in t.computers):
            raise ValueError(f"computer levels must be short strings, got {t.computers!r}")
        out.append(t)
    if len({t.team for t in out}) != len(out):
        raise ValueError("a team is listed twice")
    return out


def _entry(r: Sequence[Any], rank: int | None = None, trend: tuple[float, ...] = ()) -> RatingEntry:
    return RatingEntry(int(r[0]), float(r[1]), float(r[2]), float(r[3]), int(r[4]), rank, trend)


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
        rows, total = await self._snapshot(
            [
                (
                    "SELECT user_id, rating, mu, sigma, matches FROM ratings "
                    "WHERE guild_id = ? AND game = ? AND season = ? "
                    "ORDER BY rating DESC, user_id LIMIT ? OFFSET ?",
                    (guild_id, game, season, limit, offset),
                ),
                (
                    "SELECT count(*) FROM ratings WHERE guild_id = ? AND game = ? AND season = ?",
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
                    "WHERE guild_id = ? AND game = ? AND season = ? AND user_id = ?",
                    (guild_id, game, season, user_id),
                ),
                (
                    "SELECT rating_mu - 3 * rating_sigma FROM match_results "
                    "WHERE user_id = ? AND guild_id = ? AND game = ? AND rating_mu IS NOT NULL "
                    "ORDER BY finished_at DESC, table_id DESC LIMIT ?",
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
        if user_id is not None:  # the matches the player finished seated (they have a result)
            check_id("user_id", user_id)
            where, params = "user_id = ?", [user_id]
            if guild_id is not None:
                check_id("guild_id", guild_id)
                where, params = "user_id = ? AND guild_id = ?", [user_id, guild_id]
            picked = (
                f"SELECT table_id FROM match_results WHERE {where} "
                "ORDER BY finished_at DESC, table_id DESC LIMIT ? OFFSET ?"
            )
        else:
            assert guild_id is not None
            check_id("guild_id", guild_id)
            picked = (
                "SELECT id FROM game_tables WHERE guild_id = ? AND status = 'finished' "
                "ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?"
            )
            params = [guild_id]
        tables = await self._fetch(
            "SELECT t.id, t.guild_id, t.game, t.settings, t.updated_at FROM game_tables t "
            f"WHERE t.id IN ({picked}) ORDER BY t.updated_at DESC, t.id DESC",
            (*params, limit, offset),
        )
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
        return [_summary(r, seats, teams) for r in tables]

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
                users: dict[int, list[int]] = {}
                for user, team in fetch_on(
                    db,
                    "SELECT user_id, team FROM match_results WHERE table_id = ? ORDER BY user_id",
                    (table_id,),
                ):
                    users.setdefault(int(team), []).append(int(user))
                sides = _sides(teams, users)
                for scope in _scopes(int(guild_id), int(season)):
                    _rate_scope(db, str(game), scope, sides)
            return len(matches)

        return await self._write(tx)


def _summary(
    table: Sequence[Any], seats: Sequence[Sequence[Any]], teams: Sequence[Sequence[Any]]
) -> MatchSummary:
    table_id = int(table[0])
    settings = json.loads(table[3])
    players, team_size = int(settings["players"]), int(settings["team_size"])
    order = [int(x) for x in settings.get("seating", range(players))]
    # the sides as the game said at the start; tables started before the history was kept are
    # Albastini's, whose sides alternate round the table
    n_teams = players // team_size
    team_of = [int(x) for x in settings.get("team_of", [s % n_teams for s in range(players)])]
    by_slot = {int(s[1]): s for s in seats if int(s[0]) == table_id}
    scores = tuple(int(t[2]) for t in teams if int(t[0]) == table_id)
    shown = []
    for seat, slot in enumerate(order):
        row = by_slot.get(slot)
        if row is not None:
            shown.append((None if row[2] is None else int(row[2]), str(row[3]), team_of[seat]))
    best = max(scores) if scores else None
    winners = tuple(i for i, s in enumerate(scores) if s == best)
    return MatchSummary(
        table_id, int(table[1]), str(table[2]), players, team_size, parse_ts(table[4]),
        scores, winners, tuple(shown),
    )  # fmt: skip
