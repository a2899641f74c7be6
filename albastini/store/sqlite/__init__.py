"""The store on SQLite (WAL), for one bot process: what is SQLite's, under the logic every back
end shares (../core.py, ../standings.py).

- ``store.py``: :class:`SQLiteStore`, the shared logic over SQLite's engine;
- ``engine.py``: opening and closing, write transactions and reads on their connections, group
  commit of moves, WAL checkpoints, a locked, deleted, replaced or read-only database;
- ``dialect.py``: SQLite's words (a write transaction's statements, run whole where the writer
  runs; its refusals of a row) and the batch insert of moves;
- ``connections.py``: the writer's :mod:`sqlite3` connection and aiosqlite's for reads and
  checkpoints; ``checks.py``: what opening checks (header, integrity, writable, and why not);
- ``migrations.py``: the schema's migrations, ``schema/*.sql`` (package data).
"""

from __future__ import annotations

from .engine import Synchronous
from .migrations import MIGRATIONS_DIR
from .store import SQLiteStore

__all__ = ["MIGRATIONS_DIR", "SQLiteStore", "Synchronous"]
