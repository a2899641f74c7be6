"""A match of Ass: deals until someone is rid of their banks or someone has six."""

from __future__ import annotations

import random
from typing import Any

from ..seeds import DealSeeds
from .deal import Deal, DealResult, IllegalMove, check_options, new_deal

#: Banks each player starts with; six or more loses.
START_BANKS = 3
LOSING_BANKS = 6


def match_over(banks: list[int]) -> bool:
    """The rules' end: not when everyone has the same six or more (play on); otherwise when
    someone has 0 banks or someone has 6 or more."""
    if len(set(banks)) == 1 and banks[0] >= LOSING_BANKS:
        return False
    return min(banks) <= 0 or max(banks) >= LOSING_BANKS


class Match:
    """A series of deals scored in banks (every player starts with 3).

    Banks count down (fewer is better), while the platform ranks sides by ``scores`` with
    higher better. So ``scores`` are the banks **negated**: a player starts at -3, each bank
    dropped adds 1 (a deal's ``game_points`` of -1, in the rules' sign), each bank taken
    subtracts 1; 0 means rid of every bank, -6 or lower means lost. ``banks`` gives the rules'
    own counts.

    The match ends after a deal when someone has 0 banks or 6 or more, unless everyone has the
    same count of 6 or more (then play on). ``winners``: the players with the fewest banks;
    ``winner`` that player when alone, None when shared. ``target`` is accepted for the
    platform and ignored: banks, not points, end a match. The trump ``trumps``/``suits``
    options are fixed for the match. The next dealer is the player who led the first trick of
    the deal just played. Deal seeds come from ``random.Random(seed)``; ``deal_seed`` and
    ``next_deal(seed=...)`` replace them, so stored seeds replay a match exactly.
    """

    def __init__(
        self,
        players: int,
        team_size: int | None = None,
        target: int = 0,
        dealer: int = 0,
        seed: int | None = None,
        *,
        deal_seed: int | None = None,
        trumps: int | None = None,
        suits: str | None = None,
    ) -> None:
        players, opts = check_options(players, team_size, dealer, trumps, suits)
        self.players = players
        self.team_size = 1
        self.target = target
        self.trumps = opts.variant
        self.suits = opts.suits
        self.seed = seed if seed is not None else random.SystemRandom().getrandbits(63)
        self._seeds = DealSeeds(self.seed)
        self.history: list[tuple[Deal, DealResult]] = []
        drawn = self._seeds.next_seed()
        first = deal_seed if deal_seed is not None else drawn
        self.deal_seeds: list[int] = [first]
        self.deal: Deal = self._new(dealer, first, True, [START_BANKS] * players)

    def _new(self, dealer: int, seed: int, first: bool, banks: list[int]) -> Deal:
        return new_deal(self.players, 1, dealer, seed=seed, trumps=self.trumps,
                        suits=self.suits, first_deal=first, banks=banks)

    @property
    def deal_no(self) -> int:
        """1 for the first deal of the match."""
        return len(self.history) + 1

    @property
    def banks(self) -> list[int]:
        """Each player's banks, counting the current deal once it is finished."""
        banks = [START_BANKS] * self.players
        results = [r for _, r in self.history]
        if self.deal.phase == "finished":
            results.append(self.deal.result())
        for r in results:
            banks = [b + d for b, d in zip(banks, r.banks, strict=True)]
        return banks

    @property
    def scores(self) -> list[int]:
        """The banks negated (higher is better), counting the current deal once finished."""
        return [-b for b in self.banks]

    @property
    def finished(self) -> bool:
        """True once the current deal is finished and the banks end the match."""
        return self.deal.phase == "finished" and match_over(self.banks)

    @property
    def winners(self) -> list[int]:
        """The players with the fewest banks once the match is over; [] before."""
        if not self.finished:
            return []
        banks = self.banks
        return [s for s, b in enumerate(banks) if b == min(banks)]

    @property
    def losers(self) -> list[int]:
        """The players with 6 banks or more once the match is over; [] before."""
        return [s for s, b in enumerate(self.banks) if b >= LOSING_BANKS] if self.finished else []

    @property
    def winner(self) -> int | None:
        """The one player with the fewest banks once the match is over; None when shared
        or before the end."""
        winners = self.winners
        return winners[0] if len(winners) == 1 else None

    def next_dealer(self) -> int:
        """The player who led the first trick of the current deal."""
        return self.deal.state.first_leader

    def next_deal(self, *, seed: int | None = None) -> Deal:
        """Start the next deal, shuffled from ``seed`` when given (else the match's next
        seed). IllegalMove if the current deal is not finished or the match is over."""
        if self.deal.phase != "finished":
            raise IllegalMove("The current deal is not finished.", "deal_not_finished")
        if self.finished:
            raise IllegalMove("The match is over.", "match_over")
        dealer = self.next_dealer()
        banks = self.banks
        self.history.append((self.deal, self.deal.result()))
        drawn = self._seeds.next_seed()
        deal_seed = seed if seed is not None else drawn
        self.deal_seeds.append(deal_seed)
        self.deal = self._new(dealer, deal_seed, False, banks)
        return self.deal

    def to_json(self) -> dict[str, Any]:
        """A summary: mode, trumps, seeds, banks and scores."""
        return {
            "players": self.players,
            "trumps": self.trumps,
            "suits": self.suits,
            "seed": self.seed,
            "banks": self.banks,
            "scores": self.scores,
            "deal_seeds": list(self.deal_seeds),
        }
