"""Twenty-Eight at the terminal: the auction (lelam) by bid values, the contract and its raises,
the trump card face down by the bidder, the card points taken, base cards and the kunukku.

Read from views only: ``bids``, ``raises``, ``bidder``, ``contract``, ``thani``, the trump
(``trump``/``trump_card``, which only the bidder's own view holds before the exposure;
``trump_face_down``, ``exposed``, ``exposed_by``), ``points`` and the deal's ``result``. The
bidder's ``trump:XX`` reads ``trump`` in everyone else's log, so the story never names the
face-down card to anyone who may not know it.
"""

from __future__ import annotations

from ..games.interface import MatchLike
from .presenter import Presenter, View
from .words import Names, card

__all__ = ["PRESENTER"]

K = "twentyeight."


class TwentyEight(Presenter):
    """How Twenty-Eight reads at the terminal."""

    def match_terms(self, match: MatchLike) -> str:
        return self.tr.n(K + "terms", int(getattr(match, "target", 0)))

    def score(self, match: MatchLike, view: View, names: Names) -> str:
        parts = [f"{names.side(t)} {s}" for t, s in enumerate(match.scores)]
        return self.tr(K + "score", scores=" · ".join(parts))

    # ------------------------------------------------------------------ the table
    def table_lines(self, view: View, names: Names) -> list[str]:
        tr = self.tr
        lines = []
        bids = view.get("bids") or []
        if view["phase"] == "bidding":
            said = [f"{names.short(int(b['seat']))} {b['bid'] or tr(K + 'pass')}" for b in bids]
            lines.append(tr(K + "auction", bids=", ".join(said)) if said
                         else tr(K + "auction.none"))
        bidder, contract = view.get("bidder"), view.get("contract")
        if bidder is not None and contract:
            what = "highest" if view["phase"] == "bidding" else "contract"
            lines.append(names.does(K + what, int(bidder), contract=contract)
                         + self._raises(view, names))
        trump = self._trump_line(view, names)
        if trump:
            lines.append(trump)
        points = view.get("points") or []
        if view["phase"] == "playing" and any(points):
            lines.append(tr(K + "points", points=" · ".join(
                f"{names.side(t)} {p}" for t, p in enumerate(points))))
        return lines

    def _raises(self, view: View, names: Names) -> str:
        said = []
        for r in view.get("raises") or []:
            who = names.short(int(r["seat"]))
            bid = r["bid"]
            key = "raise.thani" if bid == "thani" else "raise.to" if bid else "raise.none"
            said.append(self.tr(K + key, name=who, bid=bid))
        return f" ({', '.join(said)})" if said else ""

    def _trump_line(self, view: View, names: Names) -> str | None:
        tr = self.tr
        bidder = view.get("bidder")
        if view["phase"] == "trump" and bidder is not None:
            return names.does(K + "trump.choosing", int(bidder))
        if view.get("exposed") and view.get("trump_card"):
            by = view.get("exposed_by")
            shown = dict(suit=tr.suit(view["trump"]), card=card(view["trump_card"]))
            if by is not None and by != bidder:
                return names.does(K + "trump.called", int(by), **shown)
            return tr(K + "trump.shown", **shown)
        if view.get("trump_face_down") and bidder is not None:
            if view.get("trump_card"):  # only the bidder's own view holds it
                return tr(K + "trump.yours", suit=tr.suit(view["trump"]),
                          card=card(view["trump_card"]))
            return names.does(K + "trump.hidden", int(bidder))
        return None

    # ------------------------------------------------------------------ moves
    def move_label(self, move: View, view: View) -> str:
        kind, value, held = move.get("kind"), move.get("value"), move.get("card")
        if kind in ("bid", "raise"):
            return self.tr(K + f"move.{kind}", bid=value)
        if kind == "thani":
            return self.tr(K + "move.thani")
        if kind == "trump" and held:
            return self.tr(K + "move.trump", card=card(str(held)))
        if kind == "expose":
            mine = view.get("seat") is not None and view.get("seat") == view.get("bidder")
            return self.tr(K + ("move.show" if mine else "move.expose"))
        if kind == "pass":
            return self.tr(K + "move.pass")
        return super().move_label(move, view)

    # ------------------------------------------------------------------ the story
    def said(self, seat: int, code: str, before: View, after: View, names: Names) -> str:
        tr = self.tr
        kind, _, arg = code.partition(":")
        if kind == "bid":
            return names.does(K + "said.bid", seat, bid=arg)
        if kind == "pass" and before["phase"] == "raising":
            return names.does(K + "said.no_raise", seat)
        if kind == "pass":
            return names.does(K + "said.pass", seat)
        if kind == "raise":
            return names.does(K + "said.raise", seat, bid=arg)
        if kind == "thani":
            return names.does(K + "said.thani", seat)
        if kind == "trump":
            if arg:  # the person's own view shows it: they laid it
                return names.does(K + "said.trump_mine", seat, card=card(arg),
                                  suit=tr.suit(arg[-1]))
            return names.does(K + "said.trump", seat)
        if kind == "expose":
            shown = after.get("trump_card")
            if shown:
                return names.does(K + "said.exposed", seat, card=card(shown),
                                  suit=tr.suit(str(after["trump"])))
            return names.does(K + "said.expose", seat)
        return super().said(seat, code, before, after, names)

    def after_move(self, before: View, after: View, names: Names) -> list[str]:
        lines = super().after_move(before, after, names)
        if before["phase"] == "bidding" and after["phase"] != "bidding":
            bidder, contract = after.get("bidder"), after.get("contract")
            if bidder is not None and contract:
                lines.append(names.does(K + "won_auction", int(bidder), contract=contract))
        if before["phase"] != "playing" and after["phase"] == "playing":
            lines.append(names.does(K + "play_begins", int(after["leader"])))
        return lines

    # ------------------------------------------------------------------ results
    def deal_over(self, view: View, names: Names, deal_no: int) -> list[str]:
        tr = self.tr
        result = view.get("result") or {}
        if result.get("redeal"):
            return [tr(K + "over.redeal", deal=deal_no)]
        points = result.get("points") or []
        lines = [tr(K + "over.points", deal=deal_no, points=" · ".join(
            f"{names.side(t)} {p}" for t, p in enumerate(points)))]
        bidder, contract = result.get("bidder"), result.get("contract")
        if bidder is not None:
            how = "made" if result.get("made") else "failed"
            thani = "_thani" if result.get("thani") else ""
            lines.append(names.does(K + f"over.{how}{thani}", int(bidder), contract=contract))
        moves = [f"{names.side(t)} {'+' if gp > 0 else ''}{gp}"
                 for t, gp in enumerate(result.get("game_points") or []) if gp]
        if moves:
            key = "over.moves_cot" if result.get("cot") else "over.moves"
            lines.append(tr(K + key, moves=" · ".join(moves)))
        return lines

    def match_over(self, match: MatchLike, view: View, names: Names) -> list[str]:
        tr = self.tr
        scores = list(match.scores)
        best = [t for t, s in enumerate(scores) if s == max(scores)]
        if len(best) > 1:  # 3 players: two may share the most base cards
            lines = [tr(K + "match.share", sides=tr.listed([names.side(t) for t in best]),
                        count=max(scores))]
        else:
            lines = super().match_over(match, view, names)
        out = [t for t, s in enumerate(match.scores) if s <= 0]
        if len(out) > 1:
            lines.append(tr(K + "match.kunukku_all", sides=tr.listed([names.side(t) for t in out])))
        elif out:
            lines.append(names.side_does(K + "match.kunukku", out[0]))
        return lines


PRESENTER = TwentyEight
