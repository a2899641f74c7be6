"""Albastini, the Tanzanian point-trick card game: a pure rules engine and its computer players.

The game's package in :data:`albastini.games.GAMES`::

    from albastini.games.albastini import Card, Bid, Pass, Play, IllegalMove, new_deal, Match

No I/O, no Discord, no asyncio: the engine can be simulated, replayed and tested on its own.
:mod:`.fast` plays the same rules on card ints for simulation and search; :mod:`.ai` holds the
computer players (``make_player``). The rules are in ``shared/rules/albastini.md``.
"""

from typing import Any

from .actions import Action, Bid, Pass, Play, parse_action
from .ai import DIFFICULTIES, Player, decide
from .ai import LEVELS as PLAYER_KINDS
from .ai import make_player as make_action_player
from .cards import PACK, POINTS, RANKS, SUITS, Card, beats, shuffled_pack
from .deal import MODES as MODE_SIZES
from .deal import Deal, DealResult, IllegalMove, Trick, mode_name, new_deal, score
from .match import Match, next_dealer

#: The game's key in :data:`albastini.games.GAMES`, in the store and in button ids.
NAME = "albastini"
#: Where the game stands in every list of games: the order the bot added them.
ORDER = 1
#: Every mode: its label -> players and team size (``albastini.MODES`` has them as pairs).
MODES: dict[str, dict[str, int]] = {
    label: {"players": players, "team_size": team_size}
    for label, (players, team_size) in MODE_SIZES.items()
}
#: The mode a table (and the terminal) starts with when none is chosen.
DEFAULT_MODE = "4 pairs"
#: The computer levels offered to players, then the player kinds behind them (for the arena).
LEVELS: tuple[str, ...] = (*DIFFICULTIES, *PLAYER_KINDS)


class CodePlayer:
    """A computer player that answers with action codes, as every game's players do
    (:func:`albastini.ai.make_player` keeps answering with :data:`Action` objects)."""

    def __init__(self, player: Player) -> None:
        self.player = player

    def choose(self, view: dict[str, Any]) -> str:
        """The code of the legal move this player makes in ``view``."""
        return self.player.choose(view).code


def make_player(level: str, seed: int | None = None, **options: Any) -> CodePlayer:
    """A computer player of ``level`` (``easy``, ``normal``, ``hard`` or a kind of
    :data:`LEVELS`) whose ``choose(view)`` returns an action code; ValueError for an unknown
    level or option."""
    return CodePlayer(make_action_player(level, seed=seed, **options))


def default_team_size(players: int) -> int:
    """A new table plays in pairs with 4 and 6 players, each for themselves otherwise."""
    return 2 if players in (4, 6) else 1


def table_view(deal: Deal, seat: int | None) -> dict[str, Any]:
    """The view the table service shows ``seat`` and gives its computer player: a seat's view
    carries the deal's public history (the "since your last move" lines and the players'
    card counting read it), the public view (``seat`` None) only the table."""
    return deal.view(seat, history=seat is not None)

__all__ = [
    "DEFAULT_MODE",
    "LEVELS",
    "MODES",
    "NAME",
    "ORDER",
    "PACK",
    "POINTS",
    "RANKS",
    "SUITS",
    "Action",
    "Bid",
    "Card",
    "CodePlayer",
    "Deal",
    "DealResult",
    "IllegalMove",
    "Match",
    "Pass",
    "Play",
    "Trick",
    "beats",
    "decide",
    "default_team_size",
    "make_player",
    "mode_name",
    "new_deal",
    "next_dealer",
    "parse_action",
    "score",
    "shuffled_pack",
    "table_view",
]
