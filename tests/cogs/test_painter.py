"""The picture process: draws a table, and yields the CPU to the bot's event loop."""

from __future__ import annotations

import os

from albastini import new_deal
from cogs.games import presenter
from cogs.messages import painter
from cogs.render import describe_table, table_picture

ALB = presenter("albastini")


def _niceness() -> int:
    return os.nice(0)


def test_the_painter_draws_at_a_lower_priority_than_the_bot() -> None:
    pool = painter.new_pool()
    try:
        assert pool.submit(_niceness).result(timeout=60) == min(
            19, os.nice(0) + painter.WORKER_NICE
        )
        view = new_deal(2, 1, 0, seed=5).view(None)
        drawn = pool.submit(painter.paint, view, ["Neema", "Juma"], "albastini", "en")
        picture, alt = drawn.result(timeout=60)
        assert picture == table_picture(view, ["Neema", "Juma"], "en", shows=ALB)
        assert alt == describe_table(view, ["Neema", "Juma"], "en", shows=ALB)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
