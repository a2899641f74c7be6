"""The table picture, drawn in a process of its own.

Drawing and encoding a picture is pure Python + Pillow work that holds the GIL for most of its
time: in a thread it stalls the event loop (every click waits behind it). Here it runs in one
spawned worker process, which imports only Pillow and :mod:`cogs.render` (not discord.py, not the
table service). The functions below are what crosses the process boundary: module-level, with
plain arguments (the public view is JSON-like data, the names a list of str).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import multiprocessing
import os
from typing import Any

#: How much lower than the bot's own the worker processes' CPU priority is (``nice``; the
#: painter and the computer players): on a busy machine the event loop, which answers clicks
#: within Discord's deadline, runs first; a picture or a computer's move can wait a little.
WORKER_NICE = 10


def lower_priority() -> None:
    """Run this process at a lower CPU priority (a pool's initializer; no-op where unsupported)."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(WORKER_NICE)


def warm() -> bool:
    """Import the renderer in the worker ahead of the first picture (fonts load lazily)."""
    from cogs import render  # noqa: F401

    return True


def paint(view: dict[str, Any], names: list[str]) -> bytes:
    """The picture of the table for a public view (see :func:`cogs.render.table_picture`)."""
    from cogs import render

    return render.table_picture(view, names)


async def stop_pool(pool: concurrent.futures.Executor) -> None:
    """Cancel what waits, let what runs finish, and wait for the pool's helper thread, off the
    event loop. A pool left stopping (``wait=False``) when the interpreter exits races its own
    exit hook on Python 3.11 ("OSError: Bad file descriptor" printed at exit)."""
    await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)


def new_pool() -> concurrent.futures.ProcessPoolExecutor:
    """One worker process (spawned, so no state of the bot is copied into it), warmed up at once
    so the first picture does not wait for the import."""
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=lower_priority,
    )
    pool.submit(warm)
    return pool
