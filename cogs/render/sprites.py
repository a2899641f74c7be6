"""The picture's sprites: card faces and backs, name plates, discs and labels, each drawn once.

Every shape is drawn at SS times its final size, reduced to the final size (alpha premultiplied,
so edges blend like the whole picture drawn large), kept for the process, and pasted with its
alpha. Text is drawn straight at the final size: FreeType anti-aliases it by itself. The cached
images are shared and only ever read (pasted), never drawn on, so any thread may use them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import lru_cache
from typing import Any, ParamSpec, TypeVar, cast

from PIL import Image, ImageDraw

from cogs.render.cards import RED_SUITS, rank_label, split_card
from cogs.render.fonts import SS, draw_runs, sprite_font

__all__ = [
    "BG",
    "GOLD",
    "MUTED",
    "PLATE_GLOW",
    "SIDE_COLOURS",
    "TEXT",
    "background",
    "card_back",
    "card_face",
    "chip",
    "label",
    "label_on",
    "panel",
    "plate",
    "suit_disc",
    "swatch",
]

Colour = tuple[int, int, int]
BG: Colour = (30, 33, 38)
_FELT: Colour = (28, 110, 72)
_FELT_EDGE: Colour = (20, 84, 55)
_RIM: Colour = (92, 60, 36)
_RED: Colour = (200, 30, 45)
_BLACK: Colour = (25, 25, 30)
_WHITE: Colour = (250, 250, 247)
GOLD: Colour = (255, 200, 40)
_BACK: Colour = (40, 70, 150)
_BACK_LINE: Colour = (90, 120, 200)
_PLATE: Colour = (44, 47, 54)
_PLATE_TURN: Colour = (78, 68, 24)
TEXT: Colour = (240, 240, 240)
#: Light enough on the dark background and on the felt alike (contrast over 4.5:1 on both).
MUTED: Colour = (200, 204, 212)
#: The sides' colours, by side number: the plates' stripes and the score box's legend.
SIDE_COLOURS: list[Colour] = [(80, 160, 255), (255, 140, 70), (190, 120, 255),
                              (90, 210, 140), (255, 105, 160), (230, 220, 90)]
#: The gold margin around the plate of the seat to act.
PLATE_GLOW = 5
#: The flat colours under the plates' words and the chip's letter (see :func:`label_on`).
PLATE_FILL, PLATE_TURN_FILL, WHITE = _PLATE, _PLATE_TURN, _WHITE

_P = ParamSpec("_P")
_R = TypeVar("_R")
_SPRITES: dict[tuple[Any, ...], Any] = {}
_SPRITES_LOCK = threading.RLock()


def _memo(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """Cache a sprite builder's results for the process; a lock makes the fill thread-safe."""
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        key = (fn.__name__, args, tuple(sorted(kwargs.items())) if kwargs else ())
        try:
            return cast(_R, _SPRITES[key])
        except KeyError:
            pass
        with _SPRITES_LOCK:
            if key not in _SPRITES:
                _SPRITES[key] = fn(*args, **kwargs)
            return cast(_R, _SPRITES[key])
    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


def _down(img: Image.Image) -> Image.Image:
    return img.convert("RGBa").reduce(SS).convert("RGBA")


def _solid(img: Image.Image) -> Image.Image:
    """``img`` (a rounded rectangle: a card, a plate) with its pasting plan in ``info``: the
    opaque middle as plain RGB and only the corners blended by their alpha, which pastes in a
    third of the time of blending it whole (a picture pastes a dozen cards)."""
    w, h = img.size
    if w * h < 2000:  # a small one pastes faster whole
        return img
    alpha = img.getchannel("A")
    r = 1
    while r < min(w, h) // 3 and not (
            alpha.crop((0, r, w, h - r)).getextrema()[0] == 255
            and alpha.crop((r, 0, w - r, h)).getextrema()[0] == 255):
        r += 1
    if r >= min(w, h) // 3:
        return img
    rgb = img.convert("RGB")
    parts: list[tuple[tuple[int, int, int, int], Image.Image, bool]] = []
    for box in ((0, r, w, h - r), (r, 0, w - r, r), (r, h - r, w - r, h)):
        parts.append((box, rgb.crop(box), False))
    for box in ((0, 0, r, r), (w - r, 0, w, r), (0, h - r, r, h), (w - r, h - r, w, h)):
        parts.append((box, img.crop(box), True))
    img.info["parts"] = tuple(parts)
    return img


def _suit_shape(draw: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, size: float,
                fill: Colour) -> None:
    """Draw a suit symbol as shapes, centred on (cx, cy), ``size`` high (canvas pixels)."""
    s = size

    def circle(x: float, y: float, r: float) -> None:
        draw.ellipse([x - r, y - r, x + r, y + r], fill=fill)

    if suit == "D":
        draw.polygon([(cx, cy - s / 2), (cx + s * 0.38, cy), (cx, cy + s / 2),
                      (cx - s * 0.38, cy)], fill=fill)
    elif suit == "H":
        r = s * 0.26
        circle(cx - s * 0.22, cy - s * 0.17, r)
        circle(cx + s * 0.22, cy - s * 0.17, r)
        draw.polygon([(cx - s * 0.46, cy - s * 0.08), (cx + s * 0.46, cy - s * 0.08),
                      (cx, cy + s * 0.46)], fill=fill)
    elif suit == "S":
        r = s * 0.25
        circle(cx - s * 0.21, cy + s * 0.08, r)
        circle(cx + s * 0.21, cy + s * 0.08, r)
        draw.polygon([(cx - s * 0.445, cy + s * 0.0), (cx + s * 0.445, cy + s * 0.0),
                      (cx, cy - s * 0.48)], fill=fill)
        draw.polygon([(cx, cy + s * 0.1), (cx - s * 0.17, cy + s * 0.5),
                      (cx + s * 0.17, cy + s * 0.5)], fill=fill)
    else:  # clubs
        r = s * 0.2
        circle(cx, cy - s * 0.24, r)
        circle(cx - s * 0.23, cy + s * 0.1, r)
        circle(cx + s * 0.23, cy + s * 0.1, r)
        circle(cx, cy + s * 0.02, r * 0.6)
        draw.polygon([(cx, cy + s * 0.02), (cx - s * 0.16, cy + s * 0.5),
                      (cx + s * 0.16, cy + s * 0.5)], fill=fill)


def highlight_pad(w: int) -> int:
    """How far the gold ring of a highlighted card reaches beyond it."""
    return 5 if w >= 40 else 3


@_memo
def card_face(code: str, w: int, h: int, highlight: bool = False,
              turned: bool = False) -> Image.Image:
    """A card face up, ``w``×``h`` pixels, ringed in gold (``highlight``), or lying across
    (``turned``: a quarter turn). The rank is large in the top left corner (a phone shows the
    picture at half size: see :mod:`cogs.render.layout`), the suit under it and large below."""
    k = SS
    pad = highlight_pad(w) * k if highlight else 0
    img = Image.new("RGBA", (w * k + 2 * pad, h * k + 2 * pad), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if highlight:
        d.rounded_rectangle([0, 0, img.width - 1, img.height - 1], radius=10 * k, fill=GOLD)
    box = [pad, pad, pad + w * k - 1, pad + h * k - 1]
    d.rounded_rectangle(box, radius=6 * k, fill=_WHITE, outline=(150, 150, 150), width=k)
    rank, suit = split_card(code)
    rank = rank_label(rank)
    colour = _RED if suit in RED_SUITS else _BLACK
    font = sprite_font(card_rank_size(h))
    x0, y0 = pad + 4 * k, pad + 2 * k
    d.text((x0, y0), rank, font=font, fill=colour)
    corner = h * k * 0.17
    _suit_shape(d, suit, x0 + d.textlength(rank[:1], font=font) / 2, y0 + h * k * 0.43,
                corner, colour)
    _suit_shape(d, suit, pad + w * k * 0.62, pad + h * k * 0.68, min(h * 0.42, w * 0.62) * k,
                colour)
    img = _down(img)
    return _solid(img.transpose(Image.Transpose.ROTATE_90) if turned else img)


def card_rank_size(h: int) -> int:
    """The font size of a card's rank: about a third of the card's height."""
    return max(12, round(h * 0.32))


@_memo
def card_back(w: int, h: int) -> Image.Image:
    """A card face down, ``w``×``h`` pixels."""
    k = SS
    img = Image.new("RGBA", (w * k, h * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([0, 0, w * k - 1, h * k - 1], radius=max(2, w // 8) * k, fill=_WHITE,
                        outline=(120, 120, 120), width=k)
    inset = max(2, w // 12) * k
    d.rounded_rectangle([inset, inset, w * k - 1 - inset, h * k - 1 - inset],
                        radius=max(1, w // 12) * k, fill=_BACK)
    step = max(4, w // 5) * k
    for x in range(-h * k, w * k, step):
        d.line([(x, h * k), (x + h * k, 0)], fill=_BACK_LINE, width=k)
        d.line([(x, 0), (x + h * k, h * k)], fill=_BACK_LINE, width=k)
    mask = Image.new("L", img.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle([inset, inset, w * k - 1 - inset, h * k - 1 - inset],
                                           radius=max(1, w // 12) * k, fill=255)
    plain = Image.new("RGBA", img.size, (0, 0, 0, 0))
    pd = ImageDraw.Draw(plain)
    pd.rounded_rectangle([0, 0, w * k - 1, h * k - 1], radius=max(2, w // 8) * k, fill=_WHITE,
                         outline=(120, 120, 120), width=k)
    plain.paste(img, (0, 0), mask)
    return _solid(_down(plain))


@lru_cache(maxsize=2048)  # bounded: names come and go with tables; a label is ~10 KB
def label(text: str, size: int, colour: Colour, anchor: str) -> tuple[Image.Image, int, int]:
    """A line of text at the picture's final size as an RGBA sprite (alpha = the glyphs'
    coverage), and where its top left lies from the anchor point. Cached: the same labels come
    back on every picture, and FreeType would render each of their glyphs again each time."""
    return draw_runs(text, size, colour, anchor)  # each script in a font that has it


@lru_cache(maxsize=2048)
def label_on(text: str, size: int, colour: Colour, anchor: str,
             background: Colour) -> tuple[Image.Image, int, int]:
    """:func:`label` drawn on a flat ``background`` colour: an opaque RGB sprite, for words
    that lie on a plate or a panel of that colour. It pastes without blending, in a tenth of
    the time (a picture has some twenty such words)."""
    img, left, top = label(text, size, colour, anchor)
    flat = Image.new("RGB", img.size, background)
    flat.paste(img, (0, 0), img)
    return flat, left, top


@_memo
def background(width: int, height: int) -> Image.Image:
    """The empty table on the dark background (RGB, final size)."""
    k = SS
    big = Image.new("RGB", (width * k, height * k), BG)
    d = ImageDraw.Draw(big)
    d.ellipse([40 * k, 40 * k, (width - 40) * k, (height - 30) * k], fill=_RIM)
    d.ellipse([52 * k, 52 * k, (width - 52) * k, (height - 42) * k], fill=_FELT_EDGE)
    d.ellipse([60 * k, 60 * k, (width - 60) * k, (height - 50) * k], fill=_FELT)
    return big.reduce(k)


def _disc(radius: int, fill: Colour, outline: Colour,
          width: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    k = SS
    size = (2 * radius + 2) * k
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse([k, k, k + 2 * radius * k, k + 2 * radius * k], fill=fill, outline=outline,
              width=width * k)
    return img, d


@_memo
def suit_disc(suit: str | None, radius: int = 20) -> Image.Image:
    """A white disc ringed in gold with a suit in it, or "?" for a suit not known yet."""
    img, d = _disc(radius, _WHITE, GOLD, 3 if radius >= 16 else 2)
    c = img.width / 2
    if suit:
        _suit_shape(d, suit, c, c, radius * 1.2 * SS, _RED if suit in RED_SUITS else _BLACK)
    else:
        d.text((c, c), "?", font=sprite_font(round(radius * 1.1)), fill=_BLACK, anchor="mm")
    return _down(img)


@_memo
def chip(radius: int) -> Image.Image:
    """A white disc with a dark ring (the dealer's chip; its letter is a label over it)."""
    img, _d = _disc(radius, _WHITE, _BLACK, 1)
    return _down(img)


@_memo
def plate(w: int, h: int, colour: Colour, turn: bool) -> Image.Image:
    """A seat's name plate, with a margin of :data:`PLATE_GLOW` pixels (gold when it is that
    seat's turn) and a stripe of its side's colour on the left."""
    k = SS
    g = PLATE_GLOW
    img = Image.new("RGBA", ((w + 2 * g) * k, (h + 2 * g) * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if turn:
        d.rounded_rectangle([0, 0, img.width - 1, img.height - 1], radius=14 * k, fill=GOLD)
    box = [g * k, g * k, (g + w) * k, (g + h) * k]
    d.rounded_rectangle(box, radius=10 * k, fill=_PLATE_TURN if turn else _PLATE,
                        outline=colour, width=2 * k)
    d.rounded_rectangle([box[0], box[1], box[0] + 8 * k, box[3]], radius=4 * k, fill=colour)
    return _solid(_down(img)) if turn else _down(img)


@_memo
def panel(w: int, h: int) -> Image.Image:
    """A dark rounded backdrop of the background's colour, ringed in grey (the result of a
    deal, the score box)."""
    k = SS
    img = Image.new("RGBA", (w * k, h * k), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle([0, 0, w * k - 1, h * k - 1], radius=10 * k,
                                          fill=BG, outline=(90, 95, 105), width=k)
    return _down(img)


@_memo
def swatch(colour: Colour, size: int) -> Image.Image:
    """A small rounded square of a side's colour (the legend of the plates' stripes)."""
    k = SS
    img = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle([0, 0, size * k - 1, size * k - 1], radius=3 * k,
                                          fill=colour)
    return _down(img)
