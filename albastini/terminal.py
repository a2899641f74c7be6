"""Play any game of ``GAMES`` in a terminal against its computer players, from the views alone.

    python -m albastini --game twentyeight --mode "4 pairs" --seat 0 --seed 7
    python -m albastini --game twentyeight --auto --one-deal     # watch computer players

Albastini has a terminal of its own with more to say (``albastini.__main__``); this one works
for every game through the common interface: it shows what the seat's view holds (the hand, the
auction or bids, the trump as far as the seat may know it, the trick in progress, the points and
the match's score) and numbers the legal moves. On your turn, type a number, an action code
(``bid:16``, ``play:JH``), ``?`` for the table again or ``q`` to quit.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, TextIO

from .games import GAMES

__all__ = ["main"]

Reader = Callable[[str], str]


def describe(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    """The lines of a seat's view worth reading, whatever the game."""
    lines = [f"Phase: {view['phase']}" + _turn(view, names)]
    if view.get("hand"):
        lines.append("Your hand: " + " ".join(view["hand"]))
    if view.get("bids"):
        said = [f"{names[b['seat']]} {b['bid'] if b['bid'] is not None else 'pass'}"
                for b in view["bids"]]  # fmt: skip
        lines.append("Bids: " + ", ".join(said))
    if view.get("contract"):
        what = "Highest bid" if view["phase"] == "bidding" else "Contract"
        lines.append(f"{what}: {view['contract']} by {names[view['bidder']]}")
    if view.get("trump_card"):
        lines.append(f"Trump card: {view['trump_card']}" + (
            " (face down)" if view.get("trump_face_down") else ""))  # fmt: skip
    elif view.get("trump_face_down"):
        lines.append("Trump: face down by the bidder")
    plays = view.get("current") or (view.get("trick") or {}).get("plays") or []
    if plays:
        lines.append("Trick: " + ", ".join(f"{names[s]} {c}" for s, c in plays))
    last = view.get("last_trick")
    if last and not plays:
        lines.append(f"Last trick to {names[last['winner']]} ({last['points']} points)")
    if isinstance(view.get("points"), list):
        lines.append("Card points: " + " / ".join(map(str, view["points"])))
    return lines


def _turn(view: dict[str, Any], names: Sequence[str]) -> str:
    seat = view.get("to_act")
    return "" if seat is None else f" · {names[seat]} to act"


def choose(view: dict[str, Any], text: str) -> str | None:
    """The code a typed answer means: a number of the menu or a legal code; None otherwise."""
    legal: list[str] = list(view["legal"])
    text = text.strip()
    if text.isdigit() and 1 <= int(text) <= len(legal):
        return legal[int(text) - 1]
    return text if text in legal else None


class Quit(Exception):
    """The player asked to stop (``q`` or end of input)."""


def play(
    package: ModuleType,
    match: Any,
    human: int | None,
    *,
    level: str,
    seed: int,
    one_deal: bool,
    read: Reader,
    out: TextIO,
) -> int:
    """Play ``match`` to its end (or one deal); returns the exit status."""
    players = match.players
    names = ["You" if s == human else f"Computer {s}" for s in range(players)]
    computers = {s: package.make_player(level, seed=seed * 16 + s)
                 for s in range(players) if s != human}  # fmt: skip
    view_of = getattr(package, "table_view", None)
    deal_no = 1
    try:
        while True:
            deal = match.deal
            print(f"\nDeal {deal_no}, dealt by {names[deal.dealer]}", file=out)
            while deal.phase != "finished":
                seat = deal.to_act
                view = view_of(deal, seat) if view_of else deal.view(seat)
                if seat == human:
                    code = _ask(view, names, read, out)
                else:
                    code = computers[seat].choose(view)
                deal.apply(code)
                print(f"  {names[seat]}: {_as_seen(deal, code, human, view_of)}", file=out)
            result = deal.result()
            print(f"Deal {deal_no} over. Card points: {list(result.points)}, "
                  f"game points: {list(result.game_points)}", file=out)  # fmt: skip
            print(f"Score: {match.scores}", file=out)
            if one_deal:
                return 0
            if match.finished:
                winner = match.winner
                print("The match is over: " + (
                    "a draw." if winner is None else f"side {winner} wins!"), file=out)  # fmt: skip
                return 0
            match.next_deal()
            deal_no += 1
    except Quit:
        print("Bye.", file=out)
        return 0


def _as_seen(deal: Any, code: str, human: int | None, view_of: Any) -> str:
    """A move as the person at the terminal may see it: a hidden card stays hidden (the game's
    table view masks it in its log); watching computers only, every move as it is."""
    if human is None or view_of is None:
        return code
    log = view_of(deal, human).get("log") or []
    return str(log[-1][1]) if log else code


def _ask(view: dict[str, Any], names: Sequence[str], read: Reader, out: TextIO) -> str:
    shown = False
    while True:
        if not shown:
            for line in describe(view, names):
                print(line, file=out)
            for i, code in enumerate(view["legal"], 1):
                print(f"  {i}. {code}", file=out)
            shown = True
        try:
            text = read("Your move: ")
        except EOFError:
            raise Quit from None
        if text.strip().lower() == "q":
            raise Quit
        if text.strip() == "?":
            shown = False
            continue
        code = choose(view, text)
        if code is not None:
            return code
        print(f"{text!r} is not one of your moves: type a number from 1 to "
              f"{len(view['legal'])} or a code from the list.", file=out)  # fmt: skip


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
    """Parse the command line (``--game`` names a game other than Albastini) and play."""
    parser = argparse.ArgumentParser(
        prog="python -m albastini",
        description="Play a card game in the terminal against computer players.",
    )
    parser.add_argument("--game", required=True, choices=sorted(GAMES))
    args, _ = parser.parse_known_args(argv)
    package = GAMES[args.game]
    modes = list(package.MODES)
    default_mode = getattr(package, "DEFAULT_MODE", modes[0])
    parser.add_argument("--mode", default=default_mode, choices=modes)
    parser.add_argument("--target", type=int, default=None, help="the score that ends a match")
    parser.add_argument("--seat", type=int, default=0, help="your seat, 0 = first")
    parser.add_argument("--seed", type=int, default=None, help="make the match reproducible")
    parser.add_argument("--level", default="normal", choices=list(package.LEVELS))
    parser.add_argument("--auto", action="store_true", help="computer players on every seat")
    parser.add_argument("--one-deal", action="store_true", help="play a single deal")
    args = parser.parse_args(argv)
    stream = out or sys.stdout
    mode = package.MODES[args.mode]
    players, team_size = mode["players"], mode["team_size"]
    if not 0 <= args.seat < players:
        parser.error(f"--seat must be from 0 to {players - 1} in mode {args.mode!r}")
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    dealer = random.Random(seed).randrange(players)
    target = args.target if args.target is not None else getattr(package, "DEFAULT_TARGET", 5)
    if target < 1:
        parser.error("--target must be at least 1")
    match = package.Match(players, team_size, target, dealer, seed=seed)
    print(f"{args.game} · {args.mode} · target {target} · seed {seed} · "
          f"computer players: {args.level}", file=stream)  # fmt: skip

    def read(prompt: str) -> str:
        print(prompt, end="", file=stream, flush=True)
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    human = None if args.auto else args.seat
    return play(package, match, human, level=args.level, seed=seed, one_deal=args.one_deal,
                read=read, out=stream)  # fmt: skip
