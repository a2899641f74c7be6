"""Every rule of Ass (Жопа) once, on ints: the beat table, the trick, the deal's state.

A card is ``suit * 9 + rank``: suits ``C D H S`` (0..3), ranks in the plain order
``6 7 8 9 J Q K T A`` (0..8, ``T`` is the Ten). ``shared/rules/ass.md`` is the authority; the
names of the trick's effects and slots are the rules file's.

Trump levels are a table ``levels[seat][suit]`` (the level of a card in the hand of the seat
that plays it) and ``main_levels[suit]`` (the level of a main suit: 0 in variants 1 and 2, the
suit's level in variants 3 to 5), so the trick does not need to know the variant.
"""

from __future__ import annotations

from collections.abc import Sequence

SUITS = "CDHS"
RANKS = "6789JQKTA"
SIX, SEVEN, EIGHT, NINE, JACK, QUEEN, KING, TEN, ACE = range(9)
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
CODES: tuple[str, ...] = tuple(RANKS[c % 9] + SUITS[c // 9] for c in range(36))
CODE_INT: dict[str, int] = {code: c for c, code in enumerate(CODES)}
#: Card points by rank: 6 -1, 7 0, 8 16, 9 0, J 1, Q 3, K 5, 10 10, A 12.
RANK_POINTS = (-1, 0, 16, 0, 1, 3, 5, 10, 12)
POINTS: tuple[int, ...] = tuple(RANK_POINTS[c % 9] for c in range(36))


def _beats() -> tuple[tuple[bool, ...], ...]:
    """The same-suit table of the rules: ``BEATS[a][b]`` when rank ``a`` played on rank ``b``
    of its suit beats it."""
    table = {
        SIX: {SEVEN, NINE, JACK, KING, TEN, ACE},
        SEVEN: set(),
        EIGHT: {SIX, SEVEN, NINE, JACK, TEN, ACE},
        NINE: {SEVEN},
        JACK: {SEVEN, NINE},
        QUEEN: {SIX, SEVEN, EIGHT, NINE, JACK},
        KING: {SEVEN, EIGHT, NINE, JACK, QUEEN},
        TEN: {SEVEN, NINE, JACK, QUEEN, KING},
        ACE: {SEVEN, NINE, JACK, QUEEN, KING, TEN},
    }
    return tuple(tuple(b in table[a] for b in range(9)) for a in range(9))


#: ``BEATS[a][b]``: rank ``a`` beats rank ``b`` of the same suit (a tournament, not transitive).
BEATS = _beats()
#: The rank one step below a rank (way 4), -1 when there is none: 9 under J, J under Q,
#: Q under K, K under 10, 10 under A.
ONE_LOWER = (-1, -1, -1, -1, NINE, JACK, QUEEN, KING, TEN)

# The effects of a card on the trick (rules: "The trick, algorithmically").
LEAD, COVER, KILL, ONE_LOW, TRUMP, SAME_RANK, EIGHT_RULE, FOLLOW, DISCARD = range(9)
EFFECT_NAMES = ("lead", "cover", "kill", "one-lower", "trump", "same-rank", "eight",
                "follow", "discard")


def target(players: int, go: bool) -> int:
    """The points a player must reach: ``44 + 12n`` after "no", 24 fewer after "go"."""
    return 44 + 12 * players - (24 if go else 0)


def trick_value(cards: Sequence[int]) -> int:
    """A trick's value: card points, +17 per King-Queen pair, +11 per Queen-Jack pair of the
    Queens left over, +10 if four or more cards share a suit."""
    ranks = [c % 9 for c in cards]
    kings, queens, jacks = ranks.count(KING), ranks.count(QUEEN), ranks.count(JACK)
    kq = min(kings, queens)
    qj = min(queens - kq, jacks)
    suits = [c // 9 for c in cards]
    flush = any(suits.count(s) >= 4 for s in range(4))
    return sum(POINTS[c] for c in cards) + 17 * kq + 11 * qj + (10 if flush else 0)


class Trick:
    """The trick in progress: the main card and suit, the four slots, the standing card
    after an eight.

    Slots hold ``(card, seat)`` with -1 for empty; slots 2 and 3 also keep the level of their
    card. ``touched``: somebody interrupted the main card (way 4 then needs a slot-4 card to
    chain on). ``main`` is -1 after the eight rule, when ``standing`` holds the trick.
    """

    __slots__ = ("leader", "main", "main_suit", "plays", "s1", "s1_seat", "s2", "s2_lv",
                 "s2_seat", "s3", "s3_lv", "s3_seat", "s4", "s4_seat", "standing",
                 "standing_seat", "touched")

    def __init__(self) -> None:
        self.plays: list[tuple[int, int]] = []
        self.leader = -1
        self.main = -1
        self.main_suit = -1
        self.standing = -1
        self.standing_seat = -1
        self.s1 = self.s1_seat = -1
        self.s2 = self.s2_seat = self.s2_lv = -1
        self.s3 = self.s3_seat = self.s3_lv = -1
        self.s4 = self.s4_seat = -1
        self.touched = False

    def copy(self) -> Trick:
        """An independent copy."""
        other = Trick.__new__(Trick)
        for name in Trick.__slots__:
            setattr(other, name, getattr(self, name))
        other.plays = list(self.plays)
        return other

    def effect(self, seat: int, card: int, levels: Sequence[Sequence[int]],
               main_levels: Sequence[int], holds_main: bool) -> int:
        """What ``card`` played by ``seat`` would do now (changes nothing). ``holds_main``:
        the seat holds a card of the main suit (needed by the eight rule)."""
        if not self.plays:
            return LEAD
        suit, rank = card // 9, card % 9
        if self.main < 0:  # after an eight: only beating the standing card, or another eight
            if suit == self.main_suit:
                return COVER if BEATS[rank][self.standing % 9] else FOLLOW
            return EIGHT_RULE if self._eight_ok(card, levels, main_levels, seat,
                                                holds_main) else DISCARD
        m_rank = self.main % 9
        if suit == self.main_suit:
            if self.s1 >= 0 and BEATS[rank][self.s1 % 9]:
                return COVER if BEATS[rank][m_rank] else KILL
            if self.s1 < 0 and BEATS[rank][m_rank]:
                return COVER
            if self.s4 >= 0:
                if ONE_LOWER[self.s4 % 9] == rank:
                    return ONE_LOW
            elif not self.touched and ONE_LOWER[m_rank] == rank:
                return ONE_LOW
            return FOLLOW
        if rank == EIGHT:
            return EIGHT_RULE if self._eight_ok(card, levels, main_levels, seat,
                                                holds_main) else DISCARD
        lv = levels[seat][suit]
        if (lv > main_levels[self.main_suit] and rank > m_rank and m_rank != EIGHT
                and (self.s2 < 0 or lv > self.s2_lv
                     or (lv == self.s2_lv and rank > self.s2 % 9))):
            return TRUMP
        if rank == m_rank and (self.s3 < 0 or lv >= self.s3_lv):
            return SAME_RANK
        return DISCARD

    def _eight_ok(self, card: int, levels: Sequence[Sequence[int]],
                  main_levels: Sequence[int], seat: int, holds_main: bool) -> bool:
        """The eight rule: an eight of another suit from a seat without the main suit, not of
        a lower trump level than the main suit (variants 3-5; ``main_levels`` is 0 else)."""
        return (card % 9 == EIGHT and not holds_main
                and levels[seat][card // 9] >= main_levels[self.main_suit])

    def play(self, seat: int, card: int, levels: Sequence[Sequence[int]],
             main_levels: Sequence[int], holds_main: bool) -> int:
        """Add ``card`` played by ``seat``; return its effect."""
        eff = self.effect(seat, card, levels, main_levels, holds_main)
        self.plays.append((seat, card))
        if eff == LEAD:
            self.leader, self.main, self.main_suit = seat, card, card // 9
        elif eff == COVER:
            self.touched = True
            if self.main < 0:
                self.standing, self.standing_seat = card, seat
            else:
                self.s1, self.s1_seat = card, seat
        elif eff == KILL:  # the killer does not beat the main card: it stands uncovered again
            self.s1 = self.s1_seat = -1
        elif eff == ONE_LOW:
            self.touched = True
            self.s4, self.s4_seat = card, seat
        elif eff == TRUMP:
            self.touched = True
            self.s2, self.s2_seat, self.s2_lv = card, seat, levels[seat][card // 9]
        elif eff == SAME_RANK:
            self.touched = True
            self.s3, self.s3_seat, self.s3_lv = card, seat, levels[seat][card // 9]
        elif eff == EIGHT_RULE:  # every claim so far is void; the eight stands, its suit leads
            self.main, self.main_suit = -1, card // 9
            self.standing, self.standing_seat = card, seat
            self.s1 = self.s1_seat = self.s2 = self.s2_seat = self.s3 = self.s3_seat = -1
            self.s4 = self.s4_seat = -1
        return eff

    def holder(self) -> int:
        """The seat the trick goes to now: the highest filled slot (1 > 2 > 3 > 4), else the
        main card; after an eight, the standing card."""
        if self.main < 0:
            return self.standing_seat
        for seat in (self.s1_seat, self.s2_seat, self.s3_seat, self.s4_seat):
            if seat >= 0:
                return seat
        return self.leader


# Phases.
BETTING, PLAYING, FINISHED = range(3)


class State:
    """One deal: hands, stock, bets, the trick, points won. ``deck`` index 0 = top.

    ``first_deal``: the lowest diamond leads (else the dealer's left). Bets: -1 not yet,
    0 "no", 1 "go".
    """

    def __init__(self, players: int, dealer: int, deck: Sequence[int],
                 levels: Sequence[Sequence[int]], main_levels: Sequence[int],
                 first_deal: bool = True) -> None:
        self.n = players
        self.dealer = dealer
        self.levels = [list(row) for row in levels]
        self.main_levels = list(main_levels)
        self.hands: list[list[int]] = [[] for _ in range(players)]
        for i in range(4):
            for k in range(players):
                self.hands[(dealer + 1 + k) % players].append(deck[i * players + k])
        self.stock: list[int] = list(deck[4 * players:])
        self.pos = 0  # next card of the stock to draw
        self.bets = [-1] * players
        self.phase = BETTING
        self.to_act = (dealer + 1) % players
        self.first_leader = self._first_leader(first_deal)
        self.trick = Trick()
        self.points = [0] * players
        self.won: list[list[int]] = [[] for _ in range(players)]
        #: Finished tricks: (plays, winner, value).
        self.tricks: list[tuple[list[tuple[int, int]], int, int]] = []

    def _first_leader(self, first_deal: bool) -> int:
        """The lowest diamond's holder in the match's first deal, else the dealer's left."""
        if first_deal:
            held = [(c, s) for s, h in enumerate(self.hands) for c in h if c // 9 == DIAMONDS]
            if held:
                return min(held)[1]
        return (self.dealer + 1) % self.n

    def copy(self) -> State:
        """An independent copy."""
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)
        other.hands = [list(h) for h in self.hands]
        other.stock = list(self.stock)
        other.bets = list(self.bets)
        other.trick = self.trick.copy()
        other.points = list(self.points)
        other.won = [list(w) for w in self.won]
        other.tricks = list(self.tricks)
        return other

    @property
    def stock_left(self) -> int:
        """Cards still in the stock."""
        return len(self.stock) - self.pos

    def holds_main(self, seat: int) -> bool:
        """Whether ``seat`` holds a card of the trick's main suit."""
        ms = self.trick.main_suit
        return self.trick.plays != [] and any(c // 9 == ms for c in self.hands[seat])

    def may_play(self, seat: int, card: int) -> bool:
        """The play rule: the leader anything; others the main suit, an interrupting card, or
        anything when void of the main suit. ``card`` must be in the hand."""
        tr = self.trick
        if not tr.plays or card // 9 == tr.main_suit:
            return True
        holds = self.holds_main(seat)
        if not holds:
            return True
        eff = tr.effect(seat, card, self.levels, self.main_levels, holds)
        return eff in (TRUMP, SAME_RANK)

    def legal_cards(self) -> list[int]:
        """The cards the seat to act may play (sorted), [] outside play."""
        if self.phase != PLAYING:
            return []
        seat = self.to_act
        return sorted(c for c in self.hands[seat] if self.may_play(seat, c))

    def bet(self, go: bool) -> None:
        """The seat to act bets (no checks). After the last bet the first leader leads."""
        self.bets[self.to_act] = 1 if go else 0
        if -1 in self.bets:
            self.to_act = (self.to_act + 1) % self.n
        else:
            self.phase = PLAYING
            self.to_act = self.first_leader

    def play(self, card: int) -> int:
        """The seat to act plays ``card`` (legal: no checks); return its effect. A full trick
        goes to its holder, then everyone draws while the stock has a card per player."""
        seat = self.to_act
        holds = self.holds_main(seat)
        self.hands[seat].remove(card)
        tr = self.trick
        eff = tr.play(seat, card, self.levels, self.main_levels, holds)
        if len(tr.plays) < self.n:
            self.to_act = (seat + 1) % self.n
            return eff
        winner = tr.holder()
        cards = [c for _, c in tr.plays]
        value = trick_value(cards)
        self.points[winner] += value
        self.won[winner].extend(cards)
        self.tricks.append((tr.plays, winner, value))
        self.trick = Trick()
        if self.stock_left >= self.n:
            for k in range(self.n):
                self.hands[(winner + k) % self.n].append(self.stock[self.pos])
                self.pos += 1
        self.to_act = winner
        if not self.hands[winner]:
            self.phase = FINISHED
        return eff

    def bank_changes(self) -> list[int]:
        """Per seat, the change of banks of the finished deal: -1 target reached, +1 a "go"
        missed, 0 a "no" missed."""
        out = []
        for s in range(self.n):
            go = self.bets[s] == 1
            if self.points[s] >= target(self.n, go):
                out.append(-1)
            else:
                out.append(1 if go else 0)
        return out


def trump_levels(variant: int, players: int, suits: Sequence[int]
                 ) -> tuple[list[list[int]], list[int]]:
    """``(levels[seat][suit], main_levels[suit])`` of a trump variant. ``suits``: variant 1,
    each seat's own trump suit; 3, the one trump suit; 4, the two; 2 and 5 ignore it."""
    plain = [0, 0, 0, 0]
    if variant == 1:
        levels = [[1 if s == suits[seat] else 0 for s in range(4)] for seat in range(players)]
        return levels, plain
    if variant == 2:
        return [list(plain) for _ in range(players)], plain
    # 3 and 4: the named suits at level 1; 5: spades senior (2), diamonds junior (1)
    row = [1 if s in suits else 0 for s in range(4)] if variant in (3, 4) else [0, 1, 0, 2]
    return [list(row) for _ in range(players)], list(row)
