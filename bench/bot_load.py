"""Bot load benchmark: the real bot, many tables at once, people clicking on the fake Discord.

Prints figures, asserts nothing. Its last line is ``p99_ms: X`` (interaction round trip).

The bot runs as a separate process (``python bot.py``, env from ``fake.env()``, a temporary
database, ``ALBASTINI_COMPUTER_PAUSE=0``, ``ALBASTINI_SYNC=always``) so that its CPU and memory are
measured apart from the fake Discord and the simulated people, which run here. Every socket is on
127.0.0.1.

Each table gets a channel of its own and four people: the host runs ``/albastini start
players:4 teams:pairs``, the three others press Join, the host presses Start. Then each person
opens their private hand once ("Show my hand" on the table message) and plays on it: when the bot
has updated it to enable their cards, they click one (one click per move). Only when a turn
notice mentions them (their hand no longer follows the game) do they press "Show my hand" on the
notice and play on that new hand from then on. Every click and command waits a random think time
first.

A round trip is measured from the moment the driver starts sending INTERACTION_CREATE to the
moment the bot's initial callback (``POST /interactions/{id}/{token}/callback``) reaches the fake.
A failed interaction is one not answered within 3 s.

The driver (the fake Discord and the simulated people, this process) shares the machine's CPUs
with the bot; ``--pin-driver`` keeps it to the last CPU once the bot has started, as a load
generator on a machine of its own would (Discord is not on the bot's machine), while the bot and
its worker processes may still use every CPU.

Discord's global rate limit: the fake enforces it (``--global-rate``, 50 requests per second
per token by default; interaction endpoints exempt) and the bench counts its global 429s. The
table-update lag is printed twice: as the bot measures it (from a change of a table to the end
of the edit that shows it, logged by the bot when it stops) and as the people see it (from a
move's acknowledgement, the bot's callback reaching the fake, to the next edit of the table
message reaching the fake; an edit that was already on its way counts, so a little low).

Memory per table: the bot process's VmRSS (``/proc/<pid>/status``) at its peak during the run
minus VmRSS just before the first table opens, divided by the number of tables.

    .venv/bin/python bench/bot_load.py                       # 200 tables x 4 people, 60 s
    .venv/bin/python bench/bot_load.py --tables 50
    .venv/bin/python bench/bot_load.py --think-ms 0 --seconds 30    # stress: no think time
    .venv/bin/python bench/bot_load.py --target 1 --seconds 600     # until every match ends
    .venv/bin/python bench/bot_load.py --profile py-spy             # where the bot's CPU goes

``--db postgresql`` runs the bot on a PostgreSQL server the bench starts itself (the tests'
``PostgresServer``: PostgreSQL 15 on a Unix socket, fsync and synchronous_commit on) instead of
an SQLite file. ``--clusters N`` (PostgreSQL) runs N bot processes, ``bot.py --shards k
--shard-count N``, against a fake Discord of N shards: the tables are spread over N servers, one
per shard, so each process serves 1/N of them; besides the totals, each process's CPU per
interaction (the interactions of its servers) is printed.

    .venv/bin/python bench/bot_load.py --db postgresql --clusters 2 --tables 200

``--drivers N`` (with ``--clusters``) spreads the driver over N processes: driver ``d`` runs a
fake Discord serving shards ``d, d + N, ...`` and the people of the tables on those shards'
servers, and each bot process is pointed at the driver of its shard (its gateway and REST
calls all go there), so no single event loop carries every person and every request. Discord's
global limit stays one limit per token across them (``tests/fakediscord/shared.py``: the last
50 admitted requests' times in shared memory, behind a lock), and ids stay unique across them
(each driver's snowflakes carry its number). The printed totals merge every driver's figures;
the driver loop lag is printed for all and for each. ``--drivers 1`` (the default) runs the
driver in this process, as before. On a 16-core machine, eight clusters and eight drivers:

    .venv/bin/python bench/bot_load.py --db postgresql --clusters 8 --drivers 8 --tables 1600 \
        --seconds 60 --pin-driver

(``--pin-driver`` with several drivers keeps driver ``d`` on the ``d``-th CPU from the last.)

``--only-shard K`` puts every table on shard K's servers (one busy cluster, the others idle) and
``--global-pool on|off`` sets ``ALBASTINI_GLOBAL_POOL``: whether the clusters pool Discord's
global limit through PostgreSQL (cogs/messages/pool.py) or each spends its fixed part. With
``--what-if no-table-tokens`` every table edit is paid from that budget, which then sets the
table-update lag:

    .venv/bin/python bench/bot_load.py --db postgresql --clusters 2 --drivers 2 --tables 40 \
        --only-shard 0 --what-if no-table-tokens --global-pool off    # then on

``--profile py-spy`` needs ``py-spy`` in the virtualenv (``.venv/bin/pip install py-spy``; it is
not a project dependency); ``--profile cprofile`` runs the bot under ``python -m cProfile``
(main thread only, large overhead); ``--profile pyinstrument`` samples the main thread every
0.5 ms (``.venv/bin/pip install pyinstrument``; it counts wall time, so a run on a busy machine
also counts the waits for a CPU). Each prints the functions that dominate the bot's time.
``--profile tracemalloc`` traces the bot's allocations and prints the lines that hold the most
memory as it stops (after a full collection: what is live, not garbage); ``--profile gc`` times
every pass of the garbage collector and prints their count, total and longest by generation.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import functools
import math
import multiprocessing
import os
import pstats
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from aiohttp import web  # noqa: E402

from tests.fakediscord import (  # noqa: E402
    DriverError,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    InteractionResult,
)
from tests.fakediscord.models import set_snowflake_worker, snowflake  # noqa: E402
from tests.fakediscord.shared import SharedGlobalLimit  # noqa: E402

DEADLINE = 3.0  # Discord's time for the first response
MOVE_ID = re.compile(r"alb:(m|[pbx]):")  # m: a move (ids since the presenters); p, b, x: before
HAND_ID = "alb:h:"
SETUP_WAIT = 60.0  # a lobby or a started match that takes longer counts as a broken table
TARGETS = {"p99_ms": 50.0, "kb_per_table": 100.0}


# --------------------------------------------------------------------------- the fake, instrumented
_VIA_TOKEN: contextvars.ContextVar[bool] = contextvars.ContextVar("via_token", default=False)


class BenchFake(FakeDiscord):
    """The fake Discord, plus: when each interaction's callback arrived, when each edit of a
    public message arrived, and a wake-up per channel whenever a public message there is
    created, edited or deleted (people wait on it)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.callback_at: dict[int, float] = {}
        self.edited_at: dict[int, list[float]] = {}  # message id -> its edits' arrival times
        self.token_edits = 0  # edits of public messages through an interaction's token
        self.answered_in: Counter[int | None] = Counter()  # answered, by guild (None: a DM)
        self._channel_events: dict[int, asyncio.Event] = {}
        self._user_events: dict[int, asyncio.Event] = {}

    async def _callback(self, request: web.Request) -> web.Response:
        with contextlib.suppress(KeyError, ValueError):
            self.callback_at.setdefault(int(request.match_info["iid"]), time.perf_counter())
        with contextlib.suppress(KeyError, ValueError):  # which bot process answered (clusters)
            inter = self._interactions[int(request.match_info["iid"])]
            if not inter.responded:
                self.answered_in[inter.guild_id] += 1
        return await super()._callback(request)

    async def _webhook_edit(self, request: web.Request) -> web.Response:
        token = _VIA_TOKEN.set(True)  # this request's task only
        try:
            return await super()._webhook_edit(request)
        finally:
            _VIA_TOKEN.reset(token)

    def _dispatch_message(self, event: str, msg: FakeMessage) -> None:
        super()._dispatch_message(event, msg)
        if event == "MESSAGE_UPDATE" and msg.ephemeral_for is None:
            # a public message edited, through the channel or an interaction's token
            self.edited_at.setdefault(msg.id, []).append(time.perf_counter())
            if _VIA_TOKEN.get():
                self.token_edits += 1
        if msg.ephemeral_for is None:
            ev = self._channel_events.pop(msg.channel_id, None)
        else:
            ev = self._user_events.pop(msg.ephemeral_for, None)
        if ev is not None:
            ev.set()

    async def channel_changed(self, channel_id: int, timeout: float) -> bool:
        """Wait until a public message of the channel changes; False after ``timeout``."""
        ev = self._channel_events.get(channel_id)
        if ev is None:
            ev = self._channel_events[channel_id] = asyncio.Event()
        try:
            await asyncio.wait_for(ev.wait(), max(timeout, 0.001))
        except TimeoutError:
            return False
        return True

    async def seen_change(self, channel_id: int, user_id: int, timeout: float) -> None:
        """Wait until a public message of the channel or a private message of the user
        changes, or ``timeout`` passes."""
        waits = [
            (self._channel_events, channel_id),
            (self._user_events, user_id),
        ]
        events = [table.get(key) or table.setdefault(key, asyncio.Event()) for table, key in waits]
        tasks = [asyncio.ensure_future(ev.wait()) for ev in events]
        try:
            await asyncio.wait(tasks, timeout=max(timeout, 0.001),
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()


# --------------------------------------------------------------------------- figures
@dataclass
class Stats:
    rtt: list[float] = field(default_factory=list)
    rtt_by_kind: dict[str, list[float]] = field(default_factory=dict)
    failed: int = 0
    failed_by_kind: Counter[str] = field(default_factory=Counter)
    driver_skips: int = 0  # the button vanished / got disabled between looking and clicking
    moves: int = 0
    pinged: int = 0  # turns a person noticed through a ping (their hand did not follow)
    saw_turn: int = 0  # turns a person found ready on their own private hand
    #: a move acknowledged -> the next person's hand, which they were waiting on, enables
    #: their moves (the fake's clock; only turns found on a hand that was edited for them)
    turn_lag: list[float] = field(default_factory=list)
    tables_started: int = 0
    tables_finished: int = 0
    setup_errors: list[str] = field(default_factory=list)
    lobby_ready: list[float] = field(default_factory=list)  # /start sent -> Join on the lobby
    match_ready: list[float] = field(default_factory=list)  # Start sent -> table picture shown
    first_interaction: float | None = None
    last_interaction: float = 0.0
    #: (table message id, when the move's callback reached the fake), per move by a person
    move_acks: list[tuple[int, float]] = field(default_factory=list)


def pct(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    s = sorted(values)
    k = min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))
    return s[k]


def ms(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{x * 1000:.1f}"


def rss_kb(pid: int) -> int | None:
    """VmRSS of a process in kB (None once it is gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    """user + system CPU time of a process so far."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def child_pids(pid: int) -> list[int]:
    """The bot's worker processes (computer players, pictures) and theirs."""
    found: list[int] = []
    todo = [pid]
    while todo:
        p = todo.pop()
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children", encoding="ascii") as f:
                    kids = [int(x) for x in f.read().split()]
                found.extend(kids)
                todo.extend(kids)
    return found


def children_cpu(pid: int) -> dict[int, float]:
    return {c: cpu for c in child_pids(pid) if (cpu := cpu_seconds(c)) is not None}


def machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine so far, every CPU (/proc/stat)."""
    with open("/proc/stat", encoding="ascii") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


def postgres_cpu(pg: Any) -> dict[int, float]:
    """CPU seconds so far of the PostgreSQL server the bench started, per process (the
    postmaster and its backends); {} without one."""
    if pg is None:
        return {}
    try:
        postmaster = int((pg.data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return {}
    pids = [postmaster, *child_pids(postmaster)]
    return {p: cpu for p in pids if (cpu := cpu_seconds(p)) is not None}


def run_queue_wait(pid: int) -> float | None:
    """Seconds the process's threads spent runnable but waiting for a CPU (other processes)."""
    total = 0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat", encoding="ascii") as f:
                total += int(f.read().split()[1])
    except (OSError, IndexError, ValueError):
        return None
    return total / 1e9


# --------------------------------------------------------------------------- the people
class Bench:
    def __init__(self, args: argparse.Namespace, fake: BenchFake) -> None:
        self.args = args
        self.fake = fake
        self.stats = Stats()
        self.rng = random.Random(args.seed)
        self.think_lo, self.think_hi = args.think_ms
        self.stop_at = math.inf
        self.finished_tables: set[int] = set()
        self.last_ack: float | None = None  # when the latest answered interaction was answered
        self.table_acks: dict[int, float] = {}  # by table message: its latest move's answer

    async def think(self) -> None:
        if self.think_hi > 0:
            await asyncio.sleep(self.rng.uniform(self.think_lo, self.think_hi) / 1000)

    @property
    def stopping(self) -> bool:
        return time.monotonic() >= self.stop_at

    async def act(
        self, kind: str, send: Callable[[], Awaitable[InteractionResult]]
    ) -> InteractionResult | None:
        """Send one interaction and record its round trip; None if the driver refused."""
        t0 = time.perf_counter()
        if self.stats.first_interaction is None:
            self.stats.first_interaction = t0
        try:
            result = await send()
        except DriverError:
            self.stats.driver_skips += 1
            return None
        arrived = self.fake.callback_at.pop(result.interaction_id, None)
        self.last_ack = arrived
        self.stats.last_interaction = time.perf_counter()
        if result.failed or result.response_type is None or arrived is None:
            self.stats.failed += 1
            self.stats.failed_by_kind[kind] += 1
            return result
        rtt = arrived - t0
        self.stats.rtt.append(rtt)
        self.stats.rtt_by_kind.setdefault(kind, []).append(rtt)
        return result

    async def until(self, channel_id: int, ready: Callable[[], object], what: str) -> bool:
        """Wait until ``ready()`` (re-checked on every public change in the channel); False if the
        run ends first; RuntimeError after SETUP_WAIT seconds."""
        end = time.monotonic() + SETUP_WAIT
        while not ready():
            now = time.monotonic()
            if now >= self.stop_at:
                return False
            if now >= end:
                raise RuntimeError(f"{what} within {SETUP_WAIT:g} s")
            await self.fake.channel_changed(channel_id, min(end, self.stop_at) - now)
        return True

    async def table(self, index: int, channel_id: int, people: list[FakeUser]) -> None:
        try:
            await self._table(index, channel_id, people)
        except Exception as exc:  # one broken table must not stop the bench
            self.stats.setup_errors.append(f"table {index}: {type(exc).__name__}: {exc}")

    async def _table(self, index: int, channel_id: int, people: list[FakeUser]) -> None:
        fake = self.fake
        await asyncio.sleep(self.rng.uniform(0, self.args.ramp))
        host, *guests = people
        options: dict[str, Any] = {"players": self.args.players}
        if self.args.players in (4, 6):
            options["teams"] = "pairs"
        if self.args.target:
            options["target"] = self.args.target
        await self.think()
        r = await self.act(
            "slash start",
            lambda: fake.slash(host, "albastini start", channel_id=channel_id, **options),
        )
        if r is None or r.message is None or r.ephemeral:
            raise RuntimeError(f"no lobby: {r and r.message and r.message.text!r}")
        lobby = r.message
        sent = time.perf_counter()
        # a deferred answer ("thinking…") is filled in later
        if not await self.until(channel_id, lambda: fake.find_button(lobby, label="Join"),
                                "the lobby never showed Join"):
            return
        self.stats.lobby_ready.append(time.perf_counter() - sent)

        async def join(user: FakeUser) -> None:
            await self.think()
            await self.act("join", lambda: fake.click(user, lobby, label="Join"))

        await asyncio.gather(*(join(u) for u in guests))

        def can_start() -> bool:
            b = fake.find_button(lobby, label="Start")
            return b is not None and not b.disabled

        if not await self.until(channel_id, can_start, "the lobby never offered Start"):
            return
        await self.think()
        sent = time.perf_counter()
        await self.act("start", lambda: fake.click(host, lobby, label="Start"))
        if not await self.until(channel_id, lambda: fake.find_button(lobby, label="Show my hand"),
                                "the match never showed the table"):
            return
        self.stats.match_ready.append(time.perf_counter() - sent)
        self.stats.tables_started += 1
        await asyncio.gather(*(self.person(u, lobby, channel_id) for u in people))
        if fake.find_button(lobby, label="Show my hand") is None:
            self.stats.tables_finished += 1
            self.finished_tables.add(index)

    def _my_notice(self, user: FakeUser, channel_id: int, handled: set[int]) -> FakeMessage | None:
        mention = f"<@{user.id}>"
        for m in reversed(self.fake.messages(channel_id)):
            if m.id in handled or m.deleted or mention not in m.content:
                continue
            if any((b.custom_id or "").startswith(HAND_ID) for b in m.buttons):
                return m
        return None

    async def person(self, user: FakeUser, table_msg: FakeMessage, channel_id: int) -> None:
        """A person who opens their private hand once and plays on it whenever it enables their
        moves; a ping that mentions them is answered through its own "Show my hand"."""
        fake = self.fake
        await self.think()
        r = await self.act("show hand", lambda: fake.click(user, table_msg, label="Show my hand"))
        if r is None or r.message is None or not r.ephemeral:
            return
        hand = r.message
        handled: set[int] = set()
        waited = False  # on the hand, for a change (the turn lag is measured only then)
        while not self.stopping:
            if fake.find_button(table_msg, label="Show my hand") is None:
                return  # the match is over
            moves = [b for b in hand.buttons if not b.disabled and MOVE_ID.match(b.custom_id or "")]
            if not moves:
                notice = self._my_notice(user, channel_id, handled)
                if notice is None:
                    await fake.seen_change(channel_id, user.id,
                                           min(5.0, self.stop_at - time.monotonic()))
                    waited = True
                    continue
                handled.add(notice.id)
                self.stats.pinged += 1
                await self.think()
                r = await self.act("notice hand", functools.partial(
                    fake.click, user, notice, label="Show my hand"))
                if r is not None and r.message is not None and r.ephemeral:
                    hand = r.message
                continue
            self.stats.saw_turn += 1
            acked = self.table_acks.get(table_msg.id)
            if waited and acked is not None:
                self.stats.turn_lag.append(time.perf_counter() - acked)
            waited = False
            await self.think()
            if self.stopping:
                return
            # the hand may have changed during the think time: click what it shows now
            moves = [b for b in hand.buttons if not b.disabled and MOVE_ID.match(b.custom_id or "")]
            if not moves:
                continue
            r = await self.act("move", functools.partial(
                fake.click, user, hand, custom_id=self.rng.choice(moves).custom_id))
            if r is not None and not r.failed:
                self.stats.moves += 1
                if self.last_ack is not None:
                    self.stats.move_acks.append((table_msg.id, self.last_ack))
                    self.table_acks[table_msg.id] = self.last_ack


# --------------------------------------------------------------------------- the bot process
_NO_PICTURE = (
    "import base64, cogs.messages.painter as _p\n"
    "_png = base64.b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4"
    "nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC')\n"
    "_p.paint = lambda view, names, game, lang: (_png, 'a table')\n"
)

#: What-if experiments: the unmodified bot, patched at start-up by the launcher below (nothing in
#: cogs/ or albastini/ changes), to measure what a change would buy.
WHAT_IF = {
    # the table picture replaced by a fixed 1x1 PNG and its alt text by a word: what drawing,
    # encoding and describing cost (in the painter, where the bot draws its own pictures when
    # the courier is away; and in the courier, below)
    "no-picture": _NO_PICTURE + (
        # a lambda does not cross to the painter's process: paint in a thread instead
        "import concurrent.futures as _cf\n"
        "_p.new_pool = lambda: _cf.ThreadPoolExecutor(1)\n"
    ),
    # the table messages edited by the bot itself (pictures in the painter), not by the courier
    "no-courier": (
        "import cogs.messages.courier as _c\n"
        "async def _no_courier(self):\n"
        "    raise _c.CourierGone('what-if no-courier')\n"
        "_c.Courier.start = _no_courier\n"
    ),
    # table messages edited through the channel only (as 15 minutes after the last click that
    # updated them): every edit paid for from the global budget
    "no-table-tokens": (
        "import cogs.messages.table_message as _tm\n"
        "_tm.TABLE_TOKEN_LIFE = 0.0\n"
    ),
    # no guild message events (the bot's own messages echoed back) and no message cache
    "no-message-events": (
        "import bot as cr\n"
        "_intents = cr.bot_intents\n"
        "def _no_messages():\n"
        "    i = _intents(); i.guild_messages = False; i.dm_messages = False; return i\n"
        "cr.bot_intents = _no_messages\n"
        "_init = cr.AlbastiniBot.__init__\n"
        "def _init_no_cache(self, *a, **kw):\n"
        "    kw.setdefault('max_messages', None); _init(self, *a, **kw)\n"
        "cr.AlbastiniBot.__init__ = _init_no_cache\n"
    ),
}
#: What-if patches that the courier's process needs too (it draws the table pictures)
WHAT_IF_COURIER = {"no-picture": _NO_PICTURE}


#: ``--profile tracemalloc``: the bot traces its allocations and, as it exits (the tables still
#: held), writes the lines that hold the most memory
_TRACE_MEMORY = (
    "import atexit, tracemalloc\n"
    "tracemalloc.start(1)\n"
    "def _held(path={path!r}):\n"
    "    import gc; gc.collect()  # what is garbage is not held\n"
    "    stats = tracemalloc.take_snapshot().statistics('lineno')\n"
    "    with open(path, 'w', encoding='utf-8') as out:\n"
    "        for s in stats[:40]:\n"
    "            out.write(f'{{s.size}}\\t{{s.count}}\\t{{s.traceback[0]}}\\n')\n"
    "atexit.register(_held)\n"
)

#: ``--profile gc``: the bot times each pass of the garbage collector and, as it exits, writes
#: their count, total and longest by generation
_GC_PAUSES = (
    "import atexit, gc, os, time\n"
    "_gc_began = [0.0]\n"
    "_gc_took = {{0: [], 1: [], 2: []}}\n"
    "def _gc_pass(phase, info):\n"
    "    if phase == 'start':\n"
    "        _gc_began[0] = time.perf_counter()\n"
    "    else:\n"
    "        _gc_took[info['generation']].append(time.perf_counter() - _gc_began[0])\n"
    "gc.callbacks.append(_gc_pass)\n"
    "_gc_pid = os.getpid()  # not the processes the bot spawns\n"
    "def _gc_write(path={path!r}):\n"
    "    if os.getpid() == _gc_pid:\n"
    "        with open(path, 'w', encoding='utf-8') as out:\n"
    "            for gen, took in _gc_took.items():\n"
    "                longest = max(took, default=0)\n"
    "                out.write(f'{{gen}}\\t{{len(took)}}\\t{{sum(took)}}\\t{{longest}}\\n')\n"
    "atexit.register(_gc_write)\n"
)


def bot_command(args: argparse.Namespace, workdir: Path) -> list[str]:
    script = str(ROOT / "bot.py")
    if args.what_if or args.profile in ("tracemalloc", "gc"):
        launcher = workdir / "launch_bot.py"
        patches = "".join(WHAT_IF[name] for name in args.what_if or ())
        if args.profile == "tracemalloc":
            patches += _TRACE_MEMORY.format(path=str(workdir / "memory.txt"))
        if args.profile == "gc":
            patches += _GC_PAUSES.format(path=str(workdir / "gc.txt"))
        courier = "".join(WHAT_IF_COURIER.get(name, "") for name in args.what_if or ())
        if courier:
            # The courier's process does not run this launcher, but it imports by name what
            # it runs: its entry point, wrapped in a module that patches it first.
            (workdir / "courier_what_if.py").write_text(
                f"{courier}import cogs.messages.courier as _courier\n"
                "_serve = _courier.serve\n"
                "def serve(*args, **kwargs):\n"
                "    return _serve(*args, **kwargs)\n"
                "_courier.serve = serve\n",
                encoding="utf-8",
            )
            patches = "import courier_what_if\n" + patches
        launcher.write_text(
            # bot.py is imported as the module ``bot`` (patched here) and started as
            # ``python bot.py`` would be; the bot's spawned processes do not run this script
            f"import sys\nsys.path[:0] = [{str(ROOT)!r}, {str(workdir)!r}]\n{patches}"
            f"if __name__ == '__main__':\n"
            f"    import bot\n    sys.argv = [{script!r}, *sys.argv[1:]]\n"
            f"    bot.keep_spawned_processes_light()\n    sys.exit(bot.main())\n",
            encoding="utf-8",
        )
        script = str(launcher)
    if args.profile == "cprofile":
        return [sys.executable, "-m", "cProfile", "-o", str(workdir / "bot.pstats"), script]
    if args.profile == "pyinstrument":
        # a sampling profiler: the small functions that cProfile's overhead inflates are not
        # inflated here; its pstats renderer writes what summarize_cprofile reads
        return [sys.executable, "-m", "pyinstrument", "--interval", "0.0005", "--renderer",
                "pstats", "--outfile", str(workdir / "bot.pstats"), script]
    return [sys.executable, script]


def pin_driver(index: int = 0) -> int | None:
    """Keep this process (the fake Discord and the simulated people) on the last CPU (driver
    ``index``: the ``index``-th from the last); the bot, already started, keeps all of them.
    Discord is not on the bot's machine: sharing the bot's CPUs with the load generator would
    measure the generator as much as the bot (a load generator normally runs on a machine of
    its own). None when there is a single CPU."""
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if len(cpus) < 2:
        return None
    last = cpus[-1 - index % (len(cpus) - 1)]
    for task in Path("/proc/self/task").iterdir():  # every thread, not only this one
        with contextlib.suppress(OSError, ValueError):
            os.sched_setaffinity(int(task.name), {last})
    return last


def find_py_spy() -> str | None:
    local = Path(sys.executable).parent / "py-spy"
    return str(local) if local.exists() else shutil.which("py-spy")


def summarize_py_spy(raw: Path, top: int = 25, gil: bool = False) -> list[str]:
    """Self and inclusive sample counts per function from py-spy's collapsed stacks."""
    self_count: Counter[str] = Counter()
    incl: Counter[str] = Counter()
    total = 0
    try:
        lines = raw.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ["py-spy: no profile written"]
    for line in lines:
        stack, _, count_s = line.rpartition(" ")
        if not stack or not count_s.isdigit():
            continue
        count = int(count_s)
        total += count
        frames = [re.sub(r" \(.*?/((?:site-packages/)?[^/]+/[^/]+\.py)(?::\d+)?\)$", r" (\1)", f)
                  for f in stack.split(";")]
        self_count[frames[-1]] += count
        for f in set(frames):
            incl[f] += count
    if not total:
        return ["py-spy: no samples"]
    who = "the thread holding the GIL" if gil else "every thread not idle"
    out = [f"py-spy: {total} samples of the bot process ({who})"]
    out.append("  self time, top functions:")
    for name, n in self_count.most_common(top):
        out.append(f"    {100 * n / total:5.1f}%  {name}")
    out.append("  inclusive time, top functions:")
    for name, n in incl.most_common(top + 15):
        out.append(f"    {100 * n / total:5.1f}%  {name}")
    return out


def summarize_memory(path: Path, tables: int, top: int = 25) -> list[str]:
    """The lines whose allocations the bot still held as it stopped (``--profile
    tracemalloc``), with their size per table."""
    if not path.exists():
        return ["tracemalloc: the bot wrote no snapshot (did it stop cleanly?)"]
    out = [f"memory the bot still held as it stopped, by line (KB per table of {tables}):"]
    for line in path.read_text(encoding="utf-8").splitlines()[:top]:
        size, count, where = line.split("\t")
        per_table = int(size) / 1024 / max(tables, 1)
        out.append(f"  {per_table:7.2f} KB  {int(count):8d} blocks  {where}")
    return out


def summarize_gc(path: Path) -> list[str]:
    """The garbage collector's passes in the bot by generation (``--profile gc``)."""
    if not path.exists():
        return ["gc: the bot wrote no figures (did it stop cleanly?)"]
    out = ["garbage collector in the bot (main process), by generation:"]
    for line in path.read_text(encoding="utf-8").splitlines():
        gen, n, total, longest = line.split("\t")
        out.append(f"  generation {gen}: {int(n)} passes, {float(total) * 1000:.0f} ms in all, "
                   f"longest {float(longest) * 1000:.1f} ms")
    return out


def summarize_cprofile(path: Path, top: int = 25) -> list[str]:
    if not path.exists():
        return ["cProfile: no profile written"]
    import io

    buf = io.StringIO()
    st = pstats.Stats(str(path), stream=buf)
    st.sort_stats("tottime").print_stats(top)
    st.sort_stats("cumulative").print_stats(top)
    return buf.getvalue().splitlines()


def guilds_per_shard(fake: FakeDiscord, count: int, wanted: list[int]) -> dict[int, int]:
    """A server of the fake on each of the ``wanted`` shards of ``count``: the default one
    where it fits, new ones for the others (ids made a millisecond apart land on other
    shards)."""
    found = {(fake.guild_id >> 22) % count: fake.guild_id}
    while not all(k in found for k in wanted):
        gid = fake.add_guild(f"Albastini Club {len(found) + 1}")
        found.setdefault((gid >> 22) % count, gid)
        time.sleep(0.001)
    return {k: found[k] for k in wanted}


async def wait_exit(proc: subprocess.Popen[bytes], timeout: float) -> int | None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        rc = proc.poll()
        if rc is not None:
            return rc
        await asyncio.sleep(0.1)
    return None


# --------------------------------------------------------------------------- the drivers
@dataclass
class DriverReport:
    """What one driver (a fake Discord and its people) saw during play, merged by the parent."""

    index: int
    stats: Stats
    lag_seen: list[float]  # move acknowledged -> its table message edited, per move
    lag_unseen: int
    public_edits: int
    token_edits: int
    failed: int
    unknown_routes: int
    rate_limited: int
    rejections: Counter[str]
    server_errors: int
    global_limited: int
    request_counts: Counter[str]
    answered_by_shard: Counter[int]
    loop_lags: list[float]
    cpu: float


def merge(reports: list[DriverReport]) -> DriverReport:
    """The drivers' reports as one (sums, lists joined; the first and last interaction of all)."""
    st = Stats()
    total = DriverReport(-1, st, [], 0, 0, 0, 0, 0, 0, Counter(), 0, 0, Counter(), Counter(),
                         [], 0.0)
    firsts = [r.stats.first_interaction for r in reports if r.stats.first_interaction is not None]
    st.first_interaction = min(firsts, default=None)
    for r in reports:
        s = r.stats
        st.rtt += s.rtt
        for kind, values in s.rtt_by_kind.items():
            st.rtt_by_kind.setdefault(kind, []).extend(values)
        st.failed += s.failed
        st.failed_by_kind += s.failed_by_kind
        st.driver_skips += s.driver_skips
        st.moves += s.moves
        st.pinged += s.pinged
        st.saw_turn += s.saw_turn
        st.turn_lag += s.turn_lag
        st.tables_started += s.tables_started
        st.tables_finished += s.tables_finished
        st.setup_errors += s.setup_errors
        st.lobby_ready += s.lobby_ready
        st.match_ready += s.match_ready
        st.last_interaction = max(st.last_interaction, s.last_interaction)
        total.lag_seen += r.lag_seen
        total.lag_unseen += r.lag_unseen
        for name in ("public_edits", "token_edits", "failed", "unknown_routes", "rate_limited",
                     "server_errors", "global_limited"):
            setattr(total, name, getattr(total, name) + getattr(r, name))
        total.rejections += r.rejections
        total.request_counts += r.request_counts
        total.answered_by_shard += r.answered_by_shard
        total.loop_lags += r.loop_lags
        total.cpu += r.cpu
    return total


def table_shard(args: argparse.Namespace, index: int) -> int:
    """The shard (so the bot process) whose servers hold table ``index``."""
    return int(args.only_shard) if args.only_shard is not None else index % args.clusters


class Driver:
    """A fake Discord serving shards ``index``, ``index + count``, ... of the bot's
    ``args.clusters`` (all of them when ``count`` is 1), and the people of the tables on those
    shards' servers; in this process (``--drivers 1``) or in one of its own."""

    def __init__(self, args: argparse.Namespace, index: int = 0, count: int = 1,
                 shared: SharedGlobalLimit | None = None) -> None:
        self.args = args
        self.index = index
        edit_rate = None if args.edit_rate is None else (args.edit_rate[0], args.edit_rate[1])
        # one application (one bot user) whichever driver a cluster talks to
        self.fake = BenchFake(interaction_deadline=DEADLINE, edit_rate=edit_rate,
                              max_messages=200, shards=args.clusters,
                              global_rate=args.global_rate, global_limit=shared,
                              app_id=getattr(args, "app_id", None))
        self.shards = [k for k in range(args.clusters) if k % count == index]
        seeded = argparse.Namespace(**{**vars(args), "seed": args.seed + index})
        self.bench = Bench(seeded, self.fake)
        self.tables: list[tuple[int, int, list[FakeUser]]] = []
        self.guilds: dict[int, int] = {}
        self.lags: list[float] = []
        self._lag_task: asyncio.Task[None] | None = None
        self._answered0: Counter[int | None] = Counter()
        self._cpu0 = 0.0
        self._cpu = 0.0

    async def setup(self) -> dict[str, str]:
        """Start the fake and make the servers, channels and people; the bot's environment."""
        fake, args = self.fake, self.args
        await fake.start()
        self.guilds = guilds_per_shard(fake, args.clusters, self.shards)
        for i in range(args.tables):
            shard = table_shard(args, i)
            if shard not in self.guilds:
                continue  # another driver's
            gid = self.guilds[shard]
            cid = fake.add_channel(f"albastini-{i + 1}", gid)
            people = [fake.add_user(f"P{i + 1}-{s + 1}", guild_id=gid)
                      for s in range(args.players)]
            self.tables.append((i, cid, people))
        return fake.env()

    async def ready(self, commands: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        """Wait for the bot's processes of these shards; the commands they synced (the first
        driver's; the others are given them: one application, one list of commands)."""
        fake = self.fake
        await fake.wait_connected(timeout=60, shards=len(self.shards))
        if commands is None:
            await fake.wait_until(lambda: fake.commands(), timeout=60)
        else:
            fake.global_commands = commands
        await fake.wait_idle(quiet=0.5, timeout=30)
        return fake.global_commands

    async def play(self) -> None:
        """Play every table of this driver for ``args.seconds`` (people stop then)."""
        args, bench = self.args, self.bench

        async def loop_lag() -> None:  # how late this process's own loop runs (driver load)
            while True:
                t = time.perf_counter()
                await asyncio.sleep(0.1)
                self.lags.append(time.perf_counter() - t - 0.1)

        self._lag_task = asyncio.create_task(loop_lag())
        self._answered0 = Counter(self.fake.answered_in)
        self._cpu0 = time.process_time()
        bench.stop_at = time.monotonic() + args.seconds
        jobs = [asyncio.create_task(bench.table(i, cid, people))
                for i, cid, people in self.tables]
        if jobs:
            hard = args.seconds + args.ramp + 30.0  # people stop at `seconds`; this always stops
            _done, pending = await asyncio.wait(jobs, timeout=hard)
            for job in pending:
                job.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
        else:  # an idle cluster's driver: still measured over the run
            await asyncio.sleep(args.seconds)
        self._cpu = time.process_time() - self._cpu0
        self._lag_task.cancel()
        await asyncio.gather(self._lag_task, return_exceptions=True)

    async def report(self) -> DriverReport:
        """Once the bot is quiet: what this driver saw."""
        import bisect

        fake, st = self.fake, self.bench.stats
        with contextlib.suppress(TimeoutError):
            await fake.wait_idle(quiet=0.5, timeout=10)
        seen: list[float] = []
        unseen = 0
        for mid, acked in st.move_acks:
            edits = fake.edited_at.get(mid, [])
            i = bisect.bisect_left(edits, acked)
            if i < len(edits):
                seen.append(edits[i] - acked)
            else:
                unseen += 1
        by_shard: Counter[int] = Counter()
        for shard, gid in self.guilds.items():
            by_shard[shard] = fake.answered_in[gid] - self._answered0[gid]
        st.move_acks = []
        return DriverReport(
            self.index, st, seen, unseen, sum(len(v) for v in fake.edited_at.values()),
            fake.token_edits, len(fake.failed_interactions), len(fake.unknown_routes),
            len(fake.rate_limited),
            Counter(f"{r.status}/{r.body.get('code')} {r.body.get('message')}"
                    for r in fake.rejections),
            len(fake.server_errors), len(fake.global_limited), Counter(fake.request_counts),
            by_shard, self.lags, self._cpu)

    async def stop(self) -> None:
        await self.fake.stop()


def driver_process(args: argparse.Namespace, index: int, count: int,
                   shared: SharedGlobalLimit | None, conn: Any) -> None:
    """A driver process's life (``--drivers N``), told what to do by the parent over ``conn``."""
    set_snowflake_worker(index)  # ids unique across the drivers: one bot stores them all
    uvloop.run(_driver_main(args, index, count, shared, conn))


async def _driver_main(args: argparse.Namespace, index: int, count: int,
                       shared: SharedGlobalLimit | None, conn: Any) -> None:
    async def recv() -> Any:
        return await asyncio.to_thread(conn.recv)

    driver = Driver(args, index, count, shared)
    try:
        conn.send(("env", await driver.setup()))
        _, commands = await recv()
        conn.send(("ready", await driver.ready(commands)))
        await recv()  # go
        if args.pin:
            pin_driver(index)
        await driver.play()
        conn.send(("played", None))
        await recv()  # report
        conn.send(("report", await driver.report()))
        await recv()  # stop: the bot has stopped (it stops against a live fake)
    except Exception as exc:
        import traceback

        conn.send(("error", f"driver {index}: {exc!r}\n{traceback.format_exc()}"))
    finally:
        await driver.stop()


class RemoteDriver:
    """The parent's handle on a driver process (the same steps as :class:`Driver`)."""

    def __init__(self, ctx: Any, args: argparse.Namespace, index: int, count: int,
                 shared: SharedGlobalLimit | None) -> None:
        self.index = index
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=driver_process, args=(args, index, count, shared, child),
                                name=f"bot_load driver {index}", daemon=True)
        self.proc.start()

    async def _reply(self, want: str) -> Any:
        what, value = await asyncio.to_thread(self.conn.recv)
        if what == "error":
            raise RuntimeError(value)
        assert what == want, (what, want)
        return value

    async def setup(self) -> dict[str, str]:
        return await self._reply("env")  # type: ignore[no-any-return]

    async def ready(self, commands: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        self.conn.send(("ready", commands))
        return await self._reply("ready")  # type: ignore[no-any-return]

    async def play(self) -> None:
        self.conn.send(("go", None))
        await self._reply("played")

    async def report(self) -> DriverReport:
        self.conn.send(("report", None))
        return await self._reply("report")  # type: ignore[no-any-return]

    async def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.conn.send(("stop", None))
        await asyncio.to_thread(self.proc.join, 30)
        if self.proc.is_alive():
            self.proc.kill()


# --------------------------------------------------------------------------- main
async def run(args: argparse.Namespace) -> float:
    workdir = Path(tempfile.mkdtemp(prefix="albastini-bot-load-"))
    drivers: list[Driver | RemoteDriver]
    if args.drivers == 1:
        drivers = [Driver(args)]  # this process, as before --drivers
    else:
        ctx = multiprocessing.get_context("spawn")
        args.app_id = snowflake()  # the bot's one application id, in every driver
        grate = args.global_rate  # None: lifted (--global-rate off)
        shared = None if grate is None else SharedGlobalLimit(grate[0], grate[1], ctx)
        drivers = [RemoteDriver(ctx, args, d, args.drivers, shared) for d in range(args.drivers)]
    envs = await asyncio.gather(*(d.setup() for d in drivers))
    pg: Any = None
    database = str(workdir / "albastini.db")
    if args.db == "postgresql":
        from tests.doubles import PostgresServer

        pg = PostgresServer()
        await asyncio.to_thread(pg.start)
        database = await pg.database()

    env = dict(os.environ)
    env.update({
        "DISCORD_TOKEN": "bench-token",
        "ALBASTINI_DB": database,
        "ALBASTINI_COMPUTER_PAUSE": "0",
        "ALBASTINI_SYNC": "always",
        "ALBASTINI_WORKERS": "1",
        "ALBASTINI_GLOBAL_POOL": args.global_pool,
        "LOG_LEVEL": args.log_level,
        "PYTHONUNBUFFERED": "1",
    })
    if args.bot_rate is not None:
        env["ALBASTINI_GLOBAL_RATE"] = f"{args.bot_rate:g}"
    log_path = workdir / "bot.log"
    log_file = open(log_path, "wb")  # noqa: SIM115 - closed in finally
    procs: list[subprocess.Popen[bytes]] = []
    for k in range(args.clusters):  # one bot process, or one per shard (clusters)
        shards = ["--shards", str(k), "--shard-count", str(args.clusters)]
        # a cluster's gateway and REST calls go to the driver serving its shard
        procs.append(subprocess.Popen(
            bot_command(args, workdir) + (shards if args.clusters > 1 else []),
            env={**env, **envs[k % len(drivers)]},
            cwd=workdir, stdout=log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL))
    proc = procs[0]  # the one profiled
    # after the bot started: it keeps every CPU (driver processes pin themselves at "go")
    pinned = pin_driver() if args.pin and args.drivers == 1 else None
    spy: subprocess.Popen[bytes] | None = None
    lines: list[str] = []
    samples: list[int] = []
    child_rss: list[int] = [0]
    kids_cpu = pg_cpu = 0.0
    machine_busy = math.nan
    clean = "not stopped"
    t_play0 = t_play1 = time.perf_counter()
    cpu0 = cpu1 = wait0 = wait1 = None
    load0 = load1 = math.nan
    per_process: list[tuple[float, int]] = []
    reports: list[DriverReport] = []
    try:
        commands = await drivers[0].ready()  # the first cluster syncs the commands
        await asyncio.gather(*(d.ready(commands) for d in drivers[1:]))
        await asyncio.sleep(1.0)
        base = sum(rss_kb(p.pid) or 0 for p in procs)
        samples.append(base)
        child_rss[:] = [sum(rss_kb(c) or 0 for p in procs for c in child_pids(p.pid))]

        async def sample_rss() -> None:
            while True:
                kb = [rss_kb(p.pid) for p in procs]
                if None not in kb:
                    samples.append(sum(k or 0 for k in kb))
                    kids = sum(rss_kb(c) or 0 for p in procs for c in child_pids(p.pid))
                    child_rss.append(kids)
                await asyncio.sleep(0.25)

        if args.profile in ("py-spy", "py-spy-gil"):
            exe = find_py_spy()
            if exe is None:
                lines.append("py-spy not found: .venv/bin/pip install py-spy")
            else:
                spy = subprocess.Popen(
                    [exe, "record", "--pid", str(proc.pid), "--format", "raw", "--rate", "100",
                     "--nonblocking", "--threads", "--output", str(workdir / "py-spy.txt"),
                     *(["--gil"] if args.profile == "py-spy-gil" else [])],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        watchers = [asyncio.create_task(sample_rss())]
        cpus0 = [cpu_seconds(p.pid) for p in procs]
        cpu0 = sum(c or 0.0 for c in cpus0)
        kids0 = {c: v for p in procs for c, v in children_cpu(p.pid).items()}
        pg0 = postgres_cpu(pg)
        machine0 = machine_ticks()
        wait0 = run_queue_wait(proc.pid)
        load0 = os.getloadavg()[0]
        t_play0 = time.perf_counter()
        await asyncio.gather(*(d.play() for d in drivers))
        t_play1 = time.perf_counter()
        cpus1 = [cpu_seconds(p.pid) for p in procs]
        cpu1 = sum(c or 0.0 for c in cpus1)
        kids1 = {c: v for p in procs for c, v in children_cpu(p.pid).items()}
        kids_cpu = sum(v - kids0.get(c, 0.0) for c, v in kids1.items())
        machine1 = machine_ticks()
        machine_busy = (machine1[0] - machine0[0]) / max(machine1[1] - machine0[1], 1)
        pg_cpu = sum(v - pg0.get(c, 0.0) for c, v in postgres_cpu(pg).items())
        wait1 = run_queue_wait(proc.pid)
        load1 = os.getloadavg()[0]
        for w in watchers:
            w.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)
        reports = list(await asyncio.gather(*(d.report() for d in drivers)))
        by_shard = merge(reports).answered_by_shard
        per_process = [
            (b - a if a is not None and b is not None else math.nan, by_shard[k])
            for k, (a, b) in enumerate(zip(cpus0, cpus1, strict=True))
        ]
        peak = max(samples)
        if spy is not None:
            spy.send_signal(signal.SIGINT)  # py-spy writes its profile on SIGINT
            with contextlib.suppress(subprocess.TimeoutExpired):
                spy.wait(timeout=30)
    finally:
        exited = [p.poll() for p in procs]
        for p in procs:  # every process at once, as the launcher does
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        verdicts = []
        for p, gone in zip(procs, exited, strict=True):
            if gone is not None:
                verdicts.append(f"no: the bot had already exited with status {gone}")
                continue
            rc = await wait_exit(p, 30.0)
            if rc is None:
                p.kill()
                p.wait()
                verdicts.append("no: killed after 30 s")
            else:
                verdicts.append("yes (exit status 0)" if rc == 0 else f"no: exit status {rc}")
        clean = verdicts[0] if len(set(verdicts)) == 1 else "; ".join(verdicts)
        if len(procs) > 1:
            clean = f"{clean} ({len(procs)} processes)"
        if spy is not None and spy.poll() is None:
            spy.kill()
            spy.wait()
        log_file.close()
        await asyncio.gather(*(d.stop() for d in drivers), return_exceptions=True)
        if pg is not None:
            await asyncio.to_thread(pg.stop)

    rep = merge(reports)
    st = rep.stats
    window = max(t_play1 - t_play0, 1e-9)
    answered = len(st.rtt)
    log_text = log_path.read_text(encoding="utf-8", errors="replace")
    bot_errors = sum(1 for ln in log_text.splitlines() if " ERROR " in ln or "Traceback" in ln)
    total_requests = sum(rep.request_counts.values())
    cpu_used = (cpu1 - cpu0) if cpu0 is not None and cpu1 is not None else math.nan
    think = f"{args.think_ms[0]:g}-{args.think_ms[1]:g} ms"
    edit_rate = args.edit_rate
    rate = "off" if edit_rate is None else f"{edit_rate[0]} per {edit_rate[1]:g} s per channel"

    out = lines
    db = "SQLite" if args.db == "sqlite" else "PostgreSQL"
    setup = f"{args.clusters} bot processes" if args.clusters > 1 else "1 bot process"
    if args.clusters > 1 and args.db == "postgresql":
        setup += (", the global limit pooled" if args.global_pool == "on"
                  else ", each its fixed part of the global limit")
    if args.only_shard is not None:
        setup += f", every table on shard {args.only_shard}'s servers"
    if args.drivers > 1:
        setup += f", {args.drivers} driver processes"
    out.insert(0, f"bot_load: {setup} on {db}, "
                  f"{args.tables} tables x {args.players} people, think {think}, "
                  f"{args.seconds:g} s (ramp {args.ramp:g} s), target "
                  f"{args.target or 'server default'}, edit rate limit {rate}"
                  + (f", what-if: {' + '.join(args.what_if)}" if args.what_if else "")
                  + (f", driver on CPU {pinned} (the bot on all {os.cpu_count()})"
                     if pinned is not None else
                     f", drivers pinned to the last {args.drivers} CPUs" if args.pin else
                     ", driver and bot share every CPU"))
    out.append(f"tables started: {st.tables_started}/{args.tables}, matches finished: "
               f"{st.tables_finished}, moves by people: {st.moves}")
    out.append(f"interactions answered: {answered} in {window:.1f} s = "
               f"{answered / window:.1f}/s")
    out.append(f"round trip: p50 {ms(pct(st.rtt, 0.5))} ms, p90 {ms(pct(st.rtt, 0.9))} ms, "
               f"p99 {ms(pct(st.rtt, 0.99))} ms, max {ms(max(st.rtt, default=math.nan))} ms")
    for kind, values in sorted(st.rtt_by_kind.items()):
        out.append(f"  {kind:12s} n={len(values):6d}  p50 {ms(pct(values, 0.5)):>7s} ms  "
                   f"p99 {ms(pct(values, 0.99)):>7s} ms  max {ms(max(values)):>7s} ms")
    over = sum(1 for x in st.rtt if x > DEADLINE)
    out.append(f"failed interactions (no answer within {DEADLINE:g} s): "
               f"{rep.failed} (by kind: {dict(st.failed_by_kind)}; "
               f"answered but over {DEADLINE:g} s: {over})")
    out.append(f"unknown routes: {rep.unknown_routes}, rate-limited requests (429): "
               f"{rep.rate_limited}, rejected requests: {sum(rep.rejections.values())}, "
               f"fake server errors: {rep.server_errors}")
    grate = args.global_rate
    out.append(f"global rate limit ({'off' if grate is None else f'{grate[0]} per {grate[1]:g} s'}"
               f"{', kept across the driver processes' if args.drivers > 1 and grate else ''}"
               f"): {rep.global_limited} requests refused with a global 429")
    out.extend(lag_lines(rep, log_text))
    for what, n in rep.rejections.most_common(4):
        out.append(f"  rejected {n} x {what}")
    out.append(f"driver: clicks refused by the client {st.driver_skips}, turns found ready on "
               f"the private hand {st.saw_turn} / through a ping {st.pinged}, "
               f"broken tables {len(st.setup_errors)}")
    clicks = sum(len(v) for k, v in st.rtt_by_kind.items() if k != "slash start")
    out.append(f"clicks by people during play: {clicks} for {st.moves} moves "
               f"({clicks / max(st.moves, 1):.2f} per move, lobby clicks included)")
    for err in st.setup_errors[:5]:
        out.append(f"  {err}")
    peak = max(samples) if samples else 0
    base = samples[0] if samples else 0
    out.append(f"bot memory: VmRSS {base / 1024:.1f} MB before the tables, peak "
               f"{peak / 1024:.1f} MB; {(peak - base) / max(args.tables, 1):.1f} KB per table")
    out.append(f"bot CPU: {cpu_used:.1f} s in {window:.1f} s = {100 * cpu_used / window:.0f}% "
               f"of a core; {1000 * cpu_used / max(answered, 1):.2f} ms per interaction")
    if len(procs) > 1:
        for k, (used, n) in enumerate(per_process):
            each = f"{1000 * used / n:.2f} ms per interaction" if n else "idle"
            out.append(f"  bot process {k} (shard {k} of {len(procs)}): CPU {used:.1f} s = "
                       f"{100 * used / window:.0f}% of a core; {n} interactions answered, "
                       f"{each}")
    out.append(f"bot worker processes (courier, computers): CPU {kids_cpu:.1f} s = "
               f"{1000 * kids_cpu / max(answered, 1):.2f} ms per interaction; VmRSS "
               f"{child_rss[0] / 1024:.1f} MB before the tables, "
               f"peak {max(child_rss) / 1024:.1f} MB")
    if wait0 is not None and wait1 is not None:
        out.append(f"bot threads waited {wait1 - wait0:.1f} s for a CPU (runnable, not running); "
                   f"machine load average {load0:.1f} at the start, {load1:.1f} at the end "
                   f"({os.cpu_count()} CPUs)")
    for what, values in (("lobby ready (/start -> Join shown)", st.lobby_ready),
                         ("match ready (Start -> table picture)", st.match_ready)):
        if values:
            out.append(f"{what}: p50 {ms(pct(values, 0.5))} ms, p99 {ms(pct(values, 0.99))} ms,"
                       f" max {ms(max(values))} ms")
    if rep.loop_lags:
        where = "this process" if args.drivers == 1 else f"{args.drivers} driver processes"
        out.append(f"driver loop lag ({where}, not the bot): p99 {ms(pct(rep.loop_lags, 0.99))} "
                   f"ms, max {ms(max(rep.loop_lags))} ms; driver CPU {rep.cpu:.1f} s = "
                   f"{100 * rep.cpu / window:.0f}% of a core")
        if args.drivers > 1:
            for r in reports:
                served = ", ".join(str(k) for k in range(r.index, args.clusters, args.drivers))
                out.append(f"  driver {r.index} (shards {served}): "
                           f"p99 {ms(pct(r.loop_lags, 0.99))} ms, max "
                           f"{ms(max(r.loop_lags, default=math.nan))} ms, CPU "
                           f"{100 * r.cpu / window:.0f}% of a core, "
                           f"{len(r.stats.rtt)} interactions answered")
    if pg is not None:
        out.append(f"PostgreSQL server CPU: {pg_cpu:.1f} s = {100 * pg_cpu / window:.0f}% of a "
                   f"core; {1000 * pg_cpu / max(answered, 1):.2f} ms per interaction")
    out.append(f"machine CPU during play: {100 * machine_busy:.0f}% of {os.cpu_count()} CPUs busy "
               "(everything: bot, workers, driver, database server, anything else)")
    out.append(f"REST requests from the bot: {total_requests} "
               f"({total_requests / max(st.moves, 1):.1f} per move by a person)")
    for route, n in sorted(rep.request_counts.items(), key=lambda kv: -kv[1])[:8]:
        out.append(f"  {n:7d}  {route}")
    out.append(f"bot log: {bot_errors} error lines; clean shutdown on SIGTERM: {clean}")
    seen: Counter[str] = Counter()
    for ln in log_text.splitlines():
        if " ERROR " in ln or " WARNING " in ln:
            seen[re.sub(r"^\S+ \S+ ", "", re.sub(r"\d{5,}", "N", ln))[:140]] += 1
    for what, n in seen.most_common(4):
        out.append(f"  {n} x {what}")
    if args.profile in ("py-spy", "py-spy-gil"):
        out.extend(summarize_py_spy(workdir / "py-spy.txt", gil=args.profile == "py-spy-gil"))
    elif args.profile in ("cprofile", "pyinstrument"):
        out.extend(summarize_cprofile(workdir / "bot.pstats"))
    elif args.profile == "tracemalloc":
        out.extend(summarize_memory(workdir / "memory.txt", args.tables))
    elif args.profile == "gc":
        out.extend(summarize_gc(workdir / "gc.txt"))
    p99 = pct(st.rtt, 0.99) * 1000
    kb = (peak - base) / max(args.tables, 1)
    verdict = []
    verdict.append(f"p99 {'ok' if p99 <= TARGETS['p99_ms'] else 'MISSED'} "
                   f"(target <= {TARGETS['p99_ms']:g} ms)")
    verdict.append(f"failed {'ok' if not rep.failed else 'MISSED'} (target 0)")
    verdict.append(f"memory {'ok' if kb <= TARGETS['kb_per_table'] else 'MISSED'} "
                   f"(target <= {TARGETS['kb_per_table']:g} KB per table)")
    out.append("targets: " + ", ".join(verdict))
    if args.keep:
        out.append(f"kept: {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    for line in out:
        print(line)
    return p99


def lag_lines(rep: DriverReport, log_text: str) -> list[str]:
    """The table-update lag: as people see it (a move's acknowledgement to the next edit of
    its table message reaching the fake) and as the bot measured it (its log line)."""
    seen = rep.lag_seen
    channel = rep.request_counts.get("PATCH /api/v{version}/channels/{cid}/messages/{mid}", 0)
    turn = rep.stats.turn_lag
    out = [f"turn lag, a move acknowledged -> the next person's hand enables their moves "
           f"(driver's view): p50 {ms(pct(turn, 0.5))} ms, p90 {ms(pct(turn, 0.9))} ms, "
           f"p99 {ms(pct(turn, 0.99))} ms, "
           f"max {ms(max(turn, default=math.nan))} ms over {len(turn)} turns",
           f"table-update lag, move acknowledged -> its table message edited (fake's view): "
           f"p50 {ms(pct(seen, 0.5))} ms, p99 {ms(pct(seen, 0.99))} ms, "
           f"max {ms(max(seen, default=math.nan))} ms over {len(seen)} moves "
           f"({rep.lag_unseen} not shown by the end)",
           f"public message edits: {rep.public_edits}, of which {channel} through the channel "
           f"(PATCH, counted by the global limit) and {rep.token_edits} through an interaction's"
           f" token (not counted); the rest are answers to clicks on them"]
    found = re.findall(r"table updates: .*", log_text)  # one line per bot process
    out.append("table-update lag, change -> edit done (the bot's view): "
               + (found[0] if found else "no line in the bot log (LOG_LEVEL INFO needed)"))
    out.extend(f"  another bot process: {line}" for line in found[1:])
    out.extend(f"  {line}" for line in re.findall(r"global budget pool: .*", log_text))
    return out


def think_range(text: str) -> tuple[float, float]:
    parts = text.replace("–", "-").split("-")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected MS or LO-HI in ms, got {text!r}") from None
    if len(values) == 1:
        return values[0], values[0]
    if len(values) != 2 or values[0] > values[1] or values[0] < 0:
        raise argparse.ArgumentTypeError(f"expected MS or LO-HI in ms, got {text!r}")
    return values[0], values[1]


def rate_limit(text: str) -> tuple[int, float] | None:
    if text.lower() in ("off", "none", "0"):
        return None
    limit, _, per = text.partition("/")
    try:
        return int(limit), float(per or 5)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected LIMIT/SECONDS or off, got {text!r}") from None


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=200, help="tables played at once (200)")
    p.add_argument("--players", type=int, default=4, choices=range(2, 7), metavar="2..6",
                   help="people per table (4: two pairs)")
    p.add_argument("--seconds", type=float, default=60.0,
                   help="play for this long, then stop (60); the bench always ends")
    p.add_argument("--target", type=int, default=None,
                   help="victory points to win (e.g. 1: matches end during the run)")
    p.add_argument("--think-ms", type=think_range, default=(200.0, 800.0),
                   help="think time before each click, LO-HI ms (200-800); 0 for a stress run")
    p.add_argument("--ramp", type=float, default=20.0,
                   help="tables open at random times within this many seconds (20)")
    p.add_argument("--edit-rate", type=rate_limit, default=None,
                   help="per-channel limit on message creates/edits, e.g. 5/5 (default off)")
    p.add_argument("--global-rate", type=rate_limit, default=(50, 1.0),
                   help="the fake's global limit per bot token, LIMIT/SECONDS (50/1, Discord's; "
                        "off to lift it)")
    p.add_argument("--bot-rate", type=float, default=None,
                   help="the bot's budget, requests/s (ALBASTINI_GLOBAL_RATE; default the bot's "
                        "own, 45)")
    p.add_argument("--profile", choices=["py-spy", "py-spy-gil", "cprofile", "pyinstrument",
                                        "tracemalloc", "gc"],
                   default=None,
                   help="profile the bot: py-spy (every busy thread), py-spy-gil (only the "
                        "thread holding the GIL), cprofile (main thread, slow), pyinstrument "
                        "(main thread, sampled), tracemalloc (what memory the bot holds, by "
                        "line), gc (the garbage collector's passes, by generation)")
    p.add_argument("--what-if", action="append", choices=sorted(WHAT_IF), default=[],
                   help="measure the bot with a change patched in at start-up (repeatable)")
    p.add_argument("--pin-driver", dest="pin", action="store_true",
                   help="keep this driver (fake Discord + people) to the last CPU once the bot "
                        "has started (by default it shares every CPU with the bot)")
    p.add_argument("--log-level", default="INFO",
                   help="the bot's LOG_LEVEL (INFO: its table-update lag line is at INFO)")
    p.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite",
                   help="the bot's database: an SQLite file (default), or a PostgreSQL server "
                        "started by the bench")
    p.add_argument("--clusters", type=int, default=1,
                   help="bot processes (PostgreSQL), one shard each; 1 by default")
    p.add_argument("--drivers", type=int, default=1,
                   help="driver processes (fake Discord + people), each serving shards d, "
                        "d + N, ... (with --clusters); 1 by default: this process")
    p.add_argument("--only-shard", type=int, default=None, metavar="K",
                   help="every table on shard K's servers (one busy cluster, the others idle)")
    p.add_argument("--global-pool", choices=["on", "off"], default="on",
                   help="clusters pool the global limit through PostgreSQL (on, the bot's "
                        "default) or each spends its fixed part (off): ALBASTINI_GLOBAL_POOL")
    p.add_argument("--seed", type=int, default=20261122)
    p.add_argument("--keep", action="store_true", help="keep the temp dir (log, db, profile)")
    args = p.parse_args()
    args.tables = max(1, min(args.tables, 2000))
    args.seconds = max(1.0, min(args.seconds, 3600.0))
    args.clusters = max(1, min(args.clusters, 16))
    if args.clusters > 1 and args.db != "postgresql":
        p.error("--clusters shares one PostgreSQL database: add --db postgresql")
    if not 1 <= args.drivers <= args.clusters:
        p.error("--drivers runs from 1 to --clusters (a driver serves whole shards)")
    if args.only_shard is not None and not 0 <= args.only_shard < args.clusters:
        p.error("--only-shard names a shard: 0 to --clusters - 1")
    p99 = uvloop.run(run(args))
    print(f"p99_ms: {'nan' if math.isnan(p99) else f'{p99:.1f}'}")


if __name__ == "__main__":
    main()
