"""Writes ``release_1.sql`` and ``release_1.json``: a database as the first release wrote it
(schema 0001-0003, commit f135ae6) and what that release showed from it.

Run once, at that release: ``python -m tests.data.make_release_db``. Re-running it on newer code
writes a newer database, so the fixture is kept as it was written; the test
``tests/store/test_migrations.py`` opens it with the current code.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from albastini.session import TableService
from albastini.store import SQLiteStore
from albastini.timers import ManualClock

HERE = Path(__file__).resolve().parent
GUILD = 1
PEOPLE = (10, 20, 30)


async def _play(svc: TableService, clock: ManualClock, table_id: int, rng: random.Random,
                moves: int | None) -> None:
    """People play random legal moves, computers think; stop after ``moves`` moves or the end."""
    table = svc.get(table_id)
    assert table is not None
    made = 0
    while table.status == "running" and (moves is None or made < moves):
        await svc.wait_idle()
        for uid in PEOPLE:
            seat = table.seat_of(uid)
            if seat is not None and table.to_act == seat and table.turn_deadline is not None:
                view = table.view_for(uid)
                assert view is not None
                await svc.act(table.id, uid, table.move_no, rng.choice(view["legal"]))
                made += 1
                break
        else:
            await clock.advance(1.0)
        await svc.wait_idle()


def _views(svc: TableService, table_id: int) -> dict[str, Any]:
    table = svc.get(table_id)
    assert table is not None and table.match is not None
    deal = table.match.deal
    return {
        "status": table.status,
        "deal_no": table.deal_no,
        "move_no": table.move_no,
        "scores": table.scores(),
        "to_act": table.to_act,
        "views": [deal.view(seat, history=True) for seat in range(table.players)],
    }


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "release.db"
        store = await SQLiteStore.open(path)
        clock = ManualClock()
        svc = TableService(store, clock=clock, computer_pause=0.0, deal_pause=0.0,
                           rng=random.Random(7))
        await svc.start()
        rng = random.Random(11)
        # 1: a finished 4-player match (pairs), two people and two computers.
        t = await svc.open_table(GUILD, 100, 10, "Asha", players=4, target=2,
                                 computer_level="greedy")
        await svc.join(t.id, 20, "Baraka")
        await svc.fill_computers(t.id, 10)
        await svc.start_match(t.id, 10)
        await _play(svc, clock, t.id, rng, None)
        # 2: a finished 3-player match, all three people.
        t = await svc.open_table(GUILD, 101, 20, "Baraka", players=3, target=1)
        await svc.join(t.id, 10, "Asha")
        await svc.join(t.id, 30, "Chausiku")
        await svc.start_match(t.id, 20)
        await _play(svc, clock, t.id, rng, None)
        # 3: a running 2-player match, past its first deal, in the middle of a deal.
        t = await svc.open_table(GUILD, 102, 30, "Chausiku", players=2, target=5,
                                 computer_level="random")
        await svc.add_computer(t.id, 30)
        await svc.start_match(t.id, 30)
        running = t.id
        while t.deal_no < 2:
            await _play(svc, clock, t.id, rng, 1)
        await _play(svc, clock, t.id, rng, 5)
        # 4: a lobby; 5: a cancelled lobby.
        await svc.open_table(GUILD, 103, 10, "Asha", players=5)
        t = await svc.open_table(GUILD, 104, 20, "Baraka", players=6)
        await svc.cancel(t.id, 20)
        await store.set_guild_settings(GUILD, turn_time=90, target_vp=3, language="sw")
        await store.set_user_language(20, "en")
        expected = {
            "running": {"table_id": running, **_views(svc, running)},
            "leaderboard": [
                [e.user_id, e.matches_played, e.matches_won, e.vp, e.deals_played,
                 e.deals_won, e.deals_won_2vp, e.card_points]
                for e in (await store.leaderboard(GUILD, limit=10)).entries
            ],
        }
        await svc.close()
        await store.close()
        with sqlite3.connect(path) as db:
            dump = "\n".join(db.iterdump())
    (HERE / "release_1.sql").write_text(dump + "\n")
    (HERE / "release_1.json").write_text(json.dumps(expected, indent=1) + "\n")


if __name__ == "__main__":
    asyncio.run(main())
