"""Heads-up inference: what the opponent's bid and follows say about the cards it holds.

The normal player and the expert bid and follow by the same pricing
(``heuristic.heuristic_bid`` and ``heuristic.card_values`` seen from the one follower, who
plays last and so knows the round's outcome of every card): a follower that threw a
zero-point card on a lead it could have taken with a higher card of the suit held no such
card, one that took with a King held no higher-pointed winner of the suit, a pass in the
bidding means no 3, 4 or 5 of any suit. Such a fact holds for the hand *at that time*; each
draw since may have brought one of those cards in. So each fact is a set of cards ``S`` and
the draws ``m`` since: at most ``m`` of ``S`` can be in the opponent's hand now, and a sampled
deal that has ``s`` of them there is as likely as ``s`` of the hand's cards all being among
the ``m`` drawn since (``weight``). :func:`sample_inferred` deals the hidden cards by
rejection with those weights, so a player that does not follow the rule (a person, another
program) costs only the samples its facts reject, never a deal that cannot be sampled.

Only heads-up and only while there is a stock (once it is out every card's place is known).
A plain card's value to a follower does not depend on its hand; a trump's does, through its
keeping value, which is bounded, so a trump is excluded only when even the bounds say so.
The round of the last draw is skipped (the expert then weighs the face-up trump there).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import comb
from typing import Any

from ..fast import FastDeal
from ..kernel import CARDS, CODES, HAND, POINTS, STRENGTH, SUIT, beats, card_int, draws
from .core import Knowledge, cheap_key, read_view
from .heuristic import card_values, sample_sim
from .terms import face_up_term, lead_term

#: A fact: (cards not in the opponent's hand at that time, draws it made since).
Fact = tuple[frozenset[int], int]
#: Sampled deals tried per accepted one before the best-weighted one is taken.
TRIES = 40
#: The weight of a sampled hand from which neither rule would have led the card led: not
#: 0, so an opponent that plays otherwise costs samples, not every deal but impossible ones.
MISFIT = 0.1


def draw_rounds(players: int) -> int:
    """How many rounds are followed by a draw (heads-up 13)."""
    stock = CARDS - HAND * players
    rounds = 0
    while draws(stock, players):
        stock -= players
        rounds += 1
    return rounds


def follow_value(card: int, lead: int, trump: int) -> float:
    """A plain card's value to the last (only) follower heads-up, by ``card_values``: the
    round's points won if it beats the lead, lost otherwise."""
    stake = POINTS[lead] + POINTS[card]
    return float(stake if beats(card, lead, trump) else -stake)


def follow_fact(k: Knowledge, lead: int, played: int) -> frozenset[int]:
    """The unseen cards the follower would have played instead of ``played`` on ``lead``
    (valued higher by its pricing, or equal and cheaper), so it did not hold them. A trump's
    value depends on the hand (its keeping value): ``played``'s is bounded above by its least
    keeping value (its points and the weakest power, five trumps in hand), another trump's
    below by its most."""
    trump = k.trump
    top = follow_value(played, lead, trump)
    plain = SUIT[played] != trump
    if not plain:
        top -= POINTS[played] + (3.0 + 0.6 * STRENGTH[played]) / 1.8
    out = set()
    for c in k.unknown:
        if SUIT[c] == trump:
            # at least its value with the most a trump's keeping can be (a lone trump, none
            # higher left): not trumping a led Seven says it held no trump at all
            if follow_value(c, lead, trump) - POINTS[c] - 6.0 - 0.6 * STRENGTH[c] > top + 1e-9:
                out.add(c)
            continue
        v = follow_value(c, lead, trump)
        # on a tie the pricing plays the cheaper card (``core.cheap_key``)
        cheaper = plain and cheap_key(c, trump) < cheap_key(played, trump)
        if v > top + 1e-9 or (cheaper and abs(v - top) <= 1e-9):
            out.add(c)
    return frozenset(out)


def facts(view: dict[str, Any], k: Knowledge) -> list[Fact]:
    """What the opponent's bid and follows in ``view`` (``history=True``) exclude from its
    hand, heads-up while there is a stock; [] otherwise."""
    if k.players != 2 or k.phase != "playing" or not draws(k.stock, k.players):
        return []
    opp = 1 - k.seat
    tricks = view.get("tricks") or []
    rounds = draw_rounds(k.players)
    done = min(len(tricks), rounds)  # the draws made so far
    found: list[Fact] = []
    unknown = set(k.unknown)
    for bid in view.get("bids") or []:
        if int(bid["seat"]) != opp or done >= HAND:
            continue
        if bid.get("card") is None:
            # a pass: no 3, 4 or 5 of any suit (one bidder heads-up: every suit was free)
            low = {c for c in unknown if STRENGTH[c] <= 2}
        else:
            # the bid is its lowest 3, 4 or 5 of the suit
            b = card_int(bid["card"])
            low = {c for c in unknown if SUIT[c] == SUIT[b] and STRENGTH[c] < STRENGTH[b]}
        if low:
            found.append((frozenset(low), done))
    for i, trick in enumerate(tricks):
        plays = trick["plays"]
        since = done - i
        if i >= rounds - 1 or since >= HAND or len(plays) != 2 or int(plays[1][0]) != opp:
            continue
        out = follow_fact(k, card_int(plays[0][1]), card_int(plays[1][1]))
        if out:
            found.append((out, since))
    return found


def lead_check(view: dict[str, Any], k: Knowledge) -> Callable[[Sequence[int]], bool] | None:
    """Heads-up, when the opponent has just led (this seat follows) while there is a stock:
    a test of a sampled hand of the opponent, true when, holding it and the card it led, the
    normal player's pricing or the expert's (``terms.expert_values``) would have led that
    card. None otherwise. No draw came between the lead and now, so the hand it led from is
    the sampled hand plus the lead, and its view then is this view with the round not begun."""
    if k.players != 2 or len(k.current) != 1 or not draws(k.stock, k.players):
        return None
    opp, lead = k.current[0]
    if opp == k.seat:
        return None
    base = dict(view)
    base["seat"] = opp
    base["current"] = []
    base["legal"] = []
    sizes = list(view["hand_sizes"])
    sizes[opp] += 1
    base["hand_sizes"] = sizes

    def led_by_rule(hand: Sequence[int]) -> bool:
        base["hand"] = [CODES[c] for c in (*hand, lead)]
        ko = read_view(base)
        values = card_values(ko)
        if values[lead] >= max(values.values()) - 1e-9:
            return True
        face_up_term(ko, values)
        lead_term(ko, values)
        return values[lead] >= max(values.values()) - 1e-9

    return led_by_rule


def weight(hand: Sequence[int], found: Sequence[Fact]) -> float:
    """How likely the opponent's ``hand`` is given the facts: for each, the chance that the
    ``s`` cards of its set in the hand are all among the ``m`` drawn since (0 if ``s > m``)."""
    w = 1.0
    h = len(hand)
    for cards, m in found:
        s = sum(1 for c in hand if c in cards)
        if not s:
            continue
        m = min(m, h)
        if s > m:
            return 0.0
        w *= comb(h - s, m - s) / comb(h, m)
    return w


def sample_inferred(
    k: Knowledge,
    found: Sequence[Fact],
    rng: random.Random,
    tries: int = TRIES,
    check: Callable[[Sequence[int]], bool] | None = None,
) -> FastDeal:
    """A sampled deal (``heuristic.sample_sim``) kept with probability ``weight`` of the
    opponent's hand in it, times ``MISFIT`` when ``check`` (``lead_check``) fails on that
    hand; after ``tries`` rejections, the best-weighted one seen."""
    if not found and check is None:
        return sample_sim(k, rng)
    opp = 1 - k.seat
    best: FastDeal | None = None
    best_w = -1.0
    for _ in range(tries):
        sim = sample_sim(k, rng)
        w = weight(sim.hands[opp], found)
        if check is not None and w > 0.0 and not check(sim.hands[opp]):
            w *= MISFIT
        if w >= 1.0 or rng.random() < w:
            return sim
        if w > best_w:
            best, best_w = sim, w
    assert best is not None
    return best
