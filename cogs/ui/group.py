"""The /albastini command group, which every feature's cog adds its subcommands to.

A discord.py GroupCog's group belongs to that one cog; the features are separate cogs (tables,
records, settings, history), so the group is made here, once per bot, and each cog's slash
commands are moved into it when the cog is added. Users see one /albastini group.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from discord import app_commands
from discord.ext import commands

from albastini.config import COMMAND_GROUP
from cogs.ui.lang import key_str, name_str

if TYPE_CHECKING:
    from bot import AlbastiniBot

GROUP_NAME = COMMAND_GROUP


def albastini_group(tree: app_commands.CommandTree[Any]) -> app_commands.Group:
    """The bot's /albastini group, made and added to the command tree on first use."""
    found = tree.get_command(GROUP_NAME)
    if isinstance(found, app_commands.Group):
        return found
    # Installed for servers and for people: a person who added the app to their account
    # plays in a group DM, or in a server the bot never joined (cogs/ui/place.py); never in
    # a DM with the bot, where nobody could sit with them.
    group = app_commands.Group(
        name=name_str(GROUP_NAME),
        description=key_str("cmd.group.description"),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
        allowed_contexts=app_commands.AppCommandContext(
            guild=True, dm_channel=False, private_channel=True),
    )
    tree.add_command(group)
    return group


async def add_subcommand_cog(bot: AlbastiniBot, cog: commands.Cog) -> None:
    """Add ``cog`` to the bot with its slash commands as subcommands of /albastini."""
    await bot.add_cog(cog)
    group = albastini_group(bot.tree)
    for command in cog.get_app_commands():
        bot.tree.remove_command(command.name)  # added at the top level by add_cog
        group.add_command(command)


def remove_subcommands(bot: AlbastiniBot, cog: commands.Cog | None) -> None:
    """Take a cog's subcommands out of /albastini (its extension is being unloaded)."""
    found = bot.tree.get_command(GROUP_NAME)
    if cog is None or not isinstance(found, app_commands.Group):
        return
    for command in cog.walk_app_commands():
        if command.parent is found:
            found.remove_command(command.name)
