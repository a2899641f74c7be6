"""Play Albastini in a terminal against computer players.

    python -m albastini --mode "4 pairs" --target 5 --seat 1 --seed 7
    python -m albastini --mode 3 --one-deal --level greedy
    python -m albastini --mode "6 trios" --auto          # watch computer players
    python -m albastini --game twentyeight               # another game (albastini.terminal)

Seats are counted from 1, as on Discord. On your turn, type a card code (``7H``), a number from
the menu, ``pass`` while bidding, ``?`` for the table again or ``q`` to quit. Computer players
come from ``albastini.ai.make_player`` when it is importable, otherwise they choose uniformly
among the legal actions. The command line is every game's (:mod:`albastini.terminal.cli`).
"""

from __future__ import annotations

import importlib
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from . import terminal
from .games.albastini.actions import Action, Bid, Pass, Play, parse_action
from .games.albastini.cards import SUIT_NAMES, Card
from .games.albastini.deal import MODES, Deal, IllegalMove
from .games.albastini.match import Match
from .terminal import cli

Chooser = Callable[[dict[str, Any]], Action]


class Quit(Exception):
    """The player asked to stop (``q`` or end of input)."""


def load_player(level: str, seed: int, out: TextIO) -> tuple[Chooser, str]:
    """A computer player's ``choose`` for ``level``; uniform random when ``albastini.ai`` is
    not there (or does not know the level). Returns it with the level actually used."""
    try:
        ai: Any = importlib.import_module("albastini.ai")
        player = ai.make_player(level, seed=seed)
    except ImportError:
        pass
    except ValueError as exc:
        print(f"({exc}; computer players choose at random)", file=out)
    else:
        return player.choose, level
    rng = random.Random(seed)

    def choose(view: dict[str, Any]) -> Action:
        return parse_action(rng.choice(view["legal"]))

    return choose, "random"


class Table:
    """One terminal session: a match (or a single deal), a human seat or none."""

    def __init__(
        self,
        match: Match,
        human: int | None,
        players: dict[int, Chooser],
        *,
        one_deal: bool,
        delay: float,
        read: Callable[[str], str],
        out: TextIO,
    ) -> None:
        self.match = match
        self.human = human
        self.players = players
        self.one_deal = one_deal
        self.delay = delay
        self.read = read
        self.out = out

    # ------------------------------------------------------------------ words
    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def name(self, seat: int) -> str:
        deal = self.match.deal
        label = "You" if seat == self.human else f"Seat {seat + 1}"
        if self.human is not None and seat != self.human and deal.team_size > 1:
            same = deal.team_of(seat) == deal.team_of(self.human)
            label += " (partner)" if same else ""
        return label

    def verb(self, seat: int, third: str, second: str) -> str:
        """``"You play"`` or ``"Seat 2 plays"``."""
        return f"{self.name(seat)} {second if seat == self.human else third}"

    def side(self, team: int) -> str:
        deal = self.match.deal
        if deal.team_size == 1:
            return self.name(team)
        seats = [s for s in range(deal.players) if deal.team_of(s) == team]
        mine = self.human is not None and deal.team_of(self.human) == team
        listed = ", ".join(str(s + 1) for s in seats)
        return f"Team {'ABC'[team]} (seats {listed}{', you' if mine else ''})"

    def scores(self) -> str:
        parts = [f"{self.side(t)} {vp} VP" for t, vp in enumerate(self.match.scores)]
        return " · ".join(parts) + f" (to {self.match.target})"

    # ------------------------------------------------------------------ the table
    def show(self, view: dict[str, Any]) -> None:
        trump = view["trump"]
        head = f"Deal {self.match.deal_no} · dealer: {self.name(view['dealer'])}"
        if trump:
            face = f", face-up {view['face_up']}" if view["face_up"] else ""
            head += f" · trump: {SUIT_NAMES[trump]} ({trump}{face})"
        head += f" · stock: {view['stock']}"
        self.say()
        self.say(head)
        self.say("Score: " + self.scores())
        if view["bids"]:
            bids = ", ".join(self.bid_text(b, view) for b in view["bids"])
            self.say(f"Bids: {bids}")
        if view["last_trick"]:
            last = view["last_trick"]
            cards = " ".join(c for _, c in last["plays"])
            self.say(f"Last round: {cards} — eaten by {self.name(last['winner'])}")
        if view["phase"] == "playing":
            table = " · ".join(f"{self.name(s)} {c}" for s, c in view["current"]) or "(empty)"
            if view["winning"] is not None:
                table += f" — winning: {self.name(view['winning'])}"
            self.say(f"Round {view['round']}/{view['rounds_total']}: {table}")
        sizes = ", ".join(
            f"{self.name(s)} {n}" for s, n in enumerate(view["hand_sizes"]) if s != view["seat"]
        )
        self.say(f"Cards in hand: {sizes}")
        if view["seat"] is not None:
            hand = " ".join(view["hand"])
            self.say(f"Your hand: {hand}")

    def bid_text(self, bid: dict[str, Any], view: dict[str, Any]) -> str:
        """``"Seat 1 5C (exchanged for the 3C)"``, ``"Seat 3 4S (returned)"``, ``"You pass"``."""
        text = f"{self.name(bid['seat'])} {bid['card'] or 'pass'}"
        if bid["card"] and view["phase"] != "bidding":
            exchange = view["exchange"]
            if exchange and exchange["gave"] == bid["card"]:
                text += f" (exchanged for the {exchange['took']})"
            else:
                text += " (returned)"
        return text

    def menu(self, view: dict[str, Any]) -> list[Action]:
        actions = [parse_action(code) for code in view["legal"]]
        items = []
        for i, action in enumerate(actions, 1):
            if isinstance(action, Pass):
                items.append(f"{i}) pass")
            elif isinstance(action, Bid):
                items.append(f"{i}) bid {action.card}")
            else:
                items.append(f"{i}) {action.card}")
        self.say("  ".join(items))
        return actions

    def parse(self, text: str, actions: Sequence[Action], bidding: bool) -> Action | str:
        """The action ``text`` names, or a sentence saying why it names none."""
        text = text.strip()
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(actions):
                return actions[number - 1]
            return f"There is no choice {number}: type a number from 1 to {len(actions)}."
        low = text.lower()
        if low in ("p", "pass"):
            return Pass() if bidding else "Bidding is over: play a card."
        try:
            if ":" in low:
                return parse_action(low)
            card = Card.parse(text)
        except ValueError:
            return (
                f"{text!r} is not a card or a choice: type a card code like 7H or QS, "
                f"or a number from 1 to {len(actions)}."
            )
        return Bid(card) if bidding else Play(card)

    def ask(self, seat: int) -> Action:
        deal = self.match.deal
        view = deal.view(seat, history=True)
        self.show(view)
        what = "Bid a card or pass" if deal.phase == "bidding" else "Play a card"
        actions = self.menu(view)
        while True:
            try:
                text = self.read(f"{what} (number, card code, ? or q): ")
            except EOFError:
                raise Quit from None
            if text.strip().lower() in ("q", "quit", "exit"):
                raise Quit
            if text.strip() in ("?", "h", "help", ""):
                self.show(view)
                self.menu(view)
                continue
            choice = self.parse(text, actions, deal.phase == "bidding")
            if isinstance(choice, str):
                self.say(choice)
                continue
            try:
                deal.check(choice, seat)
            except IllegalMove as exc:
                self.say(f"{exc} Try again.")
                continue
            return choice

    # ------------------------------------------------------------------ the story
    def narrate(self, deal: Deal, seat: int, action: Action, before: dict[str, Any]) -> None:
        if isinstance(action, Pass):
            self.say(f"{self.verb(seat, 'passes', 'pass')}.")
        elif isinstance(action, Bid):
            suit = SUIT_NAMES[action.card.suit]
            self.say(f"{self.verb(seat, 'bids', 'bid')} {action.card} ({suit}).")
        else:
            self.say(f"{self.verb(seat, 'plays', 'play')} {action.card}.")
        if before["phase"] == "bidding" and deal.phase == "playing":
            assert deal.indicator is not None and deal.trump is not None
            self.say(
                f"The dealer turns the indicator {deal.indicator}: "
                f"{SUIT_NAMES[deal.trump]} are trumps."
            )
            if deal.exchange is not None:
                ex_seat, gave, took = deal.exchange
                self.say(
                    f"{self.verb(ex_seat, 'bid', 'bid')} that suit and must exchange: "
                    f"the {took} goes to hand, the {gave} lies face up."
                )
            self.say(f"The face-up card {deal.face_up} will be drawn last.")
        if len(deal.tricks) > len(before["tricks"]):
            trick = deal.tricks[-1]
            self.say(f"{self.verb(trick.winner, 'eats', 'eat')} the round.")
            if deal.stock_size < before["stock"]:
                drawn = f"{deal.stock_size} left" if deal.stock_size else "the stock is empty"
                self.say(f"Everyone draws, {self.name(trick.winner)} first ({drawn}).")
                if deal.face_up_drawn_by is not None and before["face_up"]:
                    taker = self.verb(deal.face_up_drawn_by, "draws", "draw")
                    self.say(f"{taker} the face-up {before['face_up']}.")

    def end_of_deal(self) -> None:
        deal = self.match.deal
        result = deal.result()
        eaten = ", ".join(f"{self.side(t)} {p}" for t, p in enumerate(result.points))
        self.say()
        self.say(f"Deal {self.match.deal_no} over. Card points: {eaten}.")
        if deal.leftover is not None:
            self.say(f"The left-over face-up {deal.leftover} counts for nobody.")
        if result.winner is None:
            self.say("A tie for the most points: no victory points.")
        else:
            why = (
                f"every side ate at least {result.threshold}"
                if result.victory_points == 1
                else f"a side ate fewer than {result.threshold}"
            )
            if deal.team_size == 3:
                why = why.replace("every side", "the losing side").replace(
                    "a side", "the losing side"
                )
            vp = result.victory_points
            scores = "score" if result.winner == self.human and deal.team_size == 1 else "scores"
            self.say(f"{self.side(result.winner)} {scores} {vp} VP ({why}).")
        self.say("Score: " + self.scores())

    # ------------------------------------------------------------------ the loop
    def play(self) -> int:
        """Play until the match (or the single deal) is over; 0, or 1 when the player quit."""
        try:
            while True:
                self.play_deal()
                self.end_of_deal()
                if self.one_deal or self.match.finished:
                    break
                deal = self.match.next_deal()
                self.say(f"\nNext deal, dealt by {self.name(deal.dealer)}.")
        except Quit:
            self.say("\nBye.")
            return 1
        if self.match.finished and not self.one_deal:
            winner = self.match.winner
            assert winner is not None
            you = self.human is not None and self.match.deal.team_of(self.human) == winner
            wins = "win" if you and self.match.team_size == 1 else "wins"
            self.say(f"{self.side(winner)} {wins} the match!")
        return 0

    def play_deal(self) -> None:
        deal = self.match.deal
        bidders = ", ".join(self.name(s) for s in deal.bidders)
        self.say(f"\n{self.name(deal.dealer)} deals 5 cards each. Bidding: {bidders}.")
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            if seat == self.human:
                action = self.ask(seat)
            else:
                action = self.players[seat](deal.view(seat, history=True))
                if self.delay:
                    time.sleep(self.delay)
            before = {
                "phase": deal.phase,
                "tricks": list(deal.tricks),
                "stock": deal.stock_size,
                "face_up": deal.face_up,
            }
            deal.apply(action, seat)
            self.narrate(deal, seat, action, before)


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
    """Parse the command line and play; returns the exit status. ``--game`` other than
    albastini plays that game in :mod:`albastini.terminal`."""
    if cli.game_named(argv) != "albastini":
        return terminal.main(argv, out=out)
    parser = cli.parser_for(
        "albastini",
        mode="4 pairs",
        level="heuristic",
        level_help="computer players: random, greedy, heuristic (default), search; "
        "or easy/normal/hard",
        typing="a card code (7H), a number from the menu, pass while bidding",
    )
    args = parser.parse_args(argv)
    stream = out or sys.stdout
    players, team_size = MODES[args.mode]
    human_seat, dealer, seed = cli.check_seats(parser, args, players)
    match = Match(players, team_size, target=args.target, dealer=dealer, seed=seed)
    human = None if args.auto else human_seat
    computers: dict[int, Chooser] = {}
    level = args.level
    for seat in range(players):
        if seat != human:
            computers[seat], level = load_player(level, seed * 16 + seat, stream)
    print(
        f"Albastini · {args.mode} · first to {args.target} VP · seed {seed} · "
        f"computer players: {level}",
        file=stream,
    )
    table = Table(
        match, human, computers, one_deal=args.one_deal, delay=args.delay,
        read=cli.reader(stream), out=stream,
    )
    return table.play()


if __name__ == "__main__":
    sys.exit(main())
