""":class:`PostgresStore`: the :class:`~albastini.store.Store` on PostgreSQL (asyncpg).

Every method's logic is ../core.py's (and ../standings.py's), the same as SQLite's, so both
return the same records and raise the same errors for the same input; this joins it to
PostgreSQL's engine (engine.py: the pool, transactions, group commit, the server's troubles)
and, through it, to PostgreSQL's words (dialect.py: numbered placeholders, row and advisory
locks, asyncpg's refusals).
"""

from __future__ import annotations

from ..core import StoreCore
from ..protocol import Store
from .engine import PostgresEngine

__all__ = ["PostgresStore"]


class PostgresStore(PostgresEngine, StoreCore):
    """The :class:`~albastini.store.Store` on PostgreSQL. Create with
    ``await PostgresStore.open("postgresql://user@host/db")``."""


def _conforms(store: PostgresStore) -> Store:
    return store  # mypy checks here that PostgresStore implements the Store interface
