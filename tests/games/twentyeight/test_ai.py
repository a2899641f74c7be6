"""Computer players: legal codes from the view alone in every mode and phase, the levels and
kinds, a picklable ``decide``, reproducible search with a fixed number of samples, and worlds
sampled consistently with what is public."""

from __future__ import annotations

import itertools
import pickle
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from albastini.games.twentyeight import LEVELS, decide, make_player, new_deal
from albastini.games.twentyeight.ai import search
from albastini.games.twentyeight.ai.core import read_view, sample_world
from albastini.games.twentyeight.kernel import CODES, SUIT

from .helpers import deck_for, to_play

KINDS = ["random", "greedy", "easy", "normal"]


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize("kind", KINDS)
def test_players_finish_deals_with_legal_codes(players: int, kind: str) -> None:
    for seed in range(6):
        deal = new_deal(players, dealer=seed % players, seed=seed, thani=seed % 2 == 1)
        bots = [make_player(kind, seed=seed * 10 + s) for s in range(players)]
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            code = bots[seat].choose(deal.view(seat))
            assert code in deal.legal_actions()
            deal.apply(code)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_search_player_finishes_a_deal(players: int) -> None:
    deal = new_deal(players, seed=players)
    bot = make_player("hard", seed=1, iterations=2)
    while deal.phase != "finished":
        seat = deal.to_act
        assert seat is not None
        code = bot.choose(deal.view(seat))
        deal.apply(code)
    assert deal.result() is not None


def test_levels_and_errors() -> None:
    assert LEVELS == ("easy", "normal", "hard")
    for level in (*LEVELS, "random", "greedy", "search"):
        assert hasattr(make_player(level, seed=1), "choose")
    with pytest.raises(ValueError):
        make_player("expert")
    with pytest.raises(ValueError):
        make_player("hard", depth=3)
    with pytest.raises(ValueError):
        make_player("hard", time_ms=0)
    view = new_deal(4, seed=1).view(2)  # not seat 2's turn
    with pytest.raises(ValueError):
        make_player("normal").choose(view)


def test_greedy_is_the_baseline_of_the_issue() -> None:
    """Cheapest card that wins the trick, else the cheapest card."""
    deal = to_play(4, dealer=3, seed=2)
    deal.apply(deal.legal_actions()[0])
    view = deal.view(deal.to_act)
    code = make_player("easy").choose(view)
    assert code in view["legal"]
    # the choice depends on the view only: the same view gives the same code
    assert make_player("greedy", seed=5).choose(view) == code


def test_decide_is_picklable_and_runs_in_a_process_pool() -> None:
    view = to_play(4, seed=3).view(1)
    assert pickle.loads(pickle.dumps(decide)) is decide
    with ProcessPoolExecutor(max_workers=1) as pool:
        code = pool.submit(decide, "normal", view, 7).result(timeout=60)
    assert code == decide("normal", view, 7) and code in view["legal"]


def test_search_with_fixed_iterations_is_reproducible() -> None:
    deal = to_play(4, seed=4)
    view = deal.view(deal.to_act)
    a = make_player("hard", seed=9, iterations=5).choose(view)
    b = make_player("hard", seed=9, iterations=5).choose(view)
    assert a == b and a in view["legal"]


def test_search_stops_drawing_worlds_once_its_time_is_spent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A clock that moves 10 ms each time it is read: the search must read it as it goes and
    # stop at its 60 ms deadline, whatever the machine's speed (a frozen clock would never
    # stop it before its cap; one read past the deadline still plays a legal card).
    readings = itertools.count()
    monkeypatch.setattr(search, "perf_counter", lambda: next(readings) * 0.010)
    deal = to_play(4, seed=5)
    view = deal.view(deal.to_act)
    bot = make_player("hard", seed=1, time_ms=60)
    assert bot.choose(view) in view["legal"]
    assert 2 <= next(readings) <= 12


def test_sampled_worlds_are_consistent_with_public_information() -> None:
    rng = random.Random(6)
    for seed in range(20):
        deal = to_play(4, dealer=seed % 4, seed=seed)
        while deal.phase == "playing":
            seat = deal.to_act
            assert seat is not None
            k = read_view(deal.view(seat))
            for _ in range(3):
                w = sample_world(k, rng)
                assert sorted(w.hand(seat)) == sorted(k.hand)
                for s in range(4):
                    held = w.hand(s)
                    assert len(held) == k.hand_sizes[s]
                    # (the exposed trump card joined the bidder's hand whatever it was void in)
                    hidden = [c for c in held if c != k.trump_card]
                    assert not {SUIT[c] for c in hidden} & k.void[s] or s == seat
                if k.face_down and seat != k.bidder:
                    allowed = [c for c in k.unseen() if SUIT[c] not in k.not_trump]
                    assert SUIT[w.trump_card] not in k.not_trump or not allowed
                    assert w.trump_card not in k.played
                if k.trump_card >= 0:
                    assert w.trump_card == k.trump_card
                # every card exactly once
                cards = [c for s in range(4) for c in w.hand(s)] + list(k.played)
                if w.face_down:
                    cards.append(w.trump_card)
                assert sorted(cards) == sorted(CODES.index(c) for c in
                                               (x.code for x in deal.deck))
            legal = deal.legal_actions()
            deal.apply(rng.choice([c for c in legal if c != "expose"] or legal))


def test_trump_inference_from_the_bidders_leads_is_almost_always_right() -> None:
    """A suit the bidder led while the trump was hidden is excluded (unless the bidder may
    have held nothing else): over random play the true trump is excluded in under 1% of
    the defenders' decisions."""
    rng = random.Random(1)
    wrong = total = excluded = 0
    for seed in range(60):
        deal = to_play(4, dealer=seed % 4, seed=seed)
        while deal.phase == "playing":
            seat = deal.to_act
            assert seat is not None
            if deal.state.face_down and seat != deal.state.bidder:
                k = read_view(deal.view(seat))
                total += 1
                wrong += deal.state.trump in k.not_trump
                excluded += len(k.not_trump)
            legal = deal.legal_actions()
            deal.apply(rng.choice([c for c in legal if c != "expose"] or legal))
    assert total > 500 and excluded > total / 2
    assert wrong / total < 0.01


def test_hard_bids_from_sampled_deals() -> None:
    """Over deals sampled around its cards and bid to the end, a strong hand (the Jack, Nine
    and Ace of hearts and a Jack) wins more by bidding than a weak one, and more by bidding
    than by passing; the hard player bids on the strong hand and passes the weak one."""
    from albastini.games.twentyeight.ai.search import SearchPlayer
    from albastini.games.twentyeight.kernel import BID, PASS

    from .helpers import deck_for

    strong = deck_for(4, 3, {1: ["JH", "9H", "AH", "JS"]})
    weak = deck_for(4, 3, {1: ["7C", "8D", "QH", "KS"]})
    values = {}
    for name, deck in (("strong", strong), ("weak", weak)):
        deal = new_deal(4, 2, 3, deck=deck)
        deal.apply("bid:14")
        k = read_view(deal.view(1))
        bot = SearchPlayer(seed=1, iterations=1)
        values[name] = bot.speech_values(k, [PASS, BID + 15], 0.0)
        code = bot.choose(deal.view(1))
        assert code == ("bid:15" if name == "strong" else "pass")
    assert values["strong"][1] > values["weak"][1] + 0.3
    assert values["strong"][1] > values["strong"][0]


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_players_read_a_view_that_went_through_json(level: str) -> None:
    """The platform stores and ships views as JSON: lists, no tuples, string keys."""
    import json

    deal = to_play(4, seed=8)
    rng = random.Random(8)
    for _ in range(12):
        deal.apply(rng.choice([c for c in deal.legal_actions() if c != "expose"]))
    view = json.loads(json.dumps(deal.view(deal.to_act)))
    kwargs = {"iterations": 3} if level == "hard" else {}
    assert make_player(level, seed=1, **kwargs).choose(view) in deal.legal_actions()


def test_the_auction_model_reads_a_high_bid_as_honours() -> None:
    """A free bid of 20 is far likelier from the Jack and Nine of a long suit than from a
    hand without honours; a pass at 15 the other way round."""
    from albastini.games.twentyeight.ai.infer import hand_value, speech_weight

    strong = [CODES.index(c) for c in ("JS", "9S", "AS", "7S")]
    weak = [CODES.index(c) for c in ("7C", "8D", "QH", "KS")]
    v_strong, suit = hand_value(strong, 4)
    v_weak, _ = hand_value(weak, 4)
    assert suit == SUIT[strong[0]]
    assert speech_weight(v_strong, 20, 20) > 5 * speech_weight(v_weak, 20, 20)
    assert speech_weight(v_weak, 0, 15) > 5 * speech_weight(v_strong, 0, 15)


def test_a_world_where_the_high_bidder_holds_honours_weighs_more() -> None:
    """Seat 1 bid 20 freely: a sampled world giving it the Jack, Nine and Ace of spades
    (the face-down card a low spade) weighs more than one giving it nothing."""
    from albastini.games.twentyeight.ai.core import build_state
    from albastini.games.twentyeight.ai.infer import played_by_seat, speeches, world_weight

    mine = ["8C", "7D", "QH", "KC", "QC", "TC", "8H", "QS"]
    deck = deck_for(4, 3, {0: mine[:4], 1: ["JS", "9S", "AS", "7S"]}, {0: mine[4:]})
    deal = new_deal(4, 2, 3, deck=deck)
    for code in ("bid:14", "bid:20", "pass", "pass", "pass", "trump:7S", "pass", "pass"):
        deal.apply(code)
    assert deal.phase == "playing" and deal.to_act == 0
    k = read_view(deal.view(0))
    ints = {c: CODES.index(c) for c in CODES}
    others = [c.code for c in deal.deck if c.code not in mine]
    honours = ["JS", "9S", "AS", "KS", "JH", "9H", "AH"]
    plain = ["8D", "KD", "QD", "9C", "7C", "TH", "KH"]

    def weight(bidder: list[str], fd: str) -> float:
        pool = [c for c in others if c not in bidder and c != fd]
        hands = {0: [ints[c] for c in mine], 1: [ints[c] for c in bidder],
                 2: [ints[c] for c in pool[:8]], 3: [ints[c] for c in pool[8:16]]}
        st = build_state(k, hands, SUIT[ints[fd]], ints[fd])
        rng = random.Random(1)
        return sum(world_weight(k, st, speeches(k), rng, played_by_seat(k))
                   for _ in range(200)) / 200

    assert weight(honours, "7S") > 3 * weight(plain, "8S")


def test_hard_lays_a_trump_card_and_raises_only_when_nearly_sure() -> None:
    from albastini.games.twentyeight.ai.search import SearchPlayer

    weak = deck_for(4, 3, {0: ["JC", "8D", "7H", "KS"]})
    deal = new_deal(4, 2, 3, deck=weak)
    for code in ("bid:14", "pass", "pass", "pass"):
        deal.apply(code)
    bot = SearchPlayer(seed=1, iterations=1)
    code = bot.choose(deal.view(0))
    assert code in deal.legal_actions() and code.startswith("trump:")
    deal.apply(code)
    assert deal.phase == "raising" and deal.to_act == 0
    assert bot.choose(deal.view(0)) == "pass"  # a 14 on four cards of nothing: never 24


def test_hard_without_a_jack_or_nine_makes_no_free_bid_when_told() -> None:
    """``FREE_BID_NEEDS_HONOUR`` (a bench variant, ``arena.py --honour28``): a long heart
    suit without its Jack or Nine, which the search alone bids on (this seed), passes where a
    bid would be free, while the opening forced by the rules is still bid and a hand with the
    Jack and Nine still bids on its search."""
    from albastini.games.twentyeight.ai.search import SearchPlayer

    hearts = {1: ["AH", "TH", "KH", "QH"]}
    forced = new_deal(4, 2, 0, deck=deck_for(4, 0, hearts))  # seat 1 opens
    free = new_deal(4, 2, 3, deck=deck_for(4, 3, hearts))
    free.apply("bid:14")  # seat 0 opened; seat 1 may pass
    strong = new_deal(4, 2, 3, deck=deck_for(4, 3, {1: ["JH", "9H", "AH", "JS"]}))
    strong.apply("bid:14")
    assert SearchPlayer(seed=1, iterations=8).choose(free.view(1)) == "bid:15"
    bot = SearchPlayer(seed=1, iterations=8)
    bot.FREE_BID_NEEDS_HONOUR = True
    assert bot.choose(forced.view(1)) == "bid:14"
    assert bot.choose(free.view(1)) == "pass"
    assert bot.choose(strong.view(1)) == "bid:15"


def test_hard_when_told_lays_the_weakest_card_of_a_suit() -> None:
    """``TRUMP_WEAKEST`` (a bench variant, ``arena.py --weakest28``): whatever suit the search
    names, the card laid face down is the weakest of that suit in the hand (the Jack and the
    Nine stay playable); ``TRUMP_BY_MODEL`` (``--modeltrump28``) lays the auction model's
    card without searching."""
    from albastini.games.twentyeight.ai.search import SearchPlayer

    for seed in range(4):
        hand = ["JC", "9C", "8C", "JS"] if seed % 2 else ["JC", "9C", "7C", "8S"]
        deal = new_deal(4, 2, 3, deck=deck_for(4, 3, {0: hand}))
        for code in ("bid:14", "pass", "pass", "pass"):
            deal.apply(code)
        bot = SearchPlayer(seed=seed, iterations=4)
        bot.TRUMP_WEAKEST = True
        code = bot.choose(deal.view(0))
        assert code in deal.legal_actions()
        laid = code[6:]
        assert laid in ("8C", "JS") if seed % 2 else laid in ("7C", "8S")
        model = SearchPlayer(seed=seed, iterations=4)
        model.TRUMP_BY_MODEL = True
        # clubs: the Jack, the Nine and length beat a lone spade
        expected = "trump:8C" if seed % 2 else "trump:7C"
        assert model.choose(deal.view(0)) == expected
