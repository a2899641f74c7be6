"""Hard's choices at a fixed number of worlds and a fixed seed, recorded from the search as
it was before its hot paths were made faster (bench/README.md, "Eighth round"): the faster
code must compute the same thing, so it chooses the same code in every position."""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import pytest

from albastini.games.cassino import make_player, new_deal, table_view
from albastini.games.cassino.ai import SearchPlayer

#: Worlds a decision weighs in these positions (few, so the test is quick).
WORLDS = 6


def positions(players: int, deals: int, every: int) -> list[dict[str, Any]]:
    """Every ``every``-th decision with a choice in ``deals`` deals of ``players`` (4: pairs)
    played by normal with random plays mixed in, as the JSON view the seat gets."""
    out: list[dict[str, Any]] = []
    rng = random.Random(players * 101)
    normal = make_player("normal", seed=0)
    n = 0
    for d in range(deals):
        deal = new_deal(players, 2 if players == 4 else 1, d % players, seed=1000 + d)
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            view = json.loads(json.dumps(table_view(deal, seat)))
            if len(view["legal"]) > 1:
                n += 1
                if n % every == 0:
                    out.append(view)
            code = normal.choose(view)
            deal.apply(code if rng.random() < 0.75 else rng.choice(deal.legal_actions()))
    return out


def choices(players: int, deals: int, every: int, others: str | None = None) -> list[str]:
    """Hard's code in each of :func:`positions`, at :data:`WORLDS` worlds, seeded by the
    position's index; ``others``: the rollouts' other seats (``SearchPlayer.others_policy``)."""
    out = []
    for i, view in enumerate(positions(players, deals, every)):
        hard = make_player("hard", seed=i, iterations=WORLDS)
        assert isinstance(hard, SearchPlayer)
        hard.others_policy = others
        hard.exact_end = False  # the search itself (heads-up the exact end came later)
        out.append(hard.choose(view))
    return out


CASES: dict[str, tuple[int, int, int, str | None]] = {
    "4 pairs": (4, 8, 2, None),
    "4 pairs, normal all along": (4, 3, 3, "normal"),
    "3 players": (3, 6, 2, None),
    "2 players": (2, 6, 3, None),
}

#: Recorded from the code before the speed-up (``python tests/games/cassino/
#: test_same_choices.py`` prints them).
EXPECTED: dict[str, list[str]] = {
    "4 pairs": [
        "build:3S:8:5S", "trail:5D", "trail:8H", "trail:3S", "trail:AH", "capture:QD:QH",
        "trail:4C", "trail:QD", "capture:9D:9C", "trail:JC", "trail:8S", "trail:4H",
        "capture:KD:KS", "trail:7D", "capture:3H:3C", "trail:4H", "trail:8D", "trail:4S",
        "trail:8D", "capture:JD:JS", "trail:QC", "trail:4H", "capture:5H:5S", "trail:9C",
        "trail:5H", "build:6D:10:4D", "trail:8C", "trail:6C", "build:4C:7:3D", "trail:AS",
        "capture:JC:JH", "trail:KH", "trail:7D", "trail:7H", "build:AC:8:3H5C7D", "capture:JS:JD",
        "trail:8S", "capture:JS:JD", "capture:TC:2H", "capture:JS:JD", "trail:QS", "trail:7C",
        "build:AD:9:8C9S", "trail:7C", "trail:5H", "trail:7C", "trail:2D", "trail:TH", "trail:7S",
        "capture:JC:JH", "build:3D:7:4H", "capture:TH:TS", "trail:AS", "trail:9D", "trail:3D",
        "trail:2H", "trail:JH", "capture:2S:2H", "trail:3H", "capture:7H:2D5H", "capture:JD:JH",
        "trail:6H", "capture:JC:JS", "capture:9H:3H6H", "build:6S:6:6H", "trail:9H",
        "capture:7D:7S", "trail:8D", "capture:9S:9H", "trail:3S", "capture:QS:QD", "capture:7S:2D",
        "build:2S:6:4H", "capture:7D:3C4H", "trail:2S", "capture:TC:TD", "trail:5C", "trail:9S",
        "trail:4S", "build:AD:9:AH9S", "capture:9C:4S5C", "build:6D:10:4STH", "capture:JH:JC",
        "capture:QH:QC", "capture:2C:2H", "capture:QH:QC", "capture:AC:AD", "trail:7S", "trail:5D",
        "build:5H:7:2C", "capture:7C:2C", "capture:9C:4H5D", "trail:AS", "trail:AH", "trail:AS",
        "capture:TS:TD", "trail:8C", "trail:4D", "capture:QH:QC", "trail:9S", "trail:7H",
        "capture:9S:2S3S", "capture:7D:7H", "trail:3H", "build:2S:6:4S", "capture:QD:QC",
        "capture:4C:4S", "capture:QD:QC", "capture:3S:3H", "trail:5D", "trail:7D", "trail:5D",
        "trail:7D", "trail:5D", "trail:7C", "capture:AC:AD", "trail:AS", "trail:4D",
        "capture:QS:QH", "trail:9D", "capture:4D:AS3D4H", "trail:7D", "trail:KC", "trail:6S",
        "trail:5C", "trail:JS", "trail:TD", "trail:6D", "trail:6H", "capture:6D:6H", "trail:7C",
        "trail:KH", "trail:QS", "trail:9D", "capture:QD:QS", "trail:AS", "capture:JH:JC",
        "trail:AS",
    ],
    "4 pairs, normal all along": [
        "trail:8H", "trail:5H", "build:5C:8:3S", "capture:QD:QH", "trail:6D", "capture:9D:9C",
        "capture:TH:4C6D", "trail:2H", "trail:6S", "capture:3H:3C", "trail:KH", "build:3S:9:6H",
        "trail:QC", "trail:QC", "capture:QD:QH", "trail:6D", "trail:3D", "trail:8C",
        "capture:9S:3D6C", "capture:3H:3D", "capture:KD:KS", "trail:7D", "trail:2H",
        "capture:8D:AC", "trail:3S", "capture:TC:2H", "trail:QD", "trail:4S", "capture:KD:KC",
        "build:AD:5:4S", "capture:9C:AH8C", "trail:9D", "trail:TS", "trail:7S",
    ],
    "3 players": [
        "trail:QH", "trail:TS", "trail:JD", "trail:QH", "capture:QC:QH", "capture:7C:AS",
        "trail:9D", "trail:5D", "capture:AD:AC", "trail:3C", "capture:4S:4C", "trail:6D",
        "build:4H:10:6DTH", "capture:KH:KS", "trail:7S", "trail:3H", "capture:2H:2C", "trail:7S",
        "capture:8H:4H4S", "trail:5C", "trail:5S", "trail:5S", "trail:4D", "trail:7S", "trail:3C",
        "trail:8D", "build:5H:8:AH3C7S", "capture:JC:JD", "trail:9C", "trail:3D",
        "capture:TC:AC9C", "trail:KH", "trail:AS", "build:3H:7:4C7C", "capture:7H:AS3H4C6S",
        "capture:9S:4C5S", "trail:3S", "trail:4D", "trail:8D", "trail:3H", "capture:KS:KH",
        "capture:9H:AC9S", "trail:QS", "trail:7C", "trail:5H", "trail:QD", "capture:AH:AD",
        "trail:AS", "trail:TS", "capture:TH:TS", "build:4H:7:3D", "build:3C:10:7H",
        "capture:8H:3D", "trail:2H", "trail:TH", "capture:KS:KD", "trail:5S", "build:4C:7:3C",
        "trail:6H", "trail:TS", "trail:4C", "trail:7S", "capture:9C:2D7H", "build:2S:10:2D6H",
        "capture:8H:AH7H", "trail:9C", "capture:6D:6C", "capture:9H:9C", "capture:6S:6D",
        "trail:4H", "capture:8C:AD7D8S", "trail:7S", "trail:3C", "trail:2D", "capture:7D:2D5D",
        "trail:8S", "capture:KS:KH", "trail:JD", "capture:9D:9S", "capture:KS:KH", "capture:TC:TD",
        "capture:8H:AH", "trail:TH", "trail:AD", "build:4D:6:2C6S", "trail:2H", "trail:4C",
        "trail:9H", "trail:9C", "capture:5D:AC", "trail:TH", "build:5H:7:2D", "capture:2C:2D",
        "build:AD:8:2D5H", "build:3C:10:2D5H", "capture:4C:AD3C", "trail:JD", "capture:8D:8C",
        "capture:QD:QS", "capture:KC:KDKS", "trail:AS", "build:4S:4:AH", "trail:2S", "trail:7D",
        "capture:9H:9S", "trail:7H", "trail:5S",
    ],
    "2 players": [
        "trail:JD", "trail:9S", "build:6C:7:AC", "capture:9C:9S", "capture:TD:TS",
        "build:6D:10:4D", "trail:2D", "build:4S:6:2D", "trail:4H", "capture:JH:JS", "trail:7D",
        "capture:JH:JS", "build:2S:4:2H", "capture:9D:9H", "build:AH:5:4S", "build:3C:10:2C",
        "trail:7S", "trail:5H", "capture:QS:QH", "capture:7H:7D", "capture:9S:3H6S", "trail:AS",
        "build:2S:3:AC", "trail:KH", "trail:3S", "trail:5C", "trail:2C", "trail:JH", "trail:AD",
        "trail:QD", "capture:JC:JH", "build:9C:10:AS", "trail:3C", "capture:8H:3D5D",
        "build:2H:5:3D5C", "capture:KC:KS", "build:AC:10:9DTH", "capture:3H:3C", "trail:5D",
        "capture:JC:JS", "capture:TD:TC", "capture:QS:QC", "capture:QD:QC", "capture:8D:2C6S8H",
        "trail:4H", "trail:8D", "build:5D:8:3C", "capture:6H:6C", "trail:JS", "capture:JD:JS",
        "trail:9D", "trail:AC", "capture:TC:TH", "trail:2C", "build:3D:4:AS", "trail:TS",
        "trail:7H", "capture:6D:2D4H", "capture:2C:2D", "trail:JH", "capture:7S:AD6D7C",
        "capture:9D:AD", "trail:KC", "trail:KC", "trail:2S", "capture:6C:6S", "trail:7H",
        "capture:JC:JH",
    ],
}


@pytest.mark.parametrize("case", list(CASES))
def test_hard_chooses_as_before_the_speed_up(case: str) -> None:
    assert choices(*CASES[case]) == EXPECTED[case]


def test_a_copied_state_has_every_slot_and_its_own_lists() -> None:
    st = new_deal(4, 2, 1, seed=5).state
    other = st.copy()
    for name in type(st).__slots__:
        assert getattr(other, name) == getattr(st, name), name
    for name in ("hands", "table", "piles", "sweeps", "leftover"):
        assert getattr(other, name) is not getattr(st, name), name


if __name__ == "__main__":
    json.dump({case: choices(*args) for case, args in CASES.items()}, sys.stdout, indent=4)
