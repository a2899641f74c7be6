"""The heuristic player: card counting, trump economy, partner feeding, exact endgames."""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb
from typing import Any

from ..actions import Action
from ..fast import FastDeal
from ..kernel import POINTS, STRENGTH, SUIT, beats, draws, play_order, winner_of
from .core import Knowledge, cheap_key, play_action, read_view
from .players import Player, bid_or_pass
from .sim import Budget, solve, solve_size

#: Largest endgame (product of hand-size factorials) the heuristic solves exactly.
ENDGAME_SIZE = 30_000
#: Node budget of its endgame search (all samples together).
ENDGAME_NODES = 12_000


def best_card(values: dict[int, float], trump: int) -> int:
    """The card with the highest value; among equals, the cheapest (``core.cheap_key``)."""
    top = max(values.values())
    return min((c for c, v in values.items() if v >= top - 1e-9), key=lambda c: cheap_key(c, trump))


def sample_sim(k: Knowledge, rng: random.Random) -> FastDeal:
    """One deal consistent with everything ``k``'s seat knows: the unknown cards dealt at
    random into the other hands' free slots, the rest into the stock (face-up card last)."""
    pool = list(k.unknown)
    rng.shuffle(pool)
    hands: list[list[int]] = []
    i = 0
    for s in range(k.players):
        if s == k.seat:
            hands.append(list(k.hand))
            continue
        take = min(k.slots[s], len(pool) - i)
        hands.append([*k.known[s], *pool[i : i + take]])
        i += take
    stock = pool[i : i + k.stock_hidden]
    if k.face_up is not None:
        stock.append(k.face_up)
    return FastDeal.from_parts(
        k.players, k.team_size, k.trump, hands, stock, k.leader, k.current, k.eaten
    )


def endgame_values(
    k: Knowledge, rng: random.Random, samples: int, max_nodes: int = 200_000
) -> dict[int, float] | None:
    """Average exact values of each card over ``samples`` sampled deals (one when every card
    is placed); None when the stock is not empty or a solve runs past its budget."""
    if not stock_empty(k):
        return None
    n = 1 if k.fully_known() else samples
    totals: dict[int, float] = {}
    try:
        for _ in range(n):
            sim = sample_sim(k, rng)
            for card, v in solve(sim, k.team, max_nodes // n, need_all=n > 1).items():
                totals[card] = totals.get(card, 0.0) + v
    except Budget:
        return None
    return totals


def stock_empty(k: Knowledge) -> bool:
    """No card left to draw (5 players: only the never-drawn face-up card is left)."""
    return not draws(k.stock, k.players)


class HeuristicPlayer(Player):
    """Plays by rules of thumb built on counting every card seen.

    For each card it estimates the swing in card points of the round: when the card would win
    the round, the chance that nobody still to play can beat it (from the cards unseen and how
    many of them each hand may hold); when a partner is winning, the chance the partner keeps
    it — so it feeds points to a partner who is sure to win and throws cheap cards otherwise;
    when an opponent is winning, the points thrown are lost. Trumps carry a keeping value
    (their points plus a power that grows with rank and shrinks when trumps are plentiful), so
    they are spent only on rounds worth taking. Once the stock is empty and the endgame is
    small it searches it exactly (alpha-beta over the known cards, averaged over a few
    placements of any cards it cannot place). Bidding: a low zero-point card (3, 4 or 5) of a
    free suit it would like as trump (the longest, strongest holding), else pass.
    """

    level = "heuristic"

    def __init__(self, seed: int | None = None, endgame_samples: int = 6) -> None:
        super().__init__(seed)
        self.endgame_samples = endgame_samples

    def _choose(self, view: dict[str, Any]) -> Action:
        k = read_view(view)
        if k.phase == "bidding":
            return bid_or_pass(heuristic_bid(k))
        if stock_empty(k) and solve_size(k.hand_sizes, 0) <= ENDGAME_SIZE:
            values = endgame_values(k, self.rng, self.endgame_samples, ENDGAME_NODES)
            if values:
                return play_action(best_card(values, k.trump))
        return play_action(heuristic_card(k))


def heuristic_bid(k: Knowledge) -> int | None:
    """A low zero-point card of the free suit with the best holding, else None (pass)."""
    best: tuple[float, int] | None = None
    for suit in range(4):
        if suit in k.taken_suits:
            continue
        cards = [c for c in k.hand if SUIT[c] == suit]
        low = [c for c in cards if STRENGTH[c] <= 2]
        if not low:
            continue
        strength = len(cards) * 3 + sum(STRENGTH[c] for c in cards) + (STRENGTH[max(low)] == 0) * 2
        if best is None or strength > best[0]:
            best = (strength, max(low))  # max int = lowest rank
    return best[1] if best else None


def _p_holds(k: Knowledge, seat: int, threats: Sequence[int]) -> float:
    """The chance that ``seat`` holds at least one of ``threats``."""
    if any(c in threats for c in k.known[seat]):
        return 1.0
    u = k.slots[seat]
    n = len(k.unknown)
    t = sum(1 for c in threats if c not in k.played)
    if not u or not t or n <= 0:
        return 0.0
    if n - t < u:
        return 1.0
    return 1.0 - comb(n - t, u) / comb(n, u)


def p_keep(k: Knowledge, card: int, after: Sequence[int]) -> float:
    """The chance that ``card``, winning the round, is not beaten by an opponent still to play."""
    team = k.team
    threats = [c for c in k.unknown if beats(c, card, k.trump)]
    p = 1.0
    for s in after:
        if s % k.teams == team:
            continue
        known_threat = any(beats(c, card, k.trump) for c in k.known[s])
        p *= 0.0 if known_threat else 1.0 - _p_holds(k, s, threats)
    return p


def keep_value(k: Knowledge, card: int) -> float:
    """What holding ``card`` for later is worth, in card points (0 for non-trumps)."""
    if SUIT[card] != k.trump:
        return 0.0
    trumps = sum(1 for c in k.hand if SUIT[c] == k.trump)
    # ``card`` is a trump here, so the cards that beat it are the higher trumps
    higher = sum(1 for c in k.unknown if beats(c, card, k.trump))
    higher += sum(1 for s in range(k.players) for c in k.known[s] if beats(c, card, k.trump))
    power = 3.0 + 0.6 * STRENGTH[card] + (3.0 if higher == 0 else 0.0)
    power /= 1.0 + 0.2 * (trumps - 1)
    rounds_left = len(k.hand) + k.stock // k.players
    if rounds_left <= 2:
        power *= 0.5
    return POINTS[card] + power


def heuristic_card(k: Knowledge) -> int:
    """The card with the best estimated value for the round (see :class:`HeuristicPlayer`)."""
    values = card_values(k)
    return min(values, key=lambda c: (-values[c], cheap_key(c, k.trump)))


def card_values(k: Knowledge) -> dict[int, float]:
    """Each card's estimated swing in card points of the round, less what keeping it is worth
    (see :class:`HeuristicPlayer`); the heuristic plays the best, the cheapest among equals."""
    n = k.players
    seat = k.seat
    after = play_order(seat, n)[1 : n - len(k.current)]  # the seats still to play
    pot = sum(POINTS[c] for _, c in k.current)
    best_seat, best = winner_of(k.current, k.trump) if k.current else (-1, -1)
    values: dict[int, float] = {}
    for c in k.hand:
        stake = pot + POINTS[c]
        if best < 0 or beats(c, best, k.trump):
            p = p_keep(k, c, after)
            ev = (2.0 * p - 1.0) * stake
            if best < 0 and POINTS[c] == 0:
                ev = 0.0
        elif best_seat % k.teams == k.team:
            p = p_keep(k, best, after)
            ev = (2.0 * p - 1.0) * stake
        else:
            ev = -float(stake)
        values[c] = ev - keep_value(k, c)
    return values
