"""The server's records and settings: /albastini leaderboard, stats, settings and language.

They only read and write the store (and the language cache); no table is involved. A leaderboard
page's buttons are clicked through the table cog, which handles every button and draws the page
with :func:`leaderboard_payload`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs import texts, views
from cogs.feature import FeatureCog
from cogs.games import DEFAULT_GAME
from cogs.group import add_subcommand_cog
from cogs.history import PERIOD_CHOICES, SORT_CHOICES, board_payload, stats_rating_lines
from cogs.i18n import LANGUAGES, game_key, t
from cogs.lang import key_str, name_str
from cogs.replies import Reply

if TYPE_CHECKING:
    from albastini.store import Store
    from bot import AlbastiniBot

LEADERBOARD_PAGE = 10
#: The games a command can be about (``albastini.games.GAMES``), Albastini first (the default).
GAME_CHOICES = [
    app_commands.Choice(name=key_str(f"choice.game.{game}"), value=game)
    for game in ("albastini", "twentyeight", "cassino", "ass")
]
LANGUAGE_CHOICES = [
    app_commands.Choice(name=key_str(f"language.{lang}"), value=lang) for lang in LANGUAGES
]


async def leaderboard_payload(
    store: Store, guild_id: int, offset: int, lang: str, game: str = DEFAULT_GAME
) -> dict[str, Any]:
    """One page of the server's leaderboard of ``game`` (its pager buttons too), in the
    server's language."""
    page = await (
        store.leaderboard(guild_id, LEADERBOARD_PAGE, offset)  # Albastini: the call of old
        if game == DEFAULT_GAME
        else store.leaderboard(guild_id, LEADERBOARD_PAGE, offset, game=game)
    )
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
    specs = views.pager_buttons(
        "leaderboard",
        lang,
        page=offset // LEADERBOARD_PAGE,
        pages=pages,
        guild_id=guild_id,
        page_size=LEADERBOARD_PAGE,
        game=game,
    )
    if pages <= 1:
        specs = []
    return {"embed": embed, "view": views.build_view(specs)}


class RecordsCog(FeatureCog):
    """/albastini leaderboard, stats, settings and language."""

    @app_commands.command(
        name=name_str("leaderboard"), description=key_str("cmd.leaderboard.description")
    )
    @app_commands.describe(
        game=key_str("cmd.leaderboard.opt.game.description"),
        sort=key_str("cmd.leaderboard.opt.sort.description"),
        season=key_str("cmd.leaderboard.opt.season.description"),
    )
    @app_commands.choices(game=GAME_CHOICES, sort=SORT_CHOICES, season=PERIOD_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game: str = DEFAULT_GAME,
        sort: str = "points",
        season: str = "season",
    ) -> None:
        """The best players of this server, at one game (by victory points or rating, of this
        season or of all time: cogs/history.py draws the latter boards)."""
        reply = Reply(interaction, ephemeral=False)
        if not await self.guild_only(interaction, reply):
            return
        assert interaction.guild_id is not None
        lang = await self.bot.languages.guild(interaction.guild_id)
        if sort != "points" or season != "season":
            payload = await board_payload(
                self.store, interaction.guild_id, 0, lang, sort=sort, period=season, game=game
            )
        else:
            payload = await self.leaderboard_payload(interaction.guild_id, 0, lang, game)
        await reply.send(ephemeral=False, **payload)

    async def leaderboard_payload(
        self, guild_id: int, offset: int, lang: str, game: str = DEFAULT_GAME
    ) -> dict[str, Any]:
        return await leaderboard_payload(self.store, guild_id, offset, lang, game)

    @app_commands.command(name=name_str("stats"), description=key_str("cmd.stats.description"))
    @app_commands.describe(
        player=key_str("cmd.stats.opt.player.description"),
        game=key_str("cmd.stats.opt.game.description"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User | None = None,
        game: str = DEFAULT_GAME,
    ) -> None:
        """Your results at one game, or another player's."""
        reply = Reply(interaction, ephemeral=True)
        if not await self.guild_only(interaction, reply):
            return
        assert interaction.guild_id is not None
        lang = await self._lang(interaction)
        who = player or interaction.user
        st = await self.store.user_stats(interaction.guild_id, who.id, game=game)
        name = texts.mention(who.id)
        embed = discord.Embed(
            title=t(lang, game_key(game, "stats.title"), name=who.display_name),
            colour=discord.Colour.blurple(),
        )
        if not st.matches_played:
            embed.description = t(lang, game_key(game, "stats.empty"), name=name)
        else:
            lines = texts.stats_lines(lang, st, game)
            lines += await stats_rating_lines(self.store, lang, interaction.guild_id, who.id, game)
            embed.description = "\n".join(lines)
        await reply.send(embed=embed, ephemeral=True)

    @app_commands.command(
        name=name_str("settings"), description=key_str("cmd.settings.description")
    )
    @app_commands.describe(
        language=key_str("cmd.settings.opt.language.description"),
        target=key_str("cmd.settings.opt.target.description"),
        turn_time=key_str("cmd.settings.opt.turn_time.description"),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        language: str | None = None,
        target: app_commands.Range[int, 1, 21] | None = None,
        turn_time: app_commands.Range[int, 15, 600] | None = None,
    ) -> None:
        """Server settings (Manage Server)."""
        reply = Reply(interaction, ephemeral=True)
        if not await self.guild_only(interaction, reply):
            return
        assert interaction.guild_id is not None
        lang = await self._lang(interaction)
        gid = interaction.guild_id
        changes = [v is not None for v in (language, target, turn_time)]
        if any(changes):
            if not interaction.permissions.manage_guild:
                await self._private(reply, t(lang, "settings.not_allowed"))
                return
            await self.store.set_guild_settings(
                gid, turn_time=turn_time, target_vp=target, language=language
            )
            self.bot.languages.forget_guild(gid)
            if language is not None:
                self.bot.languages.chose_guild(gid, language)
            lang = await self._lang(interaction)
        gs = await self.store.guild_settings(gid)
        public = await self.bot.languages.guild(gid)
        lines = [
            t(lang, "settings.language", language=t(lang, f"language.{public}")),
            texts.target_text(lang, gs.target_vp),
            t(lang, "settings.turn_time", seconds=gs.turn_time),
        ]
        embed = discord.Embed(title=t(lang, "settings.title"), description="\n".join(lines))
        content = t(lang, "settings.saved") if any(changes) else None
        await reply.send(content=content, embed=embed, ephemeral=True)

    @app_commands.command(
        name=name_str("language"), description=key_str("cmd.language.description")
    )
    @app_commands.describe(language=key_str("cmd.language.opt.language.description"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction[Any], language: str) -> None:
        """Your own language for the bot's private messages."""
        reply = Reply(interaction, ephemeral=True)
        await self.store.set_user_language(interaction.user.id, language)
        self.bot.languages.set_user(interaction.user.id, language)
        await self._private(
            reply,
            t(language, "settings.language.user_set", language=t(language, f"language.{language}")),
        )


async def setup(bot: AlbastiniBot) -> None:
    """The extension's entry (``bot.load_extension("cogs.records")``)."""
    await add_subcommand_cog(bot, RecordsCog(bot))
