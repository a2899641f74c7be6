"""Store benchmark: durable moves per second, and leaderboard / user-stats query times.

Prints figures, asserts nothing. Last line: ``moves/s: N`` (median of the runs, synchronous=NORMAL).

    .venv/bin/python bench/store.py
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from albastini.store import SQLiteStore, Synchronous

TABLES = 50
SECONDS = 2.0
RUNS = 3
GUILD = 1
RESULTS = 100_000
USERS = 3_000


async def moves_run(path: Path, synchronous: Synchronous) -> float:
    """50 tables append moves concurrently for SECONDS; returns committed moves per second."""
    store = await SQLiteStore.open(path, synchronous=synchronous)
    ids = []
    for t in range(TABLES):
        table = await store.create_table(GUILD, 10_000 + t, 1, {"players": 4})
        for seat in range(4):
            await store.add_seat(table.id, seat, 100 + seat, f"P{seat}")
        await store.start_table(table.id, 0, random.getrandbits(64))
        ids.append(table.id)
    counts = [0] * TABLES
    stop = time.perf_counter() + SECONDS

    async def play(i: int) -> None:
        move = 0
        while time.perf_counter() < stop:
            move += 1
            await store.append_move(
                ids[i], move, 1, move % 4, "play:7H", user_id=100 + move % 4, by_computer=False
            )
            counts[i] = move

    start = time.perf_counter()
    await asyncio.gather(*(play(i) for i in range(TABLES)))
    elapsed = time.perf_counter() - start
    await store.close()
    return sum(counts) / elapsed


def seed_results(path: Path) -> None:
    """Bench-only bulk load of finished tables and results, straight into the file."""
    rng = random.Random(7)
    db = sqlite3.connect(path)
    now = "2026-01-01T00:00:00.000+00:00"
    tables: list[tuple[object, ...]] = []
    rows: list[tuple[object, ...]] = []
    table_id = 0
    while len(rows) < RESULTS:
        table_id += 1
        tables.append((table_id, GUILD, 5_000_000 + table_id, 1, "{}", now, now))
        players = rng.choice((2, 3, 4, 6))
        teams = 2 if players in (4, 6) else players
        winner = rng.randrange(teams)
        users = rng.sample(range(1, USERS + 1), players)
        deals = rng.randint(3, 12)
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
            "INSERT INTO match_results (table_id, user_id, guild_id, game, team, team_vp, won, "
            "deals_played, deals_won, deals_won_2vp, card_points, finished_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
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
    page = await store.leaderboard(GUILD)
    print(f"leaderboard: {page.total} ranked players; #1 = user {page.entries[0].user_id} "
          f"with {page.entries[0].matches_won} wins")  # fmt: skip
    for label, call in (
        ("leaderboard(limit=10)", lambda i: store.leaderboard(GUILD)),
        ("leaderboard(page 50)", lambda i: store.leaderboard(GUILD, 10, 500)),
        ("user_stats", lambda i: store.user_stats(GUILD, 1 + i % USERS)),
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


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        await file_check_bench(Path(tmp) / "check.db")
        await leaderboard_bench(Path(tmp) / "board.db")
        full = [await moves_run(Path(tmp) / f"full{i}.db", "FULL") for i in range(RUNS)]
        print(f"synchronous=FULL  : {', '.join(f'{r:,.0f}' for r in full)} moves/s "
              f"(median {statistics.median(full):,.0f})")  # fmt: skip
        normal = [await moves_run(Path(tmp) / f"normal{i}.db", "NORMAL") for i in range(RUNS)]
        print(f"synchronous=NORMAL: {', '.join(f'{r:,.0f}' for r in normal)} moves/s "
              f"(median {statistics.median(normal):,.0f})")  # fmt: skip
        print(f"({TABLES} tables appending concurrently, {RUNS} runs of {SECONDS:g} s each)")
        print(f"moves/s: {statistics.median(normal):.0f}")


if __name__ == "__main__":
    asyncio.run(main())
