"""Ratings, seasons, match history, deal replays and spectators on Discord (issue 19).

Everything here only reads the store and the table service; the games' rules stay in the back
end (a replay is the stored moves replayed by :meth:`TableService.deal_replay`). Its buttons
have ids of their own (:data:`TEMPLATES`, all ``alb:``), answered by this cog's listener: the
table cog leaves them alone (:meth:`HistoryCog.claims`). As for the table's buttons, a click
counts only on a message that carries that button, private or public as that kind always is.

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
  privately, kept up to date like a hand (:class:`cogs.hands.HandFollower`). Only
  ``Table.public_view()`` is ever rendered there.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from albastini.session import Refusal
from cogs import texts, views
from cogs.feature import FeatureCog
from cogs.games import DEFAULT_GAME, presenter, shown_score
from cogs.group import add_subcommand_cog
from cogs.hands import HandFollower
from cogs.history_ids import (
    Button,
    board_id,
    carried_by,
    hist_id,
    look_id,
    open_id,
    parse,
    replay_id,
)
from cogs.i18n import game_key, t
from cogs.lang import key_str, name_str
from cogs.render import card_label, table_text
from cogs.replies import Reply

if TYPE_CHECKING:
    from albastini.session import DealReplay, Event
    from albastini.store import Store
    from albastini.store.records import MatchSummary, RatingEntry, SeatRecord
    from albastini.table import Table
    from bot import AlbastiniBot

log = logging.getLogger(__name__)

HISTORY_PAGE = 5
BOARD_PAGE = 10
SORT_CHOICES = [
    app_commands.Choice(name=key_str("choice.sort.points"), value="points"),
    app_commands.Choice(name=key_str("choice.sort.rating"), value="rating"),
]
PERIOD_CHOICES = [
    app_commands.Choice(name=key_str("choice.period.season"), value="season"),
    app_commands.Choice(name=key_str("choice.period.all"), value="all"),
]



# --------------------------------------------------------------------------- texts


def rating_text(value: float) -> str:
    return f"{value:.1f}"


SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(values: Sequence[float]) -> str:
    """The trend of a rating as small bars, oldest first."""
    if not values:
        return ""
    low, high = min(values), max(values)
    span = high - low
    return "".join(
        SPARKS[0 if span <= 0 else min(7, int((v - low) / span * 7.999))] for v in values
    )


def rating_lines(
    lang: str, here: RatingEntry | None, everywhere: RatingEntry | None
) -> list[str]:
    """A player's rating in this server (with its rank and trend) and across servers."""
    lines: list[str] = []
    if here is not None:
        lines.append(
            t(lang, "stats.rating", rating=rating_text(here.rating), matches=here.matches)
            + (" " + t(lang, "stats.rating_rank", rank=here.rank) if here.rank else "")
        )
        if len(here.trend) >= 2:
            change = here.trend[-1] - here.trend[-2]
            lines.append(
                t(lang, "stats.trend", bars=sparkline(here.trend),
                  change=f"{'+' if change >= 0 else ''}{change:.1f}")
            )
    if everywhere is not None:
        lines.append(
            t(lang, "stats.rating_everywhere", rating=rating_text(everywhere.rating),
              matches=everywhere.matches)
        )
    return lines


async def stats_rating_lines(
    store: Store, lang: str, guild_id: int, user_id: int, game: str
) -> list[str]:
    """What /albastini stats adds about ratings (nothing for an unrated player)."""
    here = await store.user_rating(guild_id, user_id, game=game)
    everywhere = await store.user_rating(0, user_id, game=game)
    return rating_lines(lang, here, everywhere)


def computer_name(lang: str, stored: str) -> str:
    """A computer seat's name in ``lang`` from its stored name (its number)."""
    found = re.search(r"(\d+)\s*$", stored)
    return t(lang, "computer.name", n=int(found.group(1)) if found else 1)


def replay_names(lang: str, replay: DealReplay, seats: Sequence[SeatRecord]) -> list[str]:
    """The seats of a replay as the table named them: a mention for a person, "Computer 2"
    for a computer (the stored seats, in seat order, when they match the replay's)."""
    ordered = sorted(seats, key=lambda s: s.seat_no)
    if len(ordered) != len(replay.names):
        return list(replay.names)
    return [
        texts.mention(s.user_id) if s.user_id is not None else computer_name(lang, s.display_name)
        for s in ordered
    ]


def mode_of(lang: str, players: int, team_size: int) -> str:
    mode = {1: "solo", 2: "pairs", 3: "trios"}.get(team_size, "solo")
    return t(lang, "history.mode", players=players, mode=t(lang, f"choice.mode.{mode}"))


def match_line(lang: str, number: int, match: MatchSummary) -> str:
    """One match of the history: number, game, mode, who played on which side, the final
    score (winners in bold) and when it ended."""
    sides: dict[int, list[str]] = {}
    for user_id, name, team in match.seats:
        sides.setdefault(team, []).append(
            texts.mention(user_id) if user_id is not None else computer_name(lang, name)
        )
    parts = []
    for team in sorted(sides):
        score = shown_score(match.game, match.scores[team] if team < len(match.scores) else 0)
        side = f"{', '.join(sides[team])} {score}"
        parts.append(f"**{side}**" if team in match.winners else side)
    when = int(match.finished_at.timestamp())
    return t(
        lang,
        "history.row",
        number=number,
        game=t(lang, f"choice.game.{match.game}"),
        mode=mode_of(lang, match.players, match.team_size),
        sides=" — ".join(parts),
        date=f"<t:{when}:d>",
        table=match.table_id,
    )


async def history_payload(
    store: Store, lang: str, guild_id: int, user_id: int, offset: int,
    here: int | None,
) -> dict[str, Any]:
    """A page of the history (``guild_id`` 0: every server; ``user_id`` 0: everyone), with a
    Replay button for each match of the server ``here``."""
    found = await store.history(
        guild_id=guild_id or None, user_id=user_id or None, limit=HISTORY_PAGE + 1,
        offset=offset,
    )
    page, more = found[:HISTORY_PAGE], len(found) > HISTORY_PAGE
    if user_id:
        scope = t(lang, "history.scope.player_everywhere" if not guild_id
                  else "history.scope.player", name=texts.mention(user_id))
    else:
        scope = t(lang, "history.scope.server")
    embed = discord.Embed(title=t(lang, "history.title", scope=scope),
                          colour=discord.Colour.dark_teal())
    if not page:
        embed.description = t(lang, "history.empty")
        return {"embed": embed, "view": views.build_view([])}
    embed.description = "\n".join(
        match_line(lang, offset + i + 1, m) for i, m in enumerate(page)
    )
    embed.set_footer(text=t(lang, "leaderboard.page", page=offset // HISTORY_PAGE + 1,
                            pages=offset // HISTORY_PAGE + (2 if more else 1)))
    specs = [
        views.ButtonSpec(open_id(m.table_id), t(lang, "button.replay_match",
                                                number=offset + i + 1), row=0)
        for i, m in enumerate(page)
        if here is not None and m.guild_id == here
    ]
    if offset > 0 or more:
        specs += [
            views.ButtonSpec(hist_id(guild_id, user_id, offset - HISTORY_PAGE),
                             t(lang, "button.previous"), disabled=offset <= 0, row=1),
            views.ButtonSpec(hist_id(guild_id, user_id, offset + HISTORY_PAGE),
                             t(lang, "button.next"), disabled=not more, row=1),
        ]
    return {"embed": embed, "view": views.build_view(specs)}


async def board_payload(
    store: Store, guild_id: int, offset: int, lang: str, *, sort: str, period: str,
    game: str = DEFAULT_GAME,
) -> dict[str, Any]:
    """A leaderboard page sorted by rating or by victory points, of this season or of all
    time (the plain board, points of this season, is :func:`cogs.records.leaderboard_payload`)."""
    season = 0 if period.startswith("a") else None
    scope = t(lang, "leaderboard.scope.all_time" if season == 0 else "leaderboard.scope.season",
              season=await store.current_season(guild_id))
    rows: list[str]
    if sort.startswith("r"):
        ratings = await store.ratings(guild_id, BOARD_PAGE, offset, game=game, season=season)
        total = ratings.total
        rows = [
            t(lang, "leaderboard.rating_row", rank=e.rank or offset + i + 1,
              name=texts.mention(e.user_id), rating=rating_text(e.rating), matches=e.matches)
            for i, e in enumerate(ratings.entries)
        ]
        title = t(lang, "leaderboard.rating_title", game=t(lang, f"choice.game.{game}"),
                  scope=scope)
    else:
        points = await store.leaderboard(guild_id, BOARD_PAGE, offset, game=game, season=season)
        total = points.total
        rows = [
            texts.leaderboard_row(lang, e, rank=e.rank if e.rank is not None else offset + i + 1)
            for i, e in enumerate(points.entries)
        ]
        title = t(lang, game_key(game, "leaderboard.title"), scope=scope)
    embed = discord.Embed(title=title, colour=discord.Colour.gold())
    if not rows:
        embed.description = t(lang, game_key(game, "leaderboard.empty"))
        return {"embed": embed, "view": views.build_view([])}
    embed.description = "\n".join(rows)
    pages = max(1, -(-total // BOARD_PAGE))
    page = offset // BOARD_PAGE
    embed.set_footer(text=t(lang, "leaderboard.page", page=page + 1, pages=pages))
    specs = [] if pages <= 1 else [
        views.ButtonSpec(board_id(guild_id, offset - BOARD_PAGE, sort, period, game),
                         t(lang, "button.previous"), disabled=page <= 0),
        views.ButtonSpec(board_id(guild_id, offset + BOARD_PAGE, sort, period, game),
                         t(lang, "button.next"), disabled=page >= pages - 1),
    ]
    return {"embed": embed, "view": views.build_view(specs)}


# --------------------------------------------------------------------------- replays


def trick_ends(replay: DealReplay) -> list[int]:
    """The steps at which a trick was taken (the last trick changed), and the deal's end."""
    steps = replay.steps
    ends = [
        i for i in range(1, len(steps))
        if steps[i].public.get("last_trick") != steps[i - 1].public.get("last_trick")
    ]
    if steps and (not ends or ends[-1] != len(steps) - 1):
        ends.append(len(steps) - 1)
    return ends


def replay_payload(
    replay: DealReplay, step_no: int, lang: str, names: Sequence[str] | None = None
) -> dict[str, Any]:
    """Step ``step_no`` of a deal's replay: the table as everyone saw it then, every hand face
    up, and the buttons to walk it (previous, next, trick by trick, deal by deal)."""
    last = len(replay.steps) - 1
    step_no = max(0, min(step_no, last))
    step = replay.steps[step_no]
    names = list(names if names is not None else replay.names)
    if step.seat is None:
        what = t(lang, "replay.dealt")
    else:
        name = names[step.seat] if step.seat < len(names) else "?"
        what = presenter(replay.game).action_text(lang, step.code or "", name)
    header = t(lang, "replay.title", number=replay.table_id, deal=replay.deal_no,
               deals=replay.deals, step=step_no, steps=last)
    body = table_text(step.public, names, lang, deal_no=replay.deal_no, scores=[], target=0,
                      game=replay.game)
    body = "\n".join(body.split("\n")[1:])  # no running score line: the header says where
    hands = [
        t(lang, "replay.hand", name=names[seat] if seat < len(names) else "?",
          cards=" ".join(card_label(c) for c in view.get("hand") or []) or "—")
        for seat, view in enumerate(step.seats)
    ]
    content = "\n".join([f"**{header}**", what, body, *hands])[:1990]
    ends = trick_ends(replay)
    back = max((e for e in ends if e < step_no), default=0)
    ahead = min((e for e in ends if e > step_no), default=last)
    tid, deal = replay.table_id, replay.deal_no
    specs = [
        views.ButtonSpec(replay_id(tid, deal, back, "b"), t(lang, "button.trick_back"),
                         disabled=step_no <= 0, row=0),
        views.ButtonSpec(replay_id(tid, deal, step_no - 1), t(lang, "button.previous"),
                         disabled=step_no <= 0, row=0),
        views.ButtonSpec(replay_id(tid, deal, step_no + 1), t(lang, "button.next"), "primary",
                         disabled=step_no >= last, row=0),
        views.ButtonSpec(replay_id(tid, deal, ahead, "f"), t(lang, "button.trick_next"),
                         disabled=step_no >= last, row=0),
        views.ButtonSpec(replay_id(tid, deal - 1, 0, "d"), t(lang, "button.deal_previous"),
                         disabled=deal <= 1, row=1),
        views.ButtonSpec(replay_id(tid, deal + 1, 0, "d"), t(lang, "button.deal_next"),
                         disabled=deal >= replay.deals, row=1),
    ]
    return {"content": content, "embed": None, "view": views.build_view(specs)}


# --------------------------------------------------------------------------- spectators


def watch_payload(table: Table, lang: str) -> dict[str, Any]:
    """What a spectator sees: the public table only (``Table.public_view()``), as text."""
    if table.match is None or table.status != "running":
        return {"content": t(lang, "watch.over"), "view": views.build_view([])}
    view = table.public_view()
    body = table_text(
        view, texts.seat_names(table, lang), lang, deal_no=table.deal_no,
        scores=list(table.scores()), target=table.target,
        side_names=texts.side_names(table, lang), game=table.game,
    )
    content = t(lang, "watch.header") + "\n" + body
    specs = [views.ButtonSpec(look_id(table.id), t(lang, "button.refresh"))]
    return {"content": content[:1990], "view": views.build_view(specs)}


def _watch_state(table: Table, user_id: int) -> tuple[Hashable, bool] | None:
    """A summary of the public table (a spectator's view changes when it does)."""
    if table.match is None or table.status != "running":
        return ("over", False)
    summary = json.dumps(table.public_view(), sort_keys=True, default=str)
    return (f"{table.deal_no}:{list(table.scores())}:{summary}", False)


# --------------------------------------------------------------------------- the cog


class HistoryCog(FeatureCog):
    """/albastini history, season and recompute; replays and spectators' buttons."""

    def __init__(self, bot: AlbastiniBot) -> None:
        super().__init__(bot)
        self.watchers = HandFollower(
            _watch_state,
            self._watch_build,
            lambda table_id: self.bot.service.get(table_id),
            moved=lambda lang: t(lang, "watch.moved"),
        )

    async def cog_load(self) -> None:
        self.watchers.courier = lambda: self.bot.publisher.courier
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

    @staticmethod
    def claims(custom_id: str) -> bool:
        """Whether a click is this cog's (the table cog then leaves it alone)."""
        return parse(custom_id) is not None

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
        if not await self.guild_only(interaction, reply):
            return
        assert interaction.guild_id is not None
        lang = await self._lang(interaction)
        if everywhere and player is not None and player.id != interaction.user.id:
            await self._private(reply, t(lang, "history.only_yours"))
            return
        user_id = interaction.user.id if everywhere else (player.id if player else 0)
        guild_id = 0 if everywhere else interaction.guild_id
        payload = await history_payload(self.store, lang, guild_id, user_id, 0,
                                        interaction.guild_id)
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
            await self._private(reply, t(lang, "season.current", season=number))
            return
        if not interaction.permissions.manage_guild:
            await self._private(reply, t(lang, "season.not_allowed"))
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
            await self._private(reply, t(lang, "recompute.not_allowed"))
            return
        matches = await self.store.recompute_ratings()
        await self._private(reply, t(lang, "recompute.done", matches=matches))

    # ------------------------------------------------------------------ clicks
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type != discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        button = parse(custom_id)
        if button is None:
            return  # the table cog's, or nobody's (it answers those)
        if await self.refused_outside_a_server(interaction):
            return  # a person's history belongs to a server's matches
        reply = Reply(interaction, update=True)
        try:
            lang = await self._lang(interaction)
            if not carried_by(button, custom_id, interaction.message):
                await self._private(reply, t(lang, "refuse.bad_button"))
                return
            await getattr(self, f"_click_{button.kind}")(interaction, reply, button, lang)
        except Exception as exc:
            await self.answer_error(interaction, exc, f"button {button.kind}")
        finally:
            await reply.close()

    async def _click_hist(
        self, interaction: discord.Interaction[Any], reply: Reply, button: Button, lang: str
    ) -> None:
        guild, user = button.num("guild"), button.num("user")
        if (guild and guild != interaction.guild_id) or (
            not guild and user != interaction.user.id
        ):
            await self._private(reply, t(lang, "refuse.bad_button"))
            return
        await reply.edit(**await history_payload(self.store, lang, guild, user,
                                                 button.num("offset"), interaction.guild_id))

    async def _click_board(
        self, interaction: discord.Interaction[Any], reply: Reply, button: Button, lang: str
    ) -> None:
        guild = button.num("guild")
        if guild != interaction.guild_id:
            await self._private(reply, t(lang, "refuse.bad_button"))
            return
        public = await self.bot.languages.guild(guild)
        await reply.edit(**await board_payload(
            self.store, guild, button.num("offset"), public, sort=button.values["sort"],
            period=button.values["period"], game=button.values["game"],
        ))

    async def _replay(
        self, interaction: discord.Interaction[Any], reply: Reply, table_id: int,
        deal_no: int, lang: str,
    ) -> DealReplay | None:
        try:
            return await self.service.deal_replay(table_id, deal_no,
                                                  guild_id=interaction.guild_id)
        except Refusal as exc:
            key = "replay.not_finished" if exc.reason == "table_gone" else "replay.no_deal"
            await self._private(reply, t(lang, key, number=table_id))
            return None

    async def _click_open(
        self, interaction: discord.Interaction[Any], reply: Reply, button: Button, lang: str
    ) -> None:
        replay = await self._replay(interaction, reply, button.num("table"), 1, lang)
        if replay is not None:
            names = replay_names(lang, replay, await self.store.seats(replay.table_id))
            await reply.send(ephemeral=True, **replay_payload(replay, 0, lang, names))

    async def _click_replay(
        self, interaction: discord.Interaction[Any], reply: Reply, button: Button, lang: str
    ) -> None:
        replay = await self._replay(interaction, reply, button.num("table"),
                                    button.num("deal"), lang)
        if replay is not None:
            names = replay_names(lang, replay, await self.store.seats(replay.table_id))
            await reply.edit(**replay_payload(replay, button.num("step"), lang, names))

    async def _click_watch(
        self, interaction: discord.Interaction[Any], reply: Reply, button: Button, lang: str
    ) -> None:
        table = self.service.get(button.num("table"))
        if table is None or table.guild_id != interaction.guild_id:
            await self._private(reply, t(lang, "refuse.table_gone"))
            return
        if table.seat_of(interaction.user.id) is not None:
            await self._private(reply, t(lang, "watch.seated"))
            return
        state = _watch_state(table, interaction.user.id)
        sent = await reply.send(ephemeral=True, **watch_payload(table, lang))
        if table.status == "running":
            self.watchers.remember(
                table, interaction, lang,
                followup=sent if reply.followed_up else None,
                message_id=sent.id if sent is not None else None, state=state,
            )

    async def _click_look(
        self, interaction: discord.Interaction[Any], reply: Reply, button: Button, lang: str
    ) -> None:
        table = self.service.get(button.num("table"))
        if table is None or table.guild_id != interaction.guild_id:
            await reply.edit(content=t(lang, "watch.over"), view=views.build_view([]))
            return
        state = _watch_state(table, interaction.user.id)
        await reply.edit(**watch_payload(table, lang))
        if table.status == "running":
            message = interaction.message
            self.watchers.remember(table, interaction, lang,
                                   message_id=message.id if message else None, state=state)


async def setup(bot: AlbastiniBot) -> None:
    """The extension's entry (``bot.load_extension("cogs.history")``)."""
    await add_subcommand_cog(bot, HistoryCog(bot))
