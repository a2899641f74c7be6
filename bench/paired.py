"""Paired comparison of arena runs on the same packs, from their ``--dump`` files.

A player's rate in one arena run carries the luck of its packs twice over: the cards, and
(for a time-capped search) the samples the machine's load left it. When two variants of A
play the same packs (the same ``--game --mode --b --deals --seed``), most of the cards' luck
is shared, and the difference pack by pack says more than the two rates side by side. The
comparisons of one pack are not independent either (Ass counts a deal once per B seat,
Albastini's and Cassino's many-player modes likewise), so a Wilson interval over them is too
narrow; this resamples whole packs (a bootstrap) instead.

    .venv/bin/python bench/arena.py --game cassino --a hard --b normal --mode "4 pairs" \
        --deals 20 --workers 1 --seed 270 --dump new-270.json --others-cas replies
    .venv/bin/python bench/arena.py ... --seed 270 --dump old-270.json --others-cas greedy
    .venv/bin/python bench/paired.py new-270.json new-271.json --base old-270.json old-271.json

For each file, and pooled over the files given, it prints A's deals won / lost / tied, its
rate of decided deals, the Wilson interval and the bootstrap interval over packs. With
``--base`` (one baseline file per file, in the same order, of the same packs) it also prints
the paired difference: the net deals (won less lost) gained pack by pack, the packs that
changed, the standard error of that sum, and the bootstrap interval of the rate's
difference (both runs' packs resampled together). ``--base`` given the same packs twice (the
baseline run twice) shows how far one player moves between sittings: differences no larger
than that are noise. It prints; it does not assert.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.arena import wilson


@dataclass(frozen=True)
class Pack:
    """One pack's result for A: deals won, lost and tied (``a_won`` True, False, None)."""

    won: int
    lost: int
    tied: int

    @property
    def net(self) -> int:
        """Deals won less deals lost."""
        return self.won - self.lost


def load(path: str) -> list[Pack]:
    """The packs of an arena ``--dump`` file (a list of packs, each a list of deals with
    ``a_won``), in the order they were played."""
    packs = json.loads(Path(path).read_text())
    if not isinstance(packs, list) or not all(isinstance(p, list) for p in packs):
        raise ValueError(f"{path}: not an arena --dump file (a list of packs of deals)")
    out = []
    for deals in packs:
        results = [d.get("a_won") for d in deals]
        out.append(Pack(sum(r is True for r in results), sum(r is False for r in results),
                        sum(r is None for r in results)))
    return out


def rate(packs: Sequence[Pack]) -> float:
    """A's rate of decided deals (NaN when none was decided)."""
    won = sum(p.won for p in packs)
    decided = won + sum(p.lost for p in packs)
    return won / decided if decided else float("nan")


def quantiles(values: list[float], level: float = 0.95) -> tuple[float, float]:
    """The central ``level`` interval of ``values`` (percentile bootstrap), NaNs dropped."""
    xs = sorted(v for v in values if not math.isnan(v))
    if not xs:
        return (float("nan"), float("nan"))
    tail = (1 - level) / 2
    return (xs[int(tail * (len(xs) - 1))], xs[round((1 - tail) * (len(xs) - 1))])


def bootstrap_rate(packs: Sequence[Pack], rounds: int, rng: random.Random
                   ) -> tuple[float, float]:
    """95% interval of A's rate, whole packs resampled with replacement."""
    n = len(packs)
    return quantiles([rate([packs[rng.randrange(n)] for _ in range(n)])
                      for _ in range(rounds)])


def bootstrap_difference(runs: Sequence[Pack], bases: Sequence[Pack], rounds: int,
                         rng: random.Random) -> tuple[float, float]:
    """95% interval of (A's rate in ``runs``) - (in ``bases``), the same packs resampled
    for both (pack i of one is pack i of the other)."""
    n = len(runs)
    diffs = []
    for _ in range(rounds):
        picks = [rng.randrange(n) for _ in range(n)]
        diffs.append(rate([runs[i] for i in picks]) - rate([bases[i] for i in picks]))
    return quantiles(diffs)


def summary(name: str, packs: Sequence[Pack], rounds: int, rng: random.Random) -> str:
    """One line: deals won / lost / tied, the rate, its Wilson and bootstrap intervals."""
    won, lost = sum(p.won for p in packs), sum(p.lost for p in packs)
    tied = sum(p.tied for p in packs)
    lo, hi = wilson(won, won + lost)
    blo, bhi = bootstrap_rate(packs, rounds, rng)
    return (f"{name}: {len(packs)} packs, A won {won}, lost {lost}, tied {tied}, rate "
            f"{rate(packs):.3f} (Wilson {lo:.3f} .. {hi:.3f}; packs resampled "
            f"{blo:.3f} .. {bhi:.3f})")


def paired_line(name: str, runs: Sequence[Pack], bases: Sequence[Pack], rounds: int,
                rng: random.Random) -> str:
    """One line: the net deals gained pack by pack over the baseline, with its standard
    error, the packs that changed, and the rate's difference with its bootstrap interval."""
    diffs = [r.net - b.net for r, b in zip(runs, bases, strict=True)]
    se = math.sqrt(sum(d * d for d in diffs))
    lo, hi = bootstrap_difference(runs, bases, rounds, rng)
    return (f"{name}: net deals {sum(diffs):+d} over the baseline (s.e. {se:.1f}; "
            f"{sum(d != 0 for d in diffs)} of {len(diffs)} packs changed), rate "
            f"{rate(runs) - rate(bases):+.3f} ({lo:+.3f} .. {hi:+.3f})")


def main(argv: Sequence[str] | None = None) -> None:
    """Print each dump's figures, pooled figures, and the paired differences."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dumps", nargs="+", help="arena --dump files of the variant (A)")
    parser.add_argument("--base", nargs="+", default=None,
                        help="the baseline's dumps of the same packs, in the same order")
    parser.add_argument("--rounds", type=int, default=2000, help="bootstrap resamples")
    parser.add_argument("--seed", type=int, default=0, help="the bootstrap's random seed")
    args = parser.parse_args(argv)
    if args.base is not None and len(args.base) != len(args.dumps):
        parser.error("--base needs one file per dump, in the same order")
    rng = random.Random(args.seed)
    try:
        runs = [load(p) for p in args.dumps]
        bases = [load(p) for p in args.base] if args.base is not None else []
    except (OSError, ValueError) as exc:
        parser.error(str(exc))
    for path, base, run in zip(args.base, bases, runs, strict=True) if bases else ():
        if len(base) != len(run):
            parser.error(f"{path} has {len(base)} packs, its variant {len(run)}: "
                         "not the same packs")
    for path, packs in zip(args.dumps, runs, strict=True):
        print(summary(path, packs, args.rounds, rng))
    pooled = [p for packs in runs for p in packs]
    if len(runs) > 1:
        print(summary("pooled", pooled, args.rounds, rng))
    if not bases:
        return
    for path, packs in zip(args.base, bases, strict=True):
        print(summary(f"base {path}", packs, args.rounds, rng))
    pooled_base = [p for packs in bases for p in packs]
    if len(bases) > 1:
        print(summary("base pooled", pooled_base, args.rounds, rng))
    for path, packs, base in zip(args.dumps, runs, bases, strict=True):
        print(paired_line(f"paired {path}", packs, base, args.rounds, rng))
    if len(runs) > 1:
        print(paired_line("paired, pooled", pooled, pooled_base, args.rounds, rng))


if __name__ == "__main__":
    main()
