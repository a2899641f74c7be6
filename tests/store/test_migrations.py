"""Opening a database: the schema created, migrated, or refused (newer, corrupt, half-migrated)
and nothing changed when refused. Real SQLite files, never a mock (SQLite-only: the file, its
header and its migrations; PostgreSQL's opening and migrations are in test_postgres.py)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from albastini.store import (
    MIGRATIONS_DIR,
    CorruptDatabase,
    MigrationError,
    PlayerResult,
    PlayerStats,
    SchemaTooNew,
    SQLiteStore,
    Store,
    StoreClosed,
)
from tests.doubles import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    MODE,
    running_table,
    schema_versions,
)

# ---------------------------------------------------------------- opening and migrations


async def test_open_creates_missing_directory_file_and_schema(tmp_path: Path) -> None:
    path = tmp_path / "not" / "yet" / "there.db"
    s = await SQLiteStore.open(path)
    store: Store = s  # SQLiteStore satisfies the interface the table service uses
    assert await store.unfinished_tables() == []
    await s.close()
    assert path.is_file()
    known = len(list(MIGRATIONS_DIR.glob("*.sql")))
    assert schema_versions(path) == list(range(1, known + 1))
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_reopen_is_idempotent_and_keeps_data(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    s = await SQLiteStore.open(path)
    table_id = await running_table(s)
    await s.append_move(table_id, 1, 1, 1, "bid:4C", user_id=BOB, by_computer=False)
    await s.close()
    versions = schema_versions(path)
    for _ in range(2):
        s = await SQLiteStore.open(path)
        snap = await s.load_table(table_id)
        assert [m.action for m in snap.moves] == ["bid:4C"]
        await s.close()
    assert schema_versions(path) == versions


async def test_newer_schema_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    await (await SQLiteStore.open(path)).close()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO schema_version VALUES (99, 'future', '2030-01-01')")
    before = path.read_bytes()
    with pytest.raises(SchemaTooNew, match=r"schema version 99.*newer version"):
        await SQLiteStore.open(path)
    assert path.read_bytes() == before


async def test_failed_migration_rolls_back_entirely(tmp_path: Path) -> None:
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    (migrations / "0001_init.sql").write_text((MIGRATIONS_DIR / "0001_init.sql").read_text())
    (migrations / "0002_broken.sql").write_text(
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n"
    )
    path = tmp_path / "a.db"
    with pytest.raises(MigrationError, match="0002_broken"):
        await SQLiteStore.open(path, migrations_dir=migrations)
    assert schema_versions(path) == [1]
    with sqlite3.connect(path) as db:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
    assert "half_done" not in names and "game_tables" in names


async def test_a_store_without_its_migrations_refuses_to_open(tmp_path: Path) -> None:
    """An install that lost the migration files must not open an empty schema and fail on the
    first command: it refuses at start, naming the folder."""
    empty = tmp_path / "migrations"
    empty.mkdir()
    path = tmp_path / "a.db"
    with pytest.raises(MigrationError, match="no migration"):
        await SQLiteStore.open(path, migrations_dir=empty)


def test_the_migrations_ship_inside_the_package() -> None:
    """A non-editable install (``pip install .``) carries the package's data only: the
    migrations must be package data, and the store must find them there."""
    from importlib import resources

    shipped = resources.files("albastini.store.sqlite").joinpath("schema")
    names = sorted(p.name for p in shipped.iterdir() if p.name.endswith(".sql"))
    assert names and names[0] == "0001_init.sql"
    assert Path(str(shipped)).resolve() == MIGRATIONS_DIR.resolve()


async def test_upgrade_from_version_1_backfills_leaderboard(tmp_path: Path) -> None:
    only_first = tmp_path / "migrations"
    only_first.mkdir()
    (only_first / "0001_init.sql").write_text((MIGRATIONS_DIR / "0001_init.sql").read_text())
    path = tmp_path / "old.db"
    old = await SQLiteStore.open(path, migrations_dir=only_first)
    table_id = await running_table(old)
    await old.close()
    with sqlite3.connect(path) as db:  # a result as version 1 wrote it (columns of 0001)
        db.execute("UPDATE game_tables SET status = 'finished' WHERE id = ?", (table_id,))
        db.execute(
            "INSERT INTO match_results (table_id, user_id, guild_id, game, team, team_vp, won, "
            "deals_played, deals_won, deals_won_2vp, card_points, finished_at) "
            "VALUES (?, ?, ?, 'albastini', 0, 5, 1, 4, 3, 1, 250, '2026-01-01T00:00:00Z')",
            (table_id, ALICE, GUILD),
        )
    db.close()
    assert schema_versions(path) == [1]

    new = await SQLiteStore.open(path)
    try:
        page = await new.leaderboard(GUILD, game="albastini")
        assert [(e.user_id, e.matches_won, e.score, e.card_points) for e in page.entries] == [
            (ALICE, 1, 5, 250)
        ]
    finally:
        await new.close()
    assert schema_versions(path)[:2] == [1, 2]


def migrations_up_to(tmp_path: Path, version: int) -> Path:
    """A folder of the shipped migrations up to ``version``: a database made with it is one an
    older release left."""
    folder = tmp_path / "migrations"
    folder.mkdir()
    for old in sorted(MIGRATIONS_DIR.glob("*.sql"))[:version]:
        (folder / old.name).write_text(old.read_text())
    return folder


async def test_upgrade_to_card_points_below_zero_keeps_results_and_their_guards(
    tmp_path: Path,
) -> None:
    """Migration 0007 rebuilds match_results without the CHECK that refused card points below
    0: a database at version 6 keeps its results, its leaderboard totals (counted once), the
    append-only guards and the totals' trigger, and takes a result below 0 after."""
    path = tmp_path / "old.db"
    old_store = await SQLiteStore.open(path, migrations_dir=migrations_up_to(tmp_path, 6))
    try:
        table_id = await running_table(old_store)
        await old_store.finish_table(table_id, [PlayerResult(ALICE, 0, 5, True, 4, 3, 1, 250)])
    finally:
        await old_store.close()
    assert schema_versions(path) == [1, 2, 3, 4, 5, 6]
    with sqlite3.connect(path) as db, pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        db.execute(  # version 6 refused a result below 0 itself
            "INSERT INTO match_results (table_id, user_id, guild_id, game, team, score, won, "
            "deals_played, deals_won, deals_won_big, card_points, finished_at) "
            "VALUES (?, ?, ?, 'albastini', 1, 0, 0, 2, 0, 0, -1, '2026-01-01T00:00:00Z')",
            (table_id, BOB, GUILD),
        )
    db.close()

    new = await SQLiteStore.open(path)
    try:
        known = len(list(MIGRATIONS_DIR.glob("*.sql")))
        assert schema_versions(path) == list(range(1, known + 1))
        assert await new.user_stats(GUILD, ALICE, game="albastini") == PlayerStats(ALICE, 1, 1,
                                    5, 4, 3, 1, 250)
        entries = (await new.leaderboard(GUILD, season=0, game="albastini")).entries
        assert [(e.user_id, e.matches_played, e.card_points) for e in entries] == [
            (ALICE, 1, 250)
        ]
        below = await running_table(new, channel=CHANNEL + 2, people=(BOB,))
        await new.finish_table(below, [PlayerResult(BOB, 1, -6, False, 2, 0, 0, -3)])
        assert (await new.user_stats(GUILD, BOB, game="albastini")).card_points == -3
        entries = (await new.leaderboard(GUILD, game="albastini")).entries
        assert [(e.user_id, e.card_points) for e in entries] == [(ALICE, 250), (BOB, -3)]
    finally:
        await new.close()
    with sqlite3.connect(path) as db:
        for sql in ("UPDATE match_results SET card_points = 0", "DELETE FROM match_results"):
            with pytest.raises(sqlite3.IntegrityError, match="append_only"):
                db.execute(sql)
        indexes = {r[0] for r in db.execute("SELECT name FROM sqlite_schema WHERE type = 'index'")}
    db.close()
    assert {"match_results_board", "match_results_of_user"} <= indexes


async def test_upgrade_to_malayalam_and_russian_keeps_rows_and_takes_the_new_languages(
    tmp_path: Path,
) -> None:
    """Migration 0009 widens the three language CHECKs: a database at version 8 keeps its tables
    and settings, then stores 'ml' and 'ru' for a table, a server and a person, still refuses a
    language nobody speaks, and passes SQLite's integrity check."""
    path = tmp_path / "old.db"
    old_store = await SQLiteStore.open(path, migrations_dir=migrations_up_to(tmp_path, 8))
    try:
        table_id = await running_table(old_store)
        await old_store.set_guild_settings(GUILD, language="sw")
    finally:
        await old_store.close()
    with sqlite3.connect(path) as db, pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        db.execute("UPDATE guild_settings SET language = 'ml'")  # version 8 refused it itself
    db.close()

    new = await SQLiteStore.open(path)
    try:
        assert (await new.load_table(table_id)).table.status == "running"
        assert (await new.guild_settings(GUILD)).language == "sw"
        assert (await new.set_guild_settings(GUILD, language="ml")).language == "ml"
        await new.set_user_language(ALICE, "ru")
        assert await new.user_language(ALICE) == "ru"
        table = await new.create_table(GUILD, CHANNEL + 5, BOB, MODE, language="ru",
                                       game="ass")
        assert table.language == "ru"
    finally:
        await new.close()
    with sqlite3.connect(path) as db:
        for sql in ("UPDATE guild_settings SET language = 'fr'",
                    "UPDATE user_preferences SET language = 'xx'",
                    "UPDATE game_tables SET language = 'de'"):
            with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
                db.execute(sql)
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    db.close()


@pytest.mark.parametrize(
    "content",
    [
        b"this is not a database, just some text" * 100,
        bytes(random.Random(5).getrandbits(8) for _ in range(8192)),
        b"SQLite format 3\x00" + bytes(random.Random(6).getrandbits(8) for _ in range(8192)),
    ],
    ids=["text", "random-bytes", "sqlite-header-then-garbage"],
)
async def test_corrupt_file_is_refused_and_untouched(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "albastini.db"
    path.write_bytes(content)
    with pytest.raises(CorruptDatabase) as err:
        await SQLiteStore.open(path)
    assert str(path) in str(err.value)
    assert path.read_bytes() == content


async def test_closed_store_refuses_use(tmp_path: Path) -> None:
    s = await SQLiteStore.open(tmp_path / "a.db")
    await s.close()
    with pytest.raises(StoreClosed):
        await s.get_table(1)
    await s.close()  # twice is harmless
