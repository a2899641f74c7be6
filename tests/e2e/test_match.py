"""Whole matches through slash commands and clicks, as the people at the table see them."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot import AlbastiniBot
from tests.e2e.conftest import (
    assert_cards,
    assert_clean,
    assert_no_hidden_card_public,
    enabled_moves,
    hand_messages,
    match_with_computers,
    press_start,
    settle,
    table_of,
)
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser


async def take_turn(fake: FakeDiscord, user: FakeUser, table_msg: FakeMessage) -> None:
    """The person whose turn it is plays: from their open hand (refreshed), or a fresh one."""
    hands = hand_messages(fake, user)
    if hands:
        hand = hands[-1]
        r = await fake.click(user, hand, label="Refresh")
        assert r.response_type == 7 and r.message is hand
    else:
        r = await fake.click(user, table_msg, label="Show my hand")
        assert r.response_type == 4 and r.ephemeral
        assert r.message is not None
        hand = r.message
    moves = enabled_moves(hand)
    assert moves, hand.text
    r = await fake.click(user, hand, custom_id=moves[0].custom_id)
    assert r.response_type == 7, r  # the same private message, updated in place
    assert r.message is hand


def live_notices(fake: FakeDiscord) -> list[int]:
    """Ids of the people mentioned by the turn notices in the channel now."""
    found: list[int] = []
    for m in fake.messages():
        if fake.find_button(m, label="Show my hand") and not m.embeds and not m.v2:
            found.extend(int(x) for x in re.findall(r"<@(\d+)>", m.content))
    return found


async def play_match(
    bot: AlbastiniBot,
    fake: FakeDiscord,
    people: dict[int, FakeUser],
    table_msg: FakeMessage,
    *,
    check_notices: bool = False,
    before_turn: Callable[[], Awaitable[None]] | None = None,
) -> Any:
    """The people play the match to its end, each turn with their first enabled move;
    ``before_turn``, awaited before each of their turns, can look at the table then."""
    table = table_of(bot, fake)
    assert table is not None and table.status == "running"
    turns = checked = 0
    while table.status == "running":
        await fake.wait_until(
            lambda: table.status != "running"
            or (table.to_act is not None and table.seats[table.to_act].user_id in people),
            timeout=10,
        )
        if table.status != "running":
            break
        if before_turn is not None:
            await before_turn()
        user = people[table.seats[table.to_act].user_id]
        if check_notices:
            # the person to act is mentioned in one short notice, unless the private hand they
            # opened follows the game and shows them their turn; no other notice is left
            assert bot.tables is not None
            pinged = [] if bot.tables.hands.follower.covers(table.id, user.id) else [user.id]

            def only_pinged(p: list[int] = pinged) -> bool:
                return live_notices(fake) == p

            await fake.wait_until(only_pinged, timeout=5)
        await take_turn(fake, user, table_msg)
        turns += 1
        if turns % 5 == 0:
            await settle(bot, fake)
            refreshed = []
            deal_no = table.deal_no
            for person in people.values():
                hands = hand_messages(fake, person)
                if hands and table.status == "running":
                    await fake.click(person, hands[-1], label="Refresh")
                    refreshed.append((person, hands[-1]))
            if table.deal_no != deal_no:  # a new deal: the refreshed hands may be the old one's
                refreshed = []
            checked += assert_no_hidden_card_public(bot, fake, refreshed)
    assert turns < 3 or checked > 0
    return table


async def test_four_players_in_pairs_two_people_two_computers(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        juma = fake.add_user("Juma")
        async with fake.run_bot(make_bot()) as bot:
            r = await fake.slash(neema, "albastini start", players=4, teams="pairs", target=1)
            assert r.response_type == 4 and not r.ephemeral
            lobby = r.message
            assert lobby is not None
            assert "Neema" in lobby.text or str(neema.id) in lobby.text
            # a second start in the same channel is refused privately, pointing at the table
            await settle(bot, fake)
            r2 = await fake.slash(juma, "albastini start")
            assert r2.message is not None
            assert r2.ephemeral and str(lobby.id) in r2.message.text

            r = await fake.click(juma, lobby, label="Join")
            assert r.ephemeral
            # only the host may add computers or start
            r = await fake.click(juma, lobby, label="Add computer")
            assert r.message is not None
            assert r.ephemeral and "host" in r.message.text.lower()
            r = await fake.click(juma, lobby, label="Cancel")
            assert r.message is not None
            assert r.ephemeral and "host" in r.message.text.lower()
            for _ in range(2):
                r = await fake.click(neema, lobby, label="Add computer")
                assert r.response_type == 6
            await settle(bot, fake)
            assert lobby.text.count("Computer ") == 2
            r = await press_start(fake, neema, lobby)
            assert r.response_type == 6
            await fake.wait_until(lambda: lobby.attachments and lobby.buttons)
            assert fake.find_button(lobby, label="Show my hand")

            table = await play_match(bot, fake, {neema.id: neema, juma.id: juma}, lobby)
            assert table.status == "finished"
            await settle(bot, fake)
            public = fake.messages()
            texts = "\n".join(m.text for m in public)
            assert "wins the match" in texts
            final = [m for m in public if fake.find_button(m, label="Play again")]
            assert final, texts
            # deal summaries explain the score
            assert re.search(r"Deal \d+ — ", texts)
            # turn notices mention the person, one at a time (older ones deleted)
            notices = [m for m in public if "your turn" in m.content]
            assert len(notices) <= 1
            assert not fake.find_button(lobby, label="Show my hand")

            # the leaderboard counts the finished match for both people
            r = await fake.slash(juma, "albastini leaderboard")
            assert r.response_type == 4
            assert r.message is not None
            board = r.message.text
            winner = table.match.winner
            for person in (neema, juma):
                won = int(table.seat_of(person.id) % table.teams == winner)
                wins = "1 win" if won else "0 wins"
                row = f"<@{person.id}> — {wins} out of 1 ({100 * won}%)"
                assert row in board, board
                r = await fake.slash(juma, "albastini stats", player=person)
                assert r.ephemeral
                assert r.message is not None
                assert f"Matches: 1 played, {won} won ({100 * won}%)" in r.message.text
            assert board.count(" out of ") == 2  # computers are not ranked
            assert assert_cards(fake, "albastini") >= 3  # table, summaries, end
        assert_clean(fake)


async def test_two_people_play_a_whole_match(make_bot: Callable[..., AlbastiniBot]) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        juma = fake.add_user("Juma")
        async with fake.run_bot(make_bot()) as bot:
            r = await fake.slash(neema, "albastini start", players=2, target=1)
            lobby = r.message
            assert lobby is not None and "2 players" in lobby.text
            r = await fake.click(juma, lobby, label="Join")
            assert r.message is not None
            assert r.ephemeral and "seat 2" in r.message.text
            r = await press_start(fake, neema, lobby)
            await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"))
            table = await play_match(
                bot, fake, {neema.id: neema, juma.id: juma}, lobby, check_notices=True
            )
            assert table.status == "finished"
            await settle(bot, fake)
            assert live_notices(fake) == []
            assert "wins the match" in "\n".join(m.text for m in fake.messages())
        assert_clean(fake)


async def test_a_person_who_does_not_play_is_pinged_after_the_delay(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    """With the production pacing (pings after a delay, table edits at most once a second), the
    person to play who does not act, and is not watching a private hand of theirs that follows
    the game, is mentioned in a ping; once they play it is removed and the next person's comes."""
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        juma = fake.add_user("Juma")
        people = {neema.id: neema, juma.id: juma}
        async with fake.run_bot(make_bot(notice_delay=0.3, edit_interval=1.0)) as bot:
            assert bot.tables is not None
            bot.tables.hands.follower.watching = 0.0  # nobody counts as watching their hand
            r = await fake.slash(neema, "albastini start", players=2, target=1)
            lobby = r.message
            assert lobby is not None
            await fake.click(juma, lobby, label="Join")
            await press_start(fake, neema, lobby)
            await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"))
            table = table_of(bot, fake)
            for _ in range(4):
                assert table.to_act is not None
                user = people[table.seats[table.to_act].user_id]

                def pinged(u: FakeUser = user) -> bool:
                    return live_notices(fake) == [u.id]

                await fake.wait_until(pinged, timeout=5)
                move_no = table.move_no
                await take_turn(fake, user, lobby)

                def moved(m: int = move_no) -> bool:
                    return bool(table.move_no > m)  # table_of's table is typed Any

                await fake.wait_until(moved, timeout=5)
            await settle(bot, fake)
        assert_clean(fake)


async def test_table_edits_are_coalesced_under_rate_limits(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    patch = "PATCH /api/v{version}/channels/{cid}/messages/{mid}"
    async with FakeDiscord(edit_rate=(5, 1.0)) as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            lobby = await match_with_computers(fake, neema, players=4, target=1)
            table = await play_match(bot, fake, {neema.id: neema}, lobby)
            await settle(bot, fake)
            assert table.status == "finished"
            edits = fake.request_counts.get(patch, 0)
            assert edits < table.move_no - 1  # fewer edits than moves: states were skipped
            assert "wins the match" in "\n".join(m.text for m in fake.messages())
        assert_clean(fake)


@pytest.mark.parametrize(
    ("players", "teams"), [(3, None), (4, "solo"), (5, None), (6, "pairs"), (6, "trios")]
)
async def test_every_mode_plays_to_the_end(
    make_bot: Callable[..., AlbastiniBot], players: int, teams: str | None
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            options: dict[str, Any] = {"players": players, "target": 1, "computers": True}
            if teams:
                options["teams"] = teams
            r = await fake.slash(neema, "albastini start", **options)
            lobby = r.message
            assert lobby is not None
            assert r.response_type == 4 and lobby.text.count("Computer ") == players - 1
            await press_start(fake, neema, lobby)
            await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"))
            table = await play_match(bot, fake, {neema.id: neema}, lobby)
            assert table.status == "finished"
            await settle(bot, fake)
            posted = "\n".join(m.text for m in fake.messages())
            assert "wins the match" in posted
            if players == 5:  # the summary says why the points add up to less than 120
                assert re.search(r"The \S+ \(\d+ points?\) lay face up and counts for nobody",
                                 posted), posted
        assert_clean(fake)


async def test_impossible_team_choice_is_refused(make_bot: Callable[..., AlbastiniBot]) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            r = await fake.slash(neema, "albastini start", players=5, teams="pairs")
            assert r.message is not None
            assert r.ephemeral and "Each for themselves" in r.message.text
            assert table_of(bot, fake) is None
        assert_clean(fake)
