"""Components V2 cards: a table, its lobby, a deal's summary and a match's end, each one
``Container`` in the game's accent colour.

A card is plain data (:class:`Card`: its text displays, its buttons, and the picture's alt text
when it shows one), so that the courier process can lay it out too (:meth:`Card.components`)
once it knows whether the picture was drawn. The picture, when shown, is a media gallery right
under the card's first text (the header: game, deal, score and target), pointing at the
message's attachment (``attachment://table.jpg``), with its alt text as the item's description
(screen readers announce it). :class:`CardView` sends a card as discord.py sends any view, with
the ``IS_COMPONENTS_V2`` flag; such a message has no ``content`` and no embeds.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

from cogs.render.picture import PICTURE_FILE
from cogs.ui.views import ButtonSpec, StaticView, button_rows

__all__ = ["ALT_MAX", "MAX_COMPONENTS", "TEXT_MAX", "Card", "CardView", "count_components"]

#: Discord's limits of a Components V2 message: components at any depth, characters in all its
#: text displays, and a media item's description (alt text).
MAX_COMPONENTS = 40
TEXT_MAX = 4000
ALT_MAX = 1024
CONTAINER, TEXT_DISPLAY, MEDIA_GALLERY, SEPARATOR = 17, 10, 12, 14


@dataclass(frozen=True, slots=True)
class Card:
    """One message as a card: ``texts`` (markdown, in order; empty ones are left out),
    ``buttons`` under them, the game's ``accent`` colour, and ``alt``: the picture's alt text
    when the card can show the table's picture (None: it never does)."""

    accent: int
    texts: tuple[str, ...]
    buttons: tuple[ButtonSpec, ...] = ()
    alt: str | None = None

    def components(self, with_picture: bool = False) -> list[dict[str, Any]]:
        """The message's components: one container; ``with_picture``: the picture (the
        message's attachment) under the first text."""
        children: list[dict[str, Any]] = []
        budget = TEXT_MAX
        for index, text in enumerate(t for t in self.texts if t):
            shown = text[:budget]
            budget -= len(shown)
            if shown:
                children.append({"type": TEXT_DISPLAY, "content": shown})
            if index == 0 and with_picture and self.alt is not None:
                children.append({"type": MEDIA_GALLERY, "items": [{
                    "media": {"url": f"attachment://{PICTURE_FILE}"},
                    "description": self.alt[:ALT_MAX],
                }]})
        if self.buttons:
            children.append({"type": SEPARATOR, "divider": False, "spacing": 1})
            children += button_rows(self.buttons)
        return [{"type": CONTAINER, "accent_color": self.accent, "components": children}]


def count_components(components: Sequence[dict[str, Any]]) -> int:
    """Components at any depth, as Discord counts them against its limit of 40."""
    total = 0
    stack = list(components)
    while stack:
        c = stack.pop()
        total += 1
        stack.extend(c.get("components") or [])
        if c.get("accessory"):
            stack.append(c["accessory"])
    return total


class CardView(StaticView):
    """A card sent as a discord.py view (the ``IS_COMPONENTS_V2`` flag set). ``children`` are
    its buttons' specs (what a click may carry), ``card`` the data it was laid out from."""

    def __init__(self, card: Card, *, with_picture: bool = False) -> None:
        self.card = card
        self.with_picture = with_picture
        self._components = card.components(with_picture)
        if count_components(self._components) > MAX_COMPONENTS:
            raise ValueError("more components than a message may hold")
        super().__init__()

    @property
    def children(self) -> list[Any]:
        return list(self.card.buttons)

    def has_components_v2(self) -> bool:
        return True

    def walk_children(self) -> Generator[Any, None, None]:  # no discord.ui item to walk
        yield from ()

    def to_components(self) -> list[dict[str, Any]]:
        return self._components
