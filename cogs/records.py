"""The records extension: /albastini leaderboard and stats, and the leaderboard's pages.

It only reads the store (and the language cache); no table is involved. The boards by rating or
of all time, and a player's rating, are the history extension's (:mod:`cogs.history`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.games import first_game
from cogs.history import PERIOD_CHOICES, SORT_CHOICES, board_payload, stats_rating_lines
from cogs.i18n import game_key, t
from cogs.ui import texts, views
from cogs.ui.choices import GAME_CHOICES
from cogs.ui.feature import FeatureCog
from cogs.ui.group import add_subcommand_cog
from cogs.ui.lang import key_str, name_str
from cogs.ui.place import place_id
from cogs.ui.replies import Reply

if TYPE_CHECKING:
    from albastini.store import Store
    from bot import AlbastiniBot
    from cogs.ui.router import Click

LEADERBOARD_PAGE = 10

async def leaderboard_payload(
    store: Store, guild_id: int, offset: int, lang: str, game: str
) -> dict[str, Any]:
    """One page of the server's leaderboard of ``game`` (its pager buttons too), in the
    server's language."""
    page = await store.leaderboard(guild_id, LEADERBOARD_PAGE, offset, game=game)
    embed = discord.Embed(
        title=t(lang, game_key(game, "leaderboard.title"),
                scope=t(lang, "leaderboard.scope.server")),
        colour=discord.Colour.gold(),
    )
    if not page.entries:
        embed.description = t(lang, game_key(game, "leaderboard.empty"))
        return {"embed": embed, "view": views.build_view([])}
    rows = [
        texts.leaderboard_row(
            lang, entry, rank=entry.rank if entry.rank is not None else offset + i + 1
        )
        for i, entry in enumerate(page.entries)
    ]
    embed.description = "\n".join(rows)
    pages = max(1, -(-page.total // LEADERBOARD_PAGE))
    embed.set_footer(
        text=t(lang, "leaderboard.footer")
        + " "
        + t(lang, "leaderboard.page", page=offset // LEADERBOARD_PAGE + 1, pages=pages)
    )
    specs = [] if pages <= 1 else views.leaderboard_pager(
        lang, guild_id, game, page=offset // LEADERBOARD_PAGE, pages=pages,
        page_size=LEADERBOARD_PAGE)
    return {"embed": embed, "view": views.build_view(specs)}


class RecordsCog(FeatureCog):
    """/albastini leaderboard and stats, and the leaderboard's pages."""

    def clicks(self) -> Mapping[str, Callable[[Click], Awaitable[None]]]:
        return {"leaderboard": self.leaderboard_page}  # a page of the plain leaderboard

    async def leaderboard_page(self, c: Click) -> None:
        """Another page of a server's leaderboard (in the server's language)."""
        guild = c.button.guild
        if guild is None or guild != place_id(c.interaction):
            await self.private(c.reply, t(c.lang, "refuse.bad_button"))
            return
        assert c.button.game is not None  # the scheme gives the old ids the first game
        public = await self.bot.languages.guild(guild)
        await c.reply.edit(**await leaderboard_payload(
            self.store, guild, c.button.offset or 0, public, c.button.game))

    @app_commands.command(
        name=name_str("leaderboard"), description=key_str("cmd.leaderboard.description")
    )
    @app_commands.describe(
        game_name=key_str("cmd.leaderboard.opt.game.description"),
        sort=key_str("cmd.leaderboard.opt.sort.description"),
        season=key_str("cmd.leaderboard.opt.season.description"),
    )
    @app_commands.rename(game_name="game")
    @app_commands.choices(game_name=GAME_CHOICES, sort=SORT_CHOICES, season=PERIOD_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game_name: str | None = None,
        sort: str = "points",
        season: str = "season",
    ) -> None:
        """The best players of this server, at one game (the bot's first game if none; by
        victory points or rating, of this season or of all time: cogs/history draws the
        latter boards)."""
        game = game_name or first_game()
        reply = Reply(interaction, ephemeral=False)
        place = await self.place_only(interaction, reply)  # a group DM has its own board
        if place is None:
            return
        lang = await self.bot.languages.guild(place)
        if sort != "points" or season != "season":
            payload = await board_payload(
                self.store, place, 0, lang, sort=sort, period=season, game=game
            )
        else:
            payload = await leaderboard_payload(self.store, place, 0, lang, game)
        await reply.send(ephemeral=False, **payload)

    @app_commands.command(name=name_str("stats"), description=key_str("cmd.stats.description"))
    @app_commands.describe(
        player=key_str("cmd.stats.opt.player.description"),
        game_name=key_str("cmd.stats.opt.game.description"),
    )
    @app_commands.rename(game_name="game")
    @app_commands.choices(game_name=GAME_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User | None = None,
        game_name: str | None = None,
    ) -> None:
        """Your results at one game (the bot's first game if none), or another player's."""
        game = game_name or first_game()
        reply = Reply(interaction, ephemeral=True)
        place = await self.place_only(interaction, reply)  # a group DM has its own stats
        if place is None:
            return
        lang = await self._lang(interaction)
        who = player or interaction.user
        st = await self.store.user_stats(place, who.id, game=game)
        name = texts.mention(who.id)
        embed = discord.Embed(
            title=t(lang, game_key(game, "stats.title"), name=who.display_name),
            colour=discord.Colour.blurple(),
        )
        if not st.matches_played:
            embed.description = t(lang, game_key(game, "stats.empty"), name=name)
        else:
            lines = texts.stats_lines(lang, st, game)
            lines += await stats_rating_lines(self.store, lang, place, who.id, game)
            embed.description = "\n".join(lines)
        await reply.send(embed=embed, ephemeral=True)


async def setup(bot: AlbastiniBot) -> None:
    """The extension's entry (``bot.load_extension("cogs.records")``)."""
    await add_subcommand_cog(bot, RecordsCog(bot))
