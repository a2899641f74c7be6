"""Cassino, the fishing game of trailing, capturing and building: rules engine and players.

The game's package behind the platform's common interface::

    from albastini.games.cassino import new_deal, Match, IllegalMove, make_player

:mod:`.kernel` holds every rule once, on ints (:class:`.kernel.State`); :mod:`.deal` wraps
it for people (codes, sentences, views); :mod:`.fast` runs it at random for the bench;
:mod:`.ai` holds the computer players. The rules are in ``shared/rules/cassino.md``.
"""

from .ai import decide, make_player
from .cards import CARDS, RANKS, Card, pack, shuffled_pack
from .deal import MODES, Deal, DealResult, IllegalMove, new_deal
from .match import Match
from .table_view import table_view

#: The game's key in ``albastini.games.GAMES``, in the store and in button ids.
NAME = "cassino"
#: Where the game stands in every list of games: the order the bot added them.
ORDER = 3
#: Computer player levels offered to people.
LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
#: The points that win a match (the rules' game to 21).
#: The mode a table gets when none is chosen (the rules' default).
DEFAULT_MODE = "2"
DEFAULT_TARGET = 21


def default_team_size(players: int) -> int:
    """The team size of a table of ``players``: 1 for 2 or 3 players, 2 (pairs) for 4."""
    return 2 if players == 4 else 1


__all__ = [
    "CARDS",
    "DEFAULT_MODE",
    "DEFAULT_TARGET",
    "LEVELS",
    "MODES",
    "NAME",
    "ORDER",
    "RANKS",
    "Card",
    "Deal",
    "DealResult",
    "IllegalMove",
    "Match",
    "decide",
    "default_team_size",
    "make_player",
    "new_deal",
    "pack",
    "shuffled_pack",
    "table_view",
]
