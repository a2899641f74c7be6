"""The seam between the store's logic and a back end: what core.py and standings.py ask of
SQLite or PostgreSQL, and nothing more.

The logic of every :class:`~albastini.store.Store` method is written once (core.py,
standings.py), with statements in SQLite's ``?`` placeholders (PostgreSQL's back end numbers
them, :func:`~albastini.store.shared.numbered`). What differs between the two lives in each
back end's ``dialect.py`` and ``engine.py``, behind three things defined here:

- :class:`Tx`: one write transaction, as the logic sees it: statements, and a lock that makes
  transactions of one kind take turns (PostgreSQL's advisory locks; SQLite has one writer, so
  its transactions take turns already). Its calls are coroutines on both back ends: SQLite's
  never suspend (they run on its writer's connection, see ``sqlite/dialect.py``), so one
  transaction's code serves both without a hop per statement on SQLite;
- :class:`Dialect`: the few words of SQL that differ (a row lock, a list parameter), the
  database's time value, and its refusals of a row (:class:`Refusal`: a unique key, a foreign
  key, a trigger) told apart without the logic knowing the driver's exceptions;
- :class:`Backend`: the engine's part: a read, a consistent snapshot, a write transaction, one
  statement, and the group commit of moves (each engine keeps its own connection handling,
  durability and refusals of the database as a whole: locked, read-only, gone).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Protocol, Self, TypeVar

__all__ = ["Backend", "Dialect", "Refusal", "RefusalKind", "Rows", "Tx"]

_T = TypeVar("_T")
#: The rows of a statement, each a tuple (both drivers' rows made tuples).
Rows = list[tuple[Any, ...]]
RefusalKind = Literal["unique", "foreign_key", "trigger", "other"]


@dataclass(frozen=True, slots=True)
class Refusal:
    """A row the database refused: by a unique key (``constraint``: which one, in the back
    end's words, see :attr:`Dialect.channel_taken`), a foreign key, one of the schema's
    triggers (``text`` is then its reason, e.g. ``stale_move``), or another constraint."""

    kind: RefusalKind
    text: str
    constraint: str = ""


class Tx(Protocol):
    """One write transaction of a back end; committed when the function given to
    :meth:`Backend._write` returns, rolled back if it raises. Statements use ``?``."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        """The rows of one statement (a query, or a write with ``RETURNING``)."""
        ...

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per parameter row."""
        ...

    async def lock(self, *key: int) -> None:
        """Wait for, then hold until the transaction ends, the lock named ``key``: the
        transactions taking the same key go one at a time (ratings, a guild's seasons)."""
        ...


class Dialect(Protocol):
    """What differs in the SQL of the back ends' shared statements, and their refusals."""

    #: Appended to the ``SELECT`` of a table's row that a write of that table reads first: a
    #: row lock where writers run side by side, so that one table's writes take turns.
    lock_table: str
    #: Appended to a ``SELECT`` of a row that is read, then updated, in one transaction.
    lock_row: str
    #: The unique key that keeps one table in the lobby or running per channel.
    channel_taken: str

    def now(self) -> Any:
        """Now, as the database keeps a time (to the millisecond, on both)."""
        ...

    def any_of(self, column: str, values: Sequence[int]) -> tuple[str, tuple[Any, ...]]:
        """A condition that ``column`` is one of the 64-bit ``values``, with its parameters."""
        ...

    def refusal(self, exc: BaseException) -> Refusal | None:
        """What ``exc`` refused, if it is the database refusing a row (None: anything else)."""
        ...


class Backend(ABC):
    """The engine under the store's logic: each back end's engine implements these, and the
    store (core.py and standings.py) runs every method through them."""

    dialect: ClassVar[Dialect]

    @abstractmethod
    async def close(self) -> None:
        """Wait for the writes under way, then close every connection."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @abstractmethod
    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        """One query on committed data."""

    @abstractmethod
    async def _snapshot(self, queries: Sequence[tuple[str, Sequence[Any]]]) -> list[Rows]:
        """Several queries in one read transaction: one consistent snapshot."""

    @abstractmethod
    async def _write(self, fn: Callable[[Tx], Coroutine[Any, Any, _T]]) -> _T:
        """``fn`` as one write transaction, committed (durably) before this returns; the
        database's troubles as store errors, a refused row left to the caller (see
        :meth:`Dialect.refusal`)."""

    @abstractmethod
    async def _execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        """One statement as a transaction of its own, committed before this returns."""

    @abstractmethod
    async def _commit_move(self, params: tuple[Any, ...]) -> None:
        """Commit one checked move row (group commit with the moves arriving meanwhile);
        returns once it is committed, raises the store error that refused it."""
