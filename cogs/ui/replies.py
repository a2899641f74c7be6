"""Answering an interaction in time, whatever the work behind it costs.

Discord wants the first response within 3 s. :class:`Reply` answers directly when the work is quick
and, if it is not done after ``DEFER_AFTER`` seconds, defers on its own; the later ``send``/``edit``
then go through the follow-up webhook. A lock makes the timer and the handler never answer twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord
import discord.http
from discord.webhook.async_ import async_context, interaction_message_response_params

log = logging.getLogger(__name__)

DEFER_AFTER = 1.8
_UPDATE = discord.InteractionResponseType.message_update


async def update_message(interaction: discord.Interaction[Any], **kwargs: Any) -> None:
    """Answer a click by updating the clicked message (``content``, ``embed``, ``view``...).

    What ``interaction.response.edit_message`` does, minus Discord's copy of the updated message:
    discord.py always asks for it (``with_response``) and parses it into a Message, which this bot
    never reads: work for the event loop on every click, and for Discord to send it (figures in
    ``bench/README.md``). Uses discord.py's own payload builder and webhook adapter (pinned to
    2.7.x)."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    params = interaction_message_response_params(
        type=_UPDATE.value,
        previous_allowed_mentions=interaction._state.allowed_mentions,
        **kwargs,
    )
    route = discord.http.Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    http = interaction._state.http
    await async_context.get().request(
        route,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        payload=params.payload,
        multipart=params.multipart,
        files=params.files,
    )
    response._response_type = _UPDATE  # answered: is_done() is now True


class Reply:
    """One interaction's responses.

    ``update=True`` for buttons: a late answer defers as "update the clicked message" (type 6) so
    ``edit`` changes that message and ``send`` adds a private follow-up. Otherwise the defer is a
    "thinking…" message, public or private as ``ephemeral`` says.
    """

    def __init__(
        self,
        interaction: discord.Interaction[Any],
        *,
        update: bool = False,
        ephemeral: bool = True,
        defer_after: float = DEFER_AFTER,
    ) -> None:
        self.interaction = interaction
        self.update = update
        self.ephemeral = ephemeral
        self._lock = asyncio.Lock()
        self._timer: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None
        self.deferred = False
        #: the last ``send`` went out as a follow-up message (not as the original response)
        self.followed_up = False
        if defer_after > 0:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(defer_after, self._start_defer)

    def _start_defer(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self.defer())

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    @property
    def done(self) -> bool:
        return self.interaction.response.is_done()

    async def defer(self) -> None:
        """Acknowledge now (no visible change for a button; "thinking…" for a command)."""
        self._stop_timer()
        async with self._lock:
            if self.interaction.response.is_done():
                return
            try:
                if self.update and self.interaction.type == discord.InteractionType.component:
                    await self.interaction.response.defer()
                else:
                    await self.interaction.response.defer(ephemeral=self.ephemeral, thinking=True)
                self.deferred = True
            except discord.HTTPException:
                log.warning("could not defer an interaction", exc_info=True)

    async def send(
        self,
        content: str | None = None,
        *,
        embed: discord.Embed | None = None,
        view: discord.ui.View | None = None,
        file: discord.File | None = None,
        ephemeral: bool | None = None,
    ) -> discord.Message | None:
        """A new message: the response if none was sent yet, else a follow-up."""
        self._stop_timer()
        eph = self.ephemeral if ephemeral is None else ephemeral
        kwargs: dict[str, Any] = {"ephemeral": eph}
        if content is not None:
            kwargs["content"] = content
        if embed is not None:
            kwargs["embed"] = embed
        if view is not None:
            kwargs["view"] = view
        if file is not None:
            kwargs["file"] = file
        async with self._lock:
            resp = self.interaction.response
            self.followed_up = resp.is_done()
            if not self.followed_up:
                result = await resp.send_message(**kwargs)
                resource = getattr(result, "resource", None)
                return resource if isinstance(resource, discord.Message) else None
            if eph and self.deferred and not self.update and not self.ephemeral:
                # a public "thinking…" would stay forever above a private answer: remove it
                with contextlib.suppress(discord.HTTPException):
                    await self.interaction.delete_original_response()
            return await self.interaction.followup.send(wait=True, **kwargs)

    async def edit(self, **kwargs: Any) -> None:
        """Change the clicked message (a button's message) or the command's response."""
        self._stop_timer()
        async with self._lock:
            resp = self.interaction.response
            if not resp.is_done():
                if self.interaction.type == discord.InteractionType.component:
                    await update_message(self.interaction, **kwargs)
                    return
                await resp.send_message(ephemeral=self.ephemeral, **kwargs)
                return
            await self.interaction.edit_original_response(**kwargs)

    async def close(self) -> None:
        """Make sure something was answered (an acknowledgement if nothing else)."""
        self._stop_timer()
        if self._task is not None:
            with contextlib.suppress(Exception):
                await self._task
        if not self.interaction.response.is_done():
            await self.defer()
