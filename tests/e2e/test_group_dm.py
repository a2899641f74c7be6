"""Played where the bot is no member: a group DM of friends who added the app to their own
accounts (and a server that never added the bot), everything public through interactions.

The fake Discord sends the interactions as Discord does for a user-installed app (context 2,
authorized by the person, no server, no member) and refuses every channel request of the bot
there (403, 50001 Missing Access): ``assert_clean`` (no refusal at all) shows that the bot never
tried one. Tokens live ``LIFE`` seconds instead of 15 minutes on both sides, so a "15-minute
gap" is a few seconds of nobody clicking.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any

import pytest

from albastini.table import Table
from bot import AlbastiniBot
from tests.e2e.conftest import assert_clean, assert_no_hidden_card_public, press_start, settle
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser

#: Seconds an interaction token works, on the fake and for the bot (Discord: 900).
LIFE = 8.0
ASLEEP = "Nobody has clicked here for a while"

#: game -> the options of /albastini start for a short match of 4 (two people, two computers)
GAMES: dict[str, dict[str, Any]] = {
    "albastini": {"players": 4, "teams": "pairs", "target": 1},
    "twentyeight": {"game": "twentyeight", "players": 4, "target": 1},
    "cassino": {"game": "cassino", "players": 4, "target": 1},
    "ass": {"game": "ass", "players": 4},
}


def hands_of(fake: FakeDiscord, user: FakeUser, place: int) -> list[FakeMessage]:
    """The person's private hands in the place, oldest first."""
    return [m for m in fake.ephemerals(user, channel_id=place)
            if not m.deleted and any((b.custom_id or "").startswith("alb:r:") for b in m.buttons)]


async def show_hand(fake: FakeDiscord, user: FakeUser, table_msg: FakeMessage,
                    place: int) -> FakeMessage:
    """"Show my hand" on the table message: acknowledged as an update of the table (its token
    edits the table) and the hand comes privately, as a follow-up."""
    had = hands_of(fake, user, place)
    r = await fake.click(user, table_msg, label="Show my hand")
    assert r.response_type == 6 and r.message is table_msg, r
    await fake.wait_until(lambda: hands_of(fake, user, place) != had)
    return hands_of(fake, user, place)[-1]


async def play_turn(fake: FakeDiscord, user: FakeUser, table_msg: FakeMessage, place: int,
                    *, from_table: bool = False) -> None:
    """The person to act plays their first move from their hand (refreshed, or opened from the
    table): a move's button, or a card's first option."""
    hands = hands_of(fake, user, place)
    if hands and not from_table:
        hand = hands[-1]
        r = await fake.click(user, hand, label="Refresh")
        assert r.response_type == 7 and r.message is hand, r
    else:
        hand = await show_hand(fake, user, table_msg, place)
    moves = [b for b in hand.buttons if not b.disabled
             and re.match(r"alb:[mo]:", b.custom_id or "")]
    assert moves, hand.text
    r = await fake.click(user, hand, custom_id=moves[0].custom_id)
    assert r.response_type == 7 and r.message is hand, r
    if hand.selects:  # a card with several uses (Cassino): its first option
        menu = hand.selects[0]
        r = await fake.select(user, hand, menu.custom_id, [menu.options[0][1]])
        assert r.response_type == 7, r


async def person_to_act(fake: FakeDiscord, table: Any,
                        people: dict[int, FakeUser]) -> FakeUser | None:
    """The person whose turn it is once the computers have played (None: the match is over)."""
    await fake.wait_until(
        lambda: table.status != "running"
        or (table.to_act is not None and table.seats[table.to_act].user_id in people),
        timeout=20)
    if table.status != "running":
        return None
    return people[table.seats[table.to_act].user_id]


def shown_now(bot: AlbastiniBot, table: Any) -> str:
    """What the table message shows for the table as it is now (its card's text)."""
    payload, _draw = bot.publisher.message._compose(table, picture=False)
    return str(payload["embed"].description)


async def open_in_group(fake: FakeDiscord, host: FakeUser, guest: FakeUser, place: int,
                        options: dict[str, Any]) -> FakeMessage:
    """The host opens a table in the group (the command's public answer is the table message),
    the guest joins, two computers, Start: each click on the table updates it through its own
    token; a private answer (the guest's "you joined") comes as a follow-up."""
    r = await fake.slash(host, "albastini start", channel_id=place, **options)
    assert r.response_type == 4 and not r.ephemeral, r
    lobby = r.message
    assert lobby is not None and lobby.guild_id is None and lobby.channel_id == place
    r = await fake.click(guest, lobby, label="Join")
    assert r.response_type == 6, r  # the lobby, updated through this click's token
    await fake.wait_until(lambda: fake.ephemerals(guest, channel_id=place))
    note = fake.ephemerals(guest, channel_id=place)[-1]
    assert "You're in" in note.text, note.text
    for _ in range(2):
        r = await fake.click(host, lobby, label="Add computer")
        assert r.response_type == 6
    await press_start(fake, host, lobby)
    await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"), timeout=10)
    return lobby


#: The game whose match in a group DM also waits out its tokens (see the test).
GAP_GAME = "albastini"


async def a_gap_then_a_click_on_the_table(
    fake: FakeDiscord, bot: AlbastiniBot, table: Table, table_msg: FakeMessage, place: int,
    people: dict[int, FakeUser],
) -> None:
    """Nobody clicks for the tokens' whole life. Before its token ends, the table message
    says it may be behind; then no token is left at all. A move still counts but cannot show;
    the next click on the table message brings it up to date, the note gone."""
    await fake.wait_until(lambda: ASLEEP in table_msg.text, timeout=3 * LIFE)
    await asyncio.sleep(LIFE)
    user = await person_to_act(fake, table, people)
    assert user is not None
    seen = table_msg.text
    moves_before = table.move_no
    # the person plays from their hand (retired meanwhile: Refresh, then the move); the
    # computers answer; the table message cannot show it yet
    await play_turn(fake, user, table_msg, place)
    assert table.move_no > moves_before
    await person_to_act(fake, table, people)
    await settle(bot, fake)
    assert table_msg.text == seen and bot.publisher.message.sleeping(table.id)
    other = next(p for p in people.values() if p is not user)
    await show_hand(fake, other, table_msg, place)
    await settle(bot, fake)
    assert ASLEEP not in table_msg.text
    assert table_msg.embeds[0]["description"] == shown_now(bot, table)


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_whole_match_in_a_group_dm_through_interactions_only(
    make_bot: Callable[..., AlbastiniBot], game: str
) -> None:
    """Two friends and two computers play a match in their group DM: no server, no admin, no
    channel request of the bot. The table message follows through the clicks' tokens; when
    nobody has clicked for the token's life it says it may be behind, moves still count, and
    the next click on it brings it up to date; a restart mid-match loses nothing. (The gap
    waits out two tokens' lives, ~12 s: it is played in one game only, since a table message
    falls asleep and wakes the same way whatever its game.)"""
    async with FakeDiscord(token_lifetime=LIFE) as fake:
        neema = fake.add_user("Neema")
        juma = fake.add_user("Juma")
        place = fake.add_group_dm(neema, juma, name="Card friends")
        people = {neema.id: neema, juma.id: juma}
        async with fake.run_bot(make_bot(token_life=LIFE)) as bot:
            table_msg = await open_in_group(fake, neema, juma, place, GAMES[game])
            table = bot.service.table_in_channel(place)
            assert table is not None and table.interactions_only and table.guild_id == place
            assert table_msg.attachments  # the picture, sent through a token too
            for turn in range(3):
                user = await person_to_act(fake, table, people)
                assert user is not None
                await play_turn(fake, user, table_msg, place, from_table=turn == 0)
            await settle(bot, fake)
            assert_no_hidden_card_public(bot, fake)

            if game == GAP_GAME:
                await a_gap_then_a_click_on_the_table(fake, bot, table, table_msg, place, people)
            before = (table.deal_no, table.move_no, table.scores())

        # a restart mid-match: the new run has no token; the table is picked up where it was
        async with fake.run_bot(make_bot(token_life=LIFE)) as bot2:
            table2 = bot2.service.table_in_channel(place)
            assert table2 is not None and table2.interactions_only
            assert (table2.deal_no, table2.move_no, table2.scores()) == before
            turns = 0
            while (user := await person_to_act(fake, table2, people)) is not None:
                # now and then a person opens their hand from the table (which wakes it)
                await play_turn(fake, user, table_msg, place, from_table=turns % 4 == 0)
                turns += 1
                if turns % 6 == 0:
                    await settle(bot2, fake)
                    assert_no_hidden_card_public(bot2, fake)
            assert table2.status == "finished"
            await settle(bot2, fake)
            # the match's end, the last thing in the group, a follow-up of someone's click
            last = fake.messages(place)[-1]
            assert last.v2 and fake.find_button(last, label="Play again"), last.text
            assert last.interaction_id is not None
            assert fake.messages(fake.channel_id) == []  # nothing went to a server's channel
            # the group's own leaderboard counts the two friends (not the computers); a server's
            # board does not; a player's history everywhere has the match
            which: dict[str, Any] = {"game": game} if game != "albastini" else {}
            r = await fake.slash(juma, "albastini leaderboard", channel_id=place, **which)
            assert r.response_type == 4 and not r.ephemeral, r
            assert r.message is not None
            board = r.message.text
            assert f"<@{neema.id}>" in board and f"<@{juma.id}>" in board, board
            assert board.count(" out of 1 ") == 2, board
            r = await fake.slash(juma, "albastini leaderboard", **which)
            assert r.message is not None
            assert f"<@{juma.id}>" not in r.message.text
            r = await fake.slash(neema, "albastini history", channel_id=place, everywhere=True)
            assert r.message is not None
            assert r.ephemeral and f"#{table2.id}" in r.message.text, r.message.text
            # the same players again: a new lobby, the answer to that click, in the group
            r = await fake.click(juma, last, label="Play again")
            assert r.response_type == 4 and not r.ephemeral and r.message is not None, r
            again = bot2.service.table_in_channel(place)
            assert again is not None and again.interactions_only and again.id != table2.id
            lobby = r.message  # a name the lambda can see narrowed
            await fake.wait_until(lambda: again.message_id == lobby.id)
            assert r.message.channel_id == place
            await settle(bot2, fake)
        assert_clean(fake)


async def test_refusals_where_the_bot_is_no_member(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    """What needs the channel is off with a word: no thread in a group DM; a server's settings
    are a server's; and in a server that never added the bot, the person's own install opens a
    table played through interactions as in a group DM."""
    async with FakeDiscord(token_lifetime=LIFE) as fake:
        neema = fake.add_user("Neema")
        juma = fake.add_user("Juma")
        place = fake.add_group_dm(neema, juma)
        elsewhere = fake.add_guild("No bot here", bot_member=False)
        far = next(iter(fake.guilds[elsewhere].channels))
        nia = fake.add_user("Nia", guild_id=elsewhere)
        async with fake.run_bot(make_bot(token_life=LIFE)) as bot:
            r = await fake.slash(neema, "albastini start", channel_id=place, thread=True)
            assert r.message is not None
            assert r.ephemeral and "can't start a thread" in r.message.text, r.message.text
            assert bot.service.table_in_channel(place) is None
            r = await fake.slash(neema, "albastini settings", channel_id=place)
            assert r.message is not None
            assert r.ephemeral and "not in a group DM" in r.message.text, r.message.text

            r = await fake.slash(nia, "albastini start", channel_id=far, computers=True,
                                 players=2)
            assert r.response_type == 4 and not r.ephemeral, r
            table = bot.service.table_in_channel(far)
            assert table is not None and table.interactions_only and table.guild_id == elsewhere
            lobby = r.message
            assert lobby is not None
            await press_start(fake, nia, lobby)
            await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"))
            await settle(bot, fake)
        assert_clean(fake)
