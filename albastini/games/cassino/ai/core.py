"""What the computer players share: a seat's knowledge read from its view alone, the worth
of cards, the chance that the other sides hold a value, sweep exposure, and a fast greedy
choice on a :class:`..kernel.State` (the search player's rollouts).

Nothing here reads a hidden card: :func:`read_view` uses the view's keys only (the seat's
hand, the table, the public history of plays and the four cards first laid face up), and
counts as *unseen* every card that the seat has not seen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import kernel as K
from ..deal import parse_code

#: A card's worth to whoever captures it: a card towards "most cards", a spade towards
#: "most spades", and the cards that score on their own.
WORTH: tuple[float, ...] = tuple(
    0.15
    + (0.1 if c % 4 == K.SPADE else 0.0)
    + (2.0 if c == K.TEN_D else 0.0)
    + (1.0 if c == K.TWO_S else 0.0)
    + (1.0 if K.RANK[c] == 0 else 0.0)
    for c in range(52)
)
#: What a sweep is worth (its point, and the table won).
SWEEP = 1.0


def worth(cards: Sequence[int]) -> float:
    """The sum of :data:`WORTH` of real cards (placeholders >= 52 count nothing)."""
    return sum(WORTH[c] for c in cards if c < 52)


@dataclass
class Knowledge:
    """What a seat knows, from its view: its hand, the table (kernel items), the cards it has
    not seen, the hand sizes and the public counts."""

    seat: int
    players: int
    n_teams: int
    dealer: int
    hand: list[int]
    table: list[K.Item]
    unseen: list[int]
    hand_sizes: list[int]
    captured: list[int]
    sweeps: list[int]
    last_capturer: int
    round: int
    rounds: int
    pack: int
    legal: list[str] = field(default_factory=list)

    def team_of(self, seat: int) -> int:
        """``seat % n_teams``."""
        return seat % self.n_teams

    def others_cards(self) -> int:
        """Cards in the hands of the other teams' players."""
        return sum(n for s, n in enumerate(self.hand_sizes)
                   if self.team_of(s) != self.team_of(self.seat))


def read_view(view: Mapping[str, Any]) -> Knowledge:
    """A seat's :class:`Knowledge` from ``Deal.view(seat)`` or ``table_view(deal, seat)``."""
    seat = int(view["seat"])
    hand = [K.CODE_INT[c] for c in view["hand"]]
    table: list[K.Item] = []
    for it in view["table"]:
        cards = tuple(K.CODE_INT[c] for c in it["cards"])
        kind = K.KIND_NAMES.index(it["kind"])
        ctrl = it["controller"]
        table.append((K.CODE_INT[it["id"]], cards, kind, it["value"] or 0,
                      -1 if ctrl is None else int(ctrl)))
    seen = set(hand) | {c for it in table for c in it[1]}
    seen |= {K.CODE_INT[c] for c in view.get("first_table") or ()}
    for _, code in view.get("history") or view.get("log") or ():
        seen.add(K.CODE_INT[str(code).split(":")[1]])
    players = int(view["players"])
    last = view.get("last_capturer")
    return Knowledge(
        seat=seat,
        players=players,
        n_teams=players // int(view["team_size"]),
        dealer=int(view["dealer"]),
        hand=hand,
        table=sorted(table),
        unseen=[c for c in range(52) if c not in seen],
        hand_sizes=list(view["hand_sizes"]),
        captured=list(view["captured"]),
        sweeps=list(view["sweeps"]),
        last_capturer=-1 if last is None else int(last),
        round=int(view["round"]),
        rounds=int(view["rounds"]),
        pack=int(view["pack"]),
        legal=[str(c) for c in view.get("legal") or ()],
    )


def action_of(code: str) -> K.Action:
    """The kernel action of a legal code."""
    kind, card, value, names = parse_code(code)
    return (kind, card, value, tuple(names))


def after(table: Sequence[K.Item], action: K.Action, seat: int) -> tuple[list[K.Item], list[int]]:
    """The table after ``action`` by ``seat``, and the cards it captured (played card
    included; [] unless a capture)."""
    kind, card, value, names = action
    if kind == K.TRAIL:
        return sorted([*table, (card, (card,), K.LOOSE, K.VALUE[card], -1)]), []
    used = set(names)
    rest = [it for it in table if it[0] not in used]
    cards = [card] + [x for it in table if it[0] in used for x in it[1]]
    if kind == K.CAPTURE:
        return rest, cards
    total = sum(K.VALUE[x] for x in cards)
    build = (min(cards), tuple(sorted(cards)),
             K.SIMPLE if total == value else K.COMPOUND, value, seat)
    return sorted([*rest, build]), []


def chance_held(unseen: int, copies: int, cards: int) -> float:
    """The chance that ``cards`` cards drawn from ``unseen`` include one of ``copies``."""
    if copies <= 0 or cards <= 0 or unseen <= 0:
        return 0.0
    miss = 1.0
    for i in range(min(cards, unseen)):
        if unseen - copies - i <= 0:
            return 1.0
        miss *= (unseen - copies - i) / (unseen - i)
    return 1.0 - miss


def sweep_values(table: Sequence[K.Item]) -> tuple[set[int], set[int]]:
    """The values of a number card and the face ranks that would take the whole table."""
    if not table:
        return set(), set()
    full = (1 << len(table)) - 1
    summ = K.summables(table)
    values = {v for v in range(1, 11) if full in K.capture_sets(table, summ, v)}
    ranks = {K.RANK[it[0]] for it in table}
    faces = set()
    if len(ranks) == 1 and all(it[2] == K.LOOSE and K.VALUE[it[0]] == 0 for it in table):
        faces = ranks
    return values, faces


def greedy_key(table: Sequence[K.Item], action: K.Action) -> float:
    """How much a greedy player likes ``action``: the worth of a capture (and a sweep), a
    trail of a card as little worth as possible, builds last."""
    kind, card, _, names = action
    if kind == K.CAPTURE:
        used = set(names)
        cards = [card] + [x for it in table if it[0] in used for x in it[1]]
        return 10.0 + worth(cards) + (SWEEP if len(used) == len(table) else 0.0)
    if kind == K.TRAIL:
        # keep the point cards and the cards that may capture later; trail high ranks first
        return -WORTH[card] - 0.01 * (12 - K.RANK[card])
    return -100.0


def greedy_action(table: Sequence[K.Item], actions: Sequence[K.Action]) -> K.Action:
    """The greedy choice among ``actions`` (deterministic: ties by the canonical order)."""
    return max(actions, key=lambda a: (greedy_key(table, a), -a[1], a[3]))
