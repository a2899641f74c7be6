"""Fit the value of a heads-up Cassino deal at a round's end
(:mod:`albastini.games.cassino.ai.horizon`) on deals played out.

Heads-up deals are played by pairs of players (``--pairs expert:expert,expert:normal``);
at every round's end with cards left to deal (the next round just dealt, as a rollout of
hard's search leaves it at its horizon), :func:`.horizon.features` is recorded for each
side with how the deal ended for it: won (1), tied (0.5) or lost (0), and the points'
margin. Then a logistic regression of the result (soft labels, Newton's method, a small
ridge) and a least-squares fit of the margin, on the same features, with no intercept (the
features are differences between the sides, so the models are symmetric). Printed: the
weights to paste into ``horizon.WIN`` and ``horizon.MARGIN``, and on the held-out deals
(``--test``) the log loss and the margin's error, against the proxy the rollouts used
before (the lead in cards' worth, :func:`.core.worth_now` of the piles).

    .venv/bin/python bench/cas_horizon.py --deals 600 --test 150 --seed 9100

Pure Python (no numpy in the project): the systems are 10 by 10.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from albastini.games import cassino as cas
from albastini.games.cassino.ai import horizon
from bench.experts import make_expert

Row = tuple[list[float], float, float]


def bot(level: str, seed: int) -> object:
    """A player for one seat: ``expert`` or a level of the game."""
    return make_expert("cassino", seed) if level == "expert" else cas.make_player(
        level, seed=seed)


def play(pairs: Sequence[tuple[str, str]], deals: int, seed: int) -> list[list[Row]]:
    """Per deal, the rows (features, result, margin) of its round ends, both sides."""
    rng = random.Random(seed)
    out: list[list[Row]] = []
    for index in range(deals):
        a, b = pairs[index % len(pairs)]
        levels = [a, b] if rng.random() < 0.5 else [b, a]
        bots = [bot(lv, rng.getrandbits(32)) for lv in levels]
        deal = cas.new_deal(2, 1, rng.randrange(2), seed=rng.getrandbits(63))
        st = deal.state
        seen: list[list[list[float]]] = []
        rnd = st.round
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            deal.apply(bots[seat].choose(cas.table_view(deal, seat)))  # type: ignore[attr-defined]
            if not st.finished and st.round != rnd:
                rnd = st.round
                seen.append([horizon.features(st, t) for t in range(2)])
        points, _ = st.score()
        rows: list[Row] = []
        for xs in seen:
            for t in range(2):
                m = float(points[t] - points[1 - t])
                rows.append((xs[t], 1.0 if m > 0 else 0.5 if m == 0 else 0.0, m))
        out.append(rows)
    return out


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def least_squares(xs: list[list[float]], ys: list[float], ridge: float) -> list[float]:
    """Weights minimising the squared error plus ``ridge`` times their squares."""
    n = len(xs[0])
    a = [[sum(x[i] * x[j] for x in xs) + (ridge if i == j else 0.0) for j in range(n)]
         for i in range(n)]
    b = [sum(x[i] * y for x, y in zip(xs, ys, strict=True)) for i in range(n)]
    return solve(a, b)


def sigmoid(z: float) -> float:
    """The logistic function."""
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


def logistic(xs: list[list[float]], ys: list[float], ridge: float) -> list[float]:
    """Weights of a logistic regression of ``ys`` (in [0, 1]) by Newton's method."""
    n = len(xs[0])
    w = [0.0] * n
    for _ in range(25):
        ps = [sigmoid(horizon.dot(w, x)) for x in xs]
        grad = [sum((p - y) * x[i] for x, y, p in zip(xs, ys, ps, strict=True)) + ridge * w[i]
                for i in range(n)]
        hess = [[sum(p * (1 - p) * x[i] * x[j] for x, p in zip(xs, ps, strict=True))
                 + (ridge if i == j else 0.0) for j in range(n)] for i in range(n)]
        step = solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-8:
            break
    return w


def log_loss(ps: list[float], ys: list[float]) -> float:
    """The mean cross-entropy of soft labels ``ys`` under ``ps``."""
    eps = 1e-9
    return -sum(y * math.log(max(p, eps)) + (1 - y) * math.log(max(1 - p, eps))
                for p, y in zip(ps, ys, strict=True)) / len(ys)


def main() -> None:
    """Play, fit, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", default="expert:expert,expert:normal",
                        help="comma-separated A:B pairs, played in turn")
    parser.add_argument("--deals", type=int, default=600, help="deals to fit on")
    parser.add_argument("--test", type=int, default=150, help="held-out deals")
    parser.add_argument("--seed", type=int, default=9100)
    parser.add_argument("--ridge", type=float, default=1.0)
    args = parser.parse_args()
    pairs = [(p.split(":")[0], p.split(":")[1]) for p in args.pairs.split(",")]
    train = [r for d in play(pairs, args.deals, args.seed) for r in d]
    test = [r for d in play(pairs, args.test, args.seed + 1) for r in d]
    xs = [r[0] for r in train]
    win = logistic(xs, [r[1] for r in train], args.ridge)
    margin = least_squares(xs, [r[2] for r in train], args.ridge)
    print(f"{len(train)} rows to fit ({args.deals} deals), {len(test)} held out "
          f"({args.test} deals), pairs {args.pairs}, seed {args.seed}")
    print(f"{'feature':14} {'win':>8} {'margin':>8}")
    for name, w, m in zip(horizon.FEATURES, win, margin, strict=True):
        print(f"{name:14} {w:8.4f} {m:8.4f}")
    print("WIN = (" + ", ".join(f"{w:.4f}" for w in win) + ")")
    print("MARGIN = (" + ", ".join(f"{m:.4f}" for m in margin) + ")")
    ys = [r[1] for r in test]
    ms = [r[2] for r in test]
    ps = [sigmoid(horizon.dot(win, r[0])) for r in test]
    base = log_loss([0.5] * len(ys), ys)
    decided = [(p, y) for p, y in zip(ps, ys, strict=True) if y != 0.5]
    right = sum((p > 0.5) == (y > 0.5) for p, y in decided) / max(1, len(decided))
    print(f"held out: log loss {log_loss(ps, ys):.4f} (a coin: {base:.4f}); "
          f"accuracy {right:.3f}")
    pred = [horizon.dot(margin, r[0]) for r in test]
    mse = sum((p - m) ** 2 for p, m in zip(pred, ms, strict=True)) / len(ms)
    var = sum(m ** 2 for m in ms) / len(ms)
    # the proxy: the lead in points won so far alone
    pts = [r[0][0] for r in test]
    mse0 = sum((p - m) ** 2 for p, m in zip(pts, ms, strict=True)) / len(ms)
    print(f"held out: margin's mean squared error {mse:.2f} (the points won so far alone "
          f"{mse0:.2f}; zero {var:.2f})")


if __name__ == "__main__":
    main()
