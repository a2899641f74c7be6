"""How Albastini looks on Discord: its presenter (see :class:`cogs.games.Presenter`).

Everything Albastini shows its own way: the card bids while bidding (then returned, or exchanged
for the indicator), the trump suit and the face-up card under the stock, the stock's count, the
deal's result in victory points against a threshold, and the picture's middle (the stock and
its count in words, the face-up card across it, the trump in a gold disc). Read from the view
only: who bids (``bidders``), whether the face-up card is ever drawn (``face_up_never_drawn``),
which moves are legal and whether their card is a trump (``moves``), what a card is worth
(``card_points``, ``result.leftover_points``): the rules stay in ``albastini/games/albastini``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from albastini.games.interface import game
from cogs.i18n import join_list, t, tn
from cogs.render import cards
from cogs.render.picture import SMALL_H, SMALL_W
from cogs.render.presenter import (
    ButtonStyle,
    ResultTable,
    View,
    score_as_is,
    single_use_options,
)
from cogs.render.text import TEAM_LETTERS, seat_name

if TYPE_CHECKING:
    from cogs.render.layout import Layout

__all__ = [
    "ACCENT",
    "LEGACY_MOVES",
    "NAME",
    "RULES_PAGES",
    "action_text",
    "card_button",
    "card_label",
    "card_moves",
    "deal_summary",
    "draw_centre",
    "explain_result",
    "front_cards",
    "hand_header",
    "hand_shows",
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
]

#: The game's name in ``albastini.games.GAMES`` (and ``Table.game``).
NAME = "albastini"
#: Pages of its rules in the catalogues (``rules.page.<n>``).
RULES_PAGES = 6
#: The accent colour of its cards: the green of the felt.
ACCENT = 0x1C6E48
_RULES = game(NAME)
#: The move buttons sent before today's ids (``alb:p:``, ``alb:b:``, ``alb:x:``): letter -> the
#: code's kind and whether a card follows it (:func:`cogs.games.legacy_code`).
LEGACY_MOVES: dict[str, tuple[str, bool]] = {"p": ("play", True), "b": ("bid", True),
                                              "x": ("pass", False)}
#: Victory points are the platform's score.
shown_score = score_as_is
_K = "albastini."


def score_text(lang: str, score: int) -> str:
    """"2 VP"."""
    return t(lang, _K + "picture.score", score=score)


def target_text(lang: str, target: int) -> str | None:
    """"First to 5 VP"."""
    return t(lang, _K + "picture.target", target=target)


# --------------------------------------------------------------------------- cards
def card_label(code: str) -> str:
    """A card of Albastini's pack as players read it: ``"7H"`` -> ``"7♥"``."""
    return cards.pack_card_label(code, _RULES.ranks, "Albastini")


# --------------------------------------------------------------------------- the text table
def _stock_text(lang: str, count: int) -> str:
    return t(lang, "table.stock.zero") if count == 0 else tn(lang, "table.stock", count)


def _trump_text(lang: str, view: View) -> str:
    trump = view.get("trump")
    if not trump:
        return t(lang, "table.trump_pending")
    face_up = view.get("face_up")
    if not face_up:
        return t(lang, "table.trump", suit=cards.suit_label(lang, trump))
    key = "table.face_up_never_drawn" if view["face_up_never_drawn"] else "table.face_up"
    return t(lang, "table.trump_with_face_up", suit=cards.suit_label(lang, trump),
             face_up=t(lang, key, card=card_label(face_up)))


def table_facts(lang: str, view: View) -> list[str]:
    """The trump (and the face-up card under the stock), and the stock's count."""
    return [_trump_text(lang, view), _stock_text(lang, int(view.get("stock") or 0))]


def _bids_line(lang: str, view: View, names: Sequence[str]) -> str:
    bids = view.get("bids") or []
    if not bids:
        return t(lang, "table.bids_none")
    exchange = view.get("exchange")
    bidding = view["phase"] == "bidding"
    items: list[str] = []
    for bid in bids:
        who = seat_name(names, bid["seat"], lang)
        card = bid.get("card")
        if card is None:
            items.append(t(lang, "table.bid.pass", name=who))
        elif bidding:
            items.append(t(lang, "table.bid.card", name=who, card=card_label(card)))
        elif exchange and exchange.get("seat") == bid["seat"] and exchange.get("took"):
            items.append(t(lang, "table.bid.exchanged", name=who, card=card_label(card),
                           indicator=card_label(exchange["took"])))
        else:
            items.append(t(lang, "table.bid.returned", name=who, card=card_label(card)))
    if not bidding and all(b.get("card") is None for b in bids):
        return t(lang, "table.bids_all_passed")
    return t(lang, "table.bids", bids=t(lang, "inline.separator").join(items))


def table_lines(lang: str, view: View, names: Sequence[str]) -> list[str]:
    """The bids: the cards bid while bidding, then returned or exchanged for the indicator."""
    return [_bids_line(lang, view, names)]


def spoken_facts(lang: str, view: View, names: Sequence[str]) -> list[str]:
    """The trump (and the face-up card under the stock), the stock, then the bids."""
    return [*table_facts(lang, view), *table_lines(lang, view, names)]


# --------------------------------------------------------------------------- deal results
def _result_kind(result: View, team_size: int | None) -> str:
    if team_size is None:
        # A result of the rules core says no team size; its threshold is 10 card points a
        # player (only the wording depends on it).
        team_size = max(1, int(result.get("threshold", 10)) // 10)
    return {1: "solo", 3: "trios"}.get(team_size, "team")


def explain_result(
    lang: str,
    result: View,
    side_names: Sequence[str],
    *,
    team_size: int | None = None,
) -> str:
    """Why the deal scored what it scored, in one sentence a player understands.

    ``result`` is the view's ``result`` dict (points per side, winner, victory_points, threshold,
    lowest); ``side_names`` names each side; ``team_size`` (players on a side) words it for
    people or teams. Examples: "Team B ate only 14 — under 20 — so Team A scores 2 VP." /
    "Tie for the most points (60 each) between Team A and Team B: nobody scores."
    """
    points: list[int] = list(result["points"])
    names = [side_names[i] if i < len(side_names) else TEAM_LETTERS[i] for i in range(len(points))]
    threshold = int(result["threshold"])
    kind = _result_kind(result, team_size)
    winner = result.get("winner")
    if winner is None:
        top = max(points)
        tied = [names[i] for i, p in enumerate(points) if p == top]
        return t(lang, "result.tie", points=top, sides=join_list(lang, tied))
    lowest = result.get("lowest")
    if lowest is None:
        lowest = min(range(len(points)), key=lambda i: points[i])
    grammar = "solo" if kind == "solo" else "team"
    if int(result["victory_points"]) >= 2:
        return t(lang, f"result.two_vp.{grammar}", loser=names[lowest], points=points[lowest],
                 threshold=threshold, winner=names[winner])
    if kind == "trios":
        return t(lang, "result.one_vp.trios", loser=names[lowest], points=points[lowest],
                 threshold=threshold, winner=names[winner])
    return t(lang, f"result.one_vp.{grammar}", threshold=threshold, winner=names[winner])


def deal_summary(lang: str, result: View, side_names: Sequence[str], *, deal_no: int,
                 team_size: int | None) -> str:
    """"Deal 3 — Team A ate 96, Team B ate 24. Team A scores 1 VP (...)".

    With 5 players it also names the face-up card left over (``result["leftover"]``, worth
    ``result["leftover_points"]``), which is why the points add up to less than 120."""
    eaten = t(lang, "list.separator").join(
        t(lang, "deal.summary.ate", side=side_names[i], points=p)
        for i, p in enumerate(result["points"]))
    line = t(lang, "deal.summary.line", deal=deal_no, eaten=eaten,
             explanation=explain_result(lang, result, side_names, team_size=team_size))
    leftover = result.get("leftover")
    if leftover:
        points = tn(lang, "card.points", int(result.get("leftover_points") or 0))
        line += " " + t(lang, "deal.summary.left_over", card=card_label(leftover), points=points)
    return line


def result_table(lang: str, result: View, side_names: Sequence[str]) -> ResultTable:
    """What each side ate and the victory points the winner scored, and why
    (:func:`explain_result`)."""
    points = [int(p) for p in result.get("points") or []]
    winner = result.get("winner")
    vp = int(result.get("victory_points") or 0)
    rows = tuple(
        (str(p), t(lang, _K + "picture.vp", vp=vp) if i == winner and vp
         else t(lang, _K + "picture.nothing"))
        for i, p in enumerate(points))
    return ResultTable((t(lang, _K + "picture.ate"), t(lang, _K + "picture.scored")), rows,
                       explain_result(lang, result, side_names))


# --------------------------------------------------------------------------- the hand
def hand_header(lang: str, view: View, names: Sequence[str]) -> str:
    """"Your hand — your turn (round 4, trump ♥)" or "... — waiting for NAME"; while bidding,
    a second line says which suits are already bid (only those cards are refused), or that this
    seat does not bid (it is not one of the view's ``bidders``)."""
    seat = view.get("seat")
    to_act = view.get("to_act")
    phase = view["phase"]
    if phase == "finished":
        return t(lang, "hand.finished")
    if phase == "bidding":
        lines = []
        if to_act is not None and to_act == seat:
            lines.append(t(lang, "hand.bid.your_turn"))
        elif to_act is None:
            lines.append(t(lang, "hand.title"))
        else:
            lines.append(t(lang, "hand.bid.waiting", name=seat_name(names, to_act, lang)))
        if seat is not None and seat not in view["bidders"]:
            lines.append(t(lang, "hand.bid.not_bidding"))
        taken = [cards.split_card(b["card"])[1] for b in view.get("bids") or [] if b.get("card")]
        if taken:
            lines.append(t(lang, "hand.bid.taken",
                           suits=join_list(lang, [cards.suit_label(lang, s) for s in taken])))
        else:
            lines.append(t(lang, "hand.bid.none_taken"))
        return "\n".join(lines)
    trump = view.get("trump")
    trump_text = cards.suit_symbol(trump) if trump else "?"
    if to_act is None:
        header = t(lang, "hand.title")
    elif to_act == seat:
        header = t(lang, "hand.your_turn", round=view["round"], trump=trump_text)
    else:
        header = t(lang, "hand.waiting", name=seat_name(names, to_act, lang),
                   round=view["round"], trump=trump_text)
    if not view.get("hand") and seat is not None:
        header += "\n" + t(lang, "hand.empty")
    return header


def hand_shows(view: View) -> Hashable:
    """The trump and the bids (a bid revealed, returned or exchanged changes the hand)."""
    return view.get("trump"), tuple((b.get("seat"), b.get("card")) for b in view.get("bids") or ())


def action_text(lang: str, code: str, by: str | None) -> str:
    """"Juma played 3♦" / "Juma bid 4♣" / "Juma passed"; to its maker ("Your 7♥ was played.")
    when ``by`` is None."""
    kind, _, card = code.partition(":")
    if by is None:
        if kind == "pass" or not card:
            return t(lang, "hand.move_counted.pass")
        return t(lang, f"hand.move_counted.{kind}", card=card_label(card))
    if kind == "pass" or not card:
        return t(lang, "hand.event.passed", name=by)
    key = "hand.event.bid" if kind == "bid" else "hand.event.played"
    return t(lang, key, name=by, card=card_label(card))


#: The engine's reasons for refusing a move -> what the player reads.
_REFUSALS = {
    "not_bidder": "refuse.not_bidder",
    "playing": "refuse.not_bidding",
    "bidding": "refuse.bidding",
    "not_in_hand": "refuse.not_in_hand",
    "finished": "refuse.deal_over",
}


def refusal(lang: str, rule: str, details: View) -> str | None:
    """A bid of a suit already bid names the suit; the other refusals of the rules have a
    sentence each."""
    if rule == "suit_taken":
        suit = str(details.get("suit", "?"))
        shown = cards.suit_name(lang, suit, capitalize=True) if suit in cards.SUIT_SYMBOLS else suit
        return t(lang, "refuse.bid_suit_taken", suit=shown)
    key = _REFUSALS.get(rule)
    return t(lang, key) if key else None


# --------------------------------------------------------------------------- buttons
def card_button(lang: str, card: str, move: View | None, *, moves: Sequence[View],
                points: int) -> tuple[str, ButtonStyle]:
    """While the seat may bid, "Bid 4♣" (blue when it may bid that card); otherwise the card
    with its points, blue when playable, green when it is a trump."""
    if any(m["kind"] in ("bid", "pass") for m in moves):
        return t(lang, "button.bid", card=card_label(card)), "primary" if move else "secondary"
    label = cards.card_button_label(card, points)
    if move is None:
        return label, "secondary"
    return label, "success" if move.get("trump") else "primary"


def move_button(lang: str, move: View) -> tuple[str, ButtonStyle]:
    """Pass, in red."""
    return t(lang, f"button.{move['kind']}"), "danger"


# --------------------------------------------------------------------------- the chooser
#: A card puts down one move at most here: the chooser never opens.
card_moves, option_label, option_group = single_use_options(card_label, move_button)

# --------------------------------------------------------------------------- the picture
def front_cards(view: View) -> list[tuple[int, str]]:
    """The bid cards while bidding, the trick in progress while playing."""
    if view["phase"] == "bidding":
        return [(b["seat"], b["card"]) for b in view.get("bids") or [] if b.get("card")]
    if view["phase"] == "playing":
        return [(int(s), str(c)) for s, c in view.get("current") or []]
    return []


def draw_centre(layout: Layout, lang: str, view: View, names: Sequence[str]) -> None:
    """The stock with the face-up card across and under it (sticking out on the left) and
    its count in words, and beside it the trump suit in a gold disc ("?" before the indicator
    is turned), labelled."""
    room = layout.centre
    cx, cy = room.centre
    stock = int(view.get("stock") or 0)
    face_up = view.get("face_up")
    pile = stock - (1 if face_up else 0)
    x = cx - 45
    if face_up:
        # Across and under the stock, sticking out on the left; alone, in its place.
        layout.card("stock", str(face_up), x - 20 if pile > 0 else x, cy - 14, SMALL_W, SMALL_H,
                    turned=True)
    if pile > 0:
        layout.pile("stock", pile, x + 8, cy - 14, SMALL_W, SMALL_H)
    if stock > 0 or face_up:
        layout.text("stock", x, cy + 24, t(lang, _K + "picture.stock", count=stock),
                    anchor="ma")
    layout.text("trump", cx + 58, cy - 44, t(lang, _K + "picture.trump"), anchor="ma",
                tone="muted")
    layout.disc("trump", view.get("trump") or None, cx + 58, cy)
