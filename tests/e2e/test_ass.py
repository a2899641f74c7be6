"""Ass (Жопа) at the real bot, against the fake Discord, on a real SQLite database: a whole
3-player match of a person and two computers to its end (the person's bets by the Go and No
buttons, a trick taken over by a computer's eight shown on the table, banks as the score, the
result on the game's leaderboard, stats and history), a restart mid-deal, and the game's rules
and help.

Throughout, no card of a hand or of the stock shows where it must not: every public message,
the person's private hand (another seat's cards), and every line the bot logs (a logging
handler checks each record as it is emitted). Who holds the lowest diamond, who leads the
match's first trick, is not told while the bets are made.
"""

from __future__ import annotations

import logging
import random
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
    assert_no_hidden_card_public,
    enabled_moves,
    hand_messages,
    hidden_by_seat,
    open_hand,
    press_start,
    settle,
    table_of,
)
from tests.e2e.test_match import play_match, take_turn
from tests.e2e.test_restart import state
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser

GAME: dict[str, Any] = {"game": "ass"}
#: A seat-drawing rng seed (searched by replaying the service's draws: seats, dealer, deal
#: seed, then a seed per computer move) with which, in the first trick of the match, a
#: computer leads 6♠, the next one, holding no spade, takes the trick over with 8♣, and the
#: person plays third.
EIGHT_SEED = 39


def hidden_codes(bot: AlbastiniBot, fake: FakeDiscord) -> set[str]:
    """Codes of every card in a hand or in the stock now that no public view shows."""
    table = table_of(bot, fake)
    if table is None or table.match is None or table.status != "running":
        return set()
    deal = table.match.deal
    public = table.public_view()
    shown = {c for _, c in public.get("current") or []}
    shown |= {c for _, c in (public.get("last_trick") or {}).get("plays") or []}
    stock = list(deal.deck[4 * deal.players + deal.state.pos:])
    hands = [c for seat in range(deal.players) for c in deal.hand(seat)]
    return {c for c in hands + stock if c not in shown}


def assert_stock_hidden(bot: AlbastiniBot, fake: FakeDiscord, table_msg: FakeMessage) -> int:
    """The table message, as it is now, names no card of the stock or of a hand."""
    hidden = hidden_codes(bot, fake)
    for code in hidden:
        label = render.card_label(code)
        assert re.search(re.escape(label) + r"(?![0-9])", table_msg.text) is None, (
            label, table_msg.text)
    return len(hidden)


#: The bot's own loggers, watched from DEBUG up; every other one from INFO up, as it runs.
@pytest.fixture
def watch_logs(
    log_watch: Callable[[Callable[[str], bool | None]], LeakWatch],
) -> Callable[[AlbastiniBot, FakeDiscord], LeakWatch]:
    """Watch the bot's logs for a card hidden at the moment of each record (a hand or the
    stock), by its label or its move code."""

    def start(bot: AlbastiniBot, fake: FakeDiscord) -> LeakWatch:
        def leaked(text: str) -> bool | None:
            hidden = hidden_codes(bot, fake)
            if not hidden:
                return None
            return any(render.card_label(code) in text or f"play:{code}" in text
                       for code in hidden)

        return log_watch(leaked)

    return start


def untimed(text: str) -> str:
    return re.sub(r"<t:\d+:R>", "<t:…>", text)


async def open_ass(fake: FakeDiscord, host: FakeUser, **options: Any) -> FakeMessage:
    """The host opens a 3-player Ass table filled with computers and presses Start."""
    options.setdefault("players", 3)
    r = await fake.slash(host, "albastini start", computers=True, **GAME, **options)
    assert r.response_type == 4 and not r.ephemeral, r
    lobby = r.message
    assert lobby is not None
    assert "Ass (Жопа)" in lobby.text, lobby.text
    assert "everyone starts with 3 banks" in lobby.text
    await press_start(fake, host, lobby)
    await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"), timeout=10)
    return lobby



async def test_a_three_player_match_of_a_person_and_two_computers(
    make_bot: Callable[..., AlbastiniBot],
    watch_logs: Callable[[AlbastiniBot, FakeDiscord], LeakWatch],
) -> None:
    async with FakeDiscord() as fake:
        ana = fake.add_user("Ana")
        people = {ana.id: ana}
        async with fake.run_bot(make_bot(service={"rng": random.Random(EIGHT_SEED)})) as bot:
            logs = watch_logs(bot, fake)
            lobby = await open_ass(fake, ana)
            table = table_of(bot, fake)
            assert table.game == "ass" and table.players == 3
            # banks, not points, are the score: everyone starts with 3
            title = lobby.text.split("\n")[0]
            assert re.search(r"Ass \(Жопа\) · deal 1 · banks: .+ 3 — .+ 3 — .+ 3", title), title
            # each player's own trump, for everyone to see
            me = table.seat_of(ana.id)
            suits = ["♠ spades", "♣ clubs", "♥ hearts"]
            assert f"<@{ana.id}> {suits[me]}" in lobby.text, lobby.text
            assert "Trumps, each player's own: " in lobby.text
            looks = {"bets": 0, "eight": 0, "hidden": 0, "probe": 0}

            async def look() -> None:
                await settle(bot, fake)
                deal = table.match.deal
                view = deal.view(None)
                hand = await open_hand(fake, ana, lobby)
                if not looks["probe"]:  # the watch itself works: a line naming a card is caught
                    code = sorted(hidden_codes(bot, fake))[0]
                    logging.getLogger("cogs.probe").debug("probe: %s", render.card_label(code))
                    assert logs.leaks == [f"probe: {render.card_label(code)}"]
                    logs.leaks.clear()
                    looks["probe"] = 1
                looks["hidden"] += assert_no_hidden_card_public(bot, fake, [(ana, hand)])
                looks["hidden"] += assert_stock_hidden(bot, fake, lobby)
                if view["phase"] == "betting":
                    # the bets by button, with the target each sets
                    labels = [b.label for b in enabled_moves(hand)]
                    assert labels == ["Go (target 56)", "No (target 80)"], labels
                    assert "Your hand — your turn to bet" in hand.text, hand.text
                    assert "▶ **" in lobby.text and "to bet: go or no" in lobby.text
                    if table.deal_no == 1:
                        # who holds the lowest diamond is not told before the first card
                        assert view["first_leader"] is None
                        assert "whoever holds the lowest diamond leads" in lobby.text
                        named = hidden_by_seat(bot, fake)
                        assert named and "leads" not in lobby.text.replace(
                            "whoever holds the lowest diamond leads", "")
                    looks["bets"] += 1
                    return
                shown = table.rules.view(table.match, None)
                if shown["winning_why"] == "eight" and len(shown["current"]) == 2:
                    card = render.card_label(shown["winning_card"])
                    suit = shown["trick"]["main_suit"]
                    name = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[suit]
                    line = f"{card} takes over: {name} are now the main suit"
                    assert line in lobby.text, lobby.text
                    assert f"Main suit {render.card_label('8' + suit)[-1]} {name}" in lobby.text
                    assert line in hand.text, hand.text  # her hand says it too
                    looks["eight"] += 1

            await play_match(bot, fake, people, lobby, before_turn=look)
            await settle(bot, fake)
            assert table.status == "finished"
            assert looks["bets"] >= table.deal_no and looks["eight"] >= 1, looks
            assert looks["hidden"] > 0
            posted = "\n".join(m.text for m in fake.messages())
            assert re.search(r"Deal 1 — .+ of (56|80) \((go|no)\): ", posted), posted
            assert "Banks: " in posted
            assert "wins the match — banks: " in posted or "share the best score" in posted
            assert "victory point" not in posted and " VP" not in posted
            # the match ends as the rules say: someone at 0 banks or 6 or more
            banks = table.match.banks
            assert min(banks) <= 0 or max(banks) >= 6, banks
            final = fake.messages()[-1]
            assert fake.find_button(final, label="Play again")

            # the result is stored: the game's leaderboard, stats and the history
            r = await fake.slash(ana, "albastini leaderboard", **GAME)
            assert r.message is not None
            assert "Ass (Жопа) leaderboard" in r.message.text
            assert f"<@{ana.id}>" in r.message.text
            r = await fake.slash(ana, "albastini leaderboard")
            assert r.message is not None
            assert f"<@{ana.id}>" not in r.message.text  # not on Albastini's
            r = await fake.slash(ana, "albastini stats", **GAME)
            assert r.message is not None
            assert r.ephemeral and "at Ass (Жопа)" in r.message.text
            assert "Matches: 1 played" in r.message.text, r.message.text
            r = await fake.slash(ana, "albastini history")
            assert r.message is not None
            row = next(line for line in r.message.text.split("\n") if "Ass (Жопа)" in line)
            mine = banks[table.seat_of(ana.id)]
            assert f"<@{ana.id}> {mine}" in row or f"<@{ana.id}>** {mine}" in row or (
                f"<@{ana.id}> {mine}**" in row), row  # banks, not negated scores
            # its replay: every hand face up, the bets and plays put into words
            r = await fake.click(ana, r.message, label="Replay 1")
            assert r.message is not None
            assert r.ephemeral and "step 0 of" in r.message.text and "dealt" in r.message.text
            replay = r.message
            await fake.click(ana, replay, label="Next")
            assert re.search(r"says (go|no)", replay.text.split("\n")[1]), replay.text
            for _ in range(3):
                await fake.click(ana, replay, label="Next")
            assert " played " in replay.text.split("\n")[1], replay.text
            assert "Ass (Жопа)" not in replay.text.split("\n")[2]  # no running score line
            assert logs.leaks == [] and logs.checked > 0 and looks["probe"]

            # a rematch is an Ass table again
            r = await fake.click(ana, final, label="Play again")
            assert r.message is not None
            assert r.response_type == 4 and "Ass (Жопа)" in r.message.text
            assert table_of(bot, fake).game == "ass"
            assert assert_cards(fake, "ass") >= 3  # table, summaries, end
        assert_clean(fake)


async def test_a_restart_mid_deal_brings_the_table_and_hands_back(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        ana = fake.add_user("Ana")
        people = {ana.id: ana}
        async with fake.run_bot(make_bot()) as bot:
            # a table that chose its trump variant: two equal trump suits for everyone
            lobby = await open_ass(fake, ana, trumps=4)
            table = table_of(bot, fake)
            assert table.options == {"trumps": 4}
            assert "Trumps for everyone: ♠ spades and ♦ diamonds (equal)" in lobby.text
            # play into the first deal: past the bets, a few tricks
            for _ in range(40):
                await fake.wait_until(
                    lambda: table.to_act is not None
                    and table.seats[table.to_act].user_id in people, timeout=10)
                if table.match.deal.view(None)["phase"] == "playing" and table.move_no > 12:
                    break
                await take_turn(fake, ana, lobby)
            await settle(bot, fake)
            assert table.deal_no == 1
            before = state(table)
            text_before = lobby.text

        async with fake.run_bot(make_bot()) as bot2:
            await settle(bot2, fake)
            table2 = table_of(bot2, fake)
            assert table2 is not None and table2.game == "ass"
            assert table2.options == {"trumps": 4}  # the variant is kept with the table
            assert state(table2) == before
            # the same table message, but for the turn's deadline, which starts again
            assert untimed(lobby.text) == untimed(text_before)
            hand = hand_messages(fake, ana)[-1]
            r = await fake.click(ana, hand, label="Refresh")
            assert r.response_type == 7
            assert "Your hand — your turn (trick " in hand.text, hand.text
            move = enabled_moves(hand)[0]
            r = await fake.click(ana, hand, custom_id=move.custom_id)
            assert r.response_type == 7 and table2.move_no == before[2] + 1
            await settle(bot2, fake)
            assert "Ass (Жопа) · deal" in lobby.text
            finished = await play_match(bot2, fake, people, lobby)
            assert finished.status == "finished"
            await settle(bot2, fake)
            posted = "\n".join(m.text for m in fake.messages())
            assert "wins the match — banks: " in posted or "share the best score" in posted
            # a rematch keeps the variant
            final = fake.messages()[-1]
            r = await fake.click(ana, final, label="Play again")
            assert r.message is not None
            assert "Trump variant: Two equal trump suits for everyone: ♠ and ♦" in r.message.text
            assert table_of(bot2, fake).options == {"trumps": 4}
        assert_clean(fake)


async def test_the_rules_say_they_are_a_reconstruction_and_help_explains_the_name(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        ana = fake.add_user("Ana")
        async with fake.run_bot(make_bot()) as bot:
            r = await fake.slash(ana, "albastini rules", **GAME)
            assert r.message is not None
            assert r.ephemeral and "Ass (Жопа) rules — page 1 of 3" in r.message.text
            first = r.message.text
            assert "a reconstruction" in first and "trump variant" in first, first
            r2 = await fake.click(ana, r.message, label="Next")
            assert r2.response_type == 7 and "page 2 of 3" in r.message.text
            assert "takes the whole trick over" in r.message.text
            r = await fake.slash(ana, "albastini help")
            assert r.message is not None
            assert "game:Ass (Жопа)" in r.message.text
            assert "the name comes from its source" in r.message.text
            r = await fake.slash(ana, "albastini start", players=4, teams="pairs", **GAME)
            assert r.message is not None
            assert r.ephemeral and "Possible:" in r.message.text, r.message.text
            assert table_of(bot, fake) is None
            # the trump variant is a choice of Ass tables only, and of the tables it fits
            r = await fake.slash(ana, "albastini start", players=4, trumps=3)
            assert r.message is not None
            assert r.ephemeral and r.message.text == "Albastini has no trump variant to choose."
            r = await fake.slash(ana, "albastini start", players=5, trumps=1, **GAME)
            assert r.message is not None
            assert r.ephemeral and "each player's own trump needs 2 to 4 players" in (
                r.message.text), r.message.text
            assert table_of(bot, fake) is None
            # banks end the match: a points target is refused, not silently ignored
            r = await fake.slash(ana, "albastini start", players=3, target=10, **GAME)
            assert r.message is not None
            assert r.ephemeral and r.message.text.startswith(
                "Ass (Жопа) has no points target: banks end the match"), r.message.text
            assert table_of(bot, fake) is None
            r = await fake.slash(ana, "albastini start", players=2, computers=True, trumps=3,
                                 **GAME)
            assert r.message is not None
            assert not r.ephemeral and "Ass (Жопа) — 2 players" in r.message.text, r.message.text
            assert "Trump variant: One trump suit for everyone: ♠" in r.message.text
            lobby = r.message  # a name the lambda below can see narrowed
            await press_start(fake, ana, lobby)
            await fake.wait_until(lambda: "Trump for everyone: ♠ spades" in lobby.text,
                                  timeout=10)
            r = await fake.click(ana, lobby, label="Rules")
            assert r.message is not None
            assert r.ephemeral and "Ass (Жопа) rules — page 1 of 3" in r.message.text
            await fake.slash(ana, "albastini cancel")
        assert_clean(fake)
