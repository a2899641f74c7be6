"""The search player (``hard``): determinized sampling (PIMC) with rollouts on the kernel.

Each iteration deals the cards this seat cannot see (and, for anyone but the bidder, the
face-down trump card) consistently with everything public (:func:`.core.sample_world`: voids
shown by discards, a call for the trump followed by a non-trump, the suits the bidder led
while the trump was hidden), then scores every legal action on that same world by playing
the deal out with :func:`rollout`, a fast policy on :class:`..kernel.State` (the kernel's
own legality and trick rule). The action with the best mean wins: winning the deal first,
a little the card points.

In the auction it bids the lowest legal bid when, over deals sampled around its cards (the
unseen cards at random), playing the deal out as the bidder with :func:`rollout` makes that
contract at least half the time. Trump card and raising follow the normal player.
"""

from __future__ import annotations

from collections.abc import Mapping
from time import perf_counter
from typing import Any

from .. import kernel as K
from .core import CODE_INT, Knowledge, card_key, read_view, sample_world
from .players import NormalPlayer, bids_in, trump_code

#: Sampled deals behind a bid, and the chance of making it that a bid needs.
BID_SAMPLES = 120
BID_CHANCE = 0.5


def side_of(st: K.State, seat: int) -> int:
    """0 for the bidding side (3 players: the bidder alone), 1 for the defenders."""
    if st.n_teams == 3:
        return 0 if seat == st.bidder else 1
    return 0 if seat % st.n_teams == st.bidder % st.n_teams else 1


def policy(st: K.State) -> int:
    """A quick perfect-information action for the rollouts: win the trick as cheaply as
    possible when the other side holds it; add points when a partner holds it and this is
    the last card; call for the trump when void and a trump held would win a trick worth
    it; else the cheapest card. Leads the strongest card when it is a Jack, else cheap."""
    cards = st.play_options()
    if len(cards) == 1:
        return cards[0]
    expose = cards[-1] == K.EXPOSE
    if expose:
        cards = cards[:-1]
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


def rollout(st: K.State) -> None:
    """Play ``st`` to the end with :func:`policy`."""
    while st.phase == K.PLAYING:
        st.apply(policy(st))


def utility(st: K.State, seat: int) -> float:
    """1 when this seat's side won the deal, plus a hundredth per card point of its side."""
    _, made, _ = st.settlement()
    mine = side_of(st, seat)
    won = made if mine == 0 else not made
    # (in 3 players each seat is a team: the defenders' points are those of both)
    pts = sum(p for t, p in enumerate(st.points) if side_of(st, t) == mine)
    return (1.0 if won else 0.0) + 0.01 * pts


class SearchPlayer(NormalPlayer):
    """Information-set sampling (``hard``). ``time_ms`` bounds each decision (default 200;
    sampling stops once it is spent); ``iterations`` fixes the number of sampled worlds
    instead (deterministic with a seed)."""

    level = "search"

    def __init__(
        self, seed: int | None = None, time_ms: float = 200, iterations: int | None = None
    ) -> None:
        super().__init__(seed)
        if time_ms <= 0 or (iterations is not None and iterations < 1):
            raise ValueError("time_ms and iterations must be positive")
        self.time_ms = time_ms
        self.iterations = iterations
        self.last_samples = 0

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        if view["phase"] != "playing":
            return super()._choose(view, legal)
        start = perf_counter()
        k = read_view(view)
        actions = [K.EXPOSE if c == "expose" else CODE_INT[c[5:]] for c in legal]
        totals = self.evaluate(k, actions, start + self.time_ms / 1000)
        best = max(range(len(actions)), key=lambda i: totals[i])
        return legal[best]

    def bid(self, k: Knowledge, legal: list[str]) -> str:
        """Bid the lowest legal bid when rollouts of deals sampled around this hand make it
        often enough (as the bidder, trump chosen as the normal player does); the opening
        forced by the rules is always bid."""
        bids = bids_in(legal)
        if not bids or "pass" not in legal:
            return f"bid:{bids[0]}" if bids else "pass"
        chance = self.make_chance(k, bids[0])
        return f"bid:{bids[0]}" if chance >= BID_CHANCE else "pass"

    def make_chance(self, k: Knowledge, contract: int) -> float:
        """The share of sampled deals in which this seat, bidding ``contract``, makes it."""
        n = k.players
        first, _ = K.deal_schedule(n, k.dealer)
        mine = list(k.hand)
        unseen = [c for c in K.pack_ints(n) if c not in set(mine)]
        lay = CODE_INT[trump_code(mine)[6:]]
        made = 0
        for _ in range(BID_SAMPLES):
            self.rng.shuffle(unseen)
            rest = iter(unseen)
            own = iter(mine)
            deck = [next(own) if i < len(first) and first[i] == k.seat else next(rest)
                    for i in range(len(unseen) + len(mine))]
            st = K.State.new(n, k.team_size, k.dealer, deck)
            st.bidder, st.contract, st.high, st.high_seat = k.seat, contract, contract, k.seat
            st.phase, st.to_act = K.TRUMP_PHASE, k.seat
            st.apply(K.TRUMP + lay)
            while st.phase == K.RAISING:
                st.apply(K.PASS)
            rollout(st)
            made += st.settlement()[1]
        return made / BID_SAMPLES

    def evaluate(self, k: Knowledge, actions: list[int], deadline: float) -> list[float]:
        """Summed utility of each action over the sampled worlds."""
        totals = [0.0] * len(actions)
        done = 0
        limit = self.iterations or 10**9
        while done < limit:
            world = sample_world(k, self.rng)
            for i, action in enumerate(actions):
                st = world.copy()
                st.apply(action)
                rollout(st)
                totals[i] += utility(st, k.seat)
            done += 1
            if self.iterations is None and perf_counter() >= deadline:
                break
        self.last_samples = done
        return totals
