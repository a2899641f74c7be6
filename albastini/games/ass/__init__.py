"""Ass (Жопа), the trick game of banks and interruptions: rules engine and players.

The game's package behind the platform's common interface::

    from albastini.games.ass import new_deal, Match, IllegalMove, make_player

:mod:`.kernel` holds every rule once, on ints; :mod:`.deal` wraps it for people (codes,
sentences, views); :mod:`.match` counts banks; :mod:`.fast` runs it at random for the bench;
:mod:`.ai` holds the computer players. The rules are in ``shared/rules/ass.md``.
"""

from .ai import decide, make_player
from .deal import MODES, RANKS, Deal, DealResult, IllegalMove, new_deal
from .match import Match
from .table_view import table_view

#: The game's key in ``albastini.games.GAMES``, in the store and in button ids.
NAME = "ass"
#: Where the game stands in every list of games: the order the bot added them.
ORDER = 4
#: Computer player levels offered to people.
LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
#: The mode a table gets when none is chosen.
DEFAULT_MODE = "4"
#: Banks end a match (start with 3, out at 6, won at 0), not a points target.
HAS_TARGET = False
#: What a table may choose for its match: the trump variant (``Match(trumps=...)``; 1 each
#: player's own suit, 2 none, 3 one suit for all, 4 two, 5 spades senior and diamonds junior).
OPTIONS: dict[str, tuple[int, ...]] = {"trumps": (1, 2, 3, 4, 5)}


def default_team_size(players: int) -> int:
    """Everyone plays alone: 1."""
    return 1


__all__ = ["DEFAULT_MODE", "HAS_TARGET", "LEVELS", "MODES", "NAME", "OPTIONS", "ORDER", "RANKS",
           "Deal", "DealResult", "IllegalMove", "Match", "decide", "default_team_size",
           "make_player", "new_deal", "table_view"]
