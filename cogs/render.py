"""How a deal looks to players: card labels, the text table, the private hand header, deal results,
and a picture of the table drawn with Pillow.

Pure functions over the engine's JSON views (``Deal.view(seat)``) and plain strings: no discord.py
objects, no I/O beyond the package's own data (catalogues, font). Every word comes from
:mod:`cogs.i18n`.

The picture uses only what ships with the project's own install: the DejaVu Sans font in
``cogs/fonts/`` (package data, with its licence) for ranks, digits and names, and suit symbols drawn
as vector shapes — no system font is assumed. DejaVu Sans covers Latin with its accents, Greek,
Cyrillic, Armenian, Georgian, Hebrew, Arabic and many symbols, so "Zoë", "Дмитрий" and "Αλέξης"
are drawn as written (right-to-left scripts only where Pillow has libraqm to lay them out). A
character it lacks (Chinese, Japanese, Korean, most Indic scripts...) is folded to ASCII when it
can be (accents dropped) or shown as "?", and a name with nothing drawable left shows the seat
number alone. The seat number is always drawn next to the name, and the text form of the table
beside the picture names everyone, so a player stays identifiable.
"""

from __future__ import annotations

import io
import logging
import math
import re
import threading
import unicodedata
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from importlib import resources
from typing import Any, ParamSpec, TypeVar, cast

from PIL import Image, ImageDraw, ImageFont, features

from cogs.i18n import join_list, t, tn

__all__ = [
    "SUIT_SYMBOLS",
    "card_button_label",
    "card_label",
    "deal_summary_text",
    "default_side_names",
    "explain_result",
    "hand_text",
    "suit_label",
    "suit_name",
    "suit_symbol",
    "table_picture",
    "table_text",
]

SUIT_SYMBOLS: dict[str, str] = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RED_SUITS = frozenset("DH")
# The ranks a card code may start with: only to draw and name a card (what a card is worth,
# what it beats, who may play it, all come with the view).
RANKS = "A7KJQ6543"
TEXT_LIMIT = 1500
TEAM_LETTERS = "ABCDEF"


# --------------------------------------------------------------------------- cards and suits
def _split(code: str) -> tuple[str, str]:
    if len(code) != 2 or code[0] not in RANKS or code[1] not in SUIT_SYMBOLS:
        raise ValueError(f"Not a card code: {code!r} (expected rank then suit, like 'AS' or '7H')")
    return code[0], code[1]


def card_label(code: str) -> str:
    """The card as players read it: ``"AS"`` -> ``"A♠"``, ``"7H"`` -> ``"7♥"``."""
    rank, suit = _split(code)
    return rank + SUIT_SYMBOLS[suit]


def card_button_label(code: str, points: int) -> str:
    """Label of a card button: ``"A♠ 11"`` with its points (the view's ``card_points``), or
    just ``"5♠"`` when worth nothing."""
    return f"{card_label(code)} {points}" if points else card_label(code)


def suit_symbol(suit: str) -> str:
    """The symbol of a suit letter: ``"H"`` -> ``"♥"``."""
    if suit not in SUIT_SYMBOLS:
        raise ValueError(f"Not a suit: {suit!r} (expected one of C D H S)")
    return SUIT_SYMBOLS[suit]


# Swahili suit names (sw.json, for a native reviewer): hearts "kopa" (also "mioyo"), spades
# "shupaza" (also "jembe", "spedi"), diamonds "kisu" (also "diamonds", "almasi"), clubs "karanga"
# (also "mavi ya kuku", "maua"). The first of each is what East African players say most widely.
def suit_name(lang: str, suit: str, *, capitalize: bool = False) -> str:
    """The suit's name in ``lang`` ("hearts" / "kopa"); ``capitalize`` to start a sentence."""
    suit_symbol(suit)
    name = t(lang, f"suit.{suit}")
    return name[:1].upper() + name[1:] if capitalize else name


def suit_label(lang: str, suit: str) -> str:
    """Symbol and name together, readable by eye and by screen readers: ``"♥ hearts"``."""
    return f"{suit_symbol(suit)} {suit_name(lang, suit)}"


# --------------------------------------------------------------------------- seats and sides
def _name(names: Sequence[str], seat: int, lang: str) -> str:
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return t(lang, "seat.label", seat=seat + 1)


def _side_count(view: dict[str, Any]) -> int:
    return int(view.get("teams") or view["players"])


def default_side_names(
    lang: str, players: int, teams: int, names: Sequence[str]
) -> list[str]:
    """Names of the sides: "Team A", "Team B"... in team play, the players' names when solo."""
    if teams >= players:
        return [_name(names, seat, lang) for seat in range(players)]
    return [t(lang, "team.name", letter=TEAM_LETTERS[i]) for i in range(teams)]


def _sides(view: dict[str, Any], names: Sequence[str], lang: str,
           side_names: Sequence[str] | None) -> list[str]:
    default = default_side_names(lang, view["players"], _side_count(view), names)
    if side_names:
        return [side_names[i] if i < len(side_names) else default[i] for i in range(len(default))]
    return default


# --------------------------------------------------------------------------- deal results
def _result_kind(result: dict[str, Any], team_size: int | None) -> str:
    if team_size is None:
        team_size = max(1, int(result.get("threshold", 10)) // 10)
    return {1: "solo", 3: "trios"}.get(team_size, "team")


def explain_result(
    lang: str,
    result: dict[str, Any],
    side_names: Sequence[str],
    *,
    team_size: int | None = None,
) -> str:
    """Why the deal scored what it scored, in one sentence a player understands.

    ``result`` is the view's ``result`` dict (points per side, winner, victory_points, threshold,
    lowest); ``side_names`` names each side. ``team_size`` defaults to ``threshold // 10``.
    Examples: "Team B ate only 14 — under 20 — so Team A scores 2 VP." /
    "Tie for the most points (60 each) between Team A and Team B: nobody scores."
    """
    points: list[int] = list(result["points"])
    names = [side_names[i] if i < len(side_names) else TEAM_LETTERS[i] for i in range(len(points))]
    threshold = int(result["threshold"])
    kind = _result_kind(result, team_size)
    winner = result.get("winner")
    if winner is None:
        top = max(points)
        tied = [names[i] for i, p in enumerate(points) if p == top]
        return t(lang, "result.tie", points=top, sides=join_list(lang, tied))
    lowest = result.get("lowest")
    if lowest is None:
        lowest = min(range(len(points)), key=lambda i: points[i])
    grammar = "solo" if kind == "solo" else "team"
    if int(result["victory_points"]) >= 2:
        return t(lang, f"result.two_vp.{grammar}", loser=names[lowest], points=points[lowest],
                 threshold=threshold, winner=names[winner])
    if kind == "trios":
        return t(lang, "result.one_vp.trios", loser=names[lowest], points=points[lowest],
                 threshold=threshold, winner=names[winner])
    return t(lang, f"result.one_vp.{grammar}", threshold=threshold, winner=names[winner])


def deal_summary_text(
    lang: str,
    result: dict[str, Any],
    side_names: Sequence[str],
    *,
    deal_no: int,
    team_size: int | None = None,
) -> str:
    """The end-of-deal line: "Deal 3 — Team A ate 96, Team B ate 24. Team A scores 1 VP (...)".

    With 5 players it also names the face-up card left over (``result["leftover"]``, worth
    ``result["leftover_points"]``, from the rules core), which is why the points add up to less
    than 120."""
    eaten = t(lang, "list.separator").join(
        t(lang, "deal.summary.ate", side=side_names[i], points=p)
        for i, p in enumerate(result["points"]))
    line = t(lang, "deal.summary.line", deal=deal_no, eaten=eaten,
             explanation=explain_result(lang, result, side_names, team_size=team_size))
    leftover = result.get("leftover")
    if leftover:
        points = tn(lang, "card.points", int(result.get("leftover_points") or 0))
        line += " " + t(lang, "deal.summary.left_over", card=card_label(leftover), points=points)
    return line


# --------------------------------------------------------------------------- text table
def _scores_line(lang: str, sides: Sequence[str], scores: Sequence[int]) -> str:
    items = [t(lang, "table.score", side=sides[i], vp=scores[i] if i < len(scores) else 0)
             for i in range(len(sides))]
    return t(lang, "table.score_separator").join(items)


def _bids_line(lang: str, view: dict[str, Any], names: Sequence[str]) -> str:
    bids = view.get("bids") or []
    if not bids:
        return t(lang, "table.bids_none")
    exchange = view.get("exchange")
    bidding = view["phase"] == "bidding"
    items: list[str] = []
    for bid in bids:
        who = _name(names, bid["seat"], lang)
        card = bid.get("card")
        if card is None:
            items.append(t(lang, "table.bid.pass", name=who))
        elif bidding:
            items.append(t(lang, "table.bid.card", name=who, card=card_label(card)))
        elif exchange and exchange.get("seat") == bid["seat"] and exchange.get("took"):
            items.append(t(lang, "table.bid.exchanged", name=who, card=card_label(card),
                           indicator=card_label(exchange["took"])))
        else:
            items.append(t(lang, "table.bid.returned", name=who, card=card_label(card)))
    if not bidding and all(b.get("card") is None for b in bids):
        return t(lang, "table.bids_all_passed")
    return t(lang, "table.bids", bids=t(lang, "inline.separator").join(items))


def _stock_text(lang: str, count: int) -> str:
    return t(lang, "table.stock.zero") if count == 0 else tn(lang, "table.stock", count)


def _trump_text(lang: str, view: dict[str, Any]) -> str:
    trump = view.get("trump")
    if not trump:
        return t(lang, "table.trump_pending")
    face_up = view.get("face_up")
    if not face_up:
        return t(lang, "table.trump", suit=suit_label(lang, trump))
    key = "table.face_up_never_drawn" if view["face_up_never_drawn"] else "table.face_up"
    return t(lang, "table.trump_with_face_up", suit=suit_label(lang, trump),
             face_up=t(lang, key, card=card_label(face_up)))


def _round_line(lang: str, view: dict[str, Any], names: Sequence[str]) -> str | None:
    if view["phase"] != "playing":
        return None
    sep = t(lang, "inline.separator")
    current = view.get("current") or []
    to_act = view.get("to_act")
    if not current:
        leader = to_act if to_act is not None else view.get("leader")
        return t(lang, "table.round_not_started", round=view["round"],
                 total=view["rounds_total"], name=_name(names, leader or 0, lang))
    winning = view.get("winning")
    plays = []
    for seat, card in current:
        key = "table.play_winning" if seat == winning else "table.play"
        plays.append(t(lang, key, name=_name(names, seat, lang), card=card_label(card)))
    if to_act is not None:
        plays.append(t(lang, "table.to_play", name=_name(names, to_act, lang)))
    return t(lang, "table.round", round=view["round"], total=view["rounds_total"],
             plays=sep.join(plays))


def _last_round_line(lang: str, view: dict[str, Any], names: Sequence[str]) -> str | None:
    last = view.get("last_trick")
    if not last:
        return None
    winner = last["winner"]
    win_card = next((c for s, c in last["plays"] if s == winner), None)
    plays = t(lang, "inline.separator").join(
        t(lang, "table.play", name=_name(names, s, lang), card=card_label(c))
        for s, c in last["plays"]
    )
    return t(lang, "table.last_round", name=_name(names, winner, lang),
             card=card_label(win_card) if win_card else "?", points=last["points"], plays=plays)


def _turn_line(lang: str, view: dict[str, Any], names: Sequence[str]) -> str | None:
    to_act = view.get("to_act")
    if view["phase"] == "finished":
        return None
    if to_act is None:
        return t(lang, "table.turn.none")
    key = "table.turn.bid" if view["phase"] == "bidding" else "table.turn.play"
    return t(lang, key, name=_name(names, to_act, lang))


def table_text(
    view: dict[str, Any],
    names: list[str],
    lang: str,
    *,
    deal_no: int,
    scores: list[int],
    target: int,
    side_names: list[str] | None = None,
) -> str:
    """The public table as text, for screen readers and narrow screens (an embed description).

    ``view`` is a view dict (the public one, ``seat=None``, is what the channel should get);
    ``names`` names each seat (mentions or plain names); ``scores`` are VP per side. Lines: title
    and VP, whose turn it is, dealer/trump/face-up/stock, bids, the round in progress, the last
    round, cards in hand and rounds eaten. At most ``TEXT_LIMIT`` characters: the least important
    lines are dropped first.
    """
    sides = _sides(view, names, lang, side_names)
    sep = t(lang, "inline.separator")
    title = t(lang, "table.title", deal=deal_no, scores=_scores_line(lang, sides, scores),
              target=target)
    info = sep.join([t(lang, "table.dealer", name=_name(names, view["dealer"], lang)),
                     _trump_text(lang, view), _stock_text(lang, int(view.get("stock") or 0))])
    status = _turn_line(lang, view, names)
    if view["phase"] == "finished":
        # The end of the deal takes the place of the turn line: it is the news.
        result = view.get("result")
        status = "🏁 " + (deal_summary_text(lang, result, sides, deal_no=deal_no,
                                           team_size=view.get("team_size"))
                         if result else t(lang, "table.finished"))
    essential: list[str | None] = [
        title, status, info, _bids_line(lang, view, names),
        _round_line(lang, view, names), _last_round_line(lang, view, names),
    ]
    optional: list[str] = []
    if view["phase"] != "finished":
        hands = [t(lang, "table.hand_size", name=_name(names, s, lang), count=n)
                 for s, n in enumerate(view.get("hand_sizes") or [])]
        if hands:
            optional.append(t(lang, "table.hands", hands=sep.join(hands)))
    won = view.get("tricks_won") or []
    if any(won):
        n_sides = len(sides)
        per_side = [0] * n_sides
        team_of = view["team_of"]
        for seat, count in enumerate(won):
            per_side[team_of[seat]] += count
        optional.append(t(lang, "table.eaten", items=sep.join(
            t(lang, "table.eaten_item", side=sides[i], count=c) for i, c in enumerate(per_side))))
    lines = [line for line in essential if line]
    text = "\n".join(lines)
    for extra in optional:
        if len(text) + 1 + len(extra) <= TEXT_LIMIT:
            text += "\n" + extra
    if len(text) > TEXT_LIMIT:
        text = text[: TEXT_LIMIT - 1] + "…"
    return text


# --------------------------------------------------------------------------- private hand header
def hand_text(view: dict[str, Any], lang: str, names: list[str]) -> str:
    """Header of a player's private hand, from that seat's own view.

    "Your hand — your turn (round 4, trump ♥)" or "... — waiting for NAME"; while bidding, a
    second line says which suits are already bid (only those cards are refused), or that this
    seat does not bid because it is on the dealer's side.
    """
    seat = view.get("seat")
    to_act = view.get("to_act")
    phase = view["phase"]
    if phase == "finished":
        return t(lang, "hand.finished")
    if phase == "bidding":
        lines = []
        if to_act is not None and to_act == seat:
            lines.append(t(lang, "hand.bid.your_turn"))
        elif to_act is None:
            lines.append(t(lang, "hand.title"))
        else:
            lines.append(t(lang, "hand.bid.waiting", name=_name(names, to_act, lang)))
        if seat is not None and seat not in view["bidders"]:
            lines.append(t(lang, "hand.bid.not_bidding"))
        taken = [b["card"][1] for b in view.get("bids") or [] if b.get("card")]
        if taken:
            lines.append(t(lang, "hand.bid.taken",
                           suits=join_list(lang, [suit_label(lang, s) for s in taken])))
        else:
            lines.append(t(lang, "hand.bid.none_taken"))
        return "\n".join(lines)
    trump = view.get("trump")
    trump_text = suit_symbol(trump) if trump else "?"
    if to_act is None:
        header = t(lang, "hand.title")
    elif to_act == seat:
        header = t(lang, "hand.your_turn", round=view["round"], trump=trump_text)
    else:
        header = t(lang, "hand.waiting", name=_name(names, to_act, lang), round=view["round"],
                   trump=trump_text)
    if not view.get("hand") and seat is not None:
        header += "\n" + t(lang, "hand.empty")
    return header


# --------------------------------------------------------------------------- the picture
WIDTH, HEIGHT = 800, 500
#: The picture's file name on the table message (its extension says the format).
PICTURE_FILE = "table.jpg"
PICTURE_QUALITY = 85
_SS = 2  # sprites are drawn at twice the size, then reduced: smooth edges without an AA library
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
_CARD_W, _CARD_H = 50, 72


#: The picture's font, package data of ``cogs`` (see ``cogs/fonts/LICENSE``).
FONT_FILE = "fonts/DejaVuSans.ttf"
# Right-to-left letters (Hebrew, Arabic) are drawn only where Pillow can lay them out (libraqm
# with FriBiDi): without it they would come out in reverse order and unjoined.
_RTL_OK = features.check("raqm") and features.check("fribidi")
_RTL = frozenset({"R", "AL"})


@cache
def _font_data() -> bytes | None:
    """The font file's bytes, read once per process (about 2 ms; each size is then parsed from
    memory); None if the install lacks it, and the picture falls back to Pillow's own font."""
    try:
        return resources.files(__package__ or "cogs").joinpath(FONT_FILE).read_bytes()
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
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The font for sprites, drawn at _SS times their final size."""
    return _load_font(size * _SS)


@cache
def _font1(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The font at the picture's final size (text is drawn straight on the canvas)."""
    return _load_font(size)


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


@cache
def _notdef_mask() -> bytes:
    return bytes(_font(14).getmask("\U000f0001"))


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
        return bytes(_font(14).getmask(char)) != _notdef_mask()
    except Exception:  # a broken glyph must never break a picture
        return False


_MENTION = re.compile(r"^<@!?\d+>$")


def _drawable_name(name: str, seat: int) -> str:
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


@lru_cache(maxsize=4096)  # a table's labels come back on every picture; measuring costs ~0.1 ms
def _fit(text: str, size: int, width: float) -> str:
    """``text`` shortened with "..." to at most ``width`` pixels at font size ``size``."""
    font = _font1(size)
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "...") > width:
        text = text[:-1]
    return text.rstrip() + "..."


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
    k = _SS
    pad = (5 if w >= 40 else 3) * k if highlight else 0
    img = Image.new("RGBA", (w * k + 2 * pad, h * k + 2 * pad), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if highlight:
        d.rounded_rectangle([0, 0, img.width - 1, img.height - 1], radius=10 * k, fill=_GOLD)
    box = [pad, pad, pad + w * k - 1, pad + h * k - 1]
    d.rounded_rectangle(box, radius=6 * k, fill=_WHITE, outline=(150, 150, 150), width=k)
    rank, suit = _split(code)
    colour = _RED if suit in RED_SUITS else _BLACK
    if w < 40:  # a miniature: rank above, suit below, nothing else
        d.text((pad + w * k / 2, pad + h * k * 0.3), rank, font=_font(max(11, h // 3)),
               fill=colour, anchor="mm")
        _suit_shape(d, suit, pad + w * k / 2, pad + h * k * 0.7, h * k * 0.36, colour)
        return img
    font = _font(max(12, h // 4))
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
    k = _SS
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
    font = _font1(size)
    left, top, right, bottom = (int(v) for v in font.getbbox(text, anchor=anchor))
    img = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (*colour, 0))
    ImageDraw.Draw(img).text((-left, -top), text, font=font, fill=colour, anchor=anchor)
    return img, left, top


def _text(canvas: Image.Image, x: float, y: float, text: str, size: int,
          colour: tuple[int, int, int], anchor: str = "la") -> None:
    """Draw text on the canvas from a cached sprite: drawing the same labels again on every
    picture was a third of its time (FreeType renders each glyph each time)."""
    img, left, top = _label(text, size, colour, anchor)
    canvas.paste(img, (round(x) + left, round(y) + top), img)


def _paste_centre(canvas: Image.Image, img: Image.Image, cx: float, cy: float) -> None:
    """Paste a final-size RGBA sprite on the RGB canvas, centred on (cx, cy), blended by alpha."""
    canvas.paste(img, (round(cx - img.width / 2), round(cy - img.height / 2)), img)


def _seat_positions(n: int, bottom: int) -> list[tuple[float, float, float, float]]:
    """(plate x, plate y, card x, card y) per seat, clockwise, ``bottom`` seat at the bottom."""
    cx, cy = WIDTH / 2, HEIGHT / 2 + 5
    out: list[tuple[float, float, float, float]] = [(0.0, 0.0, 0.0, 0.0)] * n
    for i in range(n):
        seat = (bottom + i) % n
        angle = math.radians(90 + 360 * i / n)
        dx, dy = math.cos(angle), math.sin(angle)
        px = min(max(cx + 318 * dx, 92), WIDTH - 92)
        py = min(max(cy + 205 * dy, 34), HEIGHT - 34)
        out[seat] = (px, py, cx + 175 * dx, cy + 112 * dy)
    return out


# Sprites: every shape is drawn once at _SS times the size, reduced to the final size (alpha
# premultiplied, so edges blend like the whole picture drawn large), kept, and pasted with its
# alpha. Text is drawn straight at the final size: FreeType anti-aliases it by itself.
def _down(img: Image.Image) -> Image.Image:
    return img.convert("RGBa").reduce(_SS).convert("RGBA")


@_memo
def _background() -> Image.Image:
    """The empty table on the dark background (RGB, final size)."""
    k = _SS
    big = Image.new("RGB", (WIDTH * k, HEIGHT * k), _BG)
    d = ImageDraw.Draw(big)
    d.ellipse([40 * k, 40 * k, (WIDTH - 40) * k, (HEIGHT - 30) * k], fill=_RIM)
    d.ellipse([52 * k, 52 * k, (WIDTH - 52) * k, (HEIGHT - 42) * k], fill=_FELT_EDGE)
    d.ellipse([60 * k, 60 * k, (WIDTH - 60) * k, (HEIGHT - 50) * k], fill=_FELT)
    return big.reduce(k)


@_memo
def _face(code: str, w: int, h: int, highlight: bool = False, turned: bool = False) -> Image.Image:
    img = _down(_card_face(code, w, h, highlight=highlight))
    return img.transpose(Image.Transpose.ROTATE_90) if turned else img


@_memo
def _back(w: int, h: int) -> Image.Image:
    return _down(_card_back(w, h))


@_memo
def _fan(count: int) -> Image.Image:
    """Up to 9 small card backs side by side, 7 pixels apart (a seat's hand)."""
    back = _card_back(16, 23)
    k = _SS
    n = min(count, 9)
    img = Image.new("RGBA", (((n - 1) * 7 + 16) * k, 23 * k), (0, 0, 0, 0))
    for i in range(n):
        img.alpha_composite(back, (i * 7 * k, 0))
    return _down(img)


def _disc(radius: int, fill: tuple[int, int, int], outline: tuple[int, int, int],
          width: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    k = _SS
    size = (2 * radius + 2) * k
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse([k, k, k + 2 * radius * k, k + 2 * radius * k], fill=fill, outline=outline,
              width=width * k)
    return img, d


@_memo
def _stock_badge(count: int) -> Image.Image:
    img, d = _disc(14, _BG, _TEXT, 1)
    d.text((img.width / 2, img.height / 2), str(count), font=_font(15), fill=_TEXT, anchor="mm")
    return _down(img)


@_memo
def _trump_disc(trump: str | None) -> Image.Image:
    img, d = _disc(20, _WHITE, _GOLD, 3)
    c = img.width / 2
    if trump:
        _suit_shape(d, trump, c, c, 24 * _SS, _RED if trump in RED_SUITS else _BLACK)
    else:
        d.text((c, c), "?", font=_font(22), fill=_BLACK, anchor="mm")
    return _down(img)


@_memo
def _dealer_chip() -> Image.Image:
    img, d = _disc(10, _WHITE, _BLACK, 1)
    d.text((img.width / 2, img.height / 2), "D", font=_font(13), fill=_BLACK, anchor="mm")
    return _down(img)


_PLATE_W, _PLATE_H, _GLOW = 168, 52, 5


@_memo
def _plate(colour: tuple[int, int, int], turn: bool) -> Image.Image:
    """A seat's name plate, with a margin of _GLOW pixels (gold when it is that seat's turn)."""
    k = _SS
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
    cx, cy = WIDTH / 2, HEIGHT / 2 + 5
    w, h = _PLATE_W, _PLATE_H
    ang = math.atan2(cy - py, cx - px)
    reach = min(w / 2 / max(abs(math.cos(ang)), 1e-6), h / 2 / max(abs(math.sin(ang)), 1e-6))
    ax, ay = px + math.cos(ang) * (reach + 10), py + math.sin(ang) * (reach + 10)
    tip = (ax + math.cos(ang) * 16, ay + math.sin(ang) * 16)
    left = (ax + math.cos(ang + 2.4) * 12, ay + math.sin(ang + 2.4) * 12)
    right = (ax + math.cos(ang - 2.4) * 12, ay + math.sin(ang - 2.4) * 12)
    # A 40x40 box around (ax, ay) on whole pixels, so the sprite lands exactly where drawn.
    ox, oy = round(ax) - 20, round(ay) - 20
    k = _SS
    img = Image.new("RGBA", (40 * k, 40 * k), (0, 0, 0, 0))
    ImageDraw.Draw(img).polygon([((x - ox) * k, (y - oy) * k) for x, y in (tip, left, right)],
                                fill=_GOLD)
    return _down(img), ox + 20.0, oy + 20.0


def table_picture(
    view: dict[str, Any], names: list[str], *, highlight_winning: bool = True
) -> bytes:
    """A picture of the table as JPEG bytes (800×500; see :data:`PICTURE_FILE`), drawn only
    from what ``view`` shows.

    Seats sit around an oval table, clockwise, with their names, seat numbers, a dealer chip and
    their cards in hand as face-down backs with a count; the seat to act has a gold plate and an
    arrow. The cards of the round in progress (or, while bidding, the bid cards) lie in front of
    their players, the winning one ringed in gold. In the middle: the face-down stock with its
    count, the face-up card under it, and the trump suit in a gold disc ("?" before it is turned).
    Top left: round number / rounds; top right, small: the last round, its winning card ringed.
    Give it the public view for the channel: a hand is never drawn face up.

    Drawn at the final size from cached sprites (see :func:`_down`); safe to call from several
    threads at once.
    """
    n = int(view["players"])
    own = view.get("seat")
    bottom = own if isinstance(own, int) and 0 <= own < n else 0
    canvas = _background().copy()

    positions = _seat_positions(n, bottom)
    cx, cy = WIDTH / 2, HEIGHT / 2 + 5

    # Centre: face-up card under the stock, the stock, the trump disc.
    stock = int(view.get("stock") or 0)
    face_up = view.get("face_up")
    trump = view.get("trump")
    pile = stock - (1 if face_up else 0)
    if face_up:
        # Across and under the stock, sticking out to the left; alone, nearer the centre.
        face = _face(face_up, _CARD_W, _CARD_H, turned=True)
        _paste_centre(canvas, face, cx - 30 if pile > 0 else cx - 5, cy)
    if pile > 0:
        back = _back(_CARD_W, _CARD_H)
        for layer in range(min(3, pile) - 1, -1, -1):
            _paste_centre(canvas, back, cx + 10 + layer * 2, cy - layer * 2)
    if stock > 0:
        _paste_centre(canvas, _stock_badge(stock), cx + 40, cy + 36)
    _paste_centre(canvas, _trump_disc(trump or None), cx + 90, cy - 10)

    # Cards in front of the seats: the round in progress, or the bids while bidding.
    front: list[tuple[int, str]] = []
    if view["phase"] == "bidding":
        front = [(b["seat"], b["card"]) for b in view.get("bids") or [] if b.get("card")]
    elif view["phase"] == "playing":
        front = [(int(s), str(c)) for s, c in view.get("current") or []]
    winning = view.get("winning") if highlight_winning and view["phase"] == "playing" else None
    for seat, code in front:
        if not 0 <= seat < n:
            continue
        img = _face(code, _CARD_W, _CARD_H, seat == winning)
        _paste_centre(canvas, img, positions[seat][2], positions[seat][3])

    # Seats.
    to_act = view.get("to_act") if view["phase"] != "finished" else None
    hand_sizes = view.get("hand_sizes") or [0] * n
    w, h = _PLATE_W, _PLATE_H
    for seat in range(n):
        px, py, _, _ = positions[seat]
        turn = seat == to_act
        colour = _SIDE_COLOURS[view["team_of"][seat] % len(_SIDE_COLOURS)]
        _paste_centre(canvas, _plate(colour, turn), px, py)
        name = _drawable_name(names[seat] if seat < len(names) else "", seat)
        label = _fit(f"{seat + 1}. {name}" if name else f"#{seat + 1}", 15, w - 24)
        _text(canvas, px - w / 2 + 14, py - h / 2 + 6, label, 15, _GOLD if turn else _TEXT)
        count = int(hand_sizes[seat]) if seat < len(hand_sizes) else 0
        left = round(px - w / 2 + 14)
        if count > 0:
            fan = _fan(count)
            canvas.paste(fan, (left, round(py + 1)), fan)
        _text(canvas, px - w / 2 + 14 + min(count, 9) * 7 + 14, py + 5, str(count), 14, _MUTED)
        if seat == view.get("dealer"):
            _paste_centre(canvas, _dealer_chip(), px + w / 2 - 18, py + 12)
        if turn:
            arrow, ax, ay = _arrow(px, py)
            _paste_centre(canvas, arrow, ax, ay)

    # The last round, top right, small: its cards in play order with the seat numbers under
    # them, the card that ate it ringed in gold.
    last = view.get("last_trick")
    if last and view["phase"] != "finished":
        plays = [(int(seat), str(code)) for seat, code in last.get("plays") or []]
        step = 29
        x = WIDTH - 14 - step * len(plays) + step / 2
        for i, (seat, code) in enumerate(plays):
            img = _face(code, 26, 38, seat == last.get("winner"))
            _paste_centre(canvas, img, x + i * step, 30)
            _text(canvas, x + i * step, 60, str(seat + 1), 12, _MUTED, "mm")

    # Round counter, top left.
    if view["phase"] == "playing":
        _text(canvas, 12, 10, f"{view['round']}/{view['rounds_total']}", 16, _MUTED)

    return _encode(canvas)


def _encode(img: Image.Image) -> bytes:
    """The RGB canvas as JPEG bytes (quality 85): about 2 ms and 35-40 KB for a table, where
    even a hand-tuned PNG (zlib level 1, no row filters) took 6-9 ms and Pillow's own PNG encoder
    20+ ms. The picture is flat colours, card faces and short labels, on which quality 85 shows
    no visible artefacts; the text form beside it is the exact record anyway."""
    out = io.BytesIO()
    img.save(out, "JPEG", quality=PICTURE_QUALITY)
    return out.getvalue()
