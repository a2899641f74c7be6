"""Engine speed: whole random deals per second in every table mode.

Each deal is fully simulated: a uniformly shuffled pack, a random dealer, random bidding among
the legal bids and the pass, and uniformly random play of every card, through the lean fast path
(``albastini.games.albastini.fast.random_deal_points``). For scale, the clean path (``Deal``,
with its checks and objects) is measured once for 4 pairs.

Time is the process's CPU time (``time.process_time``), so other work on a shared machine does
not slow the figure down much; each mode reports the median (and the best) of its timed
batches. The last line is ``deals/s: N`` (the median) for 4 pairs, for scripts to read.

    python bench/engine.py [--seconds 1.0]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from albastini import MODES, new_deal
from albastini.games.albastini.fast import random_deal_points


def fast_rate(
    players: int, team_size: int, seconds: float, rng: random.Random
) -> tuple[float, float]:
    """Median and best deals per CPU second over batches filling about ``seconds`` of CPU."""
    random_deal_points(players, team_size, rng)  # compile the mode's code outside the timing
    batch = 1000
    rates: list[float] = []
    spent = 0.0
    while spent < seconds:
        start = time.process_time()
        for _ in range(batch):
            random_deal_points(players, team_size, rng)
        took = time.process_time() - start
        spent += took
        if took > 0:
            rates.append(batch / took)
    return statistics.median(rates), max(rates)


def clean_rate(seconds: float, rng: random.Random) -> float:
    """Deals per CPU second through ``Deal`` (4 pairs), for comparison."""
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        deal = new_deal(4, 2, rng.randrange(4), seed=rng.getrandbits(32))
        while deal.phase != "finished":
            deal.apply(rng.choice(deal.legal_actions()))
        done += 1
    return done / (time.process_time() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per mode")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    print(f"CPU time of this process, {args.seconds:g} s per mode: median batch (best batch)")
    print(f"clean path (Deal), 4 pairs: {clean_rate(args.seconds, rng):,.0f} deals/s")
    rates: dict[str, float] = {}
    for name, (players, team_size) in MODES.items():
        rates[name], best = fast_rate(players, team_size, args.seconds, rng)
        print(f"fast path, {name:8}: {rates[name]:,.0f} deals/s ({best:,.0f})")
    print(f"deals/s: {rates['4 pairs']:.0f}")


if __name__ == "__main__":
    main()
