"""Worker processes (albastini/workers.py): a pool whose worker dies replaces it once and runs
the job again; workers end when the process that started them is killed."""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from albastini.events import Acted
from albastini.workers import HealingPool, process_pool
from tests.doubles import CHANNEL, GUILD, HOST, service, until

LEVELS = ("hard", "normal")
ROOT = Path(__file__).resolve().parents[1]


def slow_pid(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def never_starts() -> None:
    os._exit(1)


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_jobs_whose_worker_died_run_again_on_one_new_worker(
    caplog: pytest.LogCaptureFixture,
) -> None:
    pool = HealingPool(functools.partial(process_pool, 1), name="test")
    try:
        first = pool.submit(slow_pid, 0).result(timeout=60)
        # one job running, three waiting, when the worker is killed
        jobs = [pool.submit(slow_pid, 0.5) for _ in range(4)]
        time.sleep(0.2)
        os.kill(first, signal.SIGKILL)
        pids = {job.result(timeout=60) for job in jobs}
        assert first not in pids and len(pids) == 1  # all of them, in the one new worker
        assert pool.pids() == sorted(pids)
        assert pool.replacements == 1
        assert warnings_of(caplog) == ["a test worker process died; started a new one"]
        assert not any(r.exc_info for r in caplog.records)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def test_a_job_that_kills_every_worker_fails_and_the_next_job_still_runs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    pool = HealingPool(functools.partial(process_pool, 1), name="test")
    try:
        with pytest.raises(BrokenProcessPool):
            pool.submit(die).result(timeout=60)  # tried twice, on two workers
        assert pool.submit(slow_pid, 0).result(timeout=60) == pool.pids()[0]
        assert pool.replacements == 2
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def test_a_shut_down_pool_refuses_jobs() -> None:
    pool = HealingPool(functools.partial(process_pool, 1), name="test")
    pool.shutdown()
    with pytest.raises(RuntimeError):
        pool.submit(slow_pid, 0)


def _broken_pool() -> concurrent.futures.ProcessPoolExecutor:
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=never_starts
    )


async def test_without_any_worker_hard_computers_play_the_normal_move_inline(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Workers that cannot start at all: the computers still play, inline, one warning line a
    move and no traceback."""
    pool = HealingPool(_broken_pool, name="test")
    try:
        async with service(tmp_path / "t.db", executor=pool) as (svc, _, rec):
            table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", players=2, target=1,
                                         game="albastini")
            await svc.add_computer(table.id, HOST, "hard")
            await svc.start_match(table.id, HOST)
            await svc.leave(table.id, HOST)  # both seats are the computers' now
            await until(lambda: len(rec.of(Acted)) >= 3, timeout=60)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    assert all(a.by_computer for a in rec.of(Acted))
    assert not any(r.exc_info for r in caplog.records)
    lines = set(warnings_of(caplog))
    assert lines <= {
        "a test worker process died; started a new one",
        # the seat Host left is played at the table's level (normal), which thinks in a worker
        *(f"computer player {level} had no worker on table {table.id}" for level in LEVELS),
    }, lines


SCRIPT = """
import functools, sys, time
from albastini.workers import HealingPool, process_pool
pool = HealingPool(functools.partial(process_pool, 1), name="test")
print(pool.submit(sum, [1]).result(), *pool.pids(), flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
async def test_a_worker_ends_when_its_parent_is_killed() -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    worker = 0
    try:
        assert parent.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(parent.stdout.readline), 60)
        one, worker_text = line.split()
        worker = int(worker_text)
        assert one == "1" and _alive(worker)
        parent.kill()
        parent.wait()
        await until(lambda: not _alive(worker), timeout=20)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        if worker and _alive(worker):
            os.kill(worker, signal.SIGKILL)
