"""The store on PostgreSQL (asyncpg), for a bot whose database is a PostgreSQL server.

- ``store.py``: :class:`PostgresStore`, all the SQL of the :class:`~albastini.store.Store`
  protocol, returning the same records and raising the same errors as the SQLite store;
- ``standings.py``: ratings, seasons and match history;
- ``engine.py``: the connection pool, opening (an unreachable server refused clearly) and
  closing, transactions, and the server's troubles as store errors;
- ``migrations.py``: the schema's migrations, ``schema/*.sql`` (package data), with their
  ``schema_version`` table; a newer schema is refused.
"""

from __future__ import annotations

from .migrations import MIGRATIONS_DIR
from .store import PostgresStore

__all__ = ["MIGRATIONS_DIR", "PostgresStore"]
