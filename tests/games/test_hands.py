"""Every game's view lists a hand the way a player holds it: grouped by suit, the trump suit first
where the seat knows it, highest first within a suit by the game's own rank order."""

from __future__ import annotations

import random
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import pytest

from albastini.games import GAMES
from albastini.games.hands import sorted_hand, suit_order

PACKAGES = sorted(GAMES.items())
IDS = [name for name, _ in PACKAGES]


def test_suit_order_puts_the_trumps_first_and_changes_colour() -> None:
    assert suit_order() == "SHCD"
    assert suit_order("H") == "HSDC"
    assert suit_order("D") == "DSHC"
    assert suit_order("C") == "CHSD"
    assert suit_order(["S", "D"]) == "SDCH"


def test_a_hand_in_deal_order_is_sorted_by_suit_then_rank() -> None:
    # the hand, in Albastini's ranks (A 7 K J Q 6 5 4 3)
    assert sorted_hand(["AS", "AD", "6D", "JS", "7D"], "A7KJQ6543") == [
        "AS", "JS", "AD", "7D", "6D"]
    assert sorted_hand(["AS", "AD", "6D", "JS", "7D"], "A7KJQ6543", ["D"]) == [
        "AD", "7D", "6D", "AS", "JS"]
    with pytest.raises(ValueError):
        sorted_hand(["1S"], "A7KJQ6543")


def _groups(hand: Sequence[str]) -> list[str]:
    """The suits of ``hand`` in the order they appear, one entry per run of a suit."""
    runs: list[str] = []
    for code in hand:
        if not runs or runs[-1] != code[1]:
            runs.append(code[1])
    return runs


def _trumps_known(name: str, view: dict[str, Any], seat: int) -> list[str]:
    """The trump suits ``seat``'s view says it knows, highest first."""
    if name == "ass":
        return list(view["trumps"][seat])
    return [view["trump"]] if view.get("trump") else []


def _check(name: str, package: ModuleType, deal: Any, seat: int) -> None:
    view = deal.view(seat)
    hand: list[str] = view["hand"]
    assert sorted(hand) == sorted(str(c) for c in deal.hand(seat))
    runs = _groups(hand)
    assert len(runs) == len(set(runs)), f"{hand} is not grouped by suit"
    ranks = package.RANKS
    for suit in runs:
        in_suit = [code[0] for code in hand if code[1] == suit]
        assert in_suit == sorted(in_suit, key=ranks.index), f"{hand}: {suit} not highest first"
    held = [s for s in _trumps_known(name, view, seat) if s in runs]
    assert runs[: len(held)] == held, f"{hand}: the trumps {held} do not come first"
    order = suit_order(_trumps_known(name, view, seat))
    assert runs == sorted(runs, key=order.index)


@pytest.mark.parametrize(("name", "package"), PACKAGES, ids=IDS)
def test_every_view_lists_the_hand_by_suit_trumps_first(name: str, package: ModuleType) -> None:
    rng = random.Random(11)
    for mode in package.MODES.values():
        for dealer in range(mode["players"]):
            deal = package.new_deal(mode["players"], mode["team_size"], dealer,
                                    seed=rng.getrandbits(32))
            while deal.phase != "finished":
                for seat in range(mode["players"]):
                    _check(name, package, deal, seat)
                deal.apply(rng.choice(deal.legal_actions()))


def test_albastini_lists_the_turned_trump_first() -> None:
    package = GAMES["albastini"]
    deal = package.new_deal(4, 2, 0, seed=3)
    while deal.phase == "bidding":
        deal.apply("pass")
    trump = deal.view(0)["trump"]
    for seat in range(4):
        hand = deal.view(seat)["hand"]
        if any(code[1] == trump for code in hand):
            assert hand[0][1] == trump


@pytest.mark.parametrize("variant", [1, 3, 4, 5])
def test_ass_lists_each_players_own_trumps_first(variant: int) -> None:
    package = GAMES["ass"]
    deal = package.new_deal(4, seed=7, trumps=variant)
    for seat in range(4):
        view = deal.view(seat)
        trumps = view["trumps"][seat]
        held = [s for s in trumps if any(c[1] == s for c in view["hand"])]
        assert _groups(view["hand"])[: len(held)] == held


def test_legal_codes_stay_sorted_as_codes() -> None:
    """The hand is sorted for people; ``legal`` keeps the codes' own order."""
    for package in GAMES.values():
        mode = next(iter(package.MODES.values()))
        deal = package.new_deal(mode["players"], mode["team_size"], 0, seed=5)
        view = deal.view(deal.to_act)
        assert view["legal"] == sorted(view["legal"]) == deal.legal_actions()
