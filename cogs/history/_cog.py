"""The history extension's cog: its commands and the clicks on its buttons.

Everything here only reads the store and the table service; the games' rules stay in the back
end (a replay is the stored moves replayed by :meth:`TableService.deal_replay`). Its buttons
(``history``, ``board``, ``replay``, ``replay_open``, ``watch``, ``look`` of
:data:`cogs.ui.buttons.KINDS`) reach it through the router (:meth:`HistoryCog.clicks`).

* ``/albastini history [player] [everywhere]``: the last matches of this server (or a player's),
  privately, five to a page, each with a Replay button; ``everywhere``: your own matches in
  every server.
* A replay: deal by deal, step by step, trick by trick, with every hand face up, privately;
  only of a finished match of this server (the service refuses any other).
* ``/albastini season``: an admin (Manage Server) starts a new season; boards show the current
  season unless asked for all time.
* ``/albastini recompute``: the bot's owner has every rating computed again from the stored
  results (every server's at once, so no server's admin may start it).
* Watch: a button on a running table shows a person who does not play the public table
  privately, kept up to date like a hand (:class:`cogs.messages.hands.HandFollower`). Only
  ``Table.public_view()`` is ever rendered there.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from albastini.session import Refusal
from cogs.history._pages import (
    board_payload,
    history_payload,
    replay_names,
    replay_payload,
    watch_payload,
    watch_state,
)
from cogs.i18n import t
from cogs.messages.hands import HandFollower
from cogs.ui import views
from cogs.ui.feature import FeatureCog
from cogs.ui.lang import key_str, name_str
from cogs.ui.place import place_id
from cogs.ui.replies import Reply

if TYPE_CHECKING:
    from albastini.session import DealReplay, Event
    from albastini.table import Table
    from bot import AlbastiniBot
    from cogs.ui.router import Click


# --------------------------------------------------------------------------- the cog


class HistoryCog(FeatureCog):
    """/albastini history, season and recompute; replays and spectators' buttons."""

    def __init__(self, bot: AlbastiniBot) -> None:
        super().__init__(bot)
        self.watchers = HandFollower(
            watch_state,
            self._watch_build,
            lambda table_id: self.bot.service.get(table_id),
            moved=lambda lang: t(lang, "watch.moved"),
            clicks_first=bot.router.first.wait,
        )

    def clicks(self) -> Mapping[str, Callable[[Click], Awaitable[None]]]:
        return {
            "history": self.history_page,     # a page of the match history
            "board": self.board_page,         # a leaderboard page by rating or all time
            "replay_open": self.replay_open,  # a finished match's replay, from its first step
            "replay": self.replay_step,       # a step of a replay
            "watch": self.watch,              # a running table, privately, kept up to date
            "look": self.look,                # a spectator's view, again
        }

    async def cog_load(self) -> None:
        await super().cog_load()
        self.watchers.courier = lambda: self.bot.publisher.courier
        self.watchers.refused = self.count_refused
        self.watchers.lazy = self.bot.settings.edit_interval
        self.bot.service.add_listener(self.on_events)

    async def cog_unload(self) -> None:
        await super().cog_unload()
        self.bot.service.remove_listener(self.on_events)
        await self.watchers.close()

    def _watch_build(
        self, table: Table, user_id: int, lang: str, retired: bool
    ) -> dict[str, Any] | None:
        payload = watch_payload(table, lang)
        if retired:
            payload["content"] = t(lang, "watch.retired") + "\n" + payload["content"]
        return payload

    def on_events(self, table: Table, events: list[Event]) -> None:
        """The service's listener: spectators' views follow the table."""
        self.watchers.changed(table)

    # ------------------------------------------------------------------ commands
    @app_commands.command(name=name_str("history"), description=key_str("cmd.history.description"))
    @app_commands.describe(
        player=key_str("cmd.history.opt.player.description"),
        everywhere=key_str("cmd.history.opt.everywhere.description"),
    )
    async def history(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User | None = None,
        everywhere: bool = False,
    ) -> None:
        """The last matches of this server (or a player's), privately."""
        reply = Reply(interaction, ephemeral=True)
        place = await self.place_only(interaction, reply)  # a group DM has its own history
        if place is None:
            return
        lang = await self._lang(interaction)
        if everywhere and player is not None and player.id != interaction.user.id:
            await self.private(reply, t(lang, "history.only_yours"))
            return
        user_id = interaction.user.id if everywhere else (player.id if player else 0)
        guild_id = 0 if everywhere else place
        payload = await history_payload(self.store, lang, guild_id, user_id, 0, place)
        await reply.send(ephemeral=True, **payload)

    @app_commands.command(name=name_str("season"), description=key_str("cmd.season.description"))
    @app_commands.describe(new=key_str("cmd.season.opt.new.description"))
    async def season(self, interaction: discord.Interaction[Any], new: bool = False) -> None:
        """Which season this server is in; a new one (Manage Server)."""
        reply = Reply(interaction, ephemeral=True)
        if not await self.guild_only(interaction, reply):
            return
        assert interaction.guild_id is not None
        lang = await self._lang(interaction)
        if not new:
            number = await self.store.current_season(interaction.guild_id)
            await self.private(reply, t(lang, "season.current", season=number))
            return
        if not interaction.permissions.manage_guild:
            await self.private(reply, t(lang, "season.not_allowed"))
            return
        number = await self.store.start_season(interaction.guild_id)
        public = await self.bot.languages.guild(interaction.guild_id)
        await reply.send(content=t(public, "season.started", season=number), ephemeral=False)

    @app_commands.command(
        name=name_str("recompute"), description=key_str("cmd.recompute.description")
    )
    async def recompute(self, interaction: discord.Interaction[Any]) -> None:
        """Every rating computed again from the stored results: the bot's owner only, since it
        rewrites every server's ratings and holds the store's writes while it runs."""
        reply = Reply(interaction, ephemeral=True)
        lang = await self._lang(interaction)
        if not await self.bot.is_owner(interaction.user):
            await self.private(reply, t(lang, "recompute.not_allowed"))
            return
        matches = await self.store.recompute_ratings()
        await self.private(reply, t(lang, "recompute.done", matches=matches))

    # ------------------------------------------------------------------ clicks
    async def history_page(self, c: Click) -> None:
        guild, user = c.button.guild or 0, c.button.user or 0
        here = place_id(c.interaction)
        if (guild and guild != here) or (not guild and user != c.user.id):
            await self.private(c.reply, t(c.lang, "refuse.bad_button"))
            return
        await c.reply.edit(**await history_payload(self.store, c.lang, guild, user,
                                                   c.button.offset or 0, here))

    async def board_page(self, c: Click) -> None:
        guild = c.button.guild
        if guild is None or guild != place_id(c.interaction):
            await self.private(c.reply, t(c.lang, "refuse.bad_button"))
            return
        assert c.button.sort and c.button.period and c.button.game
        public = await self.bot.languages.guild(guild)
        await c.reply.edit(**await board_payload(
            self.store, guild, c.button.offset or 0, public, sort=c.button.sort,
            period=c.button.period, game=c.button.game,
        ))

    async def _replay(self, c: Click, table_id: int, deal_no: int) -> DealReplay | None:
        try:
            return await self.service.deal_replay(table_id, deal_no,
                                                  guild_id=place_id(c.interaction))
        except Refusal as exc:
            key = "replay.not_finished" if exc.reason == "table_gone" else "replay.no_deal"
            await self.private(c.reply, t(c.lang, key, number=table_id))
            return None

    async def replay_open(self, c: Click) -> None:
        replay = await self._replay(c, c.button.table or 0, 1)
        if replay is not None:
            names = replay_names(c.lang, replay, await self.store.seats(replay.table_id))
            await c.reply.send(ephemeral=True, **replay_payload(replay, 0, c.lang, names))

    async def replay_step(self, c: Click) -> None:
        replay = await self._replay(c, c.button.table or 0, c.button.deal or 0)
        if replay is not None:
            names = replay_names(c.lang, replay, await self.store.seats(replay.table_id))
            await c.reply.edit(**replay_payload(replay, c.button.step or 0, c.lang, names))

    async def watch(self, c: Click) -> None:
        table = self._table(c)
        if table is None:
            await self.private(c.reply, t(c.lang, "refuse.table_gone"))
            return
        if table.seat_of(c.user.id) is not None:
            await self.private(c.reply, t(c.lang, "watch.seated"))
            return
        state = watch_state(table, c.user.id)
        sent = await c.reply.send(ephemeral=True, **watch_payload(table, c.lang))
        if table.status == "running":
            self.watchers.remember(
                table, c.interaction, c.lang,
                followup=sent if c.reply.followed_up else None,
                message_id=sent.id if sent is not None else None, state=state,
            )

    async def look(self, c: Click) -> None:
        table = self._table(c)
        if table is None:
            await c.reply.edit(content=t(c.lang, "watch.over"), view=views.build_view([]))
            return
        state = watch_state(table, c.user.id)
        await c.reply.edit(**watch_payload(table, c.lang))
        if table.status == "running":
            message = c.interaction.message
            self.watchers.remember(table, c.interaction, c.lang,
                                   message_id=message.id if message else None, state=state)

    def _table(self, c: Click) -> Table | None:
        """The running table a spectator's button names, if it is of this server."""
        table = self.service.get(c.button.table or 0)
        here = place_id(c.interaction)
        return table if table is not None and table.guild_id == here else None
