"""Scoring a deal: the game-point table, base-card transfers (3 players: with each defender),
Thani, Cot, and the result object of whole deals."""

from __future__ import annotations

import random

import pytest

from albastini.games.twentyeight import new_deal
from albastini.games.twentyeight.kernel import game_point_stakes, settle

from .helpers import random_play, to_play


@pytest.mark.parametrize(
    ("contract", "win", "lose"),
    [(14, 1, 2), (19, 1, 2), (20, 2, 3), (23, 2, 3), (24, 3, 4), (28, 3, 4)],
)
def test_game_point_table(contract: int, win: int, lose: int) -> None:
    assert game_point_stakes(contract, False) == (win, lose)
    assert game_point_stakes(contract, True) == (4, 5)


def test_two_teams_made_and_failed() -> None:
    winners = [1, 3, 0, 1, 1, 1, 2, 3]
    assert settle(2, 1, 16, False, False, [12, 16], winners) == ([-1, 1], True, False)
    assert settle(2, 1, 17, False, False, [12, 16], winners) == ([2, -2], False, False)
    assert settle(2, 0, 21, False, False, [21, 7], winners) == ([2, -2], True, False)
    assert settle(2, 0, 24, False, False, [23, 5], winners) == ([-4, 4], False, False)


def test_three_players_settle_with_each_defender() -> None:
    winners = [0, 1, 2, 1, 1, 0, 1, 1]
    assert settle(3, 1, 15, False, False, [5, 16, 7], winners) == ([-1, 2, -1], True, False)
    assert settle(3, 1, 20, False, False, [5, 16, 7], winners) == ([3, -6, 3], False, False)
    assert settle(3, 2, 24, False, False, [0, 0, 28], [2] * 8) == ([-3, -3, 6], True, False)


def test_thani_every_trick_by_the_bidder_alone() -> None:
    assert settle(2, 1, 16, True, False, [0, 28], [1] * 8) == ([-4, 4], True, False)
    # the partner (seat 3) won a trick: the Thani is lost, whatever the card points
    assert settle(2, 1, 16, True, False, [0, 28], [1] * 7 + [3]) == ([5, -5], False, False)
    assert settle(3, 0, 12, True, False, [28, 0, 0], [0] * 8) == ([8, -4, -4], True, False)
    assert settle(3, 0, 12, True, False, [27, 1, 0], [0] * 7 + [1]) == ([-10, 5, 5], False,
                                                                        False)
    # Cot never doubles a Thani
    assert settle(2, 1, 16, True, True, [0, 28], [1] * 8) == ([-4, 4], True, False)


def test_cot_doubles_a_sweep_by_either_side() -> None:
    assert settle(2, 0, 16, False, True, [28, 0], [0, 2] * 4) == ([2, -2], True, True)
    assert settle(2, 0, 16, False, True, [0, 28], [1, 3] * 4) == ([-4, 4], False, True)
    assert settle(2, 0, 16, False, True, [27, 1], [0] * 7 + [1]) == ([1, -1], True, False)
    # 3 players: the defenders together won every trick
    assert settle(3, 0, 14, False, True, [0, 14, 14], [1, 2] * 4) == ([-8, 4, 4], False, True)
    assert settle(3, 0, 14, False, False, [0, 14, 14], [1, 2] * 4) == ([-4, 2, 2], False, False)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_whole_deals_score_28_and_are_zero_sum(players: int) -> None:
    rng = random.Random(players)
    for seed in range(60):
        deal = new_deal(players, dealer=seed % players, seed=seed, cot=seed % 2 == 0,
                        thani=seed % 3 == 0)
        random_play(deal, rng)
        r = deal.result()
        assert sum(r.game_points) == 0
        if r.redeal:
            continue
        assert sum(r.points) == 28 and len(r.points) == players // deal.team_size
        assert r.bidder is not None and r.contract is not None
        bidding = r.bidder % deal.n_teams
        win, lose = game_point_stakes(r.contract, r.thani)
        factor = (2 if r.cot else 1) * (2 if players == 3 else 1)
        assert r.game_points[bidding] == factor * (win if r.made else -lose)
        if r.made:
            assert r.winner == bidding
        else:
            assert r.winner == (None if players == 3 else 1 - bidding)
        if not r.thani:
            assert r.made == (r.points[bidding] >= r.contract)
        js = r.to_json()
        assert js["points"] == list(r.points) and js["game_points"] == list(r.game_points)
        assert js["winner"] == r.winner


def test_result_fields_of_a_played_deal() -> None:
    deal = to_play(4, dealer=0, seed=9)
    random_play(deal, random.Random(9))
    r = deal.result()
    assert r.bidder == 1 and r.contract == 14 and not r.thani and not r.redeal
    assert deal.view(2)["result"] == r.to_json()
    assert {"points", "winner", "game_points"} <= set(r.to_json())
