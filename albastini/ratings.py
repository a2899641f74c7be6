"""Skill ratings of players from the results of finished matches, with ``openskill``.

A match ranks its sides by their final score (the higher the better; equal scores tie). Every
person on a side is rated together with the side's other members (pairs, trios); a computer
player is a rated opponent of fixed strength for its level and is never updated. A rating is
shown as the conservative score ``mu - 3 sigma`` (openskill's ordinal): new players start at 0
and climb as their results make the model sure of them.

Pure functions, no I/O: the store calls :func:`update` inside the transaction that records a
match, and :func:`replay` computes every rating again from the stored results.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = ["COMPUTER_SKILL", "NEW", "Side", "Skill", "ranks", "replay", "update"]

_MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Skill:
    """A player's rating: the model's mean ``mu`` and uncertainty ``sigma``, and how many rated
    matches it comes from."""

    mu: float
    sigma: float
    matches: int = 0

    @property
    def rating(self) -> float:
        """The conservative score shown to players: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma


#: Where every player starts (openskill's defaults: mu 25, sigma 25/3, so a rating of 0).
NEW = Skill(_MODEL.mu, _MODEL.sigma, 0)

#: The fixed strength of a computer player of each level (mu, with a small sigma: it does not
#: learn, and beating it says as much as its level is worth). The player kinds behind the
#: difficulties rate as their difficulty.
COMPUTER_SKILL: dict[str, Skill] = {
    "random": Skill(12.0, 1.0),
    "easy": Skill(20.0, 1.0),
    "greedy": Skill(20.0, 1.0),
    "normal": Skill(25.0, 1.0),
    "heuristic": Skill(25.0, 1.0),
    "hard": Skill(28.0, 1.0),
    "search": Skill(28.0, 1.0),
}


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a finished match: its final score, its people and its computers' levels."""

    score: int
    users: tuple[int, ...] = ()
    computers: tuple[str, ...] = ()


def ranks(scores: Sequence[int]) -> list[int]:
    """1 for the best score, equal scores sharing a rank (1, 2, 2, 4...)."""
    return [1 + sum(other > score for other in scores) for score in scores]


def update(sides: Sequence[Side], current: Mapping[int, Skill]) -> dict[int, Skill]:
    """The new rating of every person of a finished match, from their ratings before it
    (``current``; a person missing from it is :data:`NEW`). Computers are not returned."""
    teams = []
    for side in sides:
        members = [current.get(user, NEW) for user in side.users]
        members += [COMPUTER_SKILL.get(level, COMPUTER_SKILL["normal"]) for level in side.computers]
        teams.append([_MODEL.rating(mu=m.mu, sigma=m.sigma) for m in members])
    rated = _MODEL.rate(teams, ranks=[float(r) for r in ranks([s.score for s in sides])])
    out: dict[int, Skill] = {}
    for side, team in zip(sides, rated, strict=True):
        for user, new in zip(side.users, team, strict=False):
            out[user] = Skill(new.mu, new.sigma, current.get(user, NEW).matches + 1)
    return out


def replay(matches: Iterable[Sequence[Side]]) -> dict[int, Skill]:
    """Every person's rating after ``matches`` in the order given, each from scratch."""
    skills: dict[int, Skill] = {}
    for sides in matches:
        skills.update(update(sides, skills))
    return skills
