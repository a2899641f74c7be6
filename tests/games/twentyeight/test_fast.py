"""The fast path against the Deal: the same random deal (same pack, same choices) gives the
same number of options at every step and the same points and game points, in every mode."""

from __future__ import annotations

import random

import pytest

from albastini.games.twentyeight import new_deal
from albastini.games.twentyeight.deal import code_of
from albastini.games.twentyeight.fast import random_deal
from albastini.games.twentyeight.kernel import CODES


@pytest.mark.parametrize(("players", "team_size"), [(3, 1), (4, 2), (6, 3)])
@pytest.mark.parametrize(("thani", "cot"), [(False, False), (True, True)])
def test_fast_path_agrees_with_deal(
    players: int, team_size: int, thani: bool, cot: bool
) -> None:
    rng = random.Random(players * 10 + thani)
    exposed = declared = 0
    for _ in range(300):
        log: list[tuple[int, int]] = []
        points, game_points = random_deal(players, team_size, rng, thani=thani, cot=cot,
                                          log=log)
        deck = [CODES[c] for a, c in log if a == -1]
        dealer = next(c for a, c in log if a == -2)
        deal = new_deal(players, team_size, dealer, deck=deck, thani=thani, cot=cot)
        for action, count in log:
            if action < 0:
                continue
            assert len(deal.legal_actions()) == count
            deal.apply(code_of(action))
            exposed += code_of(action) == "expose"
            declared += code_of(action) == "thani"
        assert deal.phase == "finished"
        r = deal.result()
        assert (list(r.points), list(r.game_points)) == (points, game_points)
    assert exposed > 100
    assert declared > 0 or not thani


def test_fast_path_is_uniform_enough_over_points() -> None:
    rng = random.Random(1)
    totals = [sum(random_deal(4, 2, rng)[0]) for _ in range(200)]
    assert set(totals) == {28}
