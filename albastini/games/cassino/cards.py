"""Cards of Cassino: the standard 52-card pack, codes rank then suit (``TD``, ``2S``, ``KC``).

``Card`` objects are shared (one per card), so they compare by identity; ``index`` is the
card's int in :mod:`.kernel` (``rank * 4 + suit``), whose order is the rules' canonical card
order (``A 2 ... T J Q K``, then ``C D H S``).
"""

from __future__ import annotations

import random
from typing import ClassVar

from .kernel import CODE_INT, CODES, VALUE

RANK_NAMES = {
    "A": "Ace", "T": "10", "J": "Jack", "Q": "Queen", "K": "King",
    **{str(n): str(n) for n in range(2, 10)},
}
#: Plural names, for sentences such as "A King captures only loose Kings".
RANK_PLURALS = {r: n + "s" for r, n in RANK_NAMES.items()}
#: The ranks of the pack, highest first (``T`` is the Ten): how a hand is sorted and named.
RANKS = "KQJT98765432A"
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


class Card:
    """One card: ``Card.parse("TD")``; ``str(card) == "TD"``; ``value`` 1-10, 0 for J Q K."""

    __slots__ = ("code", "index", "rank", "suit", "value")
    _cache: ClassVar[dict[str, Card]] = {}

    code: str
    index: int
    rank: str
    suit: str
    value: int

    def __new__(cls, code: str) -> Card:
        """The shared card of this code; ValueError if there is none."""
        try:
            return cls._cache[code]
        except (KeyError, TypeError):
            raise ValueError(f"No such card: {code!r}") from None

    @classmethod
    def parse(cls, code: object) -> Card:
        """The card whose code is ``str(code)``; ValueError if none."""
        return cls(str(code))

    @property
    def name(self) -> str:
        """A short readable name with the suit symbol: ``10♦``."""
        return _short(self.code)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[type[Card], tuple[str]]:
        return (Card, (self.code,))


def _short(code: str) -> str:
    rank = "10" if code[0] == "T" else code[0]
    return rank + SUIT_SYMBOLS[code[1]]


def _make(code: str) -> Card:
    card = object.__new__(Card)
    card.code = code
    card.index = CODE_INT[code]
    card.rank = code[0]
    card.suit = code[1]
    card.value = VALUE[card.index]
    return card


for _code in CODES:
    Card._cache[_code] = _make(_code)

#: Every card, by kernel int.
CARDS: tuple[Card, ...] = tuple(Card._cache[c] for c in CODES)


def pack() -> list[Card]:
    """The 52 cards in canonical order."""
    return list(CARDS)


def shuffled_pack(seed: int | None) -> list[Card]:
    """The canonical pack shuffled with ``random.Random(seed).shuffle`` (the reference's way)."""
    cards = pack()
    random.Random(seed).shuffle(cards)
    return cards


def short(code: str) -> str:
    """A card code with its suit symbol: ``TD`` -> ``10♦``."""
    return _short(code)
