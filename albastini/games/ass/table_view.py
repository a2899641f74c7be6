"""The view the table service shows a seat (``table_view``): the rules' view of
:meth:`.deal.Deal.view` plus the keys the platform's renderer reads for every game.

Added keys, all public (or the seat's own): ``team_of`` (everyone is their own side),
``current`` and ``leader`` (the trick in progress), ``winning`` (the seat the trick goes to
now: the highest filled slot), ``round``/``rounds_total`` (the trick's number, 1-based, and the
tricks in a deal), ``tricks_won`` per seat and ``log`` (every action as ``[seat, code]``; bets
and plays are public).
"""

from __future__ import annotations

from typing import Any

from .deal import Deal

__all__ = ["table_view"]


def table_view(deal: Deal, seat: int | None) -> dict[str, Any]:
    """What the table shows ``seat`` (None: everyone), built on ``deal.view(seat)``."""
    view = deal.view(seat)
    won = [0] * deal.players
    for trick in view["tricks"]:
        won[trick["winner"]] += 1
    return {
        **view,
        "team_of": list(view["teams"]),
        "current": view["trick"]["plays"],
        "leader": view["trick"]["leader"],
        "winning": view["trick"]["holder"],
        "round": min(len(view["tricks"]) + 1, deal.tricks_total),
        "rounds_total": deal.tricks_total,
        "tricks_won": won,
        "log": [[s, c] for s, c in zip(deal.seats, deal.actions, strict=True)],
    }
