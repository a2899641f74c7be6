"""``python -m albastini.store.to_postgres``: a bot's SQLite database, made by the table service
(a finished match with its ratings and history, a running table mid-deal, a new season,
settings, a language preference), copied into the test session's real PostgreSQL server and
opened there with :class:`PostgresStore` shows the same; a table service on it resumes the
running table and takes its next move. A target with data, a newer source and an unreachable
server are refused with nothing copied."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from albastini.session import TableService
from albastini.store import PostgresStore, SQLiteStore, Store
from albastini.store.to_postgres import main
from albastini.timers import ManualClock
from tests.doubles import (
    CHANNEL,
    GUILD,
    HOST,
    P2,
    PostgresServer,
    persons_turn,
    play_legal,
    service,
    until,
)


async def copy(argv: list[str]) -> int:
    """The command as an operator runs it (its own event loop, so on a thread here)."""
    return await asyncio.to_thread(main, argv)


async def make_bot_database(path: Path) -> tuple[int, int]:
    """A finished Twenty-Eight match (computers played it out), then a new season, settings,
    a language, and a running Albastini table at move 12 or more: (finished id, running id)."""
    rng = random.Random(5)
    async with service(path) as (svc, store, _rec):
        done = await svc.open_table(GUILD, CHANNEL, HOST, "Host", game="twentyeight",
                                    players=3, computer_level="easy", target=1)  # fmt: skip
        await svc.join(done.id, P2, "Second")
        await svc.fill_computers(done.id, HOST)
        await svc.start_match(done.id, HOST)
        await svc.leave(done.id, HOST)
        await svc.leave(done.id, P2)
        await until(lambda: done.status == "finished", timeout=120)
        await store.start_season(GUILD)
        await store.set_guild_settings(GUILD, turn_time=90, language="sw")
        await store.set_user_language(P2, "en")
        table = await svc.open_table(GUILD, CHANNEL + 1, HOST, "Host", computer_level="easy",
                                     game="albastini")
        await svc.join(table.id, P2, "Second")
        await svc.fill_computers(table.id, HOST)
        await svc.start_match(table.id, HOST)
        clock = svc.clock
        assert isinstance(clock, ManualClock)
        while table.move_no < 12:
            await svc.wait_idle()
            for uid in (HOST, P2):
                if persons_turn(table, uid):
                    await play_legal(svc, table, uid, rng)
                    break
            else:
                await clock.advance(1.0)
        await svc.wait_idle()
        return done.id, table.id


async def shown(store: Store, finished: int) -> dict[str, Any]:
    """Everything the bot shows from a store, for comparison."""
    return {
        "board": await store.leaderboard(GUILD, game="twentyeight", season=0),
        "board_season_1": await store.leaderboard(GUILD, game="twentyeight", season=1),
        "ratings": await store.ratings(GUILD, game="twentyeight", season=0),
        "ratings_season_1": await store.ratings(GUILD, game="twentyeight", season=1),
        "ratings_season_2": await store.ratings(GUILD, game="twentyeight"),
        "rating_all_guilds": await store.user_rating(0, HOST, game="twentyeight"),
        "stats": await store.user_stats(GUILD, P2, game="twentyeight"),
        "history": await store.history(GUILD),
        "season": await store.current_season(GUILD),
        "settings": await store.guild_settings(GUILD),
        "language": (await store.user_language(P2), await store.user_language(HOST)),
        "finished": await store.load_table(finished),
        "unfinished": await store.unfinished_tables(),
    }


def views(svc: TableService, table_id: int) -> dict[int, Any]:
    table = svc.get(table_id)
    assert table is not None
    out = {}
    for uid in (HOST, P2):
        view = table.view_for(uid)
        assert view is not None
        out[uid] = {k: v for k, v in view.items() if k != "names"}
    return out


async def test_a_copied_database_shows_the_same_and_its_running_table_plays_on(
    tmp_path: Path, postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "albastini.db"
    finished, running = await make_bot_database(path)
    lite = await SQLiteStore.open(path)
    svc = TableService(lite, clock=ManualClock(), computer_pause=0.0, deal_pause=0.0)
    try:
        await svc.start()
        want = await shown(lite, finished)
        want_views = views(svc, running)
        want_moves = await lite.moves(running)
    finally:
        await svc.close()
        await lite.close()
    assert want["ratings"].entries and want["history"] and len(want["unfinished"]) == 1

    dsn = await postgres_server.database(migrated=False)  # the copy creates the schema
    try:
        assert await copy(["--from", str(path), "--to", dsn]) == 0
        assert "game_tables 2" in capsys.readouterr().out
        pg = await PostgresStore.open(dsn)
        svc = TableService(pg, clock=ManualClock(), computer_pause=0.0, deal_pause=0.0,
                           rng=random.Random(2))  # fmt: skip
        try:
            assert await shown(pg, finished) == want
            await svc.start()
            assert views(svc, running) == want_views
            table = svc.get(running)
            assert table is not None and table.status == "running"
            clock = svc.clock
            assert isinstance(clock, ManualClock)
            while not any(persons_turn(table, uid) for uid in (HOST, P2)):
                await clock.advance(1.0)
                await svc.wait_idle()
            uid = HOST if persons_turn(table, HOST) else P2
            before = table.move_no
            await play_legal(svc, table, uid)
            moves = await pg.moves(running)
            assert moves[: len(want_moves)] == want_moves and len(moves) > len(want_moves)
            assert moves[-1].move_no == before and moves[-1].user_id == uid  # it is stored
            assert table.move_no == before + 1
            # a new table gets an id past the copied ones
            created = await pg.create_table(GUILD, CHANNEL + 7, HOST, {"players": 2},
                                            game="albastini")
            assert created.id > max(finished, running)
        finally:
            await svc.close()
            await pg.close()
        # a second copy finds data there and refuses, changing nothing
        assert await copy(["--from", str(path), "--to", dsn]) == 1
        assert "already holds data" in capsys.readouterr().err
    finally:
        await postgres_server.drop(dsn)


async def test_a_newer_source_and_an_unreachable_target_are_refused(
    tmp_path: Path, postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "newer.db"
    store = await SQLiteStore.open(path)
    await store.close()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO schema_version VALUES (99, 'future', '2030-01-01T00:00:00+00:00')")
    db.close()
    dsn = await postgres_server.database(migrated=False)
    try:
        assert await copy(["--from", str(path), "--to", dsn]) == 1
        assert "newer version" in capsys.readouterr().err
        missing = tmp_path / "missing.db"
        assert await copy(["--from", str(missing), "--to", dsn]) == 1
        assert "not a file" in capsys.readouterr().err and not missing.exists()
    finally:
        await postgres_server.drop(dsn)
    good = tmp_path / "good.db"
    await (await SQLiteStore.open(good)).close()
    nowhere = f"postgresql://albastini@/x?host={tmp_path}/no-server&port=5432"
    assert await copy(["--from", str(good), "--to", nowhere]) == 1
    assert "cannot reach" in capsys.readouterr().err
