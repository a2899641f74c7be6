"""Clusters pooling Discord's global rate limit through PostgreSQL (cogs/messages/pool.py,
albastini/store/postgres/budget.py): on a real server, a busy process spends what an idle one
leaves, two busy ones never have more requests in a second than the limit between them, and a
database that goes away and comes back costs one warning, the fixed parts meanwhile."""

from __future__ import annotations

import asyncio
import functools
import logging
import time

import pytest

from albastini.store.postgres.budget import RESERVE, Lease, Leases, allot
from cogs.messages.budget import WINDOW_SECONDS, GlobalBudget, window_for
from cogs.messages.pool import BudgetPool
from tests import doubles
from tests.doubles import PostgresServer

RATE = 45.0
LIMIT = window_for(RATE)  # 49


# ---------------------------------------------------------------- the allotment, on its own
def test_an_idle_process_keeps_a_reserve_and_lends_the_rest() -> None:
    idle = Lease(base=24, want=RESERVE, holds=RESERVE)
    busy = allot(LIMIT, Lease(base=24, want=LIMIT, holds=24), [idle])
    assert busy == LIMIT - RESERVE
    # the idle one, asking again, keeps its reserve and takes nothing the busy one holds
    assert allot(LIMIT, idle, [Lease(base=24, want=LIMIT, holds=busy)]) == RESERVE


def test_a_process_that_becomes_busy_gets_its_base_back_as_the_other_shrinks() -> None:
    lender = Lease(base=24, want=LIMIT, holds=LIMIT - RESERVE)
    # the lender still holds nearly all: the newcomer cannot grow yet
    newcomer = Lease(base=24, want=LIMIT, holds=RESERVE)
    assert allot(LIMIT, newcomer, [lender]) == RESERVE
    # the lender, asked again, shrinks to its base and a part of what is spare
    shrunk = allot(LIMIT, lender, [newcomer])
    assert 24 <= shrunk <= 25
    # then the newcomer grows into what the lender gave back; together never over the limit
    grown = allot(LIMIT, newcomer, [Lease(base=24, want=LIMIT, holds=shrunk)])
    assert grown + shrunk <= LIMIT and grown >= 24


def test_an_expired_lease_reserves_its_part() -> None:
    gone = Lease(base=24, want=0, holds=10, live=False)
    assert allot(LIMIT, Lease(base=24, want=LIMIT, holds=0), [gone]) == LIMIT - 24
    big = Lease(base=24, want=0, holds=40, live=False)  # it may still use what it held
    assert allot(LIMIT, Lease(base=24, want=LIMIT, holds=0), [big]) == LIMIT - 40


async def test_a_resized_window_lets_waiters_in_and_a_smaller_one_holds_new_ones() -> None:
    budget = GlobalBudget(1000.0)
    budget.resize(0, 0.01)  # before the first lease: nothing may be sent
    first = asyncio.create_task(budget.take())
    await asyncio.sleep(0.05)
    assert not first.done() and budget.waiting == 1
    budget.resize(2, 1000.0)  # a lease of 2: the waiter goes
    await asyncio.wait_for(first, 5)
    await budget.take()
    assert budget.occupied == 2
    budget.resize(1, 1000.0)  # shrunk below what is inside: those stay, no new one enters
    third = asyncio.create_task(budget.take())
    await asyncio.sleep(0.05)
    assert not third.done() and budget.occupied == 2
    budget.refund()
    budget.refund()  # both left without an answer: one place again
    await asyncio.wait_for(third, 5)
    assert budget.occupied == 1


# ---------------------------------------------------------------- on a real PostgreSQL
class Sender:
    """Requests through one pooled budget, as discord.py's client sends them: each takes its
    place in the window, is answered after ``latency``, and leaves. Records when each was
    sent."""

    def __init__(self, pool: BudgetPool, sent: list[float], latency: float = 0.02) -> None:
        self.pool = pool
        self.sent = sent
        self.latency = latency
        self.busy = False
        self.max_window = 0

    async def request(self) -> None:
        budget = self.pool.budget
        await budget.take()
        self.sent.append(time.monotonic())
        self.max_window = max(self.max_window, budget.window)
        try:
            await asyncio.sleep(self.latency)
        finally:
            budget.done()

    async def run(self, until: asyncio.Event, parallel: int = 60) -> None:
        async def one() -> None:
            while not until.is_set():
                await self.request()

        await asyncio.gather(*(one() for _ in range(parallel)))


def most_in_a_second(times: list[float]) -> int:
    """The most requests sent within any WINDOW_SECONDS (a sliding window, as Discord's)."""
    times = sorted(times)
    most, lo = 0, 0
    for hi, t in enumerate(times):
        while times[lo] <= t - WINDOW_SECONDS:
            lo += 1
        most = max(most, hi - lo + 1)
    return most


def pool_of(dsn: str, name: str, interval: float = 0.05) -> BudgetPool:
    return BudgetPool.start_with(Leases(dsn, name), rate=RATE, share=0.5, interval=interval)


#: the shared poll, with the time a loaded machine may need for a server round trip
until = functools.partial(doubles.until, timeout=30.0)


async def test_a_busy_process_takes_most_of_the_pool_and_two_busy_ones_share_it(
    postgres_dsn: str,
) -> None:
    busy, idle = pool_of(postgres_dsn, "cluster 0"), pool_of(postgres_dsn, "cluster 1")
    sent_a: list[float] = []
    sent_b: list[float] = []
    a, b = Sender(busy, sent_a), Sender(idle, sent_b)
    stop_a, stop_b = asyncio.Event(), asyncio.Event()
    try:
        await until(lambda: busy.pooling and idle.pooling)
        assert busy.budget.window == idle.budget.window == RESERVE  # nothing wanted yet
        run_a = asyncio.create_task(a.run(stop_a))
        # alone at work, it grows past its fixed part to all the other one leaves
        await until(lambda: busy.budget.window == LIMIT - RESERVE)
        assert idle.budget.window == RESERVE
        n_a = len(sent_a)
        await until(lambda: len(sent_a) >= n_a + 90)  # some seconds of it
        run_b = asyncio.create_task(b.run(stop_b))
        # both at work: the first gives back, the second grows to about half
        await until(lambda: idle.budget.window >= busy.base and busy.budget.window <= 25)
        n_a = len(sent_a)
        await until(lambda: len(sent_a) >= n_a + 100)
        stop_a.set()
        stop_b.set()
        await asyncio.gather(run_a, run_b)
    finally:
        await busy.close()
        await idle.close()
    assert a.max_window == LIMIT - RESERVE and b.max_window >= busy.base
    # however their requests interleaved, never more than the limit within a second
    assert most_in_a_second(sent_a + sent_b) <= LIMIT
    assert most_in_a_second(sent_a) > busy.base  # the busy one did spend the other's part


async def test_the_pool_falls_back_to_fixed_parts_while_the_database_is_down(
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = PostgresServer()
    await asyncio.to_thread(server.start)
    try:
        dsn = await server.database()
        busy, idle = pool_of(dsn, "cluster 0"), pool_of(dsn, "cluster 1")
        sent: list[float] = []
        a = Sender(busy, sent)
        stop = asyncio.Event()
        run = asyncio.create_task(a.run(stop))
        try:
            await until(lambda: busy.budget.window == LIMIT - RESERVE)
            caplog.clear()
            with caplog.at_level(logging.INFO, logger="cogs.messages.pool"):
                await asyncio.to_thread(server.pg_ctl, "stop", "-m", "immediate")
                # at once no more than its fixed part; the idle one its fixed part once every
                # lease it lent to could have run out
                await until(lambda: busy.pooling is False and busy.budget.window == busy.base)
                await until(lambda: idle.budget.window == idle.base)
                down = busy.renewals
                n = len(sent)
                await until(lambda: len(sent) >= n + 50)  # requests still go, within the part
                await asyncio.to_thread(server.pg_ctl, "start", "-w")
                await until(lambda: busy.pooling and busy.renewals > down)
                await until(lambda: busy.budget.window == LIMIT - RESERVE)
                await until(lambda: idle.pooling and idle.budget.window == RESERVE)
            # one line per process when the database goes, one when it is back: not one per
            # renewal (a renewal slowed past its timeout by a busy machine is one more outage)
            lost = [r for r in caplog.records if "cannot reach" in r.getMessage()]
            again = [r for r in caplog.records if "pooling the rate limit" in r.getMessage()]
            assert 2 <= len(lost) < busy.failures + idle.failures and len(again) >= 2
        finally:
            stop.set()
            await run
            await busy.close()
            await idle.close()
        assert most_in_a_second(sent) <= LIMIT
    finally:
        await asyncio.to_thread(server.stop)


async def test_a_restarted_cluster_takes_its_dead_predecessors_part_at_once(
    postgres_dsn: str,
) -> None:
    """A cluster killed and started again: the dead process's row would keep its part reserved
    for a minute, but the new process owns those shards alone (one owner per shard), so its
    first connection deletes that row and it may use its whole part at once; the rows of other
    shards stay."""
    half = LIMIT // 2
    dead = Leases(postgres_dsn, "shards 0 of 2, pid 1 on h")
    other = Leases(postgres_dsn, "shards 1 of 2, pid 2 on h")
    lookalike = Leases(postgres_dsn, "shards 0 of 20, pid 3 on h")
    await dead.renew(LIMIT, half, half, half)
    await other.renew(LIMIT, half, 0, RESERVE)
    await lookalike.renew(LIMIT, 2, 0, RESERVE)
    await dead._drop()  # killed: no release, its row stays
    stranger = Leases(postgres_dsn, "shards 0 of 2, pid 4 on h")  # knows of no predecessor
    kept = await stranger.renew(LIMIT, half, half, 0)
    await stranger.release()
    heir = Leases(postgres_dsn, "shards 0 of 2, pid 5 on h", succeeds="shards 0 of 2, ")
    got = await heir.renew(LIMIT, half, half, 0)
    assert kept < half <= got  # the dead row held the part back; the heir has it at once
    conn = await heir._connection()
    rows = await conn.fetch("SELECT holder FROM albastini_budget_leases")
    holders = sorted(r["holder"] for r in rows)
    assert holders == ["shards 0 of 2, pid 5 on h", "shards 0 of 20, pid 3 on h",
                       "shards 1 of 2, pid 2 on h"]
    for lease in (heir, other, lookalike):
        await lease.release()
