"""A match: deals played until a side reaches the target of victory points."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from ..seeds import DealSeeds
from .cards import Card
from .deal import Deal, DealResult, mode_name, new_deal


def next_dealer(dealer: int, result: DealResult, players: int, teams: int) -> int:
    """Who deals next: the same dealer after a tie, otherwise the first seat clockwise after the
    dealer that belongs to the winning side."""
    if result.winner is None:
        return dealer
    for k in range(1, players + 1):
        seat = (dealer + k) % players
        if seat % teams == result.winner:
            return seat
    raise AssertionError("the winning side has no seat")


class Match:
    """A series of deals until a side reaches ``target`` victory points.

    ``deal`` is the deal in progress; ``scores`` the VP per team counting every finished deal
    (the current one too once it is over); ``next_deal()`` starts the next deal once the current
    one is finished and the match is not. Deal ``k`` is shuffled from a seed drawn from
    ``random.Random(seed)``, so a match seed replays the whole match; ``deal_seed`` (the first
    deal's) and ``next_deal(seed=...)`` give each deal its own seed instead, which is how the
    table service replays the seeds it stored (``deal_seeds``: the seed of every deal so far).
    """

    #: How a deal is dealt (:mod:`albastini.classic` deals its own kind of :class:`Deal`).
    dealing: ClassVar[Callable[..., Deal]] = staticmethod(new_deal)

    def __init__(
        self,
        players: int,
        team_size: int = 1,
        target: int = 5,
        dealer: int = 0,
        seed: int | None = None,
        *,
        deck: Iterable[Card | str] | None = None,
        deal_seed: int | None = None,
    ) -> None:
        mode_name(players, team_size)
        if target < 1:
            raise ValueError("The target must be at least 1 victory point")
        self.players = players
        self.team_size = team_size
        self.teams = players // team_size
        self.target = target
        self.seed = seed if seed is not None else random.SystemRandom().getrandbits(63)
        self._seeds = DealSeeds(self.seed)
        self.history: list[tuple[Deal, DealResult]] = []
        drawn = self._seeds.next_seed()
        if deal_seed is None:
            deal_seed = drawn
        self.deal_seeds: list[int] = [deal_seed]
        self.deal: Deal = self.dealing(players, team_size, dealer, deck=deck, seed=deal_seed)

    @property
    def deal_no(self) -> int:
        """1 for the first deal of the match."""
        return len(self.history) + 1

    def _results(self) -> list[DealResult]:
        results = [r for _, r in self.history]
        if self.deal.phase == "finished":
            results.append(self.deal.result())
        return results

    @property
    def scores(self) -> list[int]:
        """Victory points per team so far."""
        totals = [0] * self.teams
        for r in self._results():
            if r.winner is not None:
                totals[r.winner] += r.victory_points
        return totals

    @property
    def finished(self) -> bool:
        """True once a side has reached the target."""
        return max(self.scores) >= self.target

    @property
    def winner(self) -> int | None:
        """The team that reached the target, None while the match goes on."""
        if not self.finished:
            return None
        scores = self.scores
        return scores.index(max(scores))

    def next_dealer(self) -> int:
        """Who deals after the current (finished) deal."""
        return next_dealer(self.deal.dealer, self.deal.result(), self.players, self.teams)

    def next_deal(
        self, *, seed: int | None = None, deck: Iterable[Card | str] | None = None
    ) -> Deal:
        """Start the next deal; ValueError if the current one is not over or the match is."""
        if self.deal.phase != "finished":
            raise ValueError("The current deal is not finished")
        if self.finished:
            raise ValueError("The match is over")
        dealer = self.next_dealer()
        self.history.append((self.deal, self.deal.result()))
        deal_seed = seed if seed is not None else self._seeds.next_seed()
        self.deal_seeds.append(deal_seed)
        self.deal = self.dealing(self.players, self.team_size, dealer, deck=deck, seed=deal_seed)
        return self.deal

    def to_json(self) -> dict[str, Any]:
        """A summary: mode, target, scores and the deals' records."""
        return {
            "players": self.players,
            "team_size": self.team_size,
            "target": self.target,
            "seed": self.seed,
            "scores": self.scores,
            "deals": [d.to_record() for d, _ in self.history] + [self.deal.to_record()],
        }
