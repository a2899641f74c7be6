"""The store on PostgreSQL (asyncpg), for a bot whose database is a PostgreSQL server: what is
PostgreSQL's, under the logic every back end shares (../core.py, ../standings.py).

- ``store.py``: :class:`PostgresStore`, the shared logic over PostgreSQL's engine, returning
  the same records and raising the same errors as the SQLite store;
- ``engine.py``: the connection pool, opening (an unreachable server refused clearly) and
  closing, transactions, group commit of moves, and the server's troubles as store errors;
- ``dialect.py``: PostgreSQL's words (numbered placeholders, row and advisory locks, asyncpg's
  refusals of a row) and the one-statement insert of a group of moves;
- ``migrations.py``: the schema's migrations, ``schema/*.sql`` (package data), with their
  ``schema_version`` table; a newer schema is refused.
"""

from __future__ import annotations

from .migrations import MIGRATIONS_DIR
from .store import PostgresStore

__all__ = ["MIGRATIONS_DIR", "PostgresStore"]
