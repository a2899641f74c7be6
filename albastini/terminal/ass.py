"""Ass (Жопа) at the terminal: every player's trump, the bets ("go"/"no") and the target each
sets, the banks (everyone starts with 3: rid of them all wins, six lose), the card that holds the
trick and why, and each deal's points against the targets.

Read from views only: ``variant``, ``trumps``, ``bets``, ``targets``, ``first_leader``,
``stock``, ``trick`` (``main_suit``), ``winning_card``/``winning_why``/``winning_over``, the
bets' ``target`` in ``moves``, ``match_banks`` and the deal's ``result``. The match's
``scores`` are the banks negated (for the platform's rankings): never shown; the banks are.
Points stay hidden until a deal is scored, as the rules say: a trick won is told without them.
The bets are typed ``go`` and ``no`` in every language; they read as the language says them
(«иду», «пас»).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..games.interface import MatchLike
from .presenter import Presenter, View
from .texts import SUIT_SYMBOLS
from .words import Names, card

__all__ = ["PRESENTER"]

K = "ass."
#: Why the card holding a trick holds it (the view's ``winning_why``): the catalogue's
#: ``ass.why.<why>``, with ``{card}``, ``{over}`` (the card beaten or interrupted) and
#: ``{suit}`` (the main suit) filled in.
WHY = ("lead", "lead-again", "cover", "trump", "same-rank", "one-lower", "eight",
       "beats-standing")
LOSING_BANKS = 6


class Ass(Presenter):
    """How Ass reads at the terminal."""

    trick_points = False

    def match_terms(self, match: MatchLike) -> str:
        return self.tr(K + "terms")

    def score(self, match: MatchLike, view: View, names: Names) -> str:
        banks = view.get("match_banks") or view.get("banks") or []
        parts = [f"{names.short(s)} {b}" for s, b in enumerate(banks)]
        return self.tr(K + "banks", banks=" · ".join(parts))

    def head(self, view: View, names: Names, deal_no: int) -> str:
        return super().head(view, names, deal_no) + " · " + self.tr(
            K + "stock", count=int(view.get("stock") or 0))

    def bet(self, code: object) -> str:
        """A bet as the language says it: ``go`` -> «иду» in Russian."""
        return self.tr(K + f"bet.{code}") if code in ("go", "no") else str(code)

    def trumps_line(self, view: View, names: Names) -> str:
        """Whose trump is what (each player's own suit, one or two suits for all, or none)."""
        tr = self.tr
        variant = int(view.get("variant") or 1)
        trumps: list[list[str]] = [list(s) for s in view.get("trumps") or []]
        if variant == 1:
            return tr(K + "trumps.own", items=" · ".join(
                f"{names.short(s)} {tr.suit(suits[0])}" for s, suits in enumerate(trumps)
                if suits))
        suits = trumps[0] if trumps else []
        if not suits:
            return tr(K + "trumps.none")
        if variant == 5 and len(suits) == 2:
            return tr(K + "trumps.senior", senior=tr.suit(suits[0]), junior=tr.suit(suits[1]))
        return tr.n(K + "trumps.all", len(suits), suits=tr.listed([tr.suit(s) for s in suits]))

    # ------------------------------------------------------------------ the table
    def table_lines(self, view: View, names: Names) -> list[str]:
        lines = [self.trumps_line(view, names), self._bets_line(view, names)]
        if view["phase"] == "betting":
            leader = view.get("first_leader")
            lines.append(names.does(K + "leads_after_bets", int(leader)) if leader is not None
                         else self.tr(K + "lowest_diamond_leads"))
        return lines

    def _bets_line(self, view: View, names: Names) -> str:
        targets = list(view.get("targets") or [])
        parts = []
        for seat, bet in enumerate(view.get("bets") or []):
            parts.append(f"{names.short(seat)} …" if bet is None else self.tr(
                K + "bet_of", name=names.short(seat), bet=self.bet(bet), target=targets[seat]))
        return self.tr(K + "bets", items=" · ".join(parts))

    def _why(self, view: View) -> str:
        """Why the card holding the trick holds it (``view`` has a ``winning_why``)."""
        over = view.get("winning_over")
        main = (view.get("trick") or {}).get("main_suit")
        return self.tr(K + f"why.{view['winning_why']}", card=card(str(view["winning_card"])),
                       over=card(str(over)) if over else "?",
                       suit=self.tr.suit(str(main or "?")))

    def trick_lines(self, view: View, names: Names) -> list[str]:
        lines = super().trick_lines(view, names)
        main = (view.get("trick") or {}).get("main_suit")
        why = view.get("winning_why")
        if view["phase"] == "playing" and why in WHY and view.get("winning_card") and main:
            lines.insert(1, self.tr(K + "main_suit", suit=SUIT_SYMBOLS.get(str(main), main),
                                    why=self._why(view)))
        return lines

    # ------------------------------------------------------------------ moves
    def move_label(self, move: View, view: View) -> str:
        if move.get("kind") in ("go", "no"):
            return self.tr(K + "move.bet", bet=self.bet(move["kind"]), target=move.get("target"))
        return super().move_label(move, view)

    # ------------------------------------------------------------------ the story
    def said(self, seat: int, code: str, before: View, after: View, names: Names) -> str:
        if code in ("go", "no"):
            target = (after.get("targets") or [None] * (seat + 1))[seat]
            return names.does(K + "said.bet", seat, bet=self.bet(code), target=target)
        text = super().said(seat, code, before, after, names)
        trick = after.get("current") or []
        if after.get("winning") == seat and trick and after.get("winning_why") in (
                "eight", "trump", "same-rank", "one-lower"):
            text += f" ({self._why(after)})"
        return text

    def after_move(self, before: View, after: View, names: Names) -> list[str]:
        lines = super().after_move(before, after, names)
        if before["phase"] == "betting" and after["phase"] == "playing":
            leader = after.get("first_leader")
            if leader is not None:
                lines.append(names.does(K + "bets_made", int(leader)))
        return lines

    # ------------------------------------------------------------------ results
    def deal_over(self, view: View, names: Names, deal_no: int) -> list[str]:
        tr = self.tr
        result = view.get("result") or {}
        points = [int(p) for p in result.get("points") or []]
        targets = list(result.get("targets") or [])
        bets = list(result.get("bets") or [])
        changes = [int(b) for b in result.get("banks") or []]
        lines = [tr("over.deal", deal=deal_no)]
        for seat, got in enumerate(points):
            change = changes[seat] if seat < len(changes) else 0
            target = targets[seat] if seat < len(targets) else "?"
            reached = seat < len(targets) and got >= int(targets[seat])
            outcome = (names.does(K + "outcome.drop", seat) if change < 0 else
                       names.does(K + "outcome.take", seat) if change > 0 else
                       tr(K + "outcome.keep"))
            lines.append("  " + tr(K + "over.line", name=names.seat(seat),
                                   points=tr.n(K + "points", got), target=target,
                                   bet=self.bet(bets[seat]) if seat < len(bets) else "?",
                                   result=tr(K + ("reached" if reached else "missed")),
                                   outcome=outcome))
        return lines

    def match_over(self, match: MatchLike, view: View, names: Names) -> list[str]:
        tr = self.tr
        banks: Sequence[int] = view.get("match_banks") or []
        winners = self.rules.match_winners(match)
        lines = []
        fewest = tr.n(K + "bank_count", int(banks[winners[0]])) if winners and banks else ""
        if len(winners) > 1:
            lines.append(tr(K + "match.win_shared", names=tr.listed(
                [names.seat(w) for w in winners]), banks=fewest))
        elif winners:
            lines.append(names.does(K + "match.win", winners[0], banks=fewest))
        losers = [s for s, b in enumerate(banks) if b >= LOSING_BANKS]
        if len(losers) > 1:
            lines.append(tr(K + "match.ass_all", names=tr.listed([names.seat(s) for s in losers]),
                            banks=LOSING_BANKS))
        elif losers:
            lines.append(names.does(K + "match.ass", losers[0], banks=LOSING_BANKS))
        return lines


PRESENTER = Ass
