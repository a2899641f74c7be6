"""The settings extension: /albastini settings (a server's language, target and turn time,
Manage Server) and /albastini language (a person's own)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.i18n import LANGUAGES, t
from cogs.ui import texts
from cogs.ui.feature import FeatureCog
from cogs.ui.group import add_subcommand_cog
from cogs.ui.lang import key_str, name_str
from cogs.ui.replies import Reply

if TYPE_CHECKING:
    from bot import AlbastiniBot

LANGUAGE_CHOICES = [
    app_commands.Choice(name=key_str(f"language.{lang}"), value=lang) for lang in LANGUAGES
]


class SettingsCog(FeatureCog):
    """/albastini settings and language."""

    @app_commands.command(
        name=name_str("settings"), description=key_str("cmd.settings.description")
    )
    @app_commands.describe(
        language=key_str("cmd.settings.opt.language.description"),
        target=key_str("cmd.settings.opt.target.description"),
        turn_time=key_str("cmd.settings.opt.turn_time.description"),
        threads=key_str("cmd.settings.opt.threads.description"),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        language: str | None = None,
        target: app_commands.Range[int, 1, 21] | None = None,
        turn_time: app_commands.Range[int, 15, 600] | None = None,
        threads: bool | None = None,
    ) -> None:
        """Server settings (Manage Server)."""
        reply = Reply(interaction, ephemeral=True)
        if not await self.guild_only(interaction, reply):
            return
        assert interaction.guild_id is not None
        lang = await self._lang(interaction)
        gid = interaction.guild_id
        changes = [v is not None for v in (language, target, turn_time, threads)]
        if any(changes):
            if not interaction.permissions.manage_guild:
                await self.private(reply, t(lang, "settings.not_allowed"))
                return
            await self.store.set_guild_settings(
                gid, turn_time=turn_time, target_vp=target, language=language, threads=threads
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
            t(lang, "settings.threads.on" if gs.threads else "settings.threads.off"),
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
        await self.private(
            reply,
            t(language, "settings.language.user_set", language=t(language, f"language.{language}")),
        )


async def setup(bot: AlbastiniBot) -> None:
    """The extension's entry (``bot.load_extension("cogs.settings")``)."""
    await add_subcommand_cog(bot, SettingsCog(bot))
