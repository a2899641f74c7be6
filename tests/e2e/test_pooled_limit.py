"""Issue 28: two clusters (``shards 0 of 2`` and ``1 of 2``) on one real PostgreSQL pool
Discord's global rate limit: while the second has nothing to do, the first spends nearly all
of it (more than its fixed half), and with both busy Discord never refuses either of them."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path

import pytest

from albastini.shards import Shards
from bot import AlbastiniBot
from cogs.messages import table_message
from tests.e2e.conftest import assert_clean, settle
from tests.e2e.test_clusters import guild_on_shard
from tests.e2e.test_global_limit import play
from tests.fakediscord import FakeDiscord


async def test_two_clusters_pool_the_global_limit(
    make_bot: Callable[..., AlbastiniBot], monkeypatch: pytest.MonkeyPatch, postgres_dsn: str,
    tmp_path: Path,
) -> None:
    # the bots write their command hash under data/ of the working folder: not the repository's
    monkeypatch.chdir(tmp_path)
    # every table edit paid for from the budget (as 15 minutes after the clicks)
    monkeypatch.setattr(table_message, "TABLE_TOKEN_LIFE", 0.0)
    async with FakeDiscord(shards=2, global_rate=(20, 1.0)) as fake:
        guilds = [guild_on_shard(fake, k, 2) for k in range(2)]
        tables = {k: [fake.add_channel(f"table-{k}-{i}", guilds[k]) for i in range(6)]
                  for k in range(2)}
        people = {k: [fake.add_user(f"P{k}-{i}", guild_id=guilds[k]) for i in range(6)]
                  for k in range(2)}
        # 10/s: a window of 10 for the bot, 5 for each cluster alone
        bots = [make_bot(database=postgres_dsn, global_rate=10.0, shards=Shards((k,), 2))
                for k in range(2)]
        async with contextlib.AsyncExitStack() as stack:
            for b in bots:
                await stack.enter_async_context(fake.run_bot(b))
            pools = [b.publisher.pool for b in bots]
            assert pools[0] is not None and pools[1] is not None
            first = pools[0]  # a name watch() sees narrowed
            busiest = 0

            async def watch() -> None:  # the first cluster's window while it plays
                nonlocal busiest
                while True:
                    busiest = max(busiest, first.budget.window)
                    await asyncio.sleep(0.01)

            watcher = asyncio.create_task(watch())
            # only the first cluster's servers play: it borrows the second's part
            await asyncio.gather(*(play(fake, u, c)
                                   for u, c in zip(people[0][:4], tables[0][:4], strict=True)))
            assert busiest > pools[0].base, (busiest, pools[0].base)
            # both at work
            await asyncio.gather(*(play(fake, u, c) for k in range(2)
                                   for u, c in zip(people[k][4:], tables[k][4:], strict=True)))
            watcher.cancel()
            for b in bots:
                await settle(b, fake)
            assert all(p is not None and p.pooling for p in pools)  # both are, asserted above
        assert fake.global_limited == [], fake.global_limited
        assert_clean(fake)
