"""Every rule of Cassino once, on ints: the deal in twos, legal actions, their effects, scoring.

``shared/rules/cassino.md`` is the authority. Cards are ints ``rank * 4 + suit`` (ranks
``A 2 ... T J Q K``, suits ``C D H S``), so the int order *is* the rules' canonical card order
and an item's name (its lowest card) is ``min`` of its cards.

A table item is a tuple ``(name, cards, kind, value, controller)``: ``kind`` is
:data:`LOOSE`, :data:`SIMPLE` or :data:`COMPOUND`; ``value`` is 0 for a loose face card;
``controller`` is -1 for a loose card. The table is kept sorted by name, so the bit ``i`` of
an item mask is the ``i``-th item in canonical order and a mask's names come out sorted.

An action is a tuple ``(kind, card, value, names)``: ``kind`` :data:`TRAIL`,
:data:`CAPTURE` or :data:`BUILD`; ``value`` the build value (0 otherwise); ``names`` the
sorted item names used. One tuple per distinct action, exactly as the canonical codes.
"""

from __future__ import annotations

from collections.abc import Sequence

RANKS = "A23456789TJQK"
SUITS = "CDHS"
#: The 52 codes in canonical order: ``CODES[card]``.
CODES: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
CODE_INT: dict[str, int] = {c: i for i, c in enumerate(CODES)}
#: Value of a card: Ace 1 ... Ten 10, face cards 0 (they have none).
VALUE: tuple[int, ...] = tuple(min(i // 4 + 1, 11) % 11 for i in range(52))
RANK: tuple[int, ...] = tuple(i // 4 for i in range(52))
SPADE = 3
TEN_D = CODE_INT["TD"]
TWO_S = CODE_INT["2S"]

LOOSE, SIMPLE, COMPOUND = 0, 1, 2
KIND_NAMES = ("card", "simple", "compound")
TRAIL, CAPTURE, BUILD = 0, 1, 2
ACTION_NAMES = ("trail", "capture", "build")

#: (players, team_size) -> rounds per deal.
ROUNDS: dict[tuple[int, int], int] = {(2, 1): 6, (3, 1): 4, (4, 2): 3}

Item = tuple[int, tuple[int, ...], int, int, int]
Action = tuple[int, int, int, tuple[int, ...]]

__all__ = [
    "ACTION_NAMES", "BUILD", "CAPTURE", "CODES", "CODE_INT", "COMPOUND", "KIND_NAMES", "LOOSE",
    "RANK", "ROUNDS", "SIMPLE", "TRAIL", "VALUE", "Action", "Item", "State", "capture_sets",
    "deal_round", "groups", "legal_actions", "score",
]


def deal_round(players: int, dealer: int, rnd: int) -> list[tuple[int, int]]:
    """Who gets each card of round ``rnd`` (1-based): ``(deck index, seat)`` pairs, seat -1
    for the table. Two at a time from the dealer's left; round 1 lays two table cards just
    before the dealer's two, in each of its two passes."""
    n = players
    out: list[tuple[int, int]] = []
    order = [(dealer + 1 + k) % n for k in range(n)]  # seat(0) .. seat(n-1) == dealer
    if rnd == 1:
        for p in range(2):
            start = p * (2 * n + 2)
            for k, seat in enumerate([*order[:-1], -1, dealer]):
                out += [(start + 2 * k, seat), (start + 2 * k + 1, seat)]
        return out
    base = 4 * (n + 1) + (rnd - 2) * 4 * n
    for p in range(2):
        for k, seat in enumerate(order):
            i = base + 2 * n * p + 2 * k
            out += [(i, seat), (i + 1, seat)]
    return out


def subset_sums(values: Sequence[tuple[int, int]], target: int) -> list[int]:
    """Masks of the non-empty subsets of ``values`` (``(value, bit)`` pairs, values > 0)
    adding up to exactly ``target``."""
    out: list[int] = []

    def walk(i: int, left: int, mask: int) -> None:
        for j in range(i, len(values)):
            v, bit = values[j]
            if v == left:
                out.append(mask | bit)
            elif v < left:
                walk(j + 1, left - v, mask | bit)

    if target > 0:
        walk(0, target, 0)
    return out


def summables(table: Sequence[Item]) -> list[tuple[int, int]]:
    """``(value, bit)`` of the items that may join a sum: loose number cards and simple
    builds (a compound build's value is fixed; a face card has none)."""
    return [
        (it[3], 1 << i)
        for i, it in enumerate(table)
        if it[2] != COMPOUND and it[3] > 0
    ]


def groups(table: Sequence[Item], summ: Sequence[tuple[int, int]], v: int) -> list[int]:
    """Masks of the single groups worth ``v``: sums of loose number cards and simple builds,
    and a compound build of value ``v`` alone."""
    out = subset_sums(summ, v)
    out += [1 << i for i, it in enumerate(table) if it[2] == COMPOUND and it[3] == v]
    return out


def unions(gs: Sequence[int]) -> set[int]:
    """Every non-empty union of pairwise disjoint masks from ``gs``: the sets of items that
    divide into groups (each set once, however many ways it divides)."""
    seen: set[int] = set()
    stack = [0]
    while stack:
        m = stack.pop()
        for g in gs:
            if not g & m:
                u = m | g
                if u not in seen:
                    seen.add(u)
                    stack.append(u)
    return seen


#: Per table of values (a compound build's negated), :func:`capture_sets` per card value: the
#: masks depend on nothing else, and the search players' rollouts meet the same tables of
#: values over and over. Cleared when it holds :data:`CAPTURE_CACHE` tables. The masks are
#: kept as tuples (in the order of the set they came from), which the garbage collector
#: stops tracking: thousands of long-lived sets made its full collections pause a decision.
_CAPTURES: dict[tuple[int, ...], dict[int, tuple[int, ...]]] = {}
CAPTURE_CACHE = 20_000


def capture_map(table: Sequence[Item]) -> dict[int, tuple[int, ...]]:
    """The cache of :func:`capture_sets` for ``table`` (value -> masks, filled as asked)."""
    key = tuple([-it[3] if it[2] == COMPOUND else it[3] for it in table])
    caps = _CAPTURES.get(key)
    if caps is None:
        if len(_CAPTURES) >= CAPTURE_CACHE:
            _CAPTURES.clear()
        caps = _CAPTURES[key] = {}
    return caps


def capture_sets(table: Sequence[Item], summ: Sequence[tuple[int, int]] | None, v: int,
                 caps: dict[int, tuple[int, ...]] | None = None) -> tuple[int, ...]:
    """Masks of every set of items a number card of value ``v`` may capture, each once
    (``summ``: :func:`summables` of ``table``, None: worked out if needed; ``caps``: its
    :func:`capture_map`, if at hand)."""
    if caps is None:
        caps = capture_map(table)
    masks = caps.get(v)
    if masks is None:
        masks = caps[v] = tuple(
            unions(groups(table, summables(table) if summ is None else summ, v)))
    return masks


def names_of(table: Sequence[Item], mask: int) -> tuple[int, ...]:
    """The names of the items in ``mask``, in canonical order."""
    return tuple(it[0] for i, it in enumerate(table) if mask >> i & 1)


def keeps_control(
    table: Sequence[Item], seat: int, hand_values: Sequence[int], taken: int
) -> bool:
    """Whether ``seat`` still holds (``hand_values``: values left in hand after the play) a
    card of the value of every build it controls that stays on the table (not in ``taken``)."""
    for i, it in enumerate(table):
        if it[4] == seat and not taken >> i & 1 and it[3] not in hand_values:
            return False
    return True


def legal_actions(table: Sequence[Item], hand: Sequence[int], seat: int) -> list[Action]:
    """Every legal action of ``seat`` holding ``hand`` (in no particular order; each once)."""
    out: list[Action] = []
    summ = summables(table)
    # (a seat that controls no build keeps control whatever it plays)
    controls = any(it[4] == seat for it in table)
    caps = capture_map(table)  # capture sets per value, shared by the cards of a value
    sums: dict[int, list[int]] = {}  # the sums of loose cards and simple builds, likewise
    for card in dict.fromkeys(hand):
        v = VALUE[card]
        rest = list(hand)
        rest.remove(card)
        left = [VALUE[c] for c in rest]
        if v == 0:  # a face card: any non-empty set of loose cards of its rank
            same = [
                1 << i for i, it in enumerate(table)
                if it[2] == LOOSE and RANK[it[0]] == RANK[card]
            ]
            masks = unions(same)
            for m in masks:
                if not controls or keeps_control(table, seat, left, m):
                    out.append((CAPTURE, card, 0, names_of(table, m)))
            if not masks and not controls:
                out.append((TRAIL, card, 0, ()))
            continue
        if v not in caps:
            capture_sets(table, summ, v, caps)
        for m in caps[v]:
            if not controls or keeps_control(table, seat, left, m):
                out.append((CAPTURE, card, 0, names_of(table, m)))
        if not caps[v] and not controls:
            out.append((TRAIL, card, 0, ()))
        for big in sorted(set(left)):  # the build value: a number card kept in hand
            if big == 0:
                continue
            builds: set[int] = set()
            if big > v:
                if big - v not in sums:
                    sums[big - v] = subset_sums(summ, big - v)
                with_card = sums[big - v]
                builds.update(with_card)  # simple: c + S == big
            else:
                with_card = [0] if big == v else []
            if with_card:
                if big not in caps:
                    capture_sets(table, summ, big, caps)
                for t in with_card:
                    builds.update(t | r for r in caps[big] if not t & r)
            for m in builds:
                if not controls or keeps_control(table, seat, left, m):
                    out.append((BUILD, card, big, names_of(table, m)))
    return out


def score(
    piles: Sequence[Sequence[int]], sweeps: Sequence[int]
) -> tuple[list[int], list[dict[str, int]]]:
    """Points per team and each team's items: ``cards`` (3 to strictly the most cards),
    ``spades`` (1, same rule), ``big_cassino`` (TD, 2), ``little_cassino`` (2S, 1), ``aces``
    (1 each), ``sweeps`` (1 each). Also ``n_cards`` and ``n_spades`` as counted."""
    n_cards = [len(p) for p in piles]
    n_spades = [sum(1 for c in p if c % 4 == SPADE) for p in piles]

    def strictly_most(counts: list[int]) -> int:
        top = max(counts)
        return counts.index(top) if counts.count(top) == 1 else -1

    most_cards, most_spades = strictly_most(n_cards), strictly_most(n_spades)
    items: list[dict[str, int]] = []
    for t, pile in enumerate(piles):
        items.append({
            "cards": 3 if t == most_cards else 0,
            "spades": 1 if t == most_spades else 0,
            "big_cassino": 2 if TEN_D in pile else 0,
            "little_cassino": 1 if TWO_S in pile else 0,
            "aces": sum(1 for c in pile if RANK[c] == 0),
            "sweeps": sweeps[t],
            "n_cards": n_cards[t],
            "n_spades": n_spades[t],
        })
    points = [
        sum(v for k, v in it.items() if not k.startswith("n_")) for it in items
    ]
    return points, items


class State:
    """A deal in progress, all of it (every hand, the pack order): never shown as is.

    ``hands[seat]`` sorted; ``table`` sorted by name; ``piles`` and ``sweeps`` per team;
    ``pos`` the deck index of the next card to deal; ``last_capturer`` -1 until a capture;
    ``to_act`` -1 once finished; ``leftover`` the cards given to the last capturer at the end.
    """

    __slots__ = (
        "dealer",
        "deck",
        "first_table",
        "hands",
        "last_capturer",
        "leftover",
        "n",
        "n_teams",
        "piles",
        "pos",
        "round",
        "rounds",
        "sweeps",
        "table",
        "team_size",
        "to_act",
    )

    def __init__(self, players: int, team_size: int, dealer: int, deck: Sequence[int]) -> None:
        self.n = players
        self.team_size = team_size
        self.n_teams = players // team_size
        self.dealer = dealer
        self.deck = tuple(deck)
        self.rounds = ROUNDS[(players, team_size)]
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.table: list[Item] = []
        self.piles: list[list[int]] = [[] for _ in range(self.n_teams)]
        self.sweeps = [0] * self.n_teams
        self.last_capturer = -1
        self.leftover: list[int] = []
        self.round = 0
        self.pos = 0
        self.to_act = -1
        self._deal_next()
        self.first_table = [it[0] for it in self.table]

    def copy(self) -> State:
        """An independent copy (items are immutable tuples, so lists are copied shallowly)."""
        other = object.__new__(State)
        # (each slot by name: the search copies a state for every action of every world)
        other.dealer = self.dealer
        other.deck = self.deck
        other.first_table = self.first_table
        other.last_capturer = self.last_capturer
        other.n = self.n
        other.n_teams = self.n_teams
        other.pos = self.pos
        other.round = self.round
        other.rounds = self.rounds
        other.team_size = self.team_size
        other.to_act = self.to_act
        other.hands = [list(h) for h in self.hands]
        other.table = list(self.table)
        other.piles = [list(p) for p in self.piles]
        other.sweeps = list(self.sweeps)
        other.leftover = list(self.leftover)
        return other

    @property
    def finished(self) -> bool:
        """True once the last card is played and the leftover given."""
        return self.to_act < 0

    def team_of(self, seat: int) -> int:
        """``seat % n_teams``."""
        return seat % self.n_teams

    def _deal_next(self) -> None:
        """Deal the next round; the dealer's left plays first."""
        self.round += 1
        for i, seat in deal_round(self.n, self.dealer, self.round):
            card = self.deck[i]
            if seat < 0:
                self.table.append((card, (card,), LOOSE, VALUE[card], -1))
            else:
                self.hands[seat].append(card)
        self.pos = 4 * self.n * self.round + 4
        for h in self.hands:
            h.sort()
        self.table.sort()
        self.to_act = (self.dealer + 1) % self.n

    def legal(self) -> list[Action]:
        """The legal actions of the seat to act ([] once finished)."""
        if self.to_act < 0:
            return []
        return legal_actions(self.table, self.hands[self.to_act], self.to_act)

    def apply(self, action: Action) -> None:
        """Carry out a legal action (not checked here: :mod:`.deal` checks) and move on."""
        kind, card, value, names = action
        seat = self.to_act
        self.hands[seat].remove(card)
        if kind == TRAIL:
            self.table.append((card, (card,), LOOSE, VALUE[card], -1))
            self.table.sort()
        else:
            wanted = set(names)
            taken = [it for it in self.table if it[0] in wanted]
            self.table = [it for it in self.table if it[0] not in wanted]
            cards = [card]
            for it in taken:
                cards += it[1]
            if kind == CAPTURE:
                team = seat % self.n_teams
                self.piles[team] += cards
                self.last_capturer = seat
                if not self.table:
                    self.sweeps[team] += 1
            else:
                total = sum(VALUE[c] for c in cards)
                build = (min(cards), tuple(sorted(cards)),
                         SIMPLE if total == value else COMPOUND, value, seat)
                self.table.append(build)
                self.table.sort()
        self.to_act = (seat + 1) % self.n
        if not any(self.hands):
            if self.round < self.rounds:
                self._deal_next()
            else:
                self._finish()

    def _finish(self) -> None:
        """The leftover goes to the last capturer's team (nobody captured: the dealer's)."""
        taker = self.last_capturer if self.last_capturer >= 0 else self.dealer
        self.leftover = [c for it in self.table for c in it[1]]
        self.piles[taker % self.n_teams] += self.leftover
        self.table = []
        self.to_act = -1

    def score(self) -> tuple[list[int], list[dict[str, int]]]:
        """:func:`score` of the piles and sweeps (meaningful once finished)."""
        return score(self.piles, self.sweeps)
