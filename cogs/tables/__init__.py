"""The tables extension: opening a table, its lobby, the match, every click on a table's or a
hand's buttons, and the public messages and private hands that follow the game.

``bot.load_extension("cogs.tables")`` adds its commands to the /albastini group, routes the
buttons of tables and hands to it, and makes it the table service's listener (``bot.tables``).
Its modules are private: :mod:`._cog` (commands and events), :mod:`._clicks` (buttons),
:mod:`._hands` (private hands), :mod:`._chooser` (a card's options).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.tables._cog import TablesCog
from cogs.ui.group import add_subcommand_cog

if TYPE_CHECKING:
    from bot import AlbastiniBot

__all__ = ["TablesCog", "setup", "teardown"]


async def setup(bot: AlbastiniBot) -> None:
    """The extension's entry: the table cog, which hears the table service's events."""
    cog = TablesCog(bot)
    await add_subcommand_cog(bot, cog)
    bot.service.add_listener(cog.on_events)
    bot.tables = cog


async def teardown(bot: AlbastiniBot) -> None:
    if bot.tables is not None:
        bot.service.remove_listener(bot.tables.on_events)
    bot.tables = None
