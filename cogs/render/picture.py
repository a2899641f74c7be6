"""The picture of a table: seats around an oval table, the cards in front of them, the score,
the last trick, the game's own pieces in the middle, and at the end of a deal its result.

:func:`lay_out` places every piece (:class:`cogs.render.layout.Layout`: the boxes the tests
check); :func:`table_picture` paints them from cached sprites (:mod:`cogs.render.sprites`) and
encodes a JPEG. Where things go, at 800×500:

* the seats on fixed spots for each number of players (bottom, sides, top), the seat whose
  view it is at the bottom; a card laid in front of a player lies between its plate and the
  middle;
* top left, the score box: the deal and the trick, each side's score with its colour (the
  legend of the plates' stripes) in team play, and what ends the match; in solo play each
  player's score is on their own plate;
* top right, the last trick, its winner named; bottom corners and the middle, the game's own
  pieces (its presenter's ``draw_centre``); at the end of a deal, the middle shows the result.

Safe to call from several threads at once. No discord.py here: the picture process imports this
alone.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image

from cogs.i18n import game_key, has, t
from cogs.render import sprites
from cogs.render.fonts import drawable_name
from cogs.render.layout import MIN_CARD, MIN_TEXT, Box, Element, Layout, Tone
from cogs.render.presenter import Presenter
from cogs.render.sprites import _SPRITES  # noqa: F401  (the tests clear the sprite cache)
from cogs.render.text import TEAM_LETTERS

__all__ = [
    "CARD_H",
    "CARD_W",
    "CENTRE",
    "HEIGHT",
    "PICTURE_FILE",
    "SMALL_H",
    "SMALL_W",
    "WIDTH",
    "lay_out",
    "seat_label",
    "side_count",
    "side_labels",
    "table_image",
    "table_picture",
]

WIDTH, HEIGHT = 800, 500
#: The middle of the table.
CENTRE = (WIDTH / 2, HEIGHT / 2 + 5)
#: The picture's file name on the table message (its extension says the format).
PICTURE_FILE = "table.jpg"
PICTURE_QUALITY = 85
#: A card laid in front of its player.
CARD_W, CARD_H = 56, 80
#: The smallest card (the last trick, Cassino's table, a stock): see ``layout.MIN_CARD``.
SMALL_W, SMALL_H = MIN_CARD
#: A seat's name plate; its text lines.
PLATE_W, PLATE_H = 196, 62
#: The size of a title line, and the pitch of lines of text.
TITLE = 22
LINE = 24

# Spots of the seats: (plate centre, centre of the card in front of the player). Bottom and
# top in the middle, two spots on each side; the corners stay free for the score box, the last
# trick and the game's pieces.
_SPOTS: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {
    "B": ((400, 463), (400, 368)),
    "T": ((400, 44), (400, 142)),
    "L": ((106, 262), (264, 262)),
    "R": ((694, 262), (536, 262)),
    "UL": ((106, 206), (264, 214)),
    "LL": ((106, 346), (264, 338)),
    "UR": ((694, 206), (536, 214)),
    "LR": ((694, 346), (536, 338)),
}
#: The spots of 2 to 6 players, clockwise from the bottom.
_ARRANGEMENTS: dict[int, tuple[str, ...]] = {
    2: ("B", "T"), 3: ("B", "UL", "UR"), 4: ("B", "L", "T", "R"),
    5: ("B", "LL", "UL", "UR", "LR"), 6: ("B", "LL", "UL", "T", "UR", "LR"),
}
#: The score box and the last trick keep to these (clear of the top plate and the side ones).
_SCORE_ROOM = Box(6, 6, 293, 165)
_LAST_ROOM = Box(507, 6, 796, 130)
#: The bottom corners, under the lower side plates and beside the bottom one.
_CORNERS = {"left": Box(8, 392, 292, 494), "right": Box(508, 392, 792, 494)}
_NOWHERE = Box(0, 0, 0, 0)


def side_count(view: Mapping[str, Any]) -> int:
    """How many sides play (teams, or players in solo play), read from the view."""
    teams = view.get("teams")
    if isinstance(teams, int):
        return teams
    return int(view.get("n_teams") or len(set(view.get("team_of") or ())) or view["players"])


def _rooms(n: int) -> tuple[Box, Box]:
    """The room left in the middle while cards lie in front of players, and when none do."""
    top = _ARRANGEMENTS[n].count("T")
    centre = Box(301, 191 if top else 130, 499, 319)
    if n == 2:
        return Box(150, 191, 650, 319), Box(24, 170, 776, 388)
    return centre, Box(214, 170, 586, 422)


def _spots(view: Mapping[str, Any]) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The (plate, card) spots of every seat, the view's own seat at the bottom."""
    n = int(view["players"])
    own = view.get("seat")
    bottom = own if isinstance(own, int) and 0 <= own < n else 0
    names = _ARRANGEMENTS[n]
    return [_SPOTS[names[(seat - bottom) % n]] for seat in range(n)]


def seat_label(lang: str, names: Sequence[str], seat: int) -> str:
    """What the picture can draw of a seat's name ("Seat 3" when nothing of it)."""
    name = drawable_name(names[seat] if seat < len(names) else "", seat)
    return name or t(lang, "picture.seat", seat=seat + 1)


def side_labels(lang: str, view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """The sides' names as drawn: "Team A"... in team play, the players' names solo."""
    n = int(view["players"])
    sides = side_count(view)
    if sides >= n:
        return [seat_label(lang, names, seat) for seat in range(n)]
    return [t(lang, "team.name", letter=TEAM_LETTERS[i]) for i in range(sides)]


# --------------------------------------------------------------------------- the layout
def lay_out(view: Mapping[str, Any], names: Sequence[str], lang: str, *, shows: Presenter,
            highlight_winning: bool = True) -> Layout:
    """Every piece of the picture of ``view`` (see the module's description), placed."""
    n = int(view["players"])
    centre, open_room = _rooms(n)
    layout = Layout(WIDTH, HEIGHT, centre=centre, open_room=open_room, corners=dict(_CORNERS))
    spots = _spots(view)
    team_play = side_count(view) < n
    _lay_seats(layout, view, names, lang, spots)
    winning = view.get("winning") if highlight_winning and view["phase"] == "playing" else None
    for seat, code in shows.front_cards(view):
        if 0 <= seat < n:
            cx, cy = spots[seat][1]
            layout.card(f"front {seat}", code, cx, cy, CARD_W, CARD_H,
                        highlight=seat == winning)
    _lay_score_box(layout, view, names, lang, shows, team_play)
    _lay_last_trick(layout, view, names, lang, shows)
    result = view.get("result")
    if view["phase"] == "finished":
        _lay_result(layout, view, names, lang, shows, result)
    else:
        shows.draw_centre(layout, lang, view, names)
    if not team_play:
        _lay_seat_scores(layout, view, lang, shows, spots)
    return layout


def _lay_seats(layout: Layout, view: Mapping[str, Any], names: Sequence[str], lang: str,
               spots: list[tuple[tuple[float, float], tuple[float, float]]]) -> None:
    """Every seat's plate (its side's colour, gold on its turn), name, cards in hand and the
    dealer's chip."""
    n = int(view["players"])
    finished = view["phase"] == "finished"
    to_act = None if finished else view.get("to_act")
    hand_sizes = list(view.get("hand_sizes") or [])
    team_of = list(view.get("team_of") or range(n))
    for seat in range(n):
        (px, py), _card = spots[seat]
        colour = sprites.SIDE_COLOURS[int(team_of[seat]) % len(sprites.SIDE_COLOURS)]
        name = drawable_name(names[seat] if seat < len(names) else "", seat)
        shown = f"{seat + 1}. {name}" if name else t(lang, "picture.seat", seat=seat + 1)
        chip = t(lang, "picture.dealer_chip") if seat == view.get("dealer") else ""
        count = None if finished else int(hand_sizes[seat]) if seat < len(hand_sizes) else 0
        layout.elements += _plate_pieces(seat, px, py, colour, seat == to_act, shown, chip,
                                         count)
        layout.set_badge_spot(seat, px - PLATE_W / 2 + 80, py + 15, f"seat {seat}")


@lru_cache(maxsize=1024)  # a plate changes with its seat's turn and cards: few per move
def _plate_pieces(seat: int, px: float, py: float, colour: sprites.Colour, turn: bool,
                  shown: str, chip: str, count: int | None) -> tuple[Element, ...]:
    """The pieces of a seat's plate: the plate, the name, the dealer's chip (``chip``: its
    letter, "" for none), the cards in hand (None once the deal is over)."""
    layout = Layout(WIDTH, HEIGHT, centre=_NOWHERE, open_room=_NOWHERE, corners={})
    group = f"seat {seat}"
    plate = sprites.plate(PLATE_W, PLATE_H, colour, turn)
    layout.add("plate", group, plate, px - plate.width / 2, py - plate.height / 2,
               (PLATE_W, PLATE_H), frame=("plate", PLATE_W, PLATE_H, colour), framed=not turn)
    x0, y0 = px - PLATE_W / 2, py - PLATE_H / 2
    room = PLATE_W - 24 - (32 if chip else 0)
    fill = sprites.PLATE_TURN_FILL if turn else sprites.PLATE_FILL
    layout.text(group, x0 + 16, y0 + 5, layout.fit(shown, room), MIN_TEXT,
                tone="gold" if turn else "light", on=fill)
    if chip:
        layout.centred("chip", group, sprites.chip(14), x0 + PLATE_W - 21, y0 + 17, (28, 28))
        layout.text(group, x0 + PLATE_W - 21, y0 + 17, chip, MIN_TEXT, anchor="mm",
                    tone="dark", on=sprites.WHITE)
    if count is not None:
        layout.centred("icon", group, sprites.card_back(16, 23), x0 + 24, py + 15, (16, 23))
        layout.text(group, x0 + 37, py + 15, str(count), MIN_TEXT, anchor="lm", on=fill)
    return tuple(layout.elements)


def _lay_seat_scores(layout: Layout, view: Mapping[str, Any], lang: str, shows: Presenter,
                     spots: list[tuple[tuple[float, float], tuple[float, float]]]) -> None:
    """Solo play: each player's match score on their plate, right of the game's badge."""
    scores = view.get("scores")
    if not isinstance(scores, list):
        return
    team_of = list(view.get("team_of") or range(int(view["players"])))
    to_act = None if view["phase"] == "finished" else view.get("to_act")
    for seat, ((px, py), _card) in enumerate(spots):
        side = int(team_of[seat])
        if side >= len(scores):
            continue
        text = shows.score_text(lang, shows.shown_score(int(scores[side])))
        right = px + PLATE_W / 2 - 10
        left = px - PLATE_W / 2 + (96 if layout.badge_used(seat) else 64)
        fill = sprites.PLATE_TURN_FILL if seat == to_act else sprites.PLATE_FILL
        layout.text(f"seat {seat}", right, py + 15, layout.fit(text, right - left), MIN_TEXT,
                    anchor="rm", tone="gold", on=fill)


def _lay_score_box(layout: Layout, view: Mapping[str, Any], names: Sequence[str], lang: str,
                   shows: Presenter, team_play: bool) -> None:
    """Top left: the deal (and the game), the trick of the deal, the sides' scores with their
    colours in team play, and what ends the match."""
    room = _SCORE_ROOM
    width = room.width - 20
    lines: list[tuple[str, int, Tone, int | None]] = []  # text, size, tone, side's colour
    deal_no = view.get("deal_no")
    game = t(lang, f"choice.game.{shows.NAME}")
    if isinstance(deal_no, int) and deal_no > 0:
        title = t(lang, "picture.title", deal=deal_no, game=game)
    else:
        title = game
    lines.append((layout.fit(title, width, TITLE), TITLE, "light", None))
    # Where the deal stands: the trick, or the phase in words (the line is always there, so
    # that the box keeps its size, and the cached frame its backdrop, through the deal).
    phase = str(view["phase"])
    if phase == "playing" and view.get("rounds_total"):
        stage = t(lang, game_key(shows.NAME, "picture.round"), round=view.get("round", 1),
                  total=view["rounds_total"])
    else:
        key = game_key(shows.NAME, f"picture.phase.{phase}")
        stage = t(lang, key) if has(lang, key) else ""
    lines.append((layout.fit(stage, width), MIN_TEXT, "muted", None))
    scores = view.get("scores")
    if team_play and isinstance(scores, list):
        for side, label in enumerate(side_labels(lang, view, names)):
            if side < len(scores):
                text = t(lang, "picture.side_score", side=label,
                         score=shows.score_text(lang, shows.shown_score(int(scores[side]))))
                lines.append((layout.fit(text, width - 24), MIN_TEXT, "light", side))
    target = view.get("target")
    if isinstance(target, int):
        said = shows.target_text(lang, target)
        for line in layout.wrap(said or "", width, lines=2):
            lines.append((line, MIN_TEXT, "muted", None))
    layout.elements += _score_pieces(tuple(lines))


@lru_cache(maxsize=1024)  # a table's score box changes with the trick: a few per deal
def _score_pieces(lines: tuple[tuple[str, int, Tone, int | None], ...]) -> tuple[Element, ...]:
    """The score box's backdrop and ``lines`` (text, size, tone, the side of its swatch)."""
    layout = Layout(WIDTH, HEIGHT, centre=_NOWHERE, open_room=_NOWHERE, corners={})
    room = _SCORE_ROOM
    height = 6 + LINE * (len(lines) - 1) + lines[-1][1] + 8  # the last line's descenders too
    layout.add("panel", "score", sprites.panel(round(room.width), height), room.x0, room.y0,
               (0, 0), frame=("panel", round(room.width), height), framed=True)
    y = room.y0 + 6
    for text, size, tone, swatch in lines:
        x = room.x0 + 10
        if not text:
            y += LINE
            continue
        if swatch is not None:
            colour = sprites.SIDE_COLOURS[swatch % len(sprites.SIDE_COLOURS)]
            layout.add("swatch", "score", sprites.swatch(colour, 16), x, y + 4, (16, 16))
            x += 24
        layout.text("score", x, y, text, size, tone=tone, on=sprites.BG)
        y += LINE
    return tuple(layout.elements)


def _lay_last_trick(layout: Layout, view: Mapping[str, Any], names: Sequence[str], lang: str,
                    shows: Presenter) -> None:
    """Top right: the last trick's cards in play order, each player's seat number under
    their card, the winning card ringed in gold, and who won it."""
    last = view.get("last_trick")
    if not last or not last.get("plays"):
        return
    plays = tuple((int(seat), str(code)) for seat, code in last["plays"])
    winner = last.get("winner")
    caption = t(lang, game_key(shows.NAME, "picture.last_round"),
                name=seat_label(lang, names, int(winner)) if isinstance(winner, int) else "?")
    team_of = list(view.get("team_of") or range(int(view["players"])))
    colours = tuple(sprites.SIDE_COLOURS[int(team_of[seat]) % len(sprites.SIDE_COLOURS)]
                    if seat < len(team_of) else sprites.MUTED for seat, _code in plays)
    layout.elements += _last_trick_pieces(plays, winner if isinstance(winner, int) else None,
                                          caption, colours)


@lru_cache(maxsize=1024)  # the last trick stays the same for a whole trick
def _last_trick_pieces(plays: tuple[tuple[int, str], ...], winner: int | None, caption: str,
                       colours: tuple[sprites.Colour, ...]) -> tuple[Element, ...]:
    """The last trick's pieces; each seat's number under its card is in the colour of that
    seat's plate, which bears the same number."""
    layout = Layout(WIDTH, HEIGHT, centre=_NOWHERE, open_room=_NOWHERE, corners={})
    room = _LAST_ROOM
    layout.text("last", room.x1, room.y0 + 2, layout.fit(caption, room.width), MIN_TEXT,
                anchor="ra", tone="muted")
    gap = 2 if len(plays) > 4 else 6
    pad = sprites.highlight_pad(SMALL_W)
    x = room.x1 - pad - len(plays) * SMALL_W - (len(plays) - 1) * gap + SMALL_W / 2
    y = room.y0 + 30 + pad + SMALL_H / 2
    for i, (seat, code) in enumerate(plays):
        cx = x + i * (SMALL_W + gap)
        layout.card("last", code, cx, y, SMALL_W, SMALL_H, highlight=seat == winner)
        layout.text("last", cx, y + SMALL_H / 2 + pad + 2, str(seat + 1), MIN_TEXT,
                    anchor="ma", colour=colours[i])
    return tuple(layout.elements)


def _lay_result(layout: Layout, view: Mapping[str, Any], names: Sequence[str], lang: str,
                shows: Presenter, result: Any) -> None:
    """The end of the deal in the middle: a row per side under the game's columns (what it
    took, what it scored), then why."""
    region = layout.open
    deal_no = view.get("deal_no")
    heading = (t(lang, "picture.result.title", deal=deal_no) if isinstance(deal_no, int)
               and deal_no > 0 else t(lang, "picture.result.over"))
    if not isinstance(result, Mapping):
        layout.text("result", region.centre[0], region.centre[1], t(lang, "table.finished"),
                    TITLE, anchor="mm")
        return
    sides = side_labels(lang, view, names)
    table = shows.result_table(lang, result, sides)
    pad, gap = 10, 16
    rows = [list(row[: len(table.columns)]) for row in table.rows]
    widths = [0.0, *(layout.width_of(c) for c in table.columns)]
    for i, row in enumerate(rows):
        for j, cell in enumerate(row, start=1):
            widths[j] = max(widths[j], layout.width_of(cell))
        widths[0] = max(widths[0], 24 + layout.width_of(sides[i] if i < len(sides) else ""))
    room = region.width - 2 * pad - gap * len(table.columns) - sum(widths[1:])
    # The heading heads the names' column when it fits there, else it has a line of its own.
    inline = layout.width_of(heading) <= room
    widths[0] = max(80.0, min(max(widths[0], layout.width_of(heading) if inline else 0), room))
    inner = sum(widths) + gap * len(table.columns)
    panel_w = min(region.width, max(inner + 2 * pad, 300))
    lines = (0 if inline else 1) + 1 + len(rows)
    spare = int((region.height - 2 * pad - 6 - LINE * lines) // LINE)
    note = layout.wrap(table.note, panel_w - 2 * pad, lines=min(3, spare)) if (
        table.note and spare > 0) else []
    panel_h = 2 * pad + LINE * lines + (6 + LINE * len(note) if note else 0) - 4
    x0 = region.centre[0] - panel_w / 2
    y0 = region.centre[1] - panel_h / 2
    layout.add("panel", "result", sprites.panel(round(panel_w), round(panel_h)), x0, y0, (0, 0))
    xs = [x0 + pad + sum(widths[:j]) + gap * j for j in range(len(widths))]
    y = y0 + pad - 2
    if not inline:
        layout.text("result", xs[0], y, layout.fit(heading, panel_w - 2 * pad), on=sprites.BG)
        y += LINE
    elif heading:
        layout.text("result", xs[0], y, heading, on=sprites.BG)
    for j, column in enumerate(table.columns, start=1):
        layout.text("result", xs[j], y, layout.fit(column, widths[j]), tone="muted",
                    on=sprites.BG)
    for i, row in enumerate(rows):
        y += LINE
        colour = sprites.SIDE_COLOURS[i % len(sprites.SIDE_COLOURS)]
        layout.add("swatch", "result", sprites.swatch(colour, 16), xs[0], y + 4, (16, 16))
        name = sides[i] if i < len(sides) else "?"
        layout.text("result", xs[0] + 24, y, layout.fit(name, widths[0] - 24), on=sprites.BG)
        for j, cell in enumerate(row, start=1):
            layout.text("result", xs[j], y, layout.fit(cell, widths[j]), tone="gold",
                        on=sprites.BG)
    y += 6
    for line in note:
        y += LINE
        layout.text("result", x0 + pad, y, line, tone="muted", on=sprites.BG)


# --------------------------------------------------------------------------- the picture
def table_picture(
    view: dict[str, Any],
    names: list[str],
    lang: str,
    *,
    shows: Presenter,
    highlight_winning: bool = True,
) -> bytes:
    """A picture of the table as JPEG bytes (800×500; see :data:`PICTURE_FILE`), drawn only
    from what ``view`` shows, every word in ``lang``.

    The view is the public one (``Table.public_view``): the deal's view and the match's
    ``deal_no``, ``scores`` and ``target``, which the picture shows when they are there. Seats
    sit around an oval table with their names, seat numbers, cards in hand and the dealer's
    chip; the seat to act has a gold plate. The cards the game lays in front of their players
    (the presenter's ``front_cards``: the trick in progress...) lie there, the winning one
    ringed in gold; the game's own pieces come from its presenter (``shows``,
    ``draw_centre``), the end of a deal from its ``result_table``. A hand is never drawn face
    up.
    """
    layout = lay_out(view, names, lang, shows=shows, highlight_winning=highlight_winning)
    # Each thread paints on a canvas of its own, kept: filling it from the frame is cheaper
    # than allocating a copy of the frame for every picture.
    canvas = getattr(_canvases, "canvas", None)
    if canvas is None:
        canvas = _canvases.canvas = Image.new("RGB", (WIDTH, HEIGHT))
    canvas.paste(_frame(layout.frame()))
    layout.paint(canvas, framed=True)
    return _encode_jpeg(canvas)


def table_image(view: Mapping[str, Any], names: Sequence[str], lang: str, *,
                shows: Presenter, highlight_winning: bool = True) -> Image.Image:
    """The picture of :func:`table_picture` as an RGB image, before its encoding.

    Painted on a copy of its frame: the empty table with the plates of the seats and the
    score box's backdrop, which the pictures of a table share from move to move (the plate of
    the seat to act is painted over its own)."""
    layout = lay_out(view, names, lang, shows=shows, highlight_winning=highlight_winning)
    canvas = _frame(layout.frame()).copy()
    layout.paint(canvas, framed=True)
    return canvas


_canvases = threading.local()


# A frame is 1.6 MB; tables of the same mode share one, so a few cover the bot's tables.
@lru_cache(maxsize=16)
def _frame(pieces: tuple[tuple[tuple[Any, ...], int, int], ...]) -> Image.Image:
    """The empty table with ``pieces`` on it: (how to make one, left, top) each."""
    canvas = sprites.background(WIDTH, HEIGHT).copy()
    for (kind, w, h, *colour), x, y in pieces:
        sprite = sprites.plate(w, h, colour[0], False) if kind == "plate" else sprites.panel(w, h)
        canvas.paste(sprite, (x, y), sprite)
    return canvas


def _encode_jpeg(img: Image.Image) -> bytes:
    """The RGB canvas as JPEG bytes at quality :data:`PICTURE_QUALITY`.

    JPEG because it is the fastest to encode of the formats Discord shows inline, and small;
    the picture is flat colours, card faces and short labels, on which that quality shows no
    visible artefacts, and the text form beside it is the exact record anyway (the timings
    behind this choice are in ``bench/README.md``)."""
    out = io.BytesIO()
    img.save(out, "JPEG", quality=PICTURE_QUALITY)
    return out.getvalue()

