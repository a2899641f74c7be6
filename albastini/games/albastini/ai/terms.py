"""Rules of good play that add to the normal player's pricing (``heuristic.card_values``).

The bench's expert (``bench/experts/albastini.py``) is normal's pricing plus these terms; the
search player (hard) plays the face-up rule, made certain on each sampled deal, in its
rollouts with partners (``sim.expert_rollout``, which keeps ``worth_in_hand`` as a table), and
heads-up starts from the expert's card (``expert_values``) at the root of its search. Each term
adds to a dict of card values, in card points.
"""

from __future__ import annotations

import random

from ..kernel import POINTS, STRENGTH, SUIT, beats, play_order, winner_of
from .core import Knowledge
from .heuristic import card_values, endgame_values, p_keep, stock_empty
from .sim import solve_size

#: Largest endgame (product of hand-size factorials) the expert reads exactly: four cards a
#: hand in 4 pairs (331,776), where the normal player's 30,000 starts at three. Measured:
#: 0.565 against normal (150 packs, seed 1) with the face-up rule, 0.512 with the rule alone.
DEEP_ENDGAME_SIZE = 400_000
#: Node budget of that endgame's search, all sampled placements together.
DEEP_ENDGAME_NODES = 200_000
#: Sampled placements of the unseen cards averaged in it (the normal player's).
DEEP_ENDGAME_SAMPLES = 6
#: Weight of the follower's safe bank on a lead heads-up (against normal, 150 packs, seed 1:
#: 0.3 gave 0.517, 1.0 0.552, 2.0 0.479; bench/README.md, issue 29).
LEAD_WEIGHT = 1.0
#: Weight of the face-up trump at the last draw (alone 0.509; with the lead rule 0.585).
FACE_UP_WEIGHT = 1.0


def worth_in_hand(k: Knowledge, card: int) -> float:
    """What holding ``card`` for the rest of the deal is worth, in card points: a trump its
    points and its power (as the normal player keeps trumps), a plain card half its points
    (it is as likely to be lost as banked)."""
    if SUIT[card] != k.trump:
        return 0.5 * POINTS[card]
    return POINTS[card] + 3.0 + 0.6 * STRENGTH[card]


def win_chance(k: Knowledge, card: int) -> float:
    """The chance that playing ``card`` leaves the round to this seat's side."""
    after = list(play_order(k.seat, k.players)[1 : k.players - len(k.current)])
    if k.current:
        best_seat, best = winner_of(k.current, k.trump)
        if not beats(card, best, k.trump):
            return p_keep(k, best, after) if best_seat % k.teams == k.team else 0.0
    return p_keep(k, card, after)


def face_up_term(k: Knowledge, values: dict[int, float], weight: float = FACE_UP_WEIGHT) -> None:
    """The last draw (two sides): the side losing the round draws the face-up trump, the
    winners an unseen card. Adds to each card's value its side's expected gain."""
    if k.teams != 2 or k.stock != k.players or k.face_up is None or not k.unknown:
        return
    face = worth_in_hand(k, k.face_up)
    hidden = sum(worth_in_hand(k, c) for c in k.unknown) / len(k.unknown)
    for c in values:
        p = win_chance(k, c)
        values[c] += weight * (2.0 * p - 1.0) * (hidden - face)


def lead_term(k: Knowledge, values: dict[int, float], weight: float = LEAD_WEIGHT) -> None:
    """Heads-up lead: charges a plain card the points of the higher cards of its suit that
    the follower, playing last and seeing the lead, may bank on it for nothing (each unseen
    one by the chance it is in that hand, each known one in full)."""
    if k.players != 2 or k.current:
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
        values[c] -= weight * cost


def deep_endgame(k: Knowledge, rng: random.Random) -> dict[int, float] | None:
    """The expert's exact endgame: each card's summed exact value over a few placements of the
    unseen cards once the stock is out, from four cards a hand with four players; None when
    the stock is not out, the endgame is larger, or the search runs past its node budget."""
    if not stock_empty(k) or solve_size(k.hand_sizes, 0) > DEEP_ENDGAME_SIZE:
        return None
    return endgame_values(k, rng, DEEP_ENDGAME_SAMPLES, DEEP_ENDGAME_NODES)


def expert_values(k: Knowledge) -> dict[int, float]:
    """The expert's value of each card in hand before the endgame: the normal player's pricing
    (``heuristic.card_values``) with the face-up and lead terms added."""
    values = card_values(k)
    face_up_term(k, values)
    lead_term(k, values)
    return values
