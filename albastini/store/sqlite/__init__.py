"""The store on SQLite (WAL), for one bot process.

- ``store.py``: :class:`SQLiteStore`, all the SQL of the :class:`~albastini.store.Store` protocol;
- ``rows.py``: the statements write transactions share (a seat, a batch of moves) and the
  triggers' refusals as store errors (the columns read and their records are ../shared.py's);
- ``engine.py``: opening and closing, write transactions and reads on their connections, group
  commit of moves, WAL checkpoints, a locked, deleted, replaced or read-only database;
- ``connections.py``: the writer's :mod:`sqlite3` connection and aiosqlite's for reads and
  checkpoints; ``checks.py``: what opening checks (header, integrity, writable, and why not);
- ``migrations.py``: the schema's migrations, ``schema/*.sql`` (package data).
"""

from __future__ import annotations

from .engine import Synchronous
from .migrations import MIGRATIONS_DIR
from .store import SQLiteStore

__all__ = ["MIGRATIONS_DIR", "SQLiteStore", "Synchronous"]
