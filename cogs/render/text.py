"""The text form of a table and of a hand, for any game: what every card game shows the same way.

Pure functions over a deal's view (``Deal.view(seat)``) and plain strings: no discord.py objects,
no I/O beyond the catalogues. Every word comes from :mod:`cogs.i18n`. What a game shows its own
way (its bids or auction, trump, stock, how a deal is scored, the hand's header) its presenter
says (``shows``, the :class:`~cogs.render.presenter.Presenter` of the table's game).

The view is read for: ``players``, ``teams``, ``team_of`` (the sides), ``dealer``, ``phase``
(``"finished"`` ends the deal; ``"bidding"`` and ``"playing"`` name whose turn it is),
``to_act``, ``hand_sizes``, ``tricks_won``, ``result``, and for trick games the trick in
progress (``current``, ``winning``, ``leader``, ``round``/``rounds_total``) and ``last_trick``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cogs.i18n import game_key, t
from cogs.render.cards import card_label
from cogs.render.presenter import Presenter

__all__ = [
    "TEAM_LETTERS",
    "TEXT_LIMIT",
    "deal_summary_text",
    "default_side_names",
    "hand_text",
    "last_trick_line",
    "scores_text",
    "seat_name",
    "table_text",
    "turn_line",
]

TEXT_LIMIT = 1500
TEAM_LETTERS = "ABCDEF"


# --------------------------------------------------------------------------- seats and sides
def seat_name(names: Sequence[str], seat: int, lang: str) -> str:
    """``names[seat]``, or "Seat 3" where there is no name."""
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return t(lang, "seat.label", seat=seat + 1)


def default_side_names(
    lang: str, players: int, teams: int, names: Sequence[str]
) -> list[str]:
    """Names of the sides: "Team A", "Team B"... in team play, the players' names when solo."""
    if teams >= players:
        return [seat_name(names, seat, lang) for seat in range(players)]
    return [t(lang, "team.name", letter=TEAM_LETTERS[i]) for i in range(teams)]


def _sides(view: dict[str, Any], names: Sequence[str], lang: str,
           side_names: Sequence[str] | None) -> list[str]:
    teams = view.get("teams")
    if not isinstance(teams, int):  # a list of every seat's side (Twenty-Eight's view)
        teams = int(view.get("n_teams") or len(set(view.get("team_of") or ())) or view["players"])
    default = default_side_names(lang, view["players"], teams, names)
    if side_names:
        return [side_names[i] if i < len(side_names) else default[i] for i in range(len(default))]
    return default


def scores_text(lang: str, sides: Sequence[str], scores: Sequence[int], *,
                shows: Presenter) -> str:
    """The match's score by side, as the game counts it: "Team A 2 VP · Team B 1 VP"
    (Twenty-Eight: base cards, "Team A 7 — Team B 5"; Ass: banks, "Ana 3 · Ben 2")."""
    key = game_key(shows.NAME, "table.score")
    items = [t(lang, key, side=sides[i],
               vp=shows.shown_score(scores[i]) if i < len(scores) else 0)
             for i in range(len(sides))]
    return t(lang, "table.score_separator").join(items)


def deal_summary_text(
    lang: str,
    result: dict[str, Any],
    side_names: Sequence[str],
    *,
    deal_no: int,
    team_size: int | None = None,
    shows: Presenter,
) -> str:
    """The end-of-deal line, as the game tells it (see the presenter's ``deal_summary``):
    "Deal 3 — Team A ate 96, Team B ate 24. Team A scores 1 VP (...)". ``result`` is the view's
    ``result``; ``team_size``, the players on a side (the table's), words it for people or
    teams."""
    return shows.deal_summary(lang, result, side_names, deal_no=deal_no, team_size=team_size)


# --------------------------------------------------------------------------- text table
def _trick_line(lang: str, view: dict[str, Any], names: Sequence[str],
                game: str) -> str | None:
    """The trick in progress: "Round 4 of 9: @A **A♠** · @B 7♠ · @C … (to play)"."""
    if view["phase"] != "playing" or "current" not in view:
        return None
    sep = t(lang, "inline.separator")
    current = view.get("current") or []
    to_act = view.get("to_act")
    if not current:
        leader = to_act if to_act is not None else view.get("leader")
        return t(lang, game_key(game, "table.round_not_started"), round=view["round"],
                 total=view["rounds_total"], name=seat_name(names, leader or 0, lang))
    winning = view.get("winning")
    plays = []
    for seat, card in current:
        key = "table.play_winning" if seat == winning else "table.play"
        plays.append(t(lang, key, name=seat_name(names, seat, lang), card=card_label(card)))
    if to_act is not None:
        plays.append(t(lang, "table.to_play", name=seat_name(names, to_act, lang)))
    return t(lang, game_key(game, "table.round"), round=view["round"],
             total=view["rounds_total"], plays=sep.join(plays))


def last_trick_line(lang: str, view: dict[str, Any], names: Sequence[str],
                    game: str) -> str | None:
    """The last trick won: who won it, with which card, what it was worth, its plays."""
    last = view.get("last_trick")
    if not last:
        return None
    winner = last["winner"]
    win_card = next((c for s, c in last["plays"] if s == winner), None)
    plays = t(lang, "inline.separator").join(
        t(lang, "table.play", name=seat_name(names, s, lang), card=card_label(c))
        for s, c in last["plays"]
    )
    return t(lang, game_key(game, "table.last_round"), name=seat_name(names, winner, lang),
             card=card_label(win_card) if win_card else "?", points=last["points"], plays=plays)


def turn_line(lang: str, view: dict[str, Any], names: Sequence[str],
              game: str) -> str | None:
    """Whose turn it is, and to do what ("▶ **@Juma** to play"); None once the deal is
    over."""
    to_act = view.get("to_act")
    if view["phase"] == "finished":
        return None
    if to_act is None:
        return t(lang, "table.turn.none")
    key = "table.turn.bid" if view["phase"] == "bidding" else "table.turn.play"
    # a phase of the game's own (Twenty-Eight: choosing the trump card, raising) has its words
    phase_key = f"table.turn.{view['phase']}"
    key = key if game_key(game, phase_key) == phase_key else game_key(game, phase_key)
    return t(lang, key, name=seat_name(names, to_act, lang))


def _tricks_won_line(lang: str, view: dict[str, Any], sides: Sequence[str],
                     game: str) -> str | None:
    """Tricks won so far by side (``tricks_won`` by seat, added up by ``team_of``)."""
    won = view.get("tricks_won") or []
    if not any(won):
        return None
    per_side = [0] * len(sides)
    for seat, count in enumerate(won):
        per_side[view["team_of"][seat]] += count
    return t(lang, game_key(game, "table.eaten"), items=t(lang, "inline.separator").join(
        t(lang, "table.eaten_item", side=sides[i], count=c) for i, c in enumerate(per_side)))


def table_text(
    view: dict[str, Any],
    names: list[str],
    lang: str,
    *,
    deal_no: int,
    scores: list[int],
    target: int,
    side_names: list[str] | None = None,
    shows: Presenter,
) -> str:
    """The public table as text, for screen readers and narrow screens (an embed description).

    ``view`` is a view dict (the public one, ``seat=None``, is what the channel should get);
    ``names`` names each seat (mentions or plain names); ``scores`` are VP per side. Lines: title
    and VP, whose turn it is, the dealer and the game's facts (trump, stock...), the game's own
    lines (bids...), the trick in progress, the last trick, cards in hand and tricks won. At
    most ``TEXT_LIMIT`` characters: the least important lines are dropped first.
    """
    game = shows.NAME
    sides = _sides(view, names, lang, side_names)
    sep = t(lang, "inline.separator")
    title = t(lang, game_key(game, "table.title"), deal=deal_no,
              scores=scores_text(lang, sides, scores, shows=shows), target=target)
    info = sep.join([t(lang, "table.dealer", name=seat_name(names, view["dealer"], lang)),
                     *shows.table_facts(lang, view)])
    status = turn_line(lang, view, names, game)
    if view["phase"] == "finished":
        # The end of the deal takes the place of the turn line: it is the news.
        result = view.get("result")
        status = "🏁 " + (shows.deal_summary(lang, result, sides, deal_no=deal_no,
                                            team_size=view.get("team_size"))
                         if result else t(lang, "table.finished"))
    essential: list[str | None] = [
        title, status, info, *shows.table_lines(lang, view, names),
        _trick_line(lang, view, names, game), last_trick_line(lang, view, names, game),
    ]
    optional: list[str] = []
    if view["phase"] != "finished":
        hands = [t(lang, "table.hand_size", name=seat_name(names, s, lang), count=n)
                 for s, n in enumerate(view.get("hand_sizes") or [])]
        if hands:
            optional.append(t(lang, "table.hands", hands=sep.join(hands)))
    won = _tricks_won_line(lang, view, sides, game)
    if won:
        optional.append(won)
    lines = [line for line in essential if line]
    text = "\n".join(lines)
    for extra in optional:
        if len(text) + 1 + len(extra) <= TEXT_LIMIT:
            text += "\n" + extra
    if len(text) > TEXT_LIMIT:
        text = text[: TEXT_LIMIT - 1] + "…"
    return text


# --------------------------------------------------------------------------- private hand header
def hand_text(view: dict[str, Any], lang: str, names: list[str], *, shows: Presenter) -> str:
    """Header of a player's private hand, from that seat's own view, as the game words it
    ("Your hand — your turn (round 4, trump ♥)"; see the presenter's ``hand_header``)."""
    return shows.hand_header(lang, view, names)
