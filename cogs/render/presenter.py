"""What the renderer asks of a game: the :class:`Presenter` protocol.

The Discord layer draws every game the same way (the text table, the hand message, the picture,
the buttons) and asks the table's game's presenter for what only that game shows its own way. A
presenter is a module of :mod:`cogs.games` (``cogs/games/<game>.py``), found by the registry
there; the renderer never imports one: it is handed the presenter it draws with. A presenter
reads nothing but a deal's view (``Deal.view``) and the codes in it, and holds no rule: which
moves are legal, which side a seat is on, what a card is worth, how a deal scores all come with
the view.

What the generic renderer already does for every game, from the view: seats and names, whose
turn it is, the dealer, the trick in progress and the last one (``current``, ``winning``,
``last_trick``, ``round``/``rounds_total``), cards in hand, tricks won per side (``team_of``),
the match's score, move buttons (one per card of ``hand``, enabled by the view's ``moves``, and
one per move that puts down no card). What a presenter says, for example for Twenty-Eight:
the auction and the contract (``table_lines``), a trump card lying face down by the bidder
(``draw_centre``, ``table_facts``), "expose" and numeric bids as buttons (``move_button``), base
card scores that can go negative (``deal_summary``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from cogs.render.layout import Layout

__all__ = ["ButtonStyle", "Presenter", "ResultTable", "View", "score_as_is",
           "single_use_options"]

ButtonStyle = Literal["primary", "secondary", "success", "danger"]
#: A deal's view (``Deal.view``), or one legal move of its ``moves``: JSON-like data.
View = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class ResultTable:
    """A finished deal's result as the picture shows it: under ``columns`` (headings), one
    row per side (its cells, in the columns' order: what it took, what it scored...), then
    ``note``, one short sentence saying why it scored so ("" for none)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""


class Presenter(Protocol):
    """What one game shows its own way. ``lang`` is a catalogue language (``cogs.i18n``),
    ``names`` name the seats (mentions or plain names), ``view`` is a deal's view; every text
    comes from the catalogues."""

    #: The game's name (a key of ``albastini.games.GAMES``, ``Table.game``).
    NAME: str
    #: How many pages its rules have in the catalogues (``<game>.rules.page.<n>``).
    RULES_PAGES: int
    #: The colour of its messages' cards (an RGB int, the container's accent).
    ACCENT: int

    def card_label(self, code: str) -> str:
        """A card of the game's pack as players read it ("A♠"); ValueError for a code that
        is not one of its cards."""

    def shown_score(self, score: int) -> int:
        """A match score (higher is better on the platform) as the game's players read it
        (Ass counts banks, which its match's scores negate; most games, the score itself)."""

    def score_text(self, lang: str, score: int) -> str:
        """A side's match score as shown (:meth:`shown_score`) with its unit, short enough
        for a name plate (10 characters or so): "2 VP", "3 banks"."""

    def target_text(self, lang: str, target: int) -> str | None:
        """What ends the match, for the picture's score box ("First to 5 VP"); None for a
        game whose match has no target (Ass: banks end it)."""

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

    def result_table(self, lang: str, result: View, side_names: Sequence[str]) -> ResultTable:
        """The end of a deal on the picture, from the view's ``result``: what each side took
        and what it scored, in a few short columns, and why (see :class:`ResultTable`)."""

    def spoken_facts(self, lang: str, view: View, names: Sequence[str]) -> list[str]:
        """The game's own facts of the public ``view`` as sentences for a screen reader (the
        picture's alt text), most important first (the trump, the contract, the cards on
        the table, the bets...); card labels ("A♠") are said in words by the renderer."""

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

    def card_moves(self, card: str, moves: Sequence[View]) -> list[View]:
        """The legal moves (of ``moves``) that put ``card`` down, in the order a player picks
        among them (the option chooser's, when there are several: Cassino's trail, captures,
        builds)."""

    def option_label(self, lang: str, move: View) -> str:
        """One of a card's options in the chooser, in words ("Build 10 on 8♣ with 2♦")."""

    def option_group(self, lang: str, kind: str) -> str:
        """The name of the chooser's menu of options of one ``kind`` of move ("Take")."""

    def front_cards(self, view: View) -> list[tuple[int, str]]:
        """(seat, card) of every card the picture lays face up in front of its player (the
        trick in progress, cards shown while bidding)."""

    def draw_centre(self, layout: Layout, lang: str, view: View, names: Sequence[str]) -> None:
        """Place the game's pieces on the table picture (stock, trump, contract, the table's
        cards...), each labelled in words, with the methods of ``layout``
        (:class:`cogs.render.layout.Layout`) and inside the room it leaves (its ``centre``,
        ``open`` and ``corners``): never over a plate or a card of the players."""


# --------------------------------------------------------------------------- shared answers
# What most games answer the same way; a presenter takes these as its own members
# (``shown_score = presenter.score_as_is``) where its game has nothing of its own to say.
def score_as_is(score: int) -> int:
    """A match score as players read it when the game counts the platform's way."""
    return int(score)


def single_use_options(
    card_label: Callable[[str], str],
    move_button: Callable[[str, View], tuple[str, ButtonStyle]],
) -> tuple[Callable[[str, Sequence[View]], list[View]], Callable[[str, View], str],
           Callable[[str, str], str]]:
    """``card_moves``, ``option_label`` and ``option_group`` of a game where a card puts down
    one move at most (a trick game: the chooser never opens), worded by its ``card_label``
    and ``move_button``."""

    def card_moves(card: str, moves: Sequence[View]) -> list[View]:
        return sorted((m for m in moves if m.get("card") == card), key=lambda m: str(m["code"]))

    def option_label(lang: str, move: View) -> str:
        card = move.get("card")
        return card_label(str(card)) if card else move_button(lang, move)[0]

    def option_group(lang: str, kind: str) -> str:
        return move_button(lang, {"kind": kind, "code": kind})[0]

    return card_moves, option_label, option_group
