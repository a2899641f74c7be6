"""The public messages of a table the bot reaches only through interactions.

In a group DM, or a server the bot never joined (the app installed by a person for
themselves: :mod:`cogs.ui.place`), Discord refuses every channel request (50001 Missing
Access). What the bot can do there is answer the people's clicks and commands, and through
each one's token, for 15 minutes, send follow-up messages and edit them. So a table played
there sends its turn notices, deal summaries and the match's end as follow-ups through the
token of the latest interaction at the table (any click, a private hand's too); its table
message is edited through the tokens of the clicks on it
(:mod:`cogs.messages.table_message`).

When no token is alive (nobody clicked for 15 minutes, or the bot restarted), an important
post (a summary, the match's end) waits for the next click and goes out then, in order; a turn
notice that cannot go out is skipped (the table message and the hands show whose turn it is).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

import discord

from albastini.config import token_margin

log = logging.getLogger(__name__)

#: Seconds an interaction's token works (Discord: 15 minutes).
TOKEN_LIFE = 15 * 60.0


class NoToken(Exception):
    """No interaction at the table has a token alive: the post waits for the next click."""


class Relay:
    """The freshest interaction token of every table played through interactions, and the
    follow-ups sent through them."""

    def __init__(self, bot: Any, *, token_life: float = TOKEN_LIFE) -> None:
        self.bot = bot
        #: Seconds a token is relied on after its interaction: a little less than it works.
        self.horizon = token_life - token_margin(token_life)
        #: The clock of the tokens' lifetimes (tests may move it with the fake Discord's).
        self.clock: Callable[[], float] = time.monotonic
        self._tokens: dict[int, tuple[int, str, float]] = {}  # table -> (app, token, until)
        self._arrived: dict[int, asyncio.Event] = {}  # tables whose posts wait for a token
        # follow-up message -> (application id, token) that sent it, to delete it (turn notices)
        self._senders: dict[int, tuple[int, str]] = {}

    def remember(self, table_id: int, application_id: int | None, token: str) -> None:
        """An interaction at the table was answered: its token sends the table's follow-ups
        for a while (and wakes the posts that waited for one)."""
        if application_id is None:
            return
        self._tokens[table_id] = (application_id, token, self.clock() + self.horizon)
        waiting = self._arrived.pop(table_id, None)
        if waiting is not None:
            waiting.set()

    def token(self, table_id: int) -> tuple[int, str] | None:
        """(application id, token) that sends the table's follow-ups now, if one does."""
        held = self._tokens.get(table_id)
        if held is None:
            return None
        application_id, token, until = held
        if self.clock() >= until:
            del self._tokens[table_id]
            return None
        return application_id, token

    async def wait(self, table_id: int, timeout: float) -> bool:
        """Wait at most ``timeout`` seconds for a click at the table to bring a token; whether
        one is alive now."""
        if self.token(table_id) is not None:
            return True
        event = self._arrived.setdefault(table_id, asyncio.Event())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)
        return self.token(table_id) is not None

    def _webhook(self, through: tuple[int, str]) -> discord.Webhook:
        application_id, token = through
        # what discord.py's Interaction.followup is: the application's webhook of that token
        return discord.Webhook.from_state(
            data={"id": application_id, "type": 3, "token": token}, state=self.bot._connection
        )

    async def send(self, table_id: int, **kwargs: Any) -> int:
        """Post a public follow-up at the table (``content``, ``view``, ``allowed_mentions``);
        its message id. :class:`NoToken` when no interaction's token is alive; a token that
        stopped working (401, 404 Unknown Webhook) is dropped, and NoToken raised too."""
        through = self.token(table_id)
        if through is None:
            raise NoToken
        try:
            msg = await self._webhook(through).send(wait=True, **kwargs)
        except discord.HTTPException as exc:
            if exc.status == 401 or (exc.status == 404 and exc.code == 10015):
                log.info("table %s: a token no longer sends follow-ups (%s, %s)", table_id,
                         exc.status, exc.code)
                if self._tokens.get(table_id, (0, "", 0.0))[1] == through[1]:
                    del self._tokens[table_id]
                raise NoToken from None
            raise
        self._senders[msg.id] = through
        return msg.id

    async def delete(self, message_id: int) -> None:
        """Delete a follow-up this relay sent, while the token that sent it works (a turn notice
        that served); an older one stays."""
        through = self._senders.pop(message_id, None)
        if through is None:
            return
        try:
            await self._webhook(through).delete_message(message_id)
        except discord.HTTPException:
            log.info("a turn notice stays: its token no longer deletes it")

    def forget(self, table_id: int) -> None:
        """A closed table: drop its token."""
        self._tokens.pop(table_id, None)
        waiting = self._arrived.pop(table_id, None)
        if waiting is not None:
            waiting.set()
