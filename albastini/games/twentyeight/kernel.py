"""Twenty-Eight's rules on integer cards: the one copy of every rule.

:class:`State` is the whole deal as a state machine on ints (auction, trump card, raising,
tricks, scoring). :class:`.deal.Deal` wraps one and adds what people need (checks with
sentences, views, card objects); :mod:`.fast` runs it at random for the bench; the computer
players simulate on copies of it. Nothing in those modules restates a rule.

Cards are ints ``suit * 9 + rank position`` (suits C D H S, ranks J 9 A T K Q 8 7 6), so within
a suit a *lower* int is a *stronger* card. Actions are ints too (see ``PASS`` ... ``TRUMP``):
a card int for a play, fixed ints for ``expose``/``pass``/``thani``, and offsets for bids,
raises and the trump card. ``shared/rules/twentyeight.md`` is the authority.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import CARDS as CARD_OBJECTS
from .cards import PACK_RANKS, RANKS, SUITS

__all__ = [
    "BID",
    "BIDDING",
    "EXPOSE",
    "FINISHED",
    "MODE_SIZES",
    "NO_POWER",
    "PASS",
    "PHASES",
    "PLAYING",
    "POINTS",
    "RAISE",
    "RAISING",
    "SUIT",
    "THANI",
    "TRICK_ORDER",
    "TRUMP",
    "TRUMP_PHASE",
    "WIN_KEY",
    "State",
    "auction_end",
    "bid_floor",
    "deal_schedule",
    "game_point_stakes",
    "pack_ints",
    "play_options",
    "raise_floor",
    "settle",
    "trick_winner",
]

# --------------------------------------------------------------------------- cards
N_CARDS = len(CARD_OBJECTS)
CODES: tuple[str, ...] = tuple(c.code for c in CARD_OBJECTS)
POINTS: tuple[int, ...] = tuple(c.points for c in CARD_OBJECTS)
SUIT: tuple[int, ...] = tuple(SUITS.index(c.suit) for c in CARD_OBJECTS)
STRENGTH: tuple[int, ...] = tuple(c.strength for c in CARD_OBJECTS)
#: The "trump" of a trick played while the trump is face down: no suit has power.
NO_POWER = 4
#: The action of calling for the trump (other action ints are defined below; a card int is
#: the action of playing it, so ``EXPOSE`` is the first int after the cards).
EXPOSE = 36


def _win_key(card: int, led_suit: int, power: int) -> int:
    """The rule of a trick as a number: the card with the highest key wins it. A card of the
    suit with power (the exposed trump) beats the rest, higher beating lower; without one the
    highest card of the suit led wins; any other card never wins (key 0)."""
    if SUIT[card] == power:
        return 20 + STRENGTH[card]
    if SUIT[card] == led_suit:
        return 10 + STRENGTH[card]
    return 0


#: ``WIN_KEY[power][led suit][card]``, power a suit 0..3 or ``NO_POWER`` (phase 1).
WIN_KEY: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_win_key(c, led, power) for c in range(N_CARDS)) for led in range(4))
    for power in range(5)
)


def trick_winner(leader: int, cards: Sequence[int], power: int, players: int) -> int:
    """The seat winning a trick led by ``leader`` with ``cards`` in play order (the seats
    follow in order of play). ``power`` is the trump suit when the trump was exposed in this
    trick or before (trumps played to this trick before the exposure count too),
    ``NO_POWER`` otherwise."""
    keys = WIN_KEY[power][SUIT[cards[0]]]
    best = 0
    top = keys[cards[0]]
    for i in range(1, len(cards)):
        if keys[cards[i]] > top:
            top, best = keys[cards[i]], i
    return (leader + best) % players


def pack_ints(players: int) -> tuple[int, ...]:
    """The card ints of a mode's pack, suit by suit, high to low."""
    ranks = PACK_RANKS[players]
    return tuple(s * len(RANKS) + RANKS.index(r) for s in range(4) for r in ranks)


# --------------------------------------------------------------------------- modes, the deal
#: (players, team_size) of the three modes, and how many cards each holds at the end.
MODE_SIZES: dict[tuple[int, int], int] = {(3, 1): 8, (4, 2): 8, (6, 3): 6}


def deal_schedule(players: int, dealer: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Who gets each card of the pack: (seats of the cards dealt before bidding, seats of the
    cards dealt after the trump card is down), by deck index from the top.

    3 and 4 players: one at a time from the dealer's right (seat ``dealer + 1``), four rounds
    before bidding and four after. 6 players: three at a time, two rounds, all before bidding.
    """
    n = players
    seats = [(dealer + 1 + k) % n for k in range(n)]
    if n == 6:
        return tuple(seats[(i % 18) // 3] for i in range(36)), ()
    batch = tuple(seats[i % n] for i in range(4 * n))
    return batch, batch


#: ``TRICK_ORDER[players][leader]``: the seats of a trick in order of play (seat ``s + 1``
#: plays after seat ``s``).
TRICK_ORDER: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple((lead + i) % n for i in range(n)) for lead in range(n)) for n in (3, 4, 6)
}


# --------------------------------------------------------------------------- bidding
def bid_floor(
    players: int, n_teams: int, speech: int, high: int, high_seat: int, seat: int
) -> tuple[int, bool]:
    """(the lowest bid ``seat`` may make, whether it may pass), for the ``speech``-th call of the
    auction (0-based) with ``high`` the highest bid so far (0: none) by ``high_seat``.

    Openings: 4 pairs must open with 14 or more, 6 trios with 16 (no pass); in 3 players the
    first two speakers may open with 12 or pass, the dealer (third) with 14 or pass. Later bids
    must beat the highest; overbidding a teammate needs at least 20. A floor above 28 means
    that only a pass is left.
    """
    if high == 0:
        if players == 3:
            return (12 if speech < 2 else 14), True
        return (14 if players == 4 else 16), speech > 0
    low = high + 1
    if n_teams != players and high_seat % n_teams == seat % n_teams:
        low = max(20, low)
    return low, True


def game_point_stakes(contract: int, thani: bool) -> tuple[int, int]:
    """(game points won when made, lost when failed) for a contract."""
    if thani:
        return 4, 5
    if contract <= 19:
        return 1, 2
    if contract <= 23:
        return 2, 3
    return 3, 4


# --------------------------------------------------------------------------- play
def play_options(
    hand: Sequence[list[int]],
    led_suit: int,
    trump: int,
    face_down: bool,
    is_bidder: bool,
    called: bool,
) -> list[int]:
    """The legal actions of the player to act while playing: cards, and ``EXPOSE`` when it may
    call for the trump. The table "legal actions of the player to act while playing" of the
    rules, in one place.

    ``hand`` is the player's cards by suit (``hand[suit]``; the returned list may be one of
    them: copy it before changing the hand). ``led_suit`` is -1 when leading; ``trump`` the
    trump suit (read only for the bidder while face down, and once exposed); ``face_down``
    whether the trump card still lies face down; ``called`` whether this player has just
    called ``expose`` in this trick (and so must play a trump if it holds one).
    """
    if called:
        if hand[trump]:
            return hand[trump]
    elif led_suit >= 0:
        follow = hand[led_suit]
        if follow:
            return follow
    cards = hand[0] + hand[1] + hand[2] + hand[3]
    if not cards:  # last trick, the face-down card is all the bidder has left
        return [EXPOSE]
    if led_suit < 0:
        if face_down and is_bidder:  # the bidder may not lead a trump while it is hidden
            others = [c for c in cards if SUIT[c] != trump]
            return others or cards
        return cards
    if face_down and not called:  # void in the suit led, trump hidden: may call
        cards.append(EXPOSE)
    return cards


def auction_end(players: int, high: int, passes: int) -> int:
    """After a pass: 0 if the auction goes on, 1 if it is over (``players - 1`` passes in
    succession after the latest bid), 2 for a redeal (3 players: all passed, nobody bid)."""
    if high:
        return 1 if passes == players - 1 else 0
    return 2 if passes == players else 0


def raise_floor(players: int, contract: int) -> int:
    """The lowest raise after the full deal: at least 24 and above the contract (29: none;
    6 trios bid on full hands and never raise)."""
    return 29 if players == 6 else max(24, contract + 1)


def settle(
    n_teams: int,
    bidder: int,
    contract: int,
    thani: bool,
    cot: bool,
    points: Sequence[int],
    winners: Sequence[int],
) -> tuple[list[int], bool, bool]:
    """(game points per team, made, Cot doubled) of a finished deal.

    ``points``: card points per team; ``winners``: the winning seat of each trick. Made: with
    Thani, every trick won by the bidder; otherwise the bidding side's card points at least
    the contract. Base cards are transferred (zero-sum); in 3 players the bidder settles with
    each defender; Cot doubles the stakes when one side won every trick (not under Thani).
    """
    team = bidder % n_teams
    made = all(w == bidder for w in winners) if thani else points[team] >= contract
    win, lose = game_point_stakes(contract, thani)
    doubled = False
    if cot and not thani:
        ours = sum(1 for w in winners if w % n_teams == team)
        doubled = ours in (0, len(winners))
        if doubled:
            win, lose = 2 * win, 2 * lose
    per = win if made else -lose
    if n_teams == 2:
        return [per if t == team else -per for t in range(2)], made, doubled
    return [2 * per if t == team else -per for t in range(n_teams)], made, doubled


# --------------------------------------------------------------------------- actions
PASS = 37
THANI = 38
BID = 100  # BID + n: bid n
RAISE = 200  # RAISE + n: raise to n
TRUMP = 300  # TRUMP + card: lay card face down

BIDDING, TRUMP_PHASE, RAISING, PLAYING, FINISHED = range(5)
PHASES = ("bidding", "trump", "raising", "playing", "finished")


class State:
    """A deal of Twenty-Eight on ints, every card known: ``legal()`` and ``apply(action)``.

    ``apply`` trusts its caller (an action from ``legal()``); :class:`.deal.Deal` checks first.
    Attributes are public and read by the Deal's views and by the computer players:

    ``hands`` (``hands[seat][suit]``: lists of card ints; the face-down card is in none),
    ``phase`` (an index into ``PHASES``), ``to_act`` (-1 once finished), ``bids`` ((seat, bid
    or 0 for a pass)), ``high``/``high_seat`` (the highest bid so far, 0/-1 before one),
    ``bidder``/``contract``, ``raises`` ((seat, N, or 0 for a pass, or -1 for Thani)),
    ``trump``/``trump_card`` (-1 until laid), ``face_down``, ``exposed_by``/``exposed_in``
    (-1 until exposed), ``called`` (the player to act has just called for the trump),
    ``leader``, ``trick`` ((seat, card) pairs), ``tricks`` ((leader, plays, winner, points)),
    ``points`` per team, ``redeal``.
    """

    __slots__ = (
        "bidder", "bids", "called", "contract", "cot", "dealer", "deck", "exposed_by",
        "exposed_in", "face_down", "hands", "high", "high_seat", "leader", "n", "n_teams",
        "passes", "phase", "points", "raise_queue", "raises", "redeal", "second", "team_size",
        "thani", "thani_option", "to_act", "total_tricks", "trick", "tricks", "trump",
        "trump_card",
    )

    n: int
    team_size: int
    n_teams: int
    dealer: int
    thani_option: bool
    cot: bool
    deck: tuple[int, ...]
    second: tuple[int, ...]
    hands: list[list[list[int]]]
    phase: int
    to_act: int
    bids: list[tuple[int, int]]
    high: int
    high_seat: int
    passes: int
    bidder: int
    contract: int
    raises: list[tuple[int, int]]
    raise_queue: list[int]
    thani: bool
    trump: int
    trump_card: int
    face_down: bool
    exposed_by: int
    exposed_in: int
    called: bool
    leader: int
    trick: list[tuple[int, int]]
    tricks: list[tuple[int, tuple[tuple[int, int], ...], int, int]]
    points: list[int]
    total_tricks: int
    redeal: bool

    @classmethod
    def new(
        cls,
        players: int,
        team_size: int,
        dealer: int,
        deck: Sequence[int],
        thani: bool = False,
        cot: bool = False,
    ) -> State:
        """A deal dealt from ``deck`` (card ints, index 0 = top, exactly the mode's pack; not
        checked here), in phase bidding."""
        s = cls()
        n = players
        s.n = n
        s.team_size = team_size
        s.n_teams = n // team_size
        s.dealer = dealer
        s.thani_option = thani
        s.cot = cot
        s.deck = tuple(deck)
        first, s.second = deal_schedule(n, dealer)
        s.hands = [[[], [], [], []] for _ in range(n)]
        for card, seat in zip(s.deck, first, strict=False):
            s.hands[seat][SUIT[card]].append(card)
        s.phase = BIDDING
        s.to_act = (dealer + 1) % n
        s.bids = []
        s.high = 0
        s.high_seat = -1
        s.passes = 0
        s.bidder = -1
        s.contract = 0
        s.raises = []
        s.raise_queue = []
        s.thani = False
        s.trump = -1
        s.trump_card = -1
        s.face_down = False
        s.exposed_by = -1
        s.exposed_in = -1
        s.called = False
        s.leader = -1
        s.trick = []
        s.tricks = []
        s.points = [0] * s.n_teams
        s.total_tricks = MODE_SIZES[(n, team_size)]
        s.redeal = False
        return s

    def copy(self) -> State:
        """An independent copy (lists copied, tuples shared)."""
        o = State.__new__(State)
        for name in State.__slots__:
            setattr(o, name, getattr(self, name))
        o.hands = [[list(b) for b in h] for h in self.hands]
        o.bids = list(self.bids)
        o.raises = list(self.raises)
        o.raise_queue = list(self.raise_queue)
        o.trick = list(self.trick)
        o.tricks = list(self.tricks)
        o.points = list(self.points)
        return o

    # ----------------------------------------------------------------- queries
    def hand(self, seat: int) -> list[int]:
        """The cards ``seat`` holds, suit by suit."""
        h = self.hands[seat]
        return h[0] + h[1] + h[2] + h[3]

    def bid_floor(self) -> tuple[int, bool]:
        """:func:`bid_floor` for the seat to act now."""
        return bid_floor(
            self.n, self.n_teams, len(self.bids), self.high, self.high_seat, self.to_act
        )

    def play_options(self) -> list[int]:
        """:func:`play_options` for the seat to act."""
        seat = self.to_act
        return play_options(
            self.hands[seat],
            SUIT[self.trick[0][1]] if self.trick else -1,
            self.trump,
            self.face_down,
            seat == self.bidder,
            self.called,
        )

    def legal(self) -> list[int]:
        """Every legal action (ints) of the seat to act; [] once finished."""
        phase = self.phase
        if phase == PLAYING:
            return list(self.play_options())
        if phase == BIDDING:
            low, may_pass = self.bid_floor()
            out = [BID + b for b in range(low, 29)]
            return [*out, PASS] if may_pass else out
        if phase == TRUMP_PHASE:
            return [TRUMP + c for c in self.hand(self.to_act)]
        if phase == RAISING:
            out = [RAISE + b for b in range(raise_floor(self.n, self.contract), 29)]
            if self.thani_option and self.to_act == self.bidder:
                out.append(THANI)
            return [*out, PASS]
        return []

    # ----------------------------------------------------------------- changes
    def apply(self, action: int) -> None:
        """Carry out a legal action of the seat to act."""
        if self.phase == PLAYING:
            if action == EXPOSE:
                self.expose()
            else:
                self.play(action)
        elif self.phase == BIDDING:
            self._bid(action - BID if action != PASS else 0)
        elif self.phase == TRUMP_PHASE:
            self._lay_trump(action - TRUMP)
        else:
            self._raise(action)

    def _bid(self, bid: int) -> None:
        seat = self.to_act
        self.bids.append((seat, bid))
        if bid:
            self.high, self.high_seat, self.passes = bid, seat, 0
        else:
            self.passes += 1
            end = auction_end(self.n, self.high, self.passes)
            if end == 2:
                self.redeal = True
                self._finish()
                return
            if end == 1:
                self.bidder, self.contract = self.high_seat, self.high
                self.phase = TRUMP_PHASE
                self.to_act = self.bidder
                return
        self.to_act = (seat + 1) % self.n

    def _lay_trump(self, card: int) -> None:
        self.hands[self.bidder][SUIT[card]].remove(card)
        self.trump_card = card
        self.trump = SUIT[card]
        self.face_down = True
        base = len(self.deck) - len(self.second)
        for card2, seat in zip(self.deck[base:], self.second, strict=True):
            self.hands[seat][SUIT[card2]].append(card2)
        # the raising phase: the bidder, then the partner (4 pairs); in 6 trios only a Thani
        queue = [self.bidder]
        if self.n == 4:
            queue.append((self.bidder + 2) % 4)
        self.raise_queue = queue
        self.phase = RAISING
        self._next_speaker()

    def _next_speaker(self) -> None:
        """The next member of the bidding side with a choice in the raising phase, or play."""
        while self.raise_queue:
            seat = self.raise_queue.pop(0)
            if raise_floor(self.n, self.contract) <= 28 or (
                self.thani_option and seat == self.bidder
            ):
                self.to_act = seat
                return
        self.phase = PLAYING
        self.leader = self.bidder if self.thani else (self.dealer + 1) % self.n
        self.to_act = self.leader

    def _raise(self, action: int) -> None:
        seat = self.to_act
        if action == THANI:
            self.raises.append((seat, -1))
            self.thani = True
            self.raise_queue = []  # a Thani ends the raising phase
        elif action == PASS:
            self.raises.append((seat, 0))
        else:
            self.contract = action - RAISE
            self.raises.append((seat, self.contract))
        self._next_speaker()

    def expose(self) -> None:
        """The player to act calls for the trump (or the bidder shows it): it joins the
        bidder's hand, and this trick is a phase-2 trick."""
        card = self.trump_card
        self.hands[self.bidder][SUIT[card]].append(card)
        self.face_down = False
        self.exposed_by = self.to_act
        self.exposed_in = len(self.tricks)
        self.called = True

    def play(self, card: int) -> None:
        """The player to act plays ``card``; a full trick goes to its winner, who leads."""
        seat = self.to_act
        self.hands[seat][SUIT[card]].remove(card)
        self.called = False
        trick = self.trick
        trick.append((seat, card))
        if len(trick) < self.n:
            self.to_act = (seat + 1) % self.n
            return
        power = NO_POWER if self.exposed_in < 0 else self.trump
        winner = trick_winner(self.leader, [c for _, c in trick], power, self.n)
        pts = 0
        for _, c in trick:
            pts += POINTS[c]
        self.tricks.append((self.leader, tuple(trick), winner, pts))
        self.points[winner % self.n_teams] += pts
        self.trick = []
        if len(self.tricks) == self.total_tricks:
            self._finish()
        else:
            self.leader = self.to_act = winner

    def _finish(self) -> None:
        self.phase = FINISHED
        self.to_act = -1
        self.leader = -1

    # ----------------------------------------------------------------- scoring
    def bidding_team(self) -> int:
        """The bidder's team (-1 before the auction ends)."""
        return self.bidder % self.n_teams if self.bidder >= 0 else -1

    def settlement(self) -> tuple[list[int], bool, bool]:
        """:func:`settle` of this finished deal: (game points, made, Cot doubled)."""
        if self.redeal:
            return [0] * self.n_teams, False, False
        winners = [t[2] for t in self.tricks]
        return settle(
            self.n_teams, self.bidder, self.contract, self.thani, self.cot, self.points, winners
        )

    def winner(self) -> int | None:
        """The winning team of a finished deal: the bidding team when made, otherwise the
        other team (two teams) or None (3 players: the defenders together; and a redeal)."""
        if self.redeal:
            return None
        if self.settlement()[1]:
            return self.bidding_team()
        return 1 - self.bidding_team() if self.n_teams == 2 else None
