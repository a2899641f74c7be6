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

What it adds, each worth its measure against the normal player (bench/README.md, issue 29):

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
from albastini.games.albastini.ai.heuristic import (
    best_card,
    card_values,
    endgame_values,
    heuristic_bid,
    p_keep,
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

#: Largest endgame (product of hand-size factorials) read exactly: four cards a hand in
#: 4 pairs (331,776), where the normal player's 30,000 starts at three. Measured: 0.565
#: against normal (150 packs, seed 1) with the face-up rule, 0.512 with the rule alone.
ENDGAME_SIZE = 400_000
#: Node budget of that endgame's search, all sampled placements together.
ENDGAME_NODES = 200_000
#: Sampled placements of the unseen cards averaged in the endgame (the normal player's).
ENDGAME_SAMPLES = 6
#: Weight of the follower's safe bank on a lead heads-up (0.3 gave 0.517, 1.0 0.552, 2.0
#: 0.479 against normal, 150 packs, seed 1).
LEAD_WEIGHT = 1.0
#: Weight of the face-up trump at the last draw (alone 0.509; with the lead rule 0.585).
FACE_UP_WEIGHT = 1.0


def code_of(card: int, bid: bool = False) -> str:
    """The action code of playing (or bidding) ``card``."""
    return f"{'bid' if bid else 'play'}:{CODES[card]}"


def worth_in_hand(k: Knowledge, card: int) -> float:
    """What holding ``card`` for the rest of the deal is worth, in card points: a trump its
    points and its power (as the normal player keeps trumps), a plain card half its points
    (it is as likely to be lost as banked)."""
    if SUIT[card] != k.trump:
        return 0.5 * POINTS[card]
    return POINTS[card] + 3.0 + 0.6 * STRENGTH[card]


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
        if stock_empty(k) and solve_size(k.hand_sizes, 0) <= ENDGAME_SIZE:
            values = endgame_values(k, self.rng, ENDGAME_SAMPLES, ENDGAME_NODES)
            if values:
                return best_card(values, k.trump)
        values = card_values(k)
        self.face_up_term(k, values)
        if not k.current:
            self.lead_term(k, values)
        return min(values, key=lambda c: (-values[c], cheap_key(c, k.trump)))

    def after(self, k: Knowledge) -> list[int]:
        """The seats still to play in this round, in order."""
        return list(play_order(k.seat, k.players)[1 : k.players - len(k.current)])

    def win_chance(self, k: Knowledge, card: int) -> float:
        """The chance that playing ``card`` leaves the round to this seat's side."""
        after = self.after(k)
        if k.current:
            best_seat, best = winner_of(k.current, k.trump)
            if not beats(card, best, k.trump):
                return p_keep(k, best, after) if best_seat % k.teams == k.team else 0.0
        return p_keep(k, card, after)

    def face_up_term(self, k: Knowledge, values: dict[int, float]) -> None:
        """The last draw (two sides): the side losing the round draws the face-up trump, the
        winners an unseen card. Adds to each card's value its side's expected gain."""
        if k.teams != 2 or k.stock != k.players or k.face_up is None or not k.unknown:
            return
        face = worth_in_hand(k, k.face_up)
        hidden = sum(worth_in_hand(k, c) for c in k.unknown) / len(k.unknown)
        for c in values:
            p = self.win_chance(k, c)
            values[c] += FACE_UP_WEIGHT * (2.0 * p - 1.0) * (hidden - face)

    def lead_term(self, k: Knowledge, values: dict[int, float]) -> None:
        """Heads-up lead: charges a plain card the points of the higher cards of its suit
        that the follower, playing last, may bank on it."""
        if k.players != 2:
            return
        opp = 1 - k.seat
        share = k.slots[opp] / len(k.unknown) if k.unknown else 0.0
        for c in values:
            if SUIT[c] == k.trump:
                continue
            higher = [d for d in k.unknown if SUIT[d] == SUIT[c] and STRENGTH[d] > STRENGTH[c]]
            cost = share * sum(POINTS[d] for d in higher)
            cost += sum(
                POINTS[d] for d in k.known[opp] if SUIT[d] == SUIT[c] and STRENGTH[d] > STRENGTH[c]
            )
            values[c] -= LEAD_WEIGHT * cost
