"""What every feature's cog shares: the bot, the reader's language, private answers, its clicks
routed (:mod:`cogs.ui.router`), and the private "Something went wrong" instead of an
interaction left unanswered."""

from __future__ import annotations

import logging
import traceback
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from albastini.store import StoreUnavailable
from cogs.i18n import t
from cogs.ui.group import remove_subcommands
from cogs.ui.place import place_id
from cogs.ui.replies import Reply, note_too_late, too_late

if TYPE_CHECKING:
    from albastini.session import TableService
    from albastini.store import Store
    from bot import AlbastiniBot
    from cogs.ui.router import Click

log = logging.getLogger(__name__)


def log_exception(where: str, exc: BaseException) -> None:
    """Log where an error happened and its stack, but not its message: an exception's text may
    name a card, and no hidden card may reach a log line."""
    frames = "".join(traceback.format_tb(exc.__traceback__))
    log.error("%s failed: %s\n%s", where, type(exc).__name__, frames.rstrip())


class FeatureCog(commands.Cog):
    """A cog of the bot whose answers go through :class:`~cogs.replies.Reply`."""

    def __init__(self, bot: AlbastiniBot) -> None:
        self.bot = bot
        super().__init__()

    def clicks(self) -> Mapping[str, Callable[[Click], Awaitable[None]]]:
        """The kinds of button (:data:`cogs.ui.buttons.KINDS`) this feature answers, and the
        handler of each; the router sends it their clicks while it is loaded."""
        return {}

    async def cog_load(self) -> None:
        self.bot.router.add(self.clicks())

    async def cog_unload(self) -> None:
        self.bot.router.remove(self.clicks())
        # its subcommands leave the shared /albastini group with it (an extension unloaded or
        # reloaded); discord.py only removes a plain cog's top-level commands itself
        remove_subcommands(self.bot, self)

    @property
    def service(self) -> TableService:
        return self.bot.service

    @property
    def store(self) -> Store:
        return self.bot.store

    def count_refused(self, outcome: str) -> None:
        """An edit of a private message that Discord refused (a hand or a spectator's view,
        sent through its webhook, often by the courier): counted when metrics are on."""
        if (metrics := self.bot.metrics) is not None:
            metrics.refused(outcome)

    async def _lang(self, interaction: discord.Interaction[Any]) -> str:
        """The language of the person who interacts, for private answers."""
        return await self.bot.languages.user(interaction.user.id, place_id(interaction))

    async def private(self, reply: Reply, text: str) -> None:
        """A short private answer."""
        await reply.send(content=text, ephemeral=True)

    async def guild_only(self, interaction: discord.Interaction[Any], reply: Reply) -> bool:
        """True in a server; else (a group DM, a DM) a private word that this is a server's
        feature, and False."""
        if interaction.guild_id is None or interaction.channel_id is None:
            key = "refuse.server_only" if place_id(interaction) is not None else "refuse.dm"
            await self.private(reply, t(await self._lang(interaction), key))
            return False
        return True

    async def place_only(
        self, interaction: discord.Interaction[Any], reply: Reply
    ) -> int | None:
        """The place the interaction belongs to (a server, or a group DM: its tables,
        leaderboards and stats, :func:`~cogs.ui.place.place_id`); None, after a private
        explanation, in a DM with the bot."""
        place = place_id(interaction)
        if place is None or interaction.channel_id is None:
            await self.private(reply, t(await self._lang(interaction), "refuse.dm"))
            return None
        return place

    # ------------------------------------------------------------------ errors
    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await self.answer_error(interaction, error, "command")

    async def answer_error(
        self, interaction: discord.Interaction[Any], error: BaseException, where: str
    ) -> None:
        """Privately say what went wrong instead of leaving the interaction unanswered
        (:func:`answer_error`)."""
        await answer_error(self.bot, interaction, error, where)


async def answer_error(
    bot: AlbastiniBot, interaction: discord.Interaction[Any], error: BaseException, where: str
) -> None:
    """Privately say "Something went wrong" instead of leaving the interaction unanswered;
    "couldn't be saved, try again" when the database refused the write (locked by another
    program, read-only, deleted: the store says which in the log)."""
    if interaction.extras.get("error_answered"):
        return  # discord.py hands a command's error to its cog, then to the tree: once is enough
    interaction.extras["error_answered"] = True
    original = getattr(error, "original", error)
    if isinstance(original, discord.HTTPException) and too_late(original):
        note_too_late(where, original)  # no answer can reach the person any more
        return
    storage = isinstance(original, StoreUnavailable)
    if storage:  # the store's text names the cause and no card; no stack needed
        log.warning("%s: not saved: %s", where, original)
    else:
        log_exception(where, original)
    try:
        lang = await bot.languages.user(interaction.user.id, place_id(interaction))
    except Exception:
        lang = "en"
    text = t(lang, "error.storage" if storage else "error.generic")
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell a user about an error")
