"""Cards of Twenty-Eight: ranks J 9 A T K Q 8 7 (6) in four suits, and the pack of each mode.

``shared/rules/twentyeight.md`` is the authority: card points J 3, 9 2, A 1, T 1 (28 per deal
in every pack), codes rank then suit (``JH``, ``TD``).
"""

from __future__ import annotations

import random
from typing import ClassVar

#: Every rank of any pack, high to low (the 6 only in the 6-player pack).
RANKS = "J9ATKQ876"
SUITS = "CDHS"
POINTS: dict[str, int] = {"J": 3, "9": 2, "A": 1, "T": 1, "K": 0, "Q": 0, "8": 0, "7": 0, "6": 0}
RANK_NAMES = {
    "J": "Jack", "9": "9", "A": "Ace", "T": "10", "K": "King", "Q": "Queen",
    "8": "8", "7": "7", "6": "6",
}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
#: One suit, singular, for sentences like "you hold a spade".
SUIT_SINGULAR = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
TOTAL_POINTS = 28

#: The ranks of each pack, by number of players (3: no 8s and 7s; 6: with the 6s).
PACK_RANKS: dict[int, str] = {3: "J9ATKQ", 4: "J9ATKQ87", 6: "J9ATKQ876"}


class Card:
    """One card: ``Card.parse("JH")``, ``str(card) == "JH"``.

    There are 36 Card objects (the largest pack); constructing or parsing returns the shared
    instance, so cards compare and hash by identity. ``index`` is the card's int in
    :mod:`.kernel` (``suit * 9 + rank position``, a stronger card has a lower index in its suit).
    """

    __slots__ = ("code", "index", "points", "rank", "strength", "suit")
    _cache: ClassVar[dict[str, Card]] = {}

    rank: str
    suit: str
    code: str
    points: int
    strength: int  # 8 for the Jack down to 0 for the 6: higher beats lower within a suit
    index: int

    def __new__(cls, rank: str, suit: str) -> Card:
        """The shared card of this rank and suit; ValueError if there is none."""
        try:
            return cls._cache[rank + suit]
        except (KeyError, TypeError):
            raise ValueError(f"No such card in Twenty-Eight: {rank}{suit}") from None

    @classmethod
    def _make(cls, rank: str, suit: str) -> Card:
        card = object.__new__(cls)
        card.rank = rank
        card.suit = suit
        card.code = rank + suit
        card.points = POINTS[rank]
        card.strength = len(RANKS) - 1 - RANKS.index(rank)
        card.index = SUITS.index(suit) * len(RANKS) + RANKS.index(rank)
        cls._cache[card.code] = card
        return card

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Read a canonical card code (``"JH"``, ``"TD"``); ValueError for anything else
        (``"10D"``, ``"jh"``, a non-string)."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str) or text not in cls._cache:
            raise ValueError(f"Not a card code: {text!r} (expected rank then suit, like JH or TD)")
        return cls._cache[text]

    @property
    def name(self) -> str:
        """English name, e.g. "Jack of hearts", "10 of diamonds"."""
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

#: Every card by its int (``CARDS[card.index] is card``).
CARDS: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in RANKS)


def pack(players: int) -> tuple[Card, ...]:
    """The pack for ``players`` (3, 4 or 6), suit by suit C D H S, ranks high to low: the
    order the reference shuffles."""
    try:
        ranks = PACK_RANKS[players]
    except KeyError:
        raise ValueError(f"Twenty-Eight is played by 3, 4 or 6 players, not {players}") from None
    return tuple(Card(r, s) for s in SUITS for r in ranks)


def shuffled_pack(players: int, seed: int | None = None) -> list[Card]:
    """The mode's pack shuffled by ``random.Random(seed).shuffle``: same seed, same order."""
    deck = list(pack(players))
    random.Random(seed).shuffle(deck)
    return deck
