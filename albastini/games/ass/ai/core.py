"""What the computer players share: a seat's knowledge read from its view alone, a world
sampled from it for the search, and the greedy choice on a :class:`..kernel.State` (the
greedy player's rule and every rollout's policy).

Nothing here reads a hidden card: :func:`read_view` uses the view's keys only (the seat's own
hand, the trumps, the bets and every card seen played), and the cards it has not seen are
dealt at random to the other hands and the stock by :func:`sample_world`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import kernel as K
from ..kernel import CODE_INT

#: A card's power to win tricks later, by rank (what a player loses by spending it): the
#: six, eight, ten and ace beat most of their suit.
POWER = (3.0, 0.0, 4.0, 0.5, 1.0, 2.0, 2.5, 3.5, 5.0)


@dataclass
class Knowledge:
    """A seat's knowledge: its hand, the trump levels, the trick so far, the unseen cards."""

    seat: int
    players: int
    dealer: int
    hand: list[int]
    levels: list[list[int]]
    main_levels: list[int]
    trick: K.Trick
    unseen: list[int]
    hand_sizes: list[int]
    stock: int
    bets: list[int]
    points: list[int]
    #: None while the first deal's bets hide it (the lowest diamond's holder)
    first_leader: int | None
    betting: bool


def levels_of(view: Mapping[str, Any]) -> tuple[list[list[int]], list[int]]:
    """The kernel's trump levels from the view's ``variant`` and ``trumps``."""
    variant = int(view["variant"])
    trumps = view["trumps"]
    if variant == 1:
        suits = [K.SUITS.index(t[0]) for t in trumps]
    else:
        suits = [K.SUITS.index(s) for s in trumps[0]] if trumps else []
    return K.trump_levels(variant, int(view["players"]), suits)


def read_view(view: Mapping[str, Any]) -> Knowledge:
    """A seat's :class:`Knowledge` from ``Deal.view(seat)`` or ``table_view(deal, seat)``."""
    seat = int(view["seat"])
    levels, main_levels = levels_of(view)
    hand = [K.CODE_INT[c] for c in view["hand"]]
    seen = set(hand)
    points = [0] * int(view["players"])
    for t in view["tricks"]:
        seen.update(K.CODE_INT[c] for _, c in t["plays"])
        points[t["winner"]] += t["points"]
    trick = K.Trick()
    for s, c in view["trick"]["plays"]:
        # a legal eight of another suit means its player held no card of the main suit
        trick.play(int(s), K.CODE_INT[c], levels, main_levels, False)
        seen.add(K.CODE_INT[c])
    return Knowledge(
        seat=seat, players=int(view["players"]), dealer=int(view["dealer"]), hand=hand,
        levels=levels, main_levels=main_levels, trick=trick,
        unseen=[c for c in range(36) if c not in seen],
        hand_sizes=list(view["hand_sizes"]), stock=int(view["stock"]),
        bets=[-1 if b is None else int(b == "go") for b in view["bets"]],
        points=points,
        first_leader=None if view["first_leader"] is None else int(view["first_leader"]),
        betting=view["phase"] == "betting",
    )


def sample_world(k: Knowledge, rng: random.Random) -> K.State:
    """A full kernel state consistent with ``k``: the unseen cards dealt at random to the
    other hands and the stock."""
    cards = list(k.unseen)
    rng.shuffle(cards)
    st = K.State.__new__(K.State)
    st.n, st.dealer = k.players, k.dealer
    st.levels, st.main_levels = k.levels, k.main_levels
    hands: list[list[int]] = []
    for s in range(k.players):
        if s == k.seat:
            hands.append(list(k.hand))
        else:
            hands.append(cards[: k.hand_sizes[s]])
            del cards[: k.hand_sizes[s]]
    st.hands, st.stock, st.pos = hands, cards, 0
    st.bets = list(k.bets)
    st.phase = K.BETTING if k.betting else K.PLAYING
    st.to_act = k.seat
    # unknown during the first deal's bets: the lowest diamond of this sampled world leads
    st.first_leader = (k.first_leader if k.first_leader is not None
                       else st._first_leader(True))
    st.trick = k.trick.copy()
    st.points = list(k.points)
    st.won = [[] for _ in range(k.players)]
    st.tricks = []
    return st


def known_voids(k: Knowledge, tricks: Sequence[Mapping[str, Any]]) -> list[set[int]]:
    """Per seat, the suits it has shown it lacks since the last draw (so for the rest of
    the deal): it discarded, or interrupted with an eight of another suit, on that main
    suit (both are allowed only to a player without it). Read from the public tricks."""
    n = k.players
    last_draw = (36 - 4 * n) // n  # the tricks after which everyone drew
    voids: list[set[int]] = [set() for _ in range(n)]
    played = [[(int(s), K.CODE_INT[c]) for s, c in t["plays"]] for t in tricks[last_draw:]]
    if len(tricks) >= last_draw:
        played.append(list(k.trick.plays))
    for plays in played:
        tr = K.Trick()
        for seat, card in plays:
            main = tr.main_suit
            if tr.play(seat, card, k.levels, k.main_levels, False) in (K.DISCARD,
                                                                         K.EIGHT_RULE):
                voids[seat].add(main)
    return voids


def deal_around_voids(k: Knowledge, voids: Sequence[set[int]], rng: random.Random
                      ) -> K.State:
    """A world for the endgame: :func:`sample_world`, its
    other hands dealt again so that nobody holds a suit it has shown it lacks (the rest to
    the stock; unconstrained if twenty tries find no such deal)."""
    st = sample_world(k, rng)
    others = [s for s in range(k.players) if s != k.seat]
    if not any(voids[s] for s in others):
        return st
    for _ in range(20):
        cards = list(k.unseen)
        rng.shuffle(cards)
        room = {s: k.hand_sizes[s] for s in others}
        hands: dict[int, list[int]] = {s: [] for s in others}
        stock: list[int] = []
        for i, c in enumerate(cards):
            fits = [s for s in others if room[s] > 0 and c // 9 not in voids[s]]
            if len(cards) - i > sum(room.values()):
                fits.append(-1)  # the card left in the stock
            if not fits:
                break
            s = rng.choice(fits)
            if s < 0:
                stock.append(c)
            else:
                hands[s].append(c)
                room[s] -= 1
        else:
            for s in others:
                st.hands[s] = hands[s]
            st.stock, st.pos = stock, 0
            return st
    return st


def holder_after(st: K.State, card: int) -> int:
    """Who holds the trick if the seat to act plays ``card`` now."""
    tr = st.trick.copy()
    seat = st.to_act
    tr.play(seat, card, st.levels, st.main_levels, st.holds_main(seat))
    return tr.holder()


def greedy_card(st: K.State, legal: list[int]) -> int:
    """Take the trick when a card makes this seat its holder and the trick is worth taking
    (the least powerful such card); else give away the card worth least, then weakest. A
    leader leads its weakest card."""
    seat = st.to_act
    if not st.trick.plays:
        return min(legal, key=lambda c: (POWER[c % 9], K.POINTS[c], c))
    winners = [c for c in legal if holder_after(st, c) == seat]
    cards = [c for _, c in st.trick.plays]
    if winners:
        best = min(winners, key=lambda c: (POWER[c % 9], c))
        if K.trick_value([*cards, best]) >= 0:
            return best
    return min(legal, key=lambda c: (K.POINTS[c], POWER[c % 9], c))


#: What a card's later power costs when it is spent, in points of trick per unit of
#: :data:`POWER`, and the share of it charged when the card does not take the trick.
POWER_COST = 8.0
LOSE_SHARE = 0.5


def _takes_over(st: K.State, tr: K.Trick, seat: int) -> bool:
    """Whether ``seat`` holds (in this world) a card that would make it the holder of
    ``tr`` if played now, whatever else follows."""
    holds = any(c // 9 == tr.main_suit for c in st.hands[seat])
    for c in st.hands[seat]:
        eff = tr.effect(seat, c, st.levels, st.main_levels, holds)
        if eff == K.COVER or eff == K.EIGHT_RULE:
            return True
        if eff == K.TRUMP and tr.s1 < 0:
            return True
        if eff == K.SAME_RANK and tr.s1 < 0 and tr.s2 < 0:
            return True
        if eff == K.ONE_LOW and tr.s1 < 0 and tr.s2 < 0 and tr.s3 < 0:
            return True
    return False


def careful_card(st: K.State, legal: list[int]) -> int:
    """A rollout policy closer to how a counting player plays, reading the world's hands:
    a card that would hold the trick is worth the trick (counted for this seat against each
    of the others) only when nobody still to play holds a card that takes it over, and
    spending a card costs its later power (:data:`POWER`); a card that does not hold it
    gives its points away."""
    seat, n = st.to_act, st.n
    base = st.trick
    later = [(seat + i) % n for i in range(1, n - len(base.plays))]
    holds = base.plays != [] and any(c // 9 == base.main_suit for c in st.hands[seat])
    best, best_v = legal[0], -1e9
    for c in legal:
        tr = base.copy()
        tr.play(seat, c, st.levels, st.main_levels, holds)
        worth = K.trick_value([x for _, x in tr.plays])
        cost = POWER_COST * POWER[c % 9]
        if tr.holder() == seat:
            if any(_takes_over(st, tr, s) for s in later):
                v = -worth - cost * (n - 1)
            else:
                v = (worth + 2.0 * len(later) - cost) * (n - 1)
        else:
            v = -worth - LOSE_SHARE * cost * (n - 1)
        if v > best_v or (v == best_v and c < best):
            best, best_v = c, v
    return best


def rollout(st: K.State, careful: bool | Sequence[bool] = False) -> list[int]:
    """Play ``st`` (changed) to the end with :func:`greedy_card` (or :func:`careful_card`)
    everywhere, or per seat when ``careful`` is a list ("no" bets); the points per seat."""
    flags = [careful] * st.n if isinstance(careful, bool) else list(careful)
    policies = [careful_card if f else greedy_card for f in flags]
    while st.phase == K.BETTING:
        st.bet(False)
    while st.phase == K.PLAYING:
        legal = st.legal_cards()
        st.play(legal[0] if len(legal) == 1 else policies[st.to_act](st, legal))
    return st.points


def lookahead_card(st: K.State, legal: list[int]) -> int:
    """A reply that looks one deal ahead, as a searching player's does: each legal card
    played and the world played out once by :func:`rollout`; the card with the best points
    margin (:func:`margin_utility`) for the seat to act. Greedy replies take every trick
    they can, where a searching player keeps a strong card when the rest of the deal pays
    more for it."""
    seat = st.to_act
    best, best_v = legal[0], -1e9
    for c in legal:
        x = st.copy()
        x.play(c)
        v = margin_utility(rollout(x), seat)
        if v > best_v:
            best, best_v = c, v
    return best


def finish_trick(st: K.State, policy: Callable[[K.State, list[int]], int]) -> None:
    """Play the trick in progress in ``st`` (changed) to its end, every seat by ``policy``;
    nothing when no card of a trick is on the table."""
    count = len(st.tricks)
    while st.trick.plays and len(st.tricks) == count and st.phase == K.PLAYING:
        legal = st.legal_cards()
        st.play(legal[0] if len(legal) == 1 else policy(st, legal))


def _sizes_per_trick(players: int, tricks: int) -> list[int]:
    """Each seat's hand size at the start of each of the first ``tricks`` tricks (every seat
    holds as many: all draw after a trick while the stock has a card per player)."""
    size, stock, out = 4, 36 - 4 * players, []
    for _ in range(tricks):
        out.append(size)
        size -= 1
        if stock >= players:
            stock -= players
            size += 1
    return out


#: The share of a seat's plays that :func:`careful_card` is taken to match by chance: a
#: seat whose plays match it more often is played carefully in the rollouts.
CAREFUL_BASE = 0.45


def careful_evidence(view: Mapping[str, Any], rng: random.Random,
                     worlds: int = 4, base: float = CAREFUL_BASE) -> list[float]:
    """Per seat, how far :func:`careful_card` explains the seat's plays so far beyond
    chance: over the played tricks (the current one included), the plays it chose among
    several legal cards that match the careful card, less ``base`` per such play, the mean
    over ``worlds`` sampled worlds (0 for the viewer's own seat). Positive: play the seat
    carefully. A past position is rebuilt from a world sampled now: each seat then held its
    card of that trick and others drawn from what it played later or holds now (the draws
    are not seen, so this is an approximation). The greedy rule explains neither kind of
    player better (a searching player matches it seldom), careful play does."""
    k = read_view(view)
    n = k.players
    history: list[list[tuple[int, int]]] = [
        [(int(s), CODE_INT[c]) for s, c in t["plays"]] for t in view["tricks"]]
    if view["trick"]["plays"]:
        history.append([(int(s), CODE_INT[c]) for s, c in view["trick"]["plays"]])
    score = [0.0] * n
    if not history:
        return score
    sizes = _sizes_per_trick(n, len(history))
    for _ in range(worlds):
        world = sample_world(k, rng)
        # later[q]: the cards seat q plays from trick t on, then its hand now
        later = [list(h) for h in world.hands]
        for t in range(len(history) - 1, -1, -1):
            for q, c in reversed(history[t]):
                later[q].insert(0, c)
            hands: list[list[int]] = []
            for q in range(n):
                own = [c for s, c in history[t] if s == q]
                rest = later[q][len(own):]
                extra = rng.sample(rest, min(len(rest), sizes[t] - len(own)))
                hands.append(own + extra)
            st = world.copy()
            st.phase = K.PLAYING
            st.trick = K.Trick()
            st.hands = hands
            for s, c in history[t]:
                st.to_act = s
                if s != k.seat:
                    legal = st.legal_cards()
                    if len(legal) > 1 and c in legal:
                        score[s] += (c == careful_card(st, legal)) - base
                holds = st.holds_main(s)
                st.hands[s].remove(c)
                st.trick.play(s, c, st.levels, st.main_levels, holds)
    return [v / worlds for v in score]


def margin_utility(points: Sequence[float], seat: int) -> float:
    """What a deal's end is worth to ``seat`` in the search's plain measure: its points less
    the others' mean."""
    n = len(points)
    return points[seat] - (sum(points) - points[seat]) / (n - 1)


def solve_exact(st: K.State, seat: int,
                util: Callable[[Sequence[float], int], float] = margin_utility
                ) -> dict[int, list[float]]:
    """Once nobody draws any more, the end of the world ``st`` played by every seat seeing
    every hand (max-n: each seat picks the card whose best line is worth most to itself by
    ``util(points, seat)``, the lowest card on a tie); per legal card of the seat to act
    (``seat``), the points per seat at the deal's end. Exact where a rollout guesses: worth
    it only in the last few tricks (the tree grows as the product of the hands)."""
    assert st.stock_left < st.n, "exact only once nobody draws"
    n, levels, mains = st.n, st.levels, st.main_levels

    def legal(hand: list[int], tr: K.Trick, s: int) -> tuple[list[int], bool]:
        if not tr.plays:
            return hand, False
        ms = tr.main_suit
        holds = any(c // 9 == ms for c in hand)
        if not holds:
            return hand, False
        out = [c for c in hand if c // 9 == ms
               or tr.effect(s, c, levels, mains, True) in (K.TRUMP, K.SAME_RANK)]
        return out, True

    def after(hands: list[list[int]], tr: K.Trick, pts: list[float], s: int, c: int,
              holds: bool) -> list[float]:
        t2 = tr.copy()
        t2.play(s, c, levels, mains, holds)
        h2 = list(hands)
        h2[s] = [x for x in hands[s] if x != c]
        if len(t2.plays) < n:
            return best(h2, t2, pts, (s + 1) % n)
        w = t2.holder()
        p2 = list(pts)
        p2[w] += K.trick_value([x for _, x in t2.plays])
        if not h2[w]:
            return p2
        return best(h2, K.Trick(), p2, w)

    def forced(hands: list[list[int]], tr: K.Trick, pts: list[float], s: int
               ) -> list[float]:
        # every hand holds one card at most: the rest plays itself (a lone card is legal)
        t2 = tr.copy()
        while len(t2.plays) < n:
            c = hands[s][0]
            t2.play(s, c, levels, mains, c // 9 == t2.main_suit)
            s = (s + 1) % n
        p2 = list(pts)
        p2[t2.holder()] += K.trick_value([x for _, x in t2.plays])
        return p2

    def best(hands: list[list[int]], tr: K.Trick, pts: list[float], s: int) -> list[float]:
        if len(hands[s]) == 1 and all(len(h) <= 1 for h in hands):
            return forced(hands, tr, pts, s)
        cards, holds = legal(hands[s], tr, s)
        if len(cards) == 1:
            return after(hands, tr, pts, s, cards[0], holds)
        top: list[float] = []
        top_u = -1e18
        for c in sorted(cards):
            res = after(hands, tr, pts, s, c, holds)
            u = util(res, s)
            if u > top_u:
                top, top_u = res, u
        return top

    hands = [list(h) for h in st.hands]
    pts = [float(p) for p in st.points]
    cards, holds = legal(hands[seat], st.trick, seat)
    return {c: after(hands, st.trick, pts, seat, c, holds) for c in cards}


def best_own_line(st: K.State, seat: int,
                  util: Callable[[Sequence[float], int], float] = margin_utility
                  ) -> dict[int, list[int]]:
    """Once nobody draws any more: per legal card of ``seat`` (the seat to act), the points
    per seat at the end of the world ``st`` when the other seats play the greedy rule (as in
    a rollout) and ``seat`` plays its later cards by its best line in this world (by
    ``util``). A rollout plays the seat's own later cards greedily too, which undervalues a
    card whose worth is in the cards kept behind it; the others stay the rollout's model."""
    assert st.stock_left < st.n, "only once nobody draws"

    def line(s: K.State) -> list[int]:
        while s.phase == K.PLAYING and s.to_act != seat:
            legal = s.legal_cards()
            s.play(legal[0] if len(legal) == 1 else greedy_card(s, legal))
        if s.phase != K.PLAYING:
            return s.points
        ends = []
        for c in s.legal_cards():
            nxt = s.copy()
            nxt.play(c)
            ends.append(line(nxt))
        return max(ends, key=lambda e: util(e, seat))

    out = {}
    for c in st.legal_cards():
        nxt = st.copy()
        nxt.play(c)
        out[c] = line(nxt)
    return out
