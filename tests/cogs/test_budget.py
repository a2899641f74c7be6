"""The process's budget of Discord's global rate limit (cogs/budget.py)."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

import pytest

from cogs.messages import budget as budgets


async def test_tokens_are_spaced_at_the_rate() -> None:
    budget = budgets.GlobalBudget(50.0)
    start = time.monotonic()
    for _ in range(11):
        await budget.take()
        budget.done()
    elapsed = time.monotonic() - start
    # one token at once, then one every 20 ms: never a burst beyond the rate (a lower bound,
    # which a slow machine cannot break; each take after the first waited for its token)
    assert elapsed >= 0.19
    assert budget.taken == 11 and budget.waits == 10


async def test_waiters_are_served_smallest_key_first() -> None:
    budget = budgets.GlobalBudget(40.0)
    await budget.take()  # the bucket is empty now
    order: list[str] = []

    async def wait(name: str, key: budgets.Key) -> None:
        await budget.take(key)
        order.append(name)

    tasks = [
        asyncio.create_task(wait("old edit", (budgets.EDIT, 1.0))),
        asyncio.create_task(wait("computer's edit", (budgets.EDIT, 0.5 + budgets.COMPUTER_DELAY))),
        asyncio.create_task(wait("newer edit", (budgets.EDIT, 2.0))),
        asyncio.create_task(wait("notice", (budgets.NOTICE, 9.0))),
        asyncio.create_task(wait("click", (budgets.URGENT, 10.0))),
    ]
    await asyncio.gather(*tasks)
    assert order == ["click", "notice", "old edit", "newer edit", "computer's edit"]


async def test_refund_and_cancelled_waiters_leave_the_tokens() -> None:
    budget = budgets.GlobalBudget(10.0)
    await budget.take()
    budget.refund()  # not sent: the token is back at once
    await budget.take()
    assert budget.waits == 0  # served from the bucket, never queued
    waiter = asyncio.create_task(budget.take())
    await asyncio.sleep(0)
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    await budget.take()  # the next token goes to the next waiter, not to the cancelled one
    assert budget.waiting == 0 and budget.taken == 2 and budget.refunded == 1


async def test_priority_context_orders_the_guarded_requests() -> None:
    """guard(): counted routes wait for a token (with the priority of their context); the
    interaction endpoints and prepaid requests do not."""
    sent: list[str] = []

    async def request(route: Any, **kwargs: Any) -> str:
        path = str(route.path)
        sent.append(path)
        return path

    http = SimpleNamespace(request=request)
    budget = budgets.GlobalBudget(20.0)
    budgets.guard(http, budget)
    budgets.guard(http, budget)  # guarding twice does not pay twice
    route = SimpleNamespace
    await http.request(route(path="/channels/1/messages"))
    assert budget.taken == 1
    await http.request(route(path="/interactions/1/abc/callback"))
    await http.request(route(path="/webhooks/2/abc/messages/@original"))
    with budgets.prepaid():
        await http.request(route(path="/channels/1/messages/5"))
    assert budget.taken == 1 and len(sent) == 4

    async def edit() -> None:
        with budgets.priority((budgets.EDIT, 0.0)):
            await http.request(route(path="/channels/1/messages/7"))

    async def notice() -> None:
        with budgets.priority((budgets.NOTICE, 5.0)):
            await http.request(route(path="/channels/1/messages"))

    await asyncio.gather(edit(), notice())
    assert sent[-2:] == ["/channels/1/messages", "/channels/1/messages/7"]
    assert budget.taken == 3


async def test_the_window_holds_requests_until_a_second_after_their_answer() -> None:
    """However late requests are answered, no more than ``window`` are paid for within a
    second of each other's answers: delays downstream cannot bunch them beyond it."""
    budget = budgets.GlobalBudget(1000.0, window=3)
    for _ in range(3):
        await budget.take()  # in flight, unanswered
    late = asyncio.create_task(budget.take())
    await asyncio.sleep(0.05)
    assert not late.done() and budget.occupied == 3
    start = time.monotonic()
    budget.done()  # answered now: it leaves the window a second from now
    await late
    assert time.monotonic() - start >= budgets.WINDOW_SECONDS - 0.01
    budget.refund()  # the late one was not sent after all: its place is free at once
    assert budget.occupied == 2  # two in flight; the answered one left the window
    assert budgets.window_for(45.0) == 49 and budgets.window_for(15.0) == 16
    assert budgets.window_for(50.0) == 49


async def test_paid_requests_waiting_elsewhere_hold_no_place_in_the_window() -> None:
    """A table edit pays (reserve) before it waits for a lane, and enters the window only
    with the lane: edits waiting for lanes can never fill the window that the lanes' holders
    (notices) wait for."""
    budget = budgets.GlobalBudget(1000.0, window=2)
    for _ in range(5):
        await budget.reserve((budgets.EDIT, 0.0))  # paid, waiting for a lane
    assert budget.occupied == 0 and budget.taken == 5
    await budget.take()  # a notice holding a lane is not held back by them
    await budget.enter()  # an edit got its lane
    assert budget.occupied == 2
    third = asyncio.create_task(budget.enter())
    await asyncio.sleep(0.01)
    assert not third.done()
    budget.refund()  # the notice was not sent: its place is free at once
    await third
    budget.refund(entered=False)  # a reserved edit that never sent: the token only
    assert budget.occupied == 2 and budget.taken == 4 and budget.refunded == 2


def test_counted_routes_and_cluster_share() -> None:
    assert budgets.counted("/channels/1/messages/2")
    assert budgets.counted("/applications/1/commands")
    assert not budgets.counted("/interactions/1/tok/callback")
    assert not budgets.counted("/webhooks/1/tok")
    assert not budgets.counted("/webhooks/1/tok/messages/3")
    whole = budgets.for_share(45.0)
    assert whole.rate == 45.0 and whole.window == 49
    # clusters: each its part of the shards; the windows never add up to more than 49
    for count in (2, 3, 4, 8, 16):
        parts = [budgets.for_share(45.0, 1 / count) for _ in range(count)]
        assert sum(p.rate for p in parts) == pytest.approx(45.0)
        assert sum(p.window for p in parts) <= 49
    uneven = [budgets.for_share(50.0, 3 / 4), budgets.for_share(50.0, 1 / 4)]
    assert sum(p.window for p in uneven) <= 49  # a rate above 45 does not widen the windows
    with pytest.raises(ValueError):
        budgets.GlobalBudget(0)
