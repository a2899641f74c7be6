"""The model the plays are read by (``SearchPlayer.read_model``, bench-only: bench/README.md,
Twenty-Eight twelfth round): the careful rule, hard's own rollout policy, or either; and a
defender reading its opponents and its partner together."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from albastini.games.twentyeight import kernel as K
from albastini.games.twentyeight.ai.careful import careful_policy
from albastini.games.twentyeight.ai.core import Knowledge, read_view, sample_world
from albastini.games.twentyeight.ai.reads import play_weight, public_plays
from albastini.games.twentyeight.ai.search import READ_MODELS, SearchPlayer, fair_policy

from ..albastini.test_arena import arena
from .helpers import plays_legal_cards, to_play
from .test_defence import defending


def code_of(action: int) -> str:
    """The Deal code of a kernel play action."""
    return "expose" if action == K.EXPOSE else "play:" + K.CODES[action]


@pytest.mark.parametrize("seed", range(4))
def test_a_table_of_the_rollout_policy_is_explained_by_its_own_model(seed: int) -> None:
    deal = to_play(4, dealer=seed % 4, seed=seed)
    stop = random.Random(seed).randrange(4, 28)
    for _ in range(stop):  # everyone plays as hard's rollouts do
        deal.apply(code_of(fair_policy(deal.state)))
    seat = deal.state.to_act
    k = read_view(deal.view(seat))
    plays = public_plays(k)
    truth = deal.state.copy()
    assert play_weight(truth, k, plays, 0.5, opponents_only=False,
                       models=READ_MODELS["fair"]) == 1.0
    assert play_weight(truth, k, plays, 0.5, opponents_only=False,
                       models=READ_MODELS["either"]) == 1.0


def defender_worlds(seed: int) -> Iterator[tuple[Knowledge, list[tuple[int, int]], K.State]]:
    """A defender's knowledge (:func:`defending`), the public plays so far, and five worlds
    sampled for it, one at a time."""
    _, view = defending(seed)
    k = read_view(view)
    plays = public_plays(k)
    rng = random.Random(seed)
    for _ in range(5):
        yield k, plays, sample_world(k, rng)


@pytest.mark.parametrize("seed", range(6))
def test_either_model_misses_no_more_than_each_alone(seed: int) -> None:
    for k, plays, world in defender_worlds(seed):
        either = play_weight(world, k, plays, 0.5, opponents_only=False,
                             models=READ_MODELS["either"])
        careful = play_weight(world, k, plays, 0.5, opponents_only=False)
        fair = play_weight(world, k, plays, 0.5, opponents_only=False,
                           models=(fair_policy,))
        assert careful == play_weight(world, k, plays, 0.5, opponents_only=False,
                                      models=(careful_policy,))
        assert either >= max(careful, fair)


def test_a_defender_reading_both_keeps_worlds_explaining_both() -> None:
    read = 0
    for seed in range(12):
        _, view = defending(seed)
        k = read_view(view)
        history = public_plays(k)
        if not history:
            continue
        bot = SearchPlayer(seed=seed, iterations=4)
        bot.read_plays = bot.read_partner = 1e-9
        bot.read_model = "either"
        world = bot.partner_world(k, history, opponents=True)
        assert sorted(c for h in world.hands[k.seat] for c in h) == sorted(k.hand)
        models = READ_MODELS["either"]
        opponents = play_weight(world, k, history, 1e-9, models=models)
        partner = play_weight(world, k, history, 1e-9, opponents_only=False,
                              seats=1 << (k.seat + 2) % 4, models=models)
        read += opponents == partner == 1.0
    assert read > 0


def test_hard_reading_by_each_model_plays_legal_codes() -> None:
    for model in READ_MODELS:
        bot = SearchPlayer(seed=5, iterations=4)
        bot.read_plays = bot.read_partner = 0.5
        bot.read_model = model
        plays_legal_cards(bot, 4, seeds=1)


def test_the_arena_sets_the_read_model() -> None:
    bot = arena.make_bot("twentyeight", "hard", 1, {
        "read_plays": 0.5, "read_partner": 0.5, "read_model": "either", "iterations": 2})
    assert isinstance(bot, SearchPlayer)
    assert (bot.read_plays, bot.read_partner, bot.read_model) == (0.5, 0.5, "either")
    bot = arena.make_bot("twentyeight", "hard", 1, {"iterations": 2})
    assert isinstance(bot, SearchPlayer)
    assert bot.read_model == "careful"


@pytest.mark.parametrize("seed", range(6))
def test_reading_the_partner_in_the_same_pass_multiplies_the_two_readings(seed: int) -> None:
    for k, plays, world in defender_worlds(seed):
        partner = 1 << (k.seat + 2) % 4
        one = play_weight(world, k, plays, 0.5, partner_miss=0.25)
        opponents = play_weight(world, k, plays, 0.5)
        partners = play_weight(world, k, plays, 0.25, opponents_only=False, seats=partner)
        assert one == pytest.approx(opponents * partners)
