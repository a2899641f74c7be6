"""Information-set Monte Carlo tree search (single observer, Cowling, Powley and Whitehouse
2012) over the play phase of Twenty-Eight.

PIMC (:meth:`.search.SearchPlayer.evaluate`) scores each of this seat's cards by one step of
search over rollouts on each sampled world, so every later card in those worlds is the
rollout policy's; ISMCTS grows one tree of public action sequences (the cards played, a call
for the trump) from this seat's decision. Each iteration deals a world consistent with this
seat's view (:func:`.core.sample_world`, weighed by the chance that its hands made the auction
heard, :func:`.infer.world_weight`), walks down the tree among the actions legal in that
world by UCB1 with availability counts (a card counts as a choice only in the worlds where
its player holds it), adds one node, plays the deal out with the rollout policy and credits
every node on the path with the result from the side of the player who chose it. The tree
is keyed by what everyone sees, so no player's choices in it depend on cards it cannot see:
statistics of a node mix every world that reaches it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from .. import kernel as K
from .core import Knowledge, sample_world, side_of
from .infer import played_by_seat, speeches, world_weight

#: The UCB1 exploration constant (rewards lie in 0 .. 1.28: a won deal is 1 and each card
#: point a hundredth).
EXPLORE = 0.7


class Node:
    """One public action sequence: the reward won through it by the side of the player who
    chose its last action, how often it was chosen and how often it could have been."""

    __slots__ = ("avail", "children", "side", "total", "visits", "weight")

    def __init__(self, side: int = -1) -> None:
        self.children: dict[int, Node] = {}
        self.side = side
        self.visits = 0
        self.avail = 0
        self.total = 0.0  # the rewards, each times its world's weight
        self.weight = 0.0  # the weights of the worlds through this node

    def mean(self) -> float:
        """The weighted mean reward through this node (0 before any weight)."""
        return self.total / self.weight if self.weight > 0 else 0.0


def side_utilities(st: K.State) -> tuple[float, float]:
    """The result of a finished deal for the bidding side and for the defenders: 1 for the
    deal won, plus a hundredth per card point of that side (a redeal: one half each)."""
    if st.redeal:
        return 0.5, 0.5
    made = st.settlement()[1]
    pts = [0, 0]
    for team, p in enumerate(st.points):
        # (a team's index is its first seat's, so side_of reads it as a seat; in 3 players
        # the defenders' points are those of both)
        pts[side_of(st, team)] += p
    return (1.0 if made else 0.0) + 0.01 * pts[0], (0.0 if made else 1.0) + 0.01 * pts[1]


def world_drawer(k: Knowledge, rng: random.Random) -> Callable[[], tuple[K.State, float]]:
    """Draws worlds for ``k``: each a deal consistent with the view
    (:func:`.core.sample_world`) and its weight, the chance that its hands made the auction
    heard (:func:`.infer.world_weight`; 1 when nothing said tells the hands apart). Weights
    rather than rejection: a rejected world costs as much as a kept one, and after a high
    bid most would be."""
    said = speeches(k)
    weigh = bool(said) or (k.face_down and k.seat != k.bidder)
    played = played_by_seat(k)

    def draw() -> tuple[K.State, float]:
        st = sample_world(k, rng)
        return st, world_weight(k, st, said, rng, played) if weigh else 1.0

    return draw


def search(draw: Callable[[], tuple[K.State, float]], actions: list[int], rng: random.Random,
           more: Callable[[int], bool], rollout: Callable[[K.State], None],
           explore: float = EXPLORE) -> list[int]:
    """Run ISMCTS from the decision of the seat to act in the worlds ``draw`` gives (a world
    and its weight) while ``more(iterations done)``; the number of times each of
    ``actions`` (that seat's legal actions, the same in every world) was chosen at the
    root."""
    root = Node()
    done = 0
    while more(done):
        st, w = draw()
        done += 1
        if w <= 0.0:
            continue
        node = root
        path: list[Node] = []
        while st.phase == K.PLAYING:
            legal = st.play_options()
            children = node.children
            fresh = [a for a in legal if a not in children]
            for a in legal:
                child = children.get(a)
                if child is not None:
                    child.avail += 1
            if fresh:
                a = fresh[rng.randrange(len(fresh))] if len(fresh) > 1 else fresh[0]
                child = Node(side_of(st, st.to_act))
                child.avail = 1
                children[a] = child
                st.apply(a)
                path.append(child)
                break
            best_a, best_v = legal[0], -math.inf
            for a in legal:
                c = children[a]
                v = c.mean() + explore * math.sqrt(math.log(c.avail) / c.visits)
                if v > best_v:
                    best_a, best_v = a, v
            node = children[best_a]
            st.apply(best_a)
            path.append(node)
        rollout(st)
        results = side_utilities(st)
        for n in path:
            n.visits += 1
            n.weight += w
            n.total += w * results[n.side]
    return [root.children[a].visits if a in root.children else 0 for a in actions]


__all__ = ["EXPLORE", "Node", "search", "side_utilities", "world_drawer"]
