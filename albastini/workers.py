"""Worker processes that heal and that die with the bot.

The computer players think, and (without the courier) the table pictures are drawn, in process
pools. Two things go wrong with a plain :class:`~concurrent.futures.ProcessPoolExecutor`:

* when its worker process dies (killed by the OOM killer or by hand), the pool is *broken* for
  good: every later job fails at once with ``BrokenProcessPool`` until the bot restarts.
  :class:`HealingPool` replaces a broken pool with a new one, once however many jobs failed
  together, logs one warning, and runs the failed job again on the new pool;
* when the bot is killed (SIGKILL, so no clean shutdown), its workers and multiprocessing's
  resource tracker keep running, orphaned, for ever. :func:`init_worker`, the pools'
  initializer, watches the parent and ends the worker when it is gone; the resource tracker
  then ends too (it stops when the last holder of its pipe is gone).

No rules here, and nothing of Discord.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, ParamSpec, TypeVar

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

#: How much lower than the bot's own the worker processes' CPU priority is (``nice``): on a busy
#: machine the event loop, which answers clicks within Discord's deadline, runs first; a picture
#: or a computer's move can wait a little.
WORKER_NICE = 10
#: Seconds between two looks at whether the bot is still there (a worker of a killed bot lingers
#: at most this long).
PARENT_POLL = 0.5


def lower_priority() -> None:
    """Run this process at a lower CPU priority (no-op where unsupported)."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(WORKER_NICE)


def exit_with_parent(parent: int, poll: float = PARENT_POLL) -> None:
    """End this process (``os._exit``) as soon as ``parent`` is no longer its parent.

    A daemon thread compares ``os.getppid()`` with the bot's pid: a process whose parent died is
    handed to another (init or a subreaper). Not ``prctl(PR_SET_PDEATHSIG)``: that signal comes
    when the *thread* that started the process ends, and a pool starts its replacement workers
    from a helper thread that ends long before the bot does."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(poll)
        os._exit(0)  # the bot is gone: no one will ever read this process's answers

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def init_worker(parent: int) -> None:
    """A pool's initializer (also the courier's): lower priority, and die with the bot."""
    lower_priority()
    exit_with_parent(parent)


def process_pool(workers: int = 1) -> concurrent.futures.ProcessPoolExecutor:
    """A pool of spawned workers (no state of the bot is copied into them; no token either),
    each at a lower priority and ending with this process."""
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=init_worker,
        initargs=(os.getpid(),),
    )


class HealingPool(concurrent.futures.Executor):
    """An executor over a process pool that replaces the pool when a worker died.

    ``factory`` builds a pool (and may warm it up). A job that fails with ``BrokenProcessPool``
    is run once more on a new pool; if that fails too, the job fails with ``BrokenProcessPool``
    and the caller decides (the table service then thinks inline with a cheaper player). Jobs
    that fail together share one replacement: a pool is replaced only while it is the current
    one. Each replacement logs one warning (``name`` says which pool), not one per job.
    """

    def __init__(
        self, factory: Callable[[], concurrent.futures.ProcessPoolExecutor], *, name: str
    ) -> None:
        self._factory = factory
        self._name = name
        self._lock = threading.Lock()
        self._pool = factory()
        self._retired: list[concurrent.futures.ProcessPoolExecutor] = []
        self._closed = False
        #: How many times a dead pool was replaced.
        self.replacements = 0

    def pids(self) -> list[int]:
        """The ids of the current pool's worker processes (for tests and operators)."""
        processes: dict[int, Any] = getattr(self._pool, "_processes", None) or {}
        return sorted(processes)

    def submit(
        self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs
    ) -> concurrent.futures.Future[T]:
        outer: concurrent.futures.Future[T] = concurrent.futures.Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("cannot schedule new futures after shutdown")
        self._attempt(outer, fn, args, kwargs, retried=False)
        return outer

    def _attempt(
        self,
        outer: concurrent.futures.Future[T],
        fn: Callable[..., T],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        *,
        retried: bool,
    ) -> None:
        with self._lock:
            pool, closed = self._pool, self._closed
        if closed:
            self._settle(outer, exc=RuntimeError("the pool is shut down"))
            return
        try:
            inner = pool.submit(fn, *args, **kwargs)
        except BrokenProcessPool as exc:  # broken before this job reached it
            self._failed(pool, outer, fn, args, kwargs, exc, retried=retried)
            return
        except Exception as exc:
            self._settle(outer, exc=exc)
            return

        def done(inner: concurrent.futures.Future[T]) -> None:
            if inner.cancelled():
                outer.cancel()
                return
            exc = inner.exception()
            if isinstance(exc, BrokenProcessPool):
                self._failed(pool, outer, fn, args, kwargs, exc, retried=retried)
            elif exc is not None:
                self._settle(outer, exc=exc)
            else:
                self._settle(outer, result=inner.result())

        inner.add_done_callback(done)
        # asyncio cancels the outer future when the awaiting task is cancelled: stop the job too
        outer.add_done_callback(lambda f: inner.cancel() if f.cancelled() else None)

    def _failed(
        self,
        pool: concurrent.futures.ProcessPoolExecutor,
        outer: concurrent.futures.Future[T],
        fn: Callable[..., T],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        exc: BrokenProcessPool,
        *,
        retried: bool,
    ) -> None:
        try:
            self._replace(pool)
        except Exception as error:  # a new pool could not even be built
            self._settle(outer, exc=error)
            return
        if retried:
            self._settle(outer, exc=exc)
        else:
            self._attempt(outer, fn, args, kwargs, retried=True)

    def _replace(self, broken: concurrent.futures.ProcessPoolExecutor) -> None:
        """A new pool in place of ``broken``, unless another job replaced it already."""
        with self._lock:
            if self._closed or self._pool is not broken:
                return
            self._pool = self._factory()
            self._retired.append(broken)
            self.replacements += 1
        # Called from the broken pool's own helper thread: it must not wait for itself.
        with contextlib.suppress(Exception):
            broken.shutdown(wait=False, cancel_futures=True)
        log.warning("a %s worker process died; started a new one", self._name)

    @staticmethod
    def _settle(
        outer: concurrent.futures.Future[T], *, result: Any = None, exc: BaseException | None = None
    ) -> None:
        if outer.done():  # cancelled by its waiter meanwhile
            return
        with contextlib.suppress(concurrent.futures.InvalidStateError):
            if exc is not None:
                outer.set_exception(exc)
            else:
                outer.set_result(result)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._closed = True
            pools = [*self._retired, self._pool]
            self._retired = []
        for pool in pools:
            pool.shutdown(wait=wait, cancel_futures=cancel_futures)
