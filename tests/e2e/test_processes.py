"""bot.py as a process, with its own processes (the courier, the computer players' worker, the
resource tracker): none of them outlives a SIGKILLed bot, none carries the token in its
environment, and the debug log keeps interaction tokens and hands out."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import re
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot import AlbastiniBot
from tests.e2e.conftest import assert_clean, enabled_moves, match_with_computers, table_of
from tests.e2e.test_courier import _my_move
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.test_runner import ROOT, TOKEN, env_for

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")


# ---------------------------------------------------------------------- /proc, without psutil
def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process, or None when it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2 :].split()  # the name may hold spaces and parentheses
    return fields[0], int(fields[1])


def alive(pid: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[0] not in ("Z", "X")  # a zombie has exited


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid``."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None and stat[0] not in ("Z", "X"):
                parents[int(entry.name)] = stat[1]
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for child, ppid in parents.items():
            if ppid == parent and child not in found:
                found.add(child)
                todo.append(child)
    return found


def cmdline(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    return ""


def workers(pid: int) -> set[int]:
    """The spawned processes below ``pid`` (courier, pool workers), not the resource tracker."""
    return {p for p in descendants(pid) if "spawn_main" in cmdline(p)}


# ---------------------------------------------------------------------- a bot with a hard move
async def run_bot_py(env: dict[str, str], cwd: Path, *args: str) -> asyncio.subprocess.Process:
    """bot.py with its stderr read by the test (:class:`Stderr`), its stdout (empty) to
    /dev/null: an unread pipe would keep the process's transport open past the test's event
    loop."""
    return await asyncio.create_subprocess_exec(
        sys.executable, str(ROOT / "bot.py"), *args, cwd=cwd, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip


async def start_with_a_hard_move(
    fake: FakeDiscord, neema: FakeUser, proc: asyncio.subprocess.Process
) -> FakeMessage:
    """Neema opens a table with two hard computers and plays until a hard computer has thought
    in the worker process (the pool starts its worker at the first hard move)."""
    await fake.wait_connected(timeout=30)
    await fake.wait_until(lambda: fake.commands(), timeout=10)
    r = await fake.slash(neema, "albastini start", players=3, computers=True, level="hard")
    lobby = r.message
    assert lobby is not None
    await fake.click(neema, lobby, label="Start")
    await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"), timeout=10)
    loop = asyncio.get_running_loop()
    end = loop.time() + 60
    while len(workers(proc.pid)) < 2:  # the courier and the computers' worker
        assert loop.time() < end, "no hard computer move"
        hand = await fake.click(neema, lobby, label="Show my hand")
        assert hand.message is not None
        moves = enabled_moves(hand.message)
        if moves:
            await fake.click(neema, hand.message, custom_id=moves[0].custom_id)
        await asyncio.sleep(0.2)
    return lobby


class Stderr:
    """Reads the bot's stderr as it comes (a full pipe would block a bot logging at DEBUG)."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.chunks: list[bytes] = []
        self._task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.proc.stderr is not None
        while chunk := await self.proc.stderr.read(65536):
            self.chunks.append(chunk)

    @property
    def text(self) -> str:
        return b"".join(self.chunks).decode(errors="replace")

    async def stop(self) -> str:
        """SIGTERM, wait for the bot, and its stderr."""
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(asyncio.shield(self._task), 30)
            await asyncio.wait_for(self.proc.wait(), 30)
        finally:
            if self.proc.returncode is None:
                self.proc.kill()
                await self.proc.wait()
            self._task.cancel()
        return self.text


async def test_no_process_of_the_bot_outlives_a_sigkill(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        proc = await run_bot_py(env_for(tmp_path / "a.db", **fake.env()), tmp_path)
        stderr = Stderr(proc)
        children: set[int] = set()
        try:
            await start_with_a_hard_move(fake, neema, proc)
            children = descendants(proc.pid)
            # the courier, the computers' worker and multiprocessing's resource tracker
            assert len(children) >= 3, [cmdline(p) for p in children]
            proc.kill()
            # not proc.wait(): that waits for the stderr pipe, which the orphans hold open
            deadline = time.monotonic() + 20
            while any(alive(p) for p in children) and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            left = [cmdline(p) for p in children if alive(p)]
            assert left == [], f"left behind by the killed bot: {left}"
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
            for p in children:  # never leave a stray process to the next test
                if alive(p):
                    with contextlib.suppress(OSError):
                        os.kill(p, signal.SIGKILL)
            await stderr.stop()


async def test_the_token_from_dotenv_is_in_no_child_process_environment(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\n")
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        env = env_for(tmp_path / "a.db", **fake.env())
        del env["DISCORD_TOKEN"]  # only the .env file has it
        proc = await run_bot_py(env, tmp_path)
        stderr = Stderr(proc)
        try:
            await start_with_a_hard_move(fake, neema, proc)
            children = descendants(proc.pid)
            assert len(children) >= 3
            carrying = [
                cmdline(p)
                for p in children
                if TOKEN.encode() in Path(f"/proc/{p}/environ").read_bytes()
            ]
            assert carrying == [], f"the token is in the environment of {carrying}"
        finally:
            err = await stderr.stop()
        assert proc.returncode == 0, err
        assert TOKEN not in err


async def test_debug_log_has_no_interaction_token_and_no_hand(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        env = env_for(tmp_path / "a.db", LOG_LEVEL="DEBUG", **fake.env())
        proc = await run_bot_py(env, tmp_path)
        stderr = Stderr(proc)
        try:
            await fake.wait_connected(timeout=30)
            await fake.wait_until(lambda: fake.commands(), timeout=10)
            r = await fake.slash(neema, "albastini start", players=2, computers=True)
            lobby = r.message
            assert lobby is not None
            start = await fake.click(neema, lobby, label="Start")
            await fake.wait_until(lambda: fake.find_button(lobby, label="Show my hand"))
            hand = await fake.click(neema, lobby, label="Show my hand")
            assert hand.message is not None and hand.ephemeral
            cards = [b.custom_id for b in hand.message.buttons
                     if b.custom_id and re.match(r"alb:[mc]:\d+:\d+:.*[CDHS]$", b.custom_id)]
            assert cards  # the hand's card buttons, each id ending in the card's code
            await fake.wait_idle(quiet=0.3)
        finally:
            err = await stderr.stop()
        assert proc.returncode == 0, err
        for result in (r, start, hand):
            assert result.token not in err
        leaked = [c for c in cards if c in err]
        assert leaked == [], "a private hand's buttons are in the log"


async def test_hard_computers_keep_playing_after_their_worker_is_killed(
    make_bot: Callable[..., AlbastiniBot], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            before = workers(os.getpid())  # the courier (and any other test's helpers)
            lobby = await match_with_computers(fake, neema, players=3, level="hard", target=21)
            table = table_of(bot, fake)
            while not workers(os.getpid()) - before:  # the first hard move starts the worker
                await _my_move(fake, bot, neema, lobby)
            (worker,) = workers(os.getpid()) - before
            await fake.wait_until(lambda: table.to_act is not None)
            caplog.clear()
            os.kill(worker, signal.SIGKILL)
            moves = table.move_no
            for _ in range(3):  # three of Neema's moves, each followed by the computers'
                await _my_move(fake, bot, neema, lobby)
            await fake.wait_until(
                lambda: table.to_act is not None and table.seats[table.to_act].user_id
            )
            assert table.move_no - moves >= 6  # the computers went on playing
            assert not alive(worker)
            assert workers(os.getpid()) - before - {worker}  # in a new worker process
        assert_clean(fake)
    tracebacks = [r.getMessage() for r in caplog.records if r.exc_info]
    assert tracebacks == []
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == ["a computer player worker process died; started a new one"]


def test_a_bot_run_and_stopped_here_leaves_nothing_open_for_after_its_loop(tmp_path: Path) -> None:
    """The harness itself: a bot.py started and stopped as these tests do leaves no pipe of
    its process open once its event loop has closed. An open one is closed by the garbage
    collector later, in whatever test is running then, which fails inside the transport's
    ``__del__`` ("Event loop is closed") and is reported against that innocent test."""

    async def run_and_stop() -> None:
        async with FakeDiscord() as fake:
            proc = await run_bot_py(env_for(tmp_path / "a.db", **fake.env()), tmp_path)
            stderr = Stderr(proc)
            try:
                await fake.wait_connected(timeout=30)
            finally:
                await stderr.stop()

    unraisable: list[sys.UnraisableHookArgs] = []
    hook, sys.unraisablehook = sys.unraisablehook, unraisable.append
    try:
        asyncio.run(run_and_stop())
        gc.collect()
    finally:
        sys.unraisablehook = hook
    assert [f"{u.exc_type.__name__}: {u.exc_value} in {u.object}" for u in unraisable] == []
