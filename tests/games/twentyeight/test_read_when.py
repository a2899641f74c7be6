"""When hard reads the plays (``SearchPlayer.read_when``, bench-only: bench/README.md,
Twenty-Eight thirteenth round): at every decision, or only while its side holds the
contract, the defenders' plays read as ``read_model`` reads them."""

from __future__ import annotations

from typing import Any

import pytest

from albastini.games.twentyeight import Deal
from albastini.games.twentyeight.ai import search
from albastini.games.twentyeight.ai.core import read_view
from albastini.games.twentyeight.ai.reads import play_weight
from albastini.games.twentyeight.ai.search import READ_MODELS, SearchPlayer

from ..albastini.test_arena import arena
from .helpers import play_until


def in_play(seed: int, declaring: bool) -> tuple[Deal, dict[str, Any]]:
    """A 4-pairs deal after at least one trick, with a seat of the bidding side
    (``declaring``) or of the defenders to act who has a choice; its view."""
    return play_until(seed, lambda deal, seat, view: (
        (seat % 2 == deal.state.bidder % 2) == declaring and len(view["legal"]) > 1
        and bool(deal.state.tricks)))


def reader(seed: int, when: str | None) -> SearchPlayer:
    """Hard reading the opponents and its partner by either model, at ``when``."""
    bot = SearchPlayer(seed=seed, iterations=6)
    bot.read_plays = bot.read_partner = 0.5
    bot.read_model = "either"
    if when is not None:
        bot.read_when = when
    return bot


def reads_of(monkeypatch: pytest.MonkeyPatch, bot: SearchPlayer, view: dict[str, Any]
             ) -> tuple[str, list[tuple[float, float, Any, int]]]:
    """``bot``'s choice for ``view`` and, for each reading of the plays it made on the
    way, the miss, the partner's miss, the models and the seats."""
    calls: list[tuple[float, float, Any, int]] = []
    def recorded(*args: Any, **kwargs: Any) -> float:
        calls.append((args[3], kwargs.get("partner_miss", 1.0), kwargs.get("models"),
                      kwargs.get("seats", -1)))
        return play_weight(*args, **kwargs)

    monkeypatch.setattr(search, "play_weight", recorded)
    return bot.choose(view), calls


@pytest.mark.parametrize("seed", range(4))
def test_a_defender_reading_only_when_declaring_reads_nothing(
        monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    _, view = in_play(seed, declaring=False)
    choice, calls = reads_of(monkeypatch, reader(seed, "declaring"), view)
    assert calls == []
    # every world drawn as by hard that reads nothing: the same choice
    assert choice == SearchPlayer(seed=seed, iterations=6).choose(view)
    _, calls = reads_of(monkeypatch, reader(seed, None), view)
    assert calls  # by default a defender reads


@pytest.mark.parametrize("seed", range(4))
def test_the_declarer_reads_the_defenders_as_always(
        monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    _, view = in_play(seed, declaring=True)
    choice, calls = reads_of(monkeypatch, reader(seed, "declaring"), view)
    assert calls
    # the defenders' plays by either model, the partner's not read
    assert {c[:3] for c in calls} == {(0.5, 1.0, READ_MODELS["either"])}
    assert (choice, calls) == reads_of(monkeypatch, reader(seed, "always"), view)
    k = read_view(view)
    assert k.side(k.seat) == 0


def test_an_unknown_moment_is_refused() -> None:
    _, view = in_play(0, declaring=True)
    bot = reader(0, "sometimes")
    with pytest.raises(ValueError):
        bot.choose(view)


def test_the_arena_sets_when_to_read() -> None:
    bot = arena.make_bot("twentyeight", "hard", 1, {
        "read_plays": 0.5, "read_when": "declaring", "iterations": 2})
    assert isinstance(bot, SearchPlayer)
    assert bot.read_when == "declaring"
    bot = arena.make_bot("twentyeight", "hard", 1, {"iterations": 2})
    assert isinstance(bot, SearchPlayer)
    assert bot.read_when == "always"
