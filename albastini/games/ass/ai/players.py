"""Computer players of Ass: random, greedy (``easy``), the counting heuristic (``normal``)
and determinized search (``hard``). All choose from their seat's view only."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from ...players import CodeChooser, RandomChooser
from .. import kernel as K
from .core import (
    Knowledge,
    best_own_line,
    careful_evidence,
    deal_around_voids,
    finish_trick,
    greedy_card,
    known_voids,
    lookahead_card,
    margin_utility,
    read_view,
    rollout,
    sample_world,
    solve_exact,
)

#: The base of this game's players: a legal code from a view (albastini/games/players.py).
Player = CodeChooser


class RandomPlayer(RandomChooser):
    """Uniform over the legal codes (for tests and the arena)."""


class GreedyPlayer(Player):
    """The baseline (``easy``): always bets "no" (it never risks a bank); takes a trick worth
    taking with its least powerful card that takes it, else gives away its cheapest card;
    leads its weakest card."""

    level = "greedy"

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        if view["phase"] == "betting":
            return "no"
        k = read_view(view)
        st = sample_world(k, self.rng)  # the other hands do not matter to the greedy rule
        cards = [K.CODE_INT[c[5:]] for c in legal]
        return "play:" + K.CODES[greedy_card(st, cards)]


def bet(k: Knowledge, rng: random.Random, samples: int = 24) -> str:
    """"go" when greedy deals sampled from the seat's hand say that going pays more banks:
    P(reach the lower target) - P(miss it) beats P(reach the usual target) by a margin (the
    estimate is noisy and a missed "go" costs a bank)."""
    go = no = 0
    for _ in range(samples):
        pts = rollout(sample_world(k, rng))[k.seat]
        go += pts >= K.target(k.players, True)
        no += pts >= K.target(k.players, False)
    return "go" if (2 * go - samples) / samples > no / samples + 0.1 else "no"


class SearchPlayer(Player):
    """Determinized search (``hard``): for each legal card, sampled worlds (the unseen cards
    dealt at random) played out by greedy rollouts; picks the card with the best mean of (own
    points - the mean of the others'), with six players plus its own reach of the target
    (:data:`SIZED`). Bets by :func:`bet`. ``iterations`` fixes the worlds
    (reproducible); otherwise it samples for ``time_ms``."""

    level = "search"
    #: Options per table size, for those not set on the player itself (a bench option set
    #: on it wins, e.g. ``reach=0`` for the points margin alone). With six players the
    #: usual target (116 points) is 2.5 times a seat's share and is reached in a few deals
    #: in a hundred: the points margin alone makes more points than normal without reaching
    #: the target more often, so there the seat's own reach of its target at a world's end
    #: also counts (``reach``; the others' reach not: ``reach_others`` 0). Five players
    #: keep the margin alone (the same term measured no better there; bench/README.md).
    SIZED: ClassVar[Mapping[int, Mapping[str, float]]] = {
        6: {"reach": 100.0, "reach_others": 0.0},
    }
    #: The share of worlds played out by :func:`.core.careful_card` instead of
    #: :func:`.core.greedy_card` (bench option; 0 plays every world greedily): careful
    #: rollouts model the expert's kind of player, greedy ones the normal player, and hard
    #: cannot tell whom it plays.
    careful = 0.0
    #: Each comparison of banks at a world's end (:meth:`bank_score`: a seat reaching its
    #: target, a logistic step ``reach_width`` points wide, a "go" missed taking a bank) is
    #: worth ``reach`` points of the margin (bench option; 0: points only).
    reach = 0.0
    reach_width = 8.0
    #: The step's width at the deal's end (bench option; 0: ``reach_width`` throughout):
    #: the width runs linearly from ``reach_width`` at the first card to this at the last,
    #: by the share of the pack played. Early, a world's end is far and a wide step gives
    #: a signal from more worlds; late, a narrow one counts only the worlds that reach.
    reach_end_width = 0.0
    #: The weight ``reach`` at the deal's end as a multiple of its weight at the first card
    #: (bench option; 1: constant), linear in the share of the pack played: the later the
    #: decision, the more a world's end says who reaches the target.
    reach_grow = 1.0
    #: The weight of the others' mean points in the margin a rollout's end scores (bench
    #: option; 1: own points less the others' mean, 0: own points alone). With five
    #: opponents the table is decided by who reaches the target, and points kept from the
    #: others cost cards that the seat's own reach may need.
    margin_others = 1.0
    #: How much the others' banks count in :meth:`bank_score` (bench option; 1: the
    #: table's measure, 0: the seat's own reach of its target only). Stopping whoever
    #: leads in a sampled world costs cards that the seat's own target needs, and with
    #: five or six players that seat is seldom the one who ends up near the target.
    reach_others = 1.0
    #: Count the banks (``reach``) only once the stock can no longer give every seat a card
    #: (bench option; 0: from the first trick): from then on every unseen card is in a hand,
    #: so a world's end is a fair guess at who reaches the target, where earlier a greedy
    #: rollout's reach is mostly the luck of the sampled stock.
    reach_late = 0.0
    #: Tell the opponents apart (bench option; 0: off): when set, each opponent seat whose
    #: plays so far match :func:`.core.careful_card` more often than ``tell_base`` of them
    #: (:func:`.core.careful_evidence` over ``tell_worlds`` worlds) is played carefully in
    #: the rollouts, the others greedily (greedy until there is evidence); the seat's own
    #: rollout play is careful when most opponents are. Replaces ``careful`` when set.
    tell = 0.0
    tell_base = 0.45
    tell_worlds = 4.0
    #: Solve each sampled world exactly (:func:`.core.solve_exact`, every seat seeing every
    #: hand and playing for its own points margin) instead of a rollout, once nobody draws
    #: any more and the seat holds at most ``exact`` cards (bench option; 0: rollouts to
    #: the end). The tree grows as the product of the hands: three cards a seat cost a world
    #: about what ten rollout worlds cost, four cards are out of reach.
    exact = 0.0
    #: In the exact endgame, each seat also counts the banks of the deal's end (its own
    #: reach of the target less the others', :meth:`bank_score`'s measure, seen from that
    #: seat) at ``exact_reach`` points of margin a comparison (0: points margin only).
    exact_reach = 0.0
    #: Once nobody draws any more and the seat holds at most ``own`` cards, each sampled
    #: world plays the others by the greedy rule (as a rollout does) and the seat's own
    #: later cards by its best line in that world (:func:`.core.best_own_line`; bench
    #: option, 0: rollouts). Ignored where ``exact`` applies.
    own = 0.0
    #: Once nobody draws any more, deal each world's hidden hands around the suits their
    #: holders have shown they lack (:func:`.core.known_voids`: a discard or an eight of
    #: another suit is allowed only without the main suit) instead of at random (bench
    #: option; 0: uniform worlds). With five or six players most tricks come after the
    #: stock is out, and each shows up to five hands.
    voids = 0.0
    #: Play the rest of the current trick, after the seat's card, by
    #: :func:`.core.lookahead_card` (each reply looks one rollout ahead, as a searching
    #: player's does) instead of the greedy rule (bench option): 1 while the stock can
    #: still give every seat a card, 2 in every trick, 0 never. Greedy replies take over
    #: more often than searching players do, so the search undervalues a card that may hold
    #: the trick; each reply costs a rollout per legal card.
    replies = 0.0

    def __init__(self, seed: int | None = None, time_ms: float = 150.0,
                 iterations: int | None = None) -> None:
        super().__init__(seed)
        self.time_ms = time_ms
        self.iterations = iterations

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        k = read_view(view)
        if view["phase"] == "betting":
            return bet(k, self.rng)
        cards = [K.CODE_INT[c[5:]] for c in legal]
        totals = dict.fromkeys(cards, 0.0)
        deadline = time.perf_counter() + self.time_ms / 1000
        done = 0
        seats: list[bool] | None = None
        reach = (self.setting("reach", k.players)
                 if not self.reach_late or k.stock < k.players else 0.0)
        width = self.setting("reach_width", k.players)
        against = self.setting("margin_others", k.players)
        if reach:
            played = self.played_share(k)
            reach *= 1.0 + (self.setting("reach_grow", k.players) - 1.0) * played
            end_width = self.setting("reach_end_width", k.players)
            if end_width:
                width += (end_width - width) * played
        if self.tell:
            ev = careful_evidence(view, self.rng, int(self.tell_worlds), self.tell_base)
            seats = [ev[s] > 0 for s in range(k.players)]
            seats[k.seat] = False
            seats[k.seat] = 2 * sum(seats) > k.players - 1
        exact = (bool(self.exact) and k.stock < k.players
                 and len(k.hand) <= int(self.exact))
        own = (not exact and bool(self.own) and k.stock < k.players
               and len(k.hand) <= int(self.own))
        util: Callable[[Sequence[float], int], float] = margin_utility
        if exact and self.exact_reach:
            util = self.banks_utility(k)
        replies = (self.replies >= 2 or (self.replies > 0 and k.stock >= k.players))
        lacks = (known_voids(k, view["tricks"]) if self.voids and k.stock < k.players
                 else None)
        while True:
            world = (sample_world(k, self.rng) if lacks is None
                     else deal_around_voids(k, lacks, self.rng))
            if exact or own:
                ends = (solve_exact(world, k.seat, util) if exact
                        else best_own_line(world, k.seat))
                for c, end in ends.items():
                    totals[c] += util(end, k.seat)
            else:
                careful: bool | list[bool] = (
                    seats if seats is not None else
                    self.careful >= 1 or (self.careful > 0 and self.rng.random() < self.careful))
                for c in cards:
                    st = world.copy()
                    st.play(c)
                    if replies:
                        finish_trick(st, lookahead_card)
                    pts = rollout(st, careful)
                    others = (sum(pts) - pts[k.seat]) / (k.players - 1)
                    totals[c] += pts[k.seat] - against * others
                    if reach:
                        totals[c] += reach * self.bank_score(k, pts, width)
            done += 1
            if self.iterations is not None:
                if done >= self.iterations:
                    break
            elif time.perf_counter() >= deadline:
                break
        return "play:" + K.CODES[max(cards, key=lambda c: (totals[c], -c))]

    def setting(self, name: str, players: int) -> float:
        """Option ``name`` at a table of ``players``: as set on this player, else its table
        size's (:data:`SIZED`), else the class's default."""
        if name in vars(self):
            return float(vars(self)[name])
        return float(self.SIZED.get(players, {}).get(name, getattr(type(self), name)))

    def banks_utility(self, k: Knowledge) -> Callable[[Sequence[float], int], float]:
        """A deal's end seen from any seat: its points margin plus ``exact_reach`` times its
        :meth:`bank_score` (the bets are public, so every seat's measure is known)."""
        views = [replace(k, seat=s) for s in range(k.players)]
        weight = self.exact_reach

        def util(points: Sequence[float], seat: int) -> float:
            return (margin_utility(points, seat)
                    + weight * self.bank_score(views[seat], points))

        return util

    @staticmethod
    def played_share(k: Knowledge) -> float:
        """The share of the pack already played (0 at the first card, near 1 at the last):
        every card of the pack is dealt, so what is in no hand and not in the stock has been
        played."""
        return 1.0 - (sum(k.hand_sizes) + k.stock) / 36

    def bank_score(self, k: Knowledge, pts: Sequence[float],
                   width: float | None = None) -> float:
        """How a world that ended with ``pts`` scores for ``k``'s seat at the table, smoothed:
        per opponent, the bank it changes (-1 reached, +1 a "go" missed, the reach a
        logistic step ``width`` points wide, by default ``reach_width``) times
        ``reach_others``, less the seat's own, the mean over the opponents (between -2
        and 2)."""
        step = self.setting("reach_width", k.players) if width is None else width

        def banks(s: int) -> float:
            go = k.bets[s] == 1
            z = (pts[s] - K.target(k.players, go) + 0.5) / step
            made = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            return -made + (1.0 - made if go else 0.0)

        mine = banks(k.seat)
        others = self.setting("reach_others", k.players)
        return sum(others * banks(s) - mine
                   for s in range(k.players) if s != k.seat) / (k.players - 1)


class NormalPlayer(SearchPlayer):
    """The middle level (``normal``): the same search with only three sampled worlds, a few
    milliseconds a card; bets by :func:`bet`."""

    level = "normal"
    #: Normal plays for its points margin at every table size.
    SIZED: ClassVar[Mapping[int, Mapping[str, float]]] = {}

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, iterations=3)
