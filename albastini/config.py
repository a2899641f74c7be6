"""Settings of the bot, read from the environment and an optional ``.env`` file.

Kept apart from the rules core; the Discord layer and the table service read it. Every value is
checked here so that a malformed setting stops the bot at start-up with one clear line.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from .shards import MAX_SHARDS, Shards, parse_shard_ids

_TOKEN_STEPS = """\
  1. Open https://discord.com/developers/applications and create an application.
  2. Under "Bot", press "Reset Token" and copy the token.
  3. Put it in a file named .env next to bot.py:   DISCORD_TOKEN=your-token-here
     (or export DISCORD_TOKEN in your shell), then run `make run` again.

See the README, section "Creating the Discord application", for inviting the bot to a server."""

TOKEN_HELP = "No Discord bot token found.\n\n" + _TOKEN_STEPS
#: Discord refused the token (at login, or later when the bot connects: it was reset meanwhile).
TOKEN_REFUSED_HELP = (
    "Discord refused the bot token in DISCORD_TOKEN: it is mistyped, or it was reset.\n\n"
    + _TOKEN_STEPS.replace("and create an application", "and open the bot's application")
    .replace("copy the token", "copy the new token")
)
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
#: The bot's one slash command, whose subcommands are every feature's: ``/albastini``. The
#: bot's name, not a game's: it hosts every game of ``albastini.games.GAMES``.
COMMAND_GROUP = "albastini"


class ConfigError(Exception):
    """A setting is missing or malformed; the message says which and how to fix it."""


def _database(env: dict[str, str]) -> Path | str:
    """ALBASTINI_DB: a PostgreSQL URL (``postgresql://user:password@host:port/db``, kept as
    written) or the path of an SQLite file (the default ``data/albastini.db``)."""
    raw = env.get("ALBASTINI_DB", "").strip() or "data/albastini.db"
    scheme = raw.split("://", 1)[0].lower() if "://" in raw else ""
    if not scheme:
        return Path(raw)
    if scheme not in ("postgresql", "postgres"):
        raise ConfigError(
            f"ALBASTINI_DB must be the path of an SQLite file or a postgresql:// URL, got a "
            f"{scheme}:// URL"
        )
    if not urlsplit(raw).path.strip("/"):
        raise ConfigError(
            "ALBASTINI_DB names no database: write postgresql://user:password@host:port/dbname"
        )
    return raw


def describe_database(database: Path | str) -> str:
    """The database for messages and logs: a URL without its password."""
    if isinstance(database, Path):
        return str(database)
    parts = urlsplit(database)
    if parts.password is None:
        return database
    return parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@")).geturl()


@dataclass(frozen=True)
class Settings:
    token: str
    #: an SQLite file's path, or a PostgreSQL server's URL (``albastini.store.open_store``)
    database: Path | str
    log_level: str = "INFO"
    #: discord.py's own loggers: at DEBUG they print every payload, hands and interaction
    #: tokens included, so they stay at INFO unless DISCORD_LOG_LEVEL asks for more.
    discord_log_level: str = "INFO"
    computer_pause: float = 1.5
    notice_delay: float = 3.0  # a turn notice waits this long; none if the person played
    edit_interval: float = 1.0  # at most one edit of a table message per this many seconds
    #: Seconds an interaction's token works (Discord: 15 minutes); the bot relies on one until
    #: a little before (:func:`token_margin`). Only tests against a fake Discord shorten it.
    token_life: float = 900.0
    workers: int = 0  # 0 = one per core
    #: Requests per second the bot token may spend on Discord's global rate limit (about 50;
    #: interaction answers do not count), shared by every process of the bot: pooled through
    #: PostgreSQL (``global_pool``), else in proportion to its shards (``shards.share``;
    #: cogs/messages/budget.py).
    global_rate: float = 45.0
    #: Clusters on PostgreSQL pool ``global_rate``: a busy one spends what idle ones leave
    #: (cogs/messages/pool.py); False gives each its fixed part (ALBASTINI_GLOBAL_POOL=off).
    global_pool: bool = True
    language: str = "en"
    sync_commands: str = "auto"  # auto | always | never
    api_base: str | None = None  # only for running against a fake Discord
    gateway_url: str | None = None
    #: the shards this process runs (a cluster, ``bot.py --shards 0-3 --shard-count 8``);
    #: None: every shard, as many as Discord recommends
    shards: Shards | None = None
    #: a process for shards another process serves (PostgreSQL): "wait" for it to stop, or
    #: "refuse" to start (albastini/store/postgres/owner.py)
    on_served_shard: str = "wait"
    #: the port of the Prometheus metrics endpoint (albastini/metrics.py); None: no metrics
    metrics_port: int | None = None
    #: the address it listens on (127.0.0.1: this machine only; 0.0.0.0: every interface)
    metrics_host: str = "127.0.0.1"

    def __repr__(self) -> str:  # never print the token
        database = describe_database(self.database)  # nor a database password
        return f"Settings(database={database}, log_level={self.log_level})"


def token_margin(life: float) -> float:
    """Seconds before a token's end at which the bot stops relying on it: a minute of
    Discord's 15 (a slow request, clocks that differ), less for the short lives of tests."""
    return min(60.0, life / 15)


def _float(
    env: dict[str, str],
    name: str,
    default: float,
    lo: float,
    hi: float,
    what: str = "a number of seconds",
) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be {what}, got {raw!r}") from None
    if not lo <= value <= hi:
        raise ConfigError(f"{name} must be between {lo:g} and {hi:g}, got {raw!r}")
    return value


def _int(env: dict[str, str], name: str, default: int, lo: int, hi: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, got {raw!r}") from None
    if not lo <= value <= hi:
        raise ConfigError(f"{name} must be between {lo} and {hi}, got {raw!r}")
    return value


def _level(env: dict[str, str], name: str, default: str) -> str:
    level = env.get(name, "").strip().upper() or default
    if level not in LOG_LEVELS:
        raise ConfigError(f"{name} must be DEBUG, INFO, WARNING or ERROR, got {level!r}")
    return level


def shards_setting(ids: str, count: str) -> Shards | None:
    """The shards one process runs, from ``--shards``/``ALBASTINI_SHARDS`` (``0-3``, ``0,2``) and
    ``--shard-count``/``ALBASTINI_SHARD_COUNT``; None when neither is given (every shard)."""
    ids, count = ids.strip(), count.strip()
    if not ids and not count:
        return None
    if not count:
        raise ConfigError(
            "ALBASTINI_SHARDS (--shards) needs ALBASTINI_SHARD_COUNT (--shard-count): the bot's "
            "shards in all, e.g. --shards 0-3 --shard-count 8"
        )
    try:
        total = int(count)
    except ValueError:
        raise ConfigError(f"the shard count must be a whole number, got {count!r}") from None
    if not 1 <= total <= MAX_SHARDS:
        raise ConfigError(f"the shard count must be between 1 and {MAX_SHARDS}, got {count!r}")
    try:
        chosen = parse_shard_ids(ids) if ids else tuple(range(total))
        return Shards(chosen, total)
    except ValueError as exc:
        raise ConfigError(f"ALBASTINI_SHARDS (--shards): {exc}") from None


def load_settings(env: dict[str, str] | None = None, *, require_token: bool = True) -> Settings:
    """Build the settings from ``env`` (default: the process environment)."""
    if env is None:
        env = dict(os.environ)
    token = env.get("DISCORD_TOKEN", "").strip()
    if require_token and not token:
        raise ConfigError(TOKEN_HELP)
    level = _level(env, "LOG_LEVEL", "INFO")
    # discord.py follows LOG_LEVEL down to INFO, not to DEBUG (see Settings.discord_log_level)
    discord_level = _level(env, "DISCORD_LOG_LEVEL", "INFO" if level == "DEBUG" else level)
    language = env.get("ALBASTINI_LANGUAGE", "en").strip().lower() or "en"
    if language not in {"en", "sw", "ml", "ru"}:
        raise ConfigError(f"ALBASTINI_LANGUAGE must be en, sw, ml or ru, got {language!r}")
    sync = env.get("ALBASTINI_SYNC", "auto").strip().lower() or "auto"
    if sync not in {"auto", "always", "never"}:
        raise ConfigError(f"ALBASTINI_SYNC must be auto, always or never, got {sync!r}")
    served = env.get("ALBASTINI_ON_SERVED_SHARD", "wait").strip().lower() or "wait"
    if served not in {"wait", "refuse"}:
        raise ConfigError(f"ALBASTINI_ON_SERVED_SHARD must be wait or refuse, got {served!r}")
    metrics_port = _int(env, "ALBASTINI_METRICS_PORT", 0, 0, 65535) or None
    pool = env.get("ALBASTINI_GLOBAL_POOL", "on").strip().lower() or "on"
    if pool not in {"on", "off"}:
        raise ConfigError(f"ALBASTINI_GLOBAL_POOL must be on or off, got {pool!r}")
    return Settings(
        token=token,
        database=_database(env),
        log_level=level,
        discord_log_level=discord_level,
        computer_pause=_float(env, "ALBASTINI_COMPUTER_PAUSE", 1.5, 0.0, 30.0),
        notice_delay=_float(env, "ALBASTINI_NOTICE_DELAY", 3.0, 0.0, 60.0),
        edit_interval=_float(env, "ALBASTINI_EDIT_INTERVAL", 1.0, 0.0, 10.0),
        token_life=_float(env, "ALBASTINI_TOKEN_LIFE", 900.0, 2.0, 900.0),
        workers=_int(env, "ALBASTINI_WORKERS", 0, 0, 64),
        global_rate=_float(
            env, "ALBASTINI_GLOBAL_RATE", 45.0, 1.0, 50.0, "a number of requests per second"
        ),
        global_pool=pool == "on",
        language=language,
        sync_commands=sync,
        api_base=env.get("DISCORD_API_BASE", "").strip() or None,
        gateway_url=env.get("DISCORD_GATEWAY_URL", "").strip() or None,
        shards=shards_setting(
            env.get("ALBASTINI_SHARDS", ""), env.get("ALBASTINI_SHARD_COUNT", "")
        ),
        on_served_shard=served,
        metrics_port=metrics_port,
        metrics_host=env.get("ALBASTINI_METRICS_HOST", "").strip() or "127.0.0.1",
    )
