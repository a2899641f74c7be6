"""Albastini's rules on integer cards: one copy of each, for the fast path and the computer players.

:mod:`.cards` and :mod:`.deal` are the readable reference (``Card`` objects, checks, views);
the tests play both paths side by side. This module states the same rules once more, on ints,
for the code that runs them millions of times: :mod:`.fast` (simulation, and the code it
generates per mode) and every module of :mod:`.ai`. Nothing here is restated there.

Cards are ints 0..35, ``Card.index``: suit-major (C D H S), and within a suit from the Ace
down to the 3, so within one suit a *lower* int is a *stronger* card. Everything a hot loop
needs is a table lookup: ``POINTS[card]``, ``STRENGTH[card]``, ``SUIT[card]``, and
``WIN_KEY[trump][led][card]``, which orders the cards of a round by who eats it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import PACK, SUITS, Card

__all__ = [
    "CARDS",
    "CODES",
    "HAND",
    "KEY_POINTS",
    "NO_TRUMP",
    "POINTS",
    "STRENGTH",
    "SUIT",
    "SUIT_BIT",
    "WIN_KEY",
    "beats",
    "bidders",
    "card_code",
    "card_int",
    "draw",
    "draw_order",
    "draws",
    "first_leader",
    "play_order",
    "schedule",
    "suit_int",
    "winner_of",
]

#: Cards in a hand after the deal and after every draw.
HAND = 5
#: Cards in the pack.
CARDS = len(PACK)
#: Card codes by int: ``CODES[card] == "7H"``.
CODES: tuple[str, ...] = tuple(c.code for c in PACK)
#: Card points by int (from :data:`.cards.POINTS`).
POINTS: tuple[int, ...] = tuple(c.points for c in PACK)
#: Strength by int: 8 for an Ace down to 0 for a 3; higher beats lower within a suit.
STRENGTH: tuple[int, ...] = tuple(c.strength for c in PACK)
#: Suit 0..3 (C D H S) by int.
SUIT: tuple[int, ...] = tuple(SUITS.index(c.suit) for c in PACK)
#: ``1 << SUIT[card]``: for sets of suits kept as bits.
SUIT_BIT: tuple[int, ...] = tuple(1 << s for s in SUIT)
#: The trump of a deal still being bid: no suit is trump yet.
NO_TRUMP = -1


def card_int(card: Card | str) -> int:
    """The int of a :class:`.cards.Card` or a card code such as ``"7H"``."""
    return Card.parse(card).index


def card_code(card: int) -> str:
    """The code (``"7H"``) of a card int."""
    return CODES[card]


def suit_int(suit: str | int) -> int:
    """A suit letter (``"H"``) or a suit int as a suit int 0..3."""
    return SUITS.index(suit) if isinstance(suit, str) else int(suit)


# --------------------------------------------------------------------------- the round
def _win_key(card: int, led: int, trump: int) -> int:
    """The rule of a round, as a number: the card of a round with the highest key eats it.
    A trump beats every non-trump, the higher trump the other trump; with no trump in the
    round the higher card of the suit led wins; a card of another suit never wins (key 0)."""
    if SUIT[card] == trump:
        return 20 + STRENGTH[card]
    if SUIT[card] == SUIT[led]:
        return 10 + STRENGTH[card]
    return 0


#: ``WIN_KEY[trump][led][card]``: :func:`_win_key` as a table, for trump 0..3 and, last (so
#: ``WIN_KEY[NO_TRUMP]`` reads it), for a deal without a trump yet.
WIN_KEY: list[list[list[int]]] = [
    [[_win_key(card, led, trump) for card in range(CARDS)] for led in range(CARDS)]
    for trump in (*range(len(SUITS)), NO_TRUMP)
]

#: ``KEY_POINTS[trump][led][card]``: ``WIN_KEY * 256 + POINTS``. The highest value of a round
#: eats it, and the low byte of the sum of a round's values is its card points (at most 64),
#: so one lookup per card gives both.
KEY_POINTS: list[list[list[int]]] = [
    [[k * 256 + POINTS[c] for c, k in enumerate(row)] for row in by_lead] for by_lead in WIN_KEY
]


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` takes the round from ``best``, the card winning it so far (``best``
    is of the suit led or a trump, so its own suit stands for the suit led)."""
    keys = WIN_KEY[trump][best]
    return keys[card] > keys[best]


def winner_of(current: Sequence[tuple[int, int]], trump: int) -> tuple[int, int]:
    """(seat, card) winning a non-empty round in progress, given as (seat, card) in play order."""
    keys = WIN_KEY[trump][current[0][1]]
    best_seat, best = current[0]
    top = keys[best]
    for seat, card in current:
        if keys[card] > top:
            top, best_seat, best = keys[card], seat, card
    return best_seat, best


# --------------------------------------------------------------------------- seats
def play_order(leader: int, players: int) -> tuple[int, ...]:
    """The seats of a round in play order: the leader, then clockwise (seat numbers rise)."""
    return _PLAY_ORDER[players][leader]


def draw_order(winner: int, players: int) -> tuple[int, ...]:
    """Who draws after a round, in order: its winner first, then clockwise."""
    return _PLAY_ORDER[players][winner]


#: ``_PLAY_ORDER[players][leader]``, for every table size.
_PLAY_ORDER: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple((first + k) % n for k in range(n)) for first in range(n)) for n in range(1, 7)
}


def first_leader(dealer: int, players: int) -> int:
    """The seat on the dealer's left: it gets the first card, speaks first and leads first."""
    return (dealer + 1) % players


def bidders(players: int, teams: int, dealer: int) -> tuple[int, ...]:
    """The seats that bid, in speaking order: the dealer's opponents (every seat not on the
    dealer's side; individual play: everyone but the dealer), clockwise from the dealer's left."""
    return tuple(
        s
        for s in play_order(first_leader(dealer, players), players)
        if s % teams != dealer % teams
    )


# --------------------------------------------------------------------------- drawing
def draws(stock_left: int, players: int) -> bool:
    """Whether everyone draws after a round: while the stock (face-up card included) holds
    at least one card per player."""
    return stock_left >= players


def draw(hands: list[list[int]], stock: Sequence[int], pos: int, winner: int) -> int:
    """After a round won by ``winner``: everyone draws one card from ``stock[pos:]`` (in
    :func:`draw_order`) if the stock holds one per player. Returns the new ``pos``."""
    n = len(hands)
    if not draws(len(stock) - pos, n):
        return pos
    for seat in _PLAY_ORDER[n][winner]:
        hands[seat].append(stock[pos])
        pos += 1
    return pos


def schedule(
    players: int, size: int = HAND, stock_left: int | None = None
) -> list[tuple[int, bool]]:
    """(hand size, everyone draws afterwards) for each round still to play, from the start of
    a round where every hand holds ``size`` cards and the stock ``stock_left`` (default: the
    first round of a deal, the face-up card counted in the stock)."""
    left = CARDS - HAND * players if stock_left is None else stock_left
    out: list[tuple[int, bool]] = []
    while size:
        after = draws(left, players)
        out.append((size, after))
        size -= 1
        if after:
            left -= players
            size += 1
    return out
