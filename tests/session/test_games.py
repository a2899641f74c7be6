"""The table service plays every game of ``GAMES`` the same way: Twenty-Eight tables open, play
to the end with people and computers, survive a restart mid-deal, and keep their results and
leaderboards apart from Albastini's."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from albastini.events import Acted, DealOver, MatchOver
from albastini.games.ass import Match
from albastini.session import Refusal
from albastini.session.core import player_results
from albastini.table import SeatInfo, Table
from albastini.timers import ManualClock
from tests.doubles import (
    CHANNEL,
    GUILD,
    HOST,
    P2,
    P3,
    persons_turn,
    play_legal,
    service,
    until,
)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


async def test_a_twenty_eight_table_plays_to_the_end_and_scores_base_cards(db: Path) -> None:
    async with service(db) as (svc, store, rec):
        table = await svc.open_table(
            GUILD, CHANNEL, HOST, "Host", game="twentyeight", computer_level="easy", target=2
        )
        assert (table.game, table.players, table.team_size) == ("twentyeight", 4, 2)
        await svc.join(table.id, P2, "Second")
        await svc.fill_computers(table.id, HOST)
        await svc.start_match(table.id, HOST)
        rng = random.Random(3)
        clock = svc.clock
        assert isinstance(clock, ManualClock)
        while table.status == "running":
            await svc.wait_idle()
            for uid in (HOST, P2):
                if persons_turn(table, uid):
                    await play_legal(svc, table, uid, rng)
                    break
            else:
                await clock.advance(1.0)
        over = rec.of(MatchOver)[0]
        scores = list(over.scores)
        assert sum(scores) == 4 and min(scores) <= 0  # base cards move, a side wears the kunukku
        deals = rec.of(DealOver)
        assert all(sum(d.result["game_points"]) == 0 for d in deals)  # zero-sum transfers
        board = await store.leaderboard(GUILD, game="twentyeight")
        assert sorted(e.user_id for e in board.entries) == [HOST, P2]
        for entry in board.entries:
            team = table.team_of(table.seat_of(entry.user_id) or 0)
            assert entry.score == scores[team]  # may be negative: the store keeps it
            assert entry.matches_won == int(over.winner_team == team)
        albastini = await store.leaderboard(GUILD, game="albastini")
        assert albastini.entries == ()  # Albastini's board is apart


async def test_a_twenty_eight_table_replays_mid_deal_after_a_restart(db: Path) -> None:
    rng = random.Random(8)
    async with service(db) as (svc, _, _rec):
        table = await svc.open_table(
            GUILD, CHANNEL, HOST, "Host", game="twentyeight", players=3, computer_level="easy"
        )
        await svc.join(table.id, P2, "Second")
        await svc.fill_computers(table.id, HOST)
        await svc.start_match(table.id, HOST)
        clock = svc.clock
        assert isinstance(clock, ManualClock)
        while table.move_no < 15:
            await svc.wait_idle()
            for uid in (HOST, P2):
                if persons_turn(table, uid):
                    await play_legal(svc, table, uid, rng)
                    break
            else:
                await clock.advance(1.0)
        await svc.wait_idle()
        before = {uid: table.view_for(uid) for uid in (HOST, P2)}
        move_no, table_id = table.move_no, table.id
    async with service(db) as (svc, _, _rec):
        again = svc.get(table_id)
        assert again is not None and again.game == "twentyeight"
        assert again.move_no == move_no
        for uid in (HOST, P2):
            view, seen = again.view_for(uid), before[uid]
            assert view is not None and seen is not None
            assert {k: v for k, v in view.items() if k != "names"} == {
                k: v for k, v in seen.items() if k != "names"
            }


async def test_a_twenty_eight_refusal_is_the_game_s_own(db: Path) -> None:
    async with service(db) as (svc, _, _rec):
        table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", game="twentyeight")
        await svc.fill_computers(table.id, HOST)
        await svc.start_match(table.id, HOST)
        await until(lambda: persons_turn(table, HOST), timeout=30)
        view = table.view_for(HOST)
        assert view is not None
        with pytest.raises(Refusal) as exc:
            await svc.act(table.id, HOST, table.move_no, "bid:99")
        assert exc.value.reason == "illegal"
        assert table.view_for(HOST) == view  # nothing changed


async def test_unknown_games_levels_and_modes_are_refused(db: Path) -> None:
    async with service(db) as (svc, _, _rec):
        for kwargs in (
            {"game": "chess"},
            {"game": "twentyeight", "players": 5},
            {"game": "twentyeight", "players": 4, "team_size": 1},
            {"game": "twentyeight", "computer_level": "search"},  # an Albastini-only level
            {"game": "ass", "players": 3, "target": 5},  # banks end Ass, not a target
            {"game": "ass", "players": 5, "options": {"trumps": 1}},  # own trumps: 2-4 only
        ):
            with pytest.raises(Refusal) as exc:
                await svc.open_table(GUILD, CHANNEL, HOST, "Host", **kwargs)
            assert exc.value.reason == "bad_value"
        assert svc.table_in_channel(CHANNEL) is None


async def test_a_computer_never_sees_the_hidden_trump_of_another_seat(db: Path) -> None:
    """What the service gives a computer player is its seat's table view: before the trump is
    exposed, nobody but the bidder finds the trump card or its suit in it."""
    seen: list[dict[str, object]] = []

    async with service(db) as (svc, _, rec):
        table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", game="twentyeight",
                                     computer_level="easy")  # fmt: skip
        await svc.fill_computers(table.id, HOST)
        await svc.start_match(table.id, HOST)
        await svc.leave(table.id, HOST)  # computers play every seat from now on
        rules = table.rules
        original = rules.view

        def spy(match: object, seat: int | None) -> dict[str, object]:
            view = original(match, seat)  # type: ignore[arg-type]
            seen.append(view)
            return view

        rules.view = spy  # type: ignore[method-assign]
        try:
            await until(lambda: table.status != "running" or len(seen) > 60, timeout=60)
        finally:
            del rules.view
        assert rec.of(Acted)
    hidden = [v for v in seen if v["trump_face_down"] and v["seat"] != v["bidder"]]
    assert hidden
    for view in hidden:
        assert view["trump"] is None and view["trump_card"] is None
        assert all(code == "trump" or not str(code).startswith("trump:")
                   for _, code in view["log"])  # type: ignore[attr-defined]  # fmt: skip


async def test_a_computer_s_illegal_choice_is_logged_without_its_card(
    db: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A computer player that answers with a move that is not legal is replaced by a legal
    move, and the log line names the kind of move, never the card (a face-down trump, say)."""
    import albastini.session.turns as turns

    monkeypatch.setattr(turns, "decide", lambda *args, **kwargs: "trump:7H")
    async with service(db) as (svc, _, rec):
        table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", game="twentyeight",
                                     computer_level="easy")  # fmt: skip
        await svc.fill_computers(table.id, HOST)
        await svc.start_match(table.id, HOST)
        await svc.leave(table.id, HOST)
        await until(lambda: len(rec.of(Acted)) >= 3)
    errors = [r for r in caplog.records if "not legal" in r.getMessage()]
    assert errors and all("7H" not in r.getMessage() for r in errors)


async def test_a_finished_match_rates_its_people_against_fixed_strength_computers(
    db: Path,
) -> None:
    async with service(db) as (svc, store, _rec):
        table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", game="twentyeight",
                                     players=3, computer_level="easy", target=1)  # fmt: skip
        await svc.join(table.id, P2, "Second")
        await svc.fill_computers(table.id, HOST)
        await svc.start_match(table.id, HOST)
        await svc.leave(table.id, HOST)  # a computer of the table's level plays on for them
        await svc.leave(table.id, P2)
        await until(lambda: table.status != "running", timeout=60)
        board = await store.ratings(GUILD, game="twentyeight")
        assert {e.user_id for e in board.entries} == {HOST, P2}
        assert all(e.matches == 1 for e in board.entries)
        albastini_ratings = await store.ratings(GUILD, game="albastini")
        assert albastini_ratings.entries == ()  # Albastini's ratings are apart
        history = await store.history(GUILD)
        assert [m.table_id for m in history] == [table.id]
        summary = history[0]
        assert summary.game == "twentyeight" and len(summary.seats) == 3
        assert sorted(team for _, _, team in summary.seats) == [0, 1, 2]
        assert await store.recompute_ratings() == 1
        assert await store.ratings(GUILD, game="twentyeight") == board


@pytest.mark.parametrize(("players", "team_size"), [(2, 1), (3, 1), (4, 2)])
async def test_cassino_tables_play_to_the_end_through_the_service(
    db: Path, players: int, team_size: int
) -> None:
    """Cassino's long codes (a capture or build names every card) are stored and replayed."""
    async with service(db) as (svc, store, rec):
        table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", game="cassino",
                                     players=players, team_size=team_size,
                                     computer_level="easy", target=5)  # fmt: skip
        await svc.fill_computers(table.id, HOST)
        await svc.start_match(table.id, HOST)
        await svc.leave(table.id, HOST)
        await until(lambda: table.status != "running", timeout=120)
        assert table.status == "finished"
        codes = [m.action for m in await store.moves(table.id)]
        assert any(code.count(":") >= 2 for code in codes)  # captures naming their cards
        over = rec.of(MatchOver)[0]
        assert max(over.scores) >= 5
        replay = await svc.deal_replay(table.id, 1)
        assert [s.code for s in replay.steps[1:]] == [
            m.action for m in await store.moves(table.id) if m.deal_no == 1
        ]


def test_everyone_with_the_fewest_banks_wins_an_ass_match() -> None:
    """Ass's rules: the winners are all the players with the fewest banks. A match where two
    players reach 0 together counts as won for both on the leaderboard, lost for the third."""
    match, rng = Match(3, seed=37), random.Random(37)  # a seed found to end [3, 0, 0]
    table = Table(id=1, guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, players=3,
                  team_size=1, target=0, turn_time=60, computer_level="normal", language="en",
                  game="ass", status="running",
                  seats=[SeatInfo(s, 100 + s, f"P{s}", None) for s in range(3)])
    while not match.finished:
        if match.deal.phase == "finished":
            table.results.append(table.rules.deal_score(match))
            match.next_deal()
        else:
            match.deal.apply(rng.choice(match.deal.legal_actions()))
    table.results.append(table.rules.deal_score(match))
    table.match = match
    assert match.banks == [3, 0, 0] and match.winner is None
    won = {r.user_id: r.won for r in player_results(table)}
    assert won == {100: False, 101: True, 102: True}


async def test_an_ass_deal_below_zero_is_stored_and_counted_as_the_rules_scored_it(
    db: Path,
) -> None:
    """Ass's sixes are worth -1: a player can end a deal with fewer than 0 card points. The
    store keeps each deal's points as the rules gave them (the deal summaries' numbers), and a
    player's average per deal is the mean of those (a -1 stored as 0 made it read higher).
    Three people playing their first legal code; the service's seed 25 was found to give a
    deal of -1."""
    async with service(db, rng=random.Random(25)) as (svc, store, rec):
        table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", game="ass", players=3)
        await svc.join(table.id, P2, "Second")
        await svc.join(table.id, P3, "Third")
        await svc.start_match(table.id, HOST)
        clock = svc.clock
        assert isinstance(clock, ManualClock)
        while table.status == "running":
            await svc.wait_idle()
            for uid in (HOST, P2, P3):
                if persons_turn(table, uid):
                    await play_legal(svc, table, uid)
                    break
            else:
                await clock.advance(1.0)
        assert table.status == "finished"
        rules = [list(d.result["points"]) for d in rec.of(DealOver)]
        assert min(min(points) for points in rules) == -1
        stored = [d.result for d in (await store.load_table(table.id)).deals]
        assert [list(r.card_points) for r in stored if r is not None] == rules
        for uid in (HOST, P2, P3):
            team = table.team_of(table.seat_of(uid) or 0)
            mine = [points[team] for points in rules]
            stats = await store.user_stats(GUILD, uid, game="ass")
            assert (stats.deals_played, stats.card_points) == (len(mine), sum(mine))
            assert stats.avg_card_points_per_deal == pytest.approx(sum(mine) / len(mine))
