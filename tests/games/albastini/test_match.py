"""A match: deals until a side reaches the target; who deals next."""

from __future__ import annotations

import json
import random

import pytest

from albastini import MODES, PACK, Match, next_dealer, score
from albastini.games.albastini.deal import DealResult


def finish(match: Match, rng: random.Random) -> None:
    deal = match.deal
    while deal.phase != "finished":
        deal.apply(rng.choice(deal.legal_actions()))


def result(winner: int | None, teams: int, team_size: int) -> DealResult:
    points = [100 // teams] * teams
    if winner is not None:
        points[winner] += 1
    return score(points, team_size)


@pytest.mark.parametrize("dealer", range(4))
def test_after_a_tie_the_same_dealer_deals_again(dealer: int) -> None:
    assert next_dealer(dealer, result(None, 2, 2), 4, 2) == dealer
    assert next_dealer(dealer, result(None, 4, 1), 4, 4) == dealer


@pytest.mark.parametrize(
    ("players", "dealer", "winner"), [(2, 0, 1), (3, 2, 0), (5, 1, 1), (6, 0, 4)]
)
def test_individual_play_the_winner_deals(players: int, dealer: int, winner: int) -> None:
    assert next_dealer(dealer, result(winner, players, 1), players, players) == winner


@pytest.mark.parametrize(
    ("name", "dealer", "winner", "expected"),
    [
        ("4 pairs", 0, 0, 2),  # the dealer's team won: the partner deals
        ("4 pairs", 2, 0, 0),  # ... and back again: the deal rotates among the winners
        ("4 pairs", 0, 1, 1),  # the other team won: its first member clockwise
        ("4 pairs", 1, 0, 2),
        ("4 pairs", 3, 0, 0),
        ("6 pairs", 0, 0, 3),
        ("6 pairs", 0, 2, 2),
        ("6 pairs", 4, 2, 5),
        ("6 pairs", 5, 2, 2),
        ("6 trios", 0, 0, 2),
        ("6 trios", 2, 0, 4),
        ("6 trios", 4, 0, 0),
        ("6 trios", 4, 1, 5),
    ],
)
def test_team_play_rotates_the_deal_among_the_winning_team(
    name: str, dealer: int, winner: int, expected: int
) -> None:
    players, team_size = MODES[name]
    teams = players // team_size
    assert next_dealer(dealer, result(winner, teams, team_size), players, teams) == expected


@pytest.mark.parametrize(("name", "spec"), list(MODES.items()))
def test_a_match_runs_to_the_target(name: str, spec: tuple[int, int]) -> None:
    players, team_size = spec
    rng = random.Random(name)
    match = Match(players, team_size, target=3, dealer=players - 1, seed=rng.getrandbits(32))
    assert match.deal.dealer == players - 1
    assert match.scores == [0] * match.teams
    with pytest.raises(ValueError, match="not finished"):
        match.next_deal()
    totals = [0] * match.teams
    while True:
        finish(match, rng)
        res = match.deal.result()
        if res.winner is not None:
            totals[res.winner] += res.victory_points
        assert match.scores == totals
        if match.finished:
            break
        assert match.winner is None
        expected = next_dealer(match.deal.dealer, res, players, match.teams)
        if res.winner is None:
            assert expected == match.deal.dealer
        else:
            assert expected % match.teams == res.winner
        deal = match.next_deal()
        assert deal is match.deal and deal.dealer == expected
        assert deal.phase == "bidding"
    assert max(match.scores) >= 3
    assert match.winner == match.scores.index(max(match.scores))
    assert sorted(match.scores)[-2] < 3  # only one side can reach the target
    with pytest.raises(ValueError, match="over"):
        match.next_deal()
    summary = json.loads(json.dumps(match.to_json()))
    assert len(summary["deals"]) == match.deal_no == len(match.history) + 1


def test_a_match_seed_replays_the_whole_match() -> None:
    a = Match(4, 2, target=2, seed=99)
    b = Match(4, 2, target=2, seed=99)
    rng_a, rng_b = random.Random(1), random.Random(1)
    for _ in range(3):
        finish(a, rng_a)
        finish(b, rng_b)
        assert a.deal.to_record() == b.deal.to_record()
        if a.finished:
            break
        a.next_deal()
        b.next_deal()
    assert a.deal_seeds == b.deal_seeds


def test_match_target_and_explicit_decks() -> None:
    with pytest.raises(ValueError):
        Match(4, 2, target=0)
    with pytest.raises(ValueError):
        Match(7)
    deck = [c.code for c in PACK]
    match = Match(4, 2, target=1, dealer=1, deck=deck)
    assert [c.code for c in match.deal.deck] == deck
    finish(match, random.Random(0))
    if match.deal.result().winner is None:
        assert not match.finished
        match.next_deal(deck=list(reversed(deck)))
        assert [c.code for c in match.deal.deck] == list(reversed(deck))
    else:
        assert match.finished  # a target of 1: any won deal ends the match
