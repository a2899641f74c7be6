"""bench/paired.py: arena runs on the same packs compared pack by pack, from their dumps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .bench_modules import load_bench

paired = load_bench("paired")


def _dump(path: Path, packs: list[list[bool | None]]) -> str:
    path.write_text(json.dumps([[{"a_won": r} for r in deals] for deals in packs]))
    return str(path)


def test_a_variant_that_wins_more_deals_shows_its_gain_pack_by_pack(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = _dump(tmp_path / "base.json", [[True, False], [False, False], [None, True]])
    new = _dump(tmp_path / "new.json", [[True, True], [False, False], [True, True]])
    paired.main([new, "--base", base, "--rounds", "200"])
    out = capsys.readouterr().out
    assert "A won 4, lost 2, tied 0, rate 0.667" in out
    assert "A won 2, lost 3, tied 1, rate 0.400" in out
    # packs 1 and 3 gained 2 and 1 net deals, pack 2 did not change
    assert "net deals +3 over the baseline (s.e. 2.2; 2 of 3 packs changed), rate +0.267" in out


def test_a_real_arena_dump_against_itself_differs_by_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arena = load_bench("arena")
    dump = str(tmp_path / "run.json")
    arena.main(["--game", "cassino", "--a", "greedy", "--b", "easy", "--deals", "3",
                "--workers", "1", "--seed", "5", "--dump", dump])
    capsys.readouterr()
    paired.main([dump, dump, "--base", dump, dump, "--rounds", "100"])
    out = capsys.readouterr().out
    assert "pooled: 6 packs" in out
    assert "paired, pooled: net deals +0 over the baseline (s.e. 0.0; 0 of 6 packs changed), "\
        "rate +0.000 (+0.000 .. +0.000)" in out


def test_runs_of_different_packs_are_refused(tmp_path: Path) -> None:
    base = _dump(tmp_path / "base.json", [[True, False]])
    new = _dump(tmp_path / "new.json", [[True, False], [False, True]])
    with pytest.raises(SystemExit):
        paired.main([new, "--base", base])
    with pytest.raises(SystemExit):
        paired.main([new, new, "--base", base])
    (tmp_path / "bad.json").write_text('{"not": "a dump"}')
    with pytest.raises(SystemExit):
        paired.main([str(tmp_path / "bad.json")])
