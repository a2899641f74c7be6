"""The command line of ``python -m albastini``, the same for every game: ``--game`` picks the
game, and ``--game NAME --help`` lists that game's own choices (its modes, levels, target and
options). Seats are counted from 1, as on Discord."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import TextIO

from ..games import GAMES
from ..games.interface import game
from .presenter import presenter
from .session import Chooser, Reader, Session

__all__ = ["check_seats", "game_named", "main", "parser_for", "reader"]

#: The game played when ``--game`` is not given: the first the bot hosted.
DEFAULT_GAME = next(iter(GAMES))


def game_named(argv: Sequence[str] | None) -> str:
    """The ``--game`` of a command line (the default game without one; an unknown name is
    left for the full parser to refuse)."""
    first = argparse.ArgumentParser(add_help=False)
    first.add_argument("--game", default=DEFAULT_GAME)
    known, _ = first.parse_known_args(argv)
    return str(known.game) if known.game in GAMES else DEFAULT_GAME


def parser_for(
    name: str,
    *,
    mode: str | None = None,
    level: str = "normal",
    levels: Sequence[str] | None = None,
    level_help: str | None = None,
    typing: str | None = None,
) -> argparse.ArgumentParser:
    """The parser of the game ``name``: its modes, its levels of computer players (``levels``
    None: any word, ``level_help`` says which), its target when a match has one, its own
    options, and what to type on a turn (``typing``: the game's presenter's words)."""
    rules = game(name)
    package = GAMES[name]
    shows = presenter(name)
    modes = list(package.MODES)
    parser = argparse.ArgumentParser(
        prog="python -m albastini",
        description=f"Play {shows.title} in the terminal against computer players.",
        epilog=(f"On your turn type {typing or shows.typing}; ? shows the table again, q quits. "
                f"Other games: --game NAME --help."),
    )
    parser.add_argument("--game", default=DEFAULT_GAME, choices=list(GAMES),
                        help=f"the game (default {DEFAULT_GAME})")
    parser.add_argument("--mode", default=mode or getattr(package, "DEFAULT_MODE", modes[0]),
                        choices=modes, help="the table: players (and teams)")
    if rules.has_target:
        target = rules.default_target or 5
        parser.add_argument("--target", type=int, default=target,
                            help=f"{shows.target_help} (default {target})")
    parser.add_argument("--seat", type=int, default=1, help="your seat, 1 = the first")
    parser.add_argument("--dealer", type=int, default=None,
                        help="the first dealer's seat, 1 = the first (default: drawn)")
    parser.add_argument("--seed", type=int, default=None, help="make the match reproducible")
    parser.add_argument("--level", default=level, choices=list(levels) if levels else None,
                        help=level_help or "the computer players' level")
    for option, values in rules.options.items():
        parser.add_argument(f"--{option}", type=int, choices=list(values), default=None,
                            help=shows.option_help.get(option, "a choice of the match"))
    parser.add_argument("--auto", action="store_true", help="computer players on every seat")
    parser.add_argument("--one-deal", action="store_true", help="play a single deal")
    parser.add_argument("--delay", type=float, default=0.0,
                        help="seconds a computer player waits before each move")
    return parser


def check_seats(parser: argparse.ArgumentParser, args: argparse.Namespace,
                players: int) -> tuple[int, int, int]:
    """(your seat, the first dealer, the seed), counted from 0 as the games count seats, from
    the command line's seats counted from 1; a clear error for a seat the table lacks."""
    mode = args.mode
    if not 1 <= args.seat <= players:
        parser.error(f"--seat must be from 1 to {players} in mode {mode!r}")
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    if args.dealer is not None and not 1 <= args.dealer <= players:
        parser.error(f"--dealer must be from 1 to {players} in mode {mode!r}")
    dealer = args.dealer - 1 if args.dealer is not None else random.Random(seed).randrange(players)
    if getattr(args, "target", 1) < 1:
        parser.error("--target must be at least 1")
    return args.seat - 1, dealer, seed


def reader(stream: TextIO) -> Reader:
    """Read a line from standard input after printing ``prompt`` to ``stream``; EOFError at
    the end of the input."""

    def read(prompt: str) -> str:
        print(prompt, end="", file=stream, flush=True)
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    return read


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
    """Play the game ``--game`` names at the terminal; returns the exit status."""
    name = game_named(argv)
    rules = game(name)
    package = GAMES[name]
    shows = presenter(name)
    parser = parser_for(name, levels=rules.levels)
    args = parser.parse_args(argv)
    stream = out or sys.stdout
    mode = package.MODES[args.mode]
    players, team_size = int(mode["players"]), int(mode["team_size"])
    seat, dealer, seed = check_seats(parser, args, players)
    target = int(getattr(args, "target", 0))
    options = {o: getattr(args, o) for o in rules.options if getattr(args, o) is not None}
    try:
        rules.check_options(players, team_size, options)
    except ValueError as exc:
        parser.error(str(exc))
    match = rules.new_match(players, team_size, target, dealer, seed, options)
    human = None if args.auto else seat
    computers: dict[int, Chooser] = {
        s: package.make_player(args.level, seed=seed * 16 + s)
        for s in range(players) if s != human
    }
    print(f"{shows.title} · {args.mode} · {shows.match_terms(match)} · seed {seed} · "
          f"computer players: {args.level}", file=stream)
    session = Session(rules, shows, match, human, computers, one_deal=args.one_deal,
                      delay=args.delay, read=reader(stream), out=stream)
    return session.play()
