"""The computer players answer legal codes from their view alone, reproducibly."""

from __future__ import annotations

import pickle
import random

import pytest

from albastini.games.ass import decide, make_player, new_deal, table_view
from albastini.games.ass.ai.core import levels_of


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
