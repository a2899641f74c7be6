"""Computer players: legal codes from the view alone at every level, the greedy player's
stated policy, reproducible choices, picklable ``decide``."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from albastini.games.cassino import decide, make_player, new_deal, table_view
from albastini.games.cassino.ai import KINDS, SearchPlayer

from .helpers import assert_blind, build, loose, position


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_level_plays_legal_codes_from_the_view(players: int) -> None:
    rng = random.Random(players)
    deal = new_deal(players, seed=players)
    bots = {lv: make_player(lv, seed=1, **({"iterations": 2} if lv == "hard" else {}))
            for lv in ("random", "greedy", "easy", "normal", "hard")}
    levels = list(bots)
    turn = 0
    while deal.phase != "finished":
        seat = deal.to_act
        view = json.loads(json.dumps(table_view(deal, seat)))  # the view alone, as JSON
        bot = bots[levels[turn % len(levels)]]
        code = bot.choose(view)
        assert code in deal.legal_actions()
        # the plain rules view serves as well
        assert bots["normal"].choose(deal.view(seat)) in deal.legal_actions()
        deal.apply(code if rng.random() < 0.7 else rng.choice(deal.legal_actions()))
        turn += 1


def test_greedy_captures_the_most_valuable_set() -> None:
    deal = position([loose("4C"), loose("5D"), loose("9H"), loose("TD"), loose("KH")],
                    ["9S", "TS", "3C"])
    # the 10 of diamonds (2 points) beats four cards of nothing
    assert make_player("greedy").choose(deal.view(1)) == "capture:TS:TD"
    deal = position([loose("4C"), loose("5D"), loose("9H")], ["9S", "2C"])
    assert make_player("greedy").choose(deal.view(1)) == "capture:9S:4C5D9H"  # a sweep


def test_greedy_trails_its_least_useful_card() -> None:
    deal = position([loose("KH")], ["AS", "TD", "QC", "7D"])
    assert make_player("greedy").choose(deal.view(1)) == "trail:QC"


def test_normal_takes_its_own_build_and_plans_builds() -> None:
    deal = position([build("2C5D", 7, 1), loose("4H")], ["7S", "4D", "KC"])
    assert make_player("normal").choose(deal.view(1)).startswith("capture:7S:2C")
    deal = position([loose("3C"), loose("KH")], ["7D", "TS"], others=["JD", "QD", "2H", "2D"])
    choice = make_player("normal").choose(deal.view(1))
    assert choice == "build:7D:10:3C"


def test_players_reproduce_and_decide_pickles() -> None:
    deal = new_deal(2, seed=4)
    view = table_view(deal, deal.to_act)
    a = make_player("hard", seed=5, iterations=3).choose(view)
    b = make_player("hard", seed=5, iterations=3).choose(view)
    assert a == b
    assert pickle.loads(pickle.dumps(decide))("easy", view, 1) in view["legal"]
    assert decide("random", view, 2) == decide("random", view, 2)


def test_unknown_levels_and_options() -> None:
    with pytest.raises(ValueError):
        make_player("grandmaster")
    with pytest.raises(ValueError):
        make_player("hard", depth=3)
    assert {"easy", "normal", "hard", "random", "greedy"} <= set(KINDS)
    with pytest.raises(ValueError):
        make_player("easy").choose({"legal": []})


def test_captured_cards_are_replayed_from_the_public_history() -> None:
    from albastini.games.cassino.ai.core import read_view

    for players in (2, 3, 4):
        deal = new_deal(players, seed=players + 10)
        rng = random.Random(players)
        while deal.phase != "finished":
            seat = deal.to_act
            k = read_view(table_view(deal, seat))
            assert [sorted(p) for p in k.piles] == [sorted(p) for p in deal.state.piles]
            deal.apply(rng.choice(deal.legal_actions()))


def test_rollout_moves_are_the_greedy_rule_without_a_sweep_left() -> None:
    from albastini.games.cassino import kernel as K
    from albastini.games.cassino.ai.core import (
        can_sweep,
        greedy_action,
        greedy_move,
        rollout_move,
    )

    rng = random.Random(5)
    for _ in range(30):
        deck = list(range(52))
        rng.shuffle(deck)
        st = K.State(2, 1, rng.randrange(2), deck)
        while not st.finished:
            legal = st.legal()
            assert greedy_move(st) == (legal[0] if len(legal) == 1
                                       else greedy_action(st.table, legal))
            move = rollout_move(st)
            assert move in legal
            if move[0] == K.TRAIL:
                nxt = st.hands[(st.to_act + 1) % 2]
                trails = [a for a in legal if a[0] == K.TRAIL]
                safe = [a for a in trails if not can_sweep(
                    sorted([*st.table, (a[1], (a[1],), K.LOOSE, K.VALUE[a[1]], -1)]), nxt)]
                assert not safe or move in safe
            st.apply(rng.choice(legal))


@pytest.mark.parametrize("variant", [{}, {"horizon_value": True}, {"play_search": "ismcts"},
                                     {"play_search": "ismcts", "horizon_value": True},
                                     {"play_search": "pimc", "others_policy": "normal"},
                                     {"play_search": "pimc", "others_policy": "replies"}])
def test_hard_takes_the_sweep_and_the_big_cassino_and_leaves_no_easy_sweep(
        variant: dict[str, object]) -> None:
    """Today's hard and its variants for the bench (the tree search, the value of the
    position left at the horizon, the other seats' rollouts by normal's choice) alike."""
    hard = make_player("hard", seed=3, iterations=40)
    for name, value in variant.items():
        setattr(hard, name, value)
    # the other hand as large as this one, so that the round deals out evenly
    deal = position([loose("4C"), loose("5D")], ["9S", "2C", "KH"], others=["3H", "7C", "JS"])
    assert hard.choose(deal.view(1)) == "capture:9S:4C5D"  # the whole table: a sweep
    deal = position([loose("TD"), loose("9C"), loose("KH")], ["TS", "5C", "QD"],
                    others=["3H", "7C", "JS"])
    # the 10 of diamonds (2 points) now, not left for the other side's tens
    assert hard.choose(deal.view(1)) == "capture:TS:TD"
    # no capture: trailing the 6 lets any ten sweep 4+6; trailing the queen leaves none
    deal = position([loose("4C")], ["6D", "QH"], others=["3H", "7C"])
    assert hard.choose(deal.view(1)) == "trail:QH"
    assert isinstance(hard, SearchPlayer)
    assert hard.worlds == 40  # each world played through both trails


def test_passed_up_names_only_cards_the_other_seat_does_not_hold() -> None:
    """Against players who always take a capture worth more (greedy), what the history says
    a seat lacks is never in its hand, and it says something in most deals; the sampled
    worlds then deal that seat none of those cards while others are left, and every world
    holds each unseen card exactly once. Greedy takes a card whenever it can, so read with
    its trails too (``trails``) every card named is still one the seat lacks, and many more
    are named."""
    from albastini.games.cassino import kernel as K
    from albastini.games.cassino.ai.core import card_key, passed_up, read_view
    from albastini.games.cassino.ai.search import sample_world

    found = 0
    named = {False: 0, True: 0}
    rng = random.Random(7)
    for players in (2, 2, 3, 4):
        for seed in range(6):
            deal = new_deal(players, seed=seed + 40 * players)
            greedy = make_player("greedy")
            while deal.phase != "finished":
                seat = deal.to_act
                assert seat is not None
                view = table_view(deal, seat)
                k = read_view(view)
                lacks = passed_up(view, k)
                for other, keys in lacks.items():
                    assert k.team_of(other) != k.team_of(seat)
                    held = {card_key(K.CODE_INT[x.code]) for x in deal.hand(other)}
                    assert not keys & held, (other, keys, held)
                    found += 1
                for other, keys in passed_up(view, k, trails=True).items():
                    held = {card_key(K.CODE_INT[x.code]) for x in deal.hand(other)}
                    assert not keys & held, (other, keys, held)
                    named[True] += len(keys)
                named[False] += sum(len(keys) for keys in lacks.values())
                world = sample_world(k, rng, lacks)
                cards = [c for h in world.hands for c in h] + [
                    c for c in world.deck[world.pos:]]
                assert sorted(cards) == sorted(k.unseen + k.hand)
                assert [len(h) for h in world.hands] == k.hand_sizes
                for other, keys in lacks.items():
                    spare = [c for c in k.unseen if card_key(c) not in keys]
                    if len(spare) >= k.hand_sizes[other] + players * 2:
                        assert not {card_key(c) for c in world.hands[other]} & keys
                deal.apply(greedy.choose(view))
    assert found > 20
    assert named[True] > 2 * named[False]


def test_hard_sees_only_its_view() -> None:
    """The other hand and the undealt pack dealt differently around the same view: the
    same view, so the same choice (the player reads nothing else)."""
    deal = new_deal(2, seed=12)
    greedy = make_player("greedy")
    for _ in range(9):
        deal.apply(greedy.choose(table_view(deal, deal.to_act)))
    assert_blind(deal, lambda view: make_player("hard", seed=2, iterations=30).choose(view), 5)


def test_hard_keeps_its_time_inside_a_slow_world(monkeypatch: pytest.MonkeyPatch) -> None:
    """A world whose actions are slow to play out (many builds, a loaded machine) does not run
    the decision past its time: once one world is weighed, the deadline is kept between the
    actions of the next, and a world left half done is dropped rather than weighed on some
    actions only. The clock here is the search's own, moved by each rollout."""
    from albastini.games.cassino.ai import search

    deal = new_deal(2, seed=12)
    greedy = make_player("greedy")
    for _ in range(9):
        deal.apply(greedy.choose(table_view(deal, deal.to_act)))
    view = table_view(deal, deal.to_act)
    actions = len(view["legal"])
    assert actions >= 2
    clock = [0.0]
    step = 0.150 / (actions + 0.5)  # the first world ends just inside 150 ms, the second not
    played = search.rollout

    def slow_rollout(st: object, horizon: int) -> None:
        played(st, horizon)  # type: ignore[arg-type]
        clock[0] += step

    monkeypatch.setattr(search, "perf_counter", lambda: clock[0])
    monkeypatch.setattr(search, "rollout", slow_rollout)
    hard = make_player("hard", seed=3, time_ms=150)
    assert hard.choose(view) in view["legal"]
    assert isinstance(hard, SearchPlayer)
    assert hard.worlds == 1
    assert clock[0] < 0.150 + 2 * step  # one action of the second world, not all of them


@pytest.mark.parametrize("players", [2, 3, 4])
def test_normal_rollout_moves_are_the_normal_players_choices(players: int) -> None:
    """The rollouts' normal policy, on the real deal, picks what the normal player picks
    from that seat's view (it knows the same: its hand, the table, the cards played)."""
    from albastini.games.cassino.ai.core import action_of
    from albastini.games.cassino.ai.search import normal_move

    for seed in range(4):
        deal = new_deal(players, dealer=seed % players, seed=seed)
        normal = make_player("normal", seed=1)
        rng = random.Random(seed)
        while deal.phase != "finished":
            seat = deal.to_act
            code = normal.choose(table_view(deal, seat))
            assert normal_move(deal.state) == action_of(code)
            # random plays too, so that the positions are not only normal's
            deal.apply(code if rng.random() < 0.7 else rng.choice(deal.legal_actions()))


def test_sweep_values_are_every_value_that_takes_the_whole_table() -> None:
    """:func:`sweep_values`' shortcut (a value must divide the total and be at least every
    item) against the enumeration of every value's captures, on the tables of played deals."""
    from albastini.games.cassino import kernel as K
    from albastini.games.cassino.ai.core import sweep_values

    rng = random.Random(7)
    for players in (2, 3, 4):
        for seed in range(6):
            deal = new_deal(players, seed=seed)
            while deal.phase != "finished":
                table = deal.state.table
                full = (1 << len(table)) - 1
                summ = K.summables(table)
                every = {v for v in range(1, 11) if table
                         and full in K.capture_sets(table, summ, v)}
                assert sweep_values(table)[0] == every
                deal.apply(rng.choice(deal.legal_actions()))


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("policy", ["normal", "replies"])
@pytest.mark.parametrize("partner", ["normal", "greedy"])
def test_hard_with_normal_rollouts_plays_legal_codes(players: int, policy: str,
                                                     partner: str) -> None:
    hard = make_player("hard", seed=2, iterations=3)
    assert isinstance(hard, SearchPlayer)
    hard.others_policy = policy
    hard.partner_policy = partner
    deal = new_deal(players, seed=players)
    while deal.phase != "finished":
        seat = deal.to_act
        view = json.loads(json.dumps(table_view(deal, seat)))
        code = hard.choose(view)
        assert code in deal.legal_actions()
        deal.apply(code)
