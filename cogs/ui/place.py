"""Where an interaction comes from, and what the bot may do there.

The app installs for servers and for people (Discord's "user install"): a person who added it
to their account uses its commands in a group DM, or in a server the bot never joined. There
the bot is no member: it cannot post, edit, read the history or start a thread in the channel
(Discord answers 50001 Missing Access); it acts only through the interactions of the people
who click and type, for 15 minutes each. :func:`reaches_channel` says which; the tables,
leaderboards and stats of a place are keyed by :func:`place_id`.
"""

from __future__ import annotations

from typing import Any

import discord


def in_group_dm(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction comes from a group DM (or a DM between people: Discord's
    "private channel" context), which the app reaches only through a person's own install."""
    return interaction.guild_id is None and bool(interaction.context.private_channel)


def place_id(interaction: discord.Interaction[Any]) -> int | None:
    """The key of the place a table, a leaderboard or a stat belongs to: the server's id, or
    for a group DM the channel's own (a group is a server of its own for the store; Discord's
    ids never collide, so no server shares it); None in a DM with the bot."""
    if interaction.guild_id is not None:
        return interaction.guild_id
    if in_group_dm(interaction) and interaction.channel_id is not None:
        return interaction.channel_id
    return None


def reaches_channel(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot may post and edit in the interaction's channel outside its answers: in a
    server that installed the app (the bot is a member there). Not in a group DM, nor in a
    server reached only through the person's own install."""
    return interaction.guild_id is not None and interaction.is_guild_integration()
