"""Computer players: legality in every mode, decisions from the seat's view only, behaviour."""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from albastini import MODES, PACK, Deal, new_deal
from albastini.ai import DIFFICULTIES, LEVELS, decide, make_player

FAST = {"search": {"iterations": 2}}


def options(level: str) -> dict[str, Any]:
    """Small budgets so the tests stay fast."""
    return dict(FAST.get(DIFFICULTIES.get(level, level), {}))


def play_out(deal: Deal, levels: list[str], seed: int) -> Deal:
    """Play ``deal`` to the end, seat s played by ``levels[s]``; check every action is legal."""
    players = [make_player(lv, seed=seed * 10 + s, **options(lv)) for s, lv in enumerate(levels)]
    while deal.phase != "finished":
        seat = deal.to_act
        assert seat is not None
        view = deal.view(seat, history=True)
        action = players[seat].choose(view)
        assert action.code in view["legal"]
        deal.apply(action)
    return deal


def build_deal(
    players: int, team_size: int, hands: list[list[str]], indicator: str, dealer: int | None = None
) -> Deal:
    """A deal whose seats hold ``hands`` (5 codes each) with that indicator, everybody passing."""
    n = players
    dealer = n - 1 if dealer is None else dealer
    deck: list[str | None] = [None] * 36
    for seat, hand in enumerate(hands):
        for i, code in enumerate(hand):
            deck[i * n + (seat - dealer - 1) % n] = code
    deck[5 * n] = indicator
    used = {c for c in deck if c}
    rest = iter(c.code for c in PACK if c.code not in used)
    full = [c if c is not None else next(rest) for c in deck]
    deal = new_deal(n, team_size, dealer, deck=full)
    while deal.phase == "bidding":
        deal.apply("pass")
    return deal


# --------------------------------------------------------------------------- legality
LEVEL_NAMES = [*LEVELS, *DIFFICULTIES]


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_only_legal_actions_in_every_mode(mode: str, level: str) -> None:
    players, team_size = MODES[mode]
    deals = 1 if DIFFICULTIES.get(level, level) == "search" else 6
    for k in range(deals):
        rng = random.Random(k)
        deal = new_deal(players, team_size, rng.randrange(players), seed=1000 + k)
        # Mix the level with random players so it meets varied positions.
        levels = [level if (s + k) % 2 == 0 or players == 2 else "random" for s in range(players)]
        play_out(deal, levels, seed=k)
        assert sum(deal.points()) == (120 - (deal.leftover.points if deal.leftover else 0))


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="No computer player level"):
        make_player("grandmaster")
    with pytest.raises(ValueError, match="Bad option"):
        make_player("greedy", nonsense=1)


def test_choose_refuses_a_view_without_a_turn() -> None:
    deal = new_deal(2, seed=1)
    idle = 1 - (deal.to_act or 0)
    with pytest.raises(ValueError, match="not this seat's turn"):
        make_player("greedy").choose(deal.view(idle, history=True))


# --------------------------------------------------------------------------- worker processes
def test_decide_runs_in_a_process_pool() -> None:
    deal = new_deal(4, 2, 0, seed=7)
    while deal.phase == "bidding":
        deal.apply("pass")
    seat = deal.to_act
    assert seat is not None
    view = deal.view(seat, history=True)
    with ProcessPoolExecutor(max_workers=1) as pool:
        futures = {lv: pool.submit(decide, lv, view, 3, **options(lv)) for lv in LEVELS}
        codes = {lv: f.result(timeout=60) for lv, f in futures.items()}
    for lv, code in codes.items():
        assert code in view["legal"], lv
        assert code == decide(lv, view, 3, **options(lv))


def test_players_pickle() -> None:
    import pickle

    for lv in LEVEL_NAMES:
        player = make_player(lv, seed=5, **options(lv))
        clone = pickle.loads(pickle.dumps(player))
        deal = new_deal(3, seed=11)
        seat = deal.to_act
        assert seat is not None
        view = deal.view(seat, history=True)
        assert clone.choose(view) == player.choose(view)


# --------------------------------------------------------------------------- view only
def same_view_other_deck(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """Replay ``deal`` from a deck where the cards ``seat`` has never seen (still in other
    hands or face down in the stock) are shuffled among their places."""
    n = deal.players
    fixed = set(deal.hand(seat)) | {c for t in deal.tricks for _, c in t.plays}
    fixed |= {c for _, c in deal.current} | {c for _, c in deal.bids if c is not None}
    fixed.add(deal.deck[5 * n])  # the indicator
    positions = [i for i, c in enumerate(deal.deck) if c not in fixed]
    cards = [deal.deck[i] for i in positions]
    rng.shuffle(cards)
    deck = list(deal.deck)
    for i, c in zip(positions, cards, strict=True):
        deck[i] = c
    record = deal.to_record()
    record["deck"] = [c.code for c in deck]
    return Deal.from_record(record)


@pytest.mark.parametrize("mode", ["2", "4 pairs", "5", "6 trios"])
def test_decisions_depend_only_on_the_seats_view(mode: str) -> None:
    players, team_size = MODES[mode]
    rng = random.Random(mode)
    checked = 0
    for k in range(8):
        deal = new_deal(players, team_size, k % players, seed=500 + k)
        stop = rng.randrange(0, 36 // players * players - 1)
        bots = [make_player("random", seed=k * 7 + s) for s in range(players)]
        for _ in range(stop + len(deal.bidders)):
            if deal.phase == "finished":
                break
            seat = deal.to_act
            assert seat is not None
            deal.apply(bots[seat].choose(deal.view(seat, history=True)))
        if deal.phase == "finished":
            continue
        seat = deal.to_act
        assert seat is not None
        other = same_view_other_deck(deal, seat, rng)
        view = deal.view(seat, history=True)
        assert other.view(seat, history=True) == view
        for lv in LEVELS:
            a = decide(lv, view, 42, **options(lv))
            b = decide(lv, other.view(seat, history=True), 42, **options(lv))
            assert a == b, (lv, mode, k)
        checked += 1
    assert checked >= 4


def test_the_shuffled_deal_really_differs() -> None:
    deal = new_deal(4, 2, 0, seed=3)
    while deal.phase == "bidding":
        deal.apply("pass")
    other = same_view_other_deck(deal, 0, random.Random(1))
    assert other.view(0, history=True) == deal.view(0, history=True)
    assert [other.hand(s) for s in (1, 2, 3)] != [deal.hand(s) for s in (1, 2, 3)]


# --------------------------------------------------------------------------- greedy behaviour
def test_greedy_does_not_overtake_a_winning_partner() -> None:
    # 4 pairs, trump spades; seat 0 leads the KH, seat 1 throws, seat 2 (partner) could win
    # with the AH or a trump but throws its cheapest card.
    hands = [
        ["KH", "4C", "5C", "6C", "3C"],
        ["3H", "QD", "JD", "6D", "5D"],
        ["AH", "3S", "7D", "QC", "4D"],
        ["4H", "5H", "6H", "JH", "QH"],
    ]
    deal = build_deal(4, 2, hands, indicator="AS")
    deal.apply("play:KH")
    deal.apply("play:3H")
    assert decide("greedy", deal.view(2, history=True)) == "play:4D"


def test_greedy_takes_points_with_the_cheapest_winning_card() -> None:
    hands = [["KH", "4C", "5C", "6C", "3C"], ["AH", "7H", "3S", "QH", "5C"]]
    hands[1][4] = "5D"
    deal = build_deal(2, 1, hands, indicator="AS", dealer=1)
    deal.apply("play:KH")
    assert decide("greedy", deal.view(1, history=True)) == "play:3S"


def test_greedy_throws_its_cheapest_card_on_a_pointless_round() -> None:
    hands = [["4H", "4C", "5C", "6C", "3C"], ["AH", "7H", "3S", "QH", "5D"]]
    deal = build_deal(2, 1, hands, indicator="AS", dealer=1)
    deal.apply("play:4H")
    assert decide("greedy", deal.view(1, history=True)) == "play:5D"


def test_greedy_leads_its_cheapest_non_trump() -> None:
    hands = [["3S", "KC", "QD", "7H", "4H"], ["AH", "7C", "3C", "QH", "5D"]]
    deal = build_deal(2, 1, hands, indicator="AS", dealer=1)
    assert decide("greedy", deal.view(0, history=True)) == "play:4H"


def test_easy_is_greedy_with_some_randomness() -> None:
    hands = [["3S", "KC", "QD", "7H", "4H"], ["AH", "7C", "3C", "QH", "5D"]]
    deal = build_deal(2, 1, hands, indicator="AS", dealer=1)
    view = deal.view(0, history=True)
    codes = {decide("easy", view, seed) for seed in range(60)}
    assert "play:4H" in codes and len(codes) > 1
