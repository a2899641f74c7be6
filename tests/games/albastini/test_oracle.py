"""bench/oracle.py: Albastini's hard player given the other hands as they stand, to measure
what perfect inference is worth (a bench tool; the shipped players never see a hidden card)."""

from __future__ import annotations

from typing import Any

import pytest

from albastini.games.albastini import new_deal
from albastini.games.albastini.kernel import card_int

from ..bench_modules import load_bench
from .test_ai import play_with

oracle = load_bench("oracle")


def play_seeing(seed: int, spy: list[tuple[int, Any, Any]]) -> None:
    """Play a 4-pairs deal with hard at every seat, each one that sees; ``spy`` gets every
    world drawn, with the seat that drew it and the deal as it stood."""
    make = oracle.oracle_bots(oracle.arena.make_bot)
    bots = [make("albastini", "hard", seed * 4 + s, {"iterations": 4}) for s in range(4)]
    assert all(isinstance(b, oracle.OracleAlb) for b in bots)
    deal = oracle.truthful_new_deal(new_deal)(4, 2, seed % 4, seed=seed)
    assert oracle.OracleAlb.truth is deal
    for bot in bots:
        world_of = bot.true_world

        def spying(k: Any, rng: Any, world_of: Any = world_of) -> Any:
            world = world_of(k, rng)
            spy.append((k.seat, world, deal.copy()))
            return world

        bot.true_world = spying
    play_with(deal, bots)


def ints(cards: Any) -> list[int]:
    """Cards (or codes) as sorted card ints."""
    return sorted(card_int(c) for c in cards)


def test_the_oracle_sees_every_hand_but_not_the_order_of_the_stock() -> None:
    spy: list[tuple[int, Any, Any]] = []
    play_seeing(5, spy)
    assert spy
    orders = set()
    for _seat, world, truth in spy:
        assert [sorted(h) for h in world.hands] == [ints(truth.hand(s)) for s in range(4)]
        stock = world.stock[world.pos:]
        assert sorted(stock) == ints(truth._stock)
        if truth.face_up is not None:
            assert stock[-1] == card_int(truth.face_up)  # drawn last, as dealt
        orders.add(tuple(stock))
    assert len(orders) > 1  # the face-down stock is shuffled, not the true order


@pytest.mark.parametrize("sees", ["partner", "opponents"])
def test_the_oracle_sees_only_the_seats_asked_for(monkeypatch: pytest.MonkeyPatch,
                                                  sees: str) -> None:
    """``--sees-alb partner|opponents``: those seats' true hands; the others sampled from the
    cards left (not their true hands, some of the time), never a card of a seen hand."""
    monkeypatch.setattr(oracle.OracleAlb, "sees", sees)
    spy: list[tuple[int, Any, Any]] = []
    play_seeing(6, spy)
    differs = 0
    for seat, world, truth in spy:
        partner = (seat + 2) % 4
        seen = [partner] if sees == "partner" else [(seat + 1) % 4, (seat + 3) % 4]
        unseen = [s for s in range(4) if s != seat and s not in seen]
        for s in seen:
            assert sorted(world.hands[s]) == ints(truth.hand(s))
        placed = {c for s in seen for c in world.hands[s]}
        for s in unseen:
            assert len(world.hands[s]) == len(truth.hand(s))
            assert not placed & set(world.hands[s])
            differs += sorted(world.hands[s]) != ints(truth.hand(s))
    assert differs
