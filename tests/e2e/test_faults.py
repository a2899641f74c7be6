"""Discord misbehaving, and people forging clicks: the tables heal and nothing public is lost.

The fake Discord injects the faults (``fake.fail``: a route answering 5xx/4xx for a while;
``expired=True``: an interaction that reaches the bot after its deadline)."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from bot import AlbastiniBot
from cogs import render
from tests.e2e.conftest import (
    assert_clean,
    enabled_moves,
    match_with_computers,
    press_start,
    settle,
    table_of,
)
from tests.e2e.test_match import play_match
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser

REFUSED = "That button doesn't work any more"


async def forge(fake: FakeDiscord, user: FakeUser, message: FakeMessage, custom_id: str) -> None:
    """``user`` sends ``custom_id`` as if it were a button of ``message``: refused privately."""
    before = (message.text, [(b.custom_id, b.disabled) for b in message.buttons], message.edits)
    r = await fake.send_component(user, message, custom_id)
    assert r.response_type == 4 and r.ephemeral, (custom_id, r)
    assert r.message is not None, (custom_id, r)
    assert REFUSED in r.message.text, (custom_id, r.message.text)
    after = (message.text, [(b.custom_id, b.disabled) for b in message.buttons], message.edits)
    assert after == before, custom_id


async def test_forged_clicks_never_change_a_public_message(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        juma = fake.add_user("Juma")
        async with fake.run_bot(make_bot()) as bot:
            r = await fake.slash(neema, "albastini start", players=2, target=1)
            lobby = r.message
            assert lobby is not None
            await settle(bot, fake)
            tid = table_of(bot, fake).id
            page = f"alb:lb:{fake.guild_id}:0"
            # a leaderboard page, a rules page, a card and another table's Join on the lobby
            for forged in (page, "alb:rules:3", f"alb:p:{tid}:1:7H", f"alb:join:{tid + 1}"):
                await forge(fake, juma, lobby, forged)
            await fake.click(juma, lobby, label="Join")  # the lobby still works
            await settle(bot, fake)
            assert f"<@{juma.id}>" in lobby.text

            # the running table: a page, and the person to play pressing their card on it
            await fake.click(neema, lobby, label="Start")
            await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"))
            table = table_of(bot, fake)
            mover = neema if table.seats[table.to_act].user_id == neema.id else juma
            hand = (await fake.click(mover, lobby, label="Show my hand")).message
            assert hand is not None
            await settle(bot, fake)
            move = table.move_no
            for forged in (page, enabled_moves(hand)[0].custom_id, f"alb:r:{tid}"):
                await forge(fake, mover, lobby, forged)
            # a hand button of the lobby's kind (public) on the private hand
            await forge(fake, mover, hand, f"alb:join:{tid}")
            assert table.move_no == move
        assert_clean(fake)


async def test_forged_page_on_the_match_over_message_keeps_play_again(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            lobby = await match_with_computers(fake, neema, players=2, target=1)
            await play_match(bot, fake, {neema.id: neema}, lobby)
            await settle(bot, fake)
            final = next(m for m in fake.messages() if fake.find_button(m, label="Play again"))
            await forge(fake, neema, final, f"alb:lb:{fake.guild_id}:0")
            await forge(fake, neema, final, "alb:rules:1")
            assert fake.find_button(final, label="Play again") is not None
        assert_clean(fake)


async def test_end_of_match_posts_survive_a_channel_outage(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            bot.publisher.retry_delay = 0.05  # the first wait of the retries (then doubled)
            lobby = await match_with_computers(fake, neema, players=2, target=1)
            await settle(bot, fake)
            # new channel messages fail (503) for 40 s across the match's end
            outage = fake.fail("POST", "/channels/{cid}/messages", status=503, until=40.0)
            table = await play_match(bot, fake, {neema.id: neema}, lobby)
            assert table.status == "finished"
            failed = outage.hits
            # the bot keeps trying (the posts of the match's end fail again and again)
            await fake.wait_until(lambda: outage.hits >= failed + 3, timeout=10)
            fake.advance(40)
            await fake.wait_until(
                lambda: any(fake.find_button(m, label="Play again") for m in fake.messages()),
                timeout=10,
            )
            await settle(bot, fake)
            # the posts (not the table message, which shows the summary's first line too)
            texts = [m.text for m in fake.messages() if m.id != table.message_id]
            summary = [i for i, text in enumerate(texts) if "Deal 1 —" in text]
            over = [i for i, text in enumerate(texts) if "wins the match" in text]
            assert len(summary) == 1 and len(over) == 1 and summary[0] < over[0], texts
        assert fake.failed_interactions == [] and fake.rejections == []


async def test_posts_to_a_channel_that_is_gone_are_not_tried_forever(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            bot.publisher.retry_delay = 0.05
            lobby = await match_with_computers(fake, neema, players=2, target=1)
            await settle(bot, fake)
            gone = fake.fail("POST", "/channels/{cid}/messages", status=404, code=10003)
            table = await play_match(bot, fake, {neema.id: neema}, lobby)
            assert table.status == "finished"
            failed = gone.hits
            await settle(bot, fake)  # the bot gave up: nothing is left to send
            assert gone.hits <= failed + 2  # the deal summary and the match's end, once each


CALLBACK = "/interactions/{iid}/{token}/callback"


def lobbies(fake: FakeDiscord) -> list[FakeMessage]:
    """The lobby messages in the channel (those with a Join button)."""
    return [m for m in fake.messages() if fake.find_button(m, label="Join")]


async def test_lobby_whose_reply_failed_is_posted_in_the_channel(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    # the reply to /albastini start gets a 503, and again at discord.py's retry a second
    # later; by its next retry (3 s on) the interaction has expired (404 Unknown interaction):
    # Discord never shows the lobby
    async with FakeDiscord(interaction_deadline=2.0) as fake:
        neema = fake.add_user("Neema")
        juma = fake.add_user("Juma")
        async with fake.run_bot(make_bot()) as bot:
            fake.fail("POST", CALLBACK, status=503, times=2)
            r = await fake.slash(neema, "albastini start", players=2)
            assert r.failed
            # the lobby appears in the channel anyway, and works
            (lobby,) = await fake.wait_until(lambda: lobbies(fake), timeout=10)
            await settle(bot, fake)
            assert table_of(bot, fake).message_id == lobby.id
            await fake.click(juma, lobby, label="Join")
            await fake.wait_until(lambda: f"<@{juma.id}>" in lobby.text)
            await press_start(fake, neema, lobby)
            await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"))
            await settle(bot, fake)
            assert len(lobbies(fake)) == 0 and fake.unknown_routes == []


async def test_new_start_replaces_a_lobby_nobody_could_see(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord(interaction_deadline=2.0) as fake:
        neema = fake.add_user("Neema")
        juma = fake.add_user("Juma")
        async with fake.run_bot(make_bot()) as bot:
            bot.publisher.retry_delay = 0.05
            # the reply fails, and so does posting the lobby in the channel (for now)
            fake.fail("POST", CALLBACK, status=503, times=2)
            outage = fake.fail("POST", "/channels/{cid}/messages", status=503)
            r = await fake.slash(neema, "albastini start", players=2)
            assert r.failed
            await fake.wait_until(lambda: outage.hits >= 1)
            assert lobbies(fake) == []
            # nobody could see it: a new start (anyone's) opens the table they asked for
            r = await fake.slash(juma, "albastini start", players=3)
            assert r.response_type == 4 and not r.ephemeral, r.message and r.message.text
            lobby = r.message
            assert lobby is not None and "3 players" in lobby.text
            outage.stop()
            await settle(bot, fake)
            assert lobbies(fake) == [lobby]  # the replaced lobby is never posted after all
            table = table_of(bot, fake)
            assert table.host_id == juma.id and table.message_id == lobby.id
            await fake.click(neema, lobby, label="Join")
            await fake.wait_until(lambda: f"<@{neema.id}>" in lobby.text)


async def test_lobby_sent_before_a_restart_but_not_saved_keeps_working(
    make_bot: Callable[..., AlbastiniBot], db_path: Path
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        juma = fake.add_user("Juma")
        async with fake.run_bot(make_bot()) as bot:
            r = await fake.slash(neema, "albastini start", players=2)
            lobby = r.message
            assert lobby is not None
            await settle(bot, fake)
            table_id = table_of(bot, fake).id
        # the bot was stopped after the lobby went out but before its id was saved
        with sqlite3.connect(db_path) as db:
            db.execute("UPDATE game_tables SET message_id = NULL WHERE id = ?", (table_id,))
        async with fake.run_bot(make_bot()) as bot2:
            await settle(bot2, fake)
            assert table_of(bot2, fake).message_id == lobby.id  # found again in the channel
            await fake.click(juma, lobby, label="Join")
            await fake.wait_until(lambda: f"<@{juma.id}>" in lobby.text)
            await press_start(fake, neema, lobby)
            await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"))
            await settle(bot2, fake)
            tables = [m for m in fake.messages()  # the table messages (turn notices are plain)
                      if m.embeds and fake.find_button(m, label="Show my hand")]
            assert lobbies(fake) == [] and tables == [lobby]
        assert_clean(fake)


@pytest.mark.parametrize("followed", [True, False])
async def test_move_whose_click_expired_counts_and_the_next_hand_says_so(
    make_bot: Callable[..., AlbastiniBot], followed: bool
) -> None:
    """The move counts; the person learns it at once on the hand they clicked when it follows
    the game (through the token of the click that opened it), else on their next look."""
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            table_msg = await match_with_computers(fake, neema, players=2, target=3)
            table = table_of(bot, fake)
            await fake.wait_until(lambda: table.seats[table.to_act].user_id == neema.id)
            if not followed:  # a token the bot may not use: the hand does not follow the game
                assert bot.tables is not None
                bot.tables.hands.follower.lifetime = 0.0
            hand = (await fake.click(neema, table_msg, label="Show my hand")).message
            assert hand is not None
            move = enabled_moves(hand)[0].custom_id
            before = table.move_no
            # the click reaches the bot after its 3 s: Neema sees "This interaction failed"
            r = await fake.click(neema, hand, custom_id=move, expired=True)
            assert r.failed
            await fake.wait_until(lambda: table.move_no > before)  # the move was stored
            await settle(bot, fake)
            kind, _, code = move.split(":", 4)[-1].partition(":")
            card = render.card_label(code) if code else ""
            expected = {
                "play": f"Your {card} was played.",
                "bid": f"Your bid of {card} counted.",
                "pass": "Your pass counted.",
            }[kind]
            if followed:
                assert expected in hand.text, hand.text
                assert move not in [b.custom_id for b in enabled_moves(hand)]
                r = await fake.click(neema, table_msg, label="Show my hand")
                assert r.message is not None and expected not in r.message.text  # said once
                return
            assert expected not in hand.text  # the answer never landed
            # the next look at the hand tells them their move counted, once
            r = await fake.click(neema, table_msg, label="Show my hand")
            assert r.message is not None
            assert expected in r.message.text, r.message.text
            r = await fake.click(neema, r.message, label="Refresh")
            assert r.message is not None and expected not in r.message.text


async def test_clicks_and_commands_that_reach_the_bot_too_late_are_one_warning_each(
    make_bot: Callable[..., AlbastiniBot], caplog: pytest.LogCaptureFixture
) -> None:
    """At load, some interactions reach the bot after Discord's deadline: Discord then refuses
    every answer (404 Unknown interaction). That is Discord's side, not a bug of the bot: one
    WARNING line each with a running count, no ERROR and no stack; what the click did is done
    once, and the person's next click works."""
    caplog.set_level(logging.INFO)
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        juma = fake.add_user("Juma")
        async with fake.run_bot(make_bot()) as bot:
            r = await fake.slash(neema, "albastini start", players=2, target=1)
            lobby = r.message
            assert lobby is not None
            await settle(bot, fake)
            table = table_of(bot, fake)
            caplog.clear()
            late = await fake.click(juma, lobby, label="Join", expired=True)
            assert late.failed
            await fake.wait_until(lambda: table.seat_of(juma.id) is not None)
            late = await fake.slash(juma, "albastini rules", expired=True)
            assert late.failed
            await settle(bot, fake)
            errors = [rec for rec in caplog.records if rec.levelno >= logging.ERROR]
            assert errors == [], [rec.getMessage() for rec in errors]
            warned = [rec.getMessage() for rec in caplog.records
                      if rec.levelno == logging.WARNING and "too late" in rec.getMessage()]
            assert len(warned) == 2, warned
            assert "1 so far" in warned[0] and "2 so far" in warned[1], warned
            assert all("\n" not in line and "Traceback" not in line for line in warned)
            # the join counted once; the next click is answered as usual
            assert [s.user_id for s in table.seats if s is not None].count(juma.id) == 1
            await press_start(fake, neema, lobby)
            await fake.wait_until(lambda: table.status == "running")
            await settle(bot, fake)
            r = await fake.click(juma, lobby, label="Show my hand")
            assert not r.failed and r.ephemeral and r.message is not None
            assert r.message.buttons
            assert len(fake.failed_interactions) == 2  # the two late ones, nothing else
            assert fake.server_errors == [] and fake.unknown_routes == []
