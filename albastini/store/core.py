""":class:`StoreCore`: the :class:`~albastini.store.Store` protocol written once, every method's
checks, statements and transaction, for both back ends. What differs between SQLite and
PostgreSQL is behind dialect.py's seam: each back end's engine runs the reads, the write
transactions and the group commit of moves, its dialect says the few words of SQL that differ
and tells its refusals of a row apart; ratings, seasons and history are standings.py's, the
columns read and the records their rows become shared.py's.

The values are checked (values.py) before the database is touched, so a refused value writes
nothing on either back end; the database's own refusals (the move log's trigger, unique and
foreign keys) become the same store errors on both.

Over 500 lines because it is the whole protocol but ratings and history, one method per
operation, each with its checks and its transaction; split by topic it would only scatter the
schema.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, cast

from ..shards import Shards
from .dialect import Tx
from .errors import (
    ChannelBusy,
    ConflictError,
    InvalidValue,
    UnknownSeat,
    UnknownTable,
    WrongStatus,
)
from .records import (
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
from .shared import (
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
    result_rows,
    seat_record,
    snapshot_queries,
    snapshots,
    stats_record,
    table_record,
    unfinished_where,
    users_by_team,
)
from .standings import RATINGS_LOCK, Standings, current_season_on, record_ratings
from .values import (
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
    parse_ts,
    seed_to_db,
    settings_json,
)

__all__ = ["StoreCore"]

#: user_stats sums match_results itself: the source of truth, cheap for one player.
_STATS_COLS = (
    "count(*), coalesce(sum(CAST(won AS INTEGER)), 0), coalesce(sum(score), 0), "
    "coalesce(sum(deals_played), 0), coalesce(sum(deals_won), 0), "
    "coalesce(sum(deals_won_big), 0), coalesce(sum(card_points), 0)"
)
_SETTINGS_COLS = "turn_time, target_vp, language, threads"


class StoreCore(Standings):
    """The :class:`~albastini.store.Store` over a back end's engine (dialect.py's
    :class:`~albastini.store.dialect.Backend`): :class:`~albastini.store.SQLiteStore` and
    :class:`~albastini.store.PostgresStore` are this over theirs."""

    # ---------------------------------------------------------------- a write's first reads

    async def _table_status(self, tx: Tx, table_id: int) -> TableStatus:
        """The table's status, its row locked until the transaction ends where writers run side
        by side: the writes of one table (and its moves, whose trigger locks the same row) go
        one at a time."""
        rows = await tx.fetch(
            f"SELECT status FROM game_tables WHERE id = ?{self.dialect.lock_table}", (table_id,)
        )
        if not rows:
            raise UnknownTable(f"no table {table_id}")
        return cast(TableStatus, rows[0][0])

    async def _require_status(
        self, tx: Tx, table_id: int, allowed: tuple[TableStatus, ...], what: str
    ) -> TableStatus:
        status = await self._table_status(tx, table_id)
        if status not in allowed:
            raise WrongStatus(f"cannot {what}: table {table_id} is {status}")
        return status

    async def _touch(self, tx: Tx, table_id: int) -> None:
        await tx.execute(
            "UPDATE game_tables SET updated_at = ? WHERE id = ?", (self.dialect.now(), table_id)
        )

    @staticmethod
    async def _insert_seat(
        tx: Tx, table_id: int, seat: tuple[int, int | None, str, str | None]
    ) -> None:
        seat_no, user_id, name, level = seat
        if await tx.fetch(
            "SELECT 1 FROM seats WHERE table_id = ? AND seat_no = ?", (table_id, seat_no)
        ):
            raise ConflictError(f"seat {seat_no} of table {table_id} is taken")
        if user_id is not None and await tx.fetch(
            "SELECT 1 FROM seats WHERE table_id = ? AND user_id = ?", (table_id, user_id)
        ):
            raise ConflictError(f"user {user_id} already sits at table {table_id}")
        await tx.execute(
            "INSERT INTO seats (table_id, seat_no, user_id, display_name, computer_level) "
            "VALUES (?, ?, ?, ?, ?)",
            (table_id, seat_no, user_id, name, level),
        )

    # ---------------------------------------------------------------- tables

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
    ) -> TableRecord:
        """Open a lobby in ``channel_id``; :class:`ChannelBusy` if one is already active there.

        ``seats`` are taken in the same transaction (the host's seat, or a rematch's players),
        checked as :meth:`add_seat` checks them: a refused seat leaves no table behind.
        """
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
        now = self.dialect.now()

        async def write(tx: Tx) -> tuple[Any, ...]:
            row = (
                await tx.fetch(
                    "INSERT INTO game_tables (guild_id, channel_id, host_id, game, settings, "
                    "status, language, created_at, updated_at) "
                    f"VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?) RETURNING {TABLE_COLS}",
                    (*params, game, text, lang, now, now),
                )
            )[0]
            for seat in checked:
                await self._insert_seat(tx, int(row[0]), seat)
            return row

        try:
            return table_record(await self._write(write))
        except Exception as exc:
            refused = self.dialect.refusal(exc)
            if refused is None:
                raise
            if refused.kind == "unique" and refused.constraint == self.dialect.channel_taken:
                raise ChannelBusy(
                    f"channel {channel_id} already has a table in the lobby or running"
                ) from None
            raise InvalidValue(f"table refused by the database: {refused.text}") from None

    async def get_table(self, table_id: int) -> TableRecord:
        """The table with this id; :class:`UnknownTable` if there is none."""
        rows = await self._fetch(
            f"SELECT {TABLE_COLS} FROM game_tables WHERE id = ?", (check_id("table_id", table_id),)
        )
        if not rows:
            raise UnknownTable(f"no table {table_id}")
        return table_record(rows[0])

    async def active_table(self, channel_id: int) -> TableRecord | None:
        """The channel's table in the lobby or running, if any."""
        rows = await self._fetch(
            f"SELECT {TABLE_COLS} FROM game_tables "
            "WHERE channel_id = ? AND status IN ('lobby', 'running')",
            (check_id("channel_id", channel_id),),
        )
        return table_record(rows[0]) if rows else None

    async def update_table_settings(
        self, table_id: int, settings: Mapping[str, Any]
    ) -> TableRecord:
        """Replace the mode settings of a table still in the lobby."""
        check_id("table_id", table_id)
        text = settings_json(settings)

        async def write(tx: Tx) -> tuple[Any, ...]:
            await self._require_status(tx, table_id, ("lobby",), "change the settings")
            rows = await tx.fetch(
                "UPDATE game_tables SET settings = ?, updated_at = ? WHERE id = ? "
                f"RETURNING {TABLE_COLS}",
                (text, self.dialect.now(), table_id),
            )
            return rows[0]

        return table_record(await self._write(write))

    async def set_message_id(self, table_id: int, message_id: int | None) -> None:
        """Remember the public message of the table, so it can be edited after a restart."""
        check_id("table_id", table_id)
        check_opt_id("message_id", message_id)

        async def write(tx: Tx) -> None:
            await self._table_status(tx, table_id)
            await tx.execute(
                "UPDATE game_tables SET message_id = ?, updated_at = ? WHERE id = ?",
                (message_id, self.dialect.now(), table_id),
            )

        await self._write(write)

    async def set_thread_id(self, table_id: int, thread_id: int) -> None:
        """Remember the thread a table is played in (with its settings, as ``thread_id``),
        whether it is still in the lobby or already running: the thread is started from the
        lobby's message, which people may use meanwhile."""
        check_id("table_id", table_id)
        check_id("thread_id", thread_id)

        async def write(tx: Tx) -> None:
            await self._require_status(tx, table_id, ("lobby", "running"), "set its thread")
            (row,) = await tx.fetch("SELECT settings FROM game_tables WHERE id = ?",
                                    (table_id,))
            settings = {**json.loads(row[0]), "thread_id": thread_id}
            await tx.execute(
                "UPDATE game_tables SET settings = ?, updated_at = ? WHERE id = ?",
                (settings_json(settings), self.dialect.now(), table_id),
            )

        await self._write(write)

    async def start_table(
        self, table_id: int, dealer_seat: int, seed: int, deck: Sequence[str] | None = None
    ) -> DealRecord:
        """Lobby → running, and record deal 1 (dealer and seed) in the same transaction."""
        check_id("table_id", table_id)
        check_int("dealer_seat", dealer_seat, 0, 15)
        db_seed, deck_text = seed_to_db(seed), deck_to_db(deck)
        now = self.dialect.now()

        async def write(tx: Tx) -> None:
            await self._require_status(tx, table_id, ("lobby",), "start")
            if not await tx.fetch(
                "SELECT 1 FROM seats WHERE table_id = ? AND seat_no = ?", (table_id, dealer_seat)
            ):
                raise UnknownSeat(f"table {table_id} has no seat {dealer_seat} to deal")
            await tx.execute(
                "UPDATE game_tables SET status = 'running', updated_at = ? WHERE id = ?",
                (now, table_id),
            )
            await tx.execute(
                f"INSERT INTO deals ({DEAL_COLS}) VALUES (?, 1, ?, ?, ?, ?)",
                (table_id, dealer_seat, db_seed, deck_text, now),
            )

        await self._write(write)
        return DealRecord(
            table_id, 1, dealer_seat, seed, tuple(deck) if deck else None, parse_ts(now)
        )

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
        guild's current season.

        Every result must belong to a person holding a seat (computers get none); a person who
        left mid-match (their seat handed to the computer) gets no result. With ``teams`` (every
        side's final score and computers) the people are rated too, in the same transaction
        (see standings.py for the order of ratings).
        """
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
        dialect = self.dialect

        async def write(tx: Tx) -> None:
            if status == "finished":
                await tx.lock(RATINGS_LOCK)  # matches are rated in the order they finish
            await self._require_status(tx, table_id, allowed, f"mark as {status}")
            now = dialect.now()
            await tx.execute(
                "UPDATE game_tables SET status = ?, updated_at = ? WHERE id = ?",
                (status, now, table_id),
            )
            if not rows:
                return
            seated = await tx.fetch(
                "SELECT user_id FROM seats WHERE table_id = ? AND user_id IS NOT NULL",
                (table_id,),
            )
            check_seated(table_id, rows, seated)
            table = await tx.fetch(
                "SELECT guild_id, game FROM game_tables WHERE id = ?", (table_id,)
            )
            guild_id, game = int(table[0][0]), str(table[0][1])
            season = await current_season_on(tx, guild_id)
            rated = {}
            if teams:
                users = users_by_team(rows)
                rated = await record_ratings(
                    tx, dialect, table_id, guild_id, game, season, users, teams
                )
            await tx.executemany(
                INSERT_MATCH_RESULTS,
                result_rows(table_id, guild_id, game, season, now, rows, rated),
            )

        await self._write(write)

    async def load_table(self, table_id: int) -> TableSnapshot:
        """The table with its seats, deals (with results) and moves, as one consistent snapshot."""
        check_id("table_id", table_id)
        snaps = await self._snapshots("WHERE id = ?", (table_id,))
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
        """Seat a person (``user_id``) or a computer (``user_id=None`` + level) in the lobby.

        Names are stripped and truncated to 100 characters. :class:`ConflictError` if the seat
        is taken or the person already sits at this table.
        """
        check_id("table_id", table_id)
        seat = check_seat(seat_no, user_id, display_name, computer_level)

        async def write(tx: Tx) -> None:
            await self._require_status(tx, table_id, ("lobby",), "add a seat")
            await self._insert_seat(tx, table_id, seat)
            await self._touch(tx, table_id)

        await self._write(write)
        return SeatRecord(table_id, seat_no, user_id, seat[2], seat[3], False, False, 0)

    async def remove_seat(self, table_id: int, seat_no: int) -> None:
        """Free a seat in the lobby (someone leaves, or the host removes a computer)."""
        check_id("table_id", table_id)
        check_int("seat_no", seat_no, 0, 15)

        async def write(tx: Tx) -> None:
            await self._require_status(tx, table_id, ("lobby",), "remove a seat")
            if (
                await tx.execute(
                    "DELETE FROM seats WHERE table_id = ? AND seat_no = ?", (table_id, seat_no)
                )
                != 1
            ):
                raise UnknownSeat(f"table {table_id} has no seat {seat_no}")
            await self._touch(tx, table_id)

        await self._write(write)

    async def replace_with_computer(
        self, table_id: int, seat_no: int, computer_level: str, display_name: str
    ) -> SeatRecord:
        """A person leaves a running game: the computer takes their seat for good."""
        check_id("table_id", table_id)
        check_int("seat_no", seat_no, 0, 15)
        level, name = check_level(computer_level), check_name(display_name)

        async def write(tx: Tx) -> None:
            await self._require_status(tx, table_id, ("running",), "hand a seat over")
            changed = await tx.execute(
                "UPDATE seats SET user_id = NULL, computer_level = ?, display_name = ?, "
                "away = false, computer_control = false, timeouts = 0 "
                "WHERE table_id = ? AND seat_no = ?",
                (level, name, table_id, seat_no),
            )
            if changed != 1:
                raise UnknownSeat(f"table {table_id} has no seat {seat_no}")
            await self._touch(tx, table_id)

        await self._write(write)
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
        """Set the away / under-computer-control flags or the consecutive timeout count.

        Arguments left as None are unchanged. Allowed while the table is in the lobby or running.
        """
        check_id("table_id", table_id)
        check_int("seat_no", seat_no, 0, 15)
        sets: list[str] = []
        params: list[Any] = []
        if away is not None:
            sets.append("away = ?")
            params.append(check_bool("away", away))
        if computer_control is not None:
            sets.append("computer_control = ?")
            params.append(check_bool("computer_control", computer_control))
        if timeouts is not None:
            sets.append("timeouts = ?")
            params.append(check_int("timeouts", timeouts, 0, 1_000_000))

        async def write(tx: Tx) -> tuple[Any, ...]:
            await self._require_status(tx, table_id, ("lobby", "running"), "update a seat")
            if sets:
                await tx.execute(
                    f"UPDATE seats SET {', '.join(sets)} WHERE table_id = ? AND seat_no = ?",
                    (*params, table_id, seat_no),
                )
            rows = await tx.fetch(
                f"SELECT {SEAT_COLS} FROM seats WHERE table_id = ? AND seat_no = ?",
                (table_id, seat_no),
            )
            if not rows:
                raise UnknownSeat(f"table {table_id} has no seat {seat_no}")
            return rows[0]

        return seat_record(await self._write(write))

    async def seats(self, table_id: int) -> list[SeatRecord]:
        """The table's seats by seat number (empty list for an unknown table)."""
        rows = await self._fetch(
            f"SELECT {SEAT_COLS} FROM seats WHERE table_id = ? ORDER BY seat_no",
            (check_id("table_id", table_id),),
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
        now = self.dialect.now()

        async def write(tx: Tx) -> None:
            await self._require_status(tx, table_id, ("running",), "deal")
            rows = await tx.fetch(LAST_DEAL, (table_id,))
            last = int(rows[0][0]) if rows else 0
            if deal_no <= last:
                raise ConflictError(f"table {table_id} already has deal {deal_no}")
            if deal_no != last + 1:
                raise ConflictError(f"table {table_id}: the next deal is {last + 1}")
            if rows and rows[0][1] is None:
                raise ConflictError(f"deal {last} of table {table_id} has no result yet")
            await tx.execute(
                f"INSERT INTO deals ({DEAL_COLS}) VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, deal_no, dealer_seat, db_seed, deck_text, now),
            )

        try:
            await self._write(write)
        except Exception as exc:
            refused = self.dialect.refusal(exc)
            if refused is None:
                raise
            if refused.kind == "foreign_key":  # the dealer seat does not exist
                raise UnknownSeat(f"table {table_id} has no seat {dealer_seat} to deal") from None
            raise InvalidValue(f"deal refused by the database: {refused.text}") from None
        return DealRecord(
            table_id, deal_no, dealer_seat, seed, tuple(deck) if deck else None, parse_ts(now)
        )

    async def record_deal_result(
        self,
        table_id: int,
        deal_no: int,
        card_points: Sequence[int],
        winner_team: int | None,
        game_points: Sequence[int],
    ) -> DealResultRecord:
        """Store a finished deal: card points per team (as the rules scored them: below 0 where
        a game's cards are worth less than nothing), the winning team (None when no single team
        won) and the game points it scored for every team."""
        check_id("table_id", table_id)
        check_int("deal_no", deal_no, 1, 1_000_000)
        points, scored = check_deal_result(card_points, winner_team, game_points)
        now = self.dialect.now()

        async def write(tx: Tx) -> None:
            await self._require_status(tx, table_id, ("running",), "score a deal")
            if not await tx.fetch(
                "SELECT 1 FROM deals WHERE table_id = ? AND deal_no = ?", (table_id, deal_no)
            ):
                raise ConflictError(f"table {table_id} has no deal {deal_no}")
            if await tx.fetch(
                "SELECT 1 FROM deal_results WHERE table_id = ? AND deal_no = ?",
                (table_id, deal_no),
            ):
                raise ConflictError(f"deal {deal_no} of table {table_id} is already scored")
            await tx.execute(
                f"INSERT INTO deal_results ({RESULT_COLS}) VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, deal_no, json.dumps(points), winner_team, json.dumps(scored), now),
            )

        await self._write(write)
        return DealResultRecord(table_id, deal_no, points, winner_team, scored, parse_ts(now))

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

        ``move_no`` must be the last move number + 1 (1 for the first move): a number already
        used raises :class:`StaleMove` (of two appends of the same number, exactly one is
        stored), one further ahead :class:`MoveGap`. The table must be running and ``deal_no``
        its current, unscored deal. A computer's move has ``user_id=None`` and
        ``by_computer=True``. On any error nothing is written; the schema's trigger checks the
        order too.

        Moves arriving while a commit is in flight are committed together (group commit, see
        each engine), each caller answered once its own is committed. If the caller is
        cancelled after the move was handed to a commit, it may still be stored; reload the
        log to know.
        """
        now = self.dialect.now()
        params = (
            *check_move(table_id, move_no, deal_no, seat_no, action, user_id, by_computer),
            now,
        )
        await self._commit_move(params)
        return MoveRecord(
            table_id, move_no, deal_no, seat_no, user_id, action, by_computer, parse_ts(now)
        )

    async def moves(self, table_id: int, after: int = 0) -> list[MoveRecord]:
        """The table's moves with number > ``after``, in order."""
        rows = await self._fetch(
            f"SELECT {MOVE_COLS} FROM moves WHERE table_id = ? AND move_no > ? ORDER BY move_no",
            (check_id("table_id", table_id), check_int("after", after, 0, INT64_MAX)),
        )
        return [move_record(r) for r in rows]

    # ---------------------------------------------------------------- settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, or the defaults (60 s, 5 VP, English, no threads) if never
        set."""
        rows = await self._fetch(
            f"SELECT {_SETTINGS_COLS} FROM guild_settings WHERE guild_id = ?",
            (check_id("guild_id", guild_id),),
        )
        if not rows:
            return GuildSettings(guild_id)
        return GuildSettings(guild_id, rows[0][0], rows[0][1], rows[0][2], bool(rows[0][3]))

    async def set_guild_settings(
        self,
        guild_id: int,
        *,
        turn_time: int | None = None,
        target_vp: int | None = None,
        language: str | None = None,
        threads: bool | None = None,
    ) -> GuildSettings:
        """Change some of a guild's settings (None = keep); returns the settings now in force.

        Turn time 15-600 s, target 1-21 VP, language 'en', 'sw', 'ml' or 'ru', threads True or
        False; others raise :class:`InvalidValue` and change nothing.
        """
        check_id("guild_id", guild_id)
        if turn_time is not None:
            check_int("turn time (seconds)", turn_time, *TURN_TIME_RANGE)
        if target_vp is not None:
            check_int("target VP", target_vp, *TARGET_VP_RANGE)
        if language is not None:
            check_language(language)
        if threads is not None and not isinstance(threads, bool):
            raise InvalidValue(f"threads must be True or False, not {threads!r}")
        dialect = self.dialect

        async def write(tx: Tx) -> GuildSettings:
            # the defaults first, so that the row exists to be locked: two changes of the same
            # guild at once then apply one after the other
            default = GuildSettings(guild_id)
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, turn_time, target_vp, language, "
                "updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, default.turn_time, default.target_vp, default.language, dialect.now()),
            )
            row = (
                await tx.fetch(
                    f"SELECT {_SETTINGS_COLS} FROM guild_settings "
                    f"WHERE guild_id = ?{dialect.lock_row}",
                    (guild_id,),
                )
            )[0]
            new = GuildSettings(
                guild_id,
                row[0] if turn_time is None else turn_time,
                row[1] if target_vp is None else target_vp,
                row[2] if language is None else check_language(language),
                bool(row[3]) if threads is None else threads,
            )
            await tx.execute(
                "UPDATE guild_settings SET turn_time = ?, target_vp = ?, language = ?, "
                "threads = ?, language_chosen = language_chosen OR ?, updated_at = ? "
                "WHERE guild_id = ?",
                (
                    new.turn_time,
                    new.target_vp,
                    new.language,
                    new.threads,
                    language is not None,
                    dialect.now(),
                    guild_id,
                ),
            )
            return new

        return await self._write(write)

    async def guild_language_chosen(self, guild_id: int) -> bool:
        """Whether the guild ever set its language (False: the bot's default applies)."""
        rows = await self._fetch(
            "SELECT language_chosen FROM guild_settings WHERE guild_id = ?",
            (check_id("guild_id", guild_id),),
        )
        return bool(rows and rows[0][0])

    async def user_language(self, user_id: int) -> Language | None:
        """The user's preferred language, or None to follow the guild's."""
        rows = await self._fetch(
            "SELECT language FROM user_preferences WHERE user_id = ?",
            (check_id("user_id", user_id),),
        )
        return cast(Language | None, rows[0][0]) if rows else None

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        """Set ('en', 'sw', 'ml' or 'ru') or clear (None) the user's preferred language."""
        check_id("user_id", user_id)
        lang = None if language is None else check_language(language)
        await self._execute(
            "INSERT INTO user_preferences (user_id, language, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET "
            "language = excluded.language, updated_at = excluded.updated_at",
            (user_id, lang, self.dialect.now()),
        )

    # ---------------------------------------------------------------- statistics

    async def leaderboard(
        self,
        guild_id: int,
        limit: int = 10,
        offset: int = 0,
        *,
        game: str,
        season: int | None = None,
    ) -> LeaderboardPage:
        """A page of the guild's players ranked by matches won, then score, then user id, in
        ``season`` (None: the guild's current season; 0: all time).

        Reads ``player_totals``, the per-player sums of ``match_results`` that a trigger keeps
        in the same transaction as each result; ``rank`` starts at offset + 1.
        """
        check_id("guild_id", guild_id)
        check_int("limit", limit, 1, 100)
        check_int("offset", offset, 0, 10_000_000)
        season = await self._season(guild_id, season)
        rows = await self._snapshot(leaderboard_queries(guild_id, game, season, limit, offset))
        return leaderboard_page(rows, offset, limit)

    async def user_stats(
        self, guild_id: int, user_id: int, *, game: str
    ) -> PlayerStats:
        """A player's totals in the guild (zeros if they never finished a match there)."""
        check_id("guild_id", guild_id)
        check_id("user_id", user_id)
        rows = await self._fetch(
            f"SELECT {_STATS_COLS} FROM match_results "
            "WHERE guild_id = ? AND game = ? AND user_id = ?",
            (guild_id, game, user_id),
        )
        r = rows[0]
        if r[0] == 0:
            return PlayerStats(user_id, 0, 0, 0, 0, 0, 0, 0)
        return stats_record((user_id, *r))
