"""Views: the keys of the rules file, JSON-serialisable, never another hand nor the pack;
the table view's additions and the moves' structure for labels."""

from __future__ import annotations

import json
import random

from albastini.games.cassino import kernel as K
from albastini.games.cassino import new_deal, table_view

from .helpers import build, loose, position

KEYS = {"game", "seat", "team", "players", "team_size", "dealer", "phase", "to_act", "round",
        "rounds", "pack", "hand", "hand_sizes", "table", "captured", "sweeps",
        "last_capturer", "legal", "result"}


def test_views_have_the_keys_and_hide_other_hands_and_the_pack() -> None:
    rng = random.Random(2)
    for players in (2, 3, 4):
        deal = new_deal(players, seed=rng.getrandbits(32))
        assert deal.view(0)["pack"] == 52 - 4 - 4 * players
        assert deal.view(0)["round"] == 1 and deal.view(0)["rounds"] == {2: 6, 3: 4, 4: 3}[players]
        while True:
            for seat in [None, *range(players)]:
                view = table_view(deal, seat)
                assert set(view) >= KEYS
                text = json.dumps(view)
                hidden = {x.code for s in range(players) if s != seat for x in deal.hand(s)}
                hidden |= {K.CODES[x] for x in deal.state.deck[deal.state.pos:]}
                for code in hidden:  # never another hand nor the undealt pack
                    assert f'"{code}"' not in text, (seat, code)
                assert view["hand_sizes"] == [len(deal.hand(s)) for s in range(players)]
                assert (view["legal"] != []) == (seat == deal.to_act and seat is not None)
                assert [m["code"] for m in view["moves"]] == view["legal"]
            if deal.phase == "finished":
                break
            deal.apply(rng.choice(deal.legal_actions()))
        assert deal.view(0)["round"] == deal.rounds and deal.view(0)["to_act"] is None


def test_the_table_and_the_moves_say_enough_for_labels() -> None:
    deal = position([build("3S6D", 9, 0), loose("7C"), loose("KH")], ["7D", "9C", "2H"])
    view = table_view(deal, 1)
    assert view["table"][0] == {"id": "3S", "cards": ["3S", "6D"], "kind": "simple",
                                "value": 9, "controller": 0}
    assert view["table"][2] == {"id": "KH", "cards": ["KH"], "kind": "card", "value": None,
                                "controller": None}
    assert view["controls"] == [[9], []]
    moves = {m["code"]: m for m in view["moves"]}
    take = moves["capture:9C:3S"]
    assert take["kind"] == "capture" and take["card"] == "9C" and take["items"][0]["value"] == 9
    assert take["label"] == "Take the build of 9 (3\u2660+6\u2666) with 9\u2663"
    b = moves["build:2H:9:7C"]
    assert (b["kind"], b["value"], b["build"], b["card"]) == ("build", 9, "simple", "2H")
    assert b["label"] == "Build 9 on 7\u2663 with 2\u2665"
    assert moves["build:2H:9:3S7C"]["build"] == "compound"


def test_the_table_view_log_and_last_capture() -> None:
    deal = position([loose("4C"), loose("5D")], ["9S", "KD"])
    deal.apply("capture:9S:4C5D")
    view = table_view(deal, None)
    assert view["log"] == [[1, "capture:9S:4C5D"]]
    assert view["last"] == {"seat": 1, "action": "capture:9S:4C5D"}
    assert view["last_trick"]["sweep"] is True and view["last_trick"]["winner"] == 1
    assert view["team_of"] == [0, 1] and view["rounds_total"] == 6
