"""bench/oracle.py: Twenty-Eight's hard player given the true deal, to measure what perfect
inference is worth (a bench tool; the shipped players never see a hidden card)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from albastini.games import twentyeight as t28
from albastini.games.twentyeight import kernel as K
from albastini.games.twentyeight.ai.core import read_view

from ..bench_modules import load_bench

oracle = load_bench("oracle")


def worlds_drawn(module: ModuleType, deal: Any, bots: list[Any],
                 view_of: Callable[[int], Any], check: Callable[[Any, Any, Any], None]) -> int:
    """Play ``deal`` to its end with ``bots`` (each shown ``view_of(seat)``, playing legal
    codes); after each decision, ``check(world, deal.state, view)`` on every world that
    ``module.sample_world`` drew for it (the oracle wraps whatever the module draws with).
    The number of worlds checked."""
    oracle.truthful_run_deal(lambda *_: [])(deal, bots, view_of)
    drawn: list[Any] = []
    sample = vars(module)["sample_world"]

    def spy(*args: Any) -> Any:
        drawn.append(world := sample(*args))
        return world

    vars(module)["sample_world"] = spy
    worlds = 0
    try:
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            view = view_of(seat)
            drawn.clear()
            code = bots[seat].choose(view)
            assert code in view["legal"]
            for world in drawn:
                check(world, deal.state, view)
            worlds += len(drawn)
            deal.apply(code)
    finally:
        vars(module)["sample_world"] = sample
    return worlds


def test_the_oracle_plays_every_world_as_dealt_and_plays_legally() -> None:
    make = oracle.oracle_bots(oracle.arena.make_bot)
    run = oracle.truthful_run_deal(lambda deal, bots, view_of: [])
    for seed in range(3):
        deal = t28.new_deal(4, 2, 0, seed=seed)
        bots = [make("twentyeight", "hard", seed * 4 + s, {"time_ms": 5}) for s in range(4)]
        assert all(isinstance(b, oracle.Oracle28) for b in bots)
        run(deal, bots, deal.view)
        checked = 0
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            if deal.phase == "playing":
                k = read_view(view)
                world = bots[seat].true_world(k)
                truth = deal.state
                # every hand, the face-down trump card included, is the one dealt
                for s in range(4):
                    assert sorted(c for suit in world.hands[s] for c in suit) == sorted(
                        c for suit in truth.hands[s] for c in suit)
                assert (world.trump, world.trump_card) == (truth.trump, truth.trump_card)
                checked += 1
            code = bots[seat].choose(view)
            assert code in view["legal"]
            deal.apply(code)
        assert checked or deal.result().redeal


def test_the_oracle_knows_the_first_batch_but_not_the_undealt_cards() -> None:
    make = oracle.oracle_bots(oracle.arena.make_bot)
    deal = t28.new_deal(4, 2, 1, seed=7)
    bot = make("twentyeight", "hard", 1, {"time_ms": 5})
    bot.truth = deal
    k = read_view(deal.view(deal.to_act))
    first, _ = K.deal_schedule(4, 1)
    deck = [c.index for c in deal.deck]
    batches = [bot.first_batch(k, {}) for _ in range(5)]
    for hands in batches:
        for s in range(4):
            assert sorted(hands[s]) == sorted(deck[i] for i, x in enumerate(first) if x == s)
        assert sorted(hands[-1]) == sorted(deck[len(first):])
    assert len({tuple(h[-1]) for h in batches}) > 1  # the second batch is shuffled


def test_an_oracle_that_sees_the_play_only_samples_the_auction() -> None:
    make = oracle.oracle_bots(oracle.arena.make_bot)
    deal = t28.new_deal(4, 2, 1, seed=7)
    bot = make("twentyeight", "hard", 1, {"time_ms": 5})
    bot.truth = deal
    bot.sees = "play"
    k = read_view(deal.view(deal.to_act))
    first, _ = K.deal_schedule(4, 1)
    deck = [c.index for c in deal.deck]
    others = [s for s in range(4) if s != k.seat]
    # the others' first cards are drawn, as the shipped player draws them: rarely the true ones
    batches = [bot.first_batch(k, {}) for _ in range(5)]
    assert any(sorted(hands[s]) != sorted(deck[i] for i, x in enumerate(first) if x == s)
               for hands in batches for s in others)
