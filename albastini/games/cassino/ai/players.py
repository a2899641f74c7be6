"""The simple computer players: random, greedy (``easy``) and the counting heuristic
(``normal``). All choose from their seat's view only."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...players import CodeChooser, RandomChooser
from .. import kernel as K
from .core import (
    SWEEP,
    WORTH,
    Knowledge,
    action_of,
    after,
    chance_held,
    greedy_action,
    read_view,
    sweep_values,
    worth,
)

#: The chance that the other sides hold a card of one of some values (number cards) or face
#: ranks: :meth:`NormalPlayer.holds` for a seat's knowledge.
Holds = Callable[[set[int], set[int]], float]


def score_action(table: Sequence[K.Item], seat: int, action: K.Action, holds: Holds,
                 last: bool) -> float:
    """:meth:`NormalPlayer.score`: the expected worth of ``seat``'s ``action`` on ``table``
    for its side, ``holds`` the other sides' chance of holding a value, ``last`` whether this
    is the deal's last card. (A function of its own so that the search's rollouts can score
    with the unseen cards counted once per decision, :func:`.search.normal_move`.)"""
    kind, card, value, _ = action
    left, taken = after(table, action, seat)
    gain = worth(taken)
    if kind == K.CAPTURE and not left:
        gain += SWEEP
    if kind == K.BUILD:
        build = next(it for it in left if it[4] == seat and card in it[1])
        risk = holds({value}, set())
        gain += (worth(build[1]) + 0.2) * (1 - risk) - WORTH[card] * risk
    if kind == K.TRAIL:
        gain -= 0.05  # a trail gives the other sides a card to take
    # exposure: a sweep for the next side, and the valuable items it could take
    values, faces = sweep_values(left)
    if left and (values or faces) and not last:
        gain -= holds(values, faces) * (SWEEP + worth([x for it in left for x in it[1]]))
    for it in left:
        if it[4] == seat:
            continue
        # (a loose card's worth is its own: the same float as summing its one card)
        w = WORTH[it[0]] if it[2] == K.LOOSE else worth(it[1])
        if w >= 0.9:
            ranks = {K.RANK[it[0]]} if it[3] == 0 else set()
            gain -= 0.5 * w * holds({it[3]} - {0}, ranks)
    # keep high cards that can capture builds and tens later
    gain -= 0.02 * K.VALUE[card]
    return gain


#: The base of this game's players: a legal code from a view (albastini/games/players.py).
Player = CodeChooser


class RandomPlayer(RandomChooser):
    """Uniform over the legal codes (for tests and the arena)."""


class GreedyPlayer(Player):
    """The baseline (``easy``): captures the most valuable set it can (cards towards the
    majorities, Big and Little Cassino, aces, a sweep), else trails its least useful card
    (no point card, the highest rank); it never builds unless nothing else is legal."""

    level = "greedy"

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        k = read_view(view)
        actions = {action_of(c): c for c in legal}
        return actions[greedy_action(k.table, list(actions))]


class NormalPlayer(Player):
    """The heuristic player (``normal``): counts the cards it has not seen and scores each
    legal move by what it captures, what it leaves the other sides (the chance that they
    hold a card that takes the whole table for a sweep, or a valuable item) and, for a build,
    the worth of the build times the chance that nobody else holds its value (build
    planning: it holds the capturing card by the rules)."""

    level = "normal"

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        k = read_view(view)
        return max(legal, key=lambda code: (self.score(k, action_of(code)), code))

    @staticmethod
    def holds(k: Knowledge, values: set[int], ranks: set[int]) -> float:
        """The chance that the other sides hold a card of one of ``values`` (number cards)
        or ``ranks`` (face cards)."""
        copies = sum(1 for c in k.unseen
                     if (K.VALUE[c] in values if K.VALUE[c] else K.RANK[c] in ranks))
        return chance_held(len(k.unseen), copies, k.others_cards())

    def score(self, k: Knowledge, action: K.Action) -> float:
        """The expected worth of ``action`` for this seat's side."""
        return score_action(k.table, k.seat, action,
                            lambda values, ranks: self.holds(k, values, ranks),
                            self.is_last_play(k))

    @staticmethod
    def is_last_play(k: Knowledge) -> bool:
        """Whether this is the last card of the deal (nobody plays after it)."""
        return k.pack == 0 and sum(k.hand_sizes) == 1
