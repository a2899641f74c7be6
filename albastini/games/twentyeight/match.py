"""A match of Twenty-Eight kept with base cards: deals until a side wears the kunukku."""

from __future__ import annotations

import random
from typing import Any

from ..seeds import DealSeeds
from .deal import Deal, DealResult, IllegalMove, check_mode, new_deal

#: The options a match passes to every deal.
OPTIONS = ("thani", "cot")


class Match:
    """Deals until a side holds 0 or fewer base cards (it wears the kunukku and loses).

    Every side starts with ``target`` base cards; each finished deal's ``game_points`` are
    added to ``scores`` (zero-sum, not clamped). ``winner``: the side holding the most base
    cards once finished (3 players: None when two share the most); None before. Deal seeds are
    drawn from ``random.Random(seed)``; ``deal_seed`` replaces the first deal's seed and
    ``next_deal(seed=...)`` a later one's, so stored seeds replay a match exactly.
    Options (``thani``, ``cot``) apply to every deal.
    """

    def __init__(
        self,
        players: int,
        team_size: int | None = None,
        target: int = 6,
        dealer: int = 0,
        seed: int | None = None,
        *,
        deal_seed: int | None = None,
        **options: Any,
    ) -> None:
        players, team_size = check_mode(players, team_size, dealer)
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise TypeError(f"Unknown Twenty-Eight option(s): {', '.join(unknown)}")
        if not isinstance(target, int) or isinstance(target, bool) or target < 1:
            raise ValueError(f"The target must be a whole number >= 1, not {target!r}")
        self.players = players
        self.team_size = team_size
        self.teams = players // team_size
        self.target = target
        self.options: dict[str, bool] = dict(options)
        self.seed = seed if seed is not None else random.SystemRandom().getrandbits(63)
        self._seeds = DealSeeds(self.seed)
        self.history: list[tuple[Deal, DealResult]] = []
        drawn = self._seeds.next_seed()  # drawn anyway: later deals keep their seeds
        first = deal_seed if deal_seed is not None else drawn
        self.deal_seeds: list[int] = [first]
        self.deal: Deal = self._new(dealer, first)

    @property
    def deal_no(self) -> int:
        """1 for the first deal of the match."""
        return len(self.history) + 1

    @property
    def scores(self) -> list[int]:
        """Base cards held per team, counting the current deal once it is finished."""
        totals = [self.target] * self.teams
        results = [r for _, r in self.history]
        if self.deal.phase == "finished":
            results.append(self.deal.result())
        for r in results:
            for t, gp in enumerate(r.game_points):
                totals[t] += gp
        return totals

    @property
    def finished(self) -> bool:
        """True once a side holds 0 or fewer base cards."""
        return min(self.scores) <= 0

    @property
    def winner(self) -> int | None:
        """The side holding the most base cards once the match is over (None before, and in
        3 players when two players share the most)."""
        if not self.finished:
            return None
        scores = self.scores
        top = max(scores)
        return scores.index(top) if scores.count(top) == 1 else None

    @property
    def kunukku(self) -> list[int]:
        """The sides wearing the kunukku (0 or fewer base cards)."""
        return [t for t, s in enumerate(self.scores) if s <= 0]

    def next_dealer(self) -> int:
        """Who deals the next deal: the next seat in order of play (after a redeal too)."""
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
        self.deal = self._new(dealer, deal_seed)
        return self.deal

    def _new(self, dealer: int, seed: int) -> Deal:
        return new_deal(
            self.players,
            self.team_size,
            dealer,
            seed=seed,
            thani=self.options.get("thani", False),
            cot=self.options.get("cot", False),
        )

    def to_json(self) -> dict[str, Any]:
        """A summary: mode, target, options, scores and every deal's record."""
        return {
            "players": self.players,
            "team_size": self.team_size,
            "target": self.target,
            "seed": self.seed,
            "options": dict(self.options),
            "scores": self.scores,
            "deal_seeds": list(self.deal_seeds),
            "deals": [d.to_record() for d, _ in self.history] + [self.deal.to_record()],
        }
