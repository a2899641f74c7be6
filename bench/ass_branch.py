"""Ass: an A/B of hard's variants on the end of a deal only, with little noise.

A whole-deal arena run (``bench/arena.py --game ass``) cannot tell two variants of hard apart
when they differ by a few points of rate: a time-capped search plays each deal differently
from its first decision, so two runs on the same packs share almost nothing (a 50-pack run's
pack bootstrap is about ±0.10). Here each deal (four players, hard in each seat in turn
against three B players, the arena's packs for a seed) is played by today's hard up to the
start of trick ``--from`` (0-based: tricks already done); from that one position the rest is
played once per variant, the B players seeded alike in every branch. A variant that changes
nothing of the end plays the same cards as today's hard, so the branches differ only where
the variants choose differently. Each branch is scored as the arena scores a deal (A against
each B seat: fewer banks wins); the first variant is the reference.

    .venv/bin/python bench/ass_branch.py --seed 260 --packs 40 --from 6 "" reseed=1 exact=3

A variant is ``--ass-hard``'s ``NAME=V,...`` (attributes of ``SearchPlayer``), ``""`` for
today's hard; ``reseed=N`` seeds hard's branch differently (the noise of the search itself).
It prints; it does not assert.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from albastini.games import ass as G
from bench.arena import make_bot


def tweaks(variant: str) -> dict[str, float]:
    """``NAME=V,...`` as attributes to set on hard (``""``: none)."""
    if not variant:
        return {}
    return {k: float(v) for k, v in (kv.split("=") for kv in variant.split(","))}


def play_out(deal: Any, bots: list[Any]) -> None:
    """Play ``deal`` to its end, each seat by its bot seeing its table view."""
    while deal.phase != "finished":
        seat = deal.to_act
        deal.apply(bots[seat].choose(G.table_view(deal, seat)))


def branch_pack(index: int, seed: int, frm: int, b: str, time_ms: float,
                variants: list[str]) -> list[dict[str, tuple[int, int]]]:
    """Pack ``index`` of ``seed`` (the arena's deck and dealer), hard in each seat in turn:
    per deal, per variant, A's comparisons won and lost after the branch from trick
    ``frm``."""
    rng = random.Random(seed * 1_000_003 + index)
    deck_seed = rng.getrandbits(63)
    dealer = rng.randrange(4)
    out: list[dict[str, tuple[int, int]]] = []
    for a in range(4):
        seeds = [rng.getrandbits(32) for _ in range(4)]
        bots = [make_bot("ass", "hard" if s == a else b, seeds[s],
                         {"time_ms": time_ms} if s == a else {}) for s in range(4)]
        deal = G.new_deal(4, 1, dealer, seed=deck_seed)
        while deal.phase != "finished" and not (
                deal.phase == "playing" and len(deal.state.tricks) >= frm
                and not deal.state.trick.plays):
            seat = deal.to_act
            assert seat is not None
            deal.apply(bots[seat].choose(G.table_view(deal, seat)))
        row: dict[str, tuple[int, int]] = {}
        for v in variants:
            tw = tweaks(v)
            extra = int(tw.pop("reseed", 0))
            branch = deal.copy()
            play_out(branch, [
                make_bot("ass", "hard", seeds[s] + 7 + extra, {"time_ms": time_ms, "tweaks": tw})
                if s == a else make_bot("ass", b, seeds[s] + 7, {}) for s in range(4)])
            banks = branch.result().banks
            row[v] = (sum(banks[a] < banks[s] for s in range(4) if s != a),
                      sum(banks[a] > banks[s] for s in range(4) if s != a))
        out.append(row)
    return out


def main() -> None:
    """Run the branches and print, per variant, A's comparisons won / lost / tied, its rate
    and its net against the first variant over the deals where they differ."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+", help='hard variants, NAME=V,... ("" today\'s)')
    parser.add_argument("--b", default="expert", help="the three other seats' level")
    parser.add_argument("--seed", type=int, default=260)
    parser.add_argument("--packs", type=int, default=40)
    parser.add_argument("--from", dest="frm", type=int, default=6,
                        help="tricks done when the branches start (6: the last three of four "
                             "players, nobody drawing)")
    parser.add_argument("--time-ms", type=float, default=150.0)
    args = parser.parse_args()
    rows: list[dict[str, tuple[int, int]]] = []
    t0 = time.perf_counter()
    for i in range(args.packs):
        rows.extend(branch_pack(i, args.seed, args.frm, args.b, args.time_ms, args.variants))
    print(f"ass branch A/B: hard vs {args.b}, 4 players, seed {args.seed}, {args.packs} packs x 4,"
          f" branches from trick {args.frm + 1}, {args.time_ms:g} ms, "
          f"{time.perf_counter() - t0:.0f} s")
    first = args.variants[0]
    for v in args.variants:
        won = sum(r[v][0] for r in rows)
        lost = sum(r[v][1] for r in rows)
        tied = 3 * len(rows) - won - lost
        net = sum((r[v][0] - r[v][1]) - (r[first][0] - r[first][1]) for r in rows)
        differ = sum(r[v] != r[first] for r in rows)
        rate = won / (won + lost) if won + lost else float("nan")
        print(f"{v or 'today':32} won {won} lost {lost} tied {tied} rate {rate:.3f}  "
              f"net vs the first {net:+d} over {differ} deals that differ")


if __name__ == "__main__":
    main()
