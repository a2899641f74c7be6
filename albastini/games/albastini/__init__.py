"""Albastini, the Tanzanian point-trick card game: a pure rules engine and its computer players.

The game's package in :data:`albastini.games.GAMES`::

    from albastini.games.albastini import Card, Bid, Pass, Play, IllegalMove, new_deal, Match

No I/O, no Discord, no asyncio: the engine can be simulated, replayed and tested on its own.
:mod:`.fast` plays the same rules on card ints for simulation and search; :mod:`.ai` holds the
computer players (``make_player``). The rules are in ``shared/rules/albastini.md``.
"""

from .actions import Action, Bid, Pass, Play, parse_action
from .ai import make_player
from .cards import PACK, POINTS, RANKS, SUITS, Card, beats, shuffled_pack
from .deal import MODES, Deal, DealResult, IllegalMove, Trick, mode_name, new_deal, score
from .match import Match, next_dealer

#: The game's key in :data:`albastini.games.GAMES`, in the store and in button ids.
NAME = "albastini"

__all__ = [
    "MODES",
    "NAME",
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
    "make_player",
    "mode_name",
    "new_deal",
    "next_dealer",
    "parse_action",
    "score",
    "shuffled_pack",
]
