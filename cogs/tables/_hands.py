"""A player's private hand: what it shows, and showing it so that it follows the game.

The hand is drawn from the seat's own view by the table's game's presenter (its header, its
buttons); once shown in answer to a person's click or command it follows the game
(:class:`cogs.messages.hands.HandFollower`), so each move is one click.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from cogs.games import presenter
from cogs.i18n import t
from cogs.messages.hands import HandFollower
from cogs.ui import texts, views

if TYPE_CHECKING:
    from albastini.table import Table
    from bot import AlbastiniBot
    from cogs.ui.replies import Reply


class PrivateHands:
    """The private hands of every table: their payloads, and the follower that keeps the
    latest one of each person up to date."""

    def __init__(self, bot: AlbastiniBot) -> None:
        self.bot = bot
        # (table, user) -> the action code of a move that counted but whose answer never
        # reached the person (the click had expired): their next hand says it counted.
        self._unseen: dict[tuple[int, int], str] = {}
        #: the private hand a person last opened follows the game; who watches such a hand
        #: needs no turn ping
        self.follower = HandFollower(
            self.state,
            self._build,
            lambda table_id: self.bot.service.get(table_id),
            moved=lambda lang: t(lang, "hand.moved"),
            on_lost=self._lost,
            clicks_first=bot.router.first.wait,
        )

    def payload(
        self,
        table: Table,
        user_id: int,
        lang: str,
        *,
        note: str | None = None,
        retired: bool = False,
        as_specs: bool = False,
    ) -> dict[str, Any] | None:
        """content + view of a person's private hand; None if they do not sit at the table.
        ``retired``: the hand stops following the game, so no move is left enabled on it.
        ``as_specs``: the buttons as specs (``specs``), not a view (what the follower sends)."""
        parts = self._parts(table, user_id, lang, note, retired)
        if parts is None or as_specs:
            return parts
        return {"content": parts["content"], "view": views.build_view(parts["specs"])}

    def _parts(
        self, table: Table, user_id: int, lang: str, note: str | None, retired: bool
    ) -> dict[str, Any] | None:
        view = table.view_for(user_id)
        if view is None:
            return None
        if not view:  # lobby
            content = (note + "\n" if note else "") + t(lang, "hand.not_started")
            return {"content": content, "specs": []}
        if retired:
            view = {**view, "legal": []}
            note = t(lang, "hand.retired")
        shows = presenter(table.game)
        unseen = self._unseen.pop((table.id, user_id), None)
        if unseen is not None:
            counted = shows.action_text(lang, unseen, None)
            note = f"{counted}\n{note}" if note else counted
        names = texts.seat_names(table, lang)
        if not retired:
            timed = texts.timed_out_note(table, user_id, view, names, lang)
            if timed is not None:
                note = f"{timed}\n{note}" if note else timed
        content = texts.hand_content(view, names, lang, note=note, shows=shows)
        specs = views.checked(views.hand_buttons(view, table.id, lang, shows=shows))
        return {"content": content, "specs": specs}

    @staticmethod
    def state(table: Table, user_id: int) -> Any:
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
        view = table.hand_view(seat)
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

    def _build(
        self, table: Table, user_id: int, lang: str, retired: bool
    ) -> dict[str, Any] | None:
        return self.payload(table, user_id, lang, retired=retired, as_specs=True)

    def _lost(self, table: Table, user_id: int) -> None:
        """A hand that could not be updated while its person is to act: ping them instead."""
        seat = table.to_act
        info = table.seats[seat] if seat is not None else None
        if table.status == "running" and seat is not None and info is not None and (
            info.user_id == user_id
        ):
            self.bot.publisher.turn_started(table.id, seat, table.move_no)

    def unseen(self, table: Table, user_id: int, code: str) -> None:
        """A move that counted but whose answer failed: the person's next hand says so, and
        the older token of their hand can still show it."""
        self._unseen[(table.id, user_id)] = code
        self.follower.missed(table, user_id)

    async def show(
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
        was on one) or as a new one; from then on it follows the game."""
        msg = interaction.message
        user_id = interaction.user.id
        state = self.state(table, user_id)  # what ``payload`` shows
        in_place = in_place and msg is not None and msg.flags.ephemeral
        if in_place:
            await self.follower.quiet(table.id, user_id)
        self.follower.answering(table, user_id, state)  # this answer shows it
        if in_place and msg is not None:
            await reply.edit(**payload)
            self.follower.remember(table, interaction, lang, message_id=msg.id, state=state)
            return
        sent = await reply.send(ephemeral=True, **payload)
        if reply.followed_up and sent is not None:
            self.follower.remember(table, interaction, lang, followup=sent, state=state)
        else:
            message_id = sent.id if sent is not None else None
            self.follower.remember(table, interaction, lang, message_id=message_id, state=state)
