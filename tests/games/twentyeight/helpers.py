"""Shared helpers for the Twenty-Eight tests: decks built from chosen hands, scripted play."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from albastini.games.twentyeight import Deal, new_deal, pack
from albastini.games.twentyeight import kernel as K
from albastini.games.twentyeight.ai.core import side_of
from albastini.games.twentyeight.kernel import deal_schedule


def deck_for(
    players: int,
    dealer: int,
    first: Mapping[int, Sequence[str]],
    second: Mapping[int, Sequence[str]] | None = None,
) -> list[str]:
    """A deck that deals ``first[seat]`` before bidding and ``second[seat]`` after the trump
    card is down (6 players: ``first`` is the whole hand); unnamed places get the remaining
    cards of the pack in pack order."""
    before, after = deal_schedule(players, dealer)
    deck: list[str | None] = [None] * len(pack(players))
    for batch, seats, offset in ((first, before, 0), (second or {}, after, len(before))):
        for seat, cards in batch.items():
            places = [offset + i for i, s in enumerate(seats) if s == seat]
            assert len(cards) <= len(places)
            for place, card in zip(places, cards, strict=False):
                deck[place] = card
    rest = iter(c.code for c in pack(players) if c.code not in deck)
    return [c if c is not None else next(rest) for c in deck]


def play(deal: Deal, *codes: str) -> None:
    """Apply codes in order (each must be legal)."""
    for code in codes:
        deal.apply(code)


def random_play(deal: Deal, rng: random.Random, *, expose: bool = True) -> None:
    """Finish a deal with random legal actions (``expose=False``: never call unless forced)."""
    while deal.phase != "finished":
        legal = deal.legal_actions()
        if not expose and len(legal) > 1:
            legal = [c for c in legal if c != "expose"]
        deal.apply(rng.choice(legal))


def to_play(players: int = 4, dealer: int = 0, seed: int = 1, *, thani: bool = False,
            cot: bool = False) -> Deal:
    """A deal in phase playing: the first speaker bids the minimum, everyone passes, the
    bidder lays their first card, the bidding side passes the raising."""
    deal = new_deal(players, dealer=dealer, seed=seed, thani=thani, cot=cot)
    deal.apply(deal.legal_actions()[0])
    while deal.phase == "bidding":
        deal.apply("pass")
    deal.apply(deal.legal_actions()[0])
    while deal.phase == "raising":
        deal.apply("pass")
    return deal


def play_until(
    seed: int, wanted: Callable[[Deal, int, dict[str, Any]], bool]
) -> tuple[Deal, dict[str, Any]]:
    """A 4-pairs deal (:func:`to_play`) played by random legal cards (never ``expose``)
    from ``seed`` until ``wanted(deal, seat, view)`` holds for the seat to act; the deal and
    that seat's view."""
    rng = random.Random(seed)
    deal = to_play(seed=seed)
    while deal.phase == "playing":
        seat = deal.to_act
        assert seat is not None
        view = deal.view(seat)
        if wanted(deal, seat, view):
            return deal, view
        legal = view["legal"]
        deal.apply(rng.choice([c for c in legal if c != "expose"] or legal))
    raise AssertionError("no such position")


def plays_legal_cards(bot: Any, players: int, seeds: int = 2) -> None:
    """``bot`` plays every seat of whole deals (``seeds`` of them) at a table of
    ``players``: each code it answers is legal, and each deal finishes."""
    for seed in range(seeds):
        deal = new_deal(players, seed=seed)
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            code = bot.choose(view)
            assert code in view["legal"]
            deal.apply(code)


def minimax(st: K.State, leaf: Callable[[K.State], float]) -> float:
    """``leaf`` of the end of ``st`` when every legal action of the kernel is tried, the
    bidding side maximizing and the defenders minimizing (every card seen)."""
    if st.phase != K.PLAYING:
        return leaf(st)
    values = []
    for a in st.play_options():
        nxt = st.copy()
        nxt.apply(a)
        values.append(minimax(nxt, leaf))
    return max(values) if side_of(st, st.to_act) == 0 else min(values)
