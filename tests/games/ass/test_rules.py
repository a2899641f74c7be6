"""The trick rule against all 23 worked examples of the rules file, the beat table cell by
cell, every trump variant, the play rule, values, bets and the deal's mechanics."""

from __future__ import annotations

import pytest

from albastini.games.ass import IllegalMove, new_deal
from albastini.games.ass import kernel as K

C = K.CODE_INT

# row: (cards of P1..P4, seat whose own trump is the named suit or None, that suit,
#       effects of P2..P4, winner seat) -- the rules file's table, "J" is J♠, "10" is T.
EXAMPLES = [
    (1, "6S JS TS QH", None, "", "follow follow discard", 0),
    (2, "6S JS TS QH", 3, "H", "follow follow trump", 3),
    (3, "6S JS 7C QH", 2, "C", "follow trump discard", 2),
    (4, "6S JS TC QS", None, "", "follow discard cover", 3),
    (5, "6S JS TC QS", 2, "C", "follow trump cover", 3),
    (6, "6S 8S QS 7C", None, "", "cover cover discard", 2),
    (7, "6S 8S KS 7C", None, "", "cover kill discard", 0),
    (8, "6S 8S QS AS", None, "", "cover cover kill", 0),
    (9, "6S JS TC 6C", None, "", "follow discard same-rank", 3),
    (10, "6S JS TC 6C", 2, "C", "follow trump same-rank", 2),
    (11, "6S 6C TC 6H", None, "", "same-rank discard same-rank", 3),
    (12, "6S 6C TC 6H", 1, "C", "same-rank discard discard", 1),
    (13, "7S JS TS QH", 3, "H", "cover cover trump", 2),
    (14, "7S 8S JS 9S", None, "", "cover follow follow", 1),
    (15, "8S 9S 8C QC", None, "", "follow eight cover", 3),
    (16, "8S 8C QC TC", None, "", "eight cover cover", 3),
    (17, "JS 9S TC 6C", None, "", "one-lower discard discard", 1),
    (18, "JS 9S TC 6C", 2, "C", "one-lower trump discard", 2),
    (19, "JS 9S TS 6C", None, "", "one-lower cover discard", 2),
    (20, "JS 6C TS KS", None, "", "discard cover follow", 2),
    (21, "KS QS JS 9S", None, "", "one-lower one-lower one-lower", 3),
    (22, "KS 9S QS JS", None, "", "follow one-lower one-lower", 3),
    (23, "KS 9C QS JS", 1, "C", "discard one-lower one-lower", 3),
]


@pytest.mark.parametrize(("row", "cards", "owner", "suit", "effects", "winner"), EXAMPLES,
                         ids=[f"row{r[0]}" for r in EXAMPLES])
def test_every_worked_example_of_the_rules(row: int, cards: str, owner: int | None,
                                           suit: str, effects: str, winner: int) -> None:
    levels = [[0] * 4 for _ in range(4)]
    if owner is not None:  # the example's trump is one player's own suit (variant 1)
        levels[owner][K.SUITS.index(suit)] = 1
    trick = K.Trick()
    got = []
    for seat, code in enumerate(cards.split()):
        # an eight of another suit in these rows is played by a player void in the main suit
        got.append(K.EFFECT_NAMES[trick.play(seat, C[code], levels, [0] * 4, False)])
    assert got[0] == "lead"
    assert " ".join(got[1:]) == effects
    assert trick.holder() == winner


BEAT_ROWS = {
    "6": "79JKTA", "7": "", "8": "679JTA", "9": "7", "J": "79", "Q": "6789J", "K": "789JQ",
    "T": "79JQK", "A": "79JQKT",
}


def test_beat_table_is_the_rules_tournament() -> None:
    for a, beaten in BEAT_ROWS.items():
        ra = K.RANKS.index(a)
        for b in K.RANKS:
            rb = K.RANKS.index(b)
            assert K.BEATS[ra][rb] == (b in beaten), (a, b)
            if a != b:
                assert K.BEATS[ra][rb] != K.BEATS[rb][ra]  # exactly one beats the other


def test_card_points_and_trick_values() -> None:
    assert sum(K.POINTS) == 184
    v = K.trick_value
    assert v([C["KS"], C["QH"]]) == 25
    assert v([C["JS"], C["QH"]]) == 15
    assert v([C["KS"], C["QH"], C["JD"]]) == 26  # one pair; the jack alone
    assert v([C["KS"], C["QH"], C["QD"], C["JD"]]) == 25 + 15
    assert v([C["6S"], C["7S"], C["9S"], C["AS"]]) == 11 + 10  # four of a suit
    assert v([C["8C"], C["8D"]]) == 32


def levels(variant: int, suits: str = "", players: int = 4) -> tuple[list[list[int]], list[int]]:
    return K.trump_levels(variant, players, [K.SUITS.index(s) for s in suits])


def play(cards: str, lv: tuple[list[list[int]], list[int]]) -> tuple[list[str], int]:
    trick = K.Trick()
    eff = [K.EFFECT_NAMES[trick.play(s, C[c], lv[0], lv[1], False)]
           for s, c in enumerate(cards.split())]
    return eff, trick.holder()


def test_variant_1_own_trumps_and_equal_rank_trumps() -> None:
    lv = levels(1, "SCHD")  # seat 1 clubs, seat 2 hearts, seat 3 diamonds
    assert play("9H TC AH 7D", lv) == (["lead", "trump", "cover", "discard"], 2)
    # the leader's own trump is no obstacle: seat 1's trump beats seat 0's spade lead
    assert play("9S TC 7H 7D", lv) == (["lead", "trump", "discard", "discard"], 1)
    # a higher level or rank replaces; an equal rank of another player's trump does not
    assert play("6H 7C 9H KD", lv)[1] == 3


def test_variant_2_no_trumps() -> None:
    assert play("6S AC AH AD", levels(2)) == (["lead", "discard", "discard", "discard"], 0)


def test_variant_3_one_trump_a_plain_card_never_beats_it() -> None:
    lv = levels(3, "S")
    assert play("9H TS 7C 7D", lv)[1] == 1
    assert play("9S AH AC AD", lv)[1] == 0  # plain aces on a trump lead: discards
    assert play("9S 9H 7C 7D", lv)[1] == 1  # a same-rank card interrupts whatever it is
    assert play("7S 8H 7C 7D", lv)[0][1] == "discard"  # a plain eight never breaks trumps


def test_variant_4_two_equal_trump_suits() -> None:
    lv = levels(4, "SD")
    assert play("9H TS KD 7C", lv)[1] == 1  # the same level: the higher plain rank (10 > K) stays
    assert play("9H JS KD 7C", lv)[1] == 2
    assert play("9D TS 7C 7H", lv)[1] == 0  # spades do not beat diamonds: the same level


def test_variant_5_senior_and_junior_trumps() -> None:
    lv = levels(5)
    assert play("9H TD 7S 7C", lv)[1] == 1  # 7♠ is below the 9: no trump
    assert play("9H TD JS 7C", lv)[1] == 2  # senior beats junior whatever the rank
    assert play("9D AH JS 7C", lv)[1] == 2  # plain never beats junior; senior does
    assert play("9S AD 7C 7H", lv)[1] == 0  # nothing beats the senior suit but itself
    assert play("7D 8S 9D 7C", lv)[0][1] == "eight"  # the senior eight breaks junior


def test_after_an_eight_only_the_new_suit_or_another_eight() -> None:
    lv = levels(2)
    eff, win = play("KS 8C 6S AS", lv)
    assert eff == ["lead", "eight", "discard", "discard"] and win == 1
    eff, win = play("KS 8C 8D QD", lv)
    assert eff == ["lead", "eight", "eight", "cover"] and win == 3


def deck_for(hands: list[str], stock: str = "", players: int = 4) -> list[str]:
    """A pack that deals ``hands`` (seat order, dealer 3 so seat 0 gets the first card)."""
    rest = [c for c in K.CODES if c not in " ".join(hands).split() + stock.split()]
    cards = [h.split() for h in hands]
    deck = [cards[k][i] for i in range(4) for k in range(players)]
    return deck + stock.split() + rest


def test_play_rule_follow_or_interrupt_and_eights_need_a_void() -> None:
    deck = deck_for(["9S 6D 7D 7H", "TS 9C 8H 7C", "8C JD QD KD", "AS AC AD AH"])
    d = new_deal(4, 1, 3, deck=deck, trumps=2)
    for _ in range(4):
        d.apply("no")
    assert d.to_act == 0  # the lowest diamond (6♦) leads the first deal
    d.apply("play:6D")
    # seat 1 has no diamond: anything; seat 1 plays the eight of hearts: the eight rule
    assert d.legal_actions() == ["play:7C", "play:8H", "play:9C", "play:TS"]
    d.apply("play:8H")
    # seat 2 holds no heart: anything (its diamonds no longer matter)
    d.apply("play:QD")
    # seat 3 holds A♥ (the main suit now), so A♣ A♦ A♠ cannot be played
    assert d.legal_actions() == ["play:AH"]
    with pytest.raises(IllegalMove) as err:
        d.apply("play:AS")
    assert err.value.reason == "must_follow"
    d.apply("play:AH")  # an ace does not beat an eight: it follows
    assert d.state.tricks[-1][1] == 1 and d.effects[-4:] == ["lead", "eight", "discard", "follow"]


def test_an_interrupting_card_may_be_played_instead_of_following() -> None:
    deck = deck_for(["9S 6D 7D 7H", "TS 9C 6H 7C", "8C JD QD KD", "AS AC AH 8D"])
    d = new_deal(4, 1, 3, deck=deck, trumps=1)  # seat 1 clubs, seat 3 diamonds
    for _ in range(4):
        d.apply("no")
    d.apply("play:6D")
    d.apply("play:6H")  # same rank: allowed although seat 1 has no diamond anyway
    d.apply("play:JD")
    # seat 3 holds 8♦ (main suit) and aces of other suits; no ace interrupts a 6 by way 2
    # except as trump: A♦ is not held; A♣/A♥/A♠ are not its trump
    assert d.legal_actions() == ["play:8D"]


def test_bets_targets_and_bank_changes() -> None:
    assert [K.target(n, False) for n in range(2, 7)] == [68, 80, 92, 104, 116]
    assert [K.target(n, True) for n in range(2, 7)] == [44, 56, 68, 80, 92]
    st = K.State(2, 0, list(range(36)), *K.trump_levels(2, 2, []))
    st.bets = [1, 0]
    st.points = [44, 60]
    assert st.bank_changes() == [-1, 0]
    st.points = [43, 68]
    assert st.bank_changes() == [1, -1]


def test_the_deal_one_card_at_a_time_from_the_dealers_left_and_draws() -> None:
    d = new_deal(3, 1, 1, deck=list(K.CODES), trumps=2, first_deal=False)
    assert d.hand(2) == sorted([K.CODES[i] for i in (0, 3, 6, 9)], key=C.__getitem__)
    assert d.state.stock_left == 24
    assert d.to_act == 2  # bets start at the dealer's left
    for _ in range(3):
        d.apply("no")
    assert d.to_act == 2  # later deals: the dealer's left leads
    for _ in range(3):
        d.apply(d.legal_actions()[0])
    assert [len(h) for h in d.state.hands] == [4, 4, 4] and d.state.stock_left == 21


def test_refusals_say_why() -> None:
    d = new_deal(2, seed=1)
    with pytest.raises(IllegalMove) as err:
        d.apply("play:6S")
    assert err.value.reason == "betting"
    d.apply("go")
    d.apply("no")
    with pytest.raises(IllegalMove) as err:
        d.apply("go")
    assert err.value.reason == "playing"
    missing = next(c for c in K.CODES if c not in d.hand(d.to_act or 0))
    with pytest.raises(IllegalMove) as err:
        d.apply("play:" + missing)
    assert err.value.reason == "not_in_hand"


def test_options_are_checked() -> None:
    with pytest.raises(ValueError):
        new_deal(5, trumps=1)
    with pytest.raises(ValueError):
        new_deal(4, trumps=3, suits="SD")
    with pytest.raises(ValueError):
        new_deal(4, trumps=1, suits="SSHD")
    assert new_deal(6).options.variant == 2
    assert new_deal(4, trumps=1, suits="DHCS").options.trump_of(0) == ["D"]
