"""What the history extension shows: ratings and their trend, leaderboards by rating or all
time, the match history, a deal's replay step by step, and a spectator's view of a table.

Pure builders of message payloads from the store's records and the table service's data; the
words come from the catalogues, a game's moves and cards from its presenter.
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.games import presenter, shown_score
from cogs.i18n import game_key, t
from cogs.render import table_text
from cogs.ui import buttons, texts, views
from cogs.ui.lang import key_str

if TYPE_CHECKING:
    from albastini.session import DealReplay
    from albastini.store import Store
    from albastini.store.records import MatchSummary, RatingEntry, SeatRecord
    from albastini.table import Table

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
        views.ButtonSpec(buttons.replay_open(m.table_id), t(lang, "button.replay_match",
                                                number=offset + i + 1), row=0)
        for i, m in enumerate(page)
        if here is not None and m.guild_id == here
    ]
    if offset > 0 or more:
        specs += [
            views.ButtonSpec(buttons.history(guild_id, user_id, offset - HISTORY_PAGE),
                             t(lang, "button.previous"), disabled=offset <= 0, row=1),
            views.ButtonSpec(buttons.history(guild_id, user_id, offset + HISTORY_PAGE),
                             t(lang, "button.next"), disabled=not more, row=1),
        ]
    return {"embed": embed, "view": views.build_view(specs)}


async def board_payload(
    store: Store, guild_id: int, offset: int, lang: str, *, sort: str, period: str,
    game: str,
) -> dict[str, Any]:
    """A leaderboard page of ``game`` sorted by rating or by victory points, of this season or
    of all time (the plain board, points of this season, is
    :func:`cogs.records.leaderboard_payload`)."""
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
        views.ButtonSpec(buttons.board(guild_id, offset - BOARD_PAGE, sort, period, game),
                         t(lang, "button.previous"), disabled=page <= 0),
        views.ButtonSpec(buttons.board(guild_id, offset + BOARD_PAGE, sort, period, game),
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
    shows = presenter(replay.game)
    if step.seat is None:
        what = t(lang, "replay.dealt")
    else:
        name = names[step.seat] if step.seat < len(names) else "?"
        what = shows.action_text(lang, step.code or "", name)
    header = t(lang, "replay.title", number=replay.table_id, deal=replay.deal_no,
               deals=replay.deals, step=step_no, steps=last)
    body = table_text(step.public, names, lang, deal_no=replay.deal_no, scores=[], target=0,
                      shows=shows)
    body = "\n".join(body.split("\n")[1:])  # no running score line: the header says where
    hands = [
        t(lang, "replay.hand", name=names[seat] if seat < len(names) else "?",
          cards=" ".join(shows.card_label(c) for c in view.get("hand") or []) or "—")
        for seat, view in enumerate(step.seats)
    ]
    content = "\n".join([f"**{header}**", what, body, *hands])[:1990]
    ends = trick_ends(replay)
    back = max((e for e in ends if e < step_no), default=0)
    ahead = min((e for e in ends if e > step_no), default=last)
    tid, deal = replay.table_id, replay.deal_no
    specs = [
        views.ButtonSpec(buttons.replay(tid, deal, back, "b"), t(lang, "button.trick_back"),
                         disabled=step_no <= 0, row=0),
        views.ButtonSpec(buttons.replay(tid, deal, step_no - 1), t(lang, "button.previous"),
                         disabled=step_no <= 0, row=0),
        views.ButtonSpec(buttons.replay(tid, deal, step_no + 1), t(lang, "button.next"), "primary",
                         disabled=step_no >= last, row=0),
        views.ButtonSpec(buttons.replay(tid, deal, ahead, "f"), t(lang, "button.trick_next"),
                         disabled=step_no >= last, row=0),
        views.ButtonSpec(buttons.replay(tid, deal - 1, 0, "d"), t(lang, "button.deal_previous"),
                         disabled=deal <= 1, row=1),
        views.ButtonSpec(buttons.replay(tid, deal + 1, 0, "d"), t(lang, "button.deal_next"),
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
        side_names=texts.side_names(table, lang), shows=presenter(table.game),
    )
    content = t(lang, "watch.header") + "\n" + body
    specs = [views.ButtonSpec(buttons.look(table.id), t(lang, "button.refresh"))]
    return {"content": content[:1990], "view": views.build_view(specs)}


def watch_state(table: Table, user_id: int) -> tuple[Hashable, bool] | None:
    """A summary of the public table (a spectator's view changes when it does)."""
    if table.match is None or table.status != "running":
        return ("over", False)
    summary = json.dumps(table.public_view(), sort_keys=True, default=str)
    return (f"{table.deal_no}:{list(table.scores())}:{summary}", False)
