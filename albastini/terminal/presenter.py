"""How a game reads at the terminal: :class:`Presenter`, whose defaults read what many games'
views share, and :func:`presenter`, a game's own (``albastini/terminal/<game>.py``) when it has
one.

The defaults read the keys the platform's table views carry for every trick game
(``current``/``winning``, ``round``/``rounds_total``, ``last_trick``, ``hand_sizes``,
``moves`` and their ``label`` where a game gives one, ``log``, ``result``), so a game without a
presenter of its own still plays in the terminal; a game's module says what it shows its own
way (an auction, a table of loose cards and builds, banks). Everything comes from the view of
the person at the terminal (the public view when computers play alone): nothing here can show
a card that view does not.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from functools import cache
from typing import Any

from ..games.interface import Game, MatchLike, game
from .texts import DEFAULT_LANGUAGE, Texts, catalogue, texts
from .words import Names, card, cards

__all__ = ["Presenter", "View", "presenter"]

View = Mapping[str, Any]


@cache
def _own_key(name: str, key: str) -> str:
    """``<game>.<key>`` where the game words ``key`` its own way, else ``key``."""
    own = f"{name}.{key}"
    english = catalogue(DEFAULT_LANGUAGE)
    return own if any(k in english for k in (own, f"{own}.one", f"{own}.you")) else key


class Presenter:
    """What a game looks like at the terminal, in the language of ``tr``. One per game
    (:func:`presenter`); a game's module subclasses it (as ``PRESENTER``) and overrides what
    it says its own way. Its words are the catalogue's ``<game>.<key>`` where the game has
    its own (Cassino's rounds for the tricks of the others), else the shared ``<key>``."""

    #: Whether a finished trick's points are shown as it is won (not where the rules keep
    #: points hidden until the deal is scored).
    trick_points = True

    def __init__(self, rules: Game, tr: Texts | None = None) -> None:
        self.rules = rules
        self.tr = tr or texts()

    def t(self, key: str, **values: Any) -> str:
        """The game's own text of ``key`` when it has one, else the shared one."""
        return self.tr(_own_key(self.rules.name, key), **values)

    @property
    def title(self) -> str:
        """The game's name for people."""
        key = f"{self.rules.name}.title"
        return self.tr(key) if key in catalogue(DEFAULT_LANGUAGE) else self.rules.name.capitalize()

    @property
    def typing(self) -> str:
        """What a person may type on their turn besides a letter of the menu, for ``--help``."""
        return self.t("typing")

    @property
    def prompt(self) -> str:
        """The question on a person's turn."""
        return self.t("prompt")

    @property
    def target_help(self) -> str:
        """``--target``'s help: what the target of a match is."""
        return self.t("help.target")

    def option_help(self, option: str) -> str:
        """The help of one of the game's options (``--trumps``...)."""
        key = f"{self.rules.name}.help.{option}"
        return self.tr(key if key in catalogue(DEFAULT_LANGUAGE) else "help.option")

    def option_error(self, exc: Exception) -> str:
        """Why the rules refuse the options of the command line: their own sentence in
        English, the game's (or a plain) one in another language."""
        return str(exc) if self.tr.lang == DEFAULT_LANGUAGE else self.t("error.option")

    def match_terms(self, match: MatchLike) -> str:
        """What ends the match, for the first line: ``"first to 21"``."""
        target = getattr(match, "target", None)
        if self.rules.has_target and target:
            return self.t("terms.target", target=target)
        return self.tr("terms.one_match")

    # ------------------------------------------------------------------ the table
    def head(self, view: View, names: Names, deal_no: int) -> str:
        """``"Deal 2 · dealt by Seat 4 · trick 3 of 8"``."""
        head = self.tr("head.deal", deal=deal_no, name=names.seat(int(view["dealer"])))
        if view.get("round") and view.get("rounds_total") and view["phase"] == "playing":
            head += " · " + self.t("head.round", round=view["round"], total=view["rounds_total"])
        return head

    def score(self, match: MatchLike, view: View, names: Names) -> str:
        """The match's score: each side's, and the target."""
        parts = " · ".join(f"{names.side(t)} {s}" for t, s in enumerate(match.scores))
        target = getattr(match, "target", None)
        if self.rules.has_target and target:
            return self.t("score.target", scores=parts, target=target)
        return self.t("score", scores=parts)

    def table_lines(self, view: View, names: Names) -> list[str]:
        """What the game shows its own way (an auction, the trump, the table's cards)."""
        return []

    def trick_lines(self, view: View, names: Names) -> list[str]:
        """The trick in progress and who is winning it, the last trick and who won it."""
        lines = []
        plays = view.get("current") or []
        if view["phase"] == "playing" and plays:
            shown = " · ".join(f"{names.short(s)} {card(c)}" for s, c in plays)
            winning = view.get("winning")
            if winning is not None:
                shown += " — " + self._winning(names, int(winning))
            lines.append(self.t("table.current", round=view.get("round", "?"), plays=shown))
        last = view.get("last_trick")
        if last and last.get("plays"):
            won = cards([c for _, c in last["plays"]])
            points = self._points(int(last.get("points") or 0))
            lines.append(names.does(_own_key(self.rules.name, "table.last"),
                                    int(last["winner"]), cards=won, points=points))
        return lines

    def _winning(self, names: Names, seat: int) -> str:
        """``"Seat 2 is winning"``: the seat winning the trick in progress."""
        return names.does(_own_key(self.rules.name, "table.winning"), seat)

    def _points(self, points: int) -> str:
        return self.tr.n("points.paren", points) if self.trick_points else ""

    def hands_line(self, view: View, names: Names) -> str | None:
        """How many cards every other seat holds."""
        sizes = view.get("hand_sizes") or []
        seat = view.get("seat")
        parts = [f"{names.short(s)} {n}" for s, n in enumerate(sizes) if s != seat]
        return self.tr("table.hands", hands=" · ".join(parts)) if parts else None

    def lines(self, match: MatchLike, view: View, names: Names, deal_no: int) -> list[str]:
        """The whole table as ``view``'s seat may see it."""
        lines = [self.head(view, names, deal_no), self.score(match, view, names)]
        lines += self.table_lines(view, names)
        lines += self.trick_lines(view, names)
        hands = self.hands_line(view, names)
        if hands:
            lines.append(hands)
        if view.get("seat") is not None:
            lines.append(self.tr("table.hand", cards=cards(view.get("hand") or [])))
        return lines

    # ------------------------------------------------------------------ moves
    def move_label(self, move: View, view: View) -> str:
        """A legal move as the menu shows it: the game's ``label`` when the view gives one (a
        game's presenter that speaks other languages words it itself), else its card
        (``"7♥"``), else its code."""
        if move.get("label"):
            return str(move["label"])
        if move.get("card") and move.get("kind") == "play":
            return card(str(move["card"]))
        return str(move["code"])

    def card_move(self, code: str, view: View) -> str:
        """The code of the move that would put down the card ``code`` a person typed, when
        none of their legal moves does (the rules then say why): the kind of their moves that
        play a card alone (``trump:`` while the bidder lays it), else ``play:``."""
        for move in view.get("moves") or []:
            kind = str(move.get("kind") or "")
            if move.get("card") and move.get("code") == f"{kind}:{move['card']}":
                return f"{kind}:{code}"
        return f"play:{code}"

    def refusal(self, exc: Exception) -> str:
        """Why the rules refuse a move, in the person's language: the rules' own sentence in
        English; elsewhere the catalogue's ``refuse.<game>.<reason>`` filled with the
        exception's details (cards and suits as the terminal writes them), or a plain "not
        now" for a reason the catalogue does not know."""
        if self.tr.lang == DEFAULT_LANGUAGE:
            return str(exc)
        reason = str(getattr(exc, "reason", ""))
        details: Mapping[str, Any] = getattr(exc, "details", None) or {}
        key = f"refuse.{self.rules.name}.{reason}"
        phase = f"{key}.{details.get('phase')}"  # Twenty-Eight says what its phase awaits
        key = phase if phase in catalogue(DEFAULT_LANGUAGE) else key
        if key not in catalogue(DEFAULT_LANGUAGE):
            return self.tr("refuse.other")
        fill = {name: self._detail(name, value) for name, value in details.items()}
        try:
            return self.tr(key, **fill)
        except (KeyError, IndexError, ValueError):  # a detail the sentence needs is missing
            return self.tr("refuse.other")

    def _detail(self, name: str, value: Any) -> Any:
        """A refusal's detail as the sentence shows it: a card code as a card, a suit's letter
        as the suit's name, anything else as it is."""
        text = str(value)
        if name in ("card", "item", "first") and len(text) == 2 and text[-1] in "CDHS":
            return card(text)
        if name in ("suit", "trump") and text in ("C", "D", "H", "S"):
            return self.tr.suit(text)
        return value

    # ------------------------------------------------------------------ the story
    def deal_start(self, view: View, names: Names, deal_no: int) -> list[str]:
        """What a new deal begins with: ``"Deal 2, dealt by Seat 4."``."""
        return [self.tr("story.deal", deal=deal_no, name=names.seat(int(view["dealer"])))]

    def said(self, seat: int, code: str, before: View, after: View, names: Names) -> str:
        """A move as the terminal's person may know it (``code`` as their view's log shows
        it): ``"Seat 2 plays 7♥."``."""
        kind, _, arg = code.partition(":")
        if kind == "play" and len(arg) == 2:
            return names.does("story.play", seat, card=card(arg))
        return self.tr("story.code", name=names.seat(seat), code=code)

    def after_move(self, before: View, after: View, names: Names) -> list[str]:
        """What a move brought about besides itself: a trick won, cards drawn."""
        lines = []
        last = after.get("last_trick")
        if last and last != before.get("last_trick"):
            lines.append(names.does(_own_key(self.rules.name, "story.won"), int(last["winner"]),
                                    points=self._points(int(last.get("points") or 0))))
        stock_before, stock_after = before.get("stock"), after.get("stock")
        if isinstance(stock_before, int) and isinstance(stock_after, int) and (
                stock_after < stock_before and after["phase"] == "playing"):
            lines.append(self.tr.n("story.drawn", stock_after) if stock_after
                         else self.tr("story.drawn_last"))
        return lines

    def deal_over(self, view: View, names: Names, deal_no: int) -> list[str]:
        """The finished deal's result: points per side, and what it scores."""
        result = view.get("result") or {}
        points = result.get("points") or []
        scored = result.get("game_points") or []
        lines = [self.tr("over.points", deal=deal_no, points=" · ".join(
            f"{names.side(t)} {p}" for t, p in enumerate(points)))]
        if scored:
            lines.append(self.tr("over.scores", scores=" · ".join(
                f"{names.side(t)} {p}" for t, p in enumerate(scored))))
        return lines

    def match_over(self, match: MatchLike, view: View, names: Names) -> list[str]:
        """Who won the match (sides counted as people count them)."""
        winners = self.rules.match_winners(match)
        if not winners:
            return [self.tr("match.nobody")]
        if len(winners) == 1:
            return [names.side_does("match.wins", winners[0])]
        return [self.tr("match.shared", sides=self.tr.listed([names.side(w) for w in winners]))]


def presenter(name: str, lang: str = DEFAULT_LANGUAGE) -> Presenter:
    """The terminal presenter of the game ``name`` in ``lang``: its own module's
    ``PRESENTER`` class when there is one, else the defaults (any game plays, with fewer
    words)."""
    rules = game(name)
    tr = texts(lang)
    try:
        module = importlib.import_module(f"{__package__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__package__}.{name}":
            raise
        return Presenter(rules, tr)
    made = module.PRESENTER(rules, tr)
    assert isinstance(made, Presenter)
    return made
