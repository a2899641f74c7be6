"""The terminal's words for what every game's view holds: cards, seats, sides. Read from views
only (what the watching seat may know); nothing here knows a game's rules. The words come from
the chosen language's catalogue (:mod:`.texts`); cards are written the same in every language
(``10♠``), as a person types them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .texts import DEFAULT_LANGUAGE, SUIT_SYMBOLS, Texts, texts

__all__ = ["SUIT_SYMBOLS", "TEAM_LETTERS", "Names", "card", "cards", "parse_card"]

TEAM_LETTERS = "ABCDEF"
#: The words of a table whose language nobody chose.
ENGLISH = texts(DEFAULT_LANGUAGE)

View = Mapping[str, Any]


def card(code: str) -> str:
    """A card as players read it: ``"TS"`` -> ``"10♠"``, ``"7H"`` -> ``"7♥"``."""
    rank, suit_letter = code[:-1], code[-1]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS.get(suit_letter, suit_letter)


def cards(codes: Sequence[str], sep: str = " ") -> str:
    """Several cards, ``sep`` between them (``"—"`` for none)."""
    return sep.join(card(c) for c in codes) or "—"


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
    (seats counted from 1, as on Discord), "Seat 3 (partner)"; "Team A (seats 1, 3, you)" —
    in the language of ``tr``."""

    players: int
    team_of: tuple[int, ...]
    human: int | None
    tr: Texts = ENGLISH

    @classmethod
    def of(cls, view: View, human: int | None, tr: Texts | None = None) -> Names:
        """The names of the table ``view`` shows (its ``team_of``, else every seat alone)."""
        players = int(view["players"])
        team_of = view.get("team_of") or view.get("teams") or list(range(players))
        return cls(players, tuple(int(t) for t in team_of), human, tr or texts())

    @property
    def solo(self) -> bool:
        """Everyone plays for themselves."""
        return len(set(self.team_of)) == self.players

    def seat(self, seat: int) -> str:
        """``"You"``, ``"Seat 2"``, ``"Seat 3 (partner)"``."""
        if seat == self.human:
            return self.tr("seat.you")
        name = self.tr("seat.other", seat=seat + 1)
        if self.human is not None and not self.solo and (
                self.team_of[seat] == self.team_of[self.human]):
            name = self.tr("seat.partner", name=name)
        return name

    def short(self, seat: int) -> str:
        """``"You"`` or ``"Seat 2"``: in lists where a partner is clear already."""
        return self.tr("seat.you") if seat == self.human else self.tr("seat.other", seat=seat + 1)

    def side(self, team: int) -> str:
        """A side: the seat's name when everyone plays alone, else ``"Team A (seats 1, 3)"``."""
        if self.solo:
            return self.seat(self.team_of.index(team))
        seats = ", ".join(str(s + 1) for s in range(self.players) if self.team_of[s] == team)
        mine = self.human is not None and self.team_of[self.human] == team
        return self.tr("side.yours" if mine else "side.team", letter=TEAM_LETTERS[team],
                       seats=seats)

    def does(self, key: str, seat: int, **values: Any) -> str:
        """A sentence whose verb agrees with its subject: ``key.you`` when ``seat`` is the
        person ("You play 7♥."), else ``key.other`` with ``{name}`` ("Seat 2 plays 7♥.")."""
        if seat == self.human:
            return self.tr(f"{key}.you", **values)
        return self.tr(f"{key}.other", name=self.seat(seat), **values)

    def side_does(self, key: str, team: int, **values: Any) -> str:
        """:meth:`does` for a side: ``key.you`` when the person plays alone on it."""
        if self.solo and self.team_of.index(team) == self.human:
            return self.tr(f"{key}.you", **values)
        return self.tr(f"{key}.other", name=self.side(team), **values)
