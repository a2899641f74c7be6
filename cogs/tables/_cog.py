"""The tables: /albastini start, hand, leave, cancel, rules and help, and the table service's
events, which keep every table's public messages and private hands up to date.

No game rules here: what a player may do comes from the service's views (``view["legal"]``) and
its refusals (:class:`~albastini.table.Refusal`), which are translated into short private answers.
Every interaction is answered within Discord's 3 s (see :class:`~cogs.ui.replies.Reply`), privately
where it concerns one person, and never with a hidden card in a public message or a log line.
The buttons of tables, lobbies and hands are answered in :mod:`cogs.tables._clicks`; a private
hand is drawn and followed in :mod:`cogs.tables._hands`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from albastini.config import token_margin
from albastini.events import Acted, DealOver, Event, MatchOver, TableClosed, TurnStarted
from albastini.table import Refusal
from cogs.games import first_game, first_rules_page, rules_page
from cogs.i18n import game_key, t
from cogs.tables._checks import impossible_table, may_start_threads, missing_permission
from cogs.tables._clicks import TableClicks
from cogs.tables._hands import PrivateHands
from cogs.ui import texts, views
from cogs.ui.choices import GAME_CHOICES, LEVEL_CHOICES, MODE_CHOICES, TEAM_SIZES, TRUMP_CHOICES
from cogs.ui.feature import FeatureCog
from cogs.ui.lang import key_str, name_str
from cogs.ui.place import place_id, reaches_channel
from cogs.ui.replies import Reply, after_answer

if TYPE_CHECKING:
    from albastini.table import Table
    from bot import AlbastiniBot
    from cogs.ui.router import Click

log = logging.getLogger(__name__)

def message_link(guild_id: int, channel_id: int, message_id: int | None) -> str:
    """A link to a table's message (its channel's mention if it has none); a group DM's
    tables are kept under the channel's own id (cogs/ui/place.py), linked as Discord's "@me"."""
    if message_id is None:
        return f"<#{channel_id}>"
    where = "@me" if guild_id == channel_id else str(guild_id)
    return f"https://discord.com/channels/{where}/{channel_id}/{message_id}"


class TablesCog(FeatureCog):
    """The tables: /albastini start, hand, leave, cancel, rules and help; the service's events;
    and (:class:`~cogs.tables._clicks.TableClicks`) the buttons of tables and hands."""

    def __init__(self, bot: AlbastiniBot) -> None:
        super().__init__(bot)
        #: every person's private hand (its payload, and the follower that keeps it current)
        self.hands = PrivateHands(bot)
        self._clicks = TableClicks(self)

    def clicks(self) -> Mapping[str, Callable[[Click], Awaitable[None]]]:
        return self._clicks.routes()

    async def cog_load(self) -> None:
        await super().cog_load()
        follower = self.hands.follower
        self.bot.publisher.followed = follower.covers
        follower.courier = lambda: self.bot.publisher.courier
        follower.refused = self.count_refused
        # a hand change that offers no move keeps the table message's pace
        follower.lazy = self.bot.settings.edit_interval
        follower.lifetime = self.bot.settings.token_life
        follower.margin = token_margin(follower.lifetime)

    async def cog_unload(self) -> None:
        await super().cog_unload()
        await self.hands.follower.close()

    # ------------------------------------------------------------------ helpers
    def _link(self, table: Table) -> str:
        return message_link(table.guild_id, table.channel_id, table.message_id)

    def refusal(
        self, lang: str, exc: Refusal, table: Table | None, user_id: int | None = None
    ) -> str:
        link = ""
        if exc.reason == "table_exists":
            other_id = exc.details.get("table_id") if exc.details else None
            other = self.service.get(other_id) if isinstance(other_id, int) else None
            other = other or (table and self.service.table_in_channel(table.channel_id))
            link = self._link(other) if other is not None else ""
        details = dict(exc.details)
        if exc.reason == "already_seated" and table is not None and user_id is not None:
            details.setdefault("seat", table.seat_of(user_id))
        return texts.refusal_text(lang, exc.reason, details, table, link)

    # ------------------------------------------------------------------ service events
    def on_events(self, table: Table, events: list[Event]) -> None:
        """The service's listener: schedule public updates; never blocks. They go out after the
        answer to the click that made the change, if one is being answered (they show the
        table as it is when they are drawn)."""
        for ev in events:
            if isinstance(ev, Acted) and not ev.by_computer:
                info = table.seats[ev.seat]
                if info is not None and info.user_id is not None:
                    # their click is being answered with their hand: no edit of it needed
                    self.hands.follower.answering(table, info.user_id)
            elif isinstance(ev, TableClosed):
                self.bot.publisher.closed_reasons[table.id] = ev.reason
        after_answer(lambda: self._publish(table, events))

    def _publish(self, table: Table, events: list[Event]) -> None:
        pub = self.bot.publisher
        closed = False
        for ev in events:
            if isinstance(ev, TurnStarted) and ev.deadline is not None:
                pub.turn_started(table.id, ev.seat, ev.move_no)
            elif isinstance(ev, Acted):
                pub.turn_done(table.id, ev.move_no)
            elif isinstance(ev, DealOver):
                result = ev.result
                pause = self.service.deal_pause

                def build_deal(
                    tb: Table,
                    ev: DealOver = ev,
                    result: dict[str, Any] = result,
                    pause: float = pause,
                ) -> tuple[str, list[views.ButtonSpec]]:
                    text = texts.deal_over_text(
                        tb,
                        tb.language,
                        deal_no=ev.deal_no,
                        result=result,
                        scores=ev.scores,
                        next_dealer=ev.next_dealer,
                        pause=pause,
                    )
                    return text, []

                pub.post(table.id, build_deal)
            elif isinstance(ev, MatchOver):
                pub.clear_notice(table.id)

                def build_match(
                    tb: Table, ev: MatchOver = ev
                ) -> tuple[str, list[views.ButtonSpec]]:
                    text = texts.match_over_text(
                        tb, tb.language, winner_team=ev.winner_team, scores=ev.scores
                    )
                    return text, views.rematch_buttons(tb.id, tb.language)

                # under the table message, in the channel (its thread is archived now)
                pub.post(table.id, build_match, beside_the_table=True)
            elif isinstance(ev, TableClosed):
                pub.clear_notice(table.id)
                if table.thread_id is not None:
                    pub.archive_thread(table.id)
                closed = True
        pub.refresh(table.id)
        self.hands.follower.changed(table)
        if closed:
            pub.forget(table.id)

    # ------------------------------------------------------------------ commands
    @app_commands.command(name=name_str("start"), description=key_str("cmd.start.description"))
    @app_commands.describe(
        players=key_str("cmd.start.opt.players.description"),
        teams=key_str("cmd.start.opt.teams.description"),
        target=key_str("cmd.start.opt.target.description"),
        computers=key_str("cmd.start.opt.computers.description"),
        level=key_str("cmd.start.opt.level.description"),
        turn_time=key_str("cmd.start.opt.turn_time.description"),
        game_name=key_str("cmd.start.opt.game.description"),
        trumps=key_str("cmd.start.opt.trumps.description"),
        thread=key_str("cmd.start.opt.thread.description"),
    )
    @app_commands.rename(game_name="game")
    @app_commands.choices(teams=MODE_CHOICES, level=LEVEL_CHOICES, game_name=GAME_CHOICES)
    @app_commands.choices(trumps=TRUMP_CHOICES)  # int choices: a decorator of their own
    async def start(
        self,
        interaction: discord.Interaction[Any],
        players: app_commands.Range[int, 2, 6] = 4,
        teams: str | None = None,
        target: app_commands.Range[int, 1, 21] | None = None,
        computers: bool = False,
        level: str = "normal",
        turn_time: app_commands.Range[int, 15, 600] | None = None,
        game_name: str | None = None,
        trumps: int | None = None,
        thread: bool | None = None,
    ) -> None:
        """Open a table of ``game`` (the bot's first game if none) in this channel, in one of
        its modes, with its own options (Ass: ``trumps``, the variant) and a target where the
        game has one; played in a thread of its own if ``thread`` (the server's setting if
        None), started from the lobby."""
        game = game_name or first_game()
        reply = Reply(interaction, ephemeral=False)
        place = await self.place_only(interaction, reply)
        if place is None:
            return
        assert interaction.channel_id is not None
        # a group DM, or a server where only this person has the app: everything public goes
        # through the players' interactions (cogs/messages/relay.py)
        through = not reaches_channel(interaction)
        lang = await self._lang(interaction)
        existing = self.service.table_in_channel(interaction.channel_id)
        if existing is not None and await self._lost_lobby(interaction, reply, existing):
            return
        existing = self.service.table_in_channel(interaction.channel_id)
        if existing is not None:
            await self.private(reply, t(lang, "refuse.table_exists", link=self._link(existing)))
            return
        missing = None if through else missing_permission(interaction)
        if missing is not None:
            await self.private(
                reply, t(lang, "error.missing_permission", permission=t(lang, missing))
            )
            return
        options = {} if trumps is None else {"trumps": trumps}
        wrong = impossible_table(lang, game, players, teams, options, target)
        in_thread = await self._in_thread(interaction, thread)
        if wrong is None and through and thread:
            wrong = t(lang, "refuse.thread_private")  # no thread where the bot is no member
        elif wrong is None and in_thread and not may_start_threads(interaction):
            wrong = t(lang, "refuse.thread_permission")
        if wrong is not None:
            await self.private(reply, wrong)
            return
        public = await self.bot.languages.guild(place)
        try:
            table = await self.service.open_table(
                place,
                interaction.channel_id,
                interaction.user.id,
                interaction.user.display_name,
                players=players,
                team_size=TEAM_SIZES.get(teams) if teams else None,
                target=target,
                turn_time=turn_time,
                computer_level=level,
                language=public,
                game=game,
                options=options,
                interactions_only=through,
            )
            if computers:
                table = await self.service.fill_computers(table.id, interaction.user.id)
        except Refusal as exc:
            await self.private(reply, self.refusal(lang, exc, None))
            return
        await self._post_lobby(interaction, reply, table, thread=in_thread)

    async def _post_lobby(
        self,
        interaction: discord.Interaction[Any],
        reply: Reply,
        table: Table,
        content: str | None = None,
        *,
        thread: bool = False,
    ) -> None:
        """Show the lobby as the public answer to the interaction and remember its message;
        ``thread``: start the thread the table is played in from it.

        If the answer never reaches Discord (a 5xx, an interaction that expired before the bot
        saw it), nobody can see or join the lobby: the publisher posts it in the channel."""
        payload = await self.bot.publisher.message_payload(table, content)
        payload.pop("attachments", None)
        try:
            msg = await reply.send(ephemeral=False, **payload)
            if msg is None:
                msg = await interaction.original_response()
        except discord.HTTPException as exc:
            log.warning(
                "the lobby of table %s did not reach the channel (%s, %s); posting it there",
                table.id,
                exc.status,
                exc.code,
            )
            self.bot.publisher.lost(table.id)
            return
        await self.service.set_message(table.id, msg.id)
        self.bot.publisher.found(table.id)
        if thread:
            await self._start_thread(interaction, reply, table, msg)
        if not reply.followed_up:  # the lobby is the command's response: its token edits it
            self.bot.publisher.table_token(
                table.id, msg.id, interaction.application_id, interaction.token
            )
        self.bot.publisher.interaction_token(table.id, interaction.application_id,
                                             interaction.token)
        self.bot.publisher.refresh(table.id)

    async def _in_thread(
        self, interaction: discord.Interaction[Any], asked: bool | None
    ) -> bool:
        """Whether a table opened by ``interaction`` is played in a thread of its own: as asked
        (``asked``), else as the server's setting says; never when the command was typed in a
        thread already (the table is played there)."""
        if isinstance(interaction.channel, discord.Thread) or not reaches_channel(interaction):
            return False  # (where the bot is no member, it cannot start one)
        if asked is not None:
            return asked
        assert interaction.guild_id is not None
        return (await self.store.guild_settings(interaction.guild_id)).threads

    async def _start_thread(
        self, interaction: discord.Interaction[Any], reply: Reply, table: Table, msg: Any
    ) -> None:
        """The table's thread, started from its lobby message; if Discord refuses it, the table
        is played in the channel and its host is told so."""
        lang = table.language
        name = t(lang, "thread.name", game=t(lang, f"choice.game.{table.game}"),
                 host=interaction.user.display_name)[:100]
        try:
            started = await msg.create_thread(name=name, auto_archive_duration=1440)
            await self.service.set_thread(table.id, started.id)
        except (discord.HTTPException, Refusal) as exc:
            log.warning("table %s: no thread started (%s)", table.id,
                        getattr(exc, "status", None) or getattr(exc, "reason", ""))
            with contextlib.suppress(discord.HTTPException):
                await reply.send(content=t(await self._lang(interaction), "thread.failed"),
                                 ephemeral=True)

    async def _lost_lobby(
        self, interaction: discord.Interaction[Any], reply: Reply, table: Table
    ) -> bool:
        """A new /albastini start where the channel's lobby has no message anybody can see (its
        reply failed, or the bot stopped before saving it; the publisher is still posting it).

        Nobody could have joined it but through that message: if nobody but its host did, the
        new start replaces it (False: go on opening). If people did, they are waiting: the
        lobby itself is the answer, shown here (True)."""
        if table.status != "lobby" or not self.bot.publisher.is_lost(table.id):
            return False
        joined = [
            s
            for s in table.seats
            if s is not None and s.user_id is not None and s.user_id != table.host_id
        ]
        if joined:
            note = t(table.language, "lobby.shown_again")
            await self._post_lobby(interaction, reply, table, content=note)
            return True
        log.info("table %s: its lobby never reached the channel; a new start replaces it", table.id)
        with contextlib.suppress(Refusal):  # closed or started meanwhile: the usual answer
            await self.service.cancel(table.id, interaction.user.id, moderator=True)
        return False

    async def _table_here(
        self, interaction: discord.Interaction[Any], reply: Reply
    ) -> tuple[Table, str] | None:
        """The table in the command's channel and the reader's language; None (after a private
        explanation) outside a server or where no table is open."""
        if await self.place_only(interaction, reply) is None:
            return None
        assert interaction.channel_id is not None  # place_only checked it
        lang = await self._lang(interaction)
        table = self.service.table_in_channel(interaction.channel_id)
        if table is None:
            await self.private(reply, t(lang, "refuse.no_table"))
            return None
        return table, lang

    @app_commands.command(name=name_str("hand"), description=key_str("cmd.hand.description"))
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """Show your hand privately."""
        reply = Reply(interaction, ephemeral=True)
        found = await self._table_here(interaction, reply)
        if found is None:
            return
        table, lang = found
        payload = self.hands.payload(table, interaction.user.id, lang)
        if payload is None:
            await self.private(reply, t(lang, "refuse.not_seated"))
            return
        await self.hands.show(interaction, reply, table, lang, payload, in_place=False)

    @app_commands.command(name=name_str("leave"), description=key_str("cmd.leave.description"))
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Leave the table in this channel."""
        reply = Reply(interaction, ephemeral=True)
        found = await self._table_here(interaction, reply)
        if found is None:
            return
        table, lang = found
        try:
            await self.service.leave(table.id, interaction.user.id)
        except Refusal as exc:
            await self.private(reply, self.refusal(lang, exc, table, interaction.user.id))
            return
        key = "lobby.you_left" if table.status in ("lobby", "cancelled") else "table.you_left"
        await self.private(reply, t(lang, key))

    @app_commands.command(name=name_str("cancel"), description=key_str("cmd.cancel.description"))
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        """Close the table in this channel (host, or Manage Messages)."""
        reply = Reply(interaction, ephemeral=True)
        found = await self._table_here(interaction, reply)
        if found is None:
            return
        table, lang = found
        await self.cancel_table(interaction, reply, table, lang)

    async def cancel_table(
        self, interaction: discord.Interaction[Any], reply: Reply, table: Table, lang: str
    ) -> bool:
        # a group DM has no moderators (its permissions are not a server's)
        moderator = interaction.guild_id is not None and bool(
            interaction.permissions.manage_messages)
        try:
            await self.service.cancel(table.id, interaction.user.id, moderator=moderator)
        except Refusal as exc:
            text = self.refusal(lang, exc, table)
            if exc.reason == "not_host":
                text = t(lang, "refuse.not_host_or_mod", host=texts.mention(table.host_id))
            await self.private(reply, text)
            return False
        await self.private(reply, t(lang, "table.cancel_done"))
        return True

    @app_commands.command(name=name_str("rules"), description=key_str("cmd.rules.description"))
    @app_commands.describe(game_name=key_str("cmd.rules.opt.game.description"))
    @app_commands.rename(game_name="game")
    @app_commands.choices(game_name=GAME_CHOICES)
    async def rules(
        self, interaction: discord.Interaction[Any], game_name: str | None = None
    ) -> None:
        """Read the rules of a game (the bot's first game if none), privately, in your
        language."""
        reply = Reply(interaction, ephemeral=True)
        lang = await self._lang(interaction)
        page = first_rules_page(game_name or first_game())
        await reply.send(ephemeral=True, **self.rules_payload(page, lang))

    def rules_payload(self, page: int, lang: str) -> dict[str, Any]:
        """A page of the rules book (every game's rules, one after the other), paged within
        its game's rules."""
        game, number, pages, first = rules_page(page)
        embed = discord.Embed(
            title=t(lang, game_key(game, "rules.title"), page=number, pages=pages),
            description=t(lang, game_key(game, f"rules.page.{number}")),
            colour=discord.Colour.dark_green(),
        )
        specs = views.rules_pager(lang, page=first + number - 1, pages=pages, first_page=first)
        return {"embed": embed, "view": views.build_view(specs)}

    @app_commands.command(name=name_str("help"), description=key_str("cmd.help.description"))
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """How to play with this bot."""
        lang = await self._lang(interaction)
        embed = discord.Embed(title=t(lang, "help.title"), description=t(lang, "help.text"))
        await Reply(interaction).send(embed=embed, ephemeral=True)


    async def rematch(
        self,
        interaction: discord.Interaction[Any],
        reply: Reply,
        table_id: int,
        lang: str,
        table: Table | None,
    ) -> None:
        """A new lobby with the same players as the finished match of ``table_id``."""
        user_id = interaction.user.id
        try:
            new = await self.service.rematch(table_id, user_id, guild_id=place_id(interaction))
        except Refusal as exc:
            await self.private(reply, self.refusal(lang, exc, table, user_id))
            return
        # in a thread again if the last match was, or if the server's tables are
        in_thread = reaches_channel(interaction) and (
            (table is not None and table.thread_id is not None)
            or await self._in_thread(interaction, None))
        await self._post_lobby(interaction, reply, new,
                               thread=in_thread and may_start_threads(interaction))
