""":class:`PostgresStore`: the :class:`~albastini.store.Store` on PostgreSQL (asyncpg), every
statement of the table service's persistence. The pool, transactions and the server's troubles
are the engine's (engine.py); ratings, seasons and history are standings.py's.

It returns the records and raises the errors the SQLite store does for the same input: the
values are checked by the shared checks (values.py) before the database is touched, the rows
become records through the mapping both stores share (shared.py, as are the statements whose
text differs only in placeholders), and the database's refusals (the move log's trigger,
unique and foreign keys) become the same store errors. Over 500 lines for the same reason as
the SQLite store: the whole protocol in SQL, one method per operation.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Mapping, Sequence
from typing import Any, cast

import asyncpg

from ...shards import Shards
from ..errors import (
    ChannelBusy,
    ConflictError,
    InvalidValue,
    StaleMove,
    StoreError,
    UnknownSeat,
    UnknownTable,
    WrongStatus,
)
from ..protocol import Store
from ..records import (
    DealRecord,
    DealResultRecord,
    GuildSettings,
    Language,
    LeaderboardPage,
    MoveRecord,
    NewSeat,
    PlayerResult,
    PlayerStats,
    SeatRecord,
    TableRecord,
    TableSnapshot,
    TableStatus,
    TeamResult,
)
from ..shared import (
    DEAL_COLS,
    INSERT_MATCH_RESULTS,
    LAST_DEAL,
    MOVE_COLS,
    RESULT_COLS,
    SEAT_COLS,
    TABLE_COLS,
    check_seated,
    check_teams,
    leaderboard_page,
    leaderboard_queries,
    move_record,
    move_refusal,
    numbered,
    numbered_queries,
    result_rows,
    seat_record,
    snapshot_queries,
    snapshots,
    stats_record,
    table_record,
    unfinished_where,
    users_by_team,
)
from ..values import (
    INT64_MAX,
    TARGET_VP_RANGE,
    TURN_TIME_RANGE,
    check_bool,
    check_deal_result,
    check_game,
    check_id,
    check_int,
    check_language,
    check_level,
    check_move,
    check_name,
    check_opt_id,
    check_results,
    check_seat,
    deck_to_db,
    now_text,
    parse_ts,
    seed_to_db,
    settings_json,
)
from .engine import Conn
from .standings import PostgresStandings, current_season_on, lock_ratings, record_ratings

__all__ = ["PostgresStore"]

#: user_stats sums match_results itself (the source of truth; cheap for one player).
_STATS_COLS = (
    "count(*), coalesce(sum(won::int), 0), coalesce(sum(score), 0), "
    "coalesce(sum(deals_played), 0), coalesce(sum(deals_won), 0), "
    "coalesce(sum(deals_won_big), 0), coalesce(sum(card_points), 0)"
)


def _now() -> Any:
    """Now, to the millisecond (what the SQLite store keeps, so both return the same)."""
    return parse_ts(now_text())


def _count(status: str) -> int:
    """The rows a command touched, from its status ("UPDATE 1", "DELETE 0")."""
    return int(status.rsplit(" ", 1)[-1])


async def _table_status(conn: Conn, table_id: int) -> TableStatus:
    """The table's status, its row locked until the transaction ends: the writes of one table
    (and its moves, whose trigger locks the same row) go one at a time."""
    status = await conn.fetchval(
        "SELECT status FROM game_tables WHERE id = $1 FOR NO KEY UPDATE", table_id
    )
    if status is None:
        raise UnknownTable(f"no table {table_id}")
    return cast(TableStatus, status)


async def _require_status(
    conn: Conn, table_id: int, allowed: tuple[TableStatus, ...], what: str
) -> TableStatus:
    status = await _table_status(conn, table_id)
    if status not in allowed:
        raise WrongStatus(f"cannot {what}: table {table_id} is {status}")
    return status


async def _touch(conn: Conn, table_id: int) -> None:
    await conn.execute("UPDATE game_tables SET updated_at = $1 WHERE id = $2", _now(), table_id)


async def _insert_seat(
    conn: Conn, table_id: int, seat: tuple[int, int | None, str, str | None]
) -> None:
    seat_no, user_id, name, level = seat
    if await conn.fetchval(
        "SELECT 1 FROM seats WHERE table_id = $1 AND seat_no = $2", table_id, seat_no
    ):
        raise ConflictError(f"seat {seat_no} of table {table_id} is taken")
    if user_id is not None and await conn.fetchval(
        "SELECT 1 FROM seats WHERE table_id = $1 AND user_id = $2", table_id, user_id
    ):
        raise ConflictError(f"user {user_id} already sits at table {table_id}")
    await conn.execute(
        "INSERT INTO seats (table_id, seat_no, user_id, display_name, computer_level) "
        "VALUES ($1, $2, $3, $4, $5)",
        table_id,
        seat_no,
        user_id,
        name,
        level,
    )


def _move_error(exc: asyncpg.PostgresError, params: tuple[Any, ...]) -> StoreError | None:
    """The store error for a move the database refused (None: not a refusal of the row)."""
    if isinstance(exc, asyncpg.UniqueViolationError):  # a move with this number got in first
        return StaleMove(f"table {params[0]} already has move {params[1]}")
    if not isinstance(exc, asyncpg.IntegrityConstraintViolationError | asyncpg.RaiseError):
        return None
    return move_refusal(
        params,
        str(getattr(exc, "message", None) or exc),
        trigger=isinstance(exc, asyncpg.RaiseError),  # the trigger's RAISE names the reason
        foreign_key=isinstance(exc, asyncpg.ForeignKeyViolationError),
    )


class PostgresStore(PostgresStandings):
    """The :class:`~albastini.store.Store` on PostgreSQL. Create with
    ``await PostgresStore.open("postgresql://user@host/db")``."""

    # ---------------------------------------------------------------- tables

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        settings: Mapping[str, Any],
        *,
        game: str = "albastini",
        language: str = "en",
        seats: Sequence[NewSeat] = (),
    ) -> TableRecord:
        """Open a lobby in ``channel_id``; :class:`ChannelBusy` if one is already active there.
        ``seats`` are taken in the same transaction: a refused seat leaves no table behind."""
        params = (
            check_id("guild_id", guild_id),
            check_id("channel_id", channel_id),
            check_id("host_id", host_id),
        )
        check_game(game)
        text = settings_json(settings)
        lang = check_language(language)
        checked = [
            check_seat(s.seat_no, s.user_id, s.display_name, s.computer_level) for s in seats
        ]
        now = _now()

        async def tx(conn: Conn) -> tuple[Any, ...]:
            row = await conn.fetchrow(
                "INSERT INTO game_tables (guild_id, channel_id, host_id, game, settings, "
                "status, language, created_at, updated_at) "
                f"VALUES ($1, $2, $3, $4, $5, 'lobby', $6, $7, $7) RETURNING {TABLE_COLS}",
                *params,
                game,
                text,
                lang,
                now,
            )
            for seat in checked:
                await _insert_seat(conn, int(row[0]), seat)
            return tuple(row)

        try:
            return table_record(await self._write(tx))
        except asyncpg.UniqueViolationError as exc:
            if exc.constraint_name == "game_tables_one_active_per_channel":
                raise ChannelBusy(
                    f"channel {channel_id} already has a table in the lobby or running"
                ) from None
            raise InvalidValue(f"table refused by the database: {exc}") from None
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise InvalidValue(f"table refused by the database: {exc}") from None

    async def get_table(self, table_id: int) -> TableRecord:
        """The table with this id; :class:`UnknownTable` if there is none."""
        rows = await self._fetch(
            f"SELECT {TABLE_COLS} FROM game_tables WHERE id = $1", check_id("table_id", table_id)
        )
        if not rows:
            raise UnknownTable(f"no table {table_id}")
        return table_record(rows[0])

    async def active_table(self, channel_id: int) -> TableRecord | None:
        """The channel's table in the lobby or running, if any."""
        rows = await self._fetch(
            f"SELECT {TABLE_COLS} FROM game_tables "
            "WHERE channel_id = $1 AND status IN ('lobby', 'running')",
            check_id("channel_id", channel_id),
        )
        return table_record(rows[0]) if rows else None

    async def update_table_settings(
        self, table_id: int, settings: Mapping[str, Any]
    ) -> TableRecord:
        """Replace the mode settings of a table still in the lobby."""
        check_id("table_id", table_id)
        text = settings_json(settings)

        async def tx(conn: Conn) -> tuple[Any, ...]:
            await _require_status(conn, table_id, ("lobby",), "change the settings")
            row = await conn.fetchrow(
                f"UPDATE game_tables SET settings = $1, updated_at = $2 WHERE id = $3 "
                f"RETURNING {TABLE_COLS}",
                text,
                _now(),
                table_id,
            )
            return tuple(row)

        return table_record(await self._write(tx))

    async def set_message_id(self, table_id: int, message_id: int | None) -> None:
        """Remember the public message of the table, so it can be edited after a restart."""
        check_id("table_id", table_id)
        check_opt_id("message_id", message_id)

        async def tx(conn: Conn) -> None:
            await _table_status(conn, table_id)
            await conn.execute(
                "UPDATE game_tables SET message_id = $1, updated_at = $2 WHERE id = $3",
                message_id,
                _now(),
                table_id,
            )

        await self._write(tx)

    async def start_table(
        self, table_id: int, dealer_seat: int, seed: int, deck: Sequence[str] | None = None
    ) -> DealRecord:
        """Lobby → running, and record deal 1 (dealer and seed) in the same transaction."""
        check_id("table_id", table_id)
        check_int("dealer_seat", dealer_seat, 0, 15)
        db_seed, deck_text = seed_to_db(seed), deck_to_db(deck)
        now = _now()

        async def tx(conn: Conn) -> None:
            await _require_status(conn, table_id, ("lobby",), "start")
            if not await conn.fetchval(
                "SELECT 1 FROM seats WHERE table_id = $1 AND seat_no = $2", table_id, dealer_seat
            ):
                raise UnknownSeat(f"table {table_id} has no seat {dealer_seat} to deal")
            await conn.execute(
                "UPDATE game_tables SET status = 'running', updated_at = $1 WHERE id = $2",
                now,
                table_id,
            )
            await conn.execute(
                f"INSERT INTO deals ({DEAL_COLS}) VALUES ($1, 1, $2, $3, $4, $5)",
                table_id,
                dealer_seat,
                db_seed,
                deck_text,
                now,
            )

        await self._write(tx)
        return DealRecord(table_id, 1, dealer_seat, seed, tuple(deck) if deck else None, now)

    async def cancel_table(self, table_id: int) -> None:
        """Lobby or running → cancelled (the log is kept; the channel is free again)."""
        await self._set_final_status(table_id, "cancelled", ())

    async def finish_table(
        self,
        table_id: int,
        results: Sequence[PlayerResult],
        teams: Sequence[TeamResult] = (),
    ) -> None:
        """Running → finished, storing one result row per person seated at the end, in the
        guild's current season; with ``teams`` the people are rated too, in the same
        transaction (see standings.py for the order of ratings)."""
        rows = check_results(table_id, results)
        await self._set_final_status(table_id, "finished", rows, check_teams(teams))

    async def _set_final_status(
        self,
        table_id: int,
        status: TableStatus,
        rows: Sequence[tuple[Any, ...]],
        teams: Sequence[TeamResult] = (),
    ) -> None:
        check_id("table_id", table_id)
        allowed: tuple[TableStatus, ...] = (
            ("running",) if status == "finished" else ("lobby", "running")
        )

        async def tx(conn: Conn) -> None:
            if status == "finished":
                await lock_ratings(conn)  # matches are rated in the order they finish
            await _require_status(conn, table_id, allowed, f"mark as {status}")
            now = _now()
            await conn.execute(
                "UPDATE game_tables SET status = $1, updated_at = $2 WHERE id = $3",
                status,
                now,
                table_id,
            )
            if not rows:
                return
            seated = await conn.fetch(
                "SELECT user_id FROM seats WHERE table_id = $1 AND user_id IS NOT NULL", table_id
            )
            check_seated(table_id, rows, [tuple(r) for r in seated])
            table = await conn.fetchrow(
                "SELECT guild_id, game FROM game_tables WHERE id = $1", table_id
            )
            guild_id, game = int(table[0]), str(table[1])
            season = await current_season_on(conn, guild_id)
            rated = {}
            if teams:
                users = users_by_team(rows)
                rated = await record_ratings(conn, table_id, guild_id, game, season, users, teams)
            await conn.executemany(
                numbered(INSERT_MATCH_RESULTS),
                result_rows(table_id, guild_id, game, season, now, rows, rated),
            )

        await self._write(tx)

    async def load_table(self, table_id: int) -> TableSnapshot:
        """The table with its seats, deals (with results) and moves, as one consistent snapshot."""
        check_id("table_id", table_id)
        snaps = await self._snapshots("WHERE id = $1", (table_id,))
        if not snaps:
            raise UnknownTable(f"no table {table_id}")
        return snaps[0]

    async def unfinished_tables(self, shards: Shards | None = None) -> list[TableSnapshot]:
        """Every table in the lobby or running, with seats, deals and moves, ordered by id;
        with ``shards``, only those of the servers of these shards (a cluster's own tables).

        The table service calls this at start-up and replays each table's moves.
        """
        return await self._snapshots(unfinished_where(shards), ())

    async def _snapshots(self, where: str, params: tuple[Any, ...]) -> list[TableSnapshot]:
        return snapshots(await self._snapshot(snapshot_queries(where, params)))

    # ---------------------------------------------------------------- seats

    async def add_seat(
        self,
        table_id: int,
        seat_no: int,
        user_id: int | None,
        display_name: str,
        computer_level: str | None = None,
    ) -> SeatRecord:
        """Seat a person (``user_id``) or a computer (``user_id=None`` + level) in the lobby;
        :class:`ConflictError` if the seat is taken or the person already sits here."""
        check_id("table_id", table_id)
        seat = check_seat(seat_no, user_id, display_name, computer_level)

        async def tx(conn: Conn) -> None:
            await _require_status(conn, table_id, ("lobby",), "add a seat")
            await _insert_seat(conn, table_id, seat)
            await _touch(conn, table_id)

        await self._write(tx)
        return SeatRecord(table_id, seat_no, user_id, seat[2], seat[3], False, False, 0)

    async def remove_seat(self, table_id: int, seat_no: int) -> None:
        """Free a seat in the lobby (someone leaves, or the host removes a computer)."""
        check_id("table_id", table_id)
        check_int("seat_no", seat_no, 0, 15)

        async def tx(conn: Conn) -> None:
            await _require_status(conn, table_id, ("lobby",), "remove a seat")
            done = await conn.execute(
                "DELETE FROM seats WHERE table_id = $1 AND seat_no = $2", table_id, seat_no
            )
            if _count(done) != 1:
                raise UnknownSeat(f"table {table_id} has no seat {seat_no}")
            await _touch(conn, table_id)

        await self._write(tx)

    async def replace_with_computer(
        self, table_id: int, seat_no: int, computer_level: str, display_name: str
    ) -> SeatRecord:
        """A person leaves a running game: the computer takes their seat for good."""
        check_id("table_id", table_id)
        check_int("seat_no", seat_no, 0, 15)
        level, name = check_level(computer_level), check_name(display_name)

        async def tx(conn: Conn) -> None:
            await _require_status(conn, table_id, ("running",), "hand a seat over")
            done = await conn.execute(
                "UPDATE seats SET user_id = NULL, computer_level = $1, display_name = $2, "
                "away = false, computer_control = false, timeouts = 0 "
                "WHERE table_id = $3 AND seat_no = $4",
                level,
                name,
                table_id,
                seat_no,
            )
            if _count(done) != 1:
                raise UnknownSeat(f"table {table_id} has no seat {seat_no}")
            await _touch(conn, table_id)

        await self._write(tx)
        return SeatRecord(table_id, seat_no, None, name, level, False, False, 0)

    async def update_seat(
        self,
        table_id: int,
        seat_no: int,
        *,
        away: bool | None = None,
        computer_control: bool | None = None,
        timeouts: int | None = None,
    ) -> SeatRecord:
        """Set the away / under-computer-control flags or the consecutive timeout count
        (None: unchanged), while the table is in the lobby or running."""
        check_id("table_id", table_id)
        check_int("seat_no", seat_no, 0, 15)
        changes: list[tuple[str, Any]] = []
        if away is not None:
            changes.append(("away", check_bool("away", away)))
        if computer_control is not None:
            changes.append(("computer_control", check_bool("computer_control", computer_control)))
        if timeouts is not None:
            changes.append(("timeouts", check_int("timeouts", timeouts, 0, 1_000_000)))
        sets = ", ".join(f"{column} = ${i + 3}" for i, (column, _) in enumerate(changes))

        async def tx(conn: Conn) -> tuple[Any, ...]:
            await _require_status(conn, table_id, ("lobby", "running"), "update a seat")
            if changes:
                await conn.execute(
                    f"UPDATE seats SET {sets} WHERE table_id = $1 AND seat_no = $2",
                    table_id,
                    seat_no,
                    *(value for _, value in changes),
                )
            row = await conn.fetchrow(
                f"SELECT {SEAT_COLS} FROM seats WHERE table_id = $1 AND seat_no = $2",
                table_id,
                seat_no,
            )
            if row is None:
                raise UnknownSeat(f"table {table_id} has no seat {seat_no}")
            return tuple(row)

        return seat_record(await self._write(tx))

    async def seats(self, table_id: int) -> list[SeatRecord]:
        """The table's seats by seat number (empty list for an unknown table)."""
        rows = await self._fetch(
            f"SELECT {SEAT_COLS} FROM seats WHERE table_id = $1 ORDER BY seat_no",
            check_id("table_id", table_id),
        )
        return [seat_record(r) for r in rows]

    # ---------------------------------------------------------------- deals and moves

    async def begin_deal(
        self,
        table_id: int,
        deal_no: int,
        dealer_seat: int,
        seed: int,
        deck: Sequence[str] | None = None,
    ) -> DealRecord:
        """Record the next deal (``deal_no`` = last + 1, after the last deal's result)."""
        check_id("table_id", table_id)
        check_int("deal_no", deal_no, 1, 1_000_000)
        check_int("dealer_seat", dealer_seat, 0, 15)
        db_seed, deck_text = seed_to_db(seed), deck_to_db(deck)
        now = _now()

        async def tx(conn: Conn) -> None:
            await _require_status(conn, table_id, ("running",), "deal")
            row = await conn.fetchrow(numbered(LAST_DEAL), table_id)
            last = int(row[0]) if row else 0
            if deal_no <= last:
                raise ConflictError(f"table {table_id} already has deal {deal_no}")
            if deal_no != last + 1:
                raise ConflictError(f"table {table_id}: the next deal is {last + 1}")
            if row and row[1] is None:
                raise ConflictError(f"deal {last} of table {table_id} has no result yet")
            await conn.execute(
                f"INSERT INTO deals ({DEAL_COLS}) VALUES ($1, $2, $3, $4, $5, $6)",
                table_id,
                deal_no,
                dealer_seat,
                db_seed,
                deck_text,
                now,
            )

        try:
            await self._write(tx)
        except asyncpg.ForeignKeyViolationError:  # the dealer seat does not exist
            raise UnknownSeat(f"table {table_id} has no seat {dealer_seat} to deal") from None
        return DealRecord(
            table_id, deal_no, dealer_seat, seed, tuple(deck) if deck else None, now
        )

    async def record_deal_result(
        self,
        table_id: int,
        deal_no: int,
        card_points: Sequence[int],
        winner_team: int | None,
        game_points: Sequence[int],
    ) -> DealResultRecord:
        """Store a finished deal: card points per team, the winning team (None when no single
        team won) and the game points it scored for every team."""
        check_id("table_id", table_id)
        check_int("deal_no", deal_no, 1, 1_000_000)
        points, scored = check_deal_result(card_points, winner_team, game_points)
        now = _now()

        async def tx(conn: Conn) -> None:
            await _require_status(conn, table_id, ("running",), "score a deal")
            if not await conn.fetchval(
                "SELECT 1 FROM deals WHERE table_id = $1 AND deal_no = $2", table_id, deal_no
            ):
                raise ConflictError(f"table {table_id} has no deal {deal_no}")
            if await conn.fetchval(
                "SELECT 1 FROM deal_results WHERE table_id = $1 AND deal_no = $2",
                table_id,
                deal_no,
            ):
                raise ConflictError(f"deal {deal_no} of table {table_id} is already scored")
            await conn.execute(
                f"INSERT INTO deal_results ({RESULT_COLS}) VALUES ($1, $2, $3, $4, $5, $6)",
                table_id,
                deal_no,
                json.dumps(points),
                winner_team,
                json.dumps(scored),
                now,
            )

        await self._write(tx)
        return DealResultRecord(table_id, deal_no, points, winner_team, scored, now)

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
    ) -> MoveRecord:
        """Append one action to the table's log; committed (durable) when this returns.

        ``move_no`` must be the last move number + 1: a number already used raises
        :class:`StaleMove` (of two appends of the same number, exactly one is stored), one
        further ahead :class:`MoveGap`. The table must be running and ``deal_no`` its
        current, unscored deal. On any error nothing is written. Moves appended at the same
        time (of different tables) are committed together, each acknowledged once its commit
        is done (group commit, see the engine); the schema's trigger checks the order, with
        the table's row locked."""
        now = _now()
        params = (
            *check_move(table_id, move_no, deal_no, seat_no, action, user_id, by_computer),
            now,
        )
        await self._commit_move(params)
        return MoveRecord(table_id, move_no, deal_no, seat_no, user_id, action, by_computer, now)

    def _insert_moves(self, conn: Any, batch: list[tuple[Any, ...]]) -> Awaitable[Any]:
        if len(batch) == 1:
            return conn.execute(  # type: ignore[no-any-return]
                f"INSERT INTO moves ({MOVE_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                *batch[0],
            )
        columns = list(zip(*batch, strict=True))
        return conn.execute(  # type: ignore[no-any-return]
            f"INSERT INTO moves ({MOVE_COLS}) SELECT * FROM unnest($1::bigint[], $2::bigint[], "
            "$3::integer[], $4::smallint[], $5::bigint[], $6::text[], $7::boolean[], "
            "$8::timestamptz[])",
            *columns,
        )

    def _move_refused(self, exc: Exception, params: tuple[Any, ...]) -> BaseException:
        error = _move_error(exc, params) if isinstance(exc, asyncpg.PostgresError) else None
        if error is None:
            error = StoreError(f"could not store move {params[1]} of table {params[0]}: {exc}")
        return error

    async def moves(self, table_id: int, after: int = 0) -> list[MoveRecord]:
        """The table's moves with number > ``after``, in order."""
        rows = await self._fetch(
            f"SELECT {MOVE_COLS} FROM moves WHERE table_id = $1 AND move_no > $2 "
            "ORDER BY move_no",
            check_id("table_id", table_id),
            check_int("after", after, 0, INT64_MAX),
        )
        return [move_record(r) for r in rows]

    # ---------------------------------------------------------------- settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, or the defaults (60 s, 5 VP, English) if never set."""
        rows = await self._fetch(
            "SELECT turn_time, target_vp, language FROM guild_settings WHERE guild_id = $1",
            check_id("guild_id", guild_id),
        )
        if not rows:
            return GuildSettings(guild_id)
        return GuildSettings(guild_id, rows[0][0], rows[0][1], rows[0][2])

    async def set_guild_settings(
        self,
        guild_id: int,
        *,
        turn_time: int | None = None,
        target_vp: int | None = None,
        language: str | None = None,
    ) -> GuildSettings:
        """Change some of a guild's settings (None = keep); returns the settings now in force.
        A bad value raises :class:`InvalidValue` and changes nothing."""
        check_id("guild_id", guild_id)
        if turn_time is not None:
            check_int("turn time (seconds)", turn_time, *TURN_TIME_RANGE)
        if target_vp is not None:
            check_int("target VP", target_vp, *TARGET_VP_RANGE)
        if language is not None:
            check_language(language)

        async def tx(conn: Conn) -> GuildSettings:
            # insert the defaults first, so that the row exists to be locked: two changes of
            # the same guild at once then apply one after the other
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, turn_time, target_vp, language, "
                "updated_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (guild_id) DO NOTHING",
                guild_id,
                *(GuildSettings(guild_id).turn_time, GuildSettings(guild_id).target_vp),
                GuildSettings(guild_id).language,
                _now(),
            )
            row = await conn.fetchrow(
                "SELECT turn_time, target_vp, language FROM guild_settings "
                "WHERE guild_id = $1 FOR UPDATE",
                guild_id,
            )
            new = GuildSettings(
                guild_id,
                row[0] if turn_time is None else turn_time,
                row[1] if target_vp is None else target_vp,
                row[2] if language is None else check_language(language),
            )
            await conn.execute(
                "UPDATE guild_settings SET turn_time = $2, target_vp = $3, language = $4, "
                "language_chosen = language_chosen OR $5, updated_at = $6 WHERE guild_id = $1",
                guild_id,
                new.turn_time,
                new.target_vp,
                new.language,
                language is not None,
                _now(),
            )
            return new

        return await self._write(tx)

    async def guild_language_chosen(self, guild_id: int) -> bool:
        """Whether the guild ever set its language (False: the bot's default applies)."""
        rows = await self._fetch(
            "SELECT language_chosen FROM guild_settings WHERE guild_id = $1",
            check_id("guild_id", guild_id),
        )
        return bool(rows and rows[0][0])

    async def user_language(self, user_id: int) -> Language | None:
        """The user's preferred language, or None to follow the guild's."""
        rows = await self._fetch(
            "SELECT language FROM user_preferences WHERE user_id = $1",
            check_id("user_id", user_id),
        )
        return cast(Language | None, rows[0][0]) if rows else None

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        """Set ('en' or 'sw') or clear (None) the user's preferred language."""
        check_id("user_id", user_id)
        lang = None if language is None else check_language(language)
        await self._execute(
            "INSERT INTO user_preferences (user_id, language, updated_at) VALUES ($1, $2, $3) "
            "ON CONFLICT (user_id) DO UPDATE SET "
            "language = excluded.language, updated_at = excluded.updated_at",
            user_id,
            lang,
            _now(),
        )

    # ---------------------------------------------------------------- statistics

    async def leaderboard(
        self,
        guild_id: int,
        limit: int = 10,
        offset: int = 0,
        *,
        game: str = "albastini",
        season: int | None = None,
    ) -> LeaderboardPage:
        """A page of the guild's players ranked by matches won, then score, then user id, in
        ``season`` (None: the guild's current season; 0: all time), from ``player_totals``
        (kept by a trigger in each result's transaction); ``rank`` starts at offset + 1."""
        check_id("guild_id", guild_id)
        check_int("limit", limit, 1, 100)
        check_int("offset", offset, 0, 10_000_000)
        season = await self._season(guild_id, season)
        queries = leaderboard_queries(guild_id, game, season, limit, offset)
        return leaderboard_page(await self._snapshot(numbered_queries(queries)), offset, limit)

    async def user_stats(
        self, guild_id: int, user_id: int, *, game: str = "albastini"
    ) -> PlayerStats:
        """A player's totals in the guild (zeros if they never finished a match there)."""
        check_id("guild_id", guild_id)
        check_id("user_id", user_id)
        rows = await self._fetch(
            f"SELECT {_STATS_COLS} FROM match_results "
            "WHERE guild_id = $1 AND game = $2 AND user_id = $3",
            guild_id,
            game,
            user_id,
        )
        r = rows[0]
        if r[0] == 0:
            return PlayerStats(user_id, 0, 0, 0, 0, 0, 0, 0)
        return stats_record((user_id, *r))


def _conforms(store: PostgresStore) -> Store:
    return store  # mypy checks here that PostgresStore implements the Store interface
