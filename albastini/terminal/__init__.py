"""Play any game of ``GAMES`` in a terminal against its computer players, from the views alone.

    python -m albastini --game twentyeight --mode "4 pairs" --seat 1 --seed 7
    python -m albastini --game cassino --auto --one-deal --delay 0.5   # watch computer players
    python -m albastini --game ass --help                              # the game's own options
    python -m albastini --game twentyeight --lang ml                   # in Malayalam (sw, ru...)

Every game, Albastini (the default) included, plays here with the same command line
(:mod:`.cli`): :mod:`.session` plays a match: it shows the table as the person's seat may
see it, a menu of their moves with letter keys, and the story of every move; :mod:`.presenter`
says what any game looks like, and a game's own module (``albastini/terminal/<game>.py``) what
it shows its own way (an auction, the cards on the table, banks). The terminal reads the games
through their common interface only (:func:`albastini.games.interface.game`, the views, the
computer players, ``IllegalMove``), so it shows no card the person's view does not. Its words
are :mod:`.texts`' catalogues, in the language ``--lang`` chose.
"""

from .cli import main

__all__ = ["main"]
