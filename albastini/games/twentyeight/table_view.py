"""The view the table service shows a seat (``table_view``): the rules' view of
:meth:`.deal.Deal.view` plus the keys the platform's renderer reads for every game.

Added keys, all public (or the seat's own): ``team_of`` (the side of every seat), ``current``
and ``leader`` (the trick in progress), ``winning`` (who is winning it so far, by the rule in
force: trumps count only from the trick in which the trump was exposed, so this never depends on
a hidden card), ``round``/``rounds_total`` (the trick's number, 1-based, and the tricks in a
deal), ``tricks_won`` per seat and ``log``: every action so far as ``[seat, code]``, where the
bidder's ``trump:XX`` reads ``trump`` for everyone who may not know the face-down card.
"""

from __future__ import annotations

from typing import Any

from . import kernel as K
from .deal import Deal

__all__ = ["table_view"]


def table_view(deal: Deal, seat: int | None) -> dict[str, Any]:
    """What the table shows ``seat`` (None: everyone), built on ``deal.view(seat)``."""
    view = deal.view(seat)
    st = deal.state
    sees_trump = deal.trump_visible_to(seat)
    plays = view["trick"]["plays"]
    winning = None
    if plays:
        power = K.NO_POWER if st.exposed_in < 0 else st.trump
        cards = [c for _, c in st.trick]
        winning = K.trick_winner(st.leader, cards, power, deal.players)
    won = [0] * deal.players
    for trick in view["tricks"]:
        won[trick["winner"]] += 1
    log = [
        [s, "trump" if code.startswith("trump:") and not sees_trump else code]
        for s, code in zip(deal.seats, deal.actions, strict=True)
    ]
    finished = len(view["tricks"])
    return {
        **view,
        "team_of": list(view["teams"]),
        "current": plays,
        "leader": view["trick"]["leader"],
        "winning": winning,
        "round": min(finished + 1, deal.tricks_total),
        "rounds_total": deal.tricks_total,
        "tricks_won": won,
        "log": log,
    }
