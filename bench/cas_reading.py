"""How much Cassino's plays say about the hand that made them: the true hand against the
hands hard's search draws, weighed by the reading of this round's plays.

Heads-up deals are played by two players of one kind (``--opponent expert|normal``). At
each decision of seat 0 once seat 1 has played this round (and cards are left to deal, so
its hand is not simply every unseen card), the reading of seat 1's plays
(:mod:`albastini.games.cassino.ai.reading`, at each ``--betas`` sharpness) weighs its true
hand and ``--drawn`` hands drawn as hard draws them (with :func:`.core.passed_up`'s hard
reading). Printed: how many times the average drawn hand's weight the true hand has (mean
and median over the decisions), and the same as nats (the log of the ratio): 1.0 / 0 nats
when the plays say nothing; knowing the hand outright would be worth the log of the number
of hands it could be (some 8 nats with 3 cards among 35).

    .venv/bin/python bench/cas_reading.py --opponent expert --betas 4,8,16,32 --deals 40
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from albastini.games import cassino as cas
from albastini.games.cassino.ai import reading
from albastini.games.cassino.ai.core import passed_up, read_view
from albastini.games.cassino.ai.search import sample_world
from bench.experts import make_expert


def ratios(opponent: str, betas: list[float], deals: int, drawn: int, seed: int
           ) -> dict[float, list[float]]:
    """Per sharpness, the true hand's weight over the mean drawn hand's, decision by
    decision."""
    rng = random.Random(seed)
    out: dict[float, list[float]] = {b: [] for b in betas}
    for index in range(deals):
        deal = cas.new_deal(2, 1, index % 2, seed=seed * 1000 + index)
        bots = [make_expert("cassino", s) if opponent == "expert"
                else cas.make_player(opponent, seed=s) for s in range(2)]
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            view = cas.table_view(deal, seat)
            k = read_view(view)
            if seat == 0 and len(view["legal"]) > 1 and k.hand_sizes[1] < 4 and k.pack:
                lacks = passed_up(view, k)
                worlds = [sample_world(k, rng, lacks).hands for _ in range(drawn)]
                for beta in betas:
                    plays = reading.read_plays(view, k, beta)
                    if plays:
                        truth = reading.likelihood(plays, deal.state.hands)
                        mean = sum(reading.likelihood(plays, h) for h in worlds) / drawn
                        out[beta].append(truth / mean)
            deal.apply(bots[seat].choose(view))
    return out


def main(argv: list[str] | None = None) -> None:
    """Print, per sharpness, how much likelier the reading makes the true hand."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponent", default="expert", help="expert, normal, greedy, ...")
    parser.add_argument("--betas", default="4,8,16,32")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--drawn", type=int, default=63)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    betas = [float(b) for b in args.betas.split(",")]
    for beta, got in ratios(args.opponent, betas, args.deals, args.drawn, args.seed).items():
        nats = [math.log(r) for r in got if r > 0]
        print(f"{args.opponent}, beta {beta:g}: {len(got)} decisions, the true hand "
              f"{statistics.mean(got):.2f}x (median {statistics.median(got):.2f}x) the "
              f"drawn ones' weight, {statistics.mean(nats):+.2f} nats "
              f"({sum(1 for r in got if r == 0)} true hands ruled out)")


if __name__ == "__main__":
    main()
