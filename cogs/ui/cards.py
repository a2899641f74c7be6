"""Cards: a table, its lobby, a deal's summary and a match's end, each in the game's accent
colour; a Components V2 ``Container``, or a classic message (an embed and rows of buttons) for
a card that must stay classic (:attr:`Card.classic`).

A card is plain data (:class:`Card`: its text displays, its buttons, and the picture's alt text
when it shows one), so that the courier process can lay it out too (:meth:`Card.components`)
once it knows whether the picture was drawn. The picture, when shown, is a media gallery right
under the card's first text (the header: game, deal, score and target), pointing at the
message's attachment (``attachment://table.jpg``), with its alt text as the item's description
(screen readers announce it). :class:`CardView` sends a card as discord.py sends any view, with
the ``IS_COMPONENTS_V2`` flag; such a message has no ``content`` and no embeds.

The table message is the one classic card (see :mod:`cogs.messages.table_card`): its edits go
through the interaction tokens of the clicks, outside Discord's global rate limit, and Discord
refuses a Components V2 message's new picture sent that way (discord-api-docs#7529), so that a V2
table would pay for every picture from the bot's 50 requests a second, shared by all its tables.
A classic card is an embed in the accent colour, the first text's ``### `` line its title, the
texts its description, the picture at its foot, and its buttons under it.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from cogs.render.picture import PICTURE_FILE
from cogs.ui.views import ButtonSpec, StaticView, button_rows

__all__ = ["ALT_MAX", "MAX_COMPONENTS", "TEXT_MAX", "Card", "CardView", "count_components",
           "laid_out"]

#: Discord's limits of a Components V2 message: components at any depth, characters in all its
#: text displays, and a media item's description (alt text).
MAX_COMPONENTS = 40
TEXT_MAX = 4000
ALT_MAX = 1024
#: Discord's limits of a classic message's embed: its title and its description.
TITLE_MAX = 256
DESCRIPTION_MAX = 4096
CONTAINER, TEXT_DISPLAY, MEDIA_GALLERY, SEPARATOR = 17, 10, 12, 14


@dataclass(frozen=True, slots=True)
class Card:
    """One message as a card: ``texts`` (markdown, in order; empty ones are left out),
    ``buttons`` under them, the game's ``accent`` colour, ``alt``: the alt text of the picture
    it shows (a V2 card shows one only with it), and ``classic``: sent as an embed rather than
    as Components V2 (the module's docstring says when)."""

    accent: int
    texts: tuple[str, ...]
    buttons: tuple[ButtonSpec, ...] = ()
    alt: str | None = None
    classic: bool = False

    def __reduce__(self) -> tuple[type[Card], tuple[Any, ...]]:
        # sent to the courier with every table edit (as ButtonSpec.__reduce__ says why)
        return Card, (self.accent, self.texts, self.buttons, self.alt, self.classic)

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

    def embed(self, with_picture: bool = False) -> discord.Embed:
        """The card as a classic message's embed: the ``### `` line of its first text is the
        title, the rest its description; ``with_picture``: the message's picture at its foot."""
        head, *rest = [text for text in self.texts if text] or [""]
        lines = head.split("\n")
        title = next((line[4:] for line in lines if line.startswith("### ")), None)
        above = "\n".join(line for line in lines if not line.startswith("### "))
        description = "\n\n".join(part for part in (above, *rest) if part)
        embed = discord.Embed(colour=self.accent, title=title and title[:TITLE_MAX],
                              description=description[:DESCRIPTION_MAX] or None)
        if with_picture:
            embed.set_image(url=f"attachment://{PICTURE_FILE}")
        return embed


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
        self._components = (button_rows(card.buttons) if card.classic
                            else card.components(with_picture))
        if count_components(self._components) > MAX_COMPONENTS:
            raise ValueError("more components than a message may hold")
        super().__init__()

    @property
    def children(self) -> list[Any]:
        return list(self.card.buttons)

    def has_components_v2(self) -> bool:
        return not self.card.classic

    def walk_children(self) -> Generator[Any, None, None]:  # no discord.ui item to walk
        yield from ()

    def to_components(self) -> list[dict[str, Any]]:
        return self._components


def laid_out(card: Card, with_picture: bool = False) -> dict[str, Any]:
    """The ``content``, ``embed`` and ``view`` of a message that shows ``card`` (an edit with them
    replaces what the message showed): a V2 card has neither content nor embed; a classic one
    its embed; ``with_picture``: the card shows the message's attachment."""
    embed = card.embed(with_picture) if card.classic else None
    return {"content": None, "embed": embed, "view": CardView(card, with_picture=with_picture)}
