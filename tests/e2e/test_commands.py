"""The other commands and buttons: rules, language, settings, cancel, rematch, errors, slow work."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import pytest

from bot import AlbastiniBot
from tests.e2e.conftest import (
    assert_clean,
    enabled_moves,
    match_with_computers,
    press_start,
    settle,
    table_of,
)
from tests.e2e.test_match import play_match
from tests.fakediscord import DriverError, FakeDiscord


async def test_rules_language_settings_and_cancel(make_bot: Callable[..., AlbastiniBot]) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        juma = fake.add_user("Juma")
        mod = fake.add_user("Mod", manage_messages=True)
        admin = fake.add_user("Admin", manage_guild=True)
        async with fake.run_bot(make_bot()) as bot:
            # rules: private, paged in place
            r = await fake.slash(neema, "albastini rules")
            assert r.message is not None
            assert r.ephemeral and "page 1 of 6" in r.message.text
            r2 = await fake.click(neema, r.message, label="Next")
            assert r2.response_type == 7 and "page 2 of 6" in r.message.text
            # the Rules button of a public table opens them privately, the table stays
            r = await fake.slash(neema, "albastini start", players=2)
            lobby = r.message
            assert lobby is not None
            r2 = await fake.click(juma, lobby, label="Rules")
            assert r2.message is not None
            assert r2.response_type == 4 and r2.ephemeral and "page 1 of 6" in r2.message.text
            assert "Join" in [b.label for b in lobby.buttons]
            await fake.slash(neema, "albastini cancel")

            # a personal language: private text in Kiswahili, public text unchanged
            r = await fake.slash(juma, "albastini language", language="sw")
            assert r.message is not None
            assert r.ephemeral and "Kiswahili" in r.message.text
            r = await fake.slash(juma, "albastini rules")
            assert r.message is not None
            assert "page 1 of 6" not in r.message.text

            # settings need Manage Server
            r = await fake.slash(neema, "albastini settings", target=3)
            assert r.message is not None
            assert r.ephemeral and "Manage Server" in r.message.text
            r = await fake.slash(admin, "albastini settings", target=3, turn_time=90)
            assert r.message is not None
            assert r.ephemeral and "3 victory points" in r.message.text
            assert "90 s" in r.message.text

            # the new default target applies to new tables
            r = await fake.slash(neema, "albastini start", players=3)
            lobby = r.message
            assert lobby is not None
            assert "first to 3 victory points" in lobby.text
            assert "turn time 90 s" in lobby.text
            await settle(bot, fake)
            # /hand before the start, /cancel by someone else, by a moderator
            r = await fake.slash(neema, "albastini hand")
            assert r.message is not None
            assert r.ephemeral and "hasn't started" in r.message.text
            r = await fake.slash(juma, "albastini cancel")
            assert r.ephemeral and table_of(bot, fake) is not None
            r = await fake.slash(mod, "albastini cancel")
            assert r.ephemeral
            assert table_of(bot, fake) is None
            await settle(bot, fake)
            assert "closed" in lobby.text and not lobby.buttons
            r = await fake.slash(neema, "albastini hand")
            assert r.message is not None
            assert r.ephemeral and "no table" in r.message.text.lower()
        assert_clean(fake)


async def test_rematch_opens_a_new_lobby_with_the_same_players(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            r = await fake.slash(neema, "albastini start", players=3, target=1, computers=True)
            lobby = r.message
            assert lobby is not None
            assert lobby.text.count("Computer ") == 2
            await press_start(fake, neema, lobby)
            await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"))
            await play_match(bot, fake, {neema.id: neema}, lobby)
            await settle(bot, fake)
            final = next(m for m in fake.messages() if fake.find_button(m, label="Play again"))
            r = await fake.click(neema, final, label="Play again")
            assert r.response_type == 4 and not r.ephemeral
            new_lobby = r.message
            assert new_lobby is not None
            assert new_lobby.text.count("Computer ") == 2 and "Start" in [
                b.label for b in new_lobby.buttons
            ]
            await settle(bot, fake)
            table = table_of(bot, fake)
            assert table.status == "lobby" and table.message_id == new_lobby.id
        assert_clean(fake)


async def test_errors_and_slow_work_are_still_answered(
    make_bot: Callable[..., AlbastiniBot],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            lobby = await match_with_computers(fake, neema)
            table = table_of(bot, fake)
            await fake.wait_until(
                lambda: table.to_act is not None and table.seats[table.to_act].user_id
            )
            r = await fake.click(neema, lobby, label="Show my hand")
            hand = r.message
            assert hand is not None
            move = enabled_moves(hand)[0]
            real_act = bot.service.act
            my_cards = set(table.view_for(neema.id)["hand"])

            async def broken(*args: Any, **kwargs: Any) -> Any:
                raise RuntimeError(f"boom with {sorted(my_cards)}")

            monkeypatch.setattr(bot.service, "act", broken)
            caplog.set_level(logging.INFO)
            r = await fake.click(neema, hand, custom_id=move.custom_id)
            assert r.response_type == 4 and r.ephemeral
            assert r.message is not None
            assert "Something went wrong" in r.message.text
            logged = "\n".join(rec.getMessage() for rec in caplog.records)
            assert "RuntimeError" in logged
            assert not any(card in logged for card in my_cards)

            async def slow(*args: Any, **kwargs: Any) -> Any:
                await asyncio.sleep(2.3)
                return await real_act(*args, **kwargs)

            monkeypatch.setattr(bot.service, "act", slow)
            before = table.move_no
            r = await fake.click(neema, hand, custom_id=move.custom_id)
            assert r.response_type == 6  # deferred in time, then the hand is edited
            await fake.wait_until(lambda: table.move_no == before + 1 or table.status != "running")
            await settle(bot, fake)
            assert move.custom_id not in [b.custom_id for b in hand.buttons]
        assert_clean(fake)


async def test_a_failing_command_is_answered_once(
    make_bot: Callable[..., AlbastiniBot], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A slash command that fails gets one private "Something went wrong", not one from the
    cog's error handler and another from the command tree's."""
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            await match_with_computers(fake, neema)

            def broken(*args: Any, **kwargs: Any) -> Any:
                raise RuntimeError("boom")

            assert bot.tables is not None
            monkeypatch.setattr(bot.tables.hands, "payload", broken)
            r = await fake.slash(neema, "albastini hand")
            assert r.message is not None
            assert r.ephemeral and "Something went wrong" in r.message.text
            await settle(bot, fake)
            errors = [m for m in fake.ephemerals(neema) if "Something went wrong" in m.text]
            assert len(errors) == 1, [m.text for m in errors]


async def test_leave_and_come_back(make_bot: Callable[..., AlbastiniBot]) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        juma = fake.add_user("Juma")
        async with fake.run_bot(make_bot()) as bot:
            r = await fake.slash(neema, "albastini start", players=3, target=5)
            table_msg = r.message
            assert table_msg is not None
            await fake.click(juma, table_msg, label="Join")
            r = await fake.click(juma, table_msg, label="Join")
            assert r.message is not None
            assert r.ephemeral and "already at this table, at seat 2" in r.message.text
            amina = fake.add_user("Amina")
            r = await fake.slash(amina, "albastini leave")
            assert r.message is not None
            assert r.ephemeral and "not at this table" in r.message.text
            await fake.click(neema, table_msg, label="Add computer")
            await press_start(fake, neema, table_msg)
            await fake.wait_until(lambda: fake.find_button(table_msg, label="Show my hand"))
            table = table_of(bot, fake)
            # Leave asks first, privately
            r = await fake.click(juma, table_msg, label="Leave")
            assert r.message is not None
            assert r.ephemeral and "Leave the match?" in r.message.text
            confirm = r.message
            r = await fake.click(juma, confirm, label="Yes, leave the match")
            assert r.response_type == 7 and "You left the match" in confirm.text
            seat = table.seat_of(juma.id)
            assert table.seats[seat].away
            await settle(bot, fake)
            assert "away" in table_msg.text
            # a computer plays Juma's seat; Juma takes it back from the table message
            r = await fake.click(juma, table_msg, label="Back to my seat")
            assert r.message is not None
            assert r.ephemeral and "Welcome back" in r.message.text
            assert not table.seats[seat].away
            await settle(bot, fake)
            assert not fake.find_button(table_msg, label="Back to my seat")
            # someone not at the table cannot leave it
            r = await fake.click(amina, table_msg, label="Leave")
            assert r.message is not None
            assert r.ephemeral and "not at this table" in r.message.text
        assert_clean(fake)


async def test_server_language_for_public_text(make_bot: Callable[..., AlbastiniBot]) -> None:
    from cogs.i18n import t

    async with FakeDiscord() as fake:
        admin = fake.add_user("Admin", manage_guild=True)
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            await fake.slash(admin, "albastini settings", language="sw")
            r = await fake.slash(neema, "albastini start", players=2, computers=True)
            lobby = r.message
            assert lobby is not None
            assert "wa kwanza kufikia" in lobby.text
            assert t("sw", "button.start") in [b.label for b in lobby.buttons]
            # Neema chose English for herself: private text stays English
            await fake.slash(neema, "albastini language", language="en")
            r = await fake.slash(neema, "albastini hand")
            assert r.message is not None
            assert "hasn't started" in r.message.text
            await settle(bot, fake)
        assert_clean(fake)


async def test_deleted_table_message_is_posted_again(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            old = await match_with_computers(fake, neema, target=3)
            # no computer still thinking: its move would update the new message and take the
            # note away before it is looked at
            await bot.service.wait_idle()
            await settle(bot, fake)
            table = table_of(bot, fake)
            fake._delete(old)  # a moderator removes the table message
            bot.publisher.refresh(table.id)
            await settle(bot, fake)
            assert table.message_id != old.id
            new = fake.message(table.message_id)
            assert new is not None and "deleted" in new.text
            assert fake.find_button(new, label="Show my hand") and new.attachments
            bot.publisher.refresh(table.id)
            await settle(bot, fake)
            assert "deleted" not in new.text  # the note goes with the next update
        assert [(x.method, x.status) for x in fake.rejections] == [("PATCH", 404)]
        assert fake.failed_interactions == [] and fake.unknown_routes == []


async def test_idle_lobby_closes_with_an_explanation(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot(service={"lobby_idle": 0.3})) as bot:
            r = await fake.slash(neema, "albastini start", players=4)
            lobby = r.message
            await fake.wait_until(lambda: table_of(bot, fake) is None, timeout=5)
            await settle(bot, fake)
            assert lobby is not None
            assert "Nobody started the table in time" in lobby.text and not lobby.buttons
        assert_clean(fake)


async def test_a_private_hand_still_works_after_its_token_expired(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            lobby = await match_with_computers(fake, neema)
            assert bot.tables is not None
            bot.tables.hands.follower.clock = fake.now  # the bot's clock moves with the fake's
            bot.publisher.message.token_clock = fake.now  # the table message's tokens too
            r = await fake.click(neema, lobby, label="Show my hand")
            hand = r.message
            await settle(bot, fake)
            fake.advance(20 * 60)  # the token of the message's interaction is long dead
            table = table_of(bot, fake)
            await fake.wait_until(lambda: table.seats[table.to_act].user_id == neema.id)
            assert hand is not None
            r = await fake.click(neema, hand, label="Refresh")
            assert r.response_type == 7 and r.message is hand
            before = table.move_no
            r = await fake.click(neema, hand, custom_id=enabled_moves(hand)[0].custom_id)
            assert r.response_type == 7 and table.move_no > before
            await settle(bot, fake)
        assert_clean(fake)


async def test_private_messages_leave_no_view_behind(make_bot: Callable[..., AlbastiniBot]) -> None:
    """Clicks are routed by their ids, so discord.py must not keep the views the bot sends:
    otherwise each "Show my hand", /albastini hand or rules page would hold a view and a
    15-minute timer task in memory (thousands on a busy server)."""
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            lobby = await match_with_computers(fake, neema)
            for _ in range(3):
                r = await fake.click(neema, lobby, label="Show my hand")
                assert r.message is not None
                assert r.ephemeral and r.message.buttons
            r = await fake.slash(neema, "albastini hand")
            assert r.message is not None
            assert r.ephemeral and r.message.buttons
            r = await fake.slash(neema, "albastini rules")
            assert r.message is not None
            assert r.ephemeral and r.message.buttons
            store = bot._connection._view_store
            assert not store._views and not store._synced_message_views
            timers = [
                task for task in asyncio.all_tasks() if "timeout_task" in repr(task.get_coro())
            ]
            assert not timers
        assert_clean(fake)


async def test_one_albastini_group_across_the_feature_cogs(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    """The features are separate extensions (cogs/albastini.py: tables; cogs/records.py:
    leaderboard, stats, settings, language), yet Discord is given one /albastini command, usable
    in a server or a group DM (installed for servers and people), with every subcommand;
    reloading one feature keeps it that way."""
    everything = {"start", "hand", "leave", "cancel", "rules", "help",
                  "leaderboard", "stats", "settings", "language"}
    everything |= {"history", "season", "recompute"}  # cogs/history.py
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot(sync_commands="always")) as bot:
            await fake.wait_until(lambda: fake.commands(), timeout=10)
            synced = fake.commands()
            assert [c["name"] for c in synced] == ["albastini"]
            # installed for servers and for people; offered in servers and group DMs, never in a
            # DM with the bot (nobody to sit with there)
            assert synced[0].get("contexts") == [0, 2]
            assert synced[0].get("integration_types") == [0, 1]
            assert {o["name"] for o in synced[0]["options"]} == everything
            await bot.reload_extension("cogs.records")
            group = bot.tree.get_commands()
            assert [c.name for c in group] == ["albastini"]
            assert {c.name for c in group[0].commands} == everything  # type: ignore[union-attr]
            r = await fake.slash(neema, "albastini stats")
            assert r.message is not None
            assert r.ephemeral and "Neema" in r.message.text
            assert_clean(fake)


ONLY_IN_A_SERVER = ("Albastini is played in a server channel or a group DM, not in direct "
                    "messages with the bot.")  # refuse.dm


async def test_commands_and_clicks_from_a_dm_are_refused_privately(
    make_bot: Callable[..., AlbastiniBot], caplog: pytest.LogCaptureFixture
) -> None:
    """A DM (no server; Discord sends it to shard 0) gets no table: a command or a click that
    arrives from one anyway (Discord does not offer /albastini there: a stale client, a forged
    click) is answered in time, privately, that Albastini is played in a server channel, with no
    table made and nothing logged as an error. The rules still page there, as /albastini rules
    answers anywhere."""
    caplog.set_level(logging.INFO)
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        juma = fake.add_user("Juma")
        dm = fake.add_dm(juma)
        async with fake.run_bot(make_bot()) as bot:
            r = await fake.slash(neema, "albastini start", players=2)
            lobby = r.message
            table = table_of(bot, fake)
            assert lobby is not None and table is not None
            with pytest.raises(DriverError, match="not offered"):  # server-only, as synced
                await fake.slash(juma, "albastini start", channel_id=dm)

            for command in ("start", "hand", "stats", "history"):
                r = await fake.slash(juma, f"albastini {command}", channel_id=dm, force=True)
                assert r.response_type == 4 and r.ephemeral and not r.failed, (command, r)
                assert r.message is not None and r.message.channel_id == dm
                assert r.message.text == ONLY_IN_A_SERVER, (command, r.message.text)
            refusal = r.message
            assert refusal is not None
            assert bot.service.table_in_channel(dm) is None
            assert await bot.store.active_table(dm) is None

            # a click from the DM on the lobby's Join (and on a history page): refused, and
            # the lobby in the server is untouched
            join = fake.find_button(lobby, label="Join")
            assert join is not None and join.custom_id is not None
            history_page = f"alb:hi:{fake.guild_id}:{juma.id}:0"
            for custom_id in (join.custom_id, history_page):
                r = await fake.send_component(juma, refusal, custom_id)
                assert r.response_type == 4 and r.ephemeral and not r.failed, (custom_id, r)
                assert r.message is not None and r.message.channel_id == dm
                assert r.message.text == ONLY_IN_A_SERVER, (custom_id, r.message.text)
            assert table.seat_of(juma.id) is None
            assert [m for m in fake.messages() if m is not lobby] == []

            # the rules are anyone's, in a DM too: they page in place
            r = await fake.slash(juma, "albastini rules", channel_id=dm, force=True)
            assert r.ephemeral and r.message is not None and "page 1 of 6" in r.message.text
            r2 = await fake.click(juma, r.message, label="Next")
            assert r2.response_type == 7 and "page 2 of 6" in r.message.text
            await fake.wait_idle()
        assert_clean(fake)
    assert [m.text for m in fake.messages(dm)] == []  # every answer in the DM was private
    errors = [rec.getMessage() for rec in caplog.records if rec.levelno >= logging.ERROR]
    assert errors == []
    own = [rec.getMessage() for rec in caplog.records
           if rec.levelno >= logging.WARNING and rec.name.split(".")[0] in ("albastini", "cogs")]
    assert own == []
