"""The terminal's English words for what every game's view holds: cards, seats, sides, the
trick in progress and the last one, hand sizes. Read from views only (what the watching seat
may know); nothing here knows a game's rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["SUIT_NAMES", "SUIT_SYMBOLS", "TEAM_LETTERS", "Names", "card", "cards", "listed",
           "number", "parse_card", "suit"]

SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
TEAM_LETTERS = "ABCDEF"

View = Mapping[str, Any]


def card(code: str) -> str:
    """A card as players read it: ``"TS"`` -> ``"10♠"``, ``"7H"`` -> ``"7♥"``."""
    rank, suit_letter = code[:-1], code[-1]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS.get(suit_letter, suit_letter)


def cards(codes: Sequence[str], sep: str = " ") -> str:
    """Several cards, ``sep`` between them (``"—"`` for none)."""
    return sep.join(card(c) for c in codes) or "—"


def suit(letter: str) -> str:
    """``"♥ hearts"``."""
    return f"{SUIT_SYMBOLS.get(letter, letter)} {SUIT_NAMES.get(letter, letter)}"


def listed(items: Sequence[str]) -> str:
    """``"a, b and c"`` (``"—"`` for none)."""
    if not items:
        return "—"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def number(count: int, one: str, many: str | None = None) -> str:
    """``"1 card"``, ``"3 cards"``."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def parse_card(text: str) -> str | None:
    """The card code a person typed (``7h``, ``TS``, ``10s``, ``10♠``), None if it is none."""
    text = text.strip().upper()
    for symbol, letter in SUIT_SYMBOLS.items():
        text = text.replace(letter, symbol)
    if text.startswith("10"):
        text = "T" + text[2:]
    if len(text) == 2 and text[0] in "A23456789TJQK" and text[1] in SUIT_SYMBOLS:
        return text
    return None


@dataclass(frozen=True)
class Names:
    """How the seats and sides of a table are called at the terminal: "You", "Seat 2"
    (seats counted from 1, as on Discord), "Seat 3 (partner)"; "Team A (seats 1, 3, you)"."""

    players: int
    team_of: tuple[int, ...]
    human: int | None

    @classmethod
    def of(cls, view: View, human: int | None) -> Names:
        """The names of the table ``view`` shows (its ``team_of``, else every seat alone)."""
        players = int(view["players"])
        team_of = view.get("team_of") or view.get("teams") or list(range(players))
        return cls(players, tuple(int(t) for t in team_of), human)

    @property
    def solo(self) -> bool:
        """Everyone plays for themselves."""
        return len(set(self.team_of)) == self.players

    def seat(self, seat: int) -> str:
        """``"You"``, ``"Seat 2"``, ``"Seat 3 (partner)"``."""
        if seat == self.human:
            return "You"
        name = f"Seat {seat + 1}"
        if self.human is not None and not self.solo and (
                self.team_of[seat] == self.team_of[self.human]):
            name += " (partner)"
        return name

    def them(self, seat: int) -> str:
        """A seat after a verb or a preposition: ``"you"``, ``"Seat 2"``."""
        return "you" if seat == self.human else self.seat(seat)

    def short(self, seat: int) -> str:
        """``"You"`` or ``"Seat 2"``: in lists where a partner is clear already."""
        return "You" if seat == self.human else f"Seat {seat + 1}"

    def side(self, team: int) -> str:
        """A side: the seat's name when everyone plays alone, else ``"Team A (seats 1, 3)"``."""
        if self.solo:
            seat = self.team_of.index(team)
            return self.seat(seat)
        seats = [s for s in range(self.players) if self.team_of[s] == team]
        mine = self.human is not None and self.team_of[self.human] == team
        listed = ", ".join(str(s + 1) for s in seats) + (", you" if mine else "")
        return f"Team {TEAM_LETTERS[team]} (seats {listed})"

    def does(self, seat: int, third: str, second: str) -> str:
        """``"You play"`` or ``"Seat 2 plays"``."""
        return f"{self.seat(seat)} {second if seat == self.human else third}"
