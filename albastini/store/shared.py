"""The pure part of the store that core.py and standings.py build on: the columns read and the
records those rows become, the statements several methods share, the refusals of a move (the
schema's trigger, keys) as store errors, and the pure part of results, ratings and history.

Every statement of the store is written with SQLite's ``?`` placeholders; :func:`numbered` gives
PostgreSQL's ``$1, $2...`` for the same text (its dialect does it for each), so that one
statement serves both and they cannot drift apart. About 500 lines because it is everything the
two must agree on; split by topic it would only scatter that.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from ..ratings import Side, Skill
from ..shards import Shards
from .dialect import Refusal
from .errors import (
    ConflictError,
    InvalidValue,
    MoveGap,
    StaleMove,
    StoreError,
    UnknownSeat,
    UnknownTable,
    WrongStatus,
)
from .records import (
    DealRecord,
    DealResultRecord,
    LeaderboardPage,
    MatchSummary,
    MoveRecord,
    PlayerStats,
    RatingEntry,
    RatingsPage,
    SeatRecord,
    TableRecord,
    TableSnapshot,
    TeamResult,
)
from .values import check_id, check_int, parse_ts, seed_from_db

__all__ = [
    "DEAL_COLS",
    "INSERT_MATCH_RESULTS",
    "LAST_DEAL",
    "MOVE_COLS",
    "RESULT_COLS",
    "SEAT_COLS",
    "TABLE_COLS",
    "TREND",
    "Queries",
    "Row",
    "check_seated",
    "check_teams",
    "deal_record",
    "history_tables",
    "leaderboard_page",
    "leaderboard_queries",
    "move_record",
    "move_refusal",
    "numbered",
    "numbered_queries",
    "rating_entry",
    "ratings_page",
    "ratings_queries",
    "result_record",
    "result_rows",
    "scopes",
    "seat_record",
    "sides",
    "snapshot_queries",
    "snapshots",
    "stats_record",
    "summary",
    "table_record",
    "unfinished_where",
    "user_rating",
    "user_rating_queries",
    "users_by_team",
]

#: A row as either driver returns it (sqlite3's tuple, asyncpg's Record made a tuple).
Row = tuple[Any, ...]
#: Statements with their parameters, for a back end's ``_snapshot`` (one read transaction).
Queries = list[tuple[str, tuple[Any, ...]]]


@cache  # the statements are a fixed set: each is rewritten once
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders as PostgreSQL's ``$1, $2...``, in order.

    Only for the statements of this module and the back ends (no ``?`` inside a string
    literal or an identifier)."""
    first, *rest = sql.split("?")
    return first + "".join(f"${i}{part}" for i, part in enumerate(rest, 1))


def numbered_queries(queries: Queries) -> Queries:
    """:func:`numbered` for each statement of ``queries``."""
    return [(numbered(sql), params) for sql, params in queries]


# ---------------------------------------------------------------- rows and records

TABLE_COLS = (
    "id, guild_id, channel_id, host_id, game, settings, status, language, message_id, "
    "created_at, updated_at"
)
SEAT_COLS = (
    "table_id, seat_no, user_id, display_name, computer_level, away, computer_control, timeouts"
)
DEAL_COLS = "table_id, deal_no, dealer_seat, seed, deck, started_at"
RESULT_COLS = "table_id, deal_no, card_points, winner_team, game_points, finished_at"
MOVE_COLS = "table_id, move_no, deal_no, seat_no, user_id, action, by_computer, created_at"


def table_record(r: Row) -> TableRecord:
    """A row of :data:`TABLE_COLS` as its record."""
    return TableRecord(
        id=r[0],
        guild_id=r[1],
        channel_id=r[2],
        host_id=r[3],
        game=r[4],
        settings=json.loads(r[5]),
        status=r[6],
        language=r[7],
        message_id=r[8],
        created_at=parse_ts(r[9]),
        updated_at=parse_ts(r[10]),
    )


def seat_record(r: Row) -> SeatRecord:
    """A row of :data:`SEAT_COLS` as its record (SQLite's 0/1 flags as booleans)."""
    return SeatRecord(r[0], r[1], r[2], r[3], r[4], bool(r[5]), bool(r[6]), r[7])


def deal_record(r: Row, result: DealResultRecord | None = None) -> DealRecord:
    """A row of :data:`DEAL_COLS` as its record, with the deal's result if it has one."""
    deck = tuple(r[4].split()) if r[4] is not None else None
    return DealRecord(r[0], r[1], r[2], seed_from_db(r[3]), deck, parse_ts(r[5]), result)


def result_record(r: Row) -> DealResultRecord:
    """A row of :data:`RESULT_COLS` as its record."""
    return DealResultRecord(
        r[0], r[1], tuple(json.loads(r[2])), r[3], tuple(json.loads(r[4])), parse_ts(r[5])
    )


def move_record(r: Row) -> MoveRecord:
    """A row of :data:`MOVE_COLS` as its record."""
    return MoveRecord(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), parse_ts(r[7]))


def stats_record(r: Row, rank: int | None = None) -> PlayerStats:
    """A player's totals (user id, then the sums in :class:`PlayerStats`' order) as a record;
    the sums are made ints because SQLite's ``total()`` gives floats."""
    return PlayerStats(
        user_id=r[0],
        matches_played=int(r[1]),
        matches_won=int(r[2]),
        score=int(r[3]),
        deals_played=int(r[4]),
        deals_won=int(r[5]),
        deals_won_big=int(r[6]),
        card_points=int(r[7]),
        rank=rank,
    )


# ---------------------------------------------------------------- snapshots of tables


#: How a table played through interactions only shows in its stored settings (JSON as
#: :func:`~albastini.store.values.settings_json` writes it).
GROUP_DM_SETTING = '"interactions_only":true'


def unfinished_where(shards: Shards | None) -> str:
    """The condition of the tables :meth:`Store.unfinished_tables` loads: in the lobby or
    running, and of the servers of ``shards`` if given."""
    where = "WHERE status IN ('lobby', 'running')"
    if shards is not None and not shards.all:
        # A group DM's table is kept under its channel's id as its server's (cogs/ui/place.py)
        # and played through interactions, which Discord sends a group DM on shard 0: it is
        # shard 0's, whatever that id says (a server's old first channel may share the server's
        # id, hence the setting too).
        group = (f"(guild_id = channel_id AND CAST(settings AS TEXT) LIKE "
                 f"'%{GROUP_DM_SETTING}%')")
        own = f"(NOT {group} AND {shards.sql()})"
        where += f" AND ({own} OR {group})" if shards.has_dms else f" AND {own}"
    return where


def snapshot_queries(where: str, params: tuple[Any, ...]) -> Queries:
    """The statements that read the tables matching ``where`` (a condition on game_tables in
    the back end's placeholders) with their seats, deals, results and moves, for one read
    transaction; :func:`snapshots` makes the records of their rows."""
    sub = f"SELECT id FROM game_tables {where}"
    return [
        (f"SELECT {TABLE_COLS} FROM game_tables {where} ORDER BY id", params),
        (
            f"SELECT {SEAT_COLS} FROM seats WHERE table_id IN ({sub}) ORDER BY table_id, seat_no",
            params,
        ),
        (
            f"SELECT {DEAL_COLS} FROM deals WHERE table_id IN ({sub}) ORDER BY table_id, deal_no",
            params,
        ),
        (f"SELECT {RESULT_COLS} FROM deal_results WHERE table_id IN ({sub})", params),
        (
            f"SELECT {MOVE_COLS} FROM moves WHERE table_id IN ({sub}) ORDER BY table_id, move_no",
            params,
        ),
    ]


def snapshots(rows: Sequence[Sequence[Row]]) -> list[TableSnapshot]:
    """The snapshots of the rows :func:`snapshot_queries`' statements read, ordered by id."""
    tables, seats, deals, results, moves = rows
    by_result = {(r[0], r[1]): result_record(r) for r in results}
    seat_map: dict[int, list[SeatRecord]] = {}
    for r in seats:
        seat_map.setdefault(r[0], []).append(seat_record(r))
    deal_map: dict[int, list[DealRecord]] = {}
    for r in deals:
        deal_map.setdefault(r[0], []).append(deal_record(r, by_result.get((r[0], r[1]))))
    move_map: dict[int, list[MoveRecord]] = {}
    for r in moves:
        move_map.setdefault(r[0], []).append(move_record(r))
    out = []
    for r in tables:
        t = table_record(r)
        out.append(
            TableSnapshot(
                t,
                tuple(seat_map.get(t.id, ())),
                tuple(deal_map.get(t.id, ())),
                tuple(move_map.get(t.id, ())),
            )
        )
    return out


# ---------------------------------------------------------------- deals and moves

#: The table's last deal and, if it was scored, its number again (NULL: no result yet).
LAST_DEAL = (
    "SELECT d.deal_no, r.deal_no FROM deals d LEFT JOIN deal_results r "
    "USING (table_id, deal_no) WHERE d.table_id = ? ORDER BY d.deal_no DESC LIMIT 1"
)

# Errors raised by the triggers of 0001_init.sql, mapped to the store's own exceptions.
_TRIGGER_ERRORS: dict[str, tuple[type[StoreError], str]] = {
    "unknown_table": (UnknownTable, "no table {t}"),
    "table_not_running": (WrongStatus, "table {t} is not running; moves are refused"),
    "stale_move": (StaleMove, "table {t} already has move {m}"),
    "move_gap": (MoveGap, "move {m} of table {t} skips ahead; the next move is last + 1"),
    "not_current_deal": (ConflictError, "deal {d} is not the current deal of table {t}"),
    "deal_finished": (ConflictError, "deal {d} of table {t} is finished; no more moves"),
}


def move_refusal(
    params: tuple[Any, ...], refusal: Refusal | None, exc: BaseException
) -> StoreError:
    """The store error for a move (``params`` as inserted) that ``exc`` refused: the schema's
    trigger (its message names the reason), a move with that number committed first (a unique
    key), a missing seat or deal (a foreign key), another constraint, or (``refusal`` None)
    not the row at all. Both back ends say the same for the same move."""
    t, m, d, s = params[0], params[1], params[2], params[3]
    if refusal is None:
        return StoreError(f"could not store move {m} of table {t}: {exc}")
    if refusal.kind == "trigger" and refusal.text in _TRIGGER_ERRORS:
        kind, msg = _TRIGGER_ERRORS[refusal.text]
        return kind(msg.format(t=t, m=m, d=d))
    if refusal.kind == "unique":
        return StaleMove(f"table {t} already has move {m}")
    if refusal.kind == "foreign_key":
        return UnknownSeat(f"table {t} has no seat {s} (or no deal {d})")
    return ConflictError(f"move {m} of table {t} refused by the database: {refusal.text}")


# ---------------------------------------------------------------- finished matches

#: One person's result of a finished match; :func:`result_rows` gives the parameters.
INSERT_MATCH_RESULTS = (
    "INSERT INTO match_results (table_id, guild_id, game, user_id, team, score, won, "
    "deals_played, deals_won, deals_won_big, card_points, finished_at, season, rating_mu, "
    "rating_sigma) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def check_seated(table_id: int, rows: Iterable[Row], seated: Iterable[Row]) -> None:
    """:class:`ConflictError` unless every result (``rows``, user id first) belongs to a person
    holding a seat (``seated``: the seats' user ids)."""
    strangers = {r[0] for r in rows} - {r[0] for r in seated}
    if strangers:
        raise ConflictError(
            f"results for users {sorted(strangers)} who hold no seat at table {table_id}"
        )


def users_by_team(rows: Iterable[Row]) -> dict[int, list[int]]:
    """The people of each team (rows of user id and team), by user id: the rating model's
    input is then the same whatever order the results came in."""
    users: dict[int, list[int]] = {}
    for r in sorted(rows):
        users.setdefault(int(r[1]), []).append(int(r[0]))
    return users


def result_rows(
    table_id: int,
    guild_id: int,
    game: str,
    season: int,
    finished_at: Any,
    rows: Iterable[Row],
    rated: Mapping[int, Skill],
) -> list[Row]:
    """The parameters of :data:`INSERT_MATCH_RESULTS` for each checked result, with the
    person's rating after the match where it was rated (the trend the results keep)."""
    return [
        (table_id, guild_id, game, *r, finished_at, season,
         *((rated[r[0]].mu, rated[r[0]].sigma) if r[0] in rated else (None, None)))
        for r in rows
    ]  # fmt: skip


# ---------------------------------------------------------------- leaderboards and ratings

#: How many of a player's last ratings their stats show as a trend.
TREND = 5


def leaderboard_queries(
    guild_id: int, game: str, season: int, limit: int, offset: int
) -> Queries:
    """A page of ``player_totals`` ranked by matches won, then score, then user id, and the
    number of players ranked."""
    return [
        (
            "SELECT user_id, matches_played, matches_won, score, deals_played, deals_won, "
            "deals_won_big, card_points FROM player_totals "
            "WHERE guild_id = ? AND game = ? AND season = ? "
            "ORDER BY matches_won DESC, score DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, game, season, limit, offset),
        ),
        (
            "SELECT count(*) FROM player_totals WHERE guild_id = ? AND game = ? AND season = ?",
            (guild_id, game, season),
        ),
    ]


def leaderboard_page(rows: Sequence[Sequence[Row]], offset: int, limit: int) -> LeaderboardPage:
    """The page of :func:`leaderboard_queries`' rows; ranks start at ``offset`` + 1."""
    page, total = rows
    entries = tuple(stats_record(r, offset + i + 1) for i, r in enumerate(page))
    return LeaderboardPage(entries, int(total[0][0]), offset, limit)


def scopes(guild_id: int, season: int) -> tuple[tuple[int, int], ...]:
    """The (guild, season) scopes a match in ``guild_id`` and ``season`` is rated in: the
    season, the guild all time (season 0) and every guild all time (guild 0, season 0)."""
    return ((guild_id, season), (guild_id, 0), (0, 0))


def sides(teams: Iterable[TeamResult], users: Mapping[int, list[int]]) -> list[Side]:
    """The rating model's sides of a match, by team number: score, people and computers."""
    return [
        Side(t.score, tuple(users.get(t.team, ())), tuple(t.computers))
        for t in sorted(teams, key=lambda t: t.team)
    ]


def check_teams(teams: object) -> list[TeamResult]:
    """The sides of a finished match, each checked (distinct teams, scores, computer levels);
    :class:`InvalidValue` for a bad one, before anything is written."""
    if isinstance(teams, str | bytes) or not isinstance(teams, Sequence):
        raise InvalidValue(f"teams must be a sequence of TeamResult, got {teams!r}")
    out: list[TeamResult] = []
    for t in teams:
        if not isinstance(t, TeamResult):
            raise InvalidValue(f"teams must be TeamResult records, got {t!r}")
        check_int("team", t.team, 0, 15)
        check_int("score", t.score, -100_000, 100_000)
        if any(not isinstance(c, str) or not 1 <= len(c) <= 16 for c in t.computers):
            raise InvalidValue(f"computer levels must be short strings, got {t.computers!r}")
        out.append(t)
    if len({t.team for t in out}) != len(out):
        raise InvalidValue("a team is listed twice")
    return out


def rating_entry(
    r: Sequence[Any], rank: int | None = None, trend: tuple[float, ...] = ()
) -> RatingEntry:
    """A row of user id, rating, mu, sigma and matches as a :class:`RatingEntry`."""
    return RatingEntry(int(r[0]), float(r[1]), float(r[2]), float(r[3]), int(r[4]), rank, trend)


def ratings_queries(guild_id: int, game: str, season: int, limit: int, offset: int) -> Queries:
    """A page of ``ratings`` ranked by rating, then user id, and the number of players rated."""
    return [
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


def ratings_page(rows: Sequence[Sequence[Row]], offset: int, limit: int) -> RatingsPage:
    """The page of :func:`ratings_queries`' rows; ranks start at ``offset`` + 1."""
    page, total = rows
    entries = tuple(rating_entry(r, offset + i + 1) for i, r in enumerate(page))
    return RatingsPage(entries, int(total[0][0]), offset, limit)


def user_rating_queries(guild_id: int, user_id: int, game: str, season: int) -> Queries:
    """A player's rating with its rank (ties go to the lower user id), and the ratings after
    their last :data:`TREND` rated matches in the guild, newest first."""
    return [
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


def user_rating(rows: Sequence[Sequence[Row]]) -> RatingEntry | None:
    """The entry of :func:`user_rating_queries`' rows (trend oldest first), None if unrated."""
    mine, trend = rows
    if not mine:
        return None
    return rating_entry(mine[0], int(mine[0][5]), tuple(float(r[0]) for r in reversed(trend)))


# ---------------------------------------------------------------- history


def history_tables(
    guild_id: int | None, user_id: int | None, limit: int, offset: int
) -> tuple[str, tuple[Any, ...]]:
    """The finished tables :meth:`Store.history` shows, newest first, with its parameters:
    a guild's, or the matches a player finished seated (they have a result), in one guild or
    all. Each row is what :func:`summary` reads; the arguments are checked here."""
    if guild_id is None and user_id is None:
        raise ValueError("history needs a guild or a user")
    check_int("limit", limit, 1, 100)
    check_int("offset", offset, 0, 10_000_000)
    params: tuple[Any, ...]
    if user_id is not None:
        check_id("user_id", user_id)
        where, params = "user_id = ?", (user_id,)
        if guild_id is not None:
            check_id("guild_id", guild_id)
            where, params = "user_id = ? AND guild_id = ?", (user_id, guild_id)
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
        params = (guild_id,)
    sql = (
        "SELECT t.id, t.guild_id, t.game, t.settings, t.updated_at FROM game_tables t "
        f"WHERE t.id IN ({picked}) ORDER BY t.updated_at DESC, t.id DESC"
    )
    return sql, (*params, limit, offset)


def summary(table: Row, seats: Sequence[Row], teams: Sequence[Row]) -> MatchSummary:
    """One finished match of the history: ``table`` a row of :func:`history_tables`, ``seats``
    rows of table id, seat number, user id and name, ``teams`` of table id, team and score
    (of any tables: this one's are picked)."""
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
