"""The exact endgame solver of the hard player: its values are those of a plain minimax over
the kernel's own rules, and the player that uses it finds the card one step over rollouts
misses, legally and from its view alone."""

from __future__ import annotations

import random

import pytest

from albastini.games.twentyeight import kernel as K
from albastini.games.twentyeight import new_deal
from albastini.games.twentyeight.ai.search import SearchPlayer
from albastini.games.twentyeight.ai.solve import EndgameSolver, solvable, tricks_left

from .helpers import minimax, play, plays_legal_cards
from .test_ismcts import ACTIONS, DECK


def brute(st: K.State) -> int:
    """The bidding side's card points at the end of ``st`` when the bidding side maximizes
    them and the defenders minimize them, every legal action of the kernel tried."""
    return int(minimax(st, lambda end: end.points[end.bidder % end.n_teams]))


def endgame(rng: random.Random, players: int, team_size: int, left: int, played: int,
            call: float) -> K.State:
    """A random deal played at random to ``left`` tricks before the end with ``played`` cards
    of the trick already down; a player void in the suit led calls for the trump with the
    chance ``call`` (low: the trump often still face down)."""
    while True:
        deck = list(K.pack_ints(players))
        rng.shuffle(deck)
        st = K.State.new(players, team_size, rng.randrange(players), deck)
        while st.phase != K.FINISHED:
            if st.phase == K.PLAYING and tricks_left(st) == left and len(st.trick) == played:
                return st
            legal = st.legal()
            if st.phase == K.PLAYING and K.EXPOSE in legal and len(legal) > 1:
                st.apply(K.EXPOSE if rng.random() < call else rng.choice(legal[:-1]))
            elif st.phase == K.RAISING:
                st.apply(K.PASS)
            else:
                st.apply(rng.choice(legal))


@pytest.mark.parametrize(("players", "team_size"), [(4, 2), (3, 1), (6, 3)])
def test_solver_values_equal_a_brute_force_minimax(players: int, team_size: int) -> None:
    """Random endgames of one to three tricks, some with cards of the trick already down,
    with the trump face down or shown: each action's value (calls for the trump included)
    is the minimax of the bidding side's points over the kernel's legal actions, and the
    null-window answer is whether that reaches what the side needs."""
    rng = random.Random(players)
    checked = hidden = 0
    for left in (1, 2, 3):
        for _ in range(14):
            st = endgame(rng, players, team_size, left, rng.randrange(players), 0.1)
            hidden += st.face_down
            actions = st.play_options()
            have = st.points[st.bidder % st.n_teams]
            need = st.contract - have
            points = EndgameSolver(st).values(actions)
            made = EndgameSolver(st).values(actions, need)
            for a, v, m in zip(actions, points, made, strict=True):
                nxt = st.copy()
                nxt.apply(a)
                exact = brute(nxt)
                assert have + v == exact
                assert m == int(exact >= st.contract)
                checked += 1
    assert checked >= 42 and hidden >= 5


def test_solver_leaves_a_thani_to_the_rollouts() -> None:
    """A Thani is won by every trick, not by points: such a state is not solvable and the
    solver says so rather than answering wrongly."""
    deal = new_deal(4, 2, 2, deck=DECK)
    play(deal, *ACTIONS)
    st = deal.state.copy()
    assert solvable(st)
    st.thani = True
    assert not solvable(st)
    with pytest.raises(ValueError):
        EndgameSolver(st)


def test_hard_finds_the_lead_that_beats_the_contract_from_its_view() -> None:
    """Seat 1 (a defender) leads to the last three tricks: only the Ace of hearts beats the
    contract (test_ismcts shows one step over rollouts missing it on the true deal). Solving
    each sampled world exactly, the hard player leads it whatever its seed; with rollouts it
    does not every time."""
    deal = new_deal(4, 2, 2, deck=DECK)
    play(deal, *ACTIONS)
    view = deal.view(1)
    assert sorted(view["legal"]) == ["play:AH", "play:KS", "play:TS"]
    exact, rolled = set(), set()
    for seed in range(5):
        bot = SearchPlayer(seed=seed, iterations=100)
        bot.exact_tricks = 3
        exact.add(bot.choose(view))
        bot = SearchPlayer(seed=seed, iterations=100)
        bot.exact_tricks = 0
        rolled.add(bot.choose(view))
    assert exact == {"play:AH"}
    assert rolled != {"play:AH"}


def test_hard_endgame_choice_depends_on_its_view_alone() -> None:
    """The other players' unplayed cards swapped among them (the view of seat 1 unchanged):
    the solving player makes the same choice every time."""
    choices = set()
    rng = random.Random(3)
    for _ in range(5):
        deal = new_deal(4, 2, 2, deck=DECK)
        play(deal, *ACTIONS)
        view = deal.view(1)
        hands = deal.state.hands
        others = [c for s in (0, 2, 3) for suit in hands[s] for c in suit]
        rng.shuffle(others)
        sizes = [sum(len(suit) for suit in hands[s]) for s in (0, 2, 3)]
        for s, size in zip((0, 2, 3), sizes, strict=True):
            hands[s] = [[], [], [], []]
            for c in others[:size]:
                hands[s][K.SUIT[c]].append(c)
            others = others[size:]
        assert deal.view(1) == view
        bot = SearchPlayer(seed=7, iterations=20)
        bot.exact_tricks = 3
        choices.add(bot.choose(deal.view(1)))
    assert len(choices) == 1


@pytest.mark.parametrize("players", [3, 4, 6])
def test_hard_solving_late_tricks_plays_legal_cards(players: int) -> None:
    """Whole deals with every seat solving its last four tricks exactly: each code is legal
    and each deal finishes."""
    bot = SearchPlayer(seed=players, iterations=3)
    bot.exact_tricks = 4
    plays_legal_cards(bot, players)
