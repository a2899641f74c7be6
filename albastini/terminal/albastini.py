"""Albastini at the terminal: the bids, the trump indicator and the face-up card under the
stock, rounds eaten (the game's own word), and the victory points a deal scores.

Read from views only: ``bids``, ``exchange``, ``indicator``, ``trump``, ``face_up``,
``face_up_never_drawn``, ``face_up_drawn_by`` (a seat's view), ``stock``, ``bidders`` and the
deal's ``result``; all of it is public (the face-up card lies face up all deal), so nothing
here can show a card a hand holds.
"""

from __future__ import annotations

from ..games.interface import MatchLike
from .presenter import Presenter, View
from .words import Names, card

__all__ = ["PRESENTER"]

K = "albastini."


class Albastini(Presenter):
    """How Albastini reads at the terminal."""

    def match_terms(self, match: MatchLike) -> str:
        return self.tr(K + "terms", target=int(getattr(match, "target", 0)))

    def score(self, match: MatchLike, view: View, names: Names) -> str:
        parts = [self.tr(K + "vp", side=names.side(t), vp=vp) for t, vp in enumerate(match.scores)]
        return self.tr("score", scores=self.tr(K + "scores", scores=" · ".join(parts),
                                               target=int(getattr(match, "target", 0))))

    # ------------------------------------------------------------------ the table
    def head(self, view: View, names: Names, deal_no: int) -> str:
        """``"Deal 1 · dealt by Seat 2 · round 3 of 9 · trump: ♣ clubs · face up: 4♣ ·
        stock: 12"``."""
        parts = [super().head(view, names, deal_no)]
        if view.get("trump"):
            parts.append(self.tr(K + "head.trump", suit=self.tr.suit(str(view["trump"]))))
        if view.get("face_up"):
            parts.append(self.tr(K + "head.face_up", card=card(str(view["face_up"]))))
        parts.append(self.tr(K + "head.stock", count=int(view.get("stock") or 0)))
        return " · ".join(parts)

    def table_lines(self, view: View, names: Names) -> list[str]:
        bids = view.get("bids") or []
        if not bids:
            return []
        return [self.tr(K + "bids", bids=", ".join(self._bid(b, view, names) for b in bids))]

    def _bid(self, bid: View, view: View, names: Names) -> str:
        """``"Seat 1 5♣ (exchanged for the 3♣)"``, ``"Seat 3 4♠ (returned)"``, ``"You pass"``:
        once the indicator is turned, a bid card of the trump suit was exchanged for it, any
        other went back to its bidder's hand."""
        held = bid.get("card")
        text = f"{names.short(int(bid['seat']))} {card(held) if held else self.tr(K + 'pass')}"
        if held and view["phase"] != "bidding":
            exchange = view.get("exchange")
            if exchange and exchange["gave"] == held:
                text += " " + self.tr(K + "exchanged", card=card(str(exchange["took"])))
            else:
                text += " " + self.tr(K + "returned")
        return text

    # ------------------------------------------------------------------ moves
    def move_label(self, move: View, view: View) -> str:
        if move.get("kind") == "bid" and move.get("card"):
            return self.tr(K + "bid", card=card(str(move["card"])))
        if move.get("kind") == "pass":
            return self.tr(K + "pass")
        return super().move_label(move, view)

    # ------------------------------------------------------------------ the story
    def deal_start(self, view: View, names: Names, deal_no: int) -> list[str]:
        bidders = [names.seat(int(s)) for s in view.get("bidders") or []]
        return [*super().deal_start(view, names, deal_no),
                self.tr(K + "deals", bidders=", ".join(bidders))]

    def said(self, seat: int, code: str, before: View, after: View, names: Names) -> str:
        kind, _, arg = code.partition(":")
        if kind == "bid" and len(arg) == 2:
            return names.does(K + "said.bid", seat, card=card(arg),
                              suit=self.tr(f"suit.{arg[-1]}"))
        if kind == "pass":
            return names.does(K + "said.pass", seat)
        return super().said(seat, code, before, after, names)

    def after_move(self, before: View, after: View, names: Names) -> list[str]:
        lines = []
        if before["phase"] == "bidding" and after["phase"] != "bidding":
            lines += self._indicator(after, names)
        lines += super().after_move(before, after, names)
        drawer = after.get("face_up_drawn_by")
        if drawer is not None and before.get("face_up") and not after.get("face_up"):
            lines.append(names.does(K + "draws_face_up", int(drawer),
                                    card=card(str(before["face_up"]))))
        return lines

    def _indicator(self, after: View, names: Names) -> list[str]:
        """The bidding is over: the indicator turned and its suit, the exchange a bid of that
        suit made, and the card that now lies face up under the stock."""
        lines = []
        indicator, trump = after.get("indicator"), after.get("trump")
        if indicator and trump:
            lines.append(self.tr(K + "indicator", card=card(str(indicator)),
                                 suit=self.tr(f"suit.{trump}")))
        exchange = after.get("exchange")
        if exchange:
            lines.append(names.does(K + "exchange", int(exchange["seat"]),
                                    took=card(str(exchange["took"])),
                                    gave=card(str(exchange["gave"]))))
        if after.get("face_up") and not after.get("face_up_never_drawn"):
            lines.append(self.tr(K + "face_up_last", card=card(str(after["face_up"]))))
        return lines

    # ------------------------------------------------------------------ results
    def deal_over(self, view: View, names: Names, deal_no: int) -> list[str]:
        tr = self.tr
        result = view.get("result") or {}
        eaten = ", ".join(f"{names.side(t)} {p}" for t, p in enumerate(result.get("points") or []))
        lines = [tr(K + "over", deal=deal_no, points=eaten)]
        if result.get("leftover"):
            lines.append(tr(K + "leftover", card=card(str(result["leftover"]))))
        winner = result.get("winner")
        if winner is None:
            lines.append(tr(K + "tie"))
            return lines
        vp = int(result.get("victory_points") or 0)
        # with teams of three the rules look at the losing side alone
        key = K + ("why.losing_" if view.get("team_size") == 3 else "why.")
        why = tr(key + ("all" if vp == 1 else "few"), threshold=result.get("threshold"))
        lines.append(names.side_does(K + "scores_vp", int(winner), vp=vp, why=why))
        return lines


PRESENTER = Albastini
