"""What the computer players share: a seat's knowledge read from its view alone, the worth
of cards, the chance that the other sides hold a value, sweep exposure, and a fast greedy
choice on a :class:`..kernel.State` (the search player's rollouts).

Nothing here reads a hidden card: :func:`read_view` uses the view's keys only (the seat's
hand, the table, the public history of plays and the four cards first laid face up), and
counts as *unseen* every card that the seat has not seen.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
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
#: The least a captured card is worth (its share of "most cards").
PLAIN = 0.15


def worth_now(piles: Sequence[Sequence[int]], captured: Sequence[int]) -> tuple[float, ...]:
    """What capturing each card is worth from now on, given the cards each team has captured
    (``piles``, replayed from the history; [] when unknown) and their numbers (``captured``):
    as :data:`WORTH`, but a spade counts 0.2 towards most spades (its point is shared by 13
    cards, "most cards"' 3 by 52), and a majority that a team has already won (more than half
    the cards, more than half the spades) counts nothing."""
    spades = [sum(1 for c in p if c < 52 and c % 4 == K.SPADE) for p in piles] or [0]
    card_share = 0.0 if max(captured, default=0) > 26 else PLAIN
    spade_share = 0.0 if max(spades) > 6 else 0.2
    return tuple(
        card_share
        + (spade_share if c % 4 == K.SPADE else 0.0)
        + (2.0 if c == K.TEN_D else 0.0)
        + (1.0 if c == K.TWO_S else 0.0)
        + (1.0 if K.RANK[c] == 0 else 0.0)
        for c in range(52)
    )


#: :data:`WORTH` and 0 for the placeholder of a captured card not known (52).
_WORTH_OR_NOTHING: tuple[float, ...] = (*WORTH, 0.0)


def worth(cards: Sequence[int]) -> float:
    """The sum of :data:`WORTH` of real cards (placeholders >= 52 count nothing)."""
    # (adding 0.0 leaves a positive sum as it is: the same float as skipping them)
    return sum(map(_WORTH_OR_NOTHING.__getitem__, cards))


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
    #: The cards each team has captured, replayed from the public history (each capture was
    #: seen by all); empty lists when the view carries no history.
    piles: list[list[int]] = field(default_factory=list)

    def team_of(self, seat: int) -> int:
        """``seat % n_teams``."""
        return seat % self.n_teams

    def others_cards(self) -> int:
        """Cards in the hands of the other teams' players."""
        return sum(n for s, n in enumerate(self.hand_sizes)
                   if self.team_of(s) != self.team_of(self.seat))


def captured_cards(view: Mapping[str, Any], n_teams: int) -> list[list[int]] | None:
    """Every card each team has captured so far, replayed from the view's public history
    (the first table and every play are seen by all); None when the replay does not agree
    with the piles' sizes in the view (no history)."""
    table: dict[int, list[int]] = {K.CODE_INT[c]: [K.CODE_INT[c]]
                                   for c in view.get("first_table") or ()}
    piles: list[list[int]] = [[] for _ in range(n_teams)]
    for seat, code in view.get("history") or view.get("log") or ():
        kind, card, _, names = parse_code(code)
        if kind == K.TRAIL:
            table[card] = [card]
            continue
        cards = [card]
        for name in names:
            cards += table.pop(name, [])
        if kind == K.CAPTURE:
            piles[int(seat) % n_teams] += cards
        else:
            table[min(cards)] = cards
    if [len(p) for p in piles] != [int(x) for x in view["captured"]]:
        return None
    return piles


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
    n_teams = players // int(view["team_size"])
    last = view.get("last_capturer")
    return Knowledge(
        seat=seat,
        players=players,
        n_teams=n_teams,
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
        piles=captured_cards(view, n_teams) or [],
    )


def card_key(card: int) -> int:
    """What a card captures with: its value (1-10), or ``-rank - 1`` for a face card (a face
    takes only cards of its own rank)."""
    return K.VALUE[card] or -K.RANK[card] - 1


def takes_by_key(table: Sequence[K.Item]) -> dict[int, float]:
    """For each :func:`card_key`, the most :func:`worth` (and :data:`SWEEP`) one capture with
    such a card takes from ``table`` (the capturing card not counted); keys with no capture
    are left out."""
    out: dict[int, float] = {}
    if not table:
        return out
    summ = K.summables(table)
    full = (1 << len(table)) - 1
    for v in range(1, 11):
        best = 0.0
        for m in K.capture_sets(table, summ, v):
            w = sum(worth(it[1]) for i, it in enumerate(table) if m >> i & 1)
            best = max(best, w + (SWEEP if m == full else 0.0))
        if best:
            out[v] = best
    for r in range(10, 13):
        same = [it for it in table if it[2] == K.LOOSE and K.RANK[it[0]] == r]
        if same:
            out[-r - 1] = (sum(worth(it[1]) for it in same)
                           + (SWEEP if len(same) == len(table) else 0.0))
    return out


#: How much more a passed-up capture must have been worth than the play made instead for
#: :func:`passed_up` to conclude that the player lacks the card (a sweep, the 10♦, an Ace or
#: the 2♠ with a card or so: every level and the expert take those when they can).
PASSED_UP = 0.9


@dataclass(frozen=True)
class Replayed:
    """One play of this round replayed from the public history: who made it, what, the table
    before it and after it, and the cards it captured (the played card included)."""

    seat: int
    action: K.Action
    table: list[K.Item]
    rest: list[K.Item]
    taken: list[int]


def this_round(view: Mapping[str, Any], k: Knowledge) -> list[Replayed]:
    """The plays of this round, replayed from the first table and every play since (the
    public history); [] when there is none or the replay does not end on the view's table."""
    history = view.get("history") or view.get("log") or ()
    plays = sum(4 - n for n in k.hand_sizes)  # every seat gets 4 cards a round
    if not history or plays <= 0:
        return []
    table: list[K.Item] = sorted(
        (c, (c,), K.LOOSE, K.VALUE[c], -1)
        for c in (K.CODE_INT[x] for x in view.get("first_table") or ()))
    start = len(history) - plays
    out: list[Replayed] = []
    for j, (who, code) in enumerate(history):
        seat = int(who)
        action = action_of(str(code))
        rest, taken = after(table, action, seat)
        if j >= start:
            out.append(Replayed(seat, action, table, rest, taken))
        table = rest
    if sorted(it[0] for it in table) != sorted(it[0] for it in k.table):
        return []
    return out


def passed_up(view: Mapping[str, Any], k: Knowledge, trails: bool = False
              ) -> dict[int, set[int]]:
    """Per seat of another team, the :func:`card_key` values it most likely does not hold:
    earlier in this round (its hand now is part of its hand then) it made a play worth at
    least :data:`PASSED_UP` less than a capture such a card offered, or, with ``trails``,
    it trailed where such a card would have captured anything (every player takes a card
    when it can: each counts towards the most cards). Read from the public history alone
    (:func:`this_round`); {} when there is none or the replay does not match the table. A
    seat that controlled a build then is skipped (the rules may have kept it from
    capturing)."""
    out: dict[int, set[int]] = {}
    for play in this_round(view, k):
        seat, table, rest = play.seat, play.table, play.rest
        if k.team_of(seat) == k.team_of(k.seat) or any(it[4] == seat for it in table):
            continue
        kind, card = play.action[0], play.action[1]
        made = worth(play.taken) + (SWEEP if kind == K.CAPTURE and not rest else 0.0)
        if kind == K.BUILD:  # worth what it will take
            made = worth(next(it[1] for it in rest if it[4] == seat and card in it[1]))
        for key, take in takes_by_key(table).items():
            # the capturing card itself would have counted too (at least a plain card)
            if take + PLAIN - made >= PASSED_UP or (trails and kind == K.TRAIL):
                out.setdefault(seat, set()).add(key)
    return out


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
    # only a value that divides the table's total and is at least its largest item can take
    # it all (no loose face card, no compound build of another value): checked first, as the
    # enumeration is what the normal player and the normal rollouts spend their time on
    values_on = [it[3] for it in table]
    if not min(values_on):
        # a loose face card (or a table of them): no value takes it all; a face rank takes
        # a table of loose face cards of its rank alone
        ranks = {K.RANK[it[0]] for it in table}
        if len(ranks) == 1 and all(it[2] == K.LOOSE and K.VALUE[it[0]] == 0 for it in table):
            return set(), ranks
        return set(), set()
    total = sum(values_on)
    fixed = {it[3] for it in table if it[2] == K.COMPOUND}
    candidates = [v for v in range(max(values_on), 11) if total % v == 0 and fixed <= {v}]
    summ = K.summables(table) if candidates else []
    return {v for v in candidates if full in K.capture_sets(table, summ, v)}, set()


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


def greedy_move(st: K.State) -> K.Action:
    """:func:`greedy_action` for the seat to act on ``st`` without listing every legal action:
    the captures (most valuable first) and, when there is none, the trails (builds are never
    the greedy choice unless nothing else is legal: then the full list decides). The same
    choice as ``greedy_action(st.table, st.legal())``, several times faster."""
    seat = st.to_act
    hand = st.hands[seat]
    table = st.table
    controls = any(it[4] == seat for it in table)
    full = (1 << len(table)) - 1
    best: K.Action | None = None
    best_key: tuple[float, int, tuple[int, ...]] = (-1e9, 0, ())
    by_value = K.capture_map(table)
    # the cards of each set of items (the same sets recur for the cards of a value)
    items: dict[int, list[int]] = {}
    for card in hand:
        v = K.VALUE[card]
        masks: Collection[int]
        if v == 0:
            masks = K.unions([1 << i for i, it in enumerate(table)
                              if it[2] == K.LOOSE and K.RANK[it[0]] == K.RANK[card]])
        else:
            masks = K.capture_sets(table, None, v, by_value)
        if not masks:
            continue
        left = [K.VALUE[c] for c in hand if c != card] if controls else []
        for m in masks:
            if controls and not K.keeps_control(table, seat, left, m):
                continue
            cards = items.get(m)
            if cards is None:
                cards = items[m] = [x for i, it in enumerate(table) if m >> i & 1
                                    for x in it[1]]
            gain = 10.0 + worth([card, *cards]) + (SWEEP if m == full else 0.0)
            # the names only break a tie (the key compares as (gain, -card, names))
            if gain < best_key[0] or (gain == best_key[0] and -card < best_key[1]):
                continue
            names = K.names_of(table, m)
            key = (gain, -card, names)
            if key > best_key:
                best, best_key = (K.CAPTURE, card, 0, names), key
    if best is not None:
        return best
    if controls:  # no capture keeps control: a build must be added to
        return greedy_action(table, st.legal())
    card = max(hand, key=lambda c: (-WORTH[c] - 0.01 * (12 - K.RANK[c]), -c))
    return (K.TRAIL, card, 0, ())


def can_sweep(table: Sequence[K.Item], hand: Sequence[int]) -> bool:
    """Whether a card of ``hand`` takes the whole ``table`` (a sweep)."""
    if not table or not hand:
        return False
    faces = {K.RANK[it[0]] for it in table if it[2] == K.LOOSE and K.VALUE[it[0]] == 0}
    if faces:  # only a face card of the one rank, with nothing else on the table
        return (len(faces) == 1 and all(it[2] == K.LOOSE and K.VALUE[it[0]] == 0
                                        for it in table)
                and any(K.RANK[c] in faces for c in hand))
    total = sum(it[3] for it in table)
    full = (1 << len(table)) - 1
    caps = K.capture_map(table)
    for v in {K.VALUE[c] for c in hand if K.VALUE[c]}:
        if total % v or any(it[3] > v for it in table):
            continue
        if full in K.capture_sets(table, None, v, caps):
            return True
    return False


def rollout_move(st: K.State) -> K.Action:
    """The rollouts' move: :func:`greedy_move`, except that a trail leaves the next player
    no sweep when another trail can (it knows that hand: the rollouts play a sampled deal
    with every card in place)."""
    move = greedy_move(st)
    if move[0] != K.TRAIL:
        return move
    seat = st.to_act
    nxt = st.hands[(seat + 1) % st.n]
    table = st.table
    options = sorted(set(st.hands[seat]),
                     key=lambda c: (WORTH[c] + 0.01 * (12 - K.RANK[c]), c))
    for card in options:
        after_trail = sorted([*table, (card, (card,), K.LOOSE, K.VALUE[card], -1)])
        if not can_sweep(after_trail, nxt):
            return (K.TRAIL, card, 0, ())
    return move
