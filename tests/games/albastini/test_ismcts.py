"""The heads-up tree search (``ai.ismcts``): legal cards, its budget, a tree of public plays."""

from __future__ import annotations

import random
from typing import Any

import pytest

from albastini import new_deal
from albastini.ai import make_player
from albastini.games.albastini.ai import SearchPlayer
from albastini.games.albastini.ai.core import Knowledge, read_view, utility
from albastini.games.albastini.ai.heuristic import sample_sim, stock_empty
from albastini.games.albastini.ai.ismcts import Node, Result, search, widening
from albastini.games.albastini.ai.sim import policy_card, policy_rollout
from albastini.games.albastini.deal import Deal
from albastini.games.albastini.fast import FastDeal


def heads_up_position(seed: int, rounds: int) -> Deal:
    """A heads-up deal after its bidding and ``rounds`` rounds of normal play."""
    deal = new_deal(2, 1, seed % 2, seed=seed)
    bots = [make_player("normal", seed=seed * 2 + s) for s in range(2)]
    while deal.phase == "bidding" or len(deal.view(0, history=True)["tricks"] or []) < rounds:
        seat = deal.to_act
        assert seat is not None
        deal.apply(bots[seat].choose(deal.view(seat, history=True)))
    return deal


def rollout(st: FastDeal) -> list[float]:
    points = policy_rollout(st)
    return [utility(points, t, st.team_size) for t in range(st.teams)]


def searched_on_one_world(seed: int, budget: int, **options: Any
                          ) -> tuple[Knowledge, FastDeal, list[int], Result]:
    """The tree searched ``budget`` times on one deal sampled for the seat to act after two
    rounds of a heads-up deal: the seat's knowledge, that deal, its cards, the result."""
    deal = heads_up_position(seed, 2)
    k = read_view(deal.view(deal.to_act, history=True))
    rng = random.Random(seed - 3)
    world = sample_sim(k, rng)
    moves = sorted(k.hand)
    result = search(lambda: world.copy(), moves, k.team, lambda n: n < budget, rollout, rng,
                    **options)
    return k, world, moves, result


def walk(node: Node) -> list[tuple[int, Node]]:
    """Every (card, node) below ``node``."""
    out = []
    for card, child in node.children.items():
        out.append((card, child))
        out.extend(walk(child))
    return out


@pytest.mark.parametrize("options", [
    {}, {"root": "search"}, {"paired": False}, {"widen": False}, {"explore": 0.0},
    {"replies": "policy"},
])
def test_ismcts_plays_only_legal_cards(options: dict[str, object]) -> None:
    for seed in (1, 2):
        deal = new_deal(2, 1, seed % 2, seed=50 + seed)
        bots = [make_player("hard", seed=s, iterations=4, play="ismcts", **options)
                for s in range(2)]
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat, history=True)
            action = bots[seat].choose(view)
            assert action.code in view["legal"]
            deal.apply(action)


@pytest.mark.parametrize("paired", [True, False])
def test_ismcts_stays_within_its_iterations(paired: bool) -> None:
    deal = heads_up_position(3, 2)
    k = read_view(deal.view(deal.to_act, history=True))
    rng = random.Random(1)
    moves = sorted(k.hand)
    budget = 12 if paired else 12 * len(moves)
    drawn = []

    def draw() -> FastDeal:
        drawn.append(1)
        return sample_sim(k, rng)

    result = search(draw, moves, k.team, lambda n: n < budget, rollout, rng, paired=paired,
                    ref=moves[0], policy=policy_card)
    assert result.worlds == len(drawn) == budget
    visits = [result.root.children[m].visits for m in moves]
    if paired:
        assert visits == [budget] * len(moves)  # every deal through every card
        assert set(result.sq) == set(moves) and result.sq[moves[0]] == 0.0
    else:
        assert sum(visits) == budget
    # every iteration adds one node below the root's cards at most
    assert len(walk(result.root)) <= len(moves) + sum(visits)


def test_player_samples_its_iterations_and_no_more() -> None:
    deal = heads_up_position(4, 1)
    view = deal.view(deal.to_act, history=True)
    bot = SearchPlayer(seed=1, iterations=7, play="ismcts")
    bot.choose(view)
    assert bot.last_samples == 7


def test_tree_holds_only_cards_the_seat_may_see_played() -> None:
    """Every node is a public play: this seat's cards are its own or cards it may draw, the
    opponent's are cards this seat cannot place (or knows it holds); no node plays a card
    already played, and a play is chosen no more often than it was available."""
    deal = heads_up_position(5, 3)
    seat = deal.to_act
    assert seat is not None
    k = read_view(deal.view(seat, history=True))
    assert not stock_empty(k)
    rng = random.Random(2)
    result = search(lambda: sample_sim(k, rng), sorted(k.hand), k.team, lambda n: n < 40,
                    rollout, rng, policy=policy_card)
    mine = set(k.hand) | set(k.unknown) | ({k.face_up} if k.face_up is not None else set())
    theirs = set(k.unknown) | set(k.known[1 - seat]) | (
        {k.face_up} if k.face_up is not None else set())
    nodes = walk(result.root)
    assert len(nodes) > len(k.hand)
    for card, node in nodes:
        assert card not in k.played
        assert card in (mine if node.team == k.team else theirs)
        assert node.visits <= node.avail


def test_nodes_open_the_policys_card_first() -> None:
    """Below the root a node opens one play, the rollout policy's, until it has been visited
    a few times (progressive widening)."""
    assert [widening(v) for v in (0, 3, 4, 15, 16, 36)] == [1, 1, 2, 2, 3, 4]
    _, world, moves, result = searched_on_one_world(6, 3, policy=policy_card)
    for m in moves:
        child = result.root.children[m]
        st = world.copy()
        st.play(m)
        assert list(child.children) == [policy_card(st)]


def test_unknown_play_is_refused() -> None:
    with pytest.raises(ValueError, match="play"):
        make_player("hard", play="mcts")


def test_replies_by_the_policy_leave_the_opponent_one_play_per_deal() -> None:
    """With ``replies`` the opponent's plays are not searched: on one deal, every node where
    the opponent is to play has one child, the rollout policy's card there."""
    k, _, _, result = searched_on_one_world(7, 30, policy=policy_card, replies=policy_card)
    theirs = [node for _, node in walk(result.root) if node.team != k.team]
    assert theirs
    for _, node in walk(result.root):
        opp_children = [c for c in node.children.values() if c.team != k.team]
        assert len(opp_children) <= 1
