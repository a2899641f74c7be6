"""Entry point and the bot: read the settings, set up logging, run the bot. `make run` starts
this file.

``run_bot(settings)`` opens the database first (a corrupt or unreadable file is one clear line and
exit status 1, no traceback), then runs an :class:`AlbastiniBot` until SIGTERM/SIGINT, then shuts
down in order: the table service (timers, computer moves, commits in flight), the public message
updates, the Discord connection, the database (pending writes flushed) and the computer players'
process pool.

The bot holds what every feature shares (the table service, the store, the public messages, the
languages); each feature is a discord.py extension in ``cogs/`` (``initial_extensions``), loaded in
``setup_hook``.

``bot.py --shards 0-3 --shard-count 8`` (or ``ALBASTINI_SHARDS``/``ALBASTINI_SHARD_COUNT``) runs
a cluster: only those shards, and the tables of their servers (albastini/shards.py);
``python -m albastini.launcher`` starts several clusters on one PostgreSQL database. On
PostgreSQL a process owns its shards before it connects (albastini/store/postgres/owner.py): a
second process for them waits for the first to stop, or refuses (``--on-served-shard``).
``ALBASTINI_METRICS_PORT`` serves the process's Prometheus metrics (albastini/metrics.py).

Slash commands are synced only when they changed: the hash of the command tree's JSON (with the
application id) is kept in a file beside the database; ``ALBASTINI_SYNC=always|never`` overrides.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import dataclasses
import functools
import gc
import hashlib
import importlib.machinery
import json
import logging
import os
import signal
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
import discord.gateway
import discord.http
import yarl
from discord import app_commands
from discord.ext import commands
from dotenv import load_dotenv

from albastini.config import (
    TOKEN_REFUSED_HELP,
    ConfigError,
    Settings,
    describe_database,
    load_settings,
)
from albastini.session import TableService
from albastini.store import Store, StoreError, is_postgres_url, open_store
from albastini.store.postgres.budget import Leases
from albastini.store.postgres.owner import ShardOwner, application_name
from albastini.workers import HealingPool, process_pool
from cogs.messages.courier import Courier
from cogs.messages.painter import stop_pool
from cogs.messages.publisher import Publisher
from cogs.ui.feature import answer_error
from cogs.ui.lang import CatalogueTranslator, Languages, localize_options
from cogs.ui.router import Router

if TYPE_CHECKING:
    from albastini.metrics import Metrics
    from cogs.tables import TablesCog

log = logging.getLogger(__name__)

DEFAULT_DEAL_PAUSE = 4.0
#: Seconds a cluster keeps a person's language before reading it again (albastini/shards.py).
USER_LANGUAGE_TTL = 30.0


def apply_endpoints(settings: Settings) -> None:
    """Point discord.py at another Discord (the fake one in tests) when the settings say so."""
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


def bot_intents() -> discord.Intents:
    """Only what slash commands and buttons need: the guilds intent (servers and channels, for
    ``interaction.guild`` and permissions), nothing else.

    Interactions arrive whatever the intents; without the message intents Discord stops echoing
    every message the bot itself creates, edits or deletes (~3 gateway events per move, each
    parsed as JSON and as a ``discord.Message``), and the voice, reaction, typing, emoji...
    events a card game never reads. No privileged intent."""
    return discord.Intents(guilds=True)


def command_hash_path(database: Path | str) -> Path:
    """Where the hash of the last synced command tree is kept: beside an SQLite database; for
    a PostgreSQL one, in ``data/``, named after the database (its URL without the password)."""
    if isinstance(database, str):
        name = hashlib.sha256(describe_database(database).encode()).hexdigest()[:16]
        return Path("data") / f"postgresql-{name}-commands.sha256"
    return database.with_name(database.name + "-commands.sha256")


class _NoVoiceWarnings(logging.Filter):
    """discord.py warns at every start that voice libraries are missing; this bot has no voice."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "is not installed, voice will NOT be supported" not in record.getMessage()


_VOICE_FILTER = _NoVoiceWarnings()


class AlbastiniTree(app_commands.CommandTree["AlbastiniBot"]):
    """A command tree whose errors become a private "Something went wrong"."""

    async def on_error(
        self, interaction: discord.Interaction[AlbastiniBot], error: app_commands.AppCommandError
    ) -> None:
        if (metrics := self.client.metrics) is not None:
            metrics.interaction("command", interaction)
            original = getattr(error, "original", error)
            if isinstance(original, discord.HTTPException):
                metrics.discord_error(original)
        # discord.py calls the failed command's cog handler first, then this: a command of a
        # cog has been answered (and logged) there, and must not be answered twice
        if interaction.response.is_done():
            return
        await answer_error(self.client, interaction, error, "command")


#: The features, each a discord.py extension (a module or package with ``async def
#: setup(bot)``): the tables and their clicks, the server's records, its settings, and the
#: history (ratings, seasons, replays, spectators). The /albastini group they share is made by
#: the first (cogs/ui/group.py); the router (cogs/ui/router.py) sends each its clicks.
initial_extensions: tuple[str, ...] = ("cogs.tables", "cogs.records", "cogs.settings",
                                       "cogs.history")


class AlbastiniBot(commands.AutoShardedBot):
    """The bot: the table service, the store, the public messages and the languages, shared by
    the extensions (``initial_extensions``) that hold the /albastini commands and the clicks.

    ``store``: an already opened store (``run_bot`` opens it first); otherwise ``setup_hook``
    opens ``settings.database``. ``service_options`` override :class:`TableService` arguments
    (tests pass ``deal_pause=0``). ``service``, ``publisher`` and ``languages`` exist from
    ``setup_hook`` on, as the extensions do.
    """

    tree: AlbastiniTree  # tree_cls=AlbastiniTree
    store: Store
    service: TableService
    publisher: Publisher
    languages: Languages

    def __init__(
        self,
        settings: Settings,
        *,
        store: Store | None = None,
        service_options: dict[str, Any] | None = None,
        **options: Any,
    ) -> None:
        options.setdefault("intents", bot_intents())
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        options.setdefault("tree_cls", AlbastiniTree)
        options.setdefault("help_command", None)
        # Tables are edited through partial messages by id: no need to keep a message cache.
        options.setdefault("max_messages", None)
        if settings.shards is not None:  # a cluster: only these shards (see albastini/shards.py)
            options.setdefault("shard_ids", list(settings.shards.ids))
            options.setdefault("shard_count", settings.shards.count)
        logging.getLogger("discord.client").addFilter(_VOICE_FILTER)  # a set: added once
        super().__init__(command_prefix=commands.when_mentioned, **options)
        self.settings = settings
        if store is not None:
            self.store = store
        #: the table cog (cogs/tables), set when its extension loads
        self.tables: TablesCog | None = None
        #: every click on the bot's buttons, to the feature that answers its kind
        self.router = Router(self)
        self.add_listener(self.router.on_interaction, "on_interaction")
        self.executor: concurrent.futures.Executor | None = None
        #: the Prometheus metrics (albastini/metrics.py) when ALBASTINI_METRICS_PORT is set
        self.metrics: Metrics | None = None
        self._service_options = dict(service_options or {})
        self._shut_down = False

    async def setup_hook(self) -> None:
        settings = self.settings
        if getattr(self, "store", None) is None:
            self.store = await open_store(settings.database)
        workers = settings.workers or os.cpu_count() or 1
        # A worker that dies is replaced (one warning), not left failing every hard move.
        self.executor = HealingPool(
            functools.partial(process_pool, workers), name="computer player"
        )
        opts: dict[str, Any] = {
            "computer_pause": settings.computer_pause,
            "deal_pause": DEFAULT_DEAL_PAUSE,
            "executor": self.executor,
            "shards": settings.shards,
        }
        opts.update(self._service_options)
        self.service = TableService(self.store, **opts)
        # a cluster re-reads a person's language now and then: another cluster may change it
        cluster = settings.shards is not None and not settings.shards.all
        self.languages = Languages(
            self.store, settings.language, user_ttl=USER_LANGUAGE_TTL if cluster else None
        )
        self.publisher = Publisher(
            self,
            self.service,
            deal_pause=self.service.deal_pause,
            edit_interval=settings.edit_interval,
            notice_delay=settings.notice_delay,
            courier=await self._start_courier(),
            # this process's share of the token's global rate limit (cogs/budget.py)
            global_rate=settings.global_rate,
            global_share=settings.shards.share if settings.shards is not None else 1.0,
            token_life=settings.token_life,
            global_pool=self._budget_leases(),
            clicks_first=self.router.first.wait,
        )
        if settings.metrics_port is not None:
            await self._start_metrics(settings.metrics_host, settings.metrics_port)
        for extension in initial_extensions:
            await self.load_extension(extension)
        await self.tree.set_translator(CatalogueTranslator())
        self.publisher.restoring = True
        try:
            await self.service.start()
        finally:
            self.publisher.restoring = False
        for table in self.service.tables():
            self.publisher.sweep(table.id)  # old turn notices of the previous run
            self.publisher.refresh(table.id)  # the table message shows the reloaded state
        await self.sync_commands()
        # Everything loaded so far (modules, commands, reloaded tables) lives as long as the bot:
        # keep it out of the garbage collector's full passes, which would otherwise walk it
        # again and again and stall the event loop each time, and make those passes rarer, since
        # every click in flight waits through one; not so rare that garbage piles up (the
        # measurements are in bench/README.md, "Garbage collection").
        gc.collect()
        gc.freeze()
        gen0, gen1, _gen2 = gc.get_threshold()
        gc.set_threshold(gen0, gen1, FULL_GC_EVERY)
        shards = f" (shards {settings.shards.describe()})" if settings.shards else ""
        log.info("ready to play%s: %d table(s) reloaded", shards, len(self.service.tables()))

    async def _start_metrics(self, host: str, port: int) -> None:
        """Count and serve the metrics (imported only then: off, they cost nothing); a port
        that cannot be had is one error line, and the bot plays on without them."""
        from albastini.metrics import Metrics

        metrics = Metrics(self)
        try:
            await metrics.serve(host, port)
        except OSError as exc:
            log.error("no metrics: cannot listen on %s:%d (%s)", host, port,
                      _one_line(exc.strerror or exc))
            return
        self.metrics = metrics
        self.service.on_commit = metrics.committed
        metrics.watch_http(self.http)
        self.add_listener(self._command_done, "on_app_command_completion")
        log.info("metrics at http://%s:%d/metrics", host, port)

    async def _command_done(
        self, interaction: discord.Interaction[AlbastiniBot], _command: object
    ) -> None:
        if self.metrics is not None:
            self.metrics.interaction("command", interaction)
    def _budget_leases(self) -> Leases | None:
        """Where a cluster on PostgreSQL leases its part of the global rate limit from (the
        clusters pool it: cogs/messages/pool.py); None: its fixed part (one process, SQLite,
        or ALBASTINI_GLOBAL_POOL=off)."""
        settings = self.settings
        shards = settings.shards
        if shards is None or shards.all or not settings.global_pool:
            return None
        if not isinstance(settings.database, str) or not is_postgres_url(settings.database):
            return None
        mine = f"shards {shards.describe()}, "
        holder = mine + application_name()  # this process, as PostgreSQL's sessions name it
        # the shards are this process's alone by now (ShardOwner): an earlier holder is gone
        return Leases(settings.database.strip(), holder, succeeds=mine)

    async def _start_courier(self) -> Courier | None:
        """The process that edits the table messages (cogs/courier.py); None if it cannot
        start, and the table messages are then edited from here."""
        token = self.http.token
        if not token:
            return None
        courier = Courier(
            token,
            discord.http.Route.BASE,
            log_level=logging.getLogger().getEffectiveLevel(),
            discord_log_level=logging.getLogger("discord").getEffectiveLevel(),
        )
        try:
            await courier.start()
        except Exception as exc:
            log.warning("table messages are edited without the courier process: %s", exc)
            return None
        return courier

    async def command_payload(self) -> list[dict[str, Any]]:
        localize_options(self.tree)  # options named in Discord's locales too (cogs/ui/lang.py)
        translator = self.tree.translator
        payload: list[dict[str, Any]] = []
        for command in self.tree.get_commands():
            if translator is not None:
                payload.append(await command.get_translated_payload(self.tree, translator))
            else:
                payload.append(command.to_dict(self.tree))
        return payload

    async def sync_commands(self) -> bool:
        """Sync the slash commands if they changed since the last sync (or as the settings say).
        Returns True when a sync was sent."""
        mode = self.settings.sync_commands
        if mode == "never":
            return False
        shards = self.settings.shards
        if shards is not None and not shards.has_dms:
            # the commands are the application's, one list for every shard: of the clusters,
            # the one with shard 0 syncs them (the others would race it to the same result)
            return False
        payload = await self.command_payload()
        blob = json.dumps({"app": self.application_id, "commands": payload}, sort_keys=True)
        digest = hashlib.sha256(blob.encode()).hexdigest()
        path = command_hash_path(self.settings.database)
        if mode == "auto":
            with contextlib.suppress(OSError):
                if path.read_text(encoding="utf-8").strip() == digest:
                    log.info("slash commands unchanged; not syncing")
                    return False
        try:
            await self.tree.sync()
        except discord.HTTPException as exc:
            log.error(
                "could not sync the slash commands (HTTP %s); keeping the old ones", exc.status
            )
            return False
        try:
            path.parent.mkdir(parents=True, exist_ok=True)  # data/ for a PostgreSQL database
            path.write_text(digest + "\n", encoding="utf-8")
        except OSError as exc:
            log.warning("could not remember the synced commands in %s: %s", path, exc.strerror)
        log.info("slash commands synced")
        return True

    async def close(self) -> None:
        """Stop in order; safe to call twice and after a failed start."""
        if self._shut_down:
            await super().close()
            return
        self._shut_down = True
        # a start that failed half-way has only some of these
        service: TableService | None = getattr(self, "service", None)
        if service is not None:
            try:
                await service.close()
            except Exception:
                log.exception("closing the table service failed")
        publisher: Publisher | None = getattr(self, "publisher", None)
        if publisher is not None:
            await publisher.close()
        if self.metrics is not None:
            await self.metrics.close()
        # AutoShardedClient.close before login has nothing to close and raises AttributeError
        with contextlib.suppress(AttributeError):
            await super().close()
        store: Store | None = getattr(self, "store", None)
        if store is not None:
            try:
                await store.close()
            except Exception:
                log.exception("closing the database failed")
        if self.executor is not None:
            executor, self.executor = self.executor, None
            await stop_pool(executor)


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


def network_problem(error: BaseException | None) -> str | None:
    """One line for a start that could not reach Discord at all (no network, a name that does
    not resolve, nothing answering, a connection that timed out), None for any other error:
    the network is the machine's, so a traceback would only hide what to check."""
    if isinstance(error, aiohttp.ClientConnectorError):
        cause = error.os_error
        where = error.host
        if isinstance(error, aiohttp.ClientConnectorDNSError) or isinstance(cause,
                                                                            socket.gaierror):
            why = f"the name {where} does not resolve ({_one_line(cause.strerror or cause)})"
        else:
            why = f"no connection to {where}:{error.port} ({_one_line(cause.strerror or cause)})"
    elif isinstance(error, aiohttp.ClientConnectionError | TimeoutError):
        why = _one_line(error) or type(error).__name__
    else:
        return None
    return (f"Cannot reach Discord: {why}. Check this machine's network connection (and its "
            "DNS), then start the bot again.")


async def _main(settings: Settings) -> int:
    apply_endpoints(settings)
    try:
        store = await open_store(settings.database)
    except StoreError as exc:
        print(f"Cannot use the database: {_one_line(exc)}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(
            f"Cannot use the database {describe_database(settings.database)}: "
            f"{_one_line(exc.strerror or exc)}",
            file=sys.stderr,
        )
        return 1
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    orphaned = asyncio.create_task(_launcher_gone(os.environ.pop(LAUNCHER_PID, None), stop))
    stopper = asyncio.create_task(stop.wait())
    owner: ShardOwner | None = None
    if isinstance(settings.database, str):  # PostgreSQL: these shards are this process's alone
        owner = ShardOwner(settings.database, settings.shards)
        claimed = await _claim(owner, settings, stopper)
        if claimed is not None:
            stopper.cancel()
            orphaned.cancel()
            await store.close()
            return claimed
    bot = AlbastiniBot(settings, store=store)
    runner = asyncio.create_task(bot.start(settings.token))
    held = asyncio.create_task(owner.hold()) if owner is not None else None
    status = 0
    try:
        waited = {runner, stopper} | ({held} if held is not None else set())
        done, _ = await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
        if held is not None and held in done:
            lost = held.exception()
            log.error("%s", held.result() if lost is None else f"shard ownership failed: {lost!r}")
            status = 1
        elif runner in done:
            error = runner.exception()
            if isinstance(error, discord.LoginFailure) or (
                # 4004 "Authentication failed": the token passed the login, then was reset
                isinstance(error, discord.ConnectionClosed) and error.code == 4004
            ):
                print(TOKEN_REFUSED_HELP, file=sys.stderr)
                status = 1
            elif isinstance(error, StoreError):
                print(f"Cannot use the database: {_one_line(error)}", file=sys.stderr)
                status = 1
            elif (unreachable := network_problem(error)) is not None:
                print(unreachable, file=sys.stderr)
                status = 1
            elif isinstance(error, discord.PrivilegedIntentsRequired):
                print("Discord refused the connection: privileged intents.", file=sys.stderr)
                status = 1
            elif error is not None:
                log.error("the bot stopped: %s", type(error).__name__, exc_info=error)
                status = 1
        else:
            log.info("stopping (signal received)")
    finally:
        stopper.cancel()
        orphaned.cancel()
        if held is not None:
            held.cancel()
        await bot.close()
        if not runner.done():
            runner.cancel()
        with contextlib.suppress(BaseException):
            await runner
        if owner is not None:  # after the store's last commits: a waiting process takes over
            await owner.release()
    return status


async def _claim(owner: ShardOwner, settings: Settings, stopper: asyncio.Task[Any]) -> int | None:
    """Own the process's shards before serving them (albastini/store/postgres/owner.py): None
    once owned; else the exit status (1: refused or no database, 0: stopped while waiting)."""
    claim = asyncio.create_task(owner.claim(wait=settings.on_served_shard == "wait"))
    done, _ = await asyncio.wait({claim, stopper}, return_when=asyncio.FIRST_COMPLETED)
    if claim not in done:
        claim.cancel()
        with contextlib.suppress(BaseException):
            await claim
        log.info("stopping (signal received) before these shards were this process's")
        return 0
    error = claim.exception()
    if error is None:
        return None
    if isinstance(error, StoreError):
        print(f"Cannot serve these shards: {_one_line(error)}", file=sys.stderr)
        return 1
    raise error


#: Set by albastini/launcher.py in the environment of each cluster it starts: its own pid.
LAUNCHER_PID = "ALBASTINI_LAUNCHER_PID"


async def _launcher_gone(pid: str | None, stop: asyncio.Event, poll: float = 1.0) -> None:
    """A cluster whose launcher died (SIGKILL, OOM) stops cleanly, as on SIGTERM, rather than
    run on unwatched, and restarted beside a new launcher's own copy of it."""
    if not pid or not pid.isdigit():
        return
    while os.getppid() == int(pid):
        await asyncio.sleep(poll)
    log.warning("the launcher (pid %s) is gone; stopping", pid)
    stop.set()


#: Second-generation collections between two full garbage-collector passes (Python's is 10).
FULL_GC_EVERY = 30
#: Seconds between the GIL's hand-overs between threads (Python's default is 0.005).
SWITCH_INTERVAL = 0.0005


def run_bot(settings: Settings) -> int:
    """Run until stopped; the process exit status (0 after a clean stop)."""
    # The event loop thread hands the GIL to the database and process-pool threads at most
    # every switch interval: at Python's 5 ms, a commit finishing on its thread waited for that
    # under load (moves answered ~20% slower in bench/bot_load.py).
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
            return runner.run(_main(settings))
    except KeyboardInterrupt:
        return 0


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (Linux and macOS): the bot's work is mostly
    network I/O, and uvloop roughly halves the CPU each request costs; else asyncio's own."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bot.py",
        description="Run the Albastini bot (settings: environment variables and .env).",
    )
    parser.add_argument(
        "--sync", action="store_true", help="push the slash commands to Discord even if unchanged"
    )
    parser.add_argument(
        "--shards",
        metavar="IDS",
        help="run only these shards, e.g. 0-3 or 0,2,5 (a cluster; needs --shard-count); "
        "default ALBASTINI_SHARDS, else every shard",
    )
    parser.add_argument(
        "--shard-count",
        metavar="N",
        help="the bot's shards in all, across every cluster; default ALBASTINI_SHARD_COUNT",
    )
    parser.add_argument(
        "--on-served-shard",
        choices=("wait", "refuse"),
        help="when another process serves these shards (PostgreSQL): wait for it to stop, or "
        "refuse to start; default ALBASTINI_ON_SERVED_SHARD, else wait",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    # .env in the folder the bot is started from (`make run` starts it in the checkout).
    load_dotenv(Path.cwd() / ".env")
    env = dict(os.environ)
    if args.shards is not None or args.shard_count is not None:  # the flags win over the env
        env["ALBASTINI_SHARDS"] = args.shards or ""
        env["ALBASTINI_SHARD_COUNT"] = args.shard_count or env.get("ALBASTINI_SHARD_COUNT", "")
    if args.on_served_shard is not None:
        env["ALBASTINI_ON_SERVED_SHARD"] = args.on_served_shard
    try:
        settings = load_settings(env)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 1
    # The token lives in the settings from now on. Out of the environment, it is not inherited
    # by the processes the bot starts (the courier, the computer players' workers,
    # multiprocessing's resource tracker), where anyone who can read /proc/PID/environ sees it;
    # the courier gets it through its pipe.
    os.environ.pop("DISCORD_TOKEN", None)
    if args.sync:  # push the slash commands to Discord even if unchanged
        settings = dataclasses.replace(settings, sync_commands="always")
    logging.basicConfig(
        level=settings.log_level,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # discord.py at DEBUG logs every payload: private hands, interaction tokens (see config.py)
    logging.getLogger("discord").setLevel(settings.discord_log_level)
    return run_bot(settings)


def keep_spawned_processes_light() -> None:
    """The processes the bot spawns (computer players, the picture painter, the courier) would
    run this file again (multiprocessing's spawn re-imports the main script in each), importing
    discord.py and every cog they never use: ~0.3 s and ~30 MB each. A main module that names
    itself ``__main__`` is not re-imported (as for ``python -m package``); what they run is
    imported from its own module (albastini.workers, cogs.messages.painter,
    cogs.messages.courier)."""
    main_module = sys.modules["__main__"]
    if getattr(main_module, "__spec__", None) is None:
        main_module.__spec__ = importlib.machinery.ModuleSpec("__main__", None)


if __name__ == "__main__":
    keep_spawned_processes_light()
    sys.exit(main())
