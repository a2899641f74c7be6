"""The entry point and settings: what an operator sees when something is missing or wrong."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from albastini.config import ConfigError, load_settings, token_margin

ROOT = Path(__file__).resolve().parents[1]


def _run_bot(tmp_path: Path, env_extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(env_extra)
    # Run from an empty folder so that no .env of the developer's is picked up.
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_missing_token_explains_and_exits_1(tmp_path: Path) -> None:
    proc = _run_bot(tmp_path, {})
    assert proc.returncode == 1
    assert "No Discord bot token found" in proc.stderr
    assert "DISCORD_TOKEN=" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


def test_malformed_setting_is_one_clear_line(tmp_path: Path) -> None:
    proc = _run_bot(tmp_path, {"DISCORD_TOKEN": "x.y.z", "ALBASTINI_COMPUTER_PAUSE": "soon"})
    assert proc.returncode == 1
    assert "ALBASTINI_COMPUTER_PAUSE must be a number" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert "x.y.z" not in proc.stderr + proc.stdout


def test_token_read_from_dotenv_file(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nLOG_LEVEL=loud\n")
    proc = _run_bot(tmp_path, {})
    # The token was found (no token help); the bad log level is reported instead.
    assert proc.returncode == 1
    assert "No Discord bot token" not in proc.stderr
    assert "LOG_LEVEL must be" in proc.stderr


def test_defaults() -> None:
    s = load_settings({"DISCORD_TOKEN": "secret-token"})
    assert s.database == Path("data/albastini.db")
    assert s.computer_pause == 1.5
    assert s.notice_delay == 3.0 and s.edit_interval == 1.0
    assert s.language == "en"
    assert s.global_rate == 45.0
    assert "secret-token" not in repr(s)
    assert load_settings({"DISCORD_TOKEN": "t", "ALBASTINI_GLOBAL_RATE": "40"}).global_rate == 40
    # Discord's 15-minute token, relied on until a minute before; tests shorten it
    assert s.token_life == 900.0 and token_margin(s.token_life) == 60.0
    short = load_settings({"DISCORD_TOKEN": "t", "ALBASTINI_TOKEN_LIFE": "8"}).token_life
    assert short == 8.0 and 0 < token_margin(short) < 1
    assert s.global_pool  # clusters on PostgreSQL pool the rate limit unless told not to
    assert not load_settings({"DISCORD_TOKEN": "t", "ALBASTINI_GLOBAL_POOL": "off"}).global_pool
    with pytest.raises(ConfigError, match="ALBASTINI_GLOBAL_POOL must be on or off"):
        load_settings({"DISCORD_TOKEN": "t", "ALBASTINI_GLOBAL_POOL": "maybe"})


def test_albastini_db_is_a_file_path_or_a_postgresql_url() -> None:
    url = "postgresql://bot:s3cret@db.example:5433/albastini?sslmode=require"
    s = load_settings({"DISCORD_TOKEN": "x", "ALBASTINI_DB": f"  {url} "})
    assert s.database == url  # kept as written: not a Path (that would fold the //)
    assert "s3cret" not in repr(s) and "db.example:5433" in repr(s)
    assert load_settings({"DISCORD_TOKEN": "x", "ALBASTINI_DB": "postgres://h/db"}).database == (
        "postgres://h/db"
    )
    assert load_settings({"DISCORD_TOKEN": "x", "ALBASTINI_DB": "/srv/a.db"}).database == Path(
        "/srv/a.db"
    )
    for bad, message in (
        ("mysql://h/db", "postgresql:// URL"),
        ("postgresql://bot@host", "names no database"),
    ):
        with pytest.raises(ConfigError, match=message):
            load_settings({"DISCORD_TOKEN": "x", "ALBASTINI_DB": bad})


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("ALBASTINI_COMPUTER_PAUSE", "-1", "between 0 and 30"),
        ("ALBASTINI_NOTICE_DELAY", "later", "number of seconds"),
        ("ALBASTINI_NOTICE_DELAY", "61", "between 0 and 60"),
        ("ALBASTINI_EDIT_INTERVAL", "-0.5", "between 0 and 10"),
        ("ALBASTINI_TOKEN_LIFE", "3600", "between 2 and 900"),
        ("ALBASTINI_WORKERS", "two", "whole number"),
        ("ALBASTINI_GLOBAL_RATE", "fast", "number of requests per second"),
        ("ALBASTINI_GLOBAL_RATE", "60", "between 1 and 50"),
        ("ALBASTINI_LANGUAGE", "fr", "en, sw, ml or ru"),
        ("ALBASTINI_SYNC", "sometimes", "auto, always or never"),
        ("LOG_LEVEL", "chatty", "LOG_LEVEL"),
    ],
)
def test_malformed_settings_refused(name: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings({"DISCORD_TOKEN": "t", name: value})


@pytest.mark.parametrize("where", ["login", "identify"])
async def test_a_refused_token_explains_and_exits_1(tmp_path: Path, where: str) -> None:
    """Discord refuses a wrong token at login (401), and a token reset while the bot runs when
    it connects (gateway close 4004): either way the steps to get a new one, no traceback."""
    from tests.fakediscord import FakeDiscord
    from tests.test_runner import TOKEN, env_for, run_bot_py

    async with FakeDiscord() as fake:
        fake.reject_token = where
        proc = await run_bot_py(env_for(tmp_path / "a.db", **fake.env()), tmp_path)
        try:
            _out, err = await asyncio.wait_for(proc.communicate(), 60)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    text = err.decode()
    assert proc.returncode == 1, text
    assert "Discord refused the bot token" in text
    assert "Reset Token" in text and "DISCORD_TOKEN=" in text
    assert "Traceback" not in text
    assert TOKEN not in text


def test_discord_py_stays_at_info_when_the_bot_logs_at_debug() -> None:
    """discord.py's debug lines carry every payload (private hands, interaction tokens)."""
    s = load_settings({"DISCORD_TOKEN": "t", "LOG_LEVEL": "debug"})
    assert (s.log_level, s.discord_log_level) == ("DEBUG", "INFO")
    s = load_settings({"DISCORD_TOKEN": "t", "LOG_LEVEL": "warning"})
    assert s.discord_log_level == "WARNING"  # never chattier than the bot
    s = load_settings({"DISCORD_TOKEN": "t", "LOG_LEVEL": "debug", "DISCORD_LOG_LEVEL": "debug"})
    assert s.discord_log_level == "DEBUG"  # only when asked for
    with pytest.raises(ConfigError, match="DISCORD_LOG_LEVEL"):
        load_settings({"DISCORD_TOKEN": "t", "DISCORD_LOG_LEVEL": "all"})
