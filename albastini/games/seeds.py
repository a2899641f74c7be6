"""The seeds of a match's deals, drawn one after another from the match's seed.

Each game's match draws deal ``k``'s seed as the ``k``-th ``getrandbits(63)`` of
``random.Random(match seed)``. Keeping that generator for the whole match costs its
Mersenne Twister state, about 2.5 KB per open table, to draw once per deal; :class:`DealSeeds`
draws the same numbers and keeps two integers. Pure: no game, no I/O.
"""

from __future__ import annotations

import random

__all__ = ["DealSeeds"]


class DealSeeds:
    """``random.Random(seed).getrandbits(63)``, drawn again and again, without the generator."""

    __slots__ = ("drawn", "seed")

    def __init__(self, seed: int) -> None:
        """Draws from ``seed``; none drawn yet."""
        self.seed = seed
        self.drawn = 0

    def next_seed(self) -> int:
        """The next number ``random.Random(seed).getrandbits(63)`` would give: the generator
        is made again and the numbers before it skipped (a match has tens of deals, so this
        is a few microseconds once per deal)."""
        rng = random.Random(self.seed)
        for _ in range(self.drawn):
            rng.getrandbits(63)
        self.drawn += 1
        return rng.getrandbits(63)
