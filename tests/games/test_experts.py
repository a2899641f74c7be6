"""The arena's expert opponents (bench/experts/): legal codes from the view alone in every game
and mode, the same choice whatever the hidden cards are, and the play an expert would show."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from albastini import MODES as ALBASTINI_MODES
from albastini import new_deal as new_albastini
from albastini.ai import make_player
from albastini.games import ass, cassino, twentyeight
from albastini.games.ass.ai.core import known_voids, read_view
from albastini.games.twentyeight.ai.core import CODE_INT
from bench.experts import GAMES, make_expert
from bench.experts.ass import ExpertPlayer as ExpertAss
from bench.experts.ass import reach_density
from bench.experts.twentyeight import ExpertPlayer as Expert28
from bench.experts.twentyeight import trump_value

from .ass.helpers import hidden_dealt_again
from .cassino.helpers import exact_value, loose, position
from .twentyeight.helpers import deck_for


def _deals() -> list[tuple[str, Callable[[int], Any], Callable[[Any, int], dict[str, Any]]]]:
    """(game, a deal from a seed, the view a computer player is shown) for every mode."""
    out: list[tuple[str, Callable[[int], Any], Callable[[Any, int], dict[str, Any]]]] = []
    # typed defs, not lambdas: mypy cannot infer a lambda whose mode is bound by a default
    for mode, (players, team_size) in ALBASTINI_MODES.items():
        def albastini_deal(seed: int, p: int = players, t: int = team_size) -> Any:
            return new_albastini(p, t, seed % p, seed=seed)

        out.append((f"albastini {mode}", albastini_deal,
                    lambda deal, seat: deal.view(seat, history=True)))
    for mode, spec in twentyeight.MODES.items():
        def twentyeight_deal(seed: int, s: dict[str, int] = spec) -> Any:
            return twentyeight.new_deal(s["players"], s["team_size"], seed % s["players"],
                                        seed=seed, thani=seed % 2 == 1)

        out.append((f"twentyeight {mode}", twentyeight_deal, lambda deal, seat: deal.view(seat)))
    for mode, spec in cassino.MODES.items():
        def cassino_deal(seed: int, s: dict[str, int] = spec) -> Any:
            return cassino.new_deal(s["players"], s["team_size"], seed % s["players"], seed=seed)

        out.append((f"cassino {mode}", cassino_deal, cassino.table_view))
    for mode, spec in ass.MODES.items():
        def ass_deal(seed: int, s: dict[str, int] = spec) -> Any:
            return ass.new_deal(s["players"], 1, seed % s["players"], seed=seed)

        out.append((f"ass {mode}", ass_deal, ass.table_view))
    return out


DEALS = _deals()


# ids by the mode's name: a function's repr holds its address, which changes every run
@pytest.mark.parametrize(("name", "make", "view_of"), DEALS, ids=[d[0] for d in DEALS])
def test_experts_play_legal_codes_in_every_mode(
    name: str, make: Callable[[int], Any], view_of: Callable[[Any, int], dict[str, Any]]
) -> None:
    game = name.split()[0]
    for seed in range(3):
        deal = make(seed)
        bots = [make_expert(game, seed=seed * 10 + s) for s in range(deal.players)]
        while deal.phase != "finished":
            seat = deal.to_act
            view = view_of(deal, seat)
            code = bots[seat].choose(view)
            assert code in view["legal"]
            deal.apply(code)


def test_every_game_has_an_expert() -> None:
    assert set(GAMES) == {"albastini", "twentyeight", "cassino", "ass"}
    with pytest.raises(ValueError):
        make_expert("chess")


def test_twentyeight_expert_sees_only_its_view() -> None:
    """The other hands dealt differently (its own cards the same): the same bid."""
    mine = ["JH", "9H", "7S", "QC"]
    rng = random.Random(3)
    codes = set()
    for _ in range(20):
        rest = [c.code for c in twentyeight.pack(4) if c.code not in mine]
        rng.shuffle(rest)
        deck = deck_for(4, 3, {0: mine, 1: rest[:4], 2: rest[4:8], 3: rest[8:12]})
        deal = twentyeight.new_deal(4, 2, 3, deck=deck)
        codes.add(Expert28(seed=1).choose(deal.view(0)))
    assert codes == {"bid:14"}  # seat 0 opens (dealer 3): the same choice every time


def test_twentyeight_expert_bids_on_the_jack_and_nine_of_a_long_suit() -> None:
    strong = ["JH", "9H", "AH", "7H"]
    weak = ["7C", "8D", "QH", "KS"]
    value = {name: max(trump_value([CODE_INT[c] for c in hand], s, 4) for s in range(4))
             for name, hand in (("strong", strong), ("weak", weak))}
    assert value["strong"] > value["weak"] + 6
    codes = {}
    for name, hand in (("strong", strong), ("weak", weak)):
        deal = twentyeight.new_deal(4, 2, 3, deck=deck_for(4, 3, {1: hand}))
        deal.apply("bid:14")
        codes[name] = Expert28(seed=1).choose(deal.view(1))
    assert codes == {"strong": "bid:15", "weak": "pass"}


def test_twentyeight_expert_lays_its_weakest_trump_and_keeps_the_jack() -> None:
    deal = twentyeight.new_deal(4, 2, 3, deck=deck_for(4, 3, {0: ["JS", "9S", "7S", "AC"]}))
    deal.apply("bid:14")
    for _ in range(3):
        deal.apply("pass")
    assert Expert28(seed=1).choose(deal.view(0)) == "trump:7S"


def test_cassino_expert_takes_big_cassino() -> None:
    deal = position([loose("4C"), loose("5D"), loose("9H"), loose("TD"), loose("KH")],
                    ["9S", "TS", "3C"])
    assert make_expert("cassino").choose(cassino.table_view(deal, 1)) == "capture:TS:TD"


def test_cassino_expert_does_not_leave_a_sweep() -> None:
    """Trailing the 3 would leave 3+6 for any 9; the King leaves no sweep to a number card."""
    deal = position([loose("6H")], ["3C", "KD"], others=["9C", "9D", "9S", "2H"])
    assert make_expert("cassino").choose(cassino.table_view(deal, 1)) == "trail:KD"


def test_albastini_expert_bids_the_lowest_card_of_its_longest_free_suit() -> None:
    # heads-up, dealer 0: seat 1 is dealt deck[0], deck[2], ... deck[8] and bids first
    hand = ["3H", "6H", "KH", "AS", "QC"]
    rest = [c.code for c in new_albastini(2, 1, 0, seed=1).deck if c.code not in hand]
    deck = [hand[i // 2] if i % 2 == 0 and i < 10 else rest.pop(0) for i in range(36)]
    deal = new_albastini(2, 1, 0, deck=deck)
    assert sorted(deal.view(1)["hand"]) == sorted(hand)
    assert make_expert("albastini").choose(deal.view(1, history=True)) == "bid:3H"


def test_ass_expert_gives_a_six_not_an_eight_to_a_trick_it_does_not_take() -> None:
    checked = 0
    for seed in range(60):
        deal = ass.new_deal(4, 1, 0, seed=seed)
        while deal.phase == "betting":
            deal.apply("no")
        deal.apply(deal.legal_actions()[0])
        seat = deal.to_act
        view = ass.table_view(deal, seat)
        sixes = [c for c in view["legal"] if c[5] == "6"]
        eights = [c for c in view["legal"] if c[5] == "8"]
        code = make_expert("ass").choose(view)
        deal.apply(code)
        if sixes and eights and deal.view(seat)["trick"]["holder"] != seat:
            checked += 1
            assert code not in eights
    assert checked


@pytest.mark.parametrize("tricks", [0, 3, 6, 7])
def test_ass_expert_sees_only_its_view(tricks: int) -> None:
    """The hidden cards dealt differently around the same view (the bet, a trick with the
    stock still out, and the endgame that prices cards by sampled deals around the voids
    read from the public tricks): the same choice every time."""
    checked = 0
    for seed in range(6):
        deal = ass.new_deal(4, 1, seed % 4, seed=seed)
        players = [make_expert("ass", seed=s) for s in range(4)]
        while deal.phase != "finished" and ((deal.phase == "betting" and tricks > 0)
                                            or len(deal.state.tricks) < tricks):
            assert deal.to_act is not None
            deal.apply(players[deal.to_act].choose(ass.table_view(deal, deal.to_act)))
        if deal.phase == "finished":
            continue
        seat = deal.to_act
        assert seat is not None
        view = ass.table_view(deal, seat)
        codes = set()
        rng = random.Random(seed)
        for _ in range(8):
            again = hidden_dealt_again(deal, seat, rng)
            assert ass.table_view(again, seat) == view
            codes.add(make_expert("ass", seed=1).choose(ass.table_view(again, seat)))
        assert len(codes) == 1
        checked += 1
    assert checked >= 4


def test_ass_expert_reads_only_true_voids_once_nobody_draws() -> None:
    """A seat that discarded on a suit after the last draw holds none of it (the endgame's
    deals are dealt around that); across many deals the reading finds voids and is never
    wrong."""
    found = 0
    for seed in range(40):
        deal = ass.new_deal(4, 1, seed % 4, seed=seed)
        players = [make_expert("ass", seed=s) for s in range(4)]
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            view = ass.table_view(deal, seat)
            if deal.phase == "playing":
                voids = known_voids(read_view(view), view["tricks"])
                for s, suits in enumerate(voids):
                    held = {c // 9 for c in deal.state.hands[s]}
                    assert not suits & held
                    found += len(suits)
            deal.apply(players[seat].choose(view))
    assert found > 0


def test_ass_expert_weighs_points_by_the_banks_they_can_change() -> None:
    """A point is worth most to a player near the target, nothing to one who has reached
    it, more after a "go" (a miss takes a bank), and the expert's own counts once per
    opponent."""
    near, far, reached = (reach_density(p, 92, 3, 4) for p in (80, 10, 95))
    assert near > 5 * far and reached == 0.0
    deal = ass.new_deal(4, 1, 0, seed=2)
    for code in ("go", "no", "no", "no"):  # seat 1 (the dealer's left) speaks first
        deal.apply(code)
    weights = ExpertAss().weights(read_view(ass.table_view(deal, 2)), 0, 9)
    assert weights[2] > 0 and all(weights[s] < 0 for s in (0, 1, 3))
    # keeping points from a "go" counts twice (above a small floor every weight has)
    assert weights[1] < 1.5 * weights[0] < 0
    assert weights[2] == -3 * weights[0]  # its own: once per opponent


def _codes_in(value: Any) -> set[str]:
    """Every string anywhere in a view (card codes among them)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_codes_in(v) for v in value.values()), set(map(str, value)))
    if isinstance(value, (list, tuple)):
        return set().union(set(), *(_codes_in(v) for v in value))
    return set()


@pytest.mark.parametrize(("players", "team_size"), [(2, 1), (4, 2)])
def test_albastini_expert_sees_only_its_view(players: int, team_size: int) -> None:
    """At every decision of several deals (the bid, the leads, the last draw's face-up trump,
    the endgame read over sampled placements), the cards the seat cannot see are dealt
    differently, the same moves replayed: the view is the same, and so is the expert's choice."""
    checked = 0
    for seed in range(4 if players == 2 else 2):  # 4 pairs: its deep endgame reads are slow
        deal = new_albastini(players, team_size, seed % players, seed=seed)
        deck = [c.code for c in deal.deck]
        moves: list[str] = []
        rng = random.Random(seed)
        while deal.phase != "finished":
            seat = deal.to_act
            view = deal.view(seat, history=True)
            code = make_expert("albastini", seed=7).choose(view)
            if len(view["legal"]) > 1:
                seen = _codes_in(view)
                hidden = [i for i, c in enumerate(deck) if c not in seen]
                if len(hidden) > 1:
                    cards = [deck[i] for i in hidden]
                    rng.shuffle(cards)
                    other = list(deck)
                    for i, c in zip(hidden, cards, strict=True):
                        other[i] = c
                    twin = new_albastini(players, team_size, seed % players, deck=other)
                    for m in moves:
                        twin.apply(m)
                    twin_view = twin.view(seat, history=True)
                    assert twin_view == view
                    assert make_expert("albastini", seed=7).choose(twin_view) == code
                    checked += 1
            deal.apply(code)
            moves.append(code)
    assert checked > 20


def _albastini_positions(stop: Callable[[Any], bool], want: int = 4) -> list[Any]:
    """``want`` heads-up deals played by the normal player, each stopped at its first
    decision where ``stop(deal)`` holds while cards are left to draw (the deal is left
    there)."""
    found: list[Any] = []
    for seed in range(1000):
        deal = new_albastini(2, 1, seed % 2, seed=seed)
        bots = [make_player("normal", seed=seed), make_player("normal", seed=seed + 1)]
        while deal.stock_size >= 2:
            if deal.phase == "playing" and stop(deal):
                found.append(deal)
                break
            assert deal.to_act is not None
            deal.apply(bots[deal.to_act].choose(deal.view(deal.to_act, history=True)))
        if len(found) == want:
            break
    return found


def test_albastini_expert_leaves_a_pointless_last_draw_round_to_take_the_face_up_ace() -> None:
    """At the last draw the face-up card goes to the seat that loses the round: with the Ace
    or Seven of trumps face up and nothing in the round, the expert does not take it."""

    def stop(deal: Any) -> bool:
        view = deal.view(deal.to_act)
        if view["stock"] != 2 or len(view["current"]) != 1 or not view["face_up"]:
            return False
        led = view["current"][0][1]
        hand = view["hand"]
        return (view["face_up"][0] in "A7" and led[0] in "3456"
                and any(c[1] == led[1] and c[0] in "A7KJQ" for c in hand)
                and any(c[1] not in (led[1], view["trump"]) for c in hand))

    positions = _albastini_positions(stop)
    assert len(positions) == 4
    for deal in positions:
        seat = deal.to_act
        code = make_expert("albastini", seed=1).choose(deal.view(seat, history=True))
        deal.apply(code)
        view = deal.view(seat)
        assert not view["current"] and view["last_trick"]["winner"] != seat, code


def test_albastini_expert_leads_away_from_suits_whose_points_are_out() -> None:
    """Heads-up, the follower banks the higher cards of the suit led for nothing: between two
    plain lisci the expert does not lead the one whose suit's Ace and Seven are both unseen
    when the other suit's are both played."""

    def split(view: dict[str, Any]) -> tuple[list[str], list[str]]:
        played = {c for t in view["tricks"] for _, c in t["plays"]}
        trump = view["trump"]
        lisci = [c for c in view["hand"] if c[0] in "3456" and c[1] != trump]
        open_ = [c for c in lisci if f"A{c[1]}" not in played and f"7{c[1]}" not in played
                 and f"A{c[1]}" not in view["hand"] and f"7{c[1]}" not in view["hand"]]
        closed = [c for c in lisci if f"A{c[1]}" in played and f"7{c[1]}" in played]
        return open_, closed

    def stop(deal: Any) -> bool:
        view = deal.view(deal.to_act, history=True)
        open_, closed = split(view)
        return not view["current"] and view["stock"] > 2 and bool(open_) and bool(closed)

    positions = _albastini_positions(stop)
    assert len(positions) == 4
    for deal in positions:
        view = deal.view(deal.to_act, history=True)
        open_, _ = split(view)
        assert make_expert("albastini", seed=1).choose(view)[5:] not in open_


def test_cassino_expert_plays_the_last_round_exactly() -> None:
    """Heads-up, once the pack is dealt every unseen card is in the other hand: the expert's
    play is worth what the best play is worth by a brute-force minimax of the true deal, and
    in some positions the rules alone would have played worse."""
    from albastini.games.cassino.ai.core import action_of
    from bench.experts.cassino import ExpertPlayer as ExpertCas

    rules = ExpertCas()
    rules.EXACT = 0
    checked = better = 0
    for seed in range(40):
        deal = cassino.new_deal(2, 1, seed % 2, seed=seed)
        bots = [make_expert("cassino"), cassino.make_player("normal", seed=seed)]
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            view = cassino.table_view(deal, seat)
            st = deal.state
            if (seat == 0 and view["pack"] == 0 and sum(view["hand_sizes"]) <= 5
                    and len(view["legal"]) > 1):
                code = bots[0].choose(view)
                worth = {}
                for c in view["legal"]:
                    child = st.copy()
                    child.apply(action_of(c))
                    worth[c] = exact_value(child, 0)
                assert worth[code] == max(worth.values()), (code, worth)
                checked += 1
                better += worth[rules.choose(view)] < worth[code]
            deal.apply(bots[seat].choose(view))
    assert checked >= 20 and better >= 1


@pytest.mark.parametrize(("players", "team_size"), [(2, 1), (3, 1), (4, 2)])
def test_cassino_expert_sees_only_its_view(players: int, team_size: int) -> None:
    """At decisions all through several deals (its exact last round included) the cards the
    seat cannot see (the other hands, the undealt pack) are dealt differently around the same
    view: the view is the same, and so is the expert's choice."""
    checked = 0
    for seed in range(3):
        deal = cassino.new_deal(players, team_size, seed % players, seed=seed)
        bots = [make_expert("cassino", seed=s) for s in range(players)]
        rng = random.Random(seed)
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            view = cassino.table_view(deal, seat)
            code = bots[seat].choose(view)
            if len(view["legal"]) > 1 and rng.random() < 0.5:
                st = deal.state
                others = [s for s in range(players) if s != seat]
                hidden = [c for s in others for c in st.hands[s]] + list(st.deck[st.pos:])
                for _ in range(3):
                    twin = st.copy()
                    rng.shuffle(hidden)
                    rest = list(hidden)
                    for s in others:
                        n = len(st.hands[s])
                        twin.hands[s], rest = sorted(rest[:n]), rest[n:]
                    twin.deck = tuple(list(st.deck[:st.pos]) + rest)
                    deal.state = twin
                    twin_view = cassino.table_view(deal, seat)
                    deal.state = st
                    assert twin_view == view
                    assert make_expert("cassino", seed=seat).choose(twin_view) == code
                checked += 1
            deal.apply(code)
    assert checked > 20
