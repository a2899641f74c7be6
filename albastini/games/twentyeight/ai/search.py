"""The search player (``hard``): determinized sampling (PIMC) with rollouts on the kernel, in
every phase of the deal.

Play: each iteration deals the cards this seat cannot see (and, for anyone but the bidder,
the face-down trump card) consistently with everything public (:func:`.core.sample_world`:
voids shown by discards, a call for the trump followed by a non-trump, the suits the bidder
led while the trump was hidden) and weighs the deal by the chance that its hands made the
auction heard (:func:`.infer.world_weight`: a high bidder holds the Jack and Nine of some
suit, the face-down card is of the suit the bidder's first cards favoured); then it scores
every legal action on that same world by playing the deal out with :func:`rollout`, a fast
policy on :class:`..kernel.State` that uses only what each player could know. The action
with the best weighted mean wins: winning the deal first, a little the card points.
Information-set MCTS over the same worlds and rollouts (:mod:`.ismcts`, ``play_search =
"ismcts"``) measured no better against the expert (bench/README.md) and is kept for the
bench only; so is solving the last tricks of each world exactly instead of rolling them out
(:mod:`.solve`, ``exact_tricks``).

Auction: for passing and for the lowest legal bid, deals sampled around its cards (the
other players' first cards weighted by their speeches, the second batch at random) are bid
to the end (the others, and this seat later, by :func:`.infer.hand_value`), the trump card
laid and the deal played out; it makes the speech whose deals its side wins most often.
Trump card: each card of its hand laid face down on such deals. Raising (and Thani): the
full deal sampled as in the play; a raise is made when it wins more game points on average
and is nearly sure (a deal is won or lost whatever its stake). The auction's deals are played
out as the play's; by the careful rule instead, or by both (the lower or the mean of the two),
measured no better against the expert nor normal (bench/README.md, Twenty-Eight round 7), so
only the bench sets it (:attr:`SearchPlayer.auction_rollout`). The speech and the trump card
may count this seat's side as playing a point or so better than the rollouts (its play
searches, theirs follows rules: :attr:`SearchPlayer.auction_edge`, :func:`edged_utility`);
no edge measured better against both opponents, so only the bench sets one.

Defence: the worlds and rollouts of a defender's decisions are those of any other. The
variants tried for it (the bidding side rolled out by the careful rule, the rollout
policy's card while the trump is hidden, more worlds then, worlds whose bidder did not lay
its weakest card weighed down, the partner's plays read) measured no better
(bench/README.md, Twenty-Eight eleventh round), so only the bench sets them
(:attr:`SearchPlayer.defence_rollout`, :attr:`~SearchPlayer.hidden_defence`,
:attr:`~SearchPlayer.hidden_worlds`, :attr:`~SearchPlayer.weaker_face_down`,
:attr:`~SearchPlayer.read_partner`). Reading the opponents' and the partner's plays by
either the careful rule or this player's own rollout policy
(:attr:`~SearchPlayer.read_model`) won a few deals against the expert, none against
normal, and halves the worlds a decision sees (bench/README.md, Twenty-Eight twelfth
round): a bench option too; so is reading only while this seat's side holds the contract
(:attr:`~SearchPlayer.read_when`), which measured level with today's on fresh packs
against both opponents (thirteenth round).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from time import perf_counter
from typing import Any

from .. import kernel as K
from . import ismcts
from .careful import careful_policy
from .core import (
    CODE_INT,
    Knowledge,
    card_key,
    read_view,
    rollout_choices,
    sample_world,
    side_of,
)
from .infer import MARGIN, hand_value, played_by_seat, seat_weight, speeches, world_weight
from .ismcts import side_utilities
from .players import NormalPlayer
from .reads import agreement, play_weight, public_plays
from .solve import EndgameSolver
from .solve import tricks_left as solve_tricks_left

#: Sampled deals behind an auction speech or a trump card when the number of samples is
#: fixed (``iterations``), and the most a timed decision takes.
BID_SAMPLES = 120
MAX_BID_SAMPLES = 2000
#: Tries to draw a world (or a player's first cards) that the auction's weight accepts; the
#: likeliest of them is used when none is.
TRIES = 12
#: A raise (or Thani) needs at least this chance of making it.
RAISE_SURE = 0.85
#: With at most this many tricks left (and no Thani), the play is solved exactly in each
#: sampled world (:mod:`.solve`) instead of rolled out; 0: never. 3 and 4 measured no better
#: against the expert (bench/README.md), so only the bench sets it (``arena.py --exact28``).
EXACT_TRICKS = 0
#: Up to this many tricks left the exact solution counts the card points too (as
#: :func:`utility` does); beyond, only whether the contract is made.
FULL_POINTS_TRICKS = 3
#: Card points in every mode's pack.
PACK_POINTS = 28
#: Card points by which the auction's decisions (the speech, the trump card) count this seat's
#: side as playing better than the rollouts: (as the bidding side, as the defenders). Its own
#: play searches while the rollouts only follow rules, so its contracts are made, and the
#: other side's beaten, more often at the table than in the sampled deals. (0, 0), the
#: rollouts' points as they fall: the edges tried did not win measurably more deals
#: (bench/README.md, Twenty-Eight tenth round), so only the bench sets one (``--edge28``).
AUCTION_EDGE = (0.0, 0.0)
#: What :attr:`SearchPlayer.defence_rollout` may be: the play's rollouts as in any other
#: decision; the bidding side's seats by the careful rule; every seat by it.
DEFENCE_ROLLOUTS = ("fair", "bidder", "all")
#: Worlds in which the others' plays so far are replayed to decide which seats the gated
#: rollout plays by the careful rule (:meth:`SearchPlayer.careful_seats`).
GATE_WORLDS = 8


def policy(st: K.State) -> int:
    """A quick perfect-information action for the rollouts: win the trick as cheaply as
    possible when the other side holds it; add points when a partner holds it and this is
    the last card; call for the trump when void and a trump held would win a trick worth
    it; else the cheapest card. Leads the strongest card when it is a Jack, else cheap."""
    forced, cards, expose = rollout_choices(st)
    if forced is not None:
        return forced
    seat = st.to_act
    if not st.trick:
        top = min(cards)  # within a suit a lower int is stronger; Jacks are 0, 9, 18, 27
        if top % 9 == 0:
            return top
        return min(cards, key=card_key)
    led = [c for _, c in st.trick]
    power = st.trump if st.exposed_in >= 0 else K.NO_POWER
    n = st.n
    winner = K.trick_winner(st.leader, led, power, n)
    mine = side_of(st, seat)
    if side_of(st, winner) == mine:
        if len(led) == n - 1:
            return max(cards, key=card_key)
        return min(cards, key=card_key)
    best = -1
    for c in cards:
        led.append(c)
        if K.trick_winner(st.leader, led, power, n) == seat and (
            best < 0 or card_key(c) < card_key(best)
        ):
            best = c
        led.pop()
    if best >= 0:
        return best
    if expose:
        pts = sum(K.POINTS[c] for c in led)
        holds = seat == st.bidder or st.hands[seat][st.trump]
        if pts >= 2 and holds:
            return K.EXPOSE
    return min(cards, key=card_key)


def can_beat(st: K.State, seat: int, led: int, top: int, power: int) -> bool:
    """Whether ``seat``, still to play to a trick of suit ``led`` whose best card has the win
    key ``top`` (under ``power``), holds a card that beats it: one of the suit led, or void a
    trump (while the trump is hidden: by calling for it, any trump when the trick holds none
    and the suit led is not trumps)."""
    hand = st.hands[seat]
    keys = K.WIN_KEY[power][led]
    if hand[led]:
        return keys[min(hand[led])] > top
    if power != K.NO_POWER:
        return bool(hand[power]) and keys[min(hand[power])] > top
    if st.face_down and led != st.trump:
        return bool(hand[st.trump]) or seat == st.bidder
    return False


def smart_policy(st: K.State) -> int:
    """A stronger perfect-information action for the rollouts: lead a card nobody can beat
    (the most points first), else the cheapest; against the other side, win with the
    cheapest card that no later opponent can beat, else the cheapest winner when the trick
    is worth it, else call for the trump when a trump held would win it; with the trick
    safely its side's, add the most points; else the cheapest card."""
    forced, cards, expose = rollout_choices(st)
    if forced is not None:
        return forced
    seat = st.to_act
    n = st.n
    mine = side_of(st, seat)
    power = st.trump if st.exposed_in >= 0 else K.NO_POWER
    trick = st.trick
    if not trick:
        others = [s for s in range(n) if s != seat and side_of(st, s) != mine]
        best = -1
        for c in cards:
            top = K.WIN_KEY[power][K.SUIT[c]][c]
            if not any(can_beat(st, s, K.SUIT[c], top, power) for s in others) and (
                best < 0 or K.POINTS[c] > K.POINTS[best]
            ):
                best = c
        return best if best >= 0 else min(cards, key=card_key)
    led_suit = K.SUIT[trick[0][1]]
    keys = K.WIN_KEY[power][led_suit]
    top_i = 0
    for i in range(1, len(trick)):
        if keys[trick[i][1]] > keys[trick[top_i][1]]:
            top_i = i
    top = keys[trick[top_i][1]]
    later = [(seat + i) % n for i in range(1, n - len(trick))]
    rivals = [s for s in later if side_of(st, s) != mine]
    if side_of(st, trick[top_i][0]) == mine:
        if not any(can_beat(st, s, led_suit, top, power) for s in rivals):
            return max(cards, key=lambda c: (K.POINTS[c], -K.STRENGTH[c]))
        return min(cards, key=card_key)
    pts = sum(K.POINTS[c] for _, c in trick)
    winners = [c for c in cards if keys[c] > top]
    safe = [c for c in winners
            if not any(can_beat(st, s, led_suit, keys[c], power) for s in rivals)]
    if safe:
        return min(safe, key=card_key)
    if winners and (pts >= 2 or not rivals):
        return min(winners, key=card_key)
    if expose and pts >= 2 and (seat == st.bidder or st.hands[seat][st.trump]):
        return K.EXPOSE
    return min(cards, key=card_key)


def is_master(st: K.State, seat: int, card: int) -> bool:
    """Whether no card of ``card``'s suit above it is still out of ``seat``'s sight: in
    another hand or face down (what ``seat`` can count from the cards played)."""
    suit = K.SUIT[card]
    fd = st.trump_card if st.face_down else -1
    for s in range(st.n):
        if s != seat:
            h = st.hands[s][suit]
            if h and min(h) < card:
                return False
    return not (0 <= fd < card and K.SUIT[fd] == suit)


def fair_policy(st: K.State) -> int:
    """A rollout action from what the player to act could know: its own hand, the cards
    played (so which cards are masters, not who holds the rest) and the trump only if it
    is the bidder or the trump was shown. Leads a master (most points first), else its
    cheapest card; follows as the expert players do: wins with the cheapest master (or any
    winner when last or the trick is worth it), adds points to a trick its side holds with
    a master, asks for the trump when the trick is worth it (the bidder: two points; the
    others three, not knowing whether they hold one)."""
    forced, cards, expose = rollout_choices(st)
    if forced is not None:
        return forced
    seat = st.to_act
    trick = st.trick
    if not trick:
        best = -1
        for c in cards:
            if (best < 0 or K.POINTS[c] > K.POINTS[best]) and is_master(st, seat, c):
                best = c
        return best if best >= 0 else min(cards, key=card_key)
    n = st.n
    power = st.trump if st.exposed_in >= 0 else K.NO_POWER
    keys = K.WIN_KEY[power][K.SUIT[trick[0][1]]]
    top_i = 0
    for i in range(1, len(trick)):
        if keys[trick[i][1]] > keys[trick[top_i][1]]:
            top_i = i
    top_seat, top_card = trick[top_i]
    top = keys[top_card]
    last = len(trick) == n - 1
    mine = side_of(st, seat)
    if side_of(st, top_seat) == mine:
        if last or (is_master(st, seat, top_card)
                    and (power == K.NO_POWER or K.SUIT[top_card] == power)):
            return max(cards, key=lambda c: (K.POINTS[c], -K.STRENGTH[c]))
        return min(cards, key=card_key)
    pts = 0
    for _, c in trick:
        pts += K.POINTS[c]
    best = -1
    for c in cards:
        if keys[c] > top and (last or is_master(st, seat, c) or pts >= 2) and (
            best < 0 or card_key(c) < card_key(best)
        ):
            best = c
    if best >= 0:
        return best
    if expose and pts >= (2 if seat == st.bidder else 3):
        return K.EXPOSE
    return min(cards, key=card_key)


def fair_code(st: K.State) -> str:
    """:func:`fair_policy`'s action in ``st`` as a legal code."""
    action = fair_policy(st)
    return "expose" if action == K.EXPOSE else f"play:{K.CODES[action]}"


def play_with(st: K.State, choose: Callable[[K.State], int]) -> None:
    """Play ``st`` to the end, every seat by ``choose``."""
    while st.phase == K.PLAYING:
        st.apply(choose(st))


def rollout(st: K.State) -> None:
    """Play ``st`` to the end with :data:`ROLLOUT` (:func:`fair_policy` by default)."""
    play_with(st, ROLLOUT[0])


def gated_rollout(careful: int) -> Callable[[K.State], None]:
    """A rollout that plays the seats in the bit mask ``careful`` by
    :func:`.careful.careful_policy` and everyone else by :data:`ROLLOUT`'s policy."""
    base = ROLLOUT[0]
    if not careful:
        return rollout

    def play_out(st: K.State) -> None:
        while st.phase == K.PLAYING:
            st.apply(careful_policy(st) if careful >> st.to_act & 1 else base(st))

    return play_out


#: The rollout policy (a list, so that the bench can swap it): :func:`fair_policy`; the
#: others (:func:`policy`, :func:`smart_policy`, :func:`.careful.careful_policy`) measured no
#: better (bench/README.md; the careful rule with the reading of the play won more deals
#: against the expert and fewer against normal, Twenty-Eight round 5).
ROLLOUT: list[Callable[[K.State], int]] = [fair_policy]

#: The models a play is read by (:attr:`SearchPlayer.read_model`): a play with a choice
#: counts against a world when none of its policies would have made it there. ``"careful"``:
#: the expert's trick rules; ``"fair"``: :func:`fair_policy`, this player's own rollouts
#: (what its partner's search plays out); ``"either"``: a play that either would make.
READ_MODELS: dict[str, tuple[Callable[[K.State], int], ...]] = {
    "careful": (careful_policy,), "fair": (fair_policy,),
    "either": (fair_policy, careful_policy)}

#: When the plays are read (:attr:`SearchPlayer.read_when`): at every decision, or only
#: while this seat's side holds the contract.
READ_WHEN = ("always", "declaring")

#: The rollout policies by name, for the bench (``arena.py --rollout28``).
ROLLOUTS: dict[str, Callable[[K.State], int]] = {
    "fair": fair_policy,
    "careful": careful_policy,
    "smart": smart_policy,
    "policy": policy,
}


def utility(st: K.State, seat: int) -> float:
    """1 when this seat's side won the deal, plus a hundredth per card point of its side
    (a redeal: one half)."""
    return side_utilities(st)[side_of(st, seat)]


def edged_utility(st: K.State, seat: int, edge: tuple[float, float]) -> float:
    """:func:`utility` with the contract judged as if ``seat``'s side had taken ``edge[0]``
    more card points as the bidding side, or the bidder ``edge[1]`` fewer with ``seat`` on
    the defence (a Thani, won only by every trick, as it fell). Card points are whole, so a
    fraction of a point counts the contract missed (or made) by the next whole point as
    that fraction made (or beaten): an edge of 0.5 makes a contract one point short half
    made."""
    ours = side_of(st, seat) == 0
    if st.redeal or st.thani or not (edge[0] or edge[1]):
        return side_utilities(st)[0 if ours else 1]
    # the bidding side's card points (a team's index read as a seat, as side_utilities does)
    pts = sum(p for team, p in enumerate(st.points) if side_of(st, team) == 0)
    shifted = pts + (edge[0] if ours else -edge[1])
    made = min(1.0, max(0.0, shifted - st.contract + 1))
    if ours:
        return made + 0.01 * pts
    return 1.0 - made + 0.01 * (PACK_POINTS - pts)


def lay_card(hand: list[int], players: int) -> int:
    """The model's trump card: the weakest card of the suit :func:`.infer.hand_value`
    favours (the strong ones stay playable)."""
    _, suit = hand_value(hand, players)
    return max(c for c in hand if K.SUIT[c] == suit)


def model_auction(st: K.State, values: list[float]) -> None:
    """Bid ``st`` to the end of the auction, every seat by the model (bid the lowest legal
    bid while its value covers it, see :mod:`.infer`); the bidder lays the model's trump
    card and nobody raises."""
    while st.phase == K.BIDDING:
        low, may_pass = st.bid_floor()
        if low <= 28 and (not may_pass or values[st.to_act] + MARGIN >= low):
            st.apply(K.BID + low)
        else:
            st.apply(K.PASS)
    if st.phase == K.TRUMP_PHASE:
        st.apply(K.TRUMP + lay_card(st.hand(st.bidder), st.n))
    while st.phase == K.RAISING:
        st.apply(K.PASS)


class SearchPlayer(NormalPlayer):
    """Information-set sampling (``hard``). ``time_ms`` bounds each decision (default 200;
    sampling stops once it is spent); ``iterations`` fixes the number of sampled worlds
    instead (deterministic with a seed)."""

    level = "search"
    #: How much more a bid must win than a pass (a share of deals; negative: bid on less).
    BID_EDGE = 0.0
    #: Standard errors behind the best at which an action stops being sampled (0: never).
    PRUNE = 3.0
    #: Pass rather than bid freely without a Jack or a Nine among the cards bid on.
    FREE_BID_NEEDS_HONOUR = False
    #: Bench variants of the trump card (``arena.py --weakest28``, ``--modeltrump28``): search
    #: only the weakest card of each suit, as the table does; or lay the auction model's card
    #: (:func:`lay_card`) without searching. The search's own choice (often a Jack or Nine
    #: face down, which its rollouts make more often) is the default: neither variant won
    #: more deals against the expert.
    TRUMP_WEAKEST = False
    TRUMP_BY_MODEL = False

    def __init__(
        self, seed: int | None = None, time_ms: float = 200, iterations: int | None = None
    ) -> None:
        super().__init__(seed)
        if time_ms <= 0 or (iterations is not None and iterations < 1):
            raise ValueError("time_ms and iterations must be positive")
        self.time_ms = time_ms
        self.iterations = iterations
        self.last_samples = 0
        #: How the play is searched: ``"pimc"`` (one step of search over rollouts per sampled
        #: world, :meth:`evaluate`) or ``"ismcts"`` (:mod:`.ismcts`: measured no better, so
        #: only the bench sets it, ``arena.py --play28``).
        self.play_search = "pimc"
        #: The tree search's UCB1 exploration constant.
        self.explore = ismcts.EXPLORE
        #: Tricks left at which PIMC solves each world exactly (:data:`EXACT_TRICKS`).
        self.exact_tricks = EXACT_TRICKS
        #: Read the opponents' plays (:mod:`.reads`): a sampled world is kept with this to
        #: the power of the number of their plays the careful rule would not have made with
        #: that world's cards (0: not read, the default; the bench's ``--reads28 0.1``).
        self.read_plays = 0.0
        #: The per-seat gate (the bench's ``--rollout28 gated``; None: off, the default): in
        #: the play, another seat is rolled out (and, with :attr:`read_plays`, read) by the
        #: careful rule only when its plays so far in this deal match the careful rule's
        #: choices more often than :data:`ROLLOUT`'s, by more than this share, in worlds
        #: sampled for the decision (:meth:`careful_seats`); the others keep :data:`ROLLOUT`.
        #: Measured no better against the expert nor normal (bench/README.md, Twenty-Eight
        #: round 6), so only the bench sets it.
        self.careful_gate: float | None = None
        #: Whether the gate also weighs this seat's partners (False: only the other side's
        #: seats may be rolled out by the careful rule; the bench's ``--rollout28 gatedopp``).
        self.gate_partners = True
        #: The seats of the last decision's gate (a bit mask), for tests and the bench.
        self.last_careful = 0
        #: How the auction's sampled deals (the speech, the trump card, raising: every
        #: decision before the play) are played out (:meth:`auction_finish`): ``"play"`` as
        #: the play's (:data:`ROLLOUT`, the default); ``"careful"`` by
        #: :func:`.careful.careful_policy`; ``"min"`` and ``"mean"`` each deal twice, by both
        #: policies, scored by the lower or the mean of the two (a speech that holds against
        #: either kind of opponent). The bench's ``arena.py --rollout28 auction|auctionmin|
        #: auctionmean``; see bench/README.md, Twenty-Eight round 7.
        self.auction_rollout = "play"
        #: Card points by which the speech and the trump card count this seat's side as
        #: playing better than the rollouts (:data:`AUCTION_EDGE`; the bench's ``--edge28``).
        self.auction_edge: tuple[float, float] = AUCTION_EDGE
        #: How the play's rollouts are played out when this seat defends
        #: (:data:`DEFENCE_ROLLOUTS`): ``"fair"`` as any other decision (the default);
        #: ``"bidder"`` the bidding side's seats by the careful rule (which declares about
        #: as well as the expert does, the fair policy worse), the defenders by
        #: :data:`ROLLOUT`'s policy; ``"all"`` every seat by the careful rule. ``"bidder"``
        #: measured no better (bench/README.md, Twenty-Eight eleventh round; ``"all"`` was
        #: not run); the bench's ``arena.py --defence28``.
        self.defence_rollout = "fair"
        #: Who decides this seat's defensive leads and follows while the trump is face down:
        #: ``"search"`` (the default) or ``"fair"`` (:func:`fair_policy`'s card, which uses
        #: only what this seat knows; the bench's ``arena.py --hidden28 fair``).
        self.hidden_defence = "search"
        #: The share of the usual worlds (or time) a defender's decision takes while the
        #: trump is face down (1: the same; the bench's ``arena.py --hiddenworlds28``).
        self.hidden_worlds = 1.0
        #: The weight of a world whose bidder laid face down a card stronger than another
        #: of its suit among its first cards (rule players lay their weakest; 1: not weighed,
        #: the default; the bench's ``arena.py --weakfd28``).
        self.weaker_face_down = 1.0
        #: As a defender (two sides), keep a sampled world with this to the power of the
        #: partner's plays so far that the careful rule would not have made holding that
        #: world's cards (0: not read, the default; the bench's ``arena.py --partner28``).
        self.read_partner = 0.0
        #: The model :attr:`read_plays` and :attr:`read_partner` read the plays by
        #: (:data:`READ_MODELS`; the bench's ``arena.py --readmodel28``). With both set, a
        #: defender reads the opponents and the partner together.
        self.read_model = "careful"
        #: When :attr:`read_plays` and :attr:`read_partner` read (:data:`READ_WHEN`):
        #: ``"always"`` (the default) or ``"declaring"``, only while this seat's side holds
        #: the contract (then only the defenders' plays are read); as a defender every world
        #: is sampled as without reading. The bench's ``arena.py --readwhen28``.
        self.read_when = "always"

    def reads_now(self, k: Knowledge) -> bool:
        """Whether this decision reads the plays so far (:attr:`read_when`)."""
        if self.read_when not in READ_WHEN:
            raise ValueError(f"unknown read_when {self.read_when!r}")
        return self.read_when == "always" or k.side(k.seat) == 0

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        start = perf_counter()
        deadline = start + self.time_ms / 1000
        k = read_view(view)
        if k.phase == "bidding":
            return self.bid_by_search(k, legal, deadline)
        if k.phase == "trump":
            return self.trump_by_search(k, legal, deadline)
        if k.phase == "raising":
            return self.raise_by_search(k, legal, deadline)
        actions = [K.EXPOSE if c == "expose" else CODE_INT[c[5:]] for c in legal]
        if self.play_search == "ismcts" and len(actions) > 1:
            # (a fixed budget: as many rollouts as PIMC plays on that many worlds)
            fixed = (self.iterations or 0) * len(actions)
            visits = ismcts.search(ismcts.world_drawer(k, self.rng), actions, self.rng,
                                   self.samples(deadline, fixed, 10**9), rollout, self.explore)
            self.last_samples = sum(visits)
            return legal[max(range(len(actions)), key=lambda i: visits[i])]
        if self.hidden_defence == "fair" and self.rule_decides(k):
            return fair_code(sample_world(k, self.rng))
        worlds = self.iterations
        if self.hidden_worlds != 1.0 and k.side(k.seat) == 1 and k.face_down:
            # a defender's decision while the trump is hidden: more (or fewer) worlds
            deadline = start + self.hidden_worlds * self.time_ms / 1000
            if worlds is not None:
                worlds = max(1, round(worlds * self.hidden_worlds))
        totals = self.evaluate(k, actions, deadline, worlds)
        best = max(range(len(actions)), key=lambda i: totals[i])
        return legal[best]

    def rule_decides(self, k: Knowledge) -> bool:
        """Whether :attr:`hidden_defence` gives this decision to :func:`fair_policy`: this
        seat defends, the trump is still face down, and it leads or can follow suit."""
        if k.side(k.seat) != 1 or not k.face_down or k.thani:
            return False
        if not k.trick:
            return True
        led = K.SUIT[k.trick[0][1]]
        return any(K.SUIT[c] == led for c in k.hand)

    # ----------------------------------------------------------------- sampling
    def auction_finish(self, st: K.State) -> list[K.State]:
        """``st`` (a sampled deal past the auction's decision) played to its end by the
        auction's rollouts (:attr:`auction_rollout`): one finished deal, or with ``"min"`` and
        ``"mean"`` two (a copy played by :data:`ROLLOUT`'s policy, ``st`` by the careful
        rule)."""
        mode = self.auction_rollout
        if mode == "play":
            rollout(st)
            return [st]
        if mode == "careful":
            play_with(st, careful_policy)
            return [st]
        if mode not in ("min", "mean"):
            raise ValueError(f"unknown auction rollout {mode!r}")
        fair = st.copy()
        rollout(fair)
        play_with(st, careful_policy)
        return [fair, st]

    def auction_value(self, seat: int) -> Callable[[K.State], float]:
        """How the speech and the trump card score a sampled deal played out:
        :func:`edged_utility` for ``seat`` with :attr:`auction_edge`."""
        edge = self.auction_edge
        return lambda end: edged_utility(end, seat, edge)

    def auction_score(self, finished: list[K.State], value: Callable[[K.State], float]
                      ) -> float:
        """``value`` of the deals :meth:`auction_finish` played out: the lower with
        ``"min"``, else the mean."""
        if len(finished) == 1:
            return value(finished[0])
        values = [value(st) for st in finished]
        return min(values) if self.auction_rollout == "min" else sum(values) / len(values)

    def samples(self, deadline: float, fixed: int, cap: int) -> Callable[[int], bool]:
        """A test of whether to draw another sample after ``done``: ``fixed`` of them with
        ``iterations`` set, else until ``deadline`` (at least one, at most ``cap``)."""
        if self.iterations is not None:
            return lambda done: done < fixed
        return lambda done: done < 1 or (done < cap and perf_counter() < deadline)

    def first_batch(self, k: Knowledge, said: dict[int, list[tuple[int, int]]]
                    ) -> list[list[int]]:
        """The cards each player bid on (this seat's own; the others' drawn from the unseen
        ones, each kept with the chance that it makes that player's speeches) and, last, the
        rest of the pack in random order (the second batch)."""
        rng = self.rng
        n = k.players
        first, _ = K.deal_schedule(n, k.dealer)
        size = first.count(k.seat)
        mine = set(k.hand)
        pool = [c for c in k.pack if c not in mine]
        rng.shuffle(pool)
        hands: list[list[int]] = [[] for _ in range(n)]
        hands[k.seat] = list(k.hand[:size])
        order = sorted((s for s in range(n) if s != k.seat),
                       key=lambda s: -max((b for b, _ in said.get(s, ())), default=0))
        for seat in order:
            pick: list[int] = []
            best = -1.0
            for _ in range(TRIES if seat in said else 1):
                cand = rng.sample(pool, size)
                w = seat_weight(cand, said.get(seat, ()), n)
                if w > best:
                    pick, best = cand, w
                if rng.random() < w:
                    pick = cand
                    break
            hands[seat] = pick
            taken = set(pick)
            pool = [c for c in pool if c not in taken]
        rng.shuffle(pool)
        hands.append(pool)
        return hands

    def deck_of(self, k: Knowledge, hands: list[list[int]]) -> list[int]:
        """The pack in dealing order that gives each player ``hands[seat]`` first and deals
        ``hands[-1]`` as the second batch."""
        first, second = K.deal_schedule(k.players, k.dealer)
        its = [iter(h) for h in hands[:-1]]
        rest = iter(hands[-1])
        return [next(its[s]) for s in first] + [next(rest) for _ in second]

    # ----------------------------------------------------------------- auction
    def bid_by_search(self, k: Knowledge, legal: list[str], deadline: float) -> str:
        """Pass or the lowest legal bid, whichever wins more of the sampled deals bid to the
        end (the opening forced by the rules is always the lowest bid)."""
        bids = sorted(int(c[4:]) for c in legal if c.startswith("bid:"))
        if "pass" not in legal or not bids:
            return f"bid:{bids[0]}" if bids else "pass"
        if self.FREE_BID_NEEDS_HONOUR and not any(c % 9 <= 1 for c in k.hand):
            return "pass"  # rank position 0 is the Jack, 1 the Nine
        passing, bidding = self.speech_values(k, [K.PASS, K.BID + bids[0]], deadline)
        return f"bid:{bids[0]}" if bidding > passing + self.BID_EDGE else "pass"

    def speech_values(self, k: Knowledge, options: list[int], deadline: float) -> list[float]:
        """The mean utility of each auction action (``K.PASS`` or ``K.BID + n``) over deals
        sampled around this seat's cards, bid to the end by the model and played out."""
        said = speeches(k)
        totals = [0.0] * len(options)
        value = self.auction_value(k.seat)
        more = self.samples(deadline, BID_SAMPLES, MAX_BID_SAMPLES)
        done = 0
        while more(done):
            hands = self.first_batch(k, said)
            values = [hand_value(h, k.players)[0] for h in hands[:-1]]
            base = K.State.new(k.players, k.team_size, k.dealer, self.deck_of(k, hands))
            for _, bid in k.bids:
                base.apply(K.BID + bid if bid else K.PASS)
            for i, action in enumerate(options):
                st = base.copy()
                st.apply(action)
                model_auction(st, values)
                totals[i] += self.auction_score(self.auction_finish(st), value)
            done += 1
        self.last_samples = done
        return [t / done for t in totals]

    def trump_by_search(self, k: Knowledge, legal: list[str], deadline: float) -> str:
        """The card to lay face down whose sampled deals, played out, win most."""
        if self.TRUMP_BY_MODEL:
            return f"trump:{K.CODES[lay_card(list(k.hand), k.players)]}"
        cards = [CODE_INT[c[6:]] for c in legal]
        if self.TRUMP_WEAKEST:
            # a higher card has a lower int: keep the highest int of each suit
            weakest = {K.SUIT[c]: c for c in sorted(cards)}
            legal = [f"trump:{K.CODES[c]}" for c in weakest.values()]
            cards = list(weakest.values())
        said = speeches(k)
        totals = [0.0] * len(cards)
        value = self.auction_value(k.seat)
        more = self.samples(deadline, BID_SAMPLES, MAX_BID_SAMPLES)
        done = 0
        while more(done):
            hands = self.first_batch(k, said)
            base = K.State.new(k.players, k.team_size, k.dealer, self.deck_of(k, hands))
            for _, bid in k.bids:
                base.apply(K.BID + bid if bid else K.PASS)
            for i, card in enumerate(cards):
                st = base.copy()
                st.apply(K.TRUMP + card)
                while st.phase == K.RAISING:
                    st.apply(K.PASS)
                totals[i] += self.auction_score(self.auction_finish(st), value)
            done += 1
        self.last_samples = done
        best = max(range(len(cards)), key=lambda i: (totals[i], -card_key(cards[i])[0]))
        return legal[best]

    def raise_by_search(self, k: Knowledge, legal: list[str], deadline: float) -> str:
        """Raise (to the lowest raise) or declare Thani when, on full deals sampled as in the
        play, it wins more game points on average and is made at least :data:`RAISE_SURE`
        of the time; else pass."""
        options: list[tuple[str, int, bool]] = [("pass", k.contract, False)]
        raises = sorted(int(c[6:]) for c in legal if c.startswith("raise:"))
        if raises:
            options.append((f"raise:{raises[0]}", raises[0], False))
        if "thani" in legal:
            options.append(("thani", k.contract, True))
        if len(options) == 1:
            return "pass"
        made = [0.0] * len(options)
        more = self.samples(deadline, BID_SAMPLES, MAX_BID_SAMPLES)
        done = 0
        said = speeches(k)
        leader = (k.dealer + 1) % k.players
        while more(done):
            world = self.world(k, said)
            for i, (_, contract, thani) in enumerate(options):
                st = world.copy()
                st.contract, st.thani = contract, thani
                st.leader = st.to_act = k.bidder if thani else leader
                made[i] += self.auction_score(self.auction_finish(st),
                                              lambda end: float(end.settlement()[1]))
            done += 1
        self.last_samples = done

        def gain(i: int) -> float:
            _, contract, thani = options[i]
            win, lose = K.game_point_stakes(contract, thani)
            p = made[i] / done
            return p * win - (1 - p) * lose

        best = 0
        for i in range(1, len(options)):
            if made[i] >= RAISE_SURE * done and gain(i) > gain(best):
                best = i
        return options[best][0]

    # ----------------------------------------------------------------- play
    def world(self, k: Knowledge, said: dict[int, list[tuple[int, int]]]) -> K.State:
        """A world for ``k`` (:func:`.core.sample_world`) kept with the chance that its hands
        made the auction heard; the likeliest of :data:`TRIES` when none is kept."""
        best: K.State | None = None
        top = -1.0
        for _ in range(TRIES):
            st = sample_world(k, self.rng)
            w = world_weight(k, st, said, self.rng, weaker=self.weaker_face_down)
            if self.rng.random() < w:
                return st
            if w > top:
                best, top = st, w
        assert best is not None
        return best

    def read_world(self, k: Knowledge, history: list[tuple[int, int]], seats: int = -1
                   ) -> K.State:
        """A world for ``k`` kept with the chance that the others' plays so far
        (``history``, :func:`.reads.public_plays`) were the careful rule's in it
        (:func:`.reads.play_weight` with :attr:`read_plays`, the opponents in the bit mask
        ``seats`` only); the likeliest of :data:`TRIES` when none is kept."""
        models = READ_MODELS[self.read_model]
        return self.kept_world(k, lambda st, stop: play_weight(
            st, k, history, self.read_plays, stop_below=stop, seats=seats, models=models))

    def partner_world(self, k: Knowledge, history: list[tuple[int, int]],
                      opponents: bool = False) -> K.State:
        """A world for ``k`` kept with :attr:`read_partner` to the power of this seat's
        partners' plays so far (``history``, :func:`.reads.public_plays`) that the read
        model (:attr:`read_model`) would not have made in it, and with ``opponents`` times
        :meth:`read_world`'s chance (the opponents' plays, :attr:`read_plays`); the likeliest
        of :data:`TRIES` when none is kept."""
        models = READ_MODELS[self.read_model]
        miss = self.read_plays if opponents else 1.0  # 1: the opponents' plays not read
        return self.kept_world(k, lambda st, stop: play_weight(
            st, k, history, miss, stop_below=stop, models=models,
            partner_miss=self.read_partner))

    def kept_world(self, k: Knowledge, weight: Callable[[K.State, float], float]
                   ) -> K.State:
        """A world sampled for ``k`` and kept with the chance ``weight(world, stop)`` (which
        may stop counting once below ``stop``); the likeliest of :data:`TRIES` when none is
        kept."""
        best: K.State | None = None
        top = -1.0
        for _ in range(TRIES):
            st = sample_world(k, self.rng)
            u = self.rng.random()
            w = weight(st, max(u, top))
            if w >= u:
                return st
            if w > top:
                best, top = st, w
        assert best is not None
        return best

    def careful_seats(self, k: Knowledge, history: list[tuple[int, int]]) -> int:
        """The other seats (a bit mask) whose plays in ``history`` (:func:`.reads.public_plays`)
        the careful rule explains better than :data:`ROLLOUT`'s policy: replayed in
        :data:`GATE_WORLDS` sampled worlds, the share of a seat's choices that
        :func:`.careful.careful_policy` would have made exceeds the base policy's share by
        more than :attr:`careful_gate` (0 when the gate is off). A player who plays as the
        careful rule is then rolled out so; one it does not describe keeps the default."""
        if self.careful_gate is None or not history:
            return 0
        n = k.players
        choices = [0] * n
        careful = [0] * n
        base = [0] * n
        for _ in range(GATE_WORLDS):
            world = sample_world(k, self.rng)
            agreement(world, k, history, choices, careful, ROLLOUT[0], base)
        mask = 0
        for s in range(n):
            if s != k.seat and choices[s] and (
                careful[s] - base[s] > self.careful_gate * choices[s]
            ) and (self.gate_partners or k.side(s) != k.side(k.seat)):
                mask |= 1 << s
        return mask

    def defence_mask(self, k: Knowledge) -> int:
        """The seats (a bit mask) that this seat's defensive rollouts play by the careful
        rule (:attr:`defence_rollout`)."""
        mode = self.defence_rollout
        if mode not in DEFENCE_ROLLOUTS:
            raise ValueError(f"unknown defence rollout {mode!r}")
        mask = 0
        for s in range(k.players):
            if mode == "all" or (mode == "bidder" and k.side(s) == 0):
                mask |= 1 << s
        return mask

    def evaluate(self, k: Knowledge, actions: list[int], deadline: float,
                 worlds: int | None = None) -> list[float]:
        """Mean utility of each action over the sampled worlds, each world weighted by the
        chance that its hands made the auction heard (:func:`.infer.world_weight`). An
        action whose mean falls clearly behind the best (by :data:`PRUNE` standard errors of
        a won-or-lost share) is no longer played out, so the time goes to telling the close
        ones apart. ``worlds``: that many worlds (None: :attr:`iterations`' many, or until
        ``deadline`` without)."""
        totals = [0.0] * len(actions)
        weights = [0.0] * len(actions)
        active = list(range(len(actions)))
        said = speeches(k)
        weigh = bool(said) or (k.face_down and k.seat != k.bidder)
        played = played_by_seat(k)
        plays = (public_plays(k) if self.read_plays or self.read_partner
                 or self.careful_gate is not None else [])
        history = plays if self.read_plays or self.careful_gate is not None else []
        gated = self.careful_seats(k, history)
        self.last_careful = gated
        play_out = gated_rollout(gated) if self.careful_gate is not None else rollout
        if self.defence_rollout != "fair" and k.side(k.seat) == 1:
            play_out = gated_rollout(self.defence_mask(k))
        now = self.reads_now(k)
        if not self.read_plays or (self.careful_gate is not None and not gated) or not now:
            # not read, or the gate reads only the seats it rolls out carefully, or not now
            history = []
        fixed = self.iterations if worlds is None else worlds
        more = (self.samples(deadline, 0, 10**9) if fixed is None
                else lambda done: done < fixed)
        # the Thani and the tricks left are public: every world of this decision is solved
        # exactly, or none is
        exact = (not k.thani
                 and K.MODE_SIZES[(k.players, k.team_size)] - len(k.tricks) <= self.exact_tricks)
        # a defender reads its partner's plays too (and the opponents' unless the gate does)
        partner = bool(self.read_partner and k.side(k.seat) == 1 and k.n_teams == 2
                       and plays and (not history or self.careful_gate is None) and now)
        done = 0
        while more(done):
            if partner:
                world = self.partner_world(k, plays, opponents=bool(history))
            else:
                world = (self.read_world(k, history,
                                         gated if self.careful_gate is not None else -1)
                         if history else sample_world(k, self.rng))
            w = (world_weight(k, world, said, self.rng, played, self.weaker_face_down)
                 if weigh else 1.0)
            done += 1
            if w <= 0.0:
                continue
            if exact:
                values = self.exact_values(world, [actions[i] for i in active], k.seat)
                for i, v in zip(active, values, strict=True):
                    totals[i] += w * v
                    weights[i] += w
            else:
                for i in active:
                    st = world.copy()
                    st.apply(actions[i])
                    play_out(st)
                    totals[i] += w * utility(st, k.seat)
                    weights[i] += w
            if self.PRUNE and len(active) > 1 and done >= 24 and done % 8 == 0:
                means = {i: totals[i] / weights[i] for i in active if weights[i]}
                gap = self.PRUNE * 0.7 / math.sqrt(done)
                top = max(means.values(), default=0.0)
                active = [i for i in active if i not in means or means[i] >= top - gap]
        self.last_samples = done
        return [t / w if w else -1.0 for t, w in zip(totals, weights, strict=True)]

    def exact_values(self, world: K.State, actions: list[int], seat: int) -> list[float]:
        """The utility of each action for ``seat``'s side in ``world`` played out perfectly
        by everyone (:mod:`.solve`): as :func:`utility` with the last tricks exact while at
        most :data:`FULL_POINTS_TRICKS` remain; beyond that whether the contract is made
        only (a null-window search: the points cost several times more)."""
        solver = EndgameSolver(world)
        have = world.points[world.bidder % world.n_teams]
        ours = side_of(world, seat) == 0
        if solve_tricks_left(world) <= FULL_POINTS_TRICKS:
            out = []
            for v in solver.values(actions):
                pts = have + v
                made = pts >= world.contract
                # the pack's other points are the defenders', whatever their teams
                out.append((1.0 if made else 0.0) + 0.01 * pts if ours
                           else (0.0 if made else 1.0) + 0.01 * (PACK_POINTS - pts))
            return out
        wins = solver.values(actions, world.contract - have)
        return [float(m) if ours else 1.0 - m for m in wins]


__all__ = ["DEFENCE_ROLLOUTS", "READ_MODELS", "READ_WHEN", "ROLLOUT", "ROLLOUTS",
           "SearchPlayer", "fair_code", "gated_rollout", "model_auction", "play_with", "policy",
           "rollout", "utility"]

