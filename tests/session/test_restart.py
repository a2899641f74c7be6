"""Restart: the service rebuilds every table from the store by replay, and resumes play; a
subprocess killed with SIGKILL at random points loses no acknowledged move."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from albastini import Match
from albastini.events import DealOver, DealStarted, MatchOver, TableClosed, TurnStarted
from albastini.games.albastini import Deal as AlbastiniDeal
from albastini.games.albastini.cards import shuffled_pack
from albastini.session import TableService
from albastini.store import SQLiteStore, TableSnapshot
from albastini.table import Table
from albastini.timers import ManualClock
from tests.doubles import CHANNEL, GUILD, HOST, P2, persons_turn, play_legal, service

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "albastini.db"


async def step(svc: TableService, clock: ManualClock, table: Table, rng: random.Random) -> None:
    """One step of play: a waiting person moves, otherwise the computers get a second."""
    await svc.wait_idle()
    for uid in (HOST, P2):
        if persons_turn(table, uid):
            await play_legal(svc, table, uid, rng)
            return
    await clock.advance(1.0)
    await svc.wait_idle()


def replayed(snap: TableSnapshot) -> Match:
    """The match rebuilt straight from the store with the engine alone (not the service)."""
    settings = snap.table.settings
    slot_to_seat = {slot: seat for seat, slot in enumerate(settings["seating"])}
    match: Match | None = None
    for deal in snap.deals:
        dealer = slot_to_seat[deal.dealer_seat]
        if match is None:
            match = Match(
                settings["players"],
                settings["team_size"],
                settings["target"],
                dealer,
                deck=shuffled_pack(deal.seed),
            )
        else:
            assert match.next_dealer() == dealer
            match.next_deal(seed=deal.seed)
        for move in snap.moves:
            if move.deal_no == deal.deal_no:
                assert match.deal.to_act == slot_to_seat[move.seat_no]
                match.deal.apply(move.action)
    assert match is not None
    return match


def picture(table: Table) -> dict[str, Any]:
    return {
        "public": table.public_view(),
        "views": {uid: table.view_for(uid) for uid in (HOST, P2)},
        "seats": [
            (s.seat, s.user_id, s.name, s.level, s.away, s.timeouts)
            for s in table.seats
            if s is not None
        ],
        "state": (
            table.status,
            table.deal_no,
            table.move_no,
            table.scores(),
            table.host_id,
            table.message_id,
            table.target,
            table.turn_time,
            table.computer_level,
        ),
    }


async def test_restart_replays_and_play_goes_on(db: Path) -> None:
    clock = ManualClock()
    rng = random.Random(11)
    async with service(db, clock=clock, computer_pause=1.0, rng=random.Random(2)) as (svc, _, _rec):
        table = await svc.open_table(
            GUILD, CHANNEL, HOST, "Host", computer_level="greedy", target=3, game="albastini"
        )
        await svc.join(table.id, P2, "Second")
        await svc.fill_computers(table.id, HOST)
        await svc.start_match(table.id, HOST)
        await svc.set_message(table.id, 4242)
        while table.deal_no < 2 or table.move_no % 7:
            await step(svc, clock, table, rng)
        # P2 lets their time run out once, so the seat's state matters too
        while not persons_turn(table, P2):
            await step(svc, clock, table, rng)
        await clock.advance(60)
        await svc.wait_idle()
        before = picture(table)
        table_id = table.id

    clock2 = ManualClock(start=5000.0)
    async with service(db, clock=clock2, computer_pause=1.0) as (svc2, store2, rec2):
        again = svc2.table_in_channel(CHANNEL)
        assert again is not None and again.id == table_id and svc2.get(table_id) is again
        assert picture(again) == before
        match = replayed(await store2.load_table(table_id))
        assert again.match is not None
        assert isinstance(again.match.deal, AlbastiniDeal)  # its view takes history
        assert again.match.deal.view(None, history=True) == match.deal.view(None, history=True)
        assert again.match.scores == match.scores
        seat_p2 = again.seat_of(P2)
        assert seat_p2 is not None and again.seats[seat_p2].timeouts == 1  # type: ignore[union-attr]
        # the timer resumed: a person gets a fresh full turn, a computer moves after its pause
        turn = [e for e in rec2.events if isinstance(e, TurnStarted)]
        assert len(turn) == 1 and turn[0].move_no == again.move_no
        if turn[0].deadline is not None:
            assert turn[0].deadline == clock2.time() + again.turn_time
        while again.status == "running":
            await step(svc2, clock2, again, rng)
        assert again.status == "finished" and any(isinstance(e, MatchOver) for e in rec2.events)
        snap = await store2.load_table(table_id)
        assert snap.table.status == "finished"
        final = replayed(snap)
        assert final.finished and final.scores == again.scores()
        stats = await store2.user_stats(GUILD, P2, game="albastini")
        assert stats.matches_played == 1 and stats.deals_played == again.deal_no


async def test_restart_reloads_a_lobby(db: Path) -> None:
    async with service(db) as (svc, _, _):
        table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", players=3, target=2,
                                     game="albastini")
        await svc.join(table.id, P2, "Second")
        await svc.add_computer(table.id, HOST, "easy")
        await svc.leave(table.id, HOST)
        before = (table.host_id, [(s.user_id, s.name, s.level) if s else None for s in table.seats])
    clock = ManualClock()
    async with service(db, clock=clock, lobby_idle=600.0) as (svc, _store, rec):
        again = svc.table_in_channel(CHANNEL)
        assert again is not None and again.status == "lobby" and again.target == 2
        assert (
            again.host_id,
            [(s.user_id, s.name, s.level) if s else None for s in again.seats],
        ) == before
        await svc.join(again.id, HOST, "Host")
        await svc.start_match(again.id, P2)
        # mypy keeps the status narrowed by an earlier check across the awaits that change it
        assert again.status == "running"  # type: ignore[comparison-overlap]
        await svc.cancel(again.id, P2)
        assert rec.of(TableClosed) == [TableClosed(again.id, "cancelled")]


async def test_restart_after_the_last_move_of_a_deal_was_stored(db: Path) -> None:
    """A crash between storing a deal's last move and its result: the restart scores it."""
    clock = ManualClock()
    rng = random.Random(4)
    async with service(db, clock=clock, computer_pause=1.0, rng=random.Random(8)) as (
        svc,
        store,
        _,
    ):
        table = await svc.open_table(
            GUILD, CHANNEL, HOST, "Host", players=2, target=1, computer_level="greedy",
            game="albastini"
        )
        await svc.fill_computers(table.id, HOST)
        await svc.start_match(table.id, HOST)
        assert table.match is not None
        while sum(table.match.deal.view(None)["hand_sizes"]) > 1:
            await step(svc, clock, table, rng)
        await svc.wait_idle()
        seat = table.to_act
        assert seat is not None
        last = table.match.deal.legal_actions()[0]
        info = table.seats[seat]
        assert info is not None
        await svc.close()  # the "crash": the move is stored, nothing after it
        await store.append_move(
            table.id,
            table.move_no,
            1,
            table.slots[seat],
            last,
            user_id=None if info.is_computer else info.user_id,
            by_computer=info.is_computer,
        )
        table_id = table.id

    async with service(db) as (svc, store, rec):
        snap = await store.load_table(table_id)
        assert snap.deals[0].result is not None
        over = [e for e in rec.events if isinstance(e, DealOver)]
        assert len(over) == 1 and over[0].deal_no == 1
        if over[0].result["winner"] is not None:  # target 1: the match is over too
            assert snap.table.status == "finished"
            assert [e.reason for e in rec.events if isinstance(e, TableClosed)] == ["finished"]
            assert (await store.user_stats(GUILD, HOST, game="albastini")).matches_played == 1
        else:
            await svc.wait_idle()
            assert any(isinstance(e, DealStarted) for e in rec.events)


# --------------------------------------------------------------------------- the crash test


async def _run_driver(
    db: Path, seed: int, kill_after: int | None, delay: float = 0.0
) -> tuple[list[str], bool]:
    """Run the driver; SIGKILL it ``delay`` seconds after its ``kill_after``-th acknowledged
    move (None: let it end). Returns the acknowledged lines and whether it reached the end."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.session.crash_driver", str(db), str(seed)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    acks: list[str] = []
    done = False
    try:
        while True:
            line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 30)
            if not line:
                break
            text = line.decode().strip()
            if text == "DONE":
                done = True
                break
            if text.startswith("ACK "):
                acks.append(text)
                if kill_after is not None and len(acks) >= kill_after:
                    if delay:  # let it run on: the kill lands anywhere, even mid-commit
                        await asyncio.sleep(delay)
                    proc.send_signal(signal.SIGKILL)
                    break
    finally:
        if proc.poll() is None and not done:
            proc.kill()
        try:
            _, err = await asyncio.to_thread(proc.communicate, timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise AssertionError("the driver did not exit after DONE") from None
    if proc.returncode not in (0, -signal.SIGKILL):
        raise AssertionError(f"driver failed ({proc.returncode}):\n{err.decode()}")
    return acks, done


async def test_sigkill_loses_no_acknowledged_move(db: Path) -> None:
    rng = random.Random(2026)
    acknowledged: dict[int, str] = {}
    done = False
    kills = 0
    for run in range(12):
        kill_after = rng.randint(3, 25) if kills < 5 else None
        acks, done = await _run_driver(db, 1000 + run, kill_after, rng.random() * 0.02)
        for line in acks:
            _, number, code = line.split()  # the move number as text; an int below
            assert acknowledged.setdefault(int(number), code) == code  # never rewritten
        kills += kill_after is not None and not done

        store = await SQLiteStore.open(db)
        try:
            snaps = await store.unfinished_tables()
            snap = snaps[0] if snaps else await store.load_table(1)
            stored = {m.move_no: m.action for m in snap.moves}
            for move_no, code in acknowledged.items():
                assert stored.get(move_no) == code, f"acknowledged move {move_no} lost"
            assert sorted(stored) == list(range(1, len(stored) + 1))
            if snap.table.status == "running":
                # the state a new service rebuilds equals the plain replay of the store
                svc = TableService(
                    store, computer_pause=3600.0, deal_pause=3600.0, clock=ManualClock()
                )
                await svc.start()
                table = svc.get(1)
                assert table is not None and table.match is not None
                assert isinstance(table.match.deal, AlbastiniDeal)  # its view takes history
                match = replayed(await store.load_table(1))
                assert table.match.deal.view(None, history=True) == match.deal.view(
                    None, history=True
                )
                assert table.move_no == len(stored) + 1
                await svc.close()
        finally:
            await store.close()
        if done:
            break
    assert done, "the match never reached its end"
    assert kills >= 3
    store = await SQLiteStore.open(db)
    try:
        snap = await store.load_table(1)
        assert snap.table.status == "finished"
        final = replayed(snap)
        assert final.finished
        assert (await store.user_stats(GUILD, HOST, game="albastini")).matches_played == 1
        assert (await store.user_stats(GUILD, P2, game="albastini")).matches_played == 1
        assert len(snap.moves) >= len(acknowledged)
    finally:
        await store.close()


async def test_a_log_that_does_not_replay_frees_the_channel(db: Path) -> None:
    """A move the engine refuses (written by a bug or by hand) cannot block the channel: the
    table is cancelled at start-up, its log kept, and the channel takes a new table."""
    async with service(db) as (svc, store, _):
        table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", players=2, game="albastini")
        await svc.fill_computers(table.id, HOST, "random")
        await svc.start_match(table.id, HOST)
        await svc.wait_idle()
        assert table.match is not None
        assert isinstance(table.match.deal, AlbastiniDeal)  # its hands and deck
        seat = table.to_act
        assert seat is not None
        hand = set(table.match.deal.hand(seat))
        foreign = next(c for c in table.match.deal.deck if c not in hand)
        await svc.close()
        info = table.seats[seat]
        assert info is not None
        await store.append_move(
            table.id,
            table.move_no,
            1,
            table.slots[seat],
            f"play:{foreign.code}",
            user_id=info.user_id,
            by_computer=info.user_id is None,
        )
        table_id = table.id
    async with service(db) as (svc, store, _):
        assert svc.get(table_id) is None and svc.table_in_channel(CHANNEL) is None
        assert (await store.get_table(table_id)).status == "cancelled"
        again = await svc.open_table(GUILD, CHANNEL, HOST, "Host", game="albastini")
        assert again.id != table_id
