"""Every click on a table's buttons: the lobby's, the table message's, a private hand's.

:meth:`TableClicks.routes` is the table of what answers each kind of button. A click is answered
within Discord's deadline (the router's :class:`~cogs.ui.replies.Reply`), privately where it
concerns one person; the table service decides every move and refuses with a reason, which is
translated into a short private answer. No game rule here: what a player may do comes from the
service's views and refusals.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, NamedTuple

import discord

from albastini.table import Refusal
from cogs.games import presenter
from cogs.i18n import t
from cogs.tables import _chooser as chooser
from cogs.ui import texts, views
from cogs.ui.buttons import ButtonId
from cogs.ui.place import place_id

if TYPE_CHECKING:
    from albastini.table import Table
    from cogs.tables._cog import TablesCog
    from cogs.ui.replies import Reply
    from cogs.ui.router import Click

log = logging.getLogger(__name__)

__all__ = ["TableClicks"]


class At(NamedTuple):
    """A click on one table's button, with what every handler needs to answer it."""

    interaction: discord.Interaction[Any]
    reply: Reply
    table: Table
    button: ButtonId
    lang: str
    user: Any


class TableClicks:
    """The handlers of the buttons of tables, lobbies and hands (:meth:`routes`)."""

    def __init__(self, cog: TablesCog) -> None:
        self.cog = cog
        self.service = cog.bot.service
        self.hands = cog.hands

    def routes(self) -> dict[str, Callable[[Click], Awaitable[None]]]:
        """Kind of button (:data:`cogs.ui.buttons.KINDS`) -> its handler."""
        on: dict[str, Callable[[At], Awaitable[None]]] = {
            # a private hand
            "move": self.move,            # a card, or a move without one: make it
            "card": self.card,            # a card no move puts down (disabled: forged)
            "options": self.options,      # a card with several uses: open its options
            "pick": self.pick,            # one of those options, from a menu
            "refresh": self.refresh,      # the hand again, in place
            "quit": self.quit,            # yes, leave the running match
            # the table message and the lobby
            "hand": self.hand,            # Show my hand
            "back": self.back,            # I'm back
            "leave": self.leave,          # Leave (asks first in a running match)
            "join": self.join,
            "computer": self.computer,    # host: add a computer player
            "start": self.start,          # host: deal
            "cancel": self.cancel,        # host or moderator: close the table
            "rematch": self.rematch,      # the match-over message: the same players again
        }
        routes: dict[str, Callable[[Click], Awaitable[None]]] = {
            kind: self._at_table(handler) for kind, handler in on.items()}
        routes["rules"] = self.rules_page
        return routes

    def _at_table(self, handler: Callable[[At], Awaitable[None]]) -> Callable[
            [Click], Awaitable[None]]:
        """``handler`` given the click's table; a table gone (or of another server) is said so.
        A click answered by updating a table message lends that message its token."""

        async def answer(click: Click) -> None:
            button = click.button
            table = self.service.get(button.table) if button.table is not None else None
            if table is None and button.kind == "rematch" and button.table is not None:
                # a match that ended before a restart is not kept in memory: the service reads it
                await self.cog.rematch(click.interaction, click.reply, button.table, click.lang,
                                       None)
            elif table is None or table.guild_id != place_id(click.interaction):
                await self.cog.private(click.reply, t(click.lang, "refuse.table_gone"))
            else:
                if table.interactions_only and self._on_table_message(click.interaction, table):
                    # Where the bot reaches the table only through interactions, a click on
                    # its message first acknowledges it as "update this message": that
                    # click's token then edits the table for 15 minutes (its private answer
                    # goes as a follow-up). One click still does it all.
                    await click.reply.defer()
                await handler(At(click.interaction, click.reply, table, button, click.lang,
                                 click.user))
            # (a handler that fails is answered by the router, before anything else is sent)
            await click.reply.close()
            self._table_token(click.interaction, button)
            if button.table is not None and click.interaction.response.is_done():
                self.cog.bot.publisher.interaction_token(
                    button.table, click.interaction.application_id, click.interaction.token)

        return answer

    @staticmethod
    def _on_table_message(interaction: discord.Interaction[Any], table: Table) -> bool:
        msg = interaction.message
        return msg is not None and msg.id == table.message_id

    def _table_token(self, interaction: discord.Interaction[Any], button: ButtonId) -> None:
        """A click on a table message answered by updating it (Join, Start...): its token edits
        that message outside Discord's global rate limit for a while
        (cogs/messages/table_message.py)."""
        msg = interaction.message
        updated = (
            discord.InteractionResponseType.message_update,
            discord.InteractionResponseType.deferred_message_update,
        )
        if button.table is None or msg is None or interaction.response.type not in updated:
            return
        self.cog.bot.publisher.table_token(
            button.table, msg.id, interaction.application_id, interaction.token
        )

    async def _serve(self, c: At, call: Awaitable[object]) -> bool:
        """Await a table-service call for a click; on a refusal, explain it privately."""
        try:
            await call
        except Refusal as exc:
            await self.cog.private(c.reply, self.cog.refusal(c.lang, exc, c.table, c.user.id))
            return False
        return True

    async def _show(self, c: At, payload: dict[str, Any] | None, *, in_place: bool = True,
                    ) -> None:
        """The person's hand (``payload``), or "you're not at this table"."""
        if payload is None:
            await self.cog.private(c.reply, t(c.lang, "refuse.not_seated"))
            return
        await self.hands.show(c.interaction, c.reply, c.table, c.lang, payload,
                              in_place=in_place)

    # ------------------------------------------------------------------ a private hand
    async def move(self, c: At) -> None:
        code = c.button.action
        assert code is not None and c.button.move is not None
        try:
            await self.service.act(c.table.id, c.user.id, c.button.move, code)
        except Refusal as exc:
            note = self.cog.refusal(c.lang, exc, c.table)
            if exc.reason in ("stale", "illegal", "not_your_turn"):
                payload = self.hands.payload(c.table, c.user.id, c.lang, note=note)
                if payload is not None:
                    await self.hands.show(c.interaction, c.reply, c.table, c.lang, payload)
                    return
            await self.cog.private(c.reply, note)
            return
        try:
            await self._show(c, self.hands.payload(c.table, c.user.id, c.lang))
        except discord.HTTPException as exc:
            expired = isinstance(exc, discord.NotFound) and exc.code == 10062
            if not expired and exc.status < 500:
                raise
            # The move is stored, but the person saw "This interaction failed" (the click
            # reached the bot too late, or Discord failed): their next hand says it counted.
            log.info("a move at table %s counted, but its answer failed (%s, %s)",
                     c.table.id, exc.status, exc.code)
            self.hands.unseen(c.table, c.user.id, code)

    async def card(self, c: At) -> None:
        """A card no move puts down: its button is disabled, so only a forged click gets here.
        Nothing is played; the hand is shown again, saying whose turn it is when it is not
        theirs."""
        seat = c.table.seat_of(c.user.id)
        if seat is None or c.table.status != "running":
            await self.refresh(c)
            return
        to_act = c.table.to_act
        reason = "not_your_turn" if to_act != seat else "illegal"
        note = texts.refusal_text(c.lang, reason, {"to_act": to_act}, c.table)
        payload = self.hands.payload(c.table, c.user.id, c.lang, note=note)
        if payload is not None:
            await self.hands.show(c.interaction, c.reply, c.table, c.lang, payload)

    async def options(self, c: At) -> None:
        """A card with several legal uses (Cassino): its options in place of the hand
        (:mod:`cogs.tables._chooser`); an old card, or one with one use left, shows the hand
        again."""
        view = c.table.view_for(c.user.id)
        card = c.button.card or ""
        shows = presenter(c.table.game)
        if view and c.table.status == "running" and c.button.move == c.table.move_no:
            menus, buttons = chooser.chooser_specs(view, c.table.id, c.lang, card,
                                                   c.button.page or 0, shows=shows)
            if menus:
                names = texts.seat_names(c.table, c.lang)
                title = t(c.lang, "chooser.title", card=shows.card_label(card))
                content = texts.hand_content(view, names, c.lang, shows=shows)
                await self.hands.follower.quiet(c.table.id, c.user.id)
                await c.reply.edit(content=f"{content}\n\n{title}",
                                   view=chooser.ChooserView(menus, buttons))
                return
        note = t(c.lang, "chooser.gone")
        await self._show(c, self.hands.payload(c.table, c.user.id, c.lang, note=note))

    async def pick(self, c: At) -> None:
        """An option chosen in a card's menu: the move it names, checked as any move."""
        code = chooser.picked_code(c.interaction.data)
        if code is None:
            await self.cog.private(c.reply, t(c.lang, "refuse.bad_button"))
            return
        await self.move(c._replace(button=dataclasses.replace(c.button, kind="move",
                                                              action=code)))

    async def refresh(self, c: At) -> None:
        payload = self.hands.payload(c.table, c.user.id, c.lang)
        if payload is not None and c.table.status != "running":
            await c.reply.edit(content=t(c.lang, "refuse.match_over"), view=views.build_view([]))
            return
        await self._show(c, payload)

    async def quit(self, c: At) -> None:
        if not await self._serve(c, self.service.leave(c.table.id, c.user.id)):
            return
        await c.reply.edit(content=t(c.lang, "table.you_left"), view=views.build_view([]))

    # ------------------------------------------------------------------ the table and the lobby
    async def hand(self, c: At) -> None:
        if c.table.status not in ("running", "lobby"):
            await self.cog.private(c.reply, t(c.lang, "refuse.match_over"))
            return
        # in the lobby: "not dealt yet"
        await self._show(c, self.hands.payload(c.table, c.user.id, c.lang), in_place=False)

    async def back(self, c: At) -> None:
        if not await self._serve(c, self.service.back(c.table.id, c.user.id)):
            return
        note = t(c.lang, "table.welcome_back")
        payload = self.hands.payload(c.table, c.user.id, c.lang, note=note)
        if payload is not None:
            await self.hands.show(c.interaction, c.reply, c.table, c.lang, payload,
                                  in_place=False)

    async def leave(self, c: At) -> None:
        if c.table.seat_of(c.user.id) is None:
            await self.cog.private(c.reply, t(c.lang, "refuse.not_seated"))
            return
        if c.table.status == "running":
            specs = views.leave_confirm_buttons(c.table.id, c.lang)
            await c.reply.send(content=t(c.lang, "match.leave_confirm"),
                               view=views.build_view(specs), ephemeral=True)
            return
        if not await self._serve(c, self.service.leave(c.table.id, c.user.id)):
            return
        await self.cog.private(c.reply, t(c.lang, "lobby.you_left"))

    async def join(self, c: At) -> None:
        if not await self._serve(c, self.service.join(c.table.id, c.user.id, c.user.display_name)):
            return
        slot = c.table.seat_of(c.user.id)
        await self.cog.private(c.reply, t(c.lang, "lobby.you_joined", seat=(slot or 0) + 1))

    async def computer(self, c: At) -> None:
        if await self._serve(c, self.service.add_computer(c.table.id, c.user.id)):
            await c.reply.defer()

    async def start(self, c: At) -> None:
        if await self._serve(c, self.service.start_match(c.table.id, c.user.id)):
            await c.reply.defer()

    async def cancel(self, c: At) -> None:
        await self.cog.cancel_table(c.interaction, c.reply, c.table, c.lang)

    async def rematch(self, c: At) -> None:
        await self.cog.rematch(c.interaction, c.reply, c.table.id, c.lang, c.table)

    # ------------------------------------------------------------------ the rules book
    async def rules_page(self, click: Click) -> None:
        """Paging in the private rules; the Rules button of a public message opens them."""
        payload = self.cog.rules_payload(click.button.page or 1, click.lang)
        msg = click.interaction.message
        if msg is not None and msg.flags.ephemeral:
            await click.reply.edit(**payload)
        else:
            await click.reply.send(ephemeral=True, **payload)
