"""bench/oracle.py: Ass's hard player given the others' true hands, to measure what perfect
inference is worth (a bench tool; the shipped players never see a hidden card)."""

from __future__ import annotations

from functools import partial
from typing import Any

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
