"""Adding a game is one rules package and one presenter module: nothing else changes.

A copy of the project gets a toy game (a two-card-per-player trick game) as
``albastini/games/toy/`` and ``cogs/games/toy.py``, and nothing else. In that copy, the toy game
is one of ``GAMES`` (last, after the games already hosted, whose rules pages keep their
numbers), a choice of every command's ``game`` option, a table the table service opens, fills
with computers and plays to the end of a match over a real SQLite store, and its table, hand,
buttons and picture are drawn by the same renderer as every game.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from cogs.games import GAME_NAMES, first_rules_page

ROOT = Path(__file__).resolve().parents[1]

TOY_RULES = '''
"""Toy: two players, four cards, two tricks; the higher card of the suit led wins."""

import random
from dataclasses import dataclass
from typing import Any

NAME = "toy"
ORDER = 99
RANKS = "AK"
MODES = {"2": {"players": 2, "team_size": 1}}
LEVELS = ("easy", "normal", "hard")
PACK = ["AS", "KS", "AH", "KH"]


class IllegalMove(ValueError):
    def __init__(self, message: str, reason: str = "illegal", **details: Any) -> None:
        super().__init__(message)
        self.reason, self.details = reason, details


@dataclass
class Result:
    points: tuple[int, ...]
    winner: int | None
    game_points: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"points": list(self.points), "winner": self.winner,
                "game_points": list(self.game_points)}


class Deal:
    def __init__(self, players: int, team_size: int, dealer: int, seed: int | None) -> None:
        cards = list(PACK)
        random.Random(seed).shuffle(cards)
        self.players, self.team_size, self.dealer = players, team_size, dealer
        self.hands = [cards[0::2], cards[1::2]]
        self.current: list[list[Any]] = []
        self.tricks: list[dict[str, Any]] = []
        self.log: list[list[Any]] = []
        self.won = [0, 0]
        self.to_act: int | None = (dealer + 1) % 2
        self.phase = "playing"

    def team_of(self, seat: int) -> int:
        return seat

    def legal_actions(self) -> list[str]:
        if self.to_act is None:
            return []
        return sorted("play:" + c for c in self.hands[self.to_act])

    def apply(self, code: str) -> None:
        if code not in self.legal_actions():
            raise IllegalMove("That is not a move.", "not_in_hand")
        seat = self.to_act
        card = code.partition(":")[2]
        self.hands[seat].remove(card)
        self.current.append([seat, card])
        self.log.append([seat, code])
        if len(self.current) < 2:
            self.to_act = 1 - seat
            return
        (s0, c0), (s1, c1) = self.current
        winner = s1 if c1[1] == c0[1] and RANKS.index(c1[0]) < RANKS.index(c0[0]) else s0
        self.won[winner] += 1
        self.tricks.append({"plays": self.current, "winner": winner, "points": 1})
        self.current = []
        self.to_act = winner if self.hands[winner] else None
        if self.to_act is None:
            self.phase = "finished"

    def result(self) -> Result:
        winner = 0 if self.won[0] > self.won[1] else 1 if self.won[1] > self.won[0] else None
        return Result(tuple(self.won), winner,
                      tuple(1 if t == winner else 0 for t in range(2)))

    def view(self, seat: int | None) -> dict[str, Any]:
        mine = seat is not None and seat == self.to_act
        legal = self.legal_actions() if mine else []
        return {
            "players": 2, "teams": 2, "team_size": 1, "team_of": [0, 1], "seat": seat,
            "dealer": self.dealer, "phase": self.phase, "to_act": self.to_act,
            "hand": list(self.hands[seat]) if seat is not None else [],
            "hand_sizes": [len(h) for h in self.hands], "current": self.current,
            "winning": self.current[0][0] if self.current else None, "leader": self.to_act,
            "last_trick": self.tricks[-1] if self.tricks else None,
            "round": len(self.tricks) + 1, "rounds_total": 2, "tricks": self.tricks,
            "tricks_won": list(self.won), "log": self.log, "legal": legal,
            "moves": [{"code": c, "kind": "play", "card": c[5:]} for c in legal],
            "card_points": {}, "result": self.result().to_json() if self.phase == "finished"
            else None,
        }


def new_deal(players: int, team_size: int = 1, dealer: int = 0, *, seed: int | None = None
             ) -> Deal:
    return Deal(players, team_size, dealer, seed)


class Match:
    def __init__(self, players: int, team_size: int, target: int, dealer: int, *,
                 seed: int | None = None, deal_seed: int | None = None) -> None:
        self.target, self.results = target, []
        self.deal = new_deal(players, team_size, dealer, seed=deal_seed)

    @property
    def scores(self) -> list[int]:
        done = self.results + ([self.deal.result()] if self.deal.phase == "finished" else [])
        return [sum(r.game_points[t] for r in done) for t in range(2)]

    @property
    def finished(self) -> bool:
        return max(self.scores) >= self.target

    @property
    def winner(self) -> int | None:
        return self.scores.index(max(self.scores)) if self.finished else None

    def next_dealer(self) -> int:
        return 1 - self.deal.dealer

    def next_deal(self, *, seed: int | None = None) -> Deal:
        self.results.append(self.deal.result())
        self.deal = new_deal(2, 1, self.next_dealer(), seed=seed)
        return self.deal


class Player:
    def __init__(self, seed: int | None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any]) -> str:
        return str(self.rng.choice(view["legal"]))


def make_player(level: str, seed: int | None = None) -> Player:
    return Player(seed)


def decide(level: str, view: dict[str, Any], seed: int | None = None) -> str:
    return make_player(level, seed).choose(view)
'''

TOY_PRESENTER = '''
"""How the toy game looks: its cards, a one-line summary, plain buttons."""

from collections.abc import Hashable, Sequence
from typing import Any

from albastini.games.interface import game
from cogs.render import cards
from cogs.render.presenter import ButtonStyle, ResultTable, View, score_as_is, single_use_options

NAME = "toy"
RULES_PAGES = 1
ACCENT = 0x808080
_RULES = game(NAME)
shown_score = score_as_is


def card_label(code: str) -> str:
    return cards.pack_card_label(code, _RULES.ranks, "Toy")


def score_text(lang: str, score: int) -> str:
    return f"{score} points"


def target_text(lang: str, target: int) -> str | None:
    return f"First to {target}"


def table_facts(lang: str, view: View) -> list[str]:
    return []


def spoken_facts(lang: str, view: View, names: Sequence[str]) -> list[str]:
    return []


def result_table(lang: str, result: View, side_names: Sequence[str]) -> ResultTable:
    return ResultTable(("Points",), tuple((str(p),) for p in result["points"]))


def table_lines(lang: str, view: View, names: Sequence[str]) -> list[str]:
    return []


def deal_summary(lang: str, result: View, side_names: Sequence[str], *, deal_no: int,
                 team_size: int | None) -> str:
    return f"Deal {deal_no}: " + ", ".join(
        f"{side_names[i]} {p}" for i, p in enumerate(result["points"]))


def hand_header(lang: str, view: View, names: Sequence[str]) -> str:
    return "Toy hand"


def hand_shows(view: View) -> Hashable:
    return None


def action_text(lang: str, code: str, by: str | None) -> str:
    return f"{by or 'You'}: {card_label(code.partition(':')[2])}"


def refusal(lang: str, rule: str, details: View) -> str | None:
    return None


def card_button(lang: str, card: str, move: View | None, *, moves: Sequence[View],
                points: int) -> tuple[str, ButtonStyle]:
    return card_label(card), "primary" if move else "secondary"


def move_button(lang: str, move: View) -> tuple[str, ButtonStyle]:
    return str(move["code"]), "secondary"


card_moves, option_label, option_group = single_use_options(card_label, move_button)


def front_cards(view: View) -> list[tuple[int, str]]:
    return [(int(s), str(c)) for s, c in view.get("current") or []]


def draw_centre(layout: Any, lang: str, view: View, names: Sequence[str]) -> None:
    return None
'''

CHECK = '''
import asyncio
import sys
import tempfile
from pathlib import Path

from albastini.games import GAMES
from albastini.session import TableService
from albastini.store import SQLiteStore
from albastini.timers import ManualClock
from cogs import render
from cogs.games import GAME_NAMES, first_rules_page, presenter, rules_page
from cogs.ui import buttons, texts, views
from cogs.ui.choices import GAME_CHOICES

assert list(GAMES)[-1] == "toy" and GAME_NAMES[-1] == "toy", list(GAMES)
assert [c.value for c in GAME_CHOICES][-1] == "toy"
# the rules pages of the games already hosted keep their numbers (Rules buttons carry them)
for arg in sys.argv[1:]:
    name, page = arg.split("=")
    assert first_rules_page(name) == int(page), (name, first_rules_page(name), page)
toy_page = first_rules_page("toy")
assert rules_page(toy_page)[0] == "toy" and toy_page > max(
    first_rules_page(n) for n in GAME_NAMES[:-1])


async def main() -> None:
    folder = Path(tempfile.mkdtemp())
    store = await SQLiteStore.open(folder / "toy.db")
    svc = TableService(store, clock=ManualClock(), computer_pause=0.0, deal_pause=0.0)
    await svc.start()
    table = await svc.open_table(1, 100, 10, "Host", players=2, target=2, computer_level="easy",
                                 language="en", game="toy")
    table = await svc.fill_computers(table.id, 10)
    await svc.start_match(table.id, 10)
    shows = presenter("toy")
    for _ in range(200):
        if table.status != "running":
            break
        view = table.view_for(10)
        names = texts.seat_names(table, "en")
        public = table.public_view()
        text = render.table_text(public, names, "en", deal_no=table.deal_no,
                                 scores=list(table.scores()), target=table.target, shows=shows)
        assert "Toy" in text or "deal" in text.lower(), text
        assert render.table_picture(public, names, "en", shows=shows)[:2] == b"\\xff\\xd8"
        assert len(render.describe_table(public, names, "en", shows=shows)) <= render.ALT_LIMIT
        if view and view.get("legal"):
            specs = views.hand_buttons({**view, "move_no": table.move_no}, table.id, "en",
                                       shows=shows)
            enabled = [s for s in specs if not s.disabled and s.custom_id.startswith("alb:m:")]
            assert enabled, specs
            pressed = buttons.parse(enabled[0].custom_id)
            assert pressed is not None and pressed.action in view["legal"]
            await svc.act(table.id, 10, table.move_no, pressed.action)
        else:
            await svc.wait_idle()
    await svc.wait_idle()
    assert table.status == "finished", table.status
    stats = await store.user_stats(1, 10, game="toy")
    assert stats.matches_played == 1
    await svc.close()
    await store.close()
    print("toy played to the end")


asyncio.run(main())
'''


def test_a_fifth_game_needs_its_package_and_its_presenter_only(tmp_path: Path) -> None:
    copy = tmp_path / "project"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for part in ("albastini", "cogs"):
        shutil.copytree(ROOT / part, copy / part, ignore=ignore)
    (copy / "albastini" / "games" / "toy").mkdir()
    (copy / "albastini" / "games" / "toy" / "__init__.py").write_text(
        textwrap.dedent(TOY_RULES), encoding="utf-8")
    (copy / "cogs" / "games" / "toy.py").write_text(
        textwrap.dedent(TOY_PRESENTER), encoding="utf-8")
    # nothing else differs from the project
    changed = {p.relative_to(copy).as_posix() for p in copy.rglob("*.py")} - {
        p.relative_to(ROOT).as_posix() for p in ROOT.joinpath("albastini").rglob("*.py")} - {
        p.relative_to(ROOT).as_posix() for p in ROOT.joinpath("cogs").rglob("*.py")}
    assert changed == {"albastini/games/toy/__init__.py", "cogs/games/toy.py"}
    pages = [f"{name}={first_rules_page(name)}" for name in GAME_NAMES]
    done = subprocess.run([sys.executable, "-c", CHECK, *pages], cwd=copy, capture_output=True,
                          text=True, timeout=300, env={"PYTHONPATH": str(copy)})
    assert done.returncode == 0, done.stderr[-3000:]
    assert "toy played to the end" in done.stdout
    # and it plays in the terminal, through the presenter every game without its own gets
    terminal = subprocess.run(
        [sys.executable, "-m", "albastini", "--game", "toy", "--auto", "--one-deal", "--seed",
         "1", "--level", "easy"],
        cwd=copy, capture_output=True, text=True, timeout=120, env={"PYTHONPATH": str(copy)},
    )
    assert terminal.returncode == 0, terminal.stderr[-3000:]
    assert "Deal 1 over." in terminal.stdout and "the trick" in terminal.stdout
