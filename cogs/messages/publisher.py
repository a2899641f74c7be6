"""The public side of a table: its one message (:mod:`cogs.table_message`) and its ordered
notices (:mod:`cogs.notices`), behind the one object the cogs talk to.

* End of deal and end of match: a summary message (the match one with a Rematch button), posted
  in the table's order under a table message that shows what it follows.
* Every public request (edits, notices, summaries) takes one of ``LANES`` slots shared by both.
* Every request that counts toward Discord's global rate limit (all but the answers to
  interactions and the edits through their tokens) first takes a token of one budget shared by
  every table (:mod:`cogs.budget`): notices first, then the table edits whose oldest change
  has waited longest.

Only public views are rendered here (``table.public_view()``): no hand ever reaches a public
message.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from cogs.games import presenter
from cogs.messages import budget as budgets
from cogs.messages.courier import Courier
from cogs.messages.notices import (
    NOTICE_DELAY,
    RETRY_DELAY,
    RETRY_MAX,
    Notices,
    deadline_text,
    posts_channel,
)
from cogs.messages.pool import BudgetPool, LeaseSource
from cogs.messages.relay import TOKEN_LIFE, Relay
from cogs.messages.table_message import EDIT_INTERVAL, TableMessages
from cogs.ui import views
from cogs.ui.cards import Card, CardView

if TYPE_CHECKING:
    from albastini.table import Table

#: Public requests (edits, notices, summaries) in flight at once, across all tables.
LANES = 8
#: Seconds a summary waits at most for the table message to show what it sums up (a failing
#: edit must not hold it back for long).
POST_WAIT = 5.0


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
        global_rate: float | None = None,
        global_share: float = 1.0,
        token_life: float = TOKEN_LIFE,
        global_pool: LeaseSource | None = None,
        clicks_first: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.bot = bot
        self.service = service
        self.deal_pause = deal_pause
        #: The process's part (``global_share``: a cluster's share of the bot's shards) of the
        #: ``global_rate`` requests per second the bot token spends on Discord's global rate
        #: limit (None: unlimited), spent by every counted request of ``bot.http``.
        #: With ``global_pool`` (clusters on PostgreSQL), the processes lend each other what
        #: they do not use (cogs/messages/pool.py); else each spends its fixed part.
        self.pool: BudgetPool | None = None
        self.budget: budgets.GlobalBudget | None = None
        if global_rate and global_pool is not None:
            self.pool = BudgetPool.start_with(global_pool, rate=global_rate, share=global_share)
            self.budget = self.pool.budget
        elif global_rate:
            self.budget = budgets.for_share(global_rate, global_share)
        http = getattr(bot, "http", None)
        if self.budget is not None and callable(getattr(http, "request", None)):
            budgets.guard(http, self.budget)
        shared = asyncio.Semaphore(lanes)
        self.notices = Notices(
            bot,
            service,
            shared,
            notice_delay=notice_delay,
            retry_delay=retry_delay,
            retry_max=retry_max,
        )
        #: tables played through interactions only: their follow-ups (cogs/messages/relay.py)
        self.relay = Relay(bot, token_life=token_life)
        self.notices.relay = self.relay
        self.message = TableMessages(
            bot,
            service,
            shared,
            self.notices,
            edit_interval=edit_interval,
            courier=courier,
            budget=self.budget,
            token_life=token_life,
            clicks_first=clicks_first,
        )
        #: table -> why it closed (cancelled, idle...), for the closed table message
        self.closed_reasons: dict[int, str] = self.message.closed_reasons

    # ------------------------------------------------------------------ settings of the parts
    @property
    def courier(self) -> Courier | None:
        """The process that edits the table messages (None: the bot edits them itself)."""
        return self.message.courier

    @courier.setter
    def courier(self, value: Courier | None) -> None:
        self.message.courier = value

    @property
    def followed(self) -> Callable[[int, int], bool]:
        """``followed(table_id, user_id)``: whose turn needs no ping (cogs/hands.py)."""
        return self.notices.followed

    @followed.setter
    def followed(self, value: Callable[[int, int], bool]) -> None:
        self.notices.followed = value

    @property
    def restoring(self) -> bool:
        """True while the service reloads tables after a start (old notices are swept first)."""
        return self.notices.restoring

    @restoring.setter
    def restoring(self, value: bool) -> None:
        self.notices.restoring = value

    @property
    def retry_delay(self) -> float:
        """Seconds before an important post that failed is tried again (then doubled)."""
        return self.notices.retry_delay

    @retry_delay.setter
    def retry_delay(self, value: float) -> None:
        self.notices.retry_delay = value

    # ------------------------------------------------------------------ table message
    def refresh(self, table_id: int) -> None:
        """Bring the table message up to date soon (coalesced with other pending changes)."""
        self.message.refresh(table_id)

    async def message_payload(self, table: Table, note: str | None = None) -> dict[str, Any]:
        """embed, attachments and view of the table message for the table's current state."""
        return await self.message.message_payload(table, note)

    def deadline_text(self, table: Table) -> str:
        """When the current person's time runs out, as a Discord timestamp."""
        return deadline_text(table, self.service.clock)

    def table_token(
        self, table_id: int, message_id: int, application_id: int | None, token: str
    ) -> None:
        """An interaction answered by posting or updating the table message ``message_id``:
        its token edits that message outside Discord's global rate limit for a while."""
        if application_id is not None:
            self.message.remember_token(table_id, message_id, application_id, token)

    def interaction_token(self, table_id: int, application_id: int | None, token: str) -> None:
        """An interaction at the table (a click on any of its messages, a private hand's too, or
        a command about it) was answered: a table played through interactions only sends its
        follow-ups through its token for a while (and those that waited for one go out)."""
        table = self.service.get(table_id)
        if table is not None and table.interactions_only:
            self.relay.remember(table_id, application_id, token)

    def lost(self, table_id: int) -> None:
        """The table has no message in the channel that its id was saved for: find or post it."""
        self.message.lost(table_id)

    def is_lost(self, table_id: int) -> bool:
        """Whether the table's message is known not to be in the channel (being posted again)."""
        return self.message.is_lost(table_id)

    def found(self, table_id: int) -> None:
        """The table's message is in the channel again (a new /albastini start showed it)."""
        self.message.found(table_id)

    # ------------------------------------------------------------------ ordered notices
    def sweep(self, table_id: int) -> None:
        """Remove the turn notices a previous run left for this table (once per run), and find
        or post again its message if the previous run stopped before saving the message's id."""
        table = self.service.get(table_id)
        if table is not None and table.interactions_only:
            # no channel to look in: its message is brought up to date by the next click on it
            self.refresh(table_id)
            return
        self.notices.sweep(table_id)
        if table is not None and table.message_id is None and table.status in ("lobby", "running"):
            self.lost(table_id)  # the previous run stopped before it saved the message's id

    def turn_started(self, table_id: int, seat: int, move_no: int) -> None:
        """Seat ``seat`` is to make move ``move_no``: ping them after the notice delay unless
        they have played by then."""
        self.notices.turn_started(table_id, seat, move_no)

    def turn_done(self, table_id: int, move_no: int) -> None:
        """Move ``move_no`` was made: its turn notice has served and is removed."""
        self.notices.turn_done(table_id, move_no)

    def clear_notice(self, table_id: int) -> None:
        self.notices.clear_notice(table_id)

    def post(
        self, table_id: int, build: Callable[[Table], tuple[str, list[views.ButtonSpec]]],
        *, beside_the_table: bool = False,
    ) -> None:
        """Post a public message built from the table (its text and buttons, shown as a card in
        the game's colour) when its turn in the queue comes (an important one: a deal summary,
        the match's end; tried until it goes out, in order), in the table's thread if it has
        one (``beside_the_table``: in the channel of the table message, a match's end),
        under a table message that shows what it follows: the table's pending edit goes out
        first (waited for at most ``POST_WAIT`` seconds), so a deal summary never comes before
        the last round on the table."""

        async def send(table: Table) -> None:
            text, specs = build(table)
            card = Card(presenter(table.game).ACCENT, (text,), tuple(specs))
            if table.interactions_only:  # a follow-up of the latest click at the table
                await self.relay.send(table.id, view=CardView(card))
                return
            where = table.channel_id if beside_the_table else posts_channel(table)
            channel = self.bot.get_partial_messageable(where, guild_id=table.guild_id)
            await channel.send(view=CardView(card))

        async def job() -> None:
            await self.notices.deliver(table_id, "a summary", send)

        self.refresh(table_id)
        edit = self.message.next_edit(table_id)  # the next edit shows the state now
        self.notices.enqueue(
            table_id, lambda: self.message.edit_out(table_id, edit, POST_WAIT), lane=False
        )
        self.notices.enqueue(table_id, job, lane=False)  # deliver takes a lane per attempt

    def archive_thread(self, table_id: int) -> None:
        """A closed table's thread is archived once its last notices and summaries are out (a
        later message would open it again)."""

        async def archive(table: Table) -> None:
            if table.thread_id is not None:
                await self.bot.http.edit_channel(table.thread_id, archived=True)

        async def job() -> None:
            await self.notices.deliver(table_id, "the thread's archiving", archive)

        self.notices.enqueue(table_id, job, lane=False)

    def forget(self, table_id: int) -> None:
        """A closed table: once its last notices and edit are out, drop what was kept for it."""

        async def job() -> None:
            await self.message.forget(table_id)
            self.notices.forget(table_id)
            self.relay.forget(table_id)

        self.notices.enqueue(table_id, job, lane=False)  # it waits for the edit, which needs a lane

    @property
    def settled(self) -> bool:
        """True when no edit or notice is pending or in flight (tests wait for this)."""
        return self.message.settled and self.notices.settled

    # ------------------------------------------------------------------ shutdown
    async def close(self, timeout: float = 5.0) -> None:
        """Let edits and notices in flight finish (bounded), then stop."""
        pending = [t for t in [*self.message.tasks(), *self.notices.tasks()] if not t.done()]
        if pending:
            _done, still = await asyncio.wait(pending, timeout=timeout)
            for task in still:
                task.cancel()
        self.notices.close()
        await self.message.close()
        if self.pool is not None:
            await self.pool.close()
