"""A small perfect-information simulator of the playing phase, a greedy rollout and an exact
alpha-beta endgame solver, for the search and heuristic players.

``Sim`` has the constructor of ``albastini.fast.FastDeal.from_parts`` and keeps the state the
rollout policy reads (the hands, the round in progress and the card winning it), which the
lean ``FastDeal`` does not promise to expose.
"""

from __future__ import annotations

from collections.abc import Sequence
from time import perf_counter

from .core import PTS, beats, cheap_key, utility, win_key


class Sim:
    """A perfect-information deal in the playing phase; cards are ints (see ``core``)."""

    __slots__ = (
        "best",
        "best_seat",
        "current",
        "eaten",
        "hands",
        "players",
        "pos",
        "stock",
        "team_size",
        "teams",
        "to_act",
        "trick_pts",
        "trump",
    )

    players: int
    team_size: int
    teams: int
    trump: int
    hands: list[list[int]]
    stock: list[int]
    pos: int
    current: list[tuple[int, int]]
    eaten: list[int]
    to_act: int
    best: int
    best_seat: int
    trick_pts: int

    @classmethod
    def from_parts(
        cls,
        players: int,
        team_size: int,
        trump: int,
        hands: Sequence[Sequence[int]],
        stock: Sequence[int],
        leader: int,
        current: Sequence[tuple[int, int]],
        eaten: Sequence[int],
    ) -> Sim:
        """A state from its parts: ``stock`` in drawing order (face-up card last), the round in
        progress led by ``leader``, card points eaten per team."""
        s = object.__new__(cls)
        s.players = players
        s.team_size = team_size
        s.teams = players // team_size
        s.trump = trump
        s.hands = [list(h) for h in hands]
        s.stock = list(stock)
        s.pos = 0
        s.current = list(current)
        s.eaten = list(eaten)
        s.trick_pts = sum(PTS[c] for _, c in current)
        s.best_seat, s.best = leader, -1
        if current:
            s.best_seat, s.best = current[0]
            for seat, card in current[1:]:
                if beats(card, s.best, trump):
                    s.best_seat, s.best = seat, card
        s.to_act = (leader + len(current)) % players
        return s

    def copy(self) -> Sim:
        """An independent copy."""
        s = object.__new__(Sim)
        s.players = self.players
        s.team_size = self.team_size
        s.teams = self.teams
        s.trump = self.trump
        s.hands = [h[:] for h in self.hands]
        s.stock = self.stock
        s.pos = self.pos
        s.current = self.current[:]
        s.eaten = self.eaten[:]
        s.to_act = self.to_act
        s.best = self.best
        s.best_seat = self.best_seat
        s.trick_pts = self.trick_pts
        return s

    @property
    def finished(self) -> bool:
        """True when every hand is empty."""
        return not self.hands[self.to_act]

    @property
    def stock_left(self) -> int:
        """Cards still to draw (the face-up card included)."""
        return len(self.stock) - self.pos

    def legal(self) -> list[int]:
        """The cards the seat to act may play (any card in hand)."""
        return list(self.hands[self.to_act])

    def points(self) -> list[int]:
        """Card points eaten per team."""
        return list(self.eaten)

    def play(self, card: int) -> None:
        """The seat to act plays ``card``; finish the round and draw when it is complete."""
        seat = self.to_act
        self.hands[seat].remove(card)
        cur = self.current
        if not cur or beats(card, self.best, self.trump):
            self.best, self.best_seat = card, seat
        cur.append((seat, card))
        self.trick_pts += PTS[card]
        n = self.players
        if len(cur) < n:
            self.to_act = (seat + 1) % n
            return
        w = self.best_seat
        self.eaten[w % self.teams] += self.trick_pts
        self.current = []
        self.trick_pts = 0
        if len(self.stock) - self.pos >= n:
            hands, stock, pos = self.hands, self.stock, self.pos
            for k in range(n):
                hands[(w + k) % n].append(stock[pos + k])
            self.pos = pos + n
        self.to_act = w

    # ------------------------------------------------------------------ policies
    def greedy_move(self) -> int:
        """The greedy rule (see ``core.greedy_card``) for the seat to act."""
        seat = self.to_act
        hand = self.hands[seat]
        trump = self.trump
        if self.current and self.trick_pts and self.best_seat % self.teams != seat % self.teams:
            best = self.best
            winners = [c for c in hand if beats(c, best, trump)]
            if winners:
                return min(winners, key=lambda c: win_key(c, trump))
        return min(hand, key=lambda c: cheap_key(c, trump))

    def rollout(self) -> list[int]:
        """Play to the end with the greedy rule for everybody; the points per team."""
        while self.hands[self.to_act]:
            self.play(self.greedy_move())
        return self.eaten


# --------------------------------------------------------------------------- exact search
class Budget(Exception):
    """Raised when a solve runs past its node budget."""


def solve(
    sim: Sim,
    team: int,
    max_nodes: int = 200_000,
    deadline: float | None = None,
    need_all: bool = True,
) -> dict[int, float]:
    """Exact value (``core.utility`` for ``team``) of each legal card of the seat to act once
    nothing is left to draw, all seats playing perfectly: ``team``'s seats maximise, everyone
    else minimises (for more than two sides, a paranoid assumption).

    With ``need_all=False`` only the best card's value is exact; the others are upper bounds
    (enough to pick the best). Raises :class:`Budget` past ``max_nodes`` nodes or past
    ``deadline`` (a ``time.perf_counter()`` value), and ValueError if cards remain to draw.
    """
    n = sim.players
    if len(sim.stock) - sim.pos >= n:
        raise ValueError("solve() needs a deal with nothing left to draw")
    teams = sim.teams
    team_size = sim.team_size
    trump = sim.trump
    hands = [list(h) for h in sim.hands]
    eaten = list(sim.eaten)
    table: dict[tuple[object, ...], tuple[float, int]] = {}
    nodes = 0

    def ordered(hand: list[int], best: int) -> list[int]:
        """Moves with interchangeable low cards dropped, a likely good one first."""
        live: set[int] = set()
        for h in hands:
            live.update(h)
        hand = sorted(hand)
        moves: list[int] = []
        for c in reversed(hand):  # lowest rank first within a suit
            if PTS[c] == 0 and moves:
                prev = moves[-1]
                if prev // 9 == c // 9 and PTS[prev] == 0 and not any(
                    x in live and x not in hand for x in range(c + 1, prev)
                ):
                    continue
            moves.append(c)
        if best >= 0:
            moves.sort(key=lambda c: (not beats(c, best, trump), PTS[c]))
        else:
            moves.sort(key=lambda c: cheap_key(c, trump))
        return moves

    def node(seat: int, cur: int, best: int, best_seat: int, pot: int, a: float, b: float) -> float:
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes:
            raise Budget
        if deadline is not None and not nodes & 255 and perf_counter() > deadline:
            raise Budget
        hand = hands[seat]
        if not hand:
            return utility(eaten, team, team_size)
        key: tuple[object, ...] | None = None
        a0, b0 = a, b
        if cur == 0:
            key = (seat, *eaten, *(tuple(sorted(h)) for h in hands))
            hit = table.get(key)
            if hit is not None:
                v, flag = hit
                if flag == 0:
                    return v
                if flag > 0:
                    a = max(a, v)
                else:
                    b = min(b, v)
                if a >= b:
                    return v
        maxing = seat % teams == team
        v = -9.0 if maxing else 9.0
        nxt = (seat + 1) % n
        for m in ordered(hand, best):
            hand.remove(m)
            if cur == 0 or beats(m, best, trump):
                nb, ns = m, seat
            else:
                nb, ns = best, best_seat
            np = pot + PTS[m]
            if cur + 1 == n:
                t = ns % teams
                eaten[t] += np
                w = node(ns, 0, -1, -1, 0, a, b)
                eaten[t] -= np
            else:
                w = node(nxt, cur + 1, nb, ns, np, a, b)
            hand.append(m)
            if maxing:
                if w > v:
                    v = w
                if v > a:
                    a = v
            else:
                if w < v:
                    v = w
                if v < b:
                    b = v
            if a >= b:
                break
        if key is not None:
            flag = 0
            if v <= a0:
                flag = -1  # an upper bound
            elif v >= b0:
                flag = 1  # a lower bound
            table[key] = (v, flag)
        return v

    seat = sim.to_act
    cur = len(sim.current)
    best, best_seat = (sim.best, sim.best_seat) if cur else (-1, -1)
    values: dict[int, float] = {}
    maxing = seat % teams == team
    bound = -9.0
    for m in sorted(set(hands[seat]), key=lambda c: cheap_key(c, trump)):
        hand = hands[seat]
        hand.remove(m)
        if cur == 0 or beats(m, best, trump):
            nb, ns = m, seat
        else:
            nb, ns = best, best_seat
        np = sim.trick_pts + PTS[m]
        lo = bound if (maxing and not need_all) else -9.0
        if cur + 1 == n:
            t = ns % teams
            eaten[t] += np
            values[m] = node(ns, 0, -1, -1, 0, lo, 9.0)
            eaten[t] -= np
        else:
            values[m] = node((seat + 1) % n, cur + 1, nb, ns, np, lo, 9.0)
        hand.append(m)
        bound = max(bound, values[m])
    return values


def solve_size(hand_sizes: Sequence[int], stock_left: int) -> float:
    """A rough count of the plays an exact solve explores (product of hand-size factorials)."""
    if stock_left:
        return float("inf")
    size = 1.0
    for h in hand_sizes:
        for k in range(2, h + 1):
            size *= k
    return size
