"""bench/oracle.py: Ass's hard player given the others' true hands, to measure what perfect
inference is worth (a bench tool; the shipped players never see a hidden card)."""

from __future__ import annotations

from typing import Any

from albastini.games import ass
from albastini.games.ass.ai import players

from ..twentyeight.test_oracle import oracle


def test_the_oracle_sees_the_hands_but_not_the_order_of_the_stock() -> None:
    make = oracle.oracle_bots(oracle.arena.make_bot)
    deal = ass.new_deal(4, dealer=0, seed=5)
    bots = [make("ass", "hard", s, {"iterations": 2}) for s in range(4)]
    assert all(isinstance(b, oracle.OracleAss) for b in bots)
    oracle.truthful_run_deal(lambda deal, bots, view_of: [])(deal, bots, None)
    drawn: list[Any] = []
    sample = vars(players)["sample_world"]

    def spy(*args: Any) -> Any:
        drawn.append(world := sample(*args))
        return world

    vars(players)["sample_world"] = spy  # the oracle wraps whatever the module draws with
    orders = set()
    worlds = 0
    try:
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            view = ass.table_view(deal, seat)
            drawn.clear()
            code = bots[seat].choose(view)
            assert code in view["legal"]
            truth = deal.state
            # (the bet plays its worlds out in place: checked in the play)
            for world in drawn if view["phase"] == "playing" else []:
                assert world.hands == [list(h) for h in truth.hands]
                stock = world.stock[world.pos:]
                assert sorted(stock) == sorted(truth.stock[truth.pos:])
                orders.add(tuple(stock))
            worlds += len(drawn)
            deal.apply(code)
    finally:
        vars(players)["sample_world"] = sample
    assert worlds and len(orders) > 1  # the stock is shuffled, not the true order
