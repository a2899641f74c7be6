"""A restart in the middle of a deal: a new bot on the same database and the same fake Discord
picks the match up where it was, and the buttons sent before the restart keep working."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot import AlbastiniBot
from tests.e2e.conftest import (
    assert_clean,
    assert_no_hidden_card_public,
    enabled_moves,
    hand_messages,
    match_with_computers,
    press_start,
    settle,
    table_of,
)
from tests.e2e.test_match import live_notices, play_match, take_turn
from tests.fakediscord import FakeDiscord

SYNC = "PUT /api/v{version}/applications/{app}/commands"


def state(table: Any) -> tuple[Any, ...]:
    hands = tuple(tuple(table.match.deal.view(s)["hand"]) for s in range(table.players))
    seats = tuple((s.user_id, s.name) for s in table.seats)
    return table.status, table.deal_no, table.move_no, table.to_act, hands, seats, table.scores()


async def test_restart_mid_deal_resumes_with_working_buttons(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        juma = fake.add_user("Juma")
        people = {neema.id: neema, juma.id: juma}
        async with fake.run_bot(make_bot()) as bot:
            r = await fake.slash(neema, "albastini start", players=4, target=1)
            table_msg = r.message
            assert table_msg is not None
            await fake.click(juma, table_msg, label="Join")
            await fake.slash(neema, "albastini start", players=4)  # refused; nothing changes
            for _ in range(2):
                await fake.click(neema, table_msg, label="Add computer")
            await press_start(fake, neema, table_msg)
            await fake.wait_until(lambda: fake.find_button(table_msg, label="Show my hand"))
            table = table_of(bot, fake)
            for _ in range(4):  # a few moves of the first deal
                await fake.wait_until(
                    lambda: table.to_act is not None
                    and table.seats[table.to_act].user_id in people
                )
                await take_turn(fake, people[table.seats[table.to_act].user_id], table_msg)
            await fake.wait_until(
                lambda: table.to_act is not None and table.seats[table.to_act].user_id in people
            )
            await settle(bot, fake)
            before = state(table)
            waiting = people[table.seats[table.to_act].user_id]
        assert fake.request_counts.get(SYNC) == 1

        async with fake.run_bot(make_bot()) as bot2:
            await settle(bot2, fake)
            table2 = table_of(bot2, fake)
            assert table2 is not None and table2 is not table
            assert state(table2) == before
            # one live notice for the person to act: the old run's notice was swept
            assert live_notices(fake) == [waiting.id]
            assert fake.request_counts.get(SYNC) == 1  # the commands did not change: no sync

            # the private hand opened before the restart still works: refresh, then play
            old_hands = hand_messages(fake, waiting)
            assert old_hands
            hand = old_hands[-1]
            r = await fake.click(waiting, hand, label="Refresh")
            assert r.response_type == 7 and r.message is hand
            move = enabled_moves(hand)[0]
            r = await fake.click(waiting, hand, custom_id=move.custom_id)
            assert r.response_type == 7
            assert table2.move_no == before[2] + 1
            # and the public table message too
            r = await fake.click(juma, table_msg, label="Show my hand")
            assert r.ephemeral and r.response_type == 4
            await settle(bot2, fake)
            assert_no_hidden_card_public(bot2, fake)

            finished = await play_match(bot2, fake, people, table_msg)
            assert finished.status == "finished"
            await settle(bot2, fake)
            assert "wins the match" in "\n".join(m.text for m in fake.messages())
        assert_clean(fake)


async def test_play_again_works_for_a_match_that_ended_before_a_restart(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        stranger = fake.add_user("Stranger")
        async with fake.run_bot(make_bot()) as bot:
            lobby = await match_with_computers(fake, neema, players=3, target=1)
            await play_match(bot, fake, {neema.id: neema}, lobby)
            await settle(bot, fake)
        final = next(m for m in fake.messages() if fake.find_button(m, label="Play again"))

        async with fake.run_bot(make_bot()) as bot2:
            assert table_of(bot2, fake) is None  # the finished match is not kept in memory
            r = await fake.click(stranger, final, label="Play again")
            assert r.message is not None
            assert r.ephemeral and "not at this table" in r.message.text
            assert table_of(bot2, fake) is None  # someone who did not play opens nothing
            r = await fake.click(neema, final, label="Play again")
            assert r.response_type == 4 and not r.ephemeral
            new_lobby = r.message
            assert new_lobby is not None and new_lobby.text.count("Computer ") == 2
            await settle(bot2, fake)
            table = table_of(bot2, fake)
            assert table is not None and table.status == "lobby"
            assert table.message_id == new_lobby.id and table.host_id == neema.id
        assert_clean(fake)
