"""The three things a player can do: bid a card, pass, play a card.

``str(action)`` is its code, as for every game's actions (the platform reads codes).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card


@dataclass(frozen=True, slots=True, init=False)
class Bid:
    """Place ``card`` face up as a bid for its suit to be trump (dealer's opponents only)."""

    card: Card

    def __init__(self, card: Card | str) -> None:
        # a code ("7H") is read as its card, so the field is always a Card
        object.__setattr__(self, "card", Card.parse(card))

    @property
    def code(self) -> str:
        return f"bid:{self.card.code}"

    def __str__(self) -> str:
        return self.code


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline to bid."""

    @property
    def code(self) -> str:
        return "pass"

    def __str__(self) -> str:
        return self.code


@dataclass(frozen=True, slots=True, init=False)
class Play:
    """Play ``card`` to the round in progress."""

    card: Card

    def __init__(self, card: Card | str) -> None:
        object.__setattr__(self, "card", Card.parse(card))

    @property
    def code(self) -> str:
        return f"play:{self.card.code}"

    def __str__(self) -> str:
        return self.code


Action = Bid | Pass | Play


def parse_action(code: str) -> Action:
    """Read an action code: ``"bid:4C"``, ``"pass"`` or ``"play:7H"``; ValueError otherwise."""
    if not isinstance(code, str) or len(code) > 16:
        raise ValueError(f"Not an action: {code!r}")
    text = code.strip().lower()
    if text == "pass":
        return Pass()
    kind, sep, card = text.partition(":")
    if sep and kind == "bid":
        return Bid(Card.parse(card))
    if sep and kind == "play":
        return Play(Card.parse(card))
    raise ValueError(f"Not an action: {code!r} (expected bid:XY, pass or play:XY)")
