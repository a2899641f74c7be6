"""Information-set Monte Carlo tree search (single observer, Cowling, Powley and Whitehouse
2012) for Albastini heads-up while there is a stock.

The search player's PIMC (:meth:`.search.SearchPlayer.evaluate`) scores each card by playing
every sampled deal out with the rollout policy, so every later card in those deals is played
by players who see both hands: this seat's later leads know whether the opponent can take
them (strategy fusion), and only the root card is searched. ISMCTS grows one tree of public
plays from this seat's decision: this seat's cards and the opponent's, each an action seen by
both. Each iteration draws a deal consistent with the seat's view (as PIMC draws them), walks
down the tree among the cards held in that deal by UCB1 with availability counts (a card
counts as a choice only in the deals where its player holds it), opens one node, plays on
with the rollout policy and credits every node on the path with the result for the side of
the player who chose it. The stock's draws are chance the tree does not key: an iteration
follows its deal's stock, so a node below a draw mixes the deals' draws, and the availability
counts say which cards each could play. Once a deal's stock is out every card's place is
known to both players heads-up, and the tree stops there (the rollout finishes the deal).

The root is paired, as in Cassino's tree (:mod:`albastini.games.cassino.ai.ismcts`): every
sampled deal is played through each of this seat's cards, so the cards are compared on the
same deals, and the search player's hybrid root (the expert's card unless another is better
by ``z`` standard errors of their paired difference) reads the per-deal results as it reads
PIMC's.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..fast import FastDeal

#: The UCB1 exploration constant, in the unit of ``core.utility`` (a won deal about 1).
#: Screened at 1.0, 0.3 and 0.1 (bench/README.md, issue 29, ninth round): none better than
#: PIMC with the hybrid root; with the plain root the lower ones scored better.
EXPLORE = 1.0


class Node:
    """One sequence of public plays: the reward won through it by the side of the player who
    made its last play, how often it was chosen and how often it could have been."""

    __slots__ = ("avail", "children", "team", "total", "visits")

    def __init__(self, team: int) -> None:
        self.children: dict[int, Node] = {}
        self.team = team
        self.visits = 0
        self.avail = 0
        self.total = 0.0

    def mean(self) -> float:
        """The mean reward through this node (0 before any visit)."""
        return self.total / self.visits if self.visits else 0.0


@dataclass(slots=True)
class Result:
    """What a search found: each root card's mean score for this seat's side, the sum over
    deals of its squared difference from ``ref``'s score on the same deal (empty without a
    ``ref``, or unpaired), the deals sampled, and the tree's root."""

    values: dict[int, float]
    sq: dict[int, float]
    worlds: int
    root: Node


def search(
    draw: Callable[[], FastDeal],
    moves: Sequence[int],
    team: int,
    more: Callable[[int], bool],
    rollout: Callable[[FastDeal], Sequence[float]],
    rng: random.Random,
    explore: float = EXPLORE,
    paired: bool = True,
    ref: int | None = None,
    policy: Callable[[FastDeal], int] | None = None,
    replies: Callable[[FastDeal], int] | None = None,
) -> Result:
    """Run ISMCTS from the decision of the seat to act (on side ``team``) in the deals
    ``draw`` gives while ``more(deals done)``. ``moves``: that seat's cards (the same in every
    deal); ``rollout(state)``: plays the state out (changing it) and returns what the deal
    was worth to each side.

    ``paired``: each deal is played through every card of ``moves`` (a deal is then
    ``len(moves)`` iterations) and ``ref``'s squared differences are kept; otherwise each
    deal goes through one card chosen by UCB1 at the root too, and a deal is one iteration
    (give ``more`` ``len(moves)`` times the deals for the same work). ``policy``: the
    rollout's card for the seat to act; given, the nodes below the root open their plays one
    by one, its card first (:func:`widening`). ``replies``: the other side's card in a deal;
    given, only this side's plays are searched."""
    root = Node(-1)
    values_sq = dict.fromkeys(moves, 0.0) if paired and ref is not None else {}
    done = 0
    while more(done):
        world = draw()
        done += 1
        if not paired:
            m = _root_pick(root, moves, rng, explore, team)
            st = world.copy()
            st.play(m)
            _iterate(root.children[m], st, [root.children[m]], rollout, rng, explore, team,
                     policy, replies)
            continue
        got: dict[int, float] = {}
        for i, m in enumerate(moves):
            # a slow deal under load: the deadline is kept between its cards too
            if i and not more(done - 1):
                got = {}
                break
            child = root.children.get(m)
            if child is None:
                child = root.children[m] = Node(team)
            child.avail += 1
            st = world.copy()
            st.play(m)
            got[m] = _iterate(child, st, [child], rollout, rng, explore, team, policy,
                              replies)
        if values_sq and ref in got:
            base = got[ref]
            for m, v in got.items():
                values_sq[m] += (v - base) ** 2
    values = {m: root.children[m].mean() for m in moves if m in root.children}
    return Result(values, values_sq, done, root)


def _root_pick(
    root: Node, moves: Sequence[int], rng: random.Random, explore: float, team: int
) -> int:
    """Unpaired: the root card of an iteration, every card once (at random) before UCB1."""
    fresh = [m for m in moves if m not in root.children]
    for m in moves:
        if m in root.children:
            root.children[m].avail += 1
    if fresh:
        m = fresh[rng.randrange(len(fresh))]
        root.children[m] = Node(team)
        root.children[m].avail = 1
        return m
    best, best_v = moves[0], -math.inf
    for m in moves:
        c = root.children[m]
        v = c.total / c.visits + explore * math.sqrt(math.log(c.avail) / c.visits)
        if v > best_v:
            best, best_v = m, v
    return best


def widening(visits: int) -> int:
    """How many plays a node below the root may have opened after ``visits``: one, then one
    more at 4, 16, 36, ... visits (Cassino's tree's rule)."""
    return 1 + math.isqrt(visits) // 2


def _iterate(
    node: Node,
    st: FastDeal,
    path: list[Node],
    rollout: Callable[[FastDeal], Sequence[float]],
    rng: random.Random,
    explore: float,
    team: int,
    policy: Callable[[FastDeal], int] | None,
    replies: Callable[[FastDeal], int] | None = None,
) -> float:
    """One iteration from ``node`` on ``st`` (``path``: the nodes already passed): select,
    open one node, roll out, back up. Returns the result for side ``team``. With ``policy``
    (the rollout's card for the seat to act) nodes widen progressively, its card first;
    without, every play is opened, at random, before any is chosen again. With ``replies``
    the other side's plays are not searched: it plays that card (the rollout's) in each
    deal, a node keyed by it as any public play."""
    widen = policy is not None
    teams = st.teams
    while not st.finished and len(st.stock) > st.pos:
        hand = st.hands[st.to_act]
        children = node.children
        if replies is not None and st.to_act % teams != team:
            # the other side plays the rollout policy's card in this deal (it sees its hand)
            a = replies(st)
            child = children.get(a)
            if child is None:
                child = children[a] = Node(st.to_act % teams)
            child.avail += 1
            st.play(a)
            path.append(child)
            node = child
            continue
        fresh = [a for a in hand if a not in children]
        # a node opens its plays one by one (progressive widening), the rollout policy's
        # first: plays opened at random would have both players play at random at the
        # tree's frontier, where a node has seen a few deals
        if fresh and (not widen or len(fresh) == len(hand)
                      or len(hand) - len(fresh) < widening(node.visits)):
            a = fresh[rng.randrange(len(fresh))] if len(fresh) > 1 else fresh[0]
            if policy is not None:
                first = policy(st)
                if first not in children:
                    a = first
            for b in hand:
                if b in children:
                    children[b].avail += 1
            child = children[a] = Node(st.to_act % teams)
            child.avail = 1
            st.play(a)
            path.append(child)
            break
        best_a, best_v = hand[0], -math.inf
        for a in hand:
            c = children.get(a)
            if c is None:
                continue
            c.avail += 1
            v = c.total / c.visits + explore * math.sqrt(math.log(c.avail) / c.visits)
            if v > best_v:
                best_a, best_v = a, v
        node = children[best_a]
        st.play(best_a)
        path.append(node)
    result = rollout(st)
    for n in path:
        n.visits += 1
        n.total += result[n.team]
    return result[team]


def choice(root: Node) -> int:
    """Unpaired: the most visited card at the root, then the best mean."""
    return max(root.children, key=lambda m: (root.children[m].visits, root.children[m].mean()))


__all__ = ["EXPLORE", "Node", "Result", "choice", "search", "widening"]
