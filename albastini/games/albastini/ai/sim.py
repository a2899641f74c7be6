"""Search helpers on :class:`..fast.FastDeal`: a fast greedy rollout and an exact
alpha-beta solver for endgames with nothing left to draw.

Both read the state's public details (``hands``, ``stock``, ``pos``, ``current``, ``eaten``),
which ``FastDeal`` documents for readers like these.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from time import perf_counter

from ..fast import FastDeal
from ..kernel import CARDS, POINTS, STRENGTH, SUIT, WIN_KEY, beats, draw, draws, winner_of
from .core import cheap_key, utility, win_key


def _ranks(key: Callable[[int, int], tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
    """``table[trump][card]``: the place of ``key(card, trump)`` among the keys of the pack,
    equal keys at the same place, so an int comparison orders cards as ``key`` does."""
    table = []
    for trump in range(4):
        keys = [key(c, trump) for c in range(CARDS)]
        place = {k: i for i, k in enumerate(sorted(set(keys)))}
        table.append(tuple(place[k] for k in keys))
    return tuple(table)


#: ``CHEAP[trump][card]``: the greedy order for leading and throwing (``core.cheap_key``).
CHEAP = _ranks(cheap_key)
#: ``WINNER[trump][card]``: the greedy order among winning cards (``core.win_key``).
WINNER = _ranks(win_key)


def greedy_rollout(st: FastDeal) -> list[int]:
    """Play ``st`` to the end with the greedy rule for every seat (see ``core.greedy_card``);
    ``st`` changes. Returns the card points per team."""
    if st.finished:
        return st.eaten[:]
    n = st.players
    teams = st.teams
    trump = st.trump
    hands = st.hands
    stock = st.stock
    pos = st.pos
    eaten = st.eaten
    by_lead = WIN_KEY[trump]
    cheap = CHEAP[trump].__getitem__
    wkey = WINNER[trump]
    cur = st.current
    count = len(cur)
    seat = st.to_act
    keys = by_lead[0]
    best_seat = pts = bk = 0
    if count:
        keys = by_lead[cur[0][1]]
        best_seat, best = winner_of(cur, trump)
        bk = keys[best]
        pts = sum(POINTS[c] for _, c in cur)
    while True:
        hand = hands[seat]
        if count == 0:
            card = min(hand, key=cheap)
            keys = by_lead[card]
            bk = keys[card]
            best_seat = seat
            pts = POINTS[card]
        else:
            card = -1
            if pts and best_seat % teams != seat % teams:
                top = 1 << 30
                for x in hand:
                    if keys[x] > bk and wkey[x] < top:
                        card, top = x, wkey[x]
            if card < 0:
                card = min(hand, key=cheap)
            if keys[card] > bk:
                bk, best_seat = keys[card], seat
            pts += POINTS[card]
        hand.remove(card)
        count += 1
        if count < n:
            seat = seat + 1 if seat + 1 < n else 0
            continue
        eaten[best_seat % teams] += pts
        count = 0
        seat = best_seat
        pos = draw(hands, stock, pos, seat)
        if not hands[seat]:
            break
    return st.ended(pos, seat)


def round_state(st: FastDeal) -> tuple[int, int, int]:
    """(card winning the round in progress, its seat, points in it); (-1, -1, 0) when empty."""
    cur = st.current
    if not cur:
        return -1, -1, 0
    best_seat, best = winner_of(cur, st.trump)
    return best, best_seat, sum(POINTS[c] for _, c in cur)


# --------------------------------------------------------------------------- exact search
class Budget(Exception):
    """Raised when a solve runs past its node budget."""


def solve(
    sim: FastDeal,
    team: int,
    max_nodes: int = 200_000,
    deadline: float | None = None,
    need_all: bool = True,
) -> dict[int, float]:
    """Exact value (``core.utility`` for ``team``) of each legal card of the seat to act once
    nothing is left to draw, all seats playing perfectly: ``team``'s seats maximise, everyone
    else minimises (for more than two sides, a paranoid assumption).

    With ``need_all=False`` only the best card's value is exact; the others are upper bounds
    (enough to pick the best). Raises :class:`Budget` past ``max_nodes`` nodes or past
    ``deadline`` (a ``time.perf_counter()`` value), and ValueError if cards remain to draw.
    """
    n = sim.players
    if draws(len(sim.stock) - sim.pos, n):
        raise ValueError("solve() needs a deal with nothing left to draw")
    teams = sim.teams
    team_size = sim.team_size
    trump = sim.trump
    hands = [list(h) for h in sim.hands]
    eaten = list(sim.eaten)
    table: dict[tuple[object, ...], tuple[float, int]] = {}
    nodes = 0

    owner = [-1] * CARDS
    for seat_, h in enumerate(hands):
        for c in h:
            owner[c] = seat_

    def ordered(hand: list[int], seat: int, best: int) -> list[int]:
        """Moves with interchangeable low cards dropped, a likely good one first."""
        moves: list[int] = []
        for c in sorted(hand, reverse=True):  # lowest rank first within a suit
            if POINTS[c] == 0 and moves:
                prev = moves[-1]
                if SUIT[prev] == SUIT[c] and POINTS[prev] == 0:
                    for x in range(c + 1, prev):
                        if owner[x] >= 0 and owner[x] != seat:
                            break
                    else:
                        continue
            moves.append(c)
        if best >= 0:
            # the cards that beat ``best`` first (``kernel.beats``, read from its table here:
            # this sort runs at every node of the search)
            keys = WIN_KEY[trump][best]
            top = keys[best]
            moves.sort(key=lambda c: (keys[c] <= top, POINTS[c]))
        else:
            moves.sort(key=lambda c: cheap_key(c, trump))
        return moves

    def node(seat: int, cur: int, best: int, best_seat: int, pot: int, a: float, b: float) -> float:
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes:
            raise Budget
        if deadline is not None and not nodes & 255 and perf_counter() > deadline:
            raise Budget
        hand = hands[seat]
        if not hand:
            return utility(eaten, team, team_size)
        key: tuple[object, ...] | None = None
        a0, b0 = a, b
        if cur == 0:
            key = (seat, *eaten, *(tuple(sorted(h)) for h in hands))
            hit = table.get(key)
            if hit is not None:
                v, flag = hit
                if flag == 0:
                    return v
                if flag > 0:
                    a = max(a, v)
                else:
                    b = min(b, v)
                if a >= b:
                    return v
        maxing = seat % teams == team
        v = -9.0 if maxing else 9.0
        for m in ordered(hand, seat, best):
            w = after(seat, m, cur, best, best_seat, pot, a, b)
            if maxing:
                if w > v:
                    v = w
                if v > a:
                    a = v
            else:
                if w < v:
                    v = w
                if v < b:
                    b = v
            if a >= b:
                break
        if key is not None:
            flag = 0
            if v <= a0:
                flag = -1  # an upper bound
            elif v >= b0:
                flag = 1  # a lower bound
            table[key] = (v, flag)
        return v

    def after(
        seat: int, m: int, cur: int, best: int, best_seat: int, pot: int, a: float, b: float
    ) -> float:
        """The value once ``seat`` plays ``m`` into the round (``cur`` cards down, ``best``
        of ``best_seat`` winning it, ``pot`` points in it); the state is restored after."""
        hand = hands[seat]
        hand.remove(m)
        owner[m] = -1
        if cur == 0 or beats(m, best, trump):
            best, best_seat = m, seat
        pot += POINTS[m]
        if cur + 1 == n:  # the round's winner eats it and leads the next
            t = best_seat % teams
            eaten[t] += pot
            w = node(best_seat, 0, -1, -1, 0, a, b)
            eaten[t] -= pot
        else:
            w = node(seat + 1 if seat + 1 < n else 0, cur + 1, best, best_seat, pot, a, b)
        hand.append(m)
        owner[m] = seat
        return w

    seat = sim.to_act
    cur = len(sim.current)
    best, best_seat, pot = round_state(sim)
    values: dict[int, float] = {}
    maxing = seat % teams == team
    bound = -9.0
    for m in sorted(set(hands[seat]), key=lambda c: cheap_key(c, trump)):
        lo = bound if (maxing and not need_all) else -9.0
        values[m] = after(seat, m, cur, best, best_seat, pot, lo, 9.0)
        bound = max(bound, values[m])
    return values


def solve_size(hand_sizes: Sequence[int], stock_left: int) -> float:
    """A rough count of the plays an exact solve explores (product of hand-size factorials)."""
    if stock_left:
        return float("inf")
    size = 1.0
    for h in hand_sizes:
        for k in range(2, h + 1):
            size *= k
    return size


# --------------------------------------------------------------------------- policy rollout
#: ``TRUMP_POWER[card]``: the heuristic's power of holding a trump (``heuristic.keep_value``
#: before its adjustments), by card.
_POWER = tuple(3.0 + 0.6 * STRENGTH[c] for c in range(CARDS))


def policy_rollout(st: FastDeal) -> list[int]:
    """Play ``st`` to the end with the normal player's rule for every seat, on the sampled
    deal (so each seat knows who holds what, not the stock order); ``st`` changes. Returns
    the card points per team.

    Greedy rollouts spend a trump on any round with points in it and lead whatever is
    cheapest, which is not how the players the search meets play: heads-up, PIMC with them
    scored no better than the normal player. This is ``heuristic.heuristic_card`` with its
    chances made certain: a card that would win the round is worth +stake if no opponent
    still to play holds a card that beats it, else -stake (a zero-point lead 0); a winning
    partner's round likewise; a lost round -stake; a trump is worth keeping (its points and a
    power that grows with rank, more when no higher trump is left, less with many trumps).
    """
    return _rollout(st, False)


def expert_rollout(st: FastDeal) -> list[int]:
    """:func:`policy_rollout` with the expert's last-draw rule (``terms.face_up_term``) made
    certain; ``st`` changes. Returns the card points per team.

    In two pairs (4 players), in the round before the last draw each card is credited, if
    its side wins the round, the worth in hand (``terms.worth_in_hand``) of the stock's other
    cards (on average) less that of the face-up trump the losers draw, and charged as much if
    it loses the round: it measured ahead there (bench/README.md, issue 29). Otherwise it is
    :func:`policy_rollout`: heads-up the face-up rule and the expert's lead charge, in
    rollouts, lost to normal (0.546 and 0.560 where normal's rule gave 0.661 on the same
    packs), and two trios were not measured.
    """
    return _rollout(st, st.players == 4 and st.teams == 2)


def team_rollout(st: FastDeal) -> list[int]:
    """:func:`expert_rollout` where a follower also counts the partners still to play in the
    round: a round an opponent holds is the side's when a partner after this seat holds a
    card that beats it and every card the opponents after may add, so the follower loads it
    with points (and a card that an opponent after could beat is safe when the partner could
    beat that too). Normal's rule, and the expert's, count only the opponents still to play,
    so they throw their cheapest card on an opponent's round their partner is about to win.
    ``st`` changes. Returns the card points per team."""
    return _rollout(st, st.players == 4 and st.teams == 2, team=True)


def side_rollout(st: FastDeal, side: int) -> list[int]:
    """:func:`team_rollout` for side ``side``'s seats only, :func:`expert_rollout` for the
    others: the searching seat's side plays as the search does (it sees what a partner after
    it takes back), the opponents by the rules they are expected to play by. ``st`` changes.
    Returns the card points per team."""
    return _rollout(st, st.players == 4 and st.teams == 2, team=True, side=side)


def rival_rollout(st: FastDeal, rival: int) -> list[int]:
    """Heads-up, :func:`policy_rollout` where seat ``rival`` (the searching seat's opponent)
    plays the expert's rules made certain, the searching seat normal's rule; ``st`` changes.

    The rival's plain lead is charged the most points the follower banks on it with a higher
    card of its suit (``terms.lead_term`` made certain), and in the round before the last
    draw each of its cards weighs who draws the face-up trump (``terms.face_up_term``): the
    opponent the search meets most is expected to play so, while its own side's rollout
    keeps the rule that measured best for it (bench/README.md, issue 29, fifth round).
    """
    return _rollout(st, False, rival)


def policy_card(st: FastDeal, rival: int = -1) -> int:
    """The card :func:`policy_rollout` (with ``rival``: :func:`rival_rollout`) plays for the
    seat to act in ``st``, which does not change (the round is played out on a copy: the card
    is the one of the seat's hand the copy no longer holds)."""
    seat = st.to_act
    before = st.hands[seat]
    c = st.copy()
    _rollout(c, False, rival, 1)
    after = c.hands[seat]
    for card in before:
        if card not in after:
            return card
    raise AssertionError("the rollout played no card for the seat to act")


def horizon_rollout(st: FastDeal, rounds: int) -> list[float]:
    """:func:`policy_rollout` stopped once ``rounds`` rounds are over (the one in progress
    counts), and the draw after the last: each side's card points eaten plus what the cards
    in its hands are worth to hold (``terms.worth_in_hand``: a trump its points and power, a
    plain card half its points). ``st`` changes. A short look ahead scored in card points,
    where a played-out deal is scored by who wins it, a noisier signal."""
    eaten = _rollout(st, False, -1, rounds)
    worth = _WORTH[st.trump]
    values = [float(p) for p in eaten]
    for seat, hand in enumerate(st.hands):
        values[seat % st.teams] += sum(worth[c] for c in hand)
    return values


def _rollout(st: FastDeal, face: bool, rival: int = -1, rounds: int = 0,
             team: bool = False, side: int = -1) -> list[int]:
    """The rollout of :func:`policy_rollout`; ``face``: weigh the face-up trump at the last
    draw (:func:`expert_rollout`); ``rival``: the seat that plays the expert's heads-up rules
    (:func:`rival_rollout`), -1 for none; ``rounds``: stop after that many rounds (0: play
    the deal out), ``st`` left at the next round's lead (:func:`horizon_rollout`); ``team``:
    a follower counts its partners still to play (:func:`team_rollout`), only on side
    ``side`` if it is not -1.

    Each hand is also kept as a bit set (``masks``), so what the seats still to play hold
    (their best card of a suit, whether one beats a card) is a few int operations on the
    union of their sets and a table, not a walk through their cards."""
    if st.finished:
        return st.eaten[:]
    n = st.players
    teams = st.teams
    trump = st.trump
    hands = st.hands
    stock = st.stock
    pos = st.pos
    eaten = st.eaten
    by_lead = WIN_KEY[trump]
    points = POINTS
    bit = _BIT
    top9 = _TOP9
    beat = _BEAT[trump]
    higher = _HIGHER
    ckr = _CK_RANK[trump]
    pens = _PEN[trump]
    pop9 = _POP9
    suit = SUIT
    tsh = 9 * trump
    size = len(stock)
    after = _AFTER[n, teams]
    cur = st.current
    count = len(cur)
    seat = st.to_act
    masks = [0] * n
    for s, h in enumerate(hands):
        m = 0
        for c in h:
            m |= bit[c]
        masks[s] = m
    # cards not yet played, in hands or the stock, as a bit set
    alive = 0
    for m in masks:
        alive |= m
    for c in stock[pos:]:
        alive |= bit[c]
    keys = by_lead[0]
    lsh = 0  # the suit led, as the shift of its bits
    best_seat = best = pts = 0
    if count:
        keys = by_lead[cur[0][1]]
        lsh = 9 * SUIT[cur[0][1]]
        best_seat, best = winner_of(cur, trump)
        pts = sum(points[c] for _, c in cur)
    worth = _WORTH[trump]
    # the last draw with two sides (``terms.face_up_term`` made certain): the round's losers
    # draw the face-up trump, its winners the stock's other cards
    face = face and teams == 2
    while True:
        hand = hands[seat]
        mine = masks[seat]
        card = hand[0]
        # with one card there is nothing to price
        if len(hand) > 1:
            my_team = seat % teams
            # what the opponents still to play this round hold (``opp``), as one bit set
            opps, partners = after[seat][count]
            opp = 0
            for s in opps:
                opp |= masks[s]
            # ``team``: the highest key in the round of the partners still to play
            # (``pmax``) and of the opponents (``rmax``); a follower's round is safe when a
            # partner takes back what the opponents after it could take (else both are 0,
            # and that never is)
            pmax = rmax = 0
            if team and count and side in (-1, my_team):
                both = 0
                for s in partners:
                    both |= masks[s]
                pmax = _top_key(both, tsh, lsh, top9)
                rmax = _top_key(opp, tsh, lsh, top9)
            out = 0  # the cards still out of this hand (other hands, the stock)
            pen_out = pen_top = _NO_PEN
            tb = mine >> tsh & 511
            if tb:
                out = alive ^ mine
                pen_out, pen_top = pens[pop9[tb]][len(hand) + (size - pos) // n <= 2]
            expert = seat == rival
            last_draw = (face or (expert and teams == 2)) and size - pos == n
            swap = 0.0
            if last_draw:
                swap = sum(worth[x] for x in stock[pos:-1]) / (n - 1) - worth[stock[-1]]
            top_v = -1e9
            top_r = 99
            if count == 0:
                for c in hand:
                    # nobody after holds a trump (a higher one) or a higher card of its suit
                    won = not opp & beat[c]
                    p = points[c]
                    ev: float = p if won else -p
                    if expert and SUIT[c] != trump:
                        # the follower sees the lead and banks its best higher card of the suit
                        top = 0
                        for x in hands[1 - seat]:
                            if SUIT[x] == SUIT[c] and STRENGTH[x] > STRENGTH[c] and points[x] > top:
                                top = points[x]
                        ev -= top
                    if last_draw:
                        ev += swap if won else -swap
                    if tb and suit[c] == trump:
                        ev -= (pen_out if out & higher[c] else pen_top)[c]
                    if ev > top_v or (ev == top_v and ckr[c] < top_r):
                        top_v = ev
                        top_r = ckr[c]
                        card = c
            else:
                kb = keys[best]
                back = pmax > rmax  # a partner still to play takes back what opponents add
                # a partner's round is kept when no opponent after beats it; an opponent's
                # round is the side's when a partner still to play beats it and every card
                # the opponents after may add (``team``; else pmax is 0)
                held = not opp & beat[best] if best_seat % teams == my_team else pmax > kb and back
                for c in hand:
                    stake = pts + points[c]
                    won = (back or not opp & beat[c]) if keys[c] > kb else held
                    ev = stake if won else -stake
                    if last_draw:
                        ev += swap if won else -swap
                    if tb and suit[c] == trump:
                        ev -= (pen_out if out & higher[c] else pen_top)[c]
                    if ev > top_v or (ev == top_v and ckr[c] < top_r):
                        top_v = ev
                        top_r = ckr[c]
                        card = c
        hand.remove(card)
        b = bit[card]
        masks[seat] = mine ^ b
        alive ^= b
        if count == 0:
            keys = by_lead[card]
            lsh = 9 * SUIT[card]
            best, best_seat, pts = card, seat, points[card]
        else:
            if keys[card] > keys[best]:
                best, best_seat = card, seat
            pts += points[card]
        count += 1
        if count < n:
            seat = seat + 1 if seat + 1 < n else 0
            continue
        eaten[best_seat % teams] += pts
        count = pts = 0
        seat = best_seat
        drawn = pos
        pos = draw(hands, stock, pos, seat)
        if pos != drawn:
            for s, h in enumerate(hands):
                masks[s] |= bit[h[-1]]
        if not hands[seat]:
            break
        rounds -= 1
        if not rounds:
            st.current = []
            st.pos = pos
            st.leader = st.to_act = seat
            return eaten[:]
    return st.ended(pos, seat)


def _top_key(cards: int, tsh: int, lsh: int, top9: Sequence[int]) -> int:
    """The highest ``kernel.WIN_KEY`` among the bit set ``cards`` in a round whose trump's
    and suit led's bits start at ``tsh`` and ``lsh`` (0 when none can win it)."""
    bits = cards >> tsh & 511
    if bits:
        return 20 + top9[bits]
    bits = cards >> lsh & 511
    if bits and lsh != tsh:
        return 10 + top9[bits]
    return 0


#: ``_WORTH[trump][card]``: ``terms.worth_in_hand`` as a table.
_WORTH = tuple(
    tuple(
        POINTS[c] + 3.0 + 0.6 * STRENGTH[c] if SUIT[c] == t else 0.5 * POINTS[c]
        for c in range(CARDS)
    )
    for t in range(4)
)

#: ``CHEAP_KEY[trump][card]``: ``core.cheap_key`` then the card, as a table (a total order,
#: so the choice does not depend on the order of the hand).
CHEAP_KEY = tuple(tuple((*cheap_key(c, t), c) for c in range(CARDS)) for t in range(4))


if any(SUIT[c] != c // 9 or STRENGTH[c] != STRENGTH[c % 9] for c in range(CARDS)):
    raise ImportError("the rollout's bit sets need 9 cards a suit, in the same order in each")
#: ``_BIT[card]``: the card's bit in a bit set of cards (bits 9s..9s+8 are suit s's cards).
_BIT = tuple(1 << c for c in range(CARDS))
#: ``_TOP9[bits]``: the highest strength among a suit's cards given as its 9 bits.
_TOP9 = tuple(
    max((STRENGTH[i] for i in range(9) if bits >> i & 1), default=0) for bits in range(512)
)
#: ``_POP9[bits]``: how many of a suit's cards its 9 bits hold.
_POP9 = tuple(bin(bits).count("1") for bits in range(512))
#: ``_HIGHER[card]``: the cards of its suit that beat it, as a bit set.
_HIGHER = tuple(
    sum(1 << x for x in range(CARDS) if SUIT[x] == SUIT[c] and STRENGTH[x] > STRENGTH[c])
    for c in range(CARDS)
)
#: ``_BEAT[trump][card]``: the cards that beat ``card`` in a round it leads, or that it wins
#: (a higher trump; for a plain card also a higher card of its suit and every trump).
_BEAT = tuple(
    tuple(_HIGHER[c] | (0 if SUIT[c] == t else 511 << 9 * t) for c in range(CARDS))
    for t in range(4)
)
#: ``_CK_RANK[trump][card]``: the place of ``CHEAP_KEY[trump][card]`` in the pack's order
#: (one int comparison for the rollout's tie-break).
_CK_RANK = tuple(
    tuple(sorted(CHEAP_KEY[t]).index(CHEAP_KEY[t][c]) for c in range(CARDS)) for t in range(4)
)


def _pens(trump: int, held: int, late: bool) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """What playing each trump costs the rollout's pricing, its points and its power over
    the trump divisor of ``held`` trumps in hand (doubled ``late`` in the deal): with a
    higher trump still out, and with none (power 3 more); 0 for the other cards."""
    div = 1.0 + 0.2 * (held - 1)
    if late:
        div *= 2.0
    out = tuple(POINTS[c] + _POWER[c] / div if SUIT[c] == trump else 0.0 for c in range(CARDS))
    top = tuple(
        POINTS[c] + (_POWER[c] + 3.0) / div if SUIT[c] == trump else 0.0 for c in range(CARDS)
    )
    return out, top


#: ``_PEN[trump][trumps held][late]``: :func:`_pens`.
_PEN = tuple(
    tuple(tuple(_pens(t, held, late) for late in (False, True)) for held in range(10))
    for t in range(4)
)
_NO_PEN: tuple[float, ...] = (0.0,) * CARDS


def _after(n: int, teams: int) -> tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...]:
    """``[seat][cards down]``: (the opponents, the partners) of ``seat`` still to play in
    the round after it, in play order."""
    table = []
    for seat in range(n):
        row = []
        for count in range(n):
            later = [(seat + i) % n for i in range(1, n - count)]
            row.append((
                tuple(s for s in later if s % teams != seat % teams),
                tuple(s for s in later if s % teams == seat % teams),
            ))
        table.append(tuple(row))
    return tuple(table)


#: ``_AFTER[players, teams]``: :func:`_after` for every table.
_AFTER = {
    (n, n // size): _after(n, n // size) for n in range(2, 7) for size in (1, 2, 3) if n % size == 0
}
