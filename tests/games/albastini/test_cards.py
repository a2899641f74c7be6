"""Cards and actions: codes, ranks, points, the order within a suit, the round-winning rule."""

from __future__ import annotations

import copy
import pickle

import pytest

from albastini import PACK, Bid, Card, Pass, Play, beats, parse_action, shuffled_pack
from albastini.games.albastini.cards import TOTAL_POINTS


def test_public_card_api() -> None:
    card = Card.parse("7H")
    assert str(card) == "7H"
    assert card.rank == "7"
    assert card.suit == "H"
    assert card.points == 10
    assert card.name == "7 of hearts"
    assert repr(card) == "Card('7H')"


def test_pack_is_36_cards_without_2_8_9_10() -> None:
    assert len(PACK) == 36
    assert len(set(PACK)) == 36
    assert {c.rank for c in PACK} == set("A7KJQ6543")
    assert {c.suit for c in PACK} == set("CDHS")
    assert [c.index for c in PACK] == list(range(36))


def test_points_120_and_30_per_suit() -> None:
    assert sum(c.points for c in PACK) == TOTAL_POINTS == 120
    for suit in "CDHS":
        assert sum(c.points for c in PACK if c.suit == suit) == 30
    expected = {"A": 11, "7": 10, "K": 4, "J": 3, "Q": 2, "6": 0, "5": 0, "4": 0, "3": 0}
    for card in PACK:
        assert card.points == expected[card.rank]


def test_rank_order_seven_above_king_jack_above_queen() -> None:
    order = sorted((c for c in PACK if c.suit == "S"), key=lambda c: -c.strength)
    assert "".join(c.rank for c in order) == "A7KJQ6543"
    assert Card.parse("7S").strength > Card.parse("KS").strength
    assert Card.parse("JS").strength > Card.parse("QS").strength


@pytest.mark.parametrize("text", ["7h", " qd ", "As", "3C"])
def test_parse_is_lenient_about_case_and_spaces(text: str) -> None:
    card = Card.parse(text)
    assert card.code == text.strip().upper()


@pytest.mark.parametrize("text", ["", "7", "10H", "2H", "8S", "9D", "7X", "HH", "7H7"])
def test_parse_rejects_what_is_not_in_the_pack(text: str) -> None:
    with pytest.raises(ValueError):
        Card.parse(text)


def test_cards_are_shared_values() -> None:
    assert Card.parse("KD") is Card("K", "D")
    assert Card.parse("KD") == Card.parse("kd")
    assert hash(Card.parse("KD")) == hash(Card("K", "D"))
    assert pickle.loads(pickle.dumps(Card.parse("KD"))) is Card.parse("KD")
    assert copy.deepcopy(Card.parse("KD")) is Card.parse("KD")
    assert Card.parse(Card.parse("KD")) is Card.parse("KD")


def test_shuffled_pack_is_reproducible() -> None:
    assert shuffled_pack(7) == shuffled_pack(7)
    assert shuffled_pack(7) != shuffled_pack(8)
    assert sorted(shuffled_pack(7), key=lambda c: c.index) == list(PACK)


C = Card.parse


@pytest.mark.parametrize(
    ("card", "best", "trump", "expected"),
    [
        ("3H", "AS", "H", True),  # the lowest trump beats an Ace of another suit
        ("AS", "3H", "H", False),  # nothing but a higher trump beats a trump
        ("4H", "3H", "H", True),
        ("7S", "KS", "H", True),  # Seven above King
        ("KS", "7S", "H", False),
        ("JS", "QS", "H", True),  # Jack above Queen
        ("QS", "JS", "H", False),
        ("AD", "3S", "H", False),  # off-suit, not trump: never wins
        ("AS", "7S", "C", True),
        ("6S", "5S", "C", True),
    ],
)
def test_beats(card: str, best: str, trump: str, expected: bool) -> None:
    assert beats(C(card), C(best), trump) is expected


def test_actions_are_immutable_values() -> None:
    # Bid and Play take a card's code too, read as its card
    assert Bid("7H") == Bid(C("7H"))
    assert Play("7h") == Play(C("7H"))
    assert Pass() == Pass()
    # two kinds of action never compare equal: that is what is checked
    assert Bid("7H") != Play("7H")  # type: ignore[comparison-overlap]
    assert len({Bid("7H"), Bid("7H"), Play("7H"), Pass(), Pass()}) == 3
    with pytest.raises(AttributeError):
        Bid("7H").card = C("AS")  # type: ignore[misc]
    with pytest.raises(ValueError):
        Play("2H")


@pytest.mark.parametrize("action", [Bid(C("4C")), Pass(), Play(C("7H"))])
def test_action_codes_round_trip(action: Bid | Pass | Play) -> None:
    assert parse_action(action.code) == action


@pytest.mark.parametrize("code", ["", "bid", "play:", "bid:2H", "draw:7H", "pass:7H", "x" * 40])
def test_parse_action_rejects_garbage(code: str) -> None:
    with pytest.raises(ValueError):
        parse_action(code)
