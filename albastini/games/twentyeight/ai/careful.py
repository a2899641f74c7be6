"""A careful rollout policy for the search player (a bench option, ``arena.py --rollout28
careful``): the trick rules good players follow, on :class:`..kernel.State`, from what the
player to act could know; also the rule the search reads the opponents' plays against
(:mod:`.reads`, ``--reads28``).

The search's default rollout (:func:`.search.fair_policy`) cashes masters and wins cheaply;
this one plays the way the rule-based players at the table do: the bidder draws trumps once
they are shown; a master is cashed only in a suit no opponent has shown a void in; a low
lead comes from a suit without a Jack or Nine to protect, away from the likely trump; a
follower loads points only onto a trick its side holds for sure (a master no later opponent
can ruff), keeps its own masters and trumps out of such a smear, wins with the cheapest card
that stays the winner, and throws its cheapest card keeping a Nine behind its Jack and,
void, its trumps; a void player asks for the trump only when the trick is worth it (the
bidder: two points, anyone else: three, and only when it probably holds a trump).

What each player could know: its own hand, the cards played (and so which cards are
masters and who has shown a void), the auction, and the trump only when it is the bidder or
the trump was shown. Who holds the unseen cards is read from the state only as the set of
cards this player has not seen. The suit a defender believes trump is the one with the most
unseen cards (and its Jack and Nine, after a free bid), among those the bidder did not lead
while it was hidden.
"""

from __future__ import annotations

from .. import kernel as K
from .core import card_key, rollout_choices, side_of

JACK, NINE = 0, 1  # rank positions of a card int (card % 9)


def unseen_in(st: K.State, seat: int, suit: int) -> list[int]:
    """The cards of ``suit`` that ``seat`` has not seen: in the other hands, or face down
    (the bidder has seen its own face-down card)."""
    out: list[int] = []
    for s in range(st.n):
        if s != seat:
            out += st.hands[s][suit]
    fd = st.trump_card
    if st.face_down and seat != st.bidder and K.SUIT[fd] == suit:
        out.append(fd)
    return out


def master(st: K.State, seat: int, card: int) -> bool:
    """No card of ``card``'s suit that ``seat`` has not seen ranks above it (a lower int is
    a higher card)."""
    suit = K.SUIT[card]
    for s in range(st.n):
        if s != seat:
            h = st.hands[s][suit]
            if h and min(h) < card:
                return False
    fd = st.trump_card
    return not (st.face_down and seat != st.bidder and fd < card and K.SUIT[fd] == suit)


def shown_voids(st: K.State) -> list[int]:
    """Per seat, a bit per suit it has shown a void in (did not follow it), from the tricks
    played and the one in progress."""
    voids = [0] * st.n
    for _, plays, _, _ in st.tricks:
        led = K.SUIT[plays[0][1]]
        for s, c in plays:
            if K.SUIT[c] != led:
                voids[s] |= 1 << led
    if st.trick:
        led = K.SUIT[st.trick[0][1]]
        for s, c in st.trick:
            if K.SUIT[c] != led:
                voids[s] |= 1 << led
    return voids


def believed_trump(st: K.State, seat: int) -> int:
    """The trump suit as ``seat`` sees it: the real one when it is the bidder or the trump
    was shown; else the suit with the most unseen cards (two more for its unseen Jack and
    one for its Nine after a free bid), leaving out the suits the bidder led while the trump
    was hidden."""
    if seat == st.bidder or not st.face_down:
        return st.trump
    led_by_bidder = 0
    for leader, plays, _, _ in st.tricks:
        if leader == st.bidder:
            led_by_bidder |= 1 << K.SUIT[plays[0][1]]
    if st.trick and st.leader == st.bidder:
        led_by_bidder |= 1 << K.SUIT[st.trick[0][1]]
    free = any(bid and s == st.bidder and i > 0 for i, (s, bid) in enumerate(st.bids))
    best, top = -1, -1.0
    for suit in range(4):
        if led_by_bidder >> suit & 1:
            continue
        out = unseen_in(st, seat, suit)
        w = float(len(out))
        if free:
            w += 2.0 * (suit * 9 + JACK in out) + 1.0 * (suit * 9 + NINE in out)
        if w > top:
            best, top = suit, w
    return best if best >= 0 else st.trump


def careful_policy(st: K.State) -> int:
    """The rollout action of the player to act (see the module's docstring)."""
    forced, cards, expose = rollout_choices(st)
    if forced is not None:
        return forced
    seat = st.to_act
    n = st.n
    mine = side_of(st, seat)
    trick = st.trick
    if not trick:
        return _lead(st, seat, cards, mine, believed_trump(st, seat), not st.face_down)
    power = st.trump if st.exposed_in >= 0 else K.NO_POWER
    led = K.SUIT[trick[0][1]]
    keys = K.WIN_KEY[power][led]
    top_i = 0
    points = K.POINTS[trick[0][1]]
    for i in range(1, len(trick)):
        points += K.POINTS[trick[i][1]]
        if keys[trick[i][1]] > keys[trick[top_i][1]]:
            top_i = i
    top_seat, top_card = trick[top_i]
    top = keys[top_card]
    last = len(trick) == n - 1
    ours = side_of(st, top_seat) == mine
    following = K.SUIT[cards[0]] == led
    later = [(seat + i) % n for i in range(1, n - len(trick))]
    rivals = [s for s in later if side_of(st, s) != mine]
    voids: list[int] = []

    def secure(card: int) -> bool:
        # a master (as this seat counts) that no later opponent can ruff: one who has shown
        # a void in the suit led while trumps may be out, or the trump is still hidden
        if not master(st, seat, card):
            return False
        ruff = (power == K.NO_POWER and st.face_down) or (
            power != K.NO_POWER and K.SUIT[card] != power
            and bool(unseen_in(st, seat, st.trump)))
        if ruff and rivals:
            if not voids:
                voids.extend(shown_voids(st))
            return not any(voids[s] >> led & 1 for s in rivals)
        return True

    if ours and (last or secure(top_card)):
        return _smear(st, seat, cards, following)
    if expose and not ours and _call(st, seat, points, believed_trump(st, seat)):
        return K.EXPOSE
    winners = [c for c in cards if keys[c] > top]
    if winners:
        safe = [c for c in winners if last or secure(c)]
        if safe:
            pick = min(safe, key=card_key)
            if points + K.POINTS[pick] >= 1 or not ours:
                return pick
        elif not ours and (points >= 2 or len(trick) == n - 2):
            # not sure to hold it, but a cheap winner makes the last player pay
            pick = min(winners, key=card_key)
            if K.POINTS[pick] <= 1 or points >= 3:
                return pick
    if following:
        # (the likely trump only matters to a void player's discard)
        return min(cards, key=lambda c: (K.POINTS[c], int(c % 9 <= NINE and len(
            st.hands[seat][K.SUIT[c]]) > 1), K.STRENGTH[c]))
    return _throw(st, seat, cards, following, believed_trump(st, seat))


def _lead(st: K.State, seat: int, cards: list[int], mine: int, trump: int, shown: bool
          ) -> int:
    """The bidder draws trumps with a master trump once shown (while others hold some);
    anyone cashes a master (most points first) in a suit no opponent has shown a void in;
    else a low card away from the trump, from a suit without a Jack or Nine to protect
    (the bidder from its longest such suit, to ruff the short ones later; a defender from
    its shortest)."""
    if shown and seat == st.bidder and unseen_in(st, seat, trump):
        tops = [c for c in cards if K.SUIT[c] == trump and master(st, seat, c)]
        if tops:
            return min(tops)
    voids = shown_voids(st)
    opp = 0
    for s in range(st.n):
        if side_of(st, s) != mine:
            opp |= voids[s]
    best = -1
    for c in cards:
        suit = K.SUIT[c]
        safe = (shown and suit == trump) or not opp >> suit & 1
        if safe and master(st, seat, c) and (
            best < 0 or (K.POINTS[c], -c) > (K.POINTS[best], -best)
        ):
            best = c
    if best >= 0:
        return best
    plain = [c for c in cards if K.SUIT[c] != trump] or cards
    hand = st.hands[seat]
    bidder = seat == st.bidder

    def key(c: int) -> tuple[int, int, int, int]:
        held = hand[K.SUIT[c]]
        guards = any(d % 9 <= NINE for d in held)
        return (K.POINTS[c], int(guards), len(held) if bidder else -len(held), -K.STRENGTH[c])

    return min(plain, key=key)


def _smear(st: K.State, seat: int, cards: list[int], following: bool) -> int:
    """The trick is its side's for sure: the most points, but not a master worth two or
    more (it wins a trick of its own later) nor, void, a trump the bidder's side needs."""
    known = st.trump if (seat == st.bidder or not st.face_down) else -1

    def key(c: int) -> tuple[int, int, int]:
        keep = (K.POINTS[c] >= 2 and master(st, seat, c)) or (
            not following and K.SUIT[c] == known)
        return (int(keep), -K.POINTS[c], K.STRENGTH[c])

    return min(cards, key=key)


def _throw(st: K.State, seat: int, cards: list[int], following: bool, trump: int) -> int:
    """The trick is lost or not worth taking: the cheapest card, keeping, void, the (likely)
    trumps and a Jack or Nine of a suit with more cards (it guards the next)."""
    hand = st.hands[seat]

    def key(c: int) -> tuple[int, int, int, int]:
        suit = K.SUIT[c]
        trumpish = not following and suit == trump
        guard = c % 9 <= NINE and len(hand[suit]) > 1
        return (K.POINTS[c], int(trumpish), int(guard), K.STRENGTH[c])

    return min(cards, key=key)


def _call(st: K.State, seat: int, points: int, trump: int) -> bool:
    """Ask for the trump (void, hidden, the other side winning): the bidder on a trick worth
    two points or near the end; anyone else on three points when it holds a card of the
    suit it believes trump."""
    if seat == st.bidder:
        return points >= 2 or len(st.hand(seat)) <= 2
    return points >= 3 and trump >= 0 and bool(st.hands[seat][trump])


__all__ = ["believed_trump", "careful_policy", "master", "shown_voids", "unseen_in"]
