"""The fake Discord server (REST + gateway) and the driver that plays the people.

Long (about 1,500 lines) because it is one server: the routes the bot uses, the gateway, the
interaction deadlines and fault injection all read and change the same state (channels,
messages, interactions), and the driver beside it reads that state as a person would."""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import orjson
from aiohttp import WSMsgType, web

from .models import (
    ALL_PERMISSIONS,
    BOT_DM_PERMISSIONS,
    COMPONENTS_V2,
    CREATE_PUBLIC_THREADS,
    DM,
    EPHEMERAL,
    GROUP_DM,
    LOADING,
    PRIVATE_PERMISSIONS,
    PUBLIC_THREAD,
    SEND_MESSAGES_IN_THREADS,
    FakeAttachment,
    FakeButton,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    FakeUser,
    form_errors,
    iso_now,
    media_urls,
    snowflake,
    validate_message,
)
from .shared import SharedGlobalLimit

if TYPE_CHECKING:  # discord is imported only when a bot is run against the fake
    import discord

#: The bot `run_bot` runs and hands back, as its own type.
ClientT = TypeVar("ClientT", bound="discord.Client")

JSON = {"Content-Type": "application/json"}
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12
TOKEN_LIFETIME = 15 * 60.0
#: Discord's global rate limit: requests per bot token, per second.
GLOBAL_RATE = (50, 1.0)
#: Routes outside the global limit (after /api/vN): interaction callbacks and the interaction
#: webhook (follow-ups, edits of the original response and of follow-ups).
GLOBAL_EXEMPT = re.compile(r"^/(?:interactions/[^/]+/[^/]+/callback|webhooks/[^/]+/[^/]+)")


class DriverError(Exception):
    """The driver was asked to do something a person in a Discord client cannot do."""


@dataclass
class InteractionResult:
    """What happened to one interaction sent by the driver.

    `response_type` is the callback type the bot answered with (4 message, 5 deferred message,
    6 deferred update, 7 update message, 9 modal) or None if it never answered in time
    (`failed` is then True). `message` is the message the response created, filled in, or
    updated (for 6 and 7 the clicked message); it is the live object, so later edits show.
    `shard` is the shard whose gateway connection the interaction was delivered on (a
    server's by its id; a DM's or group DM's always 0, as Discord routes them).
    """

    interaction_id: int
    token: str
    type: int
    user: FakeUser
    response_type: int | None = None
    message: FakeMessage | None = None
    ephemeral: bool = False
    failed: bool = False
    modal: dict[str, Any] | None = None
    shard: int | None = None


@dataclass
class Rejection:
    """A request the fake refused with a 4xx because the bot broke one of Discord's rules."""

    method: str
    path: str
    status: int
    body: dict[str, Any]


#: Discord's text for the error codes a fault may carry (any other code gets a generic text).
ERROR_TEXT: dict[int, str] = {
    10003: "Unknown Channel",
    10008: "Unknown Message",
    10015: "Unknown Webhook",
    10062: "Unknown interaction",
    40060: "Interaction has already been acknowledged.",
    50001: "Missing Access",
    50013: "Missing Permissions",
    50027: "Invalid Webhook Token",
}
#: Discord's text for a status without a JSON error code (its gateway/proxy answers).
STATUS_TEXT: dict[int, str] = {
    500: "500: Internal Server Error",
    502: "502: Bad Gateway",
    503: "503: Service Unavailable",
    504: "504: Gateway Timeout",
}
_API_PREFIX = re.compile(r"^/api/v(?:\d+|\{version[^}]*\})")
_PLACEHOLDER = re.compile(r"\{[^}]*\}")


@dataclass(eq=False)
class Fault:
    """A failure the fake injects (see :meth:`FakeDiscord.fail`); ``stop()`` ends it early."""

    method: str
    route: str | re.Pattern[str]
    status: int
    code: int
    message: str
    times: int | None = None
    until: Callable[[], Any] | None = None
    ends_at: float | None = None  # on the controlled clock
    hits: int = 0
    stopped: bool = False

    def stop(self) -> None:
        self.stopped = True

    def matches(self, method: str, path: str, canonical: str) -> bool:
        if self.method not in ("*", method):
            return False
        if isinstance(self.route, re.Pattern):
            return self.route.search(path) is not None
        if "{" in self.route:  # a route template: placeholder names need not match ours
            want = _PLACEHOLDER.sub("{}", _API_PREFIX.sub("", self.route))
            return want == _PLACEHOLDER.sub("{}", _API_PREFIX.sub("", canonical))
        return _API_PREFIX.sub("", self.route) == _API_PREFIX.sub("", path)


@dataclass
class FaultHit:
    """One request the fake failed on purpose (by a :class:`Fault`)."""

    method: str
    path: str
    status: int
    code: int


@dataclass(eq=False)
class _Interaction:
    id: int
    token: str
    type: int
    user: FakeUser
    guild_id: int | None  # None from a DM or group DM
    channel_id: int
    created: float  # on the controlled clock
    result: InteractionResult
    future: asyncio.Future[InteractionResult]
    source: FakeMessage | None = None  # the clicked message for components
    responded: bool = False
    failed: bool = False
    original_id: int | None = None
    message_ids: set[int] = field(default_factory=set)
    timer: asyncio.TimerHandle | None = None


@dataclass(eq=False)
class _Session:
    ws: web.WebSocketResponse
    shard_id: int = 0
    shard_count: int = 1
    intents: int = 0
    seq: int = 0
    session_id: str = ""
    identified: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, op: int, d: Any, t: str | None = None) -> None:
        if self.ws.closed:
            return
        if op == 0:
            self.seq += 1
            frame = {"op": 0, "t": t, "s": self.seq, "d": d}
        else:
            frame = {"op": op, "d": d, "s": None, "t": None}
        async with self.lock:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.ws.send_str(orjson.dumps(frame).decode())


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    h = dict(JSON)
    if headers:
        h.update(headers)
    return web.Response(body=orjson.dumps(data), status=status, headers=h)


def _err(status: int, code: int, message: str, **extra: Any) -> web.Response:
    return _json({"code": code, "message": message, **extra}, status=status)


class FakeDiscord:
    """A wire-level fake of Discord's REST API and gateway, plus a driver that plays people.

    Args:
        interaction_deadline: seconds the bot has for the first response (Discord: 3.0).
        edit_rate: optional (limit, per_seconds) for message creates/edits per channel
            (channel routes only); beyond it the fake answers 429 with Discord's headers.
        shards: shard count announced by GET /gateway/bot (more than 1 makes discord.py
            sleep 5 s between IDENTIFYs).
        max_messages: per-channel history cap (oldest messages are forgotten).
        app_id: the bot's application id (also its user id).
        global_rate: (limit, per_seconds) of Discord's global rate limit per bot token, over
            a sliding window (default 50 per second; None: off). The interaction endpoints
            (callbacks, and the interaction webhook's follow-ups and edits) do not count;
            beyond it the fake answers a global 429 (see :meth:`_global_check`).
    """

    def __init__(
        self,
        *,
        interaction_deadline: float = 3.0,
        edit_rate: tuple[int, float] | None = None,
        shards: int = 1,
        max_messages: int = 10000,
        app_id: int | None = None,
        bot_name: str = "Albastini",
        global_rate: tuple[int, float] | None = GLOBAL_RATE,
        cv2_media_patch_bug: bool = True,
        token_lifetime: float = TOKEN_LIFETIME,
        global_limit: SharedGlobalLimit | None = None,
    ) -> None:
        self.interaction_deadline = interaction_deadline
        #: Seconds an interaction's token works (Discord: 15 minutes; a test shortens it so as
        #: not to wait): then its follow-ups and edits are refused, 401 Invalid Webhook Token.
        self.token_lifetime = token_lifetime
        #: Discord's open bug of Components V2 (discord-api-docs#7529): an edit through an
        #: interaction token cannot upload a file that a media gallery shows (400).
        self.cv2_media_patch_bug = cv2_media_patch_bug
        #: Permissions taken from the bot, by channel (``deny``).
        self.denied: dict[int, int] = {}
        #: Archived threads that a message of the bot opened again, in order.
        self.reopened_threads: list[int] = []
        self.edit_rate = edit_rate
        self.shards = shards
        self.max_messages = max_messages
        self.app_id = app_id or snowflake()
        self.bot_user = FakeUser(self.app_id, bot_name, bot=True)
        self.host = "127.0.0.1"
        self.port = 0
        #: Every request the fake did not know, as "METHOD /path".
        self.unknown_routes: list[str] = []
        #: Interactions the bot did not answer within the deadline.
        self.failed_interactions: list[InteractionResult] = []
        #: Requests refused for breaking Discord's rules (limits, double responses, expiry...).
        self.rejections: list[Rejection] = []
        #: Requests answered with 429, as "METHOD /path".
        self.rate_limited: list[str] = []
        #: Requests that crashed a handler (malformed ids or bodies), answered 400.
        self.server_errors: list[str] = []
        #: Faults injected with `fail` (ended ones stay listed, inactive).
        self.faults: list[Fault] = []
        #: Every request failed on purpose by a fault, in order.
        self.fault_hits: list[FaultHit] = []
        #: Count of REST requests served, by "METHOD route-template".
        self.request_counts: dict[str, int] = {}
        #: When a list: every REST request from then on, as "METHOD path", in the order they
        #: reached the fake (tests that care what the bot sends first set it).
        self.request_log: list[str] | None = None
        #: Synced global commands (as echoed back, with ids).
        self.global_commands: list[dict[str, Any]] = []
        #: Synced guild commands by guild id.
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.users: dict[int, FakeUser] = {}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self._messages: dict[int, FakeMessage] = {}
        self._attachment_index: dict[int, FakeAttachment] = {}
        self._channel_messages: dict[int, dict[int, FakeMessage]] = {}
        self._interactions: dict[int, _Interaction] = {}
        self._by_token: dict[str, _Interaction] = {}
        self._expired_tokens: set[str] = set()
        self._sessions: list[_Session] = []
        self._clock_offset = 0.0
        self._buckets: dict[int, list[float]] = {}
        self._in_flight = 0
        self._last_activity = time.monotonic()
        self._changed: asyncio.Event | None = None
        self._runner: web.AppRunner | None = None
        self.identify_count = 0
        self.global_rate = global_rate
        #: The global limit shared with other fake processes (``shared.py``); None: this
        #: process's own windows, per token.
        self.global_limit = global_limit
        if global_limit is not None:
            self.global_rate = (global_limit.limit, global_limit.per)
        #: Requests refused by the global rate limit, as "METHOD /path" (also in rate_limited).
        self.global_limited: list[str] = []
        self._global_windows: dict[str, deque[float]] = {}  # token -> counted request times
        #: Refuse the bot's token: "login" (GET /users/@me answers 401, as Discord does for a
        #: wrong token) or "identify" (the gateway closes with 4004 at IDENTIFY, as when the
        #: token was reset after the bot logged in); None accepts any token.
        self.reject_token: str | None = None
        self.guild_id = self.add_guild("Albastini Club")
        self.channel_id = next(iter(self.guilds[self.guild_id].channels))

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> FakeDiscord:
        """Start the server on 127.0.0.1 at a free port."""
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._routes(app)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        return self

    async def stop(self) -> None:
        """Close every gateway connection and stop the server."""
        for s in list(self._sessions):
            with contextlib.suppress(Exception):
                await s.ws.close(code=1000)
        for inter in self._interactions.values():
            if inter.timer:
                inter.timer.cancel()
            if not inter.future.done():  # nobody waits forever on a stopped fake
                inter.result.failed = True
                inter.future.set_result(inter.result)
        if self._runner:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        """http://127.0.0.1:PORT"""
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """The REST base the bot must use, e.g. http://127.0.0.1:PORT/api/v10."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """The gateway URL, ws://127.0.0.1:PORT/gateway."""
        return f"ws://{self.host}:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """Environment variables for a bot run in a subprocess (bot.py honours them)."""
        return {"DISCORD_API_BASE": self.api_base, "DISCORD_GATEWAY_URL": self.gateway_url}

    @contextlib.contextmanager
    def patch(self) -> Iterator[None]:
        """Point discord.py in this process at the fake (process-wide class attributes)."""
        import discord.gateway
        import discord.http
        import yarl

        old_base = discord.http.Route.BASE
        old_gw = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gw

    @contextlib.asynccontextmanager
    async def run_bot(self, bot: ClientT, token: str = "fake-token",
                      timeout: float = 10.0) -> AsyncIterator[ClientT]:
        """Run a discord.py Client/Bot in this process against the fake until the block ends.

        Logs in, connects with reconnect=False, waits for on_ready, yields the bot, then
        closes it. A crash of the bot's connection while starting raises here.
        """
        with self.patch():
            await bot.login(token)
            task = asyncio.create_task(bot.connect(reconnect=False))
            ready = asyncio.create_task(bot.wait_until_ready())
            done, _ = await asyncio.wait({task, ready}, timeout=timeout,
                                         return_when=asyncio.FIRST_COMPLETED)
            if ready not in done:
                ready.cancel()
                if task in done:
                    await bot.close()
                    task.result()
                    raise RuntimeError("the bot stopped before it was ready")
                await bot.close()
                task.cancel()
                raise TimeoutError("the bot did not become ready")
            try:
                yield bot
            finally:
                await bot.close()
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await asyncio.wait_for(task, 5)

    # ------------------------------------------------------------------ world
    def add_guild(self, name: str, channels: tuple[str, ...] = ("albastini",), *,
                  bot_member: bool = True) -> int:
        """Create a guild with text channels; returns its id. If a bot is connected it gets
        GUILD_CREATE, as when a bot joins a guild. ``bot_member=False``: a server that never
        added the bot; its people reach the app through their own install (interactions with
        context 0 authorized by the user only), and every channel request of the bot there is
        refused (403, 50001 Missing Access); the bot hears nothing of it on the gateway."""
        gid = snowflake()
        g = FakeGuild(id=gid, name=name, owner_id=snowflake(), moderator_role_id=snowflake(),
                      manager_role_id=snowflake(), bot_member=bot_member)
        self.guilds[gid] = g
        for ch in channels:
            self.add_channel(ch, gid)
        if not bot_member:
            return gid
        for s in self._sessions:  # like a bot joining a guild while connected
            if s.identified and self._shard_of(gid, s):
                asyncio.get_running_loop().create_task(
                    s.send(0, self._guild_payload(g), "GUILD_CREATE"))
        return gid

    def add_channel(self, name: str, guild_id: int | None = None) -> int:
        """Create a text channel in a guild (default guild); returns its id (CHANNEL_CREATE
        is sent to a connected bot)."""
        g = self.guilds[guild_id or self.guild_id]
        ch = FakeChannel(id=snowflake(), guild_id=g.id, name=name, position=len(g.channels))
        g.channels[ch.id] = ch
        self.channels[ch.id] = ch
        self._channel_messages[ch.id] = {}
        for s in self._sessions:
            if s.identified and self._shard_of(g.id, s) and g.bot_member:
                asyncio.get_running_loop().create_task(s.send(0, ch.payload(), "CHANNEL_CREATE"))
        return ch.id

    def add_dm(self, user: FakeUser) -> int:
        """The DM channel between `user` and the bot (made on first use); returns its id.
        Interactions from it carry no guild and reach shard 0 only, as on Discord."""
        for ch in self.channels.values():
            if ch.type == DM and ch.recipients == [user]:
                return ch.id
        return self._add_private(FakeChannel(id=snowflake(), guild_id=None, name="", type=DM,
                                             recipients=[user]))

    def add_group_dm(self, owner: FakeUser, *others: FakeUser, name: str = "Friends") -> int:
        """A group DM made by `owner` with `others`; returns its id. An app reaches one only when
        a person installed it for themselves (interaction context 2); interactions from it
        carry no guild and reach shard 0 only."""
        return self._add_private(FakeChannel(id=snowflake(), guild_id=None, name=name,
                                             type=GROUP_DM, recipients=[owner, *others],
                                             owner_id=owner.id))

    def _add_private(self, ch: FakeChannel) -> int:
        self.channels[ch.id] = ch
        self._channel_messages[ch.id] = {}
        return ch.id

    def add_user(self, name: str, *, manage_messages: bool = False, manage_guild: bool = False,
                 owner: bool = False, locale: str = "en-US",
                 guild_id: int | None = None) -> FakeUser:
        """Create a guild member. Best done before the bot connects (then GUILD_CREATE lists
        them); later is fine too (interactions carry the member, and GUILD_MEMBER_ADD is sent
        to bots that asked for the members intent). `owner=True` makes them the guild owner."""
        g = self.guilds[guild_id or self.guild_id]
        user = FakeUser(snowflake(), name, manage_messages=manage_messages,
                        manage_guild=manage_guild, owner=owner, locale=locale)
        self.users[user.id] = user
        g.member_ids.append(user.id)
        if owner:
            g.owner_id = user.id
        for s in self._sessions:
            if (s.identified and s.intents & GUILD_MEMBERS_INTENT and self._shard_of(g.id, s)
                    and g.bot_member):
                payload = {**g.member_payload(user), "guild_id": str(g.id)}
                asyncio.get_running_loop().create_task(
                    s.send(0, payload, "GUILD_MEMBER_ADD"))
        return user

    # ------------------------------------------------------------------ fault injection
    def fail(self, method: str, route: str | re.Pattern[str], *, status: int = 503,
             code: int | None = None, message: str | None = None, times: int | None = None,
             until: Callable[[], Any] | float | None = None) -> Fault:
        """Fail matching REST requests with a Discord-shaped error until the fault ends.

        `method` ("POST", or "*" for any); `route` a template such as
        "/channels/{cid}/messages" (placeholder names are free; the /api/vN prefix optional), a
        concrete path ("/channels/123/messages"), or a compiled regex searched in the path.
        `code`/`message`: the JSON error (defaults: Discord's text for the code, or for the
        status). It ends after `times` failed requests, when the callable `until()` is truthy,
        or `until` seconds later on the controlled clock (`advance` moves it), or on
        `fault.stop()` / `heal()`; without any of them it lasts. Every failure is recorded
        in `fault_hits`; the request never reaches the fake's handler (nothing changes)."""
        if code is None:
            code = {403: 50001, 404: 10003}.get(status, 0)
        if message is None:
            message = ERROR_TEXT.get(code) or STATUS_TEXT.get(status) or f"{status}: Error"
        fault = Fault(method.upper(), route, status, code, message, times=times)
        if callable(until):
            fault.until = until
        elif until is not None:
            fault.ends_at = self.now() + float(until)
        self.faults.append(fault)
        return fault

    def heal(self) -> None:
        """End every injected fault."""
        for fault in self.faults:
            fault.stop()

    def _active(self, fault: Fault) -> bool:
        if fault.stopped:
            return False
        if (fault.times is not None and fault.hits >= fault.times) or (
            fault.ends_at is not None and self.now() >= fault.ends_at
        ) or (fault.until is not None and fault.until()):
            fault.stopped = True
            return False
        return True

    def _injected(self, request: web.Request, canonical: str) -> web.Response | None:
        """The error response of the first active fault matching this request, if any."""
        for fault in self.faults:
            if not self._active(fault) or not fault.matches(request.method, request.path,
                                                              canonical):
                continue
            fault.hits += 1
            self.fault_hits.append(FaultHit(request.method, request.path, fault.status,
                                            fault.code))
            body: dict[str, Any] = {"message": fault.message, "code": fault.code}
            headers: dict[str, str] = {}
            if fault.status == 429:
                body.update(retry_after=1.0, **{"global": False})
                headers = {"Retry-After": "1", "X-RateLimit-Scope": "user", "Via": "1.1 google"}
            return _json(body, status=fault.status, headers=headers)
        return None

    # ------------------------------------------------------------------ clock and waiting
    def now(self) -> float:
        """The controlled clock: real monotonic time plus everything `advance` added."""
        return time.monotonic() + self._clock_offset

    def advance(self, seconds: float) -> None:
        """Move the controlled clock forward (token expiry uses it; deadlines do not)."""
        self._clock_offset += seconds

    def _notify(self) -> None:
        if self._changed is not None:
            self._changed.set()
            self._changed = None

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 5.0) -> Any:
        """Wait until `predicate()` is truthy (re-checked after every change); return its value.

        Raises TimeoutError with the predicate's last value after `timeout` seconds."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            left = end - loop.time()
            if left <= 0:
                raise TimeoutError(f"condition not met within {timeout}s (last value {value!r})")
            if self._changed is None:
                self._changed = asyncio.Event()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(left, 0.05))

    async def wait_connected(self, timeout: float = 20.0, shards: int | None = None) -> None:
        """Wait until a bot has IDENTIFYed on every shard (for bots run in a subprocess)."""
        want = shards or self.shards
        await self.wait_until(lambda: self.connected >= want, timeout=timeout)

    async def wait_idle(self, quiet: float = 0.05, timeout: float = 10.0) -> None:
        """Wait until no REST request is in flight and none arrived for `quiet` seconds."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            idle_for = time.monotonic() - self._last_activity
            if self._in_flight == 0 and idle_for >= quiet:
                return
            if loop.time() > end:
                raise TimeoutError(f"the bot was still busy after {timeout}s")
            await asyncio.sleep(max(quiet - idle_for, 0.005))

    # ------------------------------------------------------------------ reading the channel
    def messages(self, channel_id: int | None = None) -> list[FakeMessage]:
        """Public messages of a channel (default channel), oldest first."""
        msgs = self._channel_messages[channel_id or self.channel_id].values()
        return [m for m in msgs if m.ephemeral_for is None]

    def visible(self, user: FakeUser, channel_id: int | None = None) -> list[FakeMessage]:
        """The channel as `user` sees it: public messages and their own ephemerals, in order."""
        msgs = self._channel_messages[channel_id or self.channel_id].values()
        return [m for m in msgs if m.ephemeral_for is None or m.ephemeral_for == user.id]

    def ephemerals(self, user: FakeUser, channel_id: int | None = None) -> list[FakeMessage]:
        """Only the ephemeral messages `user` has received in a channel, oldest first."""
        msgs = self._channel_messages[channel_id or self.channel_id].values()
        return [m for m in msgs if m.ephemeral_for == user.id]

    def last_message(self, user: FakeUser | None = None, channel_id: int | None = None,
                     ephemeral: bool | None = None) -> FakeMessage | None:
        """The newest message visible to `user` (public only if user is None), or None.
        `ephemeral=True/False` restricts to ephemeral or public ones."""
        msgs = self._channel_messages[channel_id or self.channel_id]
        for m in reversed(msgs.values()):
            if m.ephemeral_for is not None and (user is None or m.ephemeral_for != user.id):
                continue
            if ephemeral is not None and m.ephemeral != ephemeral:
                continue
            return m
        return None

    def message(self, message_id: int) -> FakeMessage | None:
        """A stored message by id (public or ephemeral), or None if deleted/unknown."""
        return self._messages.get(message_id)

    @staticmethod
    def find_button(message: FakeMessage, label: str | None = None,
                    custom_id: str | None = None) -> FakeButton | None:
        """The first button on `message` with this label (exact) and/or custom_id, or None."""
        for b in message.buttons:
            if (label is None or b.label == label) and (custom_id is None
                                                        or b.custom_id == custom_id):
                return b
        return None

    def commands(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        """The synced command list: global, or of one guild."""
        if guild_id is None:
            return self.global_commands
        return self.guild_commands.get(guild_id, [])

    # ------------------------------------------------------------------ driver: acting as people
    async def slash(self, user: FakeUser, command: str, *, channel_id: int | None = None,
                    expired: bool = False, force: bool = False,
                    **options: Any) -> InteractionResult:
        """Run a slash command as `user`, e.g. `slash(u, "albastini start", players=4)`.

        The command path is looked up in the synced commands (guild commands first, then
        global); options are checked and typed from the synced schema (choices, required,
        min/max). User options take a FakeUser; channel options a channel id. Waits for the
        bot's initial response or the deadline; see InteractionResult.

        In a DM or group DM (`channel_id` from `add_dm`/`add_group_dm`) only global commands
        exist, and a client offers only those whose synced `contexts` include that place (1 a
        DM with the bot, 2 a group DM; no `contexts`: the old `dm_permission`, default true);
        `force=True` sends one anyway, as a client with a stale command list could."""
        channel = self.channels[channel_id or self.channel_id]
        guild = self.guilds[channel.guild_id] if channel.guild_id is not None else None
        words = command.split()
        cmd, is_guild = self._find_command(words[0], guild.id if guild else None)
        if guild is None and not force and not _offered_in(cmd, _context(channel)):
            raise DriverError(f"/{words[0]} is not offered in a DM or group DM (contexts "
                              f"{cmd.get('contexts')}); force=True sends it anyway")
        if not force and not _installed_for(cmd, channel, guild):
            raise DriverError(f"/{words[0]} is not installed for this place (integration "
                              f"types {cmd.get('integration_types')}); force=True sends it")
        resolved: dict[str, dict[str, Any]] = {}
        node: dict[str, Any] = cmd
        chain: list[dict[str, Any]] = []
        for word in words[1:]:
            sub = next((o for o in node.get("options", [])
                        if o["name"] == word and o.get("type") in (1, 2)), None)
            if sub is None:
                raise DriverError(f"/{command}: no subcommand {word!r}")
            chain.append(sub)
            node = sub
        if any(o.get("type") in (1, 2) for o in node.get("options", [])):
            raise DriverError(f"/{command} is a group: name a subcommand")
        leaf_opts = self._build_options(command, node, options, guild, resolved)
        top: list[dict[str, Any]] = leaf_opts
        for sub in reversed(chain):
            top = [{"name": sub["name"], "type": sub["type"], "options": top}]
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": top}
        if resolved:
            data["resolved"] = resolved
        if is_guild and guild is not None:
            data["guild_id"] = str(guild.id)
        return await self._send_interaction(user, 2, data, channel, expired=expired)

    async def click(self, user: FakeUser, message: FakeMessage, *, label: str | None = None,
                    custom_id: str | None = None, expired: bool = False) -> InteractionResult:
        """Click a button as `user`, found by label and/or custom_id on the message's current
        components. Raises DriverError if the user cannot see the message, or the button is
        missing, disabled or a link. Waits for the initial response like `slash`;
        `expired=True` delivers it already past its deadline (see `send_component`)."""
        self._check_sees(user, message)
        button = self.find_button(message, label=label, custom_id=custom_id)
        if button is None:
            have = [(b.label, b.custom_id) for b in message.buttons]
            raise DriverError(f"no button label={label!r} custom_id={custom_id!r}; have {have}")
        if button.disabled:
            raise DriverError(f"button {button.label!r} is disabled")
        if button.custom_id is None:
            raise DriverError(f"button {button.label!r} is a link or premium button")
        return await self.send_component(user, message, button.custom_id, expired=expired)

    async def select(self, user: FakeUser, message: FakeMessage, custom_id: str,
                     values: list[str]) -> InteractionResult:
        """Pick `values` in a string select menu. Checks the values exist and the count is
        within min/max_values, as a client would."""
        self._check_sees(user, message)
        sel = next((s for s in message.selects if s.custom_id == custom_id), None)
        if sel is None:
            raise DriverError(f"no select {custom_id!r} on message {message.id}")
        if sel.disabled:
            raise DriverError(f"select {custom_id!r} is disabled")
        if sel.type == 3:
            allowed = {v for _, v in sel.options}
            bad = [v for v in values if v not in allowed]
            if bad:
                raise DriverError(f"values {bad} are not options of {custom_id!r}")
        if not sel.min_values <= len(values) <= sel.max_values:
            raise DriverError(f"{len(values)} values outside {sel.min_values}..{sel.max_values}")
        return await self.send_component(user, message, custom_id, component_type=sel.type,
                                         values=values)

    async def send_component(self, user: FakeUser, message: FakeMessage, custom_id: str, *,
                             component_type: int = 2,
                             values: list[str] | None = None,
                             expired: bool = False) -> InteractionResult:
        """Send a component interaction with any custom_id (no checks): for forging ids.

        `expired=True`: the interaction reaches the bot after its deadline (a slow gateway,
        a stalled bot): the person already sees "This interaction failed" (the result comes
        back at once, failed, and is listed in `failed_interactions`), and every callback the
        bot tries gets 404 Unknown interaction (10062)."""
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = values
        channel = self.channels[message.channel_id]
        return await self._send_interaction(user, 3, data, channel, source=message,
                                            expired=expired)

    def _check_sees(self, user: FakeUser, message: FakeMessage) -> None:
        if message.deleted or message.id not in self._messages:
            raise DriverError(f"message {message.id} no longer exists")
        if message.ephemeral_for is not None and message.ephemeral_for != user.id:
            raise DriverError(f"{user.name} cannot see someone else's ephemeral message")

    def _find_command(self, name: str, guild_id: int | None) -> tuple[dict[str, Any], bool]:
        own = self.guild_commands.get(guild_id, []) if guild_id is not None else []
        for c in own:
            if c["name"] == name and c.get("type", 1) == 1:
                return c, True
        for c in self.global_commands:
            if c["name"] == name and c.get("type", 1) == 1:
                return c, False
        raise DriverError(f"no synced slash command {name!r}")

    def _build_options(self, command: str, node: dict[str, Any], given: dict[str, Any],
                       guild: FakeGuild | None, resolved: dict[str, dict[str, Any]]
                       ) -> list[dict[str, Any]]:
        schema = {o["name"]: o for o in node.get("options", [])}
        unknown = set(given) - set(schema)
        if unknown:
            raise DriverError(f"/{command}: unknown options {sorted(unknown)}; "
                              f"has {sorted(schema)}")
        out: list[dict[str, Any]] = []
        for name, opt in schema.items():
            if name not in given:
                if opt.get("required"):
                    raise DriverError(f"/{command}: option {name!r} is required")
                continue
            value = given[name]
            t = opt["type"]
            if t == 6 or t == 9:
                u = value if isinstance(value, FakeUser) else self.users[int(value)]
                value = str(u.id)
                resolved.setdefault("users", {})[value] = u.payload()
                if guild is not None:  # a DM resolves users only: there are no members
                    member = guild.member_payload(u, with_permissions=True)
                    del member["user"]
                    resolved.setdefault("members", {})[value] = member
            elif t == 7:
                ch = self.channels[int(value)]
                value = str(ch.id)
                resolved.setdefault("channels", {})[value] = {
                    **ch.payload(), "permissions": str(ALL_PERMISSIONS)}
            elif t == 8:
                value = str(value)
            elif t == 4:
                if isinstance(value, bool) or not isinstance(value, int):
                    raise DriverError(f"/{command}: {name!r} needs an integer")
            elif t == 10:
                value = float(value)
            elif t == 5:
                value = bool(value)
            elif t == 3:
                value = str(value)
                if "min_length" in opt and len(value) < opt["min_length"]:
                    raise DriverError(f"/{command}: {name!r} shorter than {opt['min_length']}")
                if "max_length" in opt and len(value) > opt["max_length"]:
                    raise DriverError(f"/{command}: {name!r} longer than {opt['max_length']}")
            if opt.get("choices") and value not in [c["value"] for c in opt["choices"]]:
                raise DriverError(f"/{command}: {value!r} is not a choice of {name!r}")
            if t in (4, 10):
                if opt.get("min_value") is not None and value < opt["min_value"]:
                    raise DriverError(f"/{command}: {name!r} below {opt['min_value']}")
                if opt.get("max_value") is not None and value > opt["max_value"]:
                    raise DriverError(f"/{command}: {name!r} above {opt['max_value']}")
            out.append({"name": name, "type": t, "value": value})
        return out

    async def _send_interaction(self, user: FakeUser, itype: int, data: dict[str, Any],
                                channel: FakeChannel,
                                source: FakeMessage | None = None,
                                expired: bool = False) -> InteractionResult:
        guild = self.guilds[channel.guild_id] if channel.guild_id is not None else None
        shard = self._session_for(channel.guild_id)
        if shard is None:
            where = "this guild" if guild is not None else "shard 0 (DMs)"
            raise DriverError(f"no bot is connected to the fake for {where}")
        iid = snowflake()
        token = f"aW50ZXJhY3Rpb24{iid}{secrets.token_urlsafe(24)}"
        loop = asyncio.get_running_loop()
        result = InteractionResult(iid, token, itype, user, shard=shard.shard_id)
        inter = _Interaction(iid, token, itype, user, channel.guild_id, channel.id, self.now(),
                             result, loop.create_future(), source=source)
        if source is not None:
            inter.original_id = source.id
            result.ephemeral = source.ephemeral
        self._interactions[iid] = inter
        self._by_token[token] = inter
        if len(self._interactions) % 4096 == 0:
            self._prune()
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.app_id),
            "type": itype,
            "token": token,
            "version": 1,
            "attachment_size_limit": 25 * 1024 * 1024,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "locale": user.locale,
            "entitlements": [],
        }
        if guild is not None:
            payload.update({
                "guild_id": str(guild.id),
                "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
                "guild_locale": "en-US",
                "member": guild.member_payload(user, with_permissions=True),
                "app_permissions": str(self.app_permissions(channel.id)),
                # a server that added the app authorizes it; else only the person's install
                "authorizing_integration_owners": (
                    {"0": str(guild.id), "1": str(user.id)} if guild.bot_member
                    else {"1": str(user.id)}),
                "context": 0,
            })
        elif channel.type == DM:  # the person's DM with the bot: the app's guild install
            payload.update({
                "user": user.payload(),
                "app_permissions": str(BOT_DM_PERMISSIONS),
                "authorizing_integration_owners": {"0": "0"},
                "context": 1,
            })
        else:  # a group DM: only through the person's own install of the app
            payload.update({
                "user": user.payload(),
                "app_permissions": str(PRIVATE_PERMISSIONS),
                "authorizing_integration_owners": {"1": str(user.id)},
                "context": 2,
            })
        if source is not None:
            payload["message"] = source.payload(self.app_id)
        if expired:
            self._expire(inter)  # before the bot hears of it: its answers all come too late
        else:
            inter.timer = loop.call_later(self.interaction_deadline, self._expire, inter)
        await shard.send(0, payload, "INTERACTION_CREATE")
        return await inter.future

    def _prune(self) -> None:
        """Forget interactions whose token has expired (keeps memory flat in long benchmarks)."""
        now = self.now()
        while self._interactions:
            inter = next(iter(self._interactions.values()))
            if now - inter.created < self.token_lifetime or not inter.future.done():
                break
            del self._interactions[inter.id]
            del self._by_token[inter.token]
            self._expired_tokens.add(inter.token)

    def _expire(self, inter: _Interaction) -> None:
        if inter.responded:
            return
        inter.failed = True
        inter.result.failed = True
        self.failed_interactions.append(inter.result)
        if not inter.future.done():
            inter.future.set_result(inter.result)
        self._notify()

    # ------------------------------------------------------------------ gateway
    def _shard_of(self, guild_id: int | None, s: _Session) -> bool:
        """Whether Discord sends `s` the events of a server (None: of DMs and group DMs,
        which go to shard 0)."""
        return ((guild_id or 0) >> 22) % s.shard_count == s.shard_id

    def _session_for(self, guild_id: int | None) -> _Session | None:
        for s in reversed(self._sessions):
            if s.identified and not s.ws.closed and self._shard_of(guild_id, s):
                return s
        return None

    @property
    def connected(self) -> int:
        """Number of identified gateway sessions currently open."""
        return sum(1 for s in self._sessions if s.identified and not s.ws.closed)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        session = _Session(ws)
        self._sessions.append(session)
        await session.send(10, {"heartbeat_interval": 41250})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = orjson.loads(msg.data)
                op = frame.get("op")
                if op == 1:
                    await session.send(11, None)
                elif op == 2:
                    await self._identify(session, frame["d"])
                elif op == 6:
                    await session.send(9, False)  # no resume: discord.py will re-identify
                elif op == 8:
                    await self._chunk(session, frame["d"])
        finally:
            self._sessions.remove(session)
            self._notify()
        return ws

    async def _identify(self, session: _Session, d: dict[str, Any]) -> None:
        if self.reject_token == "identify":
            await session.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard = d.get("shard") or [0, 1]
        session.shard_id, session.shard_count = int(shard[0]), int(shard[1])
        session.intents = int(d.get("intents", 0))
        session.session_id = secrets.token_hex(16)
        self.identify_count += 1
        guilds = [g for g in self.guilds.values()
                  if self._shard_of(g.id, session) and g.bot_member]
        ready = {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False,
                     "flags": 0},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "resume_gateway_url": self.gateway_url,
            "shard": [session.shard_id, session.shard_count],
            "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        await session.send(0, ready, "READY")
        for g in guilds:
            await session.send(0, self._guild_payload(g), "GUILD_CREATE")
        session.identified = True
        self._notify()

    async def _chunk(self, session: _Session, d: dict[str, Any]) -> None:
        g = self.guilds.get(int(d.get("guild_id", 0)))
        if g is None:
            return
        wanted = {int(u) for u in d.get("user_ids") or []}
        members = [g.member_payload(self.users[uid]) for uid in g.member_ids
                   if not wanted or uid in wanted]
        if not wanted or self.app_id in wanted:
            members.append(g.member_payload(self.bot_user))
        chunk = {"guild_id": str(g.id), "members": members, "chunk_index": 0,
                 "chunk_count": 1, "not_found": [], "nonce": d.get("nonce")}
        await session.send(0, chunk, "GUILD_MEMBERS_CHUNK")

    def _guild_payload(self, g: FakeGuild) -> dict[str, Any]:
        members = [g.member_payload(self.users[uid]) for uid in g.member_ids]
        members.append(g.member_payload(self.bot_user))
        return {
            "id": str(g.id), "name": g.name, "icon": None, "owner_id": str(g.owner_id),
            "unavailable": False, "member_count": len(members), "large": False,
            "roles": g.roles_payload(), "emojis": [], "stickers": [], "features": [],
            "channels": [c.payload(with_guild=False) for c in g.channels.values()],
            "threads": [], "members": members, "voice_states": [], "presences": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
            "preferred_locale": "en-US", "premium_tier": 0, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0,
            "mfa_level": 0, "nsfw_level": 0, "system_channel_id": None, "afk_channel_id": None,
            "afk_timeout": 300, "joined_at": iso_now(), "max_members": 500000,
        }

    def _dispatch_message(self, event: str, msg: FakeMessage) -> None:
        if msg.ephemeral_for is not None:
            return  # Discord never sends gateway events for ephemeral messages
        ch = self.channels.get(msg.channel_id)
        if ch is not None and not self._bot_reaches(ch):
            return  # nor any of a place the bot is no member of
        intent = GUILD_MESSAGES_INTENT if msg.guild_id is not None else DIRECT_MESSAGES_INTENT
        for s in self._sessions:
            if s.identified and s.intents & intent and self._shard_of(msg.guild_id, s):
                if event == "MESSAGE_DELETE":
                    d: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
                    if msg.guild_id is not None:
                        d["guild_id"] = str(msg.guild_id)
                else:
                    d = msg.payload(self.app_id)
                asyncio.get_running_loop().create_task(s.send(0, d, event))

    # ------------------------------------------------------------------ HTTP plumbing
    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if request.path == "/gateway":
            return await handler(request)  # type: ignore[no-any-return]
        self._in_flight += 1
        self._last_activity = time.monotonic()
        try:
            info = request.match_info.route.resource
            key = f"{request.method} {info.canonical if info else request.path}"
            self.request_counts[key] = self.request_counts.get(key, 0) + 1
            if self.request_log is not None:
                self.request_log.append(f"{request.method} {request.path}")
            if self.global_rate is not None:
                limited = self._global_check(request)
                if limited is not None:
                    return limited
            if self.faults:
                injected = self._injected(request, info.canonical if info else request.path)
                if injected is not None:
                    return injected
            try:
                response: web.StreamResponse = await handler(request)
            except web.HTTPException:
                raise
            except Exception as exc:  # a malformed request (or a fake bug): never a silent 500
                self.server_errors.append(f"{request.method} {request.path_qs}: {exc!r}")
                return _err(400, 50035, f"Invalid Form Body (fake: {exc!r})")
            return response
        finally:
            self._in_flight -= 1
            self._last_activity = time.monotonic()
            self._notify()

    def _global_check(self, request: web.Request) -> web.Response | None:
        """Discord's global rate limit: at most ``global_rate[0]`` counted requests per bot token
        in any ``global_rate[1]`` seconds (a sliding window); beyond it a 429 as Discord sends
        it: ``{"message", "retry_after", "global": true}`` with ``X-RateLimit-Global: true``,
        ``X-RateLimit-Scope: global`` and ``Retry-After`` (whole seconds). A refused request is
        not counted. Requests off the API (attachments) and to the interaction endpoints pass."""
        assert self.global_rate is not None
        match = _API_PREFIX.match(request.path)
        if match is None or GLOBAL_EXEMPT.match(request.path[match.end():]):
            return None
        limit, per = self.global_rate
        if self.global_limit is not None:  # kept with other fake processes
            wait = self.global_limit.admit()
            if wait is None:
                return None
            retry_after = max(wait, 0.001)
        else:
            token = request.headers.get("Authorization", "")
            window = self._global_windows.setdefault(token, deque())
            now = time.monotonic()
            while window and window[0] <= now - per:
                window.popleft()
            if len(window) < limit:
                window.append(now)
                return None
            retry_after = max(window[0] + per - now, 0.001)
        where = f"{request.method} {request.path}"
        self.global_limited.append(where)
        self.rate_limited.append(where)
        body = {"message": "You are being rate limited.", "retry_after": round(retry_after, 3),
                "global": True}
        headers = {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global",
                   "Retry-After": str(max(1, math.ceil(retry_after))), "Via": "1.1 google"}
        return _json(body, status=429, headers=headers)

    def _routes(self, app: web.Application) -> None:
        r = app.router
        api = "/api/v{version:\\d+}"
        r.add_get("/gateway", self._gateway)
        r.add_get(api + "/gateway", self._get_gateway)
        r.add_get(api + "/gateway/bot", self._get_gateway_bot)
        r.add_get(api + "/users/@me", self._get_me)
        r.add_get(api + "/oauth2/applications/@me", self._get_app)
        r.add_get(api + "/applications/@me", self._get_app)
        r.add_put(api + "/applications/{app}/commands", self._put_commands)
        r.add_get(api + "/applications/{app}/commands", self._get_commands)
        r.add_put(api + "/applications/{app}/guilds/{guild}/commands", self._put_commands)
        r.add_get(api + "/applications/{app}/guilds/{guild}/commands", self._get_commands)
        r.add_post(api + "/interactions/{iid}/{token}/callback", self._callback)
        r.add_post(api + "/webhooks/{app}/{token}", self._followup)
        wm = api + "/webhooks/{app}/{token}/messages/{mid}"
        r.add_get(wm, self._webhook_get)
        r.add_patch(wm, self._webhook_edit)
        r.add_delete(wm, self._webhook_delete)
        r.add_get(api + "/channels/{cid}", self._get_channel)
        r.add_get(api + "/channels/{cid}/messages", self._history)
        r.add_post(api + "/channels/{cid}/messages", self._channel_create)
        cm = api + "/channels/{cid}/messages/{mid}"
        r.add_post(cm + "/threads", self._start_thread)
        r.add_patch(api + "/channels/{cid}", self._modify_channel)
        r.add_get(cm, self._channel_get)
        r.add_patch(cm, self._channel_edit)
        r.add_delete(cm, self._channel_delete)
        r.add_get(api + "/guilds/{guild}/members/{uid}", self._get_member)
        r.add_get(api + "/guilds/{guild}", self._get_guild)
        r.add_get(api + "/guilds/{guild}/channels", self._get_guild_channels)
        r.add_get(api + "/users/{uid}", self._get_user)
        r.add_post(api + "/channels/{cid}/typing", self._typing)
        r.add_get("/attachments/{cid}/{aid}/{filename}", self._attachment)
        r.add_route("*", "/{tail:.*}", self._unknown)

    async def _unknown(self, request: web.Request) -> web.Response:
        self.unknown_routes.append(f"{request.method} {request.path_qs}")
        return _err(404, 0, "404: Not Found")

    def _reject(self, request: web.Request, status: int, code: int, message: str,
                **extra: Any) -> web.Response:
        body = {"code": code, "message": message, **extra}
        self.rejections.append(Rejection(request.method, request.path_qs, status, body))
        return _json(body, status=status)

    def _reject_form(self, request: web.Request, errors: list[Any],
                     prefix: tuple[str, ...] = ()) -> web.Response:
        if len(errors) == 1 and errors[0][1] == "EMPTY":
            return self._reject(request, 400, 50006, "Cannot send an empty message")
        errors = [e for e in errors if e[1] != "EMPTY"]
        return self._reject(request, 400, 50035, "Invalid Form Body",
                            errors=form_errors(errors, prefix))

    async def _read_body(self, request: web.Request
                         ) -> tuple[dict[str, Any], list[tuple[str, bytes, str | None]]]:
        """JSON body or multipart (payload_json + files[n]); returns (payload, files)."""
        files: list[tuple[str, bytes, str | None]] = []
        # the raw header: aiohttp's parsed content_type goes through the email package (slow)
        if request.headers.get("Content-Type", "").startswith("multipart/"):
            payload: dict[str, Any] = {}
            reader = await request.multipart()
            async for part in reader:
                name = getattr(part, "name", None)
                if name == "payload_json":
                    payload = orjson.loads(await part.read())  # type: ignore[union-attr]
                elif name and name.startswith("files["):
                    data = await part.read()  # type: ignore[union-attr]
                    filename = getattr(part, "filename", None) or "file"
                    index = int(name[6:-1])
                    while len(files) <= index:
                        files.append(("file", b"", None))
                    files[index] = (filename, bytes(data), _guess_type(filename))
            return payload, files
        if request.can_read_body:
            raw = await request.read()
            return (orjson.loads(raw) if raw else {}), files
        return {}, files

    # ------------------------------------------------------------------ REST: session
    async def _get_gateway(self, request: web.Request) -> web.Response:
        return _json({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return _json({
            "url": self.gateway_url,
            "shards": self.shards,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14400000,
                                    "max_concurrency": 1},
        })

    async def _get_me(self, request: web.Request) -> web.Response:
        if (not request.headers.get("Authorization", "").startswith("Bot ")
                or self.reject_token == "login"):
            return _err(401, 0, "401: Unauthorized")
        return _json({**self.bot_user.payload(), "verified": True, "mfa_enabled": False,
                      "flags": 0})

    async def _get_app(self, request: web.Request) -> web.Response:
        owner = FakeUser(self.guilds[self.guild_id].owner_id, "Owner")
        return _json({
            "id": str(self.app_id), "name": self.bot_user.name, "icon": None,
            "description": "", "bot_public": True, "bot_require_code_grant": False,
            "owner": owner.payload(), "verify_key": "0" * 64, "flags": 0, "team": None,
            "summary": "", "interactions_endpoint_url": None, "rpc_origins": [],
            "bot": self.bot_user.payload(),
        })

    async def _put_commands(self, request: web.Request) -> web.Response:
        body, _ = await self._read_body(request)
        if not isinstance(body, list):
            return self._reject(request, 400, 50035, "Invalid Form Body")
        guild = request.match_info.get("guild")
        old = self.commands(int(guild) if guild else None)
        old_ids = {(c["name"], c.get("type", 1)): c["id"] for c in old}
        out = []
        for c in body:
            cmd = dict(c)
            cmd.setdefault("type", 1)
            cmd.setdefault("options", [])
            cmd.setdefault("description", "")
            cmd["id"] = old_ids.get((cmd["name"], cmd["type"])) or str(snowflake())
            cmd["application_id"] = str(self.app_id)
            cmd["version"] = str(snowflake())
            if guild:
                cmd["guild_id"] = guild
            out.append(cmd)
        if guild:
            self.guild_commands[int(guild)] = out
        else:
            self.global_commands = out
        self._notify()
        return _json(out)

    async def _get_commands(self, request: web.Request) -> web.Response:
        guild = request.match_info.get("guild")
        return _json(self.commands(int(guild) if guild else None))

    async def _get_guild(self, request: web.Request) -> web.Response:
        g = self.guilds.get(int(request.match_info["guild"]))
        if g is None:
            return _err(404, 10004, "Unknown Guild")
        data = self._guild_payload(g)
        for key in ("channels", "members", "threads", "voice_states", "presences"):
            del data[key]
        return _json(data)

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        g = self.guilds.get(int(request.match_info["guild"]))
        if g is None:
            return _err(404, 10004, "Unknown Guild")
        return _json([c.payload() for c in g.channels.values()])

    async def _get_user(self, request: web.Request) -> web.Response:
        uid = int(request.match_info["uid"])
        u = self.users.get(uid) or (self.bot_user if uid == self.app_id else None)
        if u is None:
            return _err(404, 10013, "Unknown User")
        return _json(u.payload())

    async def _typing(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        if isinstance(ch, web.Response):
            return ch
        return web.Response(status=204)

    async def _get_member(self, request: web.Request) -> web.Response:
        g = self.guilds.get(int(request.match_info["guild"]))
        u = self.users.get(int(request.match_info["uid"]))
        if g is None:
            return _err(404, 10004, "Unknown Guild")
        if u is None or u.id not in g.member_ids:
            return _err(404, 10007, "Unknown Member")
        return _json(g.member_payload(u))

    # ------------------------------------------------------------------ message storage
    def _store(self, msg: FakeMessage) -> None:
        chan = self._channel_messages[msg.channel_id]
        chan[msg.id] = msg
        self._messages[msg.id] = msg
        while len(chan) > self.max_messages:
            old_id = next(iter(chan))
            old = chan.pop(old_id)
            self._messages.pop(old_id, None)
            for a in old.attachments:
                self._attachment_index.pop(a.id, None)
        self._dispatch_message("MESSAGE_CREATE", msg)
        self._notify()

    def _delete(self, msg: FakeMessage) -> None:
        msg.deleted = True
        self._channel_messages[msg.channel_id].pop(msg.id, None)
        for a in msg.attachments:
            self._attachment_index.pop(a.id, None)
        self._messages.pop(msg.id, None)
        self._dispatch_message("MESSAGE_DELETE", msg)
        self._notify()

    def _attachments(self, msg: FakeMessage, body: dict[str, Any],
                     files: list[tuple[str, bytes, str | None]],
                     keep_old: bool) -> list[FakeAttachment]:
        def new(index: int, desc: str | None = None) -> FakeAttachment:
            name, data, ctype = files[index]
            aid = snowflake()
            url = f"{self.base_url}/attachments/{msg.channel_id}/{aid}/{name}"
            att = FakeAttachment(aid, name, data, url, ctype, desc)
            self._attachment_index[aid] = att
            return att

        if "attachments" not in body:
            base = list(msg.attachments) if keep_old else []
            return base + [new(i) for i in range(len(files))]
        out: list[FakeAttachment] = []
        old = {a.id: a for a in msg.attachments}
        used: set[int] = set()
        for entry in body.get("attachments") or []:
            aid = int(entry.get("id", -1))
            if 0 <= aid < len(files) and aid not in old:
                out.append(new(aid, entry.get("description")))
                used.add(aid)
            elif aid in old:
                out.append(old[aid])
        out.extend(new(i) for i in range(len(files)) if i not in used)
        return out

    def _apply(self, msg: FakeMessage, body: dict[str, Any],
               files: list[tuple[str, bytes, str | None]], *, edit: bool) -> None:
        if "content" in body:
            msg.content = body["content"] or ""
        if "embeds" in body:
            msg.embeds = [{"type": "rich", **e} for e in body["embeds"] or []]
        if "components" in body:
            msg.components = body["components"] or []
        if "flags" in body and body["flags"] is not None:
            keep = msg.flags & EPHEMERAL
            msg.flags = (int(body["flags"]) & ~(EPHEMERAL | LOADING)) | keep
        if "attachments" in body or files:
            new = self._attachments(msg, body, files, keep_old=edit)
            kept = {a.id for a in new}
            for a in msg.attachments:  # replaced files are forgotten (memory stays flat)
                if a.id not in kept:
                    self._attachment_index.pop(a.id, None)
            msg.attachments = new
        if edit:
            msg.edited_at = iso_now()
            msg.edits += 1

    @staticmethod
    def _names_after(msg: FakeMessage | None, body: dict[str, Any],
                     files: list[tuple[str, bytes, str | None]]) -> set[str]:
        """The file names a message will carry once ``body`` (and ``files``) is applied to it
        (``msg`` None: a new message): what an ``attachment://`` media item may name."""
        new = {name for name, _data, _ctype in files}
        if msg is None:
            return new
        if "attachments" not in body:
            return new | {a.filename for a in msg.attachments}
        kept = {int(e.get("id", -1)) for e in body.get("attachments") or []}
        return new | {a.filename for a in msg.attachments if a.id in kept}

    def _check(self, msg: FakeMessage | None, body: dict[str, Any],
               files: list[tuple[str, bytes, str | None]], *,
               require_content: bool) -> list[Any]:
        """Discord's checks of a message body sent to create ``msg`` (None) or edit it."""
        return validate_message(body, has_files=bool(files), require_content=require_content,
                                was_v2=msg is not None and msg.v2,
                                attachments=self._names_after(msg, body, files))

    def _patch_media_refused(self, msg: FakeMessage, body: dict[str, Any],
                             files: list[tuple[str, bytes, str | None]]) -> bool:
        """Discord's open bug (discord-api-docs#7529): an edit through an interaction's token
        (PATCH of a webhook message) of a Components V2 message whose media gallery points at a
        file uploaded by that edit is refused with 400, "attachment not found"; a new message,
        and an edit through the channel, are not affected."""
        if not self.cv2_media_patch_bug or not files:
            return False
        v2 = bool(int(body.get("flags") or 0) & COMPONENTS_V2) or msg.v2
        uploaded = {name for name, _data, _ctype in files}
        return v2 and any(url.startswith("attachment://") and url[13:] in uploaded
                          for url in media_urls(body.get("components") or []))

    def _new_message(self, channel: FakeChannel, *, ephemeral_for: int | None = None,
                     inter: _Interaction | None = None) -> FakeMessage:
        msg = FakeMessage(snowflake(), channel.id, channel.guild_id, self.bot_user,
                          ephemeral_for=ephemeral_for)
        if ephemeral_for is not None:
            msg.flags |= EPHEMERAL
        if inter is not None:
            msg.interaction_id = inter.id
            msg.interaction_user = inter.user
            msg.interaction_type = inter.type
        return msg

    # ------------------------------------------------------------------ REST: interactions
    async def _callback(self, request: web.Request) -> web.Response:
        inter = self._interactions.get(int(request.match_info["iid"]))
        if inter is None or inter.token != request.match_info["token"] or inter.failed:
            return self._reject(request, 404, 10062, "Unknown interaction")
        body, files = await self._read_body(request)
        if inter.responded:
            return self._reject(request, 400, 40060,
                                "Interaction has already been acknowledged.")
        if inter.failed:  # the deadline passed while the body was read
            return self._reject(request, 404, 10062, "Unknown interaction")
        rtype = int(body.get("type", 0))
        data: dict[str, Any] = body.get("data") or {}
        channel = self.channels[inter.channel_id]
        result = inter.result
        msg: FakeMessage | None = None
        if rtype in (6, 7) and inter.type != 3:
            return self._reject(request, 400, 50035, "Invalid Form Body", errors=form_errors(
                [(("type",), "INTERACTION_RESPONSE_TYPE_INVALID",
                  "This response type is only valid for message components")]))
        if rtype == 4:
            errors = self._check(None, data, files, require_content=True)
            if errors:
                return self._reject_form(request, errors, ("data",))
            eph = inter.user.id if int(data.get("flags") or 0) & EPHEMERAL else None
            msg = self._new_message(channel, ephemeral_for=eph, inter=inter)
            msg.message_type = 20 if inter.type == 2 else 0
            self._apply(msg, data, files, edit=False)
            self._store(msg)
            inter.original_id = msg.id
            inter.message_ids.add(msg.id)
            result.ephemeral = msg.ephemeral
        elif rtype == 5:
            eph = inter.user.id if int(data.get("flags") or 0) & EPHEMERAL else None
            msg = self._new_message(channel, ephemeral_for=eph, inter=inter)
            msg.message_type = 20 if inter.type == 2 else 0
            msg.flags |= LOADING
            self._store(msg)
            inter.original_id = msg.id
            inter.message_ids.add(msg.id)
            result.ephemeral = msg.ephemeral
        elif rtype == 6:
            msg = inter.source
        elif rtype == 7:
            assert inter.source is not None
            errors = self._check(inter.source, data, files, require_content=False)
            if errors:
                return self._reject_form(request, errors, ("data",))
            msg = inter.source
            if msg.deleted:
                return self._reject(request, 404, 10008, "Unknown Message")
            self._apply(msg, data, files, edit=True)
            self._dispatch_message("MESSAGE_UPDATE", msg)
        elif rtype == 9:
            result.modal = data
        else:
            return self._reject(request, 400, 50035, "Invalid Form Body", errors=form_errors(
                [(("type",), "BASE_TYPE_CHOICES", f"Value {rtype} is not a valid response")]))
        inter.responded = True
        if inter.timer:
            inter.timer.cancel()
        result.response_type = rtype
        result.message = msg
        if not inter.future.done():
            inter.future.set_result(result)
        self._notify()
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return web.Response(status=204)  # as Discord: the callback's result only on request
        resp: dict[str, Any] = {
            "interaction": {
                "id": str(inter.id), "type": inter.type, "activity_instance_id": None,
                "response_message_id": str(msg.id) if msg else None,
                "response_message_loading": rtype == 5,
                "response_message_ephemeral": bool(msg and msg.ephemeral),
            },
            "resource": {"type": rtype},
        }
        if msg is not None and rtype in (4, 5, 7):
            resp["resource"]["message"] = msg.payload(self.app_id)
        return _json(resp)

    def _token_inter(self, request: web.Request) -> _Interaction | web.Response:
        inter = self._by_token.get(request.match_info["token"])
        if inter is None and request.match_info["token"] in self._expired_tokens:
            return self._reject(request, 401, 50027, "Invalid Webhook Token")
        if inter is None or str(self.app_id) != request.match_info["app"]:
            return self._reject(request, 404, 10015, "Unknown Webhook")
        if self.now() - inter.created >= self.token_lifetime:
            return self._reject(request, 401, 50027, "Invalid Webhook Token")
        if not inter.responded:
            return self._reject(request, 404, 10015, "Unknown Webhook")
        return inter

    def _token_message(self, request: web.Request,
                       inter: _Interaction) -> FakeMessage | web.Response:
        mid = request.match_info["mid"]
        msg_id = inter.original_id if mid == "@original" else int(mid)
        msg = self._messages.get(msg_id) if msg_id is not None else None
        if msg is None or (msg.id not in inter.message_ids and msg.id != inter.original_id):
            return self._reject(request, 404, 10008, "Unknown Message")
        return msg

    async def _followup(self, request: web.Request) -> web.Response:
        inter = self._token_inter(request)
        if isinstance(inter, web.Response):
            return inter
        body, files = await self._read_body(request)
        original = self._messages.get(inter.original_id or 0)
        filling = original if original is not None and original.loading else None
        errors = self._check(filling, body, files, require_content=True)
        if errors:
            return self._reject_form(request, errors)
        if filling is not None and self._patch_media_refused(filling, body, files):
            return self._reject_form(request, [(("components",),
                                     "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                                     "The attachment was not found")])
        if original is not None and original.loading:
            # Discord: the first follow-up after a deferred response fills in the "thinking"
            # message (and keeps its ephemerality).
            msg = original
            msg.flags &= ~LOADING
            self._apply(msg, body, files, edit=False)
            self._dispatch_message("MESSAGE_UPDATE", msg)
            self._notify()
        else:
            eph = inter.user.id if int(body.get("flags") or 0) & EPHEMERAL else None
            msg = self._new_message(self.channels[inter.channel_id], ephemeral_for=eph,
                                    inter=inter)
            self._apply(msg, body, files, edit=False)
            self._store(msg)
            inter.message_ids.add(msg.id)
        if request.query.get("wait") in ("1", "true", "True"):
            return _json(msg.payload(self.app_id))
        return web.Response(status=204)

    async def _webhook_get(self, request: web.Request) -> web.Response:
        inter = self._token_inter(request)
        if isinstance(inter, web.Response):
            return inter
        msg = self._token_message(request, inter)
        if isinstance(msg, web.Response):
            return msg
        return _json(msg.payload(self.app_id))

    async def _webhook_edit(self, request: web.Request) -> web.Response:
        inter = self._token_inter(request)
        if isinstance(inter, web.Response):
            return inter
        msg = self._token_message(request, inter)
        if isinstance(msg, web.Response):
            return msg
        body, files = await self._read_body(request)
        errors = self._check(msg, body, files, require_content=False)
        if errors:
            return self._reject_form(request, errors)
        if self._patch_media_refused(msg, body, files):
            return self._reject_form(request, [(("components",),
                                     "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                                     "The attachment was not found")])
        filling = msg.loading
        msg.flags &= ~LOADING
        self._apply(msg, body, files, edit=not filling)
        self._dispatch_message("MESSAGE_UPDATE", msg)
        self._notify()
        return _json(msg.payload(self.app_id))

    async def _webhook_delete(self, request: web.Request) -> web.Response:
        inter = self._token_inter(request)
        if isinstance(inter, web.Response):
            return inter
        msg = self._token_message(request, inter)
        if isinstance(msg, web.Response):
            return msg
        self._delete(msg)
        return web.Response(status=204)

    # ------------------------------------------------------------------ REST: channels
    def _channel(self, request: web.Request) -> FakeChannel | web.Response:
        ch = self.channels.get(int(request.match_info["cid"]))
        if ch is None:
            return self._reject(request, 404, 10003, "Unknown Channel")
        if not self._bot_reaches(ch):
            return self._reject(request, 403, 50001, "Missing Access")
        return ch

    def _bot_reaches(self, ch: FakeChannel) -> bool:
        """Whether the bot may use a channel's REST routes: its own DMs, and the channels of
        the servers it is a member of; not a group DM nor a server reached only through a
        person's install of the app (Discord: 50001 Missing Access)."""
        if ch.guild_id is None:
            return ch.type == DM
        return self.guilds[ch.guild_id].bot_member

    def _channel_msg(self, request: web.Request, ch: FakeChannel) -> FakeMessage | web.Response:
        msg = self._channel_messages[ch.id].get(int(request.match_info["mid"]))
        if msg is None or msg.ephemeral_for is not None:
            return self._reject(request, 404, 10008, "Unknown Message")
        return msg

    def _rate_check(self, request: web.Request, ch: FakeChannel) -> dict[str, str] | web.Response:
        """Fixed-window per-channel limit; returns headers for a success or a 429 response."""
        if self.edit_rate is None:
            return {}
        limit, per = self.edit_rate
        now = time.monotonic()
        window = self._buckets.get(ch.id)
        if window is None or now >= window[0] + per:
            window = self._buckets[ch.id] = [now, 0.0]
        reset_after = window[0] + per - now
        headers = {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": f"fake-channel-messages-{limit}-{per}",
            "Via": "1.1 google",
        }
        if window[1] >= limit:
            headers["X-RateLimit-Remaining"] = "0"
            headers["X-RateLimit-Scope"] = "user"
            headers["Retry-After"] = str(math.ceil(reset_after))
            self.rate_limited.append(f"{request.method} {request.path}")
            body = {"message": "You are being rate limited.",
                    "retry_after": round(reset_after, 3), "global": False}
            return _json(body, status=429, headers=headers)
        window[1] += 1
        headers["X-RateLimit-Remaining"] = str(int(limit - window[1]))
        return headers

    def app_permissions(self, channel_id: int) -> int:
        """What the bot may do in a server channel (or a thread: its channel's): every
        permission unless a test took some away (``deny``)."""
        ch = self.channels.get(channel_id)
        where = ch.parent_id if ch is not None and ch.parent_id is not None else channel_id
        return ALL_PERMISSIONS & ~self.denied.get(where, 0)

    def deny(self, channel_id: int, permissions: int) -> None:
        """Take ``permissions`` away from the bot in a channel (and its threads)."""
        self.denied[channel_id] = self.denied.get(channel_id, 0) | permissions

    def threads(self, channel_id: int | None = None) -> list[FakeChannel]:
        """The threads started in a channel (the default channel), oldest first."""
        cid = channel_id or self.channel_id
        return [c for c in self.channels.values()
                if c.type == PUBLIC_THREAD and c.parent_id == cid]

    async def _start_thread(self, request: web.Request) -> web.Response:
        """Start a public thread from a message, as Discord does: the thread's id is the
        message's; one thread per message; Create Public Threads needed; a name of 1 to 100
        characters."""
        ch = self._channel(request)
        if isinstance(ch, web.Response):
            return ch
        msg = self._channel_msg(request, ch)
        if isinstance(msg, web.Response):
            return msg
        if not self.app_permissions(ch.id) & CREATE_PUBLIC_THREADS:
            return self._reject(request, 403, 50013, "Missing Permissions")
        if msg.id in self.channels:
            return self._reject(request, 400, 160004,
                                "A thread has already been created for this message")
        body, _files = await self._read_body(request)
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            return self._reject_form(request, [(("name",), "BASE_TYPE_BAD_LENGTH",
                                                "Must be between 1 and 100 in length.")])
        thread = FakeChannel(id=msg.id, guild_id=ch.guild_id, name=name, type=PUBLIC_THREAD,
                             parent_id=ch.id, owner_id=self.bot_user.id)
        self.channels[thread.id] = thread
        self._channel_messages[thread.id] = {}
        if ch.guild_id is not None:
            self.guilds[ch.guild_id].channels[thread.id] = thread
        for s in self._sessions:
            if s.identified and self._shard_of(ch.guild_id, s):
                asyncio.get_running_loop().create_task(
                    s.send(0, {**thread.payload(), "newly_created": True}, "THREAD_CREATE"))
        self._notify()
        return _json(thread.payload(), status=201)

    async def _modify_channel(self, request: web.Request) -> web.Response:
        """Change a thread: archive it (or open it again) and rename it."""
        ch = self._channel(request)
        if isinstance(ch, web.Response):
            return ch
        if ch.type != PUBLIC_THREAD:
            return self._reject(request, 403, 50013, "Missing Permissions")
        body, _files = await self._read_body(request)
        if "archived" in body:
            ch.archived = bool(body["archived"])
        if "name" in body:
            ch.name = str(body["name"])[:100]
        for s in self._sessions:
            if s.identified and self._shard_of(ch.guild_id, s):
                asyncio.get_running_loop().create_task(
                    s.send(0, ch.payload(), "THREAD_UPDATE"))
        self._notify()
        return _json(ch.payload())

    async def _get_channel(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        if isinstance(ch, web.Response):
            return ch
        return _json(ch.payload())

    async def _history(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        if isinstance(ch, web.Response):
            return ch
        limit = min(int(request.query.get("limit", 50)), 100)
        before = int(request.query.get("before", 0)) or None
        out = []
        for m in reversed(self._channel_messages[ch.id].values()):
            if m.ephemeral_for is None and (before is None or m.id < before):
                out.append(m.payload(self.app_id))
                if len(out) >= limit:
                    break
        return _json(out)

    async def _channel_create(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        if isinstance(ch, web.Response):
            return ch
        body, files = await self._read_body(request)
        errors = self._check(None, body, files, require_content=True)
        if errors:
            return self._reject_form(request, errors)
        if ch.type == PUBLIC_THREAD and not self.app_permissions(ch.id) & SEND_MESSAGES_IN_THREADS:
            return self._reject(request, 403, 50013, "Missing Permissions")
        headers = self._rate_check(request, ch)
        if isinstance(headers, web.Response):
            return headers
        if ch.archived:  # as on Discord: a message in an archived thread opens it again
            ch.archived = False
            self.reopened_threads.append(ch.id)
        msg = self._new_message(ch)
        self._apply(msg, body, files, edit=False)
        self._store(msg)
        return _json(msg.payload(self.app_id), headers=headers)

    async def _channel_get(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        if isinstance(ch, web.Response):
            return ch
        msg = self._channel_msg(request, ch)
        if isinstance(msg, web.Response):
            return msg
        return _json(msg.payload(self.app_id))

    async def _channel_edit(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        if isinstance(ch, web.Response):
            return ch
        msg = self._channel_msg(request, ch)
        if isinstance(msg, web.Response):
            return msg
        if not msg.author.bot:
            return self._reject(request, 403, 50005,
                                "Cannot edit a message authored by another user")
        body, files = await self._read_body(request)
        errors = self._check(msg, body, files, require_content=False)
        if errors:
            return self._reject_form(request, errors)
        headers = self._rate_check(request, ch)
        if isinstance(headers, web.Response):
            return headers
        self._apply(msg, body, files, edit=True)
        self._dispatch_message("MESSAGE_UPDATE", msg)
        self._notify()
        return _json(msg.payload(self.app_id), headers=headers)

    async def _channel_delete(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        if isinstance(ch, web.Response):
            return ch
        msg = self._channel_msg(request, ch)
        if isinstance(msg, web.Response):
            return msg
        self._delete(msg)
        return web.Response(status=204)

    async def _attachment(self, request: web.Request) -> web.Response:
        a = self._attachment_index.get(int(request.match_info["aid"]))
        if a is None:
            return _err(404, 0, "404: Not Found")
        return web.Response(body=a.data, content_type=a.content_type or "application/octet-stream")


def _context(channel: FakeChannel) -> int:
    """The interaction context of a place: 0 a server, 1 a DM with the bot, 2 a group DM."""
    if channel.guild_id is not None:
        return 0
    return 1 if channel.type == DM else 2


def _offered_in(command: dict[str, Any], context: int) -> bool:
    """Whether a client offers a synced command in this context: its `contexts` if set, else
    the deprecated `dm_permission` (default true) for a DM."""
    contexts = command.get("contexts")
    if contexts is not None:
        return context in contexts
    return context == 0 or command.get("dm_permission") is not False


def _installed_for(command: dict[str, Any], channel: FakeChannel,
                   guild: FakeGuild | None) -> bool:
    """Whether a person reaches a synced command in this place: a server that added the app
    (or the bot's DM) needs the command's guild install (integration type 0, the default); a
    group DM, or a server the bot is not in, the person's own install (1)."""
    types = command.get("integration_types") or [0]
    if guild is not None and guild.bot_member:
        return 0 in types
    if guild is None and channel.type == DM:
        return 0 in types
    return 1 in types


def _guess_type(filename: str) -> str | None:
    lower = filename.lower()
    for ext, ctype in ((".png", "image/png"), (".jpg", "image/jpeg"), (".jpeg", "image/jpeg"),
                       (".gif", "image/gif"), (".webp", "image/webp"), (".txt", "text/plain"),
                       (".json", "application/json")):
        if lower.endswith(ext):
            return ctype
    return None
