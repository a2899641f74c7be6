"""The games the bot hosts, one package each behind the same interface.

``GAMES`` maps a game's name (as stored with a table) to its package, which offers ``NAME``,
``MODES``, ``new_deal``, ``Deal``, ``Match``, ``IllegalMove`` and ``make_player`` (see
``shared/rules/`` for each game's rules and action codes).
"""

from __future__ import annotations

from types import ModuleType

from . import albastini, ass, cassino, twentyeight

GAMES: dict[str, ModuleType] = {
    albastini.NAME: albastini, twentyeight.NAME: twentyeight, cassino.NAME: cassino,
    ass.NAME: ass,
}

__all__ = ["GAMES"]
