"""Store benchmark: durable moves per second, and the query times of leaderboards, user stats,
ratings and match history over 100,000 stored results (``--queries-only`` for those alone).

Prints figures, asserts nothing. Last line: ``moves/s: N`` (median of the runs, synchronous=NORMAL,
the store as it is: commits inline on the event loop).

``--postgres`` adds PostgreSQL's durable moves/s beside SQLite's (``--postgres-only`` for those
alone): a server the bench starts itself (the tests' ``PostgresServer``: PostgreSQL 15, run as
``nobody`` when root, Unix socket, fsync and synchronous_commit on), 50 tables appending at once
from 1 process, then from 4 processes (50 tables each, started together).

    .venv/bin/python bench/store.py
    .venv/bin/python bench/store.py --writer inline,aiosqlite,thread --runs 5

``--writer`` runs the synchronous=NORMAL moves with each writer in turn, interleaved (A, B, A, B...:
the machine's load drifts), and prints each one's runs and median:

* ``inline``: the store's writer; commits on the event loop's thread.
* ``aiosqlite`` (what-if): the writer on an aiosqlite connection, each transaction one hop to
  aiosqlite's thread, as the reads are. aiosqlite runs a whole function on its thread only through
  its private ``Connection._execute`` (its public calls are one statement per hop: a move batch
  would be at least three), so this is aiosqlite at its fastest.
* ``thread``: the store's own writer thread (as with synchronous=FULL), for comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiosqlite

from albastini.store import PostgresStore, SQLiteStore, Store, StoreClosed, Synchronous
from albastini.store.sqlite.connections import Writer
from bot import SWITCH_INTERVAL, event_loop_factory

TABLES = 50
SECONDS = 2.0
RUNS = 3
GUILD = 1
RESULTS = 100_000
USERS = 3_000


class AioWriter:
    """What-if: the writer on an aiosqlite connection, one hop to its thread per transaction."""

    inline = False  # moves go to the store's flusher and are committed in groups

    def __init__(self) -> None:
        self._db: aiosqlite.Connection | None = None
        self._busy_ms: int | None = None
        self.closed = False

    async def connect(self, path: Path) -> None:
        self._db = await aiosqlite.connect(path, isolation_level=None)

    async def call(self, fn: Any, busy_ms: int | None = None) -> Any:
        if self.closed or self._db is None:
            raise StoreClosed("closed")
        db = self._db

        def run() -> Any:
            conn = db._conn  # on aiosqlite's thread
            if busy_ms is not None and busy_ms != self._busy_ms:
                conn.execute(f"PRAGMA busy_timeout = {int(busy_ms)}")
                self._busy_ms = busy_ms
            return fn(conn)

        # aiosqlite leaves its private _execute unannotated
        return await db._execute(run)  # type: ignore[no-untyped-call]

    async def close(self) -> None:
        self.closed = True
        if self._db is not None:
            await self._db.close()


class AioStore(SQLiteStore):
    @classmethod
    def _writers(cls, synchronous: Synchronous) -> tuple[Any, None]:
        return AioWriter(), None  # SQLite checkpoints on the writer's thread itself


class ThreadStore(SQLiteStore):
    @classmethod
    def _writers(cls, synchronous: Synchronous) -> tuple[Any, None]:
        return Writer(inline=False), None


WRITERS: dict[str, type[SQLiteStore]] = {
    "inline": SQLiteStore,
    "aiosqlite": AioStore,
    "thread": ThreadStore,
}


@dataclass
class Run:
    moves_per_s: float
    latencies: list[float]  # seconds from append_move called to it returning


async def moves_run(
    path: Path, synchronous: Synchronous, store_cls: type[SQLiteStore] = SQLiteStore
) -> Run:
    """50 tables append moves concurrently for SECONDS; committed moves per second."""
    store = await store_cls.open(path, synchronous=synchronous)
    ids = []
    for t in range(TABLES):
        table = await store.create_table(GUILD, 10_000 + t, 1, {"players": 4}, game="albastini")
        for seat in range(4):
            await store.add_seat(table.id, seat, 100 + seat, f"P{seat}")
        await store.start_table(table.id, 0, random.getrandbits(64))
        ids.append(table.id)
    counts = [0] * TABLES
    latencies: list[float] = []
    stop = time.perf_counter() + SECONDS

    async def play(i: int) -> None:
        move = 0
        while time.perf_counter() < stop:
            move += 1
            t = time.perf_counter()
            await store.append_move(
                ids[i], move, 1, move % 4, "play:7H", user_id=100 + move % 4, by_computer=False
            )
            latencies.append(time.perf_counter() - t)
            counts[i] = move

    start = time.perf_counter()
    await asyncio.gather(*(play(i) for i in range(TABLES)))
    elapsed = time.perf_counter() - start
    await store.close()
    return Run(sum(counts) / elapsed, latencies)


async def appending_tables(store: Store, channel_base: int) -> list[int]:
    """TABLES running 4-seat tables (people in every seat), deal 1 dealt."""
    ids = []
    for t in range(TABLES):
        table = await store.create_table(GUILD, channel_base + t, 1, {"players": 4},
                                         game="albastini")
        for seat in range(4):
            await store.add_seat(table.id, seat, 100 + seat, f"P{seat}")
        await store.start_table(table.id, 0, random.getrandbits(64))
        ids.append(table.id)
    return ids


async def append_until(store: Store, ids: list[int], stop: float) -> int:
    """Every table appends moves, one after another, until ``stop`` (wall clock, so that
    processes share it); the moves committed."""
    counts = [0] * len(ids)

    async def play(i: int) -> None:
        move = 0
        while time.time() < stop:
            move += 1
            await store.append_move(
                ids[i], move, 1, move % 4, "play:7H", user_id=100 + move % 4, by_computer=False
            )
            counts[i] = move

    await asyncio.gather(*(play(i) for i in range(len(ids))))
    return sum(counts)


async def pg_one_process(dsn: str) -> float:
    """50 tables of one process appending at once for SECONDS: committed moves per second."""
    store = await PostgresStore.open(dsn)
    try:
        ids = await appending_tables(store, 30_000)
        start = time.time()
        done = await append_until(store, ids, start + SECONDS)
        return done / (time.time() - start)
    finally:
        await store.close()


async def pg_worker(dsn: str, channel_base: int, start: float) -> None:
    """One of the processes of pg_processes: its tables, then "ready", then moves from the
    start time (wall clock) it reads on stdin for SECONDS; prints its count."""
    store = await PostgresStore.open(dsn)
    try:
        ids = await appending_tables(store, channel_base)
        print("ready", flush=True)
        # every process is ready before the clock starts (a loaded machine starts them slowly)
        start = float(await asyncio.to_thread(sys.stdin.readline))
        await asyncio.sleep(max(0.0, start - time.time()))
        print(await append_until(store, ids, start + SECONDS), flush=True)
    finally:
        await store.close()


def pg_processes(dsn: str, processes: int) -> float:
    """``processes`` bot-like processes, 50 tables each, appending together for SECONDS."""
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, "--pg-worker", dsn, str(40_000 + 1_000 * k), "0"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for k in range(processes)
    ]
    for p in procs:  # each has opened its tables (lines before "ready": what it prints first)
        assert p.stdout is not None
        while (line := p.stdout.readline()) and line.strip() != "ready":
            pass
        if not line:
            raise RuntimeError(f"a bench process failed ({p.wait()})")
    start = time.time() + 0.2
    for p in procs:
        assert p.stdin is not None
        p.stdin.write(f"{start}\n")
        p.stdin.flush()
    counts = []
    for p in procs:
        out, _ = p.communicate(timeout=120)
        if p.returncode != 0:
            raise RuntimeError(f"a bench process failed ({p.returncode})")
        counts.append(int(out.strip().splitlines()[-1]))
    return sum(counts) / SECONDS


async def postgres_bench(runs: int) -> tuple[float, float]:
    """PostgreSQL's durable moves/s from 1 process and from 4 (medians of ``runs``), each run on
    a fresh database of a server started here."""
    from tests.doubles import PostgresServer

    server = PostgresServer()
    one: list[float] = []
    four: list[float] = []
    try:
        server.start()
        for _ in range(runs):
            dsn = await server.database()
            one.append(await pg_one_process(dsn))
            await server.drop(dsn)
            dsn = await server.database()
            four.append(await asyncio.to_thread(pg_processes, dsn, 4))
            await server.drop(dsn)
    finally:
        server.stop()
    print(f"PostgreSQL, 1 process x {TABLES} tables : {', '.join(f'{r:,.0f}' for r in one)} "
          f"moves/s (median {statistics.median(one):,.0f})")  # fmt: skip
    print(f"PostgreSQL, 4 processes x {TABLES} tables: {', '.join(f'{r:,.0f}' for r in four)} "
          f"moves/s (median {statistics.median(four):,.0f})")  # fmt: skip
    print(f"(server: PostgreSQL 15 on a Unix socket, fsync and synchronous_commit on; each move "
          f"committed before append_move returns; {SECONDS:g} s per run)")  # fmt: skip
    return statistics.median(one), statistics.median(four)


async def one_table_run(path: Path, store_cls: type[SQLiteStore]) -> list[float]:
    """One table, one move at a time (a quiet bot: a click's own commit); latency per move."""
    store = await store_cls.open(path)
    table = await store.create_table(GUILD, 10_000, 1, {"players": 2}, game="albastini")
    for seat in range(2):
        await store.add_seat(table.id, seat, None, f"C{seat}", "easy")
    await store.start_table(table.id, 0, 1)
    out = []
    for move in range(1, 1001):
        t = time.perf_counter()
        await store.append_move(table.id, move, 1, move % 2, "pass", user_id=None, by_computer=True)
        out.append(time.perf_counter() - t)
    await store.close()
    return out


BUSY_TASKS = 8  # other work on the event loop (the bot: gateway events, REST answers, renders)
BUSY_MS = 0.5  # of CPU per task per turn of the loop: a turn takes ~4 ms
BUSY_TABLES = 20


def spin(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


async def busy_loop_run(path: Path, store_cls: type[SQLiteStore]) -> list[float]:
    """Moves while the event loop has other work, as in the bot: an answer from another thread
    is seen only once the loop comes round to it. Latency of each move's append_move."""
    store = await store_cls.open(path)
    ids = []
    for t in range(BUSY_TABLES):
        table = await store.create_table(GUILD, 20_000 + t, 1, {"players": 2}, game="albastini")
        for seat in range(2):
            await store.add_seat(table.id, seat, None, f"C{seat}", "easy")
        await store.start_table(table.id, 0, t)
        ids.append(table.id)
    stop = time.perf_counter() + SECONDS
    out: list[float] = []

    async def other_work() -> None:
        while time.perf_counter() < stop:
            spin(BUSY_MS / 1e3)
            await asyncio.sleep(0)

    async def play(table_id: int) -> None:
        move = 0
        while time.perf_counter() < stop:
            await asyncio.sleep(0)  # the click arrives
            move += 1
            t = time.perf_counter()
            await store.append_move(table_id, move, 1, move % 2, "pass", user_id=None,
                                    by_computer=True)  # fmt: skip
            out.append(time.perf_counter() - t)

    await asyncio.gather(*(other_work() for _ in range(BUSY_TASKS)), *(play(i) for i in ids))
    await store.close()
    return out


async def compare_writers(tmp: Path, writers: list[str], runs: int) -> float:
    """The synchronous=NORMAL moves with each writer, interleaved; returns inline's median."""
    results: dict[str, list[Run]] = {w: [] for w in writers}
    single: dict[str, list[float]] = {w: [] for w in writers}
    busy: dict[str, list[float]] = {w: [] for w in writers}
    for i in range(runs):
        for w in writers:
            results[w].append(await moves_run(tmp / f"{w}{i}.db", "NORMAL", WRITERS[w]))
            single[w].append(
                statistics.median(await one_table_run(tmp / f"{w}{i}s.db", WRITERS[w]))
            )
            busy[w].extend(await busy_loop_run(tmp / f"{w}{i}b.db", WRITERS[w]))
    medians = {}
    for w in writers:
        rates = [r.moves_per_s for r in results[w]]
        medians[w] = statistics.median(rates)
        lat = sorted(x for r in results[w] for x in r.latencies)
        p50, p99 = lat[len(lat) // 2], lat[int(len(lat) * 0.99)]
        alone = statistics.median(single[w])
        print(f"writer {w:9}: {', '.join(f'{r:,.0f}' for r in rates)} moves/s "
              f"(median {medians[w]:,.0f}); append p50 {p50 * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms; "
              f"one table alone: median {alone * 1e3:.3f} ms a move")  # fmt: skip
    for w in writers:
        lat = sorted(busy[w])
        p50, p99 = lat[len(lat) // 2], lat[int(len(lat) * 0.99)]
        print(f"writer {w:9} on a busy loop: append p50 {p50 * 1e3:.2f} ms, "
              f"p99 {p99 * 1e3:.2f} ms ({len(lat) / runs / SECONDS:,.0f} moves/s)")  # fmt: skip
    print(f"({TABLES} tables appending concurrently for {SECONDS:g} s; one table alone for "
          f"1000 moves; {BUSY_TABLES} tables for {SECONDS:g} s beside {BUSY_TASKS} tasks "
          f"that each spin {BUSY_MS:g} ms a turn; {runs} rounds, the writers in turn "
          "in each)")  # fmt: skip
    return medians["inline"] if "inline" in medians else next(iter(medians.values()))


def seed_results(path: Path) -> None:
    """Bench-only bulk load of finished tables and results, straight into the file."""
    rng = random.Random(7)
    db = sqlite3.connect(path)
    now = "2026-01-01T00:00:00.000+00:00"
    tables: list[tuple[object, ...]] = []
    rows: list[tuple[object, ...]] = []
    seats: list[tuple[object, ...]] = []
    sides: list[tuple[object, ...]] = []
    table_id = 0
    while len(rows) < RESULTS:
        table_id += 1
        players = rng.choice((2, 3, 4, 6))
        teams = 2 if players in (4, 6) else players
        settings = {"players": players, "team_size": players // teams,
                    "seating": list(range(players)),
                    "team_of": [s % teams for s in range(players)]}  # fmt: skip
        tables.append((table_id, GUILD, 5_000_000 + table_id, 1, json.dumps(settings), now, now))
        winner = rng.randrange(teams)
        users = rng.sample(range(1, USERS + 1), players)
        deals = rng.randint(3, 12)
        for team in range(teams):
            sides.append((table_id, team, 5 if team == winner else 0))
        for seat, user in enumerate(users):
            seats.append((table_id, seat, user, f"player {user}"))
        for seat, user in enumerate(users[: RESULTS - len(rows)]):
            team = seat % teams
            won_deals = rng.randint(0, deals)
            vp = 5 if team == winner else rng.randint(0, 4)
            rows.append(
                (table_id, user, GUILD, "albastini", team, vp, int(team == winner), deals,
                 won_deals, rng.randint(0, won_deals), rng.randint(0, 120 * deals), now)
            )  # fmt: skip
    with db:
        db.executemany(
            "INSERT INTO game_tables (id, guild_id, channel_id, host_id, settings, status, "
            "created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'finished', ?, ?)",
            tables,
        )
        db.executemany(
            "INSERT INTO match_results (table_id, user_id, guild_id, game, team, score, won, "
            "deals_played, deals_won, deals_won_big, card_points, finished_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        db.executemany(
            "INSERT INTO seats (table_id, seat_no, user_id, display_name) VALUES (?, ?, ?, ?)",
            seats,
        )
        db.executemany("INSERT INTO match_teams (table_id, team, score) VALUES (?, ?, ?)", sides)
    db.execute("ANALYZE")
    db.close()


def ms(samples: list[float]) -> str:
    q = statistics.quantiles(samples, n=20)
    return f"median {statistics.median(samples) * 1e3:.2f} ms, p95 {q[18] * 1e3:.2f} ms"


async def leaderboard_bench(path: Path) -> None:
    store = await SQLiteStore.open(path)  # creates the schema
    await store.close()
    t0 = time.perf_counter()
    seed_results(path)
    seconds = time.perf_counter() - t0
    print(f"seeded {RESULTS:,} match results for {USERS:,} users in {seconds:.1f} s")
    store = await SQLiteStore.open(path)
    t0 = time.perf_counter()
    rated = await store.recompute_ratings()
    print(f"rated {rated:,} matches from the stored results in {time.perf_counter() - t0:.1f} s")
    page = await store.leaderboard(GUILD, game="albastini")
    print(f"leaderboard: {page.total} ranked players; #1 = user {page.entries[0].user_id} "
          f"with {page.entries[0].matches_won} wins")  # fmt: skip
    for label, call in (
        ("leaderboard(limit=10)", lambda i: store.leaderboard(GUILD, game="albastini")),
        ("leaderboard(page 50)", lambda i: store.leaderboard(GUILD, 10, 500, game="albastini")),
        ("user_stats", lambda i: store.user_stats(GUILD, 1 + i % USERS, game="albastini")),
        ("ratings(limit=10)", lambda i: store.ratings(GUILD, game="albastini")),
        ("ratings(page 50)", lambda i: store.ratings(GUILD, 10, 500, game="albastini")),
        ("user_rating", lambda i: store.user_rating(GUILD, 1 + i % USERS, game="albastini")),
        ("history(guild)", lambda i: store.history(GUILD)),
        ("history(guild, page 50)", lambda i: store.history(GUILD, offset=500)),
        ("history(user)", lambda i: store.history(GUILD, 1 + i % USERS)),
    ):
        samples = []
        for i in range(100):
            t = time.perf_counter()
            await call(i)
            samples.append(time.perf_counter() - t)
        print(f"{label}: {ms(samples)} over 100 calls")
    await store.close()


async def file_check_bench(path: Path) -> None:
    """What each commit adds to make sure the path still names the open file (a database
    deleted or replaced under the bot must not take acknowledged moves): one stat call."""
    store = await SQLiteStore.open(path)
    calls = 20_000
    t = time.perf_counter()
    for _ in range(calls):
        store._check_file()
    each = (time.perf_counter() - t) / calls
    await store.close()
    print(f"file check per commit: {each * 1e6:.1f} us")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--writer",
        default="inline,aiosqlite",
        help="comma-separated writers to compare, interleaved: inline, aiosqlite, thread",
    )
    parser.add_argument("--runs", type=int, default=RUNS, help="rounds (runs of each writer)")
    parser.add_argument("--moves-only", action="store_true", help="skip the query figures")
    parser.add_argument(
        "--queries-only", action="store_true", help="only the leaderboards, ratings and history"
    )
    parser.add_argument(
        "--postgres", action="store_true", help="also PostgreSQL's moves/s (1 and 4 processes)"
    )
    parser.add_argument("--postgres-only", action="store_true", help="only PostgreSQL's moves/s")
    parser.add_argument("--pg-worker", nargs=3, help=argparse.SUPPRESS)  # dsn, channel, start
    parser.add_argument(
        "--loop",
        choices=("bot", "asyncio"),
        default="bot",
        help="bot: the bot's event loop (uvloop) and GIL switch interval (bot.py)",
    )
    args = parser.parse_args()
    args.writers = [w.strip() for w in args.writer.split(",") if w.strip()]
    if not args.writers or any(w not in WRITERS for w in args.writers):
        parser.error(f"--writer: choose from {', '.join(WRITERS)}")
    return args


async def main(args: argparse.Namespace) -> None:
    print(f"event loop: {type(asyncio.get_running_loop()).__module__}, "
          f"GIL switch interval {sys.getswitchinterval() * 1e3:g} ms")  # fmt: skip
    if args.pg_worker:
        dsn, channel, start = args.pg_worker
        await pg_worker(dsn, int(channel), float(start))
        return
    if args.postgres_only:
        _, four = await postgres_bench(args.runs)
        print(f"moves/s: {four:.0f}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        if not args.moves_only:
            if args.queries_only:
                await leaderboard_bench(Path(tmp) / "board.db")
                return
            await file_check_bench(Path(tmp) / "check.db")
            await leaderboard_bench(Path(tmp) / "board.db")
            full = [
                (await moves_run(Path(tmp) / f"full{i}.db", "FULL")).moves_per_s
                for i in range(args.runs)
            ]
            print(f"synchronous=FULL  : {', '.join(f'{r:,.0f}' for r in full)} moves/s "
                  f"(median {statistics.median(full):,.0f})")  # fmt: skip
        normal = await compare_writers(Path(tmp), args.writers, args.runs)
        if args.postgres:
            await postgres_bench(args.runs)
        print(f"moves/s: {normal:.0f}")


if __name__ == "__main__":
    ARGS = parse_args()
    if ARGS.loop == "asyncio":
        asyncio.run(main(ARGS))
    else:  # as the bot runs (bot.py)
        sys.setswitchinterval(SWITCH_INTERVAL)
        with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
            runner.run(main(ARGS))
