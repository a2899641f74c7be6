"""Properties of random deals (hypothesis): the 52 cards conserved at every step, the 11
fixed points plus sweeps, build control never left without its card, the legal codes equal
the brute-force oracle's, illegal codes change nothing, seeded deals reproduce."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from albastini.games.cassino import IllegalMove, new_deal
from albastini.games.cassino import kernel as K
from albastini.games.cassino.deal import Deal

from .helpers import oracle

PLAYERS = st.sampled_from([2, 3, 4])
SEEDS = st.integers(0, 2**32 - 1)


def all_cards(deal: Deal) -> list[int]:
    """Hands + table + piles + the undealt pack."""
    s = deal.state
    cards = [x for h in s.hands for x in h]
    cards += [x for it in s.table for x in it[1]]
    cards += [x for p in s.piles for x in p]
    cards += list(s.deck[s.pos:])
    return cards


def check_invariants(deal: Deal) -> None:
    s = deal.state
    assert sorted(all_cards(deal)) == list(range(52))
    for it in s.table:
        assert it[0] == min(it[1]) and list(it[1]) == sorted(it[1])
        if it[2] != K.LOOSE:
            assert 1 <= it[3] <= 10 and len(it[1]) >= 2 and 0 <= it[4] < deal.players
            total = sum(K.VALUE[x] for x in it[1])
            assert total == it[3] if it[2] == K.SIMPLE else total % it[3] == 0
            # build control never left without its card
            assert it[3] in {K.VALUE[x] for x in s.hands[it[4]]}
    assert [it[0] for it in s.table] == sorted(it[0] for it in s.table)


@settings(max_examples=25, deadline=None)
@given(PLAYERS, SEEDS)
def test_random_deals_keep_every_invariant(players: int, seed: int) -> None:
    rng = random.Random(seed)
    deal = new_deal(players, dealer=rng.randrange(players), seed=seed)
    while deal.phase != "finished":
        check_invariants(deal)
        legal = deal.legal_actions()
        assert legal and legal == sorted(set(legal))
        assert all(len(code) <= 60 for code in legal)
        deal.apply(rng.choice(legal))
    check_invariants(deal)
    assert not deal.state.table  # no build (nothing) remains: the leftover was taken
    result = deal.result()
    items = result.items
    tied_cards = sum(it["cards"] for it in items) == 0
    tied_spades = sum(it["spades"] for it in items) == 0
    fixed = 11 - 3 * tied_cards - tied_spades
    assert sum(result.points) == fixed + sum(deal.state.sweeps)
    assert result.game_points == result.points
    assert sum(it["n_cards"] for it in items) == 52
    json.dumps(result.to_json())


@settings(max_examples=25, deadline=None)
@given(PLAYERS, SEEDS, st.integers(0, 40))
def test_legal_codes_equal_the_brute_force_oracle(players: int, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    deal = new_deal(players, seed=seed)
    for _ in range(steps):
        if deal.phase == "finished":
            break
        s = deal.state
        if len(s.table) <= 9:  # the oracle tries every subset of the table
            assert set(deal.legal_actions()) == oracle(s.table, s.hands[s.to_act], s.to_act)
        # prefer builds, so that positions with builds come up often
        legal = deal.legal_actions()
        builds = [x for x in legal if x.startswith("build")]
        deal.apply(rng.choice(builds if builds and rng.random() < 0.6 else legal))


@st.composite
def crafted(draw: st.DrawFn) -> tuple[list[K.Item], list[int]]:
    """A contrived table: loose cards, simple and compound builds; a hand of up to 4."""
    cards = draw(st.permutations(range(52)))
    hand = sorted(cards[:draw(st.integers(1, 4))])
    pool = list(cards[4:])
    table: list[K.Item] = []
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.sampled_from(["loose", "loose", "simple", "compound"]))
        if kind == "loose":
            x = pool.pop()
            table.append((x, (x,), K.LOOSE, K.VALUE[x], -1))
            continue
        a, b = pool.pop(), pool.pop()
        total = K.VALUE[a] + K.VALUE[b]
        if K.VALUE[a] and K.VALUE[b] and kind == "simple" and total <= 10:
            pair = tuple(sorted((a, b)))
            table.append((pair[0], pair, K.SIMPLE, total, draw(st.integers(0, 1))))
        elif K.VALUE[a] and K.VALUE[a] == K.VALUE[b]:
            pair = tuple(sorted((a, b)))
            table.append((pair[0], pair, K.COMPOUND, K.VALUE[a], draw(st.integers(0, 1))))
    return sorted(table), hand


@settings(max_examples=150, deadline=None)
@given(crafted())
def test_contrived_positions_match_the_oracle(position: tuple[list[K.Item], list[int]]) -> None:
    table, hand = position
    got = {
        f"{K.ACTION_NAMES[a[0]]}:{K.CODES[a[1]]}"
        + (f":{a[2]}" if a[0] == K.BUILD else "")
        + (":" + "".join(K.CODES[n] for n in a[3]) if a[0] != K.TRAIL else "")
        for a in K.legal_actions(table, hand, 0)
    }
    assert len(got) == len(K.legal_actions(table, hand, 0))
    assert got == oracle(table, hand, 0)


def snapshot(deal: Deal) -> str:
    views = [deal.view(s) for s in [None, *range(deal.players)]]
    return json.dumps([views, deal.to_record(), deal.phase, deal.to_act])


BAD = st.one_of(
    st.text(max_size=20),
    st.builds(lambda k, x, v, i: f"{k}:{x}:{v}:{i}", st.sampled_from(["build", "capture"]),
              st.sampled_from(K.CODES), st.integers(0, 12),
              st.lists(st.sampled_from(K.CODES), max_size=3).map("".join)),
    st.builds(lambda k, x, i: f"{k}:{x}:{i}", st.sampled_from(["capture", "trail"]),
              st.sampled_from(K.CODES),
              st.lists(st.sampled_from(K.CODES), max_size=3).map("".join)),
    st.sampled_from([f"trail:{x}" for x in K.CODES]),
)


@settings(max_examples=60, deadline=None)
@given(PLAYERS, SEEDS, st.integers(0, 30), st.lists(BAD, min_size=1, max_size=8))
def test_illegal_codes_change_nothing(players: int, seed: int, steps: int,
                                      codes: list[str]) -> None:
    rng = random.Random(seed)
    deal = new_deal(players, seed=seed)
    for _ in range(steps):
        deal.apply(rng.choice(deal.legal_actions()))
    before = snapshot(deal)
    legal = set(deal.legal_actions())
    for code in codes:
        if code in legal:
            continue
        try:
            deal.apply(code)
        except IllegalMove as exc:
            assert str(exc) and exc.reason
        else:
            raise AssertionError(f"{code!r} was accepted")
        assert snapshot(deal) == before


@settings(max_examples=10, deadline=None)
@given(PLAYERS, SEEDS)
def test_seeded_deals_reproduce_and_replay_from_records(players: int, seed: int) -> None:
    rng = random.Random(seed)
    deal = new_deal(players, seed=seed)
    for _ in range(rng.randrange(48)):
        if deal.phase == "finished":
            break
        deal.apply(rng.choice(deal.legal_actions()))
    again = Deal.from_record(json.loads(json.dumps(deal.to_record())))
    assert snapshot(again) == snapshot(deal)
    copy = deal.copy()
    if copy.phase != "finished":
        copy.apply(copy.legal_actions()[0])
        assert snapshot(again) == snapshot(deal) != snapshot(copy)
