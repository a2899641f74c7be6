"""The view the table service shows a seat (``table_view``): the rules' view of
:meth:`.deal.Deal.view` plus the keys the platform's renderer reads for every game.

Added keys, all public (or the seat's own): ``team_of`` (the side of every seat), ``log``
(every play as ``[seat, code]``), ``round``/``rounds_total`` (the round of four cards each,
1-based, and the rounds in a deal), ``controls`` (per seat, the values of the builds it
controls), ``table_cards`` (cards lying on the table) and ``scoring_seen`` (per team, the
captured point cards everyone saw taken: Big and Little Cassino, aces; the piles' sizes and
sweeps are in ``captured``/``sweeps``). The rules' ``moves`` already carry, per legal code,
its kind, card, items and build value for readable labels.
"""

from __future__ import annotations

from typing import Any

from .deal import Deal

__all__ = ["table_view"]


def table_view(deal: Deal, seat: int | None) -> dict[str, Any]:
    """What the table shows ``seat`` (None: everyone), built on ``deal.view(seat)``."""
    view = deal.view(seat)
    st = deal.state
    controls: list[list[int]] = [[] for _ in range(deal.players)]
    for it in st.table:
        if it[4] >= 0:
            controls[it[4]].append(it[3])
    return {
        **view,
        "team_of": list(view["teams"]),
        "log": [list(x) for x in view["history"]],
        "rounds_total": view["rounds"],
        "controls": controls,
        "table_cards": sum(len(it[1]) for it in st.table),
    }
