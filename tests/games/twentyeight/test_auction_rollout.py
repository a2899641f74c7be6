"""Hard's auction rollouts (``SearchPlayer.auction_rollout``, the bench's ``--rollout28
auction|auctionmin|auctionmean``): the decisions before the play (the speech, the trump card,
raising) play their sampled deals out by the policy the option names, the play keeps
``ROLLOUT``'s, and the player plays legal codes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from albastini.games.twentyeight import kernel as K
from albastini.games.twentyeight import new_deal
from albastini.games.twentyeight.ai import search
from albastini.games.twentyeight.ai.careful import careful_policy
from albastini.games.twentyeight.ai.search import SearchPlayer

from ..albastini.test_arena import arena
from .helpers import plays_legal_cards


@pytest.fixture(autouse=True)
def few_auction_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    """A few sampled deals per auction decision (not :data:`search.BID_SAMPLES`' 120, which
    ``iterations`` leaves as it is): enough to see which policy plays them out."""
    monkeypatch.setattr(search, "BID_SAMPLES", 6)


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[set[str]]:
    """The names of the rollout policies called since the set was last cleared: the search
    module's careful rule and :data:`search.ROLLOUT`'s policy, wrapped to record a call."""
    seen: set[str] = set()
    fair = search.ROLLOUT[0]

    def careful(st: K.State) -> int:
        seen.add("careful")
        return careful_policy(st)

    def base(st: K.State) -> int:
        seen.add("fair")
        return fair(st)

    monkeypatch.setattr(search, "careful_policy", careful)
    monkeypatch.setattr(search, "ROLLOUT", [base])
    yield seen


def policies_by_phase(bot: SearchPlayer, seen: set[str], seeds: int = 2) -> dict[str, set[str]]:
    """``bot`` plays every seat of whole 4-pairs deals; the rollout policies its decisions
    called, by the phase of the deal decided (only decisions with a choice)."""
    used: dict[str, set[str]] = {}
    for seed in range(seeds):
        deal = new_deal(4, seed=seed)
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            seen.clear()
            code = bot.choose(view)
            assert code in view["legal"]
            if len(view["legal"]) > 1:
                used.setdefault(str(view["phase"]), set()).update(seen)
            deal.apply(code)
    return used


def test_by_default_every_phase_rolls_out_by_the_play_policy(calls: set[str]) -> None:
    used = policies_by_phase(SearchPlayer(seed=1, iterations=2), calls)
    assert {"bidding", "trump", "raising", "playing"} <= set(used)
    assert all(names == {"fair"} for names in used.values())


def test_the_careful_auction_rolls_out_the_auction_carefully_and_the_play_fairly(
    calls: set[str],
) -> None:
    bot = SearchPlayer(seed=1, iterations=2)
    bot.auction_rollout = "careful"
    used = policies_by_phase(bot, calls)
    assert {"bidding", "trump", "raising", "playing"} <= set(used)
    for phase in ("bidding", "trump", "raising"):
        assert used[phase] == {"careful"}, phase
    assert used["playing"] == {"fair"}


@pytest.mark.parametrize("mode", ["min", "mean"])
def test_both_auction_rollouts_play_each_deal_by_both_policies(calls: set[str], mode: str
                                                                ) -> None:
    bot = SearchPlayer(seed=1, iterations=2)
    bot.auction_rollout = mode
    used = policies_by_phase(bot, calls, seeds=1)
    for phase in ("bidding", "trump", "raising"):
        assert used[phase] == {"careful", "fair"}, phase
    assert used["playing"] == {"fair"}


def test_min_scores_a_deal_by_its_lower_value_and_mean_by_the_mean() -> None:
    bot = SearchPlayer(seed=1, iterations=2)
    deal = new_deal(4, seed=3)
    finished = [deal.state.copy(), deal.state.copy()]
    values = iter([1.0, 0.0, 1.0, 0.0])
    bot.auction_rollout = "min"
    assert bot.auction_score(finished, lambda _: next(values)) == 0.0
    bot.auction_rollout = "mean"
    assert bot.auction_score(finished, lambda _: next(values)) == 0.5
    bot.auction_rollout = "bogus"
    with pytest.raises(ValueError):
        bot.auction_finish(deal.state.copy())


@pytest.mark.parametrize("mode", ["careful", "min", "mean"])
def test_hard_with_each_auction_rollout_plays_legal_codes(mode: str) -> None:
    bot = SearchPlayer(seed=2, iterations=2)
    bot.auction_rollout = mode
    for players in (3, 6):
        plays_legal_cards(bot, players, seeds=1)


@pytest.mark.parametrize(("name", "mode"),
                         [("auction", "careful"), ("auctionmin", "min"), ("auctionmean", "mean")])
def test_the_arena_sets_the_auction_rollout_and_keeps_fair_for_the_play(name: str, mode: str
                                                                        ) -> None:
    saved = search.ROLLOUT[0]
    try:
        search.ROLLOUT[0] = careful_policy
        bot = arena.make_bot("twentyeight", "hard", 1, {"rollout": name, "iterations": 2})
        assert isinstance(bot, SearchPlayer) and bot.auction_rollout == mode
        assert search.ROLLOUT[0] is search.fair_policy
    finally:
        search.ROLLOUT[0] = saved
