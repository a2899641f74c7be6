"""Issue 19 on Discord: ratings after a match with a computer, seasons, the match history and
its pages, a deal replayed to its end, a spectator who never sees a hidden card, and ratings
computed again from the stored results."""

from __future__ import annotations

from collections.abc import Callable

from albastini.table import Table
from bot import AlbastiniBot
from cogs.history._pages import watch_payload
from tests.e2e.conftest import (
    _shows,
    assert_clean,
    hidden_by_seat,
    match_with_computers,
    settle,
    table_of,
)
from tests.e2e.test_match import play_match
from tests.fakediscord import FakeDiscord


async def test_ratings_seasons_history_replay_and_a_spectator(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        juma = fake.add_user("Juma")
        admin = fake.add_user("Admin", manage_guild=True)
        boss = fake.add_user("Boss", owner=True)  # the application's owner in the fake
        async with fake.run_bot(make_bot()) as bot:
            watchers = bot.get_cog("HistoryCog").watchers  # type: ignore[union-attr]
            lobby = await match_with_computers(fake, neema, target=1)
            table = table_of(bot, fake)
            # a player is told to use their hand; a person who does not play watches
            r = await fake.click(neema, lobby, label="Watch")
            assert r.message is not None
            assert r.ephemeral and "Show my hand" in r.message.text
            r = await fake.click(juma, lobby, label="Watch")
            assert r.ephemeral
            watch = r.message
            assert watch is not None
            looks = 0

            async def look() -> None:
                nonlocal looks
                await settle(bot, fake)
                await fake.wait_until(lambda: watchers.settled, timeout=10)
                if table.status != "running":
                    return
                # the spectator's view follows the table: it is the public table, no hand
                await fake.wait_until(
                    lambda: watch.text.startswith(watch_payload(table, "en")["content"]),
                    timeout=10,
                )
                hidden = set().union(*hidden_by_seat(bot, fake).values())
                assert hidden
                for label in hidden:
                    assert not _shows(watch.text, label), (label, watch.text)
                looks += 1
                if looks == 2:  # Refresh shows the table now, in place
                    r = await fake.click(juma, watch, label="Refresh")
                    assert r.response_type == 7
                    assert watch.text.startswith(watch_payload(table, "en")["content"])

            await play_match(bot, fake, {neema.id: neema}, lobby, before_turn=look)
            assert table.status == "finished" and looks > 3
            await settle(bot, fake)
            await fake.wait_until(lambda: watchers.settled, timeout=10)
            assert "no longer running" in watch.text

            # ratings: /stats shows the rating and its matches; the board sorted by rating
            r = await fake.slash(neema, "albastini stats")
            assert r.message is not None
            assert "Rating:" in r.message.text and "after 1 rated matches" in r.message.text
            assert "across servers" in r.message.text
            r = await fake.slash(juma, "albastini leaderboard", sort="rating")
            assert r.message is not None
            assert not r.ephemeral and "rating" in r.message.text and f"<@{neema.id}>" in (
                r.message.text
            )

            # a new season: only an admin; the default board is empty, all time is not
            r = await fake.slash(juma, "albastini season", new=True)
            assert r.message is not None
            assert r.ephemeral and "Manage Server" in r.message.text
            r = await fake.slash(admin, "albastini season", new=True)
            assert r.message is not None
            assert not r.ephemeral and "Season 2" in r.message.text
            r = await fake.slash(juma, "albastini season")
            assert r.message is not None
            assert r.ephemeral and "season 2" in r.message.text
            r = await fake.slash(juma, "albastini leaderboard")
            assert r.message is not None
            assert "No finished matches" in r.message.text
            r = await fake.slash(juma, "albastini leaderboard", season="all")
            assert r.message is not None
            assert "all time" in r.message.text and f"<@{neema.id}>" in r.message.text
            r = await fake.slash(juma, "albastini leaderboard", sort="rating", season="season")
            assert r.message is not None
            assert "No finished matches" in r.message.text

            # the history: the match, with its players, and a Replay button
            r = await fake.slash(juma, "albastini history")
            assert r.message is not None
            assert r.ephemeral and f"match #{table.id}" in r.message.text
            assert f"<@{neema.id}>" in r.message.text and "Computer 1" in r.message.text
            history = r.message
            r = await fake.click(juma, history, label="Replay 1")
            assert r.message is not None
            assert r.ephemeral and "step 0 of" in r.message.text
            replay = r.message
            first = replay.text
            assert "dealt" in first and first.count("\n") > 3
            # every hand face up, named as at the table
            assert f"<@{neema.id}>: " in first and "Computer 1: " in first
            steps = 0
            while fake.find_button(replay, label="Next") is not None and not fake.find_button(
                replay, label="Next"
            ).disabled:  # type: ignore[union-attr]
                r = await fake.click(juma, replay, label="Next")
                assert r.response_type == 7
                steps += 1
            assert steps > 3 and f"step {steps} of {steps}" in replay.text
            assert "🏁" in replay.text
            r = await fake.click(juma, replay, label="⏮ Trick")
            assert f"step {steps} of" not in replay.text
            # the match-over message offers the replay too
            over = next(m for m in fake.messages() if fake.find_button(m, label="Replay"))
            r = await fake.click(juma, over, label="Replay")
            assert r.message is not None
            assert r.ephemeral and f"match #{table.id}, deal 1" in r.message.text

            # every rating computed again from the stored results: the same values
            before = await bot.store.user_rating(fake.guild_id, neema.id, season=0,
                                                 game="albastini")
            for someone in (juma, admin):  # a server's admin may not rewrite every server's
                r = await fake.slash(someone, "albastini recompute")
                assert r.message is not None
                assert r.ephemeral and "owner" in r.message.text
            r = await fake.slash(boss, "albastini recompute")
            assert r.message is not None
            assert r.ephemeral and "from 1 stored matches" in r.message.text
            after = await bot.store.user_rating(fake.guild_id, neema.id, season=0, game="albastini")
            assert before is not None and after is not None
            assert (after.mu, after.sigma, after.matches) == (before.mu, before.sigma,
                                                              before.matches)
        assert_clean(fake)


async def test_history_pages(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            r = await fake.slash(neema, "albastini history")
            assert r.message is not None
            assert r.ephemeral and "No finished matches" in r.message.text
            svc = bot.service
            for i in range(6):  # six matches, each in a channel of its own, left to computers
                channel = fake.add_channel(f"table-{i}")
                table = await svc.open_table(fake.guild_id, channel, neema.id, "Neema",
                                             players=2, computer_level="easy", target=1,
                                             game="albastini")
                await svc.fill_computers(table.id, neema.id)
                await svc.start_match(table.id, neema.id)
                await svc.leave(table.id, neema.id)

                def over(t: Table = table) -> bool:
                    return t.status != "running"

                await fake.wait_until(over, timeout=60)
                await settle(bot, fake)
            r = await fake.slash(neema, "albastini history", everywhere=True)
            assert r.message is not None
            assert r.ephemeral and "every server" in r.message.text
            page = r.message
            assert "Page 1 of 2" in page.text and "6." not in page.text
            r = await fake.click(neema, page, label="Next")
            assert r.response_type == 7 and "6." in page.text and "Page 2 of 2" in page.text
            assert fake.find_button(page, label="Next").disabled  # type: ignore[union-attr]
            r = await fake.click(neema, page, label="Previous")
            assert "1." in page.text
        assert_clean(fake)
