"""Computer players: legality in every mode, decisions from the seat's view only, behaviour."""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from albastini import MODES, PACK, Deal, Play, new_deal
from albastini.ai import DIFFICULTIES, LEVELS, decide, make_player

FAST = {"search": {"iterations": 2}}


def options(level: str) -> dict[str, Any]:
    """Small budgets so the tests stay fast."""
    return dict(FAST.get(DIFFICULTIES.get(level, level), {}))


def play_out(deal: Deal, levels: list[str], seed: int) -> Deal:
    """Play ``deal`` to the end, seat s played by ``levels[s]``; check every action is legal."""
    return play_with(
        deal, [make_player(lv, seed=seed * 10 + s, **options(lv)) for s, lv in enumerate(levels)]
    )


def play_with(deal: Deal, players: list[Any]) -> Deal:
    """Play ``deal`` to the end, seat s played by ``players[s]``; check every action is legal."""
    while deal.phase != "finished":
        seat = deal.to_act
        assert seat is not None
        view = deal.view(seat, history=True)
        action = players[seat].choose(view)
        assert action.code in view["legal"]
        deal.apply(action)
    return deal


def view_in_deal_order(deal: Deal, seat: int) -> dict[str, Any]:
    """``seat``'s view (with history) listing its hand in the deal's own order, the order the
    cards came in, as views did when the recorded deals below were played and as the fast
    path keeps it: the players break ties between equal cards by the order of the hand they
    are given, and a view now lists a hand sorted for people (trump first, by rank)."""
    view = deal.view(seat, history=True)
    assert sorted(view["hand"]) == sorted(c.code for c in deal.hand(seat))
    view["hand"] = [c.code for c in deal.hand(seat)]
    return view


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


DEALS_PER_MODE = {"random": 10, "greedy": 10, "heuristic": 5, "search": 1}


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_only_legal_actions_in_every_mode(mode: str, level: str) -> None:
    players, team_size = MODES[mode]
    deals = DEALS_PER_MODE.get(level, 1)  # difficulties are aliases: one deal each
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
    with pytest.raises(ValueError, match="Unknown computer player option"):
        make_player("greedy", nonsense=1)
    with pytest.raises(ValueError, match="positive"):
        make_player("hard", time_ms=0)
    # Options of other levels are ignored, so callers can pass one set for every level.
    assert make_player("normal", time_ms=100).level == "heuristic"


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
    again = Deal.from_record(record)
    assert isinstance(again, Deal)  # typed as the engine's Deal; built as the class called on
    return again


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
        for lv in LEVEL_NAMES:
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


# --------------------------------------------------------------------------- heuristic behaviour
FEED_HANDS = [
    ["AS", "4C", "5C", "6C", "3C"],
    ["3H", "QD", "JD", "6D", "5D"],
    ["AH", "4D", "3D", "QC", "5H"],
    ["4H", "6H", "JH", "QH", "KD"],
]


def test_heuristic_feeds_points_to_a_partner_sure_to_win() -> None:
    # 4 pairs, trump spades. Seat 0 leads the Ace of trumps: nothing can beat it. Its partner,
    # seat 2, gives it the AH (11 points); greedy would throw its 3D.
    deal = build_deal(4, 2, FEED_HANDS, indicator="7S")
    deal.apply("play:AS")
    deal.apply("play:3H")
    view = deal.view(2, history=True)
    assert decide("heuristic", view) == "play:AH"
    assert decide("greedy", view) == "play:3D"


def test_heuristic_does_not_feed_a_partner_who_may_be_beaten() -> None:
    # Seat 0 leads the 3C: seat 3, still to play, can take it with almost anything.
    hands = [list(h) for h in FEED_HANDS]
    hands[0] = ["3C", "4C", "5C", "6C", "AS"]
    deal = build_deal(4, 2, hands, indicator="7S")
    deal.apply("play:3C")
    deal.apply("play:3H")
    assert decide("heuristic", deal.view(2, history=True)) == "play:3D"


def test_heuristic_keeps_its_trumps_for_rounds_worth_taking() -> None:
    # 2 players, trump spades: the opponent leads a pointless 4H; heuristic throws, it does not
    # spend a trump on it; a led AH (11 points) it takes with its lowest trump.
    hands = [["4H", "AH", "5C", "6C", "3C"], ["3S", "KS", "5D", "QC", "6D"]]
    deal = build_deal(2, 1, hands, indicator="JS", dealer=1)
    probe = deal.copy()
    probe.apply("play:4H")
    assert decide("heuristic", probe.view(1, history=True)) == "play:5D"
    deal.apply("play:AH")
    assert decide("heuristic", deal.view(1, history=True)) == "play:3S"


def test_heuristic_bids_a_low_card_of_its_best_suit() -> None:
    deal = new_deal(
        2, 1, 1,
        deck=["3H", "AS", "KH", "7S", "4H", "6C", "JH", "QD", "5D", "KD", *[
            c.code for c in PACK if c.code not in
            {"3H", "AS", "KH", "7S", "4H", "6C", "JH", "QD", "5D", "KD"}
        ]],
    )
    # Seat 0 (the only bidder) holds 3H KH 4H JH 5D: hearts is its suit; it bids the 3H.
    assert deal.hand(0)[0].code == "3H"
    assert decide("heuristic", deal.view(0, history=True)) == "bid:3H"


# --------------------------------------------------------------------------- endgames
def minimax(deal: Deal, team: int) -> float:
    """Brute force over the real engine: the best final utility ``team`` can force."""
    from albastini.games.albastini.ai.core import utility

    if deal.phase == "finished":
        return utility(deal.points(), team, deal.team_size)
    values = []
    for action in deal.legal_actions():
        child = deal.copy()
        assert isinstance(child, Deal)  # typed as the engine's Deal; a copy keeps its class
        child.apply(action)
        values.append(minimax(child, team))
    return max(values) if deal.to_act is not None and deal.to_act % deal.teams == team else (
        min(values)
    )


def endgame_position() -> Deal:
    """Heads-up, seed 303, both seats greedy until the stock is empty and 3 cards are left.

    Seat 1 leads with AD AC AH, trump clubs; seat 0 holds 7D 7C KC. Seat 0 has eaten 36,
    seat 1 27: seat 1 needs 34 of the 57 points left. Leading the AD loses; leading the AH
    wins whatever seat 0 does (greedy sees the two aces as equal and leads the one its hand
    lists first).
    """
    deal = new_deal(2, 1, 0, seed=303)
    # the greedy players' moves, recorded: replayed, the position no longer depends on how a
    # view lists a hand (greedy breaks ties between equal cards by the hand's order)
    for code in ENDGAME_MOVES.split():
        deal.apply(code)
    return deal


ENDGAME_MOVES = (
    "bid:3H play:3H play:5H play:6H play:QH play:KD play:4C play:4H play:7H play:7S play:JC"
    " play:6D play:3D play:JH play:3C play:3S play:JS play:4S play:QD play:6S play:5S play:QS"
    " play:QC play:4D play:KH play:JD play:6C play:5D play:AS play:KS play:5C"
)


def test_endgame_position_is_as_described() -> None:
    deal = endgame_position()
    assert deal.to_act == 1 and deal.trump == "C" and not deal.current
    assert sorted(c.code for c in deal.hand(1)) == ["AC", "AD", "AH"]
    assert sorted(c.code for c in deal.hand(0)) == ["7C", "7D", "KC"]
    assert deal.points() == [36, 27]
    values = {}
    for action in deal.legal_actions():
        child = deal.copy()
        assert isinstance(child, Deal)  # typed as the engine's Deal; a copy keeps its class
        child.apply(action)
        values[action.code] = minimax(child, 1)
    assert values["play:AH"] > 0 > values["play:AD"]


@pytest.mark.parametrize("level", ["heuristic", "search", "hard", "normal"])
def test_endgame_is_played_exactly(level: str) -> None:
    deal = endgame_position()
    view = deal.view(1, history=True)
    assert decide(level, view, 1, **options(level)) == "play:AH"


@pytest.mark.parametrize("mode", ["2", "3", "4 pairs", "5", "6 trios"])
def test_solver_agrees_with_brute_force(mode: str) -> None:
    from albastini.games.albastini.ai.core import read_view
    from albastini.games.albastini.ai.sim import solve
    from albastini.games.albastini.fast import FastDeal

    players, team_size = MODES[mode]
    limit = {2: 8, 3: 9, 4: 8, 5: 10, 6: 12}[players]
    for seed in range(3):
        deal = new_deal(players, team_size, seed % players, seed=seed)
        bots = [make_player("random", seed=seed * 10 + s) for s in range(players)]
        while deal.phase != "finished" and not (
            deal.phase == "playing"
            and deal.stock_size < players
            and sum(len(deal.hand(s)) for s in range(players)) <= limit
        ):
            seat = deal.to_act
            assert seat is not None
            deal.apply(bots[seat].choose(deal.view(seat, history=True)))
        seat = deal.to_act
        assert seat is not None
        k = read_view(deal.view(seat, history=True))
        values = solve(FastDeal.from_deal(deal), k.team)
        for action in deal.legal_actions():
            child = deal.copy()
            assert isinstance(child, Deal)  # typed as the engine's Deal; a copy keeps its class
            child.apply(action)
            assert isinstance(action, Play)  # the deal is being played: no bid or pass left
            assert values[action.card.index] == pytest.approx(minimax(child, k.team))


@pytest.mark.parametrize("mode", list(MODES))
def test_greedy_rollout_matches_the_greedy_player(mode: str) -> None:
    from albastini.games.albastini.ai.sim import greedy_rollout
    from albastini.games.albastini.fast import FastDeal

    players, team_size = MODES[mode]
    for seed in range(5):
        deal = new_deal(players, team_size, seed % players, seed=seed)
        bots = [make_player("greedy") for _ in range(players)]
        while deal.phase == "bidding" or len(deal.tricks) < seed:
            seat = deal.to_act
            assert seat is not None
            deal.apply(bots[seat].choose(deal.view(seat, history=True)))
        fast = FastDeal.from_deal(deal)
        # the same rule on the same hands: greedy breaks ties between equal cards by the
        # order of the hand it is given, and the rollout keeps the deal's own order (the
        # order cards came in), while a view lists a hand sorted for people
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            deal.apply(bots[seat].choose(view_in_deal_order(deal, seat)))
        assert greedy_rollout(fast) == deal.points()


@pytest.mark.parametrize("mode", list(MODES))
def test_sampled_deals_agree_with_everything_public(mode: str) -> None:
    from albastini.games.albastini.ai.core import read_view
    from albastini.games.albastini.ai.heuristic import sample_sim

    players, team_size = MODES[mode]
    rng = random.Random(mode)
    for seed in range(12):
        deal = new_deal(players, team_size, seed % players, seed=seed)
        bots = [make_player("heuristic", seed=s) for s in range(players)]
        stop = rng.randrange(36 // players * players)
        while deal.phase != "finished" and (deal.phase == "bidding" or stop > 0):
            seat = deal.to_act
            assert seat is not None
            if deal.phase == "playing":
                stop -= 1
            deal.apply(bots[seat].choose(deal.view(seat, history=True)))
        if deal.phase == "finished":
            continue
        seat = deal.to_act
        assert seat is not None
        k = read_view(deal.view(seat, history=True))
        truth = [{c.index for c in deal.hand(s)} for s in range(players)]
        for s in range(players):
            assert set(k.known[s]) <= truth[s], "a card placed where it is not"
        sim = sample_sim(k, random.Random(seed))
        assert [len(h) for h in sim.hands] == [len(t) for t in truth]
        assert set(sim.hands[seat]) == truth[seat]
        assert sim.stock_left() == deal.stock_size
        if deal._stock and deal.face_up is not None:
            assert sim.stock[-1] == deal.face_up.index
        everything = set().union(*sim.hands, sim.stock)
        assert everything == set().union(*truth, {c.index for c in deal._stock})
        for s in range(players):
            assert set(k.known[s]) <= set(sim.hands[s])


# --------------------------------------------------------------------------- same decisions
#: Whole deals played by seeded computer players, recorded before the rules moved into one
#: integer-card kernel (issue 12): a change meant to be a pure refactor of the engine or the
#: players must leave every decision, and so every action of these deals, as it was (the
#: players are given their hands in the order of the deal, as then:
#: :func:`view_in_deal_order`). The search
#: player plays them with its greedy rollouts and its plain sampled root (issue 20 made the
#: normal player's rule its default rollout, issue 29 the expert's card its heads-up root;
#: ``test_search_is_deterministic_for_a_seed`` covers those).
RECORDED_DEALS = [
    (
        "4 pairs", ("search", "heuristic"), 3,
        "pass pass 7C 3H JH 4D QD 4C AD 5S JD KD 5C KC QS KH 6S 7S 7H 4S 3D AH 4H JC JS 3S AC"
        " AS QH 5D QC 6D KS 3C 5H 6H 7D 6C",
    ),
    (
        "2", ("heuristic", "search"), 5,
        "bid:3H 3S AS JS JH QC 6D 5C AC 3C KC 4H 6H 7S 7H 5D KD 4S QS 6C JC 3D AD 6S KH 5S KS"
        " 4D JD 4C 7D QD 5H QH 7C AH 3H",
    ),
    (
        "5", ("greedy", "heuristic"), 11,
        "bid:4S bid:3C pass bid:3D 4S 3C 6D 3D JS 4C 5C 4D QD 6C JC 5S 6H QS JH 7C 3H 6S QH KS"
        " 3S 5H 7S JD 7D AS 4H KD KH 5D KC QC AD AH AC",
    ),
    (
        "6 trios", ("search", "easy"), 2,
        "pass pass bid:3D 5D 3C QH KD 3D JD 7D 4D 4H 6D 5S 6S AH QS 5H QC KC KH 7C AC 5C 6C 3H"
        " AD 6H 3S QD 4C JS 7S AS JH 4S 7H JC KS",
    ),
    (
        "3", ("heuristic", "greedy"), 4,
        "bid:5H bid:4S 3S 4S QS JC 6D 3H 3C 6S 4D 4C 7S 6C 3D 5S 7C QD JD QH QC 4H 5C KS 5D 5H"
        " JS 7H KD 7D KC JH AC AH 6H AD AS KH",
    ),
]


@pytest.mark.parametrize(("mode", "levels", "seed", "recorded"), RECORDED_DEALS)
def test_seeded_players_make_the_recorded_decisions(
    mode: str, levels: tuple[str, str], seed: int, recorded: str
) -> None:
    players, team_size = MODES[mode]
    teams = players // team_size
    bots = [
        make_player(
            levels[s % teams % 2], seed=seed * 10 + s, iterations=6, rollout="greedy", root="search"
        )
        for s in range(players)
    ]
    deal = new_deal(players, team_size, seed % players, seed=seed)
    while deal.phase != "finished":
        seat = deal.to_act
        assert seat is not None
        deal.apply(bots[seat].choose(view_in_deal_order(deal, seat)))
    assert " ".join(a.code.removeprefix("play:") for a in deal.actions) == recorded


# --------------------------------------------------------------------------- hard (issue 20)
def reference_policy_card(deal: Deal, expert: bool = False) -> str:
    """``sim.policy_rollout``'s rule written plainly on a Deal that shows every hand: the
    normal player's card values with its chances made certain. ``expert`` adds
    ``sim.expert_rollout``'s rule: with two pairs, before the last
    draw, winning the round is worth the other stock cards' mean worth in hand less the
    face-up trump's (which the losers draw), losing it as much the other way."""
    from albastini.games.albastini.kernel import POINTS, STRENGTH, SUIT, beats, winner_of

    n, teams = deal.players, deal.players // deal.team_size
    seat = deal.to_act
    assert seat is not None and deal.trump is not None
    trump = "CDHS".index(deal.trump)
    hand = [c.index for c in deal.hand(seat)]
    current = [(s, c.index) for s, c in deal.current]
    after = [(seat + i) % n for i in range(1, n - len(current))]
    rivals = [c.index for s in after if s % teams != seat % teams for c in deal.hand(s)]
    pot = sum(POINTS[c] for _, c in current)
    best_seat, best = winner_of(current, trump) if current else (-1, -1)
    live = {c.index for s in range(n) for c in deal.hand(s)} | {c.index for c in deal._stock}
    rounds_left = len(hand) + deal.stock_size // n
    stock = [c.index for c in deal._stock]

    def worth(c: int) -> float:
        return POINTS[c] + 3.0 + 0.6 * STRENGTH[c] if SUIT[c] == trump else 0.5 * POINTS[c]

    swap = 0.0
    if expert and teams == 2 and n == 4 and len(stock) == n:
        swap = sum(worth(c) for c in stock[:-1]) / (n - 1) - worth(stock[-1])
    scored = []
    for c in hand:
        stake = pot + POINTS[c]
        if best < 0 or beats(c, best, trump):
            won = not any(beats(x, c, trump) for x in rivals)
            ev = 0.0 if best < 0 and not POINTS[c] else (stake if won else -stake)
        elif best_seat % teams == seat % teams:
            won = not any(beats(x, best, trump) for x in rivals)
            ev = stake if won else -stake
        else:
            won = False
            ev = -stake
        ev += swap if won else -swap
        if SUIT[c] == trump:
            higher = [t for t in live if SUIT[t] == trump and beats(t, c, trump) and t not in hand]
            power = 3.0 + 0.6 * STRENGTH[c] + (0.0 if higher else 3.0)
            power /= 1.0 + 0.2 * (sum(SUIT[x] == trump for x in hand) - 1)
            ev -= POINTS[c] + power * (0.5 if rounds_left <= 2 else 1.0)
        scored.append((-ev, (SUIT[c] == trump, POINTS[c], STRENGTH[c], c)))
    return "play:" + PACK[min(scored)[1][3]].code


@pytest.mark.parametrize("mode", list(MODES))
def test_policy_rollout_plays_the_normal_rule_on_the_sampled_deal(mode: str) -> None:
    from albastini.games.albastini.ai.sim import policy_rollout
    from albastini.games.albastini.fast import FastDeal

    players, team_size = MODES[mode]
    for seed in range(5):
        deal = new_deal(players, team_size, seed % players, seed=seed)
        bots = [make_player("greedy") for _ in range(players)]
        while deal.phase == "bidding" or len(deal.tricks) < seed:
            seat = deal.to_act
            assert seat is not None
            deal.apply(bots[seat].choose(deal.view(seat, history=True)))
        fast = FastDeal.from_deal(deal)
        while deal.phase != "finished":
            deal.apply(reference_policy_card(deal))
        assert policy_rollout(fast) == deal.points()


@pytest.mark.parametrize("mode", list(MODES))
def test_expert_rollout_weighs_the_face_up_trump_at_the_last_draw(mode: str) -> None:
    """The expert rollout weighs who draws the face-up trump at the last draw with two pairs;
    there it plays differently from normal's rule (so a rollout that ignored the rule would
    fail here), and elsewhere it is normal's rule."""
    from albastini.games.albastini.ai.sim import expert_rollout
    from albastini.games.albastini.fast import FastDeal

    players, team_size = MODES[mode]
    differs = 0
    for seed in range(12):
        deal = new_deal(players, team_size, seed % players, seed=seed)
        bots = [make_player("greedy") for _ in range(players)]
        while deal.phase == "bidding" or len(deal.tricks) < seed % 5:
            seat = deal.to_act
            assert seat is not None
            deal.apply(bots[seat].choose(deal.view(seat, history=True)))
        fast = FastDeal.from_deal(deal)
        plain = Deal.from_record(deal.to_record())
        assert isinstance(plain, Deal)  # typed as the engine's Deal; built as the class called on
        while deal.phase != "finished":
            deal.apply(reference_policy_card(deal, expert=True))
        while plain.phase != "finished":
            plain.apply(reference_policy_card(plain))
        assert expert_rollout(fast) == deal.points()
        differs += [a.code for a in deal.actions] != [a.code for a in plain.actions]
    if mode == "4 pairs":
        assert differs
    else:
        assert not differs


def test_hard_has_a_fixed_budget_capped_in_time() -> None:
    from albastini.games.albastini.ai.search import ITERATIONS, TIME_MS

    hard = make_player("hard")
    assert (hard.iterations, hard.time_ms) == (ITERATIONS, TIME_MS)  # type: ignore[attr-defined]
    assert TIME_MS <= 300
    fixed = make_player("hard", iterations=5)
    assert (fixed.iterations, fixed.time_ms) == (5, None)  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        make_player("hard", rollout="random")


@pytest.mark.parametrize("mode", ["2", "4 pairs", "6 trios"])
def test_search_is_deterministic_for_a_seed(mode: str) -> None:
    players, team_size = MODES[mode]
    played = []
    for _ in range(2):
        deal = new_deal(players, team_size, 1, seed=77)
        play_out(deal, ["search"] * players, seed=4)
        played.append([a.code for a in deal.actions])
    assert played[0] == played[1]


def test_search_solves_a_heads_up_endgame_once() -> None:
    from albastini.games.albastini.ai import SearchPlayer

    deal = endgame_position()
    bot = SearchPlayer(seed=1, iterations=50)
    assert bot.choose(deal.view(1, history=True)).code == "play:AH"
    assert bot.last_samples == 1  # every unseen card is in seat 0's hand: one deal to solve


@pytest.mark.parametrize("root", ["hybrid", "prior", "leaf"])
def test_search_roots_play_legal_cards(root: str) -> None:
    for mode in ("2", "4 pairs"):
        players, team_size = MODES[mode]
        deal = new_deal(players, team_size, 0, seed=91)
        play_with(deal, [make_player("hard", seed=s, iterations=3, root=root)
                         for s in range(players)])


@pytest.mark.parametrize(("mode", "root"), [("2", "hybrid"), ("2", "auto"), ("4 pairs", "hybrid")])
def test_hybrid_root_with_an_unreachable_margin_plays_the_experts_card(
    mode: str, root: str
) -> None:
    """The hybrid root (the default, ``auto``, heads-up) plays the expert's card whenever
    the sampled deals cannot beat it by the margin."""
    from albastini.games.albastini.ai.core import cheap_key, read_view
    from albastini.games.albastini.ai.heuristic import stock_empty
    from albastini.games.albastini.ai.terms import expert_values
    from albastini.games.albastini.kernel import CODES

    players, team_size = MODES[mode]
    deal = new_deal(players, team_size, 1, seed=92)
    bots = [make_player("hard", seed=s, iterations=4, root=root, z=1e9) for s in range(players)]
    checked = 0
    while deal.phase != "finished":
        seat = deal.to_act
        assert seat is not None
        view = deal.view(seat, history=True)
        action = bots[seat].choose(view)
        k = read_view(view)
        if k.phase == "playing" and len(view["legal"]) > 1 and not stock_empty(k):
            values = expert_values(k)
            card = min(values, key=lambda c: (-values[c], cheap_key(c, k.trump)))
            assert action.code == f"play:{CODES[card]}"
            checked += 1
        deal.apply(action)
    assert checked > 10


def test_auto_root_searches_plainly_with_partners() -> None:
    """In 4 pairs ``auto`` is the plain search (the hybrid was not measurably better there):
    the same cards as ``root="search"`` from the same seeds, whatever the hybrid's margin."""
    players, team_size = MODES["4 pairs"]
    plays = []
    for root in ("auto", "search"):
        deal = new_deal(players, team_size, 0, seed=93)
        play_with(deal, [make_player("hard", seed=s, iterations=3, root=root, z=1e9)
                         for s in range(players)])
        plays.append([t["plays"] for t in deal.view(0, history=True)["tricks"]])
    assert plays[0] == plays[1]


def test_unknown_search_root_is_refused() -> None:
    with pytest.raises(ValueError, match="root"):
        make_player("hard", root="oracle")


def test_team_rollout_feeds_the_round_a_partner_still_to_play_will_win() -> None:
    """4 pairs, seat 1 leads the King of hearts; seat 2 holds the Seven of spades (10 points,
    no winner) and a zero-point card; its partner, seat 0, plays last with the Ace of hearts.
    Normal's rule (and the expert's) counts only the opponents still to play, so seat 2
    throws its zero-point card; the team rollout loads the Seven on the round its partner
    takes. Clubs are trump, none in play."""
    from albastini.games.albastini.ai.sim import expert_rollout, team_rollout
    from albastini.games.albastini.fast import FastDeal
    from albastini.games.albastini.kernel import card_int, suit_int

    def position() -> FastDeal:
        hands = [["AH", "3D"], ["4S"], ["7S", "3S"], ["3H", "4D"]]
        return FastDeal.from_parts(
            4, 2, suit_int("C"), [[card_int(c) for c in h] for h in hands], [], 1,
            [(1, card_int("KH"))], [0, 0])

    plain, team = position(), position()
    assert plain.to_act == 2
    expert_rollout(plain)
    team_rollout(team)
    # the round: KH + 3S + 3H + AH (15) to side 0 by the plain rule, + 7S (25) by the team's
    assert plain.eaten[0] < team.eaten[0]
    assert team.eaten[0] - plain.eaten[0] == 10


def test_side_rollout_counts_the_partner_for_one_side_only() -> None:
    """``sim.side_rollout``: the team rule for the given side's seats, the expert's for the
    others; every rollout option plays legal whole deals in 4 pairs."""
    from albastini.games.albastini.ai.sim import expert_rollout, side_rollout, team_rollout
    from albastini.games.albastini.fast import FastDeal
    from albastini.games.albastini.kernel import card_int, suit_int

    def position() -> FastDeal:
        hands = [["AH", "3D"], ["4S"], ["7S", "3S"], ["3H", "4D"]]
        return FastDeal.from_parts(
            4, 2, suit_int("C"), [[card_int(c) for c in h] for h in hands], [], 1,
            [(1, card_int("KH"))], [0, 0])

    points = {}
    for name, play in (("expert", expert_rollout), ("team", team_rollout),
                       ("mine", lambda st: side_rollout(st, 0)),
                       ("theirs", lambda st: side_rollout(st, 1))):
        st = position()
        play(st)
        points[name] = st.eaten
    assert points["mine"] == points["team"] != points["expert"] == points["theirs"]
    for rollout in ("team", "side"):
        assert decide("hard", new_deal(4, 2, 0, seed=3).view(1, history=True), seed=1,
                      iterations=4, rollout=rollout).startswith(("bid:", "pass"))
        for seed in range(2):
            bots = [make_player("hard", seed=s, iterations=3, rollout=rollout) for s in range(4)]
            play_with(new_deal(4, 2, seed, seed=seed), bots)


def _first_play_view(mode: str) -> dict[str, Any]:
    """The view of the first seat to play a card in a deal of ``mode`` (bids by greedy)."""
    players, team_size = MODES[mode]
    deal = new_deal(players, team_size, 0, seed=4)
    bots = [make_player("greedy") for _ in range(players)]
    while deal.phase == "bidding":
        seat = deal.to_act
        assert seat is not None
        deal.apply(bots[seat].choose(deal.view(seat, history=True)))
    seat = deal.to_act
    assert seat is not None
    return deal.view(seat, history=True)


@pytest.mark.parametrize("mode", list(MODES))
def test_hard_samples_more_deals_in_two_pairs_and_three_or_four_solo_by_default(
    mode: str,
) -> None:
    """Hard's own budget samples ``ITERATIONS_MORE`` deals a decision in 4 pairs, 3 and 4
    solo and ``ITERATIONS`` in the other modes; a number of deals given is kept in every
    mode."""
    from albastini.games.albastini.ai.search import ITERATIONS, ITERATIONS_MORE, SearchPlayer

    view = _first_play_view(mode)
    hard = make_player("hard", seed=1)
    fixed = make_player("hard", seed=1, iterations=7)
    assert isinstance(hard, SearchPlayer) and isinstance(fixed, SearchPlayer)
    hard._choose(view)
    fixed._choose(view)
    more = mode in ("4 pairs", "3", "4 solo")
    assert hard.worlds == (ITERATIONS_MORE if more else ITERATIONS)
    assert hard.iterations == ITERATIONS
    assert fixed.worlds == 7


@pytest.mark.parametrize("mode", list(MODES))
def test_hard_weighs_the_margin_with_three_or_more_players_each_on_their_own(mode: str) -> None:
    """With three or more players each on their own hard's rollouts also count the card-point
    margin over the best other seat (``MARGIN_MANY``); in the other modes they count who wins
    the deal; a margin given is kept in every mode."""
    from albastini.games.albastini.ai.core import read_view
    from albastini.games.albastini.ai.search import MARGIN_MANY, SearchPlayer

    k = read_view(_first_play_view(mode))
    hard = make_player("hard", seed=1)
    given = make_player("hard", seed=1, margin=0.5)
    assert isinstance(hard, SearchPlayer) and isinstance(given, SearchPlayer)
    assert hard.margin_for(k) == (MARGIN_MANY if mode in ("3", "4 solo", "5", "6 solo") else 0.0)
    assert given.margin_for(k) == 0.5
    # and the expert's exact endgame by default with three or four players each on their own
    assert hard.deep_for(k) == (mode in ("3", "4 solo"))
    deep = make_player("hard", seed=1, deep=True)
    assert isinstance(deep, SearchPlayer) and deep.deep_for(k) == (k.teams > 2)


def test_the_margin_scores_a_close_loss_above_a_heavy_one_and_any_win_above_both() -> None:
    """Six seats, seat 0 scored: losing by 2 points is worth more than losing by 40 (by the
    weight times 38 / 120), and a win is worth more than either."""
    from albastini.games.albastini.ai.search import margin_score

    close = margin_score([30, 32, 20, 15, 13, 10], 0, 1, 4.0)
    heavy = margin_score([10, 50, 20, 15, 13, 12], 0, 1, 4.0)
    win = margin_score([25, 24, 20, 20, 16, 15], 0, 1, 4.0)
    assert close - heavy == pytest.approx(4.0 * 38 / 120 + 38 / 240)
    assert win > close > heavy


def test_hard_plays_the_experts_exact_endgame_with_three_players() -> None:
    """With three players, once the stock is out and the endgame is small, hard (by default)
    plays the card of ``terms.deep_endgame`` (the expert's exact endgame); every card it
    plays in a whole deal is legal."""
    import random

    from albastini.games.albastini.ai.core import read_view
    from albastini.games.albastini.ai.heuristic import best_card
    from albastini.games.albastini.ai.terms import deep_endgame
    from albastini.games.albastini.kernel import CODES

    checked = 0
    for seed in range(3):
        deal = new_deal(3, 1, seed % 3, seed=70 + seed)
        bots = [make_player("greedy", seed=s) for s in range(3)]
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat, history=True)
            if deal.phase == "playing":
                exact = deep_endgame(read_view(view), random.Random(5))
                hard = make_player("hard", seed=5, iterations=3)
                action = hard.choose(view)
                assert action.code in view["legal"]
                if exact:
                    assert action.code == f"play:{CODES[best_card(exact, read_view(view).trump)]}"
                    checked += 1
            deal.apply(bots[seat].choose(view))
    assert checked > 0


def test_the_rollouts_bit_set_tables_read_the_kernels_rules() -> None:
    """The rollout prices a card from bit sets of the hands still to play: a card beats
    ``c`` in a round ``c`` leads or wins exactly when its bit is in ``_BEAT[trump][c]``, and
    ``_top_key`` of a set is the highest ``WIN_KEY`` among its cards."""
    from albastini.games.albastini.ai.sim import _BEAT, _TOP9, _top_key
    from albastini.games.albastini.kernel import CARDS, SUIT, WIN_KEY, beats

    rng = random.Random(3)
    for trump in range(4):
        for c in range(CARDS):
            for x in range(CARDS):
                if x != c:
                    assert bool(_BEAT[trump][c] >> x & 1) == beats(x, c, trump)
        for _ in range(200):
            led = rng.randrange(CARDS)
            held = rng.sample(range(CARDS), rng.randrange(8))
            cards = sum(1 << x for x in held)
            top = max((WIN_KEY[trump][led][x] for x in held), default=0)
            assert _top_key(cards, 9 * trump, 9 * SUIT[led], _TOP9) == top
