"""Texts of the Discord layer built from table data: lobby, seats, hand, refusals, summaries.

Pure functions (no discord.py objects, no I/O) over the table service's data; every word comes from
the catalogues. Public texts name people by mention, computers by their number in the reader's
language ("Computer 2" / "Kompyuta 2"): the table service stores a computer seat's number only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cogs import render
from cogs.games import presenter
from cogs.i18n import game_key, join_list, t, tn
from cogs.render import scores_text
from cogs.render.presenter import Presenter
from cogs.render.text import TEAM_LETTERS

if TYPE_CHECKING:
    from albastini.store import PlayerStats
    from albastini.table import SeatInfo, Table

SINCE_MAX = 8


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


_NUMBER = re.compile(r"(\d+)\s*$")


def computer_name(seat: SeatInfo, lang: str) -> str:
    """A computer seat's name in ``lang``: "Computer 2" / "Kompyuta 2".

    The service stores the computer's number as the seat's name ("2"); databases from before
    hold "Computer 2", whose English is ignored here: only the number is read from either (the
    seat number stands in if there is none)."""
    found = _NUMBER.search(seat.name)
    return t(lang, "computer.name", n=int(found.group(1)) if found else seat.seat + 1)


def seat_name(seat: SeatInfo | None, lang: str) -> str:
    """A seat as public text: a mention for a person, "Computer 2" for a computer."""
    if seat is None:
        return t(lang, "lobby.empty_seat")
    if seat.user_id is None:
        return computer_name(seat, lang)
    return mention(seat.user_id)


def seat_names(table: Table, lang: str) -> list[str]:
    return [seat_name(s, lang) for s in table.seats]


def picture_names(table: Table, lang: str) -> list[str]:
    """Names by seat for the table picture, which cannot show mentions: a person's display
    name, a computer's name in ``lang``, "" for an empty lobby slot."""
    return [
        "" if s is None else computer_name(s, lang) if s.user_id is None else s.name
        for s in table.seats
    ]


def side_names(table: Table, lang: str) -> list[str]:
    return render.default_side_names(lang, table.players, table.teams, seat_names(table, lang))


def mode_text(lang: str, table: Table) -> str:
    """The table's mode by the size of its sides: "4 players, 2 teams of 2", "3 players"."""
    if table.team_size == 1:
        return t(lang, "mode.solo", players=table.players)
    if table.team_size == 3:
        return t(lang, "mode.trios", players=table.players)
    return t(lang, "mode.pairs", players=table.players, teams=table.teams)


def sides_of(table: Table) -> list[int]:
    """The side of every seat of a started match, by seat (the running deal's ``team_of``);
    [] before the match starts."""
    return list(table.public_view().get("team_of") or [])


def lobby_text(table: Table, lang: str) -> tuple[str, str]:
    """(title, description) of the lobby embed."""
    title = tn(
        lang,
        game_key(table.game, "lobby.title"),
        table.target,
        mode=mode_text(lang, table),
        target=table.target,
    )
    lines = [t(lang, "lobby.host", host=mention(table.host_id), seconds=table.turn_time)]
    # the game's own choices for the match (Ass: the trump variant), named as /albastini
    # start's choices name them (cogs.games.option_choices: "<game>.choice.trumps.3")
    for name, value in sorted(table.options.items()):
        chosen = ".".join((table.game, "choice", name, str(value)))
        lines.append(t(lang, f"lobby.option.{name}", value=t(lang, chosen)))
    slots = list(table.seats) + [None] * max(0, table.players - len(table.seats))
    seats = [t(lang, "lobby.seat", n=i + 1, name=seat_name(s, lang)) for i, s in enumerate(slots)]
    lines.append(t(lang, "lobby.players_line", seats=t(lang, "inline.separator").join(seats)))
    missing = sum(1 for s in slots if s is None)
    if table.status == "lobby":
        if missing:
            lines.append(tn(lang, "lobby.waiting", missing))
        else:
            lines.append(t(lang, "lobby.ready", host=mention(table.host_id)))
    return title, "\n".join(lines)


def teams_text(table: Table, lang: str, team_of: Sequence[int] | None = None) -> str:
    """The seats of a running match, side by side: "Team A: 1. @a · 3. @c". ``team_of``: the
    side of each seat (the running deal's view says; read from the table when not given)."""
    names = seat_names(table, lang)
    sides = list(team_of) if team_of is not None else sides_of(table)
    sep = t(lang, "inline.separator")
    lines = []
    for side in range(table.teams):
        members = []
        for seat, seat_info in enumerate(table.seats):
            if seat >= len(sides) or sides[seat] != side:
                continue
            name = names[seat]
            if seat_info is not None and seat_info.user_id is not None and seat_info.away:
                name = t(lang, "table.away", name=name)
            members.append(t(lang, "lobby.seat", n=seat + 1, name=name))
        if table.team_size == 1:
            lines.extend(members)
            continue
        side_name = t(lang, "team.name", letter=TEAM_LETTERS[side])
        lines.append(t(lang, "lobby.team_line", team=side_name, seats=sep.join(members)))
    if table.team_size == 1:
        return t(lang, "lobby.players_line", seats=sep.join(lines))
    return "\n".join(lines)


def since_events(
    view: Mapping[str, Any], names: Sequence[str], lang: str, *, shows: Presenter
) -> list[str]:
    """What the others did in this deal since this seat's last own move (newest last).

    Read from the public log of the seat's own view (``[seat, code]``, put into words by the
    game's presenter ``shows``); where each trick ends, and who won it, comes from the view's
    finished tricks (``tricks``, their ``plays`` in order): a trick ends at the move that put
    its last card down (the move of that seat whose code ends with that card).
    """
    game = shows.NAME
    seat = view.get("seat")
    log: list[Any] = list(view.get("log") or [])
    tricks: list[Any] = list(view.get("tricks") or [])
    # every card put into a finished trick, in order, and the trick that card ends
    plays: list[tuple[Any, str, Any]] = []
    for trick in tricks:
        cards = list(trick.get("plays") or [])
        plays += [(s, str(c), trick if k == len(cards) - 1 else None)
                  for k, (s, c) in enumerate(cards)]

    def who(s: int | None) -> str:
        s = s if s is not None else -1
        return names[s] if 0 <= s < len(names) and names[s] else t(lang, "seat.label", seat=s + 1)

    # (seat or None, code or the trick won) for the whole deal; only the recent ones are put
    # into words
    events: list[tuple[int | None, Any]] = []
    played = 0
    for s, code in log:
        events.append((s, str(code)))
        if played >= len(plays) or (s, str(code).rpartition(":")[2]) != plays[played][:2]:
            continue
        trick = plays[played][2]
        played += 1
        if trick is not None and trick.get("winner") is not None:
            events.append((None, trick))
    last = max((j for j, (s, _) in enumerate(events) if s == seat), default=-1)
    recent = [e for e in events[last + 1 :] if e[0] != seat][-SINCE_MAX:]
    out: list[str] = []
    for s, what in recent:
        if s is not None:
            out.append(shows.action_text(lang, what, who(s)))
        else:
            points = what.get("points", 0)
            out.append(t(lang, game_key(game, "hand.event.ate"), name=who(what["winner"]),
                         points=points))
    return out


def timed_out_note(
    table: Table, user_id: int, view: Mapping[str, Any], names: Sequence[str], lang: str
) -> str | None:
    """"Your time ran out, so this was played for you: …" while the person's last turn was
    played by the timer (the table counts their timeouts until they move again); None
    otherwise, or once they are away (their hand says so)."""
    seat = table.seat_of(user_id)
    info = table.seats[seat] if seat is not None and seat < len(table.seats) else None
    if seat is None or info is None or not info.timeouts or info.away:
        return None
    mine = [str(code) for s, code in view.get("log") or [] if s == seat]
    if not mine:  # the timed-out move ended the previous deal
        return None
    played = presenter(table.game).action_text(lang, mine[-1], names[seat])
    return t(lang, "hand.timed_out", move=played)


def hand_content(
    view: Mapping[str, Any],
    names: Sequence[str],
    lang: str,
    *,
    note: str | None = None,
    shows: Presenter,
) -> str:
    """The private hand message: an optional note (a refusal), the header, what happened."""
    lines: list[str] = []
    if note:
        lines.append(note)
    lines.append(render.hand_text(dict(view), lang, list(names), shows=shows))
    events = since_events(view, names, lang, shows=shows)
    if events:
        lines.append(t(lang, "hand.since", events=t(lang, "inline.separator").join(events)))
    return "\n".join(lines)


def refusal_text(
    lang: str, reason: str, details: Mapping[str, Any], table: Table | None, link: str = ""
) -> str:
    """A refusal of the table service as a short sentence for the person who was refused."""
    names = seat_names(table, lang) if table is not None else []

    def name_of(seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(names):
            return names[seat]
        return "?"

    if reason == "not_your_turn":
        seat = details.get("to_act", table.to_act if table is not None else None)
        if seat is None:  # between deals: nobody's turn
            return t(lang, "refuse.deal_over")
        return t(lang, "refuse.not_your_turn", name=name_of(seat))
    if reason == "illegal":
        rule = str(details.get("rule", ""))
        if rule == "not_your_turn":
            return refusal_text(lang, "not_your_turn", details, table, link)
        said = presenter(table.game).refusal(lang, rule, details) if table is not None else None
        return said if said is not None else t(lang, "refuse.illegal")
    host = mention(table.host_id) if table is not None else "?"
    simple = {
        "no_table": ("refuse.no_table", {}),
        "not_seated": ("refuse.not_seated", {}),
        "stale": ("refuse.stale", {}),
        "not_host": ("refuse.not_host", {"host": host}),
        "table_full": ("refuse.table_full", {}),
        "table_exists": ("refuse.table_exists", {"link": link}),
        "not_in_lobby": ("refuse.already_started", {}),
        "not_running": ("refuse.not_running", {}),
        "seats_empty": ("refuse.not_ready", {}),
        "away_only": ("refuse.not_away", {}),
        "not_finished": ("refuse.not_finished", {}),
        "table_gone": ("refuse.table_gone", {}),
        "closed": ("error.busy", {}),  # the bot is restarting
    }
    if reason == "already_seated":
        seat = details.get("seat")
        if seat is None and table is not None:
            seat = details.get("slot")
        shown = int(seat) + 1 if isinstance(seat, int) else "?"
        return t(lang, "refuse.already_seated", seat=shown)
    if reason == "bad_value" and details.get("field") == "options":
        return t(lang, "refuse.bad_option")
    if reason == "bad_value":
        return t(lang, "refuse.bad_value")
    key, kw = simple.get(reason, ("refuse.illegal", {}))
    return t(lang, key, **kw)


def deal_over_text(
    table: Table,
    lang: str,
    *,
    deal_no: int,
    result: Mapping[str, Any],
    scores: Sequence[int],
    next_dealer: int | None,
    pause: float,
) -> str:
    sides = side_names(table, lang)
    lines = [
        presenter(table.game).deal_summary(
            lang, result, sides, deal_no=deal_no, team_size=table.team_size
        ),
        t(lang, game_key(table.game, "deal.summary.scores"),
          scores=scores_text(lang, sides, scores, shows=presenter(table.game))),
    ]
    if next_dealer is not None:
        names = seat_names(table, lang)
        dealer = names[next_dealer] if 0 <= next_dealer < len(names) else "?"
        lines.append(t(lang, "deal.summary.next", seconds=round(pause), name=dealer))
    return "\n".join(lines)


def match_over_text(
    table: Table, lang: str, *, winner_team: int | None, scores: Sequence[int]
) -> str:
    """"🏆 Team A wins the match, Team A 5 VP — Team B 3 VP!", as the table's game says it
    (Twenty-Eight: base cards, and which side wears the kunukku: the one with the fewest). No
    single winner (Twenty-Eight's 3 players, two sharing the most) shares the win."""
    game = table.game
    sides = side_names(table, lang)
    score_line = scores_text(lang, sides, scores, shows=presenter(game))
    if winner_team is None or not 0 <= winner_team < len(sides):
        top = max(scores, default=0)
        sharing = [sides[i] for i, s in enumerate(scores[: len(sides)]) if s == top]
        return t(lang, game_key(game, "match.shared"), scores=score_line,
                 sides=join_list(lang, sharing))
    side = sides[winner_team]
    fewest = min(range(min(len(scores), len(sides))), key=lambda i: scores[i], default=None)
    loser = sides[fewest] if fewest is not None else "?"
    if table.team_size > 1:
        names = seat_names(table, lang)
        sides_by_seat = sides_of(table)
        members = [names[s] for s, side in enumerate(sides_by_seat[: len(names)])
                   if side == winner_team]
        return t(lang, game_key(game, "match.won_team"), side=side, scores=score_line,
                 players=join_list(lang, members), loser=loser)
    return t(lang, game_key(game, "match.won"), side=side, scores=score_line, loser=loser)


def leaderboard_row(lang: str, entry: PlayerStats, *, rank: int) -> str:
    """One line of the leaderboard: "1. @Neema — 1 win out of 4 (25%)"."""
    played, won = entry.matches_played, entry.matches_won
    rate = round(100 * won / played) if played else 0
    return tn(
        lang,
        "leaderboard.row",
        won,
        rank=rank,
        name=mention(entry.user_id),
        won=won,
        played=played,
        rate=rate,
    )


def stats_lines(lang: str, st: PlayerStats, game: str) -> list[str]:
    """A player's statistics in ``game``, one line each (for someone who has finished a
    match)."""
    rate = round(100 * st.matches_won / st.matches_played) if st.matches_played else 0
    avg = st.avg_card_points_per_deal
    lines = [
        t(lang, "stats.matches", played=st.matches_played, won=st.matches_won, rate=rate),
        t(lang, "stats.deals_won", played=st.deals_played, won=st.deals_won),
        tn(lang, game_key(game, "stats.vp"), st.deals_won_big, vp=st.score,
           two_vp=st.deals_won_big),
        t(lang, game_key(game, "stats.points"), average=f"{avg:.1f}" if avg is not None else "—"),
    ]
    if st.rank is not None:
        lines.append(t(lang, "stats.rank", rank=st.rank))
    return lines


def target_text(lang: str, target: int) -> str:
    """The server's match target in the settings: "Match target: 5 victory points"."""
    return tn(lang, "settings.target", target, target=target)


def turn_notice(lang: str, game: str, phase: str, *, name: str, round: int) -> str:
    """The ping of a person whose turn it is: to bid, to play (trick ``round``), or what the
    game's own phase asks of them (Twenty-Eight: choose the trump card, raise)."""
    key = "notify.your_bid" if phase == "bidding" else "notify.your_turn"
    own = game_key(game, f"notify.your_{phase}")
    if own != f"notify.your_{phase}":
        key = own
    return t(lang, game_key(game, key), name=name, round=round)
