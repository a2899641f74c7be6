"""A finished deal shown again, step by step, with every hand face up: the stored moves replayed
through the game's own rules (nothing of the state is stored twice). Only deals of finished
matches: a running table keeps its hands hidden."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..store import Store, StoreError
from ..table import Refusal
from .restore import replay_steps, seated

__all__ = ["DealReplay", "ReplayStep", "deal_replay"]


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One state of the deal: as dealt (``seat`` and ``code`` None), then after each move.
    ``public`` is the table as everyone saw it, ``seats`` every seat's own view (its hand, and
    what only it knew, such as a face-down card it laid)."""

    seat: int | None
    code: str | None
    public: dict[str, Any]
    seats: tuple[dict[str, Any], ...]


@dataclass(frozen=True, slots=True)
class DealReplay:
    """Deal ``deal_no`` of ``deals`` of a finished match, its seats' names and its steps."""

    table_id: int
    game: str
    deal_no: int
    deals: int
    names: tuple[str, ...]
    steps: tuple[ReplayStep, ...]


async def deal_replay(
    store: Store, table_id: int, deal_no: int, *, guild_id: int | None = None
) -> DealReplay:
    """The steps of deal ``deal_no`` (1-based) of the finished match ``table_id``.

    Refused with ``table_gone`` unless the table is a finished match (in ``guild_id``, when
    given), with ``bad_value`` for a deal it did not play."""
    gone = Refusal("table_gone", "There is no finished match with that number.", table_id=table_id)
    try:
        snap = await store.load_table(table_id)
    except StoreError:
        raise gone from None
    if snap.table.status != "finished" or (
        guild_id is not None and snap.table.guild_id != guild_id
    ):
        raise gone
    if type(deal_no) is not int or not 1 <= deal_no <= len(snap.deals):
        raise Refusal(
            "bad_value",
            f"That match had deals 1 to {len(snap.deals)}.",
            field="deal_no",
            value=deal_no,
            max=len(snap.deals),
        )
    table = seated(snap)
    steps: list[ReplayStep] = []
    for number, index in replay_steps(table, snap):
        if number < deal_no:
            continue
        if number > deal_no:
            break
        match = table.match
        assert match is not None
        rules = table.rules
        move = snap.moves[index] if index is not None else None
        steps.append(
            ReplayStep(
                None if move is None else table.slots.index(move.seat_no),
                None if move is None else move.action,
                rules.view(match, None),
                tuple(rules.view(match, seat) for seat in range(table.players)),
            )
        )
    return DealReplay(
        table.id, table.game, deal_no, len(snap.deals), tuple(table.names()), tuple(steps)
    )
