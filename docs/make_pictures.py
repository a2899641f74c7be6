"""The table pictures of docs/pictures/: every game, mid-deal and at the end of a deal.

Drawn by the bot's own renderer (``cogs.render.picture``) from real deals played at random
with fixed seeds, as the table message shows them (the public view, with the match's deal
number, scores and target), and saved as PNG. ``--phone DIR`` also writes each picture at
400 pixels wide, the size Discord shows it on a phone, to look at.

    .venv/bin/python docs/make_pictures.py
    .venv/bin/python docs/make_pictures.py --lang sw --out /tmp/pictures --phone /tmp/phone
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image

from albastini.games.interface import MatchLike, game
from cogs.games import presenter
from cogs.render.picture import table_image

NAMES = ["Neema", "Baraka Mwakalinga", "Juma", "Amina", "Zawadi", "Fatuma"]
#: game -> (players, team size, target, seed) of the match shown.
SHOWN = {
    "albastini": (4, 2, 5, 11),
    "twentyeight": (4, 2, 6, 5),
    "cassino": (3, 1, 21, 3),
    "ass": (4, 1, 0, 7),
}


def public(name: str, match: MatchLike, deal_no: int, target: int) -> dict[str, Any]:
    """The table's public view, as ``Table.public_view`` gives it to the picture."""
    players = len(match.deal.view(None)["hand_sizes"])
    return {**game(name).view(match, None), "game": name, "deal_no": deal_no,
            "scores": list(match.scores), "target": target, "names": NAMES[:players]}


def play_until(name: str, match: MatchLike, rng: random.Random,
               stop: Callable[[dict[str, Any]], bool]) -> bool:
    """Random legal moves until ``stop(view)`` or the end of the deal; whether it stopped."""
    rules = game(name)
    while not rules.deal_over(match):
        if stop(rules.view(match, None)):
            return True
        rules.apply(match, rng.choice(rules.legal(match)))
    return stop(rules.view(match, None))


def busy(view: dict[str, Any]) -> bool:
    """A moment worth showing: a trick half played after another one (trick games), or a
    build on a table of several items (Cassino)."""
    if view["phase"] != "playing":
        return False
    if "table" in view:
        items = view["table"]
        return len(items) >= 4 and any(it["kind"] != "card" for it in items)
    current = view.get("current") or []
    return bool(view.get("last_trick")) and len(current) == view["players"] - 1


def views(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(mid-deal, end of deal) public views of the third deal of a match of ``name``."""
    players, team_size, target, seed = SHOWN[name]
    rules = game(name)
    while True:  # the first seed from ``seed`` on whose match lasts three deals
        rng = random.Random(seed)
        match = rules.new_match(players, team_size, target, 0, seed)
        for _deal in range(2):
            play_until(name, match, rng, lambda _view: False)
            if match.finished:
                break
            rules.next_deal(match, rng.getrandbits(32))
        if not match.finished and play_until(name, match, rng, busy):
            break
        seed += 1
    deal_no = 3
    middle = public(name, match, deal_no, target)
    play_until(name, match, rng, lambda _view: False)
    return middle, public(name, match, deal_no, target)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "pictures")
    parser.add_argument("--phone", type=Path, default=None)
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name in SHOWN:
        for moment, view in zip(("middle", "end"), views(name), strict=True):
            img = table_image(view, NAMES[: view["players"]], args.lang, shows=presenter(name))
            path = args.out / f"{name}_{moment}.png"
            img.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
            print(f"{path} ({path.stat().st_size // 1000} KB)")
            if args.phone:
                args.phone.mkdir(parents=True, exist_ok=True)
                small = img.resize((img.width // 2, img.height // 2), Image.Resampling.LANCZOS)
                small.save(args.phone / f"{name}_{moment}_400.png")


if __name__ == "__main__":
    main()
