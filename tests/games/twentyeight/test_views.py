"""Views: the keys the rules file and the Discord layer need, and what must never be in them
(another hand, the pack, and for anyone but the bidder the face-down trump or its suit)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from albastini.games.twentyeight import Card, Deal, IllegalMove, new_deal
from albastini.games.twentyeight.kernel import CODES, SUIT

from .helpers import random_play, to_play

REQUIRED = {
    "seat", "players", "team_size", "dealer", "phase", "to_act", "teams", "hand", "hand_sizes",
    "bids", "bidder", "contract", "raises", "thani", "trump_face_down", "trump", "trump_card",
    "exposed", "exposed_by", "exposed_in_trick", "trick", "tricks", "points", "legal", "result",
    "moves", "card_points", "n_teams", "tricks_total", "last_trick",
}


def test_view_keys_and_moves() -> None:
    deal = new_deal(4, dealer=0, seed=2)
    v = deal.view(1)
    assert set(v) >= REQUIRED
    assert v["teams"] == [0, 1, 0, 1] and v["n_teams"] == 2 and v["tricks_total"] == 8
    assert v["legal"] == deal.legal_actions()
    assert v["moves"][0] == {"code": "bid:14", "kind": "bid", "card": None, "value": 14}
    assert [m["code"] for m in v["moves"]] == v["legal"]
    assert v["trick"] == {"leader": None, "plays": []} and v["last_trick"] is None
    assert v["result"] is None and v["bidder"] is None and v["contract"] is None
    assert set(v["card_points"]) == set(v["hand"])
    pub = deal.view(None)
    assert pub["hand"] == [] and pub["legal"] == [] and pub["moves"] == []
    assert pub["card_points"] == {}
    assert deal.view(2)["legal"] == []  # not seat 2's turn
    assert new_deal(6).view(0)["tricks_total"] == 6
    assert new_deal(3).view(0)["teams"] == [0, 1, 2]


def test_moves_of_every_kind() -> None:
    deal = new_deal(4, dealer=0, seed=2, thani=True)
    deal.apply("bid:14")
    moves = deal.view(2)["moves"]
    assert moves[-1] == {"code": "pass", "kind": "pass", "card": None, "value": None}
    for _ in range(3):
        deal.apply("pass")
    m = deal.view(1)["moves"][0]
    assert m["kind"] == "trump" and m["card"] == m["code"][6:] and m["value"] is None
    deal.apply(m["code"])
    kinds: dict[str, dict[str, Any]] = {}
    for mv in deal.view(1)["moves"]:
        kinds.setdefault(mv["kind"], mv)
    assert kinds["raise"] == {"code": "raise:24", "kind": "raise", "card": None, "value": 24}
    assert kinds["thani"] == {"code": "thani", "kind": "thani", "card": None, "value": None}
    deal.apply("pass")
    deal.apply("pass")
    m = deal.view(deal.to_act)["moves"][0]
    assert m["kind"] == "play" and m["card"] == m["code"][5:]
    assert deal.view(deal.to_act)["card_points"][m["card"]] == Card.parse(m["card"]).points


def test_views_are_json_and_card_points_cover_exactly_the_shown_cards() -> None:
    rng = random.Random(5)
    for players in (3, 4, 6):
        deal = new_deal(players, seed=players)
        while deal.phase != "finished":
            for seat in [None, *range(players)]:
                v = deal.view(seat)
                json.loads(json.dumps(v))
                shown = set(v["hand"])
                for t in v["tricks"]:
                    shown |= {c for _, c in t["plays"]}
                shown |= {c for _, c in v["trick"]["plays"]}
                if v["trump_card"]:
                    shown.add(v["trump_card"])
                assert set(v["card_points"]) == shown
                if v["last_trick"] is not None:
                    assert v["last_trick"] == v["tricks"][-1]
            deal.apply(rng.choice(deal.legal_actions()))
        assert deal.view(None)["result"] == deal.result().to_json()


def _hidden(deal: Deal) -> tuple[int, str, str] | None:
    st = deal.state
    if not st.face_down:
        return None
    return st.bidder, CODES[st.trump_card], "CDHS"[st.trump]


def _assert_no_leak(deal: Deal) -> None:
    hidden = _hidden(deal)
    if hidden is None:
        return
    bidder, card, suit = hidden
    for seat in [None, *range(deal.players)]:
        v = deal.view(seat)
        if seat == bidder:
            assert v["trump_card"] == card and v["trump"] == suit
            continue
        text = json.dumps(v)
        assert card not in text
        assert v["trump"] is None and v["trump_card"] is None
        for t in v["tricks"]:
            assert set(t) == {"leader", "plays", "winner", "points"}
        assert v["hand_sizes"][bidder] == sum(map(len, deal.state.hands[bidder]))


@pytest.mark.parametrize("players", [3, 4, 6])
def test_no_view_shows_the_face_down_card_to_anyone_but_the_bidder(players: int) -> None:
    rng = random.Random(players)
    for seed in range(25):
        deal = new_deal(players, dealer=seed % players, seed=seed)
        while deal.phase != "finished":
            _assert_no_leak(deal)
            legal = deal.legal_actions()
            if len(legal) > 1 and rng.random() < 0.8:
                legal = [c for c in legal if c != "expose"]
            deal.apply(rng.choice(legal))


ALL_CODES = [
    "pass", "expose", "thani",
    *(f"bid:{n}" for n in range(10, 30)), *(f"raise:{n}" for n in range(20, 30)),
    *(f"play:{c}" for c in CODES), *(f"trump:{c}" for c in CODES),
]


def _outcome(deal: Deal, code: str) -> tuple[str, str, str]:
    d = deal.copy()
    try:
        d.apply(code)
    except IllegalMove as exc:
        return exc.reason, str(exc), json.dumps(exc.details, sort_keys=True)
    return "ok", "", ""


def _twin(deal: Deal, viewer: int) -> Deal | None:
    """The same deal with another face-down card of another suit, taken from a hand the
    viewer cannot see (not the viewer's, not played): the viewer cannot tell them apart."""
    st = deal.state
    for seat in range(deal.players):
        if seat == viewer:
            continue
        for suit_cards in st.hands[seat]:
            for card in suit_cards:
                if SUIT[card] != st.trump:
                    twin = deal.copy()
                    t = twin.state
                    t.hands[seat][SUIT[card]].remove(card)
                    t.hands[seat][t.trump].append(t.trump_card)
                    t.trump_card, t.trump = card, SUIT[card]
                    return twin
    return None


def test_a_defender_cannot_tell_the_trump_from_views_or_refusals() -> None:
    """Swap the face-down card for a card of another suit from a hand the player to act
    cannot see: that player's view and every refusal sentence stay identical."""
    rng = random.Random(3)
    checked = 0
    for seed in range(30):
        deal = to_play(4, dealer=seed % 4, seed=seed)
        while deal.phase == "playing" and deal.state.face_down:
            seat = deal.to_act
            assert seat is not None
            if seat != deal.state.bidder:
                twin = _twin(deal, seat)
                if twin is not None:
                    assert twin.view(seat) == deal.view(seat)
                    for code in ALL_CODES:
                        assert _outcome(deal, code) == _outcome(twin, code), code
                    checked += 1
            legal = [c for c in deal.legal_actions() if c != "expose"] or ["expose"]
            deal.apply(rng.choice(legal))
    assert checked > 100


def test_result_absent_before_the_end_and_public_after() -> None:
    deal = to_play(4, seed=4)
    assert deal.view(None)["result"] is None
    random_play(deal, random.Random(4))
    res: dict[str, Any] = deal.view(None)["result"]
    assert set(res) >= {"points", "winner", "game_points"}


def test_view_of_a_bad_seat() -> None:
    with pytest.raises(ValueError):
        new_deal(4).view(4)


def _to_trump(players: int, seed: int) -> Deal:
    """A deal whose first speaker bid the minimum and everyone else passed: the bidder is
    to lay the trump card."""
    deal = new_deal(players, dealer=0, seed=seed)
    deal.apply(deal.legal_actions()[0])
    while deal.phase == "bidding":
        deal.apply("pass")
    assert deal.phase == "trump"
    return deal


@pytest.mark.parametrize("players", [3, 4, 6])
def test_a_hand_order_never_tells_the_face_down_trump(players: int) -> None:
    """Twin deals that differ only by the card laid face down (of another suit): every other
    seat's view, its hand's order included, is the same in both, though that seat holds both
    suits; the bidder sees its own trump suit first; once exposed, everyone does."""
    leaks_possible = 0
    for seed in range(12):
        deal = _to_trump(players, seed)
        bidder = deal.to_act
        assert bidder is not None
        held = deal.view(bidder)["hand"]
        pair = next(((a, b) for a in held for b in held if a[1] < b[1]), None)
        if pair is None:
            continue
        twins = [deal.copy(), deal.copy()]
        for twin, card in zip(twins, pair, strict=True):
            twin.apply(f"trump:{card}")
        rng = random.Random(seed)
        while twins[0].phase != "finished" and not twins[0].view(None)["exposed"]:
            for seat in range(players):
                if seat == bidder:
                    continue
                one, other = (twin.view(seat) for twin in twins)
                assert one == other, f"seat {seat} can tell the face-down card"
                suits = {code[1] for code in one["hand"]}
                leaks_possible += {pair[0][1], pair[1][1]} <= suits
            for twin, card in zip(twins, pair, strict=True):
                own = twin.view(bidder)
                if any(code[1] == card[1] for code in own["hand"]):
                    assert own["hand"][0][1] == card[1]  # the bidder knows its trump
            actor = twins[0].to_act
            legal = sorted(set(twins[0].legal_actions()) & set(twins[1].legal_actions()))
            if actor == bidder or not legal:
                break  # the bidder's options differ between the twins
            code = rng.choice(legal)
            for twin in twins:
                twin.apply(code)
    assert leaks_possible > 20


def test_once_exposed_every_hand_lists_the_trump_suit_first() -> None:
    rng = random.Random(8)
    for seed in range(10):
        deal = to_play(4, seed=seed)
        while deal.phase == "playing" and not deal.view(None)["exposed"]:
            legal = deal.legal_actions()
            deal.apply("expose" if "expose" in legal else rng.choice(legal))
        if deal.phase != "playing":
            continue
        trump = deal.view(None)["trump"]
        assert trump is not None
        for seat in range(4):
            hand = deal.view(seat)["hand"]
            if any(code[1] == trump for code in hand):
                assert hand[0][1] == trump
