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
from .core import Knowledge, action_of, after
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
    has no history or its replay does not match the table."""
    history = [(int(s), str(c)) for s, c in view.get("history") or view.get("log") or ()]
    this_round = sum(4 - n for n in k.hand_sizes)  # every seat gets 4 cards a round
    if not history or this_round <= 0:
        return []
    table: list[K.Item] = sorted(
        (c, (c,), K.LOOSE, K.VALUE[c], -1)
        for c in (K.CODE_INT[x] for x in view.get("first_table") or ()))
    public = {it[0] for it in table}
    start = len(history) - this_round
    sizes = [n + sum(1 for s, _ in history[start:] if s == seat)
             for seat, n in enumerate(k.hand_sizes)]
    plays: list[Play] = []
    for j, (seat, code) in enumerate(history):
        action = action_of(code)
        card = action[1]
        if j >= start and seat != k.seat and not any(it[4] == seat for it in table):
            later = tuple(action_of(c)[1] for s, c in history[j + 1:] if s == seat)
            unseen = [c for c in range(52) if c not in public and c != card]
            them = Knowledge(
                seat=seat, players=k.players, n_teams=k.n_teams, dealer=k.dealer, hand=[],
                table=table, unseen=unseen, hand_sizes=list(sizes), captured=k.captured,
                sweeps=k.sweeps, last_capturer=k.last_capturer, round=k.round,
                rounds=k.rounds, pack=k.pack)
            same = K.legal_actions(table, [card], seat)
            if action not in same:
                same.append(action)  # a build, or a capture kept by control
            played = sum(math.exp(beta * _NORMAL.score(them, a)) for a in same)
            per_card = card_weights(them, [*k.unseen, *later], beta)
            plays.append(Play(seat, later, played, per_card))
        if j >= start:
            sizes[seat] -= 1
        public.add(card)
        table, _ = after(table, action, seat)
    if sorted(it[0] for it in table) != sorted(it[0] for it in k.table):
        return []
    return plays


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
                   draws: int, first: K.State) -> K.State:
    """One of ``first`` and ``draws - 1`` more worlds from ``draw``, chosen with probability
    proportional to :func:`likelihood`."""
    worlds = [first] + [draw() for _ in range(draws - 1)]
    weights = [likelihood(plays, w.hands) for w in worlds]
    return rng.choices(worlds, weights)[0]
