"""The store when the database misbehaves under it: locked by another process, deleted or
replaced, read-only. Real SQLite files and real processes (see tests/doubles.py). SQLite-only:
these are an SQLite file's troubles; a PostgreSQL server stopped under the store is in
test_postgres.py."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import sqlite3
import textwrap
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from albastini.store import (
    CorruptDatabase,
    DatabaseGone,
    DatabaseReadOnly,
    SQLiteStore,
    StoreBusy,
    StoreUnavailable,
)
from tests import doubles
from tests.doubles import (
    folder_for_unprivileged,
    run_unprivileged,
    running_table,
    write_lock_held_by_another_process,
)

#: An upper bound only (Discord's 3 s for the first answer): the store must refuse well before.
DISCORD_DEADLINE = 3.0


class Ticker:
    """A task that counts turns of the event loop: it stops counting while the loop is stuck."""

    def __init__(self) -> None:
        self.ticks = 0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            self.ticks += 1
            await asyncio.sleep(0.005)

    def __enter__(self) -> Ticker:
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()


@pytest.fixture(params=["NORMAL", "FULL"])
async def opened(
    tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[tuple[SQLiteStore, int]]:
    """A store with a running table and one move; both writers: on the event loop's thread
    (synchronous=NORMAL) and on a thread of its own (FULL)."""
    s = await SQLiteStore.open(tmp_path / "albastini.db", synchronous=request.param)
    table_id = await running_table(s)
    await s.append_move(table_id, 1, 1, 2, "pass", user_id=None, by_computer=True)
    yield s, table_id
    await s.close()


async def move(store: SQLiteStore, table_id: int, move_no: int) -> None:
    await store.append_move(table_id, move_no, 1, 2, "pass", user_id=None, by_computer=True)


# ---------------------------------------------------------------- locked by another process


async def test_a_locked_database_refuses_moves_without_stalling_the_event_loop(
    opened: tuple[SQLiteStore, int],
) -> None:
    """Issue 18 item 3: another process held the write lock for 12 s and every write waited
    (busy_timeout) on the event loop's thread, so clicks went unanswered. Now the move is
    refused with StoreBusy in time to answer the click, the loop runs meanwhile, reads answer,
    and writing works again as soon as the lock is released."""
    store, table_id = opened
    with write_lock_held_by_another_process(store.path), Ticker() as ticker:
        before = ticker.ticks
        with pytest.raises(StoreBusy, match="another program"):
            await asyncio.wait_for(move(store, table_id, 2), DISCORD_DEADLINE)
        assert ticker.ticks - before >= 5, "the event loop stood still while the store waited"
        # reads do not wait behind the lock, and the refused move changed nothing
        assert [m.move_no for m in await store.moves(table_id)] == [1]
        with pytest.raises(StoreBusy):  # other writes are refused the same way
            await asyncio.wait_for(store.set_user_language(7, "sw"), DISCORD_DEADLINE)
    await move(store, table_id, 2)  # no restart needed
    await store.set_user_language(7, "sw")
    assert [m.move_no for m in await store.moves(table_id)] == [1, 2]
    assert await store.user_language(7) == "sw"


async def test_a_queue_of_writes_behind_a_lock_is_refused_within_the_deadline(
    tmp_path: Path,
) -> None:
    """A click may wait behind other writes (computer players' moves, a seat update): all of
    them together must be refused in time, not one wait after another."""
    store = await SQLiteStore.open(tmp_path / "albastini.db")
    try:
        tables = [await running_table(store, channel=100 + i) for i in range(3)]
        with write_lock_held_by_another_process(store.path):
            writes = [move(store, t, 1) for t in tables]
            writes += [store.set_user_language(u, "en") for u in range(1, 7)]
            results = await asyncio.wait_for(
                asyncio.gather(*writes, return_exceptions=True), DISCORD_DEADLINE
            )
        assert all(isinstance(r, StoreBusy) for r in results), results
        for t in tables:
            assert await store.moves(t) == []
        await move(store, tables[0], 1)
    finally:
        await store.close()


# ---------------------------------------------------------------- deleted or replaced


@pytest.fixture
def errors(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    with caplog.at_level(logging.ERROR, logger="albastini.store"):
        yield caplog


@pytest.mark.parametrize("how", ["deleted", "replaced"])
async def test_a_database_file_deleted_or_replaced_under_the_bot_refuses_moves(
    opened: tuple[SQLiteStore, int],
    tmp_path: Path,
    errors: pytest.LogCaptureFixture,
    how: str,
) -> None:
    """Issue 18 item 6: the file was deleted while the bot ran, and 93 more moves were
    acknowledged into the unlinked file and lost at restart. A file put in its place (a restore
    from a backup) is the same case: the moves would not be in the file the path names."""
    store, table_id = opened
    if how == "deleted":
        store.path.unlink()
    else:
        backup = tmp_path / "backup.db"
        with sqlite3.connect(backup) as other:
            other.execute("CREATE TABLE t (x)")
        other.close()
        os.replace(backup, store.path)
    for move_no in (2, 2, 2):  # the person clicks again
        with pytest.raises(DatabaseGone, match=str(store.path)):
            await move(store, table_id, move_no)
    with pytest.raises(DatabaseGone):
        await store.set_user_language(7, "sw")
    assert [m.move_no for m in await store.moves(table_id)] == [1]
    said = [r for r in errors.records if str(store.path) in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.ERROR, errors.text
    assert how in said[0].getMessage()


# ---------------------------------------------------------------- read-only


READ_ONLY_EPISODE = textwrap.dedent(
    """
    import asyncio, json, logging, os, sys
    from pathlib import Path
    import albastini.store.sqlite.engine as store_module
    from albastini.store import SQLiteStore

    failures = []

    class Failures(logging.Handler):
        def emit(self, record):
            failures.append(record.getMessage())

    logging.getLogger("albastini.store").addHandler(Failures())
    store_module.CHECKPOINT_EVERY = 10

    async def main(folder):
        path = folder / "albastini.db"
        files = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]
        store = await SQLiteStore.open(path)
        table = await store.create_table(1, 2, 3, {}, game="albastini")
        for seat in range(2):
            await store.add_seat(table.id, seat, None, "Computer", "easy")
        await store.start_table(table.id, 0, 1)
        n = 0

        async def play(count):
            nonlocal n
            for _ in range(count):
                n += 1
                await store.append_move(table.id, n, 1, 0, "pass", user_id=None, by_computer=True)
            await asyncio.sleep(0.3)  # the checkpoint asked for, if any, runs
            return os.path.getsize(files[1])

        out = {}
        await play(3)
        for f in files:
            f.chmod(0o444)
        folder.chmod(0o555)
        await play(25)  # checkpoints due while the database is read-only
        folder.chmod(0o755)
        for f in files:
            f.chmod(0o644)
        out["failed_before"] = len(failures)
        out["wal_after"] = await play(60)
        out["wal_later"] = await play(60)
        out["failures"] = failures
        await store.close()
        print(json.dumps(out))

    asyncio.run(main(Path(sys.argv[1])))
    """
)


def test_checkpoints_recover_after_a_read_only_episode() -> None:
    """Issue 18 item 7: after the database was read-only for a while, every WAL checkpoint kept
    failing until a restart and the WAL grew (0.8 -> 4.2 MB).

    Reproduction: the database file, its -wal and -shm and their folder are made read-only
    (chmod) under a running store, while checkpoints fall due, then writable again. An open file
    stays writable, so the moves go on, but the checkpoint connection opened the WAL only at its
    first checkpoint, which then happened read-only, and SQLite keeps a file it opened
    read-only read-only. Root ignores file modes, so the store runs in a child process as
    ``nobody`` (tests/doubles.py)."""
    with folder_for_unprivileged() as folder:
        done = run_unprivileged(READ_ONLY_EPISODE, str(folder))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["failures"][out["failed_before"] :] == [], "checkpoints still fail"
    assert out["wal_later"] <= out["wal_after"], "the WAL keeps growing"


STARTS_READ_ONLY = textwrap.dedent(
    """
    import asyncio, json, sys
    from pathlib import Path
    from albastini.store import SQLiteStore

    async def main(folder, case):
        path = folder / "albastini.db"
        store = await SQLiteStore.open(path)
        await store.create_table(1, 2, 3, {}, game="albastini")
        await store.close()  # a clean stop: the -wal and -shm files are gone
        if case in ("file", "both"):
            path.chmod(0o444)
        if case in ("folder", "both"):
            folder.chmod(0o555)
        try:
            store = await SQLiteStore.open(path)
        except Exception as exc:
            print(json.dumps({"error": type(exc).__name__, "text": str(exc)}))
            return
        try:
            await store.create_table(1, 5, 3, {}, game="albastini")
            print(json.dumps({"error": None, "text": "wrote"}))
        except Exception as exc:
            print(json.dumps({"error": "write " + type(exc).__name__, "text": str(exc)}))

    asyncio.run(main(Path(sys.argv[1]), sys.argv[2]))
    """
)


@pytest.mark.parametrize(
    ("case", "cause"),
    [("file", "file is read-only"), ("folder", "folder"), ("both", "read-only")],
)
def test_starting_on_a_read_only_database_is_refused_with_the_real_cause(
    case: str, cause: str
) -> None:
    """A read-only file used to open ("ready to play") and then fail every command; a
    read-only folder was called "unreadable... restore it from a backup". Both are refused at
    start, naming permissions as the cause. Root ignores file modes, so this runs as
    ``nobody`` (tests/doubles.py)."""
    with folder_for_unprivileged() as folder:
        done = run_unprivileged(STARTS_READ_ONLY, str(folder), case)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["error"] == DatabaseReadOnly.__name__, out
    assert cause in out["text"] and "backup" not in out["text"], out["text"]
    assert issubclass(DatabaseReadOnly, StoreUnavailable)
    assert not issubclass(DatabaseReadOnly, CorruptDatabase)


@pytest.mark.skipif(os.geteuid() != 0, reason="only a child of root drops to nobody")
def test_a_checkout_only_root_can_enter_still_runs_the_unprivileged_child(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A newcomer working as root may clone into a folder only root can enter (under /root,
    or made by ``mktemp -d``): the child that drops to ``nobody`` must still read the store's
    schema files, which it opens after the drop. It runs a copy of the package that anyone
    may reach and read, wherever the checkout lies."""
    private = tmp_path / "clone"
    private.mkdir(mode=0o700)
    shutil.copytree(doubles.ROOT / "albastini", private / "albastini",
                    ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(doubles, "ROOT", private)
    doubles.readable_package.cache_clear()
    try:
        done = run_unprivileged(
            "from albastini.store.sqlite.migrations import MIGRATIONS_DIR, load_migrations\n"
            "print(len(load_migrations(MIGRATIONS_DIR)), MIGRATIONS_DIR)\n"
        )
    finally:
        doubles.readable_package.cache_clear()
    assert done.returncode == 0, done.stderr
    count, folder = done.stdout.split()
    assert int(count) >= 1
    schema = Path(folder)
    for above in [schema, *schema.parents]:
        assert above.stat().st_mode & 0o005 == 0o005, above  # anyone may enter and list it
