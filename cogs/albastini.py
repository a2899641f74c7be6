"""The /albastini commands and every button click: interaction -> table service -> reply.

No game rules here: what a player may do comes from the service's views (``view["legal"]``) and
its refusals (:class:`~albastini.table.Refusal`), which are translated into short private answers.
Every interaction is answered within Discord's 3 s (see :class:`~cogs.replies.Reply`), privately
where it concerns one person, and never with a hidden card in a public message or a log line.

Over 600 lines because it is one cog: the table commands, the service's events and every
button click share the table's replies, hands and refusals; the leaderboard, stats and settings
are their own cog (records.py), the rendering is the renderer's and the presenters'.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, NamedTuple

import discord
from discord import app_commands
from discord.ext import commands

from albastini.events import (
    Acted,
    DealOver,
    Event,
    MatchOver,
    TableClosed,
    TurnStarted,
)
from albastini.games import GAMES
from albastini.table import Refusal
from cogs import chooser, ids, texts, views
from cogs.feature import FeatureCog
from cogs.games import DEFAULT_GAME, first_rules_page, presenter, rules_page
from cogs.group import add_subcommand_cog
from cogs.hands import HandFollower
from cogs.i18n import game_key, join_list, t
from cogs.lang import key_str, name_str
from cogs.records import GAME_CHOICES, leaderboard_payload
from cogs.replies import Reply

if TYPE_CHECKING:
    from albastini.table import Table
    from bot import AlbastiniBot

log = logging.getLogger(__name__)

TEAM_SIZES = {"solo": 1, "pairs": 2, "trios": 3}
MODE_CHOICES = [app_commands.Choice(name=key_str(f"choice.mode.{m}"), value=m) for m in TEAM_SIZES]
LEVEL_CHOICES = [
    app_commands.Choice(name=key_str(f"choice.level.{lv}"), value=lv)
    for lv in ("easy", "normal", "hard")
]
#: The trump variants a table may choose, for a game that has them (Ass: its ``OPTIONS``).
TRUMP_CHOICES = [
    app_commands.Choice(name=key_str(f"choice.trumps.{v}"), value=v) for v in range(1, 6)
]


def message_link(guild_id: int, channel_id: int, message_id: int | None) -> str:
    if message_id is None:
        return f"<#{channel_id}>"
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


#: What the bot needs in a channel to run a table there (catalogue keys name them).
NEEDED_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("view_channel", "permission.view_channel"),
    ("send_messages", "permission.send_messages"),
    ("embed_links", "permission.embed_links"),
    ("attach_files", "permission.attach_files"),
)


def missing_permission(interaction: discord.Interaction[Any]) -> str | None:
    """The catalogue key of the first permission the bot lacks in this channel, if any."""
    perms = interaction.app_permissions
    for attr, key in NEEDED_PERMISSIONS:
        if not getattr(perms, attr, False):
            return key
    return None


def message_custom_ids(message: discord.Message | None) -> set[str]:
    """Every custom id among a message's components (rows, and V2 containers and sections)."""
    found: set[str] = set()
    stack: list[Any] = list(message.components) if message is not None else []
    while stack:
        item = stack.pop()
        custom_id = getattr(item, "custom_id", None)
        if isinstance(custom_id, str):
            found.add(custom_id)
        stack.extend(getattr(item, "children", None) or [])
        stack.extend(getattr(item, "components", None) or [])
        accessory = getattr(item, "accessory", None)
        if accessory is not None:
            stack.append(accessory)
    return found


def _clicked_on(
    interaction: discord.Interaction[Any], button: ids.ButtonId, custom_id: str
) -> bool:
    """Whether the clicked message really carries this button: a forged id (a leaderboard page
    sent on a lobby, a card on the public table...) must not act on a message it is not on."""
    message = interaction.message
    if message is None:
        return False
    present = message_custom_ids(message)
    return ids.carried_by(button, custom_id, present, ephemeral=message.flags.ephemeral)


class Click(NamedTuple):
    """One click on one of our buttons, with what every handler needs to answer it."""

    interaction: discord.Interaction[Any]
    reply: Reply
    table: Table
    button: ids.ButtonId
    lang: str
    user: Any


class AlbastiniCog(FeatureCog):
    """The tables: /albastini start, hand, leave, cancel, rules and help, and the handler of
    every button (a leaderboard page too, drawn by cogs/records.py)."""

    def __init__(self, bot: AlbastiniBot) -> None:
        super().__init__(bot)
        # (table, user) -> the action code of a move that counted but whose answer never
        # reached the person (the click had expired): their next hand says it counted.
        self._unseen: dict[tuple[int, int], str] = {}
        # the private hand a person last opened follows the game (cogs/hands.py); who watches
        # such a hand needs no turn ping
        self.hands = HandFollower(
            self._hand_state,
            self._hand_build,
            lambda table_id: self.bot.service.get(table_id),
            moved=lambda lang: t(lang, "hand.moved"),
            on_lost=self._hand_lost,
        )

    async def cog_load(self) -> None:
        self.bot.publisher.followed = self.hands.covers
        self.hands.courier = lambda: self.bot.publisher.courier
        # a hand change that offers no move keeps the table message's pace
        self.hands.lazy = self.bot.settings.edit_interval

    async def cog_unload(self) -> None:
        await super().cog_unload()
        await self.hands.close()

    # ------------------------------------------------------------------ helpers
    def _link(self, table: Table) -> str:
        return message_link(table.guild_id, table.channel_id, table.message_id)

    def _refusal(
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

    def hand_payload(
        self,
        table: Table,
        user_id: int,
        lang: str,
        *,
        note: str | None = None,
        retired: bool = False,
    ) -> dict[str, Any] | None:
        """content + view of a person's private hand; None if they do not sit at the table.
        ``retired``: the hand stops following the game, so no move is left enabled on it."""
        view = table.view_for(user_id)
        if view is None:
            return None
        if not view:  # lobby
            content = (note + "\n" if note else "") + t(lang, "hand.not_started")
            return {"content": content, "view": views.build_view([])}
        if retired:
            view = {**view, "legal": []}
            note = t(lang, "hand.retired")
        unseen = self._unseen.pop((table.id, user_id), None)
        if unseen is not None:
            counted = texts.move_counted(lang, unseen, table.game)
            note = f"{counted}\n{note}" if note else counted
        names = texts.seat_names(table, lang)
        if not retired:
            timed = texts.timed_out_note(table, user_id, view, names, lang)
            if timed is not None:
                note = f"{timed}\n{note}" if note else timed
        content = texts.hand_content(view, names, lang, note=note, game=table.game)
        specs = views.hand_buttons(view, table.id, lang, game=table.game)
        return {"content": content, "view": views.build_view(specs)}

    # ------------------------------------------------------------------ hands that follow
    @staticmethod
    def _hand_state(table: Table, user_id: int) -> Any:
        """What a person's hand shows that matters enough to edit it: their cards, the moves
        they may make now (with the move number their buttons carry), and what the game's
        presenter says the hand shows besides (Albastini: the trump and the bids); not who else
        is to act, which the table message shows. And whether it offers them a move now (such
        an edit goes out at once)."""
        seat = table.seat_of(user_id)
        if seat is None:
            return None
        if table.match is None or table.status == "lobby":
            return (table.status,), False
        view = table.match.deal.view(seat)
        legal = tuple(view.get("legal") or ())
        shown = (
            table.status,
            table.deal_no,
            view.get("phase"),
            tuple(view.get("hand") or ()),
            legal,
            table.move_no if legal else None,
            presenter(table.game).hand_shows(view),
        )
        return shown, bool(legal)

    def _hand_build(
        self, table: Table, user_id: int, lang: str, retired: bool
    ) -> dict[str, Any] | None:
        return self.hand_payload(table, user_id, lang, retired=retired)

    def _hand_lost(self, table: Table, user_id: int) -> None:
        """A hand that could not be updated while its person is to act: ping them instead."""
        seat = table.to_act
        info = table.seats[seat] if seat is not None else None
        if table.status == "running" and seat is not None and info is not None and (
            info.user_id == user_id
        ):
            self.bot.publisher.turn_started(table.id, seat, table.move_no)

    async def _show_hand(
        self,
        interaction: discord.Interaction[Any],
        reply: Reply,
        table: Table,
        lang: str,
        payload: dict[str, Any],
        *,
        in_place: bool = True,
    ) -> None:
        """A private hand, in place of the clicked private message (``in_place``, when the click
        was on one) or as a new one; from then on it follows the game (cogs/hands.py)."""
        msg = interaction.message
        user_id = interaction.user.id
        state = self._hand_state(table, user_id)  # what ``payload`` shows
        in_place = in_place and msg is not None and msg.flags.ephemeral
        if in_place:
            await self.hands.quiet(table.id, user_id)
        self.hands.answering(table, user_id, state)  # this answer shows it
        if in_place and msg is not None:
            await reply.edit(**payload)
            self.hands.remember(table, interaction, lang, message_id=msg.id, state=state)
            return
        sent = await reply.send(ephemeral=True, **payload)
        if reply.followed_up and sent is not None:
            self.hands.remember(table, interaction, lang, followup=sent, state=state)
        else:
            message_id = sent.id if sent is not None else None
            self.hands.remember(table, interaction, lang, message_id=message_id, state=state)

    # ------------------------------------------------------------------ service events
    def on_events(self, table: Table, events: list[Event]) -> None:
        """The service's listener: schedule public updates; never blocks."""
        pub = self.bot.publisher
        closed = False
        for ev in events:
            if isinstance(ev, TurnStarted) and ev.deadline is not None:
                pub.turn_started(table.id, ev.seat, ev.move_no)
            elif isinstance(ev, Acted):
                pub.turn_done(table.id, ev.move_no)
                info = table.seats[ev.seat] if not ev.by_computer else None
                if info is not None and info.user_id is not None:
                    # their click is being answered with their hand: no edit of it needed
                    self.hands.answering(table, info.user_id)
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

                pub.post(table.id, build_match)
            elif isinstance(ev, TableClosed):
                pub.closed_reasons[table.id] = ev.reason
                pub.clear_notice(table.id)
                closed = True
        pub.refresh(table.id)
        self.hands.changed(table)
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
        game=key_str("cmd.start.opt.game.description"),
        trumps=key_str("cmd.start.opt.trumps.description"),
    )
    @app_commands.choices(teams=MODE_CHOICES, level=LEVEL_CHOICES, game=GAME_CHOICES)
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
        game: str = DEFAULT_GAME,
        trumps: int | None = None,
    ) -> None:
        """Open a table of ``game`` in this channel (Twenty-Eight: 3, 4 or 6 players, whose
        ``target`` is the base cards each side starts with; Ass: ``trumps``, the variant)."""
        reply = Reply(interaction, ephemeral=False)
        if not await self.guild_only(interaction, reply):
            return
        assert interaction.guild_id is not None and interaction.channel_id is not None
        lang = await self._lang(interaction)
        existing = self.service.table_in_channel(interaction.channel_id)
        if existing is not None and await self._lost_lobby(interaction, reply, existing):
            return
        existing = self.service.table_in_channel(interaction.channel_id)
        if existing is not None:
            await self._private(reply, t(lang, "refuse.table_exists", link=self._link(existing)))
            return
        missing = missing_permission(interaction)
        if missing is not None:
            await self._private(
                reply, t(lang, "error.missing_permission", permission=t(lang, missing))
            )
            return
        wrong = self._impossible_table(lang, game, players, teams)
        options = {} if trumps is None else {"trumps": trumps}
        if wrong is None and options and "trumps" not in getattr(GAMES[game], "OPTIONS", {}):
            wrong = t(lang, "refuse.no_trumps", game=t(lang, f"choice.game.{game}"))
        if wrong is None and target is not None and not getattr(GAMES[game], "HAS_TARGET", True):
            wrong = t(lang, "refuse.no_target", game=t(lang, f"choice.game.{game}"))
        if wrong is not None:
            await self._private(reply, wrong)
            return
        public = await self.bot.languages.guild(interaction.guild_id)
        try:
            table = await self.service.open_table(
                interaction.guild_id,
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
            )
            if computers:
                table = await self.service.fill_computers(table.id, interaction.user.id)
        except Refusal as exc:
            await self._private(reply, self._refusal(lang, exc, None))
            return
        await self._post_lobby(interaction, reply, table)

    @staticmethod
    def _impossible_table(lang: str, game: str, players: int, teams: str | None) -> str | None:
        """Why ``game`` cannot be played by ``players`` (in ``teams``), from the game's modes
        (Twenty-Eight: 3, 4 or 6 players, each with its own sides), naming what is possible;
        None when it can."""
        if game not in GAMES:
            return t(lang, "refuse.bad_value")
        modes: dict[str, dict[str, int]] = GAMES[game].MODES
        counts = sorted({m["players"] for m in modes.values()})
        if players not in counts:
            return t(lang, "refuse.bad_players_game", game=t(lang, f"choice.game.{game}"),
                     players=players, choices=", ".join(str(n) for n in counts))
        sizes = [m["team_size"] for m in modes.values() if m["players"] == players]
        if teams is None or TEAM_SIZES.get(teams) in sizes:
            return None
        choices = [t(lang, f"choice.mode.{m}") for m, size in TEAM_SIZES.items() if size in sizes]
        return t(lang, "refuse.bad_mode", players=players, mode=t(lang, f"choice.mode.{teams}"),
                 choices=join_list(lang, choices))

    async def _post_lobby(
        self,
        interaction: discord.Interaction[Any],
        reply: Reply,
        table: Table,
        content: str | None = None,
    ) -> None:
        """Show the lobby as the public answer to the interaction and remember its message.

        If the answer never reaches Discord (a 5xx, an interaction that expired before the bot
        saw it), nobody can see or join the lobby: the publisher posts it in the channel."""
        payload = await self.bot.publisher.message_payload(table)
        payload.pop("attachments", None)
        try:
            msg = await reply.send(content=content, ephemeral=False, **payload)
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
        if not reply.followed_up:  # the lobby is the command's response: its token edits it
            self.bot.publisher.table_token(
                table.id, msg.id, interaction.application_id, interaction.token
            )
        self.bot.publisher.refresh(table.id)

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
        if not await self.guild_only(interaction, reply):
            return None
        assert interaction.channel_id is not None  # guild_only checked it
        lang = await self._lang(interaction)
        table = self.service.table_in_channel(interaction.channel_id)
        if table is None:
            await self._private(reply, t(lang, "refuse.no_table"))
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
        payload = self.hand_payload(table, interaction.user.id, lang)
        if payload is None:
            await self._private(reply, t(lang, "refuse.not_seated"))
            return
        await self._show_hand(interaction, reply, table, lang, payload, in_place=False)

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
            await self._private(reply, self._refusal(lang, exc, table, interaction.user.id))
            return
        key = "lobby.you_left" if table.status in ("lobby", "cancelled") else "table.you_left"
        await self._private(reply, t(lang, key))

    @app_commands.command(name=name_str("cancel"), description=key_str("cmd.cancel.description"))
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        """Close the table in this channel (host, or Manage Messages)."""
        reply = Reply(interaction, ephemeral=True)
        found = await self._table_here(interaction, reply)
        if found is None:
            return
        table, lang = found
        await self._cancel(interaction, reply, table, lang)

    async def _cancel(
        self, interaction: discord.Interaction[Any], reply: Reply, table: Table, lang: str
    ) -> bool:
        moderator = bool(interaction.permissions.manage_messages)
        try:
            await self.service.cancel(table.id, interaction.user.id, moderator=moderator)
        except Refusal as exc:
            text = self._refusal(lang, exc, table)
            if exc.reason == "not_host":
                text = t(lang, "refuse.not_host_or_mod", host=texts.mention(table.host_id))
            await self._private(reply, text)
            return False
        await self._private(reply, t(lang, "table.cancel_done"))
        return True

    @app_commands.command(name=name_str("rules"), description=key_str("cmd.rules.description"))
    @app_commands.describe(game=key_str("cmd.rules.opt.game.description"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(
        self, interaction: discord.Interaction[Any], game: str = DEFAULT_GAME
    ) -> None:
        """Read the rules of a game, privately, in your language."""
        reply = Reply(interaction, ephemeral=True)
        lang = await self._lang(interaction)
        await reply.send(ephemeral=True, **self.rules_payload(first_rules_page(game), lang))

    def rules_payload(self, page: int, lang: str) -> dict[str, Any]:
        """A page of the rules book (every game's rules, one after the other), paged within
        its game's rules."""
        game, number, pages, first = rules_page(page)
        embed = discord.Embed(
            title=t(lang, game_key(game, "rules.title"), page=number, pages=pages),
            description=t(lang, game_key(game, f"rules.page.{number}")),
            colour=discord.Colour.dark_green(),
        )
        specs = views.pager_buttons(
            "rules", lang, page=first + number - 1, pages=pages, first_page=first
        )
        return {"embed": embed, "view": views.build_view(specs)}

    @app_commands.command(name=name_str("help"), description=key_str("cmd.help.description"))
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """How to play with this bot."""
        lang = await self._lang(interaction)
        embed = discord.Embed(title=t(lang, "help.title"), description=t(lang, "help.text"))
        await Reply(interaction).send(embed=embed, ephemeral=True)

    # ------------------------------------------------------------------ buttons
    async def on_button(self, interaction: discord.Interaction[Any], button: ids.ButtonId) -> None:
        """Every click on one of our buttons (from :meth:`on_interaction`)."""
        reply = Reply(interaction, update=True)
        try:
            await self._on_button(interaction, button, reply)
        except Exception as exc:
            await self.answer_error(interaction, exc, f"button {button.kind}")
        finally:
            await reply.close()
            self._table_token(interaction, button)

    def _table_token(self, interaction: discord.Interaction[Any], button: ids.ButtonId) -> None:
        """A click on a table message answered by updating it (Join, Start...): its token edits
        that message outside Discord's global rate limit for a while (cogs/table_message.py)."""
        msg = interaction.message
        updated = (
            discord.InteractionResponseType.message_update,
            discord.InteractionResponseType.deferred_message_update,
        )
        if button.table is None or msg is None or interaction.response.type not in updated:
            return
        self.bot.publisher.table_token(
            button.table, msg.id, interaction.application_id, interaction.token
        )

    async def _on_button(
        self, interaction: discord.Interaction[Any], button: ids.ButtonId, reply: Reply
    ) -> None:
        lang = await self._lang(interaction)
        if button.kind == "rules":
            payload = self.rules_payload(button.page or 1, lang)
            # paging in the private rules; the Rules button of a public message opens them
            await self._private_in_place(interaction, reply, payload)
            return
        if button.kind == "leaderboard":
            if button.guild is None or button.guild != interaction.guild_id:
                await self._private(reply, t(lang, "refuse.bad_button"))
                return
            public = await self.bot.languages.guild(interaction.guild_id)
            await reply.edit(
                **await leaderboard_payload(
                    self.store, button.guild, button.offset or 0, public,
                    button.game or DEFAULT_GAME,
                )
            )
            return
        table = self.service.get(button.table) if button.table is not None else None
        if table is None and button.kind == "rematch" and button.table is not None:
            # a match that ended before a restart is not kept in memory: the service reads it
            await self._rematch(interaction, reply, button.table, lang, None)
            return
        if table is None or table.guild_id != interaction.guild_id:
            await self._private(reply, t(lang, "refuse.table_gone"))
            return
        handler = getattr(self, f"_click_{button.kind}")
        await handler(Click(interaction, reply, table, button, lang, interaction.user))

    async def _serve(self, c: Click, call: Awaitable[object]) -> bool:
        """Await a table-service call for a click; on a refusal, explain it privately."""
        try:
            await call
        except Refusal as exc:
            await self._private(c.reply, self._refusal(c.lang, exc, c.table, c.user.id))
            return False
        return True

    async def _click_move(self, c: Click) -> None:
        code = c.button.action
        assert code is not None and c.button.move is not None
        try:
            await self.service.act(c.table.id, c.user.id, c.button.move, code)
        except Refusal as exc:
            note = self._refusal(c.lang, exc, c.table)
            if exc.reason in ("stale", "illegal", "not_your_turn"):
                payload = self.hand_payload(c.table, c.user.id, c.lang, note=note)
                if payload is not None:
                    await self._show_hand(c.interaction, c.reply, c.table, c.lang, payload)
                    return
            await self._private(c.reply, note)
            return
        payload = self.hand_payload(c.table, c.user.id, c.lang)
        try:
            if payload is None:
                await self._private(c.reply, t(c.lang, "refuse.not_seated"))
            else:
                await self._show_hand(c.interaction, c.reply, c.table, c.lang, payload)
        except discord.HTTPException as exc:
            expired = isinstance(exc, discord.NotFound) and exc.code == 10062
            if not expired and exc.status < 500:
                raise
            # The move is stored, but the person saw "This interaction failed" (the click
            # reached the bot too late, or Discord failed): their next hand says it counted.
            log.info(
                "a move at table %s counted, but its answer failed (%s, %s)",
                c.table.id,
                exc.status,
                exc.code,
            )
            self._unseen[(c.table.id, c.user.id)] = code
            self.hands.missed(c.table, c.user.id)  # the older token can still show it

    async def _click_card(self, c: Click) -> None:
        """A card no move puts down: its button is disabled, so only a forged click gets here.
        Nothing is played; the hand is shown again, saying whose turn it is when it is not
        theirs."""
        seat = c.table.seat_of(c.user.id)
        if seat is None or c.table.status != "running":
            await self._click_refresh(c)
            return
        to_act = c.table.to_act
        reason = "not_your_turn" if to_act != seat else "illegal"
        note = texts.refusal_text(c.lang, reason, {"to_act": to_act}, c.table)
        payload = self.hand_payload(c.table, c.user.id, c.lang, note=note)
        if payload is not None:
            await self._show_hand(c.interaction, c.reply, c.table, c.lang, payload)

    async def _click_options(self, c: Click) -> None:
        """A card with several legal uses (Cassino): its options in place of the hand
        (cogs/chooser.py); an old card, or one with one use left, shows the hand again."""
        view = c.table.view_for(c.user.id)
        card = c.button.card or ""
        if view and c.table.status == "running" and c.button.move == c.table.move_no:
            menus, buttons = chooser.chooser_specs(view, c.table.id, c.lang, card,
                                                   c.button.page or 0, game=c.table.game)
            if menus:
                names = texts.seat_names(c.table, c.lang)
                title = t(c.lang, "cassino.chooser.title",
                          card=presenter(c.table.game).card_label(card))
                content = texts.hand_content(view, names, c.lang, game=c.table.game)
                await self.hands.quiet(c.table.id, c.user.id)
                await c.reply.edit(content=f"{content}\n\n{title}",
                                   view=chooser.ChooserView(menus, buttons))
                return
        payload = self.hand_payload(c.table, c.user.id, c.lang,
                                    note=t(c.lang, "cassino.chooser.gone"))
        if payload is None:
            await self._private(c.reply, t(c.lang, "refuse.not_seated"))
            return
        await self._show_hand(c.interaction, c.reply, c.table, c.lang, payload)

    async def _click_pick(self, c: Click) -> None:
        """An option chosen in a card's menu: the move it names, checked as any move."""
        code = chooser.picked_code(c.interaction.data)
        if code is None:
            await self._private(c.reply, t(c.lang, "refuse.bad_button"))
            return
        await self._click_move(
            c._replace(button=dataclasses.replace(c.button, kind="move", action=code)))

    @staticmethod
    async def _private_in_place(
        interaction: discord.Interaction[Any], reply: Reply, payload: dict[str, Any]
    ) -> None:
        """``payload`` in place of the clicked message when it is a private one (a hand, a rules
        page), else as a new private message."""
        msg = interaction.message
        if msg is not None and msg.flags.ephemeral:
            await reply.edit(**payload)
        else:
            await reply.send(ephemeral=True, **payload)

    async def _click_refresh(self, c: Click) -> None:
        payload = self.hand_payload(c.table, c.user.id, c.lang)
        if payload is None:
            await self._private(c.reply, t(c.lang, "refuse.not_seated"))
        elif c.table.status != "running":
            await c.reply.edit(content=t(c.lang, "refuse.match_over"), view=views.build_view([]))
        else:
            await self._show_hand(c.interaction, c.reply, c.table, c.lang, payload)

    async def _click_hand(self, c: Click) -> None:
        if c.table.status not in ("running", "lobby"):
            await self._private(c.reply, t(c.lang, "refuse.match_over"))
            return
        payload = self.hand_payload(c.table, c.user.id, c.lang)  # in the lobby: "not dealt yet"
        if payload is None:
            await self._private(c.reply, t(c.lang, "refuse.not_seated"))
            return
        await self._show_hand(c.interaction, c.reply, c.table, c.lang, payload, in_place=False)

    async def _click_back(self, c: Click) -> None:
        if not await self._serve(c, self.service.back(c.table.id, c.user.id)):
            return
        payload = self.hand_payload(
            c.table, c.user.id, c.lang, note=t(c.lang, "table.welcome_back")
        )
        if payload is not None:
            await self._show_hand(c.interaction, c.reply, c.table, c.lang, payload, in_place=False)

    async def _click_leave(self, c: Click) -> None:
        if c.table.seat_of(c.user.id) is None:
            await self._private(c.reply, t(c.lang, "refuse.not_seated"))
            return
        if c.table.status == "running":
            specs = views.leave_confirm_buttons(c.table.id, c.lang)
            await c.reply.send(
                content=t(c.lang, "match.leave_confirm"),
                view=views.build_view(specs),
                ephemeral=True,
            )
            return
        if not await self._serve(c, self.service.leave(c.table.id, c.user.id)):
            return
        await self._private(c.reply, t(c.lang, "lobby.you_left"))

    async def _click_quit(self, c: Click) -> None:
        if not await self._serve(c, self.service.leave(c.table.id, c.user.id)):
            return
        await c.reply.edit(content=t(c.lang, "table.you_left"), view=views.build_view([]))

    async def _click_join(self, c: Click) -> None:
        if not await self._serve(c, self.service.join(c.table.id, c.user.id, c.user.display_name)):
            return
        slot = c.table.seat_of(c.user.id)
        await self._private(c.reply, t(c.lang, "lobby.you_joined", seat=(slot or 0) + 1))

    async def _click_computer(self, c: Click) -> None:
        if not await self._serve(c, self.service.add_computer(c.table.id, c.user.id)):
            return
        await c.reply.defer()

    async def _click_start(self, c: Click) -> None:
        if not await self._serve(c, self.service.start_match(c.table.id, c.user.id)):
            return
        await c.reply.defer()

    async def _click_cancel(self, c: Click) -> None:
        await self._cancel(c.interaction, c.reply, c.table, c.lang)

    async def _click_rematch(self, c: Click) -> None:
        await self._rematch(c.interaction, c.reply, c.table.id, c.lang, c.table)

    async def _rematch(
        self,
        interaction: discord.Interaction[Any],
        reply: Reply,
        table_id: int,
        lang: str,
        table: Table | None,
    ) -> None:
        user_id = interaction.user.id
        try:
            new = await self.service.rematch(table_id, user_id, guild_id=interaction.guild_id)
        except Refusal as exc:
            await self._private(reply, self._refusal(lang, exc, table, user_id))
            return
        await self._post_lobby(interaction, reply, new)

    # ------------------------------------------------------------------ unknown buttons
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every click: ours (whatever message carries them, and forged or stale ones too) are
        checked by the service like any click; anything else gets a polite refusal."""
        if interaction.type != discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if any(getattr(c, "claims", lambda _: False)(custom_id) for c in self.bot.cogs.values()):
            return  # another extension's button (cogs/history.py): it answers the click
        parsed = ids.parse(custom_id)
        # the rules' pages are anyone's, anywhere (/albastini rules answers in a DM too)
        dm_ok = parsed is not None and parsed.kind == "rules"
        if not dm_ok and await self.refused_outside_a_server(interaction):
            return
        if parsed is not None and _clicked_on(interaction, parsed, custom_id):
            await self.on_button(interaction, parsed)
            return
        try:
            lang = await self._lang(interaction)
            await interaction.response.send_message(t(lang, "refuse.bad_button"), ephemeral=True)
        except discord.HTTPException:
            log.warning("could not answer an unknown button")


async def setup(bot: AlbastiniBot) -> None:
    """The extension's entry (``bot.load_extension("cogs.albastini")``): the table cog, which
    makes the /albastini group, hears the table service's events and is ``bot.albastini``."""
    cog = AlbastiniCog(bot)
    await add_subcommand_cog(bot, cog)
    bot.service.add_listener(cog.on_events)
    bot.albastini = cog


async def teardown(bot: AlbastiniBot) -> None:
    if bot.albastini is not None:
        bot.service.remove_listener(bot.albastini.on_events)
    bot.albastini = None
