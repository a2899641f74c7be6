"""What every game's computer players share: choosing a player class by level or kind, with
the options only its search player takes (each game's ``ai`` package lists its classes), and
the base of the players that choose an action code from a view (:class:`CodeChooser`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Protocol

__all__ = ["SEARCH_OPTIONS", "Chooser", "CodeChooser", "RandomChooser", "build_player"]

#: The options of a game's search player (``hard``); the other kinds take none.
SEARCH_OPTIONS = frozenset({"time_ms", "iterations"})


class Chooser(Protocol):
    """A computer player: ``choose(view)`` returns a legal action code of that view."""

    def choose(self, view: Mapping[str, Any]) -> str: ...


class CodeChooser:
    """A computer player: ``choose(view)`` returns a legal code of the view's seat, from the
    view alone. Its only state is a ``random.Random`` seeded from ``seed``. A game's player
    gives ``_choose``, called only when there is a choice to make."""

    level = "base"

    def __init__(self, seed: int | None = None) -> None:
        """A player whose random choices follow ``seed`` (None: not reproducible)."""
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any]) -> str:
        """The code to play; ValueError when the view's seat has nothing to do."""
        legal = [str(c) for c in view.get("legal") or ()]
        if not legal:
            raise ValueError("It is not this seat's turn: the view lists no legal action")
        if len(legal) == 1:
            return legal[0]
        code = self._choose(view, legal)
        if code not in legal:  # a safety net: never return an illegal action
            raise AssertionError(f"{self.level} chose {code}, not in {legal}")
        return code

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


class RandomChooser(CodeChooser):
    """Uniform over the legal codes, in the view's order (for tests and the arena)."""

    level = "random"

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        return self.rng.choice(legal)


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
