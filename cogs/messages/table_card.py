"""What a table's one public message shows: its lobby, then the table, as a card
(:mod:`cogs.ui.cards`) in the game's accent colour; a classic one, an embed, because Discord
refuses a Components V2 message's new picture through an interaction's token
(discord-api-docs#7529), which edits this message outside the global rate limit.

The table card: a header (game, deal, score and target), the picture of the table at its foot
(its alt text is worked out with the picture, off the event loop: cogs/messages/painter.py),
the text table (whose turn, the game's facts and lines, the trick and the last one), the
sides, and the table's buttons. The lobby card: the lobby's title and seats, and its
buttons. Only public views are read here (``table.public_view()``): no hand, ever.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs import render
from cogs.games import presenter
from cogs.i18n import t
from cogs.ui import texts, views
from cogs.ui.cards import Card

if TYPE_CHECKING:
    from albastini.table import Table

__all__ = ["lobby_card", "table_card"]


def lobby_card(table: Table, closed_reason: str | None) -> Card:
    """The lobby as a card: its title, the seats, and Join/Leave/Add computer/Start/Cancel while
    it is open; a closed lobby says why (``closed_reason`` "idle": nobody started it)."""
    lang = table.language
    title, description = texts.lobby_text(table, lang)
    if table.status == "cancelled":
        key = "lobby.expired" if closed_reason == "idle" else "lobby.closed"
        description += "\n" + t(lang, key)
    buttons = views.lobby_buttons(table, lang) if table.status == "lobby" else []
    return Card(presenter(table.game).ACCENT, (f"### {title}", description), tuple(buttons),
                classic=True)


def table_card(table: Table, clock: str, note: str | None = None) -> Card:
    """The running (or closed) table as a card, from its public view; ``clock``: the turn's
    deadline ("⏳ in 42 s"), shown beside whose turn it is; ``note``: a line first (a message
    posted again says why)."""
    lang = table.language
    shows = presenter(table.game)
    view = table.public_view()
    names = texts.seat_names(table, lang)
    text = render.table_text(view, names, lang, deal_no=table.deal_no,
                             scores=list(table.scores()), target=table.target,
                             side_names=texts.side_names(table, lang), shows=shows)
    header, _, body = text.partition("\n")
    if clock:
        # beside "▶ X to play", the first line of the body
        first, sep, rest = body.partition("\n")
        body = f"{first} {clock}{sep}{rest}" if first else clock
    body += "\n\n" + texts.teams_text(table, lang, view["team_of"])
    if table.status == "cancelled":
        body += "\n" + t(lang, "lobby.closed")
    head = f"{note}\n### {header}" if note else f"### {header}"
    return Card(shows.ACCENT, (head, body), tuple(views.table_buttons(table, lang)),
                classic=True)
