"""bot.py as a process: a bad database is one clear line and exit 1; against the fake Discord it
serves commands, never prints its token, and stops cleanly on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from albastini.config import Settings
from albastini.store import SQLiteStore
from bot import AlbastiniBot, bot_intents, command_hash_path
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "secret-token-do-not-print-1234567890"
SYNC = "PUT /api/v{version}/applications/{app}/commands"


def env_for(db: Path | str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "ALBASTINI_"))}
    env.update({"DISCORD_TOKEN": TOKEN, "ALBASTINI_DB": str(db), "LOG_LEVEL": "INFO"})
    env.update({"ALBASTINI_COMPUTER_PAUSE": "0", "ALBASTINI_WORKERS": "1"})
    env.update(extra)
    return env


async def run_bot_py(
    env: dict[str, str], cwd: Path, *args: str
) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, str(ROOT / "bot.py"), *args, cwd=cwd, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )


@pytest.mark.parametrize("kind", ["garbage", "directory"])
async def test_bad_database_is_one_line_and_exit_1(tmp_path: Path, kind: str) -> None:
    db = tmp_path / "albastini.db"
    if kind == "garbage":
        db.write_bytes(b"this is not a database at all" * 100)
    else:
        db.mkdir()
    proc = await run_bot_py(env_for(db), tmp_path)
    _out, err = await asyncio.wait_for(proc.communicate(), 30)
    text = err.decode()
    assert proc.returncode == 1
    assert "Traceback" not in text
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1 and "database" in lines[0].lower(), text
    assert TOKEN not in text


async def test_unreachable_postgresql_is_one_line_and_exit_1(tmp_path: Path) -> None:
    """ALBASTINI_DB naming a PostgreSQL server nobody answers at: one line naming the database
    (its password hidden) and why, exit 1, nothing written."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    url = f"postgresql://bot:hunter2-secret@127.0.0.1:{port}/albastini"
    proc = await run_bot_py(env_for(url), tmp_path)
    _out, err = await asyncio.wait_for(proc.communicate(), 30)
    text = err.decode()
    assert proc.returncode == 1
    assert "Traceback" not in text
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1 and "cannot reach" in lines[0] and f":{port}/albastini" in lines[0]
    assert "hunter2" not in text and TOKEN not in text


async def test_subprocess_serves_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    db = tmp_path / "albastini.db"
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        proc = await run_bot_py(env_for(db, **fake.env()), tmp_path)
        try:
            await fake.wait_connected(timeout=30)
            await fake.wait_until(lambda: fake.commands(), timeout=10)
            r = await fake.slash(neema, "albastini start", players=2, computers=True)
            assert r.response_type == 4 and r.message is not None
            lobby = r.message
            await fake.click(neema, lobby, label="Start")
            await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"))
            proc.send_signal(signal.SIGTERM)
            _out, err = await asyncio.wait_for(proc.communicate(), 30)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        text = err.decode()
        assert proc.returncode == 0, text
        assert TOKEN not in text
        assert "Traceback" not in text
        assert "voice will NOT be supported" not in text  # no noise about features not used
        assert "stopping" in text
        assert fake.failed_interactions == [] and fake.unknown_routes == []
        assert fake.request_counts[SYNC] == 1

        # a second process on the same database picks the match up; --sync forces a sync
        proc = await run_bot_py(env_for(db, **fake.env()), tmp_path, "--sync")
        try:
            await fake.wait_connected(timeout=30)
            await fake.wait_until(lambda: fake.request_counts[SYNC] == 2, timeout=10)
            r2 = await fake.click(neema, r.message, label="Show my hand")
            assert r2.ephemeral and r2.response_type == 4
            proc.send_signal(signal.SIGTERM)
            _out, err = await asyncio.wait_for(proc.communicate(), 30)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        assert proc.returncode == 0 and "1 table(s) reloaded" in err.decode()
        assert fake.failed_interactions == [] and fake.unknown_routes == []
    assert command_hash_path(db).exists()
    store = await SQLiteStore.open(db)
    try:
        unfinished = await store.unfinished_tables()
        assert len(unfinished) == 1  # the running match was kept for the next start
    finally:
        await store.close()


async def test_never_sync_and_no_privileged_intents(tmp_path: Path) -> None:
    intents = bot_intents()
    assert not intents.message_content and not intents.members and not intents.presences
    settings = Settings(token="x", database=tmp_path / "a.db", sync_commands="never")
    bot = AlbastiniBot(settings)
    assert await bot.sync_commands() is False
    assert not command_hash_path(settings.database).exists()
    await bot.close()


@pytest.mark.parametrize("where", ["refused", "no-such-name"])
@pytest.mark.parametrize("level", ["INFO", "WARNING"])
async def test_no_network_is_one_line_and_exit_1(tmp_path: Path, where: str, level: str) -> None:
    """Started where Discord cannot be reached (nothing listens at the address, or its name
    does not resolve): one line saying so and what to check, exit 1, no traceback. At
    LOG_LEVEL=INFO the log's own lines come before it (discord.py's "logging in")."""
    host = "127.0.0.1:9" if where == "refused" else "discord.invalid"
    env = env_for(tmp_path / "a.db", LOG_LEVEL=level, DISCORD_API_BASE=f"http://{host}/api/v10",
                  DISCORD_GATEWAY_URL=f"ws://{host}/")
    proc = await run_bot_py(env, tmp_path)
    try:
        _out, err = await asyncio.wait_for(proc.communicate(), 60)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    text = err.decode()
    assert proc.returncode == 1, text
    assert "Traceback" not in text and TOKEN not in text
    logged = (" INFO ", " WARNING ", " ERROR ")
    lines = [line for line in text.splitlines() if line.strip()]
    said = [line for line in lines if not any(word in line[:40] for word in logged)]
    if level == "WARNING":
        assert said == lines, text  # nothing else at all
    assert len(said) == 1, text
    assert said[0].startswith("Cannot reach Discord") and host.split(":")[0] in said[0], text
    assert "network" in said[0]
    if where == "no-such-name":
        assert "name" in said[0].lower()
