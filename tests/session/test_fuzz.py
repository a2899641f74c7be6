"""Random clicks, forged numbers and garbage codes against a running table: every refusal changes
nothing, and after every step the stored log replays to exactly the table's state."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from albastini.games.albastini import Deal as AlbastiniDeal
from albastini.games.albastini.cards import PACK
from albastini.session import Refusal, TableService
from albastini.table import Table
from albastini.timers import ManualClock
from tests.doubles import CHANNEL, GUILD, HOST, P2, P3, service

from .test_restart import replayed

REASONS = {
    "no_table",
    "table_exists",
    "not_seated",
    "not_your_turn",
    "stale",
    "illegal",
    "not_host",
    "table_full",
    "already_seated",
    "not_in_lobby",
    "not_running",
    "seats_empty",
    "bad_value",
    "away_only",
    "not_finished",
}
GARBAGE: list[Any] = [
    "",
    "pass ",
    "PLAY:AS",
    "play:",
    "bid:",
    "play:1S",
    "play:AX",
    "fold",
    "play:AS:AS",
    "\x00",
    "play:🂡",
    "x" * 10_000,
    None,
    42,
    ["play:AS"],
]


def random_call(rng: random.Random, svc: TableService, table: Table) -> Any:
    """One random request a careless or malicious client could send."""
    users: list[Any] = [HOST, P2, P3, 0, -1, "10", None, 2**70]
    user = rng.choice(users)
    move_no: Any = rng.choice(
        [table.move_no - 1, table.move_no + 1, 0, -3, None, 2**80, "1", table.move_no]
    )
    kind = rng.random()
    seat = table.to_act
    waiting = table.seats[seat] if seat is not None else None
    if kind < 0.4 and waiting is not None and waiting.user_id is not None:
        # mostly right: the person whose turn it is, with the current number
        view = table.view_for(waiting.user_id) or {}
        legal = list(view.get("legal", []))
        if legal:
            return svc.act(table.id, waiting.user_id, table.move_no, rng.choice(legal))
    if kind < 0.8:
        view = table.view_for(HOST) or {}
        other = table.view_for(P2) or {}
        legal = list(view.get("legal", [])) + list(other.get("legal", []))
        card = rng.choice(PACK).code
        code: Any = rng.choice(
            legal * 3 + [f"play:{card}", f"bid:{card}", "pass", f"play:{card.lower()}"] + GARBAGE
        )
        table_id: Any = table.id if rng.random() < 0.95 else rng.choice([999, -1, None, "1"])
        return svc.act(table_id, user, move_no, code)
    names: list[Any] = ["Mtu", "", "  ", None, "x" * 500]  # wrong types on purpose, as above
    message_ids: list[Any] = [-1, 0, None, "5"]
    calls: list[Callable[[], Any]] = [
        lambda: svc.back(table.id, user),
        lambda: svc.join(table.id, user, rng.choice(names)),
        lambda: svc.add_computer(table.id, user, rng.choice([None, "easy", "nope"])),
        lambda: svc.fill_computers(table.id, user),
        lambda: svc.start_match(table.id, user),
        lambda: svc.cancel(table.id, rng.choice([P2, P3, 0])),
        lambda: svc.rematch(table.id, user),
        lambda: svc.set_message(table.id, rng.choice(message_ids)),
    ]
    return rng.choice(calls)()


@pytest.mark.parametrize("seed", [1, 2])
async def test_random_requests_never_corrupt_a_table(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    clock = ManualClock()
    async with service(
        tmp_path / "fuzz.db",
        clock=clock,
        computer_pause=1.0,
        deal_pause=1.0,
        rng=random.Random(seed),
    ) as (svc, store, _):
        table = await svc.open_table(
            GUILD, CHANNEL, HOST, "Host", target=2, computer_level="random", game="albastini"
        )
        await svc.join(table.id, P2, "Second")
        await svc.fill_computers(table.id, HOST)
        await svc.start_match(table.id, HOST)
        accepted = refused = 0
        for _ in range(250):
            await svc.wait_idle()
            if table.status != "running":
                break
            roll = rng.random()
            if roll < 0.25:
                await clock.advance(rng.choice([1.0, 1.0, 1.0, 30.0, 61.0]))
                continue
            before = len(await store.moves(table.id))
            state = (table.move_no, table.public_view())
            try:
                await random_call(rng, svc, table)
                accepted += 1
            except Refusal as exc:
                refused += 1
                assert exc.reason in REASONS, exc
                assert str(exc)
                assert len(await store.moves(table.id)) == before
                assert (table.move_no, table.public_view()) == state
            await svc.wait_idle()
            snap = await store.load_table(table.id)
            assert [m.move_no for m in snap.moves] == list(range(1, table.move_no))
            if table.match is not None and snap.deals:
                assert isinstance(table.match.deal, AlbastiniDeal)  # its view takes history
                match = replayed(snap)
                assert match.deal.view(None, history=True) == table.match.deal.view(
                    None, history=True
                )
                assert match.scores == table.scores()
        assert accepted >= 10 and refused >= 50, (accepted, refused)
