"""One deal of Ass (Жопа) for people: action codes, refusals with sentences, views, the result.

A :class:`Deal` wraps a :class:`.kernel.State` (the one copy of the rules) and adds what the
table needs: the codes ``go``, ``no`` and ``play:XX`` (``play:TS`` is the Ten of spades),
:class:`IllegalMove` with a readable sentence, and the JSON view each seat may see.
``shared/rules/ass.md`` is the authority.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..hands import sorted_hand
from . import kernel as K

#: label -> {"players": n, "team_size": 1}: everyone plays for themselves.
MODES: dict[str, dict[str, int]] = {
    str(n): {"players": n, "team_size": 1} for n in (2, 3, 4, 5, 6)
}
#: The ranks of the pack, highest first in the plain order (``T`` is the Ten): how a hand is
#: sorted and named.
RANKS = K.RANKS[::-1]
#: Variant 1's own trump suits, by seat.
DEFAULT_OWN = "SCHD"
SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


class IllegalMove(ValueError):
    """An action the rules do not allow now; ``str(exc)`` is a sentence for the player who
    tried it. ``reason`` is a short stable code (``"not_in_hand"``, ``"must_follow"``...) and
    ``details`` the values the sentence mentions, so another layer can translate it."""

    def __init__(self, message: str, reason: str = "illegal", **details: Any) -> None:
        super().__init__(message)
        self.reason = reason
        self.details = details


def short(code: str) -> str:
    """``10♠`` for ``TS``."""
    return ("10" if code[0] == "T" else code[0]) + SYMBOLS[code[1]]


@dataclass(frozen=True, slots=True)
class Options:
    """The match's fixed choices: the trump ``variant`` (1-5) and ``suits`` (variant 1: each
    seat's own trump suit; 3: the trump suit; 4: the two trump suits; else empty)."""

    variant: int
    suits: str

    def levels(self, players: int) -> tuple[list[list[int]], list[int]]:
        """The kernel's trump levels for ``players`` seats."""
        return K.trump_levels(self.variant, players, [K.SUITS.index(s) for s in self.suits])

    def trump_of(self, seat: int) -> list[str]:
        """The suits that are trumps for ``seat``, highest level first."""
        if self.variant == 1:
            return [self.suits[seat]]
        if self.variant == 5:
            return ["S", "D"]
        return list(self.suits)


def check_options(players: Any, team_size: Any, dealer: Any, trumps: Any = None,
                  suits: Any = None) -> tuple[int, Options]:
    """``(players, options)`` of a valid table; ValueError otherwise. ``trumps`` None: variant
    1 for 2-4 players, 2 for 5-6. ``suits`` None: the rules' defaults (variant 1 seat i gets
    ``S C H D``[i], variant 3 ♠, variant 4 ♠ ♦)."""
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 6:
        raise ValueError(f"Ass is played by 2 to 6 players, not {players!r}")
    if team_size not in (None, 1) or isinstance(team_size, bool):
        raise ValueError(f"Everyone plays for themselves in Ass: team size 1, not {team_size!r}")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
        raise ValueError(f"The dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
    variant = (1 if players <= 4 else 2) if trumps is None else trumps
    if not isinstance(variant, int) or isinstance(variant, bool) or not 1 <= variant <= 5:
        raise ValueError(f"The trump variant is 1 to 5, not {trumps!r}")
    if variant == 1 and players > 4:
        raise ValueError("Each player's own trump (variant 1) needs 2 to 4 players")
    want = {1: players, 3: 1, 4: 2}.get(variant, 0)
    if suits is None:
        suits = {1: DEFAULT_OWN[:players], 3: "S", 4: "SD"}.get(variant, "")
    if (not isinstance(suits, str) or len(suits) != want or len(set(suits)) != want
            or any(s not in K.SUITS for s in suits)):
        raise ValueError(f"Variant {variant} needs {want} different suits of CDHS, "
                         f"not {suits!r}")
    return players, Options(variant, suits)


@dataclass(frozen=True, slots=True)
class DealResult:
    """The score of a finished deal, lists per player (everyone is their own side).

    ``points``: the points each player won in tricks. ``winner``: the player with strictly the
    most points, None on a tie. ``banks``: the change of each player's banks (-1 a bank
    dropped, +1 a bank taken: a "go" missed, 0 otherwise), as the rules put it.
    ``game_points``: the same change of the banks, as the rules file defines it (negative = a
    bank dropped); the match's ``scores`` count banks negated so that higher is better there
    (see :class:`.match.Match`). ``targets`` and ``bets`` ("go"/"no") per player.
    """

    points: list[int]
    winner: int | None
    game_points: list[int]
    banks: list[int] = field(default_factory=list)
    targets: list[int] = field(default_factory=list)
    bets: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """All the fields as plain lists."""
        return {
            "points": list(self.points),
            "winner": self.winner,
            "game_points": list(self.game_points),
            "banks": list(self.banks),
            "targets": list(self.targets),
            "bets": list(self.bets),
        }


def parse_code(code: object) -> tuple[str, int]:
    """``("go"|"no", -1)`` or ``("play", card)``; IllegalMove ``bad_code`` otherwise."""
    if code in ("go", "no"):
        return str(code), -1
    if isinstance(code, str) and code.startswith("play:") and code[5:] in K.CODE_INT:
        return "play", K.CODE_INT[code[5:]]
    shown = code[:24] if isinstance(code, str) else repr(code)[:24]
    raise IllegalMove(f"{shown!r} is not an action: use go, no or play:XX (a card as rank "
                      "then suit, e.g. play:TS for the 10 of spades).", "bad_code", code=shown)


class Deal:
    """One deal at a table of ``players`` seats numbered in the order of play.

    Build one with :func:`new_deal`. ``state`` is the kernel state (every card; never shown);
    ``deck`` the pack as dealt (codes, index 0 = top); ``actions`` the codes applied and
    ``seats`` who applied each. ``banks``: each player's banks before this deal (shown only).
    """

    def __init__(self, players: int, dealer: int, deck: Sequence[str], options: Options,
                 first_deal: bool = True, banks: Sequence[int] | None = None) -> None:
        if len(deck) != 36 or set(deck) != set(K.CODES):
            raise ValueError("The deck must hold each of the 36 cards exactly once")
        self.players = players
        self.team_size = 1
        self.dealer = dealer
        self.options = options
        self.first_deal = first_deal
        self.banks = list(banks) if banks is not None else [3] * players
        self.deck = tuple(deck)
        levels, main_levels = options.levels(players)
        self.state = K.State(players, dealer, [K.CODE_INT[c] for c in deck], levels,
                             main_levels, first_deal)
        self.actions: list[str] = []
        self.seats: list[int] = []
        #: The effect of every play, in order (names of :data:`.kernel.EFFECT_NAMES`).
        self.effects: list[str] = []

    # ----------------------------------------------------------------- queries
    @property
    def phase(self) -> str:
        """``"betting"``, ``"playing"``, ``"finished"``."""
        return ("betting", "playing", "finished")[self.state.phase]

    @property
    def to_act(self) -> int | None:
        """The seat to act, None once finished."""
        return None if self.state.phase == K.FINISHED else self.state.to_act

    @property
    def tricks_total(self) -> int:
        """Tricks in a deal: 18, 12, 9, 7 or 6."""
        return 36 // self.players

    def team_of(self, seat: int) -> int:
        """Everyone plays alone: the seat itself."""
        return seat

    def hand(self, seat: int) -> list[str]:
        """The codes ``seat`` holds, sorted by suit then plain rank."""
        return [K.CODES[c] for c in sorted(self.state.hands[seat])]

    def legal_actions(self) -> list[str]:
        """Every legal code of the seat to act, sorted ([] once finished)."""
        st = self.state
        if st.phase == K.BETTING:
            return ["go", "no"]
        return sorted("play:" + K.CODES[c] for c in st.legal_cards())

    # ----------------------------------------------------------------- changes
    def apply(self, code: str) -> None:
        """Carry out ``code`` for the seat to act, or raise :class:`IllegalMove` (a
        ``ValueError`` with a sentence for that player) and change nothing."""
        st = self.state
        if st.phase == K.FINISHED:
            raise IllegalMove("The deal is over.", "finished")
        kind, card = parse_code(code)
        seat = st.to_act
        if st.phase == K.BETTING:
            if kind == "play":
                raise IllegalMove("Bet first: say go or no.", "betting")
            st.bet(kind == "go")
            self.effects.append("")
        else:
            if kind != "play":
                raise IllegalMove("The bets are over: play a card.", "playing")
            if card not in st.hands[seat]:
                raise IllegalMove(f"You don't hold {short(K.CODES[card])}.", "not_in_hand",
                                  card=K.CODES[card])
            if not st.may_play(seat, card):
                suit = K.SUITS[st.trick.main_suit]
                raise IllegalMove(
                    f"{short(K.CODES[card])} neither follows {SYMBOLS[suit]} nor interrupts: "
                    f"you must play a {SYMBOLS[suit]} card.", "must_follow",
                    card=K.CODES[card], suit=suit)
            self.effects.append(K.EFFECT_NAMES[st.play(card)])
        self.actions.append(code)
        self.seats.append(seat)

    # ----------------------------------------------------------------- results and views
    def result(self) -> DealResult:
        """The score of the finished deal; IllegalMove while it is being played."""
        st = self.state
        if st.phase != K.FINISHED:
            raise IllegalMove("The deal is not finished.", "not_finished")
        points = list(st.points)
        top = max(points)
        banks = st.bank_changes()
        return DealResult(
            points=points,
            winner=points.index(top) if points.count(top) == 1 else None,
            game_points=list(banks),
            banks=banks,
            targets=self.targets(),
            bets=["go" if b == 1 else "no" for b in st.bets],
        )

    def targets(self) -> list[int]:
        """Each player's target for this deal ("no" until they say "go")."""
        return [K.target(self.players, b == 1) for b in self.state.bets]

    def trick_json(self, index: int) -> dict[str, Any]:
        """Finished trick ``index``: ``winner``, ``points`` (its value), ``plays``."""
        plays, winner, value = self.state.tricks[index]
        return {"winner": winner, "points": value,
                "plays": [[s, K.CODES[c]] for s, c in plays]}

    def last_trick_json(self) -> dict[str, Any] | None:
        """The public view's ``last_trick`` alone (the same dict), without the rest of the
        view: the table service reads it after every move to tell whether a trick ended."""
        count = len(self.state.tricks)
        return self.trick_json(count - 1) if count else None

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator): the own hand (its own trumps first, by
        suit, highest first in the plain order), every trump, the bets, the
        trick in progress (its holder and main suit), the finished tricks, hand and stock
        sizes, banks and targets; points won only once the deal is over. Never in it:
        another hand, the stock, the won piles, nor (during the first deal's bets) who holds
        the lowest diamond: ``first_leader`` is None then."""
        st = self.state
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)
                                 or not 0 <= seat < self.players):
            raise ValueError(f"No seat {seat!r} at a table of {self.players}")
        mine = seat is not None and seat == self.to_act
        tricks = [self.trick_json(i) for i in range(len(st.tricks))]
        tr = st.trick
        finished = st.phase == K.FINISHED
        effects = [e for e in self.effects if e]
        in_trick = effects[len(effects) - len(tr.plays):] if tr.plays else []
        return {
            "game": "ass",
            "seat": seat,
            "players": self.players,
            "team_size": 1,
            "n_teams": self.players,
            "teams": list(range(self.players)),
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": self.to_act,
            "variant": self.options.variant,
            "trumps": [self.options.trump_of(s) for s in range(self.players)],
            "first_deal": self.first_deal,
            # who leads the first trick: the lowest diamond's holder in the match's first deal,
            # which would tell about hidden hands while the bets are being made; public once
            # the bets are over (that player leads) and in later deals (the dealer's left)
            "first_leader": (None if self.first_deal and st.phase == K.BETTING
                             else st.first_leader),
            # as the seat holds it: its own trumps first (public), by suit, highest first
            "hand": (sorted_hand(self.hand(seat), RANKS, self.options.trump_of(seat))
                     if seat is not None else []),
            "hand_sizes": [len(h) for h in st.hands],
            "stock": st.stock_left,
            "bets": [None if b < 0 else ("go" if b else "no") for b in st.bets],
            "banks": list(self.banks),
            "targets": self.targets(),
            "trick": {
                "leader": tr.leader if tr.plays else None,
                "plays": [[s, K.CODES[c]] for s, c in tr.plays],
                "effects": in_trick,
                "main_suit": K.SUITS[tr.main_suit] if tr.plays else None,
                "main_card": K.CODES[tr.main] if tr.main >= 0 else None,
                "holder": tr.holder() if tr.plays else None,
            },
            "tricks": tricks,
            "tricks_total": self.tricks_total,
            "last_trick": tricks[-1] if tricks else None,
            "points": list(st.points) if finished else None,
            "legal": self.legal_actions() if mine else [],
            "result": self.result().to_json() if finished else None,
        }

    # ----------------------------------------------------------------- replay
    def copy(self) -> Deal:
        """An independent copy."""
        other = object.__new__(Deal)
        other.__dict__.update(self.__dict__)
        other.state = self.state.copy()
        other.actions = list(self.actions)
        other.seats = list(self.seats)
        other.effects = list(self.effects)
        return other


def shuffled(seed: int | None) -> list[str]:
    """The 36 codes shuffled from ``seed`` (same seed, same order)."""
    deck = list(K.CODES)
    random.Random(seed).shuffle(deck)
    return deck


def new_deal(
    players: int,
    team_size: int | None = None,
    dealer: int = 0,
    *,
    deck: Iterable[str] | None = None,
    seed: int | None = None,
    trumps: int | None = None,
    suits: str | None = None,
    first_deal: bool = True,
    banks: Sequence[int] | None = None,
) -> Deal:
    """Deal a new hand of Ass.

    ``deck``: the 36 codes, each once, index 0 = top; without it the pack is shuffled from
    ``seed``. ``trumps``: the variant 1-5 (None: 1 for 2-4 players, 2 for 5-6); ``suits``: see
    :func:`check_options`. ``first_deal``: the match's first deal (the lowest diamond leads).
    ``banks``: the banks before the deal, for the view. ValueError for anything invalid.
    """
    players, options = check_options(players, team_size, dealer, trumps, suits)
    if deck is not None:
        if isinstance(deck, str):
            raise ValueError("The deck is a sequence of card codes, not one string")
        cards = [str(c) for c in deck]
    else:
        cards = shuffled(seed)
    return Deal(players, dealer, cards, options, first_deal, banks)
