"""The public side of a table: its one message, edited as play goes on, and a few short notices.

* The table message is edited with **coalescing**: at most one edit in flight per table, and at
  most one per ``edit_interval`` seconds; changes that arrive meanwhile only mark the table dirty,
  and the next edit renders the latest state.
* Turn notices: one short message mentioning the person whose turn it is (never for computers),
  the previous notice deleted first, so each player is really notified and the channel is not
  flooded. A notice waits ``notice_delay`` seconds first and is not sent at all when the person
  has played by then: someone watching the table needs no ping, and each notice costs two
  requests (post, later delete). Nor is one sent to a person whose private hand follows the
  game and who opened or used it in the last few minutes (:mod:`cogs.hands`): that hand now
  shows their turn, with the moves enabled.
* Every public request (edits, notices, summaries) takes one of ``LANES`` slots: when the bot is
  busy, its answers to clicks are not queued behind a crowd of edits, and edits waiting for a
  slot carry more changes each (a busy bot edits less often instead of falling behind).
* End of deal and end of match: a summary message (the match one with a Rematch button).
* Important posts (those summaries, and a table message posted again because it was deleted or
  never went out) are tried again, with a growing wait, until they go out: Discord failing for
  a while delays them, in order, but does not lose them. A channel that is gone or closed to the
  bot (404, 403) ends the attempts.
* The edits themselves, and drawing their pictures, are the courier's work
  (:mod:`cogs.courier`, a process of its own) when the bot has one.

Only public views are rendered here (``table.public_view()``): no hand ever reaches a public
message.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import concurrent.futures.process
import contextlib
import io
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from cogs import courier, ids, painter, render, texts, views
from cogs.courier import Courier, Outcome
from cogs.i18n import t

if TYPE_CHECKING:
    from albastini.table import Table

log = logging.getLogger(__name__)

EMBED_COLOUR = discord.Colour(0x1C6E48)
PICTURE_URL = f"attachment://{render.PICTURE_FILE}"
#: Pictures waiting to be drawn beyond which a table's new text goes out without waiting.
PAINT_BACKLOG = 2
#: Seconds before a table whose text went out without its picture tries the picture again.
PICTURE_RETRY = 2.0
#: Failed starts in a row of the courier process after which the bot edits its table messages
#: itself.
COURIER_STARTS = 3
#: Public requests (edits, notices, summaries) in flight at once, across all tables.
LANES = 8
#: Seconds between two edits of one table message (Discord allows about 5 per 5 s per channel).
EDIT_INTERVAL = 1.0
#: Seconds a turn notice waits: a person who plays within it gets no ping.
NOTICE_DELAY = 3.0
#: Seconds a summary waits at most for the table message to show what it sums up (a failing
#: edit must not hold it back for long).
POST_WAIT = 5.0
#: Seconds before an important post that failed is tried again; doubled each time up to
#: RETRY_MAX (Discord's outages last seconds to minutes).
RETRY_DELAY = 1.0
RETRY_MAX = 60.0
#: Messages of the channel looked through for a table message whose id was never saved.
ORPHAN_SEARCH = 50


def _signature(payload: dict[str, Any]) -> tuple[Any, ...]:
    """What a payload shows, to skip an edit that would change nothing."""
    embed = payload.get("embed")
    view = payload.get("view")
    buttons = tuple(
        (getattr(i, "custom_id", None), getattr(i, "label", None), getattr(i, "disabled", None))
        for i in (view.children if view is not None else [])
    )
    if embed is None:
        return (None, buttons)
    return (embed.title, embed.description, embed.footer.text, buttons)


#: A queued job of a table, and whether it takes a lane.
_Job = tuple[Callable[[], Awaitable[None]], bool]


class Publisher:
    """Public messages of every table of one bot."""

    def __init__(
        self,
        bot: Any,
        service: Any,
        *,
        deal_pause: float,
        edit_interval: float = EDIT_INTERVAL,
        notice_delay: float = NOTICE_DELAY,
        lanes: int = LANES,
        courier: Courier | None = None,
        retry_delay: float = RETRY_DELAY,
        retry_max: float = RETRY_MAX,
    ) -> None:
        self.bot = bot
        self.service = service
        self.deal_pause = deal_pause
        self.edit_interval = edit_interval
        self.notice_delay = notice_delay
        self.retry_delay = retry_delay
        self.retry_max = retry_max
        self._lanes = asyncio.Semaphore(lanes)
        self._last_edit: dict[int, float] = {}  # table -> loop time of its last edit
        self._waiting: dict[int, asyncio.TimerHandle] = {}  # table -> notice waiting its delay
        self._dirty: set[int] = set()
        self._editors: dict[int, asyncio.Task[None]] = {}
        self._queues: dict[int, asyncio.Queue[_Job]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._notice: dict[int, tuple[int, int]] = {}  # table -> (message id, move_no)
        self._closing = False
        self.closed_reasons: dict[int, str] = {}  # table -> why it closed (cancelled, idle...)
        #: True while the service reloads tables after a start: their old turn notices, posted
        #: by the previous process, are swept from the channel before any new one.
        self.restoring = False
        self._swept: set[int] = set()
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
        # What the picture on each table's message shows (public view, names), and what the one
        # being sent will show: an identical picture is never drawn or uploaded again.
        self._shown: dict[int, tuple[dict[str, Any], tuple[str, ...]]] = {}
        self._drawn: dict[int, tuple[dict[str, Any], tuple[str, ...]]] = {}
        self._sent: dict[int, tuple[Any, ...]] = {}  # what the last edit showed, per table
        self._retry: dict[int, asyncio.TimerHandle] = {}  # stale pictures to draw later
        #: ``followed(table_id, user_id)``: the person watches a private hand that shows them
        #: their turn (cogs/hands.py), so their turn needs no ping
        self.followed: Callable[[int, int], bool] = lambda table_id, user_id: False
        # Edits of each table message begun and finished: a summary waits for the edit that
        # shows the state it follows (see :meth:`_edit_out`).
        self._edits_begun: dict[int, int] = {}
        self._edits_done: dict[int, int] = {}
        self._edit_finished = asyncio.Condition()
        # Tables whose message never reached the channel, or whose id was not saved (the
        # reply to /albastini start failed; the bot stopped in between): found or posted again.
        self._lost: set[int] = set()
        self._reposting: set[int] = set()  # tables whose message is being posted again

    # ------------------------------------------------------------------ table message
    def refresh(self, table_id: int) -> None:
        """Bring the table message up to date soon (coalesced with other pending changes)."""
        if self._closing:
            return
        self._dirty.add(table_id)
        task = self._editors.get(table_id)
        if task is None or task.done():
            self._editors[table_id] = asyncio.get_running_loop().create_task(
                self._edit_loop(table_id), name=f"albastini-table-edit-{table_id}"
            )

    async def _edit_loop(self, table_id: int) -> None:
        loop = asyncio.get_running_loop()
        while table_id in self._dirty and not self._closing:
            wait = self._last_edit.get(table_id, -math.inf) + self.edit_interval - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            async with self._lanes:
                if self._closing:
                    return
                # what changed while waiting goes out in this edit
                self._dirty.discard(table_id)
                self._last_edit[table_id] = loop.time()
                self._edits_begun[table_id] = self._edits_begun.get(table_id, 0) + 1
                try:
                    await self._edit_once(table_id)
                except Exception:
                    log.exception("could not update the message of table %s", table_id)
                finally:
                    self._edits_done[table_id] = self._edits_done.get(table_id, 0) + 1
                    async with self._edit_finished:
                        self._edit_finished.notify_all()

    async def _edit_out(self, table_id: int, edit: int, timeout: float) -> None:
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

    async def message_payload(self, table: Table) -> dict[str, Any]:
        """embed, attachments and view of the table message for the table's current state."""
        payload, _painted = await self._build(table, picture=True)
        payload.setdefault("attachments", [])
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
    ) -> tuple[dict[str, Any], tuple[dict[str, Any], list[str]] | None]:
        """The payload without a new picture, and what to draw one from (public view and
        names) when the message needs a new one; ``attachments=[]`` for a lobby (none)."""
        lang = table.language
        embed = discord.Embed(colour=EMBED_COLOUR)
        if table.status == "lobby" or table.match is None:
            title, description = texts.lobby_text(table, lang)
            embed.title = title
            if table.status == "cancelled":
                key = (
                    "lobby.expired"
                    if self.closed_reasons.get(table.id) == "idle"
                    else "lobby.closed"
                )
                description += "\n" + t(lang, key)
            embed.description = description
            specs = views.lobby_buttons(table, lang) if table.status == "lobby" else []
            return {"embed": embed, "attachments": [], "view": views.build_view(specs)}, None
        view = table.public_view()
        names = texts.seat_names(table, lang)
        body = render.table_text(
            view,
            names,
            lang,
            deal_no=table.deal_no,
            scores=list(table.scores()),
            target=table.target,
            side_names=texts.side_names(table, lang),
        )
        clock = self.deadline_text(table)
        if clock:
            # beside "▶ X to play", the second line of the text table
            lines = body.split("\n")
            if len(lines) > 1:
                lines[1] += " " + clock
            else:
                lines.append(clock)
            body = "\n".join(lines)
        embed.description = body + "\n\n" + texts.teams_text(table, lang)
        if table.status == "cancelled":
            embed.description += "\n" + t(lang, "lobby.closed")
        specs = views.table_buttons(table, lang)
        payload: dict[str, Any] = {"embed": embed, "view": views.build_view(specs)}
        if not picture:
            if table.id in self._pictured:
                embed.set_image(url=PICTURE_URL)  # the one already there
            return payload, None
        names_now = texts.picture_names(table, lang)  # computers named in the table's language
        picture_key = (view, tuple(names_now))
        self._drawn.pop(table.id, None)
        if table.id in self._pictured and self._shown.get(table.id) == picture_key:
            embed.set_image(url=PICTURE_URL)  # the one there shows this already
            return payload, None
        self._drawn[table.id] = picture_key  # forgotten again if the drawing fails
        return payload, (view, names_now)

    async def _attach(
        self, table: Table, payload: dict[str, Any], draw: tuple[dict[str, Any], list[str]]
    ) -> None:
        """Draw the picture here (in the painter) and attach it; on failure, say so."""
        embed = payload["embed"]
        self._painting += 1
        try:
            png = await self._paint(*draw)
        except Exception:
            log.exception("could not draw table %s", table.id)
            self._drawn.pop(table.id, None)
            embed.set_footer(text=t(table.language, "error.image_failed"))
            payload["attachments"] = []
        else:
            file = discord.File(io.BytesIO(png), filename=render.PICTURE_FILE)
            embed.set_image(url=PICTURE_URL)
            payload["attachments"] = [file]
        finally:
            self._painting -= 1

    async def _paint(self, view: dict[str, Any], names: list[str]) -> bytes:
        """The picture's bytes, drawn by the painter process (its pool starts a new one if it
        died: :class:`albastini.workers.HealingPool`)."""
        if self.courier is not None:
            return await self.courier.paint(view, names)
        if self._painter is None:
            raise RuntimeError("the picture process is stopped")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._painter, painter.paint, view, names)

    def deadline_text(self, table: Table) -> str:
        """When the current person's time runs out, as a Discord timestamp ("in 45 seconds"),
        which every client shows in its own language; "" when no person's clock is running."""
        deadline = table.turn_deadline
        if deadline is None or table.status != "running":
            return ""
        try:
            left = deadline - self.service.clock.time()
        except Exception:
            return ""
        return f"⏳ <t:{int(time.time() + max(0.0, left))}:R>"

    async def _edit_once(self, table_id: int) -> None:
        table = self.service.get(table_id)
        if table is None or table.message_id is None:
            return
        has_picture = table.status in ("running", "finished") or (
            table.status == "cancelled" and table.match is not None
        )
        # Pictures are the costly part: when others are already waiting to be drawn, a table
        # that has a picture gets its text now and a fresh picture a little later.
        paint = not has_picture or self._painting < PAINT_BACKLOG or table.id not in self._pictured
        payload, draw = self._compose(table, picture=paint)
        signature = _signature(payload)
        if not paint and signature == self._sent.get(table_id):
            self._refresh_later(table_id)  # nothing new to say; the picture waits its turn
            return
        outcome = await self._send_edit(table, payload, draw)
        if outcome == "not_found":
            if table.status in ("lobby", "running"):
                self._heal(table_id)  # deleted: posted again (retried, in the table's order)
            return
        if outcome == "forbidden":
            log.warning("no permission to edit the message of table %s", table_id)
            return
        if outcome != "ok":
            self._refresh_later(table_id)  # try again in a moment (or with the next change)
            return
        self._sent[table_id] = signature
        if has_picture and paint and payload.get("attachments"):
            self._pictured.add(table_id)
            self._remember_picture(table_id)
        elif paint and "attachments" in payload and not payload["attachments"]:
            self._pictured.discard(table_id)  # no picture any more (lobby, failed drawing)
            self._shown.pop(table_id, None)
        elif has_picture and not paint:
            self._refresh_later(table_id)

    async def _send_edit(
        self,
        table: Table,
        payload: dict[str, Any],
        draw: tuple[dict[str, Any], list[str]] | None,
    ) -> Outcome:
        """Edit the table message (with a new picture drawn from ``draw`` if given); on return
        ``payload["attachments"]`` says what went out: absent (kept), [] (none), or [picture]."""
        assert table.message_id is not None
        if self.courier is None:
            if draw is not None:
                await self._attach(table, payload, draw)
            channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
            try:
                # content=None also clears the one-off "the message was deleted" line of a repost
                await channel.get_partial_message(table.message_id).edit(content=None, **payload)
            except discord.NotFound:
                return "not_found"
            except discord.Forbidden:
                return "forbidden"
            return "ok"
        job = courier.Edit(
            table.channel_id,
            table.message_id,
            payload["embed"].to_dict(),
            tuple(payload["view"].specs),
            picture=draw,
            clear_attachments=draw is None and payload.get("attachments") == [],
            picture_failed=t(table.language, "error.image_failed"),
        )
        if draw is not None:
            self._painting += 1
        try:
            outcome, painted = await self.courier.edit(job)
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
        if table is None or table_id in self._reposting or self._closing:
            return
        self._reposting.add(table_id)
        gone = table.message_id  # None: never saved

        async def job() -> None:
            try:
                await self._deliver(
                    table_id, "the table message", lambda tb: self._repost(tb, gone)
                )
            finally:
                self._reposting.discard(table_id)

        self._enqueue(table_id, job, lane=False)  # _deliver takes a lane for each attempt

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
        payload = await self.message_payload(table)
        shown = _signature(payload)
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        files = payload.pop("attachments", [])
        # a message nobody saw needs no excuse; a deleted one gets a line saying why it is back
        content = None if lost else t(table.language, "error.message_gone")
        msg = await channel.send(content=content, files=files, **payload)
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
        wanted = {ids.table_button(kind, table.id) for kind in ("join", "hand", "start")}
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        async for msg in channel.history(limit=ORPHAN_SEARCH):
            if msg.author.id != me.id or not msg.embeds:
                continue
            if any(
                getattr(child, "custom_id", None) in wanted
                for row in msg.components
                for child in getattr(row, "children", [])
            ):
                found: int = msg.id
                return found
        return None

    async def _deliver(
        self, table_id: int, what: str, send: Callable[[Table], Awaitable[None]]
    ) -> None:
        """``send`` an important public message until it goes out: Discord failing for a while
        (5xx, 429, the network) only delays it, with a growing wait; the channel gone or closed
        to the bot (404, 403) or a request Discord refuses (4xx) ends the attempts, logged.
        Each attempt takes a lane, none is held while waiting; the table's later messages wait
        behind this one (its worker runs them in order)."""
        delay = self.retry_delay
        while not self._closing:
            table = self.service.get(table_id)
            if table is None:
                return
            try:
                async with self._lanes:
                    await send(table)
                return
            except (discord.NotFound, discord.Forbidden) as exc:
                log.warning(
                    "%s of table %s not sent: the channel is gone or closed to the bot (%s, %s)",
                    what,
                    table_id,
                    exc.status,
                    exc.code,
                )
                return
            except discord.HTTPException as exc:
                if exc.status < 500 and exc.status != 429:
                    log.error(
                        "%s of table %s refused (%s, %s)", what, table_id, exc.status, exc.code
                    )
                    return
                reason = f"{exc.status}, {exc.code}"
            except (TimeoutError, OSError, aiohttp.ClientError) as exc:
                reason = type(exc).__name__
            log.warning(
                "%s of table %s not sent (%s); again in %.1f s", what, table_id, reason, delay
            )
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.retry_max)

    # ------------------------------------------------------------------ ordered notices
    def _enqueue(
        self, table_id: int, job: Callable[[], Awaitable[None]], *, lane: bool = True
    ) -> None:
        """Run ``job`` after the table's earlier ones; ``lane``: it sends public requests, so it
        runs in one of the shared lanes (a job that only waits for others must not hold one)."""
        if self._closing:
            return
        queue = self._queues.setdefault(table_id, asyncio.Queue())
        if self.restoring and table_id not in self._swept:
            self._swept.add(table_id)
            queue.put_nowait((lambda: self._sweep_notices(table_id), True))
        queue.put_nowait((job, lane))
        worker = self._workers.get(table_id)
        if worker is None or worker.done():
            self._workers[table_id] = asyncio.get_running_loop().create_task(
                self._work(table_id, queue), name=f"albastini-notices-{table_id}"
            )

    async def _work(self, table_id: int, queue: asyncio.Queue[_Job]) -> None:
        while not queue.empty():
            job, lane = queue.get_nowait()
            try:
                if lane:
                    async with self._lanes:
                        await job()
                else:
                    await job()
            except Exception:
                log.exception("a notice of table %s failed", table_id)

    def turn_started(self, table_id: int, seat: int, move_no: int) -> None:
        """Seat ``seat`` is to make move ``move_no``: ping them after ``notice_delay`` unless
        they have played by then."""
        if self._closing:
            return
        waiting = self._waiting.pop(table_id, None)
        if waiting is not None:
            waiting.cancel()
        if self.notice_delay <= 0:
            self._enqueue(table_id, lambda: self._notify_turn(table_id, seat, move_no))
            return

        def fire() -> None:
            self._waiting.pop(table_id, None)
            table = self.service.get(table_id)
            if table is not None and table.move_no == move_no:
                self._enqueue(table_id, lambda: self._notify_turn(table_id, seat, move_no))

        loop = asyncio.get_running_loop()
        self._waiting[table_id] = loop.call_later(self.notice_delay, fire)

    async def _notify_turn(self, table_id: int, seat: int, move_no: int) -> None:
        table = self.service.get(table_id)
        if table is None or table.status != "running" or table.move_no != move_no:
            return  # the turn is already over: no stale ping
        info = table.seats[seat] if 0 <= seat < len(table.seats) else None
        if info is None or info.user_id is None or info.away:
            return
        if self.followed(table_id, info.user_id):
            return  # their own hand, which they are looking at, now shows their turn
        lang = table.language
        view = table.public_view()
        name = texts.mention(info.user_id)
        if view.get("phase") == "bidding":
            content = t(lang, "notify.your_bid", name=name)
        else:
            content = t(lang, "notify.your_turn", name=name, round=view.get("round", 1))
        clock = self.deadline_text(table)
        if clock:
            content += " " + clock
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        await self._delete_notice(table_id)
        msg = await channel.send(
            content=content,
            view=views.build_view(views.notice_buttons(table_id, lang)),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(info.user_id)]),
        )
        self._notice[table_id] = (msg.id, move_no)

    async def _delete_notice(self, table_id: int) -> None:
        old = self._notice.pop(table_id, None)
        table = self.service.get(table_id)
        if old is None or table is None:
            return
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.get_partial_message(old[0]).delete()

    def sweep(self, table_id: int) -> None:
        """Remove the turn notices a previous run left for this table (once per run), and find
        or post again its message if the previous run stopped before saving the message's id."""
        if table_id not in self._swept:
            self._swept.add(table_id)
            self._enqueue(table_id, lambda: self._sweep_notices(table_id))
        table = self.service.get(table_id)
        if table is not None and table.message_id is None and table.status in ("lobby", "running"):
            self.lost(table_id)  # the previous run stopped before it saved the message's id

    async def _sweep_notices(self, table_id: int, limit: int = 30) -> None:
        table = self.service.get(table_id)
        me = getattr(self.bot, "user", None)
        if table is None or me is None:
            return
        hand_id = ids.table_button("hand", table_id)
        current = self._notice.get(table_id)
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            async for msg in channel.history(limit=limit):
                if msg.author.id != me.id or msg.embeds or msg.id == table.message_id:
                    continue
                if current is not None and msg.id == current[0]:
                    continue
                if any(
                    getattr(child, "custom_id", None) == hand_id
                    for row in msg.components
                    for child in getattr(row, "children", [])
                ):
                    with contextlib.suppress(discord.HTTPException):
                        await msg.delete()
        except discord.HTTPException:
            log.info("could not look for old turn notices of table %s", table_id)

    def turn_done(self, table_id: int, move_no: int) -> None:
        """Move ``move_no`` was made: its turn notice has served and is removed."""

        async def job() -> None:
            notice = self._notice.get(table_id)
            if notice is not None and notice[1] == move_no:
                await self._delete_notice(table_id)

        self._enqueue(table_id, job)

    def clear_notice(self, table_id: int) -> None:
        self._enqueue(table_id, lambda: self._delete_notice(table_id))

    def post(
        self, table_id: int, build: Callable[[Table], tuple[str, list[views.ButtonSpec]]]
    ) -> None:
        """Post a public message built from the table when its turn in the queue comes (an
        important one: a deal summary, the match's end; tried until it goes out, in order),
        under a table message that shows what it follows: the table's pending edit goes out
        first (waited for at most ``POST_WAIT`` seconds), so a deal summary never comes before
        the last round on the table."""

        async def send(table: Table) -> None:
            content, specs = build(table)
            channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
            kwargs: dict[str, Any] = {"content": content}
            if specs:
                kwargs["view"] = views.build_view(specs)
            await channel.send(**kwargs)

        async def job() -> None:
            await self._deliver(table_id, "a summary", send)

        self.refresh(table_id)
        edit = self._edits_begun.get(table_id, 0) + 1  # the next edit shows the state now
        self._enqueue(table_id, lambda: self._edit_out(table_id, edit, POST_WAIT), lane=False)
        self._enqueue(table_id, job, lane=False)  # _deliver takes a lane for each attempt

    def forget(self, table_id: int) -> None:
        """A closed table: once its last notices and edit are out, drop what was kept for it."""

        async def job() -> None:
            editor = self._editors.get(table_id)
            if editor is not None and not editor.done() and editor is not asyncio.current_task():
                await asyncio.wait({editor}, timeout=30)
            if table_id not in self._dirty:
                self._editors.pop(table_id, None)
            self._notice.pop(table_id, None)
            self._last_edit.pop(table_id, None)
            waiting = self._waiting.pop(table_id, None)
            if waiting is not None:
                waiting.cancel()
            self.closed_reasons.pop(table_id, None)
            self._lost.discard(table_id)
            if table_id not in self._retry:
                self._pictured.discard(table_id)
                self._sent.pop(table_id, None)
                self._shown.pop(table_id, None)
                self._drawn.pop(table_id, None)
                self._edits_begun.pop(table_id, None)
                self._edits_done.pop(table_id, None)
            queue = self._queues.get(table_id)
            if queue is not None and queue.empty():
                self._queues.pop(table_id, None)
                self._workers.pop(table_id, None)

        self._enqueue(table_id, job, lane=False)  # it waits for the edit, which needs a lane

    @property
    def settled(self) -> bool:
        """True when no edit or notice is pending or in flight (tests wait for this)."""
        tasks = [*self._editors.values(), *self._workers.values()]
        return (
            not self._dirty
            and not self._retry
            and not self._waiting
            and all(task.done() for task in tasks)
        )

    # ------------------------------------------------------------------ shutdown
    async def close(self, timeout: float = 5.0) -> None:
        """Let edits and notices in flight finish (bounded), then stop."""
        pending = [t for t in [*self._editors.values(), *self._workers.values()] if not t.done()]
        if pending:
            _done, still = await asyncio.wait(pending, timeout=timeout)
            for task in still:
                task.cancel()
        self._closing = True
        for handle in [*self._retry.values(), *self._waiting.values()]:
            handle.cancel()
        self._retry.clear()
        self._waiting.clear()
        if self._painter is not None:
            await painter.stop_pool(self._painter)
        for gone in [*self._retired, *([self.courier] if self.courier is not None else [])]:
            await gone.close()


async def _maybe(value: Any) -> Any:
    if asyncio.iscoroutine(value) or isinstance(value, asyncio.Future):
        return await value
    return value
