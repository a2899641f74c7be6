"""The history extension: ratings, seasons, match history, deal replays and spectators.

``bot.load_extension("cogs.history")`` adds /albastini history, season and recompute, and routes
its buttons to it. What other features show of it (a player's rating in /albastini stats, the
boards by rating or of all time in /albastini leaderboard) is this package's public part; its
modules are private: :mod:`._cog` (commands and clicks), :mod:`._pages` (what it shows).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.history._cog import HistoryCog
from cogs.history._pages import PERIOD_CHOICES, SORT_CHOICES, board_payload, stats_rating_lines
from cogs.ui.group import add_subcommand_cog

if TYPE_CHECKING:
    from bot import AlbastiniBot

__all__ = ["PERIOD_CHOICES", "SORT_CHOICES", "HistoryCog", "board_payload", "setup",
           "stats_rating_lines"]


async def setup(bot: AlbastiniBot) -> None:
    """The extension's entry (``bot.load_extension("cogs.history")``)."""
    await add_subcommand_cog(bot, HistoryCog(bot))
