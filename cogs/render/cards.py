"""Cards and suits as players read them, for any game played with the French-suited pack.

A card code is a rank then a suit letter (``"AS"``, ``"7H"``, ``"10D"``). What a card is worth,
what it beats and which ranks a game's pack holds are the game's business: the code's shape is
all that is read here (a game's presenter checks its own pack, see :mod:`cogs.games`).
"""

from __future__ import annotations

import re

from cogs.i18n import t

__all__ = [
    "RED_SUITS",
    "SUIT_SYMBOLS",
    "card_button_label",
    "card_label",
    "rank_label",
    "split_card",
    "suit_label",
    "suit_name",
    "suit_symbol",
]

SUIT_SYMBOLS: dict[str, str] = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RED_SUITS = frozenset("DH")
#: How a rank of a card code reads where it is not the code's own letter: ``T`` is the Ten.
RANK_LABELS: dict[str, str] = {"T": "10"}
_RANK = re.compile(r"[0-9A-Z]{1,2}")


def split_card(code: str) -> tuple[str, str]:
    """``"AS"`` -> ``("A", "S")``: the rank and the suit letter of a card code."""
    rank, suit = code[:-1], code[-1:]
    if not _RANK.fullmatch(rank) or suit not in SUIT_SYMBOLS:
        raise ValueError(f"Not a card code: {code!r} (expected rank then suit, like 'AS' or '7H')")
    return rank, suit


def rank_label(rank: str) -> str:
    """A rank as players read it: ``"T"`` -> ``"10"``, any other as it is."""
    return RANK_LABELS.get(rank, rank)


def card_label(code: str) -> str:
    """The card as players read it: ``"AS"`` -> ``"A♠"``, ``"7H"`` -> ``"7♥"``, ``"TD"`` ->
    ``"10♦"``."""
    rank, suit = split_card(code)
    return rank_label(rank) + SUIT_SYMBOLS[suit]


def pack_card_label(code: str, ranks: str, game: str) -> str:
    """:func:`card_label` of a card of ``game``'s pack (its ``ranks``); a code of another pack
    (a ``ValueError`` naming the game) is a fault of the caller, not something to draw."""
    rank, _suit = split_card(code)
    if rank not in ranks:
        raise ValueError(f"Not a card of {game}: {code!r} (ranks {' '.join(ranks)})")
    return card_label(code)


def known_suit_label(lang: str, suit: object) -> str:
    """:func:`suit_label` of a suit the view may leave out (None): "?" then."""
    return suit_label(lang, str(suit)) if suit in SUIT_SYMBOLS else "?"


def card_button_label(code: str, points: int) -> str:
    """Label of a card button: ``"A♠ 11"`` with its points (the view's ``card_points``), or
    just ``"5♠"`` when worth nothing."""
    return f"{card_label(code)} {points}" if points else card_label(code)


def suit_symbol(suit: str) -> str:
    """The symbol of a suit letter: ``"H"`` -> ``"♥"``."""
    if suit not in SUIT_SYMBOLS:
        raise ValueError(f"Not a suit: {suit!r} (expected one of C D H S)")
    return SUIT_SYMBOLS[suit]


# Swahili suit names (sw.json, for a native reviewer): hearts "kopa" (also "mioyo"), spades
# "shupaza" (also "jembe", "spedi"), diamonds "kisu" (also "diamonds", "almasi"), clubs "karanga"
# (also "mavi ya kuku", "maua"). The first of each is what East African players say most widely.
def suit_name(lang: str, suit: str, *, capitalize: bool = False) -> str:
    """The suit's name in ``lang`` ("hearts" / "kopa"); ``capitalize`` to start a sentence."""
    suit_symbol(suit)
    name = t(lang, f"suit.{suit}")
    return name[:1].upper() + name[1:] if capitalize else name


def suit_label(lang: str, suit: str) -> str:
    """Symbol and name together, readable by eye and by screen readers: ``"♥ hearts"``."""
    return f"{suit_symbol(suit)} {suit_name(lang, suit)}"
