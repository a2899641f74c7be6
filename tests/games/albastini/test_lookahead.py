"""Short looks ahead: heads-up leads priced on sampled hands of the opponent
(``terms.leaf_values``) and rollouts stopped a few rounds on (``sim.horizon_rollout``)."""

from __future__ import annotations

import random

import pytest

from albastini import MODES, new_deal
from albastini.ai import make_player
from albastini.games.albastini.ai.core import Knowledge
from albastini.games.albastini.ai.heuristic import keep_value
from albastini.games.albastini.ai.sim import horizon_rollout
from albastini.games.albastini.ai.terms import expert_values, leaf_values
from albastini.games.albastini.fast import FastDeal
from albastini.games.albastini.kernel import CARDS, POINTS, STRENGTH, SUIT, card_int, suit_int

from .test_ai import play_with


def lead_position(mine: list[str], theirs: list[str], trump: str = "H") -> Knowledge:
    """Seat 0 to lead heads-up, the stock half full, seat 1's hand known to seat 0 (as if every
    card of it had been bid back or drawn face up): no chance left in the follower's answer."""
    hand = [card_int(c) for c in mine]
    known = [card_int(c) for c in theirs]
    unknown = [c for c in range(CARDS) if c not in hand and c not in known]
    return Knowledge(
        players=2, team_size=1, teams=2, seat=0, phase="playing", trump=suit_int(trump),
        hand=hand, hand_sizes=[len(hand), len(known)], stock=12, face_up=None, leader=0,
        current=[], played=set(), eaten=[0, 0], known=[[], known], unknown=unknown,
        slots=[0, 0], stock_hidden=12,
    )


def test_an_ace_the_follower_cannot_take_is_worth_its_points() -> None:
    """The follower holds low diamonds only: the Ace of spades led is banked, 11 points, and
    a zero-point lead it cannot take is worth nothing."""
    k = lead_position(["AS", "3C", "4C", "5C", "6C"], ["3D", "4D", "5D", "6D", "QD"])
    values = leaf_values(k, random.Random(1))
    assert values[card_int("AS")] == 11.0
    assert values[card_int("3C")] == 0.0


def test_a_follower_trumps_a_lead_worth_more_than_its_trump() -> None:
    """The follower's one trump, the Seven (10 points, power 3 + 0.6 x its strength 7 with the
    Ace of trumps out), takes the Ace led (21 points in the round) but not the Queen (12):
    the Queen is banked, the Ace lost less what the Seven was worth to keep."""
    k = lead_position(["AS", "QS", "3C", "4C", "5C"], ["7H", "4D", "5D", "6D", "3D"])
    values = leaf_values(k, random.Random(1))
    seven = 10.0 + 3.0 + 0.6 * 7
    assert values[card_int("QS")] == 2.0
    assert values[card_int("AS")] == pytest.approx(-21.0 + seven)
    assert keep_value(k, card_int("AS")) == 0.0
    assert expert_values(k)[card_int("AS")] == -11.0  # the expert: any trump takes it


def test_horizon_rollout_stops_after_its_rounds() -> None:
    """Two rounds from a heads-up lead: four cards played, each player drawn twice, the
    card points of those rounds eaten, the hands' worth added to each side."""
    deal = new_deal(2, 1, 0, seed=7)
    while deal.phase == "bidding":
        deal.apply(sorted(deal.view(deal.to_act)["legal"])[-1])  # pass where one may
    st = FastDeal.from_deal(deal)
    hands = [sorted(h) for h in st.hands]
    stock_before = st.stock_left()
    values = horizon_rollout(st, 2)
    assert not st.finished and not st.current
    assert st.stock_left() == stock_before - 4
    assert [len(h) for h in st.hands] == [len(h) for h in hands]
    eaten = st.points()
    for s in range(2):
        assert values[s] == pytest.approx(eaten[s] + sum(_worth(st.trump, c) for c in st.hands[s]))


def _worth(trump: int, card: int) -> float:
    """``terms.worth_in_hand``'s table, as the test reads the rule."""
    if SUIT[card] == trump:
        return POINTS[card] + 3.0 + 0.6 * STRENGTH[card]
    return 0.5 * POINTS[card]


@pytest.mark.parametrize("options", [{"horizon": 2}, {"root": "leaf"}])
def test_lookahead_options_play_legal_cards(options: dict[str, object]) -> None:
    for mode in ("2", "4 pairs"):
        players, team_size = MODES[mode]
        deal = new_deal(players, team_size, 1, seed=94)
        bots = [make_player("hard", seed=s, iterations=3, **options) for s in range(players)]
        assert play_with(deal, bots).phase == "finished"  # every action checked legal


def test_negative_horizon_is_refused() -> None:
    with pytest.raises(ValueError, match="horizon"):
        make_player("hard", horizon=-1)
