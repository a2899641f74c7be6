"""Skill ratings (albastini/ratings.py, on openskill): who goes up, who goes down, ties,
partners, computers of fixed strength, and ratings computed again from the results."""

from __future__ import annotations

import random

from albastini.ratings import COMPUTER_SKILL, NEW, Side, Skill, ranks, replay, update


def test_ranks_share_places_on_equal_scores() -> None:
    assert ranks([5, 3]) == [1, 2]
    assert ranks([2, 7, 2, 0]) == [2, 1, 2, 4]
    assert ranks([-3, -3]) == [1, 1]


def test_the_winner_gains_and_the_loser_loses_from_equal_ratings() -> None:
    new = update([Side(5, (1,)), Side(2, (2,))], {})
    assert new[1].rating > NEW.rating > new[2].rating
    assert new[1].matches == new[2].matches == 1
    assert new[1].sigma < NEW.sigma  # one result makes the model surer of both


def test_partners_move_together_and_a_tie_moves_little() -> None:
    new = update([Side(6, (1, 3)), Side(0, (2, 4))], {})
    assert new[1] == new[3] and new[2] == new[4]
    tie = update([Side(4, (1,)), Side(4, (2,))], {})
    assert abs(tie[1].mu - NEW.mu) < 1e-9 and abs(tie[2].mu - NEW.mu) < 1e-9


def test_computers_are_fixed_opponents_whose_level_matters() -> None:
    beat_easy = update([Side(5, (1,)), Side(0, (), ("easy",))], {})[1]
    beat_hard = update([Side(5, (1,)), Side(0, (), ("hard",))], {})[1]
    assert beat_hard.mu > beat_easy.mu > NEW.mu
    lost_to_easy = update([Side(0, (1,)), Side(5, (), ("easy",))], {})[1]
    lost_to_hard = update([Side(0, (1,)), Side(5, (), ("hard",))], {})[1]
    assert lost_to_easy.mu < lost_to_hard.mu < NEW.mu
    assert set(COMPUTER_SKILL) >= {"easy", "normal", "hard"}


def test_a_strong_player_rises_above_a_weak_one_over_many_matches() -> None:
    rng = random.Random(1)
    matches = []
    for _ in range(60):  # player 1 wins 80% of the time against player 2
        first = rng.random() < 0.8
        matches.append([Side(1 if first else 0, (1,)), Side(0 if first else 1, (2,))])
    skills = replay(matches)
    assert skills[1].rating > skills[2].rating
    assert skills[1].matches == 60


def test_replay_is_the_same_as_rating_match_by_match() -> None:
    matches = [
        [Side(3, (1, 2)), Side(1, (3,), ("normal",))],
        [Side(0, (1,)), Side(2, (3,)), Side(2, (4,))],
        [Side(-2, (2,)), Side(2, (4,))],
    ]
    skills: dict[int, Skill] = {}
    for sides in matches:
        skills.update(update(sides, skills))
    assert replay(matches) == skills
