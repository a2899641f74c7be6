"""Issue 28 part 6: the Prometheus endpoint of a bot on the fake Discord (albastini/metrics.py),
scraped over HTTP as Prometheus would: its counts move with play; off, there is none."""

from __future__ import annotations

import os
import signal
import socket
from collections.abc import Callable

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from albastini.launcher import cluster_env
from bot import AlbastiniBot
from tests.e2e.conftest import (
    assert_clean,
    enabled_moves,
    match_with_computers,
    settle,
    table_of,
)
from tests.e2e.test_courier import _my_move
from tests.e2e.test_one_click import open_hands, open_table
from tests.fakediscord import FakeDiscord


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of the endpoint: (name, labels) -> value."""
    async with aiohttp.ClientSession() as session, session.get(
        f"http://127.0.0.1:{port}/metrics"
    ) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=")
        text = await response.text()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def one(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str,
        **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_the_metrics_move_with_play(make_bot: Callable[..., AlbastiniBot]) -> None:
    port = free_port()
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot(metrics_port=port)) as bot:
            before = await scrape(port)
            assert one(before, "albastini_tables", state="running") == 0
            assert one(before, "albastini_info", shards="all") == 1
            assert one(before, "albastini_discord_errors_total", kind="not_found") == 0

            lobby = await match_with_computers(fake, neema)
            for _ in range(3):
                await _my_move(fake, bot, neema, lobby)  # two clicks: the hand, a card
            await settle(bot, fake)
            after = await scrape(port)

            clicks = one(after, "albastini_interactions_answered_total", kind="click")
            assert clicks - one(before, "albastini_interactions_answered_total",
                                kind="click") >= 6 + 1  # and Start
            assert one(after, "albastini_interactions_answered_total", kind="command") >= 1
            assert one(after, "albastini_interaction_answer_seconds_count", kind="click") == clicks
            assert one(after, "albastini_moves_committed_total", by="person") == 3
            computers = one(after, "albastini_moves_committed_total", by="computer")
            assert computers >= 3
            assert one(after, "albastini_store_commit_seconds_count") == 3 + computers
            assert one(after, "albastini_tables", state="running") == 1
            assert one(after, "albastini_tables", state="lobby") == 0
            assert one(after, "albastini_tables_busy") == 1
            assert one(after, "albastini_courier_restarts_total") == 0
            assert one(after, "albastini_global_budget_taken_total") >= 1  # the turn pings

            # the courier killed: the next edit starts another, counted as a restart
            courier = bot.publisher.courier
            assert courier is not None and courier.pid is not None
            os.kill(courier.pid, signal.SIGKILL)
            await _my_move(fake, bot, neema, lobby)
            await settle(bot, fake)
            assert one(await scrape(port), "albastini_courier_restarts_total") == 1
        assert_clean(fake)


async def test_off_by_default_no_endpoint_and_nothing_counted(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            assert bot.metrics is None and bot.service.on_commit is None
            lobby = await match_with_computers(fake, neema)
            await _my_move(fake, bot, neema, lobby)
        assert_clean(fake)


def test_the_launcher_gives_each_cluster_its_own_metrics_port() -> None:
    env = {"ALBASTINI_METRICS_PORT": "9300", "OTHER": "x"}
    assert [cluster_env(env, k)["ALBASTINI_METRICS_PORT"] for k in range(3)] == [
        "9300", "9301", "9302"]  # fmt: skip
    assert cluster_env(env, 1)["OTHER"] == "x"
    assert "ALBASTINI_METRICS_PORT" not in cluster_env({}, 1)


async def test_a_refused_edit_of_a_private_hand_counts_as_a_discord_error(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    """The courier's requests are not discord.py's client's: a hand edit Discord refuses (the
    person dismissed their hand: 404) still counts among the Discord errors."""
    port = free_port()
    async with FakeDiscord() as fake:
        async with fake.run_bot(make_bot(metrics_port=port, notice_delay=0.0)) as bot:
            people = [fake.add_user("Asha"), fake.add_user("Baraka")]
            table_msg = await open_table(fake, people, game="albastini")
            table = table_of(bot, fake)
            hands = await open_hands(fake, people, table_msg)
            await settle(bot, fake)
            before = one(await scrape(port), "albastini_discord_errors_total", kind="not_found")
            current = next(u for u in people if u.id == table.seats[table.to_act].user_id)
            other = next(u for u in people if u is not current)
            fake._delete(hands[other.id])  # the person dismissed their private hand
            hand = hands[current.id]
            await fake.click(current, hand, custom_id=enabled_moves(hand)[0].custom_id)
            await settle(bot, fake)  # now the other's turn: their hand's edit is refused
            assert bot.tables is not None
            assert bot.tables.hands.follower.failures >= 1
            after = one(await scrape(port), "albastini_discord_errors_total", kind="not_found")
            assert after - before == bot.tables.hands.follower.failures
        assert fake.failed_interactions == [] and fake.unknown_routes == []
        assert {(r.status, r.body["code"]) for r in fake.rejections} == {(404, 10008)}
