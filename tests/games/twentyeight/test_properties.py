"""Properties of random deals (hypothesis): cards conserved, 28 points, the face-down card in
no hand until exposed, illegal actions change nothing, seeded deals reproduce, only
canonical codes accepted."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from albastini.games.twentyeight import IllegalMove, new_deal, pack
from albastini.games.twentyeight.deal import Deal
from albastini.games.twentyeight.kernel import CODES

CANONICAL = {"pass", "expose", "thani", *(f"bid:{n}" for n in range(1, 100)),
             *(f"raise:{n}" for n in range(1, 100)),
             *(f"play:{c}" for c in CODES), *(f"trump:{c}" for c in CODES)}
MODES = st.sampled_from([3, 4, 6])
SEEDS = st.integers(0, 2**32 - 1)


def snapshot(deal: Deal) -> str:
    """Everything observable: every view and the record."""
    views = [deal.view(s) for s in [None, *range(deal.players)]]
    return json.dumps([views, deal.to_record(), deal.phase, deal.to_act])


def all_cards(deal: Deal) -> list[str]:
    """Hands + face-down card + played cards + the undealt second batch."""
    st_ = deal.state
    cards = [c.code for s in range(deal.players) for c in deal.hand(s)]
    if st_.face_down:
        cards.append(CODES[st_.trump_card])
    for _, plays, _, _ in st_.tricks:
        cards += [CODES[c] for _, c in plays]
    cards += [CODES[c] for _, c in st_.trick]
    if st_.phase in (0, 1) and st_.second:  # bidding or trump: the second batch is undealt
        cards += [CODES[c] for c in st_.deck[len(st_.deck) - len(st_.second):]]
    return cards


@settings(max_examples=40, deadline=None)
@given(MODES, SEEDS, st.booleans(), st.booleans())
def test_random_deals_keep_every_invariant(players: int, seed: int, thani: bool, cot: bool) -> None:
    rng = random.Random(seed)
    deal = new_deal(players, dealer=seed % players, seed=seed, thani=thani, cot=cot)
    full = sorted(c.code for c in pack(players))
    while deal.phase != "finished":
        assert sorted(all_cards(deal)) == full
        if deal.state.face_down:
            laid = CODES[deal.state.trump_card]
            assert all(laid not in {c.code for c in deal.hand(s)} for s in range(players))
        legal = deal.legal_actions()
        assert len(legal) == len(set(legal)) and legal
        # an illegal action changes nothing
        illegal = rng.choice([c for c in ("pass", "expose", "thani", "bid:14", "bid:29",
                                          "raise:24", "play:JH", "play:6S", "trump:7C",
                                          "bid:014") if c not in legal])
        before = snapshot(deal)
        try:
            deal.apply(illegal)
        except IllegalMove as exc:
            assert isinstance(exc, ValueError) and exc.reason and str(exc)
        else:
            raise AssertionError(f"{illegal} was accepted")
        assert snapshot(deal) == before
        deal.apply(rng.choice(legal))
    r = deal.result()
    assert sum(r.game_points) == 0
    if not r.redeal:
        assert sum(r.points) == 28
        assert sorted(all_cards(deal)) == full


@settings(max_examples=25, deadline=None)
@given(MODES, SEEDS)
def test_seeded_deals_reproduce(players: int, seed: int) -> None:
    a, b = new_deal(players, seed=seed), new_deal(players, seed=seed)
    assert [c.code for c in a.deck] == [c.code for c in b.deck]
    assert [a.hand(s) for s in range(players)] == [b.hand(s) for s in range(players)]
    rebuilt = Deal.from_record(a.to_record())
    assert rebuilt.view(0) == a.view(0)


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.text(max_size=12), st.integers(), st.none(), st.binary(max_size=5)))
def test_only_canonical_codes(code: object) -> None:
    deal = new_deal(4, seed=1)
    before = snapshot(deal)
    try:
        deal.apply(code)  # type: ignore[arg-type]
    except IllegalMove as exc:
        if code not in CANONICAL:
            assert exc.reason == "bad_code"
        assert snapshot(deal) == before
    else:
        assert code in CANONICAL
