"""An exact (double-dummy) solver for the last tricks of a Twenty-Eight deal, every hand known.

The hard player's one step of search over rollouts (:meth:`.search.SearchPlayer.evaluate`)
leaves every later card to the rollout policy; when few tricks remain, this module plays them
perfectly instead in each sampled world, as bridge programs do (GIB's PIMC with a
double-dummy solver). It works on bitmasks (a hand is an int with bit ``c`` set for card int
``c``), searches by alpha-beta over the cards with a transposition table at trick starts and
plays one card of each run of equivalent cards (same hand, same points, nothing still in play
between them). The value is the bidding side's card points from here to the end: the side
that maximizes its points also makes the contract whenever it can be made, so the contract's
fate and the points follow from the one number.

Only positions whose trump is exposed are solved (the face-down card's calls and leads have
rules of their own); :func:`solvable` says which; a Thani (every trick, not points) is left
to the rollouts too.
"""

from __future__ import annotations

from .. import kernel as K
from .core import side_of

__all__ = ["EndgameSolver", "solvable", "tricks_left"]

_N_CARDS = len(K.POINTS)
#: ``SUIT_MASK[s]``: the bits of suit ``s``.
SUIT_MASK: tuple[int, ...] = tuple(
    sum(1 << c for c in range(_N_CARDS) if K.SUIT[c] == s) for s in range(4)
)
#: ``RUN_CARDS[suit][bits]``: the card ints of a suit's 9-bit pattern, strongest first (a
#: lower int is a stronger card within its suit).
RUN_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(s * 9 + r for r in range(9) if bits >> r & 1) for bits in range(512))
    for s in range(4)
)


def tricks_left(st: K.State) -> int:
    """Tricks not yet complete, the one in progress included."""
    return st.total_tricks - len(st.tricks)


def solvable(st: K.State) -> bool:
    """Whether :class:`EndgameSolver` can play ``st`` out: phase playing, the trump exposed
    (so every remaining trick is played under its power) and no Thani."""
    return st.phase == K.PLAYING and not st.face_down and st.exposed_in >= 0 and not st.thani


class EndgameSolver:
    """Exact values of one position's actions (a sampled world): build it on a
    :func:`solvable` state and ask :meth:`values`. Its transposition table lives as long as
    the solver, so the actions of one world share it."""

    __slots__ = ("hands", "keys", "leader", "maximizer", "n", "nodes", "table", "trick")

    def __init__(self, st: K.State) -> None:
        if not solvable(st):
            raise ValueError("only a playing state with the trump exposed and no Thani")
        self.n = st.n
        self.keys = K.WIN_KEY[st.trump]
        self.hands = [sum(1 << c for suit in h for c in suit) for h in st.hands]
        self.maximizer = [side_of(st, s) == 0 for s in range(st.n)]
        self.leader = st.leader
        self.trick = [c for _, c in st.trick]
        self.table: dict[tuple[int, tuple[int, ...]], tuple[int, int]] = {}
        self.nodes = 0

    def values(self, actions: list[int], need: int | None = None) -> list[int]:
        """For each card of the player to act, the bidding side's card points from here to
        the end (the trick in progress included) when everyone then plays perfectly; with
        ``need`` (the points the bidding side still needs), only whether it gets them: 1 or
        0 (a null-window search, several times cheaper)."""
        seat = (self.leader + len(self.trick)) % self.n
        out = []
        for card in actions:
            self.hands[seat] ^= 1 << card
            self.trick.append(card)
            if need is None:
                out.append(self._ab(self.leader, -1, 99))
            else:
                out.append(int(self._ab(self.leader, need - 1, need) >= need))
            self.trick.pop()
            self.hands[seat] |= 1 << card
        return out

    def _moves(self, seat: int, led: int) -> list[int]:
        """The cards ``seat`` may play (following ``led``, -1 when leading), one of each run
        of equivalent cards, the strongest of each suit first."""
        h = self.hands[seat]
        if led >= 0 and h & SUIT_MASK[led]:
            h &= SUIT_MASK[led]
        alive = 0
        for m in self.hands:
            alive |= m
        for c in self.trick:
            alive |= 1 << c
        points = K.POINTS
        out: list[int] = []
        for s in range(4):
            bits = h >> (9 * s) & 511
            if not bits:
                continue
            prev = -1
            for c in RUN_CARDS[s][bits]:
                # a card next to the last one kept (nothing still in play between them) with
                # the same points wins and loses exactly the same tricks: skip it
                if prev >= 0 and points[c] == points[prev] and not (
                    alive >> (prev + 1) & ((1 << (c - prev - 1)) - 1)
                ):
                    prev = c
                    continue
                out.append(c)
                prev = c
        return out

    def _ab(self, leader: int, alpha: int, beta: int) -> int:
        """The bidding side's points from here with the trick ``self.trick`` led by
        ``leader``: exact when strictly inside (``alpha``, ``beta``), else a bound on the
        side of the window it fell (fail-soft alpha-beta)."""
        trick = self.trick
        n = self.n
        k = len(trick)
        hands = self.hands
        if k == n:
            keys = self.keys[K.SUIT[trick[0]]]
            best, top, pts = 0, keys[trick[0]], 0
            for i in range(n):
                c = trick[i]
                pts += K.POINTS[c]
                if keys[c] > top:
                    best, top = i, keys[c]
            winner = (leader + best) % n
            gain = pts if self.maximizer[winner] else 0
            if not hands[winner]:
                return gain
            saved = self.trick
            self.trick = []
            v = gain + self._ab(winner, alpha - gain, beta - gain)
            self.trick = saved
            return v
        self.nodes += 1
        key: tuple[int, tuple[int, ...]] = (0, ())
        if k == 0:
            key = (leader, tuple(hands))
            hit = self.table.get(key)
            if hit is not None:
                lo, hi = hit
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                alpha, beta = max(alpha, lo), min(beta, hi)
            if hands[leader] & (hands[leader] - 1) == 0:  # one card each: the play is forced
                return self._last(leader)
        seat = (leader + k) % n
        led = K.SUIT[trick[0]] if k else -1
        moves = self._moves(seat, led)
        maxi = self.maximizer[seat]
        a0, b0 = alpha, beta
        best = -1 if maxi else 999
        for c in moves:
            bit_of = 1 << c
            hands[seat] ^= bit_of
            trick.append(c)
            v = self._ab(leader, alpha, beta)
            trick.pop()
            hands[seat] |= bit_of
            if maxi:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if k == 0:
            lo, hi = self.table.get(key, (0, 999))
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.table[key] = (lo, hi)
        return best

    def _last(self, leader: int) -> int:
        """The last trick, every hand one card: no choice left."""
        n = self.n
        cards = [self.hands[(leader + i) % n].bit_length() - 1 for i in range(n)]
        keys = self.keys[K.SUIT[cards[0]]]
        best, top, pts = 0, keys[cards[0]], 0
        for i in range(n):
            c = cards[i]
            pts += K.POINTS[c]
            if keys[c] > top:
                best, top = i, keys[c]
        return pts if self.maximizer[(leader + best) % n] else 0
