"""How Twenty-Eight looks on Discord: its presenter (see :class:`cogs.games.Presenter`).

Everything Twenty-Eight shows its own way: the auction (lelam) with numeric bids and passes, the
contract and its bidder, raises and Thani, the trump card lying face down by the bidder until
someone asks for it, the deal's result in base cards moved from side to side (scores can go
negative; the side that runs out wears the kunukku), and the picture's middle (the contract
and its bidder, the trump card beside it: face down while hidden, face up once shown).

Read from the view only: the bids and raises (``bids``, ``raises``, ``bidder``, ``contract``,
``thani``), the trump (``trump``, ``trump_card``: a seat's view holds them only when that seat
may know them; ``trump_face_down``, ``exposed``, ``exposed_by``), the sides (``teams``), the
legal moves (``moves``, with ``value`` for bids and raises) and the deal's ``result``: the rules
stay in ``albastini/games/twentyeight``.

**The hidden trump never shows.** Nothing here names a trump card or suit but from a view's
``trump``/``trump_card``, which only the bidder's own view holds before the exposure; the table
and the picture are drawn from the public view (where they are null until exposed), a log line
names no card for ``trump:XX`` (the table view masks it as ``trump`` for everyone else anyway),
and a trump card is shown face up only once ``exposed`` is true.

The module runs past 500 lines because Twenty-Eight has the most to show of the games (an
auction, a contract with raises and Thani, a trump card hidden then shown, base cards moved
both ways), and all of it is one game's look, which the layout of ``cogs/`` keeps in one place.

Over 500 lines because Twenty-Eight shows more of its own than any other game (an auction and
its contract, raises and Thani, a trump hidden face down then exposed, base cards that move
between the sides), and a presenter is one game's look in one module.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from albastini.games.interface import game
from cogs.i18n import join_list, t, tn
from cogs.render import cards
from cogs.render.picture import SMALL_H, SMALL_W, seat_label
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
NAME = "twentyeight"
#: Pages of its rules in the catalogues (``rules.page.<n>``).
RULES_PAGES = 3
#: The accent colour of its cards: the gold of a kasavu border.
ACCENT = 0xC08A1E
_RULES = game(NAME)
#: Base cards are the platform's score.
shown_score = score_as_is
#: The catalogue keys of this game start so (every Malayalam word is among them).
_K = "twentyeight."


def _k(key: str) -> str:
    return _K + key


def score_text(lang: str, score: int) -> str:
    """"7 base" (base cards held; the score box says what they are)."""
    return t(lang, _k("picture.score"), score=_signed(score, plus=False))


def target_text(lang: str, target: int) -> str | None:
    """"Base cards: 6 each, 0 loses": every side starts with ``target``."""
    return t(lang, _k("picture.target"), target=target)


def _signed(value: int, *, plus: bool = True) -> str:
    """A number with a real minus sign (and a plus, when ``plus``)."""
    if value < 0:
        return "\u2212" + str(-value)
    return f"+{value}" if plus and value > 0 else str(value)


#: A suit's name, or "?" when the view leaves it out.
_suit = cards.known_suit_label


# --------------------------------------------------------------------------- cards
def card_label(code: str) -> str:
    """A card of Twenty-Eight's packs as players read it: ``"TH"`` -> ``"10♥"``."""
    return cards.pack_card_label(code, _RULES.ranks, "Twenty-Eight")


# --------------------------------------------------------------------------- sides and roles
def _side_of(view: View, seat: int) -> int:
    teams = view.get("team_of") or view.get("teams")
    if isinstance(teams, list) and 0 <= seat < len(teams):
        return int(teams[seat])
    return seat


def _solo(view: View) -> bool:
    return int(view.get("team_size") or 1) == 1


def _bidding_side(lang: str, view: View, names: Sequence[str], bidder: int) -> str:
    """"Team A", or in 3 players that the bidder plays alone against the two others."""
    if _solo(view):
        return t(lang, _k("table.alone"))
    return t(lang, "team.name", letter=TEAM_LETTERS[_side_of(view, bidder) % len(TEAM_LETTERS)])


# --------------------------------------------------------------------------- the text table
def table_facts(lang: str, view: View) -> list[str]:
    """While bidding, that the trump (thuruppu) is chosen after the auction; from then on the
    trump has a line of its own, which names the bidder (:func:`table_lines`)."""
    return [t(lang, _k("table.trump_pending"))] if view["phase"] == "bidding" else []


def _auction_line(lang: str, view: View, names: Sequence[str]) -> str:
    bids = view.get("bids") or []
    if not bids:
        return t(lang, _k("table.bids_none"))
    items = [
        t(lang, _k("table.bid"), name=seat_name(names, b["seat"], lang), bid=b["bid"])
        if b.get("bid") is not None
        else t(lang, _k("table.bid_pass"), name=seat_name(names, b["seat"], lang))
        for b in bids
    ]
    return t(lang, _k("table.bids"), bids=t(lang, "inline.separator").join(items))


def _contract_line(lang: str, view: View, names: Sequence[str]) -> str | None:
    bidder = view.get("bidder")
    contract = view.get("contract")
    if bidder is None or contract is None:
        return None
    sep = t(lang, "inline.separator")
    parts = [t(lang, _k("table.contract"), contract=contract,
               name=seat_name(names, bidder, lang), side=_bidding_side(lang, view, names, bidder))]
    for r in view.get("raises") or []:
        who = seat_name(names, r["seat"], lang)
        if r.get("bid") == "thani":
            parts.append(t(lang, _k("table.thani"), name=who))
        elif r.get("bid") is not None:
            parts.append(t(lang, _k("table.raised"), name=who, bid=r["bid"]))
        else:
            parts.append(t(lang, _k("table.not_raised"), name=who))
    return sep.join(parts)


def _trump_line(lang: str, view: View, names: Sequence[str]) -> str | None:
    """Who lays, or laid, the trump card face down; once exposed, which card and on whose call
    (the public view holds the card only then)."""
    bidder = view.get("bidder")
    if bidder is None:
        return None
    who = seat_name(names, bidder, lang)
    if view["phase"] == "trump":
        return t(lang, _k("table.choosing"), name=who)
    if view.get("exposed") and view.get("trump_card"):
        caller = view.get("exposed_by")
        card = card_label(view["trump_card"])
        suit = _suit(lang, view.get("trump"))
        if caller is None or caller == bidder:
            return t(lang, _k("table.exposed_by_bidder"), suit=suit, card=card, name=who)
        return t(lang, _k("table.exposed"), suit=suit, card=card,
                 name=seat_name(names, caller, lang), bidder=who)
    if view.get("trump_face_down"):
        return t(lang, _k("table.face_down"), name=who)
    return None


def table_lines(lang: str, view: View, names: Sequence[str]) -> list[str]:
    """The auction (lelam) while bidding; then the contract, its bidder, raises and Thani, and
    the trump card: face down by the bidder, or shown (which card, on whose call)."""
    if view["phase"] == "bidding":
        return [_auction_line(lang, view, names)]
    lines = [_contract_line(lang, view, names), _trump_line(lang, view, names)]
    if view["phase"] == "finished" and view.get("bidder") is None:
        lines = [_auction_line(lang, view, names)]
    return [line for line in lines if line]


def spoken_facts(lang: str, view: View, names: Sequence[str]) -> list[str]:
    """The contract and the trump card (hidden, or which), or the auction; then the rest."""
    return [*table_lines(lang, view, names), *table_facts(lang, view)]


# --------------------------------------------------------------------------- deal results
def _base_cards(lang: str, count: int) -> str:
    return tn(lang, _k("base_cards"), count)


def _transfer(lang: str, gp: Sequence[int], sides: Sequence[str]) -> str:
    """Who gives how many base cards to whom, read from the game points (zero-sum)."""
    payers = [i for i, g in enumerate(gp) if g < 0]
    payees = [i for i, g in enumerate(gp) if g > 0]
    if not payers or not payees:
        return t(lang, _k("summary.no_transfer"))
    if len(payers) == 1 and len(payees) == 1:
        return t(lang, _k("summary.gives"), payer=sides[payers[0]], payee=sides[payees[0]],
                 cards=_base_cards(lang, gp[payees[0]]))
    if len(payees) == 1:
        return t(lang, _k("summary.each_give"), payers=join_list(lang, [sides[i] for i in payers]),
                 payee=sides[payees[0]], cards=_base_cards(lang, -gp[payers[0]]))
    return t(lang, _k("summary.gives_each"), payer=sides[payers[0]],
             payees=join_list(lang, [sides[i] for i in payees]),
             cards=_base_cards(lang, gp[payees[0]]))


def deal_summary(lang: str, result: View, side_names: Sequence[str], *, deal_no: int,
                 team_size: int | None) -> str:
    """"Deal 3 — contract 18 by Team A: Team A took 20, Team B 8. Contract made: Team B gives
    Team A 1 base card." In 3 players the bidder plays against the two others, who settle
    separately; after an auction where everybody passed, nothing moves."""
    points: list[int] = [int(p) for p in result.get("points") or []]
    sides = [side_names[i] if i < len(side_names) else TEAM_LETTERS[i] for i in range(len(points))]
    if result.get("redeal") or result.get("contract") is None:
        return t(lang, _k("summary.redeal"), deal=deal_no)
    gp = [int(g) for g in result.get("game_points") or [0] * len(points)]
    made = bool(result.get("made"))
    payers = [i for i, g in enumerate(gp) if g < 0]
    payees = [i for i, g in enumerate(gp) if g > 0]
    bidding = payees if made else payers
    side = sides[bidding[0]] if len(bidding) == 1 else "?"
    kind = "thani" if result.get("thani") else "contract"
    contract = t(lang, _k(f"summary.{kind}"), contract=result["contract"], side=side)
    taken = t(lang, "list.separator").join(
        t(lang, _k("summary.took"), side=sides[i], points=p) for i, p in enumerate(points))
    outcome = t(lang, _k("summary.made" if made else "summary.failed"),
                transfer=_transfer(lang, gp, sides))
    line = t(lang, _k("summary.line"), deal=deal_no, contract=contract, taken=taken,
             outcome=outcome)
    if result.get("cot"):
        line += " " + t(lang, _k("summary.cot"))
    return line


def result_table(lang: str, result: View, side_names: Sequence[str]) -> ResultTable:
    """The card points each side took and the base cards it won or lost; the contract and
    whether it was made, or that everybody passed."""
    points = [int(p) for p in result.get("points") or []]
    gp = [int(g) for g in result.get("game_points") or [0] * len(points)]
    rows = tuple((str(p), _signed(gp[i] if i < len(gp) else 0)) for i, p in enumerate(points))
    columns = (t(lang, _k("picture.took")), t(lang, _k("picture.base")))
    if result.get("redeal") or result.get("contract") is None:
        return ResultTable(columns, rows, t(lang, _k("picture.redeal")))
    sides = [side_names[i] if i < len(side_names) else TEAM_LETTERS[i]
             for i in range(len(points))]
    made = bool(result.get("made"))
    payers = [i for i, g in enumerate(gp) if g < 0]
    payees = [i for i, g in enumerate(gp) if g > 0]
    bidding = payees if made else payers
    kind = "thani" if result.get("thani") else "contract"
    contract = t(lang, _k(f"summary.{kind}"), contract=result["contract"],
                 side=sides[bidding[0]] if len(bidding) == 1 else "?")
    outcome = t(lang, _k("summary.made" if made else "summary.failed"),
                transfer=_transfer(lang, gp, sides))
    return ResultTable(columns, rows, f"{contract[:1].upper()}{contract[1:]}. {outcome}")


# --------------------------------------------------------------------------- the hand
def _role_line(lang: str, view: View, names: Sequence[str]) -> str | None:
    """Bidder, partner or defender, once the auction is over."""
    seat, bidder, contract = view.get("seat"), view.get("bidder"), view.get("contract")
    if seat is None or bidder is None or contract is None or view["phase"] == "bidding":
        return None
    who = seat_name(names, bidder, lang)
    if seat == bidder:
        return t(lang, _k("hand.role.bidder"), contract=contract)
    if not _solo(view) and _side_of(view, seat) == _side_of(view, bidder):
        return t(lang, _k("hand.role.partner"), name=who, contract=contract)
    return t(lang, _k("hand.role.defender"), name=who, contract=contract)


def _hand_trump_line(lang: str, view: View, names: Sequence[str]) -> str | None:
    """The trump as this seat knows it: the bidder's own face-down card (their view holds
    it), the suit once exposed, else that it is hidden."""
    seat, bidder = view.get("seat"), view.get("bidder")
    trump, card = view.get("trump"), view.get("trump_card")
    if view.get("exposed") and trump:
        return t(lang, _k("hand.trump_exposed"), suit=_suit(lang, trump))
    if view.get("trump_face_down") and bidder is not None:
        if seat == bidder and card and trump:
            return t(lang, _k("hand.your_trump"), card=card_label(card), suit=_suit(lang, trump))
        return t(lang, _k("hand.trump_hidden"), name=seat_name(names, bidder, lang))
    return None


def _turn_line(lang: str, view: View, names: Sequence[str]) -> str:
    seat, to_act, phase = view.get("seat"), view.get("to_act"), view["phase"]
    mine = to_act is not None and to_act == seat
    who = seat_name(names, to_act, lang) if to_act is not None else "?"
    if to_act is None:
        return t(lang, "hand.title")
    if phase == "bidding":
        if not mine:
            return t(lang, _k("hand.bid.waiting"), name=who)
        bidder, high = view.get("bidder"), view.get("contract")
        if bidder is None or high is None:
            return t(lang, _k("hand.bid.your_turn"))
        return t(lang, _k("hand.bid.your_turn_high"), bid=high,
                 name=seat_name(names, bidder, lang))
    if phase == "trump":
        if mine:
            return t(lang, _k("hand.trump.your_turn"), contract=view.get("contract"))
        return t(lang, _k("hand.trump.waiting"), name=who)
    if phase == "raising":
        if mine:
            return t(lang, _k("hand.raise.your_turn"))
        return t(lang, _k("hand.raise.waiting"), name=who)
    key = "hand.play.your_turn" if mine else "hand.play.waiting"
    return t(lang, _k(key), name=who, round=view.get("round", 1),
             total=view.get("rounds_total", view.get("tricks_total", 8)))


def _advice(lang: str, view: View) -> str | None:
    """What this seat's legal moves mean, when they are not plain cards."""
    legal: list[str] = list(view.get("legal") or [])
    if not legal:
        return None
    if view["phase"] == "bidding" and "pass" not in legal:
        return t(lang, _k("hand.bid.compulsory"))
    if view["phase"] != "playing":
        return None
    if legal == ["expose"]:
        return t(lang, _k("hand.play.must_expose"))
    if "expose" in legal:
        return t(lang, _k("hand.play.can_call"))
    tricks = view.get("tricks") or []
    if view.get("exposed_by") == view.get("seat") and view.get("exposed_in_trick") == len(tricks):
        return t(lang, _k("hand.play.called"))
    return None


def hand_header(lang: str, view: View, names: Sequence[str]) -> str:
    """Whose turn it is and what to do (bid, choose the trump card, raise, play); the seat's
    role (bidder, partner, defender) and the trump as this seat knows it (the bidder's own
    face-down card, which only the bidder's view holds)."""
    if view["phase"] == "finished":
        return t(lang, "hand.finished")
    lines = [_turn_line(lang, view, names), _advice(lang, view), _role_line(lang, view, names),
             _hand_trump_line(lang, view, names)]
    if not view.get("hand") and view.get("seat") is not None and view["phase"] == "playing":
        lines.append(t(lang, "hand.empty"))
    return "\n".join(line for line in lines if line)


def hand_shows(view: View) -> Hashable:
    """The auction, the contract and raises, and the trump as this seat knows it."""
    return (
        tuple((b.get("seat"), b.get("bid")) for b in view.get("bids") or ()),
        view.get("bidder"),
        view.get("contract"),
        tuple((r.get("seat"), r.get("bid")) for r in view.get("raises") or ()),
        view.get("thani"),
        view.get("trump"),
        view.get("trump_card"),
        view.get("trump_face_down"),
        view.get("exposed"),
        view.get("exposed_by"),
    )


def action_text(lang: str, code: str, by: str | None) -> str:
    """"Anu bid 16", "Binu passed", "Anu laid the trump card face down" (never which card),
    "Chinnu asked for the trump", "Anu played 10♥"; to its maker ("Your bid of 16 counted.")
    when ``by`` is None (only then is the face-down card named: its maker knows it)."""
    kind, _, arg = code.partition(":")
    if kind == "play" and arg:
        card = card_label(arg)
        if by is None:
            return t(lang, "hand.move_counted.play", card=card)
        return t(lang, "hand.event.played", name=by, card=card)
    if kind == "pass":
        return t(lang, "hand.move_counted.pass") if by is None else t(
            lang, "hand.event.passed", name=by)
    if kind == "trump":
        if by is None and arg:
            return t(lang, _k("counted.trump"), card=card_label(arg))
        return t(lang, _k("event.trump"), name=by or "?")
    if kind not in ("bid", "raise", "thani", "expose"):
        return t(lang, "hand.move_counted.pass") if by is None else code
    if by is None:
        return t(lang, _k(f"counted.{kind}"), bid=arg)
    return t(lang, _k(f"event.{kind}"), name=by, bid=arg)


#: The engine's reasons for refusing a move that need no detail -> what the player reads.
_REFUSALS = {
    "finished": "refuse.deal_over",
    "no_thani": _K + "refuse.no_thani",
    "thani_bidder_only": _K + "refuse.thani_bidder_only",
    "no_raise": _K + "refuse.no_raise",
    "already_exposed": _K + "refuse.already_exposed",
    "leader_cannot_call": _K + "refuse.leader_cannot_call",
    "must_expose": _K + "refuse.must_expose",
    "trump_lead": _K + "refuse.trump_lead",
}
#: Reasons whose sentence names a number of the details (a bid's limits).
_NUMBERED = {"must_bid", "bid_too_high", "only_pass", "partner_rule", "bid_too_low",
             "raise_too_low"}
#: Reasons whose sentence names a suit of the details: the suit led (public), or the trump
#: once exposed (``must_trump``: only after the player's own call).
_SUITED = {"cannot_call", "must_trump", "follow_suit"}


def refusal(lang: str, rule: str, details: View) -> str | None:
    """The rules' reasons as sentences. Only the player refused reads them, and the engine
    tells only the bidder anything about the face-down trump (``trump_lead``,
    ``must_expose``): these sentences name no hidden card."""
    if rule in _REFUSALS:
        return t(lang, _REFUSALS[rule])
    if rule == "wrong_phase":
        phase = str(details.get("phase", ""))
        if phase in ("bidding", "trump", "raising", "playing"):
            return t(lang, _k(f"refuse.phase.{phase}"))
        return None
    if rule == "not_in_hand":
        card = str(details.get("card", ""))
        try:
            shown = card_label(card)
        except ValueError:
            return None
        return t(lang, _k("refuse.not_in_hand"), card=shown)
    if rule in _NUMBERED:
        numbers = {k: details.get(k, "?") for k in ("min", "max", "high", "contract")}
        return t(lang, _k(f"refuse.{rule}"), **numbers)
    if rule in _SUITED:
        return t(lang, _k(f"refuse.{rule}"), suit=_suit(lang, details.get("suit")))
    return None


# --------------------------------------------------------------------------- buttons
def card_button(lang: str, card: str, move: View | None, *, moves: Sequence[View],
                points: int) -> tuple[str, ButtonStyle]:
    """While choosing the trump, the bidder's cards ("8♥ — lay face down", green); while
    playing, the card with its points, blue when playable; grey otherwise."""
    label = cards.card_button_label(card, points)
    if move is None:
        return label, "secondary"
    if move.get("kind") == "trump":
        return t(lang, _k("button.trump"), card=card_label(card)), "success"
    return label, "primary"


_MOVE_STYLES: dict[str, ButtonStyle] = {
    "bid": "primary", "raise": "primary", "thani": "success", "expose": "success",
}


def move_button(lang: str, move: View) -> tuple[str, ButtonStyle]:
    """"Bid 16", "Raise to 24", "Thani (alone)", "Ask for the trump", and Pass in red."""
    kind = str(move.get("kind"))
    if kind == "pass":
        return t(lang, "button.pass"), "danger"
    return t(lang, _k(f"button.{kind}"), bid=move.get("value")), _MOVE_STYLES.get(kind, "primary")


# --------------------------------------------------------------------------- the chooser
#: A card puts down one move at most here: the chooser never opens.
card_moves, option_label, option_group = single_use_options(card_label, move_button)

# --------------------------------------------------------------------------- the picture
def front_cards(view: View) -> list[tuple[int, str]]:
    """The trick in progress."""
    if view["phase"] == "playing":
        return [(int(s), str(c)) for s, c in view.get("current") or []]
    return []


def _high_bid(view: View) -> tuple[int, int] | None:
    """(bid, seat) of the highest bid of the auction so far."""
    bids = [(int(b["bid"]), int(b["seat"])) for b in view.get("bids") or []
            if isinstance(b.get("bid"), int)]
    return max(bids) if bids else None


def draw_centre(layout: Layout, lang: str, view: View, names: Sequence[str]) -> None:
    """On the left of the middle, the contract (or the highest bid while bidding) in large
    figures with its bidder's name; on the right, the trump card: face down while hidden
    (labelled so), face up with its suit in a gold disc once exposed. Both lie in the middle,
    apart from the cards the players lay in front of them. Drawn only from public facts: the
    card's face only once ``exposed``."""
    room = layout.centre
    cx, cy = room.centre
    bidder, contract = view.get("bidder"), view.get("contract")
    if view["phase"] == "bidding":
        high = _high_bid(view)
        if high is None:
            layout.text("contract", cx, cy, t(lang, _k("picture.no_bid")), anchor="mm",
                        tone="muted")
            return
        contract, bidder = high
        heading = t(lang, _k("picture.high_bid"))
    else:
        heading = t(lang, _k("picture.contract"))
    if bidder is None or contract is None:
        return
    x = max(room.x0 + 55, cx - 60)  # the contract's column, 110 wide; the trump's, 80
    layout.text("contract", x, room.y0 + 4, layout.fit(heading, 110), anchor="ma",
                tone="muted")
    layout.text("contract", x, cy - 4, str(contract), 40, anchor="mm")
    layout.text("contract", x, cy + 26, layout.fit(seat_label(lang, names, int(bidder)), 110),
                anchor="ma")
    x = min(room.x1 - 40, cx + 60)
    if view.get("exposed") and view.get("trump_card"):
        layout.text("trump", x, room.y0 + 4, layout.fit(t(lang, _k("picture.trump")), 80),
                    anchor="ma", tone="muted")
        layout.card("trump", str(view["trump_card"]), x - 12, cy + 4, SMALL_W, SMALL_H)
        layout.disc("trump", view.get("trump") or None, x + 22, cy + 30, 14)
    elif view.get("trump_face_down"):
        heading = t(lang, _k("picture.trump_hidden"))
        for line, text in enumerate(layout.wrap(heading, 80, lines=2)):
            layout.text("trump", x, room.y0 + 4 + line * 22, text, anchor="ma", tone="muted")
        layout.back("trump", x, cy + 22, SMALL_W, SMALL_H)
