"""A replay renders every step of a finished deal of each game: within Discord's limits, with
distinct button ids, every hand face up, and the trick buttons landing where a trick ends."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.history._pages import replay_payload, trick_ends
from tests.doubles import GUILD, service
from tests.session.test_replays import finished_match


@pytest.mark.parametrize(("game", "players"), [("albastini", 2), ("twentyeight", 4)])
async def test_every_step_of_a_deal_renders(tmp_path: Path, game: str, players: int) -> None:
    async with service(tmp_path / "r.db") as (svc, _store, _rec):
        table_id = await finished_match(svc, game, players)
        replay = await svc.deal_replay(table_id, 1, guild_id=GUILD)
    ends = trick_ends(replay)
    assert ends and ends[-1] == len(replay.steps) - 1
    for step_no in range(len(replay.steps)):
        payload = replay_payload(replay, step_no, "en")
        content = payload["content"]
        assert len(content) <= 2000 and f"step {step_no} of" in content
        specs = payload["view"].specs
        custom_ids = [s.custom_id for s in specs]
        assert len(set(custom_ids)) == len(custom_ids) and len(specs) <= 25
        payload["view"].to_components()  # rows within Discord's limits
    first = replay_payload(replay, 0, "en")["content"]
    for name in replay.names:
        assert f"\n{name}: " in first
