"""The one custom-id scheme of every button the bot sends: short, self-describing, restart-proof.

Every id starts with ``alb:`` and carries all the state its click needs, so no view has to be
kept in memory: after a restart the same ids keep working once the table is reloaded. Each kind
of button has one line in :data:`KINDS`: its pattern, and whether a private (ephemeral) or a
public message carries it.

==========================================  ===================================================
``alb:m:<table>:<move>:<code>``             make the move ``code`` (the table service's action
                                            code, by its shape only: :data:`CODE`) as move
                                            number ``move``
``alb:c:<table>:<move>:<card>``             a card of a hand that no move puts down now (its
                                            button is disabled; never a move)
``alb:o:<table>:<move>:<card>[:<p>]``       show the options of a card with several legal uses,
                                            page ``p`` of them
``alb:s:<table>:<move>:<card>:<part>``      a select menu of those options: the chosen value is
                                            the action code, checked by the service as any move
``alb:r:<table>``                           refresh my private hand (in place)
``alb:h:<table>``                           show my hand (public table message, opens a private
                                            one)
``alb:back:<table>``                        I'm back (clears "away")
``alb:leave:<table>``                       leave the table (a computer takes the seat once
                                            running)
``alb:join:<table>``                        sit down at the lobby
``alb:cpu:<table>``                         host: add a computer player
``alb:go:<table>``                          host: start the match
``alb:cancel:<table>``                      host: close the table
``alb:again:<table>``                       rematch with the same players
``alb:quit:<table>``                        confirm leaving a running match
``alb:lb:<guild>:<offset>[:<game>]``        leaderboard page (of ``game``; without it, of the
                                            bot's first game: the ids of old)
``alb:rules:<page>``                        rules page
``alb:hi:<guild>:<user>:<offset>``          a page of the history of ``guild`` (0: every
                                            server) and ``user`` (0: everyone)
``alb:lbx:<guild>:<offset>:<s>:<p>:<game>`` a leaderboard page sorted by ``s`` (r: rating, p:
                                            victory points) over ``p`` (s: this season, a: all)
``alb:rp:<table>:<deal>:<step>[:<tag>]``    a step of a deal's replay (``tag`` tells apart two
                                            buttons leading to the same step)
``alb:rpo:<table>``                         open a finished match's replay
``alb:watch:<table>``                       watch a running table
``alb:look:<table>``                        refresh a spectator's view
==========================================  ===================================================

Move buttons sent before ``alb:m:`` (the bot's first game's only) carried moves as
``alb:<letter>:<table>:<move>[:<card>]``; they are still on messages in Discord, so they still
parse, to the same action codes, through that game's presenter (:func:`cogs.games.legacy_code`).

The move number makes a button single-use: the table service refuses a move whose number is not
the next one ("stale"), so a double click or an old hand can never play twice.

An id alone proves nothing: anyone can send any id on any message. :func:`carried_by` accepts a
click only on a message that really carries that button (and is private or public as that kind
of button always is), so a forged id can never turn a public message into something else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from cogs.games import first_game, legacy_code

__all__ = [
    "CODE",
    "KINDS",
    "MOVE_KINDS",
    "ButtonId",
    "board",
    "card",
    "carried_by",
    "custom_ids",
    "history",
    "leaderboard",
    "look",
    "move",
    "options",
    "parse",
    "pick",
    "replay",
    "replay_open",
    "rules",
    "table_button",
    "watch",
]

PREFIX = "alb:"
#: Discord's limit on a custom id.
MAX_ID = 100
ID = r"[0-9]{1,19}"
MOVE = r"[0-9]{1,9}"
#: A move's action code, by its shape only, whatever the game: a kind in small letters, then up
#: to three arguments of letters and digits (a card, a number, the cards a move names). The
#: table service checks the move itself, as it does any move.
CODE = r"[a-z]{1,16}(?::[A-Za-z0-9]{1,60}){0,3}"
#: A game's name (``albastini.games.GAMES``).
GAME = r"[a-z][a-z0-9_]{0,31}"
#: A card code on a disabled card button or an option chooser: letters and digits.
CARD = r"[A-Za-z0-9]{1,8}"
TABLE = rf"(?P<table>{ID})"

Carrier = Literal["private", "public", "both"]


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of button: its id's pattern (named groups are its values) and which messages
    carry it."""

    pattern: str
    carrier: Carrier


#: Every kind of button: kind -> its pattern (fullmatch) and the messages that carry it.
KINDS: dict[str, Kind] = {
    # a hand (private), and its option chooser
    "move": Kind(rf"alb:m:{TABLE}:(?P<move>{MOVE}):(?P<action>{CODE})", "private"),
    "card": Kind(rf"alb:c:{TABLE}:(?P<move>{MOVE}):(?P<card>{CARD})", "private"),
    "options": Kind(rf"alb:o:{TABLE}:(?P<move>{MOVE}):(?P<card>{CARD})(?::(?P<page>[0-9]))?",
                    "private"),
    "pick": Kind(rf"alb:s:{TABLE}:(?P<move>{MOVE}):(?P<card>{CARD}):(?P<offset>[0-9])",
                 "private"),
    "refresh": Kind(rf"alb:r:{TABLE}", "private"),
    "quit": Kind(rf"alb:quit:{TABLE}", "private"),
    # the table and the lobby (public)
    "hand": Kind(rf"alb:h:{TABLE}", "public"),
    "back": Kind(rf"alb:back:{TABLE}", "public"),
    "leave": Kind(rf"alb:leave:{TABLE}", "public"),
    "join": Kind(rf"alb:join:{TABLE}", "public"),
    "computer": Kind(rf"alb:cpu:{TABLE}", "public"),
    "start": Kind(rf"alb:go:{TABLE}", "public"),
    "cancel": Kind(rf"alb:cancel:{TABLE}", "public"),
    "rematch": Kind(rf"alb:again:{TABLE}", "public"),
    "rules": Kind(r"alb:rules:(?P<page>[0-9]{1,2})", "both"),
    # records, history, replays and spectators
    "leaderboard": Kind(rf"alb:lb:(?P<guild>{ID}):(?P<offset>[0-9]{{1,6}})(?::(?P<game>{GAME}))?",
                        "public"),
    "board": Kind(rf"alb:lbx:(?P<guild>{ID}):(?P<offset>[0-9]{{1,6}}):(?P<sort>[rp]):"
                  rf"(?P<period>[sa]):(?P<game>{GAME})", "public"),
    "history": Kind(rf"alb:hi:(?P<guild>{ID}):(?P<user>{ID}):(?P<offset>[0-9]{{1,6}})",
                    "private"),
    "replay": Kind(rf"alb:rp:{TABLE}:(?P<deal>[0-9]{{1,4}}):(?P<step>[0-9]{{1,4}})"
                   r"(?::(?P<tag>[a-z]))?", "private"),
    "replay_open": Kind(rf"alb:rpo:{TABLE}", "both"),
    "watch": Kind(rf"alb:watch:{TABLE}", "public"),
    "look": Kind(rf"alb:look:{TABLE}", "private"),
}
_COMPILED: dict[str, re.Pattern[str]] = {k: re.compile(v.pattern) for k, v in KINDS.items()}
_LEGACY = re.compile(rf"alb:(?P<letter>[a-z]):{TABLE}:(?P<move>{MOVE})(?::(?P<card>{CARD}))?")
_SHORT = {"refresh": "r", "hand": "h", "back": "back", "leave": "leave", "join": "join",
          "computer": "cpu", "start": "go", "cancel": "cancel", "rematch": "again",
          "quit": "quit"}
_NUMBERS = ("table", "move", "guild", "user", "offset", "page", "deal", "step")

#: Kinds of a hand's buttons that carry a move number: a hand whose buttons have moved on still
#: routes an older one (to the service, which answers "that was an earlier move" with the fresh
#: hand).
MOVE_KINDS = frozenset({"move", "card", "options", "pick"})


@dataclass(frozen=True, slots=True)
class ButtonId:
    """A parsed custom id: its kind and the values it carries (None where the kind has none)."""

    kind: str
    table: int | None = None
    move: int | None = None
    #: a move button's action code for the table service ("play:7H", "bid:4C", "pass")
    action: str | None = None
    #: the card of a disabled card button or of an option chooser
    card: str | None = None
    guild: int | None = None
    user: int | None = None
    offset: int | None = None
    page: int | None = None
    #: the game of a leaderboard page
    game: str | None = None
    sort: str | None = None
    period: str | None = None
    deal: int | None = None
    step: int | None = None
    tag: str | None = None


def parse(custom_id: str) -> ButtonId | None:
    """Read a custom id; None for anything that is not exactly one of ours."""
    if not isinstance(custom_id, str) or len(custom_id) > MAX_ID:
        return None
    if not custom_id.startswith(PREFIX):
        return None
    for kind, pattern in _COMPILED.items():
        m = pattern.fullmatch(custom_id)
        if m is not None:
            values: dict[str, Any] = {k: v for k, v in m.groupdict().items() if v is not None}
            for name in _NUMBERS:
                if name in values:
                    values[name] = int(values[name])
            if kind == "leaderboard":
                values.setdefault("game", first_game())
            return ButtonId(kind=kind, **values)
    legacy = _LEGACY.fullmatch(custom_id)
    if legacy is not None:
        code = legacy_code(legacy["letter"], legacy["card"])
        if code is not None:
            return ButtonId(kind="move", table=int(legacy["table"]), move=int(legacy["move"]),
                            action=code)
    return None


# --------------------------------------------------------------------------- making ids
def _checked(custom_id: str) -> str:
    if len(custom_id) > MAX_ID:
        raise ValueError(f"an id too long for Discord: {custom_id!r}")
    return custom_id


def _card_code(code: str) -> str:
    if not re.fullmatch(CARD, code):
        raise ValueError(f"not a card code: {code!r}")
    return code


def move(table_id: int, move_no: int, code: str) -> str:
    """The id of a move button for the service's action ``code`` ("play:7H", "bid:4C",
    "pass"): any code of the right shape (:data:`CODE`), whatever the game; ValueError for
    another, or when the id would not fit Discord's 100 characters."""
    if not re.fullmatch(CODE, code):
        raise ValueError(f"not a move code: {code!r}")
    return _checked(f"alb:m:{table_id}:{move_no}:{code}")


def options(table_id: int, move_no: int, card_code: str, page: int = 0) -> str:
    """The id of a card button that opens that card's options (page ``page`` of them)."""
    base = f"alb:o:{table_id}:{move_no}:{_card_code(card_code)}"
    return f"{base}:{page}" if page else base


def pick(table_id: int, move_no: int, card_code: str, part: int) -> str:
    """The id of the ``part``-th select menu of a card's options (its values are codes)."""
    return f"alb:s:{table_id}:{move_no}:{_card_code(card_code)}:{part}"


def card(table_id: int, move_no: int, code: str) -> str:
    """The id of a disabled card button (a card no move puts down now): unique on its message,
    never a move. ``move_no`` tells it from the same card's button on an earlier hand."""
    return f"alb:c:{table_id}:{move_no}:{_card_code(code)}"


def table_button(kind: str, table_id: int) -> str:
    """The id of a per-table button: refresh, hand, back, leave, join, computer, start..."""
    return f"alb:{_SHORT[kind]}:{table_id}"


def leaderboard(guild_id: int, offset: int, game: str) -> str:
    """A page of the leaderboard of ``game``."""
    return f"alb:lb:{guild_id}:{max(0, offset)}:{game}"


def rules(page: int) -> str:
    """A page of the rules book."""
    return f"alb:rules:{page}"


def history(guild_id: int, user_id: int, offset: int) -> str:
    """A page of the match history of ``guild_id`` (0: every server) and ``user_id`` (0:
    everyone)."""
    return f"alb:hi:{guild_id}:{user_id}:{max(0, offset)}"


def board(guild_id: int, offset: int, sort: str, period: str, game: str) -> str:
    """A page of a leaderboard of ``game`` sorted by ``sort`` over ``period``."""
    return f"alb:lbx:{guild_id}:{max(0, offset)}:{sort[0]}:{period[0]}:{game}"


def replay(table_id: int, deal_no: int, step: int, tag: str = "") -> str:
    """A replay step's id; ``tag`` tells apart two buttons that lead to the same step."""
    return f"alb:rp:{table_id}:{deal_no}:{max(0, step)}" + (f":{tag}" if tag else "")


def replay_open(table_id: int) -> str:
    """Open the replay of a finished match."""
    return f"alb:rpo:{table_id}"


def watch(table_id: int) -> str:
    """Watch a running table."""
    return f"alb:watch:{table_id}"


def look(table_id: int) -> str:
    """Refresh a spectator's view."""
    return f"alb:look:{table_id}"


# --------------------------------------------------------------------------- checking clicks
def custom_ids(message: Any) -> set[str]:
    """Every custom id among a message's components (rows, and V2 containers and sections:
    children, components and accessories at any depth)."""
    found: set[str] = set()
    stack: list[Any] = list(message.components) if message is not None else []
    while stack:
        item = stack.pop()
        custom_id = getattr(item, "custom_id", None)
        if isinstance(custom_id, str):
            found.add(custom_id)
        stack.extend(getattr(item, "children", None) or [])
        stack.extend(getattr(item, "components", None) or [])
        accessory = getattr(item, "accessory", None)
        if accessory is not None:
            stack.append(accessory)
    return found


def carried_by(button: ButtonId, custom_id: str, message: Any) -> bool:
    """Whether a click on ``custom_id`` (parsed: ``button``) is one a person could make on
    ``message`` (a ``discord.Message``, None when Discord sent none): the message carries it
    and is private or public as that kind of button always is.

    A move may also come from a hand of the same table that was updated meanwhile (a double
    click, an old hand: the service calls it stale)."""
    if message is None:
        return False
    carrier = KINDS[button.kind].carrier
    ephemeral = bool(message.flags.ephemeral)
    if (carrier == "private" and not ephemeral) or (carrier == "public" and ephemeral):
        return False
    present = custom_ids(message)
    if custom_id in present:
        return True
    if button.kind in MOVE_KINDS and button.table is not None:
        return table_button("refresh", button.table) in present
    return False
