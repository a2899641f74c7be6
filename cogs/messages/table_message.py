"""A table's one public message, edited as play goes on, and its picture.

* The table message is edited with **coalescing**: at most one edit in flight per table, and at
  most one per ``edit_interval`` seconds; changes that arrive meanwhile only mark the table dirty,
  and the next edit renders the latest state.
* Every edit takes one of the lanes shared with the notices (cogs/notices.py): when the bot is
  busy, its answers to clicks are not queued behind a crowd of edits, and edits waiting for a
  slot carry more changes each (a busy bot edits less often instead of falling behind).
* Every edit also spends a token of the process's share of Discord's global rate limit
  (:mod:`cogs.budget`), taken before the lane: when tables wait for tokens, the one whose oldest
  change waits longest goes first (tables where a person is to play before the others), and
  each edit carries every change made while it waited. :attr:`TableMessages.lags` keeps how
  long each change waited to be shown (the bench prints them).
* Except when someone clicked a button of the table message itself less than
  ``TABLE_TOKEN_LIFE`` ago and the bot answered by updating it (Join, Start: the slash command
  that opened the table too): that interaction's token edits the message outside the global
  limit (Discord's interaction webhook), so a table's first quarter of an hour, and any time
  after such a click, costs none of the budget. A token that no longer works (expired, or its
  message gone) is dropped and the edit goes through the channel.
* A table played through interactions only (a group DM, or a server the bot is not a member
  of: :attr:`Table.interactions_only`) is edited through such tokens alone: Discord refuses the
  channel there. A little before its last token runs out, the table message says that it
  may be behind and that any of its buttons brings it up to date; until the next click on it,
  its changes wait (none is lost: that click's edit shows the table as it is).
* The picture is the costly part: an identical one is never drawn or uploaded again, and when
  pictures queue for other tables, a table's text goes out now and its picture a little later.
* A message that was deleted, or whose id was never saved, is found or posted again, through
  the table's ordered notices (retried until it goes out).
* The edits themselves, and drawing their pictures, are the courier's work
  (:mod:`cogs.courier`, a process of its own) when the bot has one; without it, a picture
  process (:mod:`cogs.painter`) draws and the edits go from here.

Only public views are rendered here (``table.public_view()``): no hand ever reaches a public
message.

Over 500 lines because the edit loop, the two ways an edit goes (a token or the budget), the
picture's cache and the healing of a lost message all act on the same per-table state, in one
order: apart, every edit would pass that state between modules.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import io
import logging
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
import orjson

from albastini.config import token_margin
from cogs import render
from cogs.i18n import t
from cogs.messages import budget as budgets
from cogs.messages import courier, painter, table_card
from cogs.messages.courier import Courier, Outcome
from cogs.messages.notices import Notices, deadline_text
from cogs.ui import buttons, texts
from cogs.ui.cards import ALT_MAX, Card, laid_out

if TYPE_CHECKING:
    from albastini.table import Table

log = logging.getLogger(__name__)

#: Pictures waiting to be drawn beyond which a table's new text goes out without waiting.
PAINT_BACKLOG = 2
#: Seconds before a table whose text went out without its picture tries the picture again.
PICTURE_RETRY = 2.0
#: Failed starts in a row of the courier process after which the bot edits its table messages
#: itself.
COURIER_STARTS = 3
#: Seconds between two edits of one table message (Discord allows about 5 per 5 s per channel).
EDIT_INTERVAL = 1.0
#: Messages of the channel looked through for a table message whose id was never saved.
ORPHAN_SEARCH = 50
#: Lags kept for :attr:`TableMessages.lags` (the most recent ones).
LAGS_KEPT = 200_000
#: Seconds an interaction's token is used to edit the table message it answered: Discord keeps
#: it 15 minutes; the last one is left to the edit that may be in flight.
TABLE_TOKEN_LIFE = 14 * 60.0


def _digest(value: Any) -> bytes:
    """A short fingerprint of a JSON-like value: what a message shows is remembered per table
    as 16 bytes, not as the whole payload or view (memory per table at hundreds of tables)."""
    data = orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    return hashlib.blake2b(data, digest_size=16).digest()


def _signature(payload: dict[str, Any]) -> bytes:
    """What a payload shows (its card, the picture's place in it included), to skip an edit
    that would change nothing."""
    view, embed = payload.get("view"), payload.get("embed")
    return _digest([view.to_components() if view is not None else [],
                    embed.to_dict() if embed is not None else None])


class TableMessages:
    """The table messages of every table of one bot.

    ``notices``: the tables' ordered queues, through which a lost message is posted again."""

    def __init__(
        self,
        bot: Any,
        service: Any,
        lanes: asyncio.Semaphore,
        notices: Notices,
        *,
        edit_interval: float = EDIT_INTERVAL,
        courier: Courier | None = None,
        budget: budgets.GlobalBudget | None = None,
        token_life: float = TABLE_TOKEN_LIFE + 60.0,
        clicks_first: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.bot = bot
        # before an edit is composed: let the clicks being answered go first
        # (cogs/ui/clicks_first.py)
        self._clicks_first = clicks_first
        self.service = service
        self.notices = notices
        self.edit_interval = edit_interval
        self._lanes = lanes
        #: The process's share of Discord's global rate limit (None: unlimited).
        self.budget = budget
        #: Seconds from a change of a table to the end of the edit that shows it, most recent
        #: last (time.monotonic); a change shown by no edit (the table closed) is not counted.
        self.lags: deque[float] = deque(maxlen=LAGS_KEPT)
        self._changes: dict[int, list[float]] = {}  # table -> changes not yet in an edit
        # table -> (message id, application id, interaction token, when it stops being used)
        self._tokens: dict[int, tuple[int, int, str, float]] = {}
        #: The clock of the tokens' lifetimes (tests move it with the fake Discord's).
        self.token_clock: Callable[[], float] = time.monotonic
        self._token_life = token_life  # seconds a token works (Discord: 15 minutes)
        # Tables played through interactions only: whose changes wait for a click on the table
        # message (no token alive), whose message says so, and the timer that says it
        self._sleeping: set[int] = set()
        self._dozing: set[int] = set()
        self._doze_timers: dict[int, asyncio.TimerHandle] = {}
        self._closing = False
        self._last_edit: dict[int, float] = {}  # table -> loop time of its last edit
        self._dirty: set[int] = set()
        self._editors: dict[int, asyncio.Task[None]] = {}
        self.closed_reasons: dict[int, str] = {}  # table -> why it closed (cancelled, idle...)
        # The courier (cogs/courier.py), when given, draws the pictures and sends the edits
        # from a process of its own. Without it, one process draws the pictures
        # (cogs/painter.py), off the event loop and off its GIL, and the edits go from here.
        self.courier = courier
        self._retired: list[Courier] = []  # couriers given up on, closed with the publisher
        self._painter: concurrent.futures.Executor | None = (
            painter.new_pool() if courier is None else None
        )
        self._painting = 0  # pictures waiting to be drawn or being drawn
        self._pictured: set[int] = set()  # tables whose message carries a picture
        # What the picture on each table's message shows (a digest of the public view and the
        # names), and what the one being sent will show: an identical picture is never drawn or
        # uploaded again.
        self._shown: dict[int, bytes] = {}
        self._drawn: dict[int, bytes] = {}
        self._sent: dict[int, bytes] = {}  # what the last edit showed, per table
        self._retry: dict[int, asyncio.TimerHandle] = {}  # stale pictures to draw later
        # Edits of each table message begun and finished: a summary waits for the edit that
        # shows the state it follows (see :meth:`edit_out`).
        self._edits_begun: dict[int, int] = {}
        self._edits_done: dict[int, int] = {}
        self._edit_finished = asyncio.Condition()
        # Tables whose message never reached the channel, or whose id was not saved (the
        # reply to /albastini start failed; the bot stopped in between): found or posted again.
        self._lost: set[int] = set()
        self._reposting: set[int] = set()  # tables whose message is being posted again

    def refresh(self, table_id: int) -> None:
        """Bring the table message up to date soon (coalesced with other pending changes)."""
        if self._closing:
            return
        self._dirty.add(table_id)
        self._changes.setdefault(table_id, []).append(time.monotonic())
        task = self._editors.get(table_id)
        if task is None or task.done():
            self._editors[table_id] = asyncio.get_running_loop().create_task(
                self._edit_loop(table_id), name=f"table-edit-{table_id}"
            )

    @property
    def token_horizon(self) -> float:
        """Seconds a token edits the table message after its interaction: a margin less than
        it works (at most ``TABLE_TOKEN_LIFE``)."""
        return min(TABLE_TOKEN_LIFE, self._token_life - token_margin(self._token_life))

    def remember_token(
        self, table_id: int, message_id: int, application_id: int, token: str
    ) -> None:
        """A click on (or the command that posted) the table message was answered by updating
        (posting) it: its token edits that message, outside the global limit, for a while."""
        table = self.service.get(table_id)
        if table is None or table.message_id != message_id or self._closing:
            return
        expires = self.token_clock() + self.token_horizon
        self._tokens[table_id] = (message_id, application_id, token, expires)
        if table.interactions_only:
            self._awake(table_id)

    def _awake(self, table_id: int) -> None:
        """A table played through interactions got a fresh token: what waited goes out now,
        and a little before this token's end its message will say it may fall behind."""
        timer = self._doze_timers.pop(table_id, None)
        if timer is not None:
            timer.cancel()
        was_behind = table_id in self._sleeping or table_id in self._dozing
        self._sleeping.discard(table_id)
        self._dozing.discard(table_id)
        # the note goes out through this token, a margin before it is given up
        notice = max(0.0, self.token_horizon - token_margin(self.token_horizon))

        def doze() -> None:
            self._doze_timers.pop(table_id, None)
            self._dozing.add(table_id)
            self.refresh(table_id)

        self._doze_timers[table_id] = asyncio.get_running_loop().call_later(notice, doze)
        if was_behind or table_id in self._dirty:
            self.refresh(table_id)

    def sleeping(self, table_id: int) -> bool:
        """Whether a table played through interactions has changes that wait for a click on
        its message (no token of one is alive)."""
        return table_id in self._sleeping

    def _token(self, table_id: int) -> tuple[int, str] | None:
        """(application id, token) that edits the table message now, if one does."""
        held = self._tokens.get(table_id)
        if held is None:
            return None
        message_id, application_id, token, expires = held
        table = self.service.get(table_id)
        if table is None or table.message_id != message_id or self.token_clock() >= expires:
            self._tokens.pop(table_id, None)
            return None
        return application_id, token

    def _key(self, table_id: int) -> budgets.Key:
        """The table's place among the requests waiting for the global budget: its oldest
        change not yet shown, later for a table where no person is to play."""
        changes = self._changes.get(table_id)
        since = changes[0] if changes else time.monotonic()
        table = self.service.get(table_id)
        waiting = table is not None and (
            table.status == "lobby"
            or (table.status == "running" and getattr(table, "turn_deadline", None) is not None)
        )
        return (budgets.EDIT, since + (0.0 if waiting else budgets.COMPUTER_DELAY))

    async def _edit_loop(self, table_id: int) -> None:
        loop = asyncio.get_running_loop()
        while table_id in self._dirty and not self._closing:
            wait = self._last_edit.get(table_id, -math.inf) + self.edit_interval - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if self._clicks_first is not None:
                await self._clicks_first()
            # A token of the budget first (in the order of the tables' oldest changes), then a
            # lane, then room in the budget's window: waiting for a lane never holds a place
            # in the window, which the lanes' other holders (notices) may be waiting for.
            paid = entered = False
            channel = self._token(table_id) is None
            table = self.service.get(table_id)
            if channel and table is not None and table.interactions_only:
                # Discord refuses the channel here: the change waits for the next click on the
                # table message, whose answer brings a token (remember_token wakes it)
                self._dirty.discard(table_id)
                self._sleeping.add(table_id)
                return
            if self.budget is not None and channel:
                await self.budget.reserve(self._key(table_id))
                paid = True
            outcome: Outcome | None = None  # None: nothing sent (its token goes back)
            try:
                async with self._lanes:
                    if self._closing:
                        return
                    if paid and self.budget is not None:
                        await self.budget.enter()
                        entered = True
                    # what changed while waiting goes out in this edit
                    self._dirty.discard(table_id)
                    covered = self._changes.pop(table_id, [])
                    self._last_edit[table_id] = loop.time()
                    self._edits_begun[table_id] = self._edits_begun.get(table_id, 0) + 1
                    outcome = "failed"
                    try:
                        outcome = await self._edit_once(table_id, None if channel else "token")
                    except Exception:
                        log.exception("could not update the message of table %s", table_id)
                    finally:
                        self._edit_over(table_id, outcome, covered)
                        self._edits_done[table_id] = self._edits_done.get(table_id, 0) + 1
                        async with self._edit_finished:
                            self._edit_finished.notify_all()
            finally:
                if paid and self.budget is not None:
                    if outcome is None:
                        self.budget.refund(entered=entered)
                    else:
                        self.budget.done()

    def _edit_over(self, table_id: int, outcome: Outcome | None, covered: list[float]) -> None:
        """Account for an edit (``outcome`` None: nothing was sent): the lags of the changes it
        showed are kept; after a failure, the changes wait for the edit that tries again."""
        table = self.service.get(table_id)
        if table is None or table.message_id is None:
            return  # nothing shows this table's changes any more
        if outcome in ("ok", None):  # None: its message shows this text already
            now = time.monotonic()
            self.lags.extend(now - t for t in covered)
        elif covered and (table_id in self._dirty or table_id in self._retry):
            self._changes[table_id] = covered + self._changes.get(table_id, [])

    async def edit_out(self, table_id: int, edit: int, timeout: float) -> None:
        """Wait until edit number ``edit`` of the table message is done, and the picture it left
        for later (or its retry after a failure) too; at most ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        async with self._edit_finished:
            while not self._closing:
                if self._edits_done.get(table_id, 0) >= edit:
                    if table_id not in self._retry:
                        return
                    edit = self._edits_begun.get(table_id, 0) + 1  # the retry's edit
                left = end - loop.time()
                if left <= 0:
                    log.info("table %s: posting before its message was brought up to date",
                             table_id)
                    return
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._edit_finished.wait(), left)

    async def message_payload(self, table: Table, note: str | None = None) -> dict[str, Any]:
        """The card (``embed`` and ``view``) and ``attachments`` of the table message for the
        table's current state, to post it; ``note``: a line above it (why it is posted again)."""
        payload, _painted = await self._build(table, picture=True)
        card: Card = payload.pop("card")
        if note:
            noted = replace(card, texts=(note, *card.texts))
            payload.update(laid_out(noted, with_picture=payload["view"].with_picture))
        payload.setdefault("attachments", [])
        for key in ("content", "embed"):  # a new message has no content, a V2 card no embed
            if payload.get(key) is None:
                payload.pop(key, None)
        return payload

    async def _build(self, table: Table, *, picture: bool) -> tuple[dict[str, Any], bool]:
        """The table message's payload and whether it carries a fresh picture.

        ``picture=False`` leaves the message's current picture in place (no ``attachments``):
        when pictures are queueing for other tables, the text goes out now and the picture
        follows later (see :meth:`_edit_once`)."""
        payload, draw = self._compose(table, picture=picture)
        if draw is not None:
            await self._attach(table, payload, draw)
        return payload, picture or "attachments" in payload

    def _compose(
        self, table: Table, *, picture: bool
    ) -> tuple[dict[str, Any], courier.Picture | None]:
        """The payload without a new picture (``card``: what it shows; ``embed`` and ``view``:
        the card laid out, with the picture the message has if it has one), and what to draw
        one from (public view, names and game) when the message needs a new one;
        ``attachments=[]`` for a lobby (none)."""
        lang = table.language
        if table.status == "lobby" or table.match is None:
            card = self._noted(table, table_card.lobby_card(table,
                                                            self.closed_reasons.get(table.id)))
            return {"card": card, **laid_out(card), "attachments": []}, None
        card = self._noted(table, table_card.table_card(table,
                                                        deadline_text(table, self.service.clock)))
        kept = table.id in self._pictured  # the message's picture, shown until a new one
        payload: dict[str, Any] = {"card": card, **laid_out(card, with_picture=kept)}
        if not picture:
            return payload, None
        view = table.public_view()
        names_now = texts.picture_names(table, lang)  # computers named in the table's language
        picture_key = _digest((view, names_now))
        self._drawn.pop(table.id, None)
        if kept and self._shown.get(table.id) == picture_key:
            return payload, None  # the one there shows this already
        self._drawn[table.id] = picture_key  # forgotten again if the drawing fails
        return payload, (view, names_now, table.game, lang)  # the alt comes with the picture

    def _noted(self, table: Table, card: Card) -> Card:
        """The card with, first, the word that it may fall behind (a table played through
        interactions whose last token runs out soon)."""
        if table.id not in self._dozing or table.status not in ("lobby", "running"):
            return card
        return replace(card, texts=(t(table.language, "table.asleep"), *card.texts))

    async def _attach(
        self, table: Table, payload: dict[str, Any], draw: courier.Picture
    ) -> None:
        """Draw the picture here (in the painter) and attach it; on failure, say so."""
        card: Card = payload["card"]
        self._painting += 1
        try:
            jpeg, alt = await self._paint(*draw)
        except Exception:
            log.exception("could not draw table %s", table.id)
            self._drawn.pop(table.id, None)
            failed = replace(card, texts=(*card.texts, t(table.language, "error.image_failed")))
            payload.update(laid_out(failed))
            payload["attachments"] = []
        else:
            card = payload["card"] = replace(card, alt=alt)
            payload.update(laid_out(card, with_picture=True))
            payload["attachments"] = [discord.File(io.BytesIO(jpeg), filename=render.PICTURE_FILE,
                                                   description=alt[:ALT_MAX])]
        finally:
            self._painting -= 1

    async def _paint(self, view: dict[str, Any], names: list[str], game: str,
                     lang: str) -> painter.Painted:
        """The picture's bytes and alt text, drawn by the painter process (its pool starts a
        new one if it died: :class:`albastini.workers.HealingPool`)."""
        if self.courier is not None:
            return await self.courier.paint(view, names, game, lang)
        if self._painter is None:
            raise RuntimeError("the picture process is stopped")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._painter, painter.paint, view, names, game, lang)

    async def _edit_once(self, table_id: int, via: str | None = None) -> Outcome | None:
        """Bring the table message up to date; the edit's outcome, None if none was sent.
        ``via="token"``: through the interaction token the table has, if it still has one
        (none was paid for)."""
        table = self.service.get(table_id)
        if table is None or table.message_id is None:
            return None
        has_picture = table.status in ("running", "finished") or (
            table.status == "cancelled" and table.match is not None
        )
        # Pictures are the costly part: when others are already waiting to be drawn, a table
        # that has a picture gets its text now and a fresh picture a little later.
        paint = not has_picture or table.id not in self._pictured or (
            self._painting < PAINT_BACKLOG)
        payload, draw = self._compose(table, picture=paint)
        signature = _signature(payload)
        if not paint and signature == self._sent.get(table_id):
            self._refresh_later(table_id)  # nothing new to say; the picture waits
            return None
        through = self._token(table_id) if via == "token" else None
        if via == "token" and through is None and (
                self.budget is not None or table.interactions_only):
            self._dirty.add(table_id)  # the token ran out meanwhile: the next turn pays
            self._drawn.pop(table_id, None)
            return "token_gone"
        outcome = await self._send_edit(table, payload, draw, through)
        if outcome == "token_gone":
            self._tokens.pop(table_id, None)
            self._drawn.pop(table_id, None)
            self._dirty.add(table_id)  # again at once, through the channel
            return outcome
        if outcome == "not_found":
            if table.status in ("lobby", "running"):
                self._heal(table_id)  # deleted: posted again (retried, in the table's order)
            return outcome
        if outcome == "forbidden":
            log.warning("no permission to edit the message of table %s", table_id)
            return outcome
        if outcome != "ok":
            self._refresh_later(table_id)  # try again in a moment (or with the next change)
            return outcome
        self._sent[table_id] = signature
        if has_picture and paint and payload.get("attachments"):
            self._pictured.add(table_id)
            self._remember_picture(table_id)
        elif paint and "attachments" in payload and not payload["attachments"]:
            self._pictured.discard(table_id)  # no picture any more (lobby, failed drawing)
            self._shown.pop(table_id, None)
        elif has_picture and not paint:
            self._refresh_later(table_id)  # a fresh picture once the others are drawn
        return outcome

    async def _send_edit(
        self,
        table: Table,
        payload: dict[str, Any],
        draw: courier.Picture | None,
        through: tuple[int, str] | None = None,
    ) -> Outcome:
        """Edit the table message (with a new picture drawn from ``draw`` if given), through
        the channel or, ``through`` (application id, token), an interaction's token; on return
        ``payload["attachments"]`` says what went out: absent (kept), [] (none), or [picture]."""
        assert table.message_id is not None
        if self.courier is None:
            if draw is not None:
                await self._attach(table, payload, draw)
            payload.pop("card")
            if through is not None:
                session = getattr(self.bot.http, "_HTTPClient__session", None)
                outcome = await courier.edit_original(session, self.bot.http, through, **payload)
                self._count(outcome)  # a webhook's request: not seen by the client's count
                return outcome
            channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
            try:
                with budgets.prepaid():  # the edit loop took its token
                    await channel.get_partial_message(table.message_id).edit(**payload)
            except discord.NotFound:
                return "not_found"
            except discord.Forbidden:
                return "forbidden"
            return "ok"
        card: Card = payload.pop("card")
        keep = draw is None and "attachments" not in payload
        job = courier.Edit(
            table.channel_id,
            table.message_id,
            card,
            picture=draw,
            keep_picture=keep and table.id in self._pictured,
            clear_attachments=draw is None and payload.get("attachments") == [],
            picture_failed=t(table.language, "error.image_failed"),
            through=through,
        )
        if draw is not None:
            self._painting += 1
        try:
            outcome, painted = await self.courier.edit(job)
            self._count(outcome)
        except courier.CourierGone as exc:
            log.warning("table %s not updated: %s", table.id, exc)
            if self.courier is not None and self.courier.failed_starts >= COURIER_STARTS:
                self._without_courier()
            return "failed"
        finally:
            if draw is not None:
                self._painting -= 1
        if draw is not None:
            if painted:
                payload["attachments"] = [render.PICTURE_FILE]
            else:
                self._drawn.pop(table.id, None)
                payload["attachments"] = []
        return outcome

    def _count(self, outcome: Outcome) -> None:
        """An edit that Discord refused counts among the bot's Discord errors (metrics on)."""
        if (metrics := getattr(self.bot, "metrics", None)) is not None:
            metrics.refused(outcome)

    def _without_courier(self) -> None:
        """The courier cannot be started again: edit the table messages from here from now on."""
        if self.courier is None:
            return
        log.warning("the courier process cannot start; table messages are now edited by the bot")
        self._retired.append(self.courier)
        self.courier = None
        self._painter = painter.new_pool()

    def _remember_picture(self, table_id: int) -> None:
        drawn = self._drawn.pop(table_id, None)
        if drawn is None:
            self._shown.pop(table_id, None)
        else:
            self._shown[table_id] = drawn

    def _refresh_later(self, table_id: int) -> None:
        """Edit the table message again in a moment: a stale picture, or an edit that failed
        (once; an edit in between may do it)."""
        if table_id in self._retry or self._closing:
            return

        def fire() -> None:
            self._retry.pop(table_id, None)
            self.refresh(table_id)

        self._retry[table_id] = asyncio.get_running_loop().call_later(PICTURE_RETRY, fire)

    def lost(self, table_id: int) -> None:
        """The table has no message in the channel that its id was saved for (the reply that
        carried it failed, or the bot stopped before saving its id): find it or post it."""
        if self._closing:
            return
        self._lost.add(table_id)
        table = self.service.get(table_id)
        if table is not None and table.interactions_only:
            # nothing can be posted there but an answer: a new /albastini start replaces it
            log.info("table %s: its message did not reach the group; not posted again", table_id)
            return
        self._heal(table_id)

    def is_lost(self, table_id: int) -> bool:
        """Whether the table's message is known not to be in the channel (being posted again)."""
        return table_id in self._lost

    def found(self, table_id: int) -> None:
        """The table's message is in the channel again (a new /albastini start showed it)."""
        self._lost.discard(table_id)

    def _heal(self, table_id: int) -> None:
        """Post the table message again (once at a time; retried until it goes out)."""
        table = self.service.get(table_id)
        if (table is None or table_id in self._reposting or self._closing
                or table.interactions_only):
            return
        self._reposting.add(table_id)
        gone = table.message_id  # None: never saved

        async def job() -> None:
            try:
                await self.notices.deliver(
                    table_id, "the table message", lambda tb: self._repost(tb, gone)
                )
            finally:
                self._reposting.discard(table_id)

        self.notices.enqueue(table_id, job, lane=False)  # deliver: a lane per attempt

    async def _repost(self, table: Table, gone: int | None) -> None:
        """The table message ``gone`` was deleted, or was never saved (None): adopt the one whose
        id was not saved if the channel still shows it, else post a fresh one; remember it."""
        if table.status not in ("lobby", "running") or table.message_id != gone:
            return  # closed meanwhile, or another message shows it already
        lost = gone is None
        if lost:
            found = await self._orphan(table)
            if found is not None:
                await _maybe(self.service.set_message(table.id, found))
                self._lost.discard(table.id)
                self._pictured.discard(table.id)  # what it shows is unknown: draw it again
                self._shown.pop(table.id, None)
                self.refresh(table.id)
                return
        self._pictured.discard(table.id)  # the new message starts without a picture
        self._shown.pop(table.id, None)
        # a message nobody saw needs no excuse; a deleted one gets a line saying why it is back
        note = None if lost else t(table.language, "error.message_gone")
        payload = await self.message_payload(table, note)
        # what it shows but the note, which stays until the next change
        card = payload["view"].card
        bare = replace(card, texts=card.texts[1:]) if note else card
        shown = _signature(laid_out(bare, with_picture=payload["view"].with_picture))
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        files = payload.pop("attachments", [])
        msg = await channel.send(files=files, **payload)
        if files:
            self._pictured.add(table.id)
            self._remember_picture(table.id)
        await _maybe(self.service.set_message(table.id, msg.id))
        self._lost.discard(table.id)
        if _signature(self._compose(table, picture=False)[0]) != shown:
            # what changed while it was being sent (an edit also clears the line saying why
            # it is back, so only then)
            self.refresh(table.id)

    async def _orphan(self, table: Table) -> int | None:
        """The id of a recent message of the bot that carries this table's buttons (lobby or
        table), if the channel shows one: sent, but its id never saved."""
        me = getattr(self.bot, "user", None)
        if me is None:
            return None
        wanted = {buttons.table_button(kind, table.id) for kind in ("join", "hand", "start")}
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        async for msg in channel.history(limit=ORPHAN_SEARCH):
            if msg.author.id == me.id and wanted & buttons.custom_ids(msg):
                found: int = msg.id
                return found
        return None

    def next_edit(self, table_id: int) -> int:
        """The number of the table message's next edit (which shows the state as it is now)."""
        return self._edits_begun.get(table_id, 0) + 1

    async def forget(self, table_id: int) -> None:
        """A closed table: once its last edit is out, drop what was kept for it."""
        editor = self._editors.get(table_id)
        if editor is not None and not editor.done() and editor is not asyncio.current_task():
            await asyncio.wait({editor}, timeout=30)
        if table_id not in self._dirty:
            self._editors.pop(table_id, None)
        if table_id not in self._dirty:
            self._changes.pop(table_id, None)
        self._tokens.pop(table_id, None)
        self._sleeping.discard(table_id)
        self._dozing.discard(table_id)
        timer = self._doze_timers.pop(table_id, None)
        if timer is not None:
            timer.cancel()
        self._last_edit.pop(table_id, None)
        self.closed_reasons.pop(table_id, None)
        self._lost.discard(table_id)
        if table_id not in self._retry:
            self._pictured.discard(table_id)
            self._sent.pop(table_id, None)
            self._shown.pop(table_id, None)
            self._drawn.pop(table_id, None)
            self._edits_begun.pop(table_id, None)
            self._edits_done.pop(table_id, None)

    def tasks(self) -> list[asyncio.Task[None]]:
        return list(self._editors.values())

    @property
    def settled(self) -> bool:
        """True when no edit is pending, waiting for a picture, or in flight."""
        return (
            not self._dirty
            and not self._retry
            and all(task.done() for task in self._editors.values())
        )

    def lag_summary(self) -> str:
        """How long the table's changes waited to be shown, and the requests the budget let
        through (logged when the bot stops; bench/bot_load.py reads it)."""
        lags = sorted(self.lags)

        def pct(q: float) -> float:
            return lags[min(len(lags) - 1, max(0, math.ceil(q * len(lags)) - 1))]

        text = (
            f"table updates: {len(lags)} changes shown, lag p50 {pct(0.5):.3f} s, "
            f"p99 {pct(0.99):.3f} s, max {lags[-1]:.3f} s"
            if lags
            else "table updates: no change shown"
        )
        if self.budget is not None:
            text += (
                f"; global budget {self.budget.rate:g}/s: {self.budget.taken} requests "
                f"paid, {self.budget.waiting} waiting"
            )
        return text

    async def close(self) -> None:
        """Stop editing; end the picture process and the courier."""
        self._closing = True
        log.info("%s", self.lag_summary())
        for handle in [*self._retry.values(), *self._doze_timers.values()]:
            handle.cancel()
        self._retry.clear()
        self._doze_timers.clear()
        if self._painter is not None:
            await painter.stop_pool(self._painter)
        for gone in [*self._retired, *([self.courier] if self.courier is not None else [])]:
            await gone.close()


async def _maybe(value: Any) -> Any:
    if asyncio.iscoroutine(value) or isinstance(value, asyncio.Future):
        return await value
    return value
