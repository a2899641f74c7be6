"""Hard's defence options, all bench-only (bench/README.md, Twenty-Eight eleventh round): the
bidding side rolled out by the careful rule when hard defends (``defence_rollout``), the
rollout policy's card for its leads and follows while the trump is hidden
(``hidden_defence``), more worlds for those decisions (``hidden_worlds``), worlds whose
bidder laid a card other than its weakest face down weighed down (``weaker_face_down``),
and worlds read from the partner's plays (``read_partner``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from albastini.games.twentyeight import Deal
from albastini.games.twentyeight import kernel as K
from albastini.games.twentyeight.ai import infer, search
from albastini.games.twentyeight.ai.core import read_view, sample_world
from albastini.games.twentyeight.ai.reads import play_weight, public_plays
from albastini.games.twentyeight.ai.search import SearchPlayer

from ..albastini.test_arena import arena
from .helpers import play_until, plays_legal_cards, to_play


def defending(seed: int) -> tuple[Deal, dict[str, Any]]:
    """A 4-pairs deal in play, the trump face down, with a defender to act who has a
    choice; its view."""
    return play_until(seed, lambda deal, seat, view: (
        seat % 2 != deal.state.bidder % 2 and len(view["legal"]) > 1
        and view["trump_face_down"]))


def test_the_defence_mask_is_the_bidding_side() -> None:
    _, view = defending(1)
    k = read_view(view)
    bot = SearchPlayer(seed=1, iterations=4)
    bot.defence_rollout = "bidder"
    mask = bot.defence_mask(k)
    assert mask == sum(1 << s for s in range(4) if k.side(s) == 0)
    bot.defence_rollout = "all"
    assert bot.defence_mask(k) == 0b1111
    bot.defence_rollout = "nonsense"
    with pytest.raises(ValueError):
        bot.defence_mask(k)


def test_the_rule_decides_only_a_defenders_leads_and_follows_while_hidden() -> None:
    decided = 0
    for seed in range(30):
        _, view = defending(seed)
        k = read_view(view)
        bot = SearchPlayer(seed=seed, iterations=4)
        bot.hidden_defence = "fair"
        follows = not k.trick or any(K.SUIT[c] == K.SUIT[k.trick[0][1]] for c in k.hand)
        assert bot.rule_decides(k) == follows
        if follows:
            decided += 1
            # the rollout policy's card, from what this seat knows: the same in any world
            world = sample_world(k, random.Random(seed))
            assert bot.choose(view) == search.fair_code(world)
            assert bot.last_samples == 0
    assert decided > 5


def test_a_bidders_side_never_hands_its_play_to_the_rule() -> None:
    deal = to_play(seed=4)
    bot = SearchPlayer(seed=4, iterations=4)
    bot.hidden_defence = "fair"
    while deal.phase == "playing":
        seat = deal.to_act
        assert seat is not None
        view = deal.view(seat)
        if seat % 2 == deal.state.bidder % 2:
            assert not bot.rule_decides(read_view(view))
        deal.apply(view["legal"][0])


def test_hidden_worlds_takes_more_worlds_for_a_defender_while_hidden() -> None:
    _, view = defending(2)
    if len(view["legal"]) < 2:
        pytest.skip("no choice")
    bot = SearchPlayer(seed=2, iterations=10)
    bot.PRUNE = 0.0
    bot.choose(view)
    assert bot.last_samples == 10
    bot.hidden_worlds = 3.0
    bot.choose(view)
    assert bot.last_samples == 30
    assert bot.iterations == 10


def test_a_stronger_face_down_card_than_the_weakest_weighs_less() -> None:
    lighter = 0
    for seed in range(40):
        _, view = defending(seed)
        k = read_view(view)
        said = infer.speeches(k)
        rng = random.Random(seed)
        world = sample_world(k, rng)
        plain = infer.world_weight(k, world, said, random.Random(0))
        same = infer.world_weight(k, world, said, random.Random(0), weaker=1.0)
        weighed = infer.world_weight(k, world, said, random.Random(0), weaker=0.25)
        assert same == plain
        assert weighed in (pytest.approx(plain), pytest.approx(plain * 0.25))
        lighter += weighed < plain
    assert lighter > 0


def test_a_partners_plays_read_keep_the_worlds_where_the_rule_makes_them() -> None:
    # with a vanishing miss, the world kept is one where the careful rule makes each of the
    # partner's plays with a choice, whenever such a world is drawn among the tries
    read = 0
    for seed in range(12):
        _, view = defending(seed)
        k = read_view(view)
        history = public_plays(k)
        partner = (k.seat + 2) % 4
        if not any(s == partner for s, _ in history):
            continue
        bot = SearchPlayer(seed=seed, iterations=4)
        bot.read_partner = 1e-9
        world = bot.partner_world(k, history)
        assert sorted(c for h in world.hands[k.seat] for c in h) == sorted(k.hand)
        w = play_weight(world, k, history, 1e-9, opponents_only=False, seats=1 << partner)
        read += w == 1.0
    assert read > 0


def test_hard_with_the_defence_options_plays_legal_codes() -> None:
    bot = SearchPlayer(seed=3, iterations=4)
    bot.read_partner = 0.5
    bot.defence_rollout = "bidder"
    bot.hidden_defence = "fair"
    bot.hidden_worlds = 2.0
    bot.weaker_face_down = 0.2
    plays_legal_cards(bot, 4, seeds=1)
    plays_legal_cards(bot, 3, seeds=1)


def test_the_arena_sets_the_defence_options() -> None:
    bot = arena.make_bot("twentyeight", "hard", 1, {
        "defence_rollout": "bidder", "hidden_defence": "fair", "hidden_worlds": 2.0,
        "weaker_face_down": 0.2, "read_partner": 0.5, "iterations": 2})
    assert isinstance(bot, SearchPlayer)
    assert (bot.defence_rollout, bot.hidden_defence, bot.hidden_worlds,
            bot.weaker_face_down, bot.read_partner) == ("bidder", "fair", 2.0, 0.2, 0.5)
    bot = arena.make_bot("twentyeight", "hard", 1, {"iterations": 2})
    assert isinstance(bot, SearchPlayer)
    assert (bot.defence_rollout, bot.hidden_defence, bot.hidden_worlds,
            bot.weaker_face_down, bot.read_partner) == ("fair", "search", 1.0, 1.0, 0.0)
