"""Albastini's expert: the normal player's card counting, and what expert players add to it.

It sees what every player sees (``Deal.view(seat, history=True)``, read by the game's own
:func:`~albastini.games.albastini.ai.core.read_view`: its hand, the bids, the face-up card, and
every card played, so it counts what is still out) and nothing else.

What it shares with the normal player (imported from ``albastini.games.albastini.ai``, not
copied): the bid (a low zero-point card of the free suit with the best holding, else pass),
each card priced by the swing in card points of the round (the chance that nobody still to
play beats it, counted from the unseen cards and how many each hand may hold; a partner's
round it is sure to keep loaded with points; the points thrown on an opponent's round lost),
less what keeping a trump is worth (its points and a power that grows with its rank), and the
exact endgame once the stock is empty.

What it adds, each worth its measure against the normal player (bench/README.md, issue 29);
the first two are rules of good play kept in the game's AI package
(``albastini.games.albastini.ai.terms``, which hard's rollouts use too) and imported here:

* **Leading heads-up, the follower's safe bank.** The one follower plays last and sees the
  card led, so it banks any higher card of that suit for nothing; a plain card led is charged
  the points of the higher cards of its suit that the opponent may hold (each unseen one by
  the chance it is in that hand, each known one in full). Low cards of suits whose Ace and
  Seven are gone, or in its own hand, are the ones to lead.
* **The last draw's face-up trump.** At the last draw the face-up card (always a trump) goes
  to the seat on the right of the round's winner, an opponent of the winner with two sides:
  the side that loses the round gets it instead of an unseen card. Each card is charged, by
  the chance its side wins the round, the difference between what the face-up trump and an
  average unseen card are worth in hand.
* **A deeper exact endgame** with more than two players: it reads the endgame exactly from
  four cards a hand (the normal player from three), with a larger node budget.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from albastini.games.albastini.ai.core import Knowledge, cheap_key, read_view
from albastini.games.albastini.ai.heuristic import best_card, card_values, heuristic_bid
from albastini.games.albastini.ai.terms import deep_endgame, face_up_term, lead_term
from albastini.games.albastini.kernel import CODES


def code_of(card: int, bid: bool = False) -> str:
    """The action code of playing (or bidding) ``card``."""
    return f"{'bid' if bid else 'play'}:{CODES[card]}"


class ExpertPlayer:
    """The expert player of Albastini (see the module's docstring)."""

    level = "expert"

    def __init__(self, seed: int | None = None) -> None:
        """A player; ``seed`` seeds the placements of unseen cards it reads in the endgame."""
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
        if k.phase == "bidding":
            bid = heuristic_bid(k)
            code = "pass" if bid is None else code_of(bid, bid=True)
        else:
            code = code_of(self.card(k))
        if code not in legal:  # a safety net: never return an illegal action
            raise AssertionError(f"expert chose {code}, not in {legal}")
        return code

    def card(self, k: Knowledge) -> int:
        """The card to play: the exact endgame once the stock is out and it is small enough,
        else the best of the normal player's values with the expert's terms added."""
        values = deep_endgame(k, self.rng)
        if values:
            return best_card(values, k.trump)
        values = card_values(k)
        face_up_term(k, values)
        lead_term(k, values)
        return min(values, key=lambda c: (-values[c], cheap_key(c, k.trump)))
