"""Helpers for the Ass tests."""

from __future__ import annotations

import random

from albastini.games.ass.deal import Deal


def hidden_dealt_again(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """A copy of an Ass ``deal`` whose cards ``seat`` cannot see (the other hands and the
    stock) are dealt again, each hand and the stock keeping its size."""
    other = deal.copy()
    st = other.state
    others = [s for s in range(deal.players) if s != seat]
    pool = [c for s in others for c in st.hands[s]] + st.stock[st.pos:]
    rng.shuffle(pool)
    for s in others:
        size = len(st.hands[s])
        st.hands[s], pool = pool[:size], pool[size:]
    st.stock = st.stock[:st.pos] + pool
    return other
