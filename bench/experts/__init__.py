"""The arena's expert opponents: one strong rule-based player per game, written from how good
players play, each choosing a legal code from the view its seat is shown (the same view as
every other player: no hidden card).

    .venv/bin/python bench/arena.py --game twentyeight --a hard --b expert
"""

from __future__ import annotations

from typing import Any

GAMES = ("albastini", "twentyeight", "cassino", "ass")


def make_expert(game: str, seed: int | None = None) -> Any:
    """The expert player of ``game`` (a key of :data:`GAMES`), seeded with ``seed``."""
    if game == "twentyeight":
        from .twentyeight import ExpertPlayer

        return ExpertPlayer(seed)
    if game == "albastini":
        from .albastini import ExpertPlayer as AlbastiniExpert

        return AlbastiniExpert(seed)
    if game == "cassino":
        from .cassino import ExpertPlayer as CassinoExpert

        return CassinoExpert(seed)
    if game == "ass":
        from .ass import ExpertPlayer as AssExpert

        return AssExpert(seed)
    raise ValueError(f"No expert player for {game!r} (choose from {', '.join(GAMES)})")
