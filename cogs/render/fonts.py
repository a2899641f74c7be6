"""The picture's font: loaded from the package, and what it can draw of a player's name.

The picture uses only what ships with the project's own install: the DejaVu Sans font in
``cogs/fonts/`` (package data, with its licence) for ranks, digits and names; suit symbols are
drawn as vector shapes (:mod:`cogs.render.picture`) — no system font is assumed. DejaVu Sans
covers Latin with its accents, Greek, Cyrillic, Armenian, Georgian, Hebrew, Arabic and many
symbols, so "Zoë", "Дмитрий" and "Αλέξης" are drawn as written (right-to-left scripts only where
Pillow has libraqm to lay them out). A character it lacks (Chinese, Japanese, Korean, most Indic
scripts...) is folded to ASCII when it can be (accents dropped) or shown as "?", and a name with
nothing drawable left shows the seat number alone. The seat number is always drawn next to the
name, and the text form of the table beside the picture names everyone, so a player stays
identifiable.
"""

from __future__ import annotations

import io
import logging
import re
import unicodedata
from functools import cache, lru_cache
from importlib import resources

from PIL import ImageFont, features

__all__ = ["FONT_FILE", "SS", "drawable_name", "fit", "notdef_mask", "sprite_font", "text_font",
           "width"]

#: Sprites are drawn at SS times their final size, then reduced: smooth edges without an
#: anti-aliasing library (their text too, so its font is loaded at that size).
SS = 2
#: The picture's font, package data of ``cogs`` (see ``cogs/fonts/LICENSE``).
FONT_FILE = "fonts/DejaVuSans.ttf"
# Right-to-left letters (Hebrew, Arabic) are drawn only where Pillow can lay them out (libraqm
# with FriBiDi): without it they would come out in reverse order and unjoined.
_RTL_OK = features.check("raqm") and features.check("fribidi")
_RTL = frozenset({"R", "AL"})


@cache
def _font_data() -> bytes | None:
    """The font file's bytes, read once per process (each size is then parsed from memory, not
    read from the disk again); None if the install lacks it, and the picture falls back to
    Pillow's own font."""
    try:
        return resources.files("cogs").joinpath(FONT_FILE).read_bytes()
    except OSError:
        logging.getLogger(__name__).warning(
            "the picture font %s is missing; names are drawn in ASCII", FONT_FILE)
        return None


def _load_font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    data = _font_data()
    if data is None:
        return ImageFont.load_default(size=size)
    return ImageFont.truetype(io.BytesIO(data), size)


@cache
def sprite_font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The font for sprites, drawn at SS times their final size."""
    return _load_font(size * SS)


@cache
def text_font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The font at the picture's final size (text is drawn straight on the canvas)."""
    return _load_font(size)


@cache
def notdef_mask() -> bytes:
    """The font's "missing glyph" box, as drawn: a character drawn so has no glyph of its own."""
    return bytes(sprite_font(14).getmask("\U000f0001"))


@cache
def _has_glyph(char: str) -> bool:
    """True when the font draws ``char`` as itself (not the "missing glyph" box) and the
    picture can lay it out."""
    if char.isascii():
        return char.isprintable()
    if not char.isprintable():  # controls, bidi overrides, separators: never drawn
        return False
    if not _RTL_OK and unicodedata.bidirectional(char) in _RTL:
        return False
    try:
        return bytes(sprite_font(14).getmask(char)) != notdef_mask()
    except Exception:  # a broken glyph must never break a picture
        return False


_MENTION = re.compile(r"^<@!?\d+>$")


@lru_cache(maxsize=4096)  # the same names come back on every picture of a table
def drawable_name(name: str, seat: int) -> str:
    """Keep what the font can draw of a name; fold the rest to ASCII (accents dropped) or "?".

    Returns "" when nothing useful is left (or the name is a raw mention); the plate then shows
    the seat number alone.
    """
    if not name or _MENTION.match(name.strip()):
        return ""
    out = []
    for ch in name:
        if unicodedata.category(ch) in ("Cc", "Cf"):
            continue  # controls and invisible format marks (bidi overrides, joiners): no shape
        if _has_glyph(ch):
            out.append(ch)
            continue
        folded = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
        out.append(folded if folded and all(_has_glyph(c) for c in folded) else "?")
    text = re.sub(r"\?{2,}", "??", "".join(out)).strip()
    return "" if not text.strip("? ") else text


@lru_cache(maxsize=4096)  # a table's labels come back on every picture; measuring one lays it out
def width(text: str, size: int) -> float:
    """How wide ``text`` is drawn at font size ``size``, in pixels."""
    return float(text_font(size).getlength(text))


@lru_cache(maxsize=4096)  # a table's labels come back on every picture; measuring one lays it out
def fit(text: str, size: int, width: float) -> str:
    """``text`` shortened with "..." to at most ``width`` pixels at font size ``size``."""
    font = text_font(size)
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "...") > width:
        text = text[:-1]
    return text.rstrip() + "..."
