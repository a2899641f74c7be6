"""Buttons: what each message offers, built as plain data first, then as discord.py views.

Builders (``hand_buttons``, ``lobby_buttons``...) are pure: they read the table service's views and
return :class:`ButtonSpec` lists, so what a player can click is testable without Discord. Which
cards are enabled, and the codes they send, come only from the view (``legal`` and ``moves``);
labels and colours of a hand's buttons from the game's presenter (:mod:`cogs.games`): the
Discord layer holds no rules.

The views sent with messages are never stored by discord.py (:class:`StaticView`): every click
reaches the click router (:mod:`cogs.ui.router`), which reads the custom id
(:mod:`cogs.ui.buttons`, which carries all the state a click needs), so nothing expires after
15 minutes and a restart loses nothing.
(discord.py's ``DynamicItem`` dispatch would rebuild a whole View from the clicked message and a
Button per component on every click only to find the one clicked: the id alone is enough.)
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from cogs.games import first_rules_page
from cogs.i18n import t
from cogs.render.presenter import ButtonStyle, Presenter
from cogs.ui import buttons

if TYPE_CHECKING:
    from albastini.table import Table

Style = ButtonStyle
STYLES: dict[str, discord.ButtonStyle] = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """One button as data."""

    custom_id: str
    label: str
    style: Style = "secondary"
    disabled: bool = False
    row: int | None = None

    def __reduce__(self) -> tuple[type[ButtonSpec], tuple[str, str, Style, bool, int | None]]:
        # every hand edit sends its buttons to the courier process: a frozen slots
        # dataclass pickles through Python-level state methods, about twice as slow each way
        return ButtonSpec, (self.custom_id, self.label, self.style, self.disabled, self.row)


# --------------------------------------------------------------------------- builders


def hand_buttons(
    view: dict[str, Any], table_id: int, lang: str, *, shows: Presenter
) -> list[ButtonSpec]:
    """The buttons of a private hand: one per card, enabled only for legal moves.

    Every enabled button is one of the view's ``moves`` and sends its code: a card of the hand
    is enabled when a legal move puts it down, and a move without a card (a pass) gets a button
    of its own after the cards. A card no legal move puts down is shown disabled, with an id
    that is no move (:func:`cogs.ui.buttons.card`). Labels and colours are the game's (its
    presenter's, ``shows``: ``card_button`` and ``move_button``). A Refresh button is always
    there. ``view["legal"]`` has the last word: a move not in it is disabled (a hand that no
    longer follows the game sets it empty).
    """
    move_no = int(view.get("move_no") or 0)
    legal: set[str] = set(view.get("legal") or [])
    moves = [m for m in view.get("moves") or [] if m["code"] in legal]
    by_card = {m["card"]: m for m in moves if m.get("card")}
    uses: dict[str, int] = {}
    for m in moves:
        if m.get("card"):
            uses[m["card"]] = uses.get(m["card"], 0) + 1
    points: dict[str, int] = view.get("card_points") or {}
    hand: list[str] = list(view.get("hand") or [])
    specs: list[ButtonSpec] = []
    for i, card in enumerate(hand[:20]):
        move = by_card.get(card)
        label, style = shows.card_button(
            lang, card, move, moves=moves, points=int(points.get(card, 0))
        )
        custom_id = (
            _card_move_id(table_id, move_no, card, move["code"], uses[card])
            if move is not None
            else buttons.card(table_id, move_no, card)
        )
        specs.append(ButtonSpec(custom_id, label, style, disabled=move is None, row=i // 5))
    rows = _rows_after(len(hand[:20]))
    for move in moves:
        if not move.get("card"):
            label, style = shows.move_button(lang, move)
            custom_id = buttons.move(table_id, move_no, move["code"])
            specs.append(ButtonSpec(custom_id, label, style, row=next(rows)))
    specs.append(
        ButtonSpec(_id("refresh", table_id), t(lang, "button.refresh"),
                   row=next(rows))
    )
    return specs


def _card_move_id(table_id: int, move_no: int, card: str, code: str, uses: int) -> str:
    """A card with one legal use makes it; one with several (Cassino) opens its options, as
    does a move whose id would not fit Discord (:mod:`cogs.chooser`)."""
    if uses == 1:
        try:
            return buttons.move(table_id, move_no, code)
        except ValueError:
            pass
    return buttons.options(table_id, move_no, card)


def _rows_after(cards: int) -> Generator[int, None, None]:
    """The rows of the buttons after ``cards`` card buttons: the row after the cards, five to a
    row, then the next ones (a game with many moves that put down no card, Twenty-Eight's
    bids); the last row takes what is left (:func:`build_view` refuses a row over five)."""
    row = min(4, (cards + 4) // 5)
    used = 0
    while True:
        if used == 5 and row < 4:
            row, used = row + 1, 0
        used += 1
        yield row


def _id(kind: str, table_id: int) -> str:
    """The id of a per-table button (:func:`cogs.ui.buttons.table_button`)."""
    return buttons.table_button(kind, table_id)


def lobby_buttons(table: Table, lang: str) -> list[ButtonSpec]:
    """Join / Leave / Add computer / Start / Cancel (the last three for the host), and Rules."""
    full = all(s is not None for s in table.seats) and len(table.seats) >= table.players
    tid = table.id
    return [
        ButtonSpec(_id("join", tid), t(lang, "button.join"), "success", full),
        ButtonSpec(_id("leave", tid), t(lang, "button.leave")),
        ButtonSpec(
            _id("computer", tid), t(lang, "button.add_computer"), "secondary", full
        ),
        ButtonSpec(_id("start", tid), t(lang, "button.start"), "primary", not full),
        ButtonSpec(_id("cancel", tid), t(lang, "button.cancel"), "danger"),
        ButtonSpec(buttons.rules(first_rules_page(table.game)), t(lang, "button.rules"), row=1),
    ]


def table_buttons(table: Table, lang: str) -> list[ButtonSpec]:
    """Show my hand, I'm back (when someone is away), Leave, Rules."""
    if table.status != "running":
        return []
    tid = table.id
    specs = [ButtonSpec(_id("hand", tid), t(lang, "button.show_hand"), "primary")]
    if any(s is not None and s.user_id is not None and s.away for s in table.seats):
        specs.append(ButtonSpec(_id("back", tid), t(lang, "button.back"), "success"))
    specs.append(ButtonSpec(_id("leave", tid), t(lang, "button.leave")))
    specs.append(ButtonSpec(buttons.rules(first_rules_page(table.game)), t(lang, "button.rules")))
    specs.append(ButtonSpec(buttons.watch(tid), t(lang, "button.watch")))  # spectators
    return specs


def notice_buttons(table_id: int, lang: str) -> list[ButtonSpec]:
    """The turn notice carries a shortcut to the hand."""
    return [ButtonSpec(_id("hand", table_id), t(lang, "button.show_hand"), "primary")]


def leave_confirm_buttons(table_id: int, lang: str) -> list[ButtonSpec]:
    return [
        ButtonSpec(_id("quit", table_id), t(lang, "button.confirm_leave"), "danger"),
        ButtonSpec(_id("refresh", table_id), t(lang, "button.keep_playing")),
    ]


def rematch_buttons(table_id: int, lang: str) -> list[ButtonSpec]:
    return [ButtonSpec(_id("rematch", table_id), t(lang, "button.rematch"), "success"),
            ButtonSpec(buttons.replay_open(table_id), t(lang, "button.replay"))]


def pager_buttons(lang: str, page: int, first: int, last: int,
                  page_id: Callable[[int], str]) -> list[ButtonSpec]:
    """Previous / Next between pages ``first`` to ``last``, on ``page``; ``page_id`` makes the
    id of another page (:func:`leaderboard_pager`, and the rules book's pages)."""
    return [
        ButtonSpec(page_id(page - 1), t(lang, "button.previous"), disabled=page <= first),
        ButtonSpec(page_id(page + 1), t(lang, "button.next"), disabled=page >= last),
    ]


def leaderboard_pager(lang: str, guild_id: int, game: str, *, page: int, pages: int,
                      page_size: int) -> list[ButtonSpec]:
    """Previous / Next for the leaderboard of ``game`` (``page`` 0-based)."""
    return pager_buttons(lang, page, 0, pages - 1,
                         lambda p: buttons.leaderboard(guild_id, p * page_size, game))


def rules_pager(lang: str, *, page: int, pages: int, first_page: int) -> list[ButtonSpec]:
    """Previous / Next in the rules book, within one game's rules: ``pages`` of them from the
    book's page ``first_page``."""
    return pager_buttons(lang, page, first_page, first_page + pages - 1, buttons.rules)


# --------------------------------------------------------------------------- discord.py views


class StaticView(discord.ui.View):
    """A view that discord.py sends but never stores: clicks reach the bot through
    ``on_interaction`` by their custom id, so there is no per-message state and no timeout."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False

    def is_finished(self) -> bool:
        # Never listening. discord.py stores an unfinished view sent with a private response
        # whatever is_dispatchable says, and gives it a 15-minute timer task: one per "Show my
        # hand", kept alive for 15 minutes each (memory, and work for the garbage collector).
        return True


class SpecView(StaticView):
    """A :class:`StaticView` of plain buttons sent straight from their specs: the component
    payload discord.py's own View would send (rows as ``row`` says, else filled in order, five
    wide), without a ``discord.ui.Button`` per button. ``children`` are the specs themselves
    (``custom_id``, ``label``, ``disabled``, ``style``, ``row``)."""

    def __init__(self, specs: Sequence[ButtonSpec]) -> None:
        self.specs = tuple(specs)  # before View.__init__, which reads children
        super().__init__()

    @property
    def children(self) -> list[Any]:
        return list(self.specs)

    def has_components_v2(self) -> bool:
        return False

    def walk_children(self) -> Generator[Any, None, None]:  # no discord.ui item to walk
        yield from ()

    def to_components(self) -> list[dict[str, Any]]:
        return button_rows(self.specs)


def button_rows(specs: Sequence[ButtonSpec]) -> list[dict[str, Any]]:
    """The action rows of these buttons, as discord.py's own View lays them out: in the row a
    spec names, else filled in order, five wide; ValueError for a sixth button in a row."""
    weights = [0, 0, 0, 0, 0]
    rows: dict[int, list[dict[str, Any]]] = {}
    for spec in specs:
        if spec.row is not None:
            row = spec.row
            if weights[row] >= 5:
                raise ValueError(f"row {row} is full")
        else:
            row = next((i for i, w in enumerate(weights) if w < 5), -1)
            if row < 0:
                raise ValueError("could not find open space for a button")
        weights[row] += 1
        rows.setdefault(row, []).append(
            {
                "type": 2,
                "style": STYLES[spec.style].value,
                "disabled": spec.disabled,
                "label": spec.label[:80],
                "custom_id": spec.custom_id,
            }
        )
    return [{"type": 1, "components": rows[row]} for row in sorted(rows)]


def checked(specs: Sequence[ButtonSpec]) -> Sequence[ButtonSpec]:
    """``specs``, which one message can carry (ValueError: more than 25 buttons)."""
    if len(specs) > 25:
        raise ValueError("maximum number of children exceeded")
    return specs


def build_view(specs: Sequence[ButtonSpec]) -> StaticView:
    return SpecView(checked(specs))


def discord_view(specs: Sequence[ButtonSpec]) -> StaticView:
    """The same buttons as discord.ui objects (what :class:`SpecView` must send the same as)."""
    view = StaticView()
    for spec in specs:
        view.add_item(
            discord.ui.Button(
                custom_id=spec.custom_id,
                label=spec.label[:80],
                style=STYLES[spec.style],
                disabled=spec.disabled,
                row=spec.row,
            )
        )
    return view
