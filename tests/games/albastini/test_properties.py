"""Invariants over random games in every mode (hypothesis): cards are conserved at every step,
hands are equal between rounds, points add up, someone can always act, no view shows a hidden
card, and replay gives back the same state."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from albastini import MODES, PACK, Bid, Card, Deal, new_deal

CODE = re.compile(r"(?<![A-Za-z0-9])([A7KJQ6543][CDHS])(?![A-Za-z0-9])")

games = st.tuples(
    st.sampled_from(sorted(MODES)),
    st.integers(0, 5),  # dealer (modulo the table size)
    st.integers(0, 2**32 - 1),  # the pack
    st.integers(0, 2**32 - 1),  # the choices
)

# The view check serialises every seat's views at every step: fewer, heavier examples.
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
VIEW_SETTINGS = settings(SETTINGS, max_examples=50)


def start(game: tuple[str, int, int, int]) -> tuple[Deal, random.Random]:
    name, dealer, pack_seed, choice_seed = game
    players, team_size = MODES[name]
    return new_deal(players, team_size, dealer % players, seed=pack_seed), random.Random(
        choice_seed
    )


def all_cards(deal: Deal) -> Counter[Card]:
    """Every card wherever it lies: hands, bids on the table, the stock (with the indicator or
    the face-up card, the 5-player left-over included), the round in progress, eaten rounds."""
    where: Counter[Card] = Counter()
    for seat in range(deal.players):
        where.update(deal.hand(seat))
    if deal.phase == "bidding":
        where.update(c for _, c in deal.bids if c is not None)
        where[deal.indicator_card] += 1
    where.update(deal._stock)
    where.update(c for _, c in deal.current)
    for trick in deal.tricks:
        where.update(c for _, c in trick.plays)
    return where


def check_state(deal: Deal) -> None:
    assert all_cards(deal) == Counter(PACK)
    sizes = [len(deal.hand(s)) for s in range(deal.players)]
    if deal.phase == "playing" and not deal.current:
        assert len(set(sizes)) == 1
    if deal.phase == "bidding":
        bid_seats = {s for s, c in deal.bids if c is not None}
        assert sizes == [4 if s in bid_seats else 5 for s in range(deal.players)]
    eaten = [0] * deal.teams
    for trick in deal.tricks:
        eaten[deal.team_of(trick.winner)] += trick.points
    assert deal.points() == eaten
    if deal.phase != "finished":
        assert deal.legal_actions()
        assert deal.to_act is not None
    else:
        assert deal.legal_actions() == [] and deal.to_act is None


def known_to(deal: Deal, seat: int, public: set[str]) -> set[str]:
    return public | {c.code for c in deal.hand(seat)}


def check_views(deal: Deal, public: set[str]) -> None:
    everything = {c.code for c in PACK}
    for seat in [None, *range(deal.players)]:
        known = public if seat is None else known_to(deal, seat, public)
        for history in (False, True):
            text = json.dumps(deal.view(seat, history=history))
            shown = set(CODE.findall(text))
            assert shown <= known, (seat, history, shown - known)
            assert shown <= everything


def public_cards(deal: Deal) -> set[str]:
    """Cards the whole table has seen: bids, the turned indicator, the face-up card, plays."""
    seen = {c.code for _, c in deal.bids if c is not None}
    if deal.indicator is not None:
        seen.add(deal.indicator.code)
    if deal.face_up is not None:
        seen.add(deal.face_up.code)
    seen |= {c.code for _, c in deal.current}
    seen |= {c.code for t in deal.tricks for _, c in t.plays}
    return seen


@SETTINGS
@given(games)
def test_invariants_at_every_step(game: tuple[str, int, int, int]) -> None:
    deal, rng = start(game)
    public: set[str] = set()
    check_state(deal)
    while deal.phase != "finished":
        deal.apply(rng.choice(deal.legal_actions()))
        public |= public_cards(deal)  # once seen, a card stays known
        check_state(deal)
    result = deal.result()
    leftover = deal.leftover
    assert sum(result.points) == 120 - (leftover.points if leftover else 0)
    assert len(deal.tricks) == deal.rounds_total
    assert all(len(deal.hand(s)) == 0 for s in range(deal.players))


@VIEW_SETTINGS
@given(games)
def test_no_view_ever_shows_a_hidden_card(game: tuple[str, int, int, int]) -> None:
    deal, rng = start(game)
    public: set[str] = set()
    check_views(deal, public)
    while deal.phase != "finished":
        action = rng.choice(deal.legal_actions())
        deal.apply(action)
        public |= public_cards(deal)
        if isinstance(action, Bid) or deal.phase != "bidding":
            check_views(deal, public)
    check_views(deal, public)


def check_view_facts(deal: Deal) -> None:
    """The facts the view carries for the Discord layer leak nothing and say what the rules say:
    ``card_points`` has exactly the cards the rest of the view shows (so never a hidden one) with
    their real points, ``moves`` are the legal codes with the card each puts down, and the
    finished rounds' ``plays`` split the log's plays where the rounds really ended."""
    for seat in [None, *range(deal.players)]:
        for history in (False, True):
            view = deal.view(seat, history=history)
            points = view.pop("card_points")
            assert set(points) == set(CODE.findall(json.dumps(view))), (seat, history)
            assert all(points[code] == Card.parse(code).points for code in points)
            moves = view["moves"]
            assert [m["code"] for m in moves] == view["legal"]
            for move in moves:
                assert move["card"] is None or move["card"] in view["hand"]
                assert move["code"] == (f"{move['kind']}:{move['card']}" if move["card"]
                                        else move["kind"])
                assert move["trump"] == (move["card"] is not None
                                         and move["card"][1] == view["trump"])
            assert view["bidders"] == list(deal.bidders)
            assert view["team_of"] == [deal.team_of(s) for s in range(deal.players)]
            assert view["face_up_never_drawn"] == (deal.players == 5)
            if history:
                plays = [code for _, code in view["log"] if code.startswith("play:")]
                at = 0
                for trick in view["tricks"]:
                    size = len(trick["plays"])
                    assert plays[at : at + size] == [f"play:{c}" for _, c in trick["plays"]]
                    at += size
                assert plays[at:] == [f"play:{c}" for _, c in view["current"]]


@VIEW_SETTINGS
@given(games)
def test_the_views_facts_for_the_discord_layer_leak_nothing(
    game: tuple[str, int, int, int],
) -> None:
    deal, rng = start(game)
    check_view_facts(deal)
    while deal.phase != "finished":
        deal.apply(rng.choice(deal.legal_actions()))
        check_view_facts(deal)


@SETTINGS
@given(games, st.integers(0, 60))
def test_replay_equals_original(game: tuple[str, int, int, int], steps: int) -> None:
    deal, rng = start(game)
    for _ in range(steps):
        if deal.phase == "finished":
            break
        deal.apply(rng.choice(deal.legal_actions()))
    again = Deal.from_record(json.loads(json.dumps(deal.to_record())))
    for seat in range(deal.players):
        assert again.view(seat, history=True) == deal.view(seat, history=True)
        assert again.hand(seat) == deal.hand(seat)
    assert again._stock == deal._stock
    assert again.points() == deal.points()
    assert again.to_record() == deal.to_record()
