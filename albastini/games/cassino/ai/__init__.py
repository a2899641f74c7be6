"""Computer players for Cassino: pure functions of what a seat may see, no I/O.

::

    player = make_player("normal", seed=1)
    code = player.choose(table_view(deal, seat))   # a legal code such as "capture:9S:2C5H"

    # off the event loop, in a process pool:
    code = await loop.run_in_executor(pool, partial(decide, "hard", view, seed))

Kinds: ``random`` (uniform), ``greedy`` (captures the most valuable set it can, else trails
its least useful card), ``normal`` (counts the unseen cards; scores captures, sweep exposure
and builds by the chance that the others hold a value) and ``search`` (determinized sampling
with rollouts on the kernel; with 3 or 4 players the others answer in them as normal would).
Levels offered to people: ``easy`` = greedy,
``normal``, ``hard`` = search.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...players import build_player
from .players import GreedyPlayer, NormalPlayer, Player, RandomPlayer
from .search import SearchPlayer

#: Level or kind name -> the class that plays it.
KINDS: dict[str, type[Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "easy": GreedyPlayer,
    "normal": NormalPlayer,
    "hard": SearchPlayer,
    "search": SearchPlayer,
}


def make_player(level: str, seed: int | None = None, **options: Any) -> Player:
    """A computer player for a level (``easy``, ``normal``, ``hard``) or a kind (``random``,
    ``greedy``, ``search``). Options: ``time_ms`` (hard: time per decision, default 150) and
    ``iterations`` (hard: a fixed number of sampled worlds instead, reproducible); other
    kinds ignore them. ValueError for an unknown level or option."""
    player: Player = build_player(KINDS, SearchPlayer, level, seed, options)
    return player


def decide(level: str, view: Mapping[str, Any], seed: int | None = None) -> str:
    """The code a fresh ``level`` player picks for ``view``: a top-level function, so it can be
    sent to a ``ProcessPoolExecutor``."""
    return make_player(level, seed=seed).choose(view)


__all__ = [
    "KINDS",
    "GreedyPlayer",
    "NormalPlayer",
    "Player",
    "RandomPlayer",
    "SearchPlayer",
    "decide",
    "make_player",
]
