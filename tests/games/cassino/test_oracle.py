"""bench/oracle.py: Cassino's hard player given the others' true hands, to measure what
perfect inference is worth (a bench tool; the shipped players never see a hidden card)."""

from __future__ import annotations

from typing import Any

from albastini.games import cassino as cas
from albastini.games.cassino.ai import search

from ..twentyeight.test_oracle import oracle


def test_the_oracle_sees_the_hands_but_not_the_order_of_the_undealt_cards() -> None:
    make = oracle.oracle_bots(oracle.arena.make_bot)
    deal = cas.new_deal(2, 1, 0, seed=11)
    bots = [make("cassino", "hard", s, {"iterations": 3}) for s in range(2)]
    assert all(isinstance(b, oracle.OracleCas) for b in bots)
    oracle.truthful_run_deal(lambda deal, bots, view_of: [])(deal, bots, None)
    drawn: list[Any] = []
    sample = vars(search)["sample_world"]

    def spy(*args: Any) -> Any:
        drawn.append(world := sample(*args))
        return world

    vars(search)["sample_world"] = spy  # the oracle wraps whatever the module draws with
    orders = set()
    worlds = 0
    try:
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            view = cas.table_view(deal, seat)
            drawn.clear()
            code = bots[seat].choose(view)
            assert code in view["legal"]
            truth = deal.state
            for world in drawn:
                assert world.hands == [sorted(h) for h in truth.hands]
                undealt = world.deck[truth.pos:]
                assert sorted(undealt) == sorted(truth.deck[truth.pos:])
                orders.add(tuple(undealt))
            worlds += len(drawn)
            deal.apply(code)
    finally:
        vars(search)["sample_world"] = sample
    assert worlds and len(orders) > 1  # the undealt cards are shuffled, not the true order
