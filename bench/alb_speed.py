"""How fast Albastini's hard player decides, on positions from played deals (one process).

Positions: packs of ``--mode`` played by hard (100 fixed worlds) against the expert, both
sides swapped, as ``bench/arena.py`` plays them (``--seed``); every decision of a hard seat
in the playing phase with more than one legal card. Run it in each tree to compare (the
positions are the same where the trees choose alike):

    PYTHONPATH=. nice -n 10 .venv/bin/python bench/alb_speed.py --mode "4 pairs" --packs 4 \
        --seed 900 --iterations 200 --out new_1.json
    PYTHONPATH=. .venv/bin/python bench/alb_speed.py --compare new_1.json new_2.json \
        --base old_1.json old_2.json

Each run writes, per position: the card chosen at ``--iterations`` worlds, that decision's
CPU seconds (``time.process_time``), whether the stock still held a card per player, and
for the first ``--capped`` such positions the worlds a decision reached with hard's time cap
alone (``--time-ms``, no fixed number). ``--compare`` takes each position's median over the
runs of each side and prints, while there is a stock, the CPU per decision (p50, p95, the
ratio of the sums), the worlds reached at the cap (median, 5th percentile), and whether
every choice is the same.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from albastini.games.albastini.ai.search import SearchPlayer
from bench.arena import pct, play_pair


def positions(mode: str, packs: int, seed: int) -> list[dict[str, Any]]:
    """Hard's playing views with a choice in ``packs`` arena packs against the expert."""
    views: list[dict[str, Any]] = []
    choose = SearchPlayer._choose

    def record(self: SearchPlayer, view: dict[str, Any]) -> Any:
        if view["phase"] == "playing":
            views.append(view)
        return choose(self, view)

    SearchPlayer._choose = record  # type: ignore[method-assign]
    try:
        for i in range(packs):
            play_pair(i, "hard", "expert", mode, seed, {"hard": {"iterations": 100}})
    finally:
        SearchPlayer._choose = choose  # type: ignore[method-assign]
    return views


def measure(views: list[dict[str, Any]], iterations: int, capped: int, time_ms: float
            ) -> list[dict[str, Any]]:
    """Per view: the code chosen and the CPU seconds at ``iterations`` worlds, the stock
    flag, and for the first ``capped`` views with a stock the worlds reached at ``time_ms``."""
    out: list[dict[str, Any]] = []
    left = capped
    for i, view in enumerate(views):
        player = SearchPlayer(seed=1000 + i, iterations=iterations)
        t0 = time.process_time()
        code = player.choose(view).code
        cpu = time.process_time() - t0
        stock = int(view["stock"]) >= int(view["players"])
        row: dict[str, Any] = {"code": code, "cpu": cpu, "stock": stock, "worlds": None}
        if stock and left > 0:
            left -= 1
            capped_player = SearchPlayer(seed=1000 + i, time_ms=time_ms)
            capped_player.choose(view)
            row["worlds"] = capped_player.last_samples
        out.append(row)
    return out


def compare(new: list[str], base: list[str]) -> None:
    """Print the comparison of runs ``new`` against runs ``base`` (see the module's text)."""
    sides = {}
    for name, files in (("base", base), ("new", new)):
        runs = [json.loads(Path(f).read_text()) for f in files]
        rows = list(zip(*runs, strict=True))
        sides[name] = {
            "cpu": [statistics.median(r["cpu"] for r in row) for row in rows if row[0]["stock"]],
            "worlds": [r["worlds"] for run in runs for r in run if r["worlds"] is not None],
            "codes": [row[0]["code"] for row in rows],
        }
    for name in ("base", "new"):
        s = sides[name]
        print(f"{name}: {len(s['cpu'])} decisions with a stock, CPU p50 "
              f"{pct(s['cpu'], 0.5) * 1e3:.1f} ms, p95 {pct(s['cpu'], 0.95) * 1e3:.1f} ms; worlds "
              f"at the cap: median {statistics.median(s['worlds']):.0f}, "
              f"5th percentile {pct(s['worlds'], 0.05):.0f}")
    ratio = sum(sides["new"]["cpu"]) / sum(sides["base"]["cpu"])
    print(f"CPU new / base: {ratio:.3f} ({1 / ratio:.2f}x); the same choices: "
          f"{sides['new']['codes'] == sides['base']['codes']}")


def main(argv: list[str] | None = None) -> None:
    """Measure (``--out``) or compare (``--compare``)."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", default="4 pairs")
    parser.add_argument("--packs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=900)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--capped", type=int, default=64, help="positions timed at the cap")
    parser.add_argument("--time-ms", type=float, default=300.0)
    parser.add_argument("--out")
    parser.add_argument("--compare", nargs="+")
    parser.add_argument("--base", nargs="+")
    args = parser.parse_args(argv)
    if args.compare:
        if not args.base:
            parser.error("--compare needs --base (the runs to compare against)")
        compare(args.compare, args.base)
        return
    if not args.out:
        parser.error("--out or --compare")
    views = positions(args.mode, args.packs, args.seed)
    rows = measure(views, args.iterations, args.capped, args.time_ms)
    Path(args.out).write_text(json.dumps(rows))
    print(f"{len(rows)} positions, {sum(r['stock'] for r in rows)} with a stock")


if __name__ == "__main__":
    main()
