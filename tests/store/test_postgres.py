"""What only the PostgreSQL store has, against a real server the session starts (never a mock):
opening (an unreachable server or a missing database refused clearly, the schema created,
migrated, a newer one refused and left alone), the server going away under a running store,
acknowledged moves surviving SIGKILL of the store's process, several processes appending to
one log, and the database itself refusing to rewrite the log. The behaviour both back ends
share is tested once for both (test_store.py, test_standings.py: the ``store`` fixture)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from albastini.store import (
    MigrationError,
    PlayerResult,
    PostgresStore,
    SchemaTooNew,
    SQLiteStore,
    StaleMove,
    StoreBusy,
    StoreUnavailable,
    is_postgres_url,
    open_store,
)
from albastini.store.postgres import MIGRATIONS_DIR
from tests.doubles import ALICE, BOB, GUILD, ROOT, PostgresServer, running_table


@pytest.fixture
def dsn(postgres_dsn: str) -> str:
    """A fresh database with the current schema (tests/conftest.py)."""
    return postgres_dsn


@pytest.fixture
async def empty_dsn(postgres_server: PostgresServer) -> AsyncIterator[str]:
    """A fresh database without any table."""
    dsn = await postgres_server.database(migrated=False)
    yield dsn
    await postgres_server.drop(dsn)


async def versions(dsn: str) -> list[int]:
    conn = await asyncpg.connect(dsn)
    try:
        return [r[0] for r in await conn.fetch("SELECT version FROM schema_version ORDER BY 1")]
    finally:
        await conn.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ---------------------------------------------------------------- choosing and opening


async def test_open_store_chooses_the_back_end_by_the_form_of_albastini_db(
    dsn: str, tmp_path: Path
) -> None:
    assert is_postgres_url("postgresql://u@h/db") and is_postgres_url("postgres://h/db")
    assert not is_postgres_url("data/albastini.db") and not is_postgres_url(tmp_path / "x")
    pg = await open_store(dsn)
    try:
        assert isinstance(pg, PostgresStore) and await pg.unfinished_tables() == []
    finally:
        await pg.close()
    lite = await open_store(str(tmp_path / "a.db"))
    try:
        assert isinstance(lite, SQLiteStore)
    finally:
        await lite.close()


async def test_an_unreachable_server_is_refused_clearly_and_fast(tmp_path: Path) -> None:
    port = free_port()  # nothing listens there
    loop = asyncio.get_running_loop()
    start = loop.time()
    with pytest.raises(StoreUnavailable, match=r"cannot reach .*127\.0\.0\.1.*refused"):
        await PostgresStore.open(f"postgresql://bot:secret@127.0.0.1:{port}/albastini")
    assert loop.time() - start < 5
    with pytest.raises(StoreUnavailable, match="cannot reach") as refused:
        await PostgresStore.open(f"postgresql://bot@/albastini?host={tmp_path}/no-socket")
    assert "secret" not in str(refused.value)  # a password never reaches a message


async def test_a_missing_database_is_refused_naming_it(postgres_server: PostgresServer) -> None:
    with pytest.raises(StoreUnavailable, match="no_such_db"):
        await PostgresStore.open(postgres_server.dsn("no_such_db"))


async def test_an_empty_database_gets_the_schema_and_reopening_changes_nothing(
    empty_dsn: str,
) -> None:
    store = await PostgresStore.open(empty_dsn)
    table_id = await running_table(store)
    await store.append_move(table_id, 1, 1, 1, "bid:4C", user_id=BOB, by_computer=False)
    await store.close()
    known = len(list(MIGRATIONS_DIR.glob("*.sql")))
    assert await versions(empty_dsn) == list(range(1, known + 1))
    for _ in range(2):
        async with await PostgresStore.open(empty_dsn) as again:
            assert [m.action for m in await again.moves(table_id)] == ["bid:4C"]
    assert await versions(empty_dsn) == list(range(1, known + 1))


async def test_newer_schema_is_refused_and_left_alone(dsn: str) -> None:
    store = await PostgresStore.open(dsn)
    table_id = await running_table(store)
    await store.close()
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute("INSERT INTO schema_version VALUES (99, 'future', now())")
        dump = "SELECT string_agg(t::text, ';' ORDER BY t::text) FROM {} t"
        before = [await conn.fetchval(dump.format(t)) for t in ("schema_version", "game_tables")]
        with pytest.raises(SchemaTooNew, match=r"schema version 99.*newer version"):
            await PostgresStore.open(dsn)
        after = [await conn.fetchval(dump.format(t)) for t in ("schema_version", "game_tables")]
        assert after == before and str(table_id) in after[1]
        # no lock left behind: another session can still migrate (here: nothing to do)
        assert await conn.fetchval("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'") == 0
    finally:
        await conn.close()


async def test_failed_migration_rolls_back_entirely(empty_dsn: str, tmp_path: Path) -> None:
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    (migrations / "0001_init.sql").write_text((MIGRATIONS_DIR / "0001_init.sql").read_text())
    (migrations / "0002_broken.sql").write_text(
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n"
    )
    with pytest.raises(MigrationError, match="0002_broken"):
        await PostgresStore.open(empty_dsn, migrations_dir=migrations)
    assert await versions(empty_dsn) == [1]
    conn = await asyncpg.connect(empty_dsn)
    try:
        assert await conn.fetchval("SELECT to_regclass('half_done')") is None
        assert await conn.fetchval("SELECT to_regclass('game_tables')") is not None
    finally:
        await conn.close()


async def test_upgrade_to_card_points_below_zero_keeps_results(
    empty_dsn: str, tmp_path: Path
) -> None:
    """Migration 0002 drops the CHECK that refused card points below 0 (Ass's sixes are worth
    -1): a database at version 1 keeps its results and totals, and takes a result below 0."""
    only_first = tmp_path / "migrations"
    only_first.mkdir()
    (only_first / "0001_init.sql").write_text((MIGRATIONS_DIR / "0001_init.sql").read_text())
    async with await PostgresStore.open(empty_dsn, migrations_dir=only_first) as old:
        table_id = await running_table(old)
        await old.finish_table(table_id, [PlayerResult(BOB, 1, 5, True, 4, 3, 1, 250)])
    conn = await asyncpg.connect(empty_dsn)
    try:
        with pytest.raises(asyncpg.CheckViolationError):  # version 1 refused it itself
            await conn.execute(
                "INSERT INTO match_results (table_id, user_id, guild_id, game, team, score, "
                "won, deals_played, deals_won, deals_won_big, card_points, finished_at) "
                "VALUES ($1, $2, $3, 'albastini', 0, 0, false, 2, 0, 0, -1, now())",
                table_id,
                ALICE,
                GUILD,
            )
    finally:
        await conn.close()
    async with await PostgresStore.open(empty_dsn) as new:
        known = len(list(MIGRATIONS_DIR.glob("*.sql")))
        assert await versions(empty_dsn) == list(range(1, known + 1))
        below = await running_table(new, channel=7, people=(ALICE,))
        await new.finish_table(below, [PlayerResult(ALICE, 0, -6, False, 2, 0, 0, -3)])
        stats = await new.user_stats(GUILD, ALICE, game="albastini")
        assert (stats.card_points, stats.avg_card_points_per_deal) == (-3, -1.5)
        entries = (await new.leaderboard(GUILD, game="albastini")).entries
        assert [(e.user_id, e.card_points) for e in entries] == [(BOB, 250), (ALICE, -3)]


def test_the_migrations_ship_inside_the_package() -> None:
    from importlib import resources

    files = resources.files("albastini.store.postgres") / "schema"
    assert (files / "0001_init.sql").is_file()


# ---------------------------------------------------------------- the database's own guards


async def test_the_log_cannot_be_rewritten_even_by_hand(dsn: str) -> None:
    store = await PostgresStore.open(dsn)
    try:
        table_id = await running_table(store)
        await store.append_move(table_id, 1, 1, 2, "pass", user_id=None, by_computer=True)
        await store.finish_table(table_id, [PlayerResult(BOB, 1, 5, True, 1, 1, 0, 70)])
    finally:
        await store.close()
    conn = await asyncpg.connect(dsn)
    try:
        for sql in (
            "UPDATE moves SET action = 'forged'",
            "DELETE FROM moves",
            "TRUNCATE moves",
            "DELETE FROM match_results",
            "UPDATE match_results SET won = false",
            "INSERT INTO moves VALUES (1, 2, 1, 2, NULL, 'pass', true, now())",  # finished
        ):
            with pytest.raises(asyncpg.PostgresError):
                await conn.execute(sql)
        assert await conn.fetchval("SELECT action FROM moves") == "pass"
    finally:
        await conn.close()


async def test_two_bot_processes_appending_the_same_move_store_it_once(dsn: str) -> None:
    """Two stores (two pools, as two processes would have) race for every move number of one
    table: each number is stored exactly once, and the loser is told StaleMove."""
    first, second = await PostgresStore.open(dsn), await PostgresStore.open(dsn)
    try:
        table_id = await running_table(first)
        for move in range(1, 21):
            outcomes = await asyncio.gather(
                first.append_move(table_id, move, 1, 2, "pass", user_id=None, by_computer=True),
                second.append_move(table_id, move, 1, 3, "pass", user_id=None, by_computer=True),
                return_exceptions=True,
            )
            assert sum(isinstance(o, StaleMove) for o in outcomes) == 1, outcomes
        assert [m.move_no for m in await second.moves(table_id)] == list(range(1, 21))
    finally:
        await first.close()
        await second.close()


# ---------------------------------------------------------------- the server going away


async def test_a_server_that_stops_refuses_writes_and_the_store_recovers_after() -> None:
    """A server of its own, stopped under a running store: writes are refused with
    StoreUnavailable (nothing acknowledged), and once it is back the same store works."""
    server = PostgresServer()
    try:
        server.start()
        dsn = await server.database()
        store = await PostgresStore.open(dsn)
        try:
            table_id = await running_table(store)
            await store.append_move(table_id, 1, 1, 2, "pass", user_id=None, by_computer=True)
            server.pg_ctl("stop", "-m", "immediate")
            with pytest.raises(StoreUnavailable, match="nothing was written"):
                await store.append_move(table_id, 2, 1, 2, "pass", user_id=None, by_computer=True)
            with pytest.raises(StoreUnavailable):
                await store.moves(table_id)
            server.pg_ctl("start", "-w")
            await store.append_move(table_id, 2, 1, 2, "pass", user_id=None, by_computer=True)
            assert [m.move_no for m in await store.moves(table_id)] == [1, 2]
        finally:
            await store.close()
    finally:
        server.stop()


# ---------------------------------------------------------------- durability against SIGKILL

CRASH_WRITER = textwrap.dedent(
    """
    import asyncio, sys
    from albastini.store import PostgresStore

    async def main(dsn):
        store = await PostgresStore.open(dsn)
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
async def test_acknowledged_moves_survive_sigkill(dsn: str, attempt: int) -> None:
    kill_after = random.Random().randint(20, 800)
    proc = subprocess.Popen(
        [sys.executable, "-c", CRASH_WRITER, dsn],
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
            acked[int(parts[0])] = max(acked.get(int(parts[0]), 0), int(parts[1]))

    async with await PostgresStore.open(dsn) as store:
        assert len(acked) == 4
        for table_id, last_acked in acked.items():
            stored = [m.move_no for m in await store.moves(table_id)]
            assert stored == list(range(1, len(stored) + 1)), "the log has a gap"
            assert len(stored) >= last_acked, (
                f"table {table_id}: move {last_acked} was acknowledged but only "
                f"{len(stored)} moves survived (killed after {kill_after} acks)"
            )


# ---------------------------------------------------------------- group commit


async def test_moves_appended_together_are_committed_together_each_judged_alone(
    dsn: str,
) -> None:
    """Moves of many tables appended at once share one commit (group commit: one INSERT of
    them all); one refused move in the group (a stale number) is refused alone, the others are
    stored, and every caller is answered once its move is committed or refused."""
    store = await PostgresStore.open(dsn)
    batches: list[int] = []
    insert = store._insert_moves

    def counting(conn: Any, batch: list[tuple[Any, ...]]) -> Awaitable[Any]:  # as replaced
        batches.append(len(batch))
        return insert(conn, batch)

    store._insert_moves = counting  # type: ignore[method-assign]
    try:
        ids = [await running_table(store, channel=200 + n) for n in range(20)]
        await store.append_move(ids[0], 1, 1, 2, "pass", user_id=None, by_computer=True)
        batches.clear()
        outcomes = await asyncio.gather(
            *(
                store.append_move(t, 1, 1, 2, "pass", user_id=None, by_computer=True)
                for t in ids  # ids[0] already has move 1: that one is stale
            ),
            return_exceptions=True,
        )
        assert isinstance(outcomes[0], StaleMove)
        assert all(not isinstance(o, BaseException) for o in outcomes[1:]), outcomes
        assert batches[0] == 20  # tried together, then one by one since a row spoiled it
        for t in ids:
            assert [m.move_no for m in await store.moves(t)] == [1]
        batches.clear()
        await asyncio.gather(
            *(store.append_move(t, 2, 1, 3, "pass", user_id=None, by_computer=True) for t in ids)
        )
        assert batches == [20]  # no refusal: one statement, one commit
        assert [len(await store.moves(t)) for t in ids] == [2] * 20
        # two moves of one table in one group (a caller that did not wait): both in order
        await asyncio.gather(
            store.append_move(ids[1], 4, 1, 3, "pass", user_id=None, by_computer=True),
            store.append_move(ids[1], 3, 1, 2, "pass", user_id=None, by_computer=True),
        )
        assert [m.move_no for m in await store.moves(ids[1])] == [1, 2, 3, 4]
    finally:
        await store.close()


# ---------------------------------------------------------------- locked by another program


async def test_a_table_locked_by_another_program_refuses_moves_in_time_on_used_connections(
    dsn: str,
) -> None:
    """A move waits at most the lock timeout for a table row another program holds, on every
    connection of the pool: a connection handed back to the pool and taken again keeps the
    setting (asyncpg's default release sends ``RESET ALL``, which dropped a ``SET`` done when
    the connection opened, and the move then waited for as long as the other program liked)."""
    store = await PostgresStore.open(dsn)
    other = await asyncpg.connect(dsn)
    try:
        tables = [await running_table(store, channel=300 + n) for n in range(12)]
        # every connection of the pool used and handed back, several times
        for move_no in (1, 2):
            await asyncio.gather(
                *(
                    store.append_move(t, move_no, 1, 2, "pass", user_id=None, by_computer=True)
                    for t in tables
                )
            )
        async with other.transaction():
            await other.execute("SELECT id FROM game_tables WHERE id = $1 FOR UPDATE", tables[0])
            for _ in range(2):  # whichever connection takes it
                with pytest.raises(StoreBusy):
                    await asyncio.wait_for(
                        store.append_move(
                            tables[0], 3, 1, 2, "pass", user_id=None, by_computer=True
                        ),
                        3.0,
                    )
                with pytest.raises(StoreBusy):  # the table's other writes alike
                    await asyncio.wait_for(store.set_message_id(tables[0], 555), 3.0)
        await store.append_move(tables[0], 3, 1, 2, "pass", user_id=None, by_computer=True)
        assert [m.move_no for m in await store.moves(tables[0])] == [1, 2, 3]
    finally:
        await other.close()
        await store.close()


async def test_a_move_whose_caller_stops_waiting_harms_no_other_move(dsn: str) -> None:
    """A click that gives up on its move (its deadline passed while the table was locked by
    another program) leaves the store working: the moves of other tables, sent meanwhile and
    after, are stored and answered, and the table's next try goes through once the lock is
    gone. (The group's task used to die answering the caller that had left, and the moves
    gathered behind it were refused as if the store were closed.)"""
    store = await PostgresStore.open(dsn)
    other = await asyncpg.connect(dsn)
    try:
        locked, free = [await running_table(store, channel=400 + n) for n in range(2)]
        async with other.transaction():
            await other.execute("SELECT id FROM game_tables WHERE id = $1 FOR UPDATE", locked)
            stuck = asyncio.ensure_future(
                store.append_move(locked, 1, 1, 2, "pass", user_id=None, by_computer=True)
            )
            await asyncio.sleep(0.3)
            stuck.cancel()
            for move_no in (1, 2, 3):  # while the locked one is still being tried
                await asyncio.wait_for(
                    store.append_move(free, move_no, 1, 2, "pass", user_id=None,
                                      by_computer=True),
                    3.0,
                )
            await asyncio.sleep(2.5)  # the locked move's lock timeout passes
        await store.append_move(free, 4, 1, 2, "pass", user_id=None, by_computer=True)
        await store.append_move(locked, 1, 1, 2, "pass", user_id=None, by_computer=True)
        assert [m.move_no for m in await store.moves(free)] == [1, 2, 3, 4]
        assert [m.move_no for m in await store.moves(locked)] == [1]
    finally:
        await other.close()
        await store.close()
