"""Cassino at the real bot, against the fake Discord: a whole 2-player match of a person and a
computer, each of the person's moves in one click (a card with one use) or two (a card's
options, then one of them in a select menu); no card of the computer's hand or of the pack in
any public message. Then a 4-pair match of people and computers; on seeded deals (the service's
rng draws the seats, the dealer and the deal's seed), a sweep chosen in the select menu, builds
of the computer's taken and raised by a person, the chooser open when her time runs out, and a
restart mid-deal with the chooser open."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from albastini.timers import ManualClock
from bot import AlbastiniBot
from cogs import render
from cogs.games import cassino as shows
from tests.e2e.conftest import (
    assert_cards,
    assert_clean,
    assert_no_hidden_card_public,
    hand_messages,
    open_hand,
    press_start,
    settle,
    table_of,
)
from tests.e2e.test_restart import state
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
    if not (cards[0].custom_id or "").startswith("alb:o:"):
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
                deal = table.match.deal
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


# --------------------------------------------------------------------------- chosen moves
Pick = Callable[[dict[str, Any]], str]


def first_legal(view: dict[str, Any]) -> str:
    return str(view["legal"][0])


def seat_view(table: Any, user: FakeUser) -> dict[str, Any]:
    return table.match.deal.view(table.seat_of(user.id))  # type: ignore[no-any-return]



async def open_options(fake: FakeDiscord, user: FakeUser, hand: FakeMessage,
                       card: str) -> None:
    """The person clicks a card with several uses: its options replace the hand."""
    button = next((b for b in hand.buttons if (b.custom_id or "").startswith("alb:o:")
                   and (b.custom_id or "").split(":")[4] == card), None)
    assert button is not None and not button.disabled, (card, hand.text)
    r = await fake.click(user, hand, custom_id=button.custom_id)
    assert r.response_type == 7 and r.message is hand, r
    assert hand.selects and "choose what to do with it" in hand.text, hand.text


async def play_code(fake: FakeDiscord, user: FakeUser, hand: FakeMessage, code: str) -> str:
    """The person makes the move ``code`` as a player would: the card's button when it has one
    use ("move"), else the card's options and the option in its select menu ("chooser")."""
    direct = next((b for b in hand.buttons if b.custom_id and b.custom_id.startswith("alb:m:")
                   and b.custom_id.endswith(":" + code)), None)
    if direct is not None:
        assert not direct.disabled
        r = await fake.click(user, hand, custom_id=direct.custom_id)
        assert r.response_type == 7 and r.message is hand, r
        return "move"
    await open_options(fake, user, hand, code.split(":")[1])
    menu = next(s for s in hand.selects if any(v == code for _, v, *_ in s.options))
    r = await fake.select(user, hand, menu.custom_id, [code])
    assert r.response_type == 7 and r.message is hand, r
    assert not hand.selects, hand.text  # back to the hand
    return "chooser"


async def person_turn(bot: AlbastiniBot, fake: FakeDiscord, table: Any, people: dict[int, FakeUser],
                      table_msg: FakeMessage) -> FakeUser | None:
    """Wait for a person's turn (None: the match is over) and return that person."""
    await fake.wait_until(
        lambda: table.status != "running"
        or (table.to_act is not None and table.seats[table.to_act].user_id in people),
        timeout=10,
    )
    if table.status != "running":
        return None
    await settle(bot, fake)
    return people[table.seats[table.to_act].user_id]


async def play_cassino(bot: AlbastiniBot, fake: FakeDiscord, people: dict[int, FakeUser],
                       table_msg: FakeMessage, pick: Pick = first_legal,
                       after: Callable[[FakeUser, str, str], Any] | None = None) -> set[str]:
    """The people play to the end of the match, each move chosen by ``pick`` from their
    view; ``after(user, code, way)`` looks at the table after each of their moves. Returns
    the ways the moves were made ("move", "chooser")."""
    table = table_of(bot, fake)
    ways: set[str] = set()
    turns = 0
    while (user := await person_turn(bot, fake, table, people, table_msg)) is not None:
        hand = await open_hand(fake, user, table_msg)
        code = pick(seat_view(table, user))
        move_no = table.move_no
        ways.add(way := await play_code(fake, user, hand, code))
        assert table.move_no > move_no or table.status != "running"
        turns += 1
        if turns % 4 == 0:
            await settle(bot, fake)
            assert_no_hidden_card_public(bot, fake)
        if after is not None:
            await settle(bot, fake)
            await after(user, code, way)
    await settle(bot, fake)
    return ways


async def open_cassino(fake: FakeDiscord, host: FakeUser, guests: list[FakeUser],
                       computers: int, **options: Any) -> FakeMessage:
    """The host opens a Cassino table, the guests join, computers fill the rest, Start."""
    r = await fake.slash(host, "albastini start", game="cassino", **options)
    assert r.response_type == 4 and not r.ephemeral, r
    lobby = r.message
    assert lobby is not None and "Cassino" in lobby.text
    for guest in guests:
        r = await fake.click(guest, lobby, label="Join")
        assert r.ephemeral
    for _ in range(computers):
        await fake.click(host, lobby, label="Add computer")
    await press_start(fake, host, lobby)
    await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"), timeout=10)
    return lobby


async def test_a_four_pairs_match_of_people_and_computers(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        ana = fake.add_user("Ana")
        ben = fake.add_user("Ben")
        people = {ana.id: ana, ben.id: ben}
        async with fake.run_bot(make_bot()) as bot:
            lobby = await open_cassino(fake, ana, [ben], 2, players=4, target=1)
            table = table_of(bot, fake)
            assert table.game == "cassino" and table.players == 4 and table.team_size == 2
            # the people sit in the order of play with the computers, partners opposite
            seats = [table.seat_of(ana.id), table.seat_of(ben.id)]
            assert None not in seats
            deal = table.match.deal
            assert deal.rounds == 3 and len(deal.hand(seats[0])) == 4
            await play_cassino(bot, fake, people, lobby)
            assert table.status == "finished"
            texts = "\n".join(m.text for m in fake.messages())
            # the summary counts per team, and the match's end is announced
            assert re.search(r"Deal 1 — Team A \d+ .*Team B \d+", texts), texts
            assert "wins the match" in texts
            # every seat played its 12 cards of the 3 rounds of each deal
            assert all(not deal.hand(s) for s in range(4))
            assert assert_cards(fake, "cassino") >= 3  # table, summaries, end
        assert_clean(fake)


def several_uses(view: dict[str, Any]) -> dict[str, Any] | None:
    """A move of a card with more than one use (its last option: not the first one)."""
    cards = [m["card"] for m in view["moves"]]
    return next((m for m in reversed(view["moves"]) if cards.count(m["card"]) > 1), None)


async def choose(fake: FakeDiscord, user: FakeUser, hand: FakeMessage, code: str) -> str:
    """The person opens the card of ``code``'s options and picks it in a select menu; returns
    the option's label as the menu shows it."""
    await open_options(fake, user, hand, code.split(":")[1])
    menu, label = next((s, label) for s in hand.selects for label, v in s.options if v == code)
    assert len([v for s in hand.selects for _, v in s.options]) > 1  # a real choice
    r = await fake.select(user, hand, menu.custom_id, [code])
    assert r.response_type == 7 and r.message is hand, r
    assert not hand.selects and "choose what to do" not in hand.text, hand.text
    return label


#: A seat-drawing rng seed (searched with new_deal's seeds) with which Ana plays first and her
#: eights can each take the four table cards (2♦ 4♣ 4♦ 6♥) at once, among other uses.
SWEEP_SEED = 114


async def test_a_sweep_chosen_in_the_select_menu_is_counted_and_shown(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        ana = fake.add_user("Ana")
        bot = make_bot(service={"rng": random.Random(SWEEP_SEED)})
        async with fake.run_bot(bot):
            lobby = await open_cassino(fake, ana, [], 1, players=2, target=1)
            table = table_of(bot, fake)
            assert await person_turn(bot, fake, table, {ana.id: ana}, lobby) is ana
            assert "Table: 2♦ · 4♣ · 4♦ · 6♥" in lobby.text, lobby.text
            seat = table.seat_of(ana.id)
            hand = await open_hand(fake, ana, lobby)
            code = "capture:8D:2D4C4D6H"
            label = await choose(fake, ana, hand, code)
            assert label == "Take 2♦ and 4♣ and 4♦ and 6♥ with 8♦ (5 cards) — sweep!", label
            await settle(bot, fake)
            # the table message shows the empty table and Ana's sweep beside her captures
            assert "Table: empty" in lobby.text, lobby.text
            assert f"<@{ana.id}> 5 cards (1 sweep)" in lobby.text, lobby.text
            assert "8♦" not in hand.text.split("\n")[0]
            first = table.match.deal
            await play_cassino(bot, fake, {ana.id: ana}, lobby)
            # the deal's summary scores her sweeps (the engine's count: 1, or more if she
            # swept again)
            swept = first.result().items[first.team_of(seat)]["sweeps"]
            assert swept >= 1
            summary = next(m.text for m in fake.messages() if "Deal 1 —" in m.text)
            mine = next(part for part in summary.split(" · ") if str(ana.id) in part)
            assert f"sweeps: {swept}" in mine, summary
        assert_clean(fake)



def _theirs(view: dict[str, Any], item: dict[str, Any]) -> bool:
    """A build the other side controls."""
    ctrl = item.get("controller")
    return (item.get("kind") not in (None, "card") and isinstance(ctrl, int)
            and view["teams"][ctrl] != view["team"])


def takeover(view: dict[str, Any]) -> dict[str, Any] | None:
    """A move that captures or adds to a build the other side controls."""
    return next((m for m in view["moves"] if m["kind"] in ("capture", "build")
                 and any(_theirs(view, it) for it in m["items"])), None)


#: A seat-drawing rng seed with which Ana, taking over whenever she can, first takes a build
#: of the computer's, then raises another one to 10.
TAKEOVER_SEED = 1


async def test_builds_of_the_other_side_taken_and_raised(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        ana = fake.add_user("Ana")
        bot = make_bot(service={"rng": random.Random(TAKEOVER_SEED)})
        async with fake.run_bot(bot):
            lobby = await open_cassino(fake, ana, [], 1, players=2, target=5)
            table = table_of(bot, fake)
            seat = table.seat_of(ana.id)
            me = f"<@{ana.id}>"
            pending: list[dict[str, Any]] = []
            done: list[str] = []

            def pick(view: dict[str, Any]) -> str:
                move = takeover(view)
                if move is None:
                    return first_legal(view)
                theirs = [it for it in move["items"] if _theirs(view, it)]
                # before: the table shows the build and who holds it (the computer)
                for it in theirs:
                    assert shows.item_text("en", it) + ", held by Computer" in lobby.text, (
                        it, lobby.text)
                pending.append(move)
                return str(move["code"])

            async def after(user: FakeUser, code: str, way: str) -> None:
                if not pending or pending[-1]["code"] != code:
                    return
                move = pending.pop()
                public = table.match.deal.view(None) if table.status == "running" else None
                if public is None:
                    return
                if move["kind"] == "capture":
                    # the build is gone from the table, into Ana's captures
                    for it in move["items"]:
                        assert shows.item_text("en", it) not in lobby.text.split("Captured")[0]
                    assert f"Last capture: {me} with " in lobby.text, lobby.text
                    done.append("capture")
                else:
                    new = next(it for it in public["table"] if move["card"] in it["cards"])
                    assert new["controller"] == seat and new["value"] == move["value"]
                    # the raised build is now Ana's: the table and her hand say so
                    assert shows.item_text("en", new) + f", held by {me}" in lobby.text, (
                        lobby.text)
                    hand = hand_messages(fake, ana)[-1]
                    assert "You hold a build of" in hand.text and str(new["value"]) in (
                        hand.text), hand.text
                    done.append("build")

            await play_cassino(bot, fake, {ana.id: ana}, lobby, pick, after)
            assert "capture" in done and "build" in done, done
        assert_clean(fake)


#: A seat-drawing rng seed with which Ana plays first and holds a card of three uses or more.
CHOICE_SEED = 3


async def test_an_open_chooser_gives_way_to_the_hand_when_her_time_runs_out(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        ana = fake.add_user("Ana")
        clock = ManualClock()
        bot = make_bot(service={"rng": random.Random(CHOICE_SEED), "clock": clock})
        async with fake.run_bot(bot):
            lobby = await open_cassino(fake, ana, [], 1, players=2, target=1)
            table = table_of(bot, fake)
            assert await person_turn(bot, fake, table, {ana.id: ana}, lobby) is ana
            view = seat_view(table, ana)
            move = several_uses(view)
            assert move is not None
            hand = await open_hand(fake, ana, lobby)
            await open_options(fake, ana, hand, move["card"])
            old_menu = next(m.custom_id for m in hand.selects
                            if any(v == move["code"] for _, v in m.options))
            held = list(view["hand"])
            start = table.move_no
            # she does not choose: her time runs out and a computer plays for her
            await clock.advance(table.turn_time + 1)
            await fake.wait_until(lambda: table.move_no > start, timeout=10)
            await settle(bot, fake)
            left = seat_view(table, ana)["hand"]
            assert len(left) == len(held) - 1
            # her private message shows her hand again, not the chooser of a card she may no
            # longer hold: no menu, no title, a button for each card she holds now
            assert not hand.selects, hand.text
            assert "choose what to do" not in hand.text, hand.text
            labels = " ".join(b.label or "" for b in hand.buttons)
            for code in left:
                assert render.card_label(code) in labels, (code, labels)
            assert "your turn" in hand.text and not hand.text.startswith("**")
            # and it tells her what was played for her, so a build she now holds is no surprise
            assert "time ran out" in hand.text, hand.text
            # a late pick in the menu she saw (a client that still showed it) plays nothing
            now = table.move_no
            r = await fake.send_component(ana, hand, old_menu, component_type=3,
                                          values=[str(move["code"])])
            assert r.response_type == 7 and r.message is hand, r
            assert "from an earlier move" in hand.text, hand.text
            await settle(bot, fake)
            assert table.move_no == now and seat_view(table, ana)["hand"] == left
            assert not hand.selects
        assert_clean(fake)


async def test_a_restart_mid_deal_with_the_chooser_open(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        ana = fake.add_user("Ana")
        people = {ana.id: ana}
        service = {"rng": random.Random(CHOICE_SEED)}
        async with fake.run_bot(make_bot(service=service)) as bot:
            lobby = await open_cassino(fake, ana, [], 1, players=2, target=1)
            table = table_of(bot, fake)
            assert await person_turn(bot, fake, table, people, lobby) is ana
            move = several_uses(seat_view(table, ana))
            assert move is not None
            hand = await open_hand(fake, ana, lobby)
            await open_options(fake, ana, hand, move["card"])
            before = state(table)
            table_text = lobby.text
        # the bot restarts while the chooser is open
        async with fake.run_bot(make_bot(service={"rng": random.Random(1)})) as bot2:
            await settle(bot2, fake)
            table2 = table_of(bot2, fake)
            assert table2 is not None and table2 is not table
            assert state(table2) == before  # the same deal, hands and turn
            # the table message shows the same table (her turn's deadline starts again)
            assert re.sub(r"<t:\d+:R>", "", lobby.text) == re.sub(r"<t:\d+:R>", "", table_text)
            # the chooser she opened before the restart still makes her move
            menu = next(m for m in hand.selects if any(v == move["code"] for _, v in m.options))
            r = await fake.select(ana, hand, menu.custom_id, [str(move["code"])])
            assert r.response_type == 7 and r.message is hand, r
            assert table2.move_no == before[2] + 1
            assert table2.match.deal.actions[-1] == move["code"]
            assert not hand.selects  # back to her hand, without the card she played
            assert not any((b.label or "").startswith(render.card_label(move["card"]))
                           for b in hand.buttons), hand.buttons
            # the table message follows the game again, and the match goes on to its end
            await settle(bot2, fake)
            assert lobby.text != table_text
            assert_no_hidden_card_public(bot2, fake)
            ways = await play_cassino(bot2, fake, people, lobby)
            assert table2.status == "finished" and ways
            assert "wins the match" in "\n".join(m.text for m in fake.messages())
        assert_clean(fake)
