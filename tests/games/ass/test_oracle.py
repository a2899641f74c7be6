"""bench/oracle.py: Ass's hard player given the others' true hands, to measure what perfect
inference is worth (a bench tool; the shipped players never see a hidden card)."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from albastini.games import ass
from albastini.games.ass.ai import players

from ..twentyeight.test_oracle import oracle, worlds_drawn


def test_the_oracle_sees_the_hands_but_not_the_order_of_the_stock() -> None:
    make = oracle.oracle_bots(oracle.arena.make_bot)
    deal = ass.new_deal(4, dealer=0, seed=5)
    bots = [make("ass", "hard", s, {"iterations": 2}) for s in range(4)]
    assert all(isinstance(b, oracle.OracleAss) for b in bots)
    orders = set()

    def check(world: Any, truth: Any, view: Any) -> None:
        if view["phase"] != "playing":
            return  # the bet plays its worlds out in place: checked in the play
        assert world.hands == [list(h) for h in truth.hands]
        stock = world.stock[world.pos:]
        assert sorted(stock) == sorted(truth.stock[truth.pos:])
        orders.add(tuple(stock))

    assert worlds_drawn(players, deal, bots, partial(ass.table_view, deal), check)
    assert len(orders) > 1  # the stock is shuffled, not the true order


def test_the_oracle_limited_to_some_tricks_sees_in_those_only(
        monkeypatch: Any) -> None:
    """``--tricks-ass 2-2``: the worlds of the second trick's decisions hold the true hands;
    every other decision draws hard's own worlds (the hands dealt at random)."""
    monkeypatch.setattr(oracle.OracleAss, "tricks", (2, 2))
    make = oracle.oracle_bots(oracle.arena.make_bot)
    deal = ass.new_deal(4, dealer=0, seed=5)
    bots = [make("ass", "hard", s, {"iterations": 3}) for s in range(4)]
    seen: dict[bool, list[bool]] = {True: [], False: []}

    def check(world: Any, truth: Any, view: Any) -> None:
        if view["phase"] != "playing":
            return
        true = world.hands == [list(h) for h in truth.hands]
        seen[len(view["tricks"]) == 1].append(true)

    assert worlds_drawn(players, deal, bots, partial(ass.table_view, deal), check)
    assert seen[True] and all(seen[True])
    assert seen[False] and not any(seen[False])


@pytest.mark.parametrize("bad", [["--tricks-ass", "x"], ["--tricks-ass", "1-y"],
                                 ["--tricks-ass"]])
def test_the_tricks_option_is_read_and_bad_values_refused(monkeypatch: Any,
                                                          bad: list[str]) -> None:
    ran: list[list[str]] = []
    # main() wraps the arena's bots and deals: restored after the test
    for name in ("main", "make_bot", "run_deal"):
        monkeypatch.setattr(oracle.arena, name, getattr(oracle.arena, name))
    monkeypatch.setattr(oracle.arena, "main", ran.append)
    monkeypatch.setattr(oracle.OracleAss, "tricks", None)
    oracle.main(["--game", "ass", "--tricks-ass", "1-2", "--deals", "1"])
    assert oracle.OracleAss.tricks == (1, 2)
    assert ran == [["--game", "ass", "--deals", "1"]]
    with pytest.raises(SystemExit, match="--tricks-ass"):
        oracle.main(["--game", "ass", *bad])
