"""A match of Cassino: deals until a team has at least the target and strictly the most."""

from __future__ import annotations

import random
from typing import Any

from ..seeds import DealSeeds
from .deal import Deal, DealResult, IllegalMove, check_mode, new_deal


class Match:
    """A series of deals to ``target`` points (21 by default).

    ``scores``: points per team from every finished deal, the current one included as soon as
    it is finished (each deal adds its ``game_points``, which equal its ``points``). The match
    ends after a deal when a team has at least ``target`` and strictly more than every other
    team (23-22 is won, 22-22 plays on); ``winner`` is that team. The deal passes to the left:
    the next dealer is ``(dealer + 1) % players``. Deal seeds are drawn from
    ``random.Random(seed)``; ``deal_seed`` replaces the first deal's seed and
    ``next_deal(seed=...)`` a later one's, so stored seeds replay a match exactly.
    """

    def __init__(
        self,
        players: int,
        team_size: int | None = None,
        target: int = 21,
        dealer: int = 0,
        seed: int | None = None,
        *,
        deal_seed: int | None = None,
        **options: Any,
    ) -> None:
        if options:
            raise TypeError(f"Cassino has no options: {', '.join(sorted(options))}")
        players, team_size = check_mode(players, team_size, dealer)
        if not isinstance(target, int) or isinstance(target, bool) or target < 1:
            raise ValueError(f"The target must be a whole number >= 1, not {target!r}")
        self.players = players
        self.team_size = team_size
        self.teams = players // team_size
        self.target = target
        self.seed = seed if seed is not None else random.SystemRandom().getrandbits(63)
        self._seeds = DealSeeds(self.seed)
        self.history: list[tuple[Deal, DealResult]] = []
        drawn = self._seeds.next_seed()  # drawn anyway: later deals keep their seeds
        first = deal_seed if deal_seed is not None else drawn
        self.deal_seeds: list[int] = [first]
        self.deal: Deal = new_deal(players, team_size, dealer, seed=first)

    @property
    def deal_no(self) -> int:
        """1 for the first deal of the match."""
        return len(self.history) + 1

    @property
    def scores(self) -> list[int]:
        """Points per team, counting the current deal once it is finished."""
        totals = [0] * self.teams
        results = [r for _, r in self.history]
        if self.deal.phase == "finished":
            results.append(self.deal.result())
        for r in results:
            for t, gp in enumerate(r.game_points):
                totals[t] += gp
        return totals

    @property
    def winner(self) -> int | None:
        """The team with at least ``target`` and strictly the most points; None before."""
        if self.deal.phase != "finished":
            return None
        scores = self.scores
        top = max(scores)
        if top >= self.target and scores.count(top) == 1:
            return scores.index(top)
        return None

    @property
    def finished(self) -> bool:
        """True once a team has won."""
        return self.winner is not None

    def next_dealer(self) -> int:
        """Who deals the next deal: the deal passes to the left, ``(dealer + 1) % players``."""
        return (self.deal.dealer + 1) % self.players

    def next_deal(self, *, seed: int | None = None) -> Deal:
        """Start the next deal, shuffled from ``seed`` when given (else the match's next
        seed). IllegalMove if the current deal is not finished or the match is over."""
        if self.deal.phase != "finished":
            raise IllegalMove("The current deal is not finished.", "deal_not_finished")
        if self.finished:
            raise IllegalMove("The match is over.", "match_over")
        dealer = self.next_dealer()
        self.history.append((self.deal, self.deal.result()))
        drawn = self._seeds.next_seed()
        deal_seed = seed if seed is not None else drawn
        self.deal_seeds.append(deal_seed)
        self.deal = new_deal(self.players, self.team_size, dealer, seed=deal_seed)
        return self.deal

    def to_json(self) -> dict[str, Any]:
        """A summary: mode, target, seeds, scores and every deal's record."""
        return {
            "players": self.players,
            "team_size": self.team_size,
            "target": self.target,
            "seed": self.seed,
            "scores": self.scores,
            "deal_seeds": list(self.deal_seeds),
            "deals": [d.to_record() for d, _ in self.history] + [self.deal.to_record()],
        }
