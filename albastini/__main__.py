"""Play any of the bot's games in a terminal against computer players.

    python -m albastini --mode "4 pairs" --target 5 --seat 1 --seed 7
    python -m albastini --mode 3 --one-deal --level easy
    python -m albastini --mode "6 trios" --auto          # watch computer players
    python -m albastini --game twentyeight               # another game
    python -m albastini --game cassino --lang sw         # in Kiswahili (ml, ru...)

Albastini is the default game. Every game plays through :mod:`albastini.terminal`: seats
counted from 1, as on Discord; on your turn a letter of the menu, a card (``7H``, ``7♥``) or a
move's word (``pass``), ``?`` for the table again, ``q`` to quit.
"""

from __future__ import annotations

import sys

from .terminal import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
