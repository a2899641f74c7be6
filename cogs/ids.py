"""The custom-id scheme of every button the bot sends: short, self-describing, restart-proof.

Every id starts with ``alb:`` and carries all the state its click needs, so no view has to be
kept in memory: after a restart the same ids keep working once the table is reloaded.

====================================  =====================================================
``alb:p:<table>:<move>:<card>``       play ``card`` (``7H``) as move number ``move``
``alb:b:<table>:<move>:<card>``       bid ``card`` as move number ``move``
``alb:x:<table>:<move>``              pass as move number ``move``
``alb:r:<table>``                     refresh my private hand (in place)
``alb:h:<table>``                     show my hand (public table message, opens a private one)
``alb:back:<table>``                  I'm back (clears "away")
``alb:leave:<table>``                 leave the table (a computer takes the seat once running)
``alb:join:<table>``                  sit down at the lobby
``alb:cpu:<table>``                   host: add a computer player
``alb:go:<table>``                    host: start the match
``alb:cancel:<table>``                host: close the table
``alb:again:<table>``                 rematch with the same players
``alb:quit:<table>``                  confirm leaving a running match
``alb:lb:<guild>:<offset>``           leaderboard page
``alb:rules:<page>``                  rules page
====================================  =====================================================

The move number makes a button single-use: the table service refuses a move whose number is not the
next one ("stale"), so a double click or an old hand can never play twice.

An id alone proves nothing: anyone can send any id on any message. :func:`carried_by` accepts a
click only on a message that really carries that button (and is private or public as that kind
of button always is), so a forged id can never turn a public message into something else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "alb:"
CARD = r"[A7KJQ3-6][CDHS]"
ID = r"[0-9]{1,19}"
MOVE = r"[0-9]{1,9}"

#: kind -> regular expression (fullmatch) with named groups
TEMPLATES: dict[str, str] = {
    "play": rf"alb:p:(?P<table>{ID}):(?P<move>{MOVE}):(?P<card>{CARD})",
    "bid": rf"alb:b:(?P<table>{ID}):(?P<move>{MOVE}):(?P<card>{CARD})",
    "pass": rf"alb:x:(?P<table>{ID}):(?P<move>{MOVE})",
    "refresh": rf"alb:r:(?P<table>{ID})",
    "hand": rf"alb:h:(?P<table>{ID})",
    "back": rf"alb:back:(?P<table>{ID})",
    "leave": rf"alb:leave:(?P<table>{ID})",
    "join": rf"alb:join:(?P<table>{ID})",
    "computer": rf"alb:cpu:(?P<table>{ID})",
    "start": rf"alb:go:(?P<table>{ID})",
    "cancel": rf"alb:cancel:(?P<table>{ID})",
    "rematch": rf"alb:again:(?P<table>{ID})",
    "quit": rf"alb:quit:(?P<table>{ID})",
    "leaderboard": rf"alb:lb:(?P<guild>{ID}):(?P<offset>[0-9]{{1,6}})",
    "rules": r"alb:rules:(?P<page>[0-9]{1,2})",
}
COMPILED: dict[str, re.Pattern[str]] = {k: re.compile(v) for k, v in TEMPLATES.items()}

_SHORT = {
    "refresh": "r",
    "hand": "h",
    "back": "back",
    "leave": "leave",
    "join": "join",
    "computer": "cpu",
    "start": "go",
    "cancel": "cancel",
    "rematch": "again",
    "quit": "quit",
}


@dataclass(frozen=True, slots=True)
class ButtonId:
    """A parsed custom id: its kind and the values it carries (None where the kind has none)."""

    kind: str
    table: int | None = None
    move: int | None = None
    card: str | None = None
    guild: int | None = None
    offset: int | None = None
    page: int | None = None

    @property
    def action(self) -> str | None:
        """The table service's action code for a move button ("play:7H", "bid:4C", "pass")."""
        if self.kind == "play":
            return f"play:{self.card}"
        if self.kind == "bid":
            return f"bid:{self.card}"
        if self.kind == "pass":
            return "pass"
        return None


def parse(custom_id: str) -> ButtonId | None:
    """Read a custom id; None for anything that is not exactly one of ours."""
    if not isinstance(custom_id, str) or len(custom_id) > 100 or not custom_id.startswith(PREFIX):
        return None
    for kind, pattern in COMPILED.items():
        m = pattern.fullmatch(custom_id)
        if m is None:
            continue
        g = m.groupdict()
        return ButtonId(
            kind=kind,
            table=int(g["table"]) if g.get("table") else None,
            move=int(g["move"]) if g.get("move") else None,
            card=g.get("card"),
            guild=int(g["guild"]) if g.get("guild") else None,
            offset=int(g["offset"]) if g.get("offset") else None,
            page=int(g["page"]) if g.get("page") else None,
        )
    return None


def move(table_id: int, move_no: int, code: str) -> str:
    """The id of a move button for the service's action ``code`` ("play:7H", "bid:4C", "pass")."""
    if code == "pass":
        return f"alb:x:{table_id}:{move_no}"
    kind, _, card = code.partition(":")
    letter = {"play": "p", "bid": "b"}.get(kind)
    if letter is None or not re.fullmatch(CARD, card):
        raise ValueError(f"not a move code: {code!r}")
    return f"alb:{letter}:{table_id}:{move_no}:{card}"


def table_button(kind: str, table_id: int) -> str:
    """The id of a per-table button: refresh, hand, back, leave, join, computer, start..."""
    return f"alb:{_SHORT[kind]}:{table_id}"


def leaderboard(guild_id: int, offset: int) -> str:
    return f"alb:lb:{guild_id}:{max(0, offset)}"


def rules(page: int) -> str:
    return f"alb:rules:{page}"


#: Kinds of buttons that only private (ephemeral) messages carry: a hand, the leave confirmation.
PRIVATE_KINDS = frozenset({"play", "bid", "pass", "refresh", "quit"})
#: Kinds that only public messages carry: lobby, table, turn notice, match over, leaderboard.
PUBLIC_KINDS = frozenset(
    {"hand", "back", "leave", "join", "computer", "start", "cancel", "rematch", "leaderboard"}
)
#: Move kinds: a hand whose buttons have moved on still routes an older one to the service,
#: which answers "that was an earlier move" with the fresh hand.
MOVE_KINDS = frozenset({"play", "bid", "pass"})


def carried_by(button: ButtonId, custom_id: str, present: set[str], ephemeral: bool) -> bool:
    """Whether a click on ``custom_id`` (parsed: ``button``) is one a person could make on a
    message that carries the ids ``present`` and is ``ephemeral`` or not.

    The clicked id must be on the message, except that a move may come from a hand of the same
    table that was updated meanwhile (a double click, an old hand: the service calls it stale).
    Rules pages are on private pages and on public tables (which open them privately)."""
    if button.kind in PRIVATE_KINDS and not ephemeral:
        return False
    if button.kind in PUBLIC_KINDS and ephemeral:
        return False
    if custom_id in present:
        return True
    if button.kind in MOVE_KINDS and button.table is not None:
        return table_button("refresh", button.table) in present
    return False
