"""Turn timers, warnings, timeouts, away and back, idle lobbies, slow computer players: all on a
manual clock, so no test waits for real seconds."""

from __future__ import annotations

import concurrent.futures
import multiprocessing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from albastini.events import (
    Acted,
    LobbyChanged,
    SeatAway,
    SeatBack,
    TableClosed,
    TurnStarted,
    TurnWarning,
)
from albastini.session import Refusal, TableService
from albastini.table import Table
from albastini.timers import ManualClock
from tests.doubles import CHANNEL, GUILD, HOST, P2, move_count, persons_turn, service, until


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "albastini.db"


async def advance_until(
    svc: TableService, clock: ManualClock, pred: Callable[[], bool], step: float = 1.0
) -> None:
    """Let computers move (one computer pause at a time) until ``pred`` holds."""
    for _ in range(500):
        await svc.wait_idle()
        if pred():
            return
        await clock.advance(step)
    raise AssertionError("never reached")


async def two_player(svc: TableService, level: str = "random") -> Table:
    table = await svc.open_table(
        GUILD, CHANNEL, HOST, "Host", players=2, target=21, computer_level=level, game="albastini"
    )
    await svc.fill_computers(table.id, HOST)
    await svc.start_match(table.id, HOST)
    return table


async def test_warning_timeout_away_and_back(db: Path) -> None:
    clock = ManualClock()
    async with service(db, clock=clock, computer_pause=1.0, warn_before=15.0) as (svc, store, rec):
        table = await two_player(svc)
        await advance_until(svc, clock, lambda: persons_turn(table, HOST))
        seat = table.seat_of(HOST)
        assert seat is not None
        info = table.seats[seat]
        assert info is not None
        started = rec.of(TurnStarted)[-1]
        assert started.seat == seat and started.deadline == clock.time() + 60
        assert table.turn_deadline == started.deadline
        move_no = table.move_no

        await clock.advance(44)
        await svc.wait_idle()
        assert rec.of(TurnWarning) == []
        await clock.advance(1)
        await svc.wait_idle()
        assert rec.of(TurnWarning) == [TurnWarning(table.id, seat, 15.0)]
        assert table.move_no == move_no and rec.of(SeatAway) == []

        await clock.advance(15)  # the first timeout: a computer moves for the person
        await svc.wait_idle()
        assert rec.of(SeatAway) == [SeatAway(table.id, seat)]
        acted = [a for a in rec.of(Acted) if a.move_no == move_no]
        assert len(acted) == 1 and acted[0].seat == seat and acted[0].by_computer
        assert (info.timeouts, info.away, info.is_computer) == (1, False, False)
        row = (await store.seats(table.id))[table.slots[seat]]
        assert (row.timeouts, row.away, row.computer_control) == (1, False, False)
        stored = (await store.moves(table.id))[-1] if table.to_act == seat else None
        assert (await store.moves(table.id))[move_no - 1].by_computer

        # next turn: a full turn time again, then the second timeout in a row
        await advance_until(svc, clock, lambda: persons_turn(table, HOST))
        assert table.turn_deadline == clock.time() + 60
        second = table.move_no
        await clock.advance(60)
        await svc.wait_idle()
        assert (info.timeouts, info.away, info.is_computer) == (2, True, True)
        assert len(rec.of(SeatAway)) == 1  # announced once
        row = (await store.seats(table.id))[table.slots[seat]]
        assert (row.timeouts, row.away, row.computer_control) == (2, True, True)
        assert [a.by_computer for a in rec.of(Acted) if a.move_no == second] == [True]

        # from now on the computer plays the seat without waiting for a timeout
        await advance_until(svc, clock, lambda: table.to_act == seat)
        assert rec.of(TurnStarted)[-1] == TurnStarted(table.id, seat, table.move_no, None)
        assert table.turn_deadline is None
        before = table.move_no
        await clock.advance(1)
        await svc.wait_idle()
        assert table.move_no > before
        assert stored is None or stored.move_no < before

        # "I'm back"
        await svc.back(table.id, HOST)
        assert rec.of(SeatBack) == [SeatBack(table.id, seat)]
        assert (info.timeouts, info.away) == (0, False)
        row = (await store.seats(table.id))[table.slots[seat]]
        assert (row.timeouts, row.away, row.computer_control) == (0, False, False)
        with pytest.raises(Refusal) as exc:
            await svc.back(table.id, HOST)
        assert exc.value.reason == "away_only"
        await advance_until(svc, clock, lambda: persons_turn(table, HOST))


async def test_acting_resets_the_timeouts(db: Path) -> None:
    clock = ManualClock()
    async with service(db, clock=clock, computer_pause=1.0) as (svc, store, rec):
        table = await two_player(svc)
        await advance_until(svc, clock, lambda: persons_turn(table, HOST))
        await clock.advance(60)
        await advance_until(svc, clock, lambda: persons_turn(table, HOST))
        seat = table.seat_of(HOST)
        assert seat is not None
        info = table.seats[seat]
        assert info is not None and info.timeouts == 1
        view = table.view_for(HOST)
        assert view is not None
        await clock.advance(59)  # just in time
        await svc.act(table.id, HOST, table.move_no, view["legal"][0])
        assert info.timeouts == 0 and rec.of(SeatBack) == [SeatBack(table.id, seat)]
        assert (await store.seats(table.id))[table.slots[seat]].timeouts == 0
        assert not (await store.moves(table.id))[-1].by_computer


async def test_an_away_person_who_moves_is_back(db: Path) -> None:
    clock = ManualClock()
    async with service(db, clock=clock, computer_pause=1.0) as (svc, store, rec):
        table = await two_player(svc)
        seat = None
        for _ in range(2):
            await advance_until(svc, clock, lambda: persons_turn(table, HOST))
            await clock.advance(60)
            await svc.wait_idle()
        seat = table.seat_of(HOST)
        assert seat is not None
        info = table.seats[seat]
        assert info is not None and info.away
        await advance_until(svc, clock, lambda: table.to_act == seat)  # the computer is pending
        move_no = table.move_no
        view = table.view_for(HOST)
        assert view is not None
        await svc.act(table.id, HOST, move_no, view["legal"][-1])
        assert not info.away and info.timeouts == 0
        assert rec.of(SeatBack) == [SeatBack(table.id, seat)]
        await clock.advance(1)  # the computer's pending move for that turn is dropped
        await svc.wait_idle()
        moves = await store.moves(table.id)
        assert [m.move_no for m in moves] == list(range(1, len(moves) + 1))
        mine = [m for m in moves if m.move_no == move_no]
        assert len(mine) == 1 and mine[0].user_id == HOST and not mine[0].by_computer


async def test_a_move_in_time_stops_the_timer(db: Path) -> None:
    clock = ManualClock()
    async with service(db, clock=clock, computer_pause=1.0) as (svc, store, rec):
        table = await two_player(svc)
        await advance_until(svc, clock, lambda: persons_turn(table, HOST))
        await clock.advance(50)
        view = table.view_for(HOST)
        assert view is not None
        await svc.act(table.id, HOST, table.move_no, view["legal"][0])
        n = await move_count(store, table.id)
        await advance_until(svc, clock, lambda: persons_turn(table, HOST))
        await svc.wait_idle()
        assert rec.of(SeatAway) == [] and len(rec.of(TurnWarning)) == 1  # warned at 45 s
        assert all(
            not m.by_computer
            for m in await store.moves(table.id)
            if m.seat_no == table.slots[table.seat_of(HOST) or 0]
        )
        assert await move_count(store, table.id) >= n


async def test_idle_lobby_closes(db: Path) -> None:
    clock = ManualClock()
    async with service(db, clock=clock, lobby_idle=600.0) as (svc, store, rec):
        table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", game="albastini")
        await clock.advance(599)
        await svc.wait_idle()
        assert table.status == "lobby"
        await svc.join(table.id, P2, "Second")  # any change restarts the idle time
        await clock.advance(599)
        await svc.wait_idle()
        assert table.status == "lobby" and rec.of(TableClosed) == []
        await clock.advance(1)
        await svc.wait_idle()
        # mypy keeps the status narrowed by an earlier check across the awaits that change it
        assert table.status == "cancelled"  # type: ignore[comparison-overlap]
        assert rec.of(TableClosed) == [TableClosed(table.id, "idle")]
        assert (await store.get_table(table.id)).status == "cancelled"
        assert svc.table_in_channel(CHANNEL) is None
        assert len(rec.of(LobbyChanged)) == 2


async def test_a_running_match_never_goes_idle(db: Path) -> None:
    clock = ManualClock()
    async with service(db, clock=clock, lobby_idle=100.0, computer_pause=1.0) as (svc, _, rec):
        table = await two_player(svc)
        await clock.advance(150)
        await svc.wait_idle()
        assert table.status == "running" and rec.of(TableClosed) == []


class CountingPool(concurrent.futures.ThreadPoolExecutor):
    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.submitted = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        self.submitted += 1
        return super().submit(fn, *args, **kwargs)


async def test_slow_levels_think_in_the_executor(db: Path) -> None:
    pool = CountingPool()
    clock = ManualClock()
    try:
        async with service(db, clock=clock, executor=pool) as (svc, _store, rec):
            table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", players=2, game="albastini")
            await svc.add_computer(table.id, HOST, "search")
            await svc.start_match(table.id, HOST)
            for _ in range(2):
                await svc.wait_idle(timeout=30)
                if persons_turn(table, HOST):
                    view = table.view_for(HOST)
                    assert view is not None
                    await svc.act(table.id, HOST, table.move_no, view["legal"][0])
            await svc.wait_idle(timeout=30)
            computer_moves = [a for a in rec.of(Acted) if a.by_computer]
            assert computer_moves and pool.submitted >= len(computer_moves)
    finally:
        pool.shutdown()


async def test_hard_computers_think_in_a_spawned_process_pool(db: Path) -> None:
    """The bot's set-up: a spawn-context process pool; the view and the decision cross it."""
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("spawn")
    )
    try:
        async with service(db, executor=pool) as (svc, _, rec):
            table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", players=2, target=1,
                                         game="albastini")
            await svc.add_computer(table.id, HOST, "hard")
            await svc.start_match(table.id, HOST)
            await svc.leave(table.id, HOST)  # both seats are the pool's now
            await until(lambda: len(rec.of(Acted)) >= 3, timeout=60)
            assert all(a.by_computer for a in rec.of(Acted))
    finally:
        pool.shutdown(cancel_futures=True)
