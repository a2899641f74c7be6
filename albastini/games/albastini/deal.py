"""One deal of Albastini: dealing, bidding for trump, the rounds, drawing, and scoring.

A :class:`Deal` is a pure state machine. ``legal_actions()`` lists the codes of what the seat to
act may do (sorted, as in every game), ``apply(code)`` does it or raises :class:`IllegalMove`
leaving the state unchanged, and ``view(seat)`` gives the JSON-serializable picture that seat is
allowed to see.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, Self

from ..hands import sorted_hand
from .actions import Action, Bid, Pass, Play, parse_action
from .cards import PACK, RANKS, SUIT_NAMES, Card, beats, shuffled_pack
from .kernel import HAND, bidders

HAND_SIZE = HAND
Phase = Literal["bidding", "playing", "finished"]

#: (players, team_size) of the eight table modes.
MODES: dict[str, tuple[int, int]] = {
    "2": (2, 1),
    "3": (3, 1),
    "4 solo": (4, 1),
    "4 pairs": (4, 2),
    "5": (5, 1),
    "6 solo": (6, 1),
    "6 pairs": (6, 2),
    "6 trios": (6, 3),
}


def mode_name(players: int, team_size: int) -> str:
    """The mode's name ("4 pairs", "5", "6 trios"...) for a player count and team size."""
    for name, spec in MODES.items():
        if spec == (players, team_size):
            return name
    raise ValueError(f"No Albastini mode for {players} players in teams of {team_size}")


class IllegalMove(ValueError):
    """An action the rules do not allow now. ``str(exc)`` is a sentence a player can read.

    ``reason`` is a short stable code (``"not_your_turn"``, ``"suit_taken"``, ``"not_in_hand"``,
    ``"bidding"``, ``"playing"``, ``"finished"``, ``"not_bidder"``; ``"bad_code"`` for a code
    that names no action, as in every game) and ``details`` the values
    the message mentions, so another layer can say the same in another language.
    """

    def __init__(self, message: str, reason: str = "illegal", **details: Any) -> None:
        super().__init__(message)
        self.reason = reason
        self.details = details


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished round: who led, the cards in play order, who ate it."""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int

    @property
    def points(self) -> int:
        """Card points in this round."""
        return sum(card.points for _, card in self.plays)

    def to_json(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "plays": [[seat, card.code] for seat, card in self.plays],
            "winner": self.winner,
            "points": self.points,
        }


@dataclass(frozen=True, slots=True)
class DealResult:
    """The score of a finished deal.

    ``points``: card points eaten per team. ``winner``: the team with the most points, None on a
    tie for the top. ``victory_points``: what the winner scores (0 on a tie). ``threshold``: the
    points every side needed to hold the winner to 1 VP (10 per player in the side).
    ``lowest``: the team that ate the fewest points. ``leftover``: with 5 players, the face-up
    card that was never drawn and counts for nobody (why the points add up to less than 120);
    None in every other mode. It is public: it lay face up under the stock all deal. Its JSON
    form adds ``leftover_points``, that card's points (0 without one), so a reader of the view
    can say what was left over without knowing what a card is worth.
    """

    points: tuple[int, ...]
    winner: int | None
    victory_points: int
    threshold: int
    lowest: int
    leftover: Card | None = None

    @property
    def game_points(self) -> tuple[int, ...]:
        """What the deal scores for each team in the match: the winner's victory points, 0 for
        every other team (the games' common name for a deal's score)."""
        return tuple(
            self.victory_points if team == self.winner else 0 for team in range(len(self.points))
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "points": list(self.points),
            "winner": self.winner,
            "game_points": list(self.game_points),
            "victory_points": self.victory_points,
            "threshold": self.threshold,
            "lowest": self.lowest,
            "leftover": self.leftover.code if self.leftover is not None else None,
            "leftover_points": self.leftover.points if self.leftover is not None else 0,
        }


def score(points: Sequence[int], team_size: int) -> DealResult:
    """Victory points for card points per team: a tie for the top scores nothing; otherwise the
    top side scores 1 VP when every side ate at least 10 per member, else 2 VP."""
    top = max(points)
    threshold = 10 * team_size
    lowest = min(range(len(points)), key=lambda t: points[t])
    if sum(1 for p in points if p == top) > 1:
        return DealResult(tuple(points), None, 0, threshold, lowest)
    winner = points.index(top)
    vp = 1 if min(points) >= threshold else 2
    return DealResult(tuple(points), winner, vp, threshold, lowest)


class Deal:
    """One deal at a table of ``players`` seats numbered clockwise from 0.

    Build one with :func:`new_deal`. Attributes: ``players``, ``team_size``, ``dealer``,
    ``teams`` (number of sides), ``deck`` (the pack as dealt, index 0 = top), ``tricks``
    (finished rounds), ``current`` (the round in progress), ``bids`` (seat, card or None for a
    pass, in speaking order), ``indicator`` (the trump card turned after bidding), ``exchange``
    (seat, bid card, indicator taken) when a trump bidder exchanged, ``actions`` (the log).
    """

    def __init__(self, players: int, team_size: int, dealer: int, deck: Sequence[Card]) -> None:
        mode_name(players, team_size)  # validates the mode
        if not 0 <= dealer < players:
            raise ValueError(f"Dealer must be a seat from 0 to {players - 1}, got {dealer}")
        if len(deck) != len(PACK) or set(deck) != set(PACK):
            raise ValueError("The deck must hold each of the 36 cards exactly once")
        self.players = players
        self.team_size = team_size
        self.teams = players // team_size
        self.dealer = dealer
        self.deck: tuple[Card, ...] = tuple(deck)
        n = players
        self._hands: list[list[Card]] = [[] for _ in range(n)]
        for i in range(HAND_SIZE * n):
            self._hands[(dealer + 1 + i) % n].append(deck[i])
        self.indicator_card: Card = deck[HAND_SIZE * n]
        # Cards still to draw, in drawing order; the face-up card joins the end after bidding.
        self._stock: list[Card] = list(deck[HAND_SIZE * n + 1 :])
        # the dealer's opponents, clockwise from the dealer's left
        self.bidders: tuple[int, ...] = bidders(n, self.teams, dealer)
        self.bids: list[tuple[int, Card | None]] = []
        self.trump: str | None = None
        self.indicator: Card | None = None
        self.face_up: Card | None = None
        self.face_up_drawn_by: int | None = None
        self.exchange: tuple[int, Card, Card] | None = None
        self.tricks: list[Trick] = []
        self.current: list[tuple[int, Card]] = []
        self.leader: int = (dealer + 1) % n
        self.phase: Phase = "bidding"
        self.to_act: int | None = self.bidders[0]
        self.actions: list[Action] = []
        self._eaten = [0] * self.teams
        self.rounds_total = (len(PACK) - 1) // n if n == 5 else len(PACK) // n

    # ----------------------------------------------------------------- queries
    def team_of(self, seat: int) -> int:
        """The side a seat plays for: ``seat % number_of_teams``."""
        return seat % self.teams

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds (a bid card lying on the table is not in the hand)."""
        return list(self._hands[seat])

    @property
    def stock_size(self) -> int:
        """Cards still to be drawn, the face-up card included (before bidding: the indicator)."""
        return len(self._stock) + (1 if self.phase == "bidding" else 0)

    @property
    def bid_suits(self) -> set[str]:
        """Suits bid so far in this deal."""
        return {card.suit for _, card in self.bids if card is not None}

    def points(self) -> list[int]:
        """Card points eaten so far, per team."""
        return list(self._eaten)

    def winning(self) -> int | None:
        """The seat winning the round in progress, None when no card is down."""
        if not self.current:
            return None
        best_seat, best = self.current[0]
        for seat, card in self.current[1:]:
            if beats(card, best, self.trump):
                best_seat, best = seat, card
        return best_seat

    def legal_actions(self) -> list[str]:
        """The code of every move the seat to act may make now, sorted (empty once the deal is
        finished): the platform's one interface, as every game's ``legal_actions``."""
        return sorted(action.code for action in self.actions_allowed())

    def actions_allowed(self) -> list[Action]:
        """Every action the seat to act may take now, as :data:`Action` objects in the hand's
        order, bids before the pass (empty once the deal is finished)."""
        if self.phase == "finished" or self.to_act is None:
            return []
        hand = self._hands[self.to_act]
        if self.phase == "playing":
            return [Play(card) for card in hand]
        taken = self.bid_suits
        bids: list[Action] = [Bid(card) for card in hand if card.suit not in taken]
        return [*bids, Pass()]

    def check(self, action: Action, seat: int | None = None) -> None:
        """Raise :class:`IllegalMove` if ``action`` is not allowed now; change nothing.

        ``seat``: who is trying (optional); a seat other than the one to act is refused.
        """
        if self.phase == "finished":
            raise IllegalMove("The deal is over.", "finished")
        if seat is not None and seat != self.to_act:
            if self.phase == "bidding" and seat not in self.bidders:
                raise IllegalMove(
                    "Only the dealer's opponents bid in this deal: wait for the play.",
                    "not_bidder",
                    seat=seat,
                    to_act=self.to_act,
                )
            raise IllegalMove(
                f"It is not your turn: seat {self.to_act} is to act.",
                "not_your_turn",
                seat=seat,
                to_act=self.to_act,
            )
        seat = self.to_act
        assert seat is not None
        if isinstance(action, Play):
            if self.phase == "bidding":
                raise IllegalMove(
                    "Bidding is not over yet: bid a card or pass.", "bidding"
                )
            if action.card not in self._hands[seat]:
                raise IllegalMove(
                    f"You don't hold the {action.card.name}.", "not_in_hand", card=action.card.code
                )
            return
        if isinstance(action, Bid | Pass):
            if self.phase != "bidding":
                raise IllegalMove("Bidding is over: play a card.", "playing")
            if isinstance(action, Bid):
                if action.card not in self._hands[seat]:
                    raise IllegalMove(
                        f"You don't hold the {action.card.name}.",
                        "not_in_hand",
                        card=action.card.code,
                    )
                suit = action.card.suit
                if suit in self.bid_suits:
                    raise IllegalMove(
                        f"Bids must be in a suit nobody has bid yet: {SUIT_NAMES[suit]} is taken.",
                        "suit_taken",
                        suit=suit,
                    )
            return
        raise IllegalMove(f"Not an action: {action!r}", "bad_code")

    # ----------------------------------------------------------------- changes
    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Carry out ``action`` (or its code, e.g. ``"play:7H"``) for the seat to act.

        Raises :class:`IllegalMove` with a readable message and leaves the state unchanged when
        the rules forbid it. ``seat``, when given, must be the seat to act.
        """
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except ValueError as exc:
                raise IllegalMove(str(exc), "bad_code") from None
        self.check(action, seat)
        seat = self.to_act
        assert seat is not None
        self.actions.append(action)
        if isinstance(action, Play):
            self._play(seat, action.card)
        elif isinstance(action, Bid):
            self._hands[seat].remove(action.card)
            self.bids.append((seat, action.card))
            self._next_bidder()
        else:
            self.bids.append((seat, None))
            self._next_bidder()

    def _next_bidder(self) -> None:
        if len(self.bids) < len(self.bidders):
            self.to_act = self.bidders[len(self.bids)]
            return
        indicator = self.indicator_card
        self.indicator = indicator
        self.trump = indicator.suit
        face_up = indicator
        for seat, card in self.bids:
            if card is None:
                continue
            if card.suit == self.trump:
                self._hands[seat].append(indicator)
                self.exchange = (seat, card, indicator)
                face_up = card
            else:
                self._hands[seat].append(card)
        self.face_up = face_up
        self._stock.append(face_up)
        self.phase = "playing"
        self.to_act = self.leader

    def _play(self, seat: int, card: Card) -> None:
        self._hands[seat].remove(card)
        self.current.append((seat, card))
        n = self.players
        if len(self.current) < n:
            self.to_act = (seat + 1) % n
            return
        winner = self.winning()
        assert winner is not None
        trick = Trick(self.leader, tuple(self.current), winner)
        self.tricks.append(trick)
        self._eaten[winner % self.teams] += trick.points
        self.current = []
        if len(self._stock) >= n:
            for k in range(n):
                drawer = (winner + k) % n
                card_drawn = self._stock.pop(0)
                self._hands[drawer].append(card_drawn)
                if not self._stock and card_drawn is self.face_up:
                    self.face_up = None
                    self.face_up_drawn_by = drawer
        if not self._hands[winner]:
            self.phase = "finished"
            self.to_act = None
        else:
            self.leader = winner
            self.to_act = winner

    # ----------------------------------------------------------------- results
    @property
    def leftover(self) -> Card | None:
        """5 players: the face-up card, never drawn and counted for nobody."""
        return self.face_up if self.players == 5 and self.phase != "bidding" else None

    def result(self) -> DealResult:
        """The score of the finished deal, with the card left over (5 players); ValueError
        while it is still being played."""
        if self.phase != "finished":
            raise ValueError("The deal is not finished")
        return replace(score(self._eaten, self.team_size), leftover=self.leftover)

    # ----------------------------------------------------------------- views
    def last_trick_json(self) -> dict[str, Any] | None:
        """The public view's ``last_trick`` alone (the same dict), without the rest of the
        view: the table service reads it after every move to tell whether a trick ended."""
        return self.tricks[-1].to_json() if self.tricks else None

    def view(self, seat: int | None, history: bool = False) -> dict[str, Any]:
        """What ``seat`` may know, as a JSON-serializable dict; ``seat=None`` is the public view.

        Other hands and the order of the stock never appear. ``history=True`` adds every finished
        round (``tricks``), the action log (``log``: [seat, code] pairs) and who drew the face-up
        card, all of them public.

        The view is the only thing the Discord layer reads: every fact a text or a picture
        needs is here, so no other layer recomputes a rule. Besides the state of the deal
        (``phase``, ``to_act``, ``hand``, ``bids``, ``current``, ``last_trick``...), it carries:

        ``hand``
            the seat's cards as a player holds them: by suit, the trump suit first once the
            indicator is turned, highest first (:func:`albastini.games.hands.sorted_hand`).
        ``team_of``
            the side of every seat, by seat: ``team_of[seat]`` (``teams`` is how many sides).
        ``bidders``
            the seats that bid in this deal, in speaking order (the dealer's opponents); the
            others wait for the play.
        ``face_up_never_drawn``
            True when the face-up card under the stock is never drawn in this deal (5 players:
            it lies there to the end and counts for nobody), False when the last drawer takes it.
        ``moves``
            the seat's legal moves, one dict per code of ``legal`` in the same order:
            ``{"code": "play:7H", "kind": "play", "card": "7H", "trump": False}``; ``kind`` is
            ``"bid"``, ``"pass"`` or ``"play"``, ``card`` the card the move puts down (None for
            a pass), ``trump`` whether that card is of the trump suit. Empty when it is not the
            seat's turn (and always for the public view).
        ``card_points``
            ``{code: card points}`` for every card this view shows (own hand, bids, the turned
            indicator, the face-up card, the exchange, the round in progress, the last round,
            with ``history`` every finished round) and for no other card: a hidden card never
            appears, not even as a key here.

        The ``log`` (with ``history``) lists the bids and passes first, then every play in
        order; the finished rounds' ``plays`` say where each round ends (a round is as many
        plays as its ``plays`` list, the ones after the last of them are the round in
        progress). ``result.leftover_points`` are the card points of the card left over.
        """
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"No seat {seat} at a table of {self.players}")
        last = self.tricks[-1].to_json() if self.tricks else None
        won = [0] * self.players
        for trick in self.tricks:
            won[trick.winner] += 1
        actions = (sorted(self.actions_allowed(), key=lambda a: a.code)
                   if seat is not None and seat == self.to_act else [])
        legal = [a.code for a in actions]
        exchange = None
        if self.exchange is not None:
            ex_seat, gave, took = self.exchange
            exchange = {"seat": ex_seat, "gave": gave.code, "took": took.code}
        out: dict[str, Any] = {
            "players": self.players,
            "team_size": self.team_size,
            "teams": self.teams,
            "seat": seat,
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": self.to_act,
            "hand": self._hand_codes(seat),
            "hand_sizes": [len(h) for h in self._hands],
            "stock": self.stock_size,
            "trump": self.trump,
            "indicator": self.indicator.code if self.indicator else None,
            "face_up": self.face_up.code if self.face_up else None,
            "bids": [
                {"seat": s, "card": c.code if c is not None else None} for s, c in self.bids
            ],
            "exchange": exchange,
            "round": min(len(self.tricks) + 1, self.rounds_total),
            "rounds_total": self.rounds_total,
            "leader": self.leader if self.phase != "finished" else None,
            "current": [[s, c.code] for s, c in self.current],
            "winning": self.winning(),
            "last_trick": last,
            "tricks_won": won,
            "legal": legal,
            "result": self.result().to_json() if self.phase == "finished" else None,
            "team_of": [self.team_of(s) for s in range(self.players)],
            "bidders": list(self.bidders),
            "face_up_never_drawn": self.face_up_never_drawn,
            "moves": [self._move_json(a) for a in actions],
        }
        if history:
            out["tricks"] = [t.to_json() for t in self.tricks]
            out["log"] = self._public_log()
            out["face_up_drawn_by"] = self.face_up_drawn_by
        out["card_points"] = {c.code: c.points for c in self._shown(seat, history)}
        return out

    def _hand_codes(self, seat: int | None) -> list[str]:
        """``seat``'s hand as its view lists it (:func:`.hands.sorted_hand`): by suit, the
        trump suit first once the indicator is turned (public), highest first."""
        if seat is None:
            return []
        trumps = [self.trump] if self.trump is not None else []
        return sorted_hand((c.code for c in self._hands[seat]), RANKS, trumps)

    @property
    def face_up_never_drawn(self) -> bool:
        """Whether the face-up card stays under the stock all deal: the stock (face-up card
        included) is drawn a whole round of draws at a time, so with a remainder (5 players:
        11 cards, two rounds of 5) the face-up card, drawn last, is never reached."""
        return (len(PACK) - HAND_SIZE * self.players) % self.players != 0

    def _move_json(self, action: Action) -> dict[str, Any]:
        """One legal move for the view: its code, its kind and the card it puts down."""
        if isinstance(action, Pass):
            return {"code": action.code, "kind": "pass", "card": None, "trump": False}
        kind = "bid" if isinstance(action, Bid) else "play"
        card = action.card
        return {"code": action.code, "kind": kind, "card": card.code,
                "trump": card.suit == self.trump}

    def _shown(self, seat: int | None, history: bool) -> list[Card]:
        """Every card the view of ``seat`` shows (see :meth:`view`), in no particular order."""
        shown: list[Card] = list(self._hands[seat]) if seat is not None else []
        shown += [c for _, c in self.bids if c is not None]
        shown += [c for c in (self.indicator, self.face_up) if c is not None]
        if self.exchange is not None:
            shown += self.exchange[1:]
        shown += [c for _, c in self.current]
        rounds = self.tricks if history else self.tricks[-1:]
        shown += [c for trick in rounds for _, c in trick.plays]
        if self.phase == "finished" and self.leftover is not None:
            shown.append(self.leftover)
        return shown

    def _public_log(self) -> list[list[Any]]:
        log: list[list[Any]] = []
        bid_i = 0
        for action in self.actions:
            if isinstance(action, Bid | Pass):
                log.append([self.bids[bid_i][0], action.code])
                bid_i += 1
        for trick in self.tricks:
            log.extend([s, f"play:{c.code}"] for s, c in trick.plays)
        log.extend([s, f"play:{c.code}"] for s, c in self.current)
        return log

    # ----------------------------------------------------------------- replay
    def to_record(self) -> dict[str, Any]:
        """Everything needed to rebuild this exact state: mode, dealer, deck and actions."""
        return {
            "players": self.players,
            "team_size": self.team_size,
            "dealer": self.dealer,
            "deck": [c.code for c in self.deck],
            "actions": [a.code for a in self.actions],
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Self:
        """Rebuild a deal from :meth:`to_record` output by replaying its actions."""
        deal = cls(
            int(record["players"]),
            int(record.get("team_size", 1)),
            int(record.get("dealer", 0)),
            [Card.parse(c) for c in record["deck"]],
        )
        for code in record.get("actions", []):
            deal.apply(code)
        return deal

    def copy(self) -> Self:
        """An independent copy (for search): changing it leaves this deal alone."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._hands = [list(h) for h in self._hands]
        other._stock = list(self._stock)
        other.bids = list(self.bids)
        other.tricks = list(self.tricks)
        other.current = list(self.current)
        other.actions = list(self.actions)
        other._eaten = list(self._eaten)
        return other


def new_deal(
    players: int,
    team_size: int = 1,
    dealer: int = 0,
    *,
    deck: Iterable[Card | str] | None = None,
    seed: int | None = None,
) -> Deal:
    """Deal a new hand of Albastini.

    ``deck``: the 36 cards (Card objects or codes), index 0 = the top of the pack; dealt one at a
    time clockwise from the dealer's left. Without it the pack is shuffled from ``seed`` (the same
    seed always gives the same deal).
    """
    cards = [Card.parse(c) for c in deck] if deck is not None else shuffled_pack(seed)
    return Deal(players, team_size, dealer, cards)
