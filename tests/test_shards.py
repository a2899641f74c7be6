"""Clusters (issue 16): which shards a process runs, which servers that makes its own, how the
launcher splits the shards, and how the settings and bot.py's flags name them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from albastini.config import ConfigError, load_settings
from albastini.shards import Shards, parse_shard_ids, shard_of, split

ROOT = Path(__file__).resolve().parents[1]


def test_a_server_is_on_the_shard_discord_sends_its_events_on() -> None:
    guild = 81384788765712384
    assert shard_of(guild, 2) == (guild >> 22) % 2
    assert shard_of(None, 8) == 0  # DMs and group DMs: shard 0
    assert Shards((0,), 2).owns(None) and not Shards((1,), 2).owns(None)
    assert Shards((0, 1, 2, 3), 8).owns(3 << 22) and not Shards((0, 1, 2, 3), 8).owns(5 << 22)
    assert Shards((0,), 2).has_dms and not Shards((1,), 2).has_dms
    assert Shards((0, 1, 2), 8).share == 3 / 8 and Shards((0, 1), 2).all


@pytest.mark.parametrize(
    ("text", "ids"),
    [("0-3", (0, 1, 2, 3)), ("0,2,5-6", (0, 2, 5, 6)), ("4", (4,)), (" 3, 1 ,1", (1, 3))],
)
def test_shard_lists(text: str, ids: tuple[int, ...]) -> None:
    assert parse_shard_ids(text) == ids


@pytest.mark.parametrize("text", ["", "a", "3-1", "-1", "0-x", ","])
def test_bad_shard_lists(text: str) -> None:
    with pytest.raises(ValueError):
        parse_shard_ids(text)


def test_split_gives_every_shard_to_one_cluster_and_shard_0_to_the_first() -> None:
    assert [s.describe() for s in split(8, 3)] == ["0-2 of 8", "3-5 of 8", "6-7 of 8"]
    assert [s.ids for s in split(2, 2)] == [(0,), (1,)]
    for count in range(1, 12):
        for clusters in range(1, count + 1):
            parts = split(count, clusters)
            assert sorted(i for p in parts for i in p.ids) == list(range(count))
            assert parts[0].has_dms and all(p.ids for p in parts)
    with pytest.raises(ValueError):
        split(2, 3)


def test_settings_name_the_shards() -> None:
    env = {"DISCORD_TOKEN": "t"}
    assert load_settings(env).shards is None
    s = load_settings({**env, "ALBASTINI_SHARDS": "0-3", "ALBASTINI_SHARD_COUNT": "8"}).shards
    assert s == Shards((0, 1, 2, 3), 8)
    assert load_settings({**env, "ALBASTINI_SHARD_COUNT": "2"}).shards == Shards((0, 1), 2)
    for bad, words in [
        ({"ALBASTINI_SHARDS": "0-3"}, "ALBASTINI_SHARD_COUNT"),
        ({"ALBASTINI_SHARDS": "4-7", "ALBASTINI_SHARD_COUNT": "4"}, "shard count - 1"),
        ({"ALBASTINI_SHARDS": "0", "ALBASTINI_SHARD_COUNT": "x"}, "whole number"),
        ({"ALBASTINI_SHARDS": "zero", "ALBASTINI_SHARD_COUNT": "2"}, "0-3"),
    ]:
        with pytest.raises(ConfigError, match=words):
            load_settings({**env, **bad})


def _run(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": "t", "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, *argv], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip


def test_bot_py_flags_are_checked_like_the_settings(tmp_path: Path) -> None:
    done = _run(tmp_path, str(ROOT / "bot.py"), "--shards", "0-3")
    assert done.returncode == 1 and "--shard-count" in done.stderr and "Traceback" not in (
        done.stderr
    )
    done = _run(tmp_path, str(ROOT / "bot.py"), "--shards", "2", "--shard-count", "2")
    assert done.returncode == 1 and "0 to the shard count - 1" in done.stderr


def test_the_launcher_wants_postgresql_for_several_clusters(tmp_path: Path) -> None:
    done = _run(tmp_path, "-m", "albastini.launcher", "--clusters", "2")
    assert done.returncode == 1 and "ALBASTINI_DB=postgresql://" in done.stderr
    done = _run(tmp_path, "-m", "albastini.launcher", "--clusters", "3", "--shard-count", "2")
    assert done.returncode == 1 and "between 1 and the shard count" in done.stderr


# ---------------------------------------------------------------------- the launcher, alone

FAKE_BOT = """
import signal, sys, time
mode = open(sys.argv[1]).read().strip()
if mode == "die":
    sys.exit(3)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
open(sys.argv[1] + "-" + sys.argv[2], "w").close()  # ready: mode-<its shards>
while True:
    time.sleep(0.05)
"""


async def test_the_launcher_gives_every_shard_to_a_cluster_and_stops_them_all(
    tmp_path: Path,
) -> None:
    import asyncio

    from albastini import launcher as launcher_module

    bot = tmp_path / "bot.py"
    bot.write_text(FAKE_BOT.replace("sys.argv[1]", repr(str(tmp_path / "mode"))))
    (tmp_path / "mode").write_text("run")
    launcher = launcher_module.Launcher(3, 8, bot=bot, start_gap=0)
    run = asyncio.create_task(launcher.run())
    while len(list(tmp_path.glob("mode-*"))) < 3:  # each has its SIGTERM handler
        await asyncio.sleep(0.05)
    assert [c.argv(bot, [])[2:] for c in launcher.clusters] == [
        ["--shards", "0,1,2", "--shard-count", "8"],
        ["--shards", "3,4,5", "--shard-count", "8"],
        ["--shards", "6,7", "--shard-count", "8"],
    ]
    procs = [c.proc for c in launcher.clusters]
    launcher.stop()
    assert await asyncio.wait_for(run, 30) == 0
    assert all(p is not None and p.returncode == 0 for p in procs)


async def test_the_launcher_gives_up_on_a_cluster_that_keeps_dying_young(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    from albastini import launcher as launcher_module

    monkeypatch.setattr(launcher_module, "MAX_PAUSE", 0.01)
    bot = tmp_path / "bot.py"
    bot.write_text(FAKE_BOT.replace("sys.argv[1]", repr(str(tmp_path / "mode"))))
    (tmp_path / "mode").write_text("die")
    launcher = launcher_module.Launcher(2, 2, bot=bot, start_gap=0)
    assert await asyncio.wait_for(launcher.run(), 60) == 1
    assert max(len(c.pids) for c in launcher.clusters) == launcher_module.GIVE_UP_AFTER


async def test_a_cluster_sees_a_language_another_cluster_set(tmp_path: Path) -> None:
    """A person's language is theirs in every server: set through one cluster, another one
    (which cached the old answer) reads it again once its TTL has passed."""
    from albastini.store import SQLiteStore
    from cogs.ui import lang

    store = await SQLiteStore.open(tmp_path / "a.db")
    try:
        now = [0.0]
        mine = lang.Languages(store, user_ttl=30.0, clock=lambda: now[0])
        other = lang.Languages(store, user_ttl=30.0, clock=lambda: now[0])
        assert await other.user(7, 1) == "en"
        await store.set_user_language(7, "sw")
        mine.set_user(7, "sw")  # what /albastini language does in the cluster it ran in
        assert await mine.user(7, 1) == "sw"
        assert await other.user(7, 2) == "en"  # cached for now
        now[0] += 31
        assert await other.user(7, 2) == "sw"
        forever = lang.Languages(store)  # one process: every change goes through it
        await store.set_user_language(8, "sw")
        assert await forever.user(8, 1) == "sw"
    finally:
        await store.close()
