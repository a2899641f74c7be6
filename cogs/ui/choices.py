"""The choices of the commands' options, built from the registry of games (never a list of
games or of a game's values written here): the games, a table's sides, the computer levels and
each table option that a game's ``OPTIONS`` offers."""

from __future__ import annotations

from discord import app_commands

from cogs.games import GAME_NAMES, option_choices
from cogs.ui.lang import key_str

__all__ = ["GAME_CHOICES", "LEVEL_CHOICES", "MODE_CHOICES", "TEAM_SIZES", "TRUMP_CHOICES"]

#: The games a command can be about, in the registry's order (its first: a command's default).
GAME_CHOICES = [app_commands.Choice(name=key_str(f"choice.game.{name}"), value=name)
                for name in GAME_NAMES]
#: How a table's players sit: the team sizes /albastini start offers.
TEAM_SIZES = {"solo": 1, "pairs": 2, "trios": 3}
MODE_CHOICES = [app_commands.Choice(name=key_str(f"choice.mode.{m}"), value=m)
                for m in TEAM_SIZES]
LEVEL_CHOICES = [app_commands.Choice(name=key_str(f"choice.level.{lv}"), value=lv)
                 for lv in ("easy", "normal", "hard")]
#: The values of the table option ``trumps`` of every game that has one (Ass's variants).
TRUMP_CHOICES = [app_commands.Choice(name=key_str(key), value=value)
                 for key, value in option_choices("trumps")]
