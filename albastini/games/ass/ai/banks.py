"""What the points of a deal are worth in banks, and the voids the public tricks show:
shared by the search player (``hard``) and the expert of ``bench/experts/ass.py``.

A bank changes only when a player's total crosses their target (lower after a "go", which
costs a bank when missed), so a point is worth the chance that it carries its taker over:
:func:`bank_weights` prices one more point for each seat from the points every player has
seen won and the tricks still to play. Once nobody draws any more, a player who discarded on
a suit (or interrupted it with an eight of another suit) has shown that it holds none of it
for the rest of the deal: :func:`known_voids` reads those from the public tricks and
:func:`deal_around_voids` samples worlds that respect them. Nothing here reads a hidden card.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from .. import kernel as K
from .core import Knowledge, sample_world

#: The points a deal brings in all (cards and combinations: more with more players, whose
#: tricks hold more combinations), and the spread of one player's points over the tricks
#: still to play: SPREAD_PER_TRICK * (mean trick) / 24.7 * tricks ** 0.35 (measured with
#: four players: s.d. 33 over nine tricks, 15 over the last one).
DEAL_POINTS = {2: 196.0, 3: 210.0, 4: 222.0, 5: 240.0, 6: 255.0}
SPREAD_PER_TRICK = 15.4
#: A floor on every weight, so that points still count a little when no bank is in reach,
#: and the weight of the chance of a bank against it.
FLOOR = 0.02
REACH_WEIGHT = 20.0


def reach_density(points: int, target: int, tricks_left: int, players: int) -> float:
    """How much one more point raises a player's chance of reaching ``target`` from
    ``points`` with ``tricks_left`` tricks to play: the density of a normal spread of what
    those tricks bring (0 once reached, or with nothing left to play)."""
    if points >= target or tricks_left <= 0:
        return 0.0
    tricks = 36 // players
    mean_trick = DEAL_POINTS.get(players, 222.0) / tricks
    mu = mean_trick * tricks_left / players
    sigma = SPREAD_PER_TRICK * mean_trick / 24.7 * math.pow(tricks_left, 0.35)
    z = (target - points - mu) / sigma
    return math.exp(-0.5 * z * z) / (sigma * math.sqrt(2 * math.pi))


def bank_weights(k: Knowledge, done: int, total: int) -> list[float]:
    """Per seat, what one more point for that seat is worth to ``k.seat``, in compared banks,
    with ``done`` of ``total`` tricks played: positive for itself (counted once per opponent,
    each being a comparison of banks; twice the chance after its "go", a miss taking a
    bank), negative for the others (most for one near its target, nothing beyond the floor
    for one who has reached it or cannot any more)."""
    out = []
    for s in range(k.players):
        go = k.bets[s] == 1
        w = FLOOR + (2.0 if go else 1.0) * REACH_WEIGHT * reach_density(
            k.points[s], K.target(k.players, go), total - done, k.players)
        out.append(w * (k.players - 1) if s == k.seat else -w)
    return out


def known_voids(k: Knowledge, tricks: Sequence[Mapping[str, Any]]) -> list[set[int]]:
    """Per seat, the suits it has shown it lacks since the last draw (so for the rest of
    the deal): it discarded, or interrupted with an eight of another suit, on that main
    suit (both are allowed only to a player without it). Read from the public tricks (the
    view's ``tricks``) and the trick in progress; empty before the last draw."""
    n = k.players
    last_draw = (36 - 4 * n) // n  # the tricks after which everyone drew
    voids: list[set[int]] = [set() for _ in range(n)]
    played = [[(int(s), K.CODE_INT[c]) for s, c in t["plays"]] for t in tricks[last_draw:]]
    if len(tricks) >= last_draw:
        played.append(list(k.trick.plays))
    for plays in played:
        tr = K.Trick()
        for seat, card in plays:
            main = tr.main_suit
            if tr.play(seat, card, k.levels, k.main_levels, False) in (K.DISCARD,
                                                                         K.EIGHT_RULE):
                voids[seat].add(main)
    return voids


def deal_around_voids(k: Knowledge, voids: Sequence[set[int]], rng: random.Random
                      ) -> K.State:
    """A world consistent with ``k``: :func:`~.core.sample_world`, its other hands dealt
    again so that nobody holds a suit it has shown it lacks (the rest to the stock;
    unconstrained if twenty tries find no such deal)."""
    st = sample_world(k, rng)
    others = [s for s in range(k.players) if s != k.seat]
    if not any(voids[s] for s in others):
        return st
    for _ in range(20):
        cards = list(k.unseen)
        rng.shuffle(cards)
        room = {s: k.hand_sizes[s] for s in others}
        hands: dict[int, list[int]] = {s: [] for s in others}
        stock: list[int] = []
        for i, c in enumerate(cards):
            fits = [s for s in others if room[s] > 0 and c // 9 not in voids[s]]
            if len(cards) - i > sum(room.values()):
                fits.append(-1)  # the card left in the stock
            if not fits:
                break
            s = rng.choice(fits)
            if s < 0:
                stock.append(c)
            else:
                hands[s].append(c)
                room[s] -= 1
        else:
            for s in others:
                st.hands[s] = hands[s]
            st.stock, st.pos = stock, 0
            return st
    return st
