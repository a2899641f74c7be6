"""The end of a Cassino deal played exactly, once the pack is dealt.

Then a counting player knows where the unseen cards are: heads-up every one is in the other
hand, so the rest of the deal is a game of perfect information; with more players they lie
among the other hands in a few ways (:func:`worlds`). :class:`Endgame` plays one placement
out by minimax (alpha-beta) over the kernel's rules, valuing a finished deal by who won it
first, then the points' margin, the cards left on the table going to the last capturer;
:func:`exact_choice` is the play that minimax values most, averaged over the placements.
Bench/experts/cassino.py's expert and the search player (``hard``) both end a deal so.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence

from .. import kernel as K
from .core import Knowledge, action_of, after


def card_points(card: int) -> int:
    """The points a card scores on its own: 10♦ 2, 2♠ 1, an Ace 1."""
    return 2 if card == K.TEN_D else 1 if card == K.TWO_S or K.RANK[card] == 0 else 0


def worlds(k: Knowledge, most: int) -> list[tuple[tuple[int, ...], ...]]:
    """Every way the unseen cards may lie in the other hands once the pack is dealt (each
    seat's hand sorted, this seat's own as it is), or [] when there are more than ``most``
    or the pack is not dealt yet. Heads-up there is one: the other hand is the unseen cards."""
    if k.pack or len(k.piles) != k.n_teams:
        return []
    others = [s for s in range(k.players) if s != k.seat]
    if len(k.unseen) != sum(k.hand_sizes[s] for s in others):
        return []
    count = math.factorial(len(k.unseen))
    for s in others:
        count //= math.factorial(k.hand_sizes[s])
    if count > most:
        return []
    out: list[tuple[tuple[int, ...], ...]] = []

    def deal(i: int, left: tuple[int, ...], hands: list[tuple[int, ...]]) -> None:
        if i == len(others):
            full = [tuple(sorted(k.hand))] * k.players
            for s, h in zip(others, hands, strict=True):
                full[s] = h
            out.append(tuple(full))
            return
        for hand in itertools.combinations(left, k.hand_sizes[others[i]]):
            deal(i + 1, tuple(c for c in left if c not in hand), [*hands, hand])

    deal(0, tuple(sorted(k.unseen)), [])
    return out


class Endgame:
    """The rest of the deal played out exactly once the pack is dealt, in one placement of
    the unseen cards (``hands``; heads-up the only one): each play is valued by minimax
    (alpha-beta) over the rest of the deal, this seat's side maximising and the others
    minimising, as a counting player reads it. The value of a finished deal is who won it
    (100 a deal won, -100 lost, 0 a tie for the top), then the points' margin over the best
    other side; the cards left on the table go to the last capturer."""

    def __init__(self, k: Knowledge, hands: tuple[tuple[int, ...], ...]) -> None:
        self.n = k.players
        self.nt = k.n_teams
        self.team = k.team_of(k.seat)
        self.seat = k.seat
        self.dealer = k.dealer
        self.hands = hands
        self.table = list(k.table)
        self.last = k.last_capturer
        nt = self.nt
        # per team: cards [0, nt), spades [nt, 2 nt), points [2 nt, 3 nt) (cassinos, aces,
        # sweeps)
        tally = [0] * (3 * nt)
        for t in range(nt):
            tally[t] = len(k.piles[t])
            tally[nt + t] = sum(1 for c in k.piles[t] if c % 4 == K.SPADE)
            tally[2 * nt + t] = sum(card_points(c) for c in k.piles[t]) + k.sweeps[t]
        self.tally = tuple(tally)
        self.nodes = 0

    def best(self, ranked: Sequence[str]) -> str:
        """The code of ``ranked`` (best first by the rules) that minimax values most: the
        first of equal values."""
        best, alpha = ranked[0], -1e9
        for code in ranked:
            v = self.after_play(action_of(code), alpha, 1e9)
            if v > alpha:
                best, alpha = code, v
        return best

    def after_play(self, action: K.Action, alpha: float = -1e9, beta: float = 1e9) -> float:
        """The minimax value of this seat playing ``action`` now (exact inside the window)."""
        return self.play(self.table, self.hands, self.seat, self.tally, self.last, action,
                         alpha, beta)

    def final(self, table: Sequence[K.Item], tally: tuple[int, ...], last: int) -> float:
        """The value of the finished deal for this seat: the leftover to the last capturer."""
        nt = self.nt
        t = list(tally)
        taker = (last if last >= 0 else self.dealer) % nt
        for it in table:
            for c in it[1]:
                t[taker] += 1
                t[nt + taker] += c % 4 == K.SPADE
                t[2 * nt + taker] += card_points(c)
        pts = t[2 * nt:]
        for base, bonus in ((0, 3), (nt, 1)):  # most cards, most spades: strictly
            counts = t[base:base + nt]
            top = max(counts)
            if counts.count(top) == 1:
                pts[counts.index(top)] += bonus
        diff = pts[self.team] - max(p for i, p in enumerate(pts) if i != self.team)
        return diff + (100.0 if diff > 0 else -100.0 if diff < 0 else 0.0)

    def play(self, table: Sequence[K.Item], hands: tuple[tuple[int, ...], ...], seat: int,
             tally: tuple[int, ...], last: int, action: K.Action, alpha: float,
             beta: float) -> float:
        """The minimax value after ``seat`` plays ``action``."""
        self.nodes += 1
        rest, taken = after(table, action, seat)
        hand = list(hands[seat])
        hand.remove(action[1])
        new = (*hands[:seat], tuple(hand), *hands[seat + 1:])
        if action[0] == K.CAPTURE:
            nt = self.nt
            team = seat % nt
            t = list(tally)
            t[team] += len(taken)
            t[nt + team] += sum(1 for c in taken if c % 4 == K.SPADE)
            t[2 * nt + team] += sum(card_points(c) for c in taken) + (0 if rest else 1)
            tally, last = tuple(t), seat
        if not any(new):
            return self.final(rest, tally, last)
        return self.value(rest, new, (seat + 1) % self.n, tally, last, alpha, beta)

    def value(self, table: Sequence[K.Item], hands: tuple[tuple[int, ...], ...], seat: int,
              tally: tuple[int, ...], last: int, alpha: float, beta: float) -> float:
        """The minimax value with ``seat`` to play (alpha-beta)."""
        actions = K.legal_actions(table, hands[seat], seat)
        # captures first, the larger first: they cut the search soonest
        actions.sort(key=lambda a: (a[0] != K.CAPTURE, -len(a[3])))
        if seat % self.nt == self.team:
            for a in actions:
                alpha = max(alpha, self.play(table, hands, seat, tally, last, a, alpha, beta))
                if alpha >= beta:
                    break
            return alpha
        for a in actions:
            beta = min(beta, self.play(table, hands, seat, tally, last, a, alpha, beta))
            if alpha >= beta:
                break
        return beta


def exact_choice(k: Knowledge, ranked: Sequence[str], plies: Mapping[int, int],
                 most: int) -> str | None:
    """The code of ``ranked`` (best first by some rule, which orders the ties) whose exact
    value is the most: heads-up from the first card after the pack is dealt (one placement
    of the unseen cards); with more players once at most ``plies[players]`` cards are left
    in the hands, averaged over every placement if there are at most ``most``. None when the
    end is not reached yet (or the view carries no history to count the piles from)."""
    if k.players == 2:
        placed = worlds(k, 1)
        return Endgame(k, placed[0]).best(ranked) if placed else None
    if sum(k.hand_sizes) > plies.get(k.players, 0):
        return None
    placed = worlds(k, most)
    if not placed:
        return None
    games = [Endgame(k, hands) for hands in placed]
    means = [sum(g.after_play(action_of(code)) for g in games) for code in ranked]
    return ranked[means.index(max(means))]
