"""One deal of Twenty-Eight for people: action codes, checks with sentences, views, result.

A :class:`Deal` wraps a :class:`.kernel.State` (the one copy of the rules) and adds what the
table needs: canonical action codes in and out, :class:`IllegalMove` with a readable sentence
(which never mentions the hidden trump to anyone but the bidder), ``Card`` objects, and the
JSON view each seat may see. ``shared/rules/twentyeight.md`` is the authority.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..hands import sorted_hand
from . import kernel as K
from .cards import CARDS, RANKS, SUIT_NAMES, SUIT_SINGULAR, SUITS, Card, pack, shuffled_pack

#: The three modes: label -> {"players": n, "team_size": t}.
MODES: dict[str, dict[str, int]] = {
    "3 players": {"players": 3, "team_size": 1},
    "4 pairs": {"players": 4, "team_size": 2},
    "6 trios": {"players": 6, "team_size": 3},
}
_DEFAULT_TEAM_SIZE = {3: 1, 4: 2, 6: 3}


class IllegalMove(ValueError):
    """An action the rules do not allow now; ``str(exc)`` is a sentence for the player who
    tried it. ``reason`` is a short stable code (``"follow_suit"``, ``"bid_too_low"``...) and
    ``details`` the values the sentence mentions, so another layer can translate it."""

    def __init__(self, message: str, reason: str = "illegal", **details: Any) -> None:
        super().__init__(message)
        self.reason = reason
        self.details = details


def check_mode(players: Any, team_size: Any, dealer: Any) -> tuple[int, int]:
    """The (players, team_size) of a valid mode (team_size None: the mode's default);
    ValueError for any other combination or a dealer that is not a seat."""
    if not isinstance(players, int) or isinstance(players, bool):
        raise ValueError(f"players must be 3, 4 or 6, not {players!r}")
    if team_size is None:
        team_size = _DEFAULT_TEAM_SIZE.get(players)
    if (players, team_size) not in K.MODE_SIZES or isinstance(team_size, bool):
        raise ValueError(
            f"Twenty-Eight is played as 3 players, 4 pairs or 6 trios, not {players} players "
            f"in teams of {team_size}"
        )
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
        raise ValueError(f"The dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
    return players, team_size


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who led, the cards in play order, who won it and its card points."""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int
    points: int

    def to_json(self) -> dict[str, Any]:
        """``{"leader", "plays": [[seat, code], ...], "winner", "points"}``."""
        return {
            "leader": self.leader,
            "plays": [[s, c.code] for s, c in self.plays],
            "winner": self.winner,
            "points": self.points,
        }


@dataclass(frozen=True, slots=True)
class DealResult:
    """The score of a finished deal (lists per team, as the rules compare them with lists; in
    3 players per seat).

    ``points``: card points won. ``game_points``: base cards transferred (zero-sum).
    ``winner``: the bidding team if made, else the other team; None in 3 players when the
    defenders won, and after a redeal. ``bidder``/``contract`` are None after a redeal.
    ``cot``: whether Cot doubled the game points.
    """

    points: list[int]
    game_points: list[int]
    winner: int | None
    bidder: int | None
    contract: int | None
    made: bool
    thani: bool
    redeal: bool
    cot: bool = False

    def to_json(self) -> dict[str, Any]:
        """A JSON dict with every field (lists for the per-team ones)."""
        return {
            "points": list(self.points),
            "winner": self.winner,
            "game_points": list(self.game_points),
            "bidder": self.bidder,
            "contract": self.contract,
            "made": self.made,
            "thani": self.thani,
            "redeal": self.redeal,
            "cot": self.cot,
        }


_NUMBER = re.compile(r"(?:[1-9][0-9]?)\Z")  # canonical: decimal, no sign, no leading zero


def parse_code(code: object) -> tuple[str, int]:
    """Read a canonical action code as (kind, argument): ``("bid", 16)``, ``("play", card
    int)``, ``("pass", 0)``... Raises IllegalMove ``bad_code`` for anything not canonical."""
    if not isinstance(code, str):
        raise IllegalMove(f"Not an action code: {code!r}.", "bad_code", code=repr(code))
    if code in ("pass", "expose", "thani"):
        return code, 0
    kind, sep, arg = code.partition(":")
    if sep:
        if kind in ("bid", "raise") and _NUMBER.match(arg):
            return kind, int(arg)
        if kind in ("play", "trump") and arg in Card._cache:
            return kind, Card._cache[arg].index
    raise IllegalMove(
        f"{code[:20]!r} is not an action (expected bid:N, pass, trump:XX, raise:N, thani, "
        "expose or play:XX).",
        "bad_code",
        code=code[:20],
    )


def code_of(action: int) -> str:
    """The canonical code of a kernel action int."""
    if action < K.EXPOSE:
        return "play:" + K.CODES[action]
    if action == K.EXPOSE:
        return "expose"
    if action == K.PASS:
        return "pass"
    if action == K.THANI:
        return "thani"
    if action >= K.TRUMP:
        return "trump:" + K.CODES[action - K.TRUMP]
    if action >= K.RAISE:
        return f"raise:{action - K.RAISE}"
    return f"bid:{action - K.BID}"


def move_json(action: int) -> dict[str, Any]:
    """One legal move for a view: ``{"code", "kind", "card", "value"}``."""
    code = code_of(action)
    kind = code.partition(":")[0]
    card = K.CODES[action - K.TRUMP] if kind == "trump" else (
        K.CODES[action] if kind == "play" else None
    )
    value = action - K.BID if kind == "bid" else (action - K.RAISE if kind == "raise" else None)
    return {"code": code, "kind": kind, "card": card, "value": value}


class Deal:
    """One deal at a table of ``players`` seats numbered in the order of play.

    Build one with :func:`new_deal`. ``state`` is the kernel state (every card; never shown);
    ``deck`` the pack as dealt (index 0 = top); ``actions`` the codes applied, in order, and
    ``seats`` who applied each.
    """

    def __init__(
        self,
        players: int,
        team_size: int | None,
        dealer: int,
        deck: Sequence[Card],
        thani: bool = False,
        cot: bool = False,
    ) -> None:
        players, team_size = check_mode(players, team_size, dealer)
        if sorted(c.index for c in deck) != sorted(c.index for c in pack(players)):
            raise ValueError(f"The deck must hold each card of the {players}-player pack once")
        if not isinstance(thani, bool) or not isinstance(cot, bool):
            raise ValueError("The options thani and cot are True or False")
        self.players = players
        self.team_size = team_size
        self.n_teams = players // team_size
        self.dealer = dealer
        self.thani_option = thani
        self.cot_option = cot
        self.deck: tuple[Card, ...] = tuple(deck)
        self.state = K.State.new(players, team_size, dealer, [c.index for c in deck], thani, cot)
        self.actions: list[str] = []
        self.seats: list[int] = []

    # ----------------------------------------------------------------- queries
    @property
    def phase(self) -> str:
        """``"bidding" | "trump" | "raising" | "playing" | "finished"``."""
        return K.PHASES[self.state.phase]

    @property
    def to_act(self) -> int | None:
        """The seat to act (the bidder during ``"trump"``), None once finished."""
        return self.state.to_act if self.state.to_act >= 0 else None

    @property
    def tricks_total(self) -> int:
        """Tricks in a deal: 8 (6 in 6 trios)."""
        return self.state.total_tricks

    def team_of(self, seat: int) -> int:
        """The team of a seat: ``seat % number of teams`` (3 players: the seat itself)."""
        return seat % self.n_teams

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds (the face-down trump card is in no hand until exposed)."""
        return [CARDS[c] for c in self.state.hand(seat)]

    @property
    def tricks(self) -> list[Trick]:
        """The finished tricks, in order."""
        return [
            Trick(lead, tuple((s, CARDS[c]) for s, c in plays), win, pts)
            for lead, plays, win, pts in self.state.tricks
        ]

    def legal_actions(self) -> list[str]:
        """Every legal code of the seat to act, sorted ([] once finished)."""
        return sorted(code_of(a) for a in self.state.legal())

    # ----------------------------------------------------------------- changes
    def apply(self, code: str) -> None:
        """Carry out ``code`` for the seat to act, or raise :class:`IllegalMove` (a
        ``ValueError`` with a sentence for that player) and change nothing."""
        kind, arg = parse_code(code)
        action = self._action_int(kind, arg)
        if action is None or action not in self.state.legal():
            raise self._refusal(kind, arg)
        seat = self.state.to_act
        self.state.apply(action)
        self.actions.append(code)
        self.seats.append(seat)

    @staticmethod
    def _action_int(kind: str, arg: int) -> int | None:
        if kind == "play":
            return arg
        if kind == "trump":
            return K.TRUMP + arg
        if kind in ("bid", "raise"):
            return (K.BID if kind == "bid" else K.RAISE) + arg if arg <= 28 else None
        return {"pass": K.PASS, "expose": K.EXPOSE, "thani": K.THANI}[kind]

    def _refusal(self, kind: str, arg: int) -> IllegalMove:
        """Why ``kind``/``arg`` is refused, as a sentence for the seat to act. Only the bidder
        can be told anything about the face-down trump (the others' options never depend on
        it, so their refusals never need to mention it)."""
        st = self.state
        phase = self.phase
        if phase == "finished":
            return IllegalMove("The deal is over.", "finished")
        expected = {
            "bidding": ("bid", "pass"),
            "trump": ("trump",),
            "raising": ("raise", "pass", "thani"),
            "playing": ("play", "expose"),
        }[phase]
        if kind not in expected:
            hints = {
                "bidding": "The auction is on: bid or pass.",
                "trump": "The bidder must now lay a trump card face down.",
                "raising": "The bidding side may now raise, pass (or declare Thani).",
                "playing": "The cards are being played: play a card.",
            }
            return IllegalMove(hints[phase], "wrong_phase", phase=phase, kind=kind)
        if phase == "bidding":
            return self._bid_refusal(kind, arg)
        if phase == "trump":
            return IllegalMove(
                f"You don't hold the {CARDS[arg].name}.", "not_in_hand", card=K.CODES[arg]
            )
        if phase == "raising":
            if kind == "thani":
                if not st.thani_option:
                    return IllegalMove("Thani is not played at this table.", "no_thani")
                return IllegalMove("Only the bidder may declare Thani.", "thani_bidder_only")
            if K.raise_floor(st.n, st.contract) > 28 and st.n == 6:
                return IllegalMove(
                    "There is no raising in 6 trios: pass or declare Thani.", "no_raise"
                )
            low = max(24, st.contract + 1)
            if arg > 28:
                return IllegalMove("The highest possible contract is 28.", "bid_too_high", max=28)
            return IllegalMove(
                f"A raise must be at least 24 and above the contract ({st.contract}).",
                "raise_too_low",
                min=low,
                contract=st.contract,
            )
        return self._play_refusal(kind, arg)

    def _bid_refusal(self, kind: str, arg: int) -> IllegalMove:
        st = self.state
        low, _ = st.bid_floor()
        if kind == "pass":
            return IllegalMove(
                f"The first speaker must bid: at least {low}.", "must_bid", min=low
            )
        if arg > 28:
            return IllegalMove("The highest possible bid is 28.", "bid_too_high", max=28)
        if low > 28:
            return IllegalMove(
                f"The bid is {st.high}: you can only pass.", "only_pass", high=st.high
            )
        if st.high and arg > st.high:
            return IllegalMove(
                "To overbid your partner you must bid at least 20.",
                "partner_rule",
                min=low,
                high=st.high,
            )
        if st.high:
            return IllegalMove(
                f"Your bid must be higher than {st.high}.", "bid_too_low", min=low, high=st.high
            )
        return IllegalMove(
            f"The opening bid must be at least {low}.", "bid_too_low", min=low, high=0
        )

    def _play_refusal(self, kind: str, arg: int) -> IllegalMove:
        st = self.state
        seat = st.to_act
        hand = st.hand(seat)
        led = SUITS[K.SUIT[st.trick[0][1]]] if st.trick else None
        if kind == "expose":
            if not st.face_down:
                return IllegalMove("The trump is already exposed.", "already_exposed")
            if led is None:
                return IllegalMove(
                    "You lead this trick: you may ask for the trump only when you cannot "
                    "follow the suit led.",
                    "leader_cannot_call",
                )
            return IllegalMove(
                f"You hold a {SUIT_SINGULAR[led]}: you may ask for the trump only when you "
                "cannot follow suit.",
                "cannot_call",
                suit=led,
            )
        if seat == st.bidder and st.face_down and not hand:
            # only the bidder is ever told this, and the bidder knows the card
            return IllegalMove(
                "Your last card is the face-down trump: expose it.", "must_expose"
            )
        if arg not in hand:
            return IllegalMove(
                f"You don't hold the {CARDS[arg].name}.", "not_in_hand", card=K.CODES[arg]
            )
        if st.called:  # the trump is exposed by now: public
            trump = SUITS[st.trump]
            return IllegalMove(
                f"You asked for the trump: you must play a trump ({SUIT_NAMES[trump]}).",
                "must_trump",
                suit=trump,
            )
        if led is None:  # only the bidder is ever restricted when leading
            return IllegalMove(
                "The bidder may not lead a trump before it is exposed.", "trump_lead"
            )
        return IllegalMove(
            f"You must follow suit: you hold a {SUIT_SINGULAR[led]}.", "follow_suit", suit=led
        )

    # ----------------------------------------------------------------- results
    def result(self) -> DealResult:
        """The score of the finished deal; ValueError while it is being played."""
        st = self.state
        if st.phase != K.FINISHED:
            raise ValueError("The deal is not finished")
        if st.redeal:
            zero = [0] * self.n_teams
            return DealResult(zero, list(zero), None, None, None, False, False, True)
        gp, made, doubled = st.settlement()
        return DealResult(
            points=list(st.points),
            game_points=list(gp),
            winner=st.winner(),
            bidder=st.bidder,
            contract=st.contract,
            made=made,
            thani=st.thani,
            redeal=False,
            cot=doubled,
        )

    # ----------------------------------------------------------------- views
    def trump_visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` may know the trump card: the bidder once it is laid, everyone
        once it is exposed."""
        st = self.state
        if st.trump < 0:
            return False
        return not st.face_down or (seat is not None and seat == st.bidder)

    def last_trick_json(self) -> dict[str, Any] | None:
        """The public view's ``last_trick`` alone (the same dict), without the rest of the
        view: the table service reads it after every move to tell whether a trick ended."""
        return self.tricks[-1].to_json() if self.tricks else None

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see, as a JSON-serialisable dict (``None``: a spectator). Never in
        it: another hand, the pack's order, the second batch, and for anyone but the bidder
        the face-down trump card or its suit (see the rules file for the keys). ``hand`` is
        sorted by suit, highest first, the trump suit first for a seat that may know it (the
        bidder once it is laid, everyone once exposed): the order never tells the others."""
        st = self.state
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players
        ):
            raise ValueError(f"No seat {seat!r} at a table of {self.players}")
        mine = seat is not None and seat == st.to_act
        actions = sorted(st.legal(), key=code_of) if mine else []
        sees_trump = self.trump_visible_to(seat)
        tricks = [t.to_json() for t in self.tricks]
        trump = SUITS[st.trump] if sees_trump else None
        # the trump suit leads the hand only for a seat that may know it: another seat's
        # order must not change with the face-down card
        hand = (sorted_hand((K.CODES[c] for c in st.hand(seat)), RANKS,
                            [trump] if trump else [])
                if seat is not None else [])
        shown: set[str] = set(hand)
        for t in tricks:
            shown.update(code for _, code in t["plays"])
        shown.update(K.CODES[c] for _, c in st.trick)
        trump_card = K.CODES[st.trump_card] if sees_trump else None
        if trump_card is not None:
            shown.add(trump_card)
        playing = st.phase == K.PLAYING
        return {
            "seat": seat,
            "players": self.players,
            "team_size": self.team_size,
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": self.to_act,
            "teams": [self.team_of(s) for s in range(self.players)],
            "n_teams": self.n_teams,
            "hand": hand,
            "hand_sizes": [sum(map(len, h)) for h in st.hands],
            "bids": [{"seat": s, "bid": b or None} for s, b in st.bids],
            "bidder": st.high_seat if st.high_seat >= 0 else None,
            "contract": (st.contract or st.high) or None,
            "raises": [
                {"seat": s, "bid": "thani" if b < 0 else (b or None)} for s, b in st.raises
            ],
            "thani": st.thani,
            "trump_face_down": st.face_down,
            "trump": trump,
            "trump_card": trump_card,
            "exposed": st.exposed_by >= 0,
            "exposed_by": st.exposed_by if st.exposed_by >= 0 else None,
            "exposed_in_trick": st.exposed_in if st.exposed_in >= 0 else None,
            "trick": {
                "leader": st.leader if playing else None,
                "plays": [[s, K.CODES[c]] for s, c in st.trick],
            },
            "tricks": tricks,
            "tricks_total": st.total_tricks,
            "last_trick": tricks[-1] if tricks else None,
            "points": list(st.points),
            "legal": [code_of(a) for a in actions],
            "moves": [move_json(a) for a in actions],
            "card_points": {code: Card.parse(code).points for code in sorted(shown)},
            "result": self.result().to_json() if st.phase == K.FINISHED else None,
        }

    # ----------------------------------------------------------------- replay
    def to_record(self) -> dict[str, Any]:
        """Everything needed to rebuild this state: mode, dealer, options, deck, actions."""
        return {
            "players": self.players,
            "team_size": self.team_size,
            "dealer": self.dealer,
            "thani": self.thani_option,
            "cot": self.cot_option,
            "deck": [c.code for c in self.deck],
            "actions": list(self.actions),
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Deal:
        """Rebuild a deal from :meth:`to_record` output by replaying its actions."""
        deal = new_deal(
            int(record["players"]),
            int(record["team_size"]),
            int(record["dealer"]),
            deck=record["deck"],
            thani=bool(record.get("thani", False)),
            cot=bool(record.get("cot", False)),
        )
        for code in record["actions"]:
            deal.apply(code)
        return deal

    def copy(self) -> Deal:
        """An independent copy."""
        other = object.__new__(Deal)
        other.__dict__.update(self.__dict__)
        other.state = self.state.copy()
        other.actions = list(self.actions)
        other.seats = list(self.seats)
        return other


def new_deal(
    players: int,
    team_size: int | None = None,
    dealer: int = 0,
    *,
    deck: Iterable[Card | str] | None = None,
    seed: int | None = None,
    thani: bool = False,
    cot: bool = False,
) -> Deal:
    """Deal a new hand of Twenty-Eight.

    ``deck``: exactly the mode's pack (Card objects or canonical codes), index 0 = top; without
    it the pack is shuffled from ``seed`` (same seed, same deal). ValueError for an invalid
    mode, dealer, deck or option value.
    """
    players, team_size = check_mode(players, team_size, dealer)
    if deck is not None:
        if isinstance(deck, str):
            raise ValueError("The deck is a sequence of card codes, not one string")
        cards = [Card.parse(c) for c in deck]
    else:
        cards = shuffled_pack(players, seed)
    return Deal(players, team_size, dealer, cards, thani=thani, cot=cot)
