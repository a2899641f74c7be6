"""Whole random deals of Ass at speed, for the bench: the kernel without codes or views."""

from __future__ import annotations

import random

from .kernel import DIAMONDS, SPADES, State, trump_levels

__all__ = ["random_deal"]


def random_deal(players: int, variant: int, rng: random.Random) -> list[int]:
    """Play one deal with random bets and uniformly random legal cards; points per player."""
    deck = list(range(36))
    rng.shuffle(deck)
    suits = [SPADES, 0, 2, DIAMONDS][:players] if variant == 1 else [SPADES, DIAMONDS]
    levels, main_levels = trump_levels(variant, players, suits[: 1 if variant == 3 else None])
    st = State(players, rng.randrange(players), deck, levels, main_levels)
    while st.phase == 0:
        st.bet(rng.random() < 0.5)
    choice = rng.choice
    while st.phase == 1:
        st.play(choice(st.legal_cards()))
    return st.points
