"""The persistence layer against real databases, never a mock: tables and seats, the move log,
settings, results and the leaderboard.

Every test taking ``store`` runs on both back ends (``[sqlite]``: a file under tmp_path;
``[postgres]``: a fresh database on the session's PostgreSQL server), which must agree on
every record and error. SQLite-only here: ``test_a_chosen_english_is_told_apart_from_never_chosen``
(its restart reopens the SQLite file; the PostgreSQL reopen is in test_postgres.py)."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

from albastini.store import (
    ChannelBusy,
    ConflictError,
    InvalidValue,
    MoveGap,
    PlayerResult,
    PlayerStats,
    SQLiteStore,
    StaleMove,
    Store,
    StoreError,
    UnknownSeat,
    UnknownTable,
    WrongStatus,
)
from tests.doubles import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    ERIN,
    GUILD,
    HOST,
    MODE,
    running_table,
)

# ---------------------------------------------------------------- tables and seats


async def test_table_life_cycle_lobby_running_finished(store: Store) -> None:
    table = await store.create_table(GUILD, CHANNEL, HOST, MODE, language="sw", game="albastini")
    assert (table.status, table.game, table.language, table.message_id) == (
        "lobby",
        "albastini",
        "sw",
        None,
    )
    assert table.settings == MODE
    await store.set_message_id(table.id, 555)
    table = await store.update_table_settings(table.id, {**MODE, "target_vp": 7})
    assert table.settings["target_vp"] == 7 and table.message_id == 555

    await store.add_seat(table.id, 0, ALICE, "Alice")
    await store.add_seat(table.id, 1, BOB, "Bob")
    await store.add_seat(table.id, 2, CAROL, "Carol")
    await store.remove_seat(table.id, 2)  # Carol leaves the lobby
    await store.add_seat(table.id, 2, None, "Computer", "easy")
    await store.add_seat(table.id, 3, DAVE, "Dave")
    deal1 = await store.start_table(table.id, 3, 2**64 - 1, ["7H", "AS", "3C"])
    assert (deal1.deal_no, deal1.dealer_seat, deal1.seed) == (1, 3, 2**64 - 1)
    assert (await store.get_table(table.id)).status == "running"
    with pytest.raises(WrongStatus):
        await store.add_seat(table.id, 4, ERIN, "Erin")
    with pytest.raises(WrongStatus):
        await store.update_table_settings(table.id, MODE)

    await store.append_move(table.id, 1, 1, 0, "bid:4C", user_id=ALICE, by_computer=False)
    await store.append_move(table.id, 2, 1, 2, "pass", user_id=None, by_computer=True)
    with pytest.raises(ConflictError, match="no result"):
        await store.begin_deal(table.id, 2, 0, 7)
    await store.record_deal_result(table.id, 1, [70, 50], 0, [1, 0])
    with pytest.raises(ConflictError, match="finished"):
        await store.append_move(table.id, 3, 1, 0, "pass", user_id=ALICE, by_computer=False)
    await store.begin_deal(table.id, 2, 0, 7)
    await store.append_move(table.id, 3, 2, 1, "pass", user_id=BOB, by_computer=False)
    await store.record_deal_result(table.id, 2, [60, 60], None, [0, 0])

    await store.finish_table(
        table.id,
        [
            PlayerResult(ALICE, 0, 1, True, 2, 1, 0, 130),
            PlayerResult(BOB, 1, 0, False, 2, 0, 0, 110),
            PlayerResult(DAVE, 1, 0, False, 2, 0, 0, 110),
        ],
    )
    done = await store.load_table(table.id)
    assert done.table.status == "finished"
    assert done.table.message_id == 555
    assert [d.result.winner_team if d.result else "-" for d in done.deals] == [0, None]
    assert done.deals[0].deck == ("7H", "AS", "3C") and done.deals[1].deck is None
    assert await store.active_table(CHANNEL) is None
    assert await store.unfinished_tables() == []
    with pytest.raises(WrongStatus):
        await store.cancel_table(table.id)
    with pytest.raises(WrongStatus):
        await store.append_move(table.id, 4, 2, 0, "pass", user_id=ALICE, by_computer=False)
    assert (await store.user_stats(GUILD, ALICE, game="albastini")).matches_won == 1


async def test_one_active_table_per_channel(store: Store) -> None:
    first = await store.create_table(GUILD, CHANNEL, HOST, MODE, game="albastini")
    with pytest.raises(ChannelBusy, match=str(CHANNEL)):
        await store.create_table(GUILD, CHANNEL, ALICE, MODE, game="albastini")
    other = await store.create_table(GUILD, CHANNEL + 1, ALICE, MODE, game="albastini")
    assert (await store.active_table(CHANNEL)) == await store.get_table(first.id)
    await store.cancel_table(first.id)
    again = await store.create_table(GUILD, CHANNEL, HOST, MODE, game="albastini")
    assert again.id not in (first.id, other.id)
    assert (await store.active_table(CHANNEL)) == again


async def test_seats_join_leave_computer_takeover_and_flags(store: Store) -> None:
    table = await store.create_table(GUILD, CHANNEL, HOST, MODE, game="albastini")
    seat = await store.add_seat(table.id, 0, ALICE, "  " + "A" * 150 + "  ")
    assert seat.display_name == "A" * 100  # names are stripped and truncated, not refused
    with pytest.raises(ConflictError, match="taken"):
        await store.add_seat(table.id, 0, BOB, "Bob")
    with pytest.raises(ConflictError, match="already sits"):
        await store.add_seat(table.id, 1, ALICE, "Alice again")
    for bad in ("", "   ", None, 7):
        with pytest.raises(InvalidValue):
            await store.add_seat(table.id, 1, BOB, bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidValue):
        await store.add_seat(table.id, 1, None, "Computer")  # a computer needs a level
    with pytest.raises(InvalidValue):
        await store.add_seat(table.id, 1, BOB, "Bob", "easy")  # a person has none
    with pytest.raises(InvalidValue):
        await store.add_seat(table.id, 16, BOB, "Bob")
    with pytest.raises(UnknownSeat):
        await store.remove_seat(table.id, 3)
    with pytest.raises(UnknownTable):
        await store.add_seat(999, 1, BOB, "Bob")
    await store.add_seat(table.id, 1, BOB, "Bob")
    await store.add_seat(table.id, 2, None, "Computer", "hard")
    await store.start_table(table.id, 0, 1)
    with pytest.raises(WrongStatus):
        await store.remove_seat(table.id, 1)

    away = await store.update_seat(table.id, 1, away=True, computer_control=True, timeouts=2)
    assert (away.away, away.computer_control, away.timeouts, away.user_id) == (True, True, 2, BOB)
    back = await store.update_seat(table.id, 1, away=False, computer_control=False, timeouts=0)
    assert (back.away, back.computer_control, back.timeouts) == (False, False, 0)
    gone = await store.replace_with_computer(table.id, 0, "easy", "Computer (Alice)")
    assert gone.is_computer and gone.computer_level == "easy"
    seats = await store.seats(table.id)
    assert [(s.seat_no, s.user_id, s.computer_level) for s in seats] == [
        (0, None, "easy"),
        (1, BOB, None),
        (2, None, "hard"),
    ]
    with pytest.raises(UnknownSeat):
        await store.update_seat(table.id, 9, away=True)
    with pytest.raises(InvalidValue):
        await store.update_seat(table.id, 1, away=1)  # type: ignore[arg-type]


# ---------------------------------------------------------------- the move log


async def test_moves_append_in_order_and_refusals_change_nothing(store: Store) -> None:
    table_id = await running_table(store)
    await store.append_move(table_id, 1, 1, 1, "bid:4C", user_id=BOB, by_computer=False)
    await store.append_move(table_id, 2, 1, 2, "pass", user_id=None, by_computer=True)
    before = await store.moves(table_id)

    refusals: list[tuple[type[StoreError], dict[str, object]]] = [
        (StaleMove, {"move_no": 2}),
        (StaleMove, {"move_no": 1}),
        (MoveGap, {"move_no": 4}),
        (InvalidValue, {"move_no": 0}),
        (InvalidValue, {"move_no": "3"}),
        (InvalidValue, {"move_no": True}),
        (InvalidValue, {"action": "build:" + "7" * 59}),  # 65 characters
        (InvalidValue, {"action": ""}),
        (InvalidValue, {"action": "play 7H"}),
        (InvalidValue, {"action": "drop table;"}),
        (InvalidValue, {"action": b"pass"}),
        (InvalidValue, {"seat_no": -1}),
        (InvalidValue, {"user_id": None}),  # a person's move must name the person
        (InvalidValue, {"by_computer": "no"}),
        (UnknownTable, {"table_id": 999_999}),
        (InvalidValue, {"table_id": -5}),
        (UnknownSeat, {"seat_no": 7}),
        (ConflictError, {"deal_no": 2}),
    ]
    for error, change in refusals:
        args: dict[str, object] = {
            "table_id": table_id,
            "move_no": 3,
            "deal_no": 1,
            "seat_no": 3,
            "action": "pass",
            "user_id": DAVE,
            "by_computer": False,
        } | change
        with pytest.raises(error):
            await store.append_move(**args)  # type: ignore[arg-type]
    assert await store.moves(table_id) == before
    ok = await store.append_move(table_id, 3, 1, 3, "play:AS", user_id=None, by_computer=True)
    assert ok.move_no == 3 and len(await store.moves(table_id)) == 3
    assert [m.move_no for m in await store.moves(table_id, after=1)] == [2, 3]
    longest = "build:7C:10:" + "AC3S4H5C" * 6 + "AC3S"  # 64 characters (a Cassino build)
    await store.append_move(table_id, 4, 1, 0, longest, user_id=None, by_computer=True)
    assert (await store.moves(table_id, after=3))[0].action == longest


async def test_lobby_table_takes_no_moves(store: Store) -> None:
    table = await store.create_table(GUILD, CHANNEL, HOST, MODE, game="albastini")
    await store.add_seat(table.id, 0, ALICE, "Alice")
    with pytest.raises(WrongStatus):
        await store.append_move(table.id, 1, 1, 0, "pass", user_id=ALICE, by_computer=False)


async def test_concurrent_moves_same_number_one_wins(store: Store) -> None:
    table_id = await running_table(store)
    outcomes = await asyncio.gather(
        *(
            store.append_move(table_id, 1, 1, seat, f"play:{seat}H", user_id=None, by_computer=True)
            for seat in (2, 3, 2, 3)
        ),
        return_exceptions=True,
    )
    assert sum(not isinstance(o, BaseException) for o in outcomes) == 1
    assert sum(isinstance(o, StaleMove) for o in outcomes) == 3
    # the one that won is stored, whichever it was (a pool of connections does not promise
    # the order the appends were started in)
    won = next(o for o in outcomes if not isinstance(o, BaseException))
    assert [m.action for m in await store.moves(table_id)] == [won.action]


async def test_concurrent_tables_group_commit_isolates_bad_moves(store: Store) -> None:
    tables = [await running_table(store, CHANNEL + i) for i in range(8)]

    async def play(table_id: int, n: int) -> None:
        for move in range(1, n + 1):
            await store.append_move(table_id, move, 1, 2, "pass", user_id=None, by_computer=True)

    async def forge(table_id: int) -> BaseException | None:
        try:
            await store.append_move(table_id, 50, 1, 2, "pass", user_id=None, by_computer=True)
        except MoveGap as exc:
            return exc
        return None

    results = await asyncio.gather(
        *(play(t, 30) for t in tables), *(forge(t) for t in tables), return_exceptions=True
    )
    assert results[:8] == [None] * 8
    assert all(isinstance(r, MoveGap) for r in results[8:])
    for t in tables:
        assert [m.move_no for m in await store.moves(t)] == list(range(1, 31))


async def test_other_writes_are_not_starved_by_a_stream_of_moves(store: Store) -> None:
    tables = [await running_table(store, CHANNEL + i) for i in range(6)]
    stop = asyncio.Event()

    async def stream(table_id: int) -> None:
        move = 0
        while not stop.is_set():
            move += 1
            await store.append_move(table_id, move, 1, 2, "pass", user_id=None, by_computer=True)

    streams = [asyncio.create_task(stream(t)) for t in tables]
    try:
        await asyncio.sleep(0.05)
        for i in range(5):
            await asyncio.wait_for(store.set_guild_settings(GUILD, target_vp=i + 1), timeout=5)
        assert (await store.guild_settings(GUILD)).target_vp == 5
    finally:
        stop.set()
        await asyncio.gather(*streams)


async def test_unfinished_tables_returns_everything_needed_to_replay(store: Store) -> None:
    lobby = await store.create_table(GUILD, 1, HOST, {"players": 2}, game="albastini")
    await store.add_seat(lobby.id, 0, ALICE, "Alice")
    running = await running_table(store, 2)
    await store.append_move(running, 1, 1, 1, "bid:4C", user_id=BOB, by_computer=False)
    await store.append_move(running, 2, 1, 2, "pass", user_id=None, by_computer=True)
    await store.record_deal_result(running, 1, [64, 56], 0, [1, 0])
    await store.begin_deal(running, 2, 2, 12345, ["7H"] * 36)
    await store.append_move(running, 3, 2, 3, "pass", user_id=None, by_computer=True)
    cancelled = await running_table(store, 3)
    await store.cancel_table(cancelled)
    finished = await running_table(store, 4)
    await store.finish_table(finished, [])

    snaps = await store.unfinished_tables()
    assert [s.table.id for s in snaps] == [lobby.id, running]
    lobby_snap, run = snaps
    assert lobby_snap.table.status == "lobby"
    assert [(s.seat_no, s.user_id) for s in lobby_snap.seats] == [(0, ALICE)]
    assert lobby_snap.deals == () and lobby_snap.moves == () and lobby_snap.last_move_no == 0
    assert run.table.settings == MODE
    assert [s.user_id for s in run.seats] == [ALICE, BOB, None, None]
    assert [(d.deal_no, d.dealer_seat, d.seed) for d in run.deals] == [(1, 0, 42), (2, 2, 12345)]
    assert run.deals[0].result is not None and run.deals[0].result.card_points == (64, 56)
    assert run.deals[1].result is None and run.deals[1].deck == ("7H",) * 36
    assert [(m.move_no, m.deal_no, m.seat_no, m.action, m.by_computer) for m in run.moves] == [
        (1, 1, 1, "bid:4C", False),
        (2, 1, 2, "pass", True),
        (3, 2, 3, "pass", True),
    ]
    assert run.last_move_no == 3 and run.moves[0].user_id == BOB


async def test_deal_and_result_validation(store: Store) -> None:
    table_id = await running_table(store)
    for bad in (
        {"card_points": [70, -1001]},
        {"card_points": "70"},
        {"winner_team": 2},
        {"winner_team": -1},
        {"game_points": [2]},
        {"game_points": [2, 0, 0]},
        {"game_points": 2},
        {"game_points": [2, "0"]},
        {"game_points": [2, -1001]},
    ):
        args: dict[str, object] = {
            "card_points": [70, 50],
            "winner_team": 0,
            "game_points": [2, 0],
        } | bad
        with pytest.raises(InvalidValue):
            await store.record_deal_result(table_id, 1, **args)  # type: ignore[arg-type]
    with pytest.raises(ConflictError):
        await store.record_deal_result(table_id, 2, [70, 50], 0, [1, 0])
    await store.record_deal_result(table_id, 1, [70, 50], 0, [1, 0])
    with pytest.raises(ConflictError, match="already scored"):
        await store.record_deal_result(table_id, 1, [70, 50], 0, [1, 0])
    with pytest.raises(ConflictError):
        await store.begin_deal(table_id, 3, 0, 1)  # gap
    with pytest.raises(UnknownSeat):
        await store.begin_deal(table_id, 2, 9, 1)
    for seed in (-1, 2**64, 1.5, "7"):
        with pytest.raises(InvalidValue):
            await store.begin_deal(table_id, 2, 0, seed)  # type: ignore[arg-type]
    with pytest.raises(InvalidValue):
        await store.begin_deal(table_id, 2, 0, 1, ["7H", "not a card"])
    assert len((await store.load_table(table_id)).deals) == 1


async def test_bad_table_input_is_refused(store: Store) -> None:
    for kwargs in (
        {"settings": {"x": float("nan")}},
        {"settings": {"x": object()}},
        {"settings": {1: 2}},
        {"settings": {"x": "y" * 5000}},
        {"settings": [1, 2]},
        {"language": "fr"},
        {"game": "Albastini!"},
        {"guild_id": "1001"},
        {"host_id": 0},
        {"channel_id": 2**63},
    ):
        args: dict[str, object] = {
            "guild_id": GUILD,
            "channel_id": CHANNEL,
            "host_id": HOST,
            "settings": MODE,
            "game": "albastini",
        } | kwargs
        with pytest.raises(InvalidValue):
            await store.create_table(**args)  # type: ignore[arg-type]
    assert await store.unfinished_tables() == []
    with pytest.raises(UnknownTable):
        await store.get_table(12345)
    with pytest.raises(UnknownTable):
        await store.set_message_id(12345, 1)
    with pytest.raises(UnknownTable):
        await store.load_table(12345)


# ---------------------------------------------------------------- settings


async def test_threads_a_servers_setting_and_a_tables_thread(store: Store) -> None:
    """A server's tables may be played in threads (off until it says so); a table remembers
    its thread while in the lobby or running (its lobby may start before the thread is made),
    and a closed table refuses one."""
    assert (await store.guild_settings(GUILD)).threads is False
    s = await store.set_guild_settings(GUILD, threads=True, turn_time=90)
    assert s.threads and await store.guild_settings(GUILD) == s
    assert (await store.set_guild_settings(GUILD, language="sw")).threads  # kept
    with pytest.raises(InvalidValue):
        await store.set_guild_settings(GUILD, threads=1)  # type: ignore[arg-type]
    table_id = await running_table(store)
    await store.set_thread_id(table_id, 12345)
    snap = await store.load_table(table_id)
    assert snap.table.settings["thread_id"] == 12345 and snap.table.settings["players"] == 4
    await store.cancel_table(table_id)
    with pytest.raises(WrongStatus):
        await store.set_thread_id(table_id, 67890)


async def test_guild_settings_defaults_updates_and_validation(store: Store) -> None:
    defaults = await store.guild_settings(GUILD)
    assert (defaults.turn_time, defaults.target_vp, defaults.language) == (60, 5, "en")
    s = await store.set_guild_settings(GUILD, turn_time=90)
    assert (s.turn_time, s.target_vp, s.language) == (90, 5, "en")
    s = await store.set_guild_settings(GUILD, target_vp=21, language="sw")
    assert await store.guild_settings(GUILD) == s
    assert (s.turn_time, s.target_vp, s.language) == (90, 21, "sw")
    await store.set_guild_settings(GUILD, turn_time=15)
    await store.set_guild_settings(GUILD, turn_time=600, target_vp=1)
    for bad in (
        {"turn_time": 14},
        {"turn_time": 601},
        {"turn_time": 60.0},
        {"turn_time": True},
        {"target_vp": 0},
        {"target_vp": 22},
        {"language": "fr"},
        {"language": "EN"},
        {"turn_time": 60, "language": "de"},  # one bad value: nothing changes
    ):
        with pytest.raises(InvalidValue):
            await store.set_guild_settings(GUILD, **bad)
    final = await store.guild_settings(GUILD)
    assert (final.turn_time, final.target_vp, final.language) == (600, 1, "sw")
    # Twenty-Eight's and Ass's home languages are stored like the first two, by both back ends.
    for lang in ("ml", "ru"):
        assert (await store.set_guild_settings(GUILD, language=lang)).language == lang
        await store.set_user_language(ALICE, lang)
        assert await store.user_language(ALICE) == lang
        table = await store.create_table(GUILD, CHANNEL, HOST, MODE, language=lang, game="ass")
        assert table.language == lang
        await store.cancel_table(table.id)
    assert (await store.guild_settings(GUILD + 1)).turn_time == 60  # other guilds: defaults


async def test_a_chosen_english_is_told_apart_from_never_chosen(tmp_path: Path) -> None:
    """With the bot's default set to Kiswahili, a server that picked English must keep it after
    a restart, while a server that only changed its turn time follows the bot's default."""
    from cogs.ui.lang import Languages

    path = tmp_path / "albastini.db"
    store = await SQLiteStore.open(path)
    await store.set_guild_settings(GUILD, turn_time=90)
    await store.set_guild_settings(GUILD + 1, language="en")
    await store.set_guild_settings(GUILD + 1, turn_time=30)  # a later change keeps the choice
    assert not await store.guild_language_chosen(GUILD)
    assert await store.guild_language_chosen(GUILD + 1)
    assert not await store.guild_language_chosen(GUILD + 2)
    await store.close()

    store = await SQLiteStore.open(path)  # a restart: nothing cached
    try:
        languages = Languages(store, default="sw")
        assert await languages.guild(GUILD) == "sw"
        assert await languages.guild(GUILD + 1) == "en"
        assert await languages.guild(GUILD + 2) == "sw"
    finally:
        await store.close()


async def test_user_language_preference(store: Store) -> None:
    assert await store.user_language(ALICE) is None
    await store.set_user_language(ALICE, "sw")
    assert await store.user_language(ALICE) == "sw"
    with pytest.raises(InvalidValue):
        await store.set_user_language(ALICE, "fr")
    assert await store.user_language(ALICE) == "sw"
    await store.set_user_language(ALICE, None)
    assert await store.user_language(ALICE) is None


# ---------------------------------------------------------------- leaderboard


async def finished_match(
    store: Store, channel: int, results: list[PlayerResult], guild: int = GUILD
) -> None:
    table = await store.create_table(guild, channel, HOST, MODE, game="albastini")
    for seat, r in enumerate(results):
        await store.add_seat(table.id, seat, r.user_id, f"u{r.user_id}")
    await store.start_table(table.id, 0, channel)
    await store.finish_table(table.id, results)


async def test_leaderboard_figures_paging_and_user_stats(store: Store) -> None:
    # Match 1: Alice+Carol beat Bob+Dave 5-3 over 6 deals.
    await finished_match(
        store,
        1,
        [
            PlayerResult(ALICE, 0, 5, True, 6, 4, 1, 400),
            PlayerResult(BOB, 1, 3, False, 6, 2, 1, 320),
            PlayerResult(CAROL, 0, 5, True, 6, 4, 1, 400),
            PlayerResult(DAVE, 1, 3, False, 6, 2, 1, 320),
        ],
    )
    # Match 2: Bob beats Alice 5-4 over 8 deals (heads-up).
    await finished_match(
        store,
        2,
        [
            PlayerResult(ALICE, 0, 4, False, 8, 3, 1, 470),
            PlayerResult(BOB, 1, 5, True, 8, 4, 1, 490),
        ],
    )
    # Match 3: Erin beats Dave 5-0 over 3 deals.
    await finished_match(
        store,
        3,
        [
            PlayerResult(ERIN, 0, 5, True, 3, 3, 2, 300),
            PlayerResult(DAVE, 1, 0, False, 3, 0, 0, 60),
        ],
    )
    # Another guild's results never show up here.
    await finished_match(store, 4, [PlayerResult(DAVE, 0, 9, True, 9, 9, 9, 999)], guild=7)

    page = await store.leaderboard(GUILD, game="albastini")
    assert page.total == 5
    rows = [(e.rank, e.user_id, e.matches_played, e.matches_won, e.score) for e in page.entries]
    # Ranked by wins, then VP, then user id: Alice 1 win 9 VP; Bob 1 win 8 VP; Carol 1 win 5 VP,
    # Erin 1 win 5 VP (Carol's id is lower); Dave no win.
    assert rows == [
        (1, ALICE, 2, 1, 9),
        (2, BOB, 2, 1, 8),
        (3, CAROL, 1, 1, 5),
        (4, ERIN, 1, 1, 5),
        (5, DAVE, 2, 0, 3),
    ]
    alice = page.entries[0]
    assert (alice.deals_played, alice.deals_won, alice.deals_won_big, alice.card_points) == (
        14,
        7,
        2,
        870,
    )
    assert alice.avg_card_points_per_deal == pytest.approx(870 / 14)

    second = await store.leaderboard(GUILD, limit=2, offset=2, game="albastini")
    assert [(e.rank, e.user_id) for e in second.entries] == [(3, CAROL), (4, ERIN)]
    assert second.total == 5
    last = await store.leaderboard(GUILD, limit=2, offset=4, game="albastini")
    assert [(e.rank, e.user_id) for e in last.entries] == [(5, DAVE)]
    assert (await store.leaderboard(GUILD, limit=2, offset=6, game="albastini")).entries == ()
    with pytest.raises(InvalidValue):
        await store.leaderboard(GUILD, limit=0, game="albastini")

    dave = await store.user_stats(GUILD, DAVE, game="albastini")
    assert dave == PlayerStats(DAVE, 2, 0, 3, 9, 2, 1, 380)
    assert dave.avg_card_points_per_deal == pytest.approx(380 / 9)
    nobody = await store.user_stats(GUILD, 999, game="albastini")
    assert nobody == PlayerStats(999, 0, 0, 0, 0, 0, 0, 0)
    assert nobody.avg_card_points_per_deal is None
    # The leaderboard's totals agree with a direct sum over the results.
    for entry in page.entries:
        direct = await store.user_stats(GUILD, entry.user_id, game="albastini")
        assert direct == dataclasses.replace(entry, rank=None)


async def test_card_points_below_zero_are_stored_as_the_rules_say(store: Store) -> None:
    """Ass's sixes are worth -1, so a player can end a deal below 0 card points. The deal keeps
    the rules' numbers and the player's average per deal reads right: 41, 81, 78 and -1 over
    four deals is 49.75 (storing the -1 as 0 showed 50.0)."""
    table = await store.create_table(GUILD, CHANNEL, HOST, MODE, game="ass")
    for seat, user in enumerate((ALICE, BOB, CAROL)):
        await store.add_seat(table.id, seat, user, f"u{user}")
    await store.start_table(table.id, 0, 1)
    alice = (41, 81, 78, -1)
    for deal_no, mine in enumerate(alice, 1):
        if deal_no > 1:
            await store.begin_deal(table.id, deal_no, 0, deal_no)
        points = (mine, 60, 98 - mine)
        result = await store.record_deal_result(table.id, deal_no, points, None, (0, 0, 0))
        assert result.card_points == points
    stored = (await store.load_table(table.id)).deals
    assert [d.result.card_points[0] for d in stored if d.result] == list(alice)
    await store.finish_table(
        table.id,
        [
            PlayerResult(ALICE, 0, -2, False, 4, 0, 0, sum(alice)),
            PlayerResult(BOB, 1, -3, False, 4, 0, 0, 240),
            PlayerResult(CAROL, 2, 0, True, 4, 0, 0, 4 * 98 - sum(alice)),
        ],
    )
    stats = await store.user_stats(GUILD, ALICE, game="ass")
    assert stats.card_points == 199 and stats.avg_card_points_per_deal == 49.75
    page = await store.leaderboard(GUILD, game="ass")
    assert [(e.user_id, e.card_points) for e in page.entries if e.user_id == ALICE] == [
        (ALICE, 199)
    ]
    # a whole match below zero is the rules' too (a player who ate only sixes)
    other = await store.create_table(GUILD, CHANNEL + 1, HOST, MODE, game="ass")
    await store.add_seat(other.id, 0, DAVE, "Dave")
    await store.start_table(other.id, 0, 2)
    await store.finish_table(other.id, [PlayerResult(DAVE, 0, -6, False, 2, 0, 0, -3)])
    dave = await store.user_stats(GUILD, DAVE, game="ass")
    assert (dave.card_points, dave.avg_card_points_per_deal) == (-3, -1.5)


async def test_results_validation_writes_nothing(store: Store) -> None:
    table_id = await running_table(store)
    for bad in (
        [PlayerResult(ALICE, 0, 5, True, 3, 4, 0, 10)],  # more deals won than played
        [PlayerResult(ALICE, 0, 5, True, 3, 2, 3, 10)],  # more big wins than wins
        [PlayerResult(ALICE, 0, -100_001, True, 3, 2, 0, 10)],
        [PlayerResult(ALICE, 0, 5, True, 3, 2, 0, -1_000_001)],
        [PlayerResult(ALICE, 0, 5, 1, 3, 2, 0, 10)],  # type: ignore[arg-type]
        [PlayerResult(ALICE, 0, 5, True, 3, 2, 0, 10)] * 2,
        [(ALICE, 0, 5, True, 3, 2, 0, 10)],
    ):
        with pytest.raises(InvalidValue):
            await store.finish_table(table_id, bad)  # type: ignore[arg-type]
    with pytest.raises(ConflictError, match=str(ERIN)):  # Erin holds no seat there
        await store.finish_table(table_id, [PlayerResult(ERIN, 0, 5, True, 3, 2, 0, 10)])
    assert (await store.get_table(table_id)).status == "running"
    assert (await store.leaderboard(GUILD, game="albastini")).total == 0


async def test_unfinished_tables_of_some_shards_are_those_of_their_servers(store: Store) -> None:
    """A cluster restores only the tables of the servers of its shards (a server's shard is
    (guild id >> 22) % shard count, as Discord routes it)."""
    from albastini.shards import Shards

    tables = {}
    for n, guild in enumerate((0 << 22, 1 << 22, 2 << 22, (3 << 22) + 5), start=1):
        tables[guild] = (await store.create_table(guild or GUILD, 100 + n, HOST, {},
                                                  game="albastini")).id
    shard_of_table = {t: (g >> 22) % 4 for g, t in tables.items()}
    for ids in ((0,), (1, 3), (0, 1, 2, 3)):
        snaps = await store.unfinished_tables(Shards(ids, 4))
        want = [t for t, s in sorted(shard_of_table.items()) if s in ids]
        assert [s.table.id for s in snaps] == want
    assert len(await store.unfinished_tables(Shards((0, 1), 2))) == 4  # 2 shards: 0, 1, 0, 1


async def test_a_group_dms_tables_are_shard_0s(store: Store) -> None:
    """A group DM's table, kept under its channel's id as its server's and played through
    interactions (which Discord sends on shard 0), is restored by the cluster of shard 0,
    whatever shard that id would name; a server's table whose channel shares the server's id
    (a server's old first channel) still goes by its server."""
    from albastini.shards import Shards

    group = (1 << 22) + 7  # an id of shard 1 of 2
    in_group = (await store.create_table(group, group, HOST, {"interactions_only": True},
                                         game="albastini")).id
    old_first = (await store.create_table(group + 2, group + 2, HOST, {},
                                          game="albastini")).id
    assert [s.table.id for s in await store.unfinished_tables(Shards((0,), 2))] == [in_group]
    assert [s.table.id for s in await store.unfinished_tables(Shards((1,), 2))] == [old_first]
    assert len(await store.unfinished_tables(Shards((0, 1), 2))) == 2
