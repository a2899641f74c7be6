"""Shared helpers for the Cassino tests: positions set up by hand, a brute-force oracle of the
legal actions written straight from the rules' sentences, scripted play."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from albastini.games.cassino import Deal, new_deal, table_view
from albastini.games.cassino import kernel as K


def c(code: str) -> int:
    """A card code's kernel int."""
    return K.CODE_INT[code]


def loose(code: str) -> K.Item:
    """A loose card item."""
    card = c(code)
    return (card, (card,), K.LOOSE, K.VALUE[card], -1)


def build(codes: str, value: int, controller: int, compound: bool = False) -> K.Item:
    """A build item of the cards ``codes`` (concatenated, e.g. ``"2C3D"``)."""
    cards = tuple(sorted(c(codes[i:i + 2]) for i in range(0, len(codes), 2)))
    return (cards[0], cards, K.COMPOUND if compound else K.SIMPLE, value, controller)


def position(table: Sequence[K.Item], hand: Sequence[str], *, seat: int = 1,
             others: Sequence[str] = ()) -> Deal:
    """A 2-player deal (dealer 0, so seat 1 plays first) rearranged: ``table`` on the table,
    ``hand`` in ``seat``'s hand, ``others`` in the other seat's hand (default: 4 cards not
    used), the rest of the round-1 cards out of the way. Still in round 1 of 6."""
    deal = new_deal(2, dealer=0, seed=0)
    st = deal.state
    used = {x for it in table for x in it[1]} | {c(h) for h in hand} | {c(o) for o in others}
    spare = [x for x in range(52) if x not in used]
    st.table = sorted(table)
    st.hands[seat] = sorted(c(h) for h in hand)
    st.hands[1 - seat] = sorted(c(o) for o in others) if others else spare[:4]
    st.to_act = seat
    deal._legal = None
    return deal


def partitions(values: list[int], v: int) -> bool:
    """Whether ``values`` divide into groups each adding up to exactly ``v`` (brute force)."""
    if not values:
        return True
    first, rest = values[0], values[1:]
    for k in range(len(rest) + 1):
        for combo in itertools.combinations(range(len(rest)), k):
            if first + sum(rest[i] for i in combo) == v:
                left = [x for i, x in enumerate(rest) if i not in combo]
                if partitions(left, v):
                    return True
    return False


def groupable(items: Sequence[K.Item], extra: list[int], v: int) -> bool:
    """Whether ``items`` (and the loose values ``extra``) divide into groups worth ``v``:
    a compound build only alone and only of value ``v``; never a loose face card."""
    values = list(extra)
    for it in items:
        if it[3] == 0:
            return False
        if it[2] == K.COMPOUND:
            if it[3] != v:
                return False
        else:
            values.append(it[3])
    return partitions(values, v)


def oracle(table: Sequence[K.Item], hand: Sequence[int], seat: int) -> set[str]:
    """Every legal code, by trying every card, every subset of the table and every value."""
    out: set[str] = set()
    controls = [it for it in table if it[4] == seat]
    subsets = [
        list(s) for k in range(1, len(table) + 1) for s in itertools.combinations(table, k)
    ]

    def keeps(card: int, used: list[K.Item], new_value: int = 0) -> bool:
        left = {K.VALUE[x] for x in hand if x != card}
        need = {it[3] for it in controls if it not in used} | ({new_value} - {0})
        return need <= left

    def names(used: list[K.Item]) -> str:
        return "".join(K.CODES[it[0]] for it in used)

    for card in hand:
        code = K.CODES[card]
        v = K.VALUE[card]
        can_capture = False
        for used in subsets:
            if v == 0:
                ok = all(it[2] == K.LOOSE and K.RANK[it[0]] == K.RANK[card] for it in used)
            else:
                ok = groupable(used, [], v)
            if ok:
                can_capture = True
                if keeps(card, used):
                    out.add(f"capture:{code}:{names(used)}")
        if not can_capture and not controls:
            out.add(f"trail:{code}")
        if v == 0:
            continue
        for big in range(1, 11):
            if big not in {K.VALUE[x] for x in hand if x != card}:
                continue
            for used in subsets:
                if any(it[3] == 0 for it in used):
                    continue
                total = v + sum(it[3] for it in used)
                simple = total == big and all(it[2] != K.COMPOUND for it in used)
                compound = total >= 2 * big and groupable(used, [v], big)
                if (simple or compound) and keeps(card, used, big):
                    out.add(f"build:{code}:{big}:{names(used)}")
    return out


def random_play(deal: Deal, rng: random.Random) -> list[str]:
    """Finish a deal with random legal codes; returns them."""
    codes = []
    while deal.phase != "finished":
        code = rng.choice(deal.legal_actions())
        deal.apply(code)
        codes.append(code)
    return codes


def assert_blind(deal: Deal, choose: Callable[[Mapping[str, Any]], str], times: int) -> None:
    """Deal the other hand and the undealt pack of a 2-player ``deal`` anew ``times`` times
    around the seat to act's view: the view stays the same, so ``choose`` must answer the
    same; and no hidden card is named in the view."""
    seat = deal.to_act
    assert seat is not None
    view = table_view(deal, seat)
    choice = choose(view)
    st = deal.state
    other = 1 - seat
    hidden = st.hands[other] + list(st.deck[st.pos:])
    rng = random.Random(1)
    for _ in range(times):
        rng.shuffle(hidden)
        n = len(st.hands[other])
        st.hands[other] = sorted(hidden[:n])
        st.deck = tuple(list(st.deck[:st.pos]) + hidden[n:])
        again = table_view(deal, seat)
        assert again == view
        assert choose(again) == choice
    assert all(K.CODES[x] not in json.dumps(view) for x in hidden)


def exact_value(st: Any, team: int) -> float:
    """Brute-force minimax of a Cassino deal from ``st`` (the full state: every hand known),
    straight from the rules' engine: ``team`` maximises, the others minimise; a finished
    deal is worth 100 won / -100 lost / 0 tied, plus the points' margin over the best other
    team."""
    if st.finished:
        points = st.score()[0]
        diff = points[team] - max(p for t, p in enumerate(points) if t != team)
        return float(diff) + (100.0 if diff > 0 else -100.0 if diff < 0 else 0.0)
    values: list[float] = []
    for action in st.legal():
        child = st.copy()
        child.apply(action)
        values.append(exact_value(child, team))
    return max(values) if st.team_of(st.to_act) == team else min(values)
