"""Albastini's expert: a rule-based player written from how good players of the Briscola
family play (no duty to follow suit, a trump suit, a stock to draw from).

It sees what every player sees (``Deal.view(seat, history=True)``, read by the game's own
:func:`~albastini.games.albastini.ai.core.read_view`: its hand, the bids, the face-up card, and
every card played, so it counts what is still out) and nothing else.

* Bidding: the lowest zero-point card of the free suit it holds most of (should that suit
  turn up as trump, the indicator it takes is worth at least as much), else pass.
* Leading: a *liscio* (a card worth nothing) of a plain suit, the suit whose Ace and Seven
  are gone or in its own hand first; then the cheapest plain card; a trump only when it
  holds nothing else, or draws the last trumps with a master trump once the stock is out.
* Following, the other side ahead: take a rich round (an Ace or a Seven in it) with a higher
  card of the suit led, else with its smallest trump; take a modest round (a King, Jack or
  Queen) with a higher plain card or a small trump it can spare; otherwise throw a liscio, and
  never load points onto the other side's round.
* Following, its own side ahead for sure (nobody left to play can beat the card): load it
  with the most points it can spare (a plain Ace or Seven first).
* Counting: a card is sure when no card that beats it is still unseen; with the stock empty
  it reads the endgame exactly, every card counted (as the normal player does).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from albastini.games.albastini.ai.core import Knowledge, read_view
from albastini.games.albastini.ai.heuristic import (
    ENDGAME_NODES,
    ENDGAME_SIZE,
    best_card,
    endgame_values,
    stock_empty,
)
from albastini.games.albastini.ai.sim import solve_size
from albastini.games.albastini.kernel import (
    CODES,
    POINTS,
    STRENGTH,
    SUIT,
    beats,
    play_order,
    winner_of,
)

RICH = 10  # an Ace or a Seven in the round


def code_of(card: int, bid: bool = False) -> str:
    """The action code of playing (or bidding) ``card``."""
    return f"{'bid' if bid else 'play'}:{CODES[card]}"


class ExpertPlayer:
    """The expert rule player of Albastini (see the module's docstring)."""

    level = "expert"

    def __init__(self, seed: int | None = None) -> None:
        """A player; ``seed`` is kept for the arena (it makes no random choice)."""
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any]) -> str:
        """The code to play: a legal code of ``view``."""
        legal = [str(c) for c in view.get("legal") or ()]
        if not legal:
            raise ValueError("It is not this seat's turn: the view lists no legal action")
        if len(legal) == 1:
            return legal[0]
        k = read_view(dict(view))
        code = self.bid(k, legal) if k.phase == "bidding" else code_of(self.card(k))
        if code not in legal:  # a safety net: never return an illegal action
            raise AssertionError(f"expert chose {code}, not in {legal}")
        return code

    # ----------------------------------------------------------------- bidding
    def bid(self, k: Knowledge, legal: list[str]) -> str:
        """The lowest zero-point card of the free suit it holds most of, else pass."""
        best: tuple[int, int, int] | None = None
        for c in k.hand:
            if POINTS[c] or STRENGTH[c] > 2 or SUIT[c] in k.taken_suits:
                continue
            held = sum(1 for d in k.hand if SUIT[d] == SUIT[c])
            key = (held, -STRENGTH[c], c)
            if code_of(c, bid=True) in legal and (best is None or key > best):
                best = key
        return code_of(best[2], bid=True) if best else "pass"

    # ----------------------------------------------------------------- counting
    def out(self, k: Knowledge) -> list[int]:
        """Cards that another player may still hold (unknown, or known in another hand)."""
        cards = list(k.unknown)
        for s in range(k.players):
            if s != k.seat:
                cards += k.known[s]
        return cards

    def sure(self, k: Knowledge, card: int, after: list[int]) -> bool:
        """Whether ``card``, winning the round now, stays the winner: no opponent still to
        play can hold a card that beats it."""
        if not any(s % k.teams != k.team for s in after):
            return True
        return not any(beats(c, card, k.trump) for c in self.out(k))

    # ----------------------------------------------------------------- play
    def card(self, k: Knowledge) -> int:
        """The card to play: once the stock is out and the hands are small, the card that
        wins most with every card counted (the same exact endgame reading the normal player
        does: a counting expert knows every hand then); else by the rules."""
        if stock_empty(k) and solve_size(k.hand_sizes, 0) <= ENDGAME_SIZE:
            values = endgame_values(k, self.rng, 6, ENDGAME_NODES)
            if values:
                return best_card(values, k.trump)
        after = list(play_order(k.seat, k.players)[1 : k.players - len(k.current)])
        if not k.current:
            return self.lead(k, after)
        return self.follow(k, after)

    def liscio(self, k: Knowledge, cards: list[int]) -> int:
        """The cheapest card to give away: no points, not a trump, lowest."""
        return min(cards, key=lambda c: (SUIT[c] == k.trump, POINTS[c], STRENGTH[c]))

    def lead(self, k: Knowledge, after: list[int]) -> int:
        """Lead (see the module's docstring)."""
        trumps = [c for c in k.hand if SUIT[c] == k.trump]
        plain = [c for c in k.hand if SUIT[c] != k.trump]
        out = self.out(k)
        if not k.stock and trumps:
            # stock out: draw the last trumps with a sure trump, then cash sure cards
            sure = [c for c in k.hand if self.sure(k, c, after)]
            if sure:
                return max(sure, key=lambda c: (POINTS[c], STRENGTH[c]))
        if not plain:
            return min(trumps, key=lambda c: (POINTS[c], STRENGTH[c]))

        def safe_suit(c: int) -> int:
            # how many unseen cards of the suit beat it (its Ace and Seven gone is safer)
            return sum(1 for d in out if SUIT[d] == SUIT[c] and STRENGTH[d] > STRENGTH[c])

        lisci = [c for c in plain if POINTS[c] == 0]
        if lisci:
            return min(lisci, key=lambda c: (STRENGTH[c], safe_suit(c)))
        return min(plain, key=lambda c: (POINTS[c], STRENGTH[c]))

    def follow(self, k: Knowledge, after: list[int]) -> int:
        """Follow (see the module's docstring)."""
        best_seat, best = winner_of(k.current, k.trump)
        pot = sum(POINTS[c] for _, c in k.current)
        if best_seat % k.teams == k.team:
            if self.sure(k, best, after):
                spare = [c for c in k.hand if SUIT[c] != k.trump] or k.hand
                return max(spare, key=lambda c: (POINTS[c], -STRENGTH[c]))
            return self.liscio(k, k.hand)
        winners = [c for c in k.hand if beats(c, best, k.trump)]
        sure = [c for c in winners if self.sure(k, c, after)]
        plain = [c for c in sure if SUIT[c] != k.trump]
        trumps = [c for c in sure if SUIT[c] == k.trump]
        n_trumps = sum(1 for c in k.hand if SUIT[c] == k.trump)
        if plain:
            # a higher card of the suit led: always worth it (its points come back too)
            return max(plain, key=lambda c: (POINTS[c], STRENGTH[c])) if pot else min(
                plain, key=lambda c: (POINTS[c], STRENGTH[c]))
        if trumps:
            small = min(trumps, key=lambda c: (POINTS[c], STRENGTH[c]))
            if pot >= RICH or (not k.stock and pot > 0):
                return small
            if pot >= 2 and POINTS[small] == 0 and (n_trumps >= 2 or not k.stock):
                return small
        return self.liscio(k, k.hand)
