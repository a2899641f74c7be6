"""Twenty-Eight at the real bot, against the fake Discord, on a real SQLite database: a whole
match of people and computers, a person calling for the trump by button, the bidder's forced
exposure on the last trick, a restart mid-deal, the game's leaderboard and stats, its rules, and
the refusals of /albastini start.

Throughout, the face-down trump card is looked for where it must not be before it is exposed:
every public message, every private message of a seat other than the bidder, and every line
the bot logs (a logging handler checks each record as it is emitted).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

import pytest

from bot import AlbastiniBot
from cogs import render
from tests.e2e.conftest import (
    LeakWatch,
    assert_cards,
    assert_clean,
    enabled_moves,
    hand_messages,
    open_hand,
    press_start,
    settle,
    table_of,
)
from tests.e2e.test_match import play_match, take_turn
from tests.e2e.test_restart import state
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser

GAME: dict[str, Any] = {"game": "twentyeight"}
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")


def face_down(bot: AlbastiniBot, fake: FakeDiscord) -> tuple[int, str] | None:
    """(bidder, card code) of the trump card lying face down now, None when there is none."""
    table = table_of(bot, fake)
    if table is None or table.match is None or table.status != "running":
        return None
    deal = table.match.deal
    bidder = deal.view(None)["bidder"]
    if bidder is None:
        return None
    own = deal.view(bidder)
    if not own["trump_face_down"] or own["exposed"] or not own["trump_card"]:
        return None
    return bidder, str(own["trump_card"])


def _names(text: str, card: str) -> bool:
    label = render.card_label(card)
    return re.search(re.escape(label) + r"(?!\d)", text) is not None or re.search(
        rf"\b{card}\b", text) is not None


def assert_trump_hidden(bot: AlbastiniBot, fake: FakeDiscord, people: list[FakeUser]) -> bool:
    """While a trump card lies face down, no public message names it or says what the trump
    is, and no private message of anyone but the bidder names it. True when it checked."""
    down = face_down(bot, fake)
    if down is None:
        return False
    bidder, card = down
    table = table_of(bot, fake)
    for msg in fake.messages():
        if msg.deleted:
            continue
        assert not _names(msg.text, card), (card, msg.text)
        trump_lines = [line for line in msg.text.splitlines() if "Trump" in line]
        for line in trump_lines:
            assert not any(word in line for word in SUIT_WORDS), line
    for person in people:
        if table.seat_of(person.id) == bidder:
            continue
        hands = hand_messages(fake, person)
        if hands:
            seen = hands[-1].text + " " + " ".join(b.label or "" for b in hands[-1].buttons)
            assert not _names(seen, card), (person.name, card, seen)
    return True


@pytest.fixture
def watch_logs(
    log_watch: Callable[[Callable[[str], bool | None]], LeakWatch],
) -> Callable[[AlbastiniBot, FakeDiscord], LeakWatch]:
    """Watch the bot's logs for the trump card lying face down at the moment of each record."""

    def start(bot: AlbastiniBot, fake: FakeDiscord) -> LeakWatch:
        def leaked(text: str) -> bool | None:
            down = face_down(bot, fake)
            if down is None:
                return None
            return bool(_names(text, down[1]) or f"trump:{down[1]}" in text)

        return log_watch(leaked)

    return start


def probe(logs: LeakWatch, card: str) -> None:
    """The watch itself works: a line of the bot's that named the face-down card is caught."""
    logging.getLogger("cogs.probe").debug("probe: %s", card)
    assert logs.leaks == [f"probe: {card}"]
    logs.leaks.clear()


async def open_twentyeight(
    fake: FakeDiscord, host: FakeUser, guests: list[FakeUser], computers: int, **options: Any
) -> FakeMessage:
    """The host opens a Twenty-Eight table, the guests join, computers fill the rest, Start."""
    r = await fake.slash(host, "albastini start", **GAME, **options)
    assert r.response_type == 4 and not r.ephemeral, r
    lobby = r.message
    assert lobby is not None and "Twenty-Eight" in lobby.text and "base card" in lobby.text
    for guest in guests:
        r = await fake.click(guest, lobby, label="Join")
        assert r.ephemeral
    for _ in range(computers):
        r = await fake.click(host, lobby, label="Add computer")
        assert r.response_type == 6
    await press_start(fake, host, lobby)
    await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"), timeout=10)
    return lobby



async def test_a_four_pairs_match_with_people_and_computers(
    make_bot: Callable[..., AlbastiniBot],
    watch_logs: Callable[[AlbastiniBot, FakeDiscord], LeakWatch],
) -> None:
    async with FakeDiscord() as fake:
        anu = fake.add_user("Anu")
        binu = fake.add_user("Binu")
        people = {anu.id: anu, binu.id: binu}
        async with fake.run_bot(make_bot()) as bot:
            logs = watch_logs(bot, fake)
            lobby = await open_twentyeight(fake, anu, [binu], 2, players=4, target=1)
            assert "Twenty-Eight · deal 1 · base cards: Team A 1 — Team B 1" in lobby.text
            table = table_of(bot, fake)
            assert table.game == "twentyeight" and table.target == 1
            checked = 0

            async def look() -> None:
                nonlocal checked
                await settle(bot, fake)
                down = face_down(bot, fake)
                if not checked and down is not None:
                    probe(logs, down[1])
                checked += assert_trump_hidden(bot, fake, list(people.values()))

            await play_match(bot, fake, people, lobby, before_turn=look)
            await settle(bot, fake)
            assert table.status == "finished"
            assert checked > 0
            posted = "\n".join(m.text for m in fake.messages())
            assert "wears the kunukku" in posted and "Base cards: " in posted
            assert re.search(r"Deal \d+ — (contract|Thani)", posted), posted
            assert "victory point" not in posted and " VP" not in posted
            final = fake.messages()[-1]
            assert fake.find_button(final, label="Play again")

            # the match counts on Twenty-Eight's leaderboard, not on Albastini's
            r = await fake.slash(binu, "albastini leaderboard", **GAME)
            assert r.message is not None
            board = r.message.text
            assert "Twenty-Eight leaderboard" in board
            assert f"<@{anu.id}>" in board and f"<@{binu.id}>" in board
            r = await fake.slash(binu, "albastini leaderboard")
            assert r.message is not None
            assert "Albastini leaderboard" in r.message.text
            assert f"<@{anu.id}>" not in r.message.text
            r = await fake.slash(anu, "albastini stats", **GAME)
            assert r.message is not None
            assert r.ephemeral and "at Twenty-Eight" in r.message.text
            assert "Matches: 1 played" in r.message.text and "(of 28)" in r.message.text
            r = await fake.slash(anu, "albastini stats")
            assert r.message is not None
            assert "hasn't finished a match" in r.message.text
            assert logs.leaks == []

            # a rematch is a Twenty-Eight table again, with the same people and computers
            r = await fake.click(binu, final, label="Play again")
            assert r.response_type == 4 and not r.ephemeral
            assert r.message is not None
            assert "Twenty-Eight (Irupathiyettu)" in r.message.text
            assert r.message.text.count("Computer ") == 2
            assert table_of(bot, fake).game == "twentyeight"
            assert assert_cards(fake, "twentyeight") >= 3  # table, summaries, end
        assert_clean(fake)


async def _play_as_told(
    fake: FakeDiscord, user: FakeUser, table_msg: FakeMessage, *, call: bool
) -> tuple[FakeMessage, str]:
    """The person to act makes the simplest move: pass while bidding and raising, the first
    card otherwise; "Ask for the trump" only when ``call``. Returns the hand and the label."""
    hand = await open_hand(fake, user, table_msg)
    moves = enabled_moves(hand)
    assert moves, hand.text
    labels = [b.label for b in moves]
    if call and "Ask for the trump" in labels:
        choice = moves[labels.index("Ask for the trump")]
    elif "Pass" in labels:
        choice = moves[labels.index("Pass")]
    else:
        choice = next((b for b in moves if b.label != "Ask for the trump"), moves[0])
    r = await fake.click(user, hand, custom_id=choice.custom_id)
    assert r.response_type == 7 and r.message is hand, r
    return hand, choice.label or ""


async def test_a_call_for_the_trump_and_the_bidders_forced_exposure_by_button(
    make_bot: Callable[..., AlbastiniBot],
    watch_logs: Callable[[AlbastiniBot, FakeDiscord], LeakWatch],
) -> None:
    """Four people. In the first deal nobody asks for the trump: in the last trick the bidder's
    hand offers nothing but "Ask for the trump", which shows the card to everyone. In a later
    deal a person who cannot follow suit asks for it by button: the table tells the trump and
    who called, and that person's hand says to play a trump."""
    async with FakeDiscord() as fake:
        users = [fake.add_user(n) for n in ("Anu", "Binu", "Chinnu", "Deepa")]
        people = {u.id: u for u in users}
        async with fake.run_bot(make_bot()) as bot:
            logs = watch_logs(bot, fake)
            lobby = await open_twentyeight(fake, users[0], users[1:], 0, players=4, target=6)
            table = table_of(bot, fake)
            forced = called = False
            for _ in range(400):
                if (forced and called) or table.status != "running":
                    break
                await fake.wait_until(lambda: table.to_act is not None, timeout=10)
                await settle(bot, fake)
                assert_trump_hidden(bot, fake, users)
                seat = table.to_act
                user = people[table.seats[seat].user_id]
                down = face_down(bot, fake)
                view = table.match.deal.view(seat)
                if view["legal"] == ["expose"]:
                    assert down is not None and seat == down[0]
                    hand = await open_hand(fake, user, lobby)
                    enabled = [b.label for b in hand.buttons if not b.disabled]
                    assert enabled == ["Ask for the trump", "Refresh"], hand.text
                    assert "Your last card is your face-down trump" in hand.text
                    card = render.card_label(down[1])
                    await fake.click(user, hand, label="Ask for the trump")
                    await settle(bot, fake)
                    assert f"shown by <@{user.id}>" in lobby.text and card in lobby.text
                    (last,) = enabled_moves(hand)  # and now plays it
                    assert (last.label or "").startswith(card), hand.text
                    forced = True
                    await fake.click(user, hand, custom_id=last.custom_id)
                    continue
                wants = forced and not called and down is not None and seat != down[0]
                hand, label = await _play_as_told(fake, user, lobby, call=wants)
                if label == "Ask for the trump":
                    assert down is not None
                    await settle(bot, fake)
                    card = render.card_label(down[1])
                    assert f"({card} shown on <@{user.id}>'s call)" in lobby.text, lobby.text
                    assert "Trump (thuruppu) is " in lobby.text
                    assert "You asked for the trump" in hand.text, hand.text
                    called = True
            assert forced and called
            assert logs.leaks == []
        assert_clean(fake)


async def test_a_restart_mid_deal_brings_the_table_and_hands_back(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        anu = fake.add_user("Anu")
        binu = fake.add_user("Binu")
        people = {anu.id: anu, binu.id: binu}
        async with fake.run_bot(make_bot()) as bot:
            lobby = await open_twentyeight(fake, anu, [binu], 2, players=4, target=1)
            table = table_of(bot, fake)
            # play into the deal: past the auction and the trump card, some tricks
            for _ in range(40):
                await fake.wait_until(
                    lambda: table.to_act is not None
                    and table.seats[table.to_act].user_id in people, timeout=10)
                if table.match.deal.view(None)["phase"] == "playing" and table.move_no > 12:
                    break
                await take_turn(fake, people[table.seats[table.to_act].user_id], lobby)
            await settle(bot, fake)
            before = state(table)
            down_before = face_down(bot, fake)
            waiting = people[table.seats[table.to_act].user_id]

        async with fake.run_bot(make_bot()) as bot2:
            await settle(bot2, fake)
            table2 = table_of(bot2, fake)
            assert table2 is not None and table2.game == "twentyeight"
            assert state(table2) == before
            assert face_down(bot2, fake) == down_before
            hand = hand_messages(fake, waiting)[-1]
            r = await fake.click(waiting, hand, label="Refresh")
            assert r.response_type == 7
            assert "Your hand — your turn" in hand.text, hand.text
            move = enabled_moves(hand)[0]
            r = await fake.click(waiting, hand, custom_id=move.custom_id)
            assert r.response_type == 7 and table2.move_no == before[2] + 1
            await settle(bot2, fake)
            assert "Twenty-Eight · deal" in lobby.text
            finished = await play_match(bot2, fake, people, lobby)
            assert finished.status == "finished"
            await settle(bot2, fake)
            assert "wears the kunukku" in "\n".join(m.text for m in fake.messages())
        assert_clean(fake)


async def test_start_refuses_impossible_tables_and_the_rules_are_the_games(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        anu = fake.add_user("Anu")
        async with fake.run_bot(make_bot()) as bot:
            for players in (2, 5):
                r = await fake.slash(anu, "albastini start", players=players, **GAME)
                assert r.ephemeral, r
                assert r.message is not None
                assert r.message.text == (
                    f"Twenty-Eight can't be played by {players} players. Possible: 3, 4, 6.")
            r = await fake.slash(anu, "albastini start", players=4, teams="solo", **GAME)
            assert r.message is not None
            assert r.ephemeral and "Possible: Teams of two" in r.message.text
            assert table_of(bot, fake) is None
            r = await fake.slash(anu, "albastini start", players=6, computers=True, **GAME)
            assert r.message is not None
            assert not r.ephemeral and "6 players, 2 teams of 3" in r.message.text
            assert "6 base cards per side" in r.message.text
            lobby = r.message
            r = await fake.click(anu, lobby, label="Rules")
            assert r.message is not None
            assert r.ephemeral and "Twenty-Eight rules — page 1 of 3" in r.message.text
            r2 = await fake.click(anu, r.message, label="Next")
            assert r2.response_type == 7 and "page 2 of 3" in r.message.text
            assert "lelam" in r.message.text
            r = await fake.slash(anu, "albastini rules", **GAME)
            assert r.message is not None
            assert "Twenty-Eight rules — page 1 of 3" in r.message.text
            previous = fake.find_button(r.message, label="Previous")
            assert previous is not None and previous.disabled
            r = await fake.slash(anu, "albastini rules")
            assert r.message is not None
            assert "Albastini rules — page 1 of 6" in r.message.text
            r = await fake.slash(anu, "albastini help")
            assert r.message is not None
            assert "game:Twenty-Eight" in r.message.text
            await fake.slash(anu, "albastini cancel")
        assert_clean(fake)


@pytest.mark.parametrize(("players", "sides"), [
    (3, "3 players, each for themselves"),
    (6, "6 players, 2 teams of 3"),
])
async def test_three_players_and_six_in_trios_play_to_the_end(
    make_bot: Callable[..., AlbastiniBot], players: int, sides: str
) -> None:
    """The other two modes, a person among computers: in 3 players the bidder plays alone
    against the two others, who settle separately; 6 players bid on all six cards."""
    async with FakeDiscord() as fake:
        anu = fake.add_user("Anu")
        async with fake.run_bot(make_bot()) as bot:
            r = await fake.slash(anu, "albastini start", players=players, target=1,
                                 computers=True, **GAME)
            assert r.message is not None
            assert sides in r.message.text and "1 base card per side" in r.message.text
            lobby = r.message
            await press_start(fake, anu, lobby)
            await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"))
            table = await play_match(bot, fake, {anu.id: anu}, lobby)
            assert table.status == "finished"
            await settle(bot, fake)
            posted = "\n".join(m.text for m in fake.messages())
            assert "wears the kunukku" in posted or "share the best score" in posted, posted
            assert "Base cards: " in posted
        assert_clean(fake)
