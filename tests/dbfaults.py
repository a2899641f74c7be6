"""Ways an operator or another program can upset the database under a running bot, for tests.

Real processes and real files: a second process holding SQLite's write lock, and a process
that runs without the rights root has (so that file permissions apply to it, as they do to a
bot run by a normal user).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

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
# checkout may live where ``nobody`` cannot read, e.g. under /root).
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


def run_unprivileged(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``script`` (Python source; the checkout is importable) as a user whom file
    permissions bind: ``nobody`` when the tests run as root, else the tests' own user."""
    return subprocess.run(
        [sys.executable, "-c", _DROP_RIGHTS + script, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
