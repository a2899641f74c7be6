"""What a heads-up deal left at a round's end is worth to each side: a model fitted to how
such deals end (``bench/cas_horizon.py``), for the search's rollouts that stop there.

A rollout of :mod:`.search` plays on to the end of a round and must then say what the
position is worth. Counting the worth of the cards captured meanwhile (:func:`.search.
outcomes`) is a proxy; the deal is won by points (most cards, most spades, the Cassinos,
the Aces, the sweeps), and a lead in cards matters more the fewer cards are left to take.
Here the position is read through a few public numbers (:func:`features`: each one the
difference between the two sides, so the model is symmetric), and two models fitted on the
round ends of played deals turn them into the chance of winning the deal (logistic) and the
expected points' margin (least squares); :func:`deal_value` combines them in the unit a
finished deal is scored in (1 for a win, a half for a tie, plus a twentieth of the margin).

The piles, the sweeps, the table, the last capturer, the dealer and the cards left are public;
the hands just dealt are a sampled world's (the rollouts see them anyway).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .. import kernel as K

#: Points that a card is worth by itself (the Cassinos and the Aces).
_POINTS: tuple[int, ...] = tuple(
    (2 if c == K.TEN_D else 0) + (1 if c == K.TWO_S else 0) + (1 if K.RANK[c] == 0 else 0)
    for c in range(52)
)

#: The names of :func:`features`, in order.
FEATURES: tuple[str, ...] = (
    "points",        # points already won: the cards' own, the sweeps, a majority decided
    "cards",         # the lead in cards captured (0 once most cards is decided)
    "cards_scaled",  # that lead over the square root of the cards not yet captured
    "spades",        # the lead in spades captured (0 once most spades is decided)
    "spades_scaled",  # that lead over the square root of the spades not yet captured
    "last",          # +1 if this side captured last (it takes the table at the end), -1 if not
    "last_table",    # that times the cards on the table, over the cards left to deal + 1
    "in_hand",       # the lead in points held in hand (the round just dealt)
    "dealer",        # +1 if this side deals (it plays last in every round), -1 if not
    "dealer_left",   # that times the points not yet won, over 11
)

#: Fitted by ``bench/cas_horizon.py --deals 3000 --test 1000 --seed 9100`` (logistic
#: regression, soft labels 1 / 0.5 / 0, on the 30,000 round ends of 3,000 deals played by the
#: rebuilt expert against itself and against normal; bench/README.md, "ninth round"): the
#: weights of :data:`FEATURES` for the chance of winning the deal.
WIN: tuple[float, ...] = (0.3660, -0.0583, 0.8974, -0.0747, 0.5141, 0.0305, 0.0182, 0.0994,
                          0.5372, -0.5558)
#: Fitted alongside by least squares: the weights of :data:`FEATURES` for the final margin.
MARGIN: tuple[float, ...] = (1.0143, 0.0659, 0.7567, 0.2408, 0.1372, 0.0936, -0.0001, 0.3651,
                             1.0120, -1.0934)


def features(st: K.State, team: int) -> list[float]:
    """The numbers the models read from ``st`` (heads-up) for ``team``, each a difference
    between ``team`` and the other side (:data:`FEATURES`). Placeholder cards (>= 52) count
    as captured cards of no suit and no points."""
    other = 1 - team
    cards = [len(p) for p in st.piles]
    spades = [sum(1 for c in p if c < 52 and c % 4 == K.SPADE) for p in st.piles]
    points = [sum(_POINTS[c] for c in p if c < 52) + st.sweeps[t]
              for t, p in enumerate(st.piles)]
    won = sum(points)
    left_cards = 52 - cards[0] - cards[1]
    left_spades = 13 - spades[0] - spades[1]
    d_cards = float(cards[team] - cards[other])
    d_spades = float(spades[team] - spades[other])
    if max(cards) > 26:
        points[cards.index(max(cards))] += 3
        won += 3
        d_cards = 0.0
    if max(spades) > 6:
        points[spades.index(max(spades))] += 1
        won += 1
        d_spades = 0.0
    last = (0.0 if st.last_capturer < 0
            else 1.0 if st.last_capturer % 2 == team else -1.0)
    on_table = sum(len(it[1]) for it in st.table)
    # (heads-up, seat and team are one)
    held = [sum(_POINTS[c] for c in h if c < 52) for h in st.hands]
    dealer = 1.0 if st.dealer % 2 == team else -1.0
    undealt = len(st.deck) - st.pos
    # the points still to win: the cards' own (11 with the majorities) less those won
    left_points = max(0, 11 - (won - st.sweeps[0] - st.sweeps[1]))
    return [
        float(points[team] - points[other]),
        d_cards,
        d_cards / math.sqrt(left_cards + 1),
        d_spades,
        d_spades / math.sqrt(left_spades + 1),
        last,
        last * on_table / (undealt + 1),
        float(held[team] - held[other]),
        dealer,
        dealer * left_points / 11,
    ]


def dot(weights: Sequence[float], x: Sequence[float]) -> float:
    """The weighted sum of ``x``."""
    return sum(w * v for w, v in zip(weights, x, strict=True))


def deal_value(st: K.State, team: int, win: Sequence[float] = WIN,
               margin: Sequence[float] = MARGIN) -> float:
    """What the deal left on ``st`` is worth to ``team`` (heads-up), as a finished deal is
    scored by :func:`.search.outcomes`: the chance of winning it plus a twentieth of the
    expected points' margin."""
    x = features(st, team)
    z = dot(win, x)
    p = 1.0 / (1.0 + math.exp(-z)) if z > -40 else 0.0
    return p + 0.05 * dot(margin, x)


__all__ = ["FEATURES", "MARGIN", "WIN", "deal_value", "dot", "features"]
