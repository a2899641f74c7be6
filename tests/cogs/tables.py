"""Tables of every game in every mode at the moments a picture must get right, as the table
message draws them: the public view of a real deal (``Game.view(match, None)``) with the
match's deal number, scores and target, and what every seat holds (to check that nothing of it
shows).

The moments: the start of a deal (bidding, auction, bets), a trick with all cards but one
down after a first trick (the last trick shown beside it), the moment a trick has just been
won, the end of the deal; Twenty-Eight's trump being chosen, lying face down, and shown; a
crowded Cassino table; Ass with each of its trump variants.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from albastini.games import GAMES
from albastini.games.interface import Game, MatchLike, game

#: Long names, a raw mention and a name the font cannot draw: what plates must survive.
NAMES = ["Neema Wanjiku", "Baraka Mwakalinga", "<@123456789012345678>", "王小明",
         "Zawadi Nyerere-Kikwete", "Fatuma"]
#: Scores as the match keeps them, by side: wide ones (Twenty-Eight's can be negative; Ass's
#: are banks negated).
SCORES = {"albastini": [4, 12, 3, 1, 0, 4], "twentyeight": [-2, 14, 7],
          "cassino": [19, 20, 7], "ass": [-5, -3, 0, -1, -2, -4]}
TARGETS = {"albastini": 15, "twentyeight": 6, "cassino": 21, "ass": 5}


@dataclass(frozen=True)
class Sample:
    """One table at one moment: ``view`` is what the picture is drawn from; ``hands`` every
    card a seat holds (or the stock hides) that the public view does not show."""

    game: str
    mode: str
    moment: str
    view: dict[str, Any]
    hidden: frozenset[str]

    def __str__(self) -> str:
        return f"{self.game} {self.mode} {self.moment}"


Moment = Callable[[dict[str, Any]], bool]


def _trick_game(view: dict[str, Any]) -> bool:
    return "current" in view


def _moments(name: str) -> dict[str, Moment]:
    moments: dict[str, Moment] = {
        "start": lambda v: True,
        "busy trick": lambda v: (v["phase"] == "playing" and bool(v.get("last_trick"))
                                 and len(v.get("current") or []) == v["players"] - 1)
        if _trick_game(v) else (v["phase"] == "playing" and len(v.get("table") or []) >= 5),
        "trick won": lambda v: v["phase"] == "playing" and bool(v.get("last_trick"))
        and not v.get("current"),
    }
    if name == "albastini":
        moments["bids shown"] = lambda v: v["phase"] == "bidding" and bool(v.get("bids"))
    if name == "twentyeight":
        moments["auction"] = lambda v: v["phase"] == "bidding" and bool(v.get("bids"))
        moments["trump chosen"] = lambda v: v["phase"] == "trump"
        moments["trump hidden"] = lambda v: v["phase"] == "playing" and bool(
            v.get("trump_face_down")) and bool(v.get("current"))
        moments["trump shown"] = lambda v: v["phase"] == "playing" and bool(v.get("exposed"))
    if name == "cassino":
        moments["build"] = lambda v: any(it["kind"] != "card" for it in v.get("table") or [])
    return moments


def _public(rules: Game, match: MatchLike, name: str, sides: int) -> dict[str, Any]:
    view = rules.view(match, None)
    return {**view, "game": name, "deal_no": 7, "scores": SCORES[name][:sides],
            "target": TARGETS[name], "names": NAMES[: view["players"]]}


def _hidden(rules: Game, match: MatchLike, public: dict[str, Any]) -> frozenset[str]:
    """Cards in the seats' hands that the public view does not show."""
    held: set[str] = set()
    for seat in range(public["players"]):
        held |= {str(c) for c in rules.view(match, seat).get("hand") or []}
    shown = json.dumps({k: v for k, v in public.items() if k != "names"})
    return frozenset(c for c in held if f'"{c}"' not in shown)


def _play(name: str, players: int, team_size: int, options: dict[str, int]) -> list[Sample]:
    rules = game(name)
    moments = _moments(name)
    found: dict[str, Sample] = {}
    mode = f"{players}/{team_size}" + "".join(f" {k}={v}" for k, v in options.items())
    for seed in range(40):
        rng = random.Random(seed)
        match = rules.new_match(players, team_size, TARGETS[name], seed % players, seed, options)
        sides = players // team_size
        while True:
            public = _public(rules, match, name, sides)
            for moment, wanted in moments.items():
                if moment not in found and wanted(public):
                    found[moment] = Sample(name, mode, moment, public,
                                           _hidden(rules, match, public))
            if rules.deal_over(match):
                found.setdefault("end", Sample(name, mode, "end", public, frozenset()))
                break
            rules.apply(match, rng.choice(rules.legal(match)))
        if len(found) == len(moments) + 1:
            break
    return list(found.values())


def _crowded_cassino(players: int) -> Sample:
    """A Cassino table with more items than ever fit: loose cards and builds of every kind."""
    base = next(s for s in samples_of("cassino") if s.mode == f"{players}/{1 if players < 4 else 2}"
                and s.moment == "start")
    ranks = "A23456789TJQK"
    items: list[dict[str, Any]] = []
    for i in range(22):
        code = ranks[i % 13] + "CDHS"[i % 4]
        items.append({"id": code, "cards": [code], "kind": "card", "value": i % 13 + 1,
                      "controller": None})
    for i, kind in enumerate(("simple", "compound", "simple")):
        cards = ["2C", "7D", "9S"][: 2 + i % 2]
        items.insert(3 * i + 1, {"id": cards[0], "cards": cards, "kind": kind, "value": 9,
                                 "controller": i % players})
    view = {**base.view, "table": items}
    return Sample("cassino", base.mode, "crowded table", view, frozenset())


@cache
def samples_of(name: str) -> tuple[Sample, ...]:
    package = GAMES[name]
    out: list[Sample] = []
    for mode in package.MODES.values():
        players, team_size = int(mode["players"]), int(mode["team_size"])
        out += _play(name, players, team_size, {})
        if name == "ass":
            for variant in (2, 3, 5):
                out += [s for s in _play(name, players, team_size, {"trumps": variant})
                        if s.moment in ("busy trick", "start")]
    return tuple(out)


def every_sample() -> Iterator[Sample]:
    """Every game, every mode, every moment (and the crowded Cassino tables)."""
    for name in GAMES:
        yield from samples_of(name)
    for players in (2, 3, 4):
        yield _crowded_cassino(players)
