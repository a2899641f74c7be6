"""How each game looks on Discord: one presenter module per game, found from ``GAMES``.

The registry of the Discord layer. For every game of :data:`albastini.games.GAMES` (the only
list of games), its presenter is this package's module of the same name
(``cogs/games/<game>.py``: module-level members matching
:class:`cogs.render.presenter.Presenter`), and what a command or a button needs to know of a
game is asked here, read from the game's package (through its :class:`~albastini.games.
interface.Game`) or its presenter: the games in their order (:data:`GAME_NAMES`), the rules book
(each presenter's ``RULES_PAGES``), a table's options (the package's ``OPTIONS``). Adding a game
is adding its package and its presenter (and its catalogue keys); nothing here changes.

Two optional members of a presenter: ``LEGACY_MOVES`` (the game's move buttons from before
today's ids, see :func:`legacy_code`) and nothing else; every other member is required.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING, cast

from albastini.games import GAMES
from albastini.games.interface import Game, game

if TYPE_CHECKING:
    from cogs.render.presenter import Presenter

__all__ = [
    "GAME_NAMES",
    "first_game",
    "first_rules_page",
    "legacy_code",
    "option_choices",
    "presenter",
    "rules",
    "rules_page",
    "shown_score",
]

#: Every game the bot hosts, in the order of every list of games (``ORDER``).
GAME_NAMES: tuple[str, ...] = tuple(GAMES)


def first_game() -> str:
    """The bot's first game: what a command that names no game is about, and what the ids of
    buttons sent before a second game existed meant."""
    return GAME_NAMES[0]


@cache
def presenter(name: str) -> Presenter:
    """The presenter of the game ``name`` (a key of ``GAMES``): its module here; KeyError for
    a game the bot does not host."""
    if name not in GAMES:
        raise KeyError(name)
    return cast("Presenter", importlib.import_module(f"{__name__}.{name}"))


def rules(name: str) -> Game:
    """The game ``name`` through the platform's interface (modes, options, levels, ranks)."""
    return game(name)


def shown_score(name: str, score: int) -> int:
    """A match score as the players of ``name`` read it (its presenter's ``shown_score``); the
    score itself for a game this bot no longer hosts (in the history)."""
    try:
        return int(presenter(name).shown_score(score))
    except KeyError:
        return int(score)


# --------------------------------------------------------------------------- the rules book
def _book() -> list[tuple[str, int]]:
    """(game, its number of rules pages) in the book's order: every game's rules one after
    the other, so that a page's number is all a Rules button carries."""
    return [(name, int(presenter(name).RULES_PAGES)) for name in GAME_NAMES]


def first_rules_page(name: str) -> int:
    """The book's page where the rules of ``name`` begin (the first page for an unknown game)."""
    page = 1
    for other, pages in _book():
        if other == name:
            return page
        page += pages
    return 1


def rules_page(page: int) -> tuple[str, int, int, int]:
    """A page of the rules book (clamped into it) as (game, page in that game's rules, that
    game's number of pages, the book's page where they begin)."""
    book = _book()
    page = min(max(1, page), sum(pages for _, pages in book))
    first = 1
    for name, pages in book:
        if page < first + pages:
            return name, page - first + 1, pages, first
        first += pages
    raise AssertionError("unreachable: the page was clamped into the book")


# --------------------------------------------------------------------------- table options
def option_choices(option: str) -> list[tuple[str, int]]:
    """(catalogue key of its name, value) of every value of the table option ``option`` that a
    game's ``OPTIONS`` offers (Ass's ``trumps``: its five variants, ``ass.choice.trumps.<n>``)."""
    return [(f"{name}.choice.{option}.{value}", value)
            for name in GAME_NAMES for value in rules(name).options.get(option, ())]


def legacy_code(letter: str, card: str | None) -> str | None:
    """The action code of a move button sent before ``alb:m:`` ids (the bot's first game's
    only: ``alb:<letter>:<table>:<move>[:<card>]``), from that game's presenter's
    ``LEGACY_MOVES`` (letter -> the code's kind, and whether a card follows it); None for a
    letter, or a card of no card of that game's pack, that does not fit."""
    shows = presenter(first_game())
    legacy: dict[str, tuple[str, bool]] = getattr(shows, "LEGACY_MOVES", {})
    kind, with_card = legacy.get(letter, ("", False))
    if not kind or (card is not None) != with_card:
        return None
    if card is None:
        return kind
    try:
        shows.card_label(card)  # a card of that game's pack, as its buttons named them
    except ValueError:
        return None
    return f"{kind}:{card}"
