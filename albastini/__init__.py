"""The table service, the store and the games of the Albastini bot.

The games live in :mod:`albastini.games` (``GAMES``: one package each, one interface, whose
``legal_actions()`` lists action codes). The first of them keeps its public API here too, as it
always was, moves as objects (:mod:`albastini.classic`)::

    from albastini import Card, Bid, Pass, Play, IllegalMove, new_deal, Match

``python -m albastini`` plays a deal or a match in the terminal.
"""

from .classic import Deal, Match, new_deal
from .games.albastini import (
    PACK,
    POINTS,
    RANKS,
    SUITS,
    Action,
    Bid,
    Card,
    DealResult,
    IllegalMove,
    Pass,
    Play,
    Trick,
    beats,
    mode_name,
    next_dealer,
    parse_action,
    score,
    shuffled_pack,
)
from .games.albastini.deal import MODES

__all__ = [
    "MODES",
    "PACK",
    "POINTS",
    "RANKS",
    "SUITS",
    "Action",
    "Bid",
    "Card",
    "Deal",
    "DealResult",
    "IllegalMove",
    "Match",
    "Pass",
    "Play",
    "Trick",
    "beats",
    "mode_name",
    "new_deal",
    "next_dealer",
    "parse_action",
    "score",
    "shuffled_pack",
]
