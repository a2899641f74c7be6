"""The store's errors, the same for every back end: the message says what was refused and why.

The table service and the Discord layer catch these, never a driver's own exceptions: a back
end maps its driver's errors (locks, read-only files, refused rows) to them.
"""

from __future__ import annotations

__all__ = [
    "ChannelBusy",
    "ConflictError",
    "CorruptDatabase",
    "DatabaseGone",
    "DatabaseReadOnly",
    "InvalidValue",
    "MigrationError",
    "MoveGap",
    "SchemaTooNew",
    "StaleMove",
    "StoreBusy",
    "StoreClosed",
    "StoreError",
    "StoreUnavailable",
    "UnknownSeat",
    "UnknownTable",
    "WrongStatus",
]


class StoreError(Exception):
    """Base of every error the store raises; the message says what was refused and why."""


class CorruptDatabase(StoreError):
    """The database file is not an SQLite database or fails its integrity check."""


class SchemaTooNew(StoreError):
    """The database was written by a newer version of the bot; this code will not touch it."""


class MigrationError(StoreError):
    """A migration file is malformed or failed to apply (the database is left as it was)."""


class StoreClosed(StoreError):
    """The store was used before it was opened or after ``close()``."""


class StoreUnavailable(StoreError):
    """The database cannot take a write now; nothing was written. The Discord layer answers
    "couldn't save, try again" (``error.storage``)."""


class StoreBusy(StoreUnavailable):
    """Another program holds the database's write lock longer than a click can wait."""


class DatabaseGone(StoreUnavailable):
    """The database file was deleted or replaced while the bot ran: writes would be lost, so
    every write is refused until the bot is restarted."""


class DatabaseReadOnly(StoreUnavailable):
    """The database (its file, or the folder where SQLite keeps its -wal and -shm files)
    cannot be written: permissions, a read-only file system, an immutable file."""


class InvalidValue(StoreError, ValueError):
    """A value has the wrong type, is out of range or is malformed; nothing was written."""


class UnknownTable(StoreError, LookupError):
    """No table has this id."""


class UnknownSeat(StoreError, LookupError):
    """The table has no such seat."""


class ConflictError(StoreError):
    """The write conflicts with what is stored (order, status, uniqueness); nothing was written."""


class ChannelBusy(ConflictError):
    """The channel already has a table in the lobby or running."""


class WrongStatus(ConflictError):
    """The table's status does not allow this operation (e.g. a move on a finished table)."""


class StaleMove(ConflictError):
    """A move with this number is already stored: another action got there first."""


class MoveGap(ConflictError):
    """The move number skips ahead of the log; moves are appended as last + 1 only."""
