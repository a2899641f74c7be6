"""Issue 28 part 5: a shard is served by one process at a time (albastini/store/postgres/owner.py),
on a real PostgreSQL server: the locks are taken, refused, waited for and handed over, and
taken again after their connection is lost, and asyncpg's pool says one line, not a traceback
per try, while the server is down."""

from __future__ import annotations

import asyncio
import functools
import logging

import asyncpg
import pytest

from albastini.shards import Shards
from albastini.store import PostgresStore, StoreUnavailable
from albastini.store.postgres import owner as owner_module
from albastini.store.postgres.engine import FLOOR_WARNINGS
from albastini.store.postgres.owner import ShardOwner, ShardsServed, application_name
from tests import doubles
from tests.doubles import PostgresServer


def of(count: int, *ids: int) -> Shards:
    return Shards(ids, count)


async def test_overlapping_shards_are_refused_and_the_others_served(postgres_dsn: str) -> None:
    first = ShardOwner(postgres_dsn, of(4, 0, 1))
    await first.claim(wait=False)
    owners: list[ShardOwner] = [first]
    try:
        # another part of the same shards, every shard, the same servers by another count
        for shards in (of(4, 1, 2), None, of(4, 0, 1, 2, 3), of(2, 1)):
            with pytest.raises(ShardsServed, match=f"already served by {application_name()}"):
                await ShardOwner(postgres_dsn, shards).claim(wait=False)
        # the other shards of the count are free, once each
        second = ShardOwner(postgres_dsn, of(4, 2, 3))
        await second.claim(wait=False)
        owners.append(second)
        with pytest.raises(ShardsServed):
            await ShardOwner(postgres_dsn, of(4, 3)).claim(wait=False)
    finally:
        for o in owners:
            await o.release()
    # released: a process of every shard may start now
    whole = ShardOwner(postgres_dsn, None)
    await whole.claim(wait=False)
    with pytest.raises(ShardsServed):
        await ShardOwner(postgres_dsn, of(2, 0)).claim(wait=False)
    await whole.release()


async def test_a_waiting_process_takes_over_when_the_owner_and_its_connections_are_gone(
    postgres_dsn: str, caplog: pytest.LogCaptureFixture
) -> None:
    old = ShardOwner(postgres_dsn, of(2, 1))
    await old.claim(wait=False)
    store = await PostgresStore.open(postgres_dsn)  # the old owner's pool, with its name
    newcomer = ShardOwner(postgres_dsn, of(2, 1))
    claim = asyncio.create_task(newcomer.claim(wait=True))
    try:
        await _until(lambda: "served by" in caplog.text)
        assert not claim.done()
        await old.release()  # the locks go first: the newcomer still waits for the pool
        await asyncio.sleep(owner_module.POLL * 4)
        assert not claim.done()
        await store.close()
        await asyncio.wait_for(claim, 30)
    finally:
        claim.cancel()
        await store.close()
        await newcomer.release()
        await old.release()
    waits = [r for r in caplog.records if "waiting for it to stop" in r.getMessage()]
    assert len(waits) == 1 and waits[0].levelno == logging.WARNING
    assert "taking over anyway" not in caplog.text  # it saw the old connections go


async def test_a_lost_lock_is_taken_again_or_the_process_is_told_to_stop(
    postgres_server: PostgresServer, postgres_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(owner_module, "CHECK_EVERY", 0.1)
    name = postgres_dsn.split("?")[0].rsplit("/", 1)[1]
    owner = ShardOwner(postgres_dsn, of(2, 0))
    await owner.claim(wait=False)
    holding = asyncio.create_task(owner.hold())
    admin = await asyncpg.connect(postgres_server.dsn())
    locks = (
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1::oid "
        "AND objid = 0"
    )
    try:
        # its connection killed (as by a server restart): it takes the shard again
        (pid,) = [r[0] for r in await admin.fetch(locks, owner_module.SHARD_LOCK)]
        await admin.execute("SELECT pg_terminate_backend($1)", pid)
        await _until(lambda: owner.reacquired == 1)
        assert not holding.done()
        assert len(await admin.fetch(locks, owner_module.SHARD_LOCK)) == 1

        # killed while nobody may connect, and another process takes the shard meanwhile
        thief = await asyncpg.connect(postgres_dsn)
        await admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
        (pid,) = [r[0] for r in await admin.fetch(locks, owner_module.SHARD_LOCK)]
        await admin.execute("SELECT pg_terminate_backend($1)", pid)
        assert await _take(thief)
        await admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        reason = await asyncio.wait_for(holding, 30)
        assert "taken over by" in reason and "stopping" in reason
        await thief.close()
    finally:
        holding.cancel()
        await owner.release()
        await admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        await admin.close()


async def _take(conn: asyncpg.Connection) -> bool:
    """Take shard 0's lock as soon as its owner's session has ended (it ends a moment after
    pg_terminate_backend returns)."""
    for _ in range(600):
        if await conn.fetchval("SELECT pg_try_advisory_lock($1, 0)", owner_module.SHARD_LOCK):
            return True
        await asyncio.sleep(0.05)
    return False


async def test_a_server_that_stays_down_is_one_warning_line_not_a_traceback_per_try(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """asyncpg's pool retries its floor of connections with a traceback each time; the store
    says it once, counts the tries, and says when the server is back."""
    caplog.set_level(logging.INFO)
    FLOOR_WARNINGS.failures = 0  # no outage of an earlier test's pool left open
    server = PostgresServer()
    try:
        server.start()
        store = await PostgresStore.open(await server.database())
        try:
            server.pg_ctl("stop", "-m", "immediate")
            with pytest.raises(StoreUnavailable):
                await store.active_table(1)
            await _until(lambda: FLOOR_WARNINGS.failures >= 3, timeout=60)
            server.pg_ctl("start", "-w")
            await _until(lambda: FLOOR_WARNINGS.failures == 0, timeout=90)
            assert await store.active_table(1) is None
        finally:
            await store.close()
    finally:
        server.stop()
    pool = [r for r in caplog.records if r.name.startswith("asyncpg")]
    assert len(pool) == 1, [r.getMessage() for r in pool]
    assert pool[0].levelno == logging.WARNING and pool[0].exc_info is None
    assert pool[0].getMessage().startswith("PostgreSQL cannot be reached (")
    assert "Traceback" not in caplog.text
    back = [r.getMessage() for r in caplog.records if "reached again" in r.getMessage()]
    assert len(back) == 1 and "failed reconnection(s)" in back[0]


#: the shared poll, with the time a loaded machine may need for a server round trip
_until = functools.partial(doubles.until, timeout=30.0)
