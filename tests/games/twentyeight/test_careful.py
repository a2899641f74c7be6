"""The careful rollout policy (albastini/games/twentyeight/ai/careful.py): legal in every
mode, and the trick rules it follows in constructed positions; reading the others' plays
with it (reads.py)."""

from __future__ import annotations

import random

import pytest

from albastini.games.twentyeight import Deal
from albastini.games.twentyeight import kernel as K
from albastini.games.twentyeight.ai import search
from albastini.games.twentyeight.ai.careful import careful_policy, shown_voids
from albastini.games.twentyeight.ai.core import CODE_INT, read_view, sample_world
from albastini.games.twentyeight.ai.infer import hand_value
from albastini.games.twentyeight.ai.reads import play_weight, public_plays, start_of_play
from albastini.games.twentyeight.ai.search import SearchPlayer, model_auction

from ..albastini.test_arena import arena
from .helpers import deck_for, plays_legal_cards, to_play


@pytest.mark.parametrize(("players", "team_size"), [(3, 1), (4, 2), (6, 3)])
def test_careful_policy_plays_legal_actions_to_the_end(players: int, team_size: int) -> None:
    rng = random.Random(players)
    for i in range(40):
        deck = list(K.pack_ints(players))
        rng.shuffle(deck)
        st = K.State.new(players, team_size, i % players, deck)
        model_auction(st, [hand_value(st.hand(s), players)[0] for s in range(players)])
        while st.phase == K.PLAYING:
            action = careful_policy(st)
            assert action in st.play_options()
            st.apply(action)
        assert st.phase == K.FINISHED


def first_trick_dealt() -> K.State:
    """4 pairs, dealer 0: seat 1 bids 16 and lays the Seven of clubs; seat 2 holds no spade,
    seat 3 the Jack and Nine of spades (and no other card that cannot be beaten)."""
    first = {1: ["7C", "8C", "9C", "8S"], 2: ["7H", "KH", "QD", "AD"],
             3: ["JS", "9S", "8D", "7D"], 0: ["JD", "TD", "JH", "AS"]}
    second = {1: ["JC", "AC", "TC", "KC"], 2: ["AH", "TH", "8H", "QC"],
              3: ["QH", "9H", "9D", "KD"], 0: ["TS", "KS", "QS", "7S"]}
    deck = [CODE_INT[c] for c in deck_for(4, 0, first, second)]
    st = K.State.new(4, 2, 0, deck)
    for action in (K.BID + 16, K.PASS, K.PASS, K.PASS, K.TRUMP + CODE_INT["7C"]):
        st.apply(action)
    while st.phase == K.RAISING:
        st.apply(K.PASS)
    st.apply(CODE_INT["8S"])  # the bidder leads a spade
    return st


def test_a_void_player_keeps_its_likely_trump_and_calls_only_for_a_trick_worth_it() -> None:
    st = first_trick_dealt()
    # one point in the trick: no call; clubs (the suit with the most unseen cards) are kept
    assert K.EXPOSE in st.play_options()
    assert careful_policy(st) == CODE_INT["7H"]


def test_no_master_is_cashed_in_a_suit_an_opponent_has_shown_void_in() -> None:
    st = first_trick_dealt()
    for code in ("7H", "JS", "7S"):
        st.apply(CODE_INT[code])
    assert st.to_act == 3 and not st.trick  # the Jack of spades won: seat 3 leads
    assert shown_voids(st)[2] == 1 << K.SUIT[CODE_INT["9S"]]
    # the Nine of spades is a master, but seat 2 could ask for the trump and ruff it
    lead = careful_policy(st)
    assert lead != CODE_INT["9S"]
    assert K.POINTS[lead] == 0


def test_the_last_player_loads_points_onto_its_sides_trick() -> None:
    st = first_trick_dealt()
    for code in ("7H", "JS", "7S", "7D", "JD", "KC"):
        st.apply(CODE_INT[code])
    # seat 2 plays last to its partner's Jack of diamonds: the Ace, not the Queen
    assert st.to_act == 2
    assert careful_policy(st) == CODE_INT["AD"]


def code_of(action: int) -> str:
    """The Deal code of a kernel play action."""
    return "expose" if action == K.EXPOSE else "play:" + K.CODES[action]


@pytest.mark.parametrize("seed", range(6))
def test_reading_the_play_replays_it_and_trusts_a_careful_table(seed: int) -> None:
    deal = to_play(4, dealer=seed % 4, seed=seed)
    rng = random.Random(seed)
    stop = rng.randrange(4, 28)
    cards = 0
    for _ in range(stop):  # everyone plays by the careful rule
        action = careful_policy(deal.state)
        cards += action != K.EXPOSE
        deal.apply(code_of(action))
    seat = deal.state.to_act
    k = read_view(deal.view(seat))
    plays = public_plays(k)
    assert len([a for _, a in plays if a != K.EXPOSE]) == cards
    # the true deal explains every play: no choice the careful rule would have made otherwise
    assert play_weight(deal.state.copy(), k, plays, 0.5, opponents_only=False) == 1.0
    # a sampled world is taken back to the first trick and the play replayed in it
    world = sample_world(k, rng)
    st = start_of_play(world, k)
    assert len(st.hand(st.leader)) == 8 - (st.leader == st.bidder)
    w = play_weight(world, k, plays, 0.5)
    assert 0.0 < w <= 1.0
    for _, action in plays:
        st.apply(action)
    assert st.tricks == k.tricks and st.trick == k.trick


def test_hard_reading_the_play_with_careful_rollouts_plays_legal_codes() -> None:
    saved = search.ROLLOUT[0]
    try:
        search.ROLLOUT[0] = careful_policy
        bot = SearchPlayer(seed=1, iterations=3)
        bot.read_plays = 0.1
        plays_legal_cards(bot, 4, seeds=1)
    finally:
        search.ROLLOUT[0] = saved


def test_the_arena_sets_the_rollout_and_the_reading_on_hard() -> None:
    saved = search.ROLLOUT[0]
    try:
        bot = arena.make_bot("twentyeight", "hard", 1,
                             {"rollout": "careful", "read_plays": 0.1, "iterations": 2})
        assert search.ROLLOUT[0] is careful_policy
        assert isinstance(bot, SearchPlayer) and bot.read_plays == 0.1
    finally:
        search.ROLLOUT[0] = saved


def mixed_table(seed: int, plays: int = 16) -> Deal:
    """A deal played ``plays`` cards on (then to seat 0's turn) with seat 3 playing by
    ``fair_policy`` and everyone else by the careful rule."""
    deal = to_play(4, dealer=seed % 4, seed=seed)
    cards = 0
    while cards < plays or deal.state.to_act != 0:
        st = deal.state
        action = search.fair_policy(st) if st.to_act == 3 else careful_policy(st)
        cards += action != K.EXPOSE
        deal.apply(code_of(action))
    return deal


@pytest.mark.parametrize("seed", range(8))
def test_the_gate_rolls_out_a_seat_that_plays_otherwise_by_the_default_policy(seed: int) -> None:
    deal = mixed_table(seed)
    bot = SearchPlayer(seed=seed, iterations=4)
    k = read_view(deal.view(0))
    assert bot.careful_seats(k, public_plays(k)) == 0  # the gate is off by default
    bot.careful_gate = 0.0
    gated = bot.careful_seats(k, public_plays(k))
    assert not gated >> 3 & 1  # seat 3's plays are fair_policy's: it keeps the default
    assert not gated & 1  # this seat's own future is never the careful rule's
    if seed == 0:
        assert gated >> 1 & 1  # seat 1 plays as the careful rule (sometimes alike: not always)
    # the other side's seats only: the partner (seat 2) keeps the default, the rest as before
    again = SearchPlayer(seed=seed, iterations=4)
    again.careful_gate = 0.0
    again.gate_partners = False
    assert again.careful_seats(k, public_plays(k)) == gated & ~(1 << 2)
    assert bot.careful_seats(k, []) == 0  # nothing played, nothing to go on


def test_a_gated_rollout_plays_each_seat_by_its_policy() -> None:
    st = mixed_table(0, plays=4).state
    mask = 0b0110
    play_out = search.gated_rollout(mask)
    a = st.copy()
    play_out(a)
    b = st.copy()
    while b.phase == K.PLAYING:
        b.apply(careful_policy(b) if mask >> b.to_act & 1 else search.fair_policy(b))
    assert a.tricks == b.tricks and a.phase == K.FINISHED
    assert search.gated_rollout(0) is search.rollout


def test_hard_with_the_gate_plays_legal_codes_and_never_gates_a_fair_seat() -> None:
    bot = SearchPlayer(seed=1, iterations=3)
    bot.careful_gate = 0.0
    bot.read_plays = 0.1  # read, but only the gated seats
    plays_legal_cards(bot, 4, seeds=1)
    view = mixed_table(0).view(0)
    assert bot.choose(view) in view["legal"]
    assert not bot.last_careful >> 3 & 1


def test_the_arena_sets_the_gate_on_hard() -> None:
    saved = search.ROLLOUT[0]
    try:
        bot = arena.make_bot("twentyeight", "hard", 1, {"rollout": "gated", "iterations": 2})
        assert search.ROLLOUT[0] is search.fair_policy
        assert isinstance(bot, SearchPlayer) and bot.careful_gate == 0.0
        assert bot.gate_partners
        bot = arena.make_bot("twentyeight", "hard", 1, {"rollout": "gatedopp", "iterations": 2})
        assert isinstance(bot, SearchPlayer) and bot.careful_gate == 0.0
        assert not bot.gate_partners
    finally:
        search.ROLLOUT[0] = saved
