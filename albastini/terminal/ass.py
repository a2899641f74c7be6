"""Ass (Жопа) at the terminal: every player's trump, the bets ("go"/"no") and the target each
sets, the banks (everyone starts with 3: rid of them all wins, six lose), the card that holds the
trick and why, and each deal's points against the targets.

Read from views only: ``variant``, ``trumps``, ``bets``, ``targets``, ``first_leader``,
``stock``, ``trick`` (``main_suit``), ``winning_card``/``winning_why``/``winning_over``, the
bets' ``target`` in ``moves``, ``match_banks`` and the deal's ``result``. The match's
``scores`` are the banks negated (for the platform's rankings): never shown; the banks are.
Points stay hidden until a deal is scored, as the rules say: a trick won is told without them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from ..games.interface import MatchLike
from .presenter import Presenter, View
from .words import SUIT_SYMBOLS, Names, card, listed, number, suit

__all__ = ["PRESENTER"]

#: Why the card holding a trick holds it (the view's ``winning_why``), ``{card}``, ``{over}``
#: (the card beaten or interrupted) and ``{suit}`` (the main suit) filled in.
WHY = {
    "lead": "{card} holds: nobody has interrupted it",
    "lead-again": "{card} holds again: the card covering it was killed",
    "cover": "{card} holds: it beats {over}",
    "trump": "{card} holds: its player's trump beats {over}",
    "same-rank": "{card} holds: the same rank as the main card {over}",
    "one-lower": "{card} holds: one step below {over}, nobody else interrupted",
    "eight": "{card} takes over: {suit} are now the main suit",
    "beats-standing": "{card} holds: it beats {over}, which stood since the eight",
}
LOSING_BANKS = 6


def trumps_line(view: View, names: Names) -> str:
    """Whose trump is what (each player's own suit, one or two suits for all, or none)."""
    variant = int(view.get("variant") or 1)
    trumps: list[list[str]] = [list(s) for s in view.get("trumps") or []]
    if variant == 1:
        return "Trumps, each player's own: " + " · ".join(
            f"{names.short(s)} {suit(suits[0])}" for s, suits in enumerate(trumps) if suits)
    suits = trumps[0] if trumps else []
    if not suits:
        return "No trumps at this table"
    if variant == 5 and len(suits) == 2:
        return f"Trumps: {suit(suits[0])} senior, {suit(suits[1])} junior"
    return f"Trump{'s' if len(suits) > 1 else ''} for everyone: {listed([suit(s) for s in suits])}"


class Ass(Presenter):
    """How Ass reads at the terminal."""

    title = "Ass (Жопа)"
    typing = "go or no to bet, a card (AS; TS or 10S for the 10\u2660), or a letter of the menu"
    trick_points = False
    prompt = "Your move (a letter, go or no, a card, ? or q): "
    option_help: ClassVar[Mapping[str, str]] = {
        "trumps": "the trump variant: 1 each player's own suit (2 to 4 players), 2 none, 3 one "
                  "suit for all, 4 two suits, 5 spades senior and diamonds junior (default: 1, "
                  "or 2 for 5 and 6 players)",
    }

    def match_terms(self, match: MatchLike) -> str:
        return "3 banks each: rid of them all wins, 6 lose"

    def score(self, match: MatchLike, view: View, names: Names) -> str:
        banks = view.get("match_banks") or view.get("banks") or []
        parts = [f"{names.short(s)} {b}" for s, b in enumerate(banks)]
        return "Banks: " + " · ".join(parts) + " (rid of them all wins; 6 lose)"

    def head(self, view: View, names: Names, deal_no: int) -> str:
        return super().head(view, names, deal_no) + f" · stock: {int(view.get('stock') or 0)}"

    # ------------------------------------------------------------------ the table
    def table_lines(self, view: View, names: Names) -> list[str]:
        lines = [trumps_line(view, names), self._bets_line(view, names)]
        if view["phase"] == "betting":
            leader = view.get("first_leader")
            lines.append(f"After the bets, {names.seat(int(leader))} leads." if leader is not None
                         else "After the bets, whoever holds the lowest diamond leads.")
        return lines

    @staticmethod
    def _bets_line(view: View, names: Names) -> str:
        targets = list(view.get("targets") or [])
        parts = []
        for seat, bet in enumerate(view.get("bets") or []):
            parts.append(f"{names.short(seat)} …" if bet is None else
                         f"{names.short(seat)} {bet} (target {targets[seat]})")
        return "Bets: " + " · ".join(parts)

    def trick_lines(self, view: View, names: Names) -> list[str]:
        lines = super().trick_lines(view, names)
        main = (view.get("trick") or {}).get("main_suit")
        why = view.get("winning_why")
        if view["phase"] == "playing" and why in WHY and view.get("winning_card") and main:
            over = view.get("winning_over")
            reason = WHY[str(why)].format(card=card(str(view["winning_card"])),
                                          over=card(str(over)) if over else "?",
                                          suit=suit(str(main)))
            lines.insert(1, f"Main suit {SUIT_SYMBOLS.get(str(main), main)} · {reason}")
        return lines

    def _winning(self, view: View, seat: int) -> str:
        return "hold it" if seat == view.get("seat") else "holds it"

    # ------------------------------------------------------------------ moves
    def move_label(self, move: View, view: View) -> str:
        if move.get("kind") in ("go", "no"):
            return f"{move['kind']} (target {move.get('target')})"
        return super().move_label(move, view)

    # ------------------------------------------------------------------ the story
    def said(self, seat: int, code: str, before: View, after: View, names: Names) -> str:
        if code in ("go", "no"):
            target = (after.get("targets") or [None] * (seat + 1))[seat]
            return f"{names.does(seat, 'says', 'say')} {code} (target {target})."
        text = super().said(seat, code, before, after, names)
        trick = after.get("current") or []
        if after.get("winning") == seat and trick and after.get("winning_why") in (
                "eight", "trump", "same-rank", "one-lower"):
            over = after.get("winning_over")
            reason = WHY[str(after["winning_why"])].format(
                card=card(str(after["winning_card"])), over=card(str(over)) if over else "?",
                suit=suit(str((after.get("trick") or {}).get("main_suit") or "?")))
            text += f" ({reason})"
        return text

    def after_move(self, before: View, after: View, names: Names) -> list[str]:
        lines = super().after_move(before, after, names)
        if before["phase"] == "betting" and after["phase"] == "playing":
            leader = after.get("first_leader")
            if leader is not None:
                lines.append(f"The bets are made: {names.seat(int(leader))} "
                             f"{'lead' if leader == names.human else 'leads'} the first trick.")
        return lines

    # ------------------------------------------------------------------ results
    def deal_over(self, view: View, names: Names, deal_no: int) -> list[str]:
        result = view.get("result") or {}
        points = [int(p) for p in result.get("points") or []]
        targets = list(result.get("targets") or [])
        bets = list(result.get("bets") or [])
        changes = [int(b) for b in result.get("banks") or []]
        lines = [f"Deal {deal_no} over."]
        for seat, got in enumerate(points):
            change = changes[seat] if seat < len(changes) else 0
            reached = seat < len(targets) and got >= int(targets[seat])
            outcome = ("drops a bank" if change < 0 else "takes a bank" if change > 0
                       else "no change")
            if seat == names.human:
                outcome = outcome.replace("drops", "you drop").replace("takes", "you take")
            lines.append(f"  {names.seat(seat)}: {number(got, 'point')} of "
                         f"{targets[seat] if seat < len(targets) else '?'} "
                         f"({bets[seat] if seat < len(bets) else '?'}) — "
                         f"{'reached' if reached else 'missed'}: {outcome}")
        return lines

    def match_over(self, match: MatchLike, view: View, names: Names) -> list[str]:
        banks: Sequence[int] = view.get("match_banks") or []
        winners = self.rules.match_winners(match)
        lines = []
        if winners:
            fewest = number(int(banks[winners[0]]), "bank") if banks else ""
            who = listed([names.seat(w) for w in winners])
            win = "win" if len(winners) > 1 or winners[0] == names.human else "wins"
            lines.append(f"The match is over: {who} {win} with {fewest}!")
        losers = [s for s, b in enumerate(banks) if b >= LOSING_BANKS]
        if losers:
            are = "are" if len(losers) > 1 or losers[0] == names.human else "is"
            lines.append(f"{listed([names.seat(s) for s in losers])} {are} the ass (Жопа), "
                         f"with {LOSING_BANKS} banks or more.")
        return lines


PRESENTER = Ass
