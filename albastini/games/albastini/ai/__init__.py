"""Computer players for Albastini: pure functions of what a seat may see, no I/O.

::

    from albastini.ai import make_player, decide

    player = make_player("normal", seed=1)
    action = player.choose(deal.view(seat, history=True))   # a Bid, Pass or Play
    deal.apply(action)

    # off the event loop, in a process pool:
    code = await loop.run_in_executor(pool, partial(decide, "hard", view, seed))

Levels: ``random`` (uniform, for tests), ``greedy`` (the point-trick baseline), ``heuristic``
(counts cards, keeps trumps, feeds partners, solves the known endgame) and ``search``
(information-set sampling with rollouts by the heuristic's rule, plus the expert's last-draw
rule with partners, and exact endgame search; heads-up it plays the expert's rules' card unless
the sampled deals clearly prefer another).
Difficulties for players: ``easy`` (greedy with a little randomness), ``normal`` (heuristic),
``hard`` (search).
"""

from __future__ import annotations

from typing import Any

from .heuristic import HeuristicPlayer
from .players import GreedyPlayer, Player, RandomPlayer
from .search import SearchPlayer

LEVELS: tuple[str, ...] = ("random", "greedy", "heuristic", "search")
#: Difficulty names offered to players, and the level each one maps to.
DIFFICULTIES: dict[str, str] = {"easy": "greedy", "normal": "heuristic", "hard": "search"}
#: How much randomness ``easy`` adds to greedy: the chance of a random legal action.
EASY_EPSILON = 0.15


#: The options each level takes; the others' options are ignored, so a caller may pass the
#: same options (``time_ms``...) whatever the level.
OPTIONS: dict[str, frozenset[str]] = {
    "random": frozenset(),
    "greedy": frozenset({"epsilon"}),
    "heuristic": frozenset({"endgame_samples"}),
    "search": frozenset({"time_ms", "iterations", "rollout", "root", "z", "weight", "margin",
                          "infer", "horizon", "play", "explore", "paired",
                          "widen", "replies", "deep"}),
}
_CLASSES: dict[str, type[Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "heuristic": HeuristicPlayer,
    "search": SearchPlayer,
}


def make_player(level: str, *, seed: int | None = None, **options: Any) -> Player:
    """A computer player for a level (``random``, ``greedy``, ``heuristic``, ``search``) or a
    difficulty (``easy``, ``normal``, ``hard``).

    ``seed`` makes its choices reproducible. Options: ``epsilon`` (greedy: chance of a random
    move), ``iterations`` and ``time_ms`` (search: sampled deals per decision and a time cap;
    by default 100 deals, 200 in 4 pairs, 3 and 4 solo, capped at 300 ms; ``iterations``
    alone has no cap, for reproducible runs; ``time_ms`` alone samples until the time is
    spent), ``rollout`` (search: ``expert``, the normal player's rule with the expert's
    last-draw rule with partners, by default, ``policy``, the normal player's rule alone,
    ``greedy``, ``rival``, heads-up the opponent playing the expert's rules, ``team``,
    ``expert`` with a follower counting its partner still to play, or ``side``, ``team``
    for this seat's side only), ``root`` (search: ``auto``, the default, ``search``,
    ``hybrid``, ``prior`` or ``leaf``, see ``search.ROOTS``), ``z`` and ``weight`` (search:
    the hybrid's margin in standard errors, the prior's weight), ``margin`` (search:
    weight of the card-point margin in a rollout's score; by default 4 with three or more
    players each on their own, else 0), ``infer`` (search, heads-up: 1 samples the hidden
    cards weighted by what the opponent's bid and follows reveal, ``infer.facts``; 2 also
    by ``infer.lead_check``), ``horizon`` (search, two sides: stop each rollout that many
    rounds on and score it in card points, ``sim.horizon_rollout``; 0, the default, plays
    the deal out), ``deep`` (search, more than two sides: the expert's exact endgame once
    the stock is out; by default with three or four players each on their own),
    ``endgame_samples`` (heuristic: sampled placements averaged in a small endgame). A level
    ignores the options of the other levels. Raises ValueError for an unknown level or option
    or a bad option value.
    """
    name = level.strip().lower()
    if name == "easy":
        options.setdefault("epsilon", EASY_EPSILON)
    name = DIFFICULTIES.get(name, name)
    if name not in _CLASSES:
        choices = ", ".join((*LEVELS, *DIFFICULTIES))
        raise ValueError(f"No computer player level {level!r} (choose from {choices})")
    every = frozenset().union(*OPTIONS.values())
    unknown = sorted(set(options) - every)
    if unknown:
        raise ValueError(f"Unknown computer player option(s): {', '.join(unknown)}")
    mine = {k: v for k, v in options.items() if k in OPTIONS[name]}
    return _CLASSES[name](seed, **mine)


def decide(level: str, view: dict[str, Any], seed: int | None = None, **options: Any) -> str:
    """The action code (``"bid:4C"``, ``"pass"``, ``"play:7H"``) a fresh ``level`` player picks
    for ``view``. A top-level function, so it can be sent to a ``ProcessPoolExecutor``."""
    return make_player(level, seed=seed, **options).choose(view).code


__all__ = [
    "DIFFICULTIES",
    "LEVELS",
    "GreedyPlayer",
    "HeuristicPlayer",
    "Player",
    "RandomPlayer",
    "SearchPlayer",
    "decide",
    "make_player",
]
