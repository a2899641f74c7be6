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

The face-down trump card is played by the kernel's rules: a player void in the suit led may
call for it (the card joins the bidder's hand, its suit has power from that trick on, trumps
already in the trick included, and the caller must play a trump if it holds one), the bidder
may not lead a hidden trump while holding another suit, and its last card is the face-down
one. A Thani (every trick, not points) is left to the rollouts (:func:`solvable`).
"""

from __future__ import annotations

from collections.abc import Sequence

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
    """Whether :class:`EndgameSolver` can play ``st`` out: phase playing and no Thani."""
    return st.phase == K.PLAYING and not st.thani


class EndgameSolver:
    """Exact values of one position's actions (a sampled world): build it on a
    :func:`solvable` state and ask :meth:`values`. Its transposition table lives as long as
    the solver, so the actions of one world share it."""

    __slots__ = ("best", "bidder", "called", "fd_bit", "hands", "hidden", "keys", "leader",
                 "left", "maximizer", "n", "nodes", "table", "trick", "trump")

    def __init__(self, st: K.State) -> None:
        if not solvable(st):
            raise ValueError("only a playing state without a Thani")
        self.n = st.n
        self.trump = st.trump
        self.keys = K.WIN_KEY[st.trump]
        self.hands = [sum(1 << c for suit in h for c in suit) for h in st.hands]
        self.maximizer = [side_of(st, s) == 0 for s in range(st.n)]
        self.bidder = st.bidder
        self.hidden = st.face_down
        self.fd_bit = 1 << st.trump_card
        self.called = st.called
        self.leader = st.leader
        self.left = tricks_left(st)
        self.trick = [c for _, c in st.trick]
        self.table: dict[tuple[int, tuple[int, ...], bool], tuple[int, int]] = {}
        #: the best (or cutting) lead found in a position, tried first when it comes again
        self.best: dict[tuple[int, tuple[int, ...], bool], int] = {}
        self.nodes = 0

    def values(self, actions: list[int], need: int | None = None) -> list[int]:
        """For each action of the player to act (a card, or ``K.EXPOSE``), the bidding
        side's card points from here to the end (the trick in progress included) when
        everyone then plays perfectly; with ``need`` (the points the bidding side still
        needs), only whether it gets them: 1 or 0 (a null-window search, several times
        cheaper)."""
        lo, hi = (-1, 99) if need is None else (need - 1, need)
        out = []
        for action in actions:
            v = self._move(self.leader, action, lo, hi)
            out.append(v if need is None else int(v >= need))
        return out

    def _move(self, leader: int, action: int, alpha: int, beta: int) -> int:
        """The value after the player to act takes ``action``."""
        hands = self.hands
        if action == K.EXPOSE:
            self.hidden, self.called = False, True
            hands[self.bidder] |= self.fd_bit
            v = self._ab(leader, alpha, beta)
            hands[self.bidder] ^= self.fd_bit
            self.hidden, self.called = True, False
            return v
        seat = (leader + len(self.trick)) % self.n
        called = self.called
        self.called = False
        hands[seat] ^= 1 << action
        self.trick.append(action)
        v = self._ab(leader, alpha, beta)
        self.trick.pop()
        hands[seat] |= 1 << action
        self.called = called
        return v

    def _moves(self, seat: int, led: int) -> list[int]:
        """The actions of ``seat`` (following ``led``, -1 when leading) as the kernel's
        ``play_options`` gives them, one card of each run of equivalent cards, the strongest
        of each suit first."""
        h = self.hands[seat]
        expose = False
        if self.called:
            trumps = h & SUIT_MASK[self.trump]
            if trumps:
                h = trumps
        elif led >= 0:
            follow = h & SUIT_MASK[led]
            if follow:
                h = follow
            else:
                expose = self.hidden
        elif self.hidden and seat == self.bidder:  # no hidden trump led while others are held
            others = h & ~SUIT_MASK[self.trump]
            if others:
                h = others
        if not h:  # the bidder's last card is the face-down one
            return [K.EXPOSE]
        alive = self.fd_bit if self.hidden else 0
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
        if expose:
            out.append(K.EXPOSE)
        return out

    def _ab(self, leader: int, alpha: int, beta: int) -> int:
        """The bidding side's points from here with the trick ``self.trick`` led by
        ``leader``: exact when strictly inside (``alpha``, ``beta``), else a bound on the
        side of the window it fell (fail-soft alpha-beta)."""
        trick = self.trick
        n = self.n
        k = len(trick)
        if k == n:
            # a trick with the trump exposed in it or before is played under its power
            keys = K.WIN_KEY[K.NO_POWER if self.hidden else self.trump][K.SUIT[trick[0]]]
            best, pts = _taken(trick, keys)
            winner = (leader + best) % n
            gain = pts if self.maximizer[winner] else 0
            if self.left == 1:
                return gain
            saved = self.trick
            self.trick = []
            self.left -= 1
            v = gain + self._ab(winner, alpha - gain, beta - gain)
            self.left += 1
            self.trick = saved
            return v
        self.nodes += 1
        key: tuple[int, tuple[int, ...], bool] = (0, (), False)
        if k == 0:
            if self.left == 1:  # one card each: the play is forced
                return self._last(leader)
            key = (leader, tuple(self.hands), self.hidden)
            hit = self.table.get(key)
            if hit is not None:
                lo, hi = hit
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                alpha, beta = max(alpha, lo), min(beta, hi)
        seat = (leader + k) % n
        led = K.SUIT[trick[0]] if k else -1
        moves = self._moves(seat, led)
        maxi = self.maximizer[seat]
        if len(moves) > 1:
            # the likeliest best card first, so that alpha-beta cuts the rest early: the
            # lead that was best before in this position; following, the cheapest card that
            # takes the trick from the other side, or the most points onto a partner's trick
            # (a call for the trump stays last)
            if k == 0:
                first = self.best.get(key, -1)
                if first in moves:
                    moves.remove(first)
                    moves.insert(0, first)
            else:
                keys = K.WIN_KEY[K.NO_POWER if self.hidden else self.trump][led]
                top_i = 0
                for i in range(1, k):
                    if keys[trick[i]] > keys[trick[top_i]]:
                        top_i = i
                top = keys[trick[top_i]]
                points = K.POINTS
                call = moves[-1] == K.EXPOSE
                cards = moves[:-1] if call else moves
                if self.maximizer[(leader + top_i) % n] == maxi:
                    cards.sort(key=lambda c: -points[c])
                else:
                    cards.sort(key=lambda c: (0, keys[c]) if keys[c] > top else (1, points[c]))
                moves = [*cards, K.EXPOSE] if call else cards
        a0, b0 = alpha, beta
        best = -1 if maxi else 999
        best_move = moves[0]
        for c in moves:
            v = self._move(leader, c, alpha, beta)
            if maxi:
                if v > best:
                    best, best_move = v, c
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_move = v, c
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
            self.best[key] = best_move
        return best

    def _last(self, leader: int) -> int:
        """The last trick, every hand one card (the hidden bidder's: the face-down one, shown
        in this trick, so the trump has power in it in any case): no choice left."""
        n = self.n
        cards = []
        for i in range(n):
            h = self.hands[(leader + i) % n] or self.fd_bit
            cards.append(h.bit_length() - 1)
        best, pts = _taken(cards, self.keys[K.SUIT[cards[0]]])
        return pts if self.maximizer[(leader + best) % n] else 0


def _taken(trick: list[int], keys: Sequence[int]) -> tuple[int, int]:
    """Which card of a whole ``trick`` (its place in the trick) takes it, by the winning
    ``keys`` of the suit led under the trick's trump, and the trick's card points."""
    best, top, pts = 0, keys[trick[0]], 0
    for i, c in enumerate(trick):
        pts += K.POINTS[c]
        if keys[c] > top:
            best, top = i, keys[c]
    return best, pts
