"""Small checks and helpers the parts of the table service share: ids, names, ranges, seats,
the settings a table stores, and the callback that reports a failed background task."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ..store import LANGUAGES, StoreUnavailable
from ..table import Refusal, SeatInfo, Table

log = logging.getLogger("albastini.session")

TURN_TIME_RANGE = (15, 600)
TARGET_RANGE = (1, 21)
NAME_MAX = 100
ID_MAX = 2**63 - 1

__all__ = [
    "LANGUAGES",
    "NAME_MAX",
    "TARGET_RANGE",
    "TURN_TIME_RANGE",
    "check_range",
    "clean_name",
    "free_slot",
    "is_id",
    "retrieve",
    "seat_info",
    "stored_settings",
    "trailing_number",
]


def is_id(value: object) -> bool:
    """Whether ``value`` is a Discord id (a positive 64-bit int, never a bool or a string)."""
    return type(value) is int and 0 < value <= ID_MAX


def retrieve(task: asyncio.Future[None]) -> None:
    """Done-callback of the service's tasks: a failure nobody awaited is logged once."""
    if not task.cancelled():
        exc = task.exception()
        if isinstance(exc, StoreUnavailable):
            return  # said by _locked, without a traceback: the store is refusing writes
        if exc is not None and not isinstance(exc, Refusal):
            log.error("table task failed", exc_info=exc)


def seat_info(table: Table, seat: int) -> SeatInfo:
    """The seat ``seat`` of a running table (always taken)."""
    info = table.seats[seat]
    assert info is not None
    return info


def free_slot(table: Table) -> int:
    """The first empty lobby slot; Refusal ``table_full`` when there is none."""
    for i, s in enumerate(table.seats):
        if s is None:
            return i
    raise Refusal("table_full", "Every seat is taken.")


def trailing_number(name: str) -> int | None:
    """The number a computer seat's name ends with ("2", or "Computer 2" from before)."""
    digits = len(name) - len(name.rstrip("0123456789"))
    return int(name[-digits:]) if digits else None


def clean_name(name: object) -> str:
    """A display name, trimmed; Refusal ``bad_value`` when empty."""
    if not isinstance(name, str) or not name.strip():
        raise Refusal("bad_value", "A name cannot be empty.", field="name")
    return name.strip()[:NAME_MAX]


def check_range(field: str, value: object, lo: int, hi: int, unit: str) -> None:
    """Refusal ``bad_value`` unless ``value`` is None or an int in ``lo..hi``."""
    if value is None:
        return
    if type(value) is not int or not lo <= value <= hi:
        raise Refusal(
            "bad_value",
            f"The {field.replace('_', ' ')} must be from {lo} to {hi} {unit}.",
            field=field,
            value=value,
            min=lo,
            max=hi,
        )


def stored_settings(
    table: Table, seating: list[int] | None = None, team_of: list[int] | None = None
) -> dict[str, Any]:
    """The settings the store keeps with a table (and once running, ``seating``: the lobby slot
    of each seat, and ``team_of``: the side of each seat, so the history can show the sides
    without the game's rules)."""
    out: dict[str, Any] = {
        "players": table.players,
        "team_size": table.team_size,
        "target": table.target,
        "turn_time": table.turn_time,
        "computer_level": table.computer_level,
        "host_id": table.host_id,
    }
    if table.options:
        out["options"] = dict(table.options)
    if table.thread_id is not None:
        out["thread_id"] = table.thread_id
    if table.interactions_only:
        out["interactions_only"] = True
    if seating is not None:
        out["seating"] = seating
    if team_of is not None:
        out["team_of"] = team_of
    return out
