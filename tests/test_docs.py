"""The README and docs/ as a newcomer reads them on a clone: every link and picture they name is in
the repository (nothing points at ../shared or another checkout), and every game's pictures are
shown in the README."""

from __future__ import annotations

import re
from pathlib import Path

from albastini.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)|src=\"([^\"]+)\"")


def _targets(page: Path) -> list[str]:
    return [a or b for a, b in LINK.findall(page.read_text(encoding="utf-8"))]


def test_every_link_of_the_docs_is_in_the_repository() -> None:
    broken = []
    for page in DOCS:
        for target in _targets(page):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # a web address or an anchor on the same page
            path = (page.parent / target.split("#")[0]).resolve()
            if not path.is_relative_to(ROOT) or not path.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert broken == []


def test_the_readme_shows_every_games_pictures() -> None:
    shown = set(_targets(ROOT / "README.md"))
    for game in GAMES:
        for moment in ("middle", "end"):
            assert f"docs/pictures/{game}_{moment}.png" in shown
