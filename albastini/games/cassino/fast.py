"""Whole random deals of Cassino at speed, for the bench: the kernel without the codes.

:func:`random_deal` shuffles a pack and plays uniformly random legal actions to the end on a
:class:`.kernel.State` (every rule comes from :mod:`.kernel`; this module only skips the
codes, sentences and views of :class:`.deal.Deal`). :func:`widest_positions` plays deals
with a policy that trails whenever it may and builds rather than captures, which is what
grows the table, to find the positions with the most legal actions.
"""

from __future__ import annotations

import random
from time import perf_counter

from .kernel import BUILD, CAPTURE, TRAIL, State, legal_actions

__all__ = ["random_deal", "widest_positions"]


def random_deal(players: int, team_size: int, rng: random.Random) -> list[int]:
    """Play one uniformly random deal; its points per team."""
    deck = list(range(52))
    rng.shuffle(deck)
    st = State(players, team_size, rng.randrange(players), deck)
    choice = rng.choice
    while not st.finished:
        st.apply(choice(legal_actions(st.table, st.hands[st.to_act], st.to_act)))
    return st.score()[0]


def widest_positions(
    players: int, team_size: int, deals: int, rng: random.Random
) -> tuple[int, float, State | None, int]:
    """Play ``deals`` deals preferring trails, then builds, then captures; return the most
    legal actions seen in one position, the longest time one generation took (seconds),
    that widest position (a copy) and the most items seen on the table."""
    widest, slowest, worst, most_items = 0, 0.0, None, 0
    prefer = {TRAIL: 0, BUILD: 1, CAPTURE: 2}
    for _ in range(deals):
        deck = list(range(52))
        rng.shuffle(deck)
        st = State(players, team_size, rng.randrange(players), deck)
        while not st.finished:
            t0 = perf_counter()
            actions = legal_actions(st.table, st.hands[st.to_act], st.to_act)
            took = perf_counter() - t0
            slowest = max(slowest, took)
            most_items = max(most_items, len(st.table))
            if len(actions) > widest:
                widest, worst = len(actions), st.copy()
            best = min(prefer[a[0]] for a in actions)
            st.apply(rng.choice([a for a in actions if prefer[a[0]] == best]))
    return widest, slowest, worst, most_items
