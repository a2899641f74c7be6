"""Reading the other hands from this round's plays (soft): the worlds weighed by how likely
each seat's plays were with the hand the world gives it.

A player who holds a card that takes something worth having rarely trails or takes less
instead; one who trails its least useful card holds no card it would rather have played.
:func:`.core.passed_up` draws the hard conclusions (a passed-up capture worth much more);
this module weighs every play of this round by a softmax of normal's score
(:meth:`.players.NormalPlayer.score`, the sensible player's worth of a move): the chance
that a seat holding ``H`` made the play it made is ``exp(beta * s(play))`` over the sum of
``exp(beta * s(a))`` for every play ``a`` of a card of ``H``. Only the hand-
dependent denominator differs between worlds, so a world's weight is the product over the
plays of one over that sum (:func:`likelihood`), and :func:`weighted_world` draws a few
worlds as the seat's sampler does and keeps one by those weights (sampling-importance-
resampling).

The seat's knowledge at each play is read from the public history alone, as its own view
would have had it, less its own other cards (unknown here, so counted among its unseen: a
few cards of some forty). A play made while its seat controlled a build is not read (the
rules may have forced it), nor a build's alternatives (a build needs a second card of the
hand): each card's best play is a capture or a trail.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import kernel as K
from .core import Knowledge, this_round
from .players import NormalPlayer

_NORMAL = NormalPlayer(0)


@dataclass(frozen=True)
class Play:
    """One play of this round read: the seat, the cards it played after it this round,
    ``exp(beta * s)`` summed over the plays of the card it played (the same in every world)
    and, per card it may have held beside, summed over the plays of that card."""

    seat: int
    later: tuple[int, ...]
    played: float
    per_card: Mapping[int, float]


def card_weights(k: Knowledge, cards: Sequence[int], beta: float) -> dict[int, float]:
    """Per card, ``exp(beta * s)`` summed over its captures and trail on ``k.table``
    (normal's score ``s`` from ``k``); 0 for a card with no such play."""
    return {card: sum(math.exp(beta * _NORMAL.score(k, a))
                      for a in K.legal_actions(k.table, [card], k.seat))
            for card in cards}


def read_plays(view: Mapping[str, Any], k: Knowledge, beta: float) -> list[Play]:
    """The plays of this round by the other seats, read (:class:`Play`); [] when the view
    has no history or its replay does not match the table (:func:`.core.this_round`)."""
    plays = this_round(view, k)
    sizes = [n + sum(1 for p in plays if p.seat == seat) for seat, n in enumerate(k.hand_sizes)]
    out: list[Play] = []
    for j, play in enumerate(plays):
        seat, action, table = play.seat, play.action, play.table
        card = action[1]
        if seat != k.seat and not any(it[4] == seat for it in table):
            later = [p.action[1] for p in plays[j + 1:]]
            # what the seat had not seen then: what this one has not seen now, its hand, and
            # the cards played since (the seat's own other cards among them: not known here)
            unseen = sorted([*k.unseen, *k.hand, *later])
            them = Knowledge(
                seat=seat, players=k.players, n_teams=k.n_teams, dealer=k.dealer, hand=[],
                table=table, unseen=unseen, hand_sizes=list(sizes), captured=k.captured,
                sweeps=k.sweeps, last_capturer=k.last_capturer, round=k.round,
                rounds=k.rounds, pack=k.pack)
            same = K.legal_actions(table, [card], seat)
            if action not in same:
                same.append(action)  # a build, or a capture kept by control
            played = sum(math.exp(beta * _NORMAL.score(them, a)) for a in same)
            own_later = tuple(p.action[1] for p in plays[j + 1:] if p.seat == seat)
            per_card = card_weights(them, [*k.unseen, *own_later], beta)
            out.append(Play(seat, own_later, played, per_card))
        sizes[seat] -= 1
    return out


def likelihood(plays: Sequence[Play], hands: Sequence[Sequence[int]]) -> float:
    """How likely the plays read were with ``hands`` (each seat's hand now), up to a factor
    the same in every world."""
    out = 1.0
    for p in plays:
        total = p.played
        for c in hands[p.seat]:
            total += p.per_card.get(c, 0.0)
        for c in p.later:
            total += p.per_card.get(c, 0.0)
        out /= total
    return out


def weighted_world(draw: Callable[[], K.State], plays: Sequence[Play], rng: random.Random,
                   draws: int) -> K.State:
    """One of ``draws`` worlds from ``draw``, chosen with probability proportional to
    :func:`likelihood`."""
    worlds = [draw() for _ in range(draws)]
    weights = [likelihood(plays, w.hands) for w in worlds]
    return rng.choices(worlds, weights)[0]
