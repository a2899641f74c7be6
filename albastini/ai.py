"""Albastini's computer players under their first address, ``albastini.ai`` (code and checks
written before the games moved to :mod:`albastini.games` use it). They live in
:mod:`albastini.games.albastini.ai`."""

from .games.albastini.ai import (
    DIFFICULTIES,
    LEVELS,
    GreedyPlayer,
    HeuristicPlayer,
    Player,
    RandomPlayer,
    SearchPlayer,
    decide,
    make_player,
)

__all__ = [
    "DIFFICULTIES",
    "LEVELS",
    "GreedyPlayer",
    "HeuristicPlayer",
    "Player",
    "RandomPlayer",
    "SearchPlayer",
    "decide",
    "make_player",
]
