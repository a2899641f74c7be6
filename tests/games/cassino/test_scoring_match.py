"""Scoring a deal (the table of items, ties for most cards and spades, the winner) and the
match to 21 (counted at the end of deals, a tie at the top plays on, the deal passes left)."""

from __future__ import annotations

import random

import pytest

from albastini.games.cassino import DEFAULT_TARGET, IllegalMove, Match, new_deal
from albastini.games.cassino import kernel as K

from .helpers import c


def pile(codes: str) -> list[int]:
    return [c(x) for x in codes.split()]


def test_the_scoring_table() -> None:
    # team 0: 27 cards with 7 spades, TD, 2S, two aces; team 1: 25 cards, 6 spades, 2 aces
    rest = [x for x in range(52) if x not in pile("TD 2S AC AD AH AS")]
    spades = [x for x in rest if x % 4 == 3]
    others = [x for x in rest if x % 4 != 3]
    team0 = pile("TD 2S AC AS") + spades[:5] + others[:18]
    team1 = [x for x in range(52) if x not in team0]
    points, items = K.score([team0, team1], [2, 0])
    assert items[0] == {"cards": 3, "spades": 1, "big_cassino": 2, "little_cassino": 1,
                        "aces": 2, "sweeps": 2, "n_cards": 27, "n_spades": 7}
    assert items[1]["aces"] == 2 and items[1]["cards"] == 0 and items[1]["spades"] == 0
    assert points == [11, 2]


def test_ties_for_most_cards_and_spades_score_nothing() -> None:
    # 26 cards each, spades split 7-6
    team0 = list(range(0, 52, 2))
    team1 = list(range(1, 52, 2))
    points, items = K.score([team0, team1], [0, 1])
    assert items[0]["cards"] == items[1]["cards"] == 0
    assert sum(points) == 11 - 3 + 1
    # three players: 18, 18, 16 cards: nobody gets the 3
    _p3, it3 = K.score([list(range(18)), list(range(18, 36)), list(range(36, 52))], [0, 0, 0])
    assert [it["cards"] for it in it3] == [0, 0, 0]


def test_result_only_when_finished_and_winner_by_strictly_most() -> None:
    deal = new_deal(2, seed=1)
    with pytest.raises(IllegalMove):
        deal.result()
    rng = random.Random(1)
    while deal.phase != "finished":
        deal.apply(rng.choice(deal.legal_actions()))
    r = deal.result()
    top = max(r.points)
    assert r.winner == (r.points.index(top) if r.points.count(top) == 1 else None)
    js = r.to_json()
    for key in ("points", "winner", "game_points", "cards", "spades", "big_cassino",
                "little_cassino", "aces", "sweeps"):
        assert key in js
    assert deal.view(0)["result"] == js


def finish(match: Match, rng: random.Random) -> None:
    while match.deal.phase != "finished":
        match.deal.apply(rng.choice(match.deal.legal_actions()))


def test_a_match_goes_to_21_and_the_deal_passes_left() -> None:
    assert DEFAULT_TARGET == 21
    rng = random.Random(4)
    match = Match(3, dealer=2, seed=8)
    assert match.target == 21 and match.scores == [0, 0, 0] and match.deal.dealer == 2
    with pytest.raises(IllegalMove):
        match.next_deal()
    dealers = [2]
    while True:
        finish(match, rng)
        total = [0, 0, 0]
        for _, r in match.history:
            total = [a + b for a, b in zip(total, r.game_points, strict=True)]
        total = [a + b for a, b in zip(total, match.deal.result().points, strict=True)]
        assert match.scores == total
        top = max(total)
        assert match.finished == (top >= 21 and total.count(top) == 1)
        if match.finished:
            assert match.winner == total.index(top)
            with pytest.raises(IllegalMove):
                match.next_deal()
            break
        assert match.winner is None
        match.next_deal()
        dealers.append(match.deal.dealer)
    assert dealers == [(2 + k) % 3 for k in range(len(dealers))]
    assert match.deal_no == len(dealers) == len(match.deal_seeds)


class FakeResult:
    def __init__(self, points: list[int]) -> None:
        self.points = self.game_points = points


def test_a_tie_at_the_top_plays_on() -> None:
    match = Match(2, target=21, seed=1)
    finish(match, random.Random(0))
    match.history = [(match.deal, FakeResult([22 - match.deal.result().points[0],
                                              22 - match.deal.result().points[1]]))]  # type: ignore[list-item]
    assert match.scores == [22, 22] and not match.finished and match.winner is None
    match.history = [(match.deal, FakeResult([23 - match.deal.result().points[0],
                                              22 - match.deal.result().points[1]]))]  # type: ignore[list-item]
    assert match.scores == [23, 22] and match.finished and match.winner == 0


def test_targets_and_replays() -> None:
    for bad in (0, -1, 2.5, True, "21"):
        with pytest.raises(ValueError):
            Match(2, target=bad)  # type: ignore[arg-type]
    a = Match(4, seed=5, deal_seed=77)
    b = Match(4, seed=5, deal_seed=77)
    assert a.deal.view(0) == b.deal.view(0)
    assert a.deal_seeds == [77]
    finish(a, random.Random(1))
    a.next_deal(seed=12)
    assert a.deal.view(1)["hand"] == new_deal(4, 2, 1, seed=12).view(1)["hand"]
