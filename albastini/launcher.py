"""Run the bot as several processes, clusters, that share one PostgreSQL database:

    ALBASTINI_DB=postgresql://... python -m albastini.launcher --clusters 2 --shard-count 4

starts ``bot.py --shards 0-1 --shard-count 4`` and ``bot.py --shards 2-3 --shard-count 4``
(the settings, the token included, come from the environment and ``.env`` as for ``bot.py``).
Each cluster serves the servers of its shards and keeps their tables; cluster 0 has shard 0,
so the direct messages, and syncs the slash commands.

SIGINT or SIGTERM stops every cluster cleanly (each finishes the moves being committed, then
closes) and waits for them. A cluster that dies (a crash, the kernel's OOM killer, ``kill -9``)
is started again after a pause that grows from 1 s to 30 s while it keeps dying young; its
tables resume from the database, where every move it acknowledged was committed. A cluster
that dies five times in a row within a minute of its start (a bad setting, a refused token)
stops the launcher, exit status 1.

Clusters start ``--start-gap`` seconds per shard apart (default 5): a bot may IDENTIFY one shard
per 5 s (discord.py spaces the shards of one process itself), so a cluster starts once the shards
of the clusters before it have identified.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import load_dotenv

from .shards import Shards, split

log = logging.getLogger("albastini.launcher")

BOT_PY = Path(__file__).resolve().parent.parent / "bot.py"
#: seconds a cluster has to stop after SIGTERM before it is killed
STOP_TIMEOUT = 60.0
#: a cluster that ran this long before dying was healthy: its next restart waits 1 s again
HEALTHY_AFTER = 60.0
GIVE_UP_AFTER = 5
MAX_PAUSE = 30.0


@dataclass(eq=False)
class Cluster:
    number: int
    shards: Shards
    proc: asyncio.subprocess.Process | None = None
    started: float = 0.0
    failures: int = 0  # deaths in a row, each young
    restarts: int = 0
    pids: list[int] = field(default_factory=list)

    def argv(self, bot: Path, extra: list[str]) -> list[str]:
        ids = ",".join(map(str, self.shards.ids))
        return [
            sys.executable, str(bot), "--shards", ids, "--shard-count", str(self.shards.count),
            *extra,
        ]  # fmt: skip


class Launcher:
    """Starts the clusters, restarts the ones that die, stops them all on :meth:`stop`."""

    def __init__(
        self,
        clusters: int,
        shard_count: int,
        *,
        bot: Path = BOT_PY,
        start_gap: float = 5.0,
        restart: bool = True,
        bot_args: list[str] | None = None,
    ) -> None:
        self.clusters = [Cluster(n, s) for n, s in enumerate(split(shard_count, clusters))]
        self.bot = bot
        self.start_gap = start_gap
        self.restart = restart
        self.bot_args = list(bot_args or [])
        self.stopping = asyncio.Event()
        self.status = 0

    async def _spawn(self, cluster: Cluster) -> None:
        loop = asyncio.get_running_loop()
        cluster.proc = await asyncio.create_subprocess_exec(
            *cluster.argv(self.bot, self.bot_args),
            # a terminal's Ctrl+C reaches the launcher alone, which stops the clusters in order
            start_new_session=True,
            env=cluster_env(os.environ, cluster.number),
        )
        cluster.started = loop.time()
        cluster.pids.append(cluster.proc.pid)
        log.info(
            "cluster %d (shards %s) started, pid %d",
            cluster.number, cluster.shards.describe(), cluster.proc.pid,
        )  # fmt: skip

    async def _watch(self, cluster: Cluster, delay: float) -> None:
        """Start the cluster after ``delay``; start it again each time it dies."""
        loop = asyncio.get_running_loop()
        if delay and await self._stopped_within(delay):
            return
        while not self.stopping.is_set():
            await self._spawn(cluster)
            assert cluster.proc is not None
            if self.stopping.is_set():  # stopped while it was being started: _stop_all missed it
                with contextlib.suppress(ProcessLookupError):
                    cluster.proc.send_signal(signal.SIGTERM)
            code = await cluster.proc.wait()
            if self.stopping.is_set():
                return
            ran = loop.time() - cluster.started
            how = f"signal {-code}" if code < 0 else f"exit status {code}"
            if not self.restart:
                log.error("cluster %d stopped (%s)", cluster.number, how)
                self.status = 1
                self.stopping.set()
                return
            cluster.failures = 1 if ran >= HEALTHY_AFTER else cluster.failures + 1
            if cluster.failures >= GIVE_UP_AFTER:
                log.error(
                    "cluster %d died %d times in a row soon after starting (last: %s); "
                    "stopping every cluster",
                    cluster.number, cluster.failures, how,
                )  # fmt: skip
                self.status = 1
                self.stopping.set()
                return
            pause = min(MAX_PAUSE, 2.0 ** (cluster.failures - 1))
            log.warning(
                "cluster %d died (%s) after %.0f s; starting it again in %.0f s",
                cluster.number, how, ran, pause,
            )  # fmt: skip
            cluster.restarts += 1
            if await self._stopped_within(pause):
                return

    async def _stopped_within(self, seconds: float) -> bool:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stopping.wait(), seconds)
        return self.stopping.is_set()

    async def run(self) -> int:
        """Run until :meth:`stop` (or a signal, see :func:`main`); the exit status."""
        watchers = []
        shards_before = 0
        for c in self.clusters:
            watchers.append(asyncio.create_task(self._watch(c, shards_before * self.start_gap)))
            shards_before += len(c.shards.ids)
        try:
            await self.stopping.wait()
        finally:
            await self._stop_all()
            await asyncio.gather(*watchers, return_exceptions=True)
        return self.status

    def stop(self) -> None:
        self.stopping.set()

    async def _stop_all(self) -> None:
        """SIGTERM to every living cluster, all at once; SIGKILL to one still running after
        STOP_TIMEOUT."""
        procs = [c.proc for c in self.clusters if c.proc is not None and c.proc.returncode is None]
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                await asyncio.wait_for(proc.wait(), STOP_TIMEOUT)
            except TimeoutError:
                log.error("cluster pid %d did not stop in %.0f s; killing it", proc.pid,
                          STOP_TIMEOUT)
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
            if proc.returncode not in (0, -signal.SIGTERM):
                self.status = self.status or 1


def cluster_env(env: Mapping[str, str], number: int) -> dict[str, str]:
    """Cluster ``number``'s environment: the launcher's, with its pid (a cluster stops by
    itself should the launcher die: bot.py watches it), and its own metrics port, the
    launcher's ``ALBASTINI_METRICS_PORT`` + ``number`` (one endpoint per cluster)."""
    out = {**env, "ALBASTINI_LAUNCHER_PID": str(os.getpid())}
    base = out.get("ALBASTINI_METRICS_PORT", "").strip()
    if base:
        out["ALBASTINI_METRICS_PORT"] = str(int(base) + number)
    return out


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m albastini.launcher",
        description="Run the bot as CLUSTERS processes sharing one PostgreSQL database "
        "(ALBASTINI_DB=postgresql://...); other settings as for bot.py.",
    )
    parser.add_argument("--clusters", type=int, default=2, help="processes to run (default 2)")
    parser.add_argument(
        "--shard-count",
        type=int,
        help="the bot's shards in all, split between the clusters (default: one per cluster; "
        "Discord wants at most 2,500 servers per shard)",
    )
    parser.add_argument(
        "--start-gap",
        type=float,
        default=5.0,
        help="seconds per shard between two clusters' starts (default 5: Discord lets a bot "
        "identify one shard per 5 s)",
    )
    parser.add_argument(
        "--no-restart", action="store_true", help="stop everything when a cluster dies"
    )
    return parser.parse_args(argv)


async def _run(launcher: Launcher) -> int:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, launcher.stop)
    return await launcher.run()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    load_dotenv(Path.cwd() / ".env")
    logging.basicConfig(
        level=os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    count = args.shard_count if args.shard_count is not None else args.clusters
    if args.clusters < 1 or not 1 <= args.clusters <= count:
        print(
            f"--clusters must be between 1 and the shard count ({count}), got {args.clusters}",
            file=sys.stderr,
        )
        return 1
    port = os.environ.get("ALBASTINI_METRICS_PORT", "").strip()
    if port and not (port.isdigit() and 1 <= int(port) <= 65535 - args.clusters + 1):
        print(
            f"ALBASTINI_METRICS_PORT must be a port from 1 to {65536 - args.clusters} (cluster k "
            f"serves its metrics on that port + k), got {port!r}",
            file=sys.stderr,
        )
        return 1
    database = os.environ.get("ALBASTINI_DB", "").strip()
    if args.clusters > 1 and not database.lower().startswith(("postgresql://", "postgres://")):
        print(
            "Clusters share one PostgreSQL database: set ALBASTINI_DB=postgresql://user:"
            "password@host:port/dbname (an SQLite file is for one process).",
            file=sys.stderr,
        )
        return 1
    launcher = Launcher(
        args.clusters, count, start_gap=max(0.0, args.start_gap), restart=not args.no_restart
    )
    try:
        return asyncio.run(_run(launcher))
    except KeyboardInterrupt:
        return 1


if __name__ == "__main__":
    sys.exit(main())
