"""The computer players answer legal codes from their view alone, reproducibly."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from albastini.games.ass import decide, make_player, new_deal, table_view
from albastini.games.ass import kernel as K
from albastini.games.ass.ai import SearchPlayer
from albastini.games.ass.ai.core import (
    best_own_line,
    careful_card,
    careful_evidence,
    deal_around_voids,
    finish_trick,
    greedy_card,
    known_voids,
    levels_of,
    lookahead_card,
    margin_utility,
    read_view,
    rollout,
    solve_exact,
)
from albastini.games.ass.deal import Deal

from .helpers import hidden_dealt_again


def plays_legal_codes(deal: Deal, bot: Any) -> None:
    """``bot`` plays every seat of ``deal`` to its end; each code it answers is legal."""
    while deal.phase != "finished":
        view = table_view(deal, deal.to_act)
        code = bot.choose(view)
        assert code in view["legal"]
        deal.apply(code)


@pytest.mark.parametrize("level", ["random", "easy", "normal", "hard"])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_level_plays_legal_codes(level: str, players: int) -> None:
    deal = new_deal(players, seed=players)
    bot = make_player(level, seed=1, **({"iterations": 2} if level == "hard" else {}))
    plays_legal_codes(deal, bot)


def test_decide_is_reproducible_and_picklable() -> None:
    deal = new_deal(3, seed=8)
    rng = random.Random(1)
    for _ in range(5):
        deal.apply(rng.choice(deal.legal_actions()))
    view = table_view(deal, deal.to_act)
    assert decide("normal", view, 3) == decide("normal", view, 3)
    pickle.dumps(decide)
    with pytest.raises(ValueError):
        make_player("grandmaster")
    with pytest.raises(ValueError):
        make_player("easy", depth=3)


@pytest.mark.parametrize(("trumps", "suits"), [(1, "DHCS"), (2, None), (3, "H"), (4, "CH"),
                                               (5, None)])
def test_players_read_every_trump_variant(trumps: int, suits: str | None) -> None:
    deal = new_deal(4, seed=trumps, trumps=trumps, suits=suits)
    bots = [make_player("normal", seed=s) for s in range(2)] + [make_player("easy", seed=3),
                                                                  make_player("random", seed=4)]
    while deal.phase != "finished":
        seat = deal.to_act
        assert seat is not None
        view = table_view(deal, seat)
        assert levels_of(view) == (deal.state.levels, deal.state.main_levels)
        code = bots[seat].choose(view)
        assert code in view["legal"]
        deal.apply(code)


def _played_to(tricks: int, seed: int) -> Deal:
    """A four-player deal played by normal players until ``tricks`` tricks are done (the
    bets made when ``tricks`` > 0)."""
    deal = new_deal(4, 1, seed % 4, seed=seed)
    players = [make_player("normal", seed=s) for s in range(4)]
    while deal.phase != "finished" and ((deal.phase == "betting" and tricks > 0)
                                        or len(deal.state.tricks) < tricks):
        assert deal.to_act is not None
        deal.apply(players[deal.to_act].choose(table_view(deal, deal.to_act)))
    return deal


@pytest.mark.parametrize("option", ["", "tell", "replies"])
@pytest.mark.parametrize("tricks", [0, 3, 7])
def test_hard_sees_only_its_view(tricks: int, option: str) -> None:
    """Hard with fixed worlds, the hidden cards dealt differently around the same view (the
    bet, a trick with the stock still out, the end once nobody draws): the same
    choice every time; also when it tells its opponents apart (``tell``), whose evidence
    is read from the public tricks alone, and when its worlds' replies look ahead
    (``replies``)."""
    checked = 0
    for seed in range(5):
        deal = _played_to(tricks, seed)
        if deal.phase == "finished":
            continue
        seat = deal.to_act
        assert seat is not None
        view = table_view(deal, seat)
        codes = set()
        rng = random.Random(seed)
        for _ in range(6):
            again = hidden_dealt_again(deal, seat, rng)
            assert table_view(again, seat) == view
            bot = make_player("hard", seed=1, iterations=4)
            assert isinstance(bot, SearchPlayer)
            if option:
                setattr(bot, option, 2.0)
            codes.add(bot.choose(table_view(again, seat)))
        assert len(codes) == 1
        checked += 1
    assert checked >= 4



def _trick_to_answer(later: list[str]) -> K.State:
    """No trumps, four players, the stock empty: seat 0 has led the Queen of spades and
    seat 1 (King and Seven of spades) answers; seat 2 holds ``later``, seat 3 only clubs."""
    levels, main_levels = K.trump_levels(2, 4, [])
    st = K.State(4, 3, list(range(36)), levels, main_levels, first_deal=False)
    hands = [["QS", "6D"], ["KS", "7S"], later, ["6C", "7C"]]
    st.hands = [[K.CODE_INT[c] for c in h] for h in hands]
    st.stock, st.pos, st.bets, st.phase, st.to_act = [], 0, [0] * 4, K.PLAYING, 0
    st.play(K.CODE_INT["QS"])
    return st


def test_careful_rollouts_spend_a_winning_card_only_where_it_stands() -> None:
    """The King takes the Queen (and the pair's 17 points) unless a later seat holds the
    Ten that takes the King over: then the rollout gives the Seven instead. The greedy rule
    takes it either way."""
    for later, careful in ((["9H", "JH"], "KS"), (["TS", "JH"], "7S")):
        st = _trick_to_answer(later)
        legal = st.legal_cards()
        assert K.CODES[careful_card(st, legal)] == careful
        assert K.CODES[greedy_card(st, legal)] == "KS"


def test_a_reply_looking_ahead_keeps_a_card_that_would_be_taken_over() -> None:
    """The reply that looks one rollout ahead takes the Queen with the King when nobody
    after it can take the King over, and gives the Seven when the next seat holds the Ten
    (whose rollout takes the King and the pair's points): greedy takes it either way."""
    for later, wanted in ((["9H", "JH"], "KS"), (["TS", "JH"], "7S")):
        st = _trick_to_answer(later)
        before = st.copy()
        assert K.CODES[lookahead_card(st, st.legal_cards())] == wanted
        assert (st.hands, st.trick.plays, st.points) == (before.hands, before.trick.plays,
                                                         before.points)


def test_finishing_a_trick_plays_that_trick_only() -> None:
    """:func:`finish_trick` plays the trick on the table to its end, each seat by the given
    policy, and stops there; with no card on the table it plays nothing."""
    st = _trick_to_answer(["TS", "JH"])
    finish_trick(st, greedy_card)
    assert len(st.tricks) == 1 and st.trick.plays == []
    assert [K.CODES[c] for _, c in st.tricks[0][0]] == ["QS", "KS", "TS", "6C"]
    after = st.copy()
    finish_trick(st, greedy_card)
    assert st.hands == after.hands and st.tricks == after.tricks


def test_hard_counts_banks_at_a_worlds_end() -> None:
    """Hard's measure of a world's end is the table's: reaching the target (92 with four
    players) is worth about one bank against each opponent, an opponent reaching it costs a
    third of that, and an opponent's "go" missed (a bank it takes) gains a third."""
    bot = make_player("hard", seed=1)
    assert isinstance(bot, SearchPlayer)
    for first in ("no", "go"):
        deal = new_deal(4, 1, 0, seed=2)
        for code in (first, "no", "no", "no"):  # seat 1 (the dealer's left) speaks first
            deal.apply(code)
        mine = read_view(table_view(deal, 2))
        if first == "go":
            assert 0.3 < bot.bank_score(mine, [40, 20, 40, 40]) < 0.4
            continue
        reached = bot.bank_score(mine, [40, 40, 130, 40])
        assert reached > 0.95 and abs(bot.bank_score(mine, [40, 40, 40, 40])) < 0.01
        assert -0.4 < bot.bank_score(mine, [40, 40, 40, 130]) < -0.3


def test_hard_with_its_bench_options_plays_legal_codes() -> None:
    """Hard with careful rollouts in half its worlds and banks counted at a world's end
    (``--ass-hard careful=0.5,reach=100``) still answers legal codes."""
    deal = new_deal(4, seed=11)
    bot = make_player("hard", seed=1, iterations=2)
    assert isinstance(bot, SearchPlayer)
    bot.careful, bot.reach = 0.5, 100.0
    plays_legal_codes(deal, bot)


def test_a_seat_that_plays_the_careful_card_is_told_careful() -> None:
    """Seat 1 always plays :func:`careful_card` on the true hands, seat 2 plays with a
    searching player (normal): after six tricks, seen from seat 0, the careful seat's plays
    are explained by the careful rule beyond chance, and better than the searching seat's;
    the viewer's own seat carries no evidence."""
    careful = searching = 0.0
    for seed in range(6):
        deal = new_deal(4, 1, seed % 4, seed=seed)
        bots = [make_player("normal", seed=s) for s in range(4)]
        while deal.phase != "finished" and len(deal.state.tricks) < 6:
            seat = deal.to_act
            assert seat is not None
            st = deal.state
            legal = st.legal_cards()
            if seat == 1 and deal.phase == "playing" and len(legal) > 1:
                deal.apply("play:" + K.CODES[careful_card(st, legal)])
            else:
                deal.apply(bots[seat].choose(table_view(deal, seat)))
        ev = careful_evidence(table_view(deal, 0), random.Random(seed), worlds=4)
        assert ev[0] == 0.0
        careful += ev[1]
        searching += ev[2]
    assert careful > 0 and careful > searching


def test_hard_telling_its_opponents_apart_plays_legal_codes() -> None:
    """Hard playing each opponent by the rule its plays suggest (``--ass-hard tell=1``)
    still answers legal codes, through a whole deal."""
    deal = new_deal(4, seed=12)
    bot = make_player("hard", seed=1, iterations=2)
    assert isinstance(bot, SearchPlayer)
    bot.tell = 1.0
    plays_legal_codes(deal, bot)


def test_hard_counts_banks_late_only_once_the_stock_is_out() -> None:
    """With ``reach_late`` the banks weigh nothing while the stock still deals every seat a
    card: at the first trick hard answers what it answers on points alone (the same worlds),
    and it plays legal codes to the end of a five-player deal."""
    for seed in range(3):
        deal = new_deal(5, seed=seed)
        while deal.phase == "betting":
            deal.apply("no")
        view = table_view(deal, deal.to_act)
        assert view["stock"] >= 5
        codes = []
        for reach, late in ((0.0, 0.0), (100.0, 1.0)):
            bot = make_player("hard", seed=1, iterations=6)
            assert isinstance(bot, SearchPlayer)
            bot.reach, bot.reach_late = reach, late
            codes.append(bot.choose(view))
        assert codes[0] == codes[1]
    bot = make_player("hard", seed=1, iterations=2)
    assert isinstance(bot, SearchPlayer)
    bot.reach, bot.reach_late = 100.0, 1.0
    plays_legal_codes(new_deal(5, seed=13), bot)


def _max_n(st: K.State) -> list[float]:
    """The end of ``st`` when every seat plays for its points margin seeing every hand,
    the lowest card on a tie: the kernel's own rules, one state copied per card."""
    if st.phase != K.PLAYING:
        return [float(p) for p in st.points]
    seat = st.to_act
    best: list[float] = []
    for c in st.legal_cards():
        nxt = st.copy()
        nxt.play(c)
        end = _max_n(nxt)
        if not best or margin_utility(end, seat) > margin_utility(best, seat):
            best = end
    return best


def test_the_exact_endgame_is_the_kernels_max_n() -> None:
    """Once nobody draws, :func:`solve_exact` gives, per legal card of the seat to act, the
    end that the kernel's own rules reach when every seat plays for its margin seeing every
    hand (brute force over copied states), in two- to three-card endgames of played deals
    with four and five players, the trick in progress included."""
    checked = 0
    for seed in range(12):
        players = 4 + seed % 2
        deal = new_deal(players, 1, seed % players, seed=100 + seed)
        bots = [make_player("normal", seed=seed * 10 + s) for s in range(players)]
        while deal.phase != "finished":
            st = deal.state
            if (deal.phase == "playing" and st.stock_left < players
                    and len(st.hands[st.to_act]) <= 3):
                got = solve_exact(st, st.to_act)
                assert sorted(got) == st.legal_cards()
                for c, end in got.items():
                    nxt = st.copy()
                    nxt.play(c)
                    assert end == _max_n(nxt)
                checked += 1
            seat = deal.to_act
            assert seat is not None
            deal.apply(bots[seat].choose(table_view(deal, seat)))
    assert checked > 50


def test_hard_with_an_exact_endgame_plays_legal_codes() -> None:
    """Hard solving its last three tricks exactly (``--ass-hard exact=3``), with and without
    the banks in every seat's measure, still answers legal codes to the end of a deal."""
    for reach in (0.0, 100.0):
        bot = make_player("hard", seed=1, iterations=2)
        assert isinstance(bot, SearchPlayer)
        bot.exact, bot.exact_reach = 3.0, reach
        plays_legal_codes(new_deal(4, seed=14), bot)


def test_the_own_best_line_is_worth_at_least_the_rollout() -> None:
    """Once nobody draws, :func:`best_own_line` answers every legal card, and for each its
    end is worth to the seat at least what the greedy rollout of the same world gives (the
    rollout's own line is one of the lines it weighs, the others play alike)."""
    checked = 0
    for seed in range(8):
        deal = new_deal(4, 1, seed % 4, seed=200 + seed)
        bots = [make_player("normal", seed=seed * 10 + s) for s in range(4)]
        while deal.phase != "finished":
            st = deal.state
            if deal.phase == "playing" and st.stock_left < 4:
                seat = st.to_act
                got = best_own_line(st, seat)
                assert sorted(got) == st.legal_cards()
                for c, end in got.items():
                    nxt = st.copy()
                    nxt.play(c)
                    assert margin_utility(end, seat) >= margin_utility(rollout(nxt), seat)
                checked += 1
            actor = deal.to_act
            assert actor is not None
            deal.apply(bots[actor].choose(table_view(deal, actor)))
    assert checked > 50


def test_hard_counting_only_its_own_target_ignores_the_others_reaching() -> None:
    """With ``reach_others=0`` a world's banks are the seat's own reach of its target only:
    an opponent reaching the target costs nothing, the seat's own reach counts as before."""
    bot = make_player("hard", seed=1)
    assert isinstance(bot, SearchPlayer)
    deal = new_deal(5, 1, 0, seed=2)
    while deal.phase == "betting":
        deal.apply("no")
    mine = read_view(table_view(deal, 2))
    bot.reach_others = 1.0
    full = bot.bank_score(mine, [40, 40, 130, 40, 40])
    assert bot.bank_score(mine, [40, 40, 40, 130, 40]) < -0.2
    bot.reach_others = 0.0
    assert abs(bot.bank_score(mine, [40, 40, 40, 130, 40])) < 0.01
    assert bot.bank_score(mine, [40, 40, 130, 40, 40]) == pytest.approx(full, abs=0.01)


def test_hard_deals_its_worlds_around_the_suits_a_seat_lacks() -> None:
    """Once nobody draws, a seat that discarded on a suit holds none of it: hard's worlds
    with ``voids=1`` never give it that suit (six players, deals played by normal), and
    hard so set answers legal codes to the end of a deal."""
    checked = 0
    for seed in range(6):
        deal = new_deal(6, 1, seed % 6, seed=300 + seed)
        bots = [make_player("normal", seed=seed * 10 + s) for s in range(6)]
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            view = table_view(deal, seat)
            if deal.phase == "playing" and view["stock"] < 6:
                k = read_view(view)
                lacks = known_voids(k, view["tricks"])
                for s, suits in enumerate(lacks):
                    assert not suits & {c // 9 for c in deal.state.hands[s]}
                if any(lacks):
                    world = deal_around_voids(k, lacks, random.Random(seed))
                    for s, suits in enumerate(lacks):
                        assert not suits & {c // 9 for c in world.hands[s]}
                    checked += 1
            deal.apply(bots[seat].choose(view))
    assert checked > 10
    bot = make_player("hard", seed=1, iterations=2)
    assert isinstance(bot, SearchPlayer)
    bot.voids = 1.0
    plays_legal_codes(new_deal(6, seed=15), bot)


def test_hard_counts_its_own_target_with_six_players_only() -> None:
    """Hard's options per table size: with six players it counts its own reach of the
    target at a world's end and the others' not (the same choices as with those options
    set on it, the same worlds), with four or five it plays for the points margin alone; an
    option set on the player wins over its table size's, and normal keeps the margin."""
    bot = make_player("hard", seed=1)
    assert isinstance(bot, SearchPlayer)
    assert (bot.setting("reach", 6), bot.setting("reach_others", 6)) == (100.0, 0.0)
    for players in (4, 5):
        assert (bot.setting("reach", players), bot.setting("reach_others", players)) == (
            0.0, 1.0)
    bot.reach = 0.0
    assert bot.setting("reach", 6) == 0.0
    normal = make_player("normal", seed=1)
    assert isinstance(normal, SearchPlayer) and normal.setting("reach", 6) == 0.0
    deal = new_deal(6, seed=16)
    while deal.phase != "finished":
        seat = deal.to_act
        assert seat is not None
        view = table_view(deal, seat)
        sized = make_player("hard", seed=2, iterations=3)
        set_on = make_player("hard", seed=2, iterations=3)
        assert isinstance(set_on, SearchPlayer)
        set_on.reach, set_on.reach_others = 100.0, 0.0
        code = sized.choose(view)
        assert code == set_on.choose(view)
        deal.apply(code)


def test_hard_reach_step_narrows_and_weight_grows_as_the_pack_is_played() -> None:
    """The share of the pack played runs from 0 at the first card towards 1; a narrower
    step (``width``) scores a world just under the target lower and one just over higher;
    hard with the narrowing step and the growing weight set answers legal codes to the end
    of a five-player deal."""
    bot = make_player("hard", seed=3)
    assert isinstance(bot, SearchPlayer)
    bot.reach, bot.reach_others = 100.0, 0.0
    bot.reach_end_width, bot.reach_grow = 2.0, 3.0
    deal = new_deal(5, 1, 0, seed=4)
    while deal.phase == "betting":
        deal.apply("no")
    seat = deal.to_act
    assert seat is not None
    first = read_view(table_view(deal, seat))
    assert SearchPlayer.played_share(first) == 0.0
    target = K.target(5, False)
    under = [40.0] * 5
    under[seat] = target - 4
    over = list(under)
    over[seat] = target + 4
    assert bot.bank_score(first, under, 2.0) < bot.bank_score(first, under, 8.0)
    assert bot.bank_score(first, over, 2.0) > bot.bank_score(first, over, 8.0)
    shares = []
    bots = [bot] + [make_player("normal", seed=s) for s in range(4)]
    while deal.phase != "finished":
        seat = deal.to_act
        assert seat is not None
        view = table_view(deal, seat)
        shares.append(SearchPlayer.played_share(read_view(view)))
        code = bots[seat].choose(view)
        assert code in deal.legal_actions()
        deal.apply(code)
    assert shares == sorted(shares) and 0.9 < shares[-1] < 1.0


def test_hard_playing_for_its_own_points_alone_plays_legal_codes() -> None:
    """``margin_others=0`` (own points alone at a world's end, the others' not subtracted;
    a bench option) still answers legal codes through a six-player deal."""
    bot = make_player("hard", seed=5, iterations=2)
    assert isinstance(bot, SearchPlayer)
    bot.margin_others = 0.0
    plays_legal_codes(new_deal(6, seed=6), bot)


@pytest.mark.parametrize("replies", [1.0, 2.0])
def test_hard_with_looking_ahead_replies_plays_legal_codes(replies: float) -> None:
    """``replies`` (the current trick's later seats answer by one rollout's lookahead; 1
    while the stock lasts, 2 in every trick; a bench option) still answers legal codes
    through a six-player deal."""
    bot = make_player("hard", seed=5, iterations=2)
    assert isinstance(bot, SearchPlayer)
    bot.replies = replies
    plays_legal_codes(new_deal(6, seed=7), bot)
