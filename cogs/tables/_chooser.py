"""The option chooser: a card of a hand that has several legal uses (Cassino: trail, take this
or that, build this or that value) opens its options, a second click makes the move.

Clicking such a card (``alb:o:<table>:<move>:<card>``) edits the private hand in place: its
text, then select menus of that card's options, in the order and the words of the game's
presenter (``card_moves``, ``option_label``) from the engine's structured moves. A select holds
at most 25 options, so the options are split by kind (the presenter names each group:
``option_group``) and then by 25, each menu saying which ones it holds ("Take 26–40 of 40"); a
message holds five rows, so four menus a page and a row of buttons: back to the hand, and the
other pages. Nothing is ever cut.

A menu's id carries the table and the move number (``alb:s:…``); the value chosen is the
action code itself, which the table service checks as it checks any move: a forged value is
refused like a forged move, an old menu is "stale". The Discord layer holds no rule: the
options are the view's ``moves`` of that card.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cogs.i18n import t
from cogs.render.presenter import Presenter
from cogs.ui import buttons
from cogs.ui.views import STYLES, ButtonSpec, StaticView

__all__ = [
    "MENUS_PER_PAGE",
    "OPTIONS_PER_MENU",
    "ChooserView",
    "MenuSpec",
    "chooser_specs",
    "picked_code",
]

OPTIONS_PER_MENU = 25
MENUS_PER_PAGE = 4
_LIMIT = 100  # a select option's label, description and value


@dataclass(frozen=True, slots=True)
class MenuSpec:
    """One select menu as data: its id, placeholder and (label, value, description) options."""

    custom_id: str
    placeholder: str
    options: tuple[tuple[str, str, str | None], ...]


def _fit(text: str) -> tuple[str, str | None]:
    """A label of at most 100 characters, the rest (if any) as the option's description; split
    between words, never mid-word."""
    if len(text) <= _LIMIT:
        return text, None
    cut = text.rfind(" ", 0, _LIMIT)
    cut = cut if cut > 0 else _LIMIT
    rest = text[cut:].strip()
    if len(rest) > _LIMIT:
        rest = rest[: _LIMIT - 1] + "…"
    return text[:cut], rest


def _parts(moves: Sequence[Mapping[str, Any]]) -> Generator[
        tuple[str, int, int, int, Sequence[Mapping[str, Any]]], None, None]:
    """(kind, first, last, total, moves) of every menu: by kind, then by 25."""
    kinds: dict[str, list[Mapping[str, Any]]] = {}
    for m in moves:
        kinds.setdefault(str(m.get("kind")), []).append(m)
    for kind, group in kinds.items():
        for start in range(0, len(group), OPTIONS_PER_MENU):
            chunk = group[start:start + OPTIONS_PER_MENU]
            yield kind, start + 1, start + len(chunk), len(group), chunk


def chooser_specs(view: Mapping[str, Any], table_id: int, lang: str, card: str, page: int = 0,
                  *, shows: Presenter) -> tuple[list[MenuSpec], list[ButtonSpec]]:
    """The menus of ``card``'s options on ``page`` and the buttons under them (back to the
    hand; the other pages when there are more than four menus). No menu when the card has
    fewer than two options (the hand plays it at once, or not at all)."""
    move_no = int(view.get("move_no") or 0)
    legal = set(view.get("legal") or [])
    moves = shows.card_moves(card, [m for m in view.get("moves") or [] if m["code"] in legal])
    parts = list(_parts(moves)) if len(moves) > 1 else []
    pages = max(1, -(-len(parts) // MENUS_PER_PAGE))
    page = min(max(0, page), pages - 1)
    menus = []
    for number, (kind, first, last, total, chunk) in enumerate(parts):
        if number // MENUS_PER_PAGE != page:
            continue
        options = []
        for m in chunk:
            label, description = _fit(shows.option_label(lang, m))
            options.append((label, str(m["code"]), description))
        kind_name = shows.option_group(lang, kind)
        placeholder = kind_name if total == len(chunk) else t(
            lang, "chooser.part", kind=kind_name, first=first, last=last, total=total)
        menus.append(MenuSpec(buttons.pick(table_id, move_no, card, number), placeholder,
                              tuple(options)))
    under = [ButtonSpec(buttons.table_button("refresh", table_id), t(lang, "chooser.back"),
                        row=4)]
    if pages > 1:
        for other in range(pages):
            if other != page:
                under.append(ButtonSpec(
                    buttons.options(table_id, move_no, card, other),
                    t(lang, "chooser.page", page=other + 1, pages=pages), row=4))
    return menus, under


class ChooserView(StaticView):
    """Select menus, one a row, then a row of buttons: sent from their specs like
    :class:`cogs.views.SpecView`."""

    def __init__(self, menus: Sequence[MenuSpec], buttons: Sequence[ButtonSpec]) -> None:
        self.menus = tuple(menus)
        self.buttons = tuple(buttons)
        super().__init__()

    @property
    def children(self) -> list[Any]:
        return [*self.menus, *self.buttons]

    def has_components_v2(self) -> bool:
        return False

    def walk_children(self) -> Generator[Any, None, None]:
        yield from ()

    def to_components(self) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        for menu in self.menus[:MENUS_PER_PAGE]:
            options = []
            for label, value, description in menu.options[:OPTIONS_PER_MENU]:
                option: dict[str, Any] = {"label": label, "value": value}
                if description:
                    option["description"] = description
                options.append(option)
            rows.append({"type": 1, "components": [{
                "type": 3, "custom_id": menu.custom_id, "placeholder": menu.placeholder[:150],
                "min_values": 1, "max_values": 1, "options": options,
            }]})
        if self.buttons:
            rows.append({"type": 1, "components": [
                {"type": 2, "style": STYLES[b.style].value, "disabled": b.disabled,
                 "label": b.label[:80], "custom_id": b.custom_id}
                for b in self.buttons[:5]
            ]})
        return rows


def picked_code(data: Mapping[str, Any] | None) -> str | None:
    """The action code a select menu's interaction chose (its one value); None for anything
    else (no value, several, not a string, longer than a value can be)."""
    values = (data or {}).get("values")
    if not isinstance(values, list) or len(values) != 1:
        return None
    value = values[0]
    if not isinstance(value, str) or not 0 < len(value) <= _LIMIT:
        return None
    return value
