"""The picture's fonts: loaded from the package, chosen per run of text, and what they can draw.

The picture uses only what ships with the project's own install (``cogs/fonts/``, package data,
each font with its licence); suit symbols are drawn as vector shapes (:mod:`cogs.render.picture`)
— no system font is assumed. The fonts, in the order a character is looked up:

- DejaVu Sans: Latin with its accents, Greek, Cyrillic, Armenian, Georgian, Hebrew, Arabic and
  many symbols — every word of the English, Kiswahili and Russian catalogues;
- Noto Sans Malayalam (Twenty-Eight's home language), Devanagari, Tamil, Telugu, Kannada,
  Bengali and Thai;
- Droid Sans Fallback: Chinese, Japanese (kana and kanji) and Korean (Hangul).

A line of text is cut into runs, each drawn in the first font that has every character of it
(a combining mark or joiner stays with the letter before it, so a Malayalam or Devanagari
cluster is shaped as one), and the runs share one baseline. Complex scripts (Malayalam's
conjuncts and reordered vowel signs, Arabic's joined letters, right-to-left order) are laid out
by libraqm where Pillow has it; without it, right-to-left letters are not drawn (they would come
out reversed and unjoined) and Indic letters come out unshaped, as separate letters.

A character no font has is folded to ASCII when it can be (accents dropped) or shown as "?",
and a name with nothing drawable left shows the seat number alone. The seat number is always
drawn next to the name, and the text form of the table beside the picture names everyone, so a
player stays identifiable.
"""

from __future__ import annotations

import io
import logging
import math
import re
import unicodedata
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

__all__ = ["FONT_FILE", "FONT_FILES", "SS", "covers", "draw_runs", "drawable_name", "fit",
           "font_for", "notdef_mask", "runs", "sprite_font", "text_font", "width"]

#: Sprites are drawn at SS times their final size, then reduced: smooth edges without an
#: anti-aliasing library (their text too, so its font is loaded at that size).
SS = 2
#: The picture's first font, package data of ``cogs`` (see ``cogs/fonts/LICENSE``).
FONT_FILE = "fonts/DejaVuSans.ttf"
#: Every font, in the order a character is looked up (licences: ``cogs/fonts/LICENSE*``).
FONT_FILES: tuple[str, ...] = (
    FONT_FILE,
    "fonts/NotoSansMalayalam-Regular.ttf",
    "fonts/NotoSansDevanagari-Regular.ttf",
    "fonts/NotoSansTamil-Regular.ttf",
    "fonts/NotoSansTelugu-Regular.ttf",
    "fonts/NotoSansKannada-Regular.ttf",
    "fonts/NotoSansBengali-Regular.ttf",
    "fonts/NotoSansThai-Regular.ttf",
    "fonts/DroidSansFallback.ttf",
)
#: Each font's size beside DejaVu Sans's at the same nominal size: the Indic fonts' letters
#: reach further above and below the line (vowel signs, conjuncts), and drawn a little smaller
#: they keep to DejaVu's line, so a Malayalam word fits the plate an English one fits.
_SCALE: dict[str, float] = {"Malayalam": 0.9, "Devanagari": 0.88, "Tamil": 0.9,
                            "Telugu": 0.9, "Kannada": 0.88, "Bengali": 0.9}
# Right-to-left letters (Hebrew, Arabic) are drawn only where Pillow can lay them out (libraqm
# with FriBiDi): without it they would come out in reverse order and unjoined.
_RTL_OK = features.check("raqm") and features.check("fribidi")
_RTL = frozenset({"R", "AL"})
# The picture reads left to right: a label that starts with a seat number keeps it on the left
# of a right-to-left name ("5. محمد"), whose own letters still run right to left.
_DIRECTION = "ltr" if _RTL_OK else None
# Joiners shape the letters around them (Malayalam's chillu and conjunct forms) and are kept.
_JOINERS = frozenset("\u200c\u200d")
_Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@cache
def _font_source(index: int) -> str | bytes | None:
    """Where font ``index`` is read from: its file's path in an ordinary install (FreeType then
    reads only the glyphs it draws, so the large CJK font costs memory only when used), else its
    bytes, read once; None if the install lacks it."""
    try:
        ref = resources.files("cogs").joinpath(FONT_FILES[index])
        if isinstance(ref, Path):
            return str(ref) if ref.is_file() else None
        return ref.read_bytes()
    except OSError:
        return None


@cache
def _load_font(index: int, size: int) -> _Font | None:
    source = _font_source(index)
    if source is None:
        if index == 0:
            logging.getLogger(__name__).warning(
                "the picture font %s is missing; names are drawn in ASCII", FONT_FILE)
            return ImageFont.load_default(size=size)
        return None
    scale = next((v for k, v in _SCALE.items() if k in FONT_FILES[index]), 1.0)
    return ImageFont.truetype(source if isinstance(source, str) else io.BytesIO(source),
                              max(1, round(size * scale)))


def _font(index: int, size: int) -> _Font:
    return _load_font(index, size) or _load_font(0, size) or ImageFont.load_default(size=size)


@cache
def sprite_font(size: int, index: int = 0) -> _Font:
    """A font for sprites, drawn at SS times their final size (the first one unless told)."""
    return _font(index, size * SS)


@cache
def text_font(size: int, index: int = 0) -> _Font:
    """A font at the picture's final size (text is drawn straight on the canvas)."""
    return _font(index, size)


@cache
def notdef_mask(index: int = 0) -> bytes:
    """Font ``index``'s "missing glyph" box, as drawn: a character drawn so has no glyph of its
    own in that font."""
    return bytes(sprite_font(14, index).getmask("\U000f0001"))


@cache
def covers(index: int, char: str) -> bool:
    """True when font ``index`` draws ``char`` as itself, not as its "missing glyph" box."""
    font = _load_font(index, 14 * SS)
    if font is None:
        return False
    try:
        return bytes(font.getmask(char)) != notdef_mask(index)
    except Exception:  # a broken glyph must never break a picture
        return False


def _attached(char: str) -> bool:
    """A character drawn as part of the letter before it: a combining mark, a joiner, a
    variation selector."""
    return unicodedata.category(char).startswith("M") or char in _JOINERS or (
        "\ufe00" <= char <= "\ufe0f")


@cache
def font_for(char: str) -> int | None:
    """The first font that draws ``char`` and that the picture can lay out; None if none can."""
    if char.isascii():
        return 0 if char.isprintable() else None
    if not char.isprintable() and char not in _JOINERS:
        return None  # controls, bidi overrides, separators: never drawn
    if not _RTL_OK and unicodedata.bidirectional(char) in _RTL:
        return None
    for index in range(len(FONT_FILES)):
        if covers(index, char):
            return index
    return None


@lru_cache(maxsize=4096)  # a table's labels come back on every picture
def runs(text: str) -> tuple[tuple[int, str], ...]:
    """``text`` cut into runs of one font each, as ``(font index, text)``. A character stays in
    the run before it when that run's font draws it too (spaces, digits, punctuation between
    words of one script) or when it is drawn as part of the letter before it; a character no
    font draws is kept in the run before it (it was folded or replaced before reaching here
    when it is a name)."""
    out: list[tuple[int, str]] = []
    for char in text:
        if out:
            index, run = out[-1]
            if _attached(char) or covers(index, char) or font_for(char) is None:
                out[-1] = (index, run + char)
                continue
        out.append((font_for(char) or 0, char))
    return tuple(out)


_Box = tuple[int, int, int, int]


def _vertical(anchor: str) -> str:
    return anchor[1] if len(anchor) > 1 else "a"


@lru_cache(maxsize=4096)
def _layout(text: str, size: int, anchor: str, scale: int) -> tuple[_Box, tuple[
        tuple[int, str, float, float], ...]]:
    """Where each run of ``text`` is drawn, relative to the anchor point, and the box that holds
    them all: one baseline for every run, placed as the first font places it for ``anchor``."""
    first = _font(0, size * scale)
    pieces = runs(text)
    if len(pieces) <= 1 and (not pieces or pieces[0][0] == 0):  # the common case: one font
        box = tuple(int(v) for v in first.getbbox(text, anchor=anchor, direction=_DIRECTION))
        return (box[0], box[1], box[2], box[3]), ((0, text, 0.0, 0.0),)
    vertical = _vertical(anchor)
    baseline = first.getbbox("Hg", anchor="l" + vertical)[1] - first.getbbox("Hg", anchor="ls")[1]
    lengths = [_font(i, size * scale).getlength(run, direction=_DIRECTION) for i, run in pieces]
    total = sum(lengths)
    x = {"l": 0.0, "m": -total / 2, "r": -total}.get(anchor[0], 0.0)
    placed = []
    boxes = []
    for (index, run), length in zip(pieces, lengths, strict=True):
        left, top, right, bottom = _font(index, size * scale).getbbox(run, anchor="ls",
                                                                     direction=_DIRECTION)
        boxes.append((x + left, baseline + top, x + right, baseline + bottom))
        placed.append((index, run, x, float(baseline)))
        x += length
    box = (math.floor(min(b[0] for b in boxes)), math.floor(min(b[1] for b in boxes)),
           math.ceil(max(b[2] for b in boxes)), math.ceil(max(b[3] for b in boxes)))
    return box, tuple(placed)


def draw_runs(text: str, size: int, colour: tuple[int, ...], anchor: str,
              scale: int = 1) -> tuple[Image.Image, int, int]:
    """``text`` drawn on a transparent sprite in as many fonts as its scripts need, and where
    the sprite's top left lies from the anchor point."""
    (left, top, right, bottom), placed = _layout(text, size, anchor, scale)
    img = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (*colour[:3], 0))
    draw = ImageDraw.Draw(img)
    if len(placed) == 1 and placed[0][2:] == (0.0, 0.0):
        index, run, _x, _y = placed[0]
        draw.text((-left, -top), run, font=_font(index, size * scale), fill=colour, anchor=anchor,
                  direction=_DIRECTION)
    else:
        for index, run, x, y in placed:
            draw.text((x - left, y - top), run, font=_font(index, size * scale), fill=colour,
                      anchor="ls", direction=_DIRECTION)
    return img, left, top


_MENTION = re.compile(r"^<@!?\d+>$")


@lru_cache(maxsize=4096)  # the same names come back on every picture of a table
def drawable_name(name: str, seat: int) -> str:
    """Keep what the fonts can draw of a name; fold the rest to ASCII (accents dropped) or "?".

    Returns "" when nothing useful is left (or the name is a raw mention); the plate then shows
    the seat number alone.
    """
    if not name or _MENTION.match(name.strip()):
        return ""
    out = []
    for ch in name:
        if unicodedata.category(ch) in ("Cc", "Cf") and ch not in _JOINERS:
            continue  # controls and invisible format marks (bidi overrides): no shape
        if ch in _JOINERS or font_for(ch) is not None:
            out.append(ch)
            continue
        folded = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
        out.append(folded if folded and all(font_for(c) is not None for c in folded) else "?")
    text = re.sub(r"\?{2,}", "??", "".join(out)).strip()
    return "" if not text.strip("? \u200c\u200d") else text


@lru_cache(maxsize=4096)  # a table's labels come back on every picture; measuring one lays it out
def width(text: str, size: int) -> float:
    """How wide ``text`` is drawn at font size ``size``, in pixels (each run in its own font)."""
    return float(sum(text_font(size, index).getlength(run, direction=_DIRECTION)
                     for index, run in runs(text)))


@lru_cache(maxsize=4096)  # a table's labels come back on every picture; measuring one lays it out
def fit(text: str, size: int, width_px: float) -> str:
    """``text`` shortened with "..." to at most ``width_px`` pixels at font size ``size``."""
    if width(text, size) <= width_px:
        return text
    while text and width(text + "...", size) > width_px:
        while text and _attached(text[-1]):
            text = text[:-1]  # a letter goes with its marks: none is left cut from its letter
        text = text[:-1]
    return text.rstrip() + "..."
