"""Issue 16: the bot as two clusters (``python -m albastini.launcher --clusters 2``), two bot
processes sharing one real PostgreSQL, against a fake Discord of two shards that routes each
server's events to the shard Discord would.

A server of shard 1 is served by the second process (kill it and that server goes silent
while the first plays on); a person's stats read what both processes stored; a ``kill -9`` of a
cluster mid-match loses none of the moves it acknowledged, the launcher starts it again and its
table resumes; SIGTERM to the launcher stops every process cleanly."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import time
from pathlib import Path

import pytest

from albastini.store import PostgresStore
from tests.e2e.conftest import enabled_moves, match_with_computers
from tests.e2e.test_commands import ONLY_IN_A_SERVER
from tests.e2e.test_processes import Stderr, alive, descendants
from tests.fakediscord import DriverError, FakeDiscord, FakeMessage, FakeUser
from tests.test_runner import ROOT, env_for

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")


def guild_on_shard(fake: FakeDiscord, shard: int, count: int) -> int:
    """A new server of the fake that Discord would put on ``shard`` (its id's timestamp
    decides: ids made a millisecond apart alternate between two shards)."""
    while True:
        gid = fake.add_guild(f"Club {shard}")
        if (gid >> 22) % count == shard:
            return gid
        time.sleep(0.001)


async def play(fake: FakeDiscord, me: FakeUser, lobby: FakeMessage, moves: int | None,
               store: PostgresStore, table_id: int) -> int:
    """``me`` plays their first enabled move on each of their turns: ``moves`` of them, or
    until the match is over (None). Returns the moves the bot acknowledged (answered)."""
    acked = 0
    loop = asyncio.get_running_loop()
    end = loop.time() + 120
    while moves is None or acked < moves:
        assert loop.time() < end, "the match did not go on"
        if moves is None and (await store.get_table(table_id)).status == "finished":
            return acked
        hand = await fake.click(me, lobby, label="Show my hand")
        assert hand.message is not None and not hand.failed
        mine = enabled_moves(hand.message)
        if not mine:  # not my turn: the computer is thinking
            await asyncio.sleep(0.1)
            continue
        r = await fake.click(me, hand.message, custom_id=mine[0].custom_id)
        assert not r.failed
        if r.response_type == 7:
            acked += 1
    return acked


async def my_moves(store: PostgresStore, table_id: int, user: FakeUser) -> int:
    return sum(1 for m in await store.moves(table_id) if m.user_id == user.id)


def cluster_pids(text: str, number: int) -> list[int]:
    """The pids the launcher logged for a cluster, oldest first."""
    return [int(p) for p in re.findall(rf"cluster {number} \(shards .*?\) started, pid (\d+)",
                                       text)]


async def test_two_clusters_share_postgresql_and_survive_a_kill(
    tmp_path: Path, postgres_dsn: str
) -> None:
    async with FakeDiscord(shards=2) as fake:
        home = fake.guild_id if (fake.guild_id >> 22) % 2 == 0 else guild_on_shard(fake, 0, 2)
        other = guild_on_shard(fake, 1, 2)
        neema = fake.add_user("Neema", guild_id=home)
        fake.guilds[other].member_ids.append(neema.id)  # she is in both servers
        home_channel = next(iter(fake.guilds[home].channels))
        other_channel = next(iter(fake.guilds[other].channels))
        (tmp_path / "data").mkdir()
        env = env_for(postgres_dsn, **fake.env(), PYTHONPATH=str(ROOT))
        launcher = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "albastini.launcher", "--clusters", "2", "--shard-count", "2",
            "--start-gap", "0",
            cwd=tmp_path, env=env, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        stderr = Stderr(launcher)
        store = await PostgresStore.open(postgres_dsn)
        try:
            await fake.wait_connected(timeout=60, shards=2)
            await fake.wait_until(lambda: fake.commands(), timeout=20)  # cluster 0 synced them
            assert len(cluster_pids(stderr.text, 0)) == len(cluster_pids(stderr.text, 1)) == 1

            # a DM has no server: Discord sends it to shard 0, so to the first cluster alone,
            # which answers a command or a click from it privately, in time, with no table
            dm = fake.add_dm(neema)
            r = await fake.slash(neema, "albastini start", channel_id=dm, force=True)
            assert r.shard == 0 and r.ephemeral and r.message is not None
            assert r.message.text == ONLY_IN_A_SERVER
            r = await fake.send_component(neema, r.message, "alb:join:1")
            assert r.shard == 0 and r.ephemeral and r.message is not None
            assert r.message.text == ONLY_IN_A_SERVER
            assert fake.failed_interactions == [] and await store.active_table(dm) is None

            # a match in a server of each shard; the one of shard 1 is played half-way
            lobby_home = await match_with_computers(fake, neema, channel_id=home_channel,
                                                    target=1)
            lobby_other = await match_with_computers(fake, neema, channel_id=other_channel,
                                                     target=1)
            home_table = await store.active_table(home_channel)
            other_table = await store.active_table(other_channel)
            assert home_table is not None and other_table is not None
            acked = await play(fake, neema, lobby_other, 3, store, other_table.id)

            # kill -9 the second cluster right after it acknowledged a move
            (victim,) = cluster_pids(stderr.text, 1)
            others = descendants(victim)
            os.kill(victim, signal.SIGKILL)
            await fake.wait_until(lambda: fake.connected == 1, timeout=10)
            # every acknowledged move is in the database
            assert await my_moves(store, other_table.id, neema) >= acked
            # the server of shard 1 has no bot now; the first cluster plays on
            with pytest.raises(DriverError):
                await fake.click(neema, lobby_other, label="Show my hand")
            await play(fake, neema, lobby_home, None, store, home_table.id)

            # the launcher starts the second cluster again; its table resumes where it was
            await fake.wait_connected(timeout=60, shards=2)
            assert len(cluster_pids(stderr.text, 1)) == 2
            # nothing of the killed one runs on (its courier and worker see their parent gone)
            await fake.wait_until(lambda: not any(alive(p) for p in others), timeout=20)
            await play(fake, neema, lobby_other, None, store, other_table.id)
            assert await my_moves(store, other_table.id, neema) >= acked

            # her stats, asked in the server of shard 0, count the match of each cluster
            r = await fake.slash(neema, "albastini stats", channel_id=home_channel)
            assert r.message is not None
            assert "after 2 rated matches" in r.message.text, r.message.text
            r = await fake.slash(neema, "albastini leaderboard", channel_id=other_channel)
            assert r.message is not None and f"<@{neema.id}>" in r.message.text
        except BaseException:
            print(stderr.text[-6000:])  # the launcher's and the clusters' logs, on failure
            raise
        finally:
            await store.close()
            children = descendants(launcher.pid)
            err = await stderr.stop()  # SIGTERM to the launcher
            for pid in children:
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
    assert launcher.returncode == 0, err[-3000:]
    assert "Traceback" not in err, err[-3000:]
    assert not any(alive(p) for p in children)
    assert err.count("stopping (signal received)") == 2, err[-3000:]
    # each cluster restored only its own tables: the second one, started again, its match
    assert "ready to play (shards 1 of 2): 1 table(s) reloaded" in err
