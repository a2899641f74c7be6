"""Render benchmark: milliseconds per table picture (``cogs.render.table_picture``) per game mode.

Prints figures, asserts nothing. Each mode's view is a deal in play, taken from the real engine
(a few moves in, so cards lie on the table and a last round shows), with what the table adds to
the public view (deal number, scores, target): one picture per table update. Caches are warmed
by one picture first: the bot draws thousands of pictures per process. Each mode's line gives
the median wall-clock time and the median CPU time of the process per picture (the CPU time
moves less with the other work of a shared machine). Last line: ``picture_ms: X`` (median wall
time over all modes). ``--save DIR`` writes one picture per mode for a look.

To compare with another checkout in the same sitting, put it first on ``PYTHONPATH``: this
script then draws with that checkout's renderer (one that takes no language is called without).

    .venv/bin/python bench/render.py
    .venv/bin/python bench/render.py --save /tmp/pictures
    git worktree add /tmp/base <commit> && PYTHONPATH=/tmp/base .venv/bin/python bench/render.py
"""

from __future__ import annotations

import argparse
import inspect
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parent.parent))  # after PYTHONPATH: see above

from albastini import new_deal
from cogs.games import presenter
from cogs.render import table_picture

ALB = presenter("albastini")
#: The picture's language, where the renderer takes one.
LANG = ("en",) if "lang" in inspect.signature(table_picture).parameters else ()

MODES = [(2, 1), (3, 1), (4, 2), (4, 1), (5, 1), (6, 2), (6, 3)]
NAMES = ["Neema", "Baraka Mwakalinga", "Juma", "Amina", "Zawadi", "Fatuma"]
REPEAT = 30


def _view(players: int, team_size: int, moves: int) -> dict[str, Any]:
    rng = random.Random(players * 10 + team_size)
    deal = new_deal(players=players, team_size=team_size, dealer=0, seed=rng.getrandbits(64))
    for _ in range(moves):
        legal = deal.legal_actions()
        if not legal:
            break
        deal.apply(rng.choice(legal))
    # Then on until the round in progress shows all cards but one (the busiest picture).
    for _ in range(50):
        view = deal.view(None)
        if view["phase"] == "playing" and len(view.get("current") or []) == players - 1:
            break
        deal.apply(rng.choice(deal.legal_actions()))
    teams = players // team_size
    return {**deal.view(None), "game": "albastini", "deal_no": 3, "scores": [2, 1, 0][:teams],
            "target": 5, "names": NAMES[:players]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=REPEAT)
    parser.add_argument("--save", type=Path, default=None)
    args = parser.parse_args()
    medians: list[float] = []
    for players, team_size in MODES:
        view = _view(players, team_size, moves=players * 2 + 2)
        names = NAMES[:players]
        picture = table_picture(view, names, *LANG, shows=ALB)  # warm the caches
        times, cpu = [], []
        for _ in range(args.repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            table_picture(view, names, *LANG, shows=ALB)
            times.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
        med = statistics.median(times)
        medians.append(med)
        print(f"{players} players, teams of {team_size}: {med:6.1f} ms/picture "
              f"(min {min(times):.1f}, CPU {statistics.median(cpu):.1f}), "
              f"{len(picture) / 1000:.0f} KB")
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"table_{players}_{team_size}.jpg").write_bytes(picture)
    print(f"picture_ms: {statistics.median(medians):.1f}")


if __name__ == "__main__":
    main()
