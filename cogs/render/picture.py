"""The picture of a table, drawn with Pillow: seats around an oval table, the cards in front of
them, the last trick, and the game's own pieces in the middle (its presenter draws those, from
the primitives here: :func:`face`, :func:`back`, :func:`count_badge`, :func:`suit_disc`,
:func:`paste_centre`).

Drawn at the final size from cached sprites (see :func:`_down`), encoded as JPEG; safe to call
from several threads at once. No discord.py here: the picture process imports this alone.
"""

from __future__ import annotations

import io
import math
import threading
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from typing import Any, ParamSpec, TypeVar, cast

from PIL import Image, ImageDraw

from cogs.render.cards import RED_SUITS, rank_label, split_card
from cogs.render.fonts import SS, drawable_name, fit, sprite_font, text_font
from cogs.render.presenter import Presenter

__all__ = [
    "CARD_H",
    "CARD_W",
    "CENTRE",
    "HEIGHT",
    "PICTURE_FILE",
    "WIDTH",
    "back",
    "count_badge",
    "face",
    "label",
    "paste_centre",
    "seat_spot",
    "suit_disc",
    "table_picture",
]

WIDTH, HEIGHT = 800, 500
#: The middle of the table, where a game's presenter lays its own pieces (stock, trump...).
CENTRE = (WIDTH / 2, HEIGHT / 2 + 5)
#: The picture's file name on the table message (its extension says the format).
PICTURE_FILE = "table.jpg"
PICTURE_QUALITY = 85
_BG = (30, 33, 38)
_FELT = (28, 110, 72)
_FELT_EDGE = (20, 84, 55)
_RIM = (92, 60, 36)
_RED = (200, 30, 45)
_BLACK = (25, 25, 30)
_WHITE = (250, 250, 247)
_GOLD = (255, 200, 40)
_BACK = (40, 70, 150)
_BACK_LINE = (90, 120, 200)
_PLATE = (44, 47, 54)
_PLATE_TURN = (78, 68, 24)
_TEXT = (235, 235, 235)
_MUTED = (170, 175, 185)
_SIDE_COLOURS = [(80, 160, 255), (255, 140, 70), (190, 120, 255),
                 (90, 210, 140), (255, 105, 160), (230, 220, 90)]
#: A card's size on the table (in front of its player, in the middle).
CARD_W, CARD_H = 50, 72


_P = ParamSpec("_P")
_R = TypeVar("_R")
_SPRITES: dict[tuple[Any, ...], Any] = {}
_SPRITES_LOCK = threading.RLock()


def _memo(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """Cache a sprite builder's results for the process; a lock makes the fill thread-safe.

    The cached images are shared: they are only ever read (pasted), never drawn on.
    """
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        key = (fn.__name__, args, tuple(sorted(kwargs.items())))
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



def _suit_shape(draw: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, size: float,
                fill: tuple[int, int, int]) -> None:
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


@cache
def _card_face(code: str, w: int, h: int, *, highlight: bool = False) -> Image.Image:
    """One face-up card as an RGBA image (canvas pixels), with an optional gold glow."""
    k = SS
    pad = (5 if w >= 40 else 3) * k if highlight else 0
    img = Image.new("RGBA", (w * k + 2 * pad, h * k + 2 * pad), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if highlight:
        d.rounded_rectangle([0, 0, img.width - 1, img.height - 1], radius=10 * k, fill=_GOLD)
    box = [pad, pad, pad + w * k - 1, pad + h * k - 1]
    d.rounded_rectangle(box, radius=6 * k, fill=_WHITE, outline=(150, 150, 150), width=k)
    rank, suit = split_card(code)
    rank = rank_label(rank)
    colour = _RED if suit in RED_SUITS else _BLACK
    if w < 40:  # a miniature: rank above, suit below, nothing else
        d.text((pad + w * k / 2, pad + h * k * 0.3), rank, font=sprite_font(max(11, h // 3)),
               fill=colour, anchor="mm")
        _suit_shape(d, suit, pad + w * k / 2, pad + h * k * 0.7, h * k * 0.36, colour)
        return img
    font = sprite_font(max(12, h // 4))
    x0, y0 = pad + 5 * k, pad + 3 * k
    d.text((x0, y0), rank, font=font, fill=colour)
    small = h * k * 0.16
    _suit_shape(d, suit, x0 + d.textlength(rank, font=font) / 2, y0 + h * k * 0.36, small, colour)
    _suit_shape(d, suit, pad + w * k * 0.58, pad + h * k * 0.62, h * k * 0.38, colour)
    # The bottom-right corner, upside down, as on a real card.
    corner = Image.new("RGBA", (w * k // 2, h * k // 2), (0, 0, 0, 0))
    cd = ImageDraw.Draw(corner)
    cd.text((5 * k, 3 * k), rank, font=font, fill=colour)
    _suit_shape(cd, suit, 5 * k + cd.textlength(rank, font=font) / 2, 3 * k + h * k * 0.36,
                small, colour)
    corner = corner.rotate(180)
    img.alpha_composite(corner, (pad + w * k - corner.width, pad + h * k - corner.height))
    return img


@cache
def _card_back(w: int, h: int) -> Image.Image:
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
    return plain


@lru_cache(maxsize=2048)  # bounded: names come and go with tables; a label is ~10 KB
def _label(text: str, size: int, colour: tuple[int, int, int],
           anchor: str) -> tuple[Image.Image, int, int]:
    """A line of text at the picture's final size as an RGBA sprite (alpha = the glyphs'
    coverage), and where its top left lies from the anchor point."""
    font = text_font(size)
    left, top, right, bottom = (int(v) for v in font.getbbox(text, anchor=anchor))
    img = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (*colour, 0))
    ImageDraw.Draw(img).text((-left, -top), text, font=font, fill=colour, anchor=anchor)
    return img, left, top


def _text(canvas: Image.Image, x: float, y: float, text: str, size: int,
          colour: tuple[int, int, int], anchor: str = "la") -> None:
    """Draw text on the canvas from a cached sprite: the same labels come back on every
    picture, and FreeType would render each of their glyphs again each time."""
    img, left, top = _label(text, size, colour, anchor)
    canvas.paste(img, (round(x) + left, round(y) + top), img)


def label(canvas: Image.Image, x: float, y: float, text: str, size: int, *,
          anchor: str = "mm", muted: bool = False) -> None:
    """A short label (a number, a seat) drawn on the canvas at (x, y), ``anchor`` as Pillow
    reads it ("mm": centred), light or ``muted``."""
    _text(canvas, x, y, text, size, _MUTED if muted else _TEXT, anchor)


def seat_spot(view: Mapping[str, Any], seat: int, reach: float = 1.0) -> tuple[float, float]:
    """Where ``seat``'s card lies in front of them on the picture of ``view`` (``reach`` 1), or
    that fraction of the way from the middle towards it."""
    n = int(view["players"])
    own = view.get("seat")
    bottom = own if isinstance(own, int) and 0 <= own < n else 0
    _px, _py, x, y = _seat_positions(n, bottom)[seat % n]
    cx, cy = CENTRE
    return cx + (x - cx) * reach, cy + (y - cy) * reach


def paste_centre(canvas: Image.Image, img: Image.Image, cx: float, cy: float) -> None:
    """Paste a final-size RGBA sprite on the RGB canvas, centred on (cx, cy), blended by alpha."""
    canvas.paste(img, (round(cx - img.width / 2), round(cy - img.height / 2)), img)


def _seat_positions(n: int, bottom: int) -> list[tuple[float, float, float, float]]:
    """(plate x, plate y, card x, card y) per seat, clockwise, ``bottom`` seat at the bottom."""
    cx, cy = CENTRE
    out: list[tuple[float, float, float, float]] = [(0.0, 0.0, 0.0, 0.0)] * n
    for i in range(n):
        seat = (bottom + i) % n
        angle = math.radians(90 + 360 * i / n)
        dx, dy = math.cos(angle), math.sin(angle)
        px = min(max(cx + 318 * dx, 92), WIDTH - 92)
        py = min(max(cy + 205 * dy, 34), HEIGHT - 34)
        out[seat] = (px, py, cx + 175 * dx, cy + 112 * dy)
    return out


# Sprites: every shape is drawn once at SS times the size, reduced to the final size (alpha
# premultiplied, so edges blend like the whole picture drawn large), kept, and pasted with its
# alpha. Text is drawn straight at the final size: FreeType anti-aliases it by itself.
def _down(img: Image.Image) -> Image.Image:
    return img.convert("RGBa").reduce(SS).convert("RGBA")


@_memo
def _background() -> Image.Image:
    """The empty table on the dark background (RGB, final size)."""
    k = SS
    big = Image.new("RGB", (WIDTH * k, HEIGHT * k), _BG)
    d = ImageDraw.Draw(big)
    d.ellipse([40 * k, 40 * k, (WIDTH - 40) * k, (HEIGHT - 30) * k], fill=_RIM)
    d.ellipse([52 * k, 52 * k, (WIDTH - 52) * k, (HEIGHT - 42) * k], fill=_FELT_EDGE)
    d.ellipse([60 * k, 60 * k, (WIDTH - 60) * k, (HEIGHT - 50) * k], fill=_FELT)
    return big.reduce(k)


@_memo
def face(code: str, w: int, h: int, highlight: bool = False, turned: bool = False) -> Image.Image:
    """A card face up, ``w``×``h`` pixels, ringed in gold (``highlight``), or lying across
    (``turned``: a quarter turn)."""
    img = _down(_card_face(code, w, h, highlight=highlight))
    return img.transpose(Image.Transpose.ROTATE_90) if turned else img


@_memo
def back(w: int, h: int) -> Image.Image:
    """A card face down, ``w``×``h`` pixels."""
    return _down(_card_back(w, h))


@_memo
def _fan(count: int) -> Image.Image:
    """Up to 9 small card backs side by side, 7 pixels apart (a seat's hand)."""
    small = _card_back(16, 23)
    k = SS
    n = min(count, 9)
    img = Image.new("RGBA", (((n - 1) * 7 + 16) * k, 23 * k), (0, 0, 0, 0))
    for i in range(n):
        img.alpha_composite(small, (i * 7 * k, 0))
    return _down(img)


def _disc(radius: int, fill: tuple[int, int, int], outline: tuple[int, int, int],
          width: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    k = SS
    size = (2 * radius + 2) * k
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse([k, k, k + 2 * radius * k, k + 2 * radius * k], fill=fill, outline=outline,
              width=width * k)
    return img, d


@_memo
def count_badge(count: int) -> Image.Image:
    """A small dark disc with a number in it (how many cards a pile holds)."""
    img, d = _disc(14, _BG, _TEXT, 1)
    c = img.width / 2
    d.text((c, c), str(count), font=sprite_font(15), fill=_TEXT, anchor="mm")
    return _down(img)


@_memo
def suit_disc(suit: str | None) -> Image.Image:
    """A white disc ringed in gold with a suit in it, or "?" for a suit not known yet."""
    img, d = _disc(20, _WHITE, _GOLD, 3)
    c = img.width / 2
    if suit:
        _suit_shape(d, suit, c, c, 24 * SS, _RED if suit in RED_SUITS else _BLACK)
    else:
        d.text((c, c), "?", font=sprite_font(22), fill=_BLACK, anchor="mm")
    return _down(img)


@_memo
def _dealer_chip() -> Image.Image:
    img, d = _disc(10, _WHITE, _BLACK, 1)
    d.text((img.width / 2, img.height / 2), "D", font=sprite_font(13), fill=_BLACK, anchor="mm")
    return _down(img)


_PLATE_W, _PLATE_H, _GLOW = 168, 52, 5


@_memo
def _plate(colour: tuple[int, int, int], turn: bool) -> Image.Image:
    """A seat's name plate, with a margin of _GLOW pixels (gold when it is that seat's turn)."""
    k = SS
    w, h, g = _PLATE_W, _PLATE_H, _GLOW
    img = Image.new("RGBA", ((w + 2 * g) * k, (h + 2 * g) * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if turn:
        d.rounded_rectangle([0, 0, img.width - 1, img.height - 1], radius=14 * k, fill=_GOLD)
    box = [g * k, g * k, (g + w) * k, (g + h) * k]
    d.rounded_rectangle(box, radius=10 * k, fill=_PLATE_TURN if turn else _PLATE,
                        outline=colour, width=2 * k)
    d.rounded_rectangle([box[0], box[1], box[0] + 8 * k, box[3]], radius=4 * k, fill=colour)
    return _down(img)


@_memo
def _arrow(px: float, py: float) -> tuple[Image.Image, float, float]:
    """The turn arrow for a plate centred on (px, py): the sprite and where its centre goes."""
    cx, cy = CENTRE
    w, h = _PLATE_W, _PLATE_H
    ang = math.atan2(cy - py, cx - px)
    reach = min(w / 2 / max(abs(math.cos(ang)), 1e-6), h / 2 / max(abs(math.sin(ang)), 1e-6))
    ax, ay = px + math.cos(ang) * (reach + 10), py + math.sin(ang) * (reach + 10)
    tip = (ax + math.cos(ang) * 16, ay + math.sin(ang) * 16)
    left = (ax + math.cos(ang + 2.4) * 12, ay + math.sin(ang + 2.4) * 12)
    right = (ax + math.cos(ang - 2.4) * 12, ay + math.sin(ang - 2.4) * 12)
    # A 40x40 box around (ax, ay) on whole pixels, so the sprite lands exactly where drawn.
    ox, oy = round(ax) - 20, round(ay) - 20
    k = SS
    img = Image.new("RGBA", (40 * k, 40 * k), (0, 0, 0, 0))
    ImageDraw.Draw(img).polygon([((x - ox) * k, (y - oy) * k) for x, y in (tip, left, right)],
                                fill=_GOLD)
    return _down(img), ox + 20.0, oy + 20.0


def table_picture(
    view: dict[str, Any],
    names: list[str],
    *,
    shows: Presenter,
    highlight_winning: bool = True,
) -> bytes:
    """A picture of the table as JPEG bytes (800×500; see :data:`PICTURE_FILE`), drawn only
    from what ``view`` shows.

    Seats sit around an oval table, clockwise, with their names, seat numbers, a dealer chip and
    their cards in hand as face-down backs with a count; the seat to act has a gold plate and an
    arrow. The cards the game lays in front of their players (the presenter's ``front_cards``:
    the trick in progress...) lie there, the winning one ringed in gold. In the middle: what
    the game's presenter (``shows``) draws there (``draw_centre``). Top left: trick number /
    tricks; top right, small: the last trick, its winning card ringed. Give it the public view
    for the channel: a hand is never drawn face up.
    """
    n = int(view["players"])
    own = view.get("seat")
    bottom = own if isinstance(own, int) and 0 <= own < n else 0
    canvas = _background().copy()
    positions = _seat_positions(n, bottom)
    shows.draw_centre(canvas, view)

    winning = view.get("winning") if highlight_winning and view["phase"] == "playing" else None
    for seat, code in shows.front_cards(view):
        if not 0 <= seat < n:
            continue
        img = face(code, CARD_W, CARD_H, seat == winning)
        paste_centre(canvas, img, positions[seat][2], positions[seat][3])

    _draw_seats(canvas, view, names, positions)

    # The last trick, top right, small: its cards in play order with the seat numbers under
    # them, the card that won it ringed in gold.
    last = view.get("last_trick")
    if last and view["phase"] != "finished":
        plays = [(int(seat), str(code)) for seat, code in last.get("plays") or []]
        step = 29
        x = WIDTH - 14 - step * len(plays) + step / 2
        for i, (seat, code) in enumerate(plays):
            img = face(code, 26, 38, seat == last.get("winner"))
            paste_centre(canvas, img, x + i * step, 30)
            _text(canvas, x + i * step, 60, str(seat + 1), 12, _MUTED, "mm")

    # Trick counter, top left (the view's keys say "round").
    if view["phase"] == "playing" and "rounds_total" in view:
        _text(canvas, 12, 10, f"{view['round']}/{view['rounds_total']}", 16, _MUTED)

    return _encode_jpeg(canvas)


def _draw_seats(canvas: Image.Image, view: dict[str, Any], names: list[str],
                positions: list[tuple[float, float, float, float]]) -> None:
    """Every seat's plate (its side's colour, gold on its turn), name, hand and dealer chip."""
    to_act = view.get("to_act") if view["phase"] != "finished" else None
    n = int(view["players"])
    hand_sizes = view.get("hand_sizes") or [0] * n
    w, h = _PLATE_W, _PLATE_H
    for seat in range(n):
        px, py, _, _ = positions[seat]
        turn = seat == to_act
        colour = _SIDE_COLOURS[view["team_of"][seat] % len(_SIDE_COLOURS)]
        paste_centre(canvas, _plate(colour, turn), px, py)
        name = drawable_name(names[seat] if seat < len(names) else "", seat)
        label = fit(f"{seat + 1}. {name}" if name else f"#{seat + 1}", 15, w - 24)
        _text(canvas, px - w / 2 + 14, py - h / 2 + 6, label, 15, _GOLD if turn else _TEXT)
        count = int(hand_sizes[seat]) if seat < len(hand_sizes) else 0
        left = round(px - w / 2 + 14)
        if count > 0:
            fan = _fan(count)
            canvas.paste(fan, (left, round(py + 1)), fan)
        _text(canvas, px - w / 2 + 14 + min(count, 9) * 7 + 14, py + 5, str(count), 14, _MUTED)
        if seat == view.get("dealer"):
            paste_centre(canvas, _dealer_chip(), px + w / 2 - 18, py + 12)
        if turn:
            arrow, ax, ay = _arrow(px, py)
            paste_centre(canvas, arrow, ax, ay)


def _encode_jpeg(img: Image.Image) -> bytes:
    """The RGB canvas as JPEG bytes at quality :data:`PICTURE_QUALITY`.

    JPEG because it is the fastest to encode of the formats Discord shows inline, and small;
    the picture is flat colours, card faces and short labels, on which that quality shows no
    visible artefacts, and the text form beside it is the exact record anyway (the timings
    behind this choice are in ``bench/README.md``)."""
    out = io.BytesIO()
    img.save(out, "JPEG", quality=PICTURE_QUALITY)
    return out.getvalue()
