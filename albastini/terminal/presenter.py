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
from typing import Any, ClassVar

from ..games.interface import Game, MatchLike, game
from .words import Names, card, cards, listed, number

__all__ = ["Presenter", "View", "presenter"]

View = Mapping[str, Any]


class Presenter:
    """What a game looks like at the terminal. One per game (:func:`presenter`); a game's
    module subclasses it (as ``PRESENTER``) and overrides what it says its own way."""

    #: The game's name for people.
    title = ""
    #: What a person may type on their turn besides a letter of the menu, for ``--help``.
    typing = "a card (7H; TS or 10S for the 10\u2660)"
    #: The question on a person's turn.
    prompt = "Your move (a letter, a card, ? or q): "
    #: Whether a finished trick's points are shown as it is won (not where the rules keep
    #: points hidden until the deal is scored).
    trick_points = True
    #: The deal's cards: "trick" (a trick game), or another word for the rounds of a deal.
    round_word = "Trick"

    #: ``--target``'s help: what the target of a match is.
    target_help = "the score that wins a match"
    #: The help of each of the game's options (``--trumps``...), by option.
    option_help: ClassVar[Mapping[str, str]] = {}

    def __init__(self, rules: Game) -> None:
        self.rules = rules
        if not self.title:
            self.title = rules.name.capitalize()

    def match_terms(self, match: MatchLike) -> str:
        """What ends the match, for the first line: ``"first to 21"``."""
        target = getattr(match, "target", None)
        return f"first to {target}" if self.rules.has_target and target else "one match"

    # ------------------------------------------------------------------ the table
    def head(self, view: View, names: Names, deal_no: int) -> str:
        """``"Deal 2 · dealt by Seat 4 · trick 3 of 8"``."""
        head = f"Deal {deal_no} · dealt by {names.seat(int(view['dealer']))}"
        if view.get("round") and view.get("rounds_total") and view["phase"] == "playing":
            head += f" · {self.round_word.lower()} {view['round']} of {view['rounds_total']}"
        return head

    def score(self, match: MatchLike, view: View, names: Names) -> str:
        """The match's score: each side's, and the target."""
        parts = [f"{names.side(t)} {s}" for t, s in enumerate(match.scores)]
        target = getattr(match, "target", None)
        end = f" (first to {target})" if self.rules.has_target and target else ""
        return "Score: " + " · ".join(parts) + end

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
                shown += f" — {names.short(int(winning))} {self._winning(view, int(winning))}"
            lines.append(f"{self.round_word} {view.get('round', '?')}: {shown}")
        last = view.get("last_trick")
        if last and last.get("plays"):
            won = cards([c for _, c in last["plays"]])
            points = self._points(int(last.get("points") or 0))
            lines.append(f"Last {self.round_word.lower()}: {won} — won by "
                         f"{names.them(int(last['winner']))}{points}")
        return lines

    def _winning(self, view: View, seat: int) -> str:
        """The words after a seat winning the trick in progress: ``"is winning"``."""
        return "is winning" if seat != view.get("seat") else "are winning"

    def _points(self, points: int) -> str:
        return f" ({number(points, 'point')})" if self.trick_points else ""

    def hands_line(self, view: View, names: Names) -> str | None:
        """How many cards every other seat holds."""
        sizes = view.get("hand_sizes") or []
        seat = view.get("seat")
        parts = [f"{names.short(s)} {n}" for s, n in enumerate(sizes) if s != seat]
        return "Cards in hand: " + " · ".join(parts) if parts else None

    def lines(self, match: MatchLike, view: View, names: Names, deal_no: int) -> list[str]:
        """The whole table as ``view``'s seat may see it."""
        lines = [self.head(view, names, deal_no), self.score(match, view, names)]
        lines += self.table_lines(view, names)
        lines += self.trick_lines(view, names)
        hands = self.hands_line(view, names)
        if hands:
            lines.append(hands)
        if view.get("seat") is not None:
            lines.append("Your hand: " + cards(view.get("hand") or []))
        return lines

    # ------------------------------------------------------------------ moves
    def move_label(self, move: View, view: View) -> str:
        """A legal move as the menu shows it: the game's ``label`` when the view gives one,
        else its card (``"7♥"``), else its code."""
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

    # ------------------------------------------------------------------ the story
    def said(self, seat: int, code: str, before: View, after: View, names: Names) -> str:
        """A move as the terminal's person may know it (``code`` as their view's log shows
        it): ``"Seat 2 plays 7♥."``."""
        kind, _, arg = code.partition(":")
        if kind == "play" and len(arg) == 2:
            return f"{names.does(seat, 'plays', 'play')} {card(arg)}."
        return f"{names.seat(seat)}: {code}."

    def after_move(self, before: View, after: View, names: Names) -> list[str]:
        """What a move brought about besides itself: a trick won, cards drawn."""
        lines = []
        last = after.get("last_trick")
        if last and last != before.get("last_trick"):
            winner = int(last["winner"])
            lines.append(f"{names.does(winner, 'wins', 'win')} the {self.round_word.lower()}"
                         f"{self._points(int(last.get('points') or 0))}.")
        stock_before, stock_after = before.get("stock"), after.get("stock")
        if isinstance(stock_before, int) and isinstance(stock_after, int) and (
                stock_after < stock_before and after["phase"] == "playing"):
            left = f"{stock_after} left" if stock_after else "the stock is empty"
            lines.append(f"Everyone draws a card ({left}).")
        return lines

    def deal_over(self, view: View, names: Names, deal_no: int) -> list[str]:
        """The finished deal's result: points per side, and what it scores."""
        result = view.get("result") or {}
        points = result.get("points") or []
        scored = result.get("game_points") or []
        lines = [f"Deal {deal_no} over. Points: "
                 + " · ".join(f"{names.side(t)} {p}" for t, p in enumerate(points)) + "."]
        if scored:
            lines.append("It scores: "
                         + " · ".join(f"{names.side(t)} {p}" for t, p in enumerate(scored)) + ".")
        return lines

    def match_over(self, match: MatchLike, view: View, names: Names) -> list[str]:
        """Who won the match (sides counted as people count them)."""
        winners = self.rules.match_winners(match)
        if not winners:
            return ["The match is over: nobody wins it."]
        if len(winners) == 1:
            return [f"{self._side_does(names, winners[0], 'wins', 'win')} the match!"]
        return ["The match is over: " + listed([names.side(w) for w in winners]) + " win it!"]

    @staticmethod
    def _side_does(names: Names, team: int, third: str, second: str) -> str:
        if names.solo and names.team_of.index(team) == names.human:
            return f"You {second}"
        return f"{names.side(team)} {third}"


def presenter(name: str) -> Presenter:
    """The terminal presenter of the game ``name``: its own module's ``PRESENTER`` class when
    there is one, else the defaults (any game plays, with fewer words)."""
    rules = game(name)
    try:
        module = importlib.import_module(f"{__package__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__package__}.{name}":
            raise
        return Presenter(rules)
    made = module.PRESENTER(rules)
    assert isinstance(made, Presenter)
    return made
