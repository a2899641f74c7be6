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
from .games.albastini.cards import Card
from .games.albastini.deal import MODES, Deal, IllegalMove
from .games.albastini.match import Match
from .terminal import cli
from .terminal.presenter import Presenter, presenter
from .terminal.texts import Texts
from .terminal.words import Names

Chooser = Callable[[dict[str, Any]], Action]


class Quit(Exception):
    """The player asked to stop (``q`` or end of input)."""


def load_player(level: str, seed: int, out: TextIO, tr: Texts) -> tuple[Chooser, str]:
    """A computer player's ``choose`` for ``level``; uniform random when ``albastini.ai`` is
    not there (or does not know the level). Returns it with the level actually used."""
    try:
        ai: Any = importlib.import_module("albastini.ai")
        player = ai.make_player(level, seed=seed)
    except ImportError:
        pass
    except ValueError as exc:
        print(tr("albastini.random_players", reason=exc), file=out)
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
        shows: Presenter,
    ) -> None:
        self.shows = shows
        self.tr = shows.tr
        deal = match.deal
        self.names = Names(deal.players, tuple(deal.team_of(s) for s in range(deal.players)),
                           human, self.tr)
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
        """``"You"``, ``"Seat 2"``, ``"Seat 3 (partner)"``."""
        return self.names.seat(seat)

    def side(self, team: int) -> str:
        """A seat alone, or ``"Team A (seats 1, 3, you)"``."""
        return self.names.side(team)

    def scores(self) -> str:
        parts = [self.tr("albastini.vp", side=self.side(t), vp=vp)
                 for t, vp in enumerate(self.match.scores)]
        return self.tr("albastini.scores", scores=" · ".join(parts), target=self.match.target)

    # ------------------------------------------------------------------ the table
    def show(self, view: dict[str, Any]) -> None:
        tr = self.tr
        trump = view["trump"]
        head = tr("albastini.head", deal=self.match.deal_no, name=self.name(view["dealer"]))
        if trump:
            face = tr("albastini.head.face_up", card=view["face_up"]) if view["face_up"] else ""
            head += " · " + tr("albastini.head.trump", suit=tr(f"suit.{trump}"), code=trump,
                               face_up=face)
        head += " · " + tr("albastini.head.stock", count=view["stock"])
        self.say()
        self.say(head)
        self.say(tr("score", scores=self.scores()))
        if view["bids"]:
            bids = ", ".join(self.bid_text(b, view) for b in view["bids"])
            self.say(tr("albastini.bids", bids=bids))
        if view["last_trick"]:
            last = view["last_trick"]
            cards = " ".join(c for _, c in last["plays"])
            self.say(tr("albastini.last", cards=cards, name=self.name(last["winner"])))
        if view["phase"] == "playing":
            table = " · ".join(f"{self.name(s)} {c}" for s, c in view["current"]) or tr(
                "albastini.empty")
            if view["winning"] is not None:
                table += " — " + tr("albastini.winning", name=self.name(view["winning"]))
            self.say(tr("albastini.round", round=view["round"], total=view["rounds_total"],
                        plays=table))
        sizes = ", ".join(
            f"{self.name(s)} {n}" for s, n in enumerate(view["hand_sizes"]) if s != view["seat"]
        )
        self.say(tr("table.hands", hands=sizes))
        if view["seat"] is not None:
            self.say(tr("table.hand", cards=" ".join(view["hand"])))

    def bid_text(self, bid: dict[str, Any], view: dict[str, Any]) -> str:
        """``"Seat 1 5C (exchanged for the 3C)"``, ``"Seat 3 4S (returned)"``, ``"You pass"``."""
        text = f"{self.name(bid['seat'])} {bid['card'] or self.tr('albastini.pass')}"
        if bid["card"] and view["phase"] != "bidding":
            exchange = view["exchange"]
            if exchange and exchange["gave"] == bid["card"]:
                text += " " + self.tr("albastini.exchanged", card=exchange["took"])
            else:
                text += " " + self.tr("albastini.returned")
        return text

    def menu(self, view: dict[str, Any]) -> list[Action]:
        actions = [parse_action(code) for code in view["legal"]]
        items = []
        for i, action in enumerate(actions, 1):
            if isinstance(action, Pass):
                items.append(f"{i}) {self.tr('albastini.pass')}")
            elif isinstance(action, Bid):
                items.append(f"{i}) {self.tr('albastini.bid', card=action.card)}")
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
            return self.tr("albastini.no_choice", number=number, count=len(actions))
        low = text.lower()
        if low in ("p", "pass"):
            return Pass() if bidding else self.tr("albastini.bidding_over")
        try:
            if ":" in low:
                return parse_action(low)
            card = Card.parse(text)
        except ValueError:
            return self.tr("albastini.not_a_move", text=repr(text), count=len(actions))
        return Bid(card) if bidding else Play(card)

    def ask(self, seat: int) -> Action:
        deal = self.match.deal
        view = deal.view(seat, history=True)
        self.show(view)
        what = "bid" if deal.phase == "bidding" else "play"
        actions = self.menu(view)
        while True:
            try:
                text = self.read(self.tr(f"albastini.prompt.{what}"))
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
                self.say(self.tr("refuse.again", reason=self.shows.refusal(exc)))
                continue
            return choice

    # ------------------------------------------------------------------ the story
    def narrate(self, deal: Deal, seat: int, action: Action, before: dict[str, Any]) -> None:
        tr, does = self.tr, self.names.does
        if isinstance(action, Pass):
            self.say(does("albastini.said.pass", seat))
        elif isinstance(action, Bid):
            self.say(does("albastini.said.bid", seat, card=action.card,
                          suit=tr(f"suit.{action.card.suit}")))
        else:
            self.say(does("story.play", seat, card=action.card))
        if before["phase"] == "bidding" and deal.phase == "playing":
            assert deal.indicator is not None and deal.trump is not None
            self.say(tr("albastini.indicator", card=deal.indicator, suit=tr(f"suit.{deal.trump}")))
            if deal.exchange is not None:
                ex_seat, gave, took = deal.exchange
                self.say(does("albastini.exchange", ex_seat, took=took, gave=gave))
            self.say(tr("albastini.face_up_last", card=deal.face_up))
        if len(deal.tricks) > len(before["tricks"]):
            trick = deal.tricks[-1]
            self.say(does("albastini.eats", trick.winner))
            if deal.stock_size < before["stock"]:
                drawn = (tr.n("albastini.left", deal.stock_size) if deal.stock_size
                         else tr("albastini.stock_empty"))
                self.say(tr("albastini.draws", name=self.name(trick.winner), drawn=drawn))
                if deal.face_up_drawn_by is not None and before["face_up"]:
                    self.say(does("albastini.draws_face_up", deal.face_up_drawn_by,
                                  card=before["face_up"]))

    def end_of_deal(self) -> None:
        tr = self.tr
        deal = self.match.deal
        result = deal.result()
        eaten = ", ".join(f"{self.side(t)} {p}" for t, p in enumerate(result.points))
        self.say()
        self.say(tr("albastini.over", deal=self.match.deal_no, points=eaten))
        if deal.leftover is not None:
            self.say(tr("albastini.leftover", card=deal.leftover))
        if result.winner is None:
            self.say(tr("albastini.tie"))
        else:
            why = tr(("albastini.why.losing_" if deal.team_size == 3 else "albastini.why.")
                     + ("all" if result.victory_points == 1 else "few"),
                     threshold=result.threshold)
            self.say(self.names.side_does("albastini.scores_vp", result.winner,
                                          vp=result.victory_points, why=why))
        self.say(tr("score", scores=self.scores()))

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
                self.say("\n" + self.tr("albastini.next_deal", name=self.name(deal.dealer)))
        except Quit:
            self.say("\n" + self.tr("bye"))
            return 1
        if self.match.finished and not self.one_deal:
            winner = self.match.winner
            assert winner is not None
            self.say(self.names.side_does("match.wins", winner))
        return 0

    def play_deal(self) -> None:
        deal = self.match.deal
        bidders = ", ".join(self.name(s) for s in deal.bidders)
        self.say("\n" + self.tr("albastini.deals", name=self.name(deal.dealer),
                                 bidders=bidders))
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
    lang = cli.lang_named(argv)
    shows = presenter("albastini", lang)
    tr = shows.tr
    parser = cli.parser_for(
        "albastini",
        mode="4 pairs",
        level="heuristic",
        level_help=tr("albastini.help.level"),
        typing=tr("albastini.typing"),
        lang=lang,
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
            computers[seat], level = load_player(level, seed * 16 + seat, stream, tr)
    print(tr("first_line", game=shows.title, mode=args.mode, seed=seed, level=level,
             terms=tr("albastini.terms", target=args.target)), file=stream)
    table = Table(
        match, human, computers, one_deal=args.one_deal, delay=args.delay,
        read=cli.reader(stream), out=stream, shows=shows,
    )
    return table.play()


if __name__ == "__main__":
    sys.exit(main())
