"""What opening a database checks before the store says it is ready: that the file is an
SQLite database, intact, and writable, and, when it is not writable, why (file, folder or
mount), so the operator reads the cause rather than SQLite's "attempt to write a readonly
database"."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from ..errors import CorruptDatabase, DatabaseReadOnly, StoreError
from .connections import errcode, fetch_on

__all__ = ["check_header", "check_writable", "quick_check", "read_only"]

_SQLITE_MAGIC = b"SQLite format 3\x00"


def check_header(path: Path) -> None:
    """Refuse a file that is not an SQLite database before SQLite is let near it."""
    try:
        with path.open("rb") as f:
            head = f.read(len(_SQLITE_MAGIC))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"cannot read database file {path}: {exc}") from None
    if head and head != _SQLITE_MAGIC:
        raise CorruptDatabase(
            f"{path} is not an SQLite database (wrong header); it was left untouched. "
            "Restore it from a backup or point ALBASTINI_DB at another file."
        )


def quick_check(db: sqlite3.Connection, path: Path) -> None:
    try:
        rows = fetch_on(db, "PRAGMA quick_check")
    except sqlite3.DatabaseError as exc:
        if errcode(exc) not in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
            raise  # not the file's content: locked, read-only... (see SQLiteStore.open)
        raise CorruptDatabase(
            f"database {path} is unreadable ({exc}); it was left untouched. "
            "Restore it from a backup or point ALBASTINI_DB at another file."
        ) from None
    problems = [str(r[0]) for r in rows]
    if problems != ["ok"]:
        raise CorruptDatabase(
            f"database {path} fails its integrity check ({'; '.join(problems[:3])}); "
            "it was left untouched. Restore it from a backup."
        )


def check_writable(db: sqlite3.Connection, path: Path) -> None:
    """Refuse at start a database that cannot be written, instead of saying "ready" and then
    failing every command: SQLite opens a file it may not write read-only without a word, and
    ``BEGIN IMMEDIATE`` succeeds on it; the first write to a page is what fails. This rewrites
    a header field with its own value and rolls back: nothing reaches the file."""
    version = int(fetch_on(db, "PRAGMA user_version")[0][0])
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(f"PRAGMA user_version = {version}")
    finally:
        db.execute("ROLLBACK")


def read_only(path: Path, exc: sqlite3.Error) -> DatabaseReadOnly:
    """The store error for a database SQLite cannot write, naming the likely cause."""
    return DatabaseReadOnly(
        f"database {path} cannot be written: {_why_not_writable(path, exc)}. Make the file and "
        "its folder writable for the user the bot runs as, or point ALBASTINI_DB at another "
        "file; nothing was changed."
    )


def _why_not_writable(path: Path, exc: sqlite3.Error) -> str:
    folder = path.parent
    with_wal = (path, Path(f"{path}-wal"), Path(f"{path}-shm"))
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return f"the file system holding {folder} is mounted read-only"
        for f in with_wal:
            if f.exists() and not os.access(f, os.W_OK):
                st = f.stat()
                return (
                    f"the file is read-only for this user ({f.name}: mode "
                    f"{st.st_mode & 0o777:04o}, owner uid {st.st_uid}; the bot runs as uid "
                    f"{os.geteuid()})"
                )
        if not os.access(folder, os.W_OK):
            return (
                f"the folder {folder} is not writable for this user (uid {os.geteuid()}), and "
                f"SQLite keeps {path.name}-wal and {path.name}-shm beside the database"
            )
    except OSError as err:
        return f"{exc} ({err})"
    return (
        f"{exc} (the permissions look right: is the file immutable (lsattr), or on a "
        "read-only mount?)"
    )
