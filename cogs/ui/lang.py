"""Which language to speak: a person's preference for private text, the server's for public text.

Also the command translator: Discord shows command names, descriptions, option names and
choices in its client's locale when the bot gives them in that locale. Of our languages Russian
has a Discord locale (its clients see ``/albastini начать``); Swahili and Malayalam have none,
so their speakers' clients show the English names, which their help and rules quote. Any
language added to the catalogues with a Discord locale is picked up without code changes.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from cogs.i18n import DEFAULT_LANGUAGE, LANGUAGES, has, t

log = logging.getLogger(__name__)

#: Discord client locales whose text comes from one of our catalogues (English is the source).
LOCALE_LANGUAGES: dict[discord.Locale, str] = {
    locale: lang
    for locale in discord.Locale
    for lang in LANGUAGES
    if lang != DEFAULT_LANGUAGE and str(locale.value).split("-")[0] == lang
}


def key_str(key: str) -> app_commands.locale_str:
    """A command name/description: English text from the catalogue, the key for the translator."""
    return app_commands.locale_str(t(DEFAULT_LANGUAGE, key), key=key)


def name_str(name: str) -> app_commands.locale_str:
    """A command name: the English name is fixed in code (Discord's command id), translations
    come from the catalogue key ``cmd.<name>.name``."""
    return app_commands.locale_str(name, key=f"cmd.{name}.name")


def option_key(command: str, option: str) -> str:
    """The catalogue key of an option's name: ``cmd.<command>.opt.<option>.name``."""
    return f"cmd.{command}.opt.{option}.name"


def localize_options(tree: app_commands.CommandTree[Any]) -> None:
    """Give every option of every command the key of its name in the catalogue, so that the
    translator names it in Discord's locales too. discord.py asks a translator for an option's
    name only when the option was renamed with a ``locale_str``; doing it here, once for the
    whole tree, keeps each command's declaration in its cog as it is (its English name is
    unchanged, and so is the command Discord sends back). Idempotent: run before each sync."""
    for command in tree.walk_commands():
        if not isinstance(command, app_commands.Command):
            continue
        for param in command._params.values():
            rename = param._rename  # discord.py makes it a locale_str of the name, keyless
            if not isinstance(rename, app_commands.locale_str) or "key" not in rename.extras:
                name = param.display_name
                param._rename = app_commands.locale_str(name, key=option_key(command.name, name))


class CatalogueTranslator(app_commands.Translator):
    """Feeds Discord the catalogue text of every locale that maps to one of our languages."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        lang = LOCALE_LANGUAGES.get(locale)
        if not key or lang is None or not has(lang, key):
            return None
        return t(lang, key)


class Languages:
    """Language lookups with a small cache in front of the store.

    ``user_ttl``: seconds a person's preference is kept before it is read again; None (one
    process) keeps it for the run, since every change goes through this process. A cluster
    (bot.py --shards) passes a TTL: a person's language is theirs in every server, and they
    may change it through a server another cluster serves."""

    def __init__(
        self,
        store: Any,
        default: str = DEFAULT_LANGUAGE,
        *,
        user_ttl: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._store = store
        self.default = default if default in LANGUAGES else DEFAULT_LANGUAGE
        self.user_ttl = user_ttl
        self._clock = clock
        self._users: dict[int, str | None] = {}
        self._user_read: dict[int, float] = {}  # when each preference was read (with a TTL)
        self._guilds: dict[int, str] = {}

    async def guild(self, guild_id: int | None) -> str:
        """The language of a server's public messages."""
        if guild_id is None:
            return self.default
        cached = self._guilds.get(guild_id)
        if cached is not None:
            return cached
        lang = self.default
        try:
            settings = await self._store.guild_settings(guild_id)
            stored = getattr(settings, "language", None)
            # The store answers "en" for a server that never chose; the bot's own default then
            # applies, so ALBASTINI_LANGUAGE=sw makes untouched servers speak Kiswahili.
            if stored in LANGUAGES and (stored != DEFAULT_LANGUAGE or await self._chosen(guild_id)):
                lang = stored
        except Exception:
            log.warning("could not read the settings of guild %s", guild_id, exc_info=True)
            return lang
        self._guilds[guild_id] = lang
        return lang

    async def _chosen(self, guild_id: int) -> bool:
        return bool(await self._store.guild_language_chosen(guild_id))

    async def user(self, user_id: int, guild_id: int | None) -> str:
        """The language of private messages to a person: their preference, else the server's."""
        if user_id in self._users and not self._stale(user_id):
            pref = self._users[user_id]
        else:
            try:
                pref = await self._store.user_language(user_id)
            except Exception:
                log.warning("could not read a language preference", exc_info=True)
                return await self.guild(guild_id)
            self.set_user(user_id, pref)
        if pref in LANGUAGES:
            return pref
        return await self.guild(guild_id)

    def forget_guild(self, guild_id: int) -> None:
        self._guilds.pop(guild_id, None)

    def chose_guild(self, guild_id: int, lang: str) -> None:
        """A server just chose its language (kept for this run even when it equals the store's
        default answer)."""
        if lang in LANGUAGES:
            self._guilds[guild_id] = lang

    def set_user(self, user_id: int, lang: str | None) -> None:
        self._users[user_id] = lang
        if self.user_ttl is not None:
            self._user_read[user_id] = self._clock()

    def _stale(self, user_id: int) -> bool:
        if self.user_ttl is None:
            return False
        return self._clock() - self._user_read.get(user_id, -math.inf) > self.user_ttl
