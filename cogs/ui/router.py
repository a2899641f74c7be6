"""Every click on one of the bot's buttons, to the feature that answers its kind of button.

One listener hears every component interaction. It reads the custom id (:mod:`cogs.ui.buttons`,
the one scheme), answers privately a click from outside a server (but on a rules page, anyone's
anywhere), one on a button that is not ours or not on the clicked message (a forged or stale id),
then hands the click to the handler its feature registered for that kind (each feature's
``clicks()``: a table of kind -> handler a reader sees at once), with a :class:`Click` that
holds the private answer's :class:`~cogs.ui.replies.Reply` and the reader's language. A handler
that fails is answered "Something went wrong", privately, within Discord's deadline.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from cogs.i18n import t
from cogs.ui import buttons
from cogs.ui.clicks_first import ClicksFirst
from cogs.ui.feature import answer_error
from cogs.ui.place import place_id
from cogs.ui.replies import Reply

if TYPE_CHECKING:
    from bot import AlbastiniBot

log = logging.getLogger(__name__)

__all__ = ["Click", "Handler", "Router", "let_go"]


@dataclass(frozen=True, slots=True)
class Click:
    """One click on one of our buttons, with what every handler needs to answer it."""

    interaction: discord.Interaction[Any]
    reply: Reply
    button: buttons.ButtonId
    lang: str

    @property
    def user(self) -> discord.User | discord.Member:
        return self.interaction.user


Handler = Callable[[Click], Awaitable[None]]


class Router:
    """Kind of button -> the handler that answers it; :meth:`on_interaction` is the listener."""

    def __init__(self, bot: AlbastiniBot) -> None:
        self.bot = bot
        self._routes: dict[str, Handler] = {}
        #: the clicks being answered, which the edits that follow the game let go first
        self.first = ClicksFirst()

    def add(self, routes: Mapping[str, Handler]) -> None:
        """Route these kinds of button (each a kind of :data:`cogs.ui.buttons.KINDS`, and
        answered by one feature only) to their handlers."""
        for kind in routes:
            if kind not in buttons.KINDS or kind in self._routes:
                raise ValueError(f"no kind of button {kind!r}, or routed twice")
        self._routes.update(routes)

    def remove(self, kinds: Iterable[str]) -> None:
        """Stop routing these kinds (their feature is unloaded)."""
        for kind in kinds:
            self._routes.pop(kind, None)

    async def _lang(self, interaction: discord.Interaction[Any]) -> str:
        return await self.bot.languages.user(interaction.user.id, place_id(interaction))

    async def _refuse(self, interaction: discord.Interaction[Any], key: str) -> None:
        try:
            await interaction.response.send_message(
                t(await self._lang(interaction), key), ephemeral=True)
        except discord.HTTPException:
            log.warning("could not refuse a click (%s)", key)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every component interaction: ours are checked and routed, forged and stale ones too
        (the service refuses what they ask); anything else gets a polite refusal."""
        if interaction.type != discord.InteractionType.component:
            return
        try:
            with self.first.click():
                await self._route(interaction)
        finally:
            if (metrics := self.bot.metrics) is not None:
                metrics.interaction("click", interaction)
            let_go(interaction)

    async def _route(self, interaction: discord.Interaction[Any]) -> None:
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        button = buttons.parse(custom_id)
        if place_id(interaction) is None and (button is None or button.kind != "rules"):
            # Discord sends clicks from a DM to shard 0; the bot is played in a server
            # channel or a group DM, as its commands say (a rules page is anyone's, anywhere).
            await self._refuse(interaction, "refuse.dm")
            return
        handler = self._routes.get(button.kind) if button is not None else None
        if button is None or handler is None or not buttons.carried_by(
                button, custom_id, interaction.message):
            await self._refuse(interaction, "refuse.bad_button")
            return
        reply = Reply(interaction, update=True)
        try:
            await handler(Click(interaction, reply, button, await self._lang(interaction)))
        except Exception as exc:
            if (metrics := self.bot.metrics) is not None and isinstance(
                    exc, discord.HTTPException):
                metrics.discord_error(exc)
            await answer_error(self.bot, interaction, exc, f"button {button.kind}")
        finally:
            await reply.close()


def let_go(interaction: discord.Interaction[Any]) -> None:
    """Free a handled click now rather than at the garbage collector's next full pass.

    discord.py's interaction and its ``response`` refer to each other (the response is cached on
    the interaction and keeps it as its parent), so every click, with its gateway payload and the
    message it was on with all its buttons, outlived its handler as cyclic garbage: at 150 busy
    tables that was nearly all the collector's work and a third of the bot's memory per table
    (figures in bench/README.md). Once the router's handler has returned, nothing answers the
    click any more (its reply is closed, and what follows the game keeps only its token), so the
    cycle is cut and reference counting frees it. ``response.is_done()`` still reads true."""
    response = getattr(interaction, "_cs_response", None)  # only once something asked for it
    if isinstance(response, discord.InteractionResponse):
        response._parent = None  # type: ignore[assignment]

