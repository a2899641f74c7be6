"""Ass's expert: a rule-based player written from how a counting player plays.

It sees what every player sees (``table_view(deal, seat)``, read by the game's own
:func:`~albastini.games.ass.ai.core.read_view`: its hand, the trumps, the bets, the trick in
progress and every card played) and nothing else.

* Betting: "go" only with a hand that makes the lower target likely: eights (16 points, and
  they fall only to their Queen or King or another eight), Aces and Tens, own trumps (variant
  1) — a missed "go" costs a bank, and a "no" rarely loses one.
* Each card is valued by the trick it makes: when it would hold the trick, the chance that
  nobody still to play holds a card that takes it over (counted from the unseen cards by
  the rules of the trick, seat by seat), times what the trick is worth, less what it hands
  over otherwise; when it would not hold the trick, the points it gives to the holder (a
  Six, worth -1, is a good card to give; an eight, worth 16, the worst). A card that wins
  tricks later (a Six, an eight, a Ten or an Ace beats most of its suit) costs its power.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import comb
from typing import Any

from albastini.games.ass import kernel as K
from albastini.games.ass.ai.core import POWER, Knowledge, read_view
from albastini.games.players import CodeChooser

#: A hand's strength for the bet: points a card promises by rank (6 7 8 9 J Q K T A), and
#: the strength a "go" needs per player at the table (fitted on deals played by this player).
PROMISE = (0.0, 0.0, 14.0, 0.0, 1.0, 3.0, 5.0, 8.0, 10.0)
OWN_TRUMP = 4.0
GO_AT = {2: 48.0, 3: 44.0, 4: 40.0, 5: 36.0, 6: 34.0}
#: Points of trick a card's later power is worth.
POWER_WORTH = 8.0


class ExpertPlayer(CodeChooser):
    """The expert rule player of Ass (see the module's docstring)."""

    level = "expert"

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        k = read_view(view)
        if view["phase"] == "betting":
            return self.bet(k, legal)
        cards = [K.CODE_INT[c[5:]] for c in legal]
        return "play:" + K.CODES[max(cards, key=lambda c: (self.value(k, c), -c))]

    def bet(self, k: Knowledge, legal: list[str]) -> str:
        """"go" with a hand strong enough (see the module's docstring)."""
        strength = 0.0
        for c in k.hand:
            strength += PROMISE[c % 9]
            if k.levels[k.seat][c // 9] > 0 and c % 9 >= K.QUEEN:
                strength += OWN_TRUMP
        go = strength >= GO_AT.get(k.players, 30.0)
        return "go" if go and "go" in legal else "no"

    def takes_over(self, k: Knowledge, tr: K.Trick, seat: int) -> list[int]:
        """The unseen cards with which ``seat`` would take the trick ``tr`` over."""
        out = []
        for c in k.unseen:
            t2 = tr.copy()
            # assume it still holds the main suit: an eight of another suit then cannot
            # interrupt (a player is rarely void early)
            t2.play(seat, c, k.levels, k.main_levels, True)
            if t2.holder() == seat:
                out.append(c)
        return out

    def stands(self, k: Knowledge, tr: K.Trick, later: list[int]) -> float:
        """The chance that nobody in ``later`` holds a card that takes ``tr`` over."""
        pool = len(k.unseen)
        p = 1.0
        for s in later:
            held = k.hand_sizes[s]
            threats = len(self.takes_over(k, tr, s))
            if held <= 0 or threats <= 0 or pool <= 0:
                continue
            if pool - threats < held:
                return 0.0
            p *= comb(pool - threats, held) / comb(pool, held)
        return p

    def value(self, k: Knowledge, card: int) -> float:
        """What playing ``card`` is worth (see the module's docstring)."""
        n = k.players
        tr = k.trick.copy()
        holds = bool(tr.plays) and any(c // 9 == tr.main_suit for c in k.hand)
        tr.play(k.seat, card, k.levels, k.main_levels, holds)
        cards = [c for _, c in tr.plays]
        worth = K.trick_value(cards)
        later = [(k.seat + i) % n for i in range(1, n - len(cards) + 1)]
        cost = POWER_WORTH * POWER[card % 9]
        if tr.holder() != k.seat:
            # its points go to another player: a loss against each of them, shared
            return -worth / (n - 1) - cost * 0.5
        p = self.stands(k, tr, later)
        expected = worth + 2.0 * len(later)  # the others add a little when they cannot win
        return p * expected - (1 - p) * (worth / (n - 1)) - cost
