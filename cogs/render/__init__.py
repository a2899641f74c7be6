"""How a deal looks to players, for every game: card labels, the text table, the private hand
header, the deal's summary, and a picture of the table drawn with Pillow.

Pure functions over the engine's JSON views (``Deal.view(seat)``) and plain strings: no discord.py
objects, no I/O beyond the package's own data (catalogues, font). Every word comes from
:mod:`cogs.i18n`; what a game shows its own way comes from its presenter (:mod:`cogs.games`).

* :mod:`cogs.render.cards`: card codes and suits as players read them;
* :mod:`cogs.render.text`: the text table and the hand header (screen readers, narrow screens);
* :mod:`cogs.render.fonts`: the picture's font and what it can draw of a name;
* :mod:`cogs.render.sprites`: the picture's cards, plates, discs and labels, drawn once;
* :mod:`cogs.render.layout`: where each piece of the picture goes, as boxes the tests check;
* :mod:`cogs.render.picture`: the table picture (its arrangement, the JPEG encoding);
* :mod:`cogs.render.describe`: the picture in words, its alt text for screen readers.

This module re-exports what the rest of the Discord layer uses. The painter and the courier call
``render.table_picture`` through it (``bench/bot_load.py`` replaces that attribute).
"""

from __future__ import annotations

from cogs.render.cards import (
    SUIT_SYMBOLS,
    card_button_label,
    card_label,
    suit_label,
    suit_name,
    suit_symbol,
)
from cogs.render.describe import ALT_LIMIT, describe_table
from cogs.render.picture import PICTURE_FILE, table_picture
from cogs.render.text import (
    TEXT_LIMIT,
    deal_summary_text,
    default_side_names,
    hand_text,
    scores_text,
    seat_name,
    table_text,
)

__all__ = [
    "ALT_LIMIT",
    "PICTURE_FILE",
    "SUIT_SYMBOLS",
    "TEXT_LIMIT",
    "card_button_label",
    "card_label",
    "deal_summary_text",
    "default_side_names",
    "describe_table",
    "hand_text",
    "scores_text",
    "seat_name",
    "suit_label",
    "suit_name",
    "suit_symbol",
    "table_picture",
    "table_text",
]
