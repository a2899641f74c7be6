"""The games the bot hosts, one package each behind the same interface.

``GAMES`` maps a game's name (as stored with a table) to its package, which offers ``NAME``,
``ORDER``, ``MODES``, ``new_deal``, ``Deal``, ``Match``, ``IllegalMove`` and ``make_player``
(see ``shared/rules/`` for each game's rules and action codes, and
:mod:`albastini.games.interface`). It is the only list of games: every package of this folder
that names itself (``NAME``) is one, so adding a game is adding its package, and nothing here
changes. ``ORDER`` places a game in every list of games (command choices, the rules book): the
order the bot added them, so that a new game comes last and nothing shown for an older one
moves.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

__all__ = ["GAMES", "discover"]


def discover() -> dict[str, ModuleType]:
    """Every game package of this folder (``__path__``), by ``NAME``, in ``ORDER``."""
    found: list[ModuleType] = []
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg:
            continue
        package = importlib.import_module(f"{__name__}.{info.name}")
        if isinstance(getattr(package, "NAME", None), str):
            found.append(package)
    found.sort(key=lambda p: (int(getattr(p, "ORDER", 1_000)), p.NAME))
    return {package.NAME: package for package in found}


GAMES: dict[str, ModuleType] = discover()
