"""Albastini, the Tanzanian point-trick card game: a pure rules engine.

The public API::

    from albastini import Card, Bid, Pass, Play, IllegalMove, new_deal, Match

No I/O, no Discord, no asyncio: the engine can be simulated, replayed and tested on its own.
``albastini.fast`` plays the same rules on card ints for simulation and search, and
``python -m albastini`` plays a deal or a match in the terminal.
"""

from .actions import Action, Bid, Pass, Play, parse_action
from .cards import PACK, POINTS, RANKS, SUITS, Card, beats, shuffled_pack
from .deal import MODES, Deal, DealResult, IllegalMove, Trick, mode_name, new_deal, score
from .match import Match, next_dealer

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
