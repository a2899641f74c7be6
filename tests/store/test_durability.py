"""What the store promises under load and crashes: acknowledged moves survive SIGKILL, the
write-ahead log is checkpointed, a stream of moves lets the event loop run, reads see writes.

The tests taking ``store`` run on both back ends (one transaction for a table and its seats,
a stream of moves letting the loop run, reads seeing writes, a cancelled read). SQLite-only,
by nature: SIGKILL of an SQLite writer (PostgreSQL's is in test_postgres.py), a process that
never closes its store (aiosqlite's thread), and the WAL checkpoints."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from albastini.store import (
    ConflictError,
    InvalidValue,
    NewSeat,
    SQLiteStore,
    Store,
)
from tests.doubles import (
    CHANNEL,
    GUILD,
    HOST,
    MODE,
    ROOT,
    running_table,
)

# ---------------------------------------------------------------- durability against SIGKILL

CRASH_WRITER = textwrap.dedent(
    """
    import asyncio, sys
    from albastini.store import SQLiteStore

    async def main(path):
        store = await SQLiteStore.open(path)
        ids = []
        for channel in range(4):
            table = await store.create_table(1, 100 + channel, 7, {}, game="albastini")
            await store.add_seat(table.id, 0, 7, "Person")
            await store.add_seat(table.id, 1, None, "Computer", "easy")
            await store.start_table(table.id, 0, channel)
            ids.append(table.id)

        async def play(table_id):
            move = 0
            while True:
                move += 1
                person = move % 2 == 0
                await store.append_move(table_id, move, 1, move % 2, "pass",
                                        user_id=7 if person else None, by_computer=not person)
                sys.stdout.write(f"{table_id} {move}\\n")
                sys.stdout.flush()

        await asyncio.gather(*(play(t) for t in ids))

    asyncio.run(main(sys.argv[1]))
    """
)


@pytest.mark.parametrize("attempt", range(2))
async def test_acknowledged_moves_survive_sigkill(tmp_path: Path, attempt: int) -> None:
    path = tmp_path / "crash.db"
    rng = random.Random()
    kill_after = rng.randint(20, 1500)
    proc = subprocess.Popen(
        [sys.executable, "-c", CRASH_WRITER, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        text=True,
    )
    acked: dict[int, int] = {}
    lines = 0
    assert proc.stdout is not None
    try:
        while lines < kill_after:
            line = proc.stdout.readline()
            if not line:
                break
            table_id, move = map(int, line.split())
            acked[table_id] = max(acked.get(table_id, 0), move)
            lines += 1
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        rest, err = proc.communicate(timeout=10)
    assert lines == kill_after, f"writer stopped early: {err}"
    for line in rest.splitlines():  # printed before the kill landed: acknowledged too
        parts = line.split()
        if len(parts) == 2:
            table_id, move = int(parts[0]), int(parts[1])
            acked[table_id] = max(acked.get(table_id, 0), move)

    store = await SQLiteStore.open(path)  # opens cleanly: quick_check passes
    try:
        for table_id, last_acked in acked.items():
            stored = [m.move_no for m in await store.moves(table_id)]
            assert stored == list(range(1, len(stored) + 1)), "the log has a gap"
            assert len(stored) >= last_acked, (
                f"table {table_id}: move {last_acked} was acknowledged but only "
                f"{len(stored)} moves survived (killed after {kill_after} acks)"
            )
    finally:
        await store.close()


def test_a_process_that_never_closes_its_store_still_exits(tmp_path: Path) -> None:
    """An exception path that skips ``close()`` must not leave the process hanging on the
    store's worker threads (aiosqlite's non-daemon thread used to)."""
    script = textwrap.dedent(
        f"""
        import asyncio
        from albastini.store import SQLiteStore

        async def main():
            store = await SQLiteStore.open({str(tmp_path / "x.db")!r})
            await store.create_table(1, 2, 3, {{}}, game="albastini")
            raise SystemExit(3)

        asyncio.run(main())
        """
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", script], cwd=root, timeout=30, check=False)
    assert done.returncode == 3


async def test_create_table_with_seats_is_one_transaction(store: Store) -> None:
    table = await store.create_table(
        GUILD, CHANNEL, HOST, MODE,
        seats=[NewSeat(0, HOST, " Host "), NewSeat(2, None, "Computer", "easy")], game="albastini"
    )
    assert table.status == "lobby"
    seats = await store.seats(table.id)
    assert [(s.seat_no, s.user_id, s.display_name, s.computer_level) for s in seats] == [
        (0, HOST, "Host", None), (2, None, "Computer", "easy")]
    # a refused seat (the same person twice) leaves no table behind and the channel free
    with pytest.raises(ConflictError):
        await store.create_table(
            GUILD, CHANNEL + 1, HOST, MODE, seats=[NewSeat(0, HOST, "A"), NewSeat(1, HOST, "B")],
            game="albastini"
        )
    assert await store.active_table(CHANNEL + 1) is None
    with pytest.raises(InvalidValue):
        await store.create_table(GUILD, CHANNEL + 1, HOST, MODE, seats=[NewSeat(0, None, "C")],
                                 game="albastini")
    assert await store.active_table(CHANNEL + 1) is None


async def test_the_write_ahead_log_is_checkpointed_while_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Commits run on the event loop's thread with SQLite's automatic checkpoint off; the store
    checkpoints on a thread of its own, so the WAL file stays small and nothing is lost."""
    import albastini.store.sqlite.engine as store_module

    path = tmp_path / "albastini.db"
    wal = Path(str(path) + "-wal")

    async def play(every: int) -> int:
        monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", every)
        path.unlink(missing_ok=True)
        wal.unlink(missing_ok=True)
        s = await SQLiteStore.open(path)
        try:
            table_id = await running_table(s)
            for move in range(1, 401):
                await s.append_move(table_id, move, 1, 2, "pass", user_id=None, by_computer=True)
            await asyncio.sleep(0.2)  # the last checkpoint, if one is running
            size = wal.stat().st_size
            assert len(await s.moves(table_id)) == 400
        finally:
            await s.close()
        async with await SQLiteStore.open(path) as again:
            assert len(await again.moves(1)) == 400
        return size

    unchecked = await play(every=10**9)
    checked = await play(every=20)
    # without checkpoints the WAL holds every commit; with them, its high-water mark is a few
    # dozen commits (more on a busy machine, where a checkpoint may start a little late: a 2x
    # margin, not 4x, so the test does not depend on the machine's speed)
    assert checked * 2 < unchecked


async def test_closing_while_checkpoints_are_due_keeps_every_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import albastini.store.sqlite.engine as store_module

    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 1)  # one after every write
    path = tmp_path / "albastini.db"
    s = await SQLiteStore.open(path)
    table_id = await running_table(s)
    await asyncio.gather(*(
        s.append_move(table_id, move, 1, 2, "pass", user_id=None, by_computer=True)
        for move in range(1, 31)
    ), return_exceptions=True)
    await asyncio.wait_for(s.close(), timeout=10)  # no checkpoint left waiting on a lock
    async with await SQLiteStore.open(path) as again:
        moves = [m.move_no for m in await again.moves(table_id)]
    assert moves == list(range(1, len(moves) + 1)) and moves


async def test_a_stream_of_moves_lets_the_event_loop_run(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Moves commit on the event loop's thread while nothing else writes, but at most
    INLINE_BUDGET of commits per turn: a caller appending in a tight loop does not keep the
    loop (and every click waiting on it) to itself."""
    import albastini.store.sqlite.engine as store_module

    # one inline commit per turn, whatever the machine's speed (any commit takes over 1 ns):
    # with a budget of time, a fast machine fits all 200 in a few turns and the test fails
    monkeypatch.setattr(store_module, "INLINE_BUDGET", 1e-9)
    table_id = await running_table(store)
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    try:
        start = ticks
        for move in range(1, 201):
            await store.append_move(table_id, move, 1, 2, "pass", user_id=None, by_computer=True)
        assert ticks - start >= 20  # other tasks ran all along, not only at the end
    finally:
        task.cancel()
    assert len(await store.moves(table_id)) == 200


async def test_a_read_right_after_a_write_sees_it_while_snapshots_are_read(
    store: Store,
) -> None:
    """Reads share one connection (on aiosqlite's thread), and a snapshot is several statements
    in one read transaction. A read must never run inside another caller's snapshot: it would
    see the database as it was when that snapshot began, and a move just stored would look
    missing (the table service reloads a table's log after writing it)."""
    table_id = await running_table(store)
    other = await running_table(store, channel=CHANNEL + 1)
    stop = False

    async def snapshots() -> None:
        while not stop:
            await store.load_table(other)
            await store.leaderboard(GUILD, game="albastini")

    readers = [asyncio.create_task(snapshots()) for _ in range(4)]
    try:
        for move in range(1, 121):
            for _ in range(move % 7):  # the move lands at a different step of the snapshots
                await asyncio.sleep(0)
            await store.append_move(table_id, move, 1, 2, "pass", user_id=None, by_computer=True)
            assert [m.move_no for m in await store.moves(table_id)][-1:] == [move]
            if move % 10 == 0:
                assert (await store.load_table(table_id)).last_move_no == move
    finally:
        stop = True
        await asyncio.gather(*readers)


async def test_a_read_cancelled_half_way_leaves_reading_working(store: Store) -> None:
    """A click whose handler is cancelled (a timeout, a shutdown) while the store reads a
    snapshot must not leave the reading connection inside that snapshot: later reads would
    not see later moves."""
    table_id = await running_table(store)
    for move in range(1, 9):
        task = asyncio.create_task(store.load_table(table_id))
        for _ in range(move):  # cancelled at a different step each time
            await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await store.append_move(table_id, move, 1, 2, "pass", user_id=None, by_computer=True)
        assert (await store.load_table(table_id)).last_move_no == move
        assert [m.move_no for m in await store.moves(table_id)] == list(range(1, move + 1))
