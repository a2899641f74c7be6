"""The crash test's subprocess: plays table 1 of a database to its end, printing every move it
commits, resuming whatever state the database is in (tests/session/test_restart.py SIGKILLs it).

    python -m tests.session.crash_driver <database> <seed>
"""

from __future__ import annotations

import asyncio
import random
import sys
from contextlib import suppress
from pathlib import Path

from albastini.events import Acted, Event, TableClosed
from albastini.session import Refusal, Table, TableService
from albastini.store import SQLiteStore, UnknownTable

from ..doubles import CHANNEL, GUILD, HOST, P2, persons_turn, play_legal


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
            GUILD, CHANNEL, HOST, "Host", computer_level="greedy", target=8, game="albastini"
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
