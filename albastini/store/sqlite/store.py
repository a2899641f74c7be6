""":class:`SQLiteStore`: the :class:`~albastini.store.Store` on SQLite (WAL), for one bot process.

Every method's logic is ../core.py's (and ../standings.py's), the same as PostgreSQL's; this
joins it to SQLite's engine (engine.py: connections, write transactions, group commit, WAL
checkpoints, the database's troubles) and, through it, to SQLite's words (dialect.py).
"""

from __future__ import annotations

from ..core import StoreCore
from ..protocol import Store
from .engine import SQLiteEngine

__all__ = ["SQLiteStore"]


class SQLiteStore(SQLiteEngine, StoreCore):
    """The :class:`~albastini.store.Store` on SQLite (WAL). Create with
    ``await SQLiteStore.open(path)``."""


def _conforms(store: SQLiteStore) -> Store:
    return store  # mypy checks here that SQLiteStore implements the Store interface
