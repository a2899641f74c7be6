"""A lean fast path of the same rules, for simulation and search.

Cards are the ints of :mod:`.kernel`, which also holds every rule this module runs: the card
tables (``POINTS[card]``, ``SUIT[card]``, ``WIN_KEY[trump][led card][card]``, highest for the
card that eats the round), the order of play and of drawing, when everyone draws, who bids.
This module adds no rule of its own: it is the machinery that runs the kernel's fast.
(A little over 600 lines: the two entry points below share the generated per-mode play code.)

Two entry points:

* :class:`FastDeal`: a perfect-information state of the playing phase (after bidding) with
  ``legal()``, ``play()``, ``copy()`` and a uniformly random ``playout()``; the search player lives
  on it. It does no validation beyond what Python does for free.
* :func:`random_deal_points`: one whole deal with a uniformly shuffled pack, a random dealer,
  random bidding and random play, every card really dealt, bid, drawn and played; for the bench.

What dominates in pure Python is the number of bytecodes and calls, so:

* randomness comes in bulk: a whole random deal is one ``randrange`` whose value is read as
  mixed-radix digits (the pack as a Lehmer code, the dealer, a base-60 digit per bidder, then
  one digit per play), exactly uniform; ``random.shuffle`` alone would cost more than playing
  the deal;
* hand sizes at every turn and the rounds after which everyone draws depend only on the mode,
  so the playing phase of each mode is compiled once into straight-line code (no loops, the
  stock unpacked into locals, one ``divmod`` per round for all its players' choices);
* a round's winner and points come from one table value per card, ``key * 256 + points``.

Bids use base-60 digits reduced modulo the number of options: 1 to 6 options, all divisors of
60, so still exactly uniform. ``bench/engine.py`` measures the result.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

# The card tables and the rules come from the kernel, the one copy both this module and the
# computer players use; the tables and card_int/card_code are re-exported for this module's
# readers.
from .kernel import (
    CARDS,
    CODES,
    HAND,
    KEY_POINTS,
    POINTS,
    SUIT,
    SUIT_BIT,
    WIN_KEY,
    bidders,
    card_code,
    card_int,
    draw,
    draw_order,
    draws,
    first_leader,
    play_order,
    schedule,
    suit_int,
    winner_of,
)

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
        """The state of a :class:`.deal.Deal` in its playing phase, hidden cards
        included (hands and stock order are read from the deal itself)."""
        if deal.phase == "bidding" or deal.trump is None:
            raise ValueError("FastDeal starts after bidding: the deal is still being bid")
        self = cls.from_parts(
            deal.players,
            deal.team_size,
            suit_int(deal.trump),
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
        if not self.current:
            return -1
        return winner_of(self.current, self.trump)[0]

    def play(self, card: int) -> None:
        """The seat to act plays ``card``; at the end of a round the winner eats it, everyone
        draws (winner first) while the stock holds a card per player, and the winner leads.
        A card the seat does not hold raises ValueError (nothing else is checked)."""
        assert not self.finished, "the deal is over"
        seat = self.to_act
        hands = self.hands
        hands[seat].remove(card)
        cur = self.current
        cur.append((seat, card))
        n = self.players
        if len(cur) < n:
            seat += 1
            self.to_act = seat if seat < n else 0
            return
        keys = KEY_POINTS[self.trump][cur[0][1]]
        best = total = 0
        winner = seat
        for s, c in cur:
            v = keys[c]
            total += v
            if v > best:
                best = v
                winner = s
        self.eaten[winner % self.teams] += total & 255
        self.current = []
        self.pos = draw(hands, self.stock, self.pos, winner)
        self.leader = winner
        if hands[winner]:
            self.to_act = winner
        else:
            self.finished = True
            self.to_act = -1

    def ended(self, pos: int, leader: int) -> list[int]:
        """Record the end of the deal, reached by a loop that played it out on its own copies
        of the state: every hand empty, ``pos`` cards drawn, ``leader`` the last round's
        winner. Returns the card points per team."""
        self.current = []
        self.pos = pos
        self.leader = leader
        self.finished = True
        self.to_act = -1
        return self.eaten[:]

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
            for seat in play_order(self.to_act, n)[: n - len(self.current)]:
                total *= len(hands[seat])
            size = len(hands[self.to_act]) - 1  # every hand, once this round is over
            if draws(left, n):
                left -= n
                size += 1
        else:
            size = len(hands[self.leader])
        for held, _ in schedule(n, size, left):
            total *= held**n
        return total

    def playout(self, rng: random.Random) -> list[int]:
        """Play uniformly random cards to the end of the deal (this state changes); return the
        card points per team.

        The round in progress is finished card by card; from a round's start in the usual shape
        (equal hands, the stock as the mode leaves it) the rest runs through the mode's compiled
        code, otherwise through a generic loop. Both read the same digits the same way."""
        if self.finished:
            return self.eaten[:]
        if self.current:
            self._finish_round(rng)
            if self.finished:
                return self.eaten[:]
        mode = _mode(self.players, self.team_size)
        start = self._round_shape(mode)
        if start is None:
            return self._play_digits(rng.randrange(self._choices()))
        return self._play_compiled(mode, start, rng.randrange(mode.suffix_choices[start]))

    def _finish_round(self, rng: random.Random) -> None:
        """Uniformly random cards from the seats still to play in the round in progress."""
        n = self.players
        hands = self.hands
        total = 1
        for seat in play_order(self.to_act, n)[: n - len(self.current)]:
            total *= len(hands[seat])
        r = rng.randrange(total)
        while self.current:
            hand = hands[self.to_act]
            r, i = divmod(r, len(hand))
            self.play(hand[i])

    def _round_shape(self, mode: _Mode) -> int | None:
        """Which round of the mode's schedule starts here, None if the state is not at the
        start of a round in the usual shape."""
        if self.current:
            return None
        size = len(self.hands[self.leader])
        start = mode.rounds.get((size, len(self.stock) - self.pos))
        if start is None or any(len(h) != size for h in self.hands):
            return None
        return start

    def _play_compiled(self, mode: _Mode, start: int, r: int) -> list[int]:
        """Play to the end from round ``start`` with the compiled code; choices read from ``r``."""
        stock = self.stock
        pos = self.pos
        gained = mode.play_from(start)(
            r, self.hands, stock[pos:], self.leader, KEY_POINTS[self.trump]
        )
        eaten = self.eaten
        for team, points in enumerate(gained):
            eaten[team] += points
        left = len(stock) - pos
        return self.ended(pos + left - left % self.players, self.leader)

    def _play_digits(self, r: int) -> list[int]:
        """Play to the end with a generic loop, every choice read from ``r`` (``divmod`` by the
        hand size of the seat to act, seat after seat)."""
        n = self.players
        teams = self.teams
        hands = self.hands
        stock = self.stock
        pos = self.pos
        eaten = self.eaten
        by_lead = WIN_KEY[self.trump]
        pts_of = POINTS
        cur = self.current
        seat = self.to_act
        lead = self.leader
        if cur:
            keys = by_lead[cur[0][1]]
            ws, c = winner_of(cur, self.trump)
            best = keys[c]
            pts = sum(pts_of[c] for _, c in cur)
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
            pos = draw(hands, stock, pos, ws)
            if not hands[ws]:
                break
            seat = ws
            h = hands[seat]
            r, i = divmod(r, len(h))
            c = h.pop(i)
            keys = by_lead[c]
            best = keys[c]
            pts = pts_of[c]
            todo = n - 1
        return self.ended(pos, lead)


# --------------------------------------------------------------------- whole random deals
#
# A whole random deal is the bench's unit and the hot loop of any Monte Carlo over deals. In
# CPython the cost is the number of bytecodes, so the deal is compiled per mode into straight-line
# code (like ``collections.namedtuple`` and ``dataclasses`` do): the hand size at every turn and
# the rounds after which everyone draws depend only on the mode, so every loop unrolls, the stock
# unpacks into locals, and a round costs one ``divmod`` for all its players' choices.

_F36 = math.factorial(36)
PlayFn = Callable[[int, list[list[int]], list[int], int, list[list[int]]], list[int]]

def _play_source(players: int, teams: int, start: int = 0) -> str:
    """Source of ``play(r, hands, stock, lead, by_lead) -> eaten per team``: the playing phase
    from round ``start`` (0 = the first) with every choice read from ``r`` (per round: one digit
    in base size**players, split by a table into each player's index, the leader's the lowest,
    as successive divmods would). ``stock`` holds exactly the cards left at that round.

    Nothing of the rules is restated here: the rounds and when everyone draws come from
    :func:`.kernel.schedule`, the order of play and of drawing from :func:`.kernel.play_order`
    and :func:`.kernel.draw_order` (as tuples of hands, ``R`` and ``RD``), the winner from the
    ``by_lead`` rows of :data:`.kernel.KEY_POINTS`, and its seat from ``NX[lead]``, the play
    order of the round."""
    n = players
    rounds = schedule(n)
    left = CARDS - HAND * n - n * sum(after for _, after in rounds[:start])
    seats = [f"h{s}" for s in range(n)]
    order = [f"a{j}" for j in range(n)]

    def hands_in(order_of: Callable[[int, int], tuple[int, ...]]) -> str:
        return " ".join(
            "(" + ", ".join(seats[s] for s in order_of(w, n)) + ",)," for w in range(n)
        )

    # The winner of a round leads the next one: when drawing goes in that round's play order
    # (it does, winner first), the hands unpacked to draw are the next round's too.
    draw_as_play = all(draw_order(w, n) == play_order(w, n) for w in range(n))
    out = [
        "def play(r, hands, stock, lead, by_lead, NX=NX, TM=TM, "
        + ", ".join(f"D{h}=D{h}" for h in range(2, HAND + 1))
        + "):",
        f"    {', '.join(seats)}, = hands",
        f"    {''.join(f's{i}, ' for i in range(left))}= stock" if left else "    del stock",
        f"    R = ({hands_in(play_order)})",
        f"    eaten = [0] * {teams}",
    ]
    if not draw_as_play:
        out.insert(-1, f"    RD = ({hands_in(draw_order)})")
    drawn = 0
    fresh = False  # a0.. already hold the hands in order from the leader
    for size, after in rounds[start:]:
        if not fresh:
            out.append(f"    {', '.join(order)}, = R[lead]")
        if size > 1:
            out.append(f"    r, x = divmod(r, {size**n})")
            out.append(f"    {', '.join(f'i{j}' for j in range(n))}, = D{size}[x]")
            out += [f"    c{j} = a{j}.pop(i{j})" for j in range(n)]
        else:
            out += [f"    c{j} = a{j}.pop()" for j in range(n)]
        out += ["    keys = by_lead[c0]", "    best = total = keys[c0]", "    off = 0"]
        for j in range(1, n):
            out += [
                f"    v = keys[c{j}]",
                "    total += v",
                "    if v > best:",
                "        best = v",
                f"        off = {j}",
            ]
        out += ["    lead = NX[lead][off]", "    eaten[TM[lead]] += total & 255"]
        fresh = after and draw_as_play
        if after:
            drawers = order if draw_as_play else [f"b{j}" for j in range(n)]
            out.append(f"    {', '.join(drawers)}, = {'R' if draw_as_play else 'RD'}[lead]")
            out += [f"    {h}.append(s{drawn + j})" for j, h in enumerate(drawers)]
            drawn += n
    out.append("    return eaten")
    return "\n".join(out) + "\n"


@functools.cache
def _digit_tables(players: int) -> dict[str, list[tuple[int, ...]]]:
    """``D{h}[x]``: the ``players`` base-``h`` digits of ``x``, lowest first (shared by every
    mode with that many players: 6 players need about 20,000 small tuples)."""
    return {
        f"D{h}": [tuple(x // h**j % h for j in range(players)) for x in range(h**players)]
        for h in range(2, HAND + 1)
    }


def _compile_play(players: int, teams: int, start: int = 0) -> PlayFn:
    n = players
    namespace: dict[str, object] = {
        "NX": [play_order(w, n) for w in range(n)],
        "TM": [s % teams for s in range(n)],
        **_digit_tables(n),
    }
    source = _play_source(n, teams, start)
    name = f"<albastini.games.albastini.fast play, {n} players, {teams} sides, from round {start}>"
    exec(compile(source, name, "exec"), namespace)
    return cast(PlayFn, namespace["play"])


def _lehmer_source() -> str:
    """Source of ``shuffle(r) -> deck`` for ``0 <= r < 36!``: card k of the deck is
    ``rest.pop(d_k)`` with ``d_k`` the k-th digit of ``r`` in the factorial number system
    (radix 36, 35, ... 2). Digits come from single-word chunks of ``r`` so the arithmetic
    stays on small ints."""
    out = ["def shuffle(r):", "    rest = list(range(36))", "    pop = rest.pop"]
    chunks: list[list[int]] = [[]]
    size = 1
    for radix in range(36, 1, -1):
        if size * radix >= 1 << 30:
            chunks.append([])
            size = 1
        chunks[-1].append(radix)
        size *= radix
    k = 0
    for i, chunk in enumerate(chunks):
        if i < len(chunks) - 1:
            out += [f"    q = r % {math.prod(chunk)}", f"    r //= {math.prod(chunk)}"]
        else:
            out.append("    q = r")
        for radix in chunk:
            out += [f"    c{k} = pop(q % {radix})", f"    q //= {radix}"]
            k += 1
    out.append("    return [" + ", ".join(f"c{j}" for j in range(35)) + ", rest[0]]")
    return "\n".join(out) + "\n"


def _compile_shuffle() -> Callable[[int], list[int]]:
    namespace: dict[str, object] = {}
    exec(compile(_lehmer_source(), "<albastini.games.albastini.fast shuffle>", "exec"), namespace)
    return cast(Callable[[int], list[int]], namespace["shuffle"])


_shuffle = _compile_shuffle()


def shuffled_ints(rng: random.Random) -> list[int]:
    """A uniformly shuffled pack of card ints (one ``randrange(36!)`` read as a Lehmer code)."""
    return _shuffle(rng.randrange(_F36))


class _Mode:
    """Per-mode constants of the random deal and its compiled playing phase."""

    __slots__ = (
        "bidders",
        "choices",
        "dealt",
        "firsts",
        "play",
        "players",
        "rounds",
        "suffix_choices",
        "suffixes",
        "teams",
    )

    def __init__(self, players: int, team_size: int) -> None:
        n = players
        self.players = n
        self.teams = teams = n // team_size
        # firsts[dealer][seat]: where seat's first card lies in the deck (dealt one at a time
        # in the order of a round led by the dealer's left)
        self.firsts = [
            [play_order(first_leader(d, n), n).index(s) for s in range(n)] for d in range(n)
        ]
        self.bidders = [bidders(n, teams, d) for d in range(n)]
        self.dealt = HAND * n
        # How many different random deals there are once the pack is shuffled and the dealer
        # chosen: base-60 digits for the bidders, then the hand size at every turn of play.
        rounds = schedule(n)
        # rounds[(hand size, stock left)]: which round of the deal starts in that shape
        self.rounds: dict[tuple[int, int], int] = {}
        left = CARDS - HAND * n
        for start, (size, after) in enumerate(rounds):
            self.rounds[(size, left)] = start
            left -= n * after
        # suffix_choices[start]: how many different random plays from round ``start`` on
        self.suffix_choices = [
            math.prod(size**n for size, _ in rounds[k:]) for k in range(len(rounds))
        ]
        self.choices = 60 ** len(self.bidders[0]) * self.suffix_choices[0]
        self.play = _compile_play(n, teams)
        self.suffixes: dict[int, PlayFn] = {0: self.play}

    def play_from(self, start: int) -> PlayFn:
        """The compiled playing phase from round ``start`` on."""
        try:
            return self.suffixes[start]
        except KeyError:
            fn = self.suffixes[start] = _compile_play(self.players, self.teams, start)
            return fn


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
    the hand. Hands keep the order :class:`.deal.Deal` keeps (dealt order, a returned
    bid card or the exchanged indicator appended, drawn cards appended), so the same ``r``
    chooses the same cards as in the clean path. Returns card points per team.
    """
    mode = _mode(players, team_size)
    n = players
    dealt = mode.dealt
    deck = list(deck)
    hands = [deck[first:dealt:n] for first in mode.firsts[dealer]]
    indicator = deck[dealt]
    trump = SUIT[indicator]
    face_up = indicator
    bit = SUIT_BIT
    taken = 0
    returned: list[tuple[list[int], int]] = []
    for s in mode.bidders[dealer]:
        h = hands[s]
        options = [c for c in h if not taken & bit[c]] if taken else h
        r, x = divmod(r, 60)
        x %= len(options) + 1
        if x < len(options):
            c = options[x]
            h.remove(c)
            taken |= bit[c]
            returned.append((h, c))
    for h, c in returned:
        if SUIT[c] == trump:
            h.append(indicator)
            face_up = c
        else:
            h.append(c)
    stock = deck[dealt + 1 :]
    stock.append(face_up)
    return mode.play(r, hands, stock, first_leader(dealer, n), KEY_POINTS[trump])


def random_deal_points(players: int, team_size: int, rng: random.Random) -> list[int]:
    """One whole random deal: a uniformly shuffled pack, a uniformly random dealer, uniformly
    random bidding among the legal bids and the pass, uniformly random play. Returns the card
    points per team. One ``randrange`` call supplies every random choice, exactly uniformly."""
    mode = _mode(players, team_size)
    r = rng.randrange(_F36 * players * mode.choices)
    r, code = divmod(r, _F36)
    r, dealer = divmod(r, players)
    return deal_points(players, team_size, dealer, _shuffle(code), r)


def random_deals_points(players: int, team_size: int, rng: random.Random, count: int) -> list[int]:
    """``count`` whole random deals (see :func:`random_deal_points`); card points per team
    summed over them."""
    totals = [0] * _mode(players, team_size).teams
    for _ in range(count):
        for t, p in enumerate(random_deal_points(players, team_size, rng)):
            totals[t] += p
    return totals
