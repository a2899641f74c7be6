"""Tests of the fake Discord, driving a tiny real discord.py bot (minibot.py) through it."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import textwrap
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakediscord import DriverError, FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.minibot import MiniBot
from tests.fakediscord.models import validate_message
from tests.fakediscord.shared import SharedGlobalLimit

DEADLINE = 0.4
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(interaction_deadline=DEADLINE) as f:
        yield f


@pytest.fixture
def neema(fake: FakeDiscord) -> FakeUser:
    return fake.add_user("Neema")


@pytest.fixture
def juma(fake: FakeDiscord) -> FakeUser:
    return fake.add_user("Juma")


@pytest.fixture
async def bot(fake: FakeDiscord, neema: FakeUser, juma: FakeUser) -> AsyncIterator[MiniBot]:
    async with fake.run_bot(MiniBot(late_delay=DEADLINE + 0.15)) as b:
        yield b
    assert fake.unknown_routes == [] or fake.unknown_routes == ["GET /api/v10/stickers/1"]
    assert fake.server_errors == []


async def test_login_sync_ready_and_guild(fake: FakeDiscord, bot: MiniBot,
                                          neema: FakeUser) -> None:
    assert bot.user is not None and bot.user.id == fake.app_id
    assert bot.ready_count == 1
    guild = bot.get_guild(fake.guild_id)
    assert guild is not None and guild.get_channel(fake.channel_id) is not None
    # Intents.default() lacks the members intent: discord.py then caches no members
    assert guild.member_count == 3 and guild.get_member(neema.id) is None
    (group,) = fake.commands()
    assert group["name"] == "mini" and group["id"]
    start = next(o for o in group["options"] if o["name"] == "start")
    players = next(o for o in start["options"] if o["name"] == "players")
    assert (players["type"], players["min_value"], players["max_value"]) == (4, 2, 4)
    fetched = await bot.tree.fetch_commands()  # GET /applications/{app}/commands
    assert [c.name for c in fetched] == ["mini"]
    async with aiohttp.ClientSession() as s, s.get(fake.api_base + "/users/@me",
                                                   headers={"Authorization": "Bot x"}) as r:
        assert r.headers["Content-Type"] == "application/json"
    assert fake.unknown_routes == []


async def test_slash_options_typed_and_user_resolved(fake: FakeDiscord, bot: MiniBot,
                                                     neema: FakeUser, juma: FakeUser) -> None:
    r = await fake.slash(neema, "mini start", players=4, teams="pairs", rival=juma)
    assert r.response_type == 4 and not r.ephemeral and not r.failed
    assert r.message is not None and r.message.content == "table for 4 (pairs) vs Juma"
    assert fake.last_message() is r.message
    with pytest.raises(DriverError, match="choice"):
        await fake.slash(neema, "mini start", players=4, teams="trios")
    with pytest.raises(DriverError, match="above"):
        await fake.slash(neema, "mini start", players=5)
    with pytest.raises(DriverError, match="required"):
        await fake.slash(neema, "mini start")
    with pytest.raises(DriverError, match="subcommand"):
        await fake.slash(neema, "mini stop")
    with pytest.raises(DriverError, match="unknown options"):
        await fake.slash(neema, "mini start", players=2, colour="red")
    assert fake.failed_interactions == []


async def test_member_permissions(fake: FakeDiscord) -> None:
    plain = fake.add_user("Plain")
    mod = fake.add_user("Mod", manage_messages=True)
    admin = fake.add_user("Admin", manage_guild=True)
    boss = fake.add_user("Boss", owner=True)
    async with fake.run_bot(MiniBot()):
        seen = {}
        for u in (plain, mod, admin, boss):
            r = await fake.slash(u, "mini hand")
            assert r.message is not None
            seen[u.name] = r.message.content.removeprefix("your hand; ")
    assert seen == {
        "Plain": "manage_messages=False manage_guild=False",
        "Mod": "manage_messages=True manage_guild=False",
        "Admin": "manage_messages=False manage_guild=True",
        "Boss": "manage_messages=True manage_guild=True",
    }


async def test_ephemeral_visible_only_to_its_user(fake: FakeDiscord, bot: MiniBot,
                                                  neema: FakeUser, juma: FakeUser) -> None:
    public = (await fake.slash(juma, "mini start", players=2)).message
    r = await fake.slash(neema, "mini hand")
    assert r.ephemeral and r.message is not None and r.message.ephemeral_for == neema.id
    assert fake.visible(neema) == [public, r.message]
    assert fake.visible(juma) == [public]
    assert fake.messages() == [public]
    assert fake.ephemerals(neema) == [r.message]
    assert fake.last_message(neema) is r.message and fake.last_message(juma) is public
    assert fake.last_message(neema, ephemeral=False) is public
    r2 = await fake.slash(neema, "mini pick")
    assert r2.message is not None
    with pytest.raises(DriverError, match="ephemeral"):
        await fake.select(juma, r2.message, "pick", ["red"])


async def test_persistent_button_click_edits_message(fake: FakeDiscord, bot: MiniBot,
                                                     neema: FakeUser) -> None:
    table = (await fake.slash(neema, "mini start", players=3)).message
    assert table is not None
    r = await fake.click(neema, table, label="Count 0")
    assert r.response_type == 7 and r.message is table
    assert table.content == "count 1" and table.edits == 1
    assert fake.find_button(table, label="Count 1") is not None
    r = await fake.click(neema, table, custom_id="cnt:1")
    assert table.content == "count 2"
    with pytest.raises(DriverError, match="disabled"):
        await fake.click(neema, table, label="Nope")
    with pytest.raises(DriverError, match="no button"):
        await fake.click(neema, table, label="Count 0")  # replaced by the edit
    assert fake.failed_interactions == []


async def test_forged_custom_id_is_delivered_and_unanswered_fails(
        fake: FakeDiscord, bot: MiniBot, neema: FakeUser) -> None:
    table = (await fake.slash(neema, "mini start", players=3)).message
    assert table is not None
    # discord.py rebuilds a DynamicItem from the message's own components: an id that is not
    # on the message (forged, or stale after an edit) is dropped, so the interaction fails.
    r = await fake.send_component(neema, table, "cnt:41")
    assert r.failed and r.response_type is None
    assert fake.failed_interactions == [r]
    assert table.content.startswith("table for 3")


async def test_select_menu(fake: FakeDiscord, bot: MiniBot, neema: FakeUser) -> None:
    msg = (await fake.slash(neema, "mini pick")).message
    assert msg is not None and msg.selects[0].custom_id == "pick"
    with pytest.raises(DriverError, match="not options"):
        await fake.select(neema, msg, "pick", ["purple"])
    with pytest.raises(DriverError, match="outside"):
        await fake.select(neema, msg, "pick", ["red", "green", "blue"])
    r = await fake.select(neema, msg, "pick", ["red", "blue"])
    assert r.response_type == 7 and msg.content == "picked red,blue" and msg.components == []


async def test_defer_then_followups(fake: FakeDiscord, bot: MiniBot, neema: FakeUser,
                                    juma: FakeUser) -> None:
    r = await fake.slash(neema, "mini slow")
    assert r.response_type == 5 and r.message is not None
    await fake.wait_idle()
    assert not r.message.loading and r.message.content == "done thinking"
    assert [m.content for m in fake.messages()] == ["done thinking", "second follow-up"]
    r = await fake.slash(neema, "mini slow", private=True)
    await fake.wait_idle()
    assert r.ephemeral and r.message is not None and r.message.content == "done thinking"
    # the first follow-up filled the ephemeral "thinking" message; the second is public
    assert [m.content for m in fake.visible(juma)][-1] == "second follow-up"
    assert r.message not in fake.visible(juma)


async def test_webhook_and_channel_edits_and_deletes(fake: FakeDiscord, bot: MiniBot,
                                                     neema: FakeUser, juma: FakeUser) -> None:
    await fake.slash(neema, "mini cleanup")
    await fake.wait_idle()
    assert [m.content for m in fake.visible(neema)] == ["kept, edited", "just for you"]
    assert [m.content for m in fake.visible(juma)] == ["kept, edited"]
    assert fake.rejections == [] and fake.unknown_routes == []


async def test_png_attachment_sent_and_replaced(fake: FakeDiscord, bot: MiniBot,
                                                neema: FakeUser) -> None:
    r = await fake.slash(neema, "mini picture")
    assert r.message is not None
    await fake.wait_until(lambda: r.message is not None and r.message.edits == 1)
    (att,) = r.message.attachments
    assert att.filename == "table.png" and att.data.startswith(b"\x89PNG")
    assert att.image_size() == (5, 4)  # the edit replaced the 3x2 picture
    async with aiohttp.ClientSession() as s, s.get(att.url) as resp:
        assert await resp.read() == att.data
    # the same through the channel routes (POST + PATCH /channels/{id}/messages)
    def posted_and_edited() -> FakeMessage | None:
        m = fake.last_message()
        return m if m is not None and m.content == "posted" and m.edits else None

    posted = await fake.wait_until(posted_and_edited)
    assert [(a.filename, a.image_size()) for a in posted.attachments] == [("b.png", (6, 6))]


async def test_deferred_update_then_edit_original(fake: FakeDiscord, bot: MiniBot,
                                                  neema: FakeUser) -> None:
    msg = (await fake.slash(neema, "mini later")).message
    assert msg is not None
    r = await fake.click(neema, msg, label="Later")
    assert r.response_type == 6 and r.message is msg
    await fake.wait_until(lambda: msg.content == "edited after a deferred update")
    assert msg.buttons == [] and fake.failed_interactions == []


async def test_late_answer_fails_and_gets_unknown_interaction(
        fake: FakeDiscord, bot: MiniBot, neema: FakeUser) -> None:
    t0 = time.monotonic()
    r = await fake.slash(neema, "mini late")
    assert r.failed and r.response_type is None
    assert DEADLINE <= time.monotonic() - t0 < DEADLINE + 1.0
    assert fake.failed_interactions == [r]
    await fake.wait_until(lambda: bot.errors)
    err = bot.errors[0]
    assert isinstance(err, discord.NotFound) and err.code == 10062
    assert fake.messages() == []


async def test_callback_result_only_when_asked_for(fake: FakeDiscord, bot: MiniBot,
                                                  neema: FakeUser) -> None:
    r = await fake.slash(neema, "mini hand")  # discord.py asks for it (with_response=1)
    assert r.response_type == 4 and r.message is not None
    r = await fake.slash(neema, "mini quiet")  # as Discord: 204, no body, without with_response
    assert r.response_type == 4 and r.message is not None and r.message.content == "quietly"
    await fake.wait_until(lambda: bot.quiet_answers)
    assert bot.quiet_answers == [(204, b"")]


async def test_second_response_is_refused(fake: FakeDiscord, bot: MiniBot,
                                          neema: FakeUser) -> None:
    r = await fake.slash(neema, "mini twice")
    assert r.response_type == 4
    await fake.wait_until(lambda: bot.errors)
    err = bot.errors[0]
    assert isinstance(err, discord.HTTPException) and (err.status, err.code) == (400, 40060)
    assert [m.content for m in fake.messages()] == ["first"]
    assert fake.rejections[-1].body["code"] == 40060


async def test_token_expires_after_15_minutes_on_controlled_clock(
        fake: FakeDiscord, bot: MiniBot, neema: FakeUser) -> None:
    r = await fake.slash(neema, "mini hand")
    assert r.message is not None
    inter = bot.interactions[-1]
    fake.advance(14 * 60)
    await inter.edit_original_response(content="still fine")
    assert r.message.content == "still fine"
    fake.advance(60)
    with pytest.raises(discord.HTTPException) as info:
        await inter.edit_original_response(content="too late")
    assert (info.value.status, info.value.code) == (401, 50027)
    with pytest.raises(discord.HTTPException) as info:
        await inter.followup.send("late follow-up", ephemeral=True)
    assert info.value.code == 50027
    fake._prune()  # expired interactions are forgotten, their tokens stay invalid
    with pytest.raises(discord.HTTPException) as info:
        await inter.edit_original_response(content="too late")
    assert info.value.code == 50027
    assert r.message.content == "still fine"


async def test_ephemeral_cannot_be_edited_through_channel(fake: FakeDiscord, bot: MiniBot,
                                                          neema: FakeUser) -> None:
    r = await fake.slash(neema, "mini sneaky")
    await fake.wait_until(lambda: bot.errors)
    err = bot.errors[0]
    assert isinstance(err, discord.NotFound) and err.code == 10008
    assert r.message is not None and r.message.content == "secret"


@pytest.mark.parametrize(("kind", "path"), [
    ("content", ["content"]),
    ("title", ["embeds", "0", "title"]),
    ("dup", ["components", "0", "components", "1", "custom_id"]),
])
async def test_limits_rejected_with_invalid_form_body(fake: FakeDiscord, bot: MiniBot,
                                                      neema: FakeUser, kind: str,
                                                      path: list[str]) -> None:
    await fake.slash(neema, "mini bad", kind=kind)
    await fake.wait_idle()
    err = bot.errors[0]
    assert isinstance(err, discord.HTTPException) and (err.status, err.code) == (400, 50035)
    (rej,) = fake.rejections
    node = rej.body["errors"]
    for key in path:
        node = node[key]
    assert node["_errors"][0]["code"]
    last = fake.last_message()
    assert last is not None and last.content == "refused 50035"


def _rows(n_rows: int, per_row: int, **button: Any) -> list[dict[str, Any]]:
    return [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "x", "custom_id": f"{r}:{i}", **button}
        for i in range(per_row)]} for r in range(n_rows)]


@pytest.mark.parametrize(("body", "ok"), [
    ({"content": "x" * 2000}, True),
    ({"content": "x" * 2001}, False),
    ({"components": _rows(5, 5)}, True),
    ({"components": _rows(6, 1)}, False),
    ({"components": _rows(1, 6)}, False),
    ({"components": _rows(1, 1, label="l" * 81)}, False),
    ({"components": _rows(1, 1, custom_id="c" * 101)}, False),
    ({"embeds": [{"title": "t"}] * 10}, True),
    ({"embeds": [{"title": "t"}] * 11}, False),
    ({"embeds": [{"description": "d" * 4097}]}, False),
    ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, False),
    ({"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]}, False),
    ({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, False),
    ({"embeds": [{"footer": {"text": "f" * 2049}}]}, False),
    ({"embeds": [{"author": {"name": "a" * 257}}]}, False),
    ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, False),
    ({}, False),
])
def test_validate_message_limits(body: dict[str, Any], ok: bool) -> None:
    assert (validate_message(body) == []) is ok


V2 = 1 << 15


def _card(*children: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"type": 17, "accent_color": 0x1C6E48, "components": list(children)}]


def _text(content: str = "t") -> dict[str, Any]:
    return {"type": 10, "content": content}


def _gallery(url: str = "attachment://table.jpg", description: str = "alt") -> dict[str, Any]:
    return {"type": 12, "items": [{"media": {"url": url}, "description": description}]}


@pytest.mark.parametrize(("body", "ok"), [
    ({"flags": V2, "components": _card(_text(), *_rows(2, 5))}, True),
    ({"flags": V2, "content": "x", "components": _card(_text())}, False),  # no content
    ({"flags": V2, "embeds": [{"title": "t"}], "components": _card(_text())}, False),
    ({"flags": V2, "components": _card(*[_text() for _ in range(39)])}, True),  # 40 in all
    ({"flags": V2, "components": _card(*[_text() for _ in range(40)])}, False),
    ({"flags": V2, "components": _card(_text("x" * 4000))}, True),
    ({"flags": V2, "components": _card(_text("x" * 2000), _text("x" * 2001))}, False),
    ({"flags": V2, "components": _card(_text(""))}, False),
    ({"flags": V2, "components": _card({"type": 17, "components": [_text()]})}, False),
    ({"flags": V2, "components": _card({"type": 12, "items": []})}, False),
    ({"flags": V2, "components": _card(_gallery(description="d" * 1025))}, False),
    ({"flags": V2, "components": _card(*_rows(1, 6))}, False),  # rows inside keep their rules
    ({"components": _card(_text())}, False),  # a container needs the flag
])
def test_validate_components_v2(body: dict[str, Any], ok: bool) -> None:
    assert (validate_message(body) == []) is ok


def test_a_v2_message_keeps_its_flag_and_its_media_must_exist() -> None:
    body = {"flags": V2, "components": _card(_text(), _gallery())}
    assert validate_message(body, attachments={"table.jpg"}) == []
    missing = validate_message(body, attachments=set())
    assert [code for _p, code, _m in missing] == ["UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND"]
    removed = validate_message({"flags": 0, "components": _rows(1, 1)}, was_v2=True)
    assert [code for _p, code, _m in removed] == ["MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG"]
    content = validate_message({"content": "hi"}, was_v2=True, require_content=False)
    assert [c for _p, c, _m in content] == ["MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"]
    # a classic message may become a card: the flag set, content and embeds cleared
    assert validate_message({"flags": V2, "content": None, "embeds": [],
                             "components": _card(_text())}, require_content=False) == []


async def test_a_token_edit_cannot_upload_a_cards_media_as_discord_refuses_it() -> None:
    """discord-api-docs#7529, emulated: an interaction's token edits a card, but not with a
    file its media gallery shows; a channel edit can."""
    async with FakeDiscord() as fake:
        msg = fake._new_message(fake.channels[fake.channel_id])
        fake._apply(msg, {"flags": V2, "components": _card(_text())}, [], edit=False)
        fake._store(msg)
        body = {"flags": V2, "components": _card(_text(), _gallery()),
                "attachments": [{"id": 0, "filename": "table.jpg"}]}
        files: list[tuple[str, bytes, str | None]] = [("table.jpg", b"\xff\xd8", "image/jpeg")]
        assert fake._patch_media_refused(msg, body, files)
        assert not fake._patch_media_refused(msg, {**body, "components": _card(_text())}, files)
        fake.cv2_media_patch_bug = False
        assert not fake._patch_media_refused(msg, body, files)


async def test_rate_limit_429_headers_and_discordpy_retries() -> None:
    async with FakeDiscord(edit_rate=(3, 0.4)) as fake:
        neema = fake.add_user("Neema")
        url = f"{fake.api_base}/channels/{fake.channel_id}/messages"
        async with aiohttp.ClientSession() as s:
            for _ in range(3):
                async with s.post(url, json={"content": "fill"}) as resp:
                    assert resp.status == 200
            async with s.post(url, json={"content": "over"}) as resp:
                assert resp.status == 429
                h = resp.headers
                body = await resp.json()
        assert h["Content-Type"] == "application/json" and h["X-RateLimit-Remaining"] == "0"
        assert h["X-RateLimit-Limit"] == "3" and h["X-RateLimit-Bucket"] and h["Via"]
        assert 0 < float(h["X-RateLimit-Reset-After"]) <= 0.4 and int(h["Retry-After"]) >= 1
        assert float(h["X-RateLimit-Reset"]) > time.time() - 1
        assert body["global"] is False and 0 < body["retry_after"] <= 0.4
        async with fake.run_bot(MiniBot()):
            # the window is exhausted: the bot's first create gets a 429, waits, retries
            await fake.slash(neema, "mini spam", n=3)
            await fake.wait_until(lambda: len(fake.messages()) == 3 + 3
                                  and fake.messages()[-1].content == "spam 2 edited", timeout=5)
        # the raw 4th request and at least the bot's first create were answered 429
        assert len(fake.rate_limited) >= 2
        assert set(fake.rate_limited) <= {f"POST /api/v10/channels/{fake.channel_id}/messages",
                                          *(f"PATCH /api/v10/channels/{fake.channel_id}"
                                            f"/messages/{m.id}" for m in fake.messages())}
        assert fake.unknown_routes == []


async def test_global_rate_limit_429_headers_and_exemptions() -> None:
    """Beyond the global limit a counted request gets Discord's global 429; the interaction
    endpoints, another token and a request once the window has moved on pass."""
    async with FakeDiscord(global_rate=(4, 0.5)) as fake:
        url = f"{fake.api_base}/channels/{fake.channel_id}/messages"
        bot_a = {"Authorization": "Bot token-a"}
        async with aiohttp.ClientSession() as s:
            for _ in range(4):
                async with s.post(url, json={"content": "fill"}, headers=bot_a) as resp:
                    assert resp.status == 200
            async with s.get(f"{fake.api_base}/users/@me", headers=bot_a) as resp:
                assert resp.status == 429  # every counted route shares the one limit
                h = resp.headers
                body = await resp.json()
            # the interaction endpoints are outside the global limit (these ones are unknown
            # interactions: refused for that, never for the rate)
            async with s.post(f"{fake.api_base}/interactions/1/tok/callback",
                              json={"type": 1}, headers=bot_a) as resp:
                assert resp.status != 429
            async with s.patch(f"{fake.api_base}/webhooks/{fake.app_id}/tok/messages/@original",
                               json={"content": "x"}, headers=bot_a) as resp:
                assert resp.status != 429
            async with s.post(url, json={"content": "other"},
                              headers={"Authorization": "Bot token-b"}) as resp:
                assert resp.status == 200  # a limit per bot token
            await asyncio.sleep(float(body["retry_after"]) + 0.05)
            async with s.post(url, json={"content": "later"}, headers=bot_a) as resp:
                assert resp.status == 200
        assert h["Content-Type"] == "application/json" and h["Via"]
        assert h["X-RateLimit-Global"] == "true" and h["X-RateLimit-Scope"] == "global"
        assert int(h["Retry-After"]) >= 1
        assert body["global"] is True and 0 < body["retry_after"] <= 0.5
        assert body["message"] == "You are being rate limited."
        assert fake.global_limited == ["GET /api/v10/users/@me"]
        assert fake.rate_limited == fake.global_limited


async def test_global_rate_limit_discordpy_waits_and_retries() -> None:
    """discord.py honours a global 429: it waits and sends the request again."""
    async with FakeDiscord(global_rate=(3, 0.3)) as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(MiniBot()):
            await fake.slash(neema, "mini spam", n=3)
            await fake.wait_until(lambda: len(fake.messages()) == 3
                                  and fake.messages()[-1].content == "spam 2 edited", timeout=10)
        assert fake.global_limited  # 6 counted requests in a row with room for 3 per 0.3 s
        assert [m.content for m in fake.messages()] == [f"spam {i} edited" for i in range(3)]
        assert fake.unknown_routes == []


def test_global_rate_limit_is_on_by_default() -> None:
    assert FakeDiscord().global_rate == (50, 1.0)


def test_shared_global_limit_slides_exactly() -> None:
    """The limit shared by fake processes: at most ``limit`` admitted in any ``per`` seconds;
    a refusal says how long until the oldest leaves, and is not counted."""
    limit = SharedGlobalLimit(3, 1.0)
    assert [limit.admit(t) for t in (10.0, 10.2, 10.4)] == [None, None, None]
    assert limit.admit(10.9) == pytest.approx(0.1)  # 10.0 is still within the second
    assert limit.admit(11.0) is None  # 10.0 has left: room for one
    assert limit.admit(11.1) == pytest.approx(0.1)  # 10.2 leaves at 11.2
    assert limit.admit(11.2) is None and limit.admit(11.4) is None
    assert limit.admit(11.5) is not None


def _serve_shared_fake(shared: SharedGlobalLimit, conn: Any) -> None:
    """A fake Discord in a process of its own, on ``shared``'s global limit, until told."""
    async def main() -> None:
        async with FakeDiscord(global_limit=shared) as fake:
            conn.send(f"{fake.api_base}/channels/{fake.channel_id}/messages")
            await asyncio.to_thread(conn.recv)

    asyncio.run(main())


async def test_global_rate_limit_kept_across_fake_processes() -> None:
    """Two fake Discords in two processes on one shared global limit count one bot token's
    requests together, as the one Discord they stand for (bench/bot_load.py --drivers)."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    shared = SharedGlobalLimit(5, 60.0, ctx)  # the window never moves on during the test
    fakes = []
    for _ in range(2):
        mine, theirs = ctx.Pipe()
        proc = ctx.Process(target=_serve_shared_fake, args=(shared, theirs), daemon=True)
        proc.start()
        fakes.append((proc, mine))
    try:
        urls = [await asyncio.to_thread(conn.recv) for _proc, conn in fakes]
        bot = {"Authorization": "Bot token-a"}
        statuses = []
        async with aiohttp.ClientSession() as s:
            for url in [urls[0]] * 3 + [urls[1]] * 3 + [urls[0]]:
                async with s.post(url, json={"content": "x"}, headers=bot) as resp:
                    statuses.append(resp.status)
                    if resp.status == 429:
                        assert resp.headers["X-RateLimit-Global"] == "true"
                        assert 0 < (await resp.json())["retry_after"] <= 60
        assert statuses == [200, 200, 200, 200, 200, 429, 429]
    finally:
        for proc, conn in fakes:
            conn.send("stop")
            proc.join(20)
            if proc.is_alive():
                proc.kill()


async def test_unknown_route_is_recorded(fake: FakeDiscord, bot: MiniBot,
                                         neema: FakeUser) -> None:
    await fake.slash(neema, "mini unknown")
    await fake.wait_idle()
    assert fake.unknown_routes == ["GET /api/v10/stickers/1"]
    assert isinstance(bot.errors[0], discord.NotFound)
    async with aiohttp.ClientSession() as s, s.post(f"{fake.api_base}/channels/abc/messages",
                                                    json={"content": "x"}) as resp:
        assert resp.status == 400 and resp.headers["Content-Type"] == "application/json"
    assert len(fake.server_errors) == 1 and "channels/abc" in fake.server_errors[0]
    fake.server_errors.clear()


async def test_bot_restart_keeps_state_and_persistent_buttons(fake: FakeDiscord,
                                                              neema: FakeUser) -> None:
    async with fake.run_bot(MiniBot()):
        table = (await fake.slash(neema, "mini start", players=2)).message
        assert table is not None
    await fake.wait_until(lambda: fake.connected == 0)
    with pytest.raises(DriverError, match="no bot"):
        await fake.click(neema, table, label="Count 0")
    async with fake.run_bot(MiniBot()) as second:
        assert second.ready_count == 1 and fake.identify_count == 2
        r = await fake.click(neema, table, label="Count 0")
        assert r.response_type == 7 and table.content == "count 1"
    assert fake.messages() == [table] and fake.failed_interactions == []


async def test_wait_helpers_time_out(fake: FakeDiscord) -> None:
    with pytest.raises(TimeoutError):
        await fake.wait_until(lambda: False, timeout=0.05)
    await fake.wait_idle(quiet=0.01, timeout=1)


async def test_subprocess_bot_via_env(fake: FakeDiscord, neema: FakeUser) -> None:
    script = textwrap.dedent("""
        import asyncio, os, sys, yarl, discord, discord.gateway, discord.http
        sys.path.insert(0, os.getcwd())
        from tests.fakediscord.minibot import MiniBot
        discord.http.Route.BASE = os.environ["DISCORD_API_BASE"]
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
            os.environ["DISCORD_GATEWAY_URL"])
        asyncio.run(MiniBot().start("tok", reconnect=False))
    """)
    env = {**os.environ, **fake.env()}
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", script, cwd=ROOT, env=env,
                                                stderr=asyncio.subprocess.DEVNULL)
    try:
        await fake.wait_connected()
        assert fake.commands()  # setup_hook synced before connecting
        r = await fake.slash(neema, "mini start", players=2)
        assert r.message is not None and r.message.content.startswith("table for 2")
    finally:
        proc.terminate()
        await proc.wait()
    assert json.loads(json.dumps(fake.env()))["DISCORD_API_BASE"].endswith("/api/v10")


class NoWaitBot(MiniBot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None  # discord.py sleeps 5 s before each non-first IDENTIFY by default


async def test_two_shards_and_guilds_added_later() -> None:
    async with FakeDiscord(shards=2, interaction_deadline=DEADLINE) as fake:
        neema = fake.add_user("Neema")
        gids = [fake.guild_id]
        while len({(g >> 22) % 2 for g in gids}) < 2:
            time.sleep(0.001)
            gids.append(fake.add_guild("Second"))
        for g in gids[1:]:
            fake.add_user("Guest", guild_id=g)
        async with fake.run_bot(NoWaitBot()) as bot:
            assert bot.shard_count == 2 and fake.connected == 2
            for g in gids:
                guild = bot.get_guild(g)
                assert guild is not None and guild.shard_id == (g >> 22) % 2
                channel = next(iter(fake.guilds[g].channels))
                r = await fake.slash(neema, "mini hand", channel_id=channel)
                assert r.message is not None and r.message.channel_id == channel
            late = fake.add_guild("Joined later")
            await fake.wait_until(lambda: bot.get_guild(late) is not None)
            extra = fake.add_channel("extra", late)
            await fake.wait_until(lambda: bot.get_channel(extra) is not None)
        assert fake.failed_interactions == [] and fake.unknown_routes == []


async def test_member_chunk_request_with_members_intent(fake: FakeDiscord,
                                                        neema: FakeUser) -> None:
    intents = discord.Intents.default()
    intents.members = True
    bot = MiniBot(intents=intents)
    async with fake.run_bot(bot):
        guild = bot.get_guild(fake.guild_id)
        assert guild is not None and guild.get_member(neema.id) is not None
        (member,) = await guild.query_members(user_ids=[neema.id])  # gateway op 8
        assert member.display_name == "Neema"
        late = fake.add_user("Late")
        await fake.wait_until(lambda: guild.get_member(late.id) is not None)


async def test_injected_faults_fail_matching_requests_until_they_end(neema: FakeUser) -> None:
    async with FakeDiscord() as fake:
        url = f"{fake.api_base}/channels/{fake.channel_id}/messages"
        other = fake.add_channel("other")
        gone = fake.fail("POST", "/channels/{channel_id}/messages", status=404, times=1)
        outage = fake.fail("POST", f"/channels/{fake.channel_id}/messages", until=30.0)
        async with aiohttp.ClientSession() as s:
            async with s.post(url, json={"content": "a"}) as resp:
                assert resp.status == 404
                assert resp.headers["Content-Type"] == "application/json"
                assert await resp.json() == {"message": "Unknown Channel", "code": 10003}
            async with s.post(url, json={"content": "b"}) as resp:  # `gone` served its once
                assert resp.status == 503
                assert await resp.json() == {"message": "503: Service Unavailable", "code": 0}
            other_url = f"{fake.api_base}/channels/{other}/messages"
            async with s.post(other_url, json={"content": "elsewhere"}) as resp:
                assert resp.status == 200  # the outage is of one channel only
            fake.advance(30)  # the outage ends on the controlled clock
            async with s.post(url, json={"content": "c"}) as resp:
                assert resp.status == 200
            # a regex on the path, ended by a callable, then healed
            healed = False
            fake.fail("*", re.compile(r"/messages$"), status=500, until=lambda: healed)
            async with s.post(url, json={"content": "d"}) as resp:
                assert resp.status == 500
            healed = True
            async with s.post(url, json={"content": "e"}) as resp:
                assert resp.status == 200
            fake.fail("POST", "/channels/{cid}/messages", status=403)
            fake.heal()
            async with s.post(url, json={"content": "f"}) as resp:
                assert resp.status == 200
        assert gone.hits == 1 and outage.hits == 1 and all(f.stopped for f in fake.faults)
        assert [(h.status, h.code) for h in fake.fault_hits] == [(404, 10003), (503, 0),
                                                                  (500, 0)]
        assert [m.content for m in fake.messages()] == ["c", "e", "f"]  # failed ones: nothing


async def test_interaction_delivered_after_its_deadline_cannot_be_answered(
        fake: FakeDiscord, bot: MiniBot, neema: FakeUser) -> None:
    table = (await fake.slash(neema, "mini start", players=3)).message
    assert table is not None
    r = await fake.click(neema, table, label="Count 0", expired=True)
    assert r.failed and r.response_type is None and fake.failed_interactions == [r]
    await fake.wait_until(lambda: fake.rejections)
    (rejected,) = fake.rejections
    assert rejected.status == 404 and rejected.body["code"] == 10062
    assert table.content.startswith("table for 3")  # the bot's answer never landed
    # a callback made to fail: the answer is lost, the person sees the interaction fail
    fake.fail("POST", "/interactions/{iid}/{token}/callback", status=404, code=10062, times=1)
    r = await fake.slash(neema, "mini hand")
    assert r.failed and [h.code for h in fake.fault_hits] == [10062]
    assert fake.ephemerals(neema) == []


async def test_dm_and_group_dm_interactions_reach_shard_0_only() -> None:
    """As on Discord: a DM or group DM has no server, so its interactions go to shard 0, here
    the first of two one-shard bots (two clusters), never to the other, and carry a top-level
    user, no member, the DM channel and its context."""
    async with FakeDiscord(shards=2, interaction_deadline=DEADLINE) as fake:
        neema = fake.add_user("Neema")
        juma = fake.add_user("Juma")
        dm = fake.add_dm(neema)
        assert fake.add_dm(neema) == dm  # one DM channel per person
        group = fake.add_group_dm(neema, juma, name="Card friends")
        first = NoWaitBot(shard_ids=[0], shard_count=2)
        second = NoWaitBot(shard_ids=[1], shard_count=2)
        async with fake.run_bot(first), fake.run_bot(second):
            await fake.wait_connected(shards=2)
            for place, kind, context in ((dm, discord.DMChannel, 1),
                                         (group, discord.GroupChannel, 2)):
                r = await fake.slash(neema, "mini hand", channel_id=place)
                assert r.shard == 0 and not r.failed and r.ephemeral
                assert r.message is not None and r.message.channel_id == place
                assert r.message.guild_id is None
                assert fake.ephemerals(neema, channel_id=place)[-1] is r.message
                assert fake.ephemerals(juma, channel_id=place) == []
                inter = first.interactions[-1]
                assert inter.id == r.interaction_id and inter.guild_id is None
                assert isinstance(inter.channel, kind) and inter.channel.id == place
                assert isinstance(inter.user, discord.User)  # not a Member: no server
                assert inter.user.id == neema.id
                assert not inter.context.guild
                assert inter.context.dm_channel is (context == 1)  # a DM with the bot
                assert inter.context.private_channel is (context == 2)
                assert inter.is_user_integration() is (context == 2)  # installed by her
            assert second.interactions == []  # the other cluster never saw them
            # a server's interaction still goes to the shard of its server
            r = await fake.slash(neema, "mini hand")
            assert r.shard == (fake.guild_id >> 22) % 2
            shown = first if r.shard == 0 else second
            assert shown.interactions[-1].guild_id == fake.guild_id
        assert fake.failed_interactions == [] and fake.unknown_routes == []
        assert fake.rejections == [] and fake.server_errors == []


async def test_dm_slash_of_a_server_only_command_needs_force(fake: FakeDiscord,
                                                             neema: FakeUser) -> None:
    """A client does not offer a server-only command (discord.py syncs `guild_only` as
    `dm_permission` false, Discord's newer `contexts` [0] the same) in a DM; `force=True`
    delivers it anyway (a stale client), and the bot's answer lands in the DM."""
    bot = MiniBot()
    bot.tree.get_command("mini").guild_only = True  # type: ignore[union-attr]
    async with fake.run_bot(bot):
        (cmd,) = fake.commands()
        assert cmd["dm_permission"] is False and not cmd.get("contexts")
        dm = fake.add_dm(neema)
        with pytest.raises(DriverError, match="not offered"):
            await fake.slash(neema, "mini hand", channel_id=dm)
        r = await fake.slash(neema, "mini hand", channel_id=dm, force=True)
        assert r.shard == 0 and r.message is not None and r.message.channel_id == dm
    assert fake.failed_interactions == []


async def test_where_the_bot_is_no_member_it_acts_through_interactions_only() -> None:
    """A user-installed app, as Discord has it: in a group DM, and in a server that never
    added the bot, an interaction is authorized by the person's install alone (a server's own
    is authorized by the server too), the bot hears nothing of the place on the gateway, and
    every channel request of its own is refused, 403 Missing Access (50001); answers,
    follow-ups and edits through the interaction's token work, for ``token_lifetime``
    seconds."""
    async with FakeDiscord(interaction_deadline=DEADLINE, token_lifetime=1.0) as fake:
        neema = fake.add_user("Neema")
        juma = fake.add_user("Juma")
        group = fake.add_group_dm(neema, juma)
        elsewhere = fake.add_guild("No bot here", bot_member=False)
        far = next(iter(fake.guilds[elsewhere].channels))
        nia = fake.add_user("Nia", guild_id=elsewhere)
        async with fake.run_bot(MiniBot()) as bot:
            assert bot.get_guild(elsewhere) is None and bot.get_guild(fake.guild_id) is not None
            r = await fake.slash(nia, "mini hand", channel_id=far)
            inter = bot.interactions[-1]
            assert inter.guild_id == elsewhere and inter.is_user_integration()
            assert not inter.is_guild_integration() and inter.context.guild
            r = await fake.slash(neema, "mini hand")
            assert bot.interactions[-1].is_guild_integration()  # the server added the app
            for place, who in ((group, neema), (far, nia)):
                r = await fake.slash(who, "mini hand", channel_id=place)
                assert r.ephemeral and not r.failed
                inter = bot.interactions[-1]
                sent = await inter.followup.send("public, through the token", wait=True)
                assert fake.message(sent.id) in fake.messages(place)
                await inter.followup.edit_message(sent.id, content="edited")
                assert fake.message(sent.id).content == "edited"  # type: ignore[union-attr]
                for call in (bot.get_partial_messageable(place).send("hello"),
                             bot.get_partial_messageable(place).get_partial_message(
                                 sent.id).edit(content="no"),
                             bot.http.get_channel(place)):
                    with pytest.raises(discord.Forbidden) as info:
                        await call
                    assert info.value.code == 50001
                assert fake.rejections[-1].body["code"] == 50001
            await asyncio.sleep(1.0)  # the token's life, shortened
            with pytest.raises(discord.HTTPException) as err:
                await inter.followup.send("too late", wait=True)
            assert (err.value.status, err.value.code) == (401, 50027)
