"""Cards of the Albastini pack: 36 cards, ranks A 7 K J Q 6 5 4 3 in four suits."""

from __future__ import annotations

import random
from typing import ClassVar

RANKS = "A7KJQ6543"  # high to low in every suit
SUITS = "CDHS"
POINTS = {"A": 11, "7": 10, "K": 4, "J": 3, "Q": 2, "6": 0, "5": 0, "4": 0, "3": 0}
RANK_NAMES = {
    "A": "Ace",
    "7": "7",
    "K": "King",
    "J": "Jack",
    "Q": "Queen",
    "6": "6",
    "5": "5",
    "4": "4",
    "3": "3",
}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
TOTAL_POINTS = 120


class Card:
    """One card, written as rank then suit: ``Card.parse("7H")``, ``str(card) == "7H"``.

    There are exactly 36 Card objects: constructing or parsing a card returns the shared
    instance, so cards compare and hash by rank and suit (and by identity, which is the same).
    """

    __slots__ = ("code", "index", "points", "rank", "strength", "suit")
    _cache: ClassVar[dict[tuple[str, str], Card]] = {}

    rank: str
    suit: str
    code: str
    points: int
    strength: int  # 8 for the Ace down to 0 for the 3: higher beats lower within a suit
    index: int  # 0..35, suit-major; a dense id for tables and bit sets

    def __new__(cls, rank: str, suit: str) -> Card:
        try:
            return cls._cache[(rank, suit)]
        except KeyError:
            raise ValueError(f"No such card in the Albastini pack: {rank}{suit}") from None

    @classmethod
    def _make(cls, rank: str, suit: str) -> Card:
        card = object.__new__(cls)
        card.rank = rank
        card.suit = suit
        card.code = rank + suit
        card.points = POINTS[rank]
        card.strength = len(RANKS) - 1 - RANKS.index(rank)
        card.index = SUITS.index(suit) * len(RANKS) + RANKS.index(rank)
        cls._cache[(rank, suit)] = card
        return card

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Read a card code such as ``"AS"``, ``"7h"`` or ``"qd"``; raise ValueError otherwise."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str) or len(text.strip()) != 2:
            raise ValueError(f"Not a card code: {text!r} (expected rank and suit, like 7H)")
        code = text.strip().upper()
        return cls(code[0], code[1])

    @property
    def name(self) -> str:
        """English name, e.g. "7 of hearts", "Ace of spades"."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[str, str]]:
        return (Card, (self.rank, self.suit))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


for _suit in SUITS:
    for _rank in RANKS:
        Card._make(_rank, _suit)

#: The whole pack in a fixed order (suit by suit, high to low).
PACK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in RANKS)


def shuffled_pack(seed: int | None = None) -> list[Card]:
    """The pack shuffled by ``random.Random(seed)``: the same seed gives the same order."""
    deck = list(PACK)
    random.Random(seed).shuffle(deck)
    return deck


def beats(card: Card, best: Card, trump: str | None) -> bool:
    """Whether ``card`` takes the round from ``best``, the card winning it so far."""
    if card.suit == best.suit:
        return card.strength > best.strength
    return card.suit == trump
