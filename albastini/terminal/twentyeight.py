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
from .words import Names, card, listed, number, suit

__all__ = ["PRESENTER"]


class TwentyEight(Presenter):
    """How Twenty-Eight reads at the terminal."""

    title = "Twenty-Eight"
    typing = ("a bid's number (16), pass, a card (JH; TS or 10S for the 10\u2660), expose to ask "
              "for the trump, or a letter of the menu")
    target_help = "the base cards each side starts with; a side with none left loses"
    prompt = "Your move (a letter, a bid, a card, ? or q): "

    def match_terms(self, match: MatchLike) -> str:
        target = int(getattr(match, "target", 0))
        return f"{number(target, 'base card')} per side; the side that runs out wears the kunukku"

    def score(self, match: MatchLike, view: View, names: Names) -> str:
        parts = [f"{names.side(t)} {s}" for t, s in enumerate(match.scores)]
        return "Base cards: " + " · ".join(parts)

    # ------------------------------------------------------------------ the table
    def table_lines(self, view: View, names: Names) -> list[str]:
        lines = []
        bids = view.get("bids") or []
        if view["phase"] == "bidding":
            said = [f"{names.short(int(b['seat']))} {b['bid'] or 'pass'}" for b in bids]
            lines.append("Auction: " + (", ".join(said) if said else "nobody has spoken yet"))
        bidder, contract = view.get("bidder"), view.get("contract")
        if bidder is not None and contract:
            what = "Highest bid" if view["phase"] == "bidding" else "Contract"
            lines.append(f"{what}: {contract} by {names.them(int(bidder))}"
                         + self._raises(view, names))
        trump = self._trump_line(view, names)
        if trump:
            lines.append(trump)
        points = view.get("points") or []
        if view["phase"] == "playing" and any(points):
            lines.append("Card points taken: "
                         + " · ".join(f"{names.side(t)} {p}" for t, p in enumerate(points)))
        return lines

    @staticmethod
    def _raises(view: View, names: Names) -> str:
        said = []
        for r in view.get("raises") or []:
            who = names.short(int(r["seat"]))
            bid = r["bid"]
            said.append(f"{who} Thani" if bid == "thani" else
                        f"{who} raised to {bid}" if bid else f"{who} did not raise")
        return f" ({', '.join(said)})" if said else ""

    def _trump_line(self, view: View, names: Names) -> str | None:
        bidder = view.get("bidder")
        if view["phase"] == "trump" and bidder is not None:
            who = names.does(int(bidder), "is", "are")
            return f"Trump: {who} choosing a card to lay face down."
        if view.get("exposed") and view.get("trump_card"):
            by = view.get("exposed_by")
            shown = ""
            if by is not None and by != bidder:
                caller = "your" if by == names.human else f"{names.seat(int(by))}'s"
                shown = f" on {caller} call"
            return f"Trump: {suit(view['trump'])} ({card(view['trump_card'])} shown{shown})"
        if view.get("trump_face_down") and bidder is not None:
            if view.get("trump_card"):  # only the bidder's own view holds it
                return (f"Trump: {suit(view['trump'])} — your {card(view['trump_card'])} lies "
                        "face down; only you know it")
            return (f"Trump: face down by {names.them(int(bidder))}, hidden until someone "
                    "asks for it")
        return None

    # ------------------------------------------------------------------ moves
    def move_label(self, move: View, view: View) -> str:
        kind, value, held = move.get("kind"), move.get("value"), move.get("card")
        if kind == "bid":
            return f"bid {value}"
        if kind == "raise":
            return f"raise to {value}"
        if kind == "thani":
            return "Thani (alone, every trick)"
        if kind == "trump" and held:
            return f"lay {card(str(held))} face down as trump"
        if kind == "expose":
            if view.get("seat") is not None and view.get("seat") == view.get("bidder"):
                return "expose: show your trump card"
            return "expose: ask for the trump"
        return super().move_label(move, view)

    # ------------------------------------------------------------------ the story
    def said(self, seat: int, code: str, before: View, after: View, names: Names) -> str:
        kind, _, arg = code.partition(":")
        if kind == "bid":
            return f"{names.does(seat, 'bids', 'bid')} {arg}."
        if kind == "pass" and before["phase"] == "raising":
            return f"{names.does(seat, 'does', 'do')} not raise."
        if kind == "pass":
            return f"{names.does(seat, 'passes', 'pass')}."
        if kind == "raise":
            return f"{names.does(seat, 'raises', 'raise')} the contract to {arg}."
        if kind == "thani":
            return f"{names.does(seat, 'declares', 'declare')} Thani: alone, every trick!"
        if kind == "trump":
            if arg:  # the person's own view shows it: they laid it
                return (f"{names.does(seat, 'lays', 'lay')} {card(arg)} face down: "
                        f"{suit(arg[-1])} are trumps, and only you know it.")
            return f"{names.does(seat, 'lays', 'lay')} a trump card face down."
        if kind == "expose":
            shown = after.get("trump_card")
            what = (f": {card(shown)} is shown, {suit(str(after['trump']))} are trumps"
                    if shown else "")
            return f"{names.does(seat, 'asks', 'ask')} for the trump{what}."
        return super().said(seat, code, before, after, names)

    def after_move(self, before: View, after: View, names: Names) -> list[str]:
        lines = super().after_move(before, after, names)
        if before["phase"] == "bidding" and after["phase"] != "bidding":
            bidder, contract = after.get("bidder"), after.get("contract")
            if bidder is not None and contract:
                lines.append(f"{names.does(int(bidder), 'wins', 'win')} the auction at "
                             f"{contract}.")
        if before["phase"] != "playing" and after["phase"] == "playing":
            lines.append(f"The play begins: {names.seat(int(after['leader']))} "
                         f"{'lead' if after['leader'] == after.get('seat') else 'leads'}.")
        return lines

    # ------------------------------------------------------------------ results
    def deal_over(self, view: View, names: Names, deal_no: int) -> list[str]:
        result = view.get("result") or {}
        if result.get("redeal"):
            return [f"Deal {deal_no} over: everyone passed, nobody bid. Redeal; no base card "
                    "changes hands."]
        points = result.get("points") or []
        lines = [f"Deal {deal_no} over. Card points: "
                 + " · ".join(f"{names.side(t)} {p}" for t, p in enumerate(points)) + "."]
        bidder, contract = result.get("bidder"), result.get("contract")
        if bidder is not None:
            who = names.seat(int(bidder))
            how = "made" if result.get("made") else "failed"
            thani = " (Thani)" if result.get("thani") else ""
            lines.append(f"{who}{thani} {how} the contract of {contract}.")
        moves = [f"{names.side(t)} {'+' if gp > 0 else ''}{gp}"
                 for t, gp in enumerate(result.get("game_points") or []) if gp]
        doubled = " (doubled: Cot)" if result.get("cot") else ""
        if moves:
            lines.append(f"Base cards change hands{doubled}: " + " · ".join(moves) + ".")
        return lines

    def match_over(self, match: MatchLike, view: View, names: Names) -> list[str]:
        scores = list(match.scores)
        best = [t for t, s in enumerate(scores) if s == max(scores)]
        if len(best) > 1:  # 3 players: two may share the most base cards
            lines = [f"The match is over: {listed([names.side(t) for t in best])} share the "
                     f"most base cards ({max(scores)})."]
        else:
            lines = super().match_over(match, view, names)
        out = [t for t, s in enumerate(match.scores) if s <= 0]
        if out:
            wear = "wear" if len(out) > 1 or (names.solo and names.team_of.index(out[0])
                                               == names.human) else "wears"
            lines.append(f"{listed([names.side(t) for t in out])} {wear} the kunukku.")
        return lines


PRESENTER = TwentyEight
