"""A database written by the first release (schema 0001-0003, ``tests/data/release_1.sql``)
opens with the current code: the per-game results migration keeps every result and the
leaderboard, and the running match replays to exactly what that release showed. SQLite-only:
that release wrote SQLite files."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

from albastini.games.albastini import RANKS
from albastini.games.albastini import Deal as AlbastiniDeal
from albastini.games.hands import sorted_hand
from albastini.session import TableService
from albastini.store import SQLiteStore
from albastini.timers import ManualClock

DATA = Path(__file__).resolve().parents[1] / "data"
GUILD = 1


def release_db(tmp_path: Path) -> Path:
    path = tmp_path / "release_1.db"
    with sqlite3.connect(path) as db:
        db.executescript((DATA / "release_1.sql").read_text())
    db.close()
    return path


def expected() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "release_1.json").read_text())
    return data


async def test_the_first_release_s_leaderboard_survives_the_upgrade(tmp_path: Path) -> None:
    store = await SQLiteStore.open(release_db(tmp_path))
    try:
        page = await store.leaderboard(GUILD, limit=10, game="albastini")
        rows = [
            [e.user_id, e.matches_played, e.matches_won, e.score, e.deals_played, e.deals_won,
             e.deals_won_big, e.card_points]
            for e in page.entries
        ]  # fmt: skip
        assert rows == expected()["leaderboard"]
        for row in rows:  # the totals agree with the results they sum
            stats = await store.user_stats(GUILD, row[0], game="albastini")
            assert [stats.matches_played, stats.score, stats.card_points] == [
                row[1], row[3], row[7]
            ]  # fmt: skip
        # every deal result keeps its winner and VP, now as game points per team
        finished = await store.load_table(1)
        for deal in finished.deals:
            result = deal.result
            assert result is not None
            assert len(result.game_points) == len(result.card_points)
            if result.winner_team is None:
                assert set(result.game_points) == {0}
            else:
                assert result.game_points[result.winner_team] in (1, 2)
                assert sum(result.game_points) == result.game_points[result.winner_team]
    finally:
        await store.close()


async def test_the_first_release_s_running_match_replays_identically(tmp_path: Path) -> None:
    want = expected()["running"]
    store = await SQLiteStore.open(release_db(tmp_path))
    svc = TableService(
        store, clock=ManualClock(), computer_pause=0.0, deal_pause=0.0, rng=random.Random(1)
    )
    try:
        await svc.start()
        table = svc.get(want["table_id"])
        assert table is not None and table.match is not None
        assert table.game == "albastini"
        assert isinstance(table.match.deal, AlbastiniDeal)  # its view takes history
        assert (table.status, table.deal_no, table.move_no, table.scores(), table.to_act) == (
            want["status"], want["deal_no"], want["move_no"], want["scores"], want["to_act"]
        )  # fmt: skip
        for seat, old in enumerate(want["views"]):
            now = table.match.deal.view(seat, history=True)
            # the same deal, seen the same way (the legal moves now listed sorted, as every
            # game lists its codes, and the hand as a player holds it: by suit, trumps first)
            trumps = [old["trump"]] if old.get("trump") else []
            old = {**old, "legal": sorted(old["legal"]),
                   "moves": sorted(old["moves"], key=lambda m: m["code"]),
                   "hand": sorted_hand(old["hand"], RANKS, trumps)}
            assert {k: now[k] for k in old} == old
        # the lobby is back, the cancelled and finished tables stay closed
        assert svc.table_in_channel(103) is not None
        assert all(svc.table_in_channel(c) is None for c in (100, 101, 104))
        # and play goes on: the person to act makes a legal move
        person = next(s for s in table.seats if s is not None and s.user_id is not None)
        assert person.user_id is not None
        view = table.view_for(person.user_id)
        assert view is not None
        if view["legal"]:
            await svc.act(table.id, person.user_id, table.move_no, view["legal"][0])
            assert table.move_no == want["move_no"] + 1
    finally:
        await svc.close()
        await store.close()
