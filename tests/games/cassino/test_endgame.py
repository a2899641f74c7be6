"""The end of the deal played exactly (:mod:`..ai.endgame`): heads-up, once the pack is dealt,
hard's play is worth what a brute-force minimax of the true deal says the best play is."""

from __future__ import annotations

import pytest

from albastini.games.cassino import make_player, new_deal, table_view
from albastini.games.cassino.ai import SearchPlayer
from albastini.games.cassino.ai.core import action_of

from .helpers import exact_value


def test_hard_plays_the_last_round_exactly() -> None:
    """Against normal, at hard's decisions of the last round with at most five cards left
    (the brute force stays quick): its play is a best one; without the exact end (its tree
    search on a few worlds) it plays worse somewhere."""
    hard = make_player("hard", seed=1, iterations=3)
    tree = make_player("hard", seed=1, iterations=3)
    assert isinstance(hard, SearchPlayer) and isinstance(tree, SearchPlayer)
    tree.exact_end = False
    checked = worse = 0
    for seed in range(30):
        deal = new_deal(2, 1, seed % 2, seed=seed + 700)
        normal = make_player("normal", seed=seed)
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            view = table_view(deal, seat)
            if (seat == 0 and view["pack"] == 0 and sum(view["hand_sizes"]) <= 5
                    and len(view["legal"]) > 1):
                worth = {}
                for code in view["legal"]:
                    child = deal.state.copy()
                    child.apply(action_of(code))
                    worth[code] = exact_value(child, 0)
                assert worth[hard.choose(view)] == max(worth.values()), worth
                checked += 1
                worse += worth[tree.choose(view)] < max(worth.values())
            deal.apply((hard if seat == 0 else normal).choose(view))
    assert checked >= 20 and worse >= 1


@pytest.mark.parametrize(("players", "team_size"), [(3, 1), (4, 2)])
def test_hard_with_the_exact_end_asked_for_plays_legal_codes(players: int,
                                                            team_size: int) -> None:
    """With more players the exact end is a bench option (``exact_end``): every placement of
    the hidden cards played out, legal codes to the end of the deal; by default hard keeps
    its own search there."""
    hard = make_player("hard", seed=1, iterations=2)
    assert isinstance(hard, SearchPlayer)
    assert not hard.exact_for(players) and hard.exact_for(2)
    hard.exact_end = True
    deal = new_deal(players, team_size, 0, seed=players)
    while deal.phase != "finished":
        view = table_view(deal, deal.to_act)
        code = hard.choose(view)
        assert code in view["legal"]
        deal.apply(code)
