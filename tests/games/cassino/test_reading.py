"""Reading the other hands from this round's plays (:mod:`..ai.reading`): the true hands are
likelier than the worlds the search would draw, and a player that reads stays blind and
legal."""

from __future__ import annotations

import json
import random

import pytest

from albastini.games.cassino import make_player, new_deal, table_view
from albastini.games.cassino.ai import SearchPlayer, reading
from albastini.games.cassino.ai.core import passed_up, read_view
from albastini.games.cassino.ai.search import sample_world

from .helpers import assert_blind


def test_the_true_hand_is_likelier_than_a_drawn_one_against_normal_players() -> None:
    """Normal players (whose score the reading's model is) play heads-up; at seat 0's
    decisions once the other seat has played this round, the other seat's true hand
    weighs more than the hands the search draws (the hard reading of passed-up captures
    already applied) by a clear margin on average, and nothing is read before it plays."""
    rng = random.Random(3)
    ratios = []
    for seed in range(6):
        deal = new_deal(2, seed=seed + 500)
        normal = make_player("normal", seed=seed)
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            view = table_view(deal, seat)
            k = read_view(view)
            plays = reading.read_plays(view, k, 8.0)
            if seat == 0 and k.hand_sizes[1] == 4:
                assert not plays
            if seat == 0 and plays and k.pack:
                assert {p.seat for p in plays} == {1}
                truth = reading.likelihood(plays, deal.state.hands)
                lacks = passed_up(view, k)
                drawn = [reading.likelihood(plays, sample_world(k, rng, lacks).hands)
                         for _ in range(31)]
                ratios.append(truth / (sum(drawn) / len(drawn)))
            deal.apply(normal.choose(view))
    assert len(ratios) > 30
    assert sum(ratios) / len(ratios) > 1.15


def test_a_world_is_kept_by_its_weight() -> None:
    """Of the worlds drawn, one the plays make impossible is never kept."""
    deal = new_deal(2, seed=4)
    st = deal.state
    card = st.hands[1][0]
    plays = [reading.Play(seat=1, later=(), played=1.0, per_card={card: float("inf")})]
    rng = random.Random(0)
    other = st.copy()
    other.hands[1] = [c for c in st.hands[1] if c != card] + [st.hands[0][0]]
    for _ in range(20):
        kept = reading.weighted_world(iter([other, st.copy()]).__next__, plays, rng, 2)
        assert card not in kept.hands[1]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_reading_hard_plays_legal_codes(players: int) -> None:
    hard = make_player("hard", seed=2, iterations=3)
    assert isinstance(hard, SearchPlayer)
    hard.read_beta = 8.0
    deal = new_deal(players, seed=players + 10)
    while deal.phase != "finished":
        view = json.loads(json.dumps(table_view(deal, deal.to_act)))
        code = hard.choose(view)
        assert code in deal.legal_actions()
        deal.apply(code)


def test_a_reading_hard_sees_only_its_view() -> None:
    deal = new_deal(2, seed=12)
    greedy = make_player("greedy")
    for _ in range(9):
        deal.apply(greedy.choose(table_view(deal, deal.to_act)))

    def choose(view: object) -> str:
        hard = make_player("hard", seed=2, iterations=30)
        assert isinstance(hard, SearchPlayer)
        hard.read_beta = 8.0
        return hard.choose(view)  # type: ignore[arg-type]

    assert_blind(deal, choose, 5)
