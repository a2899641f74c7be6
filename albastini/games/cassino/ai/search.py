"""The search player (``hard``): determinized sampling with greedy rollouts on the kernel.

Each iteration deals the cards this seat has not seen to the other hands (by their sizes)
and to the rest of the pack, at random (:func:`sample_world`), then scores every legal
action on that same world (common random numbers: the moves are compared on the same
cards) by playing on with :func:`.core.greedy_action` for every seat to the end of the next
round, or of the deal, and valuing what each side captured meanwhile (:func:`outcome`). The
action with the best mean wins. The kernel's own rules run the rollouts.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from time import perf_counter
from typing import Any

from .. import kernel as K
from .core import SWEEP, Knowledge, action_of, read_view, rollout_move, worth
from .players import NormalPlayer

#: Placeholder for a captured card whose identity does not matter (counted, never scored).
HIDDEN = 52


def sample_world(k: Knowledge, rng: random.Random) -> K.State:
    """A full :class:`..kernel.State` consistent with what the seat knows: the unseen cards
    shuffled into the other hands and the undealt pack (a seat that controls a build gets a
    card of its value first: the rules say it holds one); the piles as placeholders."""
    unseen = list(k.unseen)
    rng.shuffle(unseen)
    forced: dict[int, list[int]] = {}
    for value, seat in sorted({(it[3], it[4]) for it in k.table if it[4] not in (-1, k.seat)}):
        card = next((c for c in unseen if K.VALUE[c] == value), None)
        if card is not None:
            unseen.remove(card)
            forced.setdefault(seat, []).append(card)
    st = object.__new__(K.State)
    st.n = k.players
    st.team_size = k.players // k.n_teams
    st.n_teams = k.n_teams
    st.dealer = k.dealer
    st.rounds = k.rounds
    st.round = k.round
    st.pos = 52 - k.pack
    st.hands = []
    for s, size in enumerate(k.hand_sizes):
        if s == k.seat:
            st.hands.append(sorted(k.hand))
        else:
            mine = forced.get(s, [])
            take = size - len(mine)
            st.hands.append(sorted(mine + unseen[:take]))
            del unseen[:take]
    st.deck = tuple([HIDDEN] * st.pos + unseen)
    st.table = list(k.table)
    # the captured cards are public (replayed from the history), so the end can be scored
    st.piles = [list(p) for p in k.piles] if k.piles else [[HIDDEN] * n for n in k.captured]
    st.sweeps = list(k.sweeps)
    st.last_capturer = k.last_capturer
    st.leftover = []
    st.first_table = []
    st.to_act = k.seat
    return st


def outcome(st: K.State, start: K.State, team: int) -> float:
    """What this seat's team gained against the best other team since ``start``: the worth
    of the cards captured and the sweeps. When the deal is over (and the piles are the real
    cards), the deal itself: 1 for a win, a half for a tie for the top, plus a twentieth of
    the points' margin."""
    if st.finished and not any(c == HIDDEN for p in st.piles for c in p):
        points, _ = st.score()
        ours = points[team]
        best = max(p for t, p in enumerate(points) if t != team)
        won = 1.0 if ours > best else 0.5 if ours == best else 0.0
        return won + 0.05 * (ours - best)
    gains = []
    for t in range(st.n_teams):
        new = st.piles[t][len(start.piles[t]):]
        g = worth(new) + SWEEP * (st.sweeps[t] - start.sweeps[t])
        if st.finished:
            counts = [len(p) for p in st.piles]
            top = max(counts)
            g += 3.0 if counts[t] == top and counts.count(top) == 1 else 0.0
        gains.append(g)
    mine = gains[team]
    return mine - max(g for t, g in enumerate(gains) if t != team)


def rollout(st: K.State, horizon: int) -> None:
    """Play :func:`.core.rollout_move` (greedy, no sweep left when a trail can avoid it) for
    every seat until round ``horizon`` is over or the deal ends."""
    while not st.finished and st.round <= horizon:
        st.apply(rollout_move(st))


class SearchPlayer(NormalPlayer):
    """Determinized search (``hard``). ``time_ms`` is the thinking time per decision (default
    150); ``iterations`` fixes the number of sampled worlds instead (reproducible)."""

    level = "search"
    #: Rounds played out after the current one.
    HORIZON = 1

    def __init__(self, seed: int | None = None, time_ms: float = 150.0,
                 iterations: int | None = None) -> None:
        super().__init__(seed)
        self.time_ms = float(time_ms)
        self.iterations = iterations

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        k = read_view(view)
        actions = [action_of(c) for c in legal]
        team = k.team_of(k.seat)
        horizon = k.round + self.HORIZON  # builds are settled within a round
        # the heuristic's order breaks ties and is the answer if no world fits in the time
        prior = [self.score(k, a) for a in actions]
        totals = [0.0] * len(actions)
        deadline = perf_counter() + self.time_ms / 1000
        done = 0
        while True:
            if self.iterations is not None:
                if done >= self.iterations:
                    break
            elif done and perf_counter() >= deadline:
                break
            world = sample_world(k, self.rng)
            for i, action in enumerate(actions):
                st = world.copy()
                st.apply(action)
                rollout(st, horizon)
                totals[i] += outcome(st, world, team)
            done += 1
        best = max(range(len(actions)),
                   key=lambda i: (totals[i] / max(done, 1) + 0.05 * prior[i], legal[i]))
        return legal[best]
