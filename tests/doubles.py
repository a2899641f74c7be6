"""The test doubles and helpers every test package shares, in one place.

- the table service on a real SQLite store, a listener that records its events, and helpers
  that play people's seats (``service``, ``Recorder``, ``play_legal``...);
- ``FlakyStore``: a real SQLite store whose chosen methods fail like a full disk would;
- ways an operator or another program can upset the database under a running bot: a second
  process holding SQLite's write lock, and a process that runs without the rights root has (so
  that file permissions apply to it, as they do to a bot run by a normal user);
- ``PostgresServer``: a real PostgreSQL server of the test session's own (PostgreSQL 15's
  ``initdb``/``pg_ctl``/``postgres``, run as ``nobody`` when the tests run as root).

The fake Discord itself is the package ``tests/fakediscord`` (a wire-level server).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from albastini.events import Event
from albastini.session import Table, TableService
from albastini.store import SQLiteStore, Store, StoreError
from albastini.timers import ManualClock

GUILD = 1
CHANNEL = 100
HOST = 10
P2 = 20
P3 = 30


class Recorder:
    """A listener that keeps every event (and the table each came with)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def __call__(self, table: Table, events: list[Event]) -> None:
        self.events.extend(events)

    def of(self, kind: type[Event]) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]

    def clear(self) -> None:
        self.events.clear()


async def until(pred: Callable[[], object], timeout: float = 15.0) -> None:
    """Poll ``pred`` until it holds (real time only as a safety net)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not pred():
        if loop.time() > end:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.001)


@asynccontextmanager
async def service(
    path: Path, *, clock: ManualClock | None = None, **options: Any
) -> AsyncIterator[tuple[TableService, SQLiteStore, Recorder]]:
    """A started service over a store at ``path``, with a recorder; closes both after."""
    store = await SQLiteStore.open(path)
    options.setdefault("computer_pause", 0.0)
    options.setdefault("deal_pause", 0.0)
    svc = TableService(store, clock=clock or ManualClock(), **options)
    rec = Recorder()
    svc.add_listener(rec)
    try:
        await svc.start()
        yield svc, store, rec
    finally:
        await svc.close()
        await store.close()


async def move_count(store: Store, table_id: int) -> int:
    return len(await store.moves(table_id))


def persons_turn(table: Table, user_id: int) -> bool:
    """True when it is ``user_id``'s turn and the service waits for them."""
    seat = table.seat_of(user_id)
    return (
        table.status == "running"
        and seat is not None
        and table.to_act == seat
        and table.turn_deadline is not None
    )


async def play_legal(
    svc: TableService, table: Table, user_id: int, rng: random.Random | None = None
) -> str:
    """``user_id`` makes a legal move (the first, or a random one with ``rng``)."""
    view = table.view_for(user_id)
    assert view is not None and view["legal"], view
    legal = view["legal"]
    code = rng.choice(legal) if rng is not None else legal[0]
    await svc.act(table.id, user_id, table.move_no, code)
    return str(code)


class FlakyStore(SQLiteStore):
    """The real store, except that the next ``fail`` calls of one method raise, as a full disk
    would."""

    fail: dict[str, int]

    def arm(self, method: str, times: int = 1) -> None:
        self.fail = {method: times}

    def _maybe_fail(self, method: str) -> None:
        fail = getattr(self, "fail", {})
        if fail.get(method):
            fail[method] -= 1
            raise StoreError(f"{method}: disk full")

    async def append_move(self, *args: Any, **kwargs: Any) -> Any:
        self._maybe_fail("append_move")
        return await super().append_move(*args, **kwargs)

    async def record_deal_result(self, *args: Any, **kwargs: Any) -> Any:
        self._maybe_fail("record_deal_result")
        return await super().record_deal_result(*args, **kwargs)

    async def finish_table(self, *args: Any, **kwargs: Any) -> Any:
        self._maybe_fail("finish_table")
        return await super().finish_table(*args, **kwargs)


# --------------------------------------------------------------------------- a store with a table

ALICE, BOB, CAROL, DAVE, ERIN = 11, 12, 13, 14, 15
MODE = {"players": 4, "team_size": 2, "target_vp": 5, "turn_time": 60, "computer_level": "easy"}


async def running_table(
    store: Store, channel: int = CHANNEL, people: tuple[int, ...] = (ALICE, BOB)
) -> int:
    """A 4-seat table: the people in seats 0.., computers after them; deal 1 dealt by seat 0."""
    table = await store.create_table(GUILD, channel, HOST, MODE, game="albastini")
    for seat in range(4):
        if seat < len(people):
            await store.add_seat(table.id, seat, people[seat], f"player{seat}")
        else:
            await store.add_seat(table.id, seat, None, f"Computer {seat}", "easy")
    await store.start_table(table.id, 0, 42)
    return table.id


def schema_versions(path: Path) -> list[int]:
    """The schema versions a database file has had applied, in order."""
    with sqlite3.connect(path) as db:
        return [r[0] for r in db.execute("SELECT version FROM schema_version ORDER BY version")]


# --------------------------------------------------------------------------- database faults

ROOT = Path(__file__).resolve().parent.parent
#: The unprivileged user a root test process runs its "normal user" scripts as (nobody).
NOBODY = 65534

_LOCKER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")  # SQLite's write lock (in WAL mode EXCLUSIVE is the same lock)
print("locked", flush=True)
sys.stdin.readline()
db.execute("ROLLBACK")
"""


@contextlib.contextmanager
def write_lock_held_by_another_process(path: Path) -> Iterator[None]:
    """Another process (an operator's ``sqlite3`` shell, a backup script) holds the database's
    write lock until the block ends."""
    proc = subprocess.Popen(
        [sys.executable, "-c", _LOCKER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        assert proc.stdout.readline().strip() == "locked"
        yield
    finally:
        with contextlib.suppress(OSError):
            proc.stdin.write("\n")
            proc.stdin.close()
        proc.wait(timeout=10)


# Root reads and writes any file whatever its mode, so a child run by root drops to ``nobody``
# before it runs the script: then ``chmod`` means to it what it means to a bot run by a normal
# user. It drops its rights only after importing what the script needs (the Python of this
# checkout may live where ``nobody`` cannot read, e.g. under /root), and it runs a readable copy
# of the package (:func:`readable_package`): the store reads its schema files only when it
# opens a database, after the drop.
_DROP_RIGHTS = f"""
import asyncio, concurrent.futures.thread, json, logging, os, sqlite3, sys
import albastini.store
if os.geteuid() == 0:
    os.setgroups([])
    os.setgid({NOBODY})
    os.setuid({NOBODY})
"""


@contextlib.contextmanager
def folder_for_unprivileged() -> Iterator[Path]:
    """A fresh folder the unprivileged child owns (pytest's tmp_path is private to root)."""
    with tempfile.TemporaryDirectory(prefix="albastini-") as tmp:
        folder = Path(tmp)
        if os.geteuid() == 0:
            os.chown(folder, NOBODY, NOBODY)
        try:
            yield folder
        finally:
            # give the folder back its rights, whatever the child left, so it can be removed
            folder.chmod(0o700)
            for f in folder.iterdir():
                with contextlib.suppress(OSError):
                    f.chmod(0o600)


@functools.cache
def readable_package() -> Path:
    """A folder holding a copy of this checkout's ``albastini`` package that every user may
    read, for a child that drops to ``nobody``: a newcomer's checkout may lie in a folder
    only they can enter (a clone under /root, or in ``mktemp -d``), where ``nobody`` could
    not read the package data the child reads after the drop (the store's schema files).
    Removed when the tests end."""
    folder = tempfile.TemporaryDirectory(prefix="albastini-package-")
    _KEPT.append(folder)
    root = Path(folder.name)
    shutil.copytree(ROOT / "albastini", root / "albastini",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for path in [root, *root.rglob("*")]:  # whatever the umask made of the copies
        path.chmod(0o755 if path.is_dir() else 0o644)
    return root


_KEPT: list[tempfile.TemporaryDirectory[str]] = []


def run_unprivileged(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``script`` (Python source; the checkout's package is importable) as a user whom
    file permissions bind: ``nobody`` when the tests run as root, with a copy of the package
    it can read (:func:`readable_package`), else the tests' own user in the checkout."""
    return subprocess.run(
        [sys.executable, "-c", _DROP_RIGHTS + script, *args],
        cwd=readable_package() if os.geteuid() == 0 else ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


# --------------------------------------------------------------------------- a PostgreSQL server

#: Where the PostgreSQL binaries the tests run are looked for (Debian's postgresql package puts
#: them in /usr/lib/postgresql/NN/bin; PG_BINDIR names another folder).
PG_BINDIRS: tuple[str | Path, ...] = (
    "/usr/local/bin", *sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True))
PG_USER = "albastini"


def pg_bindir() -> Path:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``; a clear failure if none."""
    wanted = os.environ.get("PG_BINDIR")
    folders = [Path(wanted)] if wanted else [Path(f) for f in PG_BINDIRS]
    for folder in folders:
        if all((folder / tool).exists() for tool in ("initdb", "pg_ctl", "postgres")):
            return folder
    raise RuntimeError(
        "the store tests run a real PostgreSQL server and found no initdb, pg_ctl and postgres "
        f"in {', '.join(map(str, folders))}: install PostgreSQL 15 (Debian: apt-get install "
        "postgresql) or set PG_BINDIR to the folder of its binaries"
    )


class PostgresServer:
    """A throwaway PostgreSQL server for the tests: its own cluster in a temporary folder, run
    by an unprivileged user (``nobody`` when the tests run as root: postgres refuses root),
    listening only on a Unix socket in that folder, with ``fsync`` on (the store's durability
    is what some tests check). One per test session; each test gets a fresh database copied
    from a migrated template (:meth:`database`)."""

    TEMPLATE = "albastini_template"

    def __init__(self) -> None:
        self.bindir = pg_bindir()
        # under /tmp when it exists: the server's user must reach the folder (a TMPDIR under
        # /root would not let nobody in) and a Unix socket's path must stay short (107 bytes)
        shared = "/tmp" if os.path.isdir("/tmp") else None
        self._tmp = tempfile.TemporaryDirectory(prefix="albastini-pg-", dir=shared)
        self.folder = Path(self._tmp.name)
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.port = 5432  # only a Unix socket: the number names the socket file
        self._count = 0
        self.running = False
        self._template_ready = False

    def _run(self, *argv: str, timeout: float = 120) -> None:
        user = NOBODY if os.geteuid() == 0 else None
        done = subprocess.run(
            [str(self.bindir / argv[0]), *argv[1:]],
            user=user,
            group=user,
            extra_groups=[] if user is not None else None,
            cwd=self.folder,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""
            raise RuntimeError(
                f"{' '.join(argv[:2])} failed ({done.returncode}): {done.stderr.strip()}\n{log}"
            )

    def start(self) -> None:
        if os.geteuid() == 0:
            os.chown(self.folder, NOBODY, NOBODY)
        self._run(
            "initdb", "-D", str(self.data), "-U", PG_USER, "--auth=trust", "-E", "UTF8",
            "--locale=C", "--no-sync",
        )  # fmt: skip
        self.pg_ctl("start", "-w")
        self.running = True

    def pg_ctl(self, action: str, *args: str) -> None:
        """``pg_ctl start|stop|restart`` on this cluster (the tests stop and start it under a
        running store)."""
        options = (
            f"-c listen_addresses='' -c unix_socket_directories='{self.folder}' "
            f"-c port={self.port} -c fsync=on -c synchronous_commit=on "
            "-c max_connections=200 -c shared_buffers=16MB"
        )
        extra = ("-l", str(self.log), "-o", options) if action in ("start", "restart") else ()
        self._run("pg_ctl", action, "-D", str(self.data), *extra, *args, timeout=60)

    def stop(self) -> None:
        if self.running:
            self.running = False
            with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                self.pg_ctl("stop", "-m", "fast")
        self._tmp.cleanup()

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://{PG_USER}@/{database}?host={self.folder}&port={self.port}"

    async def admin(self, *statements: str) -> None:
        """Run statements (CREATE DATABASE and the like) as the cluster's superuser."""
        import asyncpg

        conn = await asyncpg.connect(self.dsn())
        try:
            for sql in statements:
                await conn.execute(sql)
        finally:
            await conn.close()

    async def _prepare_template(self) -> None:
        """The migrated database every test database is copied from (made on first use)."""
        from albastini.store import PostgresStore

        if self._template_ready:
            return
        await self.admin(f"CREATE DATABASE {self.TEMPLATE}")
        store = await PostgresStore.open(self.dsn(self.TEMPLATE))
        await store.close()
        self._template_ready = True

    async def database(self, *, migrated: bool = True) -> str:
        """A fresh database's DSN: a copy of the migrated template, or empty."""
        self._count += 1
        name = f"test_{os.getpid()}_{self._count}"
        if migrated:
            await self._prepare_template()
        template = self.TEMPLATE if migrated else "template0"
        await self.admin(f"CREATE DATABASE {name} TEMPLATE {template}")
        return self.dsn(name)

    async def drop(self, dsn: str) -> None:
        name = dsn.split("?")[0].rsplit("/", 1)[1]
        await self.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
