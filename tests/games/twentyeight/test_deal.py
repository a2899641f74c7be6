"""Twenty-Eight deals: dealing, the auction, the trump card, raising, play, the worked example
of the rules file, and refusals. Each test quotes the rule it checks.

Longer than 600 lines on purpose: it follows ``shared/rules/twentyeight.md`` section by section
(deal, auction, trump, raising, the play table, the worked example, refusals), so a reader can
check one against the other in one file; scoring, views and matches have their own modules."""

from __future__ import annotations

import json
import random

import pytest

from albastini.games.twentyeight import (
    MODES,
    Card,
    IllegalMove,
    new_deal,
    pack,
    shuffled_pack,
)
from albastini.games.twentyeight.deal import Deal
from albastini.games.twentyeight.kernel import EXPOSE, SUIT
from albastini.games.twentyeight.kernel import play_options as kernel_play_options

from .helpers import deck_for, play, random_play, to_play

# --------------------------------------------------------------------------- modes and cards


def test_modes_are_exactly_the_rules_table() -> None:
    assert MODES == {
        "3 players": {"players": 3, "team_size": 1},
        "4 pairs": {"players": 4, "team_size": 2},
        "6 trios": {"players": 6, "team_size": 3},
    }


@pytest.mark.parametrize(
    ("players", "size", "cards"), [(3, 24, "J9ATKQ"), (4, 32, "J9ATKQ87"), (6, 36, "J9ATKQ876")]
)
def test_packs_hold_28_points(players: int, size: int, cards: str) -> None:
    p = pack(players)
    assert len(p) == size == len(set(p))
    assert {c.rank for c in p} == set(cards)
    assert sum(c.points for c in p) == 28
    assert [c.code for c in p[:3]] == ["JC", "9C", "AC"]  # suit by suit, high to low


def test_card_points_and_codes() -> None:
    assert {r: Card.parse(r + "H").points for r in "J9ATKQ876"} == {
        "J": 3, "9": 2, "A": 1, "T": 1, "K": 0, "Q": 0, "8": 0, "7": 0, "6": 0,
    }
    assert str(Card.parse("TD")) == "TD"
    for bad in ("10D", "jh", "XH", "", 5):
        with pytest.raises(ValueError):
            Card.parse(bad)  # type: ignore[arg-type]


def test_reference_shuffle() -> None:
    deck = [c.code for c in pack(4)]
    random.Random(42).shuffle(deck)
    assert [c.code for c in shuffled_pack(4, 42)] == deck
    deal = new_deal(4, seed=42)
    assert [c.code for c in deal.deck] == deck


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((8,), {}),
        ((4, 1), {}),
        ((6, 2), {}),
        ((3, 3), {}),
        ((5,), {}),
        ((4, 2, 4), {}),
        ((4, 2, -1), {}),
        ((3,), {"dealer": 3}),
        ((4,), {"deck": ["JH"] * 32}),
        ((4,), {"deck": [c.code for c in pack(3)]}),
        ((3,), {"deck": [c.code for c in pack(4)]}),
        ((4,), {"deck": [c.code for c in pack(4)[:-1]] + ["10D"]}),
    ],
)
def test_invalid_modes_and_decks(args: tuple[int, ...], kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        new_deal(*args, **kwargs)  # type: ignore[arg-type]


def test_unknown_option_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        new_deal(4, cot=True, surrender=True)  # type: ignore[call-arg]


def test_team_size_defaults() -> None:
    assert [new_deal(n).team_size for n in (3, 4, 6)] == [1, 2, 3]
    deal = new_deal(6)
    assert [deal.team_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    assert [new_deal(3).team_of(s) for s in range(3)] == [0, 1, 2]


# --------------------------------------------------------------------------- dealing


def test_rules_example_four_pairs_dealer_0() -> None:
    """"seat 1 gets deck[0], deck[4], deck[8], deck[12] and later deck[16], deck[20], deck[24],
    deck[28]; seat 0 (the dealer) gets deck[3], 7, 11, 15, 19, 23, 27, 31"."""
    deal = new_deal(4, 2, 0, seed=7)
    deck = [c.code for c in deal.deck]
    assert {c.code for c in deal.hand(1)} == {deck[i] for i in (0, 4, 8, 12)}
    assert {c.code for c in deal.hand(0)} == {deck[i] for i in (3, 7, 11, 15)}
    play(deal, "bid:14", "pass", "pass", "pass")
    laid = f"trump:{deck[0]}"
    deal.apply(laid)
    assert {c.code for c in deal.hand(1)} == {deck[i] for i in (4, 8, 12, 16, 20, 24, 28)}
    assert {c.code for c in deal.hand(0)} == {deck[i] for i in (3, 7, 11, 15, 19, 23, 27, 31)}


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_three_players_deal_indices(dealer: int) -> None:
    deal = new_deal(3, dealer=dealer, seed=3)
    deck = [c.code for c in deal.deck]
    for k in range(3):
        seat = (dealer + 1 + k) % 3
        assert {c.code for c in deal.hand(seat)} == {deck[i * 3 + k] for i in range(4)}
    deal.apply("bid:12")
    play(deal, "pass", "pass")
    bidder = (dealer + 1) % 3
    first = deal.hand(bidder)[0].code
    deal.apply(f"trump:{first}")
    for k in range(3):
        seat = (dealer + 1 + k) % 3
        expected = {deck[i * 3 + k] for i in range(4)} | {deck[12 + i * 3 + k] for i in range(4)}
        assert {c.code for c in deal.hand(seat)} == expected - {first}
    assert sorted(len(deal.hand(s)) for s in range(3)) == [7, 8, 8]


@pytest.mark.parametrize("dealer", [0, 5])
def test_six_trios_three_at_a_time_all_before_bidding(dealer: int) -> None:
    deal = new_deal(6, dealer=dealer, seed=11)
    deck = [c.code for c in deal.deck]
    for k in range(6):
        seat = (dealer + 1 + k) % 6
        expected = set(deck[3 * k : 3 * k + 3]) | set(deck[18 + 3 * k : 18 + 3 * k + 3])
        assert {c.code for c in deal.hand(seat)} == expected
    deal.apply("bid:16")
    play(deal, *["pass"] * 5)
    assert deal.phase == "trump"
    assert len(deal.legal_actions()) == 6  # the bidder chooses from six cards
    deal.apply(deal.legal_actions()[0])
    assert deal.phase == "playing"  # no raising in 6 trios
    assert sorted(len(deal.hand(s)) for s in range(6)) == [5, 6, 6, 6, 6, 6]


def test_seeded_deals_reproduce_and_deck_wins_over_seed() -> None:
    assert new_deal(4, seed=5).deck == new_deal(4, seed=5).deck
    assert new_deal(4, seed=5).deck != new_deal(4, seed=6).deck
    codes = [c.code for c in pack(4)]
    assert [c.code for c in new_deal(4, deck=codes, seed=5).deck] == codes


# --------------------------------------------------------------------------- the auction


def test_four_pairs_first_speaker_must_bid_14() -> None:
    deal = new_deal(4, dealer=2, seed=1)
    assert deal.to_act == 3  # the dealer's right speaks first
    assert deal.legal_actions() == [f"bid:{n}" for n in range(14, 29)]
    with pytest.raises(IllegalMove) as exc:
        deal.apply("pass")
    assert exc.value.reason == "must_bid"
    with pytest.raises(IllegalMove) as exc:
        deal.apply("bid:13")
    assert exc.value.reason == "bid_too_low"
    with pytest.raises(IllegalMove) as exc:
        deal.apply("bid:29")
    assert exc.value.reason == "bid_too_high"


def test_six_trios_first_speaker_must_bid_16() -> None:
    deal = new_deal(6, seed=1)
    assert deal.legal_actions() == [f"bid:{n}" for n in range(16, 29)]


def test_three_players_openings_and_redeal() -> None:
    deal = new_deal(3, dealer=0, seed=1)
    assert deal.legal_actions() == [*(f"bid:{n}" for n in range(12, 29)), "pass"]
    deal.apply("pass")
    assert deal.legal_actions() == [*(f"bid:{n}" for n in range(12, 29)), "pass"]
    deal.apply("pass")
    assert deal.to_act == 0  # the dealer
    assert deal.legal_actions() == [*(f"bid:{n}" for n in range(14, 29)), "pass"]
    deal.apply("pass")
    assert deal.phase == "finished" and deal.to_act is None and deal.legal_actions() == []
    r = deal.result()
    assert (r.points, r.game_points, r.winner, r.redeal) == ([0, 0, 0], [0, 0, 0], None, True)
    assert r.to_json()["game_points"] == [0, 0, 0]


def test_three_players_later_bids_beat_the_highest() -> None:
    deal = new_deal(3, dealer=0, seed=1)
    deal.apply("bid:12")
    assert deal.legal_actions()[0] == "bid:13"
    deal.apply("pass")
    assert deal.legal_actions()[0] == "bid:13"  # the dealer's 14 is only for an opening
    deal.apply("pass")
    assert deal.phase == "trump" and deal.to_act == 1  # two passes in succession end it


def test_partner_rule_needs_20() -> None:
    deal = new_deal(4, dealer=3, seed=1)
    play(deal, "bid:14", "pass")
    assert deal.to_act == 2  # seat 0's partner
    assert deal.legal_actions() == [*(f"bid:{n}" for n in range(20, 29)), "pass"]
    with pytest.raises(IllegalMove) as exc:
        deal.apply("bid:15")
    assert exc.value.reason == "partner_rule"
    assert "20" in str(exc.value)
    deal.apply("pass")
    assert deal.legal_actions()[0] == "bid:15"  # seat 3, an opponent: just higher


def test_partner_rule_in_six_trios_and_above_20() -> None:
    deal = new_deal(6, dealer=5, seed=1)
    play(deal, "bid:21", "pass")
    assert deal.legal_actions()[0] == "bid:22"  # teammate of seat 0: max(20, 22)
    deal.apply("pass")
    assert deal.legal_actions()[0] == "bid:22"


def test_bid_28_leaves_only_passes() -> None:
    deal = new_deal(4, dealer=3, seed=1)
    deal.apply("bid:28")
    for _ in range(3):
        assert deal.legal_actions() == ["pass"]
        with pytest.raises(IllegalMove) as exc:
            deal.apply("bid:28")
        assert exc.value.reason == "only_pass"
        deal.apply("pass")
    assert deal.phase == "trump" and deal.to_act == 0


def test_passes_are_not_final_and_three_in_succession_end_it() -> None:
    deal = new_deal(4, dealer=3, seed=1)
    play(deal, "bid:14", "pass", "pass", "bid:15")
    play(deal, "bid:16", "bid:17")  # seat 0 again, then seat 1 who passed before
    play(deal, "pass", "pass")
    assert deal.phase == "bidding"  # two passes only
    deal.apply("pass")
    assert deal.phase == "trump" and deal.to_act == 1
    v = deal.view(None)
    assert (v["bidder"], v["contract"]) == (1, 17)
    assert v["bids"][:3] == [{"seat": 0, "bid": 14}, {"seat": 1, "bid": None},
                             {"seat": 2, "bid": None}]


def test_six_trios_needs_five_passes() -> None:
    deal = new_deal(6, seed=1)
    deal.apply("bid:16")
    for _ in range(4):
        deal.apply("pass")
        assert deal.phase == "bidding"
    deal.apply("pass")
    assert deal.phase == "trump"


# --------------------------------------------------------------------------- trump and raising


def test_trump_card_leaves_the_hand_and_only_the_bidder_sees_it() -> None:
    deal = new_deal(4, dealer=0, seed=3)
    play(deal, "bid:14", "pass", "pass", "pass")
    assert deal.phase == "trump" and deal.to_act == 1
    four = {c.code for c in deal.hand(1)}
    assert {c[6:] for c in deal.legal_actions()} == four
    with pytest.raises(IllegalMove) as exc:
        deal.apply("trump:" + next(c.code for c in pack(4) if c.code not in four))
    assert exc.value.reason == "not_in_hand"
    card = sorted(four)[0]
    deal.apply(f"trump:{card}")
    assert all(card not in {c.code for c in deal.hand(s)} for s in range(4))
    assert deal.view(1)["trump_card"] == card and deal.view(1)["trump"] == card[1]
    for seat in (0, 2, 3, None):
        v = deal.view(seat)
        assert v["trump"] is None and v["trump_card"] is None and v["trump_face_down"]
        assert card not in json.dumps(v)
    assert deal.view(None)["hand_sizes"] == [8, 7, 8, 8]


def test_raising_bidder_then_partner_at_least_24_once_each() -> None:
    deal = new_deal(4, dealer=0, seed=3)
    play(deal, "bid:14", "pass", "pass", "pass")
    deal.apply(f"trump:{deal.hand(1)[0].code}")
    assert deal.phase == "raising" and deal.to_act == 1
    assert deal.legal_actions() == ["pass", *(f"raise:{n}" for n in range(24, 29))]
    with pytest.raises(IllegalMove) as exc:
        deal.apply("raise:20")
    assert exc.value.reason == "raise_too_low"
    with pytest.raises(IllegalMove):
        deal.apply("thani")  # the option is off
    deal.apply("raise:25")
    assert deal.to_act == 3  # the partner, after the bidder raised
    assert deal.legal_actions() == ["pass", "raise:26", "raise:27", "raise:28"]
    deal.apply("raise:27")
    assert deal.phase == "playing" and deal.to_act == 1  # the dealer's right leads
    v = deal.view(None)
    assert v["contract"] == 27 and v["bidder"] == 1
    assert v["raises"] == [{"seat": 1, "bid": 25}, {"seat": 3, "bid": 27}]


def test_partner_may_raise_after_bidder_passed_and_defenders_never_speak() -> None:
    deal = new_deal(4, dealer=0, seed=3)
    play(deal, "bid:14", "pass", "pass", "pass")
    deal.apply(deal.legal_actions()[0])
    play(deal, "pass")
    assert deal.to_act == 3
    deal.apply("raise:24")
    assert deal.phase == "playing"
    assert deal.view(None)["contract"] == 24


def test_contract_28_skips_raising() -> None:
    deal = new_deal(4, dealer=0, seed=3)
    play(deal, "bid:28", "pass", "pass", "pass")
    deal.apply(deal.legal_actions()[0])
    assert deal.phase == "playing"
    deal = new_deal(4, dealer=0, seed=3, thani=True)
    play(deal, "bid:28", "pass", "pass", "pass")
    deal.apply(deal.legal_actions()[0])
    assert deal.phase == "raising" and deal.to_act == 1
    assert deal.legal_actions() == ["pass", "thani"]
    deal.apply("pass")
    assert deal.phase == "playing"  # the partner has no choice: skipped


def test_three_players_only_the_bidder_raises() -> None:
    deal = new_deal(3, dealer=0, seed=3)
    play(deal, "bid:12", "pass", "pass")
    deal.apply(deal.legal_actions()[0])
    assert deal.phase == "raising" and deal.to_act == 1
    deal.apply("raise:24")
    assert deal.phase == "playing" and deal.to_act == 1


def test_thani_ends_raising_and_bidder_leads() -> None:
    deal = new_deal(4, dealer=0, seed=3, thani=True)
    play(deal, "bid:14", "pass", "pass", "pass")
    deal.apply(deal.legal_actions()[0])
    assert "thani" in deal.legal_actions()
    deal.apply("thani")
    assert deal.phase == "playing" and deal.to_act == 1  # the bidder leads
    v = deal.view(None)
    assert v["thani"] is True and v["raises"] == [{"seat": 1, "bid": "thani"}]


def test_partner_cannot_declare_thani() -> None:
    deal = new_deal(4, dealer=0, seed=3, thani=True)
    play(deal, "bid:14", "pass", "pass", "pass")
    deal.apply(deal.legal_actions()[0])
    deal.apply("pass")
    assert deal.to_act == 3 and "thani" not in deal.legal_actions()
    with pytest.raises(IllegalMove) as exc:
        deal.apply("thani")
    assert exc.value.reason == "thani_bidder_only"


def test_six_trios_thani_option_adds_a_bidder_only_phase() -> None:
    deal = new_deal(6, seed=3, thani=True)
    play(deal, "bid:16", *["pass"] * 5)
    deal.apply(deal.legal_actions()[0])
    assert deal.phase == "raising" and deal.legal_actions() == ["pass", "thani"]
    deal.apply("pass")
    assert deal.phase == "playing" and deal.to_act == 1


# --------------------------------------------------------------------------- play: the table

def hand(*codes: str) -> list[list[int]]:
    """Cards by suit as the kernel keeps them."""
    out: list[list[int]] = [[], [], [], []]
    for code in codes:
        card = Card.parse(code).index
        out[SUIT[card]].append(card)
    return out


def codes(cards: list[int]) -> set[str]:
    from albastini.games.twentyeight.kernel import CODES

    return {CODES[c] for c in cards}


HEARTS, SPADES, CLUBS = 2, 3, 0


def play_options(*args: object) -> tuple[list[int], bool]:
    """The kernel's options split into (cards, may call ``expose``)."""
    out = kernel_play_options(*args)  # type: ignore[arg-type]
    return [c for c in out if c != EXPOSE], EXPOSE in out


def test_row_bidder_hand_empty_trump_face_down_expose_only() -> None:
    assert play_options(hand(), CLUBS, HEARTS, True, True, False) == ([], True)
    assert play_options(hand(), -1, HEARTS, True, True, False) == ([], True)


def test_row_just_called_plays_a_trump_if_any() -> None:
    cards, expose = play_options(hand("JH", "7H", "KC"), SPADES, HEARTS, False, False, True)
    assert codes(cards) == {"JH", "7H"} and not expose
    cards, expose = play_options(hand("KD", "KC"), SPADES, HEARTS, False, False, True)
    assert codes(cards) == {"KD", "KC"} and not expose


def test_row_bidder_leading_in_phase_1_no_trump() -> None:
    cards, _ = play_options(hand("JH", "7H", "KC"), -1, HEARTS, True, True, False)
    assert codes(cards) == {"KC"}
    cards, _ = play_options(hand("JH", "7H"), -1, HEARTS, True, True, False)
    assert codes(cards) == {"JH", "7H"}
    cards, _ = play_options(hand("JH", "KC"), -1, HEARTS, False, True, False)  # phase 2
    assert codes(cards) == {"JH", "KC"}


def test_row_leading_otherwise_every_card() -> None:
    cards, expose = play_options(hand("JH", "7H", "KC"), -1, HEARTS, True, False, False)
    assert codes(cards) == {"JH", "7H", "KC"} and not expose


def test_row_following_holds_the_suit() -> None:
    cards, expose = play_options(hand("JH", "7S", "KS"), SPADES, HEARTS, True, False, False)
    assert codes(cards) == {"7S", "KS"} and not expose


def test_row_following_void_phase_1_every_card_and_expose() -> None:
    cards, expose = play_options(hand("JH", "KC"), SPADES, HEARTS, True, False, False)
    assert codes(cards) == {"JH", "KC"} and expose


def test_row_following_void_phase_2_every_card() -> None:
    cards, expose = play_options(hand("JH", "KC"), SPADES, HEARTS, False, False, False)
    assert codes(cards) == {"JH", "KC"} and not expose


# --------------------------------------------------------------------------- the worked example

EXAMPLE_HANDS = {
    0: ["KS", "QS", "8S", "AC"], 1: ["8H", "JH", "JD", "9D"],
    2: ["7S", "JS", "9S", "AS"], 3: ["9H", "AH", "TH", "KH"],
}
EXAMPLE_SECOND = {
    0: ["TC", "KC", "QC", "8C"], 1: ["AD", "TD", "KD", "QD"],
    2: ["TS", "7C", "JC", "9C"], 3: ["QH", "7H", "8D", "7D"],
}


def example_deal() -> Deal:
    deal = new_deal(4, 2, 3, deck=deck_for(4, 3, EXAMPLE_HANDS, EXAMPLE_SECOND))
    play(deal, "bid:14", "bid:15", "pass", "pass", "pass", "trump:8H", "pass", "pass")
    return deal


def test_worked_example_verbatim() -> None:
    """Seat 1 bid 15 and laid the 8H face down. Seat 0 leads KS, seat 1 discards JH without
    exposing, seat 2 plays 7S, seat 3 calls expose, must play a heart: 9H. The J♥ discarded
    before the exposure is the highest trump: seat 1 wins 5 points and leads the next."""
    deal = example_deal()
    assert deal.phase == "playing" and deal.to_act == 0
    deal.apply("play:KS")
    assert "expose" in deal.legal_actions() and "play:JH" in deal.legal_actions()
    deal.apply("play:JH")
    deal.apply("play:7S")
    assert deal.to_act == 3 and "expose" in deal.legal_actions()
    deal.apply("expose")
    assert deal.to_act == 3  # expose does not end the turn
    assert "8H" in {c.code for c in deal.hand(1)}
    v = deal.view(2)
    assert (v["trump"], v["trump_card"], v["exposed"], v["exposed_by"]) == ("H", "8H", True, 3)
    assert v["exposed_in_trick"] == 0 and not v["trump_face_down"]
    assert set(deal.legal_actions()) == {"play:9H", "play:AH", "play:TH", "play:KH",
                                         "play:QH", "play:7H"}
    with pytest.raises(IllegalMove) as exc:
        deal.apply("play:8D")
    assert exc.value.reason == "must_trump"
    deal.apply("play:9H")
    t = deal.view(None)["tricks"][0]
    assert t == {"leader": 0, "plays": [[0, "KS"], [1, "JH"], [2, "7S"], [3, "9H"]],
                 "winner": 1, "points": 5}
    assert deal.to_act == 1
    assert deal.view(None)["points"] == [0, 5]


def test_worked_example_without_the_call_ks_wins() -> None:
    deal = example_deal()
    play(deal, "play:KS", "play:JH", "play:7S", "play:9H")
    t = deal.view(None)["tricks"][0]
    assert t["winner"] == 0 and deal.to_act == 0
    assert deal.view(None)["exposed"] is False


LEAD_HANDS = {
    0: ["7D", "KS", "QS", "8S"], 1: ["8H", "JH", "JD", "9D"],
    2: ["7S", "JS", "9S", "AS"], 3: ["9H", "AH", "TH", "KH"],
}
LEAD_SECOND = {
    0: ["TC", "KC", "QC", "8C"], 1: ["AD", "TD", "KD", "AC"],
    2: ["TS", "7C", "JC", "9C"], 3: ["QH", "7H", "8D", "QD"],
}


def test_bidder_may_not_lead_a_trump_while_hidden() -> None:
    deal = new_deal(4, 2, 3, deck=deck_for(4, 3, LEAD_HANDS, LEAD_SECOND))
    play(deal, "bid:14", "bid:15", "pass", "pass", "pass", "trump:8H", "pass", "pass")
    play(deal, "play:7D", "play:JD", "play:7C", "play:8D")
    assert deal.to_act == 1  # the bidder won with the JD and leads
    assert set(deal.legal_actions()) == {"play:9D", "play:AD", "play:TD", "play:KD", "play:AC"}
    with pytest.raises(IllegalMove) as exc:
        deal.apply("play:JH")
    assert exc.value.reason == "trump_lead"
    assert str(exc.value) == "The bidder may not lead a trump before it is exposed."


def test_others_may_lead_the_hidden_trump_and_the_bidder_void_in_it_may_discard() -> None:
    """"If the bidder holds no trump in hand and a trump is led, the bidder is void in that
    suit and may discard (or expose)"."""
    first = {0: ["7H", "KS", "QS", "8S"], 1: ["8H", "JD", "9D", "AD"],
             2: ["7S", "JS", "9S", "AS"], 3: ["9H", "AH", "TH", "KH"]}
    second = {0: ["TC", "KC", "QC", "8C"], 1: ["TD", "KD", "QD", "AC"],
              2: ["TS", "7C", "JC", "9C"], 3: ["QH", "7D", "JH", "8D"]}
    deal = new_deal(4, 2, 3, deck=deck_for(4, 3, first, second))
    play(deal, "bid:14", "bid:15", "pass", "pass", "pass", "trump:8H", "pass", "pass")
    assert "play:7H" in deal.legal_actions()  # a defender is not restricted when leading
    deal.apply("play:7H")
    assert set(deal.legal_actions()) == {f"play:{c.code}" for c in deal.hand(1)} | {"expose"}
    deal.apply("play:AC")
    play(deal, "play:7C", "play:9H")
    assert deal.view(None)["tricks"][0]["winner"] == 3  # phase 1: highest heart


@pytest.mark.parametrize("bidder_leads", [True, False])
def test_last_trick_bidder_must_expose_then_play_it(bidder_leads: bool) -> None:
    """Nobody called during the first seven tricks: the bidder's only action in the last
    trick is ``expose``, then the trump card; also when the bidder leads it."""
    for seed in range(200):
        deal = to_play(4, dealer=seed % 4, seed=seed)
        rng = random.Random(seed)
        bidder = deal.view(None)["bidder"]
        laid = deal.view(bidder)["trump_card"]
        while deal.phase == "playing" and len(deal.view(None)["tricks"]) < 7:
            legal = [c for c in deal.legal_actions() if c != "expose"]
            deal.apply(rng.choice(legal))
        if not deal.view(None)["trump_face_down"]:
            continue
        if (deal.to_act == bidder) != bidder_leads:
            continue
        while deal.to_act != bidder:
            legal = [c for c in deal.legal_actions() if c != "expose"]
            deal.apply(rng.choice(legal))
        assert deal.hand(bidder) == []
        assert deal.legal_actions() == ["expose"]
        with pytest.raises(IllegalMove) as exc:
            deal.apply(f"play:{laid}")
        assert exc.value.reason == "must_expose"
        deal.apply("expose")
        assert deal.legal_actions() == [f"play:{laid}"]
        assert deal.view(None)["exposed_in_trick"] == 7
        assert deal.view(None)["exposed_by"] == bidder
        random_play(deal, rng)
        last = deal.view(None)["tricks"][7]
        trumps = [s for s, c in last["plays"] if c[1] == laid[1]]
        assert last["winner"] in trumps  # a phase-2 trick: the highest trump wins it
        assert sum(deal.result().points) == 28
        return
    pytest.fail("no deal reached the last trick with the trump face down")


def test_exposure_by_the_bidder_when_void_plays_any_trump() -> None:
    deck = deck_for(4, 3, {1: ["8H", "JH", "JD", "9D"]}, {1: ["AD", "TD", "KD", "QD"]})
    deal = new_deal(4, 2, 3, deck=deck)
    play(deal, "bid:14", "bid:15", "pass", "pass", "pass", "trump:8H", "pass", "pass")
    lead = next(c for c in deal.legal_actions() if c[-1] in "CS")
    deal.apply(lead)
    assert deal.to_act == 1 and "expose" in deal.legal_actions()
    deal.apply("expose")
    assert set(deal.legal_actions()) == {"play:8H", "play:JH"}  # any trump, not only the 8H
    deal.apply("play:JH")


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    "code", ["bid:014", "bid:+14", "bid:1.5", "play:10D", "PLAY:TD", "Pass", " pass", "pass ",
             "bid:", "bid", "play:", "expose:", "trump:", "raise:024", "bid:٣", "play:td"]
)
def test_non_canonical_codes_refused(code: str) -> None:
    deal = new_deal(4, seed=1)
    before = json.dumps(deal.to_record())
    with pytest.raises(IllegalMove) as exc:
        deal.apply(code)
    assert exc.value.reason == "bad_code" and isinstance(exc.value, ValueError)
    assert json.dumps(deal.to_record()) == before


@pytest.mark.parametrize("thing", [None, 14, b"pass", ["pass"], 1.0])
def test_non_strings_refused(thing: object) -> None:
    deal = new_deal(4, seed=1)
    with pytest.raises(IllegalMove) as exc:
        deal.apply(thing)  # type: ignore[arg-type]
    assert exc.value.reason == "bad_code"


def test_wrong_phase_refusal() -> None:
    deal = example_deal()
    with pytest.raises(IllegalMove) as exc:
        deal.apply("bid:20")
    assert exc.value.reason == "wrong_phase"
    with pytest.raises(IllegalMove) as exc:
        deal.apply("raise:24")
    assert exc.value.reason == "wrong_phase"


def test_follow_suit_refusal() -> None:
    deal = example_deal()
    play(deal, "play:KS", "play:JH")
    with pytest.raises(IllegalMove) as exc:
        deal.apply("play:7C")
    assert exc.value.reason == "follow_suit"
    assert str(exc.value) == "You must follow suit: you hold a spade."
    with pytest.raises(IllegalMove) as exc:
        deal.apply("expose")
    assert exc.value.reason == "cannot_call"
    with pytest.raises(IllegalMove) as exc:
        deal.apply("play:JD")
    assert exc.value.reason == "not_in_hand"


def test_leader_cannot_call_and_finished_refuses() -> None:
    deal = example_deal()
    with pytest.raises(IllegalMove) as exc:
        deal.apply("expose")
    assert exc.value.reason == "leader_cannot_call"
    random_play(deal, random.Random(1))
    with pytest.raises(IllegalMove) as exc:
        deal.apply("pass")
    assert exc.value.reason == "finished"


def test_result_before_the_end_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        new_deal(4, seed=1).result()
