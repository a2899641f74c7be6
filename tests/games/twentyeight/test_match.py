"""Matches: base cards, the kunukku, the winner, the next dealer, errors, reproducibility."""

from __future__ import annotations

import random

import pytest

from albastini.games.twentyeight import IllegalMove, Match

from .helpers import random_play


def finish(match: Match, rng: random.Random) -> None:
    random_play(match.deal, rng)


def test_start_and_attributes() -> None:
    m = Match(4, seed=1)
    assert (m.players, m.team_size, m.teams, m.target, m.deal_no) == (4, 2, 2, 6, 1)
    assert m.scores == [6, 6] and not m.finished and m.winner is None
    assert m.history == [] and len(m.deal_seeds) == 1 and m.deal.dealer == 0
    assert Match(3).scores == [6, 6, 6] and Match(6, target=3).scores == [3, 3]


@pytest.mark.parametrize(
    ("args", "kwargs", "error"),
    [((8,), {}, ValueError), ((4, 1), {}, ValueError), ((4,), {"dealer": 4}, ValueError),
     ((4,), {"target": 0}, ValueError), ((4,), {"surrender": True}, TypeError)],
)
def test_bad_matches(args: tuple[int, ...], kwargs: dict[str, object], error: type) -> None:
    with pytest.raises(error):
        Match(*args, **kwargs)  # type: ignore[arg-type]


def test_scores_include_the_finished_deal_and_next_dealer() -> None:
    rng = random.Random(2)
    m = Match(4, dealer=3, seed=2)
    with pytest.raises(IllegalMove):
        m.next_deal()  # not finished
    finish(m, rng)
    gp = m.deal.result().game_points
    assert m.scores == [6 + gp[0], 6 + gp[1]] and sum(m.scores) == 12
    assert m.next_dealer() == 0
    first = m.deal
    m.next_deal()
    assert m.deal.dealer == 0 and m.deal_no == 2 and m.history[0][0] is first
    assert m.history[0][1] == first.result()


def test_play_to_the_kunukku() -> None:
    rng = random.Random(3)
    for seed in range(5):
        m = Match(4, seed=seed, target=2)
        while not m.finished:
            finish(m, rng)
            if not m.finished:
                dealer = m.deal.dealer
                m.next_deal()
                assert m.deal.dealer == (dealer + 1) % 4
        assert min(m.scores) <= 0 and sum(m.scores) == 4
        assert m.winner == (0 if m.scores[0] > m.scores[1] else 1)
        with pytest.raises(IllegalMove):
            m.next_deal()


def test_negative_scores_are_not_clamped() -> None:
    rng = random.Random(4)
    for seed in range(200):
        m = Match(4, seed=seed, target=1, cot=True)
        finish(m, rng)
        if min(m.scores) < 0:
            assert sum(m.scores) == 2 and m.finished
            return
    pytest.fail("no deal took a side below zero")


def test_three_players_winner_none_when_two_share_the_most() -> None:
    rng = random.Random(5)
    found_tie = found_single = False
    for seed in range(300):
        m = Match(3, seed=seed, target=2)
        finish(m, rng)
        while not m.finished:
            m.next_deal()
            finish(m, rng)
        top = max(m.scores)
        if m.scores.count(top) > 1:
            assert m.winner is None
            found_tie = True
        else:
            assert m.winner == m.scores.index(top)
            found_single = True
        if found_tie and found_single:
            return
    pytest.fail("no tie or no single winner found")


def test_redeal_passes_the_deal_and_scores_nothing() -> None:
    m = Match(3, dealer=1, seed=6)
    for _ in range(3):
        m.deal.apply("pass")
    assert m.deal.result().redeal and m.scores == [6, 6, 6]
    m.next_deal()
    assert m.deal.dealer == 2


def _replay(m: Match, rng: random.Random) -> list[list[str]]:
    out = []
    while True:
        finish(m, rng)
        out.append(list(m.deal.actions))
        if m.finished or len(out) == 4:
            return out
        m.next_deal()


def test_reproducible_from_the_match_seed() -> None:
    a, b = Match(4, seed=9), Match(4, seed=9)
    assert _replay(a, random.Random(1)) == _replay(b, random.Random(1))
    assert a.deal_seeds == b.deal_seeds
    assert [d.deck for d, _ in a.history] == [d.deck for d, _ in b.history]
    assert Match(4, seed=10).deal.deck != Match(4, seed=9).deal.deck


def test_replay_from_stored_deal_seeds() -> None:
    original = Match(4, seed=11, thani=True)
    _replay(original, random.Random(2))
    seeds = original.deal_seeds
    copy = Match(4, seed=999, deal_seed=seeds[0], thani=True)
    assert copy.deal.deck == (original.history[0][0] if original.history else original.deal).deck
    rng = random.Random(2)
    for k, seed in enumerate(seeds[1:], start=1):
        finish(copy, rng)
        copy.next_deal(seed=seed)
        src = original.history[k][0] if k < len(original.history) else original.deal
        assert copy.deal.deck == src.deck and copy.deal.dealer == src.dealer
    assert copy.deal_seeds == seeds
