"""Copy a bot's SQLite database into an empty PostgreSQL database, so that the bot started with
``ALBASTINI_DB=postgresql://...`` shows the same tables, leaderboards, ratings and history, and
its running tables resume where they stopped (their move logs replay)::

    python -m albastini.store.to_postgres --from data/albastini.db --to postgresql://u:p@host/db

Stop the bot first: the copy is of one moment of the file. What it does:

1. opens the SQLite file as the bot would (bringing an older schema up to date; a file written
   by a newer bot is refused and left unchanged) and reads every table in one read transaction;
2. opens the PostgreSQL database as the bot would (an unreachable server is refused; the schema
   is created if missing; a newer schema is refused);
3. in ONE transaction, with every table locked: refuses a target that already holds data (no
   ``--force``: the move log and the results are append-only, so this tool never overwrites or
   merges into them; give it an empty database, e.g. ``dropdb``/``createdb``), inserts every
   row with its own ids (the move-order trigger is off for the copy only: the copied log was
   checked when it was written), lets the results' trigger rebuild the leaderboard totals and
   checks them against SQLite's, checks every table's row count, and moves the table id's
   identity past the largest copied id. Any failure rolls all of it back: the target is left
   empty.

Exit status 0 once committed, 1 for a refusal (one line on stderr, nothing copied), 2 for
wrong arguments.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from . import is_postgres_url
from .errors import StoreError, StoreUnavailable
from .postgres import PostgresStore
from .postgres.engine import describe_dsn, is_unavailable, unavailable
from .sqlite import SQLiteStore
from .values import parse_ts

__all__ = ["COPIED_TABLES", "CopyRefused", "CopyReport", "copy_sqlite_to_postgres", "main"]

#: Every table copied, parents before children (foreign keys). ``player_totals`` is not copied:
#: PostgreSQL's trigger rebuilds it from ``match_results`` (and the copy checks it against
#: SQLite's); ``schema_version`` is each database's own.
COPIED_TABLES = (
    "game_tables",
    "seats",
    "deals",
    "deal_results",
    "moves",
    "match_results",
    "match_teams",
    "seasons",
    "ratings",
    "guild_settings",
    "user_preferences",
)
_TOTALS_COLS = (
    "guild_id, game, season, user_id, matches_played, matches_won, score, deals_played, "
    "deals_won, deals_won_big, card_points"
)


class CopyRefused(StoreError):
    """The copy was refused or failed; nothing was written to the target."""


@dataclass(frozen=True, slots=True)
class CopyReport:
    """What was copied: rows per table, in copy order."""

    rows: dict[str, int]

    def __str__(self) -> str:
        return ", ".join(f"{table} {count}" for table, count in self.rows.items())


def _convert(pg_type: str) -> Callable[[Any], Any]:
    """How a value SQLite stored becomes what asyncpg sends for a column of ``pg_type``."""
    if pg_type == "timestamp with time zone":
        return lambda v: None if v is None else parse_ts(v)
    if pg_type == "boolean":
        return lambda v: None if v is None else bool(v)
    if pg_type in ("double precision", "real"):
        return lambda v: None if v is None else float(v)
    return lambda v: v


async def _columns(conn: Any, table: str) -> list[tuple[str, str]]:
    """The target table's columns a row is written to (generated ones are the server's)."""
    rows = await conn.fetch(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER' "
        "ORDER BY ordinal_position",
        table,
    )
    return [(r["column_name"], r["data_type"]) for r in rows]


def _read_source(path: Path, columns: dict[str, list[tuple[str, str]]]) -> dict[str, list[Any]]:
    """Every row of every copied table (and SQLite's totals), in one read transaction."""
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    try:
        db.execute("BEGIN")  # one snapshot of the whole file
        data: dict[str, list[Any]] = {}
        for table in COPIED_TABLES:
            names = [name for name, _ in columns[table]]
            convert = [_convert(kind) for _, kind in columns[table]]
            rows = db.execute(f"SELECT {', '.join(names)} FROM {table}").fetchall()
            data[table] = [tuple(f(v) for f, v in zip(convert, row, strict=True)) for row in rows]
        data["player_totals"] = sorted(
            db.execute(f"SELECT {_TOTALS_COLS} FROM player_totals").fetchall()
        )
        db.execute("COMMIT")
        return data
    except sqlite3.Error as exc:
        raise CopyRefused(f"cannot read {path}: {exc}; nothing was copied") from None
    finally:
        db.close()


async def copy_sqlite_to_postgres(source: Path, dsn: str) -> CopyReport:
    """Copy the bot's SQLite database ``source`` into the empty PostgreSQL database ``dsn``
    (see the module's docstring). Refusals are :class:`StoreError`: :class:`CopyRefused`,
    :class:`~albastini.store.SchemaTooNew`, :class:`~albastini.store.StoreUnavailable`."""
    where = describe_dsn(dsn)
    if not source.is_file():
        raise CopyRefused(f"{source} is not a file: there is no SQLite database to copy")
    # as the bot would open them: older schemas brought up to date, newer ones refused
    lite = await SQLiteStore.open(source)
    await lite.close()
    target = await PostgresStore.open(dsn)
    await target.close()
    try:
        conn = await asyncpg.connect(dsn, timeout=10)
    except Exception as exc:
        raise StoreUnavailable(f"cannot reach the PostgreSQL database {where}: {exc}") from None
    try:
        columns = {table: await _columns(conn, table) for table in COPIED_TABLES}
        data = _read_source(source, columns)
        async with conn.transaction():
            await _copy(conn, where, columns, data)
    except StoreError:
        raise
    except Exception as exc:
        if is_unavailable(exc):
            raise unavailable(where, exc) from None
        raise CopyRefused(
            f"copying {source} into {where} failed: {type(exc).__name__}: {exc}; the target "
            "was left as it was"
        ) from None
    finally:
        await conn.close()
    return CopyReport({table: len(data[table]) for table in COPIED_TABLES})


async def _copy(
    conn: Any, where: str, columns: dict[str, list[tuple[str, str]]], data: dict[str, list[Any]]
) -> None:
    """The copy itself, inside the caller's transaction."""
    # a bot started on the target meanwhile waits (and is refused as busy), never interleaves
    await conn.execute(
        f"LOCK TABLE {', '.join(COPIED_TABLES)}, player_totals IN ACCESS EXCLUSIVE MODE"
    )
    held = [t for t in (*COPIED_TABLES, "player_totals")
            if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {t})")]  # fmt: skip
    if held:
        raise CopyRefused(
            f"{where} already holds data (in {', '.join(held)}): the copy goes only into an "
            "empty database, so it never merges into or overwrites a bot's log and results. "
            "Nothing was copied; create an empty database (dropdb/createdb) and copy again"
        )
    # the copied log was checked in order when it was written; finished tables' moves would
    # fail the live check (their deals are scored). Off for this transaction's inserts only.
    await conn.execute("ALTER TABLE moves DISABLE TRIGGER moves_in_order")
    for table in COPIED_TABLES:
        if data[table]:
            names = [name for name, _ in columns[table]]
            await conn.copy_records_to_table(table, records=data[table], columns=names)
    await conn.execute("ALTER TABLE moves ENABLE TRIGGER moves_in_order")
    await conn.execute(
        "SELECT setval(pg_get_serial_sequence('game_tables', 'id'), "
        "coalesce((SELECT max(id) FROM game_tables), 0) + 1, false)"
    )
    for table in COPIED_TABLES:
        count = await conn.fetchval(f"SELECT count(*) FROM {table}")
        if count != len(data[table]):
            raise CopyRefused(f"{table}: {count} rows in {where}, {len(data[table])} in SQLite")
    totals = sorted(tuple(r) for r in await conn.fetch(f"SELECT {_TOTALS_COLS} FROM player_totals"))
    if totals != data["player_totals"]:
        raise CopyRefused(
            "the leaderboard totals rebuilt from the copied results differ from SQLite's "
            "(its player_totals disagree with its match_results); nothing was copied"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m albastini.store.to_postgres",
        description="Copy the bot's SQLite database into an empty PostgreSQL database "
        "(stop the bot first).",
    )
    parser.add_argument(
        "--from", dest="source", required=True, type=Path,
        help="the SQLite file (the bot's ALBASTINI_DB, e.g. data/albastini.db)",
    )  # fmt: skip
    parser.add_argument(
        "--to", dest="target", required=True,
        help="postgresql://user:password@host:port/dbname (an empty database)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if not is_postgres_url(args.target):
        parser.error(f"--to must be a postgresql:// URL, got {args.target!r}")
    try:
        report = asyncio.run(copy_sqlite_to_postgres(args.source, args.target.strip()))
    except StoreError as exc:
        print(f"copy refused: {exc}", file=sys.stderr)
        return 1
    print(f"copied {args.source} into {describe_dsn(args.target)}: {report}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
