"""How Ass (Жопа) looks on Discord: its presenter (see :class:`cogs.games.Presenter`).

What Ass shows its own way: every player's trump (in the default variant each player has a suit
of their own, and everybody sees whose is whose), the bets ("go" / "no") and the target each
sets, who leads after the bets, the card that holds the trick now and why (the game's beating
rules are unusual, so the table says it: "8♠ takes over: spades are now the main suit"), and
the match's score in banks: everyone starts with 3, a player rid of them all wins, six lose.

Read from the view only (``albastini/games/ass``, ``table_view``): ``variant``, ``trumps``,
``bets``, ``targets``, ``first_leader``, ``trick`` (``main_suit``), ``winning_card``,
``winning_why``, ``winning_over``, ``moves`` (a bet's ``target``), ``stock``, ``match_banks``
and the deal's ``result`` (``points``, ``targets``, ``bets``, ``banks``: each player's change
of banks). The match's ``scores`` are the banks negated (higher is better for the platform):
:func:`shown_score` turns them back into banks for people. The other hands and the stock are
never in a public view, and who holds the lowest diamond is not in any view while the first
deal's bets are made, so nothing here can show them.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from albastini.games.interface import game
from cogs.i18n import join_list, t, tn
from cogs.render import cards
from cogs.render.picture import SMALL_H, SMALL_W
from cogs.render.presenter import ButtonStyle, ResultTable, View, single_use_options
from cogs.render.text import seat_name

if TYPE_CHECKING:
    from cogs.render.layout import Layout

__all__ = [
    "ACCENT",
    "NAME",
    "RULES_PAGES",
    "action_text",
    "card_button",
    "card_label",
    "card_moves",
    "deal_summary",
    "draw_centre",
    "front_cards",
    "hand_header",
    "hand_shows",
    "holder_line",
    "move_button",
    "option_group",
    "option_label",
    "refusal",
    "result_table",
    "score_text",
    "shown_score",
    "spoken_facts",
    "table_facts",
    "table_lines",
    "target_text",
    "trumps_line",
]

#: The game's name in ``albastini.games.GAMES`` (and ``Table.game``).
NAME = "ass"
#: Pages of its rules in the catalogues (``rules.page.<n>``).
RULES_PAGES = 3
#: The accent colour of its cards: a deep violet.
ACCENT = 0x7A3E8E
_RULES = game(NAME)
_K = "ass."


def _k(key: str) -> str:
    return _K + key


#: A suit's name, or "?" when the view leaves it out.
_suit = cards.known_suit_label


# --------------------------------------------------------------------------- cards and scores
def card_label(code: str) -> str:
    """A card as players read it: ``"TS"`` -> ``"10♠"``."""
    return cards.pack_card_label(code, _RULES.ranks, "Ass")


def shown_score(score: int) -> int:
    """A match score as players read it: the banks (the match counts them negated)."""
    return -int(score)


def score_text(lang: str, score: int) -> str:
    """"3 banks"."""
    return tn(lang, _k("picture.score"), score)


def target_text(lang: str, target: int) -> str | None:
    """None: no points target ends a match of Ass, its banks do."""
    return None


# --------------------------------------------------------------------------- the text table
def table_facts(lang: str, view: View) -> list[str]:
    """The cards left in the stock."""
    return [tn(lang, "table.stock", int(view.get("stock") or 0))]


def trumps_line(lang: str, view: View, names: Sequence[str]) -> str:
    """Whose trump is what: "Trumps, each player's own: Ana ♠ spades · Ben ♣ clubs", or the
    table's one trump suit, two, senior and junior, or none."""
    variant = int(view.get("variant") or 1)
    trumps: list[list[str]] = [list(s) for s in view.get("trumps") or []]
    if variant == 1:
        sep = t(lang, "inline.separator")
        items = [t(lang, _k("table.trump_of"), name=seat_name(names, s, lang),
                   suit=_suit(lang, suits[0] if suits else None))
                 for s, suits in enumerate(trumps)]
        return t(lang, _k("table.trumps.own"), items=sep.join(items))
    suits = trumps[0] if trumps else []
    if variant == 2 or not suits:
        return t(lang, _k("table.trumps.none"))
    if variant == 5:
        return t(lang, _k("table.trumps.senior"), senior=_suit(lang, suits[0]),
                 junior=_suit(lang, suits[1] if len(suits) > 1 else None))
    return tn(lang, _k("table.trumps.all"), len(suits),
              suits=join_list(lang, [_suit(lang, s) for s in suits]))


def _bets_line(lang: str, view: View, names: Sequence[str]) -> str:
    bets = list(view.get("bets") or [])
    targets = list(view.get("targets") or [])
    sep = t(lang, "inline.separator")
    items = []
    for seat, bet in enumerate(bets):
        name = seat_name(names, seat, lang)
        if bet is None:
            items.append(t(lang, _k("table.bet_none"), name=name))
        else:
            target = targets[seat] if seat < len(targets) else "?"
            items.append(t(lang, _k(f"table.bet_{bet}"), name=name, target=target))
    return t(lang, _k("table.bets"), items=sep.join(items))


def _leader_line(lang: str, view: View, names: Sequence[str]) -> str:
    leader = view.get("first_leader")
    if isinstance(leader, int):
        return t(lang, _k("table.leads_after_bets"), name=seat_name(names, leader, lang))
    return t(lang, _k("table.lowest_diamond_leads"))


def holder_line(lang: str, view: View, names: Sequence[str]) -> str | None:
    """Which card holds the trick in progress, why, and whose it is (the view's
    ``winning_card``/``winning_why``/``winning_over``/``winning``), after the main suit:
    "Main suit ♣ clubs · 8♣ takes over: clubs are now the main suit → Ben holds the trick".
    None without a trick."""
    card, why, holder = view.get("winning_card"), view.get("winning_why"), view.get("winning")
    main_suit = (view.get("trick") or {}).get("main_suit")
    if not card or not why or view.get("phase") != "playing":
        return None
    over = view.get("winning_over")
    reason = t(lang, _k(f"why.{why}"), card=card_label(str(card)),
               over=card_label(str(over)) if over else "?",
               suit=cards.suit_name(lang, str(main_suit)) if main_suit in cards.SUIT_SYMBOLS
               else "?")
    return t(lang, _k("table.main_suit"), suit=_suit(lang, main_suit), why=reason,
             name=seat_name(names, int(holder), lang) if isinstance(holder, int) else "?")


def table_lines(lang: str, view: View, names: Sequence[str]) -> list[str]:
    """Every player's trump, the bets and their targets; while betting, who leads after the
    bets; while playing, the main suit and the card that holds the trick, and why."""
    lines = [trumps_line(lang, view, names), _bets_line(lang, view, names)]
    if view.get("phase") == "betting":
        lines.append(_leader_line(lang, view, names))
    holder = holder_line(lang, view, names)
    if holder:
        lines.append(holder)
    return lines


def spoken_facts(lang: str, view: View, names: Sequence[str]) -> list[str]:
    """Every player's trump, the bets and targets, who leads or holds the trick, the stock."""
    return [*table_lines(lang, view, names), *table_facts(lang, view)]


# --------------------------------------------------------------------------- deal results
def deal_summary(lang: str, result: View, side_names: Sequence[str], *, deal_no: int,
                 team_size: int | None) -> str:
    """"Deal 2 — Ana 86 of 80 (no): drops a bank · Ben 40 of 56 (go): takes a bank · Cy 50 of
    80 (no): no change": what each player took against their target, and their banks."""
    points = [int(p) for p in result.get("points") or []]
    targets = list(result.get("targets") or [])
    bets = list(result.get("bets") or [])
    banks = [int(b) for b in result.get("banks") or result.get("game_points") or []]
    parts = []
    for i, got in enumerate(points):
        side = side_names[i] if i < len(side_names) else seat_name([], i, lang)
        change = banks[i] if i < len(banks) else 0
        outcome = ("drop" if change < 0 else "take") if change else "keep"
        bet = bets[i] if i < len(bets) and bets[i] in ("go", "no") else "no"
        parts.append(t(lang, _k("summary.player"), side=side, points=got,
                       target=targets[i] if i < len(targets) else "?",
                       bet=t(lang, _k(f"bet.{bet}")),
                       outcome=t(lang, _k(f"summary.{outcome}"))))
    return t(lang, _k("summary.line"), deal=deal_no,
             players=t(lang, "inline.separator").join(parts))


def result_table(lang: str, result: View, side_names: Sequence[str]) -> ResultTable:
    """What each player took against their target, and the banks it cost or saved them."""
    points = [int(p) for p in result.get("points") or []]
    targets = list(result.get("targets") or [])
    banks = [int(b) for b in result.get("banks") or result.get("game_points") or []]
    rows = []
    for i, got in enumerate(points):
        target = str(targets[i]) if i < len(targets) else "?"
        change = banks[i] if i < len(banks) else 0
        rows.append((str(got).replace("-", "\u2212"), target,
                     ("+" if change > 0 else "") + str(change).replace("-", "\u2212")))
    columns = (t(lang, _k("picture.took")), t(lang, _k("picture.target")),
               t(lang, _k("picture.banks")))
    return ResultTable(columns, tuple(rows), t(lang, _k("picture.note")))


# --------------------------------------------------------------------------- the hand
def _seat(view: View) -> int | None:
    seat = view.get("seat")
    return seat if isinstance(seat, int) else None


def _bet_targets(view: View) -> dict[str, Any]:
    return {str(m.get("kind")): m.get("target") for m in view.get("moves") or []
            if m.get("kind") in ("go", "no")}


def hand_header(lang: str, view: View, names: Sequence[str]) -> str:
    """Whose turn it is and what to do (bet go or no, with the targets; play), this player's
    trump, bet and banks, and the card that holds the trick now."""
    if view["phase"] == "finished":
        return t(lang, "hand.finished")
    seat = _seat(view)
    to_act = view.get("to_act")
    mine = seat is not None and to_act == seat
    who = seat_name(names, int(to_act), lang) if isinstance(to_act, int) else "?"
    lines: list[str | None] = []
    if view["phase"] == "betting":
        if mine:
            bet_targets = _bet_targets(view)
            lines.append(t(lang, _k("hand.bet.your_turn"), go=bet_targets.get("go", "?"),
                           no=bet_targets.get("no", "?")))
        else:
            lines.append(t(lang, _k("hand.bet.waiting"), name=who))
    else:
        key = "hand.play.your_turn" if mine else "hand.play.waiting"
        lines.append(t(lang, _k(key), name=who, round=view.get("round", 1),
                       total=view.get("rounds_total", 1)))
        lines.append(holder_line(lang, view, names))
    if seat is not None:
        trumps = list(view.get("trumps") or [])
        own = list(trumps[seat]) if seat < len(trumps) else []
        if int(view.get("variant") or 1) == 1 and own:
            lines.append(t(lang, _k("hand.your_trump"), suit=_suit(lang, own[0])))
        else:
            lines.append(trumps_line(lang, view, names))
        bets = list(view.get("bets") or [])
        targets = list(view.get("targets") or [])
        banks = list(view.get("match_banks") or view.get("banks") or [])
        bet = bets[seat] if seat < len(bets) else None
        mine_banks = banks[seat] if seat < len(banks) else "?"
        if bet in ("go", "no"):
            lines.append(t(lang, _k("hand.your_bet"), bet=t(lang, _k(f"bet.{bet}")),
                           target=targets[seat] if seat < len(targets) else "?",
                           banks=mine_banks))
        else:
            lines.append(t(lang, _k("hand.your_banks"), banks=mine_banks))
        if not view.get("hand") and view["phase"] == "playing":
            lines.append(t(lang, "hand.empty"))
    return "\n".join(line for line in lines if line)


def hand_shows(view: View) -> Hashable:
    """The bets, the trick's holder and why, who leads, the banks: what the header shows."""
    return (
        tuple(view.get("bets") or ()),
        view.get("first_leader"),
        view.get("winning_card"),
        view.get("winning_why"),
        tuple(view.get("match_banks") or ()),
    )


def action_text(lang: str, code: str, by: str | None) -> str:
    """"Ana says go", "Ben says no", "Cy played 8♠"; to its maker ("Your bet, go, counted.")
    when ``by`` is None."""
    kind, _, arg = code.partition(":")
    if kind in ("go", "no"):
        if by is None:
            return t(lang, _k("counted.bet"), bet=t(lang, _k(f"bet.{kind}")))
        return t(lang, _k("event.bet"), name=by, bet=t(lang, _k(f"bet.{kind}")))
    if kind == "play" and arg:
        try:
            card = card_label(arg)
        except ValueError:
            return code
        if by is None:
            return t(lang, "hand.move_counted.play", card=card)
        return t(lang, "hand.event.played", name=by, card=card)
    return code


def refusal(lang: str, rule: str, details: View) -> str | None:
    """The rules' reasons as sentences; they name only the player's own card and the main
    suit, which is public."""
    if rule == "finished":
        return t(lang, "refuse.deal_over")
    if rule in ("betting", "playing"):
        return t(lang, _k(f"refuse.{rule}"))
    if rule == "not_in_hand":
        try:
            card = card_label(str(details.get("card", "")))
        except ValueError:
            return None
        return t(lang, _k("refuse.not_in_hand"), card=card)
    if rule == "must_follow":
        try:
            card = card_label(str(details.get("card", "")))
        except ValueError:
            card = "?"
        return t(lang, _k("refuse.must_follow"), card=card, suit=_suit(lang, details.get("suit")))
    return None


# --------------------------------------------------------------------------- buttons
def card_button(lang: str, card: str, move: View | None, *, moves: Sequence[View],
                points: int) -> tuple[str, ButtonStyle]:
    """The card with its points, blue when playable; grey otherwise (and while betting)."""
    label = cards.card_button_label(card, points)
    return label, ("primary" if move is not None else "secondary")


def move_button(lang: str, move: View) -> tuple[str, ButtonStyle]:
    """"Go (target 56)" in green, "No (target 80)" in grey."""
    kind = str(move.get("kind"))
    if kind in ("go", "no"):
        style: ButtonStyle = "success" if kind == "go" else "secondary"
        return t(lang, _k(f"button.{kind}"), target=move.get("target", "?")), style
    return str(move.get("code")), "primary"


# --------------------------------------------------------------------------- the chooser
#: A card puts down one move at most here: the chooser never opens.
card_moves, option_label, option_group = single_use_options(card_label, move_button)

# --------------------------------------------------------------------------- the picture
def front_cards(view: View) -> list[tuple[int, str]]:
    """The trick in progress."""
    if view["phase"] == "playing":
        return [(int(s), str(c)) for s, c in view.get("current") or []]
    return []


def draw_centre(layout: Layout, lang: str, view: View, names: Sequence[str]) -> None:
    """Each player's own trump in a small gold-ringed disc on their plate (variant 1, with a
    word for it bottom left), or the table's trumps, labelled, in the middle; the stock face
    down with its count in words, bottom right. The trick's cards lie in front of their
    players, the holding one ringed, so the main suit is the lead's or the last eight's."""
    trumps = [list(s) for s in view.get("trumps") or []]
    if int(view.get("variant") or 1) == 1:
        for seat, suits in enumerate(trumps):
            spot = layout.badge_spot(seat) if suits else None
            if spot is not None:
                x, y, group = spot
                layout.disc(group, suits[0], x, y, 12)
        if any(trumps):
            corner = layout.corners["left"]
            lines = layout.wrap(t(lang, _k("picture.own_trump")), corner.width, lines=2)
            for i, line in enumerate(lines):
                layout.text("own trump", corner.x0, corner.y1 - 24 * (len(lines) - i), line,
                            tone="muted")
    elif trumps and trumps[0]:
        room = layout.centre
        cx, cy = room.centre
        suits = trumps[0]
        heading = "picture.trumps_senior" if int(view.get("variant") or 1) == 5 and len(
            suits) > 1 else "picture.trumps"
        layout.text("trumps", cx, cy - 34, layout.fit(t(lang, _k(heading)), room.width),
                    anchor="mm", tone="muted")
        for i, suit in enumerate(suits):
            layout.disc("trumps", suit, cx + 48 * (i - (len(suits) - 1) / 2), cy + 6)
    stock = int(view.get("stock") or 0)
    if stock:
        corner = layout.corners["right"]
        x, y = corner.x1 - SMALL_W / 2 - 4, corner.centre[1] + 4
        layout.pile("stock", stock, x, y, SMALL_W, SMALL_H)
        layout.text("stock", x - SMALL_W / 2 - 12, y, t(lang, _k("picture.stock"), count=stock),
                    anchor="rm")
