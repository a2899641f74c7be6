"""The fast path against the clean path: identical games (same pack, same choices) give the
same round winners, the same draws, the same points and the same result, in every mode."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest

from albastini import MODES, PACK, Card, Deal, Play, beats, new_deal, score
from albastini.games.albastini.fast import (
    CODES,
    POINTS,
    SUIT,
    WIN_KEY,
    FastDeal,
    _mode,
    _shuffle,
    card_code,
    card_int,
    deal_points,
    random_deal_points,
    random_deals_points,
    shuffled_ints,
)

ALL_MODES = list(MODES.items())


def bid_randomly(deal: Deal, rng: random.Random) -> None:
    while deal.phase == "bidding":
        deal.apply(rng.choice(deal.legal_actions()))


def hands_of(deal: Deal) -> list[list[int]]:
    return [[c.index for c in deal.hand(s)] for s in range(deal.players)]


def test_tables_match_the_cards() -> None:
    for card in PACK:
        i = card.index
        assert CODES[i] == card.code == card_code(i)
        assert card_int(card) == card_int(card.code) == i
        assert POINTS[i] == card.points
        assert "CDHS"[SUIT[i]] == card.suit
    for trump in range(4):
        for led in PACK:
            keys = WIN_KEY[trump][led.index]
            for a in PACK:
                for b in PACK:
                    if a is b or (keys[a.index] == 0 and keys[b.index] == 0):
                        continue
                    # the higher key wins exactly when the clean rule says it beats it
                    best = a if keys[a.index] > keys[b.index] else b
                    other = b if best is a else a
                    if keys[other.index] > 0:
                        assert beats(best, other, "CDHS"[trump])


@pytest.mark.parametrize(("name", "spec"), ALL_MODES)
def test_fast_deal_follows_the_clean_deal_move_by_move(name: str, spec: tuple[int, int]) -> None:
    players, team_size = spec
    rng = random.Random(name)
    for _ in range(25):
        deal = new_deal(players, team_size, rng.randrange(players), seed=rng.getrandbits(32))
        bid_randomly(deal, rng)
        fast = FastDeal.from_deal(deal)
        assert (fast.players, fast.team_size, fast.teams) == (players, team_size, deal.teams)
        assert fast.trump == "CDHS".index(deal.trump or "")
        while deal.phase != "finished":
            assert fast.to_act == deal.to_act
            assert sorted(fast.legal()) == sorted(a.card.index for a in deal.legal_actions())  # type: ignore[union-attr]
            card = rng.choice(deal.hand(deal.to_act))
            rounds = len(deal.tricks)
            deal.apply(Play(card))
            fast.play(card.index)
            if len(deal.tricks) > rounds:
                assert fast.leader == deal.tricks[-1].winner  # same round winner
                assert fast.hands == hands_of(deal)  # same draws, in the same order
                assert fast.stock_left() == deal.stock_size
            assert fast.points() == deal.points()
        assert fast.finished and fast.to_act == -1 and fast.legal() == []
        # the same score; the clean deal also names the 5-player card left over
        assert replace(score(fast.points(), team_size), leftover=deal.leftover) == deal.result()


@pytest.mark.parametrize(("name", "spec"), ALL_MODES)
def test_compiled_random_deal_makes_the_same_choices_as_the_clean_path(
    name: str, spec: tuple[int, int]
) -> None:
    """``deal_points`` reads every choice from one integer; replaying the same digits through
    ``Deal`` must give the same points."""
    players, team_size = spec
    rng = random.Random(name)
    mode = _mode(players, team_size)
    for _ in range(60):
        dealer = rng.randrange(players)
        deck = shuffled_ints(rng)
        r0 = r = rng.randrange(mode.choices)
        deal = new_deal(players, team_size, dealer, deck=[PACK[i] for i in deck])
        while deal.phase == "bidding":
            legal = deal.legal_actions()
            r, x = divmod(r, 60)
            deal.apply(legal[x % len(legal)])
        while deal.phase != "finished":
            hand = deal.hand(deal.to_act)  # type: ignore[arg-type]
            r, i = divmod(r, len(hand))
            deal.apply(Play(hand[i]))
        assert r == 0  # every digit used: the radix product is exact
        assert deal_points(players, team_size, dealer, deck, r0) == deal.points()


def test_shuffle_is_a_bijection_from_lehmer_codes() -> None:
    import math

    rng = random.Random(5)
    seen = set()
    for _ in range(300):
        deck = shuffled_ints(rng)
        assert sorted(deck) == list(range(36))
        seen.add(tuple(deck))
    assert len(seen) == 300
    assert _shuffle(0) == list(range(36))
    assert _shuffle(math.factorial(36) - 1) == list(range(35, -1, -1))
    # every card reaches the top
    tops = Counter(shuffled_ints(rng)[0] for _ in range(3000))
    assert set(tops) == set(range(36))
    assert max(tops.values()) < 3 * 3000 / 36


@pytest.mark.parametrize(("name", "spec"), ALL_MODES)
def test_random_deals_add_up(name: str, spec: tuple[int, int]) -> None:
    players, team_size = spec
    rng = random.Random(1)
    for _ in range(200):
        points = random_deal_points(players, team_size, rng)
        assert len(points) == players // team_size
        if players == 5:
            assert 120 - 11 <= sum(points) <= 120
        else:
            assert sum(points) == 120
    totals = random_deals_points(players, team_size, rng, 50)
    assert (sum(totals) == 120 * 50) if players != 5 else (sum(totals) <= 120 * 50)
    with pytest.raises(ValueError):
        random_deal_points(4, 3, rng)


def test_random_bidding_reaches_every_outcome() -> None:
    """Exchanges, returned bids and passes all happen in random deals (4 pairs)."""
    rng = random.Random(3)
    mode = _mode(4, 2)
    exchanges = passes = 0
    for _ in range(400):
        deck = shuffled_ints(rng)
        r = rng.randrange(mode.choices)
        deal = new_deal(4, 2, 0, deck=[PACK[i] for i in deck])
        while deal.phase == "bidding":
            legal = deal.legal_actions()
            r, x = divmod(r, 60)
            deal.apply(legal[x % len(legal)])
        exchanges += deal.exchange is not None
        passes += sum(c is None for _, c in deal.bids)
    assert exchanges > 0 and passes > 0


@pytest.mark.parametrize(("name", "spec"), ALL_MODES)
def test_playout_from_any_state(name: str, spec: tuple[int, int]) -> None:
    players, team_size = spec
    rng = random.Random(name + "playout")
    for _ in range(30):
        deal = new_deal(players, team_size, rng.randrange(players), seed=rng.getrandbits(32))
        bid_randomly(deal, rng)
        for _ in range(rng.randrange(36)):
            if deal.phase == "finished":
                break
            deal.apply(rng.choice(deal.legal_actions()))
        fast = FastDeal.from_deal(deal)
        # the number of different playouts is the product of the hand sizes to come
        probe, product = fast.copy(), 1
        while not probe.finished:
            legal = probe.legal()
            product *= len(legal)
            probe.play(legal[-1])
        assert fast._choices() == product
        before = (json.dumps(fast.hands), fast.pos, list(fast.current), fast.points())
        copy = fast.copy()
        points = copy.playout(rng)
        assert (json.dumps(fast.hands), fast.pos, list(fast.current), fast.points()) == before
        leftover = deal.leftover.points if deal.leftover else 0
        assert sum(points) == 120 - leftover
        assert copy.finished and copy.points() == points
        assert all(p >= e for p, e in zip(points, deal.points(), strict=True))
        assert copy.playout(rng) == points  # a finished deal stays as it is


def test_playout_is_uniform_over_the_last_choices() -> None:
    # 2 players, trump clubs, no stock, two cards each: 2 * 2 * 1 * 1 = 4 equally likely
    # playouts. Seat 0: AD, 3S; seat 1: 7D, 3C (a trump).
    fast = FastDeal.from_parts(2, 1, 0, [[9, 35], [10, 8]], [], 0, [], [0, 0])
    assert fast._choices() == 4
    expected: Counter[tuple[int, ...]] = Counter()
    for first in (9, 35):
        for answer in (10, 8):
            f = fast.copy()
            f.play(first)
            f.play(answer)
            while not f.finished:
                f.play(f.legal()[0])
            expected[tuple(f.points())] += 1
    assert len(expected) > 1
    rng = random.Random(0)
    runs = 4000
    seen = Counter(tuple(fast.copy().playout(rng)) for _ in range(runs))
    assert set(seen) == set(expected)
    for outcome, ways in expected.items():
        assert abs(seen[outcome] / runs - ways / 4) < 0.05


def test_from_parts_mid_round_and_finished() -> None:
    # 4 pairs, trump clubs: seat 1 led the AH (18), seat 2 played the 3H (26); seat 3 to act.
    hands = [[8, 9], [3], [4], [2, 6]]
    fast = FastDeal.from_parts(4, 2, 0, hands, [], 1, [(1, 18), (2, 26)], [10, 20])
    assert fast.to_act == 3 and not fast.finished
    assert fast.winning() == 1
    assert fast.legal() == [2, 6]
    fast.play(2)  # the King of clubs: a trump
    assert fast.to_act == 0 and fast.winning() == 3
    fast.play(9)  # the Ace of diamonds: neither trump nor the suit led
    assert fast.leader == 3 and fast.to_act == 3
    assert fast.points() == [10, 20 + 11 + 0 + 4 + 11]
    assert fast.hands == [[8], [3], [4], [6]]
    done = FastDeal.from_parts(2, 1, 2, [[], []], [], 0, [], [60, 60])
    assert done.finished and done.legal() == [] and done.to_act == -1
    with pytest.raises(ValueError):
        FastDeal.from_parts(4, 2, 0, hands, [], 0, [], [0, 0, 0])


def test_from_deal_refuses_bidding_and_copies_are_independent() -> None:
    deal = new_deal(4, 2, 0, seed=3)
    with pytest.raises(ValueError):
        FastDeal.from_deal(deal)
    bid_randomly(deal, random.Random(3))
    fast = FastDeal.from_deal(deal)
    other = fast.copy()
    other.play(other.legal()[0])
    assert fast.hands == hands_of(deal)
    assert other.hands != fast.hands
    assert other.stock is fast.stock  # shared, never mutated
    assert Card.parse(card_code(fast.legal()[0])) in deal.hand(deal.to_act)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "spec"), ALL_MODES)
def test_compiled_playout_reads_choices_like_the_generic_loop(
    name: str, spec: tuple[int, int]
) -> None:
    """From the start of any round, the compiled rest of the deal and the generic loop make the
    same plays for the same digits."""
    players, team_size = spec
    rng = random.Random(name + "suffix")
    mode = _mode(players, team_size)
    starts = set()
    for _ in range(40):
        deal = new_deal(players, team_size, rng.randrange(players), seed=rng.getrandbits(32))
        bid_randomly(deal, rng)
        for _ in range(rng.randrange(deal.rounds_total)):
            for _ in range(players):
                deal.apply(rng.choice(deal.legal_actions()))
        fast = FastDeal.from_deal(deal)
        start = fast._round_shape(mode)
        assert start == len(deal.tricks)
        starts.add(start)
        r = rng.randrange(mode.suffix_choices[start])
        assert fast._choices() == mode.suffix_choices[start]
        generic, compiled = fast.copy(), fast.copy()
        assert generic._play_digits(r) == compiled._play_compiled(mode, start, r)
        assert generic.pos == compiled.pos and compiled.finished
    assert len(starts) > 1


def test_odd_shapes_fall_back_to_the_generic_loop() -> None:
    # Unequal hands (not a state a real deal reaches) still play out.
    fast = FastDeal.from_parts(2, 1, 1, [[0, 1, 2], [9]], [], 0, [], [0, 0])
    assert fast._round_shape(_mode(2, 1)) is None
    rng = random.Random(1)
    seen = {tuple(fast.copy().playout(rng)) for _ in range(100)}
    # one round, won by the Ace of diamonds (trump); then seat 1 holds nothing and it ends
    assert seen == {(0, 11 + POINTS[c]) for c in (0, 1, 2)}


# --------------------------------------------------------------------------- the kernel
# The fast path and the computer players take every rule from ``kernel``; the clean path
# (``cards``/``deal``) is the reference it must agree with.


def test_kernel_beats_and_winner_agree_with_the_clean_rule() -> None:
    from albastini.games.albastini import kernel

    for trump in (*"CDHS", None):
        t = kernel.NO_TRUMP if trump is None else "CDHS".index(trump)
        for best in PACK:
            for card in PACK:
                if card is not best:
                    assert kernel.beats(card.index, best.index, t) == beats(card, best, trump)
    rng = random.Random(12)
    for _ in range(2000):
        players = rng.randrange(2, 7)
        cards = rng.sample(PACK, players)
        trump = rng.choice("CDHS")
        leader = rng.randrange(players)
        current = [((leader + k) % players, c) for k, c in enumerate(cards)]
        deal_winner = current[0]
        for seat, card in current[1:]:
            if beats(card, deal_winner[1], trump):
                deal_winner = (seat, card)
        seat, card_int_ = kernel.winner_of([(s, c.index) for s, c in current], "CDHS".index(trump))
        assert (seat, PACK[card_int_]) == deal_winner


@pytest.mark.parametrize(
    ("players", "rounds", "draw_rounds"), [(2, 18, 13), (3, 12, 7), (4, 9, 4), (5, 7, 2), (6, 6, 1)]
)
def test_kernel_schedule_is_the_rules_table(players: int, rounds: int, draw_rounds: int) -> None:
    """rules/albastini.md, "Seats, teams, modes": tricks and draw rounds per table size."""
    from albastini.games.albastini import kernel

    plan = kernel.schedule(players)
    assert len(plan) == rounds
    assert sum(after for _, after in plan) == draw_rounds
    assert [after for _, after in plan] == [True] * draw_rounds + [False] * (rounds - draw_rounds)


def test_kernel_draw_gives_the_winner_the_first_card() -> None:
    from albastini.games.albastini import kernel

    hands: list[list[int]] = [[], [], [], []]
    stock = [10, 11, 12, 13, 14, 15]
    assert kernel.draw(hands, stock, 0, 2) == 4
    assert hands == [[12], [13], [10], [11]]  # seat 2 first, then clockwise
    assert kernel.draw(hands, stock, 4, 0) == 4  # two cards left for four players: no draw
    assert hands == [[12], [13], [10], [11]]

