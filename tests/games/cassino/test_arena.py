"""bench/arena.py's Cassino scoring (3 players head to head with each B seat) and the options
that select the hard player's search variants."""

from __future__ import annotations

import pytest

from albastini.games.cassino import MODES
from albastini.games.cassino.ai import SearchPlayer

from ..albastini.test_arena import arena


@pytest.mark.parametrize("mode", list(MODES))
def test_a_pack_counts_once_per_b_side(mode: str) -> None:
    out = arena.play_pair_cassino(0, "greedy", "random", mode, 3, {})
    # two sides: the pack twice, sides swapped; 3 players: A in each seat, against each B
    assert len(out["games"]) == (6 if mode == "3" else 2)
    assert all(g["a_won"] in (True, False, None) for g in out["games"])
    # each deal's scoring items, A's side and the B side it is compared with
    for g in out["games"]:
        assert set(g["items"]) == set(arena.CAS_ITEMS)
        assert all(len(pair) == 2 for pair in g["items"].values())


def test_equal_players_score_one_half_in_three_players() -> None:
    """The same player on every seat (names differ only for the latency tables): a deal's
    winner seat wins against both others when A sits there and loses to it otherwise, so
    wins and losses are equal on every pack."""
    for i in range(4):
        out = arena.play_pair_cassino(i, "greedy", "easy", "3", 1, {})
        wins = sum(g["a_won"] is True for g in out["games"])
        losses = sum(g["a_won"] is False for g in out["games"])
        assert wins == losses


def test_the_search_variants_reach_the_hard_player() -> None:
    bot = arena.make_bot("cassino", "hard", 1, {
        "time_ms": 20, "play_search": "ismcts", "explore": 0.5, "horizon_value": True,
        "paired": False, "horizon_rounds": 0, "end_by_win": False, "others_policy": "normal"})
    assert isinstance(bot, SearchPlayer)
    assert (bot.time_ms, bot.play_search, bot.explore, bot.horizon_value, bot.paired,
            bot.horizon_rounds, bot.end_by_win, bot.others_policy) == (
        20, "ismcts", 0.5, True, False, 0, False, "normal")
    plain = arena.make_bot("cassino", "hard", 1, {})
    assert isinstance(plain, SearchPlayer)
    # None: the table's own (SearchPlayer.search_for, SearchPlayer.rollouts_for)
    assert (plain.play_search, plain.horizon_value, plain.horizon_rounds,
            plain.others_policy) == (None, None, None, None)
