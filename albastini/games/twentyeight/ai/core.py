"""What a computer player knows, read from its seat's view only, and worlds consistent with it.

:func:`read_view` turns ``Deal.view(seat)`` into a :class:`Knowledge` on kernel ints: the hand,
the cards played, who is void in what (a player who did not follow suit holds none of it; a
player who called for the trump and then played a non-trump holds no trump), and, while the
trump card is face down, the suits it cannot be (a suit the bidder led before the exposure:
the bidder may not lead a hidden trump). :func:`sample_world` deals the unseen cards (and,
for anyone but the bidder, the face-down card) at random consistently with all of it and
returns a :class:`..kernel.State` ready to be played on.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import kernel as K
from ..cards import Card

CODE_INT: dict[str, int] = {c: i for i, c in enumerate(K.CODES)}


def card_key(card: int) -> tuple[int, int]:
    """Cheapness: fewer points first, then the weaker card."""
    return K.POINTS[card], K.STRENGTH[card]


@dataclass
class Knowledge:
    """One seat's picture of a deal (ints; -1 for unknown)."""

    seat: int
    players: int
    team_size: int
    n_teams: int
    dealer: int
    phase: str
    legal: list[str]
    hand: list[int]
    hand_sizes: list[int]
    bidder: int
    contract: int
    high: int
    bids: list[tuple[int, int]]
    thani: bool
    trump: int  # the trump suit when this seat knows it
    trump_card: int
    face_down: bool
    exposed_by: int
    exposed_in: int
    leader: int
    trick: list[tuple[int, int]]
    tricks: list[tuple[int, tuple[tuple[int, int], ...], int, int]]
    points: list[int]
    played: set[int] = field(default_factory=set)
    void: list[set[int]] = field(default_factory=list)
    not_trump: set[int] = field(default_factory=set)

    def side(self, seat: int) -> int:
        """0 for the bidding side (3 players: the bidder alone), 1 for the defenders."""
        if self.n_teams == 3:
            return 0 if seat == self.bidder else 1
        return 0 if seat % self.n_teams == self.bidder % self.n_teams else 1

    @property
    def pack(self) -> tuple[int, ...]:
        """The mode's pack as ints."""
        return K.pack_ints(self.players)

    def unseen(self) -> list[int]:
        """Cards this seat has not seen: in other hands, or face down."""
        seen = self.played | set(self.hand)
        if self.trump_card >= 0:
            seen.add(self.trump_card)
        return [c for c in self.pack if c not in seen]

    def master(self, card: int) -> bool:
        """Whether no unplayed card of its suit outside this hand ranks above it."""
        mine = set(self.hand)
        suit = K.SUIT[card]
        for higher in range(suit * 9, card):
            if higher in self.pack_set and higher not in self.played and higher not in mine:
                return False
        return True

    @property
    def pack_set(self) -> frozenset[int]:
        """The mode's pack as a set."""
        return _PACK_SETS[self.players]

    def called_now(self) -> bool:
        """Whether this seat has just called for the trump in the trick in progress."""
        return (
            self.exposed_by == self.seat
            and self.exposed_in == len(self.tricks)
            and all(s != self.seat for s, _ in self.trick)
        )


_PACK_SETS = {n: frozenset(K.pack_ints(n)) for n in (3, 4, 6)}


def side_of(st: K.State, seat: int) -> int:
    """0 for the bidding side (3 players: the bidder alone), 1 for the defenders."""
    if st.n_teams == 3:
        return 0 if seat == st.bidder else 1
    return 0 if seat % st.n_teams == st.bidder % st.n_teams else 1



def rollout_choices(st: K.State) -> tuple[int | None, list[int], bool]:
    """What the player to act may do, for a rollout policy: the one move when there is no
    other (else None), the cards to choose from, and whether calling for the trump is one
    more choice (:data:`kernel.EXPOSE`, the last of ``play_options``)."""
    cards = st.play_options()
    if len(cards) == 1:
        return cards[0], cards, False
    if cards[-1] == K.EXPOSE:
        return None, cards[:-1], True
    return None, cards, False

def read_view(view: Mapping[str, Any]) -> Knowledge:
    """A :class:`Knowledge` from a seat's view."""
    def ints(codes: list[str]) -> list[int]:
        return [CODE_INT[c] for c in codes]

    tricks = [
        (t["leader"], tuple((s, CODE_INT[c]) for s, c in t["plays"]), t["winner"], t["points"])
        for t in view["tricks"]
    ]
    trick = [(s, CODE_INT[c]) for s, c in view["trick"]["plays"]]
    bids = [(b["seat"], b["bid"] or 0) for b in view["bids"]]
    trump = "CDHS".index(view["trump"]) if view["trump"] else -1
    k = Knowledge(
        seat=view["seat"],
        players=view["players"],
        team_size=view["team_size"],
        n_teams=view["n_teams"],
        dealer=view["dealer"],
        phase=view["phase"],
        legal=list(view["legal"]),
        hand=ints(view["hand"]),
        hand_sizes=list(view["hand_sizes"]),
        bidder=view["bidder"] if view["bidder"] is not None else -1,
        contract=view["contract"] or 0,
        high=max((b for _, b in bids), default=0),
        bids=bids,
        thani=bool(view["thani"]),
        trump=trump,
        trump_card=CODE_INT[view["trump_card"]] if view["trump_card"] else -1,
        face_down=bool(view["trump_face_down"]),
        exposed_by=view["exposed_by"] if view["exposed_by"] is not None else -1,
        exposed_in=view["exposed_in_trick"] if view["exposed_in_trick"] is not None else -1,
        leader=view["trick"]["leader"] if view["trick"]["leader"] is not None else -1,
        trick=trick,
        tricks=tricks,
        points=list(view["points"]),
    )
    k.void = [set() for _ in range(k.players)]
    rounds = [(i, lead, plays) for i, (lead, plays, _, _) in enumerate(tricks)]
    rounds.append((len(tricks), k.leader, tuple(trick)))
    for i, _, plays in rounds:
        if not plays:
            continue
        led = K.SUIT[plays[0][1]]
        for s, c in plays:
            k.played.add(c)
            if K.SUIT[c] != led:
                k.void[s].add(led)
            if s == k.exposed_by and i == k.exposed_in and k.trump >= 0 and K.SUIT[c] != k.trump:
                k.void[s].add(k.trump)  # called, then could not play a trump
    # The bidder may not lead a hidden trump unless holding nothing else: a suit it led
    # before the exposure is not trump, unless its hand was all of that suit; believe the
    # exception only with fewer than 3 cards in hand and no later card of another suit.
    bidder_plays = [(i, c) for i, _, plays in rounds for s, c in plays if s == k.bidder]
    total = int(view["tricks_total"])
    for i, _, plays in rounds:
        if not plays or plays[0][0] != k.bidder or not (k.exposed_in < 0 or i < k.exposed_in):
            continue
        suit = K.SUIT[plays[0][1]]
        later_other = any(j > i and K.SUIT[c] != suit for j, c in bidder_plays)
        if total - 1 - i >= 3 or later_other:
            k.not_trump.add(suit)
    return k


def _assign(
    cards: list[int], seats: list[int], need: dict[int, int], void: list[set[int]],
    rng: random.Random, limit: int = 3000,
) -> dict[int, list[int]] | None:
    """Deal ``cards`` to ``seats`` (``need[seat]`` each) so that no seat gets a suit it is void
    in: a randomized backtracking search, the most constrained cards first, each seat tried
    with a chance growing with its room. None when there is no such deal (or ``limit``
    steps were not enough)."""
    out: dict[int, list[int]] = {s: [] for s in seats}
    room = dict(need)
    order = sorted(cards, key=lambda c: (sum(1 for s in seats if K.SUIT[c] not in void[s]),
                                         rng.random()))
    steps = 0

    def place(i: int) -> bool:
        nonlocal steps
        if i == len(order):
            return True
        steps += 1
        if steps > limit:
            return False
        c = order[i]
        options = [s for s in seats if room[s] > 0 and K.SUIT[c] not in void[s]]
        options.sort(key=lambda s: -rng.random() * room[s])
        for s in options:
            room[s] -= 1
            out[s].append(c)
            if place(i + 1):
                return True
            room[s] += 1
            out[s].pop()
        return False

    return out if place(0) else None


#: Plain shuffles tried before the search for a deal that respects the voids.
QUICK_TRIES = 8


def _quick_deal(pool: list[int], seats: list[int], need: dict[int, int], void: list[set[int]],
                rng: random.Random) -> dict[int, list[int]] | None:
    """``pool`` shuffled and dealt to ``seats`` (``need[seat]`` each), or None when a seat
    got a suit it is void in."""
    rng.shuffle(pool)
    hands: dict[int, list[int]] = {}
    i = 0
    for s in seats:
        hand = pool[i : i + need[s]]
        i += need[s]
        voids = void[s]
        if voids and any(K.SUIT[c] in voids for c in hand):
            return None
        hands[s] = hand
    return hands


def sample_world(k: Knowledge, rng: random.Random, attempts: int = 30) -> K.State:
    """A complete deal in phase playing consistent with ``k`` (``k.phase == "playing"``)."""
    n = k.players
    others = [s for s in range(n) if s != k.seat]
    need = {s: k.hand_sizes[s] for s in others}
    unseen = k.unseen()
    trump, trump_card = k.trump, k.trump_card
    known_in_bidder: list[int] = []
    if (
        not k.face_down and k.trump_card >= 0 and k.trump_card not in k.played
        and k.bidder != k.seat
    ):
        # the exposed card went to the bidder's hand: public, and still there
        known_in_bidder.append(k.trump_card)
        need[k.bidder] -= 1
    hands: dict[int, list[int]] | None = None
    hidden = k.face_down and k.seat != k.bidder
    candidates = [c for c in unseen if K.SUIT[c] not in k.not_trump] or list(unseen)
    # first a plain shuffle, kept only when it breaks no void: exactly uniform over the
    # consistent deals, and much cheaper than the search below while few voids are known
    for _ in range(QUICK_TRIES):
        card = rng.choice(candidates) if hidden else -1
        pool = [c for c in unseen if c != card]
        hands = _quick_deal(pool, others, need, k.void, rng)
        if hands is not None:
            if hidden:
                trump, trump_card = K.SUIT[card], card
            break
    if hands is None and hidden:
        # the face-down card: an unseen card of a suit the bidder's play allows, tried in
        # random order until the other cards can be dealt around it
        rng.shuffle(candidates)
        for trump_card in candidates[:attempts]:
            pool = [c for c in unseen if c != trump_card]
            hands = _assign(pool, others, need, k.void, rng)
            if hands is not None:
                trump = K.SUIT[trump_card]
                break
    elif hands is None:
        hands = _assign(list(unseen), others, need, k.void, rng)
    if hands is None:  # not expected: the voids contradict the sizes; deal them anyway
        pool = [c for c in unseen if c != trump_card]
        rng.shuffle(pool)
        hands, i = {}, 0
        for s in others:
            hands[s] = pool[i : i + need[s]]
            i += need[s]
    hands[k.seat] = list(k.hand)
    if known_in_bidder:
        hands[k.bidder] = hands[k.bidder] + known_in_bidder
    return build_state(k, hands, trump, trump_card)


def build_state(k: Knowledge, hands: Mapping[int, list[int]], trump: int, trump_card: int
                ) -> K.State:
    """A kernel state in phase playing with these hands and this trump card."""
    st = K.State.__new__(K.State)
    st.n = k.players
    st.team_size = k.team_size
    st.n_teams = k.n_teams
    st.dealer = k.dealer
    st.thani_option = False
    st.cot = False
    st.deck = ()
    st.second = ()
    st.hands = [[[], [], [], []] for _ in range(k.players)]
    for s, cards in hands.items():
        for c in cards:
            st.hands[s][K.SUIT[c]].append(c)
    st.phase = K.PLAYING
    st.to_act = k.seat
    st.bids = list(k.bids)  # public: who bid freely (a rollout policy may read it)
    st.passes = 0
    st.raises = []
    st.bidder = k.bidder
    st.contract = k.contract
    st.high, st.high_seat = k.high, k.bidder
    st.thani = k.thani
    st.trump = trump
    st.trump_card = trump_card
    st.face_down = k.face_down
    st.exposed_by = k.exposed_by
    st.exposed_in = k.exposed_in
    st.called = k.called_now()
    st.leader = k.leader
    st.trick = list(k.trick)
    st.tricks = list(k.tricks)
    st.points = list(k.points)
    st.raise_queue = []
    st.total_tricks = K.MODE_SIZES[(k.players, k.team_size)]
    st.redeal = False
    return st


def card_of(code: str) -> Card:
    """The Card of a code (for readers of this module)."""
    return Card.parse(code)
