"""The table as a Components V2 card, on the fake Discord that checks V2 payloads as Discord does
(the flag, the components and their limits, no content or embeds beside the flag, media that
must name an attachment, and Discord's refusal of a card's media uploaded through a token).

- A table message posted before the cards (a classic embed with buttons, still in channels
  after the upgrade) keeps working: its buttons are answered, and its next edit makes it a card.
- Edits through an interaction token carry the card's text at once; while Discord refuses a new
  picture through a token (discord-api-docs#7529), the picture goes through the channel right
  after; once Discord takes them again, one try lets tokens carry the pictures again.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot import AlbastiniBot
from cogs.messages import table_message
from tests.doubles import persons_turn
from tests.e2e.conftest import (
    assert_cards,
    assert_clean,
    match_with_computers,
    settle,
    table_of,
)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.models import COMPONENTS_V2

TOKEN_EDIT = "PATCH /api/v{version}/webhooks/{app}/{token}/messages/{mid}"
CHANNEL_EDIT = "PATCH /api/v{version}/channels/{cid}/messages/{mid}"


async def test_a_classic_table_message_keeps_working_and_becomes_a_card(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            table_msg = await match_with_computers(fake, neema)
            await settle(bot, fake)
            table = table_of(bot, fake)
            # as the bot's earlier release left it: an embed, its picture, rows of buttons
            table_msg.flags &= ~COMPONENTS_V2
            table_msg.embeds = [{"type": "rich", "title": "Albastini",
                                 "description": "the table as text",
                                 "image": {"url": "attachment://table.jpg"}}]
            table_msg.components = [{"type": 1, "components": [
                {"type": 2, "style": 1, "label": "Show my hand", "custom_id": f"alb:h:{table.id}"},
            ]}]
            r = await fake.click(neema, table_msg, label="Show my hand")
            assert r.ephemeral and "Your hand" in r.message.text  # its button still works
            bot.publisher.refresh(table.id)
            await settle(bot, fake)
            assert table_msg.v2 and not table_msg.embeds and not table_msg.content
            assert "Albastini · deal 1" in table_msg.text
            assert fake.find_button(table_msg, label="Show my hand")
            assert assert_cards(fake, "albastini") >= 1
        assert_clean(fake)


@pytest.mark.parametrize("discord_fixed", [False, True], ids=["refused", "fixed"])
async def test_token_edits_carry_the_text_and_the_picture_follows(
    make_bot: Callable[..., AlbastiniBot], monkeypatch: pytest.MonkeyPatch,
    discord_fixed: bool,
) -> None:
    monkeypatch.setattr(table_message, "TOKEN_PICTURE_RETRY", 30.0)
    async with FakeDiscord(cv2_media_patch_bug=not discord_fixed) as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            bot.publisher.message.token_clock = fake.now  # the bot's clock moves with the fake's
            table_msg = await match_with_computers(fake, neema)
            await settle(bot, fake)
            first = [a.id for a in table_msg.attachments]
            assert first and fake.request_counts.get(TOKEN_EDIT, 0) >= 1
            # the first pictures went through the channel, the text through the Start token
            assert fake.request_counts.get(CHANNEL_EDIT, 0) >= 1
            table = table_of(bot, fake)
            fake.advance(31)  # past the wait: the bot tries a picture through a token again
            await fake.wait_until(lambda: persons_turn(table, neema.id), timeout=10)
            before = dict(fake.request_counts)
            await bot.service.act(table.id, neema.id, table.move_no,
                                  table.view_for(neema.id)["legal"][0])
            await settle(bot, fake)
            assert [a.id for a in table_msg.attachments] != first  # a new picture is shown
            channel = fake.request_counts.get(CHANNEL_EDIT, 0) - before.get(CHANNEL_EDIT, 0)
            if discord_fixed:
                assert channel == 0  # the token carried it
            else:
                assert channel >= 1  # refused through the token: through the channel
                assert bot.publisher.message.tokens_carry_pictures() is False
            assert assert_cards(fake, "albastini") >= 1
        # the refusal is Discord's (emulated), answered and healed by the bot: nothing else
        assert [r.status for r in fake.rejections] == ([] if discord_fixed else [400])
        assert fake.failed_interactions == [] and fake.unknown_routes == []
