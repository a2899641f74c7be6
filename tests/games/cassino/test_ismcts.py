"""The hard player's other searches (selectable for the bench): information-set MCTS over the
public plays, and the value of the position left at a rollout's horizon. (The plain
positions every variant must play right are in test_ai.py.)"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from albastini.games.cassino import kernel as K
from albastini.games.cassino import make_player, new_deal, table_view
from albastini.games.cassino.ai import SearchPlayer, ismcts
from albastini.games.cassino.ai.core import WORTH, action_of, read_view, rollout_move
from albastini.games.cassino.ai.search import left_worth, rollout, sample_world
from albastini.games.cassino.deal import Deal

from .helpers import assert_blind, build, c, loose, position


def tree_player(seed: int, iterations: int = 40, left: bool = False) -> SearchPlayer:
    """A hard player that searches by ISMCTS (``iterations`` worlds' worth of rollouts)."""
    player = make_player("hard", seed=seed, iterations=iterations)
    assert isinstance(player, SearchPlayer)
    player.play_search = "ismcts"
    player.horizon_value = left
    return player


def after_greedy_plays(seed: int, plays: int, players: int = 2) -> Deal:
    """A deal ``plays`` greedy plays in."""
    deal = new_deal(players, seed=seed)
    greedy = make_player("greedy")
    for _ in range(plays):
        deal.apply(greedy.choose(table_view(deal, deal.to_act)))
    return deal


def test_ismcts_sees_only_its_view() -> None:
    """The other hand and the undealt pack dealt differently around the same view: the same
    view, so the same choice; no hidden card in the view."""
    deal = after_greedy_plays(12, 9)
    assert len(deal.legal_actions()) >= 2
    assert_blind(deal, lambda view: tree_player(2, iterations=30).choose(view), 4)


@pytest.mark.parametrize("paired", [False, True])
def test_ismcts_tree_grows_below_the_root_and_counts_every_iteration(paired: bool) -> None:
    """Unpaired, each iteration passes through one root action; paired, each world passes
    through every root action (so each has as many visits as there were worlds). Either
    way the tree reaches the other player's replies (the root's children get children,
    whose visits add up to theirs), and a reply's availability counts at least its
    visits."""
    deal = after_greedy_plays(12, 8)
    view = table_view(deal, deal.to_act)
    k = read_view(view)
    actions = [action_of(x) for x in view["legal"]]
    assert len(actions) >= 2
    rng = random.Random(4)
    root = ismcts.search(lambda: sample_world(k, rng), actions, rng, lambda done: done < 150,
                         k.round + 1, rollout, lambda end, world: [0.0] * k.n_teams,
                         rollout_move, paired=paired)
    assert set(root.children) == set(actions)
    visits = [child.visits for child in root.children.values()]
    if paired:
        assert visits == [150] * len(actions)
    else:
        assert sum(visits) == 150 and min(visits) > 0
    assert all(child.mean() == 0.0 for child in root.children.values())
    grand = [g for child in root.children.values() for g in child.children.values()]
    assert grand, "the tree stopped at the root"
    for child in root.children.values():
        assert child.team == k.team_of(k.seat)
        # every root action is legal in every world (unpaired, counted once it is open)
        assert child.avail == 150 if paired else child.visits <= child.avail <= 150
        # every iteration through an action goes on to one reply (the deal is far from
        # over), but the one that opened it unpaired
        opened = 0 if paired else 1
        assert sum(g.visits for g in child.children.values()) == child.visits - opened
        for g in child.children.values():
            assert g.team != child.team and g.avail >= g.visits >= 1


def test_paired_ismcts_compares_actions_on_the_same_worlds() -> None:
    """A close choice (trail the 6 beside a 4, open to a sweep by any ten, or a queen):
    with each world played through both trails the tree search picks the queen on every
    seed at 40 worlds, as PIMC does."""
    for seed in range(6):
        deal = position([loose("4C")], ["6D", "QH"], others=["3H", "7C"])
        assert tree_player(seed).choose(deal.view(1)) == "trail:QH"


def test_the_position_left_credits_builds_and_the_next_players_take() -> None:
    """At a horizon: a build counts for the team of the seat that controls it, and the
    next player's best capture for its team; a build that the next player takes counts for
    the taker, not its owner."""
    deal = position([build("2C5D", 7, 1), loose("9H")], ["7S", "KC"], others=["9C", "3D"])
    st = deal.state.copy()
    st.to_act = 0  # seat 0 to play: its 9 takes the 9
    values = [1.0] * 52
    out = left_worth(st, values)
    assert out[1] == pytest.approx(0.8 * 2)  # the 7-build of two cards, seat 1's
    assert out[0] == pytest.approx(0.5 * 2)  # the 9♣ takes the 9♥: two cards, no sweep
    st.hands[0] = sorted([c("7C"), c("3D")])  # now seat 0 takes the build instead
    out = left_worth(st, values)
    assert out[1] == 0.0
    assert out[0] == pytest.approx(0.5 * 3)


def test_a_finished_deal_scores_by_who_won_or_by_the_margin() -> None:
    """A deal played out to its end (its piles the real cards) counts 1 for the winner plus
    a twentieth of the points' margin, or, with ``by_win`` off, the margin alone."""
    from albastini.games.cassino.ai.search import outcomes

    rng = random.Random(3)
    deck = list(range(52))
    rng.shuffle(deck)
    start = K.State(2, 1, 0, deck)
    st = start.copy()
    while not st.finished:
        st.apply(rng.choice(st.legal()))
    points, _ = st.score()
    margin = points[0] - points[1]
    assert margin != 0
    won = outcomes(st, start)
    assert won[0] == pytest.approx((1.0 if margin > 0 else 0.0) + 0.05 * margin)
    assert won[1] == pytest.approx((1.0 if margin < 0 else 0.0) - 0.05 * margin)
    assert outcomes(st, start, by_win=False) == [margin, -margin]


def test_the_horizon_is_the_end_of_the_round_the_player_asks_for(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``horizon_rounds`` rounds after the current one are played out (default 1), in PIMC
    and in the tree search alike."""
    from albastini.games.cassino.ai import search

    deal = after_greedy_plays(12, 9)
    view = table_view(deal, deal.to_act)
    now = read_view(view).round
    seen: set[int] = set()
    played = search.rollout

    def spy(st: K.State, horizon: int) -> None:
        seen.add(horizon)
        played(st, horizon)

    monkeypatch.setattr(search, "rollout", spy)
    for rounds in (1, 0):
        for tree in (False, True):
            player = tree_player(1, iterations=3) if tree else make_player(
                "hard", seed=1, iterations=3)
            assert isinstance(player, SearchPlayer)
            if rounds == 0:
                player.horizon_rounds = 0
            seen.clear()
            assert player.choose(view) in view["legal"]
            assert seen == {now + rounds}


def test_with_more_players_the_others_answer_as_normal_until_the_round_ends(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Hard's rollouts with 3 players and in 4 pairs (SearchPlayer.rollouts_for): the
    other seats answer as normal would, the rollouts stop at the end of this round and the
    position left is valued; heads-up the rollouts stay greedy."""
    from albastini.games.cassino.ai import search

    calls: list[tuple[int, int, bool]] = []
    valued: list[int] = []
    played, worth_left = search.rollout_as, search.left_worth

    def spy(st: K.State, horizon: int, me: int, replies_only: bool = False,
            partner: str = "normal") -> None:
        calls.append((horizon, me, replies_only))
        played(st, horizon, me, replies_only, partner)

    def spy_left(st: K.State, values: Sequence[float] = WORTH) -> list[float]:
        valued.append(1)
        return worth_left(st, values)

    monkeypatch.setattr(search, "rollout_as", spy)
    monkeypatch.setattr(search, "left_worth", spy_left)
    for players in (2, 3, 4):
        deal = after_greedy_plays(12, 5, players)
        while len(deal.legal_actions()) < 2:  # a decision, so that the search runs
            deal.apply(make_player("greedy").choose(table_view(deal, deal.to_act)))
        view = table_view(deal, deal.to_act)
        player = make_player("hard", seed=1, iterations=3)
        calls.clear()
        valued.clear()
        assert player.choose(view) in view["legal"]
        if players == 2:
            assert not calls
            continue
        assert calls and set(calls) == {(read_view(view).round, deal.to_act, True)}
        assert valued


@pytest.mark.parametrize("partner", ["normal", "greedy"])
def test_in_4_pairs_the_partner_plays_in_rollouts_as_asked(
        monkeypatch: pytest.MonkeyPatch, partner: str) -> None:
    """``rollout_as(partner="greedy")``: the partner's seat plays as this seat does (the
    rollouts' greedy move), only the opponents as normal would; ``"normal"``: every other
    seat as normal would."""
    from albastini.games.cassino.ai import search

    asked: list[int] = []
    normal = search.normal_move

    def spy(st: K.State) -> K.Action:
        asked.append(st.to_act)
        return normal(st)

    monkeypatch.setattr(search, "normal_move", spy)
    deal = after_greedy_plays(7, 2, 4)
    me = deal.to_act
    st = deal.state.copy()
    assert me is not None
    search.rollout_as(st, st.rounds, me, False, partner)
    assert st.finished
    partner_seat = (me + 2) % 4
    assert me not in asked
    assert (partner_seat in asked) == (partner == "normal")
    assert {(me + 1) % 4, (me + 3) % 4} <= set(asked)


@pytest.mark.parametrize("others", ["greedy", "replies"])
def test_the_tree_plays_its_rollouts_as_pimc_does(
        monkeypatch: pytest.MonkeyPatch, others: str) -> None:
    """``play_search = "ismcts"`` in 4 pairs takes the other seats' policy that PIMC's
    rollouts use (``others_policy``): with normal's replies the tree's rollouts answer as
    normal would (``rollout_as``) and the replies it opens first are normal's, never for
    the seat that searches; greedy: the rollouts of before, every seat greedy."""
    from albastini.games.cassino.ai import search

    replies: list[int] = []
    answered: list[int] = []
    normal, played = search.normal_move, search.rollout_as

    def spy(st: K.State) -> K.Action:
        replies.append(st.to_act)
        return normal(st)

    def spy_as(st: K.State, horizon: int, me: int, replies_only: bool = False,
               partner: str = "normal") -> None:
        answered.append(me)
        played(st, horizon, me, replies_only, partner)

    monkeypatch.setattr(search, "normal_move", spy)
    monkeypatch.setattr(search, "rollout_as", spy_as)
    deal = after_greedy_plays(12, 5, 4)
    while len(deal.legal_actions()) < 2:  # a decision, so that the search runs
        deal.apply(make_player("greedy").choose(table_view(deal, deal.to_act)))
    me = deal.to_act
    view = table_view(deal, me)
    player = tree_player(3, iterations=20, left=True)
    player.others_policy = others
    assert player.choose(view) in view["legal"]
    if others == "greedy":
        assert not replies and not answered
        return
    assert answered and set(answered) == {me}
    assert replies and me not in replies
