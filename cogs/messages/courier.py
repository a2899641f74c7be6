"""Table messages edited from a process of their own: the courier.

Every move changes a table's public message, and editing it is the bot's most frequent request
after the answers to clicks: building the request, uploading the picture, reading Discord's
answer back, and drawing the picture, a large share of the event loop's time at many busy
tables (figures in ``bench/README.md``). The courier does that work beside the bot, so that the
event loop, which must answer every click within Discord's deadline, keeps its time for clicks.

The bot sends the courier what a table message should show, as plain data (the embed as a
dict, the button specs, and the public view and names when the picture must be drawn again);
the courier draws the picture, edits the message through discord.py's HTTP client (rate limits
handled the usual way) and answers with an :class:`Outcome`. It runs at a lower CPU priority
(:func:`albastini.workers.init_worker`), spawned, with the bot's token passed through the spawn
pipe (never in its command line or environment: bot.py takes it out of the environment before
any process starts). If it dies, the next job starts a new one; if the bot dies, it ends too.

It also sends the edits of private hands that follow the game (:mod:`cogs.hands`), already
rendered (text and button specs), through the interaction webhook, which needs no bot token.
A hand's text crosses the pipe to be sent and nothing else: the courier never logs what it
sends, only the status of a refused request.

Over 500 lines because both ends of the pipe (the bot's :class:`Courier`, the process's
:func:`serve`) and the edits they send (a table's card, a hand, through the channel or a token)
are one protocol: apart, every change to a job would touch both files at once.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import io
import itertools
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from cogs.messages.painter import Painted

log = logging.getLogger(__name__)

#: What became of an edit: done, the message is gone, no permission, it failed otherwise, or
#: (an edit through an interaction's token) the token no longer edits it.
Outcome = Literal["ok", "not_found", "forbidden", "failed", "token_gone"]
#: Seconds the courier is given to start (import discord.py and Pillow, log in).
START_TIMEOUT = 60.0
#: Seconds the courier is given to finish the edits in flight when the bot stops.
STOP_TIMEOUT = 5.0
#: What a table picture is drawn from: the public view, the names by seat, the game, the language.
Picture = tuple[dict[str, Any], list[str], str, str]


@dataclass(frozen=True, slots=True)
class Edit:
    """One edit of a table message: what it shows (``card``, :class:`cogs.ui.cards.Card`).

    ``picture``: (public view, names, game) to draw a new picture from; None keeps the message's
    current attachments (shown in the card when ``keep_picture``), unless ``clear_attachments``
    (a lobby, which has none). ``picture_failed``: the line shown when drawing fails (in the
    table's language). ``through``: (application id, interaction token) of a click answered by
    updating this message, whose token edits it outside Discord's global rate limit
    (cogs/messages/budget.py); None: through the channel."""

    channel_id: int
    message_id: int
    card: Any
    picture: Picture | None = None
    keep_picture: bool = False
    clear_attachments: bool = False
    picture_failed: str = ""
    through: tuple[int, str] | None = None

    def __reduce__(self) -> tuple[type[Edit], tuple[Any, ...]]:
        # a frozen slots dataclass pickles through Python-level state methods, about twice as
        # slow each way as this, on the bot's event loop for every job
        return Edit, (self.channel_id, self.message_id, self.card, self.picture,
                      self.keep_picture, self.clear_attachments, self.picture_failed,
                      self.through)


@dataclass(frozen=True, slots=True)
class Paint:
    """Just the picture's bytes (a table message posted again by the bot itself)."""

    view: dict[str, Any]
    names: list[str]
    game: str
    lang: str


@dataclass(frozen=True, slots=True)
class HandEdit:
    """One edit of a private hand message through an interaction's webhook: ``target`` None
    for the interaction's original response, else a follow-up message's id."""

    application_id: int
    token: str
    target: int | None
    content: str
    buttons: tuple[Any, ...]

    def __reduce__(self) -> tuple[type[HandEdit], tuple[Any, ...]]:
        # as Edit.__reduce__ says why
        return HandEdit, (self.application_id, self.token, self.target, self.content,
                          self.buttons)


class CourierGone(RuntimeError):
    """The courier process stopped before answering."""


class Courier:
    """The bot's side: starts the process, sends it jobs, resolves their futures."""

    def __init__(
        self,
        token: str,
        api_base: str,
        *,
        log_level: int = logging.INFO,
        discord_log_level: int = logging.INFO,
    ) -> None:
        self._token = token
        self._api_base = api_base
        self._log_level = log_level
        self._discord_log_level = discord_log_level
        self._conn: multiprocessing.connection.Connection | None = None
        self._proc: Any = None
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._ids = itertools.count(1)
        self._starting: asyncio.Future[None] | None = None
        self._closed = False
        #: Starts that failed in a row (the bot stops asking for a courier after a few).
        self.failed_starts = 0
        #: Processes started (a metric: all but the first replaced one that stopped).
        self.starts = 0

    @property
    def pid(self) -> int | None:
        """The courier process's id while it runs (for tests and benchmarks)."""
        proc = self._proc
        return proc.pid if proc is not None and proc.is_alive() else None

    # ------------------------------------------------------------------ jobs
    async def edit(self, job: Edit) -> tuple[Outcome, bool]:
        """Edit a table message; returns the outcome and whether a new picture went with it."""
        result: tuple[Outcome, bool] = await self._call(job)
        return result

    async def edit_hand(self, job: HandEdit) -> Outcome:
        """Edit a private hand message ("not_found" also when its token ran out)."""
        result: Outcome = await self._call(job)
        return result

    async def paint(self, view: dict[str, Any], names: list[str], game: str,
                    lang: str) -> Painted:
        """The table picture for a public view and its alt text (:func:`.painter.paint`)."""
        result: Painted = await self._call(Paint(view, names, game, lang))
        return result

    async def _call(self, job: Edit | Paint | HandEdit) -> Any:
        if self._closed:
            raise CourierGone("the courier is stopped")
        if self._conn is None:
            await self.start()
        conn = self._conn
        if conn is None:
            raise CourierGone("the courier did not start")
        job_id = next(self._ids)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[job_id] = fut
        try:
            conn.send((job_id, job))
        except (OSError, ValueError) as exc:
            self._pending.pop(job_id, None)
            self._lost("could not reach the courier")
            raise CourierGone("the courier is gone") from exc
        return await fut

    # ------------------------------------------------------------------ process
    async def start(self) -> None:
        """Start the process (once; concurrent callers wait for the same start)."""
        if self._conn is not None:
            return
        if self._starting is not None:
            await asyncio.shield(self._starting)
            return
        loop = asyncio.get_running_loop()
        self._starting = loop.create_future()
        proc: Any = None
        ours: multiprocessing.connection.Connection | None = None
        try:
            ctx = multiprocessing.get_context("spawn")
            ours, theirs = ctx.Pipe()
            proc = ctx.Process(
                target=serve,
                args=(
                    theirs,
                    self._token,
                    self._api_base,
                    (self._log_level, self._discord_log_level),
                ),
                name="bot-courier",
                daemon=True,
            )
            await asyncio.to_thread(proc.start)
            theirs.close()
            ready = await asyncio.wait_for(asyncio.to_thread(_first_message, ours), START_TIMEOUT)
            if ready != "ready":
                raise CourierGone(f"the courier could not start: {ready}")
            self._conn, self._proc = ours, proc
            loop.add_reader(ours.fileno(), self._on_readable)
            self.failed_starts = 0
            self.starts += 1
            self._starting.set_result(None)
        except BaseException as exc:
            self.failed_starts += 1
            if proc is not None and proc.is_alive():
                proc.kill()
            if ours is not None and self._conn is not ours:
                ours.close()
            gone = exc if isinstance(exc, CourierGone) else CourierGone(repr(exc))
            self._starting.set_exception(gone)
            self._starting.exception()  # retrieved: callers waiting see it, nobody else
            if isinstance(exc, Exception) and exc is not gone:
                raise gone from exc
            raise
        finally:
            self._starting = None

    def _on_readable(self) -> None:
        conn = self._conn
        if conn is None:
            return
        try:
            while conn.poll():
                job_id, ok, value = conn.recv()
                fut = self._pending.pop(job_id, None)
                if fut is None or fut.done():
                    continue
                if ok:
                    fut.set_result(value)
                else:
                    fut.set_exception(RuntimeError(value))
        except Exception:  # EOFError when it stopped; anything else makes it useless too
            self._lost("the courier stopped")

    def _lost(self, why: str) -> None:
        """The process is gone: fail what waits; the next job starts a new one."""
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(conn.fileno())
            conn.close()
        if not self._closed:
            log.warning("%s; starting a new one for the next edit", why)
        pending, self._pending = self._pending, {}
        for fut in pending.values():
            if not fut.done():
                fut.set_exception(CourierGone(why))

    async def close(self) -> None:
        """Let the edits in flight finish (bounded), then stop the process."""
        self._closed = True
        conn, proc = self._conn, self._proc
        if conn is None or proc is None:
            return
        with contextlib.suppress(OSError, ValueError):
            conn.send(None)
        await asyncio.to_thread(proc.join, STOP_TIMEOUT)
        if proc.is_alive():
            proc.kill()
            await asyncio.to_thread(proc.join, STOP_TIMEOUT)
        self._lost("the bot is stopping")


def _first_message(conn: multiprocessing.connection.Connection) -> Any:
    try:
        return conn.recv()
    except EOFError:
        return "the process exited"


# ---------------------------------------------------------------------- the courier process
def serve(
    conn: multiprocessing.connection.Connection,
    token: str,
    api_base: str,
    log_levels: tuple[int, int],
) -> None:
    """The process's main: an event loop serving jobs from ``conn`` until told to stop.

    ``log_levels``: the bot's and discord.py's (kept apart: see ``Settings.discord_log_level``).
    """
    from albastini.workers import init_worker

    # Ctrl-C reaches the whole process group, and a service manager may send SIGTERM to every
    # process of the bot: the bot itself tells the courier when to stop (after its last edits),
    # and the courier also stops when the bot is gone (its end of the pipe closes; and, should
    # the loop be stuck in a job, the parent watch of init_worker ends the process).
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_IGN)
    init_worker(os.getppid())
    # the bot's format (bot.py), on the same stderr
    logging.basicConfig(
        level=log_levels[0], format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("discord").setLevel(log_levels[1])
    try:
        import uvloop

        uvloop.run(_serve(conn, token, api_base))
    except ImportError:  # no uvloop (Windows)
        asyncio.run(_serve(conn, token, api_base))


async def _serve(conn: multiprocessing.connection.Connection, token: str, api_base: str) -> None:
    import discord
    import discord.http

    discord.http.Route.BASE = api_base
    http: Any = discord.http.HTTPClient(asyncio.get_running_loop())
    try:
        await http.static_login(token)
    except Exception as exc:
        conn.send(f"{type(exc).__name__}: {exc}")
        await http.close()
        return
    conn.send("ready")
    loop = asyncio.get_running_loop()
    stop = loop.create_future()
    tasks: set[asyncio.Task[None]] = set()

    def answer(job_id: int, ok: bool, value: Any) -> None:
        with contextlib.suppress(OSError, ValueError):
            conn.send((job_id, ok, value))

    async def run(job_id: int, job: Edit | Paint | HandEdit) -> None:
        try:
            if isinstance(job, Paint):
                answer(job_id, True, await _draw_aside(job.view, job.names, job.game, job.lang))
            elif isinstance(job, HandEdit):
                answer(job_id, True, await edit_hand(http._HTTPClient__session, http, job))
            else:
                answer(job_id, True, await _edit(http, job))
        except Exception as exc:
            log.exception("a courier job failed")
            answer(job_id, False, f"{type(exc).__name__}: {exc}")

    def readable() -> None:
        try:
            while conn.poll():
                message = conn.recv()
                if message is None:
                    if not stop.done():
                        stop.set_result(None)
                    return
                task = loop.create_task(run(*message))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
        except (EOFError, OSError):  # the bot is gone
            if not stop.done():
                stop.set_result(None)

    global _drawer
    _drawer = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="picture-draw")
    loop.add_reader(conn.fileno(), readable)
    try:
        await stop
        if tasks:
            await asyncio.wait(set(tasks), timeout=STOP_TIMEOUT)
    finally:
        _drawer.shutdown(wait=False, cancel_futures=True)
        _drawer = None
        loop.remove_reader(conn.fileno())
        await http.close()
        conn.close()


#: The courier's one drawing thread (set while it serves): a picture is drawn beside its event
#: loop, not on it, so that the edits of private hands, which people wait for to play, are
#: sent while a picture is drawn instead of after it (the thread takes the GIL in turns).
_drawer: concurrent.futures.ThreadPoolExecutor | None = None


async def _draw_aside(view: dict[str, Any], names: list[str], game: str, lang: str) -> Painted:
    """:func:`.painter.paint` in the drawing thread (on the loop when there is none)."""
    from cogs.messages.painter import paint

    if _drawer is None:
        return paint(view, names, game, lang)
    return await asyncio.get_running_loop().run_in_executor(_drawer, paint, view, names, game, lang)


async def _edit(http: Any, job: Edit) -> tuple[Outcome, bool]:
    import dataclasses

    import discord
    import discord.http

    from cogs import render
    from cogs.ui.cards import ALT_MAX, laid_out

    card = job.card
    kwargs: dict[str, Any] = laid_out(card, with_picture=job.keep_picture)
    painted = False
    if job.picture is not None:
        try:
            jpeg, alt = await _draw_aside(*job.picture)
        except Exception:
            log.exception("could not draw a table picture")
            failed = dataclasses.replace(card, texts=(*card.texts, job.picture_failed))
            kwargs.update(laid_out(failed))
            kwargs["attachments"] = []
        else:
            card = dataclasses.replace(card, alt=alt)
            file = discord.File(io.BytesIO(jpeg), filename=render.PICTURE_FILE,
                                description=alt[:ALT_MAX])
            kwargs.update(laid_out(card, with_picture=True))
            kwargs["attachments"] = [file]
            painted = True
    elif job.clear_attachments:
        kwargs["attachments"] = []
    if job.through is not None:
        outcome = await edit_original(http._HTTPClient__session, http, job.through, **kwargs)
        return outcome, painted and outcome == "ok"
    try:
        with discord.http.handle_message_parameters(
            allowed_mentions=discord.AllowedMentions.none(), **kwargs
        ) as params:
            await http.edit_message(job.channel_id, job.message_id, params=params)
    except discord.NotFound:
        return "not_found", False
    except discord.Forbidden:
        return "forbidden", False
    except discord.HTTPException as exc:
        log.warning("could not edit a table message: %s %s", exc.status, exc.text[:200])
        return "failed", False
    return "ok", painted

async def edit_hand(session: Any, http: Any, job: HandEdit) -> Outcome:
    """Send a private hand's edit through the interaction webhook (no bot token needed) with
    ``session`` (an aiohttp session) and the proxy settings of ``http`` (discord.py's HTTP
    client); in the courier, or in the bot itself when it has none. Never logs the hand."""
    import discord
    import discord.http
    from discord.webhook.async_ import async_context

    from cogs.ui import views

    view = views.build_view(job.buttons) if job.buttons else None
    try:
        with discord.http.handle_message_parameters(
            content=job.content, view=view, allowed_mentions=discord.AllowedMentions.none()
        ) as params:
            common: dict[str, Any] = {
                "session": session,
                "proxy": http.proxy,
                "proxy_auth": http.proxy_auth,
                "payload": params.payload,
                "multipart": params.multipart,
                "files": params.files,
            }
            adapter = async_context.get()
            if job.target is None:
                await adapter.edit_original_interaction_response(
                    job.application_id, job.token, **common
                )
            else:
                await adapter.edit_webhook_message(
                    job.application_id, job.token, job.target, **common
                )
    except discord.HTTPException as exc:
        # 404: the message was dismissed; 401: the token ran out
        log.info("a private hand could not be updated (%s %s)", exc.status, exc.code)
        return "not_found" if exc.status in (401, 403, 404) else "failed"
    return "ok"


async def edit_original(
    session: Any, http: Any, through: tuple[int, str], **kwargs: Any
) -> Outcome:
    """Edit the message an interaction answered by updating it (a table message whose button
    was clicked) through that interaction's token: outside Discord's global rate limit, for 15
    minutes after the click. ``kwargs``: the message's content, embed, view, attachments.
    "not_found" when the message was deleted; "token_gone" when the token no longer edits it
    (expired): the caller edits through the channel instead."""
    import discord
    import discord.http
    from discord.webhook.async_ import async_context

    application_id, token = through
    try:
        with discord.http.handle_message_parameters(
            allowed_mentions=discord.AllowedMentions.none(), **kwargs
        ) as params:
            await async_context.get().edit_original_interaction_response(
                application_id,
                token,
                session=session,
                proxy=http.proxy,
                proxy_auth=http.proxy_auth,
                payload=params.payload,
                multipart=params.multipart,
                files=params.files,
            )
    except discord.HTTPException as exc:
        if exc.status == 404 and exc.code == 10008:
            return "not_found"  # Unknown Message: the message was deleted
        if exc.status in (401, 403, 404):
            log.info("a table message's interaction token no longer edits it (%s %s)",
                     exc.status, exc.code)
            return "token_gone"
        log.warning("could not edit a table message: %s %s", exc.status, exc.text[:200])
        return "failed"
    return "ok"
