"""The table service on a real SQLite store with real computer players: life cycle, refusals,
races, whole matches, leaving and cancelling.

A little over 600 lines: every public operation of the service with its refusals, in the order
a table lives them; the timers, restarts and random requests have modules of their own."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from albastini.events import (
    Acted,
    DealOver,
    DealStarted,
    LobbyChanged,
    MatchOver,
    MatchStarted,
    SeatLeft,
    TableClosed,
    TrickWon,
    TurnStarted,
)
from albastini.games.albastini import Deal as AlbastiniDeal
from albastini.session import Refusal, TableService
from albastini.store import SQLiteStore, StoreError
from albastini.table import SeatInfo, Table
from albastini.timers import ManualClock
from tests.doubles import (
    CHANNEL,
    GUILD,
    HOST,
    P2,
    P3,
    FlakyStore,
    move_count,
    persons_turn,
    play_legal,
    service,
    until,
)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "albastini.db"


async def running_pairs(svc: TableService, level: str = "random") -> Table:
    """4 pairs: HOST and P2 plus two computers, started; waits for a person's turn."""
    table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", computer_level=level,
                                 game="albastini")
    await svc.join(table.id, P2, "Second")
    await svc.fill_computers(table.id, HOST)
    await svc.start_match(table.id, HOST)
    await svc.wait_idle()
    return table


def waiting_person(table: Table) -> int:
    seat = table.to_act
    assert seat is not None
    info = table.seats[seat]
    assert info is not None and info.user_id is not None and not info.is_computer
    return info.user_id


# --------------------------------------------------------------------------- life cycle


async def test_lobby_life_cycle(db: Path) -> None:
    async with service(db) as (svc, store, rec):
        table = await svc.open_table(GUILD, CHANNEL, HOST, "  Host  ", game="albastini")
        assert table.status == "lobby"
        assert (table.players, table.team_size, table.teams) == (4, 2, 2)
        assert (table.target, table.turn_time, table.language) == (5, 60, "en")
        assert table.seats[0] == SeatInfo(0, HOST, "Host", None)
        assert table.seats[1:] == [None, None, None]
        assert svc.table_in_channel(CHANNEL) is table and svc.get(table.id) is table
        assert table.public_view() == {} and table.view_for(HOST) == {}
        assert table.view_for(P2) is None

        await svc.join(table.id, P2, "Second")
        await svc.add_computer(table.id, HOST, "easy")
        # a computer's name is its number: the Discord layer words it in the reader's language
        assert [s.name if s else None for s in table.seats] == ["Host", "Second", "1", None]
        assert table.seats[2] is not None and table.seats[2].level == "easy"
        assert table.seats[2].is_computer
        await svc.join(table.id, P3, "Third")
        assert None not in table.seats
        assert len(rec.of(LobbyChanged)) == 4

        stored = await store.seats(table.id)
        assert [(s.seat_no, s.user_id, s.computer_level) for s in stored] == [
            (0, HOST, None),
            (1, P2, None),
            (2, None, "easy"),
            (3, P3, None),
        ]

        rec.clear()
        await svc.start_match(table.id, HOST)
        # mypy keeps the status narrowed by an earlier check across the awaits that change it
        assert table.status == "running" and table.deal_no == 1 and table.move_no == 1  # type: ignore[comparison-overlap]
        assert isinstance(rec.events[0], MatchStarted)
        assert isinstance(rec.events[1], DealStarted) and rec.events[1].deal_no == 1
        assert isinstance(rec.events[2], TurnStarted)
        # seats are now by seat number: the same four, shuffled
        assert sorted(s.user_id or 0 for s in table.seats if s) == [0, HOST, P2, P3]
        assert all(s is not None and s.seat == i for i, s in enumerate(table.seats))
        assert table.names() == [s.name for s in table.seats if s]
        assert table.scores() == [0, 0]
        view = table.public_view()
        assert view["hand"] == [] and view["deal_no"] == 1 and view["move_no"] == 1
        assert view["dealer"] == rec.events[1].dealer
        mine = table.view_for(HOST)
        assert mine is not None and len(mine["hand"]) == 5 and "log" in mine
        assert (await store.get_table(table.id)).status == "running"


async def test_defaults_and_guild_settings(db: Path) -> None:
    async with service(db) as (svc, store, _):
        await store.set_guild_settings(GUILD, turn_time=90, target_vp=3, language="sw")
        two = await svc.open_table(GUILD, CHANNEL, HOST, "Host", players=2, game="albastini")
        assert (two.team_size, two.teams, two.target, two.turn_time, two.language) == (
            1,
            2,
            3,
            90,
            "sw",
        )
        six = await svc.open_table(GUILD, CHANNEL + 1, HOST, "Host", players=6, game="albastini")
        assert (six.team_size, six.teams) == (2, 3)
        trios = await svc.open_table(
            GUILD,
            CHANNEL + 2,
            HOST,
            "Host",
            players=6,
            team_size=3,
            target=7,
            turn_time=20,
            language="en", game="albastini"
        )
        assert (trios.teams, trios.target, trios.turn_time, trios.language) == (2, 7, 20, "en")


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"players": 7}, "players"),
        ({"players": 1}, "players"),
        ({"players": "4"}, "players"),
        ({"players": 5, "team_size": 2}, "team_size"),
        ({"target": 0}, "target"),
        ({"target": 22}, "target"),
        ({"turn_time": 5}, "turn_time"),
        ({"turn_time": 60.5}, "turn_time"),
        ({"computer_level": "godlike"}, "computer_level"),
        ({"language": "fr"}, "language"),
    ],
)
async def test_bad_settings_are_refused(db: Path, kwargs: dict[str, object], field: str) -> None:
    async with service(db) as (svc, store, _):
        with pytest.raises(Refusal) as exc:
            await svc.open_table(GUILD, CHANNEL, HOST, "Host", game="albastini",
                                 **kwargs)  # type: ignore[arg-type]
        assert exc.value.reason == "bad_value" and exc.value.details["field"] == field
        assert str(exc.value)
        assert await store.active_table(CHANNEL) is None
        assert svc.table_in_channel(CHANNEL) is None


async def test_one_table_per_channel(db: Path) -> None:
    async with service(db) as (svc, _, _):
        first, second = await asyncio.gather(
            svc.open_table(GUILD, CHANNEL, HOST, "Host", game="albastini"),
            svc.open_table(GUILD, CHANNEL, P2, "Second", game="albastini"),
            return_exceptions=True,
        )
        tables = [t for t in (first, second) if isinstance(t, Table)]
        refusals = [r for r in (first, second) if isinstance(r, Refusal)]
        assert len(tables) == 1 and [r.reason for r in refusals] == ["table_exists"]
        other = await svc.open_table(GUILD, CHANNEL + 1, P2, "Second", game="albastini")
        assert other.id != tables[0].id


async def test_lobby_refusals_change_nothing(db: Path) -> None:
    async with service(db) as (svc, store, rec):
        table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", players=2, game="albastini")

        async def refused(reason: str, call: object) -> None:
            before = (list(table.seats), table.host_id, table.status)
            stored = await store.seats(table.id)
            n = len(rec.events)
            with pytest.raises(Refusal) as exc:
                await call  # type: ignore[misc]
            assert exc.value.reason == reason, exc.value
            assert (list(table.seats), table.host_id, table.status) == before
            assert await store.seats(table.id) == stored
            assert len(rec.events) == n

        await refused("no_table", svc.join(9999, P2, "x"))
        await refused("no_table", svc.join("1", P2, "x"))  # type: ignore[arg-type]
        await refused("already_seated", svc.join(table.id, HOST, "Host"))
        await refused("bad_value", svc.join(table.id, P2, "   "))
        await refused("bad_value", svc.join(table.id, -5, "x"))
        await refused("not_host", svc.add_computer(table.id, P2))
        await refused("not_host", svc.start_match(table.id, P2))
        await refused("seats_empty", svc.start_match(table.id, HOST))
        await refused("bad_value", svc.add_computer(table.id, HOST, "godlike"))
        await refused("not_seated", svc.leave(table.id, P2))
        await refused("not_running", svc.act(table.id, HOST, 1, "pass"))
        await refused("not_running", svc.back(table.id, HOST))
        await refused("not_finished", svc.rematch(table.id, HOST))
        await svc.join(table.id, P2, "Second")
        await refused("table_full", svc.join(table.id, P3, "Third"))
        await refused("table_full", svc.add_computer(table.id, HOST))
        await refused("table_full", svc.fill_computers(table.id, HOST))
        await svc.start_match(table.id, HOST)
        await refused("not_in_lobby", svc.join(table.id, P3, "Third"))
        await refused("not_in_lobby", svc.add_computer(table.id, HOST))
        await refused("not_in_lobby", svc.start_match(table.id, HOST))


async def test_host_leaving_the_lobby_hands_over_or_cancels(db: Path) -> None:
    async with service(db) as (svc, store, rec):
        table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", game="albastini")
        await svc.add_computer(table.id, HOST)
        await svc.join(table.id, P2, "Second")
        await svc.leave(table.id, HOST)
        assert table.host_id == P2 and table.seat_of(HOST) is None
        assert table.seats[0] is None and table.status == "lobby"
        assert (await store.get_table(table.id)).settings["host_id"] == P2
        await svc.join(table.id, P3, "Third")  # takes the free first seat
        assert table.seat_of(P3) == 0
        await svc.leave(table.id, P3)
        await svc.leave(table.id, P2)  # the last person: the lobby is cancelled
        # mypy keeps the status narrowed by an earlier check across the awaits that change it
        assert table.status == "cancelled"  # type: ignore[comparison-overlap]
        assert rec.of(TableClosed)[-1].reason == "cancelled"
        assert (await store.get_table(table.id)).status == "cancelled"
        assert svc.table_in_channel(CHANNEL) is None
        await svc.open_table(GUILD, CHANNEL, HOST, "Host",
                             game="albastini")  # the channel is free again


# --------------------------------------------------------------------------- play


async def test_moves_are_committed_before_they_are_announced(db: Path) -> None:
    async with service(db) as (svc, store, rec):
        table = await running_pairs(svc)
        seen: list[tuple[int, int]] = []

        def check(t: Table, events: list[object]) -> None:
            for ev in events:
                if isinstance(ev, Acted):
                    seen.append((ev.move_no, t.move_no))

        svc.add_listener(check)  # type: ignore[arg-type]
        for _ in range(12):
            await play_legal(svc, table, waiting_person(table))
            await svc.wait_idle()
        stored = await store.moves(table.id)
        acted = rec.of(Acted)
        assert [(m.move_no, m.action, m.by_computer) for m in stored] == [
            (a.move_no, a.code, a.by_computer) for a in acted
        ]
        assert [m.move_no for m in stored] == list(range(1, len(stored) + 1))
        assert table.move_no == len(stored) + 1
        assert all(t_move == move + 1 for move, t_move in seen)  # applied before announced
        # the engine's log equals the stored log (the public view's history)
        assert table.match is not None
        assert isinstance(table.match.deal, AlbastiniDeal)  # the interface's deal has no log
        assert [a.code for a in table.match.deal.actions] == [m.action for m in stored]


async def test_refused_actions_change_nothing(db: Path) -> None:
    async with service(db) as (svc, store, rec):
        table = await running_pairs(svc)
        await play_legal(svc, table, waiting_person(table))
        await svc.wait_idle()
        uid = waiting_person(table)
        other = P2 if uid == HOST else HOST
        view = table.view_for(uid)
        assert view is not None
        move_no = table.move_no
        hand = view["hand"]
        not_mine = next(
            c for c in ("AS", "7S", "KS", "JS", "QS", "6S", "AH", "7H") if c not in hand
        )
        wrong_kind = "pass" if view["phase"] == "playing" else f"play:{hand[0]}"

        async def refused(reason: str, call: object, **details: object) -> Refusal:
            n_moves = await move_count(store, table.id)
            n_events = len(rec.events)
            public = table.public_view()
            with pytest.raises(Refusal) as exc:
                await call  # type: ignore[misc]
            assert exc.value.reason == reason, exc.value
            for key, value in details.items():
                assert exc.value.details[key] == value
            assert str(exc.value)
            assert await move_count(store, table.id) == n_moves
            assert table.move_no == move_no and table.public_view() == public
            assert len(rec.events) == n_events
            return exc.value

        await refused("no_table", svc.act(424242, uid, move_no, view["legal"][0]))
        await refused("no_table", svc.act(None, uid, move_no, view["legal"][0]))  # type: ignore[arg-type]
        await refused("not_seated", svc.act(table.id, 777, move_no, view["legal"][0]))
        await refused("not_seated", svc.act(table.id, "10", move_no, "pass"))  # type: ignore[arg-type]
        await refused(
            "stale", svc.act(table.id, uid, move_no - 1, view["legal"][0]), expected=move_no
        )
        await refused("stale", svc.act(table.id, uid, move_no + 5, view["legal"][0]))
        await refused("stale", svc.act(table.id, uid, str(move_no), view["legal"][0]))  # type: ignore[arg-type]
        await refused(
            "not_your_turn",
            svc.act(table.id, other, move_no, view["legal"][0]),
            to_act=table.to_act,
        )
        r = await refused("illegal", svc.act(table.id, uid, move_no, f"play:{not_mine}"))
        assert r.details["rule"] in ("not_in_hand", "bidding")
        await refused("illegal", svc.act(table.id, uid, move_no, wrong_kind))
        await refused("illegal", svc.act(table.id, uid, move_no, "play:ZZ"))
        await refused("illegal", svc.act(table.id, uid, move_no, "x" * 5000))
        await refused("illegal", svc.act(table.id, uid, move_no, ""))
        await refused("illegal", svc.act(table.id, uid, move_no, None))  # type: ignore[arg-type]
        await refused("illegal", svc.act(table.id, uid, move_no, "bid:7H; DROP TABLE moves"))
        await refused("away_only", svc.back(table.id, uid))
        await refused("not_host", svc.cancel(table.id, other if other != HOST else P2))
        # and the right move still works
        await play_legal(svc, table, uid)
        assert table.move_no == move_no + 1


async def test_illegal_bid_carries_the_rules_reason(db: Path) -> None:
    async with service(db, rng=random.Random(3)) as (svc, store, _):
        for attempt in range(40):
            table = await svc.open_table(
                GUILD, CHANNEL + attempt, HOST, "Host", players=3, computer_level="random",
                game="albastini"
            )
            await svc.fill_computers(table.id, HOST)
            await svc.start_match(table.id, HOST)
            await svc.wait_idle()
            assert table.match is not None
            deal = table.match.deal
            assert isinstance(deal, AlbastiniDeal)  # the bids are Albastini's own
            view = table.view_for(HOST)
            assert view is not None
            if (
                deal.phase == "bidding"
                and deal.bids
                and deal.bids[0][1] is not None
                and any(c[1] == deal.bids[0][1].suit for c in view["hand"])
            ):
                break
            await svc.cancel(table.id, HOST)
        else:
            pytest.skip("no deal where the computer bid first")
        taken = deal.bids[0][1]
        assert taken is not None
        same_suit = [c for c in view["hand"] if c[1] == taken.suit]
        with pytest.raises(Refusal) as exc:
            await svc.act(table.id, HOST, table.move_no, f"bid:{same_suit[0]}")
        assert exc.value.reason == "illegal"
        assert exc.value.details["rule"] == "suit_taken"
        assert exc.value.details["suit"] == taken.suit
        assert await move_count(store, table.id) == table.move_no - 1


async def test_double_click_only_one_wins(db: Path) -> None:
    async with service(db) as (svc, store, _rec):
        table = await running_pairs(svc)
        for _ in range(5):
            uid = waiting_person(table)
            view = table.view_for(uid)
            assert view is not None
            n = await move_count(store, table.id)
            move_no = table.move_no
            results = await asyncio.gather(
                svc.act(table.id, uid, move_no, view["legal"][0]),
                svc.act(table.id, uid, move_no, view["legal"][-1]),
                return_exceptions=True,
            )
            wins = [r for r in results if isinstance(r, Table)]
            refusals = [r for r in results if isinstance(r, Refusal)]
            assert len(wins) == 1 and [r.reason for r in refusals] == ["stale"], results
            stored = await store.moves(table.id, after=n)
            assert stored[0].move_no == move_no and stored[0].user_id == uid
            assert len([m for m in stored if m.move_no == move_no]) == 1
            await svc.wait_idle()


async def test_two_players_clicking_at_once(db: Path) -> None:
    async with service(db) as (svc, store, _):
        table = await running_pairs(svc)
        uid = waiting_person(table)
        other = P2 if uid == HOST else HOST
        view = table.view_for(uid)
        other_view = table.view_for(other)
        assert view is not None and other_view is not None
        n = await move_count(store, table.id)
        results = await asyncio.gather(
            svc.act(table.id, other, table.move_no, other_view["hand"][0]),
            svc.act(table.id, uid, table.move_no, view["legal"][0]),
            return_exceptions=True,
        )
        assert isinstance(results[1], Table)
        assert isinstance(results[0], Refusal) and results[0].reason == "not_your_turn"
        assert (await store.moves(table.id, after=n))[0].user_id == uid


async def test_a_whole_match_played_by_people_and_computers(db: Path) -> None:
    async with service(db) as (svc, store, rec):
        table = await svc.open_table(
            GUILD, CHANNEL, HOST, "Host", players=2, target=3, computer_level="greedy",
            game="albastini"
        )
        await svc.fill_computers(table.id, HOST)
        await svc.start_match(table.id, HOST)
        rng = random.Random(5)
        while table.status == "running":
            await svc.wait_idle()
            if persons_turn(table, HOST):
                await play_legal(svc, table, HOST, rng)
        assert table.status == "finished"
        over = rec.of(MatchOver)
        assert len(over) == 1 and max(over[0].scores) >= 3
        assert rec.of(TableClosed)[-1].reason == "finished"
        deal_overs = rec.of(DealOver)
        assert [d.deal_no for d in deal_overs] == list(range(1, table.deal_no + 1))
        assert deal_overs[-1].next_dealer is None
        assert all(d.next_dealer is not None for d in deal_overs[:-1])
        rounds = rec.of(TrickWon)
        assert len(rounds) == 18 * table.deal_no
        assert sum(r.points for r in rounds) == 120 * table.deal_no
        snap = await store.load_table(table.id)
        assert snap.table.status == "finished"
        assert len(snap.deals) == table.deal_no and all(d.result for d in snap.deals)
        assert [m.by_computer for m in snap.moves].count(False) > 0
        stats = await store.user_stats(GUILD, HOST, game="albastini")
        host_team = table.seat_of(HOST)
        assert host_team is not None
        assert stats.matches_played == 1
        assert stats.matches_won == int(over[0].winner_team == host_team % 2)
        assert stats.deals_played == table.deal_no
        assert svc.table_in_channel(CHANNEL) is None and svc.get(table.id) is table


@pytest.mark.parametrize(("players", "team_size"), [(4, 2), (2, 1), (6, 3), (5, 1)])
async def test_computers_play_whole_matches(db: Path, players: int, team_size: int) -> None:
    """Every seat ends up played by a computer (the people leave after the start): the match
    runs to its end on its own and every person gets a result row."""
    async with service(db) as (svc, store, rec):
        table = await svc.open_table(
            GUILD,
            CHANNEL,
            HOST,
            "Host",
            players=players,
            team_size=team_size,
            computer_level="greedy",
            target=3, game="albastini"
        )
        if players > 2:
            await svc.join(table.id, P2, "Second")
        await svc.fill_computers(table.id, HOST, "random")
        await svc.start_match(table.id, HOST)
        await svc.leave(table.id, HOST)
        if players > 2:
            await svc.leave(table.id, P2)
        await until(lambda: table.status != "running")
        assert table.status == "finished"
        assert rec.of(SeatLeft)[0].user_id == HOST
        over = rec.of(MatchOver)[0]
        board = await store.leaderboard(GUILD, game="albastini")
        people = [HOST, P2] if players > 2 else [HOST]
        assert sorted(e.user_id for e in board.entries) == sorted(people)
        for entry in board.entries:
            seat = table.seat_of(entry.user_id)
            assert seat is not None
            assert entry.matches_won == int(over.winner_team == seat % table.teams)
            assert entry.score == over.scores[seat % table.teams]
            assert entry.deals_played == table.deal_no
        moves = await store.moves(table.id)
        assert all(m.by_computer for m in moves)


async def test_leave_mid_game_then_come_back(db: Path) -> None:
    async with service(db, computer_pause=1.0) as (svc, store, rec):
        clock = svc.clock
        table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", computer_level="random",
                                     game="albastini")
        await svc.join(table.id, P2, "Second")
        await svc.fill_computers(table.id, HOST)
        await svc.start_match(table.id, HOST)
        await svc.leave(table.id, P2)
        seat = table.seat_of(P2)
        assert seat is not None
        info = table.seats[seat]
        assert info is not None and info.away and info.is_computer and info.user_id == P2
        stored = next(s for s in await store.seats(table.id) if s.user_id == P2)
        assert stored.away and stored.computer_control
        # the computer plays P2's seat: advance until P2's seat has moved twice
        n = 0
        while n < 2:
            await svc.wait_idle()
            if persons_turn(table, HOST):
                await play_legal(svc, table, HOST)
            else:
                await clock.advance(1.0)  # type: ignore[attr-defined]
            n = sum(1 for a in rec.of(Acted) if a.seat == seat)
        assert all(a.by_computer for a in rec.of(Acted) if a.seat == seat)
        await svc.back(table.id, P2)
        assert not info.away and info.timeouts == 0
        stored = next(s for s in await store.seats(table.id) if s.user_id == P2)
        assert not stored.away and not stored.computer_control


async def test_cancel_by_host_moderator_and_others(db: Path) -> None:
    async with service(db) as (svc, store, rec):
        table = await running_pairs(svc)
        n = await move_count(store, table.id)
        with pytest.raises(Refusal) as exc:
            await svc.cancel(table.id, P2)
        assert exc.value.reason == "not_host"
        with pytest.raises(Refusal) as exc:
            await svc.cancel(table.id, 999)
        assert exc.value.reason == "not_host"
        assert table.status == "running" and await move_count(store, table.id) == n
        await svc.cancel(table.id, 999, moderator=True)
        # mypy keeps the status narrowed by an earlier check across the awaits that change it
        assert table.status == "cancelled" and rec.of(TableClosed)[-1].reason == "cancelled"  # type: ignore[comparison-overlap]
        assert (await store.get_table(table.id)).status == "cancelled"
        with pytest.raises(Refusal) as exc:
            await svc.act(table.id, HOST, table.move_no, "pass")
        assert exc.value.reason == "not_running"
        with pytest.raises(Refusal) as exc:
            await svc.cancel(table.id, HOST)
        assert exc.value.reason == "not_running"

        other = await svc.open_table(GUILD, CHANNEL, HOST, "Host", game="albastini")
        await svc.cancel(other.id, HOST)
        assert other.status == "cancelled"
        assert svc.get(table.id) is None  # only the channel's last closed table is kept


async def test_set_message_and_rematch(db: Path) -> None:
    async with service(db) as (svc, store, _rec):
        table = await svc.open_table(
            GUILD, CHANNEL, HOST, "Host", players=2, target=1, computer_level="random",
            game="albastini"
        )
        await svc.set_message(table.id, 5555)
        assert table.message_id == 5555
        assert (await store.get_table(table.id)).message_id == 5555
        with pytest.raises(Refusal):
            await svc.set_message(table.id, -1)
        await svc.add_computer(table.id, HOST, "greedy")
        await svc.start_match(table.id, HOST)
        await svc.leave(table.id, HOST)
        await until(lambda: table.status == "finished")
        with pytest.raises(Refusal) as exc:
            await svc.rematch(table.id, 999)
        assert exc.value.reason == "not_seated"
        again = await svc.rematch(table.id, HOST)
        assert again.id != table.id and again.status == "lobby" and again.host_id == HOST
        assert [(s.user_id, s.level) for s in again.seats if s] == [(HOST, None), (None, "greedy")]
        assert svc.table_in_channel(CHANNEL) is again
        with pytest.raises(Refusal) as exc:
            await svc.rematch(table.id, HOST)
        assert exc.value.reason == "table_exists"
        await svc.start_match(again.id, HOST)
        # mypy keeps the status narrowed by an earlier check across the awaits that change it
        assert again.status == "running"  # type: ignore[comparison-overlap]


async def test_close_refuses_new_work(db: Path) -> None:
    store = await SQLiteStore.open(db)
    try:
        svc = TableService(store, computer_pause=0, deal_pause=0)
        await svc.start()
        table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", game="albastini")
        await svc.close()
        with pytest.raises(Refusal) as exc:
            await svc.join(table.id, P2, "Second")
        assert exc.value.reason == "closed"
    finally:
        await store.close()


async def test_a_failing_store_loses_nothing_and_play_goes_on(db: Path) -> None:
    store = await FlakyStore.open(db)
    clock = ManualClock()
    svc = TableService(store, computer_pause=0, deal_pause=0, clock=clock, retry_delay=1.0)
    try:
        table = await svc.open_table(
            GUILD, CHANNEL, HOST, "Host", players=2, target=2, computer_level="random",
            game="albastini"
        )
        await svc.fill_computers(table.id, HOST)
        await svc.start_match(table.id, HOST)
        await svc.wait_idle()
        # a person's move that cannot be stored is not applied, and they can try again
        store.arm("append_move")
        move_no = table.move_no
        view = table.view_for(HOST)
        assert view is not None
        with pytest.raises(StoreError):
            await svc.act(table.id, HOST, move_no, view["legal"][0])
        assert table.move_no == move_no and await move_count(store, table.id) == move_no - 1
        await svc.act(table.id, HOST, move_no, view["legal"][0])
        # a computer's move, a deal result and the match result fail once each: retried
        await svc.leave(table.id, HOST)
        store.arm("append_move")
        await svc.wait_idle()
        await clock.advance(1.0)
        assert store.fail == {"append_move": 0}
        store.fail = {"record_deal_result": 1, "finish_table": 1}
        for _ in range(300):
            await svc.wait_idle()
            if table.status != "running":
                break
            await clock.advance(1.0)
        assert table.status == "finished"
        assert store.fail == {"record_deal_result": 0, "finish_table": 0}
        snap = await store.load_table(table.id)
        assert snap.table.status == "finished"
        assert [m.move_no for m in snap.moves] == list(range(1, len(snap.moves) + 1))
        assert len(snap.moves) == table.move_no - 1
        assert all(d.result is not None for d in snap.deals)
        assert (await store.user_stats(GUILD, HOST, game="albastini")).matches_played == 1
    finally:
        await svc.close()
        await store.close()


class SlowOpenStore(SQLiteStore):
    """The real store, but opening a lobby takes a while and the calls are counted."""

    creating = 0
    most_at_once = 0
    seat_calls = 0

    async def create_table(self, *args: Any, **kwargs: Any) -> Any:
        self.creating += 1
        self.most_at_once = max(self.most_at_once, self.creating)
        try:
            await asyncio.sleep(0.05)
            return await super().create_table(*args, **kwargs)
        finally:
            self.creating -= 1

    async def add_seat(self, *args: Any, **kwargs: Any) -> Any:
        self.seat_calls += 1
        return await super().add_seat(*args, **kwargs)


async def test_lobbies_in_different_channels_open_at_once(db: Path) -> None:
    """No global lock: channels do not wait for each other; one channel still gets one table,
    written with its host's seat in one store call."""
    store = await SlowOpenStore.open(db)
    svc = TableService(store, computer_pause=0, deal_pause=0)
    try:
        await svc.start()
        opens = [svc.open_table(GUILD, CHANNEL + i, HOST + i, f"Host {i}",
                                game="albastini") for i in range(5)]
        opens += [svc.open_table(GUILD, CHANNEL, P2, "Second",
                                 game="albastini")]  # races the first one
        done = await asyncio.gather(*opens, return_exceptions=True)
        tables = [t for t in done if isinstance(t, Table)]
        refused = [e for e in done if isinstance(e, Refusal)]
        assert len(tables) == 5 and [e.reason for e in refused] == ["table_exists"]
        assert store.most_at_once >= 2 and store.seat_calls == 0
        assert svc._opening == {}
        for table in tables:
            seats = await store.seats(table.id)
            assert [(s.seat_no, s.user_id) for s in seats] == [(0, table.host_id)]
            assert svc.table_in_channel(table.channel_id) is table
    finally:
        await svc.close()
        await store.close()


@pytest.mark.parametrize("game", ["albastini", "twentyeight", "cassino", "ass"])
async def test_what_a_table_shows_follows_every_move_and_deal(db: Path, game: str) -> None:
    """The views a table gives (read many times per move, so kept until the next one) are
    always those of the deal as it is now: after each move, computer moves and new deals
    included, they equal what the game's engine says afresh."""
    async with service(db) as (svc, _store, _rec):
        players = 2 if game in ("albastini", "cassino") else 4
        table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", players=players,
                                     computer_level="easy", game=game)
        await svc.fill_computers(table.id, HOST)
        await svc.start_match(table.id, HOST)
        rng = random.Random(3)
        seen_deals = set()
        while table.status == "running" and table.deal_no < 3:
            await svc.wait_idle()
            if table.status != "running":
                break
            assert table.match is not None
            seat = table.seat_of(HOST)
            assert seat is not None
            fresh = table.rules.view(table.match, seat)
            held = table.hand_view(seat)  # before the full view, then from it
            assert held == table.match.deal.view(seat)
            mine = table.view_for(HOST)
            assert mine is not None and {k: mine[k] for k in fresh} == fresh
            assert {k: table.hand_view(seat)[k] for k in ("hand", "legal", "phase")} == {
                k: fresh[k] for k in ("hand", "legal", "phase")}
            everyone = table.rules.view(table.match, None)
            public = table.public_view()
            assert {k: public[k] for k in everyone} == everyone
            seen_deals.add(table.deal_no)
            if persons_turn(table, HOST):
                await play_legal(svc, table, HOST, rng)
        assert len(seen_deals) >= 2
