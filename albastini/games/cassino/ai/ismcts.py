"""Information-set Monte Carlo tree search (single observer, Cowling, Powley and Whitehouse
2012) over Cassino's play, from one seat's decision.

PIMC (:class:`.search.SearchPlayer`) scores each legal action by playing every sampled world
out with the rollout policy, so every later move in those worlds is the policy's, made by
players who see every hand. ISMCTS grows one tree of public action sequences (every play is
seen by all) from this seat's decision. Each iteration draws a world consistent with the
seat's view, walks down the tree among the actions legal in that world by UCB1 with
availability counts (an action counts as a choice only in the worlds where its player could
make it), adds one node, plays on with the rollout policy to the horizon and credits every
node on the path with the result for the team of the player who chose it. The tree is keyed
by what everyone sees, so statistics of a node mix every world that reaches it: no choice in
the tree depends on a card its player cannot see.

The game's rules and values stay with the caller (the rollout, the reward per team), so this
module knows only the kernel's :class:`..kernel.State`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from .. import kernel as K

#: The UCB1 exploration constant, in the rewards' unit (a card's worth: an Ace is 1, a
#: sweep 1, the 10♦ 2; a finished deal scores 1 for a win). Screened at 0.5 / 1.0 / 2.0 in
#: bench/README.md ("Cassino: information-set MCTS").
EXPLORE = 1.0


class Node:
    """One public action sequence: the reward won through it by the team of the player who
    chose its last action, how often it was chosen and how often it could have been."""

    __slots__ = ("avail", "children", "team", "total", "visits")

    def __init__(self, team: int = -1) -> None:
        self.children: dict[K.Action, Node] = {}
        self.team = team
        self.visits = 0
        self.avail = 0
        self.total = 0.0

    def mean(self) -> float:
        """The mean reward through this node (0 before any visit)."""
        return self.total / self.visits if self.visits else 0.0


def widening(visits: int) -> int:
    """How many replies a node below the root may have opened after ``visits``: one, then
    one more at 4, 16, 36, ... visits."""
    return 1 + math.isqrt(visits) // 2


def search(draw: Callable[[], K.State], actions: Sequence[K.Action], rng: random.Random,
           more: Callable[[int], bool], horizon: int,
           rollout: Callable[[K.State, int], None],
           rewards: Callable[[K.State, K.State], Sequence[float]],
           policy: Callable[[K.State], K.Action],
           explore: float = EXPLORE, paired: bool = True) -> Node:
    """Run ISMCTS from the decision of the seat to act in the worlds ``draw`` gives, while
    ``more(iterations done)``; the tree stops at the end of round ``horizon`` (the rollout
    plays on to there). ``actions``: that seat's legal actions (the same in every world);
    ``rewards(end, world)``: per team, what the play from ``world`` to ``end`` was worth to
    it; ``policy``: the rollout's move, opened first below the root.

    ``paired``: every world is played through each root action (an iteration is then a
    world), as PIMC does, so the actions are compared on the same cards (common random
    numbers); the tree decides the plays below them. Otherwise the root is chosen by UCB1
    too and an iteration is one world through one action. Returns the tree's root: its
    children, keyed by ``actions``, hold each action's visits and mean (:func:`choice`)."""
    root = Node()
    root_team = -1
    done = 0
    while more(done):
        world = draw()
        if root_team < 0:
            root_team = world.to_act % world.n_teams
        done += 1
        if not paired:
            _iterate(root, world, world.copy(), [], list(actions), horizon, rng, rollout,
                     rewards, policy, explore)
            continue
        for i, a in enumerate(actions):
            # a slow world under load: the deadline is kept between its actions too
            if i and not more(done - 1):
                break
            child = root.children.get(a)
            if child is None:
                child = root.children[a] = Node(root_team)
            child.avail += 1
            st = world.copy()
            st.apply(a)
            _iterate(child, world, st, [child], None, horizon, rng, rollout, rewards, policy,
                     explore)
    return root


def _iterate(node: Node, world: K.State, st: K.State, path: list[Node],
             root_actions: list[K.Action] | None, horizon: int, rng: random.Random,
             rollout: Callable[[K.State, int], None],
             rewards: Callable[[K.State, K.State], Sequence[float]],
             policy: Callable[[K.State], K.Action], explore: float) -> None:
    """One iteration from ``node`` on ``st`` (drawn as ``world``, ``path`` the nodes already
    passed): select, expand one node, roll out, back up."""
    start = node
    while not st.finished and st.round <= horizon:
        at_root = node is start and root_actions is not None
        legal = root_actions if at_root and root_actions is not None else st.legal()
        children = node.children
        fresh = []
        known = []
        for a in legal:
            if a in children:
                known.append(a)
            else:
                fresh.append(a)
        # below the root, a node opens its replies one by one (progressive widening), the
        # rollout policy's first: with a few hundred iterations, replies opened at random
        # would make the other players play at random in the tree
        if fresh and (at_root or not known or len(known) < widening(node.visits)):
            a = fresh[rng.randrange(len(fresh))] if len(fresh) > 1 else fresh[0]
            if not at_root:
                first = policy(st)
                if first not in children:
                    a = first
            for b in known:
                children[b].avail += 1
            child = children[a] = Node(st.to_act % st.n_teams)
            child.avail = 1
            st.apply(a)
            path.append(child)
            break
        best_a, best_v = known[0], -math.inf
        for a in known:
            c = children[a]
            c.avail += 1
            v = c.total / c.visits + explore * math.sqrt(math.log(c.avail) / c.visits)
            if v > best_v:
                best_a, best_v = a, v
        node = children[best_a]
        st.apply(best_a)
        path.append(node)
    rollout(st, horizon)
    result = rewards(st, world)
    for n in path:
        n.visits += 1
        n.total += result[n.team]


#: How much the heuristic's score of an action counts beside its mean reward when the root
#: is paired (as PIMC weighs it: a tie-break, about a twentieth of a card's worth).
PRIOR = 0.05


def choice(root: Node, actions: Sequence[K.Action], prior: Sequence[float],
           paired: bool = True) -> int:
    """The index of the action to play. Paired: the best mean reward plus :data:`PRIOR`
    times the heuristic's ``prior``; otherwise the most visited at the root, then the best
    mean, then the best prior."""
    def key(i: int) -> tuple[float, float, float]:
        child = root.children.get(actions[i])
        if child is None:
            return (-math.inf, -math.inf, prior[i])
        if paired:
            return (child.mean() + PRIOR * prior[i], 0.0, 0.0)
        return (child.visits, child.mean(), prior[i])

    return max(range(len(actions)), key=key)


__all__ = ["EXPLORE", "PRIOR", "Node", "choice", "search", "widening"]
