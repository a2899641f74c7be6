"""Private hands that follow the game: one click per move.

A person's private hand is an ephemeral message, which only the interaction webhook can edit, and
only for 15 minutes after the click (or command) whose token it is. Each time the bot shows a
hand in answer to a person's interaction, the cog tells this module which message and which
token; then, whenever what the hand shows changes in a way that matters (their turn comes, a
card is drawn, a bid is revealed, a timer played for them, the next deal is dealt), the bot
edits that message in place, so the legal moves are enabled when the person looks and they
click once.

* Only the latest hand message of a person follows the game. When a newer one is shown, the
  older one (if its token still works and it is another message) is edited to a short note with
  no buttons, so no enabled button is left there that the bot would refuse as stale.
* Edits are coalesced per person (at most one in flight and one per ``min_interval``; the edit
  renders the latest state) and sent in the background, in lanes of their own: they never delay
  the answer to a click. A hand that now offers the person a move (even within
  ``min_interval``), or offered one, is edited at once; other changes (a card drawn while
  someone else is to play) wait ``lazy`` seconds first, so that the turn that usually follows
  goes out in the same edit (the moment it comes). At most ``BURST`` edits go through one token
  within ``BURST_WINDOW`` seconds, under the webhook's bucket (5 per 2 s per interaction,
  discord-api-docs#2701): the turn's edit meets no 429. A click brings a new token and bucket.
* A token is relied on until ``lifetime - margin`` after its click. Then the bot edits the hand
  one last time with every move disabled and a note saying to press Refresh, and stops
  following it; so does an edit that fails (the message was dismissed, the token refused). The
  person is then pinged on their turn as before: :meth:`HandFollower.covers` tells the
  publisher who needs no ping, and ``on_lost`` reports a hand lost while its person is to act.

What a hand shows is the caller's business: ``state`` summarises a person's view (an edit is
sent only when it changes) and ``build`` renders the message. This module holds no rule.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from cogs.messages.courier import CourierGone, HandEdit, Outcome, edit_hand

if TYPE_CHECKING:
    from albastini.table import Table
    from cogs.messages.courier import Courier

log = logging.getLogger(__name__)

#: Seconds an interaction token works (Discord: 15 minutes).
TOKEN_LIFETIME = 15 * 60.0
#: Seconds before the token's end at which the bot stops relying on it (a slow request, clocks).
TOKEN_MARGIN = 60.0
#: Seconds after the click that showed a person's hand during which they count as watching it.
WATCHING = 180.0
#: Seconds between two edits of one person's hand (the edit that brings their turn excepted).
MIN_INTERVAL = 0.25
#: At most ``BURST`` edits of one hand within ``BURST_WINDOW`` seconds, the turn's included.
BURST = 4
BURST_WINDOW = 2.0
#: Hand edits in flight at once, across all tables.
LANES = 8

Key = tuple[int, int]  # (table id, user id)
#: What a hand message shows: its text and its buttons (custom id, disabled).
Shown = tuple[str, frozenset[tuple[str, bool]]]
#: ``state(table, user_id)``: (a summary of what the person's hand shows, whether it offers them
#: a move now); None if they do not sit at the table.
State = Callable[["Table", int], tuple[Hashable, bool] | None]
#: ``build(table, user_id, lang, retired)``: the message (``content``, and ``specs``: its
#: buttons' specs, or ``view``: a view of them); ``retired``: every move disabled, with a note
#: to press Refresh. None if they do not sit at the table.
Build = Callable[["Table", int, str, bool], dict[str, Any] | None]


@dataclass(slots=True)
class _Hand:
    """Where one person's latest hand message is, and what it shows."""

    application_id: int
    token: str
    #: what to edit: None for the interaction's original response (also the clicked message
    #: after a click was answered by updating it), else the id of a follow-up message
    target: int | None
    #: the message itself, to tell a newer hand message from the same one shown again
    message_id: int | None
    clicked: float  # loop time of the interaction whose token this is
    lang: str
    shown: Hashable | None
    offers: bool  # what it shows offers a move (its buttons must not outlive the move)
    retire: asyncio.TimerHandle | None = field(default=None, repr=False)
    #: what an edit on its way shows (None: none is), and when it is done
    sending: Shown | None = None
    sent: asyncio.Future[None] | None = field(default=None, repr=False)
    #: a click was answered on this message while an edit of the older token was on its way,
    #: and the person had not seen that edit: it may land last, so the hand is shown again
    raced: bool = False


class HandFollower:
    """The latest private hand message of every person who looks at one, kept up to date."""

    def __init__(
        self,
        state: State,
        build: Build,
        get_table: Callable[[int], Table | None],
        *,
        moved: Callable[[str], str],
        on_lost: Callable[[Table, int], None] | None = None,
        lifetime: float = TOKEN_LIFETIME,
        margin: float = TOKEN_MARGIN,
        watching: float = WATCHING,
        min_interval: float = MIN_INTERVAL,
        lazy: float = 0.0,
        lanes: int = LANES,
        clicks_first: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._state = state
        # before an edit is composed: let the clicks being answered go first
        # (cogs/ui/clicks_first.py)
        self._clicks_first = clicks_first
        self._build = build
        self._get_table = get_table
        self._moved = moved  # lang -> the note left on an older hand message
        self._on_lost = on_lost
        self.lifetime = lifetime
        self.margin = margin
        self.watching = watching
        self.min_interval = min_interval
        self.lazy = lazy
        self._lanes = asyncio.Semaphore(lanes)
        self._hands: dict[Key, _Hand] = {}
        self._at_table: dict[int, set[int]] = {}  # table -> the users whose hands are followed
        self._dirty: set[Key] = set()
        self._editors: dict[Key, asyncio.Task[None]] = {}
        # an editor waiting ``lazy`` seconds, woken by the next change of its table: that
        # change may offer a move, which goes out at once
        self._naps: dict[Key, asyncio.Future[None]] = {}
        #: the times of each hand's latest edits through its token (``BURST`` at most), the
        #: last one last
        self._edited: dict[Key, deque[float]] = {}
        self.burst_window = BURST_WINDOW
        self._tasks: set[asyncio.Task[None]] = set()
        self._session: Any = None
        self._http: Any = None
        self._closing = False
        #: The clock the tokens' ages are read on (tests move it with the fake Discord's).
        self.clock: Callable[[], float] = time.monotonic
        #: The courier process (cogs/courier.py) that sends the edits, when there is one: the
        #: requests then cost the event loop only a message down a pipe.
        self.courier: Callable[[], Courier | None] = lambda: None
        #: Edits sent and edits that failed (tests and the benchmark read them).
        self.edits = 0
        self.failures = 0
        #: Told what became of each edit that failed (the bot's metrics count it).
        self.refused: Callable[[Outcome], None] = lambda outcome: None

    # ------------------------------------------------------------------ what the cog says
    def remember(
        self,
        table: Table,
        interaction: discord.Interaction[Any],
        lang: str,
        *,
        followup: discord.Message | None = None,
        message_id: int | None = None,
        state: tuple[Hashable, bool] | None = None,
    ) -> None:
        """``interaction`` has just shown its person their hand: follow the game in it.

        ``followup``: the hand went out as a follow-up message; otherwise it is the
        interaction's original response, or the clicked message updated in place.
        ``message_id``: that message's id when known, to tell it from an older one.
        ``state``: what ``state()`` said when the hand was rendered (else asked now)."""
        if self._closing:
            return
        key = (table.id, interaction.user.id)
        loop = asyncio.get_running_loop()
        self._session = interaction._session
        self._http = interaction._state.http
        if followup is not None:
            message_id = followup.id
        if state is None:
            state = self._state(table, interaction.user.id)
        hand = _Hand(
            application_id=interaction.application_id,
            token=interaction.token,
            target=followup.id if followup is not None else None,
            message_id=message_id,
            clicked=self.clock(),
            lang=lang,
            shown=state[0] if state is not None else None,
            offers=state[1] if state is not None else False,
        )
        old = self._hands.get(key)
        if old is not None:
            self._cancel_retire(old)
            if old.message_id is None or old.message_id != message_id:
                self._spawn(self._leave_old(old))
            elif old.sending is not None:
                clicked = interaction.message
                hand.raced = clicked is None or message_shown(clicked) != old.sending
        # the token's age: a timer for the last edit before it ends (and a check before each use)
        hand.retire = loop.call_later(
            max(0.0, self.lifetime - self.margin), self._retire, key, hand
        )
        self._hands[key] = hand
        if old is None or old.token != hand.token:
            self._edited.pop(key, None)  # Discord's bucket is the token's: a new one starts empty
        self._at_table.setdefault(table.id, set()).add(key[1])
        if state is not None and self._state(table, key[1]) != state:
            # the table moved on while this answer was on its way (a computer played): the
            # change was announced before the hand followed the game, so catch up now
            self._touch(key)

    async def quiet(self, table_id: int, user_id: int, timeout: float = 1.0) -> None:
        """Wait (at most ``timeout``) until no edit of the person's followed hand is on its way:
        a click about to be answered on that message must have the last word, not an edit
        rendered before it that lands after it."""
        hand = self._hands.get((table_id, user_id))
        sent = hand.sent if hand is not None else None
        if sent is not None and not sent.done():
            await asyncio.wait({sent}, timeout=timeout)

    def answering(
        self, table: Table, user_id: int, state: tuple[Hashable, bool] | None = None
    ) -> None:
        """The person's click is about to be answered with their hand as it is now (in place,
        or as a new message), or as ``state`` (what ``state()`` said when the answer was
        rendered): an edit of their followed hand for this change is not needed."""
        hand = self._hands.get((table.id, user_id))
        if hand is None:
            return
        state = state if state is not None else self._state(table, user_id)
        if state is not None:
            hand.shown, hand.offers = state

    def missed(self, table: Table, user_id: int) -> None:
        """The answer to the person's click never reached them (it expired): show their hand
        through the token it is followed with."""
        hand = self._hands.get((table.id, user_id))
        if hand is not None:
            hand.shown = None
            self.changed(table)

    def changed(self, table: Table) -> None:
        """The table changed: bring the hands followed there up to date (where they would show
        something else now)."""
        if self._closing:
            return
        for user_id in self._at_table.get(table.id, ()):
            self._touch((table.id, user_id))

    def _touch(self, key: Key) -> None:
        """Bring this hand up to date (an edit, if what it shows changed)."""
        self._dirty.add(key)
        nap = self._naps.get(key)
        if nap is not None and not nap.done():
            nap.set_result(None)
        task = self._editors.get(key)
        if task is None or task.done():
            self._editors[key] = asyncio.get_running_loop().create_task(
                self._edit_loop(key), name=f"hand-edit-{key[0]}-{key[1]}"
            )

    def covers(self, table_id: int, user_id: int) -> bool:
        """Whether the person's hand follows the game and they opened or used it recently:
        they will see their turn there and need no ping."""
        hand = self._hands.get((table_id, user_id))
        if hand is None:
            return False
        return self.clock() - hand.clicked < min(self.watching, self.lifetime - self.margin)

    @property
    def settled(self) -> bool:
        """No hand edit pending or in flight (tests wait for this)."""
        tasks = [*self._editors.values(), *self._tasks]
        return not self._dirty and all(task.done() for task in tasks)

    async def close(self, timeout: float = 5.0) -> None:
        """Let the edits in flight finish (bounded), then stop."""
        pending = [t for t in [*self._editors.values(), *self._tasks] if not t.done()]
        if pending:
            _done, still = await asyncio.wait(pending, timeout=timeout)
            for task in still:
                task.cancel()
        self._closing = True
        for hand in self._hands.values():
            self._cancel_retire(hand)
        self._hands.clear()
        self._at_table.clear()
        self._dirty.clear()

    # ------------------------------------------------------------------ edits
    async def _edit_loop(self, key: Key) -> None:
        try:
            await self._edit_until_clean(key)
        finally:
            if self._editors.get(key) is asyncio.current_task() and key not in self._dirty:
                del self._editors[key]

    async def _edit_until_clean(self, key: Key) -> None:
        loop = asyncio.get_running_loop()
        lazy_until: float | None = None  # a change that offers no move waits (``lazy``)
        while key in self._dirty and not self._closing:
            while (wait := self._wait_before_edit(key, loop.time())) > 0:
                await self._nap(key, wait)  # a change may bring the turn, which goes sooner
            if self._clicks_first is not None:
                await self._clicks_first()
            self._dirty.discard(key)
            hand = self._hands.get(key)
            table = self._get_table(key[0])
            if hand is None:
                return
            state = self._state(table, key[1]) if table is not None else None
            if table is None or state is None:  # the table is gone, or they left it
                self._drop(key, hand)
                return
            shown, offers = state
            urgent = offers or hand.offers  # moves to enable, or enabled ones to take away
            if shown != hand.shown and not urgent and self.lazy > 0:
                if lazy_until is None:
                    lazy_until = loop.time() + self.lazy
                if loop.time() < lazy_until:
                    await self._nap(key, lazy_until - loop.time())
                    self._dirty.add(key)  # look again: a move may be offered now
                    continue
            if shown != hand.shown:
                lazy_until = None
                payload = self._build(table, key[1], hand.lang, False)
                if payload is None:
                    self._drop(key, hand)
                    return
                self._edited.setdefault(key, deque(maxlen=BURST)).append(loop.time())
                hand.sending = payload_shown(payload)
                hand.sent = loop.create_future()
                try:
                    async with self._lanes:
                        ok = await self._send(hand, payload)
                finally:
                    hand.sending = None
                    hand.sent.set_result(None)
                newer = self._hands.get(key)
                if newer is hand and ok:
                    hand.shown, hand.offers = shown, offers
                elif newer is hand:
                    self._drop(key, hand)
                    if self._on_lost is not None:
                        self._on_lost(table, key[1])
                    return
                elif newer is not None and newer.raced:
                    # the person's own click answered on this message while the edit was on its
                    # way, and the edit may have landed last: show the latest state once more
                    newer.raced = False
                    newer.shown = None
                    self._dirty.add(key)
            if table.status not in ("lobby", "running") and key not in self._dirty:
                self._drop(key, self._hands.get(key))  # its last state is shown: done
                return

    def _wait_before_edit(self, key: Key, now: float) -> float:
        """Seconds the hand's next edit must wait: for the webhook's bucket (``BURST`` edits
        in ``burst_window``), and for ``min_interval`` after the last edit unless the hand now
        offers its person a move (their turn is what they wait for)."""
        edited = self._edited.get(key)
        if not edited:
            return 0.0
        bucket = edited[0] + self.burst_window - now if len(edited) >= BURST else 0.0
        interval = edited[-1] + self.min_interval - now
        if interval > 0 and self._offers_now(key):
            interval = 0.0
        return max(bucket, interval)

    def _offers_now(self, key: Key) -> bool:
        table = self._get_table(key[0])
        state = self._state(table, key[1]) if table is not None else None
        return state is not None and state[1]

    async def _nap(self, key: Key, seconds: float) -> None:
        """Wait ``seconds``, or less if the table changes (:meth:`_touch`)."""
        nap = self._naps[key] = asyncio.get_running_loop().create_future()
        try:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(seconds):
                    await nap
        finally:
            if self._naps.get(key) is nap:
                del self._naps[key]

    def _retire(self, key: Key, hand: _Hand) -> None:
        """The token runs out soon: leave the hand with no move enabled and stop following."""
        if self._hands.get(key) is not hand or self._closing:
            return
        self._drop(key, hand)
        self._spawn(self._send_retired(key, hand))

    async def _send_retired(self, key: Key, hand: _Hand) -> None:
        editor = self._editors.get(key)
        if editor is not None and not editor.done():
            await asyncio.wait({editor})  # an edit in flight must not land after this one
        table = self._get_table(key[0])
        payload = self._build(table, key[1], hand.lang, True) if table is not None else None
        if payload is not None:
            async with self._lanes:
                await self._send(hand, payload, final=True)

    async def _leave_old(self, old: _Hand) -> None:
        """An older hand message: a note and no buttons (a newer message follows the game)."""
        if self._usable(old):
            await self._send_in_lane(old, {"content": self._moved(old.lang), "view": None})

    async def _send_in_lane(self, hand: _Hand, payload: dict[str, Any]) -> None:
        async with self._lanes:
            await self._send(hand, payload)

    def _usable(self, hand: _Hand, *, final: bool = False) -> bool:
        """Whether the hand's token may still be used (its timer may not have run yet); the
        ``final`` edit, which retires the hand, may use half of the margin."""
        margin = self.margin / 2 if final else self.margin
        return self.clock() - hand.clicked < self.lifetime - margin

    async def _send(self, hand: _Hand, payload: dict[str, Any], *, final: bool = False) -> bool:
        """Edit the hand message; False if it cannot be edited any more (dismissed: 404; token
        refused: 401), and the person is then pinged on their turn as before."""
        if not self._usable(hand, final=final):
            return False
        job = HandEdit(
            hand.application_id,
            hand.token,
            hand.target,
            payload.get("content") or "",
            _specs(payload),
        )
        courier = self.courier()
        outcome: Outcome | None = None
        if courier is not None:
            with contextlib.suppress(CourierGone):  # else sent from here
                outcome = await courier.edit_hand(job)
        if outcome is None:
            try:
                outcome = await edit_hand(self._session, self._http, job)
            except Exception:
                log.exception("a private hand could not be updated")
                outcome = "failed"
        if outcome != "ok":
            self.failures += 1
            self.refused(outcome)
            return False
        self.edits += 1
        return True

    def _drop(self, key: Key, hand: _Hand | None) -> None:
        if hand is not None and self._hands.get(key) is hand:
            del self._hands[key]
            users = self._at_table.get(key[0])
            if users is not None:
                users.discard(key[1])
                if not users:
                    del self._at_table[key[0]]
            self._cancel_retire(hand)
            self._edited.pop(key, None)

    @staticmethod
    def _cancel_retire(hand: _Hand) -> None:
        if hand.retire is not None:
            hand.retire.cancel()
            hand.retire = None

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _specs(payload: dict[str, Any]) -> tuple[Any, ...]:
    """The button specs of a hand payload: its ``specs``, or its view's (none: no buttons).
    The private hands give specs alone: a discord.py view would cost the event loop its
    construction for nothing, since the courier sends the specs."""
    specs = payload.get("specs")
    return tuple(specs if specs is not None else getattr(payload.get("view"), "specs", ()))


def payload_shown(payload: dict[str, Any]) -> Shown:
    """The text and buttons (custom id, disabled) of a hand payload."""
    buttons = frozenset((str(s.custom_id), bool(s.disabled)) for s in _specs(payload))
    return str(payload.get("content") or ""), buttons


def message_shown(message: discord.Message) -> Shown:
    """The text and buttons (custom id, disabled) of a message as the person saw it."""
    buttons = frozenset(
        (str(getattr(child, "custom_id", None)), bool(getattr(child, "disabled", False)))
        for row in message.components
        for child in getattr(row, "children", ())
    )
    return message.content or "", buttons
