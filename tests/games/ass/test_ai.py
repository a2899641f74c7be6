"""The computer players answer legal codes from their view alone, reproducibly."""

from __future__ import annotations

import pickle
import random

import pytest

from albastini.games.ass import decide, make_player, new_deal, table_view


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
