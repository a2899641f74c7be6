"""The value of a heads-up deal at a round's end (``ai/horizon.py``): symmetric between the
sides, in the unit a finished deal is scored in, and used by hard only when asked; rollouts
where every seat plays normal's choice."""

from __future__ import annotations

import random

import pytest

from albastini.games.cassino import kernel as K
from albastini.games.cassino import make_player, new_deal, table_view
from albastini.games.cassino.ai import horizon
from albastini.games.cassino.ai.core import rollout_move
from albastini.games.cassino.ai.search import SearchPlayer, outcomes


def round_ends(seed: int) -> list[K.State]:
    """The states of a greedy heads-up deal just after each new round is dealt."""
    st = K.State(2, 1, seed % 2, random.Random(seed).sample(range(52), 52))
    out = []
    rnd = st.round
    while not st.finished:
        st.apply(rollout_move(st))
        if not st.finished and st.round != rnd:
            rnd = st.round
            out.append(st.copy())
    return out


def test_features_are_differences_between_the_sides() -> None:
    for seed in range(5):
        for st in round_ends(seed):
            mine, theirs = horizon.features(st, 0), horizon.features(st, 1)
            assert len(mine) == len(horizon.FEATURES) == len(horizon.WIN)
            assert mine == [-x for x in theirs]


def test_points_won_count_the_cards_and_a_majority_decided() -> None:
    st = round_ends(1)[-1]
    # the Threes to the Eights (6 spades), the 10♦, the 2♠ and an Ace: 27 cards, 7 spades
    st.piles = [[K.CODE_INT[c] for c in ("TD", "2S", "AC")] + list(range(8, 32)), []]
    st.sweeps = [1, 0]
    x = dict(zip(horizon.FEATURES, horizon.features(st, 0), strict=True))
    # 10♦ 2, 2♠ 1, an Ace, a sweep, most cards (3) and most spades (1) decided: their leads
    # no longer count
    assert x["points"] == 2 + 1 + 1 + 1 + 3 + 1
    assert x["cards"] == x["spades"] == 0.0


def test_a_side_further_ahead_is_worth_more_and_the_sides_share_one() -> None:
    st = round_ends(2)[1]
    behind = st.copy()
    behind.piles = [[c for c in p if c != K.TEN_D] for p in st.piles]
    ahead = behind.copy()
    ahead.piles[0].append(K.TEN_D)
    assert horizon.deal_value(ahead, 0) > horizon.deal_value(behind, 0)
    # a chance of winning and its complement; the margins cancel
    for s in round_ends(3):
        assert abs(horizon.deal_value(s, 0) + horizon.deal_value(s, 1) - 1.0) < 1e-9


def test_outcomes_use_the_model_only_when_asked_and_only_before_the_end() -> None:
    ends = round_ends(4)
    st, start = ends[2], ends[0]
    assert outcomes(st, start, model=True) == [horizon.deal_value(st, 0),
                                               horizon.deal_value(st, 1)]
    assert outcomes(st, start) != outcomes(st, start, model=True)
    done = st.copy()
    while not done.finished:
        done.apply(rollout_move(done))
    assert outcomes(done, start, model=True) == outcomes(done, start)


@pytest.mark.parametrize("option, value, seed, iterations", [
    ("horizon_model", True, 11, 4),  # rollouts stopped at a round's end valued by the model
    ("others_policy", "every", 12, 3),  # every seat's rollout plays normal's choice
])
def test_hard_with_a_rollout_option_plays_legal_codes(option: str, value: object, seed: int,
                                                      iterations: int) -> None:
    deal = new_deal(2, seed=seed)
    bots = [make_player("hard", seed=s, iterations=iterations) for s in range(2)]
    for b in bots:
        assert isinstance(b, SearchPlayer)
        setattr(b, option, value)
    while deal.phase != "finished":
        seat = deal.to_act
        assert seat is not None
        code = bots[seat].choose(table_view(deal, seat))
        assert code in deal.legal_actions()
        deal.apply(code)
