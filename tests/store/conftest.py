"""The store every test of this package opens: a real SQLite file under tmp_path."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from albastini.store import SQLiteStore


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLiteStore]:
    s = await SQLiteStore.open(tmp_path / "db" / "albastini.db")
    yield s
    await s.close()
