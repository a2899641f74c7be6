"""The custom-id scheme of every button the bot sends: short, self-describing, restart-proof.

Every id starts with ``alb:`` and carries all the state its click needs, so no view has to be
kept in memory: after a restart the same ids keep working once the table is reloaded.

====================================  =====================================================
``alb:m:<table>:<move>:<code>``       make the move ``code`` (the table service's action
                                      code: ``play:7H``, ``bid:4C``, ``pass``) as move
                                      number ``move``
``alb:c:<table>:<move>:<card>``       a card of a hand that no move puts down now (its
                                      button is disabled; never a move)
``alb:o:<table>:<move>:<card>[:<p>]`` show the options of a card with several legal uses
                                      (Cassino), page ``p`` of them
``alb:s:<table>:<move>:<card>:<part>`` a select menu of those options: the chosen value is
                                      the action code, checked by the service as any move
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
``alb:lb:<guild>:<offset>[:<game>]``  leaderboard page (of Albastini, or of ``game``)
``alb:rules:<page>``                  rules page
====================================  =====================================================

A move's code is read by its shape only (:data:`CODE`: a kind in small letters, and an optional
``:`` and argument of letters and digits, whatever the game): the table service checks the move
itself, as it does any move. Buttons sent before this scheme carried moves as
``alb:p:<table>:<move>:<card>`` (play), ``alb:b:…`` (bid) and ``alb:x:<table>:<move>`` (pass);
they are still on messages in Discord, so they still parse, to the same action codes (see
:data:`LEGACY_MOVES`).

The move number makes a button single-use: the table service refuses a move whose number is not the
next one ("stale"), so a double click or an old hand can never play twice.

An id alone proves nothing: anyone can send any id on any message. :func:`carried_by` accepts a
click only on a message that really carries that button (and is private or public as that kind
of button always is), so a forged id can never turn a public message into something else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cogs.games import DEFAULT_GAME

PREFIX = "alb:"
ID = r"[0-9]{1,19}"
MOVE = r"[0-9]{1,9}"
#: The longest argument of a move code: with the longest table id and move number, a move's
#: custom id stays within Discord's 100 characters.
MAX_ARG = 40
#: A move's action code, by shape: a kind, and an optional argument (a card, a number...).
CODE = rf"[a-z]{{1,16}}(?::[A-Za-z0-9]{{1,{MAX_ARG}}})?"
#: A longer move code, read by its shape too: a kind, a card, an optional number and table
#: items named by cards (Cassino's ``capture:9S:2C5H``, ``build:7C:10:AC3S4H5C``).
LONG_CODE = r"[a-z]{1,16}:[0-9A-Z][CDHS](?::(?:10|[1-9]))?:(?:[0-9A-Z][CDHS]){1,26}"
#: A game's name (``albastini.games.GAMES``), on a leaderboard page of a game but Albastini.
GAME = r"[a-z][a-z0-9_]{0,31}"
#: A card code on a disabled card button: letters and digits.
CARD = r"[A-Za-z0-9]{1,8}"

#: kind -> regular expression (fullmatch) with named groups
TEMPLATES: dict[str, str] = {
    "move": rf"alb:m:(?P<table>{ID}):(?P<move>{MOVE}):(?P<code>{CODE}|{LONG_CODE})",
    "options": rf"alb:o:(?P<table>{ID}):(?P<move>{MOVE}):(?P<card>{CARD})(?::(?P<page>[0-9]))?",
    "pick": rf"alb:s:(?P<table>{ID}):(?P<move>{MOVE}):(?P<card>{CARD}):(?P<offset>[0-9])",
    "card": rf"alb:c:(?P<table>{ID}):(?P<move>{MOVE}):(?P<card>{CARD})",
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
    "leaderboard": rf"alb:lb:(?P<guild>{ID}):(?P<offset>[0-9]{{1,6}})(?::(?P<game>{GAME}))?",
    "rules": r"alb:rules:(?P<page>[0-9]{1,2})",
}
COMPILED: dict[str, re.Pattern[str]] = {k: re.compile(v) for k, v in TEMPLATES.items()}

#: The move buttons sent before ``alb:m:`` (Albastini's only, then): letter -> the action code's
#: kind and whether a card follows it (``play:7H``; ``pass`` alone). The card was a rank and a
#: suit letter.
LEGACY_MOVES: dict[str, tuple[str, bool]] = {"p": ("play", True), "b": ("bid", True),
                                              "x": ("pass", False)}
_LEGACY = re.compile(
    rf"alb:(?P<letter>[pbx]):(?P<table>{ID}):(?P<move>{MOVE})(?::(?P<card>[0-9A-Z][CDHS]))?"
)

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
    #: a move button's action code for the table service ("play:7H", "bid:4C", "pass")
    action: str | None = None
    #: the card a disabled card button shows
    card: str | None = None
    guild: int | None = None
    offset: int | None = None
    page: int | None = None
    #: the game of a leaderboard page (None: Albastini's)
    game: str | None = None


def parse(custom_id: str) -> ButtonId | None:
    """Read a custom id; None for anything that is not exactly one of ours."""
    if not isinstance(custom_id, str) or len(custom_id) > 100 or not custom_id.startswith(PREFIX):
        return None
    legacy = _LEGACY.fullmatch(custom_id)
    if legacy is not None:
        return _legacy_move(legacy)
    for kind, pattern in COMPILED.items():
        m = pattern.fullmatch(custom_id)
        if m is None:
            continue
        g = m.groupdict()
        return ButtonId(
            kind=kind,
            table=int(g["table"]) if g.get("table") else None,
            move=int(g["move"]) if g.get("move") else None,
            action=g.get("code"),
            card=g.get("card"),
            guild=int(g["guild"]) if g.get("guild") else None,
            offset=int(g["offset"]) if g.get("offset") else None,
            page=int(g["page"]) if g.get("page") else None,
            game=g.get("game"),
        )
    return None


def _legacy_move(m: re.Match[str]) -> ButtonId | None:
    """A move button sent before ``alb:m:``, as the same move in today's form."""
    kind, with_card = LEGACY_MOVES[m["letter"]]
    card = m["card"]
    if (card is not None) != with_card:
        return None
    return ButtonId(kind="move", table=int(m["table"]), move=int(m["move"]),
                    action=f"{kind}:{card}" if card else kind)


def move(table_id: int, move_no: int, code: str) -> str:
    """The id of a move button for the service's action ``code`` ("play:7H", "bid:4C", "pass"):
    any code of the right shape (:data:`CODE`, :data:`LONG_CODE`), whatever the game;
    ValueError for another, or when the id would not fit Discord's 100 characters."""
    if not (re.fullmatch(CODE, code) or re.fullmatch(LONG_CODE, code)):
        raise ValueError(f"not a move code: {code!r}")
    custom_id = f"alb:m:{table_id}:{move_no}:{code}"
    if len(custom_id) > 100:
        raise ValueError(f"a move id too long for Discord: {code!r}")
    return custom_id


def options(table_id: int, move_no: int, card: str, page: int = 0) -> str:
    """The id of a card button that opens that card's options (page ``page`` of them)."""
    if not re.fullmatch(CARD, card):
        raise ValueError(f"not a card code: {card!r}")
    base = f"alb:o:{table_id}:{move_no}:{card}"
    return f"{base}:{page}" if page else base


def pick(table_id: int, move_no: int, card: str, part: int) -> str:
    """The id of the ``part``-th select menu of a card's options (its values are codes)."""
    if not re.fullmatch(CARD, card):
        raise ValueError(f"not a card code: {card!r}")
    return f"alb:s:{table_id}:{move_no}:{card}:{part}"


def card(table_id: int, move_no: int, code: str) -> str:
    """The id of a disabled card button (a card no move puts down now): unique on its message,
    never a move. ``move_no`` tells it from the same card's button on an earlier hand."""
    if not re.fullmatch(CARD, code):
        raise ValueError(f"not a card code: {code!r}")
    return f"alb:c:{table_id}:{move_no}:{code}"


def table_button(kind: str, table_id: int) -> str:
    """The id of a per-table button: refresh, hand, back, leave, join, computer, start..."""
    return f"alb:{_SHORT[kind]}:{table_id}"


def leaderboard(guild_id: int, offset: int, game: str | None = None) -> str:
    """A leaderboard page's id; ``game`` other than Albastini is named at its end."""
    base = f"alb:lb:{guild_id}:{max(0, offset)}"
    return base if game in (None, DEFAULT_GAME) else f"{base}:{game}"


def rules(page: int) -> str:
    return f"alb:rules:{page}"


#: Kinds of buttons that only private (ephemeral) messages carry: a hand, the leave confirmation.
PRIVATE_KINDS = frozenset({"move", "card", "options", "pick", "refresh", "quit"})
#: Kinds that only public messages carry: lobby, table, turn notice, match over, leaderboard.
PUBLIC_KINDS = frozenset(
    {"hand", "back", "leave", "join", "computer", "start", "cancel", "rematch", "leaderboard"}
)
#: Kinds of a hand's buttons that carry a move number: a hand whose buttons have moved on still
#: routes an older one (to the service, which answers "that was an earlier move" with the fresh
#: hand).
MOVE_KINDS = frozenset({"move", "card", "options", "pick"})


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
