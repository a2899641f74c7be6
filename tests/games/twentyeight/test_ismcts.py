"""The hard player's play search (information-set MCTS): deeper than one step over rollouts,
legal, and a function of the view alone."""

from __future__ import annotations

import random

import pytest

from albastini.games.twentyeight import kernel as K
from albastini.games.twentyeight import new_deal, pack
from albastini.games.twentyeight.ai import ismcts
from albastini.games.twentyeight.ai.core import side_of
from albastini.games.twentyeight.ai.search import SearchPlayer, rollout

from .helpers import deck_for, minimax, play, plays_legal_cards

#: A deal (dealer 2) and its first 31 actions: seat 2 bid 17 with diamonds, every diamond is
#: out, seat 1 (a defender) leads to the last three tricks holding A♥ K♠ 10♠. The bidding
#: side has 10 of its 17; 12 points are left. Leading the Ace of hearts lets the partner's
#: Nine take the Ten and the Ace (4 points), and the defenders beat the contract; a spade
#: lead lets the Jack of spades win and the contract is made.
DECK = ["9C", "QH", "8S", "AD", "QD", "JD", "KS", "JH", "9H", "QS", "JC", "8C", "8H", "KD",
        "7S", "TD", "AS", "9D", "AC", "7H", "KC", "9S", "TS", "JS", "7D", "QC", "KH", "7C",
        "8D", "TH", "AH", "TC"]
ACTIONS = ["bid:14", "bid:15", "bid:16", "bid:17", "pass", "pass", "pass", "trump:TD", "pass",
           "pass", "play:7D", "play:9D", "play:7S", "play:AD", "play:JD", "expose", "play:8S",
           "play:TD", "play:8D", "play:KD", "play:KH", "play:JH", "play:QD", "play:QC",
           "play:JC", "play:7C", "play:9C", "play:AC", "play:8C", "play:KC", "play:QH"]


def exact(st: K.State) -> float:
    """The bidding side's result of ``st`` played perfectly by everyone (every card seen)."""
    return minimax(st, lambda end: ismcts.side_utilities(end)[0])


def test_ismcts_finds_the_lead_that_beats_the_contract_where_one_step_errs() -> None:
    """On the true deal (no sampling), one step over rollouts leads a spade and loses; the
    tree search sees the tricks after it and leads the Ace under the partner's Nine."""
    deal = new_deal(4, 2, 2, deck=DECK)
    play(deal, *ACTIONS)
    st = deal.state
    assert st.to_act == 1 and side_of(st, 1) == 1
    cards = st.play_options()
    assert sorted(K.CODES[c] for c in cards) == ["AH", "KS", "TS"]
    ah = K.CODES.index("AH")

    def after(card: int) -> K.State:
        nxt = st.copy()
        nxt.apply(card)
        return nxt

    # the premise: only the Ace beats the contract, and one step over rollouts misses it
    values = {K.CODES[c]: exact(after(c)) for c in cards}
    assert values["AH"] < 1 <= values["KS"] and values["TS"] >= 1
    one_step = {}
    for c in cards:
        nxt = after(c)
        rollout(nxt)
        one_step[c] = ismcts.side_utilities(nxt)[1]
    assert max(one_step, key=lambda c: one_step[c]) != ah

    for seed in range(3):
        visits = ismcts.search(lambda: (st.copy(), 1.0), cards, random.Random(seed),
                               lambda done: done < 1500, rollout)
        assert cards[visits.index(max(visits))] == ah


def test_ismcts_counts_only_the_root_actions_it_chose() -> None:
    """Every iteration chooses exactly one of this seat's actions; a world of weight 0 is
    skipped and counts for none."""
    deal = new_deal(4, 2, 2, deck=DECK)
    play(deal, *ACTIONS)
    st = deal.state
    cards = st.play_options()
    draws = iter([0.0, 1.0] * 100)
    visits = ismcts.search(lambda: (st.copy(), next(draws)), cards, random.Random(1),
                           lambda done: done < 200, rollout)
    assert sum(visits) == 100 and min(visits) > 0


def test_hard_plays_legal_cards_with_the_tree_search_in_every_mode() -> None:
    """The tree search (a bench option) plays only legal cards in 3, 4 and 6 players."""
    for players in (3, 4, 6):
        bot = SearchPlayer(seed=players, iterations=3)
        bot.play_search = "ismcts"
        plays_legal_cards(bot, players)


@pytest.mark.parametrize("play_search", ["pimc", "ismcts"])
def test_hard_chooses_from_its_view_alone(play_search: str) -> None:
    """The other hands dealt differently around the same view of the leader: the same
    card every time (a fixed seed and number of iterations), with either play search."""
    first = ["JH", "9H", "7S", "QC"]
    second = ["AH", "KD", "8C", "TS"]
    rng = random.Random(5)
    codes = set()
    for _ in range(6):
        rest = [c.code for c in pack(4) if c.code not in first + second]
        rng.shuffle(rest)
        deck = deck_for(4, 3, {0: first, 1: rest[:4], 2: rest[4:8], 3: rest[8:12]},
                        {0: second, 1: rest[12:16], 2: rest[16:20], 3: rest[20:24]})
        deal = new_deal(4, 2, 3, deck=deck)
        play(deal, "bid:14", "pass", "pass", "pass", "trump:7S", "pass", "pass")
        assert deal.phase == "playing" and deal.to_act == 0
        view = deal.view(0)
        bot = SearchPlayer(seed=1, iterations=4)
        bot.play_search = play_search
        code = bot.choose(view)
        assert code in view["legal"]
        codes.add(code)
    assert len(codes) == 1
