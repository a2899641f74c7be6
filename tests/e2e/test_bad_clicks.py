"""Every wrong click gets a short private answer, and nothing at the table changes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from bot import AlbastiniBot
from tests.e2e.conftest import assert_clean, enabled_moves, press_start, settle, table_of
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser


def snapshot(table: Any) -> tuple[Any, ...]:
    hands = tuple(tuple(table.match.deal.view(s)["hand"]) for s in range(table.players))
    return table.move_no, table.deal_no, hands


async def open_two_player_table(fake: FakeDiscord, host: FakeUser, guest: FakeUser) -> FakeMessage:
    r = await fake.slash(host, "albastini start", players=2, target=3)
    lobby = r.message
    assert lobby is not None
    await fake.click(guest, lobby, label="Join")
    r = await press_start(fake, host, lobby)
    assert r.response_type == 6
    await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"))
    return lobby


async def test_bad_clicks_are_answered_privately_and_change_nothing(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        juma = fake.add_user("Juma")
        amina = fake.add_user("Amina")
        async with fake.run_bot(make_bot()) as bot:
            table_msg = await open_two_player_table(fake, neema, juma)
            table = table_of(bot, fake)
            people = {neema.id: neema, juma.id: juma}
            mover = people[table.seats[table.to_act].user_id]
            waiter = juma if mover is neema else neema
            await settle(bot, fake)
            before = snapshot(table)

            # not seated: a bystander's "Show my hand"
            r = await fake.click(amina, table_msg, label="Show my hand")
            assert r.ephemeral and r.response_type == 4
            assert r.message is not None
            assert "not at this table" in r.message.text

            # not your turn: the waiting player's card buttons are disabled; forcing one
            r = await fake.click(waiter, table_msg, label="Show my hand")
            waiting_hand = r.message
            assert waiting_hand is not None and not enabled_moves(waiting_hand)
            card_id = next(
                b.custom_id
                for b in waiting_hand.buttons
                if b.custom_id is not None and b.custom_id.startswith("alb:") and b.disabled
            )
            r = await fake.send_component(waiter, waiting_hand, card_id)
            assert r.ephemeral and r.response_type == 7
            assert "turn" in waiting_hand.text

            # the bystander forging a move of the current turn: a card is no button of the
            # public table message, so it is refused before the table service hears of it
            r = await fake.click(mover, table_msg, label="Show my hand")
            hand = r.message
            assert hand is not None
            move_id = enabled_moves(hand)[0].custom_id
            r = await fake.send_component(amina, table_msg, move_id)
            assert r.message is not None
            assert r.ephemeral and "doesn't work any more" in r.message.text

            # forged and garbled ids
            for forged in ("alb:p:999999:1:AS", "alb:p:1:1:ZZ", "nonsense", "alb:" + "9" * 120):
                r = await fake.send_component(mover, table_msg, forged)
                assert r.ephemeral and r.response_type == 4, forged
            assert snapshot(table) == before

            # a double click: exactly one move is played, the second click is stale
            r1, r2 = await asyncio.gather(
                fake.send_component(mover, hand, move_id),
                fake.send_component(mover, hand, move_id),
            )
            assert {r1.response_type, r2.response_type} == {7}
            assert table.move_no == before[0] + 1
            # an old button after the move: stale, answered with the fresh hand
            r = await fake.send_component(mover, hand, move_id)
            assert r.response_type == 7 and "earlier move" in hand.text
            assert table.move_no == before[0] + 1
            await settle(bot, fake)
        assert fake.failed_interactions == []
        assert_clean(fake)
