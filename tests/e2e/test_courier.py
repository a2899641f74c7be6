"""The courier: the process that draws the table pictures and edits the table messages."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Callable

import pytest

from bot import AlbastiniBot
from cogs.messages import courier as courier_module
from cogs.messages import table_message
from tests.e2e.conftest import (
    assert_clean,
    enabled_moves,
    match_with_computers,
    settle,
    table_of,
)
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser


async def _my_move(fake: FakeDiscord, bot: AlbastiniBot, me: FakeUser, lobby: FakeMessage) -> None:
    """Wait for my turn, then play the first card or bid I may."""
    table = table_of(bot, fake)
    await fake.wait_until(lambda: table.to_act is not None and table.seats[table.to_act].user_id)
    r = await fake.click(me, lobby, label="Show my hand")
    assert r.message is not None
    r = await fake.click(me, r.message, custom_id=enabled_moves(r.message)[0].custom_id)
    assert r.response_type == 7


async def test_table_messages_go_through_the_courier_which_comes_back_after_a_crash(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            courier = bot.publisher.courier
            assert courier is not None and courier.pid not in (None, os.getpid())
            assert os.getpriority(os.PRIO_PROCESS, courier.pid) > os.nice(0)  # yields the CPU
            lobby = await match_with_computers(fake, neema)
            await settle(bot, fake)
            assert lobby.attachments  # the picture, drawn and uploaded by the courier

            first = courier.pid
            assert first is not None
            os.kill(first, signal.SIGKILL)
            await asyncio.sleep(0.2)
            table = table_of(bot, fake)
            moves = table.move_no
            await _my_move(fake, bot, neema, lobby)
            await fake.wait_until(lambda: table.move_no > moves)
            edits = lobby.edits
            bot.publisher.refresh(table.id)
            await settle(bot, fake)
            # a new courier edits the table message, with its picture
            assert courier.pid not in (None, first)
            assert lobby.edits > edits and lobby.attachments
        await asyncio.sleep(0)
        assert courier.pid is None  # stopped with the bot: no process left behind
        assert_clean(fake)


async def test_without_a_courier_the_bot_edits_its_table_messages_itself(
    make_bot: Callable[..., AlbastiniBot],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def cannot_start(self: courier_module.Courier) -> None:
        raise courier_module.CourierGone("no process for you")

    monkeypatch.setattr(courier_module.Courier, "start", cannot_start)
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            assert bot.publisher.courier is None
            lobby = await match_with_computers(fake, neema)
            await _my_move(fake, bot, neema, lobby)
            await settle(bot, fake)
            assert lobby.attachments and "Show my hand" in [b.label for b in lobby.buttons]
        assert "without the courier" in caplog.text
        assert_clean(fake)


async def test_a_courier_that_cannot_start_again_is_given_up_for_the_bot_itself(
    make_bot: Callable[..., AlbastiniBot],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(table_message, "PICTURE_RETRY", 0.05)
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            lobby = await match_with_computers(fake, neema)
            await settle(bot, fake)
            courier = bot.publisher.courier
            assert courier is not None and courier.pid is not None
            # from now on every new courier process fails to start
            monkeypatch.setattr(courier_module, "_first_message", lambda conn: "no luck")
            os.kill(courier.pid, signal.SIGKILL)
            await asyncio.sleep(0.2)
            table = table_of(bot, fake)
            edits = lobby.edits
            await _my_move(fake, bot, neema, lobby)  # its edit fails, and is retried
            await fake.wait_until(lambda: bot.publisher.courier is None, timeout=30)
            await settle(bot, fake)
            assert courier.failed_starts >= table_message.COURIER_STARTS
            # the bot edits the table message itself, picture included
            assert lobby.edits > edits and lobby.attachments
            assert table.move_no > 0 and courier.pid is None
        assert "table messages are now edited by the bot" in caplog.text
        assert fake.failed_interactions == [] and fake.unknown_routes == []
