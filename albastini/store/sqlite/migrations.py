"""The SQLite schema's migrations: ``schema/NNNN_name.sql`` beside this module (package data, so
every install carries them), applied in order, each in one transaction with its row in
``schema_version``; a database newer than the code is refused."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from ..errors import MigrationError, SchemaTooNew
from ..values import now_text
from .connections import fetch_on

__all__ = ["MIGRATIONS_DIR", "Migration", "load_migrations", "migrate"]

#: The migrations shipped with the package.
MIGRATIONS_DIR = Path(__file__).resolve().parent / "schema"
_MIGRATION_RE = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(directory: Path) -> list[Migration]:
    found: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        m = _MIGRATION_RE.fullmatch(path.name)
        if not m:
            raise MigrationError(f"migration file name {path.name!r} is not NNNN_name.sql")
        found.append(Migration(int(m[1]), m[2], path.read_text(encoding="utf-8")))
    if not found:  # a broken install: an empty schema would fail every command later
        raise MigrationError(f"no migration files (NNNN_name.sql) in {directory}")
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise MigrationError(f"migrations in {directory} must be numbered 1, 2, 3...: {versions}")
    return found


def migrate(db: sqlite3.Connection, path: Path, migrations: list[Migration]) -> None:
    db.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    rows = fetch_on(db, "SELECT coalesce(max(version), 0) FROM schema_version")
    current = int(rows[0][0])
    known = len(migrations)
    if current > known:
        raise SchemaTooNew(
            f"database {path} has schema version {current}, but this code knows only up to "
            f"{known}: it was written by a newer version of the bot. Upgrade the bot; the "
            "database was not changed."
        )
    for m in migrations[current:]:
        script = (
            f"BEGIN IMMEDIATE;\n{m.sql}\n;\n"
            f"INSERT INTO schema_version (version, name, applied_at) "
            f"VALUES ({m.version}, '{m.name}', '{now_text()}');\nCOMMIT;"
        )
        try:
            db.executescript(script)
        except sqlite3.Error as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise MigrationError(
                f"migration {m.version:04d}_{m.name}.sql failed on {path}: {exc}; "
                f"the database was left at version {m.version - 1}"
            ) from None
