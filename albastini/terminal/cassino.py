"""Cassino at the terminal: the cards and builds on the table (a build's value and who controls
it), every side's captures and sweeps, the moves in words ("Take 5♠ with 5♣", "Build 8 on 5♠
with 3♣"), the story of each play, and the deal's points item by item.

Read from views only: ``table`` (its items), ``captured``, ``sweeps``, ``pack``, the moves'
``kind``/``card``/``value``/``build``/``items``/``sweep`` (the game's English ``label`` is
said again in the person's language from them), ``last_trick`` (the latest capture),
``leftover``, ``last_capturer`` and the deal's ``result``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .presenter import Presenter, View
from .words import Names, card

__all__ = ["PRESENTER"]

K = "cassino."
#: A deal's scoring items, in the order the rules list them (the catalogue's
#: ``cassino.scoring.<item>``).
SCORING = ("cards", "spades", "big_cassino", "little_cassino", "aces", "sweeps")


class Cassino(Presenter):
    """How Cassino reads at the terminal."""

    def item_text(self, item: View, names: Names | None = None) -> str:
        """A table item: ``"7♣"``, ``"the build of 9 (3♠+6♦)"``, ``"the build of 8s (8♣+8♦,
        Seat 2's)"`` (with ``names``, who controls a build)."""
        held = [str(c) for c in item.get("cards") or [item.get("id")]]
        if item.get("kind") in (None, "card"):
            return card(held[0])
        kind = "compound" if item.get("kind") == "compound" else "simple"
        shown = "+".join(card(c) for c in held)
        ctrl = item.get("controller")
        if names is not None and isinstance(ctrl, int):
            shown += ", " + (self.tr(K + "held.you") if ctrl == names.human else
                             self.tr(K + "held.other", name=names.short(ctrl)))
        return self.tr(K + f"item.{kind}", value=item.get("value"), cards=shown)

    def _items(self, items: Sequence[View]) -> str:
        return self.tr.listed([self.item_text(it) for it in items])

    def head(self, view: View, names: Names, deal_no: int) -> str:
        return super().head(view, names, deal_no) + " · " + self.tr.n(
            K + "pack", int(view.get("pack") or 0))

    # ------------------------------------------------------------------ the table
    def table_lines(self, view: View, names: Names) -> list[str]:
        tr = self.tr
        items = view.get("table") or []
        shown = " · ".join(self.item_text(it, names) for it in items) or tr(K + "empty")
        captured = [int(c) for c in view.get("captured") or []]
        sweeps = [int(s) for s in view.get("sweeps") or []]
        piles = []
        for team, count in enumerate(captured):
            swept = (", " + tr.n(K + "sweeps", sweeps[team])
                     if team < len(sweeps) and sweeps[team] else "")
            piles.append(f"{names.side(team)} {tr.n(K + 'cards', count)}{swept}")
        return [tr(K + "table", items=shown), tr(K + "captured", piles=" · ".join(piles))]

    def trick_lines(self, view: View, names: Names) -> list[str]:
        return []  # no tricks: the table shows everything

    # ------------------------------------------------------------------ moves
    def move_label(self, move: View, view: View) -> str:
        kind = move.get("kind")
        if kind not in ("trail", "capture", "build") or not move.get("card"):
            return super().move_label(move, view)
        held = card(str(move["card"]))
        items = self._items(move.get("items") or [])
        if kind == "trail":
            return self.tr(K + "move.trail", card=held)
        if kind == "build":
            return self.tr(K + "move.build", value=move.get("value"), items=items, card=held)
        return self.tr(K + "move.capture", items=items, card=held) + (
            self.tr(K + "move.sweep") if move.get("sweep") else "")

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
            return names.does(K + "said.trail", seat, card=played)
        if kind == "capture":
            sweep = (" " + self.tr(K + "said.sweep")
                     if (after.get("last_trick") or {}).get("sweep") else "")
            return names.does(K + "said.capture", seat, items=self._items(items),
                              card=played) + sweep
        if kind == "build" and len(parts) == 4:
            return names.does(K + "said.build", seat, value=parts[2], items=self._items(items),
                              card=played)
        return super().said(seat, code, before, after, names)

    def after_move(self, before: View, after: View, names: Names) -> list[str]:
        lines = []
        if after["phase"] == "playing" and after.get("round") != before.get("round"):
            lines.append(self.tr(K + "new_round", round=after["round"],
                                 total=after.get("rounds_total"),
                                 pack=self.tr.n(K + "cards", int(after.get("pack") or 0))))
        leftover = after.get("leftover") or []
        who = after.get("last_capturer")
        if after["phase"] == "finished" and leftover and who is not None:
            lines.append(self.tr(K + "leftover", cards=", ".join(card(c) for c in leftover),
                                 name=names.seat(int(who))))
        return lines

    # ------------------------------------------------------------------ results
    def deal_over(self, view: View, names: Names, deal_no: int) -> list[str]:
        tr = self.tr
        result = view.get("result") or {}
        points = [int(p) for p in result.get("points") or []]
        lines = [tr("over.deal", deal=deal_no)]
        for team, items in enumerate(result.get("items") or []):
            got = [tr(K + f"scoring.{key}", score=int(items.get(key, 0)),
                      n_cards=items.get("n_cards"), n_spades=items.get("n_spades"))
                   for key in SCORING if int(items.get(key, 0))]
            line = f"  {names.side(team)}: {tr.n(K + 'points', points[team])}"
            lines.append(line + (f" — {', '.join(got)}" if got else ""))
        return lines


PRESENTER = Cassino
