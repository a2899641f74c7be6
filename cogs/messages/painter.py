"""The table picture, drawn in a process of its own.

Drawing and encoding a picture is pure Python + Pillow work that holds the GIL for most of its
time: in a thread it stalls the event loop (every click waits behind it). Here it runs in one
spawned worker process, which imports only Pillow, :mod:`cogs.render` and the games' presenters
(:mod:`cogs.games`; not discord.py, not the table service). The functions below are what
crosses the process boundary: module-level, with plain arguments (the public view is JSON-like
data, the names a list of str).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any

from albastini.workers import WORKER_NICE, HealingPool, lower_priority, process_pool

__all__ = ["WORKER_NICE", "Painted", "lower_priority", "new_pool", "paint", "stop_pool", "warm"]

#: A table's picture (JPEG bytes) and its alt text.
Painted = tuple[bytes, str]


def warm() -> bool:
    """Import the renderer and the presenters in the worker ahead of the first picture (fonts
    load lazily)."""
    from cogs import games, render  # noqa: F401

    return True


def paint(view: dict[str, Any], names: list[str], game: str, lang: str) -> Painted:
    """The picture of a table of ``game`` for a public view, in ``lang`` (see
    :func:`cogs.render.table_picture`), and its alt text, which says in words what it shows
    (:func:`cogs.render.describe_table`; worked out here too, off the bot's event loop)."""
    from cogs import render
    from cogs.games import presenter

    shows = presenter(game)
    return (render.table_picture(view, names, lang, shows=shows),
            render.describe_table(view, names, lang, shows=shows))


async def stop_pool(pool: concurrent.futures.Executor) -> None:
    """Cancel what waits, let what runs finish, and wait for the pool's helper thread, off the
    event loop. A pool left stopping (``wait=False``) when the interpreter exits races its own
    exit hook on Python 3.11 ("OSError: Bad file descriptor" printed at exit)."""
    await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)


def _warm_pool() -> concurrent.futures.ProcessPoolExecutor:
    pool = process_pool(1)
    pool.submit(warm)
    return pool


def new_pool() -> HealingPool:
    """One worker process (spawned, so no state of the bot is copied into it), warmed up at once
    so the first picture does not wait for the import; if it dies, the pool starts a new one
    (warmed too) and draws the picture there."""
    return HealingPool(_warm_pool, name="picture")
