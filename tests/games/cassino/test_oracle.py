"""bench/oracle.py: Cassino's hard player given the others' true hands, to measure what
perfect inference is worth (a bench tool; the shipped players never see a hidden card)."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

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


def test_after_n_plays_the_oracle_sees_a_hand_only_once_its_seat_has_played_n(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``--after 2``: the other seat's true hand once it has played two cards of this round;
    before, hard's own sample (not the true hand, most of the time); every card once."""
    monkeypatch.setattr(oracle.OracleCas, "after", 2)
    make = oracle.oracle_bots(oracle.arena.make_bot)
    deal = cas.new_deal(2, 1, 0, seed=12)
    bots = [make("cassino", "hard", s, {"iterations": 3}) for s in range(2)]
    seen = {True: 0, False: 0}

    def check(world: Any, truth: Any, view: Any) -> None:
        other = 1 - int(view["seat"])
        everything = sorted(c for h in world.hands for c in h) + sorted(world.deck[truth.pos:])
        assert sorted(everything) == sorted(
            [c for h in truth.hands for c in h] + list(truth.deck[truth.pos:]))
        played = 4 - len(truth.hands[other])
        if played >= 2:
            assert world.hands[other] == sorted(truth.hands[other])
        seen[world.hands[other] == sorted(truth.hands[other])] += 1

    assert worlds_drawn(search, deal, bots, partial(cas.table_view, deal), check)
    assert seen[False] > seen[True] / 4
