"""Albastini's first API, as its callers have always used it: moves as objects.

Every game's ``Deal.legal_actions()`` returns action codes (strings), the platform's one
interface (:mod:`albastini.games.interface`). Code written against the first release of this
package reads Albastini's moves as :data:`Action` objects instead (``Bid(card)``, ``Pass()``,
``Play(card)``): the :class:`Deal` and :class:`Match` here are the game's own, whose
``legal_actions()`` answers with those objects, in the hand's order (bids before the pass).
``apply`` takes an object or its code, as it always did.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from .games.albastini import Action, Card, shuffled_pack
from .games.albastini import Deal as CodeDeal
from .games.albastini import Match as CodeMatch

__all__ = ["Deal", "Match", "new_deal"]


class Deal(CodeDeal):
    """An Albastini deal whose ``legal_actions()`` lists :data:`Action` objects."""

    # The first API's return type, not the interface's codes: the reason this layer exists.
    def legal_actions(self) -> list[Action]:  # type: ignore[override]
        """Every action the seat to act may take now (empty once the deal is finished)."""
        return self.actions_allowed()


def new_deal(
    players: int,
    team_size: int = 1,
    dealer: int = 0,
    *,
    deck: Iterable[Card | str] | None = None,
    seed: int | None = None,
) -> Deal:
    """Deal a new hand of Albastini (see :func:`albastini.games.albastini.new_deal`)."""
    cards = [Card.parse(c) for c in deck] if deck is not None else shuffled_pack(seed)
    return Deal(players, team_size, dealer, cards)


class Match(CodeMatch):
    """A match whose deals are :class:`Deal` (moves as objects)."""

    dealing: ClassVar = staticmethod(new_deal)
    deal: Deal
