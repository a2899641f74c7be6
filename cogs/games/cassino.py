"""How Cassino looks on Discord: its presenter (see :class:`cogs.games.Presenter`).

Cassino is no trick game: a turn plays one card to trail, capture or build. What it shows its own
way: the table's loose cards and builds (each with its value and, for a build, who controls it),
the cards left in the pack, each side's captured cards and sweeps, the deal's scoring items
(cards, spades, Big and Little Cassino, aces, sweeps), and the options of a card, worded from
the engine's structured moves (``kind``, ``card``, ``value``, ``build``, ``items``,
``cards_taken``, ``sweep``): a card with one legal use is played at once, one with several
opens a chooser (:mod:`cogs.chooser`).

Read from the view only (``albastini/games/cassino``): ``table``, ``pack``, ``captured``,
``sweeps``, ``controls``, ``team_of``, ``round``/``rounds``, ``moves`` and ``result``. The
pack and the other hands are never in a public view, so nothing here can show them.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from albastini.games.interface import game
from cogs.i18n import t, tn
from cogs.render import cards
from cogs.render.layout import MIN_TEXT, Box
from cogs.render.picture import SMALL_H, SMALL_W, seat_label, side_labels
from cogs.render.presenter import ButtonStyle, ResultTable, View, score_as_is
from cogs.render.text import TEAM_LETTERS, seat_name

if TYPE_CHECKING:
    from cogs.render.layout import Layout

__all__ = [
    "ACCENT",
    "NAME",
    "RULES_PAGES",
    "action_text",
    "card_button",
    "card_label",
    "card_moves",
    "deal_summary",
    "draw_centre",
    "front_cards",
    "hand_header",
    "hand_shows",
    "item_text",
    "move_button",
    "option_group",
    "option_label",
    "refusal",
    "result_table",
    "score_text",
    "shown_score",
    "spoken_facts",
    "table_facts",
    "table_lines",
    "target_text",
]

#: The game's name in ``albastini.games.GAMES`` (and ``Table.game``).
NAME = "cassino"
#: Pages of its rules in the catalogues (``rules.page.<n>``).
RULES_PAGES = 3
#: The accent colour of its cards: a card room's blue.
ACCENT = 0x2F5D8A
_RULES = game(NAME)
#: Points are the platform's score.
shown_score = score_as_is
_K = "cassino."
#: The scoring items of a deal, in the order the summary lists them.
SCORING = ("cards", "spades", "big_cassino", "little_cassino", "aces", "sweeps")


def _k(key: str) -> str:
    return _K + key


def score_text(lang: str, score: int) -> str:
    """"11 pts"."""
    return tn(lang, _k("picture.score"), score)


def target_text(lang: str, target: int) -> str | None:
    """"First to 21 points"."""
    return tn(lang, _k("picture.target"), target)


# --------------------------------------------------------------------------- cards and items
def card_label(code: str) -> str:
    """A card as players read it: ``"TD"`` -> ``"10♦"``."""
    return cards.pack_card_label(code, _RULES.ranks, "Cassino")


def _cards(codes: Sequence[str]) -> str:
    return "+".join(card_label(c) for c in codes)


def item_text(lang: str, item: View, names: Sequence[str] | None = None) -> str:
    """A table item: "7♣", "the build of 9 (3♠+6♦)", "the double build of 8 (8♣ 8♦)"; with
    ``names``, a build says who controls it."""
    item_cards = list(item.get("cards") or [item.get("id", "?")])
    if item.get("kind") in (None, "card"):
        return card_label(item_cards[0])
    key = "item.compound" if item.get("kind") == "compound" else "item.simple"
    text = t(lang, _k(key), value=item.get("value"), cards=_cards(item_cards))
    ctrl = item.get("controller")
    if names is not None and isinstance(ctrl, int):
        text = t(lang, _k("item.controlled"), item=text, name=seat_name(names, ctrl, lang))
    return text


def _items(lang: str, items: Sequence[View]) -> str:
    return t(lang, _k("item.and")).join(item_text(lang, it) for it in items)


def _solo(view: View) -> bool:
    return int(view.get("team_size") or 1) == 1


def _side(lang: str, view: View, team: int, names: Sequence[str]) -> str:
    if _solo(view):
        return seat_name(names, team, lang)
    return t(lang, "team.name", letter=TEAM_LETTERS[team % len(TEAM_LETTERS)])


# --------------------------------------------------------------------------- the text table
def table_facts(lang: str, view: View) -> list[str]:
    """The cards left in the pack and the round of the deal."""
    return [tn(lang, _k("table.pack"), int(view.get("pack") or 0)),
            t(lang, _k("table.round"), round=view.get("round", 1),
              total=view.get("rounds_total") or view.get("rounds", 1))]


def _table_line(lang: str, view: View, names: Sequence[str]) -> str:
    items = view.get("table") or []
    if not items:
        return t(lang, _k("table.empty"))
    sep = t(lang, "inline.separator")
    return t(lang, _k("table.items"), items=sep.join(item_text(lang, it, names) for it in items))


def _captured_line(lang: str, view: View, names: Sequence[str]) -> str:
    captured = [int(c) for c in view.get("captured") or []]
    sweeps = [int(s) for s in view.get("sweeps") or []]
    sep = t(lang, "inline.separator")
    parts = []
    for team, count in enumerate(captured):
        sw = sweeps[team] if team < len(sweeps) else 0
        text = tn(lang, _k("table.captured_side"), count, side=_side(lang, view, team, names))
        if sw:
            text += " " + tn(lang, _k("table.sweeps"), sw)
        parts.append(text)
    return t(lang, _k("table.captured"), items=sep.join(parts))


def table_lines(lang: str, view: View, names: Sequence[str]) -> list[str]:
    """Every loose card and build (value, controller), then each side's captures and sweeps."""
    lines = [_table_line(lang, view, names), _captured_line(lang, view, names)]
    if view.get("phase") == "finished" and view.get("leftover"):
        who = view.get("last_capturer")
        if isinstance(who, int):
            lines.append(t(lang, _k("table.leftover"), name=seat_name(names, who, lang),
                           cards=_cards(view["leftover"])))
    return lines


def spoken_facts(lang: str, view: View, names: Sequence[str]) -> list[str]:
    """The table's cards and builds, each side's captures, then the pack and the round."""
    return [*table_lines(lang, view, names), *table_facts(lang, view)]


# --------------------------------------------------------------------------- deal results
def deal_summary(lang: str, result: View, side_names: Sequence[str], *, deal_no: int,
                 team_size: int | None) -> str:
    """"Deal 2 — Ana 8: most cards (29) 3, most spades (7) 1, Big Cassino 2, 2 aces 2 · Ben 3:
    Little Cassino 1, 2 aces 2" — every scoring item of every side."""
    items: list[dict[str, int]] = list(result.get("items") or [])
    points = [int(p) for p in result.get("points") or []]
    sides = [side_names[i] if i < len(side_names) else TEAM_LETTERS[i]
             for i in range(len(points))]
    parts = []
    for i, side in enumerate(sides):
        it = items[i] if i < len(items) else {}
        got = []
        for key in SCORING:
            score = int(it.get(key, 0))
            if not score:
                continue
            got.append(tn(lang, _k(f"summary.{key}"), score,
                          n_cards=it.get("n_cards", 0), n_spades=it.get("n_spades", 0),
                          aces=it.get("aces", 0), sweeps=it.get("sweeps", 0)))
        what = t(lang, "list.separator").join(got) if got else t(lang, _k("summary.nothing"))
        parts.append(t(lang, _k("summary.side"), side=side, points=points[i], items=what))
    return t(lang, _k("summary.line"), deal=deal_no,
             sides=t(lang, "inline.separator").join(parts))


def result_table(lang: str, result: View, side_names: Sequence[str]) -> ResultTable:
    """Each side's cards, spades and points; the note names who won the items that are not
    counts (Big and Little Cassino, aces, sweeps)."""
    points = [int(p) for p in result.get("points") or []]
    items: list[dict[str, int]] = list(result.get("items") or [])
    sides = [side_names[i] if i < len(side_names) else TEAM_LETTERS[i]
             for i in range(len(points))]

    def item(i: int, key: str) -> int:
        return int(items[i].get(key, 0)) if i < len(items) else 0

    rows = tuple((str(item(i, "n_cards")), str(item(i, "n_spades")), str(p))
                 for i, p in enumerate(points))
    notes = []
    for key in ("big_cassino", "little_cassino"):
        won = [sides[i] for i in range(len(points)) if item(i, key)]
        if won:
            notes.append(t(lang, _k(f"picture.{key}"), side=won[0]))
    for key, what in (("aces", "aces"), ("sweeps", "sweeps_won")):
        got = [f"{sides[i]} {item(i, key)}" for i in range(len(points)) if item(i, key)]
        if got:
            notes.append(t(lang, _k(f"picture.{what}"), items=", ".join(got)))
    columns = (t(lang, _k("picture.cards")), t(lang, _k("picture.spades")),
               t(lang, _k("picture.points")))
    return ResultTable(columns, rows, t(lang, "inline.separator").join(notes))


# --------------------------------------------------------------------------- the hand
def _seat(view: View) -> int | None:
    seat = view.get("seat")
    return seat if isinstance(seat, int) else None


def hand_header(lang: str, view: View, names: Sequence[str]) -> str:
    """Whose turn it is, the table as it lies (so a choice needs no other message), and the
    builds this seat must keep a card for."""
    if view["phase"] == "finished":
        return t(lang, "hand.finished")
    seat = _seat(view)
    to_act = view.get("to_act")
    if seat is not None and to_act == seat:
        lines = [t(lang, _k("hand.your_turn"), round=view.get("round", 1),
                   total=view.get("rounds_total") or view.get("rounds", 1))]
    else:
        lines = [t(lang, _k("hand.waiting"),
                   name=seat_name(names, int(to_act), lang) if to_act is not None else "?")]
    lines.append(_table_line(lang, view, names))
    controls = view.get("controls") or []
    if seat is not None and seat < len(controls) and controls[seat]:
        values = ", ".join(str(v) for v in sorted(set(controls[seat])))
        lines.append(t(lang, _k("hand.controls"), values=values))
    if not view.get("hand") and seat is not None:
        lines.append(t(lang, "hand.empty"))
    return "\n".join(lines)


def hand_shows(view: View) -> Hashable:
    """The table (its items, values and controllers) that the hand's header shows."""
    return tuple(
        (it.get("id"), tuple(it.get("cards") or ()), it.get("value"), it.get("controller"))
        for it in view.get("table") or ()
    )


# --------------------------------------------------------------------------- moves as words
def _parse(code: str) -> tuple[str, str, str, list[str]]:
    """(kind, card, value, item names) of an action code; value "" but for builds."""
    parts = code.split(":")
    kind = parts[0]
    card = parts[1] if len(parts) > 1 else ""
    value = parts[2] if kind == "build" and len(parts) > 3 else ""
    items = parts[-1] if kind in ("capture", "build") and len(parts) > 2 else ""
    return kind, card, value, [items[i:i + 2] for i in range(0, len(items), 2)]


def action_text(lang: str, code: str, by: str | None) -> str:
    """"Ana trailed 7♣", "Ana captured with 9♥ (3♠, 6♦)", "Ana built 10 with 2♦ (on 8♣)";
    to its maker ("Your 7♣ was trailed.") when ``by`` is None. Builds and captures name the
    table items by their lowest card, as the code does."""
    kind, card, value, items = _parse(code)
    try:
        shown = card_label(card)
        named = ", ".join(card_label(i) for i in items)
    except (ValueError, KeyError):
        return code
    if kind not in ("trail", "capture", "build"):
        return code
    key = f"counted.{kind}" if by is None else f"event.{kind}"
    return t(lang, _k(key), name=by or "", card=shown, items=named, value=value)


def option_label(lang: str, move: View) -> str:
    """One option of a card, from the move's structured fields: "Take 7♣ and the build of 9
    (3♠+6♦) with 9♥ — sweep!", "Build 10 on 8♣ with 2♦", "Trail 7♣"."""
    kind = move.get("kind")
    card = card_label(str(move.get("card")))
    items = _items(lang, move.get("items") or [])
    if kind == "trail":
        return t(lang, _k("option.trail"), card=card)
    if kind == "capture":
        text = tn(lang, _k("option.capture"), int(move.get("cards_taken") or 0),
                  items=items, card=card)
        return text + (t(lang, _k("option.sweep")) if move.get("sweep") else "")
    if kind == "build":
        key = "option.build_compound" if move.get("build") == "compound" else "option.build"
        return t(lang, _k(key), value=move.get("value"), items=items, card=card)
    return str(move.get("label") or move.get("code"))


def option_group(lang: str, kind: str) -> str:
    """The chooser's menu of one kind of move: "Trail", "Take", "Build"."""
    return t(lang, _k(f"chooser.kind.{kind}"))


def card_moves(card: str, moves: Sequence[View]) -> list[View]:
    """The legal moves that play ``card``, trail first, then captures, then builds."""
    order = {"trail": 0, "capture": 1, "build": 2}
    mine = [m for m in moves if m.get("card") == card]
    return sorted(mine, key=lambda m: (order.get(str(m.get("kind")), 3), str(m.get("code"))))


#: The engine's reasons for refusing a move -> the catalogue's sentence (its details fill it).
_REFUSALS = {"finished": "refuse.deal_over"} | {
    rule: _K + f"refuse.{rule}"
    for rule in ("not_in_hand", "can_capture", "controls_build", "item_order", "no_item",
                 "keep_control", "face_build", "face_capture", "face_item", "compound_value",
                 "bad_sum", "build_value", "must_hold_value", "bad_build")
}


def refusal(lang: str, rule: str, details: View) -> str | None:
    """The rules' reasons as sentences (they name only the player's own cards and the table)."""
    key = _REFUSALS.get(rule)
    if key is None:
        return None
    fill: dict[str, Any] = {"value": details.get("value", "?")}
    for name in ("card", "item"):
        code = str(details.get(name, ""))
        try:
            fill[name] = card_label(code)
        except (ValueError, KeyError):
            fill[name] = "?"
    return t(lang, key, **fill)


# --------------------------------------------------------------------------- buttons
def card_button(lang: str, card: str, move: View | None, *, moves: Sequence[View],
                points: int) -> tuple[str, ButtonStyle]:
    """"7♣ — trail" (one use: a click plays it), "9♥ — 3 choices" (a click opens them), and
    a grey card when no move plays it."""
    label = card_label(card)
    if move is None:
        return label, "secondary"
    mine = card_moves(card, moves)
    if len(mine) > 1:
        return tn(lang, _k("button.choices"), len(mine), card=label), "primary"
    kind = str(move.get("kind"))
    style: ButtonStyle = "success" if kind == "capture" else "primary"
    return t(lang, _k(f"button.{kind}"), card=label, value=move.get("value")), style


def move_button(lang: str, move: View) -> tuple[str, ButtonStyle]:
    """Cassino has no move that plays no card; a stray one shows its words."""
    return option_label(lang, move), "primary"


# --------------------------------------------------------------------------- the picture
def front_cards(view: View) -> list[tuple[int, str]]:
    """Nothing lies in front of a player: the cards are on the table (:func:`draw_centre`)."""
    return []


_ITEM_GAP = 10  # between the table's items, so that two never read as one pile


def _item_size(layout: Layout, lang: str, item: View, names: Sequence[str],
               labelled: int) -> tuple[float, float, list[str]]:
    """Width, height and label lines of one table item: a loose card alone; a build fanned,
    with its value and (``labelled`` 2) its controller's name under it."""
    item_cards = list(item.get("cards") or [item.get("id")])
    if item.get("kind") in (None, "card"):
        return SMALL_W, SMALL_H, []
    fan = min(3, len(item_cards)) - 1
    lines = [t(lang, _k("picture.build"), value=item.get("value"))]
    ctrl = item.get("controller")
    if labelled > 1 and isinstance(ctrl, int):
        lines.append(layout.fit(seat_label(lang, names, ctrl), 100))
    width = max([SMALL_W + 7.0 * fan, *(layout.width_of(x) for x in lines)])
    return width, SMALL_H + 7.0 * fan + 24 * len(lines), lines


def _rows(sizes: list[tuple[float, float, list[str]]], room: Box) -> list[list[int]] | None:
    """The items' indexes row by row within ``room``'s width; None if they are too tall."""
    rows: list[list[int]] = [[]]
    width = 0.0
    for i, (w, _h, _lines) in enumerate(sizes):
        if rows[-1] and width + _ITEM_GAP + w > room.width:
            rows.append([])
            width = 0.0
        width += (_ITEM_GAP if rows[-1] else 0) + w
        rows[-1].append(i)
    height = sum(max(sizes[i][1] for i in row) for row in rows if row) + _ITEM_GAP * (
        len(rows) - 1)
    return rows if height <= room.height else None


def _lay_table(layout: Layout, lang: str, items: list[View], names: Sequence[str]) -> None:
    """The table's items in rows across the middle: full labels if they fit, else builds
    labelled by their value only, else as many items as fit and "+N more" under them."""
    room = layout.open
    shown = list(items)
    sizes: list[tuple[float, float, list[str]]] = []
    rows = None
    for labelled in (2, 1):
        sizes = [_item_size(layout, lang, it, names, labelled) for it in shown]
        rows = _rows(sizes, room)
        if rows is not None:
            break
    if rows is None:  # keep a line under the rows for the word about the others
        room = Box(room.x0, room.y0, room.x1, room.y1 - 26)
    while rows is None and shown:
        shown.pop()
        sizes.pop()
        rows = _rows(sizes, room)
    if not shown or rows is None:
        return
    heights = [max(sizes[i][1] for i in row) for row in rows]
    y = room.centre[1] - (sum(heights) + _ITEM_GAP * (len(rows) - 1)) / 2
    for row, height in zip(rows, heights, strict=True):
        width = sum(sizes[i][0] for i in row) + _ITEM_GAP * (len(row) - 1)
        x = room.centre[0] - width / 2
        for i in row:
            w, _h, lines = sizes[i]
            _lay_item(layout, f"table {i}", shown[i], x + w / 2, y, lines)
            x += w + _ITEM_GAP
        y += height + _ITEM_GAP
    if len(shown) < len(items):
        more = tn(lang, _k("picture.more"), len(items) - len(shown))
        layout.text("table more", room.centre[0], room.y1 + 4, more, anchor="ma", tone="muted")


def _lay_item(layout: Layout, group: str, item: View, cx: float, top: float,
              lines: list[str]) -> None:
    item_cards = [str(c) for c in item.get("cards") or [item.get("id")]]
    if item.get("kind") in (None, "card"):
        layout.card(group, item_cards[0], cx, top + SMALL_H / 2, SMALL_W, SMALL_H)
        return
    fanned = item_cards[-3:]
    for j, code in enumerate(fanned):
        dx = (j - (len(fanned) - 1) / 2) * 7
        layout.card(group, code, cx + dx, top + SMALL_H / 2 + 7 * (len(fanned) - 1) / 2 - dx,
                    SMALL_W, SMALL_H)
    y = top + SMALL_H + 7 * (len(fanned) - 1) + 2
    for line in lines:
        layout.text(group, cx, y, line, anchor="ma")
        y += 24


def draw_centre(layout: Layout, lang: str, view: View, names: Sequence[str]) -> None:
    """The table as players lay it: loose cards and builds (fanned, with their value and
    who holds them) in rows across the middle; bottom left the pack face down with its
    count; bottom right each side's captured cards and sweeps, in words."""
    _lay_table(layout, lang, list(view.get("table") or []), names)
    pack = int(view.get("pack") or 0)
    corner = layout.corners["left"]
    if pack:
        x, y = corner.x0 + 30, corner.centre[1] + 4
        layout.pile("pack", pack, x, y, SMALL_W, SMALL_H)
        layout.text("pack", x + SMALL_W / 2 + 12, y, t(lang, _k("picture.pack"), count=pack),
                    anchor="lm")
    captured = [int(c) for c in view.get("captured") or []]
    if not captured:
        return
    sweeps = [int(s) for s in view.get("sweeps") or []]
    corner = layout.corners["right"]
    sides = side_labels(lang, view, names)
    lines = [t(lang, _k("picture.captured"))]
    for side, count in enumerate(captured):
        name = sides[side] if side < len(sides) else "?"
        swept = sweeps[side] if side < len(sweeps) else 0
        rest = t(lang, "inline.separator") + tn(lang, _k("picture.sweeps"), swept) if swept else ""
        # the name gives way first: the counts are the news
        room = corner.width - layout.width_of(
            tn(lang, _k("picture.captured_side"), count, side="") + rest)
        text = tn(lang, _k("picture.captured_side"), count, side=layout.fit(name, room)) + rest
        lines.append(layout.fit(text, corner.width))
    y = corner.y1 - 24 * len(lines) + 2
    for i, line in enumerate(lines):
        layout.text("captured", corner.x1, y + 24 * i, line, MIN_TEXT, anchor="ra",
                    tone="muted" if i == 0 else "light")
