"""What every game's computer players share: choosing a player class by level or kind, with
the options only its search player takes (each game's ``ai`` package lists its classes)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

__all__ = ["SEARCH_OPTIONS", "Chooser", "build_player"]

#: The options of a game's search player (``hard``); the other kinds take none.
SEARCH_OPTIONS = frozenset({"time_ms", "iterations"})


class Chooser(Protocol):
    """A computer player: ``choose(view)`` returns a legal action code of that view."""

    def choose(self, view: Mapping[str, Any]) -> str: ...


def build_player(
    kinds: Mapping[str, type[Any]],
    searching: type[Any],
    level: str,
    seed: int | None,
    options: Mapping[str, Any],
) -> Any:
    """A player of ``level`` (a key of ``kinds``) seeded with ``seed``; ``searching`` is the
    class that takes the :data:`SEARCH_OPTIONS` (the others ignore them). ValueError for an
    unknown level or option."""
    name = level.strip().lower() if isinstance(level, str) else level
    if name not in kinds:
        raise ValueError(f"No computer player level {level!r} (choose from {', '.join(kinds)})")
    unknown = sorted(set(options) - SEARCH_OPTIONS)
    if unknown:
        raise ValueError(f"Unknown computer player option(s): {', '.join(unknown)}")
    cls = kinds[name]
    if cls is searching:
        return cls(seed, **options)
    return cls(seed)
