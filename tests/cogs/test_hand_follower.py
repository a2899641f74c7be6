"""The private hand that follows the game (cogs/messages/hands.py), without Discord: which
edits go out, and when, as the table changes."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from types import SimpleNamespace
from typing import Any

from cogs.messages.hands import BURST, HandFollower

USER = 7


class Game:
    """One table with one followed hand; ``now`` is what the hand would show."""

    def __init__(self, *, lazy: float = 60.0, min_interval: float = 0.0) -> None:
        self.table = SimpleNamespace(id=1, status="running")
        self.now: tuple[Hashable, bool] = ("dealt", False)  # (what it shows, offers a move)
        self.sent: list[str] = []
        self.follower = HandFollower(
            lambda table, user_id: self.now,
            lambda table, user_id, lang, retired: {"content": str(self.now[0]), "specs": []},
            lambda table_id: self.table,  # type: ignore[arg-type,return-value]
            moved=lambda lang: "moved",
            lazy=lazy,  # by default a change that offers no move waits a long time
            min_interval=min_interval,
        )

        async def send(hand: Any, payload: dict[str, Any], *, final: bool = False) -> bool:
            self.sent.append(payload["content"])
            return True

        self.follower._send = send  # type: ignore[method-assign]
        interaction = SimpleNamespace(
            user=SimpleNamespace(id=USER), application_id=1, token="t", message=None,
            _session=None, _state=SimpleNamespace(http=None),
        )
        self.follower.remember(self.table, interaction, "en")  # type: ignore[arg-type]

    def change(self, shows: Hashable, offers: bool) -> None:
        self.now = (shows, offers)
        self.follower.changed(self.table)  # type: ignore[arg-type]


async def turns(n: int) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


async def test_the_turn_goes_out_at_once_even_while_a_lesser_change_waits() -> None:
    game = Game()
    game.change("a card drawn", offers=False)  # waits ``lazy``, for the turn that follows
    await turns(20)
    assert game.sent == []
    game.change("your turn", offers=True)
    async with asyncio.timeout(5):  # far less than ``lazy``
        while not game.sent:
            await asyncio.sleep(0.001)
    assert game.sent == ["your turn"]  # one edit, showing both changes
    await game.follower.close(timeout=0.1)


async def test_lesser_changes_alone_still_wait_together() -> None:
    game = Game()
    game.change("a card drawn", offers=False)
    await turns(20)
    game.change("a bid shown", offers=False)  # wakes the wait, which goes on
    await turns(20)
    assert game.sent == []
    await game.follower.close(timeout=0.1)


async def sent_within(game: Game, n: int, seconds: float) -> bool:
    """Whether the game's hand has had ``n`` edits within ``seconds``."""
    try:
        async with asyncio.timeout(seconds):
            while len(game.sent) < n:
                await asyncio.sleep(0.001)
    except TimeoutError:
        return False
    return True


async def test_the_turn_does_not_wait_for_the_interval_after_a_lesser_edit() -> None:
    game = Game(lazy=0.0, min_interval=60.0)
    game.change("a card drawn", offers=False)
    assert await sent_within(game, 1, 5)
    game.change("your turn", offers=True)  # right after: the turn goes out at once
    assert await sent_within(game, 2, 5)
    game.change("the trick taken", offers=False)  # a lesser change waits the interval
    assert not await sent_within(game, 3, 0.2)
    assert game.sent == ["a card drawn", "your turn"]
    await game.follower.close(timeout=0.1)


async def test_a_hand_is_never_edited_more_than_its_burst_within_the_window() -> None:
    game = Game(lazy=0.0, min_interval=0.0)
    game.follower.burst_window = 600.0  # far longer than the test
    for n in range(BURST + 2):
        game.change(f"turn {n}", offers=True)
        await sent_within(game, n + 1, 0.2)
    # Discord's follow-up bucket (5 per 2 s per interaction): the rest wait for the window
    assert game.sent == [f"turn {n}" for n in range(BURST)]
    game.follower.burst_window = 0.0  # the window has passed
    game.follower.changed(game.table)  # type: ignore[arg-type]
    assert await sent_within(game, BURST + 1, 5)
    assert game.sent[-1] == f"turn {BURST + 1}"  # the latest state, in one edit
    await game.follower.close(timeout=0.1)


async def test_a_new_click_brings_a_new_bucket() -> None:
    game = Game(lazy=0.0, min_interval=0.0)
    game.follower.burst_window = 600.0
    for n in range(BURST + 1):
        game.change(f"turn {n}", offers=True)
        await sent_within(game, n + 1, 0.2)
    assert len(game.sent) == BURST  # the token's bucket is spent
    clicked = SimpleNamespace(  # the person clicks: a new interaction, a new token
        user=SimpleNamespace(id=USER), application_id=1, token="t2", message=None,
        _session=None, _state=SimpleNamespace(http=None),
    )
    game.follower.remember(game.table, clicked, "en")  # type: ignore[arg-type]
    game.change("after the click", offers=True)
    assert await sent_within(game, BURST + 1, 5)
    assert game.sent[-1] == "after the click"
    await game.follower.close(timeout=0.1)
