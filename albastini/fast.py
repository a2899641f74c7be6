"""A lean fast path of the same rules, for simulation and search.

Cards are ints 0..35 (``Card.index``: suit-major, suit = ``card // 9`` in the order C D H S,
rank = ``card % 9`` from the Ace down to the 3). Everything the hot loops need is a list lookup:
``POINTS[card]``, ``SUIT[card]``, and ``WIN_KEY[trump][led card][card]``, a number that is highest
for the card that eats the round (trumps above cards of the suit led above everything else, which
never wins).

Two entry points:

* :class:`FastDeal`: a perfect-information state of the playing phase (after bidding) with
  ``legal()``, ``play()``, ``copy()`` and a uniformly random ``playout()``; the search player lives
  on it. It does no validation beyond what Python does for free.
* :func:`random_deal_points`: one whole deal with a uniformly shuffled pack, a random dealer,
  random bidding and random play, every card really dealt, bid, drawn and played; for the bench.

Randomness is where pure Python loses most time (``random.shuffle`` alone costs as much as
playing the deal), so each deal draws one big uniform integer with ``randrange`` and reads its
choices as mixed-radix digits with ``divmod``: exactly uniform, and one RNG call for dozens of
choices. Hand sizes at every turn of the playing phase depend only on the mode, so the radix of
each play is known in advance; bids use base-60 digits reduced modulo the number of options
(1..6 options, all divisors of 60, so still exactly uniform).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cards import PACK, Card

if TYPE_CHECKING:
    from .deal import Deal

__all__ = [
    "CODES",
    "POINTS",
    "SUIT",
    "WIN_KEY",
    "FastDeal",
    "card_code",
    "card_int",
    "deal_points",
    "random_deal_points",
    "random_deals_points",
    "shuffled_ints",
]

HAND = 5
#: Card codes by int: ``CODES[card]``.
CODES: tuple[str, ...] = tuple(c.code for c in PACK)
#: Card points by int.
POINTS: tuple[int, ...] = tuple(c.points for c in PACK)
#: Suit 0..3 (C D H S) by int.
SUIT: tuple[int, ...] = tuple(c.index // 9 for c in PACK)
_STRENGTH: tuple[int, ...] = tuple(c.strength for c in PACK)
_SUIT_LETTERS = "CDHS"


def _win_keys() -> list[list[list[int]]]:
    table: list[list[list[int]]] = []
    for trump in range(4):
        by_lead: list[list[int]] = []
        for led in range(36):
            led_suit = SUIT[led]
            by_lead.append(
                [
                    20 + _STRENGTH[c]
                    if SUIT[c] == trump
                    else (10 + _STRENGTH[c] if SUIT[c] == led_suit else 0)
                    for c in range(36)
                ]
            )
        table.append(by_lead)
    return table


#: ``WIN_KEY[trump][led][card]``: the card of a round with the highest key eats it
#: (trump 20.., suit led 10.., anything else 0 and never wins).
WIN_KEY: list[list[list[int]]] = _win_keys()


def card_int(card: Card | str) -> int:
    """The int of a :class:`~albastini.cards.Card` or a card code such as ``"7H"``."""
    return Card.parse(card).index


def card_code(card: int) -> str:
    """The code (``"7H"``) of a card int."""
    return CODES[card]


def _trump_int(trump: str | int) -> int:
    return _SUIT_LETTERS.index(trump) if isinstance(trump, str) else int(trump)


class FastDeal:
    """A perfect-information state of the playing phase, cards as ints.

    Public attributes: ``players``, ``team_size``, ``teams``, ``trump`` (suit 0..3), ``to_act``
    (-1 once finished), ``finished``, and for readers that need the details: ``hands`` (one list
    per seat), ``stock`` (drawing order, face-up card last; shared between copies, never
    mutated), ``pos`` (index of the next card to draw), ``leader`` (of the round in progress),
    ``current`` ((seat, card) pairs of the round in progress), ``eaten`` (points per team).
    """

    __slots__ = (
        "current",
        "eaten",
        "finished",
        "hands",
        "leader",
        "players",
        "pos",
        "stock",
        "team_size",
        "teams",
        "to_act",
        "trump",
    )

    players: int
    team_size: int
    teams: int
    trump: int
    to_act: int
    finished: bool
    hands: list[list[int]]
    stock: list[int]
    pos: int
    leader: int
    current: list[tuple[int, int]]
    eaten: list[int]

    @classmethod
    def from_parts(
        cls,
        players: int,
        team_size: int,
        trump: int,
        hands: Sequence[Sequence[int]],
        stock: Sequence[int],
        leader: int,
        current: Sequence[tuple[int, int]],
        eaten: Sequence[int],
    ) -> FastDeal:
        """A state from its parts: ``hands`` per seat, ``stock`` in drawing order (face-up card
        last; with 5 players the left-over card stays there), the round in progress ``current``
        led by ``leader``, and card points ``eaten`` per team so far."""
        self = object.__new__(cls)
        self.players = players
        self.team_size = team_size
        self.teams = players // team_size
        self.trump = trump
        self.hands = [list(h) for h in hands]
        self.stock = list(stock)
        self.pos = 0
        self.leader = leader
        self.current = [(int(s), int(c)) for s, c in current]
        self.eaten = list(eaten)
        if len(self.eaten) != self.teams:
            raise ValueError(f"eaten needs one total per team ({self.teams})")
        self.to_act = (leader + len(self.current)) % players
        self.finished = not self.current and not self.hands[leader]
        if self.finished:
            self.to_act = -1
        return self

    @classmethod
    def from_deal(cls, deal: Deal) -> FastDeal:
        """The state of a :class:`~albastini.deal.Deal` in its playing phase, hidden cards
        included (hands and stock order are read from the deal itself)."""
        if deal.phase == "bidding" or deal.trump is None:
            raise ValueError("FastDeal starts after bidding: the deal is still being bid")
        self = cls.from_parts(
            deal.players,
            deal.team_size,
            _trump_int(deal.trump),
            [[c.index for c in deal.hand(s)] for s in range(deal.players)],
            [c.index for c in deal._stock],
            deal.leader,
            [(s, c.index) for s, c in deal.current],
            deal.points(),
        )
        if deal.phase == "finished":
            self.finished = True
            self.to_act = -1
        return self

    def copy(self) -> FastDeal:
        """An independent copy (the stock list is shared: nobody mutates it)."""
        other = object.__new__(FastDeal)
        other.players = self.players
        other.team_size = self.team_size
        other.teams = self.teams
        other.trump = self.trump
        other.to_act = self.to_act
        other.finished = self.finished
        other.hands = [h[:] for h in self.hands]
        other.stock = self.stock
        other.pos = self.pos
        other.leader = self.leader
        other.current = self.current[:]
        other.eaten = self.eaten[:]
        return other

    def team_of(self, seat: int) -> int:
        """The side of ``seat``."""
        return seat % self.teams

    def stock_left(self) -> int:
        """Cards still in the stock, the face-up card included."""
        return len(self.stock) - self.pos

    def legal(self) -> list[int]:
        """The cards the seat to act may play: any card in hand (no duty to follow suit)."""
        if self.finished:
            return []
        return self.hands[self.to_act][:]

    def winning(self) -> int:
        """The seat winning the round in progress (-1 when no card is down)."""
        cur = self.current
        if not cur:
            return -1
        keys = WIN_KEY[self.trump][cur[0][1]]
        best_seat, best = cur[0][0], -1
        for seat, card in cur:
            k = keys[card]
            if k > best:
                best, best_seat = k, seat
        return best_seat

    def play(self, card: int) -> None:
        """The seat to act plays ``card``; at the end of a round the winner eats it, everyone
        draws (winner first) while the stock holds a card per player, and the winner leads."""
        seat = self.to_act
        assert not self.finished and card in self.hands[seat], (seat, card)
        self.hands[seat].remove(card)
        cur = self.current
        cur.append((seat, card))
        n = self.players
        if len(cur) < n:
            self.to_act = (seat + 1) % n
            return
        keys = WIN_KEY[self.trump][cur[0][1]]
        best = -1
        winner = pts = 0
        for s, c in cur:
            k = keys[c]
            pts += POINTS[c]
            if k > best:
                best, winner = k, s
        self.eaten[winner % self.teams] += pts
        self.current = []
        hands = self.hands
        stock = self.stock
        pos = self.pos
        if len(stock) - pos >= n:
            for k in range(n):
                hands[(winner + k) % n].append(stock[pos + k])
            self.pos = pos + n
        self.leader = winner
        if hands[winner]:
            self.to_act = winner
        else:
            self.finished = True
            self.to_act = -1

    def points(self) -> list[int]:
        """Card points eaten so far, per team."""
        return self.eaten[:]

    def _choices(self) -> int:
        """How many different uniformly random playouts there are from here (the product of
        the hand sizes at every remaining turn, which depend only on the state's shape)."""
        n = self.players
        hands = self.hands
        left = len(self.stock) - self.pos
        total = 1
        if self.current:
            for k in range(n - len(self.current)):
                total *= len(hands[(self.to_act + k) % n])
            size = len(hands[self.to_act]) - 1  # every hand, once this round is over
            if left >= n:
                left -= n
                size += 1
        else:
            size = len(hands[self.leader])
        while size > 0:
            total *= size**n
            size -= 1
            if left >= n:
                left -= n
                size += 1
        return total

    def playout(self, rng: random.Random) -> list[int]:
        """Play uniformly random cards to the end of the deal (this state changes); return the
        card points per team."""
        if self.finished:
            return self.eaten[:]
        r = rng.randrange(self._choices())
        n = self.players
        teams = self.teams
        hands = self.hands
        stock = self.stock
        pos = self.pos
        slen = len(stock)
        eaten = self.eaten
        by_lead = WIN_KEY[self.trump]
        pts_of = POINTS
        cur = self.current
        seat = self.to_act
        lead = self.leader
        if cur:
            keys = by_lead[cur[0][1]]
            best = -1
            ws = pts = 0
            for s, c in cur:
                pts += pts_of[c]
                k = keys[c]
                if k > best:
                    best, ws = k, s
            todo = n - len(cur)
            seat = cur[-1][0]  # the loop below starts with the seat after it
        else:
            h = hands[seat]
            r, i = divmod(r, len(h))
            c = h.pop(i)
            keys = by_lead[c]
            best = keys[c]
            ws = seat
            pts = pts_of[c]
            todo = n - 1
        while True:
            for _ in range(todo):
                seat += 1
                if seat == n:
                    seat = 0
                h = hands[seat]
                r, i = divmod(r, len(h))
                c = h.pop(i)
                pts += pts_of[c]
                k = keys[c]
                if k > best:
                    best, ws = k, seat
            eaten[ws % teams] += pts
            lead = ws
            if slen - pos >= n:
                for k in range(n):
                    hands[(ws + k) % n].append(stock[pos + k])
                pos += n
            elif not hands[ws]:
                break
            seat = ws
            h = hands[seat]
            r, i = divmod(r, len(h))
            c = h.pop(i)
            keys = by_lead[c]
            best = keys[c]
            pts = pts_of[c]
            todo = n - 1
        self.current = []
        self.pos = pos
        self.leader = lead
        self.finished = True
        self.to_act = -1
        return eaten[:]


# --------------------------------------------------------------------- whole random deals
_F36 = math.factorial(36)
_PACK_INTS = list(range(36))


def shuffled_ints(rng: random.Random) -> list[int]:
    """A uniformly shuffled pack of card ints (one ``randrange`` read as a Lehmer code)."""
    r = rng.randrange(_F36)
    rest = _PACK_INTS[:]
    deck: list[int] = []
    take = deck.append
    for i in range(36, 1, -1):
        r, j = divmod(r, i)
        take(rest.pop(j))
    take(rest[0])
    return deck


class _Mode:
    """Per-mode constants of the random deal."""

    __slots__ = ("bidders", "choices", "dealt", "players", "rot", "tail", "team", "teams")

    def __init__(self, players: int, team_size: int) -> None:
        n = players
        self.players = n
        self.teams = teams = n // team_size
        self.team = [s % teams for s in range(n)]
        self.rot = [[(w + k) % n for k in range(n)] for w in range(n)]
        self.tail = [r[1:] for r in self.rot]
        self.bidders = [
            [s for s in ((d + 1 + k) % n for k in range(n - 1)) if s % teams != d % teams]
            for d in range(n)
        ]
        self.dealt = HAND * n
        # Hand size at every turn of the playing phase: the same in every deal of the mode.
        total = 1
        size, left = HAND, 36 - HAND * n
        while size:
            total *= size**n
            size -= 1
            if left >= n:
                left -= n
                size += 1
        self.choices = total * 60 ** len(self.bidders[0])


_MODES: dict[tuple[int, int], _Mode] = {}


def _mode(players: int, team_size: int) -> _Mode:
    try:
        return _MODES[(players, team_size)]
    except KeyError:
        from .deal import mode_name

        mode_name(players, team_size)  # ValueError for a table that does not exist
        spec = _MODES[(players, team_size)] = _Mode(players, team_size)
        return spec


def deal_points(
    players: int, team_size: int, dealer: int, deck: Sequence[int], r: int
) -> list[int]:
    """Play one whole deal of ``deck`` (card ints, index 0 = top) with every choice read from
    ``r``: for each bidder in turn a base-60 digit modulo the number of options (the bids in
    hand order, then the pass), then for each play ``divmod(r, hand size)`` picks the index in
    the hand. Hands keep the order :class:`~albastini.deal.Deal` keeps (dealt order, a returned
    bid card or the exchanged indicator appended, drawn cards appended), so the same ``r``
    chooses the same cards as in the clean path. Returns card points per team.
    """
    mode = _mode(players, team_size)
    n = players
    dealt = mode.dealt
    hands = [list(deck[(k - dealer - 1) % n : dealt : n]) for k in range(n)]
    indicator = deck[dealt]
    trump = SUIT[indicator]
    face_up = indicator
    suit_of = SUIT
    taken = 0
    returned: list[tuple[list[int], int]] = []
    for s in mode.bidders[dealer]:
        h = hands[s]
        options = [c for c in h if not taken >> suit_of[c] & 1]
        r, x = divmod(r, 60)
        x %= len(options) + 1
        if x < len(options):
            c = options[x]
            h.remove(c)
            taken |= 1 << suit_of[c]
            returned.append((h, c))
    for h, c in returned:
        if suit_of[c] == trump:
            h.append(indicator)
            face_up = c
        else:
            h.append(c)
    stock = list(deck[dealt + 1 :])
    stock.append(face_up)
    by_lead = WIN_KEY[trump]
    pts_of = POINTS
    team = mode.team
    rot = mode.rot
    tail = mode.tail
    eaten = [0] * mode.teams
    lead = (dealer + 1) % n
    pos = 0
    slen = len(stock)
    while True:
        h = hands[lead]
        r, i = divmod(r, len(h))
        c = h.pop(i)
        keys = by_lead[c]
        best = keys[c]
        ws = lead
        pts = pts_of[c]
        for s in tail[lead]:
            h = hands[s]
            r, i = divmod(r, len(h))
            c = h.pop(i)
            pts += pts_of[c]
            k = keys[c]
            if k > best:
                best = k
                ws = s
        eaten[team[ws]] += pts
        if slen - pos >= n:
            for s in rot[ws]:
                hands[s].append(stock[pos])
                pos += 1
        elif not hands[ws]:
            return eaten
        lead = ws


def random_deal_points(players: int, team_size: int, rng: random.Random) -> list[int]:
    """One whole random deal: a uniformly shuffled pack, a uniformly random dealer, uniformly
    random bidding among the legal bids and the pass, uniformly random play. Returns the card
    points per team."""
    mode = _mode(players, team_size)
    deck = shuffled_ints(rng)
    r = rng.randrange(mode.choices * players)
    r, dealer = divmod(r, players)
    return deal_points(players, team_size, dealer, deck, r)


def random_deals_points(players: int, team_size: int, rng: random.Random, count: int) -> list[int]:
    """``count`` whole random deals (see :func:`random_deal_points`); card points per team
    summed over them."""
    mode = _mode(players, team_size)
    totals = [0] * mode.teams
    for _ in range(count):
        for t, p in enumerate(random_deal_points(players, team_size, rng)):
            totals[t] += p
    return totals
