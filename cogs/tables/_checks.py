"""What a table needs before it opens: the channel's permissions, a mode and options the game
has, and, for a table played in a thread, the right to start one. Each check names what is
wrong in the reader's language (None when nothing is), so a refused /albastini start changes
nothing and says why."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from cogs.games import rules as rules_of
from cogs.i18n import join_list, t
from cogs.ui.choices import TEAM_SIZES

#: What the bot needs in a channel to run a table there (catalogue keys name them).
NEEDED_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("view_channel", "permission.view_channel"),
    ("send_messages", "permission.send_messages"),
    ("embed_links", "permission.embed_links"),
    ("attach_files", "permission.attach_files"),
)


def missing_permission(interaction: discord.Interaction[Any]) -> str | None:
    """The catalogue key of the first permission the bot lacks in this channel, if any."""
    perms = interaction.app_permissions
    for attr, key in NEEDED_PERMISSIONS:
        if not getattr(perms, attr, False):
            return key
    return None


def impossible_table(lang: str, game: str, players: int, teams: str | None,
                     options: Mapping[str, int], target: int | None) -> str | None:
    """Why ``game`` cannot be played by ``players`` (in ``teams``), from the game's modes
    (Twenty-Eight: 3, 4 or 6 players, each with its own sides), naming what is possible,
    or with these ``options`` (only a game's own) or a ``target`` (not where banks end the
    match, Ass's); None when it can."""
    try:
        shape = rules_of(game)
    except KeyError:
        return t(lang, "refuse.bad_value")
    named = t(lang, f"choice.game.{game}")
    if any(name not in shape.options for name in options):
        return t(lang, "refuse.no_trumps", game=named)
    if target is not None and not shape.has_target:
        return t(lang, "refuse.no_target", game=named)
    counts = sorted({p for p, _ in shape.modes})
    if players not in counts:
        return t(lang, "refuse.bad_players_game", game=named,
                 players=players, choices=", ".join(str(n) for n in counts))
    sizes = [size for p, size in shape.modes if p == players]
    if teams is None or TEAM_SIZES.get(teams) in sizes:
        return None
    choices = [t(lang, f"choice.mode.{m}") for m, size in TEAM_SIZES.items() if size in sizes]
    return t(lang, "refuse.bad_mode", players=players, mode=t(lang, f"choice.mode.{teams}"),
             choices=join_list(lang, choices))


def may_start_threads(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot may start a public thread in the channel and post in it."""
    perms = interaction.app_permissions
    return bool(perms.create_public_threads and perms.send_messages_in_threads)
