"""Hard's auction edge (``SearchPlayer.auction_edge``, the bench's ``--edge28``): the speech
and the trump card judge a sampled deal's contract as if this seat's side had played a few
card points better than the rollouts; with no edge they score as :func:`search.utility`."""

from __future__ import annotations

import random

import pytest

from albastini.games.twentyeight import kernel as K
from albastini.games.twentyeight import new_deal
from albastini.games.twentyeight.ai import search
from albastini.games.twentyeight.ai.search import SearchPlayer, edged_utility

from ..albastini.test_arena import arena
from .helpers import plays_legal_cards


def finished(seed: int) -> K.State:
    """A 4-pairs deal bid by the model and played out by the rollouts."""
    deck = list(K.pack_ints(4))
    random.Random(seed).shuffle(deck)
    st = K.State.new(4, 2, seed % 4, deck)
    search.model_auction(st, [15.0, 16.0, 14.0, 15.5])
    search.rollout(st)
    return st


def test_no_edge_is_the_utility() -> None:
    for seed in range(20):
        st = finished(seed)
        for seat in range(4):
            assert edged_utility(st, seat, (0.0, 0.0)) == search.utility(st, seat)


def test_the_edge_moves_the_contract_by_its_points() -> None:
    seen = 0
    for seed in range(200):
        st = finished(seed)
        team = st.bidder % 2
        pts = st.points[team]
        short = st.contract - pts  # points the bidding side missed the contract by
        bidder, defender = st.bidder, (st.bidder + 1) % 4
        if 0 < short <= 2:
            seen += 1
            # the bidding side counted 2 points better makes it; 1 point short of it does not
            assert edged_utility(st, bidder, (2.0, 0.0)) == pytest.approx(1.0 + 0.01 * pts)
            assert edged_utility(st, bidder, (short - 1.0, 0.0)) == pytest.approx(0.01 * pts)
            # a fraction of a point: that share of the contract one point short made
            assert edged_utility(st, bidder, (short - 0.75, 0.0)) == pytest.approx(
                0.25 + 0.01 * pts)
            # the defenders' edge is theirs only: it never turns a failed contract made
            assert edged_utility(st, defender, (0.0, 3.0)) == search.utility(st, defender)
        if 0 <= -short < 2:
            seen += 1
            # a contract made by less than 2 points is beaten by defenders counted 2 better
            assert edged_utility(st, defender, (0.0, 2.0)) == pytest.approx(
                1.0 + 0.01 * (28 - pts))
            assert edged_utility(st, bidder, (0.0, 2.0)) == search.utility(st, bidder)
    assert seen > 10


def test_hard_with_an_edge_plays_legal_codes() -> None:
    bot = SearchPlayer(seed=3, iterations=4)
    bot.auction_edge = (1.5, 1.0)
    plays_legal_cards(bot, 4, seeds=1)
    plays_legal_cards(bot, 3, seeds=1)


def test_an_edge_for_the_contract_bids_and_one_for_the_defence_passes() -> None:
    # counted 28 points better as the bidding side, any contract of its side is made: it
    # bids wherever hard bids, and on more hands; counted 28 better on the defence, every
    # contract of the others is beaten: it passes
    more = 0
    for seed in range(12):
        deal = new_deal(4, seed=seed)
        deal.apply(deal.view(deal.to_act)["legal"][0])  # the compulsory opening
        view = deal.view(deal.to_act)
        assert "pass" in view["legal"]
        speech = {}
        for edge in ((0.0, 0.0), (28.0, 0.0), (0.0, 28.0)):
            bot = SearchPlayer(seed=seed, iterations=10)
            bot.auction_edge = edge
            speech[edge] = bot.choose(view)
        if speech[(0.0, 0.0)] != "pass":
            assert speech[(28.0, 0.0)] != "pass"
        else:
            more += speech[(28.0, 0.0)] != "pass"
        assert speech[(0.0, 28.0)] == "pass"
    assert more > 0


def test_the_arena_sets_the_edge() -> None:
    bot = arena.make_bot("twentyeight", "hard", 1, {"edge": (1.5, 1.0), "iterations": 2})
    assert isinstance(bot, SearchPlayer) and bot.auction_edge == (1.5, 1.0)
    bot = arena.make_bot("twentyeight", "hard", 1, {"iterations": 2})
    assert isinstance(bot, SearchPlayer) and bot.auction_edge == search.AUCTION_EDGE
