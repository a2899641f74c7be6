"""Checks and conversions of the values given to the store, the same for every back end.

Each check returns the value (or its normal form) or raises :class:`InvalidValue`, before a
back end touches its database: a refused value writes nothing. The conversions are those
every SQL back end needs: a 64-bit seed in a signed column, timestamps as ISO text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, cast

from .errors import InvalidValue
from .records import Language, PlayerResult

__all__ = [
    "ACTION_MAX",
    "INT64_MAX",
    "LANGUAGES",
    "NAME_MAX",
    "SEED_LIMIT",
    "SETTINGS_MAX",
    "TARGET_VP_RANGE",
    "TURN_TIME_RANGE",
    "check_action",
    "check_bool",
    "check_deal_result",
    "check_game",
    "check_id",
    "check_int",
    "check_language",
    "check_level",
    "check_move",
    "check_name",
    "check_opt_id",
    "check_results",
    "check_seat",
    "deck_to_db",
    "now_text",
    "parse_ts",
    "seed_from_db",
    "seed_to_db",
    "settings_json",
]

NAME_MAX = 100  # display names longer than this are truncated (they are cosmetic)
ACTION_MAX = 64
SETTINGS_MAX = 4096  # characters of JSON
LANGUAGES: tuple[Language, ...] = ("en", "sw", "ml", "ru")
TURN_TIME_RANGE = (15, 600)
TARGET_VP_RANGE = (1, 21)
_ACTION_RE = re.compile(rf"[A-Za-z0-9:_.,+\-]{{1,{ACTION_MAX}}}")
_CARD_RE = re.compile(r"[A-Za-z0-9]{1,4}")
_LEVEL_RE = re.compile(r"[A-Za-z0-9_\-]{1,16}")
_GAME_RE = re.compile(r"[a-z0-9_]{1,32}")
INT64_MAX = 2**63 - 1
SEED_LIMIT = 2**64


def check_id(name: str, value: object) -> int:
    if type(value) is not int or not 0 < value <= INT64_MAX:
        raise InvalidValue(f"{name} must be a positive 64-bit integer id, got {value!r}")
    return value


def check_opt_id(name: str, value: object) -> int | None:
    return None if value is None else check_id(name, value)


def check_int(name: str, value: object, lo: int, hi: int) -> int:
    if type(value) is not int or not lo <= value <= hi:
        raise InvalidValue(f"{name} must be a whole number from {lo} to {hi}, got {value!r}")
    return value


def check_bool(name: str, value: object) -> bool:
    if type(value) is not bool:
        raise InvalidValue(f"{name} must be True or False, got {value!r}")
    return value


def check_language(value: object) -> Language:
    for lang in LANGUAGES:
        if value == lang:
            return lang
    raise InvalidValue(f"language must be one of {', '.join(LANGUAGES)}, got {value!r}")


def check_name(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidValue(f"display name must be a non-empty string, got {value!r}")
    return value.strip()[:NAME_MAX]


def check_level(value: object) -> str:
    if not isinstance(value, str) or not _LEVEL_RE.fullmatch(value):
        raise InvalidValue(f"computer level must be 1-16 letters/digits/_/-, got {value!r}")
    return value


def check_move(
    table_id: object,
    move_no: object,
    deal_no: object,
    seat_no: object,
    action: object,
    user_id: object,
    by_computer: object,
) -> tuple[int, int, int, int, int | None, str, bool]:
    """A move's values in the moves table's column order (its time aside), each checked; a
    computer's move has no user id and a person's has one."""
    values = (
        check_id("table_id", table_id),
        check_int("move_no", move_no, 1, INT64_MAX),
        check_int("deal_no", deal_no, 1, 1_000_000),
        check_int("seat_no", seat_no, 0, 15),
        check_opt_id("user_id", user_id),
        check_action(action),
        check_bool("by_computer", by_computer),
    )
    if (user_id is None) != by_computer:
        raise InvalidValue("a computer's move has user_id=None; a person's move has a user_id")
    return values


def check_action(value: object) -> str:
    if not isinstance(value, str) or not _ACTION_RE.fullmatch(value):
        raise InvalidValue(
            f"action code must be 1-{ACTION_MAX} characters of A-Z a-z 0-9 : _ . , + -, "
            f"got {value!r}"
        )
    return value


def settings_json(value: object) -> str:
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise InvalidValue(f"table settings must be a mapping with string keys, got {value!r}")
    try:
        text = json.dumps(dict(value), sort_keys=True, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise InvalidValue(f"table settings must be JSON-serialisable: {exc}") from None
    if len(text) > SETTINGS_MAX:
        raise InvalidValue(f"table settings are {len(text)} characters of JSON, max {SETTINGS_MAX}")
    return text


def seed_to_db(seed: object) -> int:
    if type(seed) is not int or not 0 <= seed < SEED_LIMIT:
        raise InvalidValue(f"seed must be an integer from 0 to 2**64-1, got {seed!r}")
    return seed - SEED_LIMIT if seed > INT64_MAX else seed


def seed_from_db(value: int) -> int:
    return value + SEED_LIMIT if value < 0 else value


def deck_to_db(deck: object) -> str | None:
    if deck is None:
        return None
    if isinstance(deck, str) or not isinstance(deck, Sequence) or not 1 <= len(deck) <= 64:
        raise InvalidValue(f"deck must be a sequence of 1-64 card codes, got {deck!r}")
    for card in deck:
        if not isinstance(card, str) or not _CARD_RE.fullmatch(card):
            raise InvalidValue(f"card code must be 1-4 letters/digits, got {card!r}")
    return " ".join(cast(Sequence[str], deck))


def now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def parse_ts(value: str | datetime) -> datetime:
    """A stored time as a datetime: SQLite keeps ISO text, PostgreSQL returns a datetime."""
    return value if isinstance(value, datetime) else datetime.fromisoformat(value)


def check_seat(
    seat_no: int, user_id: int | None, display_name: str, computer_level: str | None
) -> tuple[int, int | None, str, str | None]:
    check_int("seat_no", seat_no, 0, 15)
    check_opt_id("user_id", user_id)
    name = check_name(display_name)
    if (user_id is None) != (computer_level is not None):
        raise InvalidValue("a seat has either a user_id (person) or a computer_level")
    level = None if computer_level is None else check_level(computer_level)
    return seat_no, user_id, name, level


def check_game(value: object) -> str:
    if not isinstance(value, str) or not _GAME_RE.fullmatch(value):
        raise InvalidValue(f"game must be 1-32 characters of a-z 0-9 _, got {value!r}")
    return value


def check_results(table_id: int, results: object) -> list[tuple[Any, ...]]:
    """The rows of a finished match's results: (user_id, team, score, won, deals_played,
    deals_won, deals_won_big, card_points), one per person, each checked."""
    rows = []
    seen: set[int] = set()
    if isinstance(results, str | bytes) or not isinstance(results, Sequence):
        raise InvalidValue(f"results must be a sequence of PlayerResult, got {results!r}")
    for r in results:
        if not isinstance(r, PlayerResult):
            raise InvalidValue(f"results must be PlayerResult records, got {r!r}")
        uid = check_id("user_id", r.user_id)
        if uid in seen:
            raise InvalidValue(f"user {uid} has two results in table {table_id}")
        seen.add(uid)
        played = check_int("deals_played", r.deals_played, 0, 10_000)
        won_deals = check_int("deals_won", r.deals_won, 0, played)
        rows.append(
            (
                uid,
                check_int("team", r.team, 0, 15),
                check_int("score", r.score, -100_000, 100_000),
                check_bool("won", r.won),
                played,
                won_deals,
                check_int("deals_won_big", r.deals_won_big, 0, won_deals),
                # any sign: a game's cards may be worth less than nothing (Ass's sixes: -1)
                check_int("card_points", r.card_points, -1_000_000, 1_000_000),
            )
        )
    return rows


def check_deal_result(
    card_points: object, winner_team: object, game_points: object
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The card points and game points per team of a finished deal, once the result as a whole
    is checked: 1-16 teams, each with its card points and game points (either of any sign: a
    game's cards may be worth less than nothing, as Ass's sixes are), and a winner among them
    or None."""
    points = _team_numbers("card_points", card_points, -1000)
    scored = _team_numbers("game_points", game_points, -1000)
    if len(scored) != len(points):
        raise InvalidValue(
            f"game_points must list one score per team ({len(points)}), got {game_points!r}"
        )
    if winner_team is not None:
        check_int("winner_team", winner_team, 0, len(points) - 1)
    return points, scored


def _team_numbers(field: str, values: object, lowest: int) -> tuple[int, ...]:
    if isinstance(values, str | bytes) or not isinstance(values, Sequence) or not (
        1 <= len(values) <= 16
    ):
        raise InvalidValue(f"{field} must list 1-16 team totals, got {values!r}")
    return tuple(check_int(field.replace("_", " "), v, lowest, 1000) for v in values)
