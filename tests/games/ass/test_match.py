"""Banks and the match: the end rules, the next dealer, scores as negated banks."""

from __future__ import annotations

import random

import pytest

from albastini.games.ass import IllegalMove, Match, make_player, table_view
from albastini.games.ass.match import match_over


def finish(match: Match, rng: random.Random) -> None:
    while match.deal.phase != "finished":
        match.deal.apply(rng.choice(match.deal.legal_actions()))


def test_match_end_rules() -> None:
    assert not match_over([3, 3, 3])
    assert match_over([0, 3, 4])
    assert match_over([2, 6, 4])
    assert not match_over([6, 6])  # everyone at six together: play on
    assert match_over([7, 6])
    assert match_over([0, 0])


def test_scores_are_negated_banks_and_the_deal_passes_to_the_first_leader() -> None:
    rng = random.Random(3)
    m = Match(3, seed=5)
    assert m.scores == [-3, -3, -3] and m.banks == [3, 3, 3]
    assert m.deal.first_deal
    with pytest.raises(IllegalMove):
        m.next_deal()
    while True:
        finish(m, rng)
        r = m.deal.result()
        assert r.game_points == r.banks  # the rules' sign: negative = a bank dropped
        assert m.scores == [-b for b in m.banks]
        if m.finished:
            break
        leader = m.deal.state.first_leader
        m.next_deal()
        assert m.deal.dealer == leader and not m.deal.first_deal
        assert m.deal.view(0)["banks"] == m.banks
        assert m.deal.state.first_leader == (m.deal.dealer + 1) % 3
    banks = m.banks
    assert min(banks) <= 0 or max(banks) >= 6
    assert m.winners == [s for s in range(3) if banks[s] == min(banks)]
    assert m.winner == (m.winners[0] if len(m.winners) == 1 else None)
    assert m.losers == [s for s in range(3) if banks[s] >= 6]
    with pytest.raises(IllegalMove):
        m.next_deal()


def test_a_match_keeps_its_trump_variant() -> None:
    m = Match(4, seed=1, trumps=5)
    rng = random.Random(1)
    finish(m, rng)
    if not m.finished:
        m.next_deal(seed=9)
        assert m.deal.options.variant == 5 and m.deal_seeds[-1] == 9


def test_computer_players_play_a_match() -> None:
    m = Match(2, seed=4)
    bots = [make_player("normal", seed=1), make_player("easy", seed=2)]
    for _ in range(3):
        while m.deal.phase != "finished":
            seat = m.deal.to_act
            assert seat is not None
            view = table_view(m.deal, seat)
            code = bots[seat].choose(view)
            assert code in view["legal"]
            m.deal.apply(code)
        if m.finished:
            break
        m.next_deal()


def test_the_trump_variant_is_a_table_option_of_the_interface() -> None:
    """``OPTIONS`` names the trump variant; the interface checks a choice against it and
    against what the match can be played with, and passes it to the match."""
    import pytest

    from albastini.games.interface import game

    ass = game("ass")
    assert ass.options == {"trumps": (1, 2, 3, 4, 5)}
    ass.check_options(3, 1, {"trumps": 5})
    ass.check_options(6, 1, {})
    # True is an int to the type checker, not to the interface
    bad: list[tuple[int, dict[str, int]]] = [
        (5, {"trumps": 1}), (3, {"trumps": 6}), (3, {"suits": 1}), (3, {"trumps": True})]
    for players, options in bad:
        with pytest.raises(ValueError):
            ass.check_options(players, 1, options)
    with pytest.raises(ValueError):
        game("albastini").check_options(4, 2, {"trumps": 3})
    match = ass.new_match(3, 1, 5, 0, 7, {"trumps": 3})
    assert match.deal.view(None)["trumps"] == [["S"], ["S"], ["S"]]
    assert ass.new_match(3, 1, 5, 0, 7).deal.view(None)["variant"] == 1


def test_a_deal_below_zero_card_points_is_scored_as_the_rules_say() -> None:
    """Sixes are worth -1, so a player can end a deal below 0; the platform's deal score (what
    the store keeps and the statistics count) is the rules' number, as the view's result is
    (seed 14, everyone playing their first legal code: -1)."""
    from albastini.games.interface import game

    ass = game("ass")
    match = ass.new_match(3, 1, 5, 0, 14)
    while not ass.deal_over(match):
        ass.apply(match, ass.legal(match)[0])
    assert ass.result_json(match)["points"] == [115, -1, 87]
    assert ass.deal_score(match).points == (115, -1, 87)
