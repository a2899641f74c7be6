"""The one interface the table service and the Discord layer use for every game.

A game package (an entry of :data:`albastini.games.GAMES`) offers ``NAME``, ``ORDER`` (its place
in every list of games), ``RANKS`` (its pack's ranks, highest first), ``MODES`` (label ->
``{"players": n, "team_size": t}``), ``LEVELS``, ``IllegalMove``, ``new_deal``, ``Match`` and
``make_player``/``decide`` (see each game's file in ``shared/rules/``). :class:`Game` wraps one
such package for the platform: the modes a table may use, a match started or replayed from stored
seeds, a move checked and applied as an action code, a deal's score as plain numbers, and the
view a seat is shown. The service never imports a game's internals; it holds a :class:`Game`.

Optional members of a game package, with the default the platform uses without them:

``default_team_size(players)``
    the team size of a new table for ``players`` (default: the first mode listed for them);
``DEFAULT_TARGET``
    the score that ends a match when the table does not say (default: the guild's setting, in
    Albastini's victory points);
``HAS_TARGET``
    False when a match does not end on a points target (Ass: banks end it); a target asked for
    is then refused (default: True);
``table_view(deal, seat)``
    the view shown to ``seat`` (None: the public table) and given to its computer player
    (default: ``deal.view(seat)``);
``OPTIONS``
    the match's own choices a table may make, name -> the values allowed (Ass: ``{"trumps":
    (1, 2, 3, 4, 5)}``, the trump variant), passed to ``Match`` as keyword arguments (default:
    none).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol, cast

__all__ = ["DealLike", "DealScore", "Game", "MatchLike", "TrickInfo", "game"]

#: The levels a computer decides inline: a few milliseconds at most. Every other level thinks
#: in the executor, off the event loop.
FAST_LEVELS = frozenset({"random", "greedy", "easy"})
#: The longest action code a table accepts: the store's log keeps up to 64 characters
#: (``albastini.store.ACTION_MAX``), enough for a Cassino build naming every card it stands on.
MAX_CODE = 64


class DealLike(Protocol):
    """A deal in progress, as every game's ``Deal`` offers it."""

    @property
    def phase(self) -> str: ...
    @property
    def to_act(self) -> int | None: ...
    def team_of(self, seat: int) -> int: ...
    def legal_actions(self) -> Sequence[str]: ...
    def apply(self, code: str) -> object: ...
    def view(self, seat: int | None) -> dict[str, Any]: ...
    def result(self) -> Any: ...


class MatchLike(Protocol):
    """A match, as every game's ``Match`` offers it."""

    @property
    def deal(self) -> DealLike: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def finished(self) -> bool: ...
    @property
    def winner(self) -> int | None: ...
    def next_dealer(self) -> int: ...
    def next_deal(self, *, seed: int | None = None) -> object: ...


@dataclass(frozen=True, slots=True)
class DealScore:
    """A finished deal's score in plain numbers: card points and game points per team, and the
    winning team (None when no single team won: a tie, or two sides winning together)."""

    points: tuple[int, ...]
    winner: int | None
    game_points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TrickInfo:
    """A trick that a move just finished: who won it, its card points, its cards in play order."""

    winner: int
    points: int
    plays: tuple[tuple[int, str], ...]


class Game:
    """One game package seen through the common interface (build it with :func:`game`)."""

    def __init__(self, package: ModuleType) -> None:
        self.package = package
        self.name: str = package.NAME
        modes: Mapping[str, Mapping[str, int]] = package.MODES
        #: (players, team_size) of every mode, in the package's order.
        self.modes: tuple[tuple[int, int], ...] = tuple(
            (int(m["players"]), int(m["team_size"])) for m in modes.values()
        )
        self.min_players = min(p for p, _ in self.modes)
        self.max_players = max(p for p, _ in self.modes)
        self.levels: tuple[str, ...] = tuple(package.LEVELS)
        #: The ranks of the game's pack, highest first (a card code is a rank then a suit).
        self.ranks: str = str(package.RANKS)
        self.illegal: type[ValueError] = package.IllegalMove
        #: The target of a new table, None when the guild's setting applies.
        self.default_target: int | None = getattr(package, "DEFAULT_TARGET", None)
        #: False when a match does not end on a points target (Ass: banks end it), so that a
        #: target asked for is refused rather than ignored.
        self.has_target: bool = bool(getattr(package, "HAS_TARGET", True))
        #: The match's own choices: name -> the values allowed.
        self.options: dict[str, tuple[int, ...]] = {
            str(k): tuple(v) for k, v in getattr(package, "OPTIONS", {}).items()
        }

    # ------------------------------------------------------------------ tables

    def default_team_size(self, players: int) -> int:
        """The team size a new table of ``players`` gets when none is asked for."""
        chooser = getattr(self.package, "default_team_size", None)
        if chooser is not None:
            return int(chooser(players))
        for p, t in self.modes:
            if p == players:
                return t
        raise ValueError(f"no mode for {players} players")

    def check_mode(self, players: int, team_size: int) -> None:
        """ValueError unless (players, team_size) is one of the game's modes."""
        if (players, team_size) not in self.modes:
            raise ValueError(f"no mode for {players} players in teams of {team_size}")

    def has_level(self, level: str) -> bool:
        """Whether the game has a computer player of ``level``."""
        return level in self.levels

    @staticmethod
    def is_fast(level: str) -> bool:
        """Whether a computer of ``level`` decides in a few milliseconds (inline)."""
        return level in FAST_LEVELS

    def check_options(self, players: int, team_size: int, options: Mapping[str, int]) -> None:
        """ValueError unless ``options`` are choices of the game's ``OPTIONS`` that a match of
        ``players`` in teams of ``team_size`` can be played with (the game's ``Match`` says)."""
        for name, value in options.items():
            allowed = self.options.get(name)
            if allowed is None or type(value) is not int or value not in allowed:
                raise ValueError(f"no option {name}={value!r} in this game")
        if options:
            self.package.Match(players, team_size, 0, 0, seed=0, deal_seed=0, **options)

    # ------------------------------------------------------------------ matches

    def new_match(
        self, players: int, team_size: int, target: int, dealer: int, seed: int,
        options: Mapping[str, int] | None = None,
    ) -> MatchLike:
        """A match whose first deal is shuffled from ``seed`` and dealt by ``dealer``, with
        the game's own ``options`` (checked by :meth:`check_options`)."""
        match = self.package.Match(players, team_size, target, dealer, seed=seed, deal_seed=seed,
                                   **dict(options or {}))
        return cast(MatchLike, match)

    def next_dealer(self, match: MatchLike) -> int:
        """Who deals the next deal (the current one must be over)."""
        return match.next_dealer()

    def next_deal(self, match: MatchLike, seed: int) -> None:
        """Start the next deal, shuffled from ``seed``."""
        match.next_deal(seed=seed)

    # ------------------------------------------------------------------ moves

    def legal(self, match: MatchLike) -> list[str]:
        """The codes of the moves the seat to act may make now, sorted."""
        return list(match.deal.legal_actions())

    def check(self, match: MatchLike, code: object) -> str:
        """``code`` itself if it is a legal move of the seat to act; otherwise the game's
        IllegalMove, with the game's reason when it gives one. Changes nothing."""
        if not isinstance(code, str) or len(code) > MAX_CODE:
            raise self.illegal("That is not a move.")
        if code in self.legal(match):
            return code
        # The game explains why: on a copy, since a game might accept a spelling that is not
        # one of its codes (the log keeps codes only).
        copy.deepcopy(match.deal).apply(code)
        raise self.illegal("That is not a move.")

    def apply(self, match: MatchLike, code: str) -> TrickInfo | None:
        """Apply a checked move; return the trick it finished, if any."""
        deal = match.deal
        before = self._last_trick(deal)
        deal.apply(code)
        after = self._last_trick(deal)
        if after is None or after == before:
            return None
        plays = tuple((int(seat), str(card)) for seat, card in after["plays"])
        return TrickInfo(int(after["winner"]), int(after["points"]), plays)

    @staticmethod
    def _last_trick(deal: DealLike) -> Any:
        """The public view's ``last_trick``; from the deal's ``last_trick_json`` when it has
        one, which spares two whole views on every move."""
        alone = getattr(deal, "last_trick_json", None)
        return alone() if alone is not None else deal.view(None).get("last_trick")

    @staticmethod
    def match_winners(match: MatchLike) -> tuple[int, ...]:
        """The sides that won the finished ``match``: its ``winners`` when the game names
        several (Ass: everyone with the fewest banks wins), else its single ``winner``, if any."""
        several = getattr(match, "winners", None)
        if several is not None:
            return tuple(int(w) for w in several)
        return () if match.winner is None else (int(match.winner),)

    def deal_over(self, match: MatchLike) -> bool:
        """True once the current deal is finished."""
        return bool(match.deal.phase == "finished")

    def deal_score(self, match: MatchLike) -> DealScore:
        """The current (finished) deal's score, in the rules' own numbers: card points may be
        below 0 (Ass's sixes are worth -1), and are stored and counted as they are, so that a
        player's statistics agree with the deal summaries (:meth:`result_json`)."""
        result = match.deal.result()
        return DealScore(
            tuple(int(p) for p in result.points),
            None if result.winner is None else int(result.winner),
            tuple(int(p) for p in result.game_points),
        )

    def result_json(self, match: MatchLike) -> dict[str, Any]:
        """The current (finished) deal's result as the views show it."""
        return cast(dict[str, Any], match.deal.result().to_json())

    # ------------------------------------------------------------------ views and players

    def view(self, match: MatchLike, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see of the current deal (None: the public table). Every game
        lists its ``hand`` as a player holds it: by suit, the trumps that seat knows first,
        highest first (:mod:`albastini.games.hands`); ``legal`` stays sorted as codes."""
        shown = getattr(self.package, "table_view", None)
        if shown is not None:
            return cast(dict[str, Any], shown(match.deal, seat))
        return match.deal.view(seat)

    def decide(self, level: str, view: Mapping[str, Any], seed: int | None = None) -> str:
        """The code a fresh computer player of ``level`` picks for ``view``."""
        return str(self.package.decide(level, dict(view), seed))


@functools.cache
def game(name: str) -> Game:
    """The game called ``name`` (a key of :data:`albastini.games.GAMES`); KeyError if none."""
    from . import GAMES

    return Game(GAMES[name])


def decide(game_name: str, level: str, view: Mapping[str, Any], seed: int | None = None) -> str:
    """A computer player's move in game ``game_name``: a top-level function, so it can be sent
    to a process pool."""
    return game(game_name).decide(level, view, seed)
