"""Cassino's expert: a rule-based player written from how good players play.

It sees what every player sees (``table_view(deal, seat)``: its hand, the table, the piles'
sizes, and the public history of plays, from which it counts every card each side has
captured) and nothing else.

Each legal play is valued, with no sampling, as a counting player values it:

* what it takes: Big Cassino (10♦) 2, Little Cassino (2♠) 1, an Ace 1, a sweep 1, and each
  card and spade its share of the three points for most cards and the point for most spades,
  worth more while the race is open and nothing once a side has a majority;
* a build: what the build will take when this player captures it with the card it holds,
  times the chance that nobody before its next turn holds its value (a build whose other
  cards of the value are all seen is protected), less the loss when one does;
* what it leaves: for every card value (and face rank) the next opponent may hold, the best
  capture (and sweep) it would find on the table left, weighted by the chance that it holds
  the best of them — so it denies sweeps and does not set up the 10♦ or the 2♠;
* it keeps a card that can take a build of its own, and at the end of the deal values being
  the last to capture (the cards left on the table go to that side).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from albastini.games.cassino import kernel as K
from albastini.games.cassino.ai.core import Knowledge, action_of, after, chance_held, read_view
from albastini.games.players import CodeChooser

#: The points of the cards that score alone.
BIG, LITTLE, ACE, SWEEP = 2.0, 1.0, 1.0, 1.0


class Worth:
    """What capturing each card is worth to a side now: its own points, and its share of the
    majorities still open."""

    def __init__(self, piles: Sequence[Sequence[int]], card: float, spade: float) -> None:
        cards = [len(p) for p in piles]
        spades = [sum(1 for c in p if c % 4 == K.SPADE) for p in piles]
        # a majority is settled once a side holds more than half of all the cards (spades)
        self.card = 0.0 if max(cards) > 26 else card
        self.spade = 0.0 if max(spades) > 6 else spade
        self.table = [self.of(c) for c in range(52)]

    def of(self, card: int) -> float:
        """The worth of capturing ``card``."""
        w = self.card
        if card % 4 == K.SPADE:
            w += self.spade
        if card == K.TEN_D:
            w += BIG
        elif card == K.TWO_S:
            w += LITTLE
        if K.RANK[card] == 0:
            w += ACE
        return w

    def sum(self, cards: Sequence[int]) -> float:
        """The worth of a set of real cards."""
        return sum(self.table[c] for c in cards if c < 52)


def card_points(card: int) -> int:
    """The points a card scores on its own: 10♦ 2, 2♠ 1, an Ace 1."""
    return 2 if card == K.TEN_D else 1 if card == K.TWO_S or K.RANK[card] == 0 else 0


def solvable(k: Knowledge) -> bool:
    """Whether the rest of the deal is open to ``k``'s seat: heads-up with the pack dealt,
    every unseen card is in the other hand (and the piles are known from the history)."""
    return (k.players == 2 and k.pack == 0 and len(k.piles) == 2
            and len(k.unseen) == k.hand_sizes[1 - k.seat])


class Endgame:
    """The last round heads-up played out exactly: every card is known once the pack is
    dealt (the unseen ones are the other hand), so each play is valued by minimax (alpha-beta)
    over the rest of the deal, as a counting player reads it. The value of a finished deal
    is who won it (100 a deal won, -100 lost), then the points' margin; the cards left on
    the table go to the last capturer."""

    def __init__(self, k: Knowledge) -> None:
        self.me = k.seat
        self.dealer = k.dealer
        hands = [list(k.hand), list(k.unseen)] if k.seat == 0 else [list(k.unseen), list(k.hand)]
        self.hands = (tuple(sorted(hands[0])), tuple(sorted(hands[1])))
        self.table = list(k.table)
        self.last = k.last_capturer
        tally = [0] * 6  # cards 0, 1; spades 0, 1; points 0, 1 (cassinos, aces, sweeps)
        for t in range(2):
            tally[t] = len(k.piles[t])
            tally[2 + t] = sum(1 for c in k.piles[t] if c % 4 == K.SPADE)
            tally[4 + t] = sum(card_points(c) for c in k.piles[t]) + k.sweeps[t]
        self.tally = tuple(tally)
        self.nodes = 0

    def best(self, ranked: Sequence[str]) -> str:
        """The code of ``ranked`` (best first by the rules) that minimax values most: the
        first of equal values."""
        best, alpha = ranked[0], -1e9
        for code in ranked:
            v = self.play(self.table, self.hands, self.me, self.tally, self.last,
                          action_of(code), alpha, 1e9)
            if v > alpha:
                best, alpha = code, v
        return best

    def final(self, table: Sequence[K.Item], tally: tuple[int, ...], last: int) -> float:
        """The value of the finished deal for this seat: the leftover to the last capturer."""
        t = list(tally)
        taker = last if last >= 0 else self.dealer
        for it in table:
            for c in it[1]:
                t[taker] += 1
                t[2 + taker] += c % 4 == K.SPADE
                t[4 + taker] += card_points(c)
        pts = [t[4], t[5]]
        if t[0] != t[1]:
            pts[0 if t[0] > t[1] else 1] += 3
        if t[2] != t[3]:
            pts[0 if t[2] > t[3] else 1] += 1
        diff = pts[self.me] - pts[1 - self.me]
        return diff + (100.0 if diff > 0 else -100.0 if diff < 0 else 0.0)

    def play(self, table: Sequence[K.Item], hands: tuple[tuple[int, ...], ...], seat: int,
             tally: tuple[int, ...], last: int, action: K.Action, alpha: float,
             beta: float) -> float:
        """The minimax value after ``seat`` plays ``action``."""
        self.nodes += 1
        rest, taken = after(table, action, seat)
        hand = list(hands[seat])
        hand.remove(action[1])
        new = (tuple(hand), hands[1]) if seat == 0 else (hands[0], tuple(hand))
        if action[0] == K.CAPTURE:
            t = list(tally)
            t[seat] += len(taken)
            t[2 + seat] += sum(1 for c in taken if c % 4 == K.SPADE)
            t[4 + seat] += sum(card_points(c) for c in taken) + (0 if rest else 1)
            tally, last = tuple(t), seat
        if not new[0] and not new[1]:
            return self.final(rest, tally, last)
        return self.value(rest, new, 1 - seat, tally, last, alpha, beta)

    def value(self, table: Sequence[K.Item], hands: tuple[tuple[int, ...], ...], seat: int,
              tally: tuple[int, ...], last: int, alpha: float, beta: float) -> float:
        """The minimax value with ``seat`` to play (alpha-beta)."""
        actions = K.legal_actions(table, hands[seat], seat)
        # captures first, the larger first: they cut the search soonest
        actions.sort(key=lambda a: (a[0] != K.CAPTURE, -len(a[3])))
        if seat == self.me:
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


class ExpertPlayer(CodeChooser):
    """The expert rule player of Cassino (see the module's docstring)."""

    level = "expert"

    #: A captured card's share of the 3 points for most cards, a spade's of most spades.
    CARD = 0.15
    SPADE = 0.2
    #: What a trail costs (a card given to the table), and keeping a high card (per value).
    TRAIL = 0.05
    KEEP = 0.01
    #: How much of the next player's expected take counts against a play.
    THREAT = 1.0

    #: Solve the last round exactly heads-up (every unseen card is in the other hand).
    EXACT = 1

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        k = read_view(view)
        piles = k.piles or [[] for _ in range(k.n_teams)]
        worth = Worth(piles, self.CARD, self.SPADE)
        ranked = sorted(legal, key=lambda code: (self.score(k, worth, action_of(code)), code),
                        reverse=True)
        if self.EXACT and solvable(k):
            return Endgame(k).best(ranked)
        return ranked[0]

    # ----------------------------------------------------------------- pieces
    def next_opponent(self, k: Knowledge) -> int:
        """The seat that plays next (in every mode an opponent)."""
        return (k.seat + 1) % k.players

    def last_play(self, k: Knowledge) -> bool:
        """Whether this is the deal's last card."""
        return k.pack == 0 and sum(k.hand_sizes) == 1

    def holds(self, k: Knowledge, copies: int, cards: int) -> float:
        """The chance that ``cards`` unseen cards drawn include one of ``copies``."""
        return chance_held(len(k.unseen), copies, cards)

    def threat(self, k: Knowledge, worth: Worth, table: list[K.Item]) -> float:
        """What the next opponent expects to take from ``table``: for each value (and face
        rank) it may hold, its best capture there (a sweep included), weighted by the chance
        that this is the best card it holds."""
        if not table:
            return 0.0
        hand = k.hand_sizes[self.next_opponent(k)]
        if hand <= 0:
            return 0.0
        summ = K.summables(table)
        full = (1 << len(table)) - 1
        options: list[tuple[float, int]] = []  # (best take, unseen copies of that value)
        for v in range(1, 11):
            copies = sum(1 for c in k.unseen if K.VALUE[c] == v)
            if not copies:
                continue
            best = 0.0
            for m in K.capture_sets(table, summ, v):
                take = sum(worth.sum(it[1]) for i, it in enumerate(table) if m >> i & 1)
                if m == full:
                    take += SWEEP
                best = max(best, take)
            if best > 0:
                options.append((best, copies))
        for r in range(10, 13):  # J Q K: take loose cards of their rank
            cards = [(i, it) for i, it in enumerate(table)
                     if it[2] == K.LOOSE and K.RANK[it[0]] == r]
            if not cards:
                continue
            copies = sum(1 for c in k.unseen if K.RANK[c] == r)
            if not copies:
                continue
            take = sum(worth.sum(it[1]) for _, it in cards)
            if len(cards) == len(table):
                take += SWEEP
            options.append((take, copies))
        options.sort(reverse=True)
        expected, before, seen = 0.0, 0.0, 0
        for take, copies in options:
            seen += copies
            p = self.holds(k, seen, hand)
            expected += take * (p - before)
            before = p
        return expected

    def score(self, k: Knowledge, worth: Worth, action: K.Action) -> float:
        """The value of ``action`` for this seat's side (see the module's docstring)."""
        kind, card, _, _ = action
        table, taken = after(k.table, action, k.seat)
        gain = 0.0
        if kind == K.CAPTURE:
            gain += worth.sum(taken)
            if not table:
                gain += SWEEP
            if k.pack == 0:
                gain += 0.3 * self.leftover_share(k, table)
        elif kind == K.BUILD:
            # it takes the build with the card it holds, unless the next player takes it
            # first: that loss is in the threat of the table left
            build = next(it for it in table if it[4] == k.seat and card in it[1])
            gain += worth.sum(build[1]) + 0.1
        else:
            gain -= self.TRAIL  # a trail gives the other side a card to take
        if not self.last_play(k):
            gain -= self.THREAT * self.threat(k, worth, table)
        # a card that can take something later is worth keeping: spend low, plain cards
        gain -= self.KEEP * K.VALUE[card] + (0.3 if card in (K.TEN_D, K.TWO_S) and kind == K.TRAIL
                                        else 0.0)
        return gain

    def leftover_share(self, k: Knowledge, table: Sequence[K.Item]) -> float:
        """In the last round, the cards a capture now may win at the end (the last capturer
        takes what is left on the table)."""
        return sum(len(it[1]) for it in table) * 0.1
