"""The Discord layer holds no rule of any game: it reads the view, and nothing else of a game.

Two halves: an AST scan of every module under ``cogs/`` for imports of a game's internals, and
texts and buttons built from views whose facts differ from what Albastini's rules would say, so
a cog that recomputed a rule instead of reading the view would show the difference.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path
from typing import Any

import pytest

from albastini import new_deal
from albastini.games import GAMES
from cogs import render
from cogs.games import presenter
from cogs.ui import buttons as ids
from cogs.ui import texts, views

ALB = presenter("albastini")

COGS = Path(__file__).resolve().parents[2] / "cogs"

# What the Discord layer may import from the project: the table service and what it hands out
# (tables, events, store records, settings), the process helpers the courier and the painter run
# on, the registry of games and the one interface every game is seen through (a game's modes,
# options, ranks). Never a game's rules.
ALLOWED = {
    "albastini.table",
    "albastini.events",
    "albastini.store",
    "albastini.session",
    "albastini.config",
    "albastini.timers",
    "albastini.workers",
    "albastini.games.interface",
}
REGISTRY = "albastini.games"


def project_imports(path: Path) -> list[tuple[int, str, list[str]]]:
    """(line, module, names) of every import of the ``albastini`` package in a source file,
    inside functions and ``if TYPE_CHECKING`` blocks too."""
    found: list[tuple[int, str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name, []) for a in node.names
                      if a.name.split(".")[0] == "albastini"]
        elif (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
              and node.module.split(".")[0] == "albastini"):
            found.append((node.lineno, node.module, [a.name for a in node.names]))
    return found


def forbidden(module: str, names: list[str]) -> bool:
    if module == REGISTRY:
        return names != ["GAMES"]  # the registry itself, not a game package through it
    return not any(module == m or module.startswith(m + ".") for m in ALLOWED)


def test_no_cog_imports_a_games_rules() -> None:
    sources = sorted(COGS.rglob("*.py"))
    assert len(sources) > 10  # the scan really reads the cogs
    bad = [
        f"{path.relative_to(COGS.parent)}:{line}: {module} {names or ''}".rstrip()
        for path in sources
        for line, module, names in project_imports(path)
        if forbidden(module, names)
    ]
    assert bad == []


# --------------------------------------------------------------------------- each game in one place
#: Each game's presentation module: the only place of cogs/ that knows how that game looks.
PRESENTERS = sorted(p for p in (COGS / "games").glob("*.py") if p.name != "__init__.py")
GENERIC = sorted(p for p in COGS.rglob("*.py") if p not in PRESENTERS)


def _string_constants(path: Path) -> list[tuple[int, str]]:
    """(line, value) of every string literal of a module but its docstrings (f-strings' literal
    parts included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings]


def _code_kinds() -> set[str]:
    """The kind of every action code the games make (``play``, ``bid``, ``capture``...), read
    from random deals of every game in every mode."""
    kinds: set[str] = set()
    rng = random.Random(3)
    for package in GAMES.values():
        for mode in package.MODES.values():
            deal = package.new_deal(mode["players"], mode["team_size"], 0, seed=rng.getrandbits(32))
            while deal.phase != "finished":
                legal = deal.legal_actions()
                kinds.update(code.partition(":")[0] for code in legal)
                deal.apply(rng.choice(legal))
    return kinds


def game_knowledge(path: Path, kinds: set[str]) -> list[str]:
    """Where a module spells a game's name or the shape of a game's codes in a string: a token
    that is a game's name (``"cassino.chooser.back"``, ``"albastini"``), a code or a code's kind
    (``"pass"``, ``"play:7H"``, ``"capture"``; a two-letter word alone, as Ass's ``"go"``, is no
    evidence: the Start button's id says ``go`` too)."""
    found = []
    for line, value in _string_constants(path):
        tokens = set(re.split(r"[^A-Za-z0-9_]+", value))
        kind = value.partition(":")[0]
        if tokens & set(GAMES) or (value in kinds and len(value) > 2) or (
                ":" in value and kind in kinds):
            found.append(f"{path.name}:{line}: {value!r}")
    return found


def test_no_game_is_named_and_no_code_is_spelled_outside_its_presenter() -> None:
    """A game's name, its moves' codes and their kinds appear in its presenter only: the rest
    of cogs/ asks the registry (cogs/games/__init__.py), which reads them from GAMES."""
    kinds = _code_kinds()
    assert {"play", "bid", "pass", "capture", "go"} <= kinds  # the scan knows real codes
    assert PRESENTERS and len(GENERIC) > 10
    bad = [where for path in GENERIC for where in game_knowledge(path, kinds)]
    assert bad == []


def test_the_scan_finds_a_game_or_a_code_where_it_is(tmp_path: Path) -> None:
    kinds = _code_kinds()
    for source, found in [
        ('KEY = "cassino.chooser.back"', True), ('ORDER = ("trail", "capture")', True),
        ('X = "play:" + card', True), ('f"choice.game.{game}"', False), ('GAME = "ass"', True),
        ('"""A docstring may name Cassino and pass."""', False), ('TEXT = "class passes"', False),
    ]:
        path = tmp_path / "cog.py"
        path.write_text(source + "\n", encoding="utf-8")
        assert bool(game_knowledge(path, kinds)) == found, source


def _game_defaults(path: Path) -> list[str]:
    """Every parameter called ``game`` (or ``game_name``) that has a default value."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        args = node.args
        positional = [*args.posonlyargs, *args.args]
        with_default = positional[len(positional) - len(args.defaults):] if args.defaults else []
        with_default += [a for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)
                         if d is not None]
        found += [f"{path.name}:{a.lineno} {a.arg}" for a in with_default
                  if a.arg in ("game", "shows")]
    return found


def test_no_game_parameter_has_a_default() -> None:
    """A caller that forgets the game gets an error, never another game's table. (A command's
    optional ``game`` option is the parameter ``game_name``, renamed for Discord, and reads
    None as the bot's first game, explicitly.)"""
    assert _game_defaults(COGS / "ui" / "texts.py") == []
    bad = [where for path in sorted(COGS.rglob("*.py")) for where in _game_defaults(path)]
    assert bad == []
    sample = Path(__file__).with_name("_sample.py")
    try:
        sample.write_text("def f(a, game='x'):\n    pass\n", encoding="utf-8")
        assert _game_defaults(sample) == ["_sample.py:1 game"]
    finally:
        sample.unlink()


def _runtime_imports(path: Path) -> set[str]:
    """The modules of cogs/ a module imports when it runs (inside functions too; not under
    ``if TYPE_CHECKING``): ``from cogs.ui import buttons`` is ``cogs.ui.buttons``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    typing_only = {
        id(child) for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for stmt in node.body for child in ast.walk(stmt)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("cogs")}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (
                node.module or "").startswith("cogs"):
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if _module_path(sub) is not None else str(node.module))
    return found


def _module_path(name: str) -> Path | None:
    base = COGS.parent.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


def _module_name(path: Path) -> str:
    parts = path.relative_to(COGS.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_the_renderer_imports_no_presenter_and_cogs_has_no_import_loop() -> None:
    """The renderer is handed the presenter it draws with; no module of cogs/ imports one that
    imports it back, at any depth, inside a function or not."""
    graph = {_module_name(p): _runtime_imports(p) for p in sorted(COGS.rglob("*.py"))}
    render = [name for name in graph if name.startswith("cogs.render")]
    assert len(render) >= 5
    assert [(name, dep) for name in render for dep in graph[name]
            if dep.startswith("cogs.games")] == []
    loops = []
    for start in graph:
        stack, seen = [(start, [start])], set()
        while stack:
            name, route = stack.pop()
            for dep in graph.get(name, ()):
                if dep == start:
                    loops.append(" -> ".join([*route, dep]))
                elif dep not in seen:
                    seen.add(dep)
                    stack.append((dep, [*route, dep]))
    assert loops == []


def test_long_modules_say_why() -> None:
    """No module of cogs/ over 500 lines without the reason in its docstring."""
    long = []
    for path in sorted(COGS.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        doc = ast.get_docstring(ast.parse(text)) or ""
        if text.count("\n") > 500 and "lines because" not in " ".join(doc.split()):
            long.append(path.name)
    assert long == []


@pytest.mark.parametrize(
    ("source", "refused"),
    [
        ("from albastini.games.albastini.deal import MODES", True),
        ("from albastini.games.albastini import Card", True),
        ("import albastini.games.albastini.cards", True),
        ("from albastini import new_deal", True),
        ("import albastini", True),
        ("from albastini.games import albastini", True),
        ("from albastini.ai import make_player", True),
        ("if TYPE_CHECKING:\n    from albastini.games.albastini.deal import Deal", True),
        ("def f():\n    from albastini import PACK", True),
        ("from albastini.games import GAMES", False),
        ("from albastini.table import Table", False),
        ("from albastini.store import PlayerStats", False),
        ("from albastini.storehouse import x", True),
        ("from cogs import render", False),
    ],
)
def test_the_scan_tells_allowed_from_forbidden(tmp_path: Path, source: str,
                                               refused: bool) -> None:
    path = tmp_path / "cog.py"
    path.write_text(source + "\n", encoding="utf-8")
    assert any(forbidden(m, n) for _, m, n in project_imports(path)) == refused


# --------------------------------------------------------------------------- facts from the view
NAMES = ["@Neema", "@Baraka", "@Juma", "@Amina"]


def bidding_view(seat: int) -> dict[str, Any]:
    """Seat ``seat``'s view of a 4-pairs deal being bid, dealer 0 (seats 1 and 3 bid)."""
    return new_deal(4, 2, 0, seed=11).view(seat)


def test_who_bids_comes_from_the_view() -> None:
    view = bidding_view(1)
    assert view["bidders"] == [1, 3]
    assert "dealer's side" not in render.hand_text(view, "en", NAMES, shows=ALB)
    # a view that says seat 1 does not bid is shown so, whatever seat 1's side is
    assert "dealer's side" in render.hand_text({**view, "bidders": [3]}, "en", NAMES, shows=ALB)
    seat2 = bidding_view(2)
    assert "dealer's side" not in render.hand_text({**seat2, "bidders": [1, 2]}, "en", NAMES,
                                                   shows=ALB)


def test_a_face_up_card_never_drawn_is_what_the_view_says() -> None:
    deal = new_deal(4, 2, 0, seed=11)
    for _ in range(2):  # seats 1 and 3, the bidders, pass
        deal.apply("pass")
    view = deal.view(None)
    assert view["face_up"] and not view["face_up_never_drawn"]
    shown = render.table_text(view, NAMES, "en", deal_no=1, scores=[0, 0], target=5, shows=ALB)
    assert "never drawn" not in shown
    told = render.table_text({**view, "face_up_never_drawn": True}, NAMES, "en", deal_no=1,
                             scores=[0, 0], target=5, shows=ALB)
    assert "never drawn" in told
    five = new_deal(5, 1, 0, seed=11)
    while five.phase == "bidding":
        five.apply("pass")
    assert five.view(None)["face_up_never_drawn"]


def test_rounds_end_where_the_views_rounds_end() -> None:
    """The hand's "since your last move" line marks a round eaten after the plays the view's
    finished round lists, not after a count of players."""
    view = {
        "seat": 0, "players": 2,
        "log": [[0, "play:AS"], [1, "play:7S"], [0, "play:KH"], [1, "play:3D"],
                [1, "play:QH"]],
        "tricks": [{"plays": [[0, "AS"], [1, "7S"], [0, "KH"]], "winner": 1, "points": 25}],
    }
    assert texts.since_events(view, ["A", "B"], "en", shows=ALB) == [
        "B ate the round (25)", "B played 3♦", "B played Q♥",
    ]


def test_card_labels_and_points_come_from_the_view() -> None:
    deal = new_deal(2, 1, 0, seed=3)
    while deal.phase == "bidding":
        deal.apply("pass")
    view = {**deal.view(deal.to_act), "move_no": 9}
    card = view["hand"][0]
    specs = views.hand_buttons({**view, "card_points": {**view["card_points"], card: 7}}, 1,
                               "en", shows=ALB)
    assert specs[0].label == f"{render.card_label(card)} 7"


def test_buttons_send_the_views_codes() -> None:
    """Each enabled button carries a code of the view's ``moves``; a card no move puts down is
    disabled, and a move without a card (pass) gets its own button."""
    view = {**bidding_view(1), "move_no": 5}
    assert [m["code"] for m in view["moves"]] == view["legal"]
    kept = [m for m in view["moves"] if m["kind"] != "bid"] + view["moves"][:1]
    narrowed = {**view, "moves": kept}
    specs = views.hand_buttons(narrowed, 3, "en", shows=ALB)
    enabled = [s.custom_id for s in specs if not s.disabled and not s.custom_id.startswith("alb:r")]
    first = view["moves"][0]["card"]
    assert enabled == [f"alb:m:3:5:bid:{first}", "alb:m:3:5:pass"]
    # the other cards are disabled, with ids that are no move
    disabled = [s.custom_id for s in specs if s.disabled]
    assert disabled and all(ids.parse(c).kind == "card" for c in disabled)  # type: ignore[union-attr]
    # the same view without the move to pass offers no Pass button
    no_pass = {**view, "moves": [m for m in view["moves"] if m["kind"] != "pass"]}
    assert "alb:m:3:5:pass" not in {s.custom_id for s in views.hand_buttons(no_pass, 3, "en",
                                                                            shows=ALB)}


def test_a_trump_card_is_green_because_the_view_says_so() -> None:
    deal = new_deal(2, 1, 0, seed=3)
    while deal.phase == "bidding":
        deal.apply("pass")
    view = {**deal.view(deal.to_act), "move_no": 9}
    flipped = {**view, "moves": [{**m, "trump": not m["trump"]} for m in view["moves"]]}
    before = [s.style for s in views.hand_buttons(view, 1, "en",
                                                  shows=ALB) if ":play:" in s.custom_id]
    after = [s.style for s in views.hand_buttons(flipped, 1, "en",
                                                 shows=ALB) if ":play:" in s.custom_id]
    swap = {"success": "primary", "primary": "success"}
    assert after == [swap[s] for s in before]
