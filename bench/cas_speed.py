"""How fast Cassino's hard player searches, on positions from played deals (one process).

Positions: deals of ``--mode`` where hard (at a few fixed worlds, to be quick) sits in the
even seats against normal; every decision of a hard seat with more than one legal action.

    .venv/bin/python bench/cas_speed.py worlds --mode "4 pairs" --deals 6   # worlds at --time-ms
    .venv/bin/python bench/cas_speed.py profile --mode "4 pairs" --deals 4  # at --iterations
    .venv/bin/python bench/cas_speed.py choices --mode "4 pairs" --deals 4  # a digest of the codes

``worlds`` prints the median, the 5th and 95th percentiles of the worlds a decision saw at
``--time-ms`` and the decisions' p95 latency; ``choices`` prints a digest of every code
chosen at ``--iterations`` (two versions of the code choose alike when the digests agree).
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import pstats
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from albastini.games.cassino import MODES, make_player, new_deal, table_view
from albastini.games.cassino.ai import SearchPlayer


def positions(mode: str, deals: int, seed: int) -> list[dict[str, Any]]:
    """The views of hard's decisions with a choice in ``deals`` deals of ``mode`` (hard at 4
    worlds a decision in the even seats, normal in the odd ones)."""
    spec = MODES[mode]
    players, team_size = spec["players"], spec["team_size"]
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for _ in range(deals):
        deal = new_deal(players, team_size, rng.randrange(players), seed=rng.getrandbits(63))
        bots = [make_player("hard" if s % 2 == 0 else "normal", seed=rng.getrandbits(32),
                            iterations=4) for s in range(players)]
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            view = json.loads(json.dumps(table_view(deal, seat)))
            if seat % 2 == 0 and len(view["legal"]) > 1:
                out.append(view)
            deal.apply(bots[seat].choose(view))
    return out


def main(argv: list[str] | None = None) -> None:
    """Measure the worlds per decision, profile, or digest the choices."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["worlds", "profile", "choices"])
    parser.add_argument("--mode", default="4 pairs", choices=list(MODES))
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", type=int, default=300)
    parser.add_argument("--time-ms", type=float, default=150.0)
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--top", type=int, default=30, help="profile: lines printed")
    args = parser.parse_args(argv)
    views = positions(args.mode, args.deals, args.seed)
    print(f"{len(views)} decisions ({args.mode}, {args.deals} deals, seed {args.seed})")
    if args.what == "worlds":
        worlds: list[int] = []
        lat: list[float] = []
        for i, view in enumerate(views):
            hard = make_player("hard", seed=i, time_ms=args.time_ms)
            assert isinstance(hard, SearchPlayer)
            t0 = time.perf_counter()
            hard.choose(view)
            lat.append(time.perf_counter() - t0)
            worlds.append(hard.worlds)
        worlds.sort()
        lat.sort()
        n = len(worlds)
        print(f"worlds at {args.time_ms:.0f} ms: median {statistics.median(worlds):.0f}, "
              f"p5 {worlds[n // 20]}, p95 {worlds[n * 19 // 20]}, mean "
              f"{statistics.mean(worlds):.1f}; latency p95 {1000 * lat[n * 19 // 20]:.1f} ms, "
              f"max {1000 * lat[-1]:.1f} ms")
        return
    players = []
    for i in range(len(views)):
        hard = make_player("hard", seed=i, iterations=args.iterations)
        assert isinstance(hard, SearchPlayer)
        players.append(hard)
    prof = cProfile.Profile() if args.what == "profile" else None
    t0 = time.process_time()
    if prof:
        prof.enable()
    codes = [p.choose(v) for p, v in zip(players, views, strict=True)]
    if prof:
        prof.disable()
    cpu = time.process_time() - t0
    digest = hashlib.sha256("\n".join(codes).encode()).hexdigest()[:16]
    print(f"{args.iterations} worlds a decision: CPU {cpu:.2f} s, "
          f"{1000 * cpu / max(len(views), 1):.1f} ms a decision, choices {digest}")
    if prof:
        pstats.Stats(prof).sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
