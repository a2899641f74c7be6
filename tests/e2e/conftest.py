"""Fixtures and a small "people" toolkit for the end-to-end tests.

The real bot (``bot.AlbastiniBot``) runs in this process against the wire-level fake
Discord (``tests.fakediscord``) on 127.0.0.1, with a real SQLite database in ``tmp_path`` and
computer players that do not pause.
"""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from albastini.config import Settings
from bot import AlbastiniBot
from cogs import render
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionResult


def make_settings(db: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "token": "fake-token",
        "database": db,
        "computer_pause": 0.0,
        "notice_delay": 0.0,
        "edit_interval": 0.0,
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
        # a seeded table service: the same seats, deals and computer moves on every run
        service: dict[str, Any] = {"deal_pause": 0.0, "rng": random.Random(20261122)}
        service.update(overrides.pop("service", {}))
        return AlbastiniBot(
            make_settings(db_path, **overrides),
            service_options=service,
            guild_ready_timeout=0.05,
        )

    return make


async def settle(bot: AlbastiniBot, fake: FakeDiscord) -> None:
    """Wait until the bot's public updates are done and the fake is quiet."""
    def settled() -> bool:
        assert bot.tables is not None
        return bool(bot.publisher.settled and bot.tables.hands.follower.settled)

    for _ in range(3):
        await fake.wait_until(settled, timeout=10)
        await fake.wait_idle()
        if settled():
            return


async def open_hand(fake: FakeDiscord, user: FakeUser, table_msg: FakeMessage) -> FakeMessage:
    """The user's hand, refreshed in place (or opened from the table message)."""
    hands = hand_messages(fake, user)
    if hands:
        r = await fake.click(user, hands[-1], label="Refresh")
        assert r.response_type == 7 and r.message is hands[-1], r
        return hands[-1]
    r = await fake.click(user, table_msg, label="Show my hand")
    assert r.ephemeral and r.message is not None, r
    return r.message


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
        if not b.disabled and re.match(r"alb:m:", b.custom_id or "")
    ]


def hidden_by_seat(bot: AlbastiniBot, fake: FakeDiscord) -> dict[int, set[str]]:
    """Labels of the cards in each seat's hand right now that no public view shows."""
    table = table_of(bot, fake)
    if table is None or table.match is None:
        return {}
    public = table.public_view()
    shown: set[str] = set()
    for bid in public.get("bids") or []:
        if bid.get("card"):
            shown.add(bid["card"])
    for key in ("face_up", "indicator", "trump_card"):  # Twenty-Eight: the exposed trump
        if public.get(key):
            shown.add(public[key])
    for _seat, card in public.get("current") or []:
        shown.add(card)
    last = public.get("last_trick") or {}
    for _seat, card in last.get("plays") or []:
        shown.add(card)
    return {
        info.seat: {
            render.card_label(c)
            for c in table.match.deal.view(info.seat)["hand"]
            if c not in shown
        }
        for info in table.seats
    }


def _shows(text: str, label: str) -> bool:
    return re.search(re.escape(label) + r"(?![0-9])", text) is not None


def assert_no_hidden_card_public(
    bot: AlbastiniBot,
    fake: FakeDiscord,
    private: list[tuple[FakeUser, FakeMessage]] | None = None,
) -> int:
    """No public message shows a card that is in a hand and not public, and the given private
    messages (fresh ones: older ones may show a past deal) show no other seat's hidden card.
    Returns how many hidden cards were looked for, so a caller can tell the check was not
    empty."""
    by_seat = hidden_by_seat(bot, fake)
    hidden = set().union(*by_seat.values()) if by_seat else set()
    for msg in fake.messages():
        for label in hidden:
            assert not _shows(msg.text, label), (label, msg.text)
    table = table_of(bot, fake)
    for user, msg in private or []:
        seat = table.seat_of(user.id) if table is not None else None
        if seat is None:
            continue
        others = set().union(*(h for s, h in by_seat.items() if s != seat))
        seen = msg.text + " " + " ".join(b.label or "" for b in msg.buttons)
        for label in others:
            assert not _shows(seen, label), (user.name, label, seen)
    return len(hidden)


def assert_cards(fake: FakeDiscord, game: str) -> int:
    """Every public message of the bot in the channel but the turn notices (plain mentions,
    which must ping) is a card in ``game``'s accent colour: its table message (lobby, then the
    table with its picture and alt text) a classic one, an embed (why: tests/e2e/test_cards.py),
    its deal summaries and its match's end Components V2 cards. Returns how many cards were
    checked."""
    from cogs.games import presenter
    from tests.fakediscord.models import walk_all

    accent = presenter(game).ACCENT
    checked = 0
    for m in fake.messages():
        if not m.author.bot or m.ephemeral:
            continue
        if m.embeds:
            pictures = [a for a in m.attachments if a.filename == "table.jpg"]
            if not pictures and not m.buttons:
                continue  # boards: another feature's
            (embed,) = m.embeds
            assert not m.v2 and not m.content and embed["color"] == accent, m
            assert embed.get("title") and embed.get("description"), embed
            if pictures:  # the table's picture at the foot, with its alt text
                (picture,) = pictures
                assert embed["image"]["url"] == "attachment://table.jpg", embed
                assert picture.description, picture
            checked += 1
            continue
        if not m.v2:  # a turn notice: a mention and the hand's button, nothing else
            assert m.content.startswith("<@") or "<@" in m.content, m.content
            assert [b.label for b in m.buttons] == ["Show my hand"], m.buttons
            continue
        assert not m.content and not m.embeds, m
        (container,) = m.components
        assert container["type"] == 17 and container["accent_color"] == accent, container
        parts = list(walk_all(m.components))
        assert len(parts) <= 40 and parts[1]["type"] == 10, parts
        checked += 1
    return checked


def assert_clean(fake: FakeDiscord) -> None:
    assert fake.failed_interactions == []
    assert fake.unknown_routes == []
    assert fake.rejections == []


async def press_start(fake: FakeDiscord, host: FakeUser, lobby: FakeMessage
                      ) -> InteractionResult:
    """The host presses Start once the lobby shows it enabled (as a person would)."""

    def ready() -> bool:
        button = fake.find_button(lobby, label="Start")
        return button is not None and not button.disabled

    await fake.wait_until(ready, timeout=10)
    return await fake.click(host, lobby, label="Start")


async def match_with_computers(fake: FakeDiscord, host: FakeUser, **options: Any) -> FakeMessage:
    """``host`` starts a table filled with computers (``options``: /albastini start's, 2 players
    by default) and presses Start; returns the table message once it shows the match."""
    options.setdefault("players", 2)
    r = await fake.slash(host, "albastini start", computers=True, **options)
    lobby = r.message
    assert lobby is not None
    await press_start(fake, host, lobby)
    await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"), timeout=10)
    return lobby


#: The bot's own loggers, watched from DEBUG up; every other one (discord.py's, aiosqlite's) from
#: INFO up, as the bot runs (their DEBUG lines echo whole payloads, a player's own hand too).
OWN_LOGGERS = ("albastini", "cogs", "bot")


class LeakWatch(logging.Handler):
    """Every log record the bot writes as it runs (INFO and above from every logger: its own,
    the table service's, discord.py's; its own at every level), checked as it is emitted by
    ``leaked(text)``: True a leak, False clean, None nothing hidden at that moment."""

    def __init__(self, leaked: Callable[[str], bool | None]) -> None:
        super().__init__(logging.DEBUG)
        self.leaked = leaked
        self.leaks: list[str] = []
        self.checked = 0  # records checked while something was hidden

    def emit(self, record: logging.LogRecord) -> None:
        own = record.name.split(".")[0] in OWN_LOGGERS
        if not own and record.levelno < logging.INFO:
            return
        text = record.getMessage() + (record.exc_text or "")
        verdict = self.leaked(text)
        if verdict is None:
            return
        self.checked += 1
        if verdict:
            self.leaks.append(text)


@pytest.fixture
def log_watch() -> Iterator[Callable[[Callable[[str], bool | None]], LeakWatch]]:
    """Start watching the logs with a ``leaked`` check; the logging set-up is restored after."""
    handlers: list[LeakWatch] = []
    root = logging.getLogger()
    levels = {name: logging.getLogger(name).level for name in ("", *OWN_LOGGERS)}

    def start(leaked: Callable[[str], bool | None]) -> LeakWatch:
        handler = LeakWatch(leaked)
        root.addHandler(handler)
        if not root.level or root.level > logging.INFO:
            root.setLevel(logging.INFO)
        for name in OWN_LOGGERS:
            logging.getLogger(name).setLevel(logging.DEBUG)
        handlers.append(handler)
        return handler

    yield start
    for handler in handlers:
        root.removeHandler(handler)
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)
