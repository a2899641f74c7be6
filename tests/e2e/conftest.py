"""Fixtures and a small "people" toolkit for the end-to-end tests.

The real bot (``cogs.runner.AlbastiniBot``) runs in this process against the wire-level fake
Discord (``tests.fakediscord``) on 127.0.0.1, with a real SQLite database in ``tmp_path`` and
computer players that do not pause.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from albastini.config import Settings
from cogs import render
from cogs.runner import AlbastiniBot
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser


def make_settings(db: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "token": "fake-token",
        "database": db,
        "computer_pause": 0.0,
        "workers": 1,
        "sync_commands": "auto",
    }
    values.update(overrides)
    return Settings(**values)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "albastini.db"


@pytest.fixture
def make_bot(db_path: Path) -> Callable[..., AlbastiniBot]:
    def make(**overrides: Any) -> AlbastiniBot:
        service = {"deal_pause": 0.0}
        service.update(overrides.pop("service", {}))
        return AlbastiniBot(
            make_settings(db_path, **overrides),
            service_options=service,
            guild_ready_timeout=0.05,
        )

    return make


async def settle(bot: AlbastiniBot, fake: FakeDiscord) -> None:
    """Wait until the bot's public updates are done and the fake is quiet."""
    for _ in range(3):
        await fake.wait_until(lambda: bot.publisher.settled, timeout=10)
        await fake.wait_idle()
        if bot.publisher.settled:
            return


def table_of(bot: AlbastiniBot, fake: FakeDiscord) -> Any:
    return bot.service.table_in_channel(fake.channel_id)


def hand_messages(fake: FakeDiscord, user: FakeUser) -> list[FakeMessage]:
    """The user's private messages that carry a hand (a Refresh button)."""
    return [
        m
        for m in fake.ephemerals(user)
        if not m.deleted and any((b.custom_id or "").startswith("alb:r:") for b in m.buttons)
    ]


def enabled_moves(message: FakeMessage) -> list[Any]:
    return [
        b
        for b in message.buttons
        if not b.disabled and re.match(r"alb:[pbx]:", b.custom_id or "")
    ]


def hidden_labels(bot: AlbastiniBot, fake: FakeDiscord) -> set[str]:
    """Labels of cards in someone's hand right now that no public view shows."""
    table = table_of(bot, fake)
    if table is None or table.match is None:
        return set()
    public = table.public_view()
    shown: set[str] = set()
    for bid in public.get("bids") or []:
        if bid.get("card"):
            shown.add(bid["card"])
    for key in ("face_up", "indicator"):
        if public.get(key):
            shown.add(public[key])
    for _seat, card in public.get("current") or []:
        shown.add(card)
    last = public.get("last_trick") or {}
    for _seat, card in last.get("plays") or []:
        shown.add(card)
    hidden: set[str] = set()
    for info in table.seats:
        view = table.match.deal.view(info.seat)
        hidden.update(c for c in view["hand"] if c not in shown)
    return {render.card_label(c) for c in hidden}


def assert_no_hidden_card_public(bot: AlbastiniBot, fake: FakeDiscord) -> int:
    """No public message shows a card that is in a hand and not public; returns how many
    hidden cards were looked for (so a caller can tell the check was not empty)."""
    hidden = hidden_labels(bot, fake)
    for msg in fake.messages():
        text = msg.text
        for label in hidden:
            assert not re.search(re.escape(label) + r"(?![0-9])", text), (label, text)
    return len(hidden)


def assert_clean(fake: FakeDiscord) -> None:
    assert fake.failed_interactions == []
    assert fake.unknown_routes == []
    assert fake.rejections == []
