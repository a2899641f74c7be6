"""The search player: determinized sampling of the hidden cards (PIMC) with greedy rollouts,
and exact alpha-beta once the stock is empty."""

from __future__ import annotations

from time import perf_counter
from typing import Any

from ..actions import Action
from .core import Knowledge, play_action, read_view, utility
from .heuristic import best_card, heuristic_bid, heuristic_card, sample_sim, stock_empty
from .players import Player, bid_or_pass
from .sim import Budget, greedy_rollout, solve, solve_size

#: Largest endgame (product of hand-size factorials) searched exactly.
EXACT_SIZE = 20_000
#: Node budget of one exact solve.
EXACT_NODES = 60_000


class SearchPlayer(Player):
    """Information-set search by sampling.

    Each iteration deals the cards this seat cannot see at random among the places they may be
    (consistent with every card played, the bid cards taken back, the indicator, the exchange
    and who drew the face-up card, which stay in those hands until played), then scores every
    legal card on that deal: by a greedy rollout of the rest of the deal while the stock is
    not empty, by an exact alpha-beta search (the seat's side maximising) once it is empty and
    the endgame is small. The card with the best average score wins; the score is mostly
    winning the deal, a little the card-point margin (``core.utility``). Every card is scored
    on the same sampled deals, so their comparison is not blurred by luck.

    ``time_ms`` bounds each decision (default 300; it stops sampling at 85% of it);
    ``iterations``, when given, fixes the number of sampled deals instead (deterministic).
    Bidding follows the heuristic player.
    """

    level = "search"

    def __init__(
        self, seed: int | None = None, time_ms: float = 300, iterations: int | None = None
    ) -> None:
        super().__init__(seed)
        if time_ms <= 0 or (iterations is not None and iterations < 1):
            raise ValueError("time_ms and iterations must be positive")
        self.time_ms = time_ms
        self.iterations = iterations
        self.last_samples = 0

    def _choose(self, view: dict[str, Any]) -> Action:
        start = perf_counter()
        k = read_view(view)
        if k.phase == "bidding":
            return bid_or_pass(heuristic_bid(k))
        deadline = start + self.time_ms * 0.00085
        values = self.evaluate(k, deadline)
        if not values:
            return play_action(heuristic_card(k))
        return play_action(best_card(values, k.trump))

    def _done(self, n: int, deadline: float) -> bool:
        if self.iterations is not None:
            return n >= self.iterations
        return perf_counter() >= deadline

    def evaluate(self, k: Knowledge, deadline: float) -> dict[int, float]:
        """Average score of each legal card over the sampled deals."""
        moves = sorted(set(k.hand))
        totals = dict.fromkeys(moves, 0.0)
        n = 0
        exact = stock_empty(k) and solve_size(k.hand_sizes, 0) <= EXACT_SIZE
        rng = self.rng
        team = k.team
        team_size = k.team_size
        while True:
            sim = sample_sim(k, rng)
            if exact:
                try:
                    limit = None if self.iterations is not None else deadline + 0.05
                    values = solve(sim, team, EXACT_NODES, limit, need_all=not k.fully_known())
                except Budget:
                    exact = False
                else:
                    for m, v in values.items():
                        totals[m] += v
                    n += 1
                    if k.fully_known() or self._done(n, deadline):
                        break
                    continue
            for m in moves:
                c = sim.copy()
                c.play(m)
                totals[m] += utility(greedy_rollout(c), team, team_size)
            n += 1
            if self._done(n, deadline):
                break
        self.last_samples = n
        return {m: t / n for m, t in totals.items()}
