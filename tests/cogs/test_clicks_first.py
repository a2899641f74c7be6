"""Clicks first (cogs/ui/clicks_first.py): the edits that follow the game wait while a click is
being answered, go one per turn of the event loop, and are never starved."""

from __future__ import annotations

import asyncio

from cogs.ui.clicks_first import ClicksFirst


async def turns(n: int) -> None:
    """Let the event loop go round ``n`` times."""
    for _ in range(n):
        await asyncio.sleep(0)


async def test_an_edit_waits_until_the_click_being_answered_is_answered() -> None:
    first = ClicksFirst(patience=60.0)
    order: list[str] = []

    async def edit() -> None:
        await first.wait()
        order.append("edit")

    with first.click():
        task = asyncio.create_task(edit())
        await turns(10)
        assert order == [] and first.answering == 1
        order.append("answer")
    await asyncio.wait_for(task, 5.0)
    assert order == ["answer", "edit"]


async def test_waiting_edits_go_one_per_turn_and_a_new_click_stops_the_rest() -> None:
    first = ClicksFirst(patience=60.0)
    done: list[int] = []

    async def edit(k: int) -> None:
        await first.wait()
        done.append(k)

    with first.click():
        tasks = [asyncio.create_task(edit(k)) for k in range(4)]
        await turns(3)
    await turns(2)
    assert 1 <= len(done) <= 2  # one a turn, not the whole burst at once
    with first.click():  # a click arrives: the edits left wait for it
        seen = len(done)
        await turns(10)
        assert len(done) <= seen + 1  # the one whose turn had come already, no more
        assert len(done) < 4
    await asyncio.wait_for(asyncio.gather(*tasks), 5.0)
    assert sorted(done) == [0, 1, 2, 3] and done == sorted(done)  # in the order they came


async def test_a_click_that_never_ends_does_not_starve_the_edits() -> None:
    first = ClicksFirst(patience=0.01)
    with first.click():
        await asyncio.wait_for(first.wait(), 5.0)
        await asyncio.wait_for(asyncio.gather(first.wait(), first.wait()), 5.0)


async def test_with_no_click_an_edit_goes_at_once_and_a_second_takes_the_next_turn() -> None:
    first = ClicksFirst(patience=60.0)
    await asyncio.wait_for(first.wait(), 1.0)  # nobody waiting, no click: no wait at all
    second = asyncio.create_task(first.wait())
    await turns(5)
    assert second.done()
