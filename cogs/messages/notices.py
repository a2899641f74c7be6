"""A table's ordered public notices: turn pings, summaries, and posts that must go out.

* Every table has one queue of jobs, run in order by a worker of its own: a deal summary never
  overtakes the turn notice before it, a table message posted again never the summary after it.
* Turn notices: one short message mentioning the person whose turn it is (never for computers),
  the previous notice deleted first, so each player is really notified and the channel is not
  flooded. A notice waits ``notice_delay`` seconds first and is not sent at all when the person
  has played by then: someone watching the table needs no ping, and each notice costs two
  requests (post, later delete). Nor is one sent to a person whose private hand follows the
  game and who opened or used it in the last few minutes (``followed``, :mod:`cogs.hands`).
* Important posts are tried again (:meth:`Notices.deliver`), with a growing wait, until they go
  out: Discord failing for a while delays them, in order, but does not lose them. A channel that
  is gone or closed to the bot (404, 403) ends the attempts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from cogs.messages import budget as budgets
from cogs.messages.relay import NoToken, Relay
from cogs.ui import buttons, texts, views

if TYPE_CHECKING:
    from albastini.table import Table
    from albastini.timers import Clock

log = logging.getLogger(__name__)

#: Seconds a turn notice waits: a person who plays within it gets no ping.
NOTICE_DELAY = 3.0
#: Seconds before an important post that failed is tried again; doubled each time up to
#: RETRY_MAX (Discord's outages last seconds to minutes).
RETRY_DELAY = 1.0
RETRY_MAX = 60.0

#: A queued job of a table, and whether it takes a lane.
Job = tuple[Callable[[], Awaitable[None]], bool]


def posts_channel(table: Table) -> int:
    """Where a table's notices and summaries go: its thread if it is played in one, else its
    channel (where its message is)."""
    return table.thread_id or table.channel_id


def deadline_text(table: Table, clock: Clock) -> str:
    """When the current person's time runs out, as a Discord timestamp ("in 45 seconds"),
    which every client shows in its own language; "" when no person's clock is running."""
    deadline = table.turn_deadline
    if deadline is None or table.status != "running":
        return ""
    try:
        left = deadline - clock.time()
    except Exception:
        return ""
    return f"⏳ <t:{int(time.time() + max(0.0, left))}:R>"


class Notices:
    """The ordered notices of every table of one bot.

    ``lanes``: the public requests' slots, shared with the table messages' edits."""

    def __init__(
        self,
        bot: Any,
        service: Any,
        lanes: asyncio.Semaphore,
        *,
        notice_delay: float = NOTICE_DELAY,
        retry_delay: float = RETRY_DELAY,
        retry_max: float = RETRY_MAX,
    ) -> None:
        self.bot = bot
        self.service = service
        self.notice_delay = notice_delay
        self.retry_delay = retry_delay
        self.retry_max = retry_max
        self._lanes = lanes
        self._closing = False
        self._waiting: dict[int, asyncio.TimerHandle] = {}  # table -> notice waiting its delay
        self._queues: dict[int, asyncio.Queue[Job]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._notice: dict[int, tuple[int, int]] = {}  # table -> (message id, move_no)
        #: True while the service reloads tables after a start: their old turn notices, posted
        #: by the previous process, are swept from the channel before any new one.
        self.restoring = False
        self._swept: set[int] = set()
        #: ``followed(table_id, user_id)``: the person watches a private hand that shows them
        #: their turn (cogs/hands.py), so their turn needs no ping
        self.followed: Callable[[int, int], bool] = lambda table_id, user_id: False
        #: The follow-ups of tables played through interactions only (cogs/messages/relay.py)
        self.relay: Relay | None = None

    async def deliver(
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
            except NoToken:
                # a table played through interactions, and nobody clicked for a while: it goes
                # out through the next click's token (waited for without a lane)
                if self.relay is not None:
                    await self.relay.wait(table_id, self.retry_max)
                continue
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

    def enqueue(
        self, table_id: int, job: Callable[[], Awaitable[None]], *, lane: bool = True
    ) -> None:
        """Run ``job`` after the table's earlier ones; ``lane``: it sends public requests, so it
        runs in one of the shared lanes (a job that only waits for others must not hold one)."""
        if self._closing:
            return
        queue = self._queues.get(table_id)
        if queue is None:
            queue = self._queues[table_id] = asyncio.Queue()
        if self.restoring and table_id not in self._swept:
            self._swept.add(table_id)
            queue.put_nowait((lambda: self._sweep_notices(table_id), True))
        queue.put_nowait((job, lane))
        worker = self._workers.get(table_id)
        if worker is None or worker.done():
            self._workers[table_id] = asyncio.get_running_loop().create_task(
                self._work(table_id, queue), name=f"notices-{table_id}"
            )

    async def _work(self, table_id: int, queue: asyncio.Queue[Job]) -> None:
        while not queue.empty():
            job, lane = queue.get_nowait()
            try:
                # its requests wait for the global budget before table edits (cogs/budget.py)
                with budgets.priority((budgets.NOTICE, time.monotonic())):
                    if lane:
                        async with self._lanes:
                            await job()
                    else:
                        await job()
            except Exception:
                log.exception("a notice of table %s failed", table_id)
        # drained: nothing is kept for the table until its next job (a queue and a finished
        # task per open table were memory spent for nothing between a table's notices)
        if self._queues.get(table_id) is queue:
            del self._queues[table_id]
        if self._workers.get(table_id) is asyncio.current_task():
            del self._workers[table_id]

    def turn_started(self, table_id: int, seat: int, move_no: int) -> None:
        """Seat ``seat`` is to make move ``move_no``: ping them after ``notice_delay`` unless
        they have played by then."""
        if self._closing:
            return
        waiting = self._waiting.pop(table_id, None)
        if waiting is not None:
            waiting.cancel()
        if self.notice_delay <= 0:
            self.enqueue(table_id, lambda: self._notify_turn(table_id, seat, move_no))
            return

        def fire() -> None:
            self._waiting.pop(table_id, None)
            table = self.service.get(table_id)
            if table is not None and table.move_no == move_no:
                self.enqueue(table_id, lambda: self._notify_turn(table_id, seat, move_no))

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
        content = texts.turn_notice(lang, table.game, str(view.get("phase")), name=name,
                                    round=int(view.get("round", 1)))
        clock = deadline_text(table, self.service.clock)
        if clock:
            content += " " + clock
        await self._delete_notice(table_id)
        post: dict[str, Any] = {
            "content": content,
            "view": views.build_view(views.notice_buttons(table_id, lang)),
            "allowed_mentions": discord.AllowedMentions(users=[discord.Object(info.user_id)]),
        }
        if table.interactions_only:
            if self.relay is None or self.relay.token(table_id) is None:
                return  # nobody's click to send it through: the table and hands show the turn
            try:
                sent = await self.relay.send(table_id, **post)
            except NoToken:
                return
            self._notice[table_id] = (sent, move_no)
            return
        channel = self.bot.get_partial_messageable(posts_channel(table), guild_id=table.guild_id)
        msg = await channel.send(**post)
        self._notice[table_id] = (msg.id, move_no)

    async def _delete_notice(self, table_id: int) -> None:
        old = self._notice.pop(table_id, None)
        table = self.service.get(table_id)
        if old is None or table is None:
            return
        if table.interactions_only:
            if self.relay is not None:
                await self.relay.delete(old[0])
            return
        channel = self.bot.get_partial_messageable(posts_channel(table), guild_id=table.guild_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.get_partial_message(old[0]).delete()

    def sweep(self, table_id: int) -> None:
        """Remove the turn notices a previous run left for this table (once per run)."""
        if table_id not in self._swept:
            self._swept.add(table_id)
            self.enqueue(table_id, lambda: self._sweep_notices(table_id))

    async def _sweep_notices(self, table_id: int, limit: int = 30) -> None:
        table = self.service.get(table_id)
        me = getattr(self.bot, "user", None)
        if table is None or me is None or table.interactions_only:
            return  # (no history to read where the bot is no member)
        hand_id = buttons.table_button("hand", table_id)
        current = self._notice.get(table_id)
        channel = self.bot.get_partial_messageable(posts_channel(table), guild_id=table.guild_id)
        try:
            async for msg in channel.history(limit=limit):
                # a turn notice is a plain message (no embed, no card) with the hand's button
                if (msg.author.id != me.id or msg.embeds or msg.flags.components_v2
                        or msg.id == table.message_id):
                    continue
                if current is not None and msg.id == current[0]:
                    continue
                if hand_id in buttons.custom_ids(msg):
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

        self.enqueue(table_id, job)

    def clear_notice(self, table_id: int) -> None:
        self.enqueue(table_id, lambda: self._delete_notice(table_id))

    def forget(self, table_id: int) -> None:
        """Drop what was kept for a closed table (from its own last job)."""
        self._notice.pop(table_id, None)
        waiting = self._waiting.pop(table_id, None)
        if waiting is not None:
            waiting.cancel()
        queue = self._queues.get(table_id)
        if queue is not None and queue.empty():
            self._queues.pop(table_id, None)
            self._workers.pop(table_id, None)

    def tasks(self) -> list[asyncio.Task[None]]:
        return list(self._workers.values())

    @property
    def settled(self) -> bool:
        """True when no notice is waiting its delay, queued or in flight."""
        return not self._waiting and all(task.done() for task in self._workers.values())

    def close(self) -> None:
        """Stop: nothing new is queued, no waiting notice goes out."""
        self._closing = True
        for handle in self._waiting.values():
            handle.cancel()
        self._waiting.clear()
