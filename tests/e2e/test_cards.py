"""The table's messages as cards, on the fake Discord that checks Components V2 payloads as Discord
does (the flag, the components and their limits, no content or embeds beside the flag, media that
must name an attachment) and refuses, as Discord does today, a V2 message's new picture uploaded
by an edit through an interaction token (discord-api-docs#7529).

- The deal summaries and the match's end are V2 cards (each game's full-match test checks them:
  ``assert_cards``).
- The table message (lobby, then the table) stays a classic card, an embed: its edits go through
  the tokens of the clicks, outside the global rate limit, and only a classic message takes a
  new picture that way. Shown here: the same table laid out as V2 is refused through the token,
  and the classic one brings every new picture through tokens, nothing paid through the channel.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable

import discord

from bot import AlbastiniBot
from cogs.messages import courier
from cogs.render import PICTURE_FILE
from cogs.ui.cards import laid_out
from tests.doubles import persons_turn
from tests.e2e.conftest import assert_cards, match_with_computers, settle, table_of
from tests.fakediscord import FakeDiscord

TOKEN_EDIT = "PATCH /api/v{version}/webhooks/{app}/{token}/messages/{mid}"
CHANNEL_EDIT = "PATCH /api/v{version}/channels/{cid}/messages/{mid}"


async def test_the_table_message_is_classic_because_tokens_carry_only_its_pictures(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord(cv2_media_patch_bug=True) as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            table_msg = await match_with_computers(fake, neema)
            await settle(bot, fake)
            table = table_of(bot, fake)
            assert table_msg.embeds and not table_msg.v2 and table_msg.attachments
            assert "Albastini · deal 1" in table_msg.text
            # the reason: the same table as a V2 card, with a new picture, through the token
            _mid, app, token, _until = bot.publisher.message._tokens[table.id]
            payload, _draw = bot.publisher.message._compose(table, picture=False)
            as_v2 = laid_out(dataclasses.replace(payload["card"], classic=False, alt="a table"),
                             with_picture=True)
            picture = discord.File(io.BytesIO(b"\xff\xd8 not drawn"), filename=PICTURE_FILE)
            session = getattr(bot.http, "_HTTPClient__session")  # noqa: B009
            refused = await courier.edit_original(session, bot.http, (app, token),
                                                  attachments=[picture], **as_v2)
            assert refused == "failed" and [r.status for r in fake.rejections] == [400]
            assert not table_msg.v2  # refused: nothing changed
            fake.rejections.clear()
            # the classic card: each move's new picture comes through a token
            for _ in range(2):
                await fake.wait_until(lambda: persons_turn(table, neema.id), timeout=10)
                shown = [a.id for a in table_msg.attachments]
                before = dict(fake.request_counts)
                await bot.service.act(table.id, neema.id, table.move_no,
                                      table.view_for(neema.id)["legal"][0])
                await settle(bot, fake)
                assert [a.id for a in table_msg.attachments] != shown  # a new picture
                assert fake.request_counts.get(TOKEN_EDIT, 0) > before.get(TOKEN_EDIT, 0)
                assert fake.request_counts.get(CHANNEL_EDIT, 0) == before.get(CHANNEL_EDIT, 0)
            assert assert_cards(fake, "albastini") >= 1
        assert fake.rejections == []
        assert fake.failed_interactions == [] and fake.unknown_routes == []
