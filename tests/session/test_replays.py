"""Deal replays: a finished deal walked step by step with every hand face up, read from the
stored moves and replayed through the game's rules; never a running table's deal."""

from __future__ import annotations

from pathlib import Path

import pytest

from albastini.session import Refusal, TableService
from albastini.store import SQLiteStore
from tests.doubles import CHANNEL, GUILD, HOST, service, until


async def finished_match(svc: TableService, game: str, players: int) -> int:
    table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", game=game, players=players,
                                 computer_level="easy", target=1)  # fmt: skip
    await svc.fill_computers(table.id, HOST)
    await svc.start_match(table.id, HOST)
    await svc.leave(table.id, HOST)
    await until(lambda: table.status != "running", timeout=60)
    return table.id


@pytest.mark.parametrize(("game", "players"), [("albastini", 2), ("twentyeight", 4)])
async def test_a_finished_deal_replays_move_by_move_with_every_hand(
    tmp_path: Path, game: str, players: int
) -> None:
    async with service(tmp_path / "r.db") as (svc, store, _rec):
        table_id = await finished_match(svc, game, players)
        moves = [m for m in await store.moves(table_id) if m.deal_no == 1]
        replay = await svc.deal_replay(table_id, 1, guild_id=GUILD)
    assert (replay.game, replay.deal_no, len(replay.names)) == (game, 1, players)
    assert [s.code for s in replay.steps] == [None] + [m.action for m in moves]
    first, last = replay.steps[0], replay.steps[-1]
    assert all(view["hand"] for view in first.seats)  # every hand face up from the deal
    dealt = sum(len(v["hand"]) for v in first.seats)
    assert dealt > 0 and all(not v["hand"] for v in last.seats)
    assert last.public["phase"] == "finished" and last.public["result"] is not None
    seat_of = [s.seat for s in replay.steps[1:]]
    assert seat_of == [step.public["to_act"] for step in replay.steps[:-1]][: len(seat_of)]


async def test_the_face_down_trump_shows_in_the_bidder_s_view_of_the_replay(tmp_path: Path) -> None:
    async with service(tmp_path / "r.db") as (svc, _store, _rec):
        table_id = await finished_match(svc, "twentyeight", 4)
        replay = await svc.deal_replay(table_id, 1)
    laid = next(i for i, s in enumerate(replay.steps) if (s.code or "").startswith("trump:"))
    step = replay.steps[laid]
    assert step.seat is not None
    card = (step.code or "").partition(":")[2]
    assert step.seats[step.seat]["trump_card"] == card
    assert step.public["trump_card"] is None  # the table did not see it then


async def test_only_deals_of_finished_matches_replay(tmp_path: Path) -> None:
    async with service(tmp_path / "r.db") as (svc, _store, _rec):
        table_id = await finished_match(svc, "albastini", 2)
        for bad in (0, 99, "1"):
            with pytest.raises(Refusal) as exc:
                await svc.deal_replay(table_id, bad)  # type: ignore[arg-type]
            assert exc.value.reason == "bad_value"
        with pytest.raises(Refusal) as exc:
            await svc.deal_replay(table_id, 1, guild_id=GUILD + 1)
        assert exc.value.reason == "table_gone"
        running = await svc.open_table(GUILD, CHANNEL, HOST, "Host", players=2, game="albastini")
        await svc.fill_computers(running.id, HOST)
        await svc.start_match(running.id, HOST)
        for table in (running.id, 12345):
            with pytest.raises(Refusal) as exc:
                await svc.deal_replay(table, 1)
            assert exc.value.reason == "table_gone"


async def test_a_replay_reads_the_store_not_the_service_s_memory(tmp_path: Path) -> None:
    """After a restart the finished table is no longer in memory; its deals still replay."""
    async with service(tmp_path / "r.db") as (svc, _store, _rec):
        table_id = await finished_match(svc, "albastini", 3)
        before = await svc.deal_replay(table_id, 1)
    store = await SQLiteStore.open(tmp_path / "r.db")
    try:
        again = await TableService(store).deal_replay(table_id, 1)
    finally:
        await store.close()
    assert again == before
