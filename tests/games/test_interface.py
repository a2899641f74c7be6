"""Every game of ``GAMES`` offers the one interface the platform uses (issue 12): the same names,
moves as codes, views a seat may see, results as numbers per team, matches replayed from stored
seeds, computer players answering with codes; and :class:`Game` wraps each of them the same way.
"""

from __future__ import annotations

import copy
import json
import random
from types import ModuleType
from typing import Any, cast

import pytest

from albastini.games import GAMES
from albastini.games.interface import Game, MatchLike, game

PACKAGES = sorted(GAMES.items())
IDS = [name for name, _ in PACKAGES]


def play_out(deal: Any, rng: random.Random, checks: bool = False) -> list[str]:
    """Random legal codes to the end of ``deal``; returns them."""
    codes: list[str] = []
    while deal.phase != "finished":
        legal = deal.legal_actions()
        assert legal, "a deal in progress always has a move"
        assert all(isinstance(code, str) for code in legal) and legal == sorted(legal)
        if checks:
            seat = deal.to_act
            view = deal.view(seat)
            json.dumps(view)
            assert view["legal"] == sorted(legal)
            other = (seat + 1) % deal.players
            assert deal.view(other)["legal"] == []
        code = rng.choice(legal)
        deal.apply(code)
        codes.append(code)
    return codes


@pytest.mark.parametrize(("name", "package"), PACKAGES, ids=IDS)
def test_a_game_package_has_the_common_names(name: str, package: ModuleType) -> None:
    assert name == package.NAME
    assert package.MODES and all(
        set(mode) == {"players", "team_size"} and mode["players"] % mode["team_size"] == 0
        for mode in package.MODES.values()
    )
    assert {"easy", "normal", "hard"} <= set(package.LEVELS)
    assert issubclass(package.IllegalMove, ValueError)
    for member in ("new_deal", "Match", "make_player", "decide"):
        assert callable(getattr(package, member))


@pytest.mark.parametrize(("name", "package"), PACKAGES, ids=IDS)
def test_every_mode_plays_to_a_result_through_codes(name: str, package: ModuleType) -> None:
    rng = random.Random(5)
    for mode in package.MODES.values():
        players, team_size = mode["players"], mode["team_size"]
        teams = players // team_size
        for dealer in range(players):
            deal = package.new_deal(players, team_size, dealer, seed=rng.getrandbits(32))
            play_out(deal, rng, checks=dealer == 0)
            result = deal.result()
            assert len(result.points) == len(result.game_points) == teams
            assert result.winner is None or 0 <= result.winner < teams
            assert [deal.team_of(s) for s in range(players)] == [s % teams for s in range(players)]
            json.dumps(result.to_json())


@pytest.mark.parametrize(("name", "package"), PACKAGES, ids=IDS)
def test_an_illegal_code_is_refused_and_changes_nothing(name: str, package: ModuleType) -> None:
    rng = random.Random(9)
    mode = next(iter(package.MODES.values()))
    deal = package.new_deal(mode["players"], mode["team_size"], 0, seed=3)
    for _ in range(6):
        seat = deal.to_act
        before = [deal.view(s) for s in range(deal.players)]
        for bad in ("play:ZZ", "nonsense", "", "bid:", "play:" + "7" * 20, "play:JH:x"):
            with pytest.raises(package.IllegalMove):
                deal.apply(bad)
            assert [deal.view(s) for s in range(deal.players)] == before
        assert deal.to_act == seat
        deal.apply(rng.choice(deal.legal_actions()))


@pytest.mark.parametrize(("name", "package"), PACKAGES, ids=IDS)
def test_a_match_replays_from_its_stored_seeds(name: str, package: ModuleType) -> None:
    """What the table service does after a restart: the same seeds and codes, the same deals."""
    mode = next(iter(package.MODES.values()))
    rng = random.Random(1)
    seeds = [rng.getrandbits(63) for _ in range(3)]

    def deals(logs: list[list[str]] | None) -> tuple[list[Any], list[list[str]]]:
        match = package.Match(mode["players"], mode["team_size"], 50, 1, seed=99,
                              deal_seed=seeds[0])  # fmt: skip
        seen, played = [], []
        play_rng = random.Random(2)
        for k, seed in enumerate(seeds):
            if k:
                match.next_deal(seed=seed)
            seen.append([match.deal.view(s)["hand"] for s in range(mode["players"])])
            if logs is None:
                played.append(play_out(match.deal, play_rng))
            else:
                for code in logs[k]:
                    match.deal.apply(code)
            seen.append(match.scores)
        return seen, played

    first, logs = deals(None)
    again, _ = deals(logs)
    assert again == first


@pytest.mark.parametrize(("name", "package"), PACKAGES, ids=IDS)
def test_computer_players_answer_with_legal_codes(name: str, package: ModuleType) -> None:
    mode = next(iter(package.MODES.values()))
    deal = package.new_deal(mode["players"], mode["team_size"], 0, seed=11)
    players = {level: package.make_player(level, seed=1) for level in ("easy", "normal")}
    turns = 0
    while deal.phase != "finished" and turns < 40:
        view = game(name).view(_match(deal), deal.to_act)
        for level, player in players.items():
            code = player.choose(view)
            assert isinstance(code, str) and code in view["legal"], level
            assert code in deal.legal_actions(), level  # the deal's own list, as it is
        assert package.decide("easy", view, 3) in view["legal"]
        deal.apply(players["normal"].choose(view))
        turns += 1


class _Match:
    """Just enough of a match around a deal for :meth:`Game.view`."""

    def __init__(self, deal: Any) -> None:
        self.deal = deal


def _match(deal: Any) -> MatchLike:
    """A deal as the match :meth:`Game.view` takes (it reads the match's deal only)."""
    return cast(MatchLike, _Match(deal))


@pytest.mark.parametrize("name", IDS)
def test_the_platform_checks_and_applies_codes_the_same_way(name: str) -> None:
    rules: Game = game(name)
    p, t = rules.modes[0]
    match = rules.new_match(p, t, 2, 0, seed=7)
    rng = random.Random(4)
    tricks = 0
    while not rules.deal_over(match):
        legal = rules.legal(match)
        before = copy.deepcopy(rules.view(match, match.deal.to_act))
        for bad in (None, 7, "x" * 65, "play:ZZ", legal[0].upper() + "?"):
            with pytest.raises(rules.illegal):
                rules.check(match, bad)
        assert rules.view(match, match.deal.to_act) == before
        code = rules.check(match, rng.choice(legal))
        trick = rules.apply(match, code)
        if trick is not None:
            tricks += 1
            assert trick.plays and all(isinstance(c, str) for _, c in trick.plays)
    score = rules.deal_score(match)
    assert len(score.points) == len(score.game_points) == p // t
    assert tricks >= 1


@pytest.mark.parametrize("name", IDS)
def test_the_platform_reports_each_trick_the_table_shows(name: str) -> None:
    """After every move, the trick ``apply`` reports (read without a whole view) is the
    public view's newest ``last_trick`` when that changed, and nothing otherwise: what the
    statistics count and the table says happened."""
    rules: Game = game(name)
    for players, team_size in rules.modes:
        match = rules.new_match(players, team_size, 2, 0, seed=players)
        rng = random.Random(players)
        reported = 0
        while not rules.deal_over(match):
            before = match.deal.view(None)["last_trick"]
            trick = rules.apply(match, rng.choice(rules.legal(match)))
            after = match.deal.view(None)["last_trick"]
            if after == before:
                assert trick is None
                continue
            reported += 1
            assert trick is not None
            assert (trick.winner, trick.points) == (after["winner"], after["points"])
            assert [list(play) for play in trick.plays] == after["plays"]
        assert reported >= 1


@pytest.mark.parametrize(("name", "package"), PACKAGES, ids=IDS)
def test_every_view_lists_the_deals_codes_sorted(name: str, package: ModuleType) -> None:
    """One interface type: ``legal_actions()`` is the codes themselves, sorted, and the view of
    the seat to act lists exactly them (what the platform's view adds, too), in every mode."""
    rng = random.Random(21)
    for mode in package.MODES.values():
        deal = package.new_deal(mode["players"], mode["team_size"], 1, seed=rng.getrandbits(32))
        while deal.phase != "finished":
            legal = deal.legal_actions()
            assert deal.view(deal.to_act)["legal"] == sorted(legal) == legal
            assert game(name).view(_match(deal), deal.to_act)["legal"] == legal
            deal.apply(rng.choice(legal))
        assert deal.legal_actions() == []


def test_albastinis_first_api_keeps_moves_as_objects() -> None:
    """``albastini.new_deal`` and ``albastini.Match`` (the first release's API) still list
    Bid/Pass/Play objects in the hand's order, and the game's own deal the same moves as codes."""
    import albastini
    from albastini.ai import make_player
    from albastini.games.albastini import new_deal as code_deal

    classic = albastini.new_deal(4, 2, 0, seed=5)
    codes = code_deal(4, 2, 0, seed=5)
    rng = random.Random(3)
    player = make_player("normal", seed=2)
    while classic.phase != "finished":
        actions = classic.legal_actions()
        assert all(isinstance(a, albastini.Bid | albastini.Pass | albastini.Play)
                   for a in actions)
        if classic.phase == "playing":
            assert classic.to_act is not None
            assert actions == [albastini.Play(c) for c in classic.hand(classic.to_act)]
        assert sorted(a.code for a in actions) == codes.legal_actions()
        chosen = player.choose(classic.view(classic.to_act)) if rng.random() < 0.5 else (
            rng.choice(actions))
        assert chosen in actions
        classic.apply(chosen)
        codes.apply(chosen.code)
    match = albastini.Match(2, 1, 3, 0, seed=4)
    assert match.deal.to_act is not None
    assert isinstance(match.deal, albastini.Deal) and match.deal.legal_actions()[0] in (
        albastini.Bid(match.deal.hand(match.deal.to_act)[0]), albastini.Pass())
    copied = classic.copy()
    assert type(copied) is albastini.Deal


@pytest.mark.parametrize(("name", "package"), PACKAGES, ids=IDS)
def test_a_match_draws_its_deals_seeds_as_it_always_has(name: str, package: ModuleType) -> None:
    """A match's deals come from its seed as ``random.Random(seed).getrandbits(63)`` one after
    another (what tables already played and stored were dealt from), without keeping the
    generator; and a match holds no generator's state per open table."""
    mode = next(iter(package.MODES.values()))
    match = package.Match(mode["players"], mode["team_size"], 50, 0, seed=4242)
    rng = random.Random(4242)
    expected = [rng.getrandbits(63) for _ in range(4)]
    rng_deal = random.Random(7)
    for _ in range(3):
        play_out(match.deal, rng_deal)
        if match.finished:  # a short match (Ass: one bank may end it)
            break
        match.next_deal()
    assert len(match.deal_seeds) >= 2
    assert match.deal_seeds == expected[: len(match.deal_seeds)]
    assert not any(isinstance(v, random.Random) for v in vars(match).values())
