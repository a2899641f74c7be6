"""Fixtures of more than one test package: a real PostgreSQL server that the test session
starts itself on first use (:class:`tests.doubles.PostgresServer`: PostgreSQL 15 binaries, a
Unix socket, run as an unprivileged user), shared by the store tests and the clusters' e2e
test, and a fresh database of it per test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.doubles import PostgresServer


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the whole session (started on first use, stopped at the end)."""
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
async def postgres_dsn(postgres_server: PostgresServer) -> AsyncIterator[str]:
    """A fresh, migrated database of its own for one test; dropped after it."""
    dsn = await postgres_server.database()
    yield dsn
    await postgres_server.drop(dsn)
