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
from .texts import DEFAULT_LANGUAGE, LANGUAGES, texts

__all__ = ["check_seats", "game_named", "lang_named", "main", "parser_for", "reader"]

#: The game played when ``--game`` is not given: the first the bot hosted.
DEFAULT_GAME = next(iter(GAMES))


def _first(argv: Sequence[str] | None) -> argparse.Namespace:
    """The ``--game`` and ``--lang`` of a command line, read before the game's own parser
    (which they choose, and whose words they set)."""
    first = argparse.ArgumentParser(add_help=False)
    first.add_argument("--game", default=DEFAULT_GAME)
    first.add_argument("--lang", default=DEFAULT_LANGUAGE)
    known, _ = first.parse_known_args(argv)
    return known


def game_named(argv: Sequence[str] | None) -> str:
    """The ``--game`` of a command line (the default game without one; an unknown name is
    left for the full parser to refuse)."""
    name = _first(argv).game
    return str(name) if name in GAMES else DEFAULT_GAME


def lang_named(argv: Sequence[str] | None) -> str:
    """The ``--lang`` of a command line (English without one; an unknown language is left for
    the full parser to refuse, listing the choices)."""
    lang = _first(argv).lang
    return str(lang) if lang in LANGUAGES else DEFAULT_LANGUAGE


def parser_for(
    name: str,
    *,
    mode: str | None = None,
    level: str = "normal",
    levels: Sequence[str] | None = None,
    level_help: str | None = None,
    typing: str | None = None,
    lang: str = DEFAULT_LANGUAGE,
) -> argparse.ArgumentParser:
    """The parser of the game ``name``, its help in ``lang``: its modes, its levels of
    computer players (``levels`` None: any word, ``level_help`` says which), its target when a
    match has one, its own options, and what to type on a turn (``typing``: the game's
    presenter's words)."""
    rules = game(name)
    package = GAMES[name]
    shows = presenter(name, lang)
    tr = shows.tr
    modes = list(package.MODES)
    parser = argparse.ArgumentParser(
        prog="python -m albastini",
        description=tr("help.description", game=shows.title),
        epilog=tr("help.epilog", typing=typing or shows.typing),
    )
    parser.add_argument("--game", default=DEFAULT_GAME, choices=list(GAMES),
                        help=tr("help.game", default=DEFAULT_GAME))
    parser.add_argument("--lang", default=DEFAULT_LANGUAGE, choices=list(LANGUAGES),
                        help=tr("help.lang", default=DEFAULT_LANGUAGE))
    parser.add_argument("--mode", default=mode or getattr(package, "DEFAULT_MODE", modes[0]),
                        choices=modes, help=tr("help.mode"))
    if rules.has_target:
        target = rules.default_target or 5
        parser.add_argument("--target", type=int, default=target,
                            help=tr("help.default", text=shows.target_help, default=target))
    parser.add_argument("--seat", type=int, default=1, help=tr("help.seat"))
    parser.add_argument("--dealer", type=int, default=None, help=tr("help.dealer"))
    parser.add_argument("--seed", type=int, default=None, help=tr("help.seed"))
    parser.add_argument("--level", default=level, choices=list(levels) if levels else None,
                        help=level_help or tr("help.level"))
    for option, values in rules.options.items():
        parser.add_argument(f"--{option}", type=int, choices=list(values), default=None,
                            help=shows.option_help(option))
    parser.add_argument("--auto", action="store_true", help=tr("help.auto"))
    parser.add_argument("--one-deal", action="store_true", help=tr("help.one_deal"))
    parser.add_argument("--delay", type=float, default=0.0, help=tr("help.delay"))
    return parser


def check_seats(parser: argparse.ArgumentParser, args: argparse.Namespace,
                players: int) -> tuple[int, int, int]:
    """(your seat, the first dealer, the seed), counted from 0 as the games count seats, from
    the command line's seats counted from 1; a clear error for a seat the table lacks."""
    tr = texts(getattr(args, "lang", DEFAULT_LANGUAGE))
    mode = args.mode
    if not 1 <= args.seat <= players:
        parser.error(tr("error.seat", option="--seat", players=players, mode=repr(mode)))
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    if args.dealer is not None and not 1 <= args.dealer <= players:
        parser.error(tr("error.seat", option="--dealer", players=players, mode=repr(mode)))
    dealer = args.dealer - 1 if args.dealer is not None else random.Random(seed).randrange(players)
    if getattr(args, "target", 1) < 1:
        parser.error(tr("error.target"))
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
    name, lang = game_named(argv), lang_named(argv)
    rules = game(name)
    package = GAMES[name]
    shows = presenter(name, lang)
    parser = parser_for(name, levels=rules.levels, lang=lang)
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
        parser.error(shows.option_error(exc))
    match = rules.new_match(players, team_size, target, dealer, seed, options)
    human = None if args.auto else seat
    computers: dict[int, Chooser] = {
        s: package.make_player(args.level, seed=seed * 16 + s)
        for s in range(players) if s != human
    }
    print(shows.tr("first_line", game=shows.title, mode=args.mode,
                   terms=shows.match_terms(match), seed=seed, level=args.level), file=stream)
    session = Session(rules, shows, match, human, computers, one_deal=args.one_deal,
                      delay=args.delay, read=reader(stream), out=stream)
    return session.play()
