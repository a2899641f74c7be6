"""Cassino at the real bot, against the fake Discord: a whole 2-player match of a person and a
computer, each of the person's moves in one click (a card with one use) or two (a card's
options, then one of them in a select menu); no card of the computer's hand or of the pack in
any public message."""

from __future__ import annotations

import re
from collections.abc import Callable

from bot import AlbastiniBot
from cogs import render
from tests.e2e.conftest import hand_messages, press_start, settle, table_of
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser


async def _turn(fake: FakeDiscord, user: FakeUser, table_msg: FakeMessage) -> str:
    """The person plays their first playable card; returns how ("move" or "chooser")."""
    hands = hand_messages(fake, user)
    if hands:
        hand = hands[-1]
        r = await fake.click(user, hand, label="Refresh")
    else:
        r = await fake.click(user, table_msg, label="Show my hand")
    assert r.message is not None
    hand = r.message
    cards = [b for b in hand.buttons if not b.disabled
             and re.match(r"alb:[mo]:", b.custom_id or "")]
    assert cards, hand.text
    r = await fake.click(user, hand, custom_id=cards[0].custom_id)
    assert r.response_type == 7 and r.message is hand, r
    if not cards[0].custom_id.startswith("alb:o:"):
        return "move"
    assert hand.selects, hand.text
    menu = hand.selects[0]
    r = await fake.select(user, hand, menu.custom_id, [menu.options[0][1]])
    assert r.response_type == 7 and r.message is hand, r
    return "chooser"


async def test_a_two_player_match_of_a_person_and_a_computer(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        ana = fake.add_user("Ana")
        async with fake.run_bot(make_bot()) as bot:
            r = await fake.slash(ana, "albastini start", game="cassino", players=2, target=1)
            assert r.response_type == 4 and not r.ephemeral, r
            lobby = r.message
            assert lobby is not None and "Cassino" in lobby.text
            await fake.click(ana, lobby, label="Add computer")
            await press_start(fake, ana, lobby)
            await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"),
                                  timeout=10)
            table = table_of(bot, fake)
            assert table is not None and table.game == "cassino"
            ways: set[str] = set()
            while table.status == "running":
                await fake.wait_until(
                    lambda: table.status != "running"
                    or (table.to_act is not None and table.seats[table.to_act].user_id == ana.id),
                    timeout=10,
                )
                if table.status != "running":
                    break
                await settle(bot, fake)
                # nothing hidden in public: the computer's hand and the pack
                deal = table.match.deal  # type: ignore[union-attr]
                public = deal.view(None)
                seen = {c for it in public["table"] for c in it["cards"]}
                hidden = {c.code for c in deal.hand(1)} | {
                    c.code for c in deal.deck[52 - public["pack"]:]}
                for m in fake.messages():
                    for code in hidden - seen:
                        assert not re.search(re.escape(render.card_label(code)) + r"(?!\d)",
                                             m.text), (code, m.text)
                ways.add(await _turn(fake, ana, lobby))
            await settle(bot, fake)
            assert table.status == "finished"
            assert "move" in ways
            texts = "\n".join(m.text for m in fake.messages())
            assert "Big Cassino" in texts or "aces" in texts
