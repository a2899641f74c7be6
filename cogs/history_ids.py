"""The ids of the buttons of ratings boards, history pages, replays and spectators (issue 19;
the table's own buttons are in :mod:`cogs.ids`). Every id starts ``alb:`` and carries all the
state its click needs; :func:`carried_by` accepts a click only on a message that carries that
button and is private or public as that kind of button always is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

ID = r"[0-9]{1,19}"
GAME = r"[a-z][a-z0-9_]{0,31}"

#: kind -> the id's pattern (fullmatch). ``hist``: a page of the history of ``guild`` (0: every
#: server) and ``user`` (0: everyone); ``board``: a leaderboard page sorted by ``sort`` (r:
#: rating, p: victory points) over ``period`` (s: this season, a: all time); ``replay``: a step
#: of a deal's replay; ``open``: open a match's replay; ``watch``: watch a running table;
#: ``look``: refresh a spectator's view.
TEMPLATES: dict[str, str] = {
    "hist": rf"alb:hi:(?P<guild>{ID}):(?P<user>{ID}):(?P<offset>[0-9]{{1,6}})",
    "board": rf"alb:lbx:(?P<guild>{ID}):(?P<offset>[0-9]{{1,6}}):(?P<sort>[rp]):(?P<period>[sa])"
    rf":(?P<game>{GAME})",
    "replay": rf"alb:rp:(?P<table>{ID}):(?P<deal>[0-9]{{1,4}}):(?P<step>[0-9]{{1,4}})"
    r"(?::(?P<tag>[a-z]))?",
    "open": rf"alb:rpo:(?P<table>{ID})",
    "watch": rf"alb:watch:(?P<table>{ID})",
    "look": rf"alb:look:(?P<table>{ID})",
}
COMPILED = {kind: re.compile(pattern) for kind, pattern in TEMPLATES.items()}
#: Kinds only private messages carry, and kinds only public ones carry.
PRIVATE_KINDS = frozenset({"hist", "replay", "look"})
PUBLIC_KINDS = frozenset({"board", "watch"})

@dataclass(frozen=True, slots=True)
class Button:
    """One of this module's parsed ids."""

    kind: str
    values: dict[str, str]

    def num(self, name: str) -> int:
        return int(self.values.get(name) or 0)


def parse(custom_id: str) -> Button | None:
    if not isinstance(custom_id, str) or len(custom_id) > 100:
        return None
    for kind, pattern in COMPILED.items():
        m = pattern.fullmatch(custom_id)
        if m is not None:
            return Button(kind, {k: v for k, v in m.groupdict().items() if v is not None})
    return None


def hist_id(guild_id: int, user_id: int, offset: int) -> str:
    return f"alb:hi:{guild_id}:{user_id}:{max(0, offset)}"


def board_id(guild_id: int, offset: int, sort: str, period: str, game: str) -> str:
    return f"alb:lbx:{guild_id}:{max(0, offset)}:{sort[0]}:{period[0]}:{game}"


def replay_id(table_id: int, deal_no: int, step: int, tag: str = "") -> str:
    """A replay step's id; ``tag`` tells apart two buttons that lead to the same step."""
    return f"alb:rp:{table_id}:{deal_no}:{max(0, step)}" + (f":{tag}" if tag else "")


def open_id(table_id: int) -> str:
    return f"alb:rpo:{table_id}"


def watch_id(table_id: int) -> str:
    return f"alb:watch:{table_id}"


def look_id(table_id: int) -> str:
    return f"alb:look:{table_id}"


def custom_ids(message: discord.Message | None) -> set[str]:
    """Every custom id among a message's components."""
    found: set[str] = set()
    stack: list[Any] = list(message.components) if message is not None else []
    while stack:
        item = stack.pop()
        custom_id = getattr(item, "custom_id", None)
        if isinstance(custom_id, str):
            found.add(custom_id)
        stack.extend(getattr(item, "children", None) or [])
    return found


def carried_by(button: Button, custom_id: str, message: discord.Message | None) -> bool:
    """Whether the clicked message really carries this button, and is private or public as the
    button's kind always is (a forged id acts on no other message)."""
    if message is None:
        return False
    ephemeral = message.flags.ephemeral
    if button.kind in PRIVATE_KINDS and not ephemeral:
        return False
    if button.kind in PUBLIC_KINDS and ephemeral:
        return False
    return custom_id in custom_ids(message)
