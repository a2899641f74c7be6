"""What the auction says about the hidden hands: a model of how players bid, and how likely a
sampled hand makes the speeches that were heard.

A player bids on its first cards (four; six in 6 trios). :func:`hand_value` is the model of
what such cards promise as the bidder's trump suit (the Jack and Nine of a suit most, then its
Ace and Ten and length, the other Jacks). :func:`speech_weight` is how likely a player with
that value makes one speech: a free bid of ``b`` is likely when the value reaches about ``b``,
a pass when it falls short of the lowest bid it could have made. A sampled deal is kept with
the product of its players' weights (:func:`seat_weight`), so the worlds the search plays on
lean towards the hands the auction described: a player who bid high holds the Jack and Nine
of some suit, and the bidder's face-down card is of the suit its first cards favoured.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from .. import kernel as K
from .core import Knowledge

#: Rank positions within a suit (``card % 9``).
JACK, NINE, ACE, TEN = 0, 1, 2, 3
#: The points a side expects as the bidder before its cards are valued, by mode (players).
BASE = {3: 8.5, 4: 13.0, 6: 13.0}
#: How far above its value a player still bids (bidding is a contest: an even chance is
#: worth more than letting the other side play), and how sharp the model is (points).
MARGIN = 0.5
SPREAD = 1.5
#: A face-down card whose suit is not the one its bidder's first cards favoured is this much
#: less likely (people do choose otherwise, so not zero).
OTHER_SUIT = 0.2


def suit_value(cards: Sequence[int], suit: int, players: int) -> float:
    """The points a side may expect when a player holding ``cards`` names ``suit`` trump."""
    v = BASE[players]
    length = 0
    for c in cards:
        r = c % 9
        if K.SUIT[c] == suit:
            length += 1
            v += 3.0 if r == JACK else 1.8 if r == NINE else 0.8 if r in (ACE, TEN) else 0.0
        elif r == JACK:
            v += 1.4
    return v + 1.0 * max(0, length - 1)


def hand_value(cards: Sequence[int], players: int) -> tuple[float, int]:
    """(the value of the best trump suit for ``cards``, that suit)."""
    best, suit = -1.0, 0
    for s in range(4):
        if any(K.SUIT[c] == s for c in cards):
            v = suit_value(cards, s, players)
            if v > best:
                best, suit = v, s
    return best, suit


def speech_weight(value: float, bid: int, floor: int) -> float:
    """How likely a player whose cards are worth ``value`` makes a speech: a free bid of
    ``bid`` (``bid > 0``), or a pass when it could have bid ``floor``."""
    if bid:
        x = (value + MARGIN - bid) / SPREAD
    else:
        if floor > 28:
            return 1.0
        x = (floor - value - MARGIN) / SPREAD
    return 1.0 / (1.0 + math.exp(-x))


def speeches(k: Knowledge) -> dict[int, list[tuple[int, int]]]:
    """Every seat's informative speeches of the auction so far: (bid or 0 for a pass, the
    lowest bid it could have made). The compulsory opening says nothing and is left out."""
    out: dict[int, list[tuple[int, int]]] = {}
    high, high_seat = 0, -1
    for i, (seat, bid) in enumerate(k.bids):
        floor, may_pass = K.bid_floor(k.players, k.n_teams, i, high, high_seat, seat)
        if may_pass:
            out.setdefault(seat, []).append((bid, floor))
        if bid:
            high, high_seat = bid, seat
    return out


def seat_weight(first: Sequence[int], said: Sequence[tuple[int, int]], players: int) -> float:
    """How likely a player whose first cards are ``first`` made the speeches ``said``."""
    if not said:
        return 1.0
    value, _ = hand_value(first, players)
    w = 1.0
    for bid, floor in said:
        w *= speech_weight(value, bid, floor)
    return w


def first_cards(cards: Sequence[int], k: Knowledge, rng: random.Random, keep: int = -1
                ) -> list[int]:
    """A guess at which of a player's cards came in the first batch (the cards it bid on):
    all of them in 6 trios, else four at random, ``keep`` (the face-down card) among them."""
    if k.players == 6:
        return list(cards)
    pool = [c for c in cards if c != keep]
    need = 4 - (keep >= 0)
    picked = rng.sample(pool, need) if len(pool) > need else pool
    return [keep, *picked] if keep >= 0 else picked


def played_by_seat(k: Knowledge) -> dict[int, list[int]]:
    """The cards each seat has played so far (public)."""
    played: dict[int, list[int]] = {}
    for _, plays, _, _ in k.tricks:
        for s, c in plays:
            played.setdefault(s, []).append(c)
    for s, c in k.trick:
        played.setdefault(s, []).append(c)
    return played


def world_weight(k: Knowledge, st: K.State, said: dict[int, list[tuple[int, int]]],
                 rng: random.Random, played: dict[int, list[int]] | None = None,
                 weaker: float = 1.0) -> float:
    """How likely the hidden hands of ``st`` (a world sampled for ``k``) make the auction
    heard, and, for a seat that does not know the trump, the bidder's choice of it
    (``played``: :func:`played_by_seat`, computed once per decision). ``weaker``: the
    weight kept when the bidder's first cards hold a weaker card of the trump suit than the
    face-down one (rule players lay their weakest; 1: not weighed)."""
    if played is None:
        played = played_by_seat(k)
    w = 1.0
    hidden_trump = k.trump < 0 and st.trump_card >= 0
    for seat in range(k.players):
        if seat == k.seat:
            continue
        bidder = seat == k.bidder and hidden_trump
        if seat not in said and not bidder:
            continue
        h = st.hands[seat]
        cards = h[0] + h[1] + h[2] + h[3] + played.get(seat, [])
        if seat == st.bidder and st.face_down:
            cards.append(st.trump_card)
        first = first_cards(cards, k, rng, st.trump_card if seat == st.bidder else -1)
        value, suit = hand_value(first, k.players)
        for bid, floor in said.get(seat, ()):
            w *= speech_weight(value, bid, floor)
        if bidder and suit != K.SUIT[st.trump_card]:
            w *= OTHER_SUIT
        if bidder and weaker != 1.0 and any(
            c > st.trump_card and K.SUIT[c] == K.SUIT[st.trump_card] for c in first
        ):
            w *= weaker  # a higher int is a weaker card of the same suit
    return w
