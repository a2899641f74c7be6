"""Shared pieces of the computer players: reading a view, the greedy rule, the utility.

Cards are the ints of :mod:`..kernel`, which also holds every rule of play the players use
(``beats``, ``winner_of``, the card tables); nothing of the rules is restated here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action, Bid, Pass, Play
from ..cards import PACK, Card
from ..kernel import CARDS, NO_TRUMP, POINTS, STRENGTH, SUIT, beats, card_int, suit_int, winner_of

ALL_CARDS = range(CARDS)


def play_action(card: int) -> Action:
    """The Play action for a card int."""
    return Play(PACK[card])


def action_of(code: str) -> Action:
    """An action from a legal action code of a view."""
    if code == "pass":
        return Pass()
    kind, _, card = code.partition(":")
    return Bid(Card.parse(card)) if kind == "bid" else Play(Card.parse(card))


# --------------------------------------------------------------------------- greedy
def cheap_key(card: int, trump: int) -> tuple[int, int, int]:
    """Order for leading and throwing: not a trump, fewest points, lowest rank first."""
    return (SUIT[card] == trump, POINTS[card], STRENGTH[card])


def win_key(card: int, trump: int) -> tuple[int, int, int]:
    """Order among winning cards: fewest points, then not a trump, then lowest rank."""
    return (POINTS[card], SUIT[card] == trump, STRENGTH[card])


def greedy_card(
    hand: Sequence[int], current: Sequence[tuple[int, int]], trump: int, seat: int, teams: int
) -> int:
    """The greedy rule: lead the cheapest card; when following, if the round holds points and
    no partner is winning it, win it with the cheapest card that wins; otherwise throw the
    cheapest card."""
    if current:
        best_seat, best = winner_of(current, trump)
        if best_seat % teams != seat % teams and any(POINTS[c] for _, c in current):
            winners = [c for c in hand if beats(c, best, trump)]
            if winners:
                return min(winners, key=lambda c: win_key(c, trump))
    return min(hand, key=lambda c: cheap_key(c, trump))


def greedy_bid(hand: Sequence[int], taken: set[int]) -> int | None:
    """Greedy bidding: bid the lowest 3 or 4 held in a suit nobody has bid (any indicator of
    that suit is worth at least as much), else pass (None)."""
    options = [c for c in hand if STRENGTH[c] <= 1 and SUIT[c] not in taken]
    if not options:
        return None
    return min(options, key=lambda c: (STRENGTH[c], c))


# --------------------------------------------------------------------------- knowledge
@dataclass(slots=True)
class Knowledge:
    """Everything a seat may know, read from ``Deal.view(seat, history=True)``.

    ``known[s]``: cards known to be in seat ``s``'s hand (bid cards taken back, the indicator
    taken by the exchanging bidder, the face-up card drawn), not yet played. ``unknown``: the
    cards whose place this seat does not know (in other hands or the face-down stock), sorted.
    ``slots[s]``: how many unknown cards seat ``s`` holds; ``stock_hidden``: how many unknown
    cards lie in the stock (the face-up card excluded).
    """

    players: int
    team_size: int
    teams: int
    seat: int
    phase: str
    trump: int
    hand: list[int]
    hand_sizes: list[int]
    stock: int
    face_up: int | None
    leader: int
    current: list[tuple[int, int]]
    played: set[int]
    eaten: list[int]
    known: list[list[int]]
    unknown: list[int]
    slots: list[int]
    stock_hidden: int
    taken_suits: set[int] = field(default_factory=set)
    legal: list[str] = field(default_factory=list)

    @property
    def team(self) -> int:
        """This seat's side."""
        return self.seat % self.teams

    def fully_known(self) -> bool:
        """True when every card's place is known (no hidden card left anywhere)."""
        return not self.unknown


def read_view(view: dict[str, Any]) -> Knowledge:
    """Read a view (``history=True`` for full counting) into :class:`Knowledge`."""
    players = int(view["players"])
    teams = int(view["teams"])
    seat = int(view["seat"])
    trump_code = view.get("trump")
    trump = suit_int(trump_code) if trump_code else NO_TRUMP
    hand = [card_int(c) for c in view["hand"]]
    current = [(int(s), card_int(c)) for s, c in view.get("current", [])]
    played: set[int] = {c for _, c in current}
    eaten = [0] * teams
    for trick in view.get("tricks") or ([view["last_trick"]] if view.get("last_trick") else []):
        for _, c in trick["plays"]:
            played.add(card_int(c))
        eaten[int(trick["winner"]) % teams] += int(trick["points"])
    known: list[list[int]] = [[] for _ in range(players)]
    face_up = card_int(view["face_up"]) if view.get("face_up") else None
    located: set[int] = set(hand)
    bids = view.get("bids") or []
    taken_suits = {SUIT[card_int(b["card"])] for b in bids if b.get("card")}
    if view["phase"] == "bidding":
        # Bid cards lie on the table for now: out of every hand, known to all.
        for b in bids:
            if b.get("card"):
                located.add(card_int(b["card"]))
    else:
        exchange = view.get("exchange")
        for b in bids:
            if b.get("card"):
                card = card_int(b["card"])
                if SUIT[card] != trump:
                    known[int(b["seat"])].append(card)
        if exchange:
            known[int(exchange["seat"])].append(card_int(exchange["took"]))
        drawn_by = view.get("face_up_drawn_by")
        if drawn_by is not None and face_up is None:
            gave = card_int(exchange["gave"]) if exchange else card_int(view["indicator"])
            known[int(drawn_by)].append(gave)
        if face_up is not None:
            located.add(face_up)
    for s in range(players):
        known[s] = [] if s == seat else [c for c in known[s] if c not in played]
        located.update(known[s])
    unknown = [c for c in ALL_CARDS if c not in located and c not in played]
    sizes = [int(x) for x in view["hand_sizes"]]
    slots = [0 if s == seat else max(0, sizes[s] - len(known[s])) for s in range(players)]
    stock = int(view["stock"])
    if view["phase"] == "bidding":
        stock_hidden = stock  # the indicator is still face down in the pack
    else:
        stock_hidden = stock - (1 if face_up is not None else 0)
    return Knowledge(
        players=players,
        team_size=int(view["team_size"]),
        teams=teams,
        seat=seat,
        phase=str(view["phase"]),
        trump=trump,
        hand=hand,
        hand_sizes=sizes,
        stock=stock,
        face_up=face_up,
        leader=int(view["leader"]) if view.get("leader") is not None else seat,
        current=current,
        played=played,
        eaten=eaten,
        known=known,
        unknown=unknown,
        slots=slots,
        stock_hidden=max(0, stock_hidden),
        taken_suits=taken_suits,
        legal=list(view.get("legal") or []),
    )


def utility(points: Sequence[int], team: int, team_size: int) -> float:
    """How good final card points are for ``team``: mostly winning the deal (more for 2 VP),
    a little the margin. In [-1.62, 1.62]."""
    top = max(points)
    others = max(p for t, p in enumerate(points) if t != team)
    margin = (points[team] - others) / 240.0
    threshold = 10 * team_size
    vp = 1 if min(points) >= threshold else 2
    if points[team] == top:
        if others == top:
            return margin
        return 1.0 + 0.12 * (vp - 1) + margin
    return -1.0 - 0.12 * (vp - 1) + margin
