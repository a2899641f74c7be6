"""Rules of good play that add to the normal player's pricing (``heuristic.card_values``).

The bench's expert (``bench/experts/albastini.py``) is normal's pricing plus these terms; the
search player (hard) plays the face-up rule, made certain on each sampled deal, in its
rollouts with partners (``sim.expert_rollout``, which keeps ``worth_in_hand`` as a table), and
heads-up starts from the expert's card (``expert_values``) at the root of its search. Each term
adds to a dict of card values, in card points.
"""

from __future__ import annotations

import random

from ..kernel import POINTS, STRENGTH, SUIT, WIN_KEY, beats, play_order, winner_of
from .core import Knowledge, cheap_key
from .heuristic import card_values, endgame_values, keep_value, p_keep, stock_empty
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


#: Sampled hands of the opponent averaged by :func:`leaf_values`: 100 cost ~10 ms a lead.
LEAF_WORLDS = 100


def leaf_values(k: Knowledge, rng: random.Random, worlds: int = LEAF_WORLDS) -> dict[int, float]:
    """Heads-up, the expert's values (:func:`expert_values`) with each lead priced on sampled
    hands of the opponent instead of by chances: in each world the follower, who sees the lead
    and plays last, answers as the normal player and the expert follow (each of its cards
    worth the round's points won or lost, less a trump's keeping value, ``heuristic.keep_value``
    as it counts it, and the face-up trump at the last draw), and the lead is worth the round
    to this seat less its own card's keeping value plus the follower's card's (a trump spent
    is one it no longer has). The expert's lead pricing assumes that any higher card or trump
    the follower may hold takes the lead, and charges the higher cards of the suit once more;
    a follower keeps a trump worth more than the round. Following (and with more players) the
    values are the expert's."""
    values = expert_values(k)
    if k.players != 2 or k.current or not k.unknown:
        return values
    trump = k.trump
    known = list(k.known[k.seat ^ 1])
    free = list(k.unknown)
    slots = min(k.slots[k.seat ^ 1], len(free))
    swap = 0.0
    if k.stock == k.players and k.face_up is not None:
        hidden = sum(worth_in_hand(k, c) for c in k.unknown) / len(k.unknown)
        swap = hidden - worth_in_hand(k, k.face_up)
    leads = list(values)
    totals = dict.fromkeys(leads, 0.0)
    # the trumps the follower does not see in its hand (the face-up one aside, as the
    # heuristic counts them): this seat's and the unseen ones
    trumps_out = [c for c in (*k.hand, *k.unknown) if SUIT[c] == trump]
    late = k.stock // k.players
    cheap = {c: cheap_key(c, trump) for c in (*known, *free)}
    for _ in range(worlds):
        hand = known + rng.sample(free, slots)
        held = set(hand)
        out = [t for t in trumps_out if t not in held]
        mine_trumps = sum(1 for c in hand if SUIT[c] == trump)
        div = (1.0 + 0.2 * (mine_trumps - 1)) * (2.0 if len(hand) + late <= 2 else 1.0)
        # each follower card's keeping value, and the one trump out above it if only one is
        keeps: list[tuple[int, float, int, tuple[int, int, int]]] = []
        for r in hand:
            if SUIT[r] != trump:
                keeps.append((r, 0.0, -1, cheap[r]))
                continue
            above = [t for t in out if STRENGTH[t] > STRENGTH[r]]
            power = 3.0 + 0.6 * STRENGTH[r] + (3.0 if not above else 0.0)
            only = above[0] if len(above) == 1 else -1
            keeps.append((r, POINTS[r] + power / div, only, cheap[r]))
        for c in leads:
            # the follower's answer: its best value, the cheapest card among equals
            best: tuple[float, tuple[int, int, int]] | None = None
            worth = 0.0
            wins = WIN_KEY[trump][c]
            top = wins[c]
            for r, keep, only, key in keeps:
                if only == c:  # the lead is the one trump above it: it becomes the top
                    keep += 3.0 / div
                stake = POINTS[c] + POINTS[r]
                won = wins[r] > top
                # ``swap`` is 0 but at the last draw
                ev = (stake + swap if won else -stake - swap) - keep
                rank = (-ev, key)
                if best is None or rank < best:
                    best = rank
                    # to this seat: the round, and the keeping value of the follower's card
                    worth = (-stake - swap if won else stake + swap) + keep
            totals[c] += worth
    return {c: t / worlds - keep_value(k, c) for c, t in totals.items()}
