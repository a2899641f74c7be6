"""Issue 28 part 5: one process per shard, with real bot processes on one real PostgreSQL and
the fake Discord. A second ``bot.py`` for the shards a running one serves refuses in one line
(``--on-served-shard refuse``) or waits (the default) without connecting, and takes over when
the first stops: it reloads the table the first left half-played, and the match goes on to its
end with every click answered. A process whose shard another took while its lock's connection
was lost stops, in one line."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
from pathlib import Path

import asyncpg
import pytest

from albastini.store import PostgresStore
from albastini.store.postgres.owner import SHARD_LOCK
from tests.doubles import PostgresServer
from tests.e2e.conftest import match_with_computers
from tests.e2e.test_clusters import my_moves, play
from tests.e2e.test_processes import Stderr, alive, descendants, run_bot_py
from tests.fakediscord import FakeDiscord
from tests.test_runner import ROOT, env_for

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")


async def test_a_second_process_for_served_shards_refuses_or_waits_and_takes_over(
    tmp_path: Path, postgres_dsn: str
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        (tmp_path / "data").mkdir()
        env = env_for(postgres_dsn, **fake.env(), PYTHONPATH=str(ROOT))
        first = await run_bot_py(env, tmp_path)
        first_err = Stderr(first)
        procs = [first]
        store = await PostgresStore.open(postgres_dsn)
        waiting_err: Stderr | None = None
        try:
            await fake.wait_connected(timeout=60)
            await fake.wait_until(lambda: fake.commands(), timeout=20)
            lobby = await match_with_computers(fake, neema, target=1)
            table = await store.active_table(fake.channel_id)
            assert table is not None
            acked = await play(fake, neema, lobby, 2, store, table.id)

            # told to refuse: one line naming the process that serves the shard, exit 1
            refused = await run_bot_py(env, tmp_path, "--on-served-shard", "refuse")
            _out, err = await asyncio.wait_for(refused.communicate(), 60)
            assert refused.returncode == 1, err.decode()
            lines = err.decode().strip().splitlines()
            assert lines == [
                f"Cannot serve these shards: every shard already served by albastini pid "
                f"{first.pid} on {socket.gethostname()}: stop it first, or start this one with "
                "ALBASTINI_ON_SERVED_SHARD=wait to take over when it stops"
            ], lines

            # by default it waits, unconnected, while the first plays on
            waiting = await run_bot_py(env, tmp_path)
            procs.append(waiting)
            waiting_err = Stderr(waiting)
            await fake.wait_until(lambda: "waiting for it to stop" in waiting_err.text,
                                  timeout=60)
            acked += await play(fake, neema, lobby, 2, store, table.id)
            assert fake.connected == 1 and waiting.returncode is None

            # the first stops (a rolling restart): the second takes the shard and the table
            first_text = await first_err.stop()
            assert first.returncode == 0, first_text[-3000:]
            await fake.wait_connected(timeout=60)
            await fake.wait_until(lambda: "table(s) reloaded" in waiting_err.text, timeout=30)
            assert "ready to play: 1 table(s) reloaded" in waiting_err.text
            await play(fake, neema, lobby, None, store, table.id)
            assert await my_moves(store, table.id, neema) >= acked
            assert fake.failed_interactions == []
        except BaseException:
            print(first_err.text[-4000:])
            if waiting_err is not None:
                print(waiting_err.text[-4000:])
            raise
        finally:
            await store.close()
            children = {c for p in procs for c in descendants(p.pid)}
            second_text = await waiting_err.stop() if waiting_err is not None else ""
            await first_err.stop()
            for pid in children:
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
    assert "Traceback" not in second_text, second_text[-3000:]
    assert "Traceback" not in first_text, first_text[-3000:]


async def test_a_process_whose_shards_were_taken_while_its_lock_was_lost_stops(
    tmp_path: Path, postgres_server: PostgresServer, postgres_dsn: str
) -> None:
    """Its lock's connection killed while nobody could reconnect, and another process took the
    shard meanwhile: the bot says so in one line and stops, exit status 1, rather than serve a
    shard it no longer owns."""
    name = postgres_dsn.split("?")[0].rsplit("/", 1)[1]
    async with FakeDiscord() as fake:
        fake.add_user("Neema")
        (tmp_path / "data").mkdir()
        env = env_for(postgres_dsn, **fake.env(), PYTHONPATH=str(ROOT))
        proc = await run_bot_py(env, tmp_path)
        stderr = Stderr(proc)
        admin = await asyncpg.connect(postgres_server.dsn())
        thief = await asyncpg.connect(
            postgres_dsn, server_settings={"application_name": "the other bot"}
        )
        try:
            await fake.wait_connected(timeout=60)
            await admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
            (pid,) = await admin.fetchval(
                "SELECT array_agg(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted "
                "AND classid = $1::oid", SHARD_LOCK,
            )  # fmt: skip
            await admin.execute("SELECT pg_terminate_backend($1)", pid)
            loop = asyncio.get_running_loop()
            end = loop.time() + 30
            while not await thief.fetchval("SELECT pg_try_advisory_lock($1, -1)", SHARD_LOCK):
                assert loop.time() < end, "the bot's lock was never released"
                await asyncio.sleep(0.05)
            await admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
            await asyncio.wait_for(proc.wait(), 60)
        finally:
            await admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
            await admin.close()
            await thief.close()
            err = await stderr.stop()
    assert proc.returncode == 1, err[-3000:]
    errors = [line for line in err.splitlines() if " ERROR " in line]
    assert len(errors) == 1, errors
    assert errors[0].endswith(
        "every shard taken over by the other bot while this process's database connection "
        "was lost; stopping"
    ), errors
    assert "Traceback" not in err, err[-3000:]
