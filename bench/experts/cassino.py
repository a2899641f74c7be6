"""Cassino's expert: a rule-based player written from how good players play.

It sees what every player sees (``table_view(deal, seat)``: its hand, the table, the piles'
sizes, and the public history of plays, from which it counts every card each side has
captured) and nothing else.

Once the pack is dealt, a counting player knows where the unseen cards are: heads-up every
one is in the other hand, so from the last round's first card the expert plays the rest of
the deal exactly (:mod:`albastini.games.cassino.ai.endgame`, which the search player uses
too: minimax, alpha-beta, over :mod:`albastini.games.cassino.kernel`'s rules:
who wins the deal first, then the points' margin, the last capture taking the table). With
three players it does the same once at most eight cards are left in the hands (four pairs:
seven), over every placement of the unseen cards among the other hands (at most 100),
choosing the play with the best mean. The rules below rank the plays before that (and
order the search's ties).

Otherwise each legal play is valued, with no sampling, as a counting player values it:

* what it takes: Big Cassino (10♦) 2, Little Cassino (2♠) 1, an Ace 1, a sweep 1, and each
  card and spade its share of the three points for most cards and the point for most spades,
  worth more while the race is open and nothing once a side has a majority;
* a build: what the build will take when this player captures it with the card it holds,
  times the chance that nobody before its next turn holds its value (a build whose other
  cards of the value are all seen is protected), less the loss when one does;
* what it leaves: for every card value (and face rank) the next opponent may hold, the best
  capture (and sweep) it would find on the table left, weighted by the chance that it holds
  the best of them — so it denies sweeps and does not set up the 10♦ or the 2♠;
* it keeps a card that can take a build of its own, and in the last round (before the
  exact play) values being the last to capture (the cards left on the table go to that side).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from albastini.games.cassino import kernel as K
from albastini.games.cassino.ai.core import (
    Knowledge,
    action_of,
    after,
    card_key,
    chance_held,
    read_view,
)
from albastini.games.cassino.ai.endgame import exact_choice
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
    #: In the last round, what a capture's chance to take the cards left at the end is worth.
    LEFTOVER = 0.3

    #: Solve the last round exactly once the pack is dealt: heads-up from its first card
    #: (every unseen card is in the other hand); with more players over every placement of
    #: the unseen cards, once at most PLIES[players] cards are left in hands and WORLDS
    #: placements.
    EXACT = 1
    PLIES: Mapping[int, int] = {3: 8, 4: 7}
    WORLDS = 100

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        k = read_view(view)
        piles = k.piles or [[] for _ in range(k.n_teams)]
        worth = Worth(piles, self.CARD, self.SPADE)
        ranked = sorted(legal, key=lambda code: (self.score(k, worth, action_of(code)), code),
                        reverse=True)
        exact = exact_choice(k, ranked, self.PLIES, self.WORLDS) if self.EXACT else None
        return exact or ranked[0]

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

    @staticmethod
    def takes(worth: Worth, table: Sequence[K.Item]) -> dict[int, float]:
        """For each :func:`card_key` (a value, or a face rank), the most one capture with such
        a card takes from ``table`` (a sweep included); keys that take nothing left out."""
        out: dict[int, float] = {}
        if not table:
            return out
        summ = K.summables(table)
        full = (1 << len(table)) - 1
        for v in range(1, 11):
            best = 0.0
            for m in K.capture_sets(table, summ, v):
                take = sum(worth.sum(it[1]) for i, it in enumerate(table) if m >> i & 1)
                best = max(best, take + (SWEEP if m == full else 0.0))
            if best > 0:
                out[v] = best
        for r in range(10, 13):  # J Q K: take loose cards of their rank
            same = [it for it in table if it[2] == K.LOOSE and K.RANK[it[0]] == r]
            if same:
                out[-r - 1] = (sum(worth.sum(it[1]) for it in same)
                               + (SWEEP if len(same) == len(table) else 0.0))
        return out

    def threat(self, k: Knowledge, worth: Worth, table: list[K.Item]) -> float:
        """What the next opponent expects to take from ``table``: for each value (and face
        rank) it may hold, its best capture there (a sweep included), weighted by the chance
        that this is the best card it holds."""
        if not table:
            return 0.0
        hand = k.hand_sizes[self.next_opponent(k)]
        if hand <= 0:
            return 0.0
        options = [(take, sum(1 for c in k.unseen if card_key(c) == key))
                   for key, take in self.takes(worth, table).items()]
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
                gain += self.LEFTOVER * self.leftover_share(k, table)
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
