"""A table played in a thread of its own, on a fake Discord that has threads as Discord does
(started from a message, whose id the thread takes; Create Public Threads and Send Messages in
Threads needed; archived by an edit, opened again by any message).

The lobby (then the table message) stays in the channel, with the thread under it; the turn
notices and the deal summaries go to the thread; the match's end is posted beside the table
message, and the thread is archived once the table closes. Commands typed in the thread find
the table. A restart keeps the thread. Without the permissions, /albastini start thread:True
is refused, saying which.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot import AlbastiniBot
from cogs.games import GAME_NAMES
from cogs.i18n import t
from tests.doubles import persons_turn
from tests.e2e.conftest import assert_cards, assert_clean, press_start, settle, table_of
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.models import CREATE_PUBLIC_THREADS

#: The fewest players of each game, so that its deals are short.
PLAYERS = {"albastini": 2, "twentyeight": 3, "cassino": 2, "ass": 2}


async def play_until(bot: AlbastiniBot, fake: FakeDiscord, user: FakeUser,
                     done: Callable[[], bool]) -> None:
    """``user`` makes their first legal move at each of their turns until ``done()``."""
    table = table_of(bot, fake)
    while not done():
        await fake.wait_until(lambda: done() or persons_turn(table, user.id), timeout=30)
        if done():
            return
        view = table.view_for(user.id)
        await bot.service.act(table.id, user.id, table.move_no, view["legal"][0])


async def open_in_thread(fake: FakeDiscord, host: FakeUser, game: str,
                         **options: Any) -> FakeMessage:
    """``host`` opens a table of ``game`` with computers and presses Start; the lobby message."""
    r = await fake.slash(host, "albastini start", game=game, players=PLAYERS[game],
                         computers=True, **options)
    assert r.response_type == 4 and not r.ephemeral, r.message and r.message.text
    lobby = r.message
    assert lobby is not None
    await press_start(fake, host, lobby)
    await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"), timeout=10)
    return lobby


@pytest.mark.parametrize("game", GAME_NAMES)
async def test_a_table_is_played_in_its_thread(
    make_bot: Callable[..., AlbastiniBot], game: str
) -> None:
    async with FakeDiscord() as fake:
        ana = fake.add_user("Ana")
        async with fake.run_bot(make_bot()) as bot:
            lobby = await open_in_thread(fake, ana, game, thread=True)
            (thread,) = fake.threads()
            assert thread.id == lobby.id  # started from the table's own message
            assert t("en", f"choice.game.{game}") in thread.name and "Ana" in thread.name
            table = table_of(bot, fake)
            assert table.thread_id == thread.id and table.channel_id == fake.channel_id
            await play_until(bot, fake, ana, lambda: table.deal_no >= 2 or table.status
                             != "running")
            await settle(bot, fake)
            in_thread = fake.messages(thread.id)
            assert any(m.text.startswith("Deal 1") for m in in_thread), [m.text for m in in_thread]
            assert any(f"<@{ana.id}>" in m.content for m in in_thread)  # a turn notice
            # nothing of the game's progress in the channel but the table message itself
            assert [m.id for m in fake.messages() if m.author.bot] == [lobby.id] or (
                table.status != "running")
            if table.status == "running":
                # a command typed in the thread finds the table
                r = await fake.slash(ana, "albastini hand", channel_id=thread.id)
                assert r.message is not None
                assert r.ephemeral and "Your hand" in r.message.text
                r = await fake.slash(ana, "albastini cancel", channel_id=thread.id)
                assert r.ephemeral
            await settle(bot, fake)
            assert thread.archived and fake.reopened_threads == []
            assert assert_cards(fake, game) >= 1
        assert_clean(fake)


async def test_the_end_of_a_match_beside_the_table_and_the_thread_archived(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        ana = fake.add_user("Ana")
        async with fake.run_bot(make_bot()) as bot:
            lobby = await open_in_thread(fake, ana, "albastini", thread=True, target=1)
            (thread,) = fake.threads()
            table = table_of(bot, fake)
            await play_until(bot, fake, ana, lambda: table.status != "running")
            await settle(bot, fake)
            channel = [m for m in fake.messages() if m.id != lobby.id]
            assert len(channel) == 1 and "wins the match" in channel[0].text
            assert fake.find_button(channel[0], label="Play again")
            assert thread.archived and fake.reopened_threads == []
            # the rematch is played in a thread of its own too
            r = await fake.click(ana, channel[0], label="Play again")
            assert r.response_type == 4
            await fake.wait_until(lambda: len(fake.threads()) == 2, timeout=10)
            assert r.message is not None
            assert fake.threads()[1].id == r.message.id
        assert_clean(fake)


async def test_the_servers_setting_and_a_restart(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        admin = fake.add_user("Admin", manage_guild=True)
        ana = fake.add_user("Ana")
        async with fake.run_bot(make_bot()) as bot:
            r = await fake.slash(admin, "albastini settings", threads=True)
            assert r.message is not None
            assert "each new table is played in a thread" in r.message.text
            await open_in_thread(fake, ana, "cassino")  # no option: the server's setting
            (thread,) = fake.threads()
            table = table_of(bot, fake)
            await play_until(bot, fake, ana, lambda: table.move_no > 3)
            await settle(bot, fake)
            before = [m for m in fake.messages(thread.id) if m.text.startswith("Deal 1")]
        async with fake.run_bot(make_bot()) as bot2:
            await settle(bot2, fake)
            table2 = table_of(bot2, fake)
            assert table2 is not None and table2.thread_id == thread.id
            r = await fake.slash(ana, "albastini hand", channel_id=thread.id)
            assert r.message is not None
            assert r.ephemeral and "Your hand" in r.message.text
            await play_until(bot2, fake, ana, lambda: table2.deal_no >= 2)
            await settle(bot2, fake)
            # the play goes on in the thread: deal 1's summary is posted there
            assert before == [] and any(m.text.startswith("Deal 1")
                                        for m in fake.messages(thread.id))
            r = await fake.slash(ana, "albastini start", game="cassino", thread=False,
                                 channel_id=fake.add_channel("another"))
            assert r.response_type == 4 and len(fake.threads()) == 1  # thread:False wins
        assert_clean(fake)


async def test_without_the_permissions_a_thread_is_refused_and_nothing_opens(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        ana = fake.add_user("Ana")
        fake.deny(fake.channel_id, CREATE_PUBLIC_THREADS)
        async with fake.run_bot(make_bot()) as bot:
            r = await fake.slash(ana, "albastini start", thread=True)
            assert r.message is not None
            assert r.ephemeral and "Create Public Threads" in r.message.text
            assert bot.service.table_in_channel(fake.channel_id) is None
            assert fake.threads() == []
            r = await fake.slash(ana, "albastini start")  # without a thread, as ever
            assert r.response_type == 4 and not r.ephemeral
        assert_clean(fake)
