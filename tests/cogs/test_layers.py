"""The Discord layer holds no rule of any game: it reads the view, and nothing else of a game.

Two halves: an AST scan of every module under ``cogs/`` for imports of a game's internals, and
texts and buttons built from views whose facts differ from what Albastini's rules would say, so
a cog that recomputed a rule instead of reading the view would show the difference.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from albastini import new_deal
from cogs import ids, render, texts, views

COGS = Path(__file__).resolve().parents[2] / "cogs"

# What the Discord layer may import from the project: the table service and what it hands out
# (tables, events, store records, settings), the process helpers the courier and the painter run
# on, and the registry of games (for a game's list of modes). Never a game's rules.
ALLOWED = {
    "albastini.table",
    "albastini.events",
    "albastini.store",
    "albastini.session",
    "albastini.config",
    "albastini.timers",
    "albastini.workers",
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


# --------------------------------------------------------------------------- one module per game
#: Each game's presentation module: the only place of cogs/ that knows how that game looks.
PRESENTERS = sorted(p for p in (COGS / "games").glob("*.py") if p.name != "__init__.py")
GENERIC = sorted(p for p in COGS.rglob("*.py") if p not in PRESENTERS)


def _string_constants(path: Path) -> list[tuple[int, str]]:
    """(line, value) of every string literal of a module but its docstrings."""
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


def test_the_generic_layer_reaches_a_game_only_through_its_presenter() -> None:
    """No generic module imports a game's presentation module: it asks
    ``cogs.games.presenter(table.game)``, so adding a game touches no other game's files."""
    assert PRESENTERS and len(GENERIC) > 10
    games = {p.stem for p in PRESENTERS}
    bad = []
    for path in GENERIC:
        if path == COGS / "games" / "__init__.py":
            continue  # the registry of presenters
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "cogs.games":
                bad += [f"{path.name}:{node.lineno}" for a in node.names if a.name in games]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cogs.games."):
                bad.append(f"{path.name}:{node.lineno}")
            elif isinstance(node, ast.Import):
                bad += [f"{path.name}:{node.lineno}" for a in node.names
                        if a.name.startswith("cogs.games.")]
    assert bad == []


def test_the_generic_layer_knows_no_games_pack_or_move_codes() -> None:
    """Albastini's ranks and the codes of its moves appear in its presenter only (ids.py reads
    the old Albastini buttons by their letters, which are no codes)."""
    bad = [
        f"{path.relative_to(COGS.parent)}:{line}: {value!r}"
        for path in GENERIC
        for line, value in _string_constants(path)
        if "A7KJQ" in value or value.startswith(("play:", "bid:"))
    ]
    assert bad == []


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
    assert "dealer's side" not in render.hand_text(view, "en", NAMES)
    # a view that says seat 1 does not bid is shown so, whatever seat 1's side is
    assert "dealer's side" in render.hand_text({**view, "bidders": [3]}, "en", NAMES)
    seat2 = bidding_view(2)
    assert "dealer's side" not in render.hand_text({**seat2, "bidders": [1, 2]}, "en", NAMES)


def test_a_face_up_card_never_drawn_is_what_the_view_says() -> None:
    deal = new_deal(4, 2, 0, seed=11)
    for _ in range(2):  # seats 1 and 3, the bidders, pass
        deal.apply("pass")
    view = deal.view(None)
    assert view["face_up"] and not view["face_up_never_drawn"]
    shown = render.table_text(view, NAMES, "en", deal_no=1, scores=[0, 0], target=5)
    assert "never drawn" not in shown
    told = render.table_text({**view, "face_up_never_drawn": True}, NAMES, "en", deal_no=1,
                             scores=[0, 0], target=5)
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
    assert texts.since_events(view, ["A", "B"], "en") == [
        "B ate the round (25)", "B played 3♦", "B played Q♥",
    ]


def test_card_labels_and_points_come_from_the_view() -> None:
    deal = new_deal(2, 1, 0, seed=3)
    while deal.phase == "bidding":
        deal.apply("pass")
    view = {**deal.view(deal.to_act), "move_no": 9}
    card = view["hand"][0]
    specs = views.hand_buttons({**view, "card_points": {**view["card_points"], card: 7}}, 1, "en")
    assert specs[0].label == f"{render.card_label(card)} 7"


def test_buttons_send_the_views_codes() -> None:
    """Each enabled button carries a code of the view's ``moves``; a card no move puts down is
    disabled, and a move without a card (pass) gets its own button."""
    view = {**bidding_view(1), "move_no": 5}
    assert [m["code"] for m in view["moves"]] == view["legal"]
    kept = [m for m in view["moves"] if m["kind"] != "bid"] + view["moves"][:1]
    narrowed = {**view, "moves": kept}
    specs = views.hand_buttons(narrowed, 3, "en")
    enabled = [s.custom_id for s in specs if not s.disabled and not s.custom_id.startswith("alb:r")]
    first = view["moves"][0]["card"]
    assert enabled == [f"alb:m:3:5:bid:{first}", "alb:m:3:5:pass"]
    # the other cards are disabled, with ids that are no move
    disabled = [s.custom_id for s in specs if s.disabled]
    assert disabled and all(ids.parse(c).kind == "card" for c in disabled)  # type: ignore[union-attr]
    # the same view without the move to pass offers no Pass button
    no_pass = {**view, "moves": [m for m in view["moves"] if m["kind"] != "pass"]}
    assert "alb:m:3:5:pass" not in {s.custom_id for s in views.hand_buttons(no_pass, 3, "en")}


def test_a_trump_card_is_green_because_the_view_says_so() -> None:
    deal = new_deal(2, 1, 0, seed=3)
    while deal.phase == "bidding":
        deal.apply("pass")
    view = {**deal.view(deal.to_act), "move_no": 9}
    flipped = {**view, "moves": [{**m, "trump": not m["trump"]} for m in view["moves"]]}
    before = [s.style for s in views.hand_buttons(view, 1, "en") if ":play:" in s.custom_id]
    after = [s.style for s in views.hand_buttons(flipped, 1, "en") if ":play:" in s.custom_id]
    swap = {"success": "primary", "primary": "success"}
    assert after == [swap[s] for s in before]
