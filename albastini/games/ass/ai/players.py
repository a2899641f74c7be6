"""Computer players of Ass: random, greedy (``easy``), the counting heuristic (``normal``)
and determinized search (``hard``). All choose from their seat's view only."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from .. import kernel as K
from .core import POWER, Knowledge, greedy_card, holder_after, read_view, rollout, sample_world


class Player:
    """A computer player: ``choose(view)`` returns a legal code of the view's seat, from the
    view alone. Its only state is a ``random.Random`` seeded from ``seed``."""

    level = "base"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any]) -> str:
        """The code to play; ValueError when the view's seat has nothing to do."""
        legal = [str(c) for c in view.get("legal") or ()]
        if not legal:
            raise ValueError("It is not this seat's turn: the view lists no legal action")
        if len(legal) == 1:
            return legal[0]
        code = self._choose(view, legal)
        if code not in legal:  # a safety net: never return an illegal action
            raise AssertionError(f"{self.level} chose {code}, not in {legal}")
        return code

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


class RandomPlayer(Player):
    """Uniform over the legal codes (for tests and the arena)."""

    level = "random"

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        return self.rng.choice(legal)


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


class NormalPlayer(Player):
    """The heuristic player (``normal``): bets "go" when sampled greedy deals from its hand
    reach the lower target often enough that going pays more banks than saying "no"; in play
    it takes a trick only when it is worth more than the power of the card spent, and, when
    others still play after it, only with a card they are unlikely to beat (a cover, or a
    trump), never throwing points onto a trick it does not hold."""

    level = "normal"
    samples = 24

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        k = read_view(view)
        if view["phase"] == "betting":
            return self.bet(k)
        st = sample_world(k, self.rng)
        cards = [K.CODE_INT[c[5:]] for c in legal]
        return "play:" + K.CODES[self.card(k, st, cards)]

    def bet(self, k: Knowledge) -> str:
        """"go" when P(reach go target) - P(miss it) > P(reach the usual target)."""
        go = no = 0
        for _ in range(self.samples):
            pts = rollout(sample_world(k, self.rng))[k.seat]
            go += pts >= K.target(k.players, True)
            no += pts >= K.target(k.players, False)
        n = self.samples
        return "go" if (2 * go - n) / n > no / n else "no"

    def card(self, k: Knowledge, st: K.State, legal: list[int]) -> int:
        """The heuristic's card (see the class)."""
        seat = k.seat
        tr = st.trick
        if not tr.plays:
            # lead a card that is hard to beat but cheap to lose: the weakest when nothing is
            # strong, else a strong card worth few points
            return min(legal, key=lambda c: (K.POINTS[c] - 2 * POWER[c % 9], c))
        last = len(tr.plays) == k.players - 1
        cards = [c for _, c in tr.plays]
        takes = []
        for c in legal:
            if holder_after(st, c) != seat:
                continue
            t = tr.copy()
            eff = t.play(seat, c, st.levels, st.main_levels, st.holds_main(seat))
            safe = last or eff in (K.COVER, K.TRUMP, K.EIGHT_RULE)
            worth = K.trick_value([*cards, c]) - POWER[c % 9] * 3
            if safe and worth > 0:
                takes.append((worth, c))
        if takes:
            return max(takes)[1]
        return min(legal, key=lambda c: (K.POINTS[c], POWER[c % 9], c))


class SearchPlayer(Player):
    """Determinized search (``hard``): for each legal action, sampled worlds played out by
    greedy rollouts; picks the action with the best mean of (own points - the mean of the
    others'), and bets as :class:`NormalPlayer`. ``iterations`` fixes the worlds per action
    (reproducible); otherwise it samples for ``time_ms``."""

    level = "search"

    def __init__(self, seed: int | None = None, time_ms: float = 150.0,
                 iterations: int | None = None) -> None:
        super().__init__(seed)
        self.time_ms = time_ms
        self.iterations = iterations

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        k = read_view(view)
        if view["phase"] == "betting":
            return NormalPlayer.bet(NormalPlayer(self.rng.getrandbits(32)), k)
        cards = [K.CODE_INT[c[5:]] for c in legal]
        totals = dict.fromkeys(cards, 0.0)
        deadline = time.perf_counter() + self.time_ms / 1000
        done = 0
        while True:
            world = sample_world(k, self.rng)
            for c in cards:
                st = world.copy()
                st.play(c)
                pts = rollout(st)
                others = (sum(pts) - pts[k.seat]) / (k.players - 1)
                totals[c] += pts[k.seat] - others
            done += 1
            if self.iterations is not None:
                if done >= self.iterations:
                    break
            elif time.perf_counter() >= deadline:
                break
        return "play:" + K.CODES[max(cards, key=lambda c: (totals[c], -c))]
