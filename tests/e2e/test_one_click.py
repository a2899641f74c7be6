"""One click per move: the private hand follows the game (the bot edits it through the token of
the person's latest click), pings only for people whose hand does not follow."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Callable
from functools import partial
from typing import Any

import discord
import pytest

from bot import AlbastiniBot
from cogs.messages.courier import Courier, CourierGone
from cogs.ui import buttons as ids
from cogs.ui.replies import Reply
from tests.e2e.conftest import (
    assert_clean,
    enabled_moves,
    match_with_computers,
    press_start,
    settle,
    table_of,
)
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        yield server


async def _no_courier(self: Courier) -> None:
    """Courier.start when the bot must edit its messages itself."""
    raise CourierGone("no courier in this test")


def record_posts(fake: FakeDiscord) -> list[FakeMessage]:
    """Every public message posted from now on, kept even once deleted (turn notices are)."""
    posted: list[FakeMessage] = []
    store = fake._store

    def spy(msg: FakeMessage) -> None:
        store(msg)
        if msg.ephemeral_for is None:
            posted.append(msg)

    fake._store = spy  # type: ignore[method-assign]
    return posted


def notices_for(fake: FakeDiscord, posted: list[FakeMessage], user: FakeUser) -> list[FakeMessage]:
    """The turn notices that mentioned ``user`` among ``posted``."""
    return [
        m
        for m in posted
        if not m.v2 and f"<@{user.id}>" in m.content and fake.find_button(m, "Show my hand")
    ]


async def open_table(
    fake: FakeDiscord, people: list[FakeUser], **options: Any
) -> FakeMessage:
    """The first person opens a table for all of them, the others join, the host starts."""
    host, *guests = people
    r = await fake.slash(host, "albastini start", players=len(people), **options)
    lobby = r.message
    assert lobby is not None
    for guest in guests:
        await fake.click(guest, lobby, label="Join")
    await press_start(fake, host, lobby)
    await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"), timeout=10)
    return lobby


async def open_hands(
    fake: FakeDiscord, people: list[FakeUser], table_msg: FakeMessage
) -> dict[int, FakeMessage]:
    hands = {}
    for user in people:
        r = await fake.click(user, table_msg, label="Show my hand")
        assert r.ephemeral and r.message is not None
        hands[user.id] = r.message
    return hands


async def four_in_pairs(
    fake: FakeDiscord, bot: AlbastiniBot
) -> tuple[Any, dict[int, FakeMessage], dict[int, FakeUser]]:
    """Four people at an Albastini table in pairs, each with their hand open: the table, the
    hands by user id, the people by id."""
    people = [fake.add_user(name) for name in ("Asha", "Baraka", "Chiku", "Dalila")]
    table_msg = await open_table(fake, people, teams="pairs", target=1, game="albastini")
    hands = await open_hands(fake, people, table_msg)
    return table_of(bot, fake), hands, {u.id: u for u in people}


@pytest.mark.parametrize("courier", [True, False], ids=["courier", "no-courier"])
async def test_a_whole_four_pair_match_one_click_per_move(
    fake: FakeDiscord,
    make_bot: Callable[..., AlbastiniBot],
    monkeypatch: pytest.MonkeyPatch,
    courier: bool,
) -> None:
    """Each person opens their hand once; from then on they click only a card (or bid) on that
    same message when it shows their turn, and the match finishes. Whoever is not to play has
    no enabled move, and the person to play has only buttons of the current move. Nobody who
    watches their hand is pinged. The hands are edited by the courier process, or by the bot
    itself when it has none."""
    if not courier:
        monkeypatch.setattr(Courier, "start", _no_courier)
    bot = make_bot(notice_delay=0.0)
    posted = record_posts(fake)
    async with fake.run_bot(bot):
        assert (bot.publisher.courier is not None) == courier
        people = [fake.add_user(name) for name in ("Asha", "Baraka", "Chiku", "Dalila")]
        table_msg = await open_table(fake, people, teams="pairs", target=1, game="albastini")
        table = table_of(bot, fake)
        hands = await open_hands(fake, people, table_msg)
        await settle(bot, fake)
        opened = len(posted)  # the first to act was pinged before they opened their hand
        by_id = {u.id: u for u in people}
        clicks = moves = 0
        while table.status == "running":
            await settle(bot, fake)
            if table.status != "running":
                break
            seat = table.to_act
            assert seat is not None
            current = table.seats[seat].user_id
            for user in people:
                enabled = enabled_moves(hands[user.id])
                if user.id != current:
                    assert enabled == [], (user.name, hands[user.id].text)
                    continue
                assert enabled, hands[user.id].text
                numbers = {ids.parse(b.custom_id or "").move for b in enabled}  # type: ignore[union-attr]
                assert numbers == {table.move_no}
            hand = hands[current]
            r = await fake.click(by_id[current], hand, custom_id=enabled_moves(hand)[0].custom_id)
            clicks += 1
            assert r.response_type == 7 and r.message is hand  # played in place
            moves += 1
        assert table.status == "finished"
        assert clicks == moves and moves > 20
        assert bot.tables is not None
        follower = bot.tables.hands.follower
        assert follower.edits > moves / 2 and follower.failures == 0
        await settle(bot, fake)
        later = posted[opened:]
        assert any(m.text.startswith("Deal 1") for m in later)  # posts are recorded
        for user in people:
            assert notices_for(fake, later, user) == [], user.name
        assert_clean(fake)


async def test_a_hand_that_cannot_follow_falls_back_to_a_ping(
    fake: FakeDiscord, make_bot: Callable[..., AlbastiniBot]
) -> None:
    """A person whose hand message was deleted gets a ping on their turn, and the ping's
    "Show my hand" opens a hand that follows the game again."""
    bot = make_bot(notice_delay=0.0)
    posted = record_posts(fake)
    async with fake.run_bot(bot):
        people = [fake.add_user("Asha"), fake.add_user("Baraka")]
        table_msg = await open_table(fake, people, game="albastini")
        table = table_of(bot, fake)
        hands = await open_hands(fake, people, table_msg)
        await settle(bot, fake)
        del posted[:]  # the first to act was pinged before they opened their hand
        seat = table.to_act
        current = next(u for u in people if u.id == table.seats[seat].user_id)
        other = next(u for u in people if u is not current)
        fake._delete(hands[other.id])  # the person dismissed their private hand
        # play until the other person's turn
        while table.seats[table.to_act].user_id != other.id:
            hand = hands[current.id]
            await fake.wait_until(partial(enabled_moves, hand), timeout=5)
            await fake.click(current, hand, custom_id=enabled_moves(hand)[0].custom_id)
            await settle(bot, fake)
        await fake.wait_until(lambda: notices_for(fake, posted, other), timeout=5)
        assert notices_for(fake, posted, current) == []
        notice = notices_for(fake, posted, other)[0]
        r = await fake.click(other, notice, label="Show my hand")
        assert r.ephemeral and r.message is not None
        assert enabled_moves(r.message)
        await fake.click(other, r.message, custom_id=enabled_moves(r.message)[0].custom_id)
        await settle(bot, fake)
        # from now on this new hand follows the game: on their next turn it enables the moves
        hand = r.message
        while table.status == "running" and table.seats[table.to_act].user_id != other.id:
            mine = hands[current.id]
            await fake.wait_until(partial(enabled_moves, mine), timeout=5)
            await fake.click(current, mine, custom_id=enabled_moves(mine)[0].custom_id)
            await settle(bot, fake)
        if table.status == "running":
            await fake.wait_until(lambda: enabled_moves(hand), timeout=5)
        assert fake.unknown_routes == []


async def test_a_hand_stops_following_before_its_token_runs_out(
    fake: FakeDiscord, make_bot: Callable[..., AlbastiniBot]
) -> None:
    """Just before Discord's 15 minutes run out (shortened here), the bot leaves the hand with
    every move disabled and a note; it is never left with a button that would be refused."""
    bot = make_bot(notice_delay=0.0)
    async with fake.run_bot(bot):
        people = [fake.add_user("Asha"), fake.add_user("Baraka")]
        assert bot.tables is not None
        bot.tables.hands.follower.lifetime = 1.5
        bot.tables.hands.follower.margin = 1.0
        table_msg = await open_table(fake, people, game="albastini")
        table = table_of(bot, fake)
        hands = await open_hands(fake, people, table_msg)
        await settle(bot, fake)
        current = next(u for u in people if u.id == table.seats[table.to_act].user_id)
        hand = hands[current.id]
        assert enabled_moves(hand)
        await fake.wait_until(lambda: not enabled_moves(hand), timeout=5)
        assert fake.find_button(hand, label="Refresh") is not None
        assert "Refresh" in hand.text
        # Refresh brings a hand with the moves back
        r = await fake.click(current, hand, label="Refresh")
        assert r.message is hand and enabled_moves(hand)


async def test_an_older_hand_message_loses_its_buttons(
    fake: FakeDiscord, make_bot: Callable[..., AlbastiniBot]
) -> None:
    """Opening the hand again moves it to the new message: the old one keeps no button."""
    bot = make_bot(notice_delay=0.0)
    async with fake.run_bot(bot):
        people = [fake.add_user("Asha"), fake.add_user("Baraka")]
        table_msg = await open_table(fake, people, game="albastini")
        first = await open_hands(fake, people, table_msg)
        second = await open_hands(fake, people, table_msg)
        await settle(bot, fake)
        for user in people:
            assert first[user.id].buttons == [], first[user.id].text
            assert second[user.id].buttons


@pytest.mark.parametrize("courier", [True, False], ids=["courier", "no-courier"])
async def test_a_move_is_answered_before_the_updates_it_causes(
    fake: FakeDiscord,
    make_bot: Callable[..., AlbastiniBot],
    monkeypatch: pytest.MonkeyPatch,
    courier: bool,
) -> None:
    """The person who moves gets their answer first: the table message's edit and the next
    player's hand (enabled for their turn) reach Discord after it, not ahead of it on the bot's
    event loop, where at many busy tables they made every answer wait."""
    if not courier:
        monkeypatch.setattr(Courier, "start", _no_courier)
    bot = make_bot(notice_delay=0.0)
    async with fake.run_bot(bot):
        table, hands, by_id = await four_in_pairs(fake, bot)
        for _ in range(6):
            await settle(bot, fake)
            current = table.seats[table.to_act].user_id
            hand = hands[current]
            fake.request_log = []
            r = await fake.click(by_id[current], hand, custom_id=enabled_moves(hand)[0].custom_id)
            await settle(bot, fake)
            log, fake.request_log = fake.request_log, None
            nxt = table.seats[table.to_act].user_id
            assert log[0] == f"POST /api/v10/interactions/{r.interaction_id}/{r.token}/callback"
            assert len(log) >= 2, log  # the table message, the next player's hand
            assert enabled_moves(hands[nxt])
        assert_clean(fake)


async def test_a_hand_shown_while_the_table_moves_on_catches_up(
    fake: FakeDiscord,
    make_bot: Callable[..., AlbastiniBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A person opens their hand while the computer is about to play; the computer plays while
    that answer is on its way to Discord, and their turn comes. The hand then follows the game
    from a state older than the table's: it is brought up to date at once (their moves
    enabled), not left waiting for a change that has already happened."""
    bot = make_bot(computer_pause=0.3)
    async with fake.run_bot(bot):
        neema = fake.add_user("Neema")
        table_msg = await match_with_computers(fake, neema, players=2, target=3)
        table = table_of(bot, fake)
        await fake.wait_until(lambda: table.seats[table.to_act].user_id == neema.id)
        hand = (await fake.click(neema, table_msg, label="Show my hand")).message
        assert hand is not None
        await fake.click(neema, hand, custom_id=enabled_moves(hand)[0].custom_id)
        mine = table.seat_of(neema.id)
        if table.to_act == mine:  # the move ended a trick that the person leads: once more
            hand = (await fake.click(neema, table_msg, label="Show my hand")).message
            assert hand is not None
            await fake.click(neema, hand, custom_id=enabled_moves(hand)[0].custom_id)
        assert table.status == "running" and table.to_act != mine  # the computer to play

        send = Reply.send

        async def slow_send(self: Reply, *args: Any, **kwargs: Any) -> Any:
            sent = await send(self, *args, **kwargs)
            # the answer is out; the computer plays before the bot goes on
            await fake.wait_until(lambda: table.to_act == mine or table.status != "running")
            return sent

        monkeypatch.setattr(Reply, "send", slow_send)
        r = await fake.click(neema, table_msg, label="Show my hand")
        monkeypatch.setattr(Reply, "send", send)
        assert r.message is not None and not enabled_moves(r.message)  # drawn before
        hand = r.message
        if table.status == "running":
            await fake.wait_until(lambda: enabled_moves(hand), timeout=5)
        await settle(bot, fake)
        assert_clean(fake)


async def test_a_handled_click_is_freed_at_once(
    fake: FakeDiscord, make_bot: Callable[..., AlbastiniBot]
) -> None:
    """Clicks do not pile up in memory: once answered, a click (its payload, the message it was
    on with every button) is freed by reference counting, not left for the garbage collector's
    rare full pass (which at many busy tables held a third of the bot's memory per table and
    paused the event loop to free it)."""
    bot = make_bot(notice_delay=0.0)
    async with fake.run_bot(bot):
        table, hands, by_id = await four_in_pairs(fake, bot)
        await settle(bot, fake)
        gc.collect()
        gc.disable()  # from here, only reference counting frees anything
        try:
            for _ in range(12):
                await settle(bot, fake)
                hand = hands[table.seats[table.to_act].user_id]
                user = by_id[table.seats[table.to_act].user_id]
                await fake.click(user, hand, custom_id=enabled_moves(hand)[0].custom_id)
            await settle(bot, fake)
            left = [o for o in gc.get_objects() if isinstance(o, discord.Interaction)]
        finally:
            gc.enable()
        assert left == []
        assert_clean(fake)
