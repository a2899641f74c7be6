"""Computer players for Cassino (placeholder until the players land)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any


class Player:
    """A computer player: ``choose(view)`` returns a legal code of the view's seat."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any]) -> str:
        """A uniformly random legal code."""
        return str(self.rng.choice(list(view["legal"])))


def make_player(level: str, seed: int | None = None, **options: Any) -> Player:
    """A computer player of ``level``."""
    return Player(seed)


def decide(level: str, view: Mapping[str, Any], seed: int | None = None) -> str:
    """The code a fresh ``level`` player picks for ``view``."""
    return make_player(level, seed=seed).choose(view)
