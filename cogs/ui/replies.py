"""Answering an interaction in time, whatever the work behind it costs.

Discord wants the first response within 3 s. :class:`Reply` answers directly when the work is quick
and, if it is not done after ``DEFER_AFTER`` seconds, defers on its own; the later ``send``/``edit``
then go through the follow-up webhook. A lock makes the timer and the handler never answer twice.

A click's answer goes before the public work it causes: what :func:`after_answer` is given
while an interaction is being answered (a table edit, the other players' hands) waits until that
interaction's first response is sent, or ``AFTER_ANSWER_LIMIT`` seconds, whichever comes first.
At many busy tables that work, queued on the event loop ahead of the answer, made the answers
wait for it (bench/README.md, issue 28).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import itertools
import logging
from collections.abc import Callable
from typing import Any

import discord
import discord.http
from discord.webhook.async_ import async_context, interaction_message_response_params

log = logging.getLogger(__name__)

DEFER_AFTER = 1.8
#: Seconds the work :func:`after_answer` holds back waits at most for the answer.
AFTER_ANSWER_LIMIT = 0.25
_UPDATE = discord.InteractionResponseType.message_update


class _Held:
    """The work held back until one interaction's first response is out. Tasks started while
    it is answered inherit the context that points here; a small object of its own, so they
    keep no interaction alive."""

    __slots__ = ("open", "timer", "work")

    def __init__(self) -> None:
        self.open = True
        self.work: list[Callable[[], None]] = []
        self.timer: asyncio.TimerHandle | None = None

    def release(self) -> None:
        """Run what was held, in order, once; later work runs at once."""
        if not self.open:
            return
        self.open = False
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        work, self.work = self.work, []
        for job in work:
            try:
                job()
            except Exception:
                log.exception("work held back behind an answer failed")


#: Discord's refusals of an answer to an interaction that can no longer be answered: it reached
#: the bot after its deadline (404 Unknown interaction) or its token ran out (401 Invalid
#: Webhook Token). Discord's side, not a fault of the bot.
TOO_LATE_CODES = frozenset({10062, 50027})
_too_late_count = itertools.count(1)


def too_late(exc: BaseException) -> bool:
    """Whether ``exc`` is Discord refusing an answer because the interaction expired."""
    return isinstance(exc, discord.HTTPException) and (
        exc.code in TOO_LATE_CODES or exc.status == 401)


def note_too_late(where: str, exc: discord.HTTPException) -> None:
    """One WARNING line (no stack), with how many so far in this process: at load, some
    interactions reach the bot after their deadline, and an operator wants their number."""
    log.warning("%s: the interaction reached the bot too late, Discord refused its answer "
                "(%s %s); %d so far", where, exc.status, exc.code, next(_too_late_count))


_HELD: contextvars.ContextVar[_Held | None] = contextvars.ContextVar("held", default=None)


def after_answer(job: Callable[[], None]) -> None:
    """Run ``job`` once the interaction being answered in this context has its first response
    (or after ``AFTER_ANSWER_LIMIT`` seconds); at once when none is being answered. Jobs run in
    the order given; one that raises is logged."""
    held = _HELD.get()
    if held is None or not held.open:
        job()
        return
    if held.timer is None:
        held.timer = asyncio.get_running_loop().call_later(AFTER_ANSWER_LIMIT, held.release)
    held.work.append(job)


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
        #: Discord refused an answer as too late (:func:`too_late`): nothing more is sent
        self.expired = False
        self._held = _Held()
        _HELD.set(self._held)
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
        try:
            async with self._lock:
                if self.interaction.response.is_done():
                    return
                try:
                    if self.update and self.interaction.type == discord.InteractionType.component:
                        await self.interaction.response.defer()
                    else:
                        await self.interaction.response.defer(
                            ephemeral=self.ephemeral, thinking=True)
                    self.deferred = True
                except discord.HTTPException as exc:
                    if too_late(exc):
                        self.expired = True
                        note_too_late("an acknowledgement", exc)
                    else:
                        log.warning("could not defer an interaction", exc_info=True)
        finally:
            self._held.release()

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
                try:
                    result = await resp.send_message(**kwargs)
                except discord.HTTPException as exc:
                    self.expired = too_late(exc)
                    raise
                finally:
                    self._held.release()
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
                try:
                    if self.interaction.type == discord.InteractionType.component:
                        await update_message(self.interaction, **kwargs)
                    else:
                        await resp.send_message(ephemeral=self.ephemeral, **kwargs)
                except discord.HTTPException as exc:
                    self.expired = too_late(exc)
                    raise
                finally:
                    self._held.release()
                return
            await self.interaction.edit_original_response(**kwargs)

    async def close(self) -> None:
        """Make sure something was answered (an acknowledgement if nothing else)."""
        self._stop_timer()
        if self._task is not None:
            with contextlib.suppress(Exception):
                await self._task
        if not self.interaction.response.is_done() and not self.expired:
            await self.defer()
        self._held.release()
