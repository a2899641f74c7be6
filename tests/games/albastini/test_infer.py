"""Heads-up inference (``ai.infer``): what the opponent's bid and follows exclude from its hand,
and the search options that use it or play the opponent by the expert's rules."""

from __future__ import annotations

import pytest

from albastini import MODES, new_deal
from albastini.ai import make_player
from albastini.games.albastini.ai.core import read_view
from albastini.games.albastini.ai.infer import facts, lead_check, weight
from albastini.games.albastini.kernel import card_int
from bench.experts.albastini import ExpertPlayer

from .test_ai import build_deal, play_with


def test_a_follower_that_did_not_bank_the_ace_holds_none_until_it_draws() -> None:
    """Seat 1 throws a zero-point club on the led Seven of hearts, a round it would have
    banked with the Ace of hearts or any trump: neither was in its hand, and after one draw
    at most that one card can be one."""
    deal = build_deal(
        2, 1, [["7H", "QD", "4D", "5C", "6C"], ["3C", "KD", "JD", "QC", "JC"]], "4S", dealer=1
    )
    deal.apply("play:7H")
    deal.apply("play:3C")
    view = deal.view(0, history=True)
    found = facts(view, read_view(view))
    assert len(found) == 1
    cards, draws_since = found[0]
    assert draws_since == 1
    assert {card_int(c) for c in ("AH", "AS", "7S", "3S")} <= cards
    assert not {card_int(c) for c in ("KH", "QH", "4C", "AC", "4S")} & cards  # 4S: face up
    ace = card_int("AH")
    without = [card_int(c) for c in ("KC", "QH", "6D", "5D", "4C")]
    assert weight(without, found) == 1.0
    assert weight([ace, *without[1:]], found) == pytest.approx(1 / 5)
    assert weight([ace, card_int("3S"), *without[2:]], found) == 0.0


def test_a_pass_says_no_low_card_until_draws_bring_one() -> None:
    deal = build_deal(
        2, 1, [["AH", "QD", "KD", "AC", "7C"], ["KC", "6D", "JD", "QC", "JC"]], "4S", dealer=0
    )
    deal.apply("play:KC")
    view = deal.view(0, history=True)
    assert view["bids"][0]["card"] is None  # seat 1, the one bidder, passed
    sets = [cards for cards, m in facts(view, read_view(view)) if m == 0]
    assert any(card_int("3H") in cards and card_int("5S") in cards for cards in sets)


@pytest.mark.parametrize("opponent", ["normal", "expert"])
def test_the_facts_hold_for_the_players_that_follow_the_rule(opponent: str) -> None:
    """Against normal and the expert, who follow by the pricing the facts read, the
    opponent's true hand is never one the facts rule out, nor one from which the rules would
    not have led the card it led."""
    checked = leads = 0
    for seed in range(6):
        deal = new_deal(2, 1, seed % 2, seed=300 + seed)
        rival = ExpertPlayer(seed) if opponent == "expert" else make_player("normal", seed=seed)
        bots = [make_player("normal", seed=seed + 50), rival]
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat, history=True)
            if seat == 0 and view["phase"] == "playing":
                k = read_view(view)
                found = facts(view, k)
                checked += len(found)
                hand = [card_int(c.code) for c in deal.hand(1)]
                assert weight(hand, found) > 0.0
                led = lead_check(view, k)
                if led is not None:
                    leads += 1
                    assert led(hand)
            choice = bots[seat].choose(view)
            deal.apply(choice if isinstance(choice, str) else choice.code)
    assert checked > 20
    assert leads > 5


@pytest.mark.parametrize("mode", ["2", "4 pairs"])
def test_inferring_and_rival_rollouts_play_legal_cards(mode: str) -> None:
    players, team_size = MODES[mode]
    for options in ({"infer": 1}, {"infer": 2}, {"rollout": "rival"}):
        deal = new_deal(players, team_size, 0, seed=94)
        play_with(deal, [make_player("hard", seed=s, iterations=3, **options)
                         for s in range(players)])
        assert sum(deal.points()) == 120


def test_rival_rollout_charges_only_the_rivals_leads() -> None:
    """The rival rollout plays a whole deal (120 points) and, the rival playing the
    expert's rules, differs from normal's rule on some deals."""
    from albastini.games.albastini.ai.sim import policy_rollout, rival_rollout
    from albastini.games.albastini.fast import FastDeal

    differs = 0
    for seed in range(12):
        deal = new_deal(2, 1, seed % 2, seed=seed)
        while deal.phase == "bidding":
            deal.apply("pass")
        a = FastDeal.from_deal(deal)
        b = FastDeal.from_deal(deal)
        got = rival_rollout(a, 1)
        assert sum(got) == 120
        differs += got != policy_rollout(b)
    assert differs
