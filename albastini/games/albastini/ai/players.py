"""The simple computer players: uniform random and greedy."""

from __future__ import annotations

import random
from typing import Any

from ..actions import Action, Bid, Pass
from ..cards import PACK
from .core import Knowledge, action_of, greedy_bid, greedy_card, play_action, read_view


class Player:
    """A computer player. ``choose(view)`` picks an action for the seat the view belongs to,
    from ``Deal.view(seat, history=True)`` only. Players are plain picklable objects; their
    only state is a ``random.Random`` seeded from ``seed``."""

    level = "base"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any]) -> Action:
        """The action to take; ValueError when the view's seat has nothing to do."""
        legal = view.get("legal") or []
        if not legal:
            raise ValueError("It is not this seat's turn: the view lists no legal action")
        if len(legal) == 1:
            return action_of(legal[0])
        action = self._choose(view)
        if action.code not in legal:  # a safety net: never return an illegal action
            raise AssertionError(f"{self.level} chose {action.code}, not in {legal}")
        return action

    def _choose(self, view: dict[str, Any]) -> Action:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


class RandomPlayer(Player):
    """Uniform over the legal actions (for tests)."""

    level = "random"

    def _choose(self, view: dict[str, Any]) -> Action:
        return action_of(self.rng.choice(sorted(view["legal"])))


def bid_or_pass(card: int | None) -> Action:
    """Bid ``card``, or pass when it is None."""
    return Pass() if card is None else Bid(PACK[card])


class GreedyPlayer(Player):
    """The usual point-trick baseline.

    Lead the cheapest card (not a trump if possible, fewest points, lowest rank). When following:
    if the round holds points and no partner is winning it, win it with the cheapest card that
    wins (fewest points, then a non-trump, then lowest rank); otherwise throw the cheapest card.
    It never overtakes a winning partner. Bidding: bid the lowest 3 or 4 of a suit nobody has
    bid (whatever indicator of that suit comes up is worth at least as much), else pass.

    ``epsilon``: the probability of a uniformly random legal action instead (``easy`` uses it).
    """

    level = "greedy"

    def __init__(self, seed: int | None = None, epsilon: float = 0.0) -> None:
        super().__init__(seed)
        self.epsilon = epsilon

    def _choose(self, view: dict[str, Any]) -> Action:
        if self.epsilon and self.rng.random() < self.epsilon:
            return action_of(self.rng.choice(sorted(view["legal"])))
        k = read_view(view)
        return self.decide(k)

    @staticmethod
    def decide(k: Knowledge) -> Action:
        """The greedy action for a knowledge state."""
        if k.phase == "bidding":
            return bid_or_pass(greedy_bid(k.hand, k.taken_suits))
        return play_action(greedy_card(k.hand, k.current, k.trump, k.seat, k.teams))
