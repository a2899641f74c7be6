"""One deal, rule by rule, in every table mode: dealing, bidding and the forced exchange, rounds,
drawing, the 5-player left-over card, scoring, views, replay and illegal moves."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from albastini import (
    MODES,
    PACK,
    Bid,
    Card,
    Deal,
    IllegalMove,
    Pass,
    Play,
    new_deal,
    score,
)

ALL_MODES = list(MODES.items())
#: Bid and Play parse a code at run time, but their field is typed Card: the tests pass cards
C = Card.parse


def build_deck(
    players: int,
    dealer: int,
    hands: Mapping[int, Sequence[str]] | None = None,
    indicator: str | None = None,
    stock: Sequence[str] = (),
) -> list[str]:
    """A pack order that deals exactly ``hands`` (seat -> up to 5 codes, in dealing order),
    turns ``indicator`` and leaves ``stock`` (drawing order) on top of the rest; every card not
    named fills the gaps in pack order."""
    hands = hands or {}
    named = [c for h in hands.values() for c in h] + list(stock)
    if indicator:
        named.append(indicator)
    assert len(named) == len(set(named)), "a card is named twice"
    spare = iter(c.code for c in PACK if c.code not in named)
    full = {s: list(hands.get(s, [])) for s in range(players)}
    for h in full.values():
        while len(h) < 5:
            h.append(next(spare))
    deck = []
    for i in range(5):
        for k in range(players):
            deck.append(full[(dealer + 1 + k) % players][i])
    deck.append(indicator or next(spare))
    deck += list(stock)
    deck += list(spare)
    assert sorted(deck) == sorted(c.code for c in PACK)
    return deck


def codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


def pass_all(deal: Deal) -> None:
    while deal.phase == "bidding":
        deal.apply(Pass())


def play_round(deal: Deal, *cards: str) -> None:
    for code in cards:
        deal.apply(Play(C(code)))


def finish_randomly(deal: Deal, rng: random.Random) -> None:
    while deal.phase != "finished":
        deal.apply(rng.choice(deal.legal_actions()))


def snapshot(deal: Deal) -> tuple[Any, ...]:
    return (
        json.dumps(deal.to_record()),
        json.dumps([deal.view(s, history=True) for s in range(deal.players)]),
        [codes(deal.hand(s)) for s in range(deal.players)],
        deal.points(),
    )


# ----------------------------------------------------------------------------- dealing
@pytest.mark.parametrize(("name", "spec"), ALL_MODES)
def test_five_cards_each_one_at_a_time_from_the_dealers_left(
    name: str, spec: tuple[int, int]
) -> None:
    players, team_size = spec
    for dealer in range(players):
        deck = [c.code for c in PACK]
        deal = new_deal(players, team_size, dealer, deck=deck)
        for k in range(players):
            seat = (dealer + 1 + k) % players
            assert codes(deal.hand(seat)) == [deck[i * players + k] for i in range(5)]
        assert deal.indicator_card.code == deck[5 * players]
        assert deal.stock_size == 36 - 5 * players
        assert deal.phase == "bidding"
        assert deal.trump is None and deal.indicator is None and deal.face_up is None


def test_seed_gives_the_same_deal_and_deck_wins_over_nothing() -> None:
    a = new_deal(4, 2, 0, seed=42)
    b = new_deal(4, 2, 0, seed=42)
    assert a.deck == b.deck
    assert new_deal(4, 2, 0, seed=43).deck != a.deck
    assert new_deal(4, 2, 0, deck=a.deck).deck == a.deck


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 7}, "No Albastini mode"),
        ({"players": 4, "team_size": 3}, "No Albastini mode"),
        ({"players": 5, "team_size": 5}, "No Albastini mode"),
        ({"players": 4, "dealer": 4}, "Dealer"),
        ({"players": 4, "deck": ["AS"] * 36}, "exactly once"),
        ({"players": 4, "deck": [c.code for c in PACK][:35]}, "exactly once"),
    ],
)
def test_new_deal_rejects_bad_tables(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        new_deal(**kwargs)


# ----------------------------------------------------------------------------- seats, teams
@pytest.mark.parametrize(
    ("name", "teams"),
    [
        ("2", [[0], [1]]),
        ("3", [[0], [1], [2]]),
        ("4 solo", [[0], [1], [2], [3]]),
        ("4 pairs", [[0, 2], [1, 3]]),
        ("5", [[0], [1], [2], [3], [4]]),
        ("6 solo", [[s] for s in range(6)]),
        ("6 pairs", [[0, 3], [1, 4], [2, 5]]),
        ("6 trios", [[0, 2, 4], [1, 3, 5]]),
    ],
)
def test_teams(name: str, teams: list[list[int]]) -> None:
    deal = new_deal(*MODES[name], seed=1)
    assert deal.teams == len(teams)
    for t, members in enumerate(teams):
        assert [s for s in range(deal.players) if deal.team_of(s) == t] == members


@pytest.mark.parametrize(
    ("name", "rounds", "draw_rounds"),
    [
        ("2", 18, 13),
        ("3", 12, 7),
        ("4 solo", 9, 4),
        ("4 pairs", 9, 4),
        ("5", 7, 2),
        ("6 solo", 6, 1),
        ("6 pairs", 6, 1),
        ("6 trios", 6, 1),
    ],
)
def test_rounds_and_draw_rounds(name: str, rounds: int, draw_rounds: int) -> None:
    players, team_size = MODES[name]
    deal = new_deal(players, team_size, 0, seed=3)
    rng = random.Random(3)
    draws = 0
    while deal.phase != "finished":
        before = deal.stock_size
        deal.apply(rng.choice(deal.legal_actions()))
        if deal.phase == "playing" and deal.stock_size < before and before <= 36 - 5 * players:
            assert before - deal.stock_size == players
            draws += 1
    assert len(deal.tricks) == rounds == deal.rounds_total
    assert draws == draw_rounds


# ----------------------------------------------------------------------------- bidding
@pytest.mark.parametrize(
    ("name", "dealer", "bidders"),
    [
        ("2", 0, (1,)),
        ("2", 1, (0,)),
        ("3", 0, (1, 2)),
        ("3", 2, (0, 1)),
        ("4 solo", 1, (2, 3, 0)),
        ("4 pairs", 0, (1, 3)),
        ("4 pairs", 1, (2, 0)),
        ("5", 3, (4, 0, 1, 2)),
        ("6 solo", 0, (1, 2, 3, 4, 5)),
        ("6 pairs", 0, (1, 2, 4, 5)),  # the dealer's partner (seat 3) does not bid
        ("6 pairs", 4, (5, 0, 2, 3)),  # the dealer's partner (seat 1) does not bid
        ("6 trios", 0, (1, 3, 5)),
        ("6 trios", 3, (4, 0, 2)),
    ],
)
def test_only_the_dealers_opponents_bid_clockwise_from_the_left(
    name: str, dealer: int, bidders: tuple[int, ...]
) -> None:
    deal = new_deal(*MODES[name], dealer=dealer, seed=5)
    assert deal.bidders == bidders
    spoke = []
    while deal.phase == "bidding":
        spoke.append(deal.to_act)
        deal.apply(Pass())
    assert tuple(spoke) == bidders
    assert deal.to_act == (dealer + 1) % deal.players  # the dealer's left leads


def test_seed_example_three_players_clubs_already_bid() -> None:
    # A (seat 0) deals, B (seat 1) bids the 4 of clubs; C (seat 2) holds JC 3C 7D AS QS and may
    # not bid a club: a diamond, a spade or a pass.
    deck = build_deck(3, 0, {1: ["4C"], 2: ["JC", "3C", "7D", "AS", "QS"]})
    deal = new_deal(3, 1, 0, deck=deck)
    deal.apply(Bid(C("4C")))
    assert deal.to_act == 2
    legal = deal.legal_actions()
    assert set(legal) == {Bid(C("7D")), Bid(C("AS")), Bid(C("QS")), Pass()}
    before = snapshot(deal)
    for club in ("JC", "3C"):
        with pytest.raises(IllegalMove, match="clubs is taken") as err:
            deal.apply(Bid(C(club)))
        assert err.value.reason == "suit_taken"
        assert err.value.details == {"suit": "C"}
    assert snapshot(deal) == before
    assert deal.view(2)["legal"] == ["bid:7D", "bid:AS", "bid:QS", "pass"]


def test_bid_cards_are_public_and_leave_the_hand_while_bidding() -> None:
    deck = build_deck(4, 0, {1: ["5H"], 3: ["6C"]}, indicator="3D")
    deal = new_deal(4, 2, 0, deck=deck)
    deal.apply(Bid(C("5H")))
    assert "5H" not in codes(deal.hand(1))
    assert len(deal.hand(1)) == 4
    for seat in range(4):
        view = deal.view(seat)
        assert view["bids"] == [{"seat": 1, "card": "5H"}]
        assert view["hand_sizes"] == [5, 4, 5, 5]
        assert view["indicator"] is None and view["trump"] is None
    deal.apply(Bid(C("6C")))
    # Trump is diamonds: both bids go back to their owners.
    assert deal.trump == "D"
    assert deal.indicator == C("3D") == deal.face_up
    assert "5H" in codes(deal.hand(1)) and "6C" in codes(deal.hand(3))
    assert deal.exchange is None
    assert deal.bid_suits == {"H", "C"}


def test_forced_exchange_bid_5h_indicator_3h() -> None:
    # "if I bid with the 5 of hearts and the 3 of hearts is turned up, I must take the 3"
    deck = build_deck(4, 0, {1: ["5H", "AC", "7C", "KC", "JC"]}, indicator="3H")
    deal = new_deal(4, 2, 0, deck=deck)
    deal.apply(Bid(C("5H")))
    deal.apply(Pass())
    assert deal.phase == "playing"
    assert deal.trump == "H"
    assert deal.indicator == C("3H")
    assert codes(deal.hand(1)) == ["AC", "7C", "KC", "JC", "3H"]
    assert deal.face_up == C("5H")
    assert deal.exchange == (1, C("5H"), C("3H"))
    view = deal.view(0)
    assert view["exchange"] == {"seat": 1, "gave": "5H", "took": "3H"}
    assert view["face_up"] == "5H" and view["indicator"] == "3H"
    assert deal.stock_size == 16


def test_exchange_also_when_the_indicator_is_higher() -> None:
    deck = build_deck(2, 1, {0: ["4S"]}, indicator="AS")
    deal = new_deal(2, 1, 1, deck=deck)
    deal.apply(Bid(C("4S")))
    assert "AS" in codes(deal.hand(0)) and "4S" not in codes(deal.hand(0))
    assert deal.face_up == C("4S")


def test_six_solo_fifth_bidder_may_find_every_suit_taken() -> None:
    deck = build_deck(
        6,
        0,
        {1: ["3C"], 2: ["3D"], 3: ["3H"], 4: ["3S"], 5: ["AC", "AD", "AH", "AS", "7C"]},
    )
    deal = new_deal(6, 1, 0, deck=deck)
    for code in ("3C", "3D", "3H", "3S"):
        deal.apply(Bid(C(code)))
    assert deal.to_act == 5
    assert deal.legal_actions() == [Pass()]


# ----------------------------------------------------------------------------- rounds
ROUND_CASES = [
    # (trump suit via indicator, plays by seats 0,1,2,3 in order, winner)
    ("3H", ["AS", "7S", "4H", "KS"], 2),  # a low trump beats everything
    ("3H", ["AS", "5H", "4H", "KS"], 1),  # the higher trump
    ("3H", ["KS", "7S", "AD", "AC"], 1),  # Seven above King; off-suit Aces never win
    ("3H", ["QS", "JS", "6S", "AD"], 1),  # Jack above Queen
    ("3H", ["4S", "AD", "AC", "7D"], 0),  # nobody followed: the lead wins
    ("3C", ["6D", "5D", "AD", "3D"], 2),  # highest of the suit led
    ("3C", ["6D", "5D", "AD", "4C"], 3),  # the only trump
]


@pytest.mark.parametrize(("indicator", "plays", "winner"), ROUND_CASES)
def test_round_winner(indicator: str, plays: list[str], winner: int) -> None:
    deck = build_deck(4, 3, {s: [plays[s]] for s in range(4)}, indicator=indicator)
    deal = new_deal(4, 1, 3, deck=deck)
    pass_all(deal)
    assert deal.to_act == 0
    play_round(deal, *plays)
    trick = deal.tricks[0]
    assert trick.leader == 0
    assert [(s, c.code) for s, c in trick.plays] == list(enumerate(plays))
    assert trick.winner == winner
    assert deal.to_act == winner == deal.leader  # the winner leads the next round
    assert deal.points()[winner] == sum(Card.parse(c).points for c in plays)


@pytest.mark.parametrize(("name", "spec"), ALL_MODES)
@pytest.mark.parametrize(
    ("last", "wins"),
    [("4H", True), ("7S", True), ("QS", False), ("AC", False)],  # trump, Seven > King, ...
)
def test_round_winner_in_every_mode(
    name: str, spec: tuple[int, int], last: str, wins: bool
) -> None:
    players, team_size = spec
    # Seat 0 leads the King of spades; the others throw off-suit Aces and Sevens, the last
    # seat plays ``last``. Hearts are trumps.
    middle = ["AD", "7D", "AC", "7C", "6D"][: players - 2]
    if last in middle:
        middle[middle.index(last)] = "5D"
    plays = ["KS", *middle, last]
    deck = build_deck(players, players - 1, {s: [c] for s, c in enumerate(plays)}, indicator="3H")
    deal = new_deal(players, team_size, players - 1, deck=deck)
    pass_all(deal)
    play_round(deal, *plays)
    winner = deal.tricks[0].winner
    assert winner == (players - 1 if wins else 0)
    assert deal.points()[deal.team_of(winner)] == sum(Card.parse(c).points for c in plays)


def test_no_duty_to_follow_suit_even_after_the_stock_is_empty() -> None:
    deal = new_deal(6, 1, 0, seed=11)
    pass_all(deal)
    rng = random.Random(1)
    while deal.stock_size:
        deal.apply(rng.choice(deal.legal_actions()))
    while deal.phase == "playing":
        hand = deal.hand(deal.to_act)  # type: ignore[arg-type]
        assert deal.legal_actions() == [Play(c) for c in hand]
        if deal.current:
            led = deal.current[0][1].suit
            other = [c for c in hand if c.suit != led]
            if other and any(c.suit == led for c in hand):
                deal.apply(Play(other[0]))  # renounce while holding the suit led: fine
                continue
        deal.apply(Play(hand[0]))
    assert deal.phase == "finished"


# ----------------------------------------------------------------------------- drawing
def test_drawing_winner_first_clockwise_face_up_to_the_right_of_the_winner() -> None:
    # 6 players, one draw round: stock S1..S5 then the face-up card.
    stock = ["AD", "7D", "KD", "JD", "QD"]
    hands = {s: [c] for s, c in enumerate(["4S", "5S", "AS", "6S", "3S", "QS"])}
    deck = build_deck(6, 5, hands, indicator="3H", stock=stock)
    deal = new_deal(6, 1, 5, deck=deck)
    pass_all(deal)
    assert deal.face_up == C("3H")
    play_round(deal, "4S", "5S", "AS", "6S", "3S", "QS")
    assert deal.tricks[0].winner == 2
    drawn = {s: deal.hand(s)[-1].code for s in range(6)}
    assert drawn == {2: "AD", 3: "7D", 4: "KD", 5: "JD", 0: "QD", 1: "3H"}
    assert deal.face_up is None and deal.face_up_drawn_by == 1
    assert deal.stock_size == 0
    assert deal.view(4, history=True)["face_up_drawn_by"] == 1


@pytest.mark.parametrize(("name", "spec"), [m for m in ALL_MODES if m[1][0] != 5])
def test_face_up_card_is_the_last_drawn_by_the_right_of_the_winner(
    name: str, spec: tuple[int, int]
) -> None:
    players, team_size = spec
    for seed in range(8):
        deal = new_deal(players, team_size, seed % players, seed=seed)
        rng = random.Random(seed)
        while deal.phase == "bidding":
            deal.apply(rng.choice(deal.legal_actions()))
        face_up = deal.face_up
        assert face_up is not None
        while deal.face_up is not None:
            hands_before = [set(deal.hand(s)) for s in range(players)]
            deal.apply(rng.choice(deal.legal_actions()))
        winner = deal.tricks[-1].winner
        assert face_up in deal.hand((winner - 1) % players)
        assert deal.face_up_drawn_by == (winner - 1) % players
        assert face_up not in set().union(*hands_before)


def test_stock_draws_in_order_winner_first() -> None:
    rng = random.Random(9)
    for _ in range(20):
        deal = new_deal(4, 2, rng.randrange(4), seed=rng.getrandbits(20))
        while deal.phase == "bidding":
            deal.apply(rng.choice(deal.legal_actions()))
        order = list(deal._stock)
        next_draw = 0
        while deal.stock_size:
            count = len(deal.tricks)
            before = [deal.hand(s) for s in range(4)]
            deal.apply(rng.choice(deal.legal_actions()))
            if len(deal.tricks) > count:
                w = deal.tricks[-1].winner
                for k in range(4):
                    seat = (w + k) % 4
                    assert deal.hand(seat)[-1] == order[next_draw]
                    assert deal.hand(seat)[-1] not in before[seat]
                    next_draw += 1


# ----------------------------------------------------------------------------- five players
def test_five_players_left_over_face_up_card() -> None:
    deck = build_deck(5, 0, indicator="AH")
    deal = new_deal(5, 1, 0, deck=deck)
    pass_all(deal)
    assert deal.face_up == C("AH")
    rng = random.Random(2)
    finish_randomly(deal, rng)
    assert len(deal.tricks) == 7
    assert deal.face_up == C("AH") == deal.leftover
    assert deal.face_up_drawn_by is None
    played = {c for t in deal.tricks for _, c in t.plays}
    assert len(played) == 35 and C("AH") not in played
    assert sum(deal.points()) == 120 - 11
    assert sum(deal.result().points) == 109


def test_five_players_after_an_exchange_the_bid_card_is_left_over() -> None:
    deck = build_deck(5, 0, {2: ["7S"]}, indicator="3S")
    deal = new_deal(5, 1, 0, deck=deck)
    deal.apply(Pass())
    deal.apply(Bid(C("7S")))
    pass_all(deal)
    assert "3S" in codes(deal.hand(2))
    assert deal.leftover == C("7S")
    finish_randomly(deal, random.Random(4))
    assert sum(deal.points()) == 110  # the Seven counts for nobody
    assert all(c.code != "7S" for t in deal.tricks for _, c in t.plays)
    assert any(c.code == "3S" for t in deal.tricks for _, c in t.plays)


# ----------------------------------------------------------------------------- scoring
@pytest.mark.parametrize(
    ("points", "team_size", "winner", "vp"),
    [
        ([60, 60], 1, None, 0),  # tie for the top
        ([60, 60], 2, None, 0),
        ([60, 60], 3, None, 0),
        ([50, 50, 20], 1, None, 0),
        ([40, 40, 40], 2, None, 0),
        ([70, 25, 25], 1, 0, 1),  # ties below the top don't matter
        ([110, 10], 1, 0, 1),  # individual: at least 10 inclusive
        ([111, 9], 1, 0, 2),
        ([30, 30, 50, 10], 1, 2, 1),
        ([30, 31, 50, 9], 1, 2, 2),
        ([0, 120], 1, 1, 2),
        ([100, 20], 2, 0, 1),  # pairs: every team at least 20
        ([101, 19], 2, 0, 2),
        ([80, 20, 20], 2, 0, 1),  # 6 pairs: three teams
        ([81, 20, 19], 2, 0, 2),
        ([90, 30], 3, 0, 1),  # trios: the losing team at least 30
        ([91, 29], 3, 0, 2),
        ([29, 91], 3, 1, 2),
        ([40, 30, 20, 10, 9], 1, 0, 2),  # 5 players: 120 minus the left-over card
        ([40, 30, 20, 10, 10], 1, 0, 1),
    ],
)
def test_score(points: list[int], team_size: int, winner: int | None, vp: int) -> None:
    result = score(points, team_size)
    assert result.winner == winner
    assert result.victory_points == vp
    assert result.points == tuple(points)
    assert result.threshold == 10 * team_size
    json.dumps(result.to_json())


def test_result_only_when_finished_and_it_matches_the_points() -> None:
    deal = new_deal(4, 2, 0, seed=8)
    with pytest.raises(ValueError):
        deal.result()
    finish_randomly(deal, random.Random(8))
    result = deal.result()
    assert list(result.points) == deal.points()
    assert sum(result.points) == 120
    assert deal.view(1)["result"] == result.to_json()


# ----------------------------------------------------------------------------- illegal moves
def test_illegal_moves_raise_readable_messages_and_change_nothing() -> None:
    deck = build_deck(4, 0, {1: ["5H", "AC"], 3: ["6H", "7D"], 2: ["QS"]}, indicator="3C")
    deal = new_deal(4, 2, 0, deck=deck)

    def refused(action: Any, reason: str, match: str, seat: int | None = None) -> None:
        before = snapshot(deal)
        with pytest.raises(IllegalMove, match=match) as err:
            deal.apply(action, seat)
        assert err.value.reason == reason
        assert snapshot(deal) == before

    refused(Play(C("5H")), "bidding", "Bidding is not over")
    refused(Bid(C("QS")), "not_in_hand", "You don't hold the Queen of spades")
    refused(Pass(), "not_bidder", "Only the dealer's opponents bid", seat=0)
    refused(Pass(), "not_bidder", "Only the dealer's opponents bid", seat=2)
    refused(Pass(), "not_your_turn", "not your turn: seat 1", seat=3)
    # a code the rules cannot read: "bad_code", as in every game
    refused("bid:2H", "bad_code", "Not a card code|No such card")
    refused("hello", "bad_code", "Not an action")
    refused(42, "bad_code", "Not an action")
    deal.apply(Bid(C("5H")), 1)
    refused(Bid(C("6H")), "suit_taken", "hearts is taken")
    deal.apply(Bid(C("7D")))
    assert deal.phase == "playing"
    refused(Pass(), "playing", "Bidding is over")
    refused(Bid(C("AC")), "playing", "Bidding is over")
    refused(Play(C("QS")), "not_in_hand", "You don't hold the Queen of spades")
    refused(Play(C("AC")), "not_your_turn", "not your turn", seat=2)
    deal.apply("play:AC")
    finish_randomly(deal, random.Random(1))
    refused(Play(C("AC")), "finished", "The deal is over")
    assert deal.legal_actions() == []


# ----------------------------------------------------------------------------- views
def test_views_show_what_a_seat_may_know_and_nothing_else() -> None:
    deal = new_deal(4, 2, 0, seed=21)
    hidden_stock = {c.code for c in deal._stock} | {deal.indicator_card.code}
    for seat in range(4):
        view = deal.view(seat, history=True)
        text = json.dumps(view)
        assert "deck" not in view
        assert sorted(view["hand"]) == sorted(codes(deal.hand(seat)))
        assert view["indicator"] is None and view["trump"] is None
        for other in range(4):
            if other != seat:
                assert not {c.code for c in deal.hand(other)} & set(text.replace('"', " ").split())
        assert all(code not in text for code in hidden_stock)
        assert view["legal"] == (sorted(a.code for a in deal.legal_actions()) if seat == 1 else [])
    public = deal.view(None)
    assert public["hand"] == [] and public["legal"] == []
    with pytest.raises(ValueError):
        deal.view(4)


def test_view_keys_are_stable() -> None:
    deal = new_deal(4, 2, 0, seed=2)
    keys = {
        "players", "team_size", "teams", "seat", "dealer", "phase", "to_act", "hand",
        "hand_sizes", "stock", "trump", "indicator", "face_up", "bids", "exchange", "round",
        "rounds_total", "leader", "current", "winning", "last_trick", "tricks_won", "legal",
        "result", "team_of", "bidders", "face_up_never_drawn", "moves", "card_points",
    }  # fmt: skip
    assert set(deal.view(0)) == keys
    assert set(deal.view(0, history=True)) == keys | {"tricks", "log", "face_up_drawn_by"}


def test_view_carries_the_facts_a_table_shows() -> None:
    """Who bids, the sides, whether the face-up card is ever drawn, the legal moves with their
    cards, and the points of the cards shown: all in the view, so no reader recomputes them."""
    deck = build_deck(4, 0, {1: ["5H", "AC", "7C", "KC", "JC"]}, indicator="3H")
    deal = new_deal(4, 2, 0, deck=deck)
    view = deal.view(1)
    assert view["bidders"] == [1, 3] and view["team_of"] == [0, 1, 0, 1]
    assert view["face_up_never_drawn"] is False
    assert view["moves"][0] == {"code": "bid:5H", "kind": "bid", "card": "5H", "trump": False}
    assert view["moves"][-1] == {"code": "pass", "kind": "pass", "card": None, "trump": False}
    assert view["card_points"] == {"5H": 0, "AC": 11, "7C": 10, "KC": 4, "JC": 3}
    assert deal.view(0)["moves"] == [] and deal.view(None)["card_points"] == {}
    deal.apply(Bid(C("5H")))
    deal.apply(Pass())
    # seat 1 took the indicator 3H for the 5H bid: both public, so both have their points
    assert deal.view(None)["card_points"] == {"5H": 0, "3H": 0}
    moves = deal.view(1)["moves"]
    assert [m["card"] for m in moves if m["trump"]] == ["3H"]
    assert new_deal(5, 1, 2, seed=1).view(None)["face_up_never_drawn"] is True
    assert new_deal(5, 1, 2, seed=1).view(None)["bidders"] == [3, 4, 0, 1]


def test_view_history_is_the_public_log() -> None:
    deal = new_deal(4, 2, 0, seed=2)
    rng = random.Random(2)
    finish_randomly(deal, rng)
    view = deal.view(3, history=True)
    assert [code for _, code in view["log"]] == deal.to_record()["actions"]
    assert len(view["tricks"]) == 9
    assert view["last_trick"] == view["tricks"][-1]
    assert view["phase"] == "finished" and view["to_act"] is None


# ----------------------------------------------------------------------------- replay
@pytest.mark.parametrize(("name", "spec"), ALL_MODES)
def test_replay_rebuilds_the_exact_state(name: str, spec: tuple[int, int]) -> None:
    rng = random.Random(name)
    deal = new_deal(spec[0], spec[1], rng.randrange(spec[0]), seed=rng.getrandbits(32))
    steps = rng.randrange(1, 40)
    for _ in range(steps):
        if deal.phase == "finished":
            break
        deal.apply(rng.choice(deal.legal_actions()))
    record = json.loads(json.dumps(deal.to_record()))
    again = Deal.from_record(record)
    assert isinstance(again, Deal)  # typed as the engine's Deal; built as the class called on
    assert snapshot(again) == snapshot(deal)


def test_copy_is_independent() -> None:
    deal = new_deal(4, 2, 0, seed=4)
    rng = random.Random(4)
    for _ in range(7):
        deal.apply(rng.choice(deal.legal_actions()))
    before = snapshot(deal)
    other = deal.copy()
    assert isinstance(other, Deal)  # typed as the engine's Deal; a copy keeps its class
    finish_randomly(other, rng)
    assert snapshot(deal) == before
    assert other.phase == "finished"
