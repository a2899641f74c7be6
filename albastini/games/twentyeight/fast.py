"""Whole random deals of Twenty-Eight at speed, for the bench and the parity tests.

:func:`random_deal` deals a shuffled pack, runs a random auction (uniform over the legal bids
and the pass), a random trump card, random raises (and Thani, with the option) and random
play (uniform over the legal cards and ``expose``) to the end, and scores it. Every rule it
runs comes from :mod:`.kernel` (who gets which card, the bid floors, the end of the
auction, the raise floor, the legal plays, the winner of a trick, the settlement); this
module only sequences them without the per-action dispatch of :class:`.kernel.State`, which
is what costs in pure Python. ``tests/games/twentyeight/test_fast.py`` replays its actions
on a :class:`.deal.Deal` and checks that both agree on every option count and result.
"""

from __future__ import annotations

import random

from .kernel import (
    BID,
    EXPOSE,
    MODE_SIZES,
    NO_POWER,
    PASS,
    POINTS,
    RAISE,
    SUIT,
    THANI,
    TRICK_ORDER,
    TRUMP,
    auction_end,
    bid_floor,
    deal_schedule,
    pack_ints,
    play_options,
    raise_floor,
    settle,
    trick_winner,
)

__all__ = ["random_deal"]

_PACKS = {n: pack_ints(n) for n in (3, 4, 6)}
_SCHEDULES = {(n, d): deal_schedule(n, d) for n in (3, 4, 6) for d in range(n)}


def random_deal(
    players: int,
    team_size: int,
    rng: random.Random,
    *,
    thani: bool = False,
    cot: bool = False,
    log: list[tuple[int, int]] | None = None,
) -> tuple[list[int], list[int]]:
    """Play one uniformly random deal; (card points per team, game points per team).

    ``log``, when given, receives (kernel action int, number of legal actions) for each
    action, and the deck and dealer first as ``(-1, card)`` ... and ``(-2, dealer)``, so a
    test can replay the same deal on a :class:`.deal.Deal`.
    """
    r = rng.random
    logging = log is not None
    n = players
    n_teams = n // team_size
    # sorting on random keys is a uniform shuffle (ties have probability ~2**-48) and costs
    # half of a Fisher-Yates loop in Python, a third of random.shuffle
    deck = sorted(_PACKS[n], key=lambda _: r())
    dealer = int(r() * n)
    if log is not None:
        log.extend((-1, c) for c in deck)
        log.append((-2, dealer))
    first, second = _SCHEDULES[(n, dealer)]
    hands: list[list[list[int]]] = [[[], [], [], []] for _ in range(n)]
    for card, seat in zip(deck, first, strict=False):
        hands[seat][SUIT[card]].append(card)

    # the auction
    seat = (dealer + 1) % n
    high = 0
    high_seat = -1
    passes = 0
    speech = 0
    while True:
        low, may_pass = bid_floor(n, n_teams, speech, high, high_seat, seat)
        k = 29 - low if low <= 28 else 0
        c = int(r() * (k + may_pass))
        speech += 1
        if log is not None:
            log.append((BID + low + c if c < k else PASS, k + may_pass))
        if c < k:
            high, high_seat, passes = low + c, seat, 0
        else:
            passes += 1
            end = auction_end(n, high, passes)
            if end == 2:
                return [0] * n_teams, [0] * n_teams
            if end == 1:
                break
        seat = (seat + 1) % n
    bidder = high_seat
    contract = high

    # the trump card, the rest of the deal, raising
    h = hands[bidder]
    held = h[0] + h[1] + h[2] + h[3]
    trump_card = held[int(r() * len(held))]
    if log is not None:
        log.append((TRUMP + trump_card, len(held)))
    trump = SUIT[trump_card]
    h[trump].remove(trump_card)
    base = len(deck) - len(second)
    for card, seat in zip(deck[base:], second, strict=True):
        hands[seat][SUIT[card]].append(card)
    declared = False
    for speaker in (bidder, (bidder + 2) % 4) if n == 4 else (bidder,):
        low = raise_floor(n, contract)
        k = 29 - low if low <= 28 else 0
        t = 1 if thani and speaker == bidder else 0
        if k + t == 0:
            continue
        c = int(r() * (k + t + 1))
        if c < k:
            contract = low + c
            action = RAISE + contract
        elif c < k + t:
            declared = True
            action = THANI
        else:
            action = PASS
        if log is not None:
            log.append((action, k + t + 1))
        if declared:
            break

    # the play
    leader = bidder if declared else (dealer + 1) % n
    points = [0] * n_teams
    winners: list[int] = []
    face_down = True
    power = NO_POWER
    orders = TRICK_ORDER[n]
    for _ in range(MODE_SIZES[(n, team_size)]):
        trick: list[int] = []
        pts = 0
        led = -1
        for seat in orders[leader]:
            hand = hands[seat]
            cards = play_options(hand, led, trump, face_down, seat == bidder, False)
            k = len(cards)
            card = cards[int(r() * k)] if k > 1 else cards[0]
            if logging:
                log.append((card, k))  # type: ignore[union-attr]
            if card == EXPOSE:  # the player calls for the trump: it joins the bidder's hand
                hands[bidder][trump].append(trump_card)
                face_down = False
                power = trump
                cards = play_options(hand, led, trump, False, seat == bidder, True)
                k = len(cards)
                card = cards[int(r() * k)] if k > 1 else cards[0]
                if logging:
                    log.append((card, k))  # type: ignore[union-attr]
            hand[SUIT[card]].remove(card)
            trick.append(card)
            pts += POINTS[card]
            if led < 0:
                led = SUIT[card]
        leader = trick_winner(leader, trick, power, n)
        winners.append(leader)
        points[leader % n_teams] += pts
    game_points, _, _ = settle(n_teams, bidder, contract, declared, cot, points, winners)
    return points, game_points
