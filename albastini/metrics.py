"""What an operator watches of one bot process (a cluster): metrics in Prometheus's format,
served at ``http://HOST:PORT/metrics`` when ``ALBASTINI_METRICS_PORT`` is set (the launcher
gives cluster k the port + k), and not at all otherwise.

Off (the default), nothing here exists: the bot holds ``metrics = None`` and each place that
would count something checks that one attribute first, so the cost is a comparison. On, each
process has a registry of its own (not prometheus-client's global one, so that several bots
in one process, as in the tests, count apart):

* ``albastini_interactions_answered_total{kind="click"|"command"}`` and
  ``albastini_interaction_answer_seconds{kind}``: interactions handled, and the time from the
  interaction's creation (its id's timestamp, Discord's clock) to the end of its handler;
* ``albastini_moves_committed_total{by="person"|"computer"}`` and
  ``albastini_store_commit_seconds``: moves stored, and how long the store took to commit each
  (the group commit's wait included);
* ``albastini_tables{state="lobby"|"running"}`` and ``albastini_tables_busy``: tables open,
  and those where a move was committed in the last ``BUSY_SECONDS``;
* ``albastini_global_budget_*``: the requests paid from the share of Discord's global rate
  limit (``_taken_total``), those that waited for it (``_waits_total``, ``_wait_seconds_total``),
  waiting now and in the one-second window (cogs/messages/budget.py);
* ``albastini_discord_errors_total{kind}``: requests Discord refused or that failed, by kind
  (``not_found``, ``forbidden``, ``unauthorized``, ``rate_limited``, ``server_error``,
  ``other``, ``network``): the bot's REST requests, the answers to interactions that failed,
  and the edits the courier or an interaction's webhook sent (:meth:`Metrics.refused`);
* ``albastini_worker_restarts_total``, ``albastini_courier_restarts_total``: computer
  players' worker processes and courier processes started again after one died;
* ``albastini_info{shards}``: 1, with the shards this process serves.

Tables, the budget and the restarts are read when Prometheus scrapes (:class:`_Collector`):
nothing counts them meanwhile.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from bot import AlbastiniBot

__all__ = ["BUSY_SECONDS", "Metrics", "error_kind"]

log = logging.getLogger(__name__)

#: A table is busy when a move was committed in it within this many seconds.
BUSY_SECONDS = 60.0
#: Discord's epoch (2015-01-01) in milliseconds: an id's top bits are its creation time.
_DISCORD_EPOCH_MS = 1420070400000
_ANSWER_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 3.0, 5.0, 10.0)
_COMMIT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


def error_kind(exc: BaseException) -> str:
    """The kind of a failed request to Discord, a label of ``albastini_discord_errors_total``."""
    if isinstance(exc, discord.HTTPException):
        status = exc.status
        kinds = {404: "not_found", 403: "forbidden", 401: "unauthorized", 429: "rate_limited"}
        if status in kinds:
            return kinds[status]
        return "server_error" if status >= 500 else "other"
    return "network"


#: What became of an edit sent by the courier or through a webhook -> the kind of error it was
#: (a token that no longer edits its message: Discord answered 401, or 404 for a hand's token)
_OUTCOME_KINDS = {"not_found": "not_found", "forbidden": "forbidden",
                  "token_gone": "unauthorized", "failed": "other"}


class Metrics:
    """One bot process's metrics, on a registry of its own; :meth:`serve` on a port."""

    def __init__(self, bot: AlbastiniBot) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.answered = Counter(
            "albastini_interactions_answered", "Interactions handled (clicks, slash commands)",
            ["kind"], registry=r,
        )  # fmt: skip
        self.answer_seconds = Histogram(
            "albastini_interaction_answer_seconds",
            "Seconds from an interaction's creation to the end of its handling",
            ["kind"], buckets=_ANSWER_BUCKETS, registry=r,
        )  # fmt: skip
        self.moves = Counter(
            "albastini_moves_committed", "Moves committed to the store", ["by"], registry=r
        )
        self.commit_seconds = Histogram(
            "albastini_store_commit_seconds", "Seconds the store took to commit a move",
            buckets=_COMMIT_BUCKETS, registry=r,
        )  # fmt: skip
        self.discord_errors = Counter(
            "albastini_discord_errors", "Requests to Discord refused or failed, by kind",
            ["kind"], registry=r,
        )  # fmt: skip
        for kind in ("not_found", "forbidden", "unauthorized", "rate_limited", "server_error",
                     "other", "network"):  # fmt: skip
            self.discord_errors.labels(kind)  # every kind shown from the start, at 0
        #: table id -> when its last move was committed (monotonic), for tables_busy
        self._last_move: dict[int, float] = {}
        r.register(_Collector(bot, self))
        self._runner: web.AppRunner | None = None

    # ------------------------------------------------------------------ counting
    def interaction(self, kind: str, interaction: discord.Interaction[Any]) -> None:
        """An interaction was handled (answered, or its error answered)."""
        created = ((interaction.id >> 22) + _DISCORD_EPOCH_MS) / 1000
        self.answered.labels(kind).inc()
        self.answer_seconds.labels(kind).observe(max(0.0, time.time() - created))

    def committed(self, table_id: int, by_computer: bool, seconds: float) -> None:
        """A move was committed in ``seconds`` (the table service's ``on_commit``)."""
        self.moves.labels("computer" if by_computer else "person").inc()
        self.commit_seconds.observe(seconds)
        self._last_move[table_id] = time.monotonic()

    def discord_error(self, exc: BaseException) -> None:
        self.discord_errors.labels(error_kind(exc)).inc()

    def refused(self, outcome: str) -> None:
        """An edit sent through an interaction's webhook or by the courier process (which
        discord.py's client, watched by :meth:`watch_http`, does not see) came back
        ``outcome`` (cogs/messages/courier.py's ``Outcome``); "ok" counts nothing."""
        kind = _OUTCOME_KINDS.get(outcome)
        if kind is not None:
            self.discord_errors.labels(kind).inc()

    def watch_http(self, http: Any) -> None:
        """Count the failures of every REST request of discord.py's client ``http``."""
        original: Callable[..., Awaitable[Any]] = http.request

        async def request(route: Any, **kwargs: Any) -> Any:
            try:
                return await original(route, **kwargs)
            except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
                self.discord_error(exc)
                raise

        http.request = request

    def busy_tables(self, open_ids: set[int]) -> int:
        """Open tables with a move committed within BUSY_SECONDS (others are forgotten)."""
        since = time.monotonic() - BUSY_SECONDS
        self._last_move = {t: at for t, at in self._last_move.items() if t in open_ids}
        return sum(1 for at in self._last_move.values() if at >= since)

    # ------------------------------------------------------------------ serving
    async def serve(self, host: str, port: int) -> None:
        """Serve ``/metrics`` on ``host:port``; OSError if the port cannot be had."""
        app = web.Application()
        app.router.add_get("/metrics", self._scrape)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner

    async def _scrape(self, _request: web.Request) -> web.Response:
        body = generate_latest(self.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def close(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()


class _Collector(Collector):
    """What is read when Prometheus scrapes: tables, the global budget, processes restarted."""

    def __init__(self, bot: AlbastiniBot, metrics: Metrics) -> None:
        self.bot = bot
        self.metrics = metrics

    def describe(self) -> list[Metric]:  # registered before the bot has a service
        return []

    def collect(self) -> Iterator[Metric]:
        bot = self.bot
        shards = bot.settings.shards
        info = GaugeMetricFamily("albastini_info", "This bot process", labels=["shards"])
        info.add_metric([shards.describe() if shards is not None else "all"], 1)
        yield info
        service = getattr(bot, "service", None)
        tables = service.tables() if service is not None else []
        counts = {"lobby": 0, "running": 0}
        for table in tables:
            counts[table.status] = counts.get(table.status, 0) + 1
        open_tables = GaugeMetricFamily("albastini_tables", "Tables open", labels=["state"])
        for state, n in counts.items():
            open_tables.add_metric([state], n)
        yield open_tables
        yield GaugeMetricFamily(
            "albastini_tables_busy",
            f"Open tables with a move committed within {BUSY_SECONDS:g} s",
            value=self.metrics.busy_tables({t.id for t in tables}),
        )
        publisher = getattr(bot, "publisher", None)
        budget = getattr(publisher, "budget", None)
        if budget is not None:
            for family, name, doc, value in (
                (CounterMetricFamily, "taken", "Requests paid from it", budget.taken),
                (CounterMetricFamily, "waits", "Requests that waited for it", budget.waits),
                (CounterMetricFamily, "wait_seconds", "Seconds requests waited for it",
                 budget.wait_seconds),
                (GaugeMetricFamily, "waiting", "Requests waiting for it now", budget.waiting),
                (GaugeMetricFamily, "window",
                 "Requests in flight or answered within the last second", budget.occupied),
            ):  # fmt: skip
                yield family(f"albastini_global_budget_{name}",
                             f"This process's share of Discord's global rate limit: {doc}",
                             value=value)  # fmt: skip
        executor = bot.executor
        yield CounterMetricFamily(
            "albastini_worker_restarts", "Computer players' worker pools replaced after a death",
            value=getattr(executor, "replacements", 0),
        )  # fmt: skip
        courier = getattr(publisher, "courier", None) if publisher is not None else None
        yield CounterMetricFamily(
            "albastini_courier_restarts", "Courier processes started again after one stopped",
            value=max(0, getattr(courier, "starts", 0) - 1),
        )  # fmt: skip
