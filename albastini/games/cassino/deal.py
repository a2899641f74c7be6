"""One deal of Cassino for people: action codes, refusals with sentences, views, the result.

A :class:`Deal` wraps a :class:`.kernel.State` (the one copy of the rules) and adds what the
table needs: canonical codes in and out (``trail:KH``, ``capture:9S:2C5H``,
``build:2D:10:8CTC``), :class:`IllegalMove` with a readable sentence, ``Card`` objects, and the
JSON view each seat may see. ``shared/rules/cassino.md`` is the authority.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..hands import sorted_hand
from . import kernel as K
from .cards import CARDS, RANK_PLURALS, RANKS, Card, short, shuffled_pack

#: The three modes: label -> {"players": n, "team_size": t}.
MODES: dict[str, dict[str, int]] = {
    "2": {"players": 2, "team_size": 1},
    "3": {"players": 3, "team_size": 1},
    "4 pairs": {"players": 4, "team_size": 2},
}
_DEFAULT_TEAM_SIZE = {2: 1, 3: 1, 4: 2}
#: The breakdown of a deal's points, per team, in :meth:`DealResult.to_json`.
SCORE_ITEMS = ("cards", "spades", "big_cassino", "little_cassino", "aces", "sweeps")


class IllegalMove(ValueError):
    """An action the rules do not allow now; ``str(exc)`` is a sentence for the player who
    tried it. ``reason`` is a short stable code (``"not_in_hand"``, ``"can_capture"``...) and
    ``details`` the values the sentence mentions, so another layer can translate it."""

    def __init__(self, message: str, reason: str = "illegal", **details: Any) -> None:
        super().__init__(message)
        self.reason = reason
        self.details = details


def check_mode(players: Any, team_size: Any, dealer: Any) -> tuple[int, int]:
    """The (players, team_size) of a valid mode (team_size None: the mode's default);
    ValueError for any other combination or a dealer that is not a seat."""
    if not isinstance(players, int) or isinstance(players, bool):
        raise ValueError(f"players must be 2, 3 or 4, not {players!r}")
    if team_size is None:
        team_size = _DEFAULT_TEAM_SIZE.get(players)
    if isinstance(team_size, bool) or (players, team_size) not in K.ROUNDS:
        raise ValueError(
            f"Cassino is played by 2 or 3 players alone or 4 in pairs, not {players} players "
            f"in teams of {team_size}"
        )
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
        raise ValueError(f"The dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
    return players, team_size


@dataclass(frozen=True, slots=True)
class DealResult:
    """The score of a finished deal, lists per team.

    ``points``: the deal's points (cards, spades, Big and Little Cassino, aces, sweeps).
    ``game_points``: what the deal adds to each team's match score — the rules make it equal
    to ``points`` (a match is played to 21 of these points). ``winner``: the team with strictly
    the most points, None on a tie for the top. ``items``: each team's breakdown (the keys of
    :data:`SCORE_ITEMS`, plus ``n_cards`` and ``n_spades`` counted); ``leftover``: the cards
    the last capturer's team took at the end; ``last_capturer``: that seat (None: nobody).
    """

    points: list[int]
    winner: int | None
    game_points: list[int]
    items: list[dict[str, int]] = field(default_factory=list)
    leftover: list[str] = field(default_factory=list)
    last_capturer: int | None = None

    def to_json(self) -> dict[str, Any]:
        """``points``, ``winner``, ``game_points``, ``items`` (per team), one list per team
        for each scoring item (``cards``, ``spades``, ``big_cassino``...), ``leftover``."""
        out: dict[str, Any] = {
            "points": list(self.points),
            "winner": self.winner,
            "game_points": list(self.game_points),
            "items": [dict(it) for it in self.items],
            "leftover": list(self.leftover),
            "last_capturer": self.last_capturer,
        }
        for key in (*SCORE_ITEMS, "n_cards", "n_spades"):
            out[key] = [it[key] for it in self.items]
        return out


_CODE = re.compile(
    r"(?:trail:(?P<t>[A2-9TJQK][CDHS])"
    r"|capture:(?P<c>[A2-9TJQK][CDHS]):(?P<ci>(?:[A2-9TJQK][CDHS])+)"
    r"|build:(?P<b>[A2-9TJQK][CDHS]):(?P<v>[1-9][0-9]?):(?P<bi>(?:[A2-9TJQK][CDHS])+))\Z"
)


def parse_code(code: object) -> tuple[int, int, int, list[int]]:
    """Read a code's shape as ``(kind, card, value, item names as written)``; IllegalMove
    ``bad_code`` for anything that is not spelled like an action."""
    m = _CODE.match(code) if isinstance(code, str) and len(code) <= 120 else None
    if m is None:
        shown = code[:24] if isinstance(code, str) else repr(code)[:24]
        raise IllegalMove(
            f"{shown!r} is not an action: use trail:XX, capture:XX:items or "
            "build:XX:V:items (cards as rank then suit, e.g. 7H, TD).",
            "bad_code",
            code=shown,
        )
    if m["t"]:
        return K.TRAIL, K.CODE_INT[m["t"]], 0, []
    if m["c"]:
        items = m["ci"]
        return K.CAPTURE, K.CODE_INT[m["c"]], 0, [
            K.CODE_INT[items[i:i + 2]] for i in range(0, len(items), 2)
        ]
    items = m["bi"]
    return K.BUILD, K.CODE_INT[m["b"]], int(m["v"]), [
        K.CODE_INT[items[i:i + 2]] for i in range(0, len(items), 2)
    ]


def code_of(action: K.Action) -> str:
    """The canonical code of a kernel action."""
    kind, card, value, names = action
    if kind == K.TRAIL:
        return "trail:" + K.CODES[card]
    items = "".join(K.CODES[n] for n in names)
    if kind == K.CAPTURE:
        return f"capture:{K.CODES[card]}:{items}"
    return f"build:{K.CODES[card]}:{value}:{items}"


def item_json(item: K.Item) -> dict[str, Any]:
    """A table item for a view: ``{"id", "cards", "kind", "value", "controller"}``."""
    name, cards, kind, value, ctrl = item
    return {
        "id": K.CODES[name],
        "cards": [K.CODES[c] for c in cards],
        "kind": K.KIND_NAMES[kind],
        "value": value or None,
        "controller": ctrl if ctrl >= 0 else None,
    }


def item_label(item: K.Item) -> str:
    """``7♣``, ``the build of 9 (3♠+6♦)``."""
    name, cards, kind, value, _ = item
    if kind == K.LOOSE:
        return short(K.CODES[name])
    return f"the build of {value} ({'+'.join(short(K.CODES[c]) for c in cards)})"


def move_json(action: K.Action, table: Sequence[K.Item]) -> dict[str, Any]:
    """One legal move for a view: ``code``, ``kind``, ``card`` (played from the hand),
    ``value`` (a build's value, else None), ``build`` (``"simple"``/``"compound"``, else
    None), ``items`` (the table items taken or built on, as in ``table``), ``cards_taken``,
    ``sweep`` (a capture that empties the table) and an English ``label``."""
    kind, card, value, names = action
    wanted = set(names)
    used = [it for it in table if it[0] in wanted]
    total = K.VALUE[card] + sum(it[3] for it in used)
    taken = 1 + sum(len(it[1]) for it in used) if kind == K.CAPTURE else 0
    what = " and ".join(item_label(it) for it in used)
    if kind == K.TRAIL:
        label = f"Trail {short(K.CODES[card])}"
    elif kind == K.CAPTURE:
        label = f"Take {what} with {short(K.CODES[card])}"
    else:
        label = f"Build {value} on {what} with {short(K.CODES[card])}"
    return {
        "code": code_of(action),
        "kind": K.ACTION_NAMES[kind],
        "card": K.CODES[card],
        "value": value if kind == K.BUILD else None,
        "build": (("simple" if total == value else "compound") if kind == K.BUILD else None),
        "items": [item_json(it) for it in used],
        "cards_taken": taken,
        "sweep": kind == K.CAPTURE and len(used) == len(table),
        "label": label,
    }


class Deal:
    """One deal at a table of ``players`` seats numbered in the order of play.

    Build one with :func:`new_deal`. ``state`` is the kernel state (every card; never shown);
    ``deck`` the pack as dealt (index 0 = top); ``actions`` the codes applied, in order, and
    ``seats`` who applied each.
    """

    def __init__(self, players: int, team_size: int | None, dealer: int,
                 deck: Sequence[Card]) -> None:
        players, team_size = check_mode(players, team_size, dealer)
        if len(deck) != 52 or len({c.index for c in deck}) != 52:
            raise ValueError("The deck must hold each of the 52 cards exactly once")
        self.players = players
        self.team_size = team_size
        self.n_teams = players // team_size
        self.dealer = dealer
        self.deck: tuple[Card, ...] = tuple(deck)
        self.state = K.State(players, team_size, dealer, [c.index for c in deck])
        self.actions: list[str] = []
        self.seats: list[int] = []
        #: The latest capture: (seat, card played, cards taken, sweep), None before any.
        self.last_capture: tuple[int, str, list[str], bool] | None = None
        self._legal: list[K.Action] | None = None  # cache, dropped on every change

    # ----------------------------------------------------------------- queries
    @property
    def phase(self) -> str:
        """``"playing"`` then ``"finished"``."""
        return "finished" if self.state.finished else "playing"

    @property
    def to_act(self) -> int | None:
        """The seat to play, None once finished."""
        return None if self.state.finished else self.state.to_act

    @property
    def rounds(self) -> int:
        """Rounds in a deal: 6, 4 or 3."""
        return self.state.rounds

    def team_of(self, seat: int) -> int:
        """The team of a seat: ``seat % number of teams`` (2 or 3 players: the seat)."""
        return seat % self.n_teams

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds, in canonical order."""
        return [CARDS[c] for c in self.state.hands[seat]]

    def _actions(self) -> list[K.Action]:
        if self._legal is None:
            self._legal = sorted(self.state.legal(), key=code_of)
        return self._legal

    def legal_actions(self) -> list[str]:
        """Every legal code of the seat to act, sorted as strings ([] once finished)."""
        return [code_of(a) for a in self._actions()]

    # ----------------------------------------------------------------- changes
    def apply(self, code: str) -> None:
        """Carry out ``code`` for the seat to act, or raise :class:`IllegalMove` (a
        ``ValueError`` with a sentence for that player) and change nothing."""
        if self.state.finished:
            raise IllegalMove("The deal is over.", "finished")
        kind, card, value, names = parse_code(code)
        action = (kind, card, value, tuple(names))
        legal = self._actions()
        if action not in legal:
            raise self._refusal(kind, card, value, names)
        st = self.state
        seat = st.to_act
        if kind == K.CAPTURE:
            wanted = set(names)
            taken = [K.CODES[c] for it in st.table if it[0] in wanted for c in it[1]]
            sweep = len(wanted) == len(st.table)
            self.last_capture = (seat, K.CODES[card], taken, sweep)
        st.apply(action)
        self._legal = None
        self.actions.append(code)
        self.seats.append(seat)

    def _refusal(self, kind: int, card: int, value: int, names: list[int]) -> IllegalMove:
        """Why a well-spelled action is refused, as a sentence for the seat to act."""
        st = self.state
        seat = st.to_act
        hand = st.hands[seat]
        code = K.CODES[card]
        if card not in hand:
            return IllegalMove(f"You don't hold {code}.", "not_in_hand", card=code)
        # the same position for a seat that controls nothing: what the control rule forbids
        free = K.legal_actions(st.table, hand, -2)
        action = (kind, card, value, tuple(names))
        if kind == K.TRAIL:
            if action in free:
                return IllegalMove("You control a build, so you may not trail.",
                                   "controls_build")
            return IllegalMove(f"{code} can capture, so you may not trail it.", "can_capture",
                               card=code)
        if names != sorted(set(names)):
            return IllegalMove(
                "Name each table item once, in card order (e.g. 2C5H, not 5H2C).",
                "item_order",
            )
        items = {it[0]: it for it in st.table}
        for n in names:
            if n not in items:
                return IllegalMove(f"There is no table item named {K.CODES[n]}.", "no_item",
                                   item=K.CODES[n])
        if action in free:
            left = list(hand)
            left.remove(card)
            kept = {K.VALUE[c] for c in left}
            lacking = sorted({it[3] for it in st.table
                              if it[4] == seat and it[0] not in names and it[3] not in kept})
            v = lacking[0] if lacking else 0
            return IllegalMove(
                f"You control a build of {v}: you must keep a card of value {v} in hand.",
                "keep_control", value=v,
            )
        used = [items[n] for n in names]
        if K.VALUE[card] == 0:
            plural = RANK_PLURALS[code[0]]
            if kind == K.BUILD:
                return IllegalMove("Face cards cannot build.", "face_build", card=code)
            return IllegalMove(f"{plural} capture only loose {plural}.", "face_capture",
                               card=code)
        faces = [it for it in used if it[3] == 0]
        if faces:
            face = K.CODES[faces[0][0]]
            return IllegalMove(
                f"{face} is a face card: only a card of its rank can take it, and nothing "
                "can be built on it.", "face_item", item=face,
            )
        if kind == K.CAPTURE:
            v = K.VALUE[card]
            for it in used:
                if it[2] == K.COMPOUND and it[3] != v:
                    return IllegalMove(
                        f"The build {K.CODES[it[0]]} is a compound build of {it[3]}: only a "
                        f"card of value {it[3]} can take it.", "compound_value",
                        item=K.CODES[it[0]], value=it[3],
                    )
            return IllegalMove(
                f"{code} cannot take those items: they do not divide into groups of {v}.",
                "bad_sum", card=code, value=v,
            )
        if not 1 <= value <= 10:
            return IllegalMove("A build is worth 1 to 10.", "build_value", value=value)
        left_values = [K.VALUE[c] for c in hand if c != card]
        if value not in left_values:
            return IllegalMove(
                f"To build {value} you must keep a card of value {value} in hand.",
                "must_hold_value", value=value,
            )
        return IllegalMove(
            f"{code} and those items do not make a build of {value}: a simple build adds up "
            f"to {value}, a compound one divides into groups of {value}.",
            "bad_build", card=code, value=value,
        )

    # ----------------------------------------------------------------- results and views
    def result(self) -> DealResult:
        """The score of the finished deal; IllegalMove while it is being played."""
        st = self.state
        if not st.finished:
            raise IllegalMove("The deal is not finished.", "not_finished")
        points, items = st.score()
        top = max(points)
        winner = points.index(top) if points.count(top) == 1 else None
        return DealResult(
            points=points, winner=winner, game_points=list(points), items=items,
            leftover=[K.CODES[c] for c in st.leftover],
            last_capturer=st.last_capturer if st.last_capturer >= 0 else None,
        )

    def last_trick_json(self) -> dict[str, Any] | None:
        """The public view's ``last_trick`` alone (the same dict: the latest capture), without
        the rest of the view: the table service reads it after every move to tell whether a
        capture was made."""
        if self.last_capture is None:
            return None
        s, played, taken, sweep = self.last_capture
        return {"winner": s, "points": len(taken) + 1, "plays": [[s, played]],
                "cards": taken, "sweep": sweep}

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (None: the public view): the keys of the rules' view, plus
        ``teams``, ``n_teams``, ``last``, ``history`` (every play as ``[seat, code]``: all
        public), ``first_table`` (the four cards dealt face up), ``last_trick`` (the latest
        capture, for the platform's announcements) and ``moves``. ``hand`` lists the cards as
        a player holds them, by suit and highest first (every game's views do;
        :func:`albastini.games.hands.sorted_hand`), not in the canonical order of a table's
        items and of codes."""
        st = self.state
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.players):
            raise ValueError(f"No seat {seat!r} at this table")
        mine = seat is not None and seat == self.to_act
        actions = self._actions() if mine else []
        # as a player holds it (no trump in Cassino): by suit, highest first
        hand = (sorted_hand((K.CODES[c] for c in st.hands[seat]), RANKS)
                if seat is not None else [])
        last = None
        if self.actions:
            last = {"seat": self.seats[-1], "action": self.actions[-1]}
        capture = self.last_trick_json()
        finished = st.finished
        return {
            "game": "cassino",
            "seat": seat,
            "team": self.team_of(seat) if seat is not None else None,
            "players": self.players,
            "team_size": self.team_size,
            "n_teams": self.n_teams,
            "teams": [self.team_of(s) for s in range(self.players)],
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": self.to_act,
            "round": st.round,
            "rounds": st.rounds,
            "pack": 52 - st.pos,
            "hand": hand,
            "hand_sizes": [len(h) for h in st.hands],
            "table": [item_json(it) for it in st.table],
            "captured": [len(p) for p in st.piles],
            "sweeps": list(st.sweeps),
            "last_capturer": st.last_capturer if st.last_capturer >= 0 else None,
            "first_table": [K.CODES[c] for c in st.first_table],
            "history": [[s, c] for s, c in zip(self.seats, self.actions, strict=True)],
            "last": last,
            "last_trick": capture,
            "legal": [code_of(a) for a in actions],
            "moves": [move_json(a, st.table) for a in actions],
            "leftover": [K.CODES[c] for c in st.leftover] if finished else None,
            "result": self.result().to_json() if finished else None,
        }

    # ----------------------------------------------------------------- replay
    def to_record(self) -> dict[str, Any]:
        """Everything needed to rebuild this state: mode, dealer, deck, actions."""
        return {
            "players": self.players,
            "team_size": self.team_size,
            "dealer": self.dealer,
            "deck": [c.code for c in self.deck],
            "actions": list(self.actions),
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Deal:
        """Rebuild a deal from :meth:`to_record` output by replaying its actions."""
        deal = new_deal(int(record["players"]), int(record["team_size"]),
                        int(record["dealer"]), deck=record["deck"])
        for code in record["actions"]:
            deal.apply(code)
        return deal

    def copy(self) -> Deal:
        """An independent copy."""
        other = object.__new__(Deal)
        other.__dict__.update(self.__dict__)
        other.state = self.state.copy()
        other.actions = list(self.actions)
        other.seats = list(self.seats)
        return other


def new_deal(
    players: int,
    team_size: int | None = None,
    dealer: int = 0,
    *,
    deck: Iterable[Card | str] | None = None,
    seed: int | None = None,
    **options: Any,
) -> Deal:
    """Deal a new hand of Cassino.

    ``deck``: the 52 cards (Card objects or codes), each once, index 0 = top; without it the
    pack is shuffled from ``seed`` (same seed, same deal). ``deck`` wins when both are given.
    ValueError for an invalid mode, dealer or deck; TypeError for any option (there are none).
    """
    if options:
        raise TypeError(f"Cassino has no options: {', '.join(sorted(options))}")
    players, team_size = check_mode(players, team_size, dealer)
    if deck is not None:
        if isinstance(deck, str):
            raise ValueError("The deck is a sequence of card codes, not one string")
        cards = [Card.parse(c) for c in deck]
    else:
        cards = shuffled_pack(seed)
    return Deal(players, team_size, dealer, cards)
