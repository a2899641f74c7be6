"""The PostgreSQL schema's migrations: ``schema/NNNN_name.sql`` beside this module (package
data), applied in order, each in one transaction with its row in ``schema_version``; a
database newer than the code is refused and left unchanged. Two bots opening the same new
database at once take turns (an advisory lock): the second finds the schema up to date."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import asyncpg

from ..errors import MigrationError, SchemaTooNew
from ..sqlite.migrations import Migration, load_migrations
from ..values import now_text, parse_ts

__all__ = ["MIGRATIONS_DIR", "Migration", "load_migrations", "migrate"]

#: The migrations shipped with the package.
MIGRATIONS_DIR = Path(__file__).resolve().parent / "schema"
#: pg_advisory_lock key held while migrating ("albastin" in ASCII).
_LOCK_KEY = 0x616C62617374696E


async def migrate(conn: Any, where: str, migrations: list[Migration]) -> None:
    """Bring the database on ``conn`` up to the last of ``migrations``."""
    await conn.execute("SELECT pg_advisory_lock($1)", _LOCK_KEY)
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL)"
        )
        current = int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))
        known = len(migrations)
        if current > known:
            raise SchemaTooNew(
                f"database {where} has schema version {current}, but this code knows only up to "
                f"{known}: it was written by a newer version of the bot. Upgrade the bot; the "
                "database was not changed."
            )
        for m in migrations[current:]:
            try:
                async with conn.transaction():
                    await conn.execute(m.sql)
                    await conn.execute(
                        "INSERT INTO schema_version (version, name, applied_at) "
                        "VALUES ($1, $2, $3)",
                        m.version,
                        m.name,
                        parse_ts(now_text()),
                    )
            except asyncpg.PostgresError as exc:
                if isinstance(exc, asyncpg.PostgresConnectionError):
                    raise
                raise MigrationError(
                    f"migration {m.version:04d}_{m.name}.sql failed on {where}: {exc}; "
                    f"the database was left at version {m.version - 1}"
                ) from None
    finally:
        if not conn.is_closed():
            await conn.execute("SELECT pg_advisory_unlock($1)", _LOCK_KEY)
