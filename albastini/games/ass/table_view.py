"""The view the table service shows a seat (``table_view``): the rules' view of
:meth:`.deal.Deal.view` plus the keys the platform's renderer reads for every game.

Added keys, all public (or the seat's own): ``team_of`` (everyone is their own side),
``current`` and ``leader`` (the trick in progress), ``winning`` (the seat the trick goes to
now: the highest filled slot), ``round``/``rounds_total`` (the trick's number, 1-based, and the
tricks in a deal), ``tricks_won`` per seat and ``log`` (every action as ``[seat, code]``; bets
and plays are public).

For the table's words, so that no other layer has to know the rules:

``winning_card``, ``winning_why``, ``winning_over``
    the card that holds the trick now, why, and the card it beats or interrupts (None when
    none). ``winning_why`` is one of ``lead`` (nobody has interrupted the main card),
    ``lead-again`` (the main card's cover was killed), ``cover`` (a higher card of the main
    suit by the table), ``trump``, ``same-rank``, ``one-lower`` (one step below the main card,
    or below the last such card), ``eight`` (an eight of another suit took the whole trick
    over: its suit is the main suit now) and ``beats-standing`` (after an eight: a card of the
    new main suit that beats the standing card by the table). All None before the first card.
``moves``
    the seat's legal moves as ``{"code", "kind", "card"}`` (``kind`` ``go``, ``no`` or
    ``play``; ``card`` None for a bet, which has the ``target`` it sets instead);
``card_points``
    the points of each card of the seat's hand (the rules' card points);
``match_banks``
    each player's banks in the match now: the banks before this deal, and once the deal is
    over, with its changes counted (the match's ``banks``).
"""

from __future__ import annotations

from typing import Any

from . import kernel as K
from .deal import Deal

__all__ = ["table_view"]


def _why(view: dict[str, Any]) -> tuple[str | None, str | None, str | None]:
    """(card, reason, card beaten or interrupted) of the trick's holder now."""
    trick = view["trick"]
    plays, effects, holder = trick["plays"], trick["effects"], trick["holder"]
    if not plays or holder is None:
        return None, None, None
    main = plays[0][1]
    standing: str | None = None  # after an eight: the card that holds the trick
    last_low = main  # the card a one-lower card interrupts: the main card, or the last one
    after_eight = False
    for (seat, card), effect in zip(plays, effects, strict=True):
        over: str | None
        if effect == "eight":
            why, over = "eight", None
        elif effect == "cover" and after_eight:
            why, over = "beats-standing", standing
        elif effect in ("cover", "trump", "same-rank"):
            why, over = effect, main
        elif effect == "one-lower":
            why, over = effect, last_low
        elif effect == "lead":
            why, over = "lead-again" if "kill" in effects else "lead", None
        else:
            why, over = effect, None
        if seat == holder:
            return card, why, over
        if effect == "eight":
            after_eight, standing = True, card
        elif effect == "cover" and after_eight:
            standing = card
        elif effect == "one-lower":
            last_low = card
    return None, None, None


def _move(deal: Deal, code: str) -> dict[str, Any]:
    kind, _, card = code.partition(":")
    move: dict[str, Any] = {"code": code, "kind": kind, "card": card or None}
    if kind in ("go", "no"):
        move["target"] = K.target(deal.players, kind == "go")
    return move


def table_view(deal: Deal, seat: int | None) -> dict[str, Any]:
    """What the table shows ``seat`` (None: everyone), built on ``deal.view(seat)``."""
    view = deal.view(seat)
    won = [0] * deal.players
    for trick in view["tricks"]:
        won[trick["winner"]] += 1
    card, why, over = _why(view)
    banks = list(view["banks"])
    if view["result"] is not None:
        banks = [b + d for b, d in zip(banks, view["result"]["banks"], strict=True)]
    return {
        **view,
        "team_of": list(view["teams"]),
        "current": view["trick"]["plays"],
        "leader": view["trick"]["leader"],
        "winning": view["trick"]["holder"],
        "winning_card": card,
        "winning_why": why,
        "winning_over": over,
        "round": min(len(view["tricks"]) + 1, deal.tricks_total),
        "rounds_total": deal.tricks_total,
        "tricks_won": won,
        "log": [[s, c] for s, c in zip(deal.seats, deal.actions, strict=True)],
        "moves": [_move(deal, code) for code in view["legal"]],
        "card_points": {c: K.POINTS[K.CODE_INT[c]] for c in view["hand"]},
        "match_banks": banks,
    }
