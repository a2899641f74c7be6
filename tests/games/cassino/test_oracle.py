"""bench/oracle.py: Cassino's hard player given the others' true hands, to measure what
perfect inference is worth (a bench tool; the shipped players never see a hidden card)."""

from __future__ import annotations

from functools import partial
from typing import Any

from albastini.games import cassino as cas
from albastini.games.cassino.ai import search

from ..twentyeight.test_oracle import oracle, worlds_drawn


def test_the_oracle_sees_the_hands_but_not_the_order_of_the_undealt_cards() -> None:
    make = oracle.oracle_bots(oracle.arena.make_bot)
    deal = cas.new_deal(2, 1, 0, seed=11)
    bots = [make("cassino", "hard", s, {"iterations": 3}) for s in range(2)]
    assert all(isinstance(b, oracle.OracleCas) for b in bots)
    orders = set()

    def check(world: Any, truth: Any, view: Any) -> None:
        assert world.hands == [sorted(h) for h in truth.hands]
        undealt = world.deck[truth.pos:]
        assert sorted(undealt) == sorted(truth.deck[truth.pos:])
        orders.add(tuple(undealt))

    assert worlds_drawn(search, deal, bots, partial(cas.table_view, deal), check)
    assert len(orders) > 1  # the undealt cards are shuffled, not the true order
