"""Where everything on the table picture goes: each piece placed as a rectangle, then painted.

The picture is drawn in two steps. First a :class:`Layout` collects every piece (a card, a name
plate, a line of text...) as an :class:`Element`: its kind, the group it belongs to, the
rectangle it covers and its size. Then :meth:`Layout.paint` pastes them, in that order. The
boxes are what the tests read: pieces of different groups must never touch (nothing drawn over
a name plate or another card), every text and card must be large enough to read on a phone,
and everything must lie inside the picture.

A group is what belongs together and may overlap itself: a seat's plate with its name and
counts, the stock with the card under it and its label, the score box with its lines.
A game's presenter places its own pieces through the same methods (``draw_centre``), inside
the room the table leaves it: :attr:`Layout.centre` while cards lie in front of the players,
:attr:`Layout.open` when none do, and the two bottom corners (:attr:`Layout.corners`).

**Sizes for a phone.** Discord shows the 800-pixel picture about 400 CSS pixels wide on a
phone, at half size. A text of font size 20 here is 10 CSS pixels there, its capitals 7.5:
the smallest size at which digits and short words still read at arm's length (Discord's own
smallest captions are 11-12 px), so no text is smaller (:data:`MIN_TEXT`). A card is at least
44×62 (22×31 there, about a fingertip), its rank a third of its height, so 20 px or more
(:data:`MIN_CARD`). Pieces of different groups keep :data:`GAP` pixels apart, so that two
cards never read as one pile.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal, NamedTuple

from PIL import Image

from cogs.render import sprites
from cogs.render.fonts import fit
from cogs.render.fonts import width as measure

__all__ = [
    "GAP",
    "MIN_CARD",
    "MIN_TEXT",
    "Box",
    "Element",
    "Layout",
    "Tone",
]

#: The smallest font size of any text (pixels at 800 wide; half that on a phone).
MIN_TEXT = 20
#: The smallest card, (width, height) upright.
MIN_CARD = (44, 62)
#: The room kept between pieces of different groups.
GAP = 4
#: How a text is coloured: light (most), muted (headings, captions), gold (the seat to act).
Tone = Literal["light", "muted", "gold", "dark"]
_TONES: dict[str, sprites.Colour] = {"light": sprites.TEXT, "muted": sprites.MUTED,
                                     "gold": sprites.GOLD, "dark": (25, 25, 30)}


class Box(NamedTuple):
    """A rectangle of the picture: left, top, right, bottom (right and bottom excluded).
    (Tuples: a picture places some fifty, and a tuple is the cheapest to make.)"""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    def touches(self, other: Box, gap: float = 0) -> bool:
        """True when the two rectangles overlap or lie less than ``gap`` pixels apart."""
        return not (self.x1 + gap <= other.x0 or other.x1 + gap <= self.x0
                    or self.y1 + gap <= other.y0 or other.y1 + gap <= self.y0)

    def within(self, other: Box) -> bool:
        return (self.x0 >= other.x0 and self.y0 >= other.y0
                and self.x1 <= other.x1 and self.y1 <= other.y1)

    def union(self, other: Box) -> Box:
        return Box(min(self.x0, other.x0), min(self.y0, other.y0),
                   max(self.x1, other.x1), max(self.y1, other.y1))

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2


class Element(NamedTuple):
    """One piece of the picture. ``kind``: ``text``, ``card`` (face up), ``back`` (face
    down), ``disc`` (a suit), ``chip``, ``plate``, ``panel``, ``swatch``, ``icon``;
    ``size``: a text's font size twice, a card's width and height upright; ``text``: a
    text's words, a face-up card's code; ``sprite``: what is pasted; ``frame``: how to make
    what lies in this box on the picture's cached frame (see
    :func:`cogs.render.picture.table_image`), and ``framed``: whether that is this piece."""

    kind: str
    group: str
    box: Box
    size: tuple[int, int]
    text: str = ""
    sprite: Image.Image | None = None
    frame: tuple[Any, ...] | None = None
    framed: bool = False


class Layout:
    """The pieces of one picture, in painting order, and the room left for a game's own."""

    def __init__(self, width: int, height: int, *, centre: Box, open_room: Box,
                 corners: dict[str, Box]) -> None:
        self.width = width
        self.height = height
        #: Where a game lays its pieces while cards lie in front of the players.
        self.centre = centre
        #: Where it lays them when no card lies in front of anyone (Cassino's table).
        self.open = open_room
        #: The free corners at the bottom: ``"left"`` and ``"right"``.
        self.corners = corners
        self.elements: list[Element] = []
        self._badges: dict[int, tuple[float, float, str]] = {}
        self._badges_used: set[int] = set()

    # ------------------------------------------------------------------ reading it
    def groups(self) -> dict[str, Box]:
        """Every group and the rectangle around all its pieces."""
        out: dict[str, Box] = {}
        for el in self.elements:
            out[el.group] = out[el.group].union(el.box) if el.group in out else el.box
        return out

    def texts(self) -> list[str]:
        """Every text on the picture, in painting order."""
        return [el.text for el in self.elements if el.kind == "text"]

    def of_group(self, group: str) -> Iterator[Element]:
        return (el for el in self.elements if el.group == group)

    def clashes(self, gap: float = GAP) -> list[tuple[str, str]]:
        """Pairs of groups whose pieces touch (closer than ``gap``): none on a good picture."""
        out = []
        items = list(self.groups().items())
        for i, (a, box_a) in enumerate(items):
            for b, box_b in items[i + 1:]:
                if box_a.touches(box_b, gap) and self._pieces_touch(a, b, gap):
                    out.append((a, b))
        return out

    def _pieces_touch(self, a: str, b: str, gap: float) -> bool:
        return any(x.box.touches(y.box, gap) for x in self.of_group(a) for y in self.of_group(b))

    def free(self, box: Box, gap: float = GAP) -> bool:
        """True when ``box`` lies in the picture and touches no piece placed so far."""
        return box.within(Box(0, 0, self.width, self.height)) and not any(
            el.box.touches(box, gap) for el in self.elements)

    # ------------------------------------------------------------------ placing pieces
    def add(self, kind: str, group: str, sprite: Image.Image, x: float, y: float,
            size: tuple[int, int], text: str = "", *, frame: tuple[Any, ...] | None = None,
            framed: bool = False) -> Box:
        """Place a sprite with its top left corner at (x, y), on whole pixels. ``frame``: how
        to make a piece that the picture's frame holds in this box (a plate, a backdrop),
        ``framed`` when that piece is this one (it is not painted again)."""
        x, y = round(x), round(y)
        w, h = sprite.size
        box = Box(x, y, x + w, y + h)
        self.elements.append(Element(kind, group, box, size, text, sprite, frame, framed))
        return box

    def centred(self, kind: str, group: str, sprite: Image.Image, cx: float, cy: float,
                size: tuple[int, int], text: str = "") -> Box:
        """Place a sprite centred on (cx, cy)."""
        w, h = sprite.size
        return self.add(kind, group, sprite, cx - w / 2, cy - h / 2, size, text)

    def card(self, group: str, code: str, cx: float, cy: float, w: int, h: int, *,
             highlight: bool = False, turned: bool = False) -> Box:
        """A card face up centred on (cx, cy), ``w``×``h`` upright (``turned``: lying
        across), ringed in gold when ``highlight``."""
        sprite = sprites.card_face(code, w, h, highlight, turned)
        return self.centred("card", group, sprite, cx, cy, (w, h), code)

    def back(self, group: str, cx: float, cy: float, w: int, h: int) -> Box:
        """A card face down centred on (cx, cy)."""
        return self.centred("back", group, sprites.card_back(w, h), cx, cy, (w, h))

    def pile(self, group: str, count: int, cx: float, cy: float, w: int, h: int) -> Box:
        """Up to three card backs stacked (a stock, a pack), the top one centred on (cx, cy)."""
        box = None
        for layer in range(min(3, count) - 1, -1, -1):
            placed = self.back(group, cx + layer * 2, cy - layer * 2, w, h)
            box = placed if box is None else box.union(placed)
        return box or Box(cx, cy, cx, cy)

    def disc(self, group: str, suit: str | None, cx: float, cy: float,
             radius: int = 20) -> Box:
        """A suit in a gold-ringed disc ("?" for a suit not known yet) centred on (cx, cy)."""
        return self.centred("disc", group, sprites.suit_disc(suit, radius), cx, cy,
                            (2 * radius, 2 * radius))

    def text(self, group: str, x: float, y: float, text: str, size: int = MIN_TEXT, *,
             anchor: str = "la", tone: Tone = "light", colour: sprites.Colour | None = None,
             on: sprites.Colour | None = None) -> Box:
        """A line of text at (x, y), ``anchor`` as Pillow reads it ("la": left and top of
        the line, "mm": its middle), in its ``tone`` or a ``colour`` of its own; ``on``: the
        flat colour it lies on (a plate, a panel), which makes it an opaque sprite, quicker
        to paste."""
        ink = colour or _TONES[tone]
        if on is None:
            img, left, top = sprites.label(text, size, ink, anchor)
        else:
            img, left, top = sprites.label_on(text, size, ink, anchor, on)
        return self.add("text", group, img, x + left, y + top, (size, size), text)

    def badge_spot(self, seat: int) -> tuple[float, float, str] | None:
        """Where a seat's plate keeps room for one small disc of the game's (radius 12; Ass:
        the player's own trump), and the seat's group to place it in; None for a seat the
        picture has no plate for. Asking for it takes it: the plate's score moves aside."""
        spot = self._badges.get(seat)
        if spot is not None:
            self._badges_used.add(seat)
        return spot

    def badge_used(self, seat: int) -> bool:
        return seat in self._badges_used

    def set_badge_spot(self, seat: int, x: float, y: float, group: str) -> None:
        self._badges[seat] = (x, y, group)

    # ------------------------------------------------------------------ measuring
    @staticmethod
    def width_of(text: str, size: int = MIN_TEXT) -> float:
        """How wide ``text`` is drawn at font size ``size``."""
        return measure(text, size)

    @staticmethod
    def fit(text: str, width: float, size: int = MIN_TEXT) -> str:
        """``text`` shortened with "..." to at most ``width`` pixels at ``size``."""
        return fit(text, size, width)

    @staticmethod
    def wrap(text: str, width: float, size: int = MIN_TEXT, lines: int = 3) -> list[str]:
        """``text`` broken into at most ``lines`` lines of ``width`` pixels (the last one
        shortened with "..." if the text is longer)."""
        out: list[str] = []
        words = text.split()
        while words and len(out) < lines - 1:
            line = words.pop(0)
            while words and measure(f"{line} {words[0]}", size) <= width:
                line += " " + words.pop(0)
            out.append(line)
        if words:
            out.append(" ".join(words))
        return [fit(line, size, width) for line in out]

    # ------------------------------------------------------------------ painting
    def frame(self) -> tuple[tuple[tuple[Any, ...], int, int], ...]:
        """What the frame under the pieces holds: (how to make it, left, top) of each piece."""
        return tuple((el.frame, int(el.box.x0), int(el.box.y0)) for el in self.elements
                     if el.frame is not None)

    def paint(self, canvas: Image.Image, *, framed: bool = False) -> None:
        """Paste every piece on the RGB canvas, in the order placed, blended by alpha; with
        ``framed``, not those the canvas (a copy of the frame) already shows."""
        # Straight to the image cores: ``Image.paste`` checks its arguments each time, which
        # costs more than pasting a label (see bench/render.py), and these are known good.
        core = canvas.im
        for el in self.elements:
            if el.sprite is None or (framed and el.framed):
                continue
            x, y = int(el.box.x0), int(el.box.y0)
            if el.sprite.mode == "RGB":  # opaque: nothing to blend
                core.paste(el.sprite.im, (x, y, int(el.box.x1), int(el.box.y1)))
                continue
            parts = el.sprite.info.get("parts")
            if parts is None:
                sprite = el.sprite.im
                core.paste(sprite, (x, y, int(el.box.x1), int(el.box.y1)), sprite)
                continue
            for (x0, y0, x1, y1), part, blend in parts:
                box = (x + x0, y + y0, x + x1, y + y1)
                if blend:
                    core.paste(part.im, box, part.im)
                else:
                    core.paste(part.im, box)
