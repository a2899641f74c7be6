"""One terminal session of any game: the loop of a match (or one deal), what the person at the
terminal types on their turn, and the story of every move.

On their turn a person types a letter of the menu (letters, so that no menu choice looks like a
bid), a move's code (``bid:16``, ``play:JH``), its card (``JH``, ``10h``) when one move plays
it, a number to bid it (``16``), a word that is a move (``pass``, ``go``), ``?`` for the table
again or ``q`` to quit. A move the rules refuse is refused with the game's own reason (its
``IllegalMove``), asked of the game through :meth:`Game.check`.
"""

from __future__ import annotations

import string
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TextIO

from ..games.interface import Game, MatchLike
from .presenter import Presenter, View
from .words import Names, card, parse_card

__all__ = ["Chooser", "Quit", "Reader", "Refusal", "Session", "menu_keys"]

Reader = Callable[[str], str]
#: Words that are never a menu key: they quit, or they are moves of their own.
RESERVED = frozenset({"q", "go", "no"})
#: The menu's lines are wrapped at this many characters.
WIDTH = 100


class Chooser(Protocol):
    """A computer player: the code of its move in a view."""

    def choose(self, view: Mapping[str, Any]) -> str: ...


class Quit(Exception):
    """The person asked to stop (``q`` or the end of the input)."""


@dataclass(frozen=True)
class Refusal:
    """Why what a person typed is not a move they can make now: a sentence for them."""

    text: str


def menu_keys(count: int) -> list[str]:
    """``count`` keys for a menu: ``a`` to ``z`` but ``q`` (quit), then two letters, none of
    them a card code (``ac`` is the ace of clubs) or a word that is a move."""
    letters = [c for c in string.ascii_lowercase if c not in RESERVED]
    keys = list(letters)
    for first in letters:
        for second in letters:
            pair = first + second
            if parse_card(pair) is None and pair not in RESERVED:
                keys.append(pair)
    if count > len(keys):
        raise ValueError(f"no menu of {count} moves")
    return keys[:count]


class Session:
    """A match (or its first deal) played at the terminal: ``human`` is the seat of the
    person at it (None: computers play every seat, and the terminal shows the public view)."""

    def __init__(
        self,
        rules: Game,
        shows: Presenter,
        match: MatchLike,
        human: int | None,
        computers: Mapping[int, Chooser],
        *,
        one_deal: bool,
        delay: float,
        read: Reader,
        out: TextIO,
    ) -> None:
        self.rules = rules
        self.shows = shows
        self.match = match
        self.human = human
        self.computers = computers
        self.one_deal = one_deal
        self.delay = delay
        self.read = read
        self.out = out
        self.deal_no = 1
        self.tr = shows.tr
        self.names = Names.of(self.view(None), human, self.tr)

    # ------------------------------------------------------------------ words
    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: the public table), as the platform shows it."""
        return self.rules.view(self.match, seat)

    # ------------------------------------------------------------------ the loop
    def play(self) -> int:
        """Play to the end of the match (or of the first deal); 0, or 1 when the person quit."""
        try:
            while True:
                self.play_deal()
                if self.one_deal or self.match.finished:
                    break
                self.match.next_deal()
                self.deal_no += 1
        except Quit:
            self.say("\n" + self.tr("bye"))
            return 1
        if self.match.finished and not self.one_deal:
            for line in self.shows.match_over(self.match, self.view(self.human), self.names):
                self.say(line)
        return 0

    def play_deal(self) -> None:
        """Play the current deal to its end, telling its story."""
        self.say()
        for line in self.shows.deal_start(self.view(self.human), self.names, self.deal_no):
            self.say(line)
        while not self.rules.deal_over(self.match):
            seat = self.match.deal.to_act
            assert seat is not None
            if seat == self.human:
                code = self.ask(seat)
            else:
                code = self.computers[seat].choose(self.view(seat))
                if self.delay:
                    time.sleep(self.delay)
            before = self.view(self.human)
            self.rules.apply(self.match, code)
            after = self.view(self.human)
            self.tell(seat, code, before, after)
        after = self.view(self.human)
        self.say()
        for line in self.shows.deal_over(after, self.names, self.deal_no):
            self.say(line)
        self.say(self.shows.score(self.match, after, self.names))

    def tell(self, seat: int, code: str, before: View, after: View) -> None:
        """A move and what it brought about, as the person at the terminal may know them: the
        move as their view's log shows it (a face-down card stays a secret)."""
        log = after.get("log") or []
        seen = str(log[-1][1]) if log and int(log[-1][0]) == seat else code
        self.say(self.shows.said(seat, seen, before, after, self.names))
        for line in self.shows.after_move(before, after, self.names):
            self.say(line)

    # ------------------------------------------------------------------ the person's turn
    def show(self, view: View) -> dict[str, View]:
        """The table, then the menu of moves; returns the menu (key -> move)."""
        self.say()
        for line in self.shows.lines(self.match, view, self.names, self.deal_no):
            self.say(line)
        moves = self._moves(view)
        menu = dict(zip(menu_keys(len(moves)), moves, strict=True))
        items = [f"{key}) {self.shows.move_label(move, view)}" for key, move in menu.items()]
        head = self.tr("menu.head")
        line = head
        for item in items:  # wrapped between moves, never inside one
            if line != head and len(line) + 3 + len(item) > WIDTH:
                self.say(line)
                line = "  " + item
            else:
                line += (" " if line == head else "   ") + item
        self.say(line)
        return menu

    @staticmethod
    def _moves(view: View) -> list[View]:
        """The view's legal moves, each with its fields (a move the view gives no fields for
        has its code alone): the moves of a card in the order the hand lists the cards, then
        the others (bids, a pass) in the order of ``legal``."""
        given = {str(m["code"]): m for m in view.get("moves") or []}
        moves = [given.get(code, {"code": code}) for code in view["legal"]]
        hand = list(view.get("hand") or [])
        order = {code: i for i, code in enumerate(hand)}
        return sorted(moves, key=lambda m: order.get(str(m.get("card")), len(hand)))

    def ask(self, seat: int) -> str:
        """The code of the move the person makes (asked again until it is one)."""
        view = self.view(seat)
        menu = self.show(view)
        while True:
            try:
                text = self.read(self.shows.prompt)
            except EOFError:
                raise Quit from None
            text = text.strip()
            if text.lower() in ("q", "quit", "exit"):
                raise Quit
            if text.lower() in ("", "?", "help", "h"):
                menu = self.show(view)
                continue
            answer = self.understand(text, view, menu)
            if isinstance(answer, Refusal):
                self.say(answer.text)
                continue
            return answer

    def understand(self, text: str, view: View, menu: Mapping[str, View]) -> str | Refusal:
        """The legal code ``text`` names, or why it names none (the game's own reason when it
        names a move the rules refuse now)."""
        low = text.lower()
        if low in menu:
            return str(menu[low]["code"])
        moves = list(menu.values())
        legal = {str(m["code"]).lower(): str(m["code"]) for m in moves}
        if low in legal:
            return legal[low]
        if ":" in text:
            kind, _, rest = text.partition(":")
            return self._refused(f"{kind.lower()}:{rest.upper()}")
        if low.isdigit() and any(self._valued(m) for m in moves):
            return self._bid(int(low), moves)
        code = parse_card(text)
        if code is not None:
            return self._card(code, view, menu)
        if low.isalpha() and len(low) > 1:  # a word: perhaps a move of another moment
            return self._refused(low, unread=self._not_a_move(text, menu))
        return self._not_a_move(text, menu)

    def _not_a_move(self, text: str, menu: Mapping[str, View]) -> Refusal:
        """What a person may type instead of ``text``, which names nothing."""
        keys = list(menu)
        return Refusal(self.tr("refuse.not_a_move", text=repr(text), first=keys[0],
                               last=keys[-1]))

    def _refused(self, code: str, unread: Refusal | None = None) -> str | Refusal:
        """``code`` if the rules accept it now, else their reason; where they cannot read it
        (``bad_code``: no move of the game is spelt so), ``unread`` when given."""
        try:
            return self.rules.check(self.match, code)
        except self.rules.illegal as exc:
            if unread is not None and getattr(exc, "reason", None) == "bad_code":
                return unread
            return Refusal(self.tr("refuse.again", reason=self.shows.refusal(exc)))

    @staticmethod
    def _valued(move: View) -> bool:
        """Whether ``move`` names a number a person may type (a bid or a raise)."""
        return move.get("value") is not None and not move.get("card")

    def _bid(self, value: int, moves: Sequence[View]) -> str | Refusal:
        """A typed number: the move that bids (or raises to) it, else the rules' reason."""
        valued = [m for m in moves if self._valued(m)]
        for move in valued:
            if int(move["value"]) == value:
                return str(move["code"])
        kind = str(valued[0].get("kind") or str(valued[0]["code"]).partition(":")[0])
        return self._refused(f"{kind}:{value}")

    def _card(self, code: str, view: View, menu: Mapping[str, View]) -> str | Refusal:
        """A typed card: the one move that puts it down; the choice when several do; the
        rules' reason when none does (asked with the code a move of that card would have)."""
        using = {k: m for k, m in menu.items() if m.get("card") == code}
        if len(using) == 1:
            return str(next(iter(using.values()))["code"])
        if using:
            options = "   ".join(f"{k}) {self.shows.move_label(m, view)}"
                                 for k, m in using.items())
            return Refusal(self.tr("refuse.several", card=card(code), options=options))
        # a card outside this game's pack (a 2 in Ass or Twenty-Eight) is not a code the
        # rules can read: for the person it is simply a card they do not hold
        held = Refusal(self.tr("refuse.again", reason=self.tr("refuse.not_held", card=card(code))))
        return self._refused(self.shows.card_move(code, view), unread=held)
