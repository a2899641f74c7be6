"""bench/arena.py's Albastini scoring: paired deals, head to head with more than two sides."""

from __future__ import annotations

import pytest

from albastini import MODES

from ..bench_modules import load_bench

arena = load_bench("arena")


@pytest.mark.parametrize("mode", list(MODES))
def test_a_pack_counts_once_per_pair_of_sides(mode: str) -> None:
    players, team_size = MODES[mode]
    sides = players // team_size
    out = arena.play_pair(0, "greedy", "random", mode, 3, {})
    games = out["games"]
    if sides == 2:
        assert len(games) == 2  # the pack twice, sides swapped
    else:
        assert len(games) == sides * (sides - 1)  # A on each side, against each B side
        for g in games:
            # A deal another side wins decides nothing between A and this B side
            assert g["a_won"] in (True, False, None)
            assert g["a_more"] in (True, False, None)


def test_equal_players_score_one_half_head_to_head() -> None:
    wins = losses = 0
    for i in range(6):
        # the same level on both sides (names differ only for the latency tables)
        out = arena.play_pair(i, "greedy", "easy", "5", 1, {"easy": {"epsilon": 0.0}})
        wins += sum(g["a_won"] is True for g in out["games"])
        losses += sum(g["a_won"] is False for g in out["games"])
    # with A on every side of the same packs, equal players win as often as they lose
    assert wins == losses


def test_all_modes_prints_a_line_per_mode_and_opponent(capsys: pytest.CaptureFixture[str]) -> None:
    arena.main(["--all-modes", "--a", "greedy", "--b", "random", "--deals", "1", "--workers", "1"])
    lines = capsys.readouterr().out.splitlines()
    table = [ln for ln in lines if " random " in ln and not ln.startswith("arena")]
    assert [ln.split(" random ")[0].strip() for ln in table] == list(MODES)
    assert lines[-1].startswith("elapsed")
