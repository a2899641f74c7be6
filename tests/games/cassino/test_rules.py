"""The rules file's statements and examples, verbatim where it gives them: modes, the deal in
twos, capturing, building (the seed's eight examples), build control, trailing, codes."""

from __future__ import annotations

import pytest

from albastini.games.cassino import MODES, IllegalMove, Match, new_deal
from albastini.games.cassino import kernel as K

from .helpers import build, c, loose, oracle, position

CANONICAL = [K.CODES[i] for i in range(52)]


def test_modes_and_defaults() -> None:
    assert MODES == {
        "2": {"players": 2, "team_size": 1},
        "3": {"players": 3, "team_size": 1},
        "4 pairs": {"players": 4, "team_size": 2},
    }
    assert new_deal(4).team_size == 2
    assert new_deal(3).team_size == 1
    assert [new_deal(4).team_of(s) for s in range(4)] == [0, 1, 0, 1]
    for bad in ((4, 1), (5, None), (1, None), (2, 2), (6, 3)):
        with pytest.raises(ValueError):
            new_deal(*bad)
    with pytest.raises(ValueError):
        new_deal(2, dealer=2)
    with pytest.raises(TypeError):
        new_deal(2, thani=True)
    with pytest.raises(TypeError):
        Match(2, cot=True)


def test_canonical_order() -> None:
    order = ["AC", "AS", "2C", "9S", "TC", "TD", "JC", "KS"]
    assert sorted(order, key=K.CODE_INT.__getitem__) == order
    assert [K.VALUE[c(x)] for x in ("AH", "5C", "TD", "JS", "QH", "KC")] == [1, 5, 10, 0, 0, 0]


def test_deck_validation() -> None:
    with pytest.raises(ValueError):
        new_deal(2, deck=CANONICAL[:51])
    with pytest.raises(ValueError):
        new_deal(2, deck=[*CANONICAL[:51], "AC"])
    with pytest.raises(ValueError):
        new_deal(2, deck="AC" * 52)
    # deck wins over seed; same seed, same deal
    assert new_deal(2, deck=CANONICAL, seed=5).hand(0) == new_deal(2, deck=CANONICAL).hand(0)
    assert new_deal(3, seed=7).view(0) == new_deal(3, seed=7).view(0)


def idx(*indices: int) -> list[str]:
    return sorted((CANONICAL[i] for i in indices), key=K.CODE_INT.__getitem__)


def hand(deal: object, seat: int) -> list[str]:
    return [str(x) for x in deal.hand(seat)]  # type: ignore[attr-defined]


def finish_round(deal: object) -> None:
    """Play legal codes until a new round is dealt."""
    rnd = deal.state.round  # type: ignore[attr-defined]
    while deal.state.round == rnd:  # type: ignore[attr-defined]
        deal.apply(deal.legal_actions()[0])  # type: ignore[attr-defined]


def table_ids(deal: object) -> list[str]:
    return [x for it in deal.view(None)["table"] for x in it["cards"]]  # type: ignore[attr-defined]


def test_deal_in_twos_two_players() -> None:
    deal = new_deal(2, dealer=0, deck=CANONICAL)
    assert hand(deal, 1) == idx(0, 1, 6, 7)
    assert table_ids(deal) == idx(2, 3, 8, 9)
    assert hand(deal, 0) == idx(4, 5, 10, 11)
    assert deal.view(0)["pack"] == 52 - 4 - 8
    assert deal.to_act == 1
    finish_round(deal)
    assert hand(deal, 1) == idx(12, 13, 16, 17)
    assert hand(deal, 0) == idx(14, 15, 18, 19)
    assert deal.to_act == 1
    for _ in range(4):
        finish_round(deal)
    assert deal.view(None)["round"] == 6
    assert hand(deal, 1) == idx(44, 45, 48, 49)
    assert hand(deal, 0) == idx(46, 47, 50, 51)
    assert deal.view(None)["pack"] == 0


def test_deal_in_twos_three_players() -> None:
    deal = new_deal(3, dealer=0, deck=CANONICAL)
    assert hand(deal, 1) == idx(0, 1, 8, 9)
    assert hand(deal, 2) == idx(2, 3, 10, 11)
    assert table_ids(deal) == idx(4, 5, 12, 13)
    assert hand(deal, 0) == idx(6, 7, 14, 15)
    finish_round(deal)
    assert hand(deal, 1) == idx(16, 17, 22, 23)
    assert hand(deal, 2) == idx(18, 19, 24, 25)
    assert hand(deal, 0) == idx(20, 21, 26, 27)
    finish_round(deal)
    assert hand(deal, 1) == idx(28, 29, 34, 35)
    finish_round(deal)
    assert hand(deal, 1) == idx(40, 41, 46, 47)


def test_deal_in_twos_four_pairs() -> None:
    deal = new_deal(4, dealer=0, deck=CANONICAL)
    assert hand(deal, 1) == idx(0, 1, 10, 11)
    assert hand(deal, 2) == idx(2, 3, 12, 13)
    assert hand(deal, 3) == idx(4, 5, 14, 15)
    assert table_ids(deal) == idx(6, 7, 16, 17)
    assert hand(deal, 0) == idx(8, 9, 18, 19)
    finish_round(deal)
    assert hand(deal, 1) == idx(20, 21, 28, 29)
    assert hand(deal, 0) == idx(26, 27, 34, 35)
    finish_round(deal)
    assert hand(deal, 1) == idx(36, 37, 44, 45)


def test_another_dealer_deals_from_its_left() -> None:
    deal = new_deal(3, dealer=1, deck=CANONICAL)
    assert hand(deal, 2) == idx(0, 1, 8, 9)
    assert hand(deal, 0) == idx(2, 3, 10, 11)
    assert hand(deal, 1) == idx(6, 7, 14, 15)
    assert deal.to_act == 2


SEED_EXAMPLES = [
    ([loose("2C")], ["5H", "7D"], "build:5H:7:2C"),
    ([loose("AC"), loose("6D")], ["2H", "9S"], "build:2H:9:AC6D"),
    ([build("2C3D", 5, 0)], ["3H", "8S"], "build:3H:8:2C"),
    ([build("ACAD", 2, 0), loose("5S")], ["3H", "TC"], "build:3H:10:AC5S"),
    ([loose("7C")], ["7D", "7H"], "build:7D:7:7C"),
    ([loose("3C"), loose("6D")], ["9H", "9S"], "build:9H:9:3C6D"),
    ([loose("8C"), loose("TC")], ["2D", "TS"], "build:2D:10:8CTC"),
    ([loose("AC"), loose("2D"), loose("5H")], ["4S", "6C"], "build:4S:6:AC2D5H"),
]


@pytest.mark.parametrize(("table", "held", "code"), SEED_EXAMPLES)
def test_the_seeds_eight_building_examples(table: list[K.Item], held: list[str],
                                          code: str) -> None:
    deal = position(table, held)
    assert code in deal.legal_actions()
    assert set(deal.legal_actions()) == oracle(deal.state.table, deal.state.hands[1], 1)
    deal.apply(code)
    (made,) = [it for it in deal.view(None)["table"] if it["kind"] != "card"]
    assert made["controller"] == 1
    assert made["value"] == int(code.split(":")[2])
    simple = code in ("build:5H:7:2C", "build:2H:9:AC6D", "build:3H:8:2C", "build:3H:10:AC5S")
    assert made["kind"] == ("simple" if simple else "compound")


def test_capture_code_example_simple_build_in_a_sum() -> None:
    deal = position([build("2C2D", 4, 0), loose("5H")], ["9S", "KD"])
    assert "capture:9S:2C5H" in deal.legal_actions()
    deal.apply("capture:9S:2C5H")
    assert deal.view(None)["sweeps"] == [0, 1]
    assert deal.view(None)["captured"] == [0, 4]
    assert deal.view(None)["last_capturer"] == 1


def test_a_three_on_a_three_builds_six_or_threes() -> None:
    deal = position([loose("3C")], ["3D", "3H", "6S"])
    legal = deal.legal_actions()
    assert "build:3D:6:3C" in legal and "build:3D:3:3C" in legal
    deal.apply("build:3D:3:3C")
    assert deal.view(None)["table"][0]["kind"] == "compound"


def test_a_king_takes_one_two_or_three_loose_kings() -> None:
    deal = position([loose("KC"), loose("KD"), loose("KH"), loose("5C")], ["KS", "2D"])
    caps = [x for x in deal.legal_actions() if x.startswith("capture:KS")]
    assert len(caps) == 7
    assert "capture:KS:KCKDKH" in caps and "trail:KS" not in deal.legal_actions()


def test_a_nine_takes_four_and_five_and_leaves_the_nine_or_takes_both() -> None:
    deal = position([loose("4C"), loose("5D"), loose("9H")], ["9S", "2C"])
    caps = {x for x in deal.legal_actions() if x.startswith("capture:")}
    assert caps == {"capture:9S:4C5D", "capture:9S:9H", "capture:9S:4C5D9H"}


def test_a_compound_build_is_taken_only_alone_by_its_value() -> None:
    table = [build("3C6D9H", 9, 0, compound=True), loose("AC")]
    deal = position(table, ["TS", "9S", "AD"])
    legal = deal.legal_actions()
    assert "capture:9S:3C" in legal
    assert "capture:TS:AC3C" not in legal
    assert not any(x.startswith("build:AD:10:") and "3C" in x for x in legal)
    with pytest.raises(IllegalMove) as e:
        deal.apply("capture:TS:AC3C")
    assert e.value.reason == "compound_value"


def test_adding_to_a_compound_build_keeps_it_compound_and_takes_control() -> None:
    table = [build("3C6D9H", 9, 0, compound=True), loose("4C")]
    deal = position(table, ["5S", "9S"])
    assert "build:5S:9:3C4C" in deal.legal_actions()
    deal.apply("build:5S:9:3C4C")
    (b,) = deal.view(None)["table"]
    assert b["kind"] == "compound" and b["controller"] == 1 and len(b["cards"]) == 5


def test_raising_anyones_simple_build_passes_control() -> None:
    deal = position([build("2C3D", 5, 0)], ["3H", "8S"], others=["5C", "KD", "QD", "JD"])
    deal.apply("build:3H:8:2C")
    assert deal.view(None)["table"][0]["controller"] == 1


def test_control_forbids_trailing_and_keeps_a_card_of_the_value() -> None:
    deal = position([build("2C5D", 7, 1), loose("4H")], ["7S", "4D", "KC"])
    legal = deal.legal_actions()
    assert not any(x.startswith("trail:") for x in legal)
    with pytest.raises(IllegalMove, match="You control a build, so you may not trail"):
        deal.apply("trail:KC")
    # the last 7 may take the 7-build, not the 4 while the build stays
    assert "capture:7S:2C" in legal
    deal2 = position([build("2C5D", 7, 1), loose("3H"), loose("4H")], ["7S", "KC"])
    assert "capture:7S:3H4H" not in deal2.legal_actions()
    assert "capture:7S:2C3H4H" in deal2.legal_actions()
    with pytest.raises(IllegalMove) as e:
        deal2.apply("capture:7S:3H4H")
    assert e.value.reason == "keep_control"


def test_two_builds_of_one_value_are_both_taken_with_the_last_card() -> None:
    deal = position([build("2C5D", 7, 1), build("3C4D", 7, 1)], ["7S", "KC"])
    assert deal.legal_actions() == ["capture:7S:2C3C"]
    deal.apply("capture:7S:2C3C")


def test_trailing_a_card_that_can_capture_is_refused() -> None:
    deal = position([loose("2C"), loose("3D")], ["5H", "KS"])
    with pytest.raises(IllegalMove, match="5H can capture, so you may not trail it"):
        deal.apply("trail:5H")
    assert "trail:KS" in deal.legal_actions()
    deal = position([loose("KC")], ["KS", "4H"])
    assert "trail:KS" not in deal.legal_actions()


def test_refusal_sentences() -> None:
    deal = position([loose("2C"), loose("6D")], ["5H", "3S", "JD"])
    cases = {
        "trail:7H": ("You don't hold 7H", "not_in_hand"),
        "capture:5H:3C": ("There is no table item named 3C", "no_item"),
        "build:3S:8:2C": ("To build 8 you must keep a card of value 8 in hand",
                          "must_hold_value"),
        "capture:5H:6D2C": ("once, in card order", "item_order"),
        "capture:5H:2C2C": ("once, in card order", "item_order"),
        "capture:5H:6D": ("groups of 5", "bad_sum"),
        "build:JD:5:2C": ("Face cards cannot build", "face_build"),
        "build:3S:11:2C": ("worth 1 to 10", "build_value"),
        "build:3S:08:2C": ("", "bad_code"),
        "capture:5h:2C": ("", "bad_code"),
        "trail:5H ": ("", "bad_code"),
        "build:3S:6:2C": ("", "must_hold_value"),
    }
    before = deal.view(1)
    for code, (text, reason) in cases.items():
        with pytest.raises(IllegalMove, match=text or None) as e:
            deal.apply(code)
        assert e.value.reason == reason, code
        assert deal.view(1) == before
    deal = position([loose("2C"), loose("JH")], ["5H", "7S", "3C"])
    with pytest.raises(IllegalMove) as e:
        deal.apply("build:5H:7:2CJH")
    assert e.value.reason == "face_item"
    with pytest.raises(IllegalMove) as e:
        deal.apply("build:3C:7:2C")
    assert e.value.reason == "bad_build"


def test_the_end_of_the_deal_gives_the_leftover_to_the_last_capturer() -> None:
    deal = new_deal(2, dealer=0, seed=3)
    st = deal.state
    while not (st.round == 6 and sum(map(len, st.hands)) == 1):
        deal.apply(deal.legal_actions()[0])
    # the dealer plays the last card of the deal
    assert deal.to_act == 0
    st.table = [loose("5C"), loose("KH")]
    st.hands[0] = [c("9D")]
    st.last_capturer = 1
    deal._legal = None
    before_sweeps = list(st.sweeps)
    before = len(st.piles[1])
    deal.apply("trail:9D")
    assert deal.phase == "finished" and deal.to_act is None and deal.legal_actions() == []
    assert len(st.piles[1]) == before + 3 and st.sweeps == before_sweeps
    assert deal.view(None)["leftover"] == ["5C", "9D", "KH"]
    with pytest.raises(IllegalMove):
        deal.apply("trail:9D")


def test_a_sweep_on_the_last_play_counts() -> None:
    deal = new_deal(2, dealer=0, seed=3)
    st = deal.state
    while not (st.round == 6 and sum(map(len, st.hands)) == 1):
        deal.apply(deal.legal_actions()[0])
    st.table = sorted([loose("5C"), loose("4H")])
    st.hands[0] = [c("9D")]
    deal._legal = None
    sweeps = st.sweeps[0]
    deal.apply("capture:9D:4H5C")
    assert st.sweeps[0] == sweeps + 1 and deal.view(None)["leftover"] == []
    assert deal.result().to_json()["sweeps"][0] == sweeps + 1


def test_legal_codes_are_sorted_and_unique() -> None:
    deal = position([loose("AC"), loose("2D"), loose("3H"), loose("4S")],
                    ["5H", "6C", "TD", "3S"])
    legal = deal.legal_actions()
    assert legal == sorted(set(legal))
    assert set(legal) == oracle(deal.state.table, deal.state.hands[1], 1)
