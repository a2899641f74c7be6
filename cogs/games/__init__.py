"""How each game looks on Discord: one small presentation module per game, behind one interface.

The Discord layer renders every game the same way (:mod:`cogs.render`: the text table, the hand
message, the picture; :mod:`cogs.views`: the buttons) and asks the table's game (``Table.game``)
for what only that game shows its own way: a :class:`Presenter`. A presenter reads nothing but a
deal's view (``Deal.view``) and the codes in it, and holds no rule: which moves are legal, which
side a seat is on, what a card is worth, how a deal scores all come with the view.

Adding a game is writing ``cogs/games/<name>.py`` (module-level functions matching
:class:`Presenter`) and one line in :func:`presenter`; no other game's module changes.

What the generic renderer already does for every game, from the view: seats and names, whose
turn it is, the dealer, the trick in progress and the last one (``current``, ``winning``,
``last_trick``, ``round``/``rounds_total``), cards in hand, tricks won per side (``team_of``),
the match's score, move buttons (one per card of ``hand``, enabled by the view's ``moves``, and
one per move that puts down no card). What a presenter says, for example for Twenty-Eight:
the auction and the contract (``table_lines``), a trump card lying face down by the bidder
(``draw_centre``, ``table_facts``), "expose" and numeric bids as buttons (``move_button``), base
card scores that can go negative (``deal_summary``).

One optional member: ``shown_score(score) -> int``, a match score as the game's players read
it, when that is not the platform's number (higher is better there); see :func:`shown_score`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from PIL import Image

__all__ = [
    "DEFAULT_GAME",
    "RULES_PAGES",
    "ButtonStyle",
    "Presenter",
    "first_rules_page",
    "presenter",
    "rules_page",
    "shown_score",
]

#: The game of a table that names none (every table before a second game was added).
DEFAULT_GAME = "albastini"

#: The rules of every game, one after the other in one book of pages, so that a page's number
#: is all a Rules button carries: game -> its number of pages, in the book's order. A game's
#: pages are its catalogue texts ``rules.page.<n>`` (``cogs.i18n.game_key``).
RULES_PAGES: dict[str, int] = {"albastini": 6, "twentyeight": 3, "cassino": 3, "ass": 3}

ButtonStyle = Literal["primary", "secondary", "success", "danger"]
#: A deal's view (``Deal.view``), or one legal move of its ``moves``: JSON-like data.
View = Mapping[str, Any]


class Presenter(Protocol):
    """What one game shows its own way. ``lang`` is a catalogue language (``cogs.i18n``),
    ``names`` name the seats (mentions or plain names), ``view`` is a deal's view; every text
    comes from the catalogues."""

    def card_label(self, code: str) -> str:
        """A card of the game's pack as players read it ("A♠"); ValueError for a code that
        is not one of its cards."""

    def table_facts(self, lang: str, view: View) -> list[str]:
        """Short facts of the deal for the table's information line, after the dealer (trump,
        cards left to draw...)."""

    def table_lines(self, lang: str, view: View, names: Sequence[str]) -> list[str]:
        """The game's own lines of the text table, after the information line (the bids; an
        auction and its contract)."""

    def deal_summary(self, lang: str, result: View, side_names: Sequence[str], *,
                     deal_no: int, team_size: int | None) -> str:
        """The end-of-deal line from the view's ``result``: what each side made and why it
        scores what it scores. ``team_size``: players on a side, for the wording."""

    def hand_header(self, lang: str, view: View, names: Sequence[str]) -> str:
        """The first lines of a player's private hand, from that seat's own view."""

    def hand_shows(self, view: View) -> Hashable:
        """The facts of a seat's view its hand message shows besides the cards and the moves
        (the trump, the bids...): the message is edited when they change."""

    def action_text(self, lang: str, code: str, by: str | None) -> str:
        """A move of the view's ``log`` (an action code) as a short sentence: what ``by`` (a
        seat's name) did, or with ``by`` None, to the person who made it, that it counted."""

    def refusal(self, lang: str, rule: str, details: View) -> str | None:
        """Why the game refused a move (the ``rule`` and details of an illegal move, as the
        table service reports them); None for the generic "not possible right now"."""

    def card_button(self, lang: str, card: str, move: View | None, *,
                    moves: Sequence[View], points: int) -> tuple[str, ButtonStyle]:
        """Label and colour of the button of a card in the hand. ``move``: the legal move that
        puts this card down, None when none does (the button is shown disabled); ``moves``: all
        the legal moves; ``points``: the card's points (the view's ``card_points``)."""

    def move_button(self, lang: str, move: View) -> tuple[str, ButtonStyle]:
        """Label and colour of the button of a legal move that puts down no card (a pass)."""

    def front_cards(self, view: View) -> list[tuple[int, str]]:
        """(seat, card) of every card the picture lays face up in front of its player (the
        trick in progress, cards shown while bidding)."""

    def draw_centre(self, canvas: Image.Image, view: View) -> None:
        """Draw the game's pieces in the middle of the table picture (stock, trump...) with
        the primitives of :mod:`cogs.render.picture`."""


def first_rules_page(game: str) -> int:
    """The book's page where the rules of ``game`` begin (the first page for an unknown game)."""
    page = 1
    for name, pages in RULES_PAGES.items():
        if name == game:
            return page
        page += pages
    return 1


def rules_page(page: int) -> tuple[str, int, int, int]:
    """A page of the rules book (clamped into it) as (game, page in that game's rules, that
    game's number of pages, the book's page where they begin)."""
    total = sum(RULES_PAGES.values())
    page = min(max(1, page), total)
    first = 1
    for name, pages in RULES_PAGES.items():
        if page < first + pages:
            return name, page - first + 1, pages, first
        first += pages
    raise AssertionError("unreachable: the page was clamped into the book")


@cache
def presenter(game: str) -> Presenter:
    """The presenter of ``game`` (a name of ``albastini.games.GAMES``); KeyError if it has
    none."""
    # imported here: presenters use the renderer, which asks this module for them
    from cogs.games import albastini, ass, cassino, twentyeight

    presenters: dict[str, Presenter] = {albastini.NAME: albastini, twentyeight.NAME: twentyeight,
                                        cassino.NAME: cassino, ass.NAME: ass}
    return presenters[game]


def shown_score(game: str, score: int) -> int:
    """A match score (higher is better) as the players of ``game`` read it: the score itself,
    unless the game's presenter has a ``shown_score`` of its own (an optional member: Ass
    counts banks, which its match's scores negate)."""
    try:
        shows = getattr(presenter(game), "shown_score", None)
    except KeyError:  # a game this bot no longer hosts, in the history
        shows = None
    return int(shows(score)) if shows is not None else int(score)
