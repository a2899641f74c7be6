"""Helpers for the table-service tests: a recording listener, a service on a real SQLite store,
and a driver that plays people's seats; run as a module it is the crash test's subprocess."""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

from albastini.events import Acted, Event, TableClosed
from albastini.session import Refusal, Table, TableService
from albastini.store import SQLiteStore, UnknownTable
from albastini.timers import ManualClock

GUILD = 1
CHANNEL = 100
HOST = 10
P2 = 20
P3 = 30


class Recorder:
    """A listener that keeps every event (and the table each came with)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def __call__(self, table: Table, events: list[Event]) -> None:
        self.events.extend(events)

    def of(self, kind: type[Event]) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]

    def clear(self) -> None:
        self.events.clear()


async def until(pred: Callable[[], bool], timeout: float = 15.0) -> None:
    """Poll ``pred`` until it holds (real time only as a safety net)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not pred():
        if loop.time() > end:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.001)


@asynccontextmanager
async def service(
    path: Path, *, clock: ManualClock | None = None, **options: Any
) -> AsyncIterator[tuple[TableService, SQLiteStore, Recorder]]:
    """A started service over a store at ``path``, with a recorder; closes both after."""
    store = await SQLiteStore.open(path)
    options.setdefault("computer_pause", 0.0)
    options.setdefault("deal_pause", 0.0)
    svc = TableService(store, clock=clock or ManualClock(), **options)
    rec = Recorder()
    svc.add_listener(rec)
    try:
        await svc.start()
        yield svc, store, rec
    finally:
        await svc.close()
        await store.close()


async def move_count(store: SQLiteStore, table_id: int) -> int:
    return len(await store.moves(table_id))


def persons_turn(table: Table, user_id: int) -> bool:
    """True when it is ``user_id``'s turn and the service waits for them."""
    seat = table.seat_of(user_id)
    return (
        table.status == "running"
        and seat is not None
        and table.to_act == seat
        and table.turn_deadline is not None
    )


async def play_legal(
    svc: TableService, table: Table, user_id: int, rng: random.Random | None = None
) -> str:
    """``user_id`` makes a legal move (the first, or a random one with ``rng``)."""
    view = table.view_for(user_id)
    assert view is not None and view["legal"], view
    legal = view["legal"]
    code = rng.choice(legal) if rng is not None else legal[0]
    await svc.act(table.id, user_id, table.move_no, code)
    return str(code)


# --------------------------------------------------------------------------- crash driver


async def _drive(db: Path, seed: int) -> None:
    """Play table 1 to its end: people (HOST, P2) move at once with random legal moves,
    computers at pause 0. Prints ``ACK move_no code`` for each committed move, ``DONE`` at the
    end. Resumes whatever state the database is in (the test SIGKILLs this process)."""
    store = await SQLiteStore.open(db)
    svc = TableService(store, computer_pause=0.0, deal_pause=0.0, rng=random.Random(seed))
    done = asyncio.Event()
    changed = asyncio.Event()

    def listener(table: Table, events: list[Event]) -> None:
        for ev in events:
            if isinstance(ev, Acted):
                sys.stdout.write(f"ACK {ev.move_no} {ev.code}\n")
                sys.stdout.flush()
            if isinstance(ev, TableClosed):
                done.set()
        changed.set()

    svc.add_listener(listener)
    try:
        await svc.start()
        await _play_to_the_end(svc, store, seed, done, changed)
        print("DONE", flush=True)
    finally:
        await svc.close()
        await store.close()


async def _play_to_the_end(
    svc: TableService,
    store: SQLiteStore,
    seed: int,
    done: asyncio.Event,
    changed: asyncio.Event,
) -> None:
    try:
        record = await store.get_table(1)
    except UnknownTable:
        record = None
    if record is not None and record.status == "finished":
        return
    table = svc.get(1)
    if table is None:
        table = await svc.open_table(
            GUILD, CHANNEL, HOST, "Host", computer_level="greedy", target=8
        )
    if table.status == "lobby":
        if table.seat_of(P2) is None:
            await svc.join(table.id, P2, "Second")
        if None in table.seats:
            await svc.fill_computers(table.id, HOST)
        await svc.start_match(table.id, HOST)
    rng = random.Random(seed)
    while not done.is_set() and table.status == "running":
        changed.clear()
        for uid in (HOST, P2):
            if persons_turn(table, uid):
                with suppress(Refusal):
                    await play_legal(svc, table, uid, rng)
        if table.status != "running":
            break
        if not any(persons_turn(table, uid) for uid in (HOST, P2)):
            await changed.wait()


if __name__ == "__main__":
    asyncio.run(_drive(Path(sys.argv[1]), int(sys.argv[2])))
