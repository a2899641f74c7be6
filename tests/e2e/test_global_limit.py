"""Discord's global rate limit: many busy tables share one budget, the bot is never refused,
and every table message still ends up showing its table's latest state."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

import pytest

from bot import AlbastiniBot
from cogs.messages import table_message
from tests.doubles import persons_turn
from tests.e2e.conftest import assert_clean, enabled_moves, press_start, settle
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser

TABLES = 10
MOVES = 4  # by the person at each table (the computer answers each one)
CLOCK = re.compile(r" ?⏳ <t:\d+:R>")
CHANNEL_EDIT = "PATCH /api/v{version}/channels/{cid}/messages/{mid}"
TOKEN_EDIT = "PATCH /api/v{version}/webhooks/{app}/{token}/messages/{mid}"


async def play(fake: FakeDiscord, user: FakeUser, channel_id: int) -> FakeMessage:
    """One person against a computer: opens the table, then makes ``MOVES`` moves from the
    private hand that follows the game, as fast as it enables them."""
    r = await fake.slash(user, "albastini start", channel_id=channel_id, players=2,
                         computers=True, target=1)
    lobby = r.message
    assert lobby is not None
    await press_start(fake, user, lobby)
    await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"), timeout=20)
    r = await fake.click(user, lobby, label="Show my hand")
    hand = r.message
    assert hand is not None and r.ephemeral
    for _ in range(MOVES):
        await fake.wait_until(lambda: enabled_moves(hand)
                              or not fake.find_button(lobby, label="Show my hand"), timeout=20)
        moves = enabled_moves(hand)
        if not moves:
            break  # the match is over
        r = await fake.click(user, hand, custom_id=moves[0].custom_id)
        assert not r.failed
    return lobby


def shown(message: FakeMessage) -> str:
    """What a table message says (its embed), without the turn's clock."""
    assert message.embeds, message.text
    return CLOCK.sub("", message.text)


@pytest.mark.parametrize("tokens", [False, True], ids=["budget", "table-tokens"])
async def test_many_tables_share_the_global_budget(
    make_bot: Callable[..., AlbastiniBot], monkeypatch: pytest.MonkeyPatch, tokens: bool,
) -> None:
    """Ten busy tables on a fake whose global limit is 20/s, the bot's budget 15/s: no global
    429 (without the budget the same run asks for more than 20 requests in a second), and
    every table message shows its table's final state once the bot settles. Without the
    tokens of the clicks that updated the table messages (as 15 minutes after them), every
    edit is paid for. With them (the tables' first 15 minutes), none is, their new pictures
    included, on a fake that refuses a Components V2 message's pictures through a token as
    Discord does (discord-api-docs#7529): the table message is a classic one for that."""
    if not tokens:
        monkeypatch.setattr(table_message, "TABLE_TOKEN_LIFE", 0.0)
    async with FakeDiscord(global_rate=(20, 1.0), cv2_media_patch_bug=True) as fake:
        channels = [fake.add_channel(f"table-{i}") for i in range(TABLES)]
        people = [fake.add_user(f"P{i}") for i in range(TABLES)]
        async with fake.run_bot(make_bot(global_rate=15.0)) as bot:
            messages = await asyncio.gather(
                *(play(fake, user, cid) for user, cid in zip(people, channels, strict=True))
            )
            # the tables stand still (each waits for its person, or its match is over) before
            # their messages are compared: a computer's answer or the next deal may still come
            def still() -> bool:
                tables = [bot.service.table_in_channel(cid) for cid in channels]
                return all(t is None or t.status != "running" or persons_turn(t, user.id)
                           for t, user in zip(tables, people, strict=True))

            await fake.wait_until(still, timeout=30)
            await settle(bot, fake)
            for cid, message in zip(channels, messages, strict=True):
                table = bot.service.table_in_channel(cid)
                assert table is not None and table.message_id == message.id
                payload, _draw = bot.publisher.message._compose(table, picture=False)
                embed = payload["embed"]
                assert shown(message) == CLOCK.sub("", f"{embed.title}\n{embed.description}"), cid
                assert message.attachments  # the picture is there too
            lags = bot.publisher.message.lags
            assert len(lags) >= TABLES * MOVES, sorted(lags)
            budget = bot.publisher.budget
            assert budget is not None and budget.rate == 15.0
        through_channel = fake.request_counts.get(CHANNEL_EDIT, 0)
        through_token = fake.request_counts.get(TOKEN_EDIT, 0)
        if tokens:  # a lobby whose answer was deferred (a busy machine) has no token until
            # Start is clicked: its lobby edits before that go through the channel
            assert through_token >= TABLES * MOVES, (through_token, through_channel)
            assert through_channel <= 2 * TABLES, (through_token, through_channel)
        else:  # coalesced: fewer edits than moves when they wait for the budget
            assert TABLES <= through_channel <= budget.taken, (through_channel, budget.taken,
                                                               fake.request_counts)
        assert fake.global_limited == [], fake.global_limited
        assert_clean(fake)
