"""The computer players answer legal codes from their view alone, reproducibly."""

from __future__ import annotations

import pickle
import random

import pytest

from albastini.games.ass import decide, make_player, new_deal, table_view
from albastini.games.ass.ai.core import levels_of
from albastini.games.ass.deal import Deal

from .helpers import hidden_dealt_again


@pytest.mark.parametrize("level", ["random", "easy", "normal", "hard"])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_level_plays_legal_codes(level: str, players: int) -> None:
    deal = new_deal(players, seed=players)
    bot = make_player(level, seed=1, **({"iterations": 2} if level == "hard" else {}))
    while deal.phase != "finished":
        view = table_view(deal, deal.to_act)
        code = bot.choose(view)
        assert code in view["legal"]
        deal.apply(code)


def test_decide_is_reproducible_and_picklable() -> None:
    deal = new_deal(3, seed=8)
    rng = random.Random(1)
    for _ in range(5):
        deal.apply(rng.choice(deal.legal_actions()))
    view = table_view(deal, deal.to_act)
    assert decide("normal", view, 3) == decide("normal", view, 3)
    pickle.dumps(decide)
    with pytest.raises(ValueError):
        make_player("grandmaster")
    with pytest.raises(ValueError):
        make_player("easy", depth=3)


@pytest.mark.parametrize(("trumps", "suits"), [(1, "DHCS"), (2, None), (3, "H"), (4, "CH"),
                                               (5, None)])
def test_players_read_every_trump_variant(trumps: int, suits: str | None) -> None:
    deal = new_deal(4, seed=trumps, trumps=trumps, suits=suits)
    bots = [make_player("normal", seed=s) for s in range(2)] + [make_player("easy", seed=3),
                                                                  make_player("random", seed=4)]
    while deal.phase != "finished":
        seat = deal.to_act
        assert seat is not None
        view = table_view(deal, seat)
        assert levels_of(view) == (deal.state.levels, deal.state.main_levels)
        code = bots[seat].choose(view)
        assert code in view["legal"]
        deal.apply(code)


def _played_to(tricks: int, seed: int) -> Deal:
    """A four-player deal played by normal players until ``tricks`` tricks are done (the
    bets made when ``tricks`` > 0)."""
    deal = new_deal(4, 1, seed % 4, seed=seed)
    players = [make_player("normal", seed=s) for s in range(4)]
    while deal.phase != "finished" and ((deal.phase == "betting" and tricks > 0)
                                        or len(deal.state.tricks) < tricks):
        assert deal.to_act is not None
        deal.apply(players[deal.to_act].choose(table_view(deal, deal.to_act)))
    return deal


@pytest.mark.parametrize("tricks", [0, 3, 7])
def test_hard_sees_only_its_view(tricks: int) -> None:
    """Hard with fixed worlds, the hidden cards dealt differently around the same view (the
    bet, a trick with the stock still out, the end once nobody draws): the same
    choice every time."""
    checked = 0
    for seed in range(5):
        deal = _played_to(tricks, seed)
        if deal.phase == "finished":
            continue
        seat = deal.to_act
        assert seat is not None
        view = table_view(deal, seat)
        codes = set()
        rng = random.Random(seed)
        for _ in range(6):
            again = hidden_dealt_again(deal, seat, rng)
            assert table_view(again, seat) == view
            codes.add(make_player("hard", seed=1, iterations=4).choose(table_view(again, seat)))
        assert len(codes) == 1
        checked += 1
    assert checked >= 4

