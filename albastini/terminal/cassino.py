"""Cassino at the terminal: the cards and builds on the table (a build's value and who controls
it), every side's captures and sweeps, the moves by the game's own labels ("Take 5♠ with 5♣",
"Build 8 on 5♠ with 3♣"), the story of each play, and the deal's points item by item.

Read from views only: ``table`` (its items), ``captured``, ``sweeps``, ``pack``, the moves'
``label``/``items``/``sweep``, ``last_trick`` (the latest capture), ``leftover``,
``last_capturer`` and the deal's ``result``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .presenter import Presenter, View
from .words import Names, card, listed, number

__all__ = ["PRESENTER"]

#: A deal's scoring items, in the order the rules list them: (key, words).
SCORING = (
    ("cards", "most cards"),
    ("spades", "most spades"),
    ("big_cassino", "Big Cassino (10\u2666)"),
    ("little_cassino", "Little Cassino (2\u2660)"),
    ("aces", "aces"),
    ("sweeps", "sweeps"),
)


def item_text(item: View, names: Names | None = None) -> str:
    """A table item: ``"7♣"``, ``"the build of 9 (3♠+6♦)"``, ``"the build of 8s (8♣+8♦,
    Seat 2's)"`` (with ``names``, who controls a build)."""
    held = [str(c) for c in item.get("cards") or [item.get("id")]]
    if item.get("kind") in (None, "card"):
        return card(held[0])
    plural = "s" if item.get("kind") == "compound" else ""
    text = f"the build of {item.get('value')}{plural} ({'+'.join(card(c) for c in held)}"
    ctrl = item.get("controller")
    if names is not None and isinstance(ctrl, int):
        text += f", {'yours' if ctrl == names.human else names.short(ctrl) + chr(39) + 's'}"
    return text + ")"


def _items(items: Sequence[View]) -> str:
    return listed([item_text(it) for it in items])


class Cassino(Presenter):
    """How Cassino reads at the terminal."""

    title = "Cassino"
    typing = ("a letter of the menu, or a card (5S; TD or 10D for the 10\u2666) when it has one "
              "move (a card with several lists them)")
    target_help = "the points that win a match"
    round_word = "Round"

    def head(self, view: View, names: Names, deal_no: int) -> str:
        head = super().head(view, names, deal_no)
        return head + f" · pack: {number(int(view.get('pack') or 0), 'card')}"

    # ------------------------------------------------------------------ the table
    def table_lines(self, view: View, names: Names) -> list[str]:
        items = view.get("table") or []
        shown = " · ".join(item_text(it, names) for it in items) or "empty"
        captured = [int(c) for c in view.get("captured") or []]
        sweeps = [int(s) for s in view.get("sweeps") or []]
        piles = []
        for team, count in enumerate(captured):
            swept = (f", {number(sweeps[team], 'sweep')}"
                     if team < len(sweeps) and sweeps[team] else "")
            piles.append(f"{names.side(team)} {number(count, 'card')}{swept}")
        return [f"On the table: {shown}", "Captured: " + " · ".join(piles)]

    def trick_lines(self, view: View, names: Names) -> list[str]:
        return []  # no tricks: the table shows everything

    # ------------------------------------------------------------------ moves
    def move_label(self, move: View, view: View) -> str:
        label = super().move_label(move, view)
        return label + (" — a sweep!" if move.get("sweep") else "")

    def card_move(self, code: str, view: View) -> str:
        """A card no legal move plays: asked as a trail (the rules say why it may not)."""
        return f"trail:{code}"

    # ------------------------------------------------------------------ the story
    def said(self, seat: int, code: str, before: View, after: View, names: Names) -> str:
        parts = code.split(":")
        kind, played = parts[0], card(parts[1]) if len(parts) > 1 else "?"
        named = parts[-1] if kind in ("capture", "build") else ""
        by_id = {str(it["id"]): it for it in before.get("table") or []}
        items = [by_id[named[i:i + 2]] for i in range(0, len(named), 2)
                 if named[i:i + 2] in by_id]
        if kind == "trail":
            return f"{names.does(seat, 'trails', 'trail')} {played}."
        if kind == "capture":
            sweep = " A sweep!" if (after.get("last_trick") or {}).get("sweep") else ""
            return f"{names.does(seat, 'takes', 'take')} {_items(items)} with {played}.{sweep}"
        if kind == "build" and len(parts) == 4:
            return (f"{names.does(seat, 'builds', 'build')} {parts[2]} on {_items(items)} "
                    f"with {played}.")
        return super().said(seat, code, before, after, names)

    def after_move(self, before: View, after: View, names: Names) -> list[str]:
        lines = []
        if after["phase"] == "playing" and after.get("round") != before.get("round"):
            lines.append(f"Round {after['round']} of {after.get('rounds_total')}: four new cards "
                         f"each (pack: {number(int(after.get('pack') or 0), 'card')}).")
        leftover = after.get("leftover") or []
        who = after.get("last_capturer")
        if after["phase"] == "finished" and leftover and who is not None:
            lines.append(f"The cards left on the table ({', '.join(card(c) for c in leftover)}) "
                         f"go to {names.seat(int(who))}, the last to capture.")
        return lines

    # ------------------------------------------------------------------ results
    def deal_over(self, view: View, names: Names, deal_no: int) -> list[str]:
        result = view.get("result") or {}
        points = [int(p) for p in result.get("points") or []]
        lines = [f"Deal {deal_no} over."]
        for team, items in enumerate(result.get("items") or []):
            got = []
            for key, words in SCORING:
                score = int(items.get(key, 0))
                if not score:
                    continue
                counted = {"cards": f" ({items.get('n_cards')})",
                           "spades": f" ({items.get('n_spades')})"}.get(key, "")
                got.append(f"{words}{counted} {score}")
            lines.append(f"  {names.side(team)}: {number(points[team], 'point')}"
                         + (f" — {', '.join(got)}" if got else ""))
        return lines


PRESENTER = Cassino
