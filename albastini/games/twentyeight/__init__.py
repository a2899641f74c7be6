"""Twenty-Eight (Irupathiyettu), the Kerala Jack-Nine trick game: rules engine and players.

The game's package behind the platform's common interface::

    from albastini.games.twentyeight import new_deal, Match, IllegalMove, make_player

:mod:`.kernel` holds every rule once, on ints (:class:`.kernel.State`); :mod:`.deal` wraps
it for people (codes, sentences, views); :mod:`.fast` runs it at random for the bench;
:mod:`.ai` holds the computer players. The rules are in ``shared/rules/twentyeight.md``.
"""

from .ai import decide, make_player
from .cards import CARDS, POINTS, RANKS, SUITS, Card, pack, shuffled_pack
from .deal import MODES, Deal, DealResult, IllegalMove, Trick, new_deal
from .match import Match
from .table_view import table_view

#: The game's key in ``albastini.games.GAMES``, in the store and in button ids.
NAME = "twentyeight"
#: Where the game stands in every list of games: the order the bot added them.
ORDER = 2
#: Computer player levels offered to people.
LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
#: The mode a table gets when none is chosen (the rules' default).
DEFAULT_MODE = "4 pairs"
#: The base cards each side starts a match with (the rules' default ``target``).
DEFAULT_TARGET = 6

__all__ = [
    "CARDS",
    "DEFAULT_MODE",
    "DEFAULT_TARGET",
    "LEVELS",
    "MODES",
    "NAME",
    "ORDER",
    "POINTS",
    "RANKS",
    "SUITS",
    "Card",
    "Deal",
    "DealResult",
    "IllegalMove",
    "Match",
    "Trick",
    "decide",
    "make_player",
    "new_deal",
    "pack",
    "shuffled_pack",
    "table_view",
]
