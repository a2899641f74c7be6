"""Cassino's presenter: the table's items with values and controllers, the pack, captures and
sweeps, the deal's scoring items, option labels from the engine's structured moves, and no
hidden card (another hand, the pack) in anything public."""

from __future__ import annotations

from typing import Any

import pytest

from albastini.games import GAMES
from albastini.games.cassino import Deal, new_deal
from albastini.games.cassino.table_view import table_view
from cogs.games import cassino, presenter
from cogs.i18n import LANGUAGES
from cogs.render import picture, text

CASSINO = presenter("cassino")


NAMES = ["Ana", "Ben", "Cy", "Di"]


def _deal_with(table: list[str], hand0: list[str], hand1: list[str]) -> Deal:
    """A 2-player deal (dealer 1, so seat 0 plays first) whose first table and hands are set."""
    rest = [c for c in (r + s for r in "A23456789TJQK" for s in "CDHS")
            if c not in table + hand0 + hand1]
    # dealer 1: seat 0 gets 0,1,6,7; table 2,3,8,9; seat 1 gets 4,5,10,11
    deck = [hand0[0], hand0[1], table[0], table[1], hand1[0], hand1[1],
            hand0[2], hand0[3], table[2], table[3], hand1[2], hand1[3], *rest]
    return new_deal(2, dealer=1, deck=deck)


def test_cassino_is_registered_with_a_presenter() -> None:
    assert "cassino" in GAMES
    assert presenter("cassino") is cassino


def test_options_are_worded_from_the_structured_moves() -> None:
    deal = _deal_with(["AS", "6D", "8C", "KH"], ["9H", "2D", "TS", "3C"], ["4C", "4D", "4H", "4S"])
    deal.apply("build:3C:9:6D")  # a build of 9 (3♣+6♦) held by seat 0
    deal.apply("trail:4C")
    view = table_view(deal, 0)
    labels = {m["code"]: cassino.option_label("en", m) for m in view["moves"]}
    assert labels["capture:9H:3C"] == "Take the build of 9 (3♣+6♦) with 9♥ (3 cards)"
    assert labels["build:2D:10:8C"] == "Build 10 on 8♣ with 2♦"
    assert all(cassino.option_label("sw", m) for m in view["moves"])
    # the text table says who holds the build and what it is worth
    public = table_view(deal, None)
    line = "\n".join(cassino.table_lines("en", public, NAMES))
    assert "the build of 9 (3♣+6♦), held by Ana" in line


def test_a_card_with_one_use_says_it_and_one_with_several_counts_them() -> None:
    deal = _deal_with(["3S", "6D", "8C", "KH"], ["9H", "2D", "TS", "5C"], ["4C", "4D", "4H", "4S"])
    view = table_view(deal, 0)
    moves = view["moves"]
    for card in view["hand"]:
        mine = cassino.card_moves(card, moves)
        label, style = cassino.card_button("en", card, mine[0] if mine else None, moves=moves,
                                           points=0)
        if len(mine) > 1:
            assert f"{len(mine)} choices" in label
        elif mine:
            assert "—" in label and style in ("primary", "success")
        else:
            assert style == "secondary"


def test_the_deal_summary_lists_every_scoring_item_and_the_table_shows_the_pack() -> None:
    deal = new_deal(2, seed=11)
    public = table_view(deal, None)
    facts = cassino.table_facts("en", public)
    assert facts[0] == "40 cards left in the pack"
    while deal.phase != "finished":
        deal.apply(deal.legal_actions()[0])
    result = table_view(deal, None)["result"]
    for lang in LANGUAGES:
        line = cassino.deal_summary(lang, result, ["Ana", "Ben"], deal_no=2, team_size=1)
        assert "Ana" in line and "Ben" in line
    line = cassino.deal_summary("en", result, ["Ana", "Ben"], deal_no=2, team_size=1)
    assert "Big Cassino" in line and "Little Cassino" in line and "aces" in line


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_no_hidden_card_in_the_public_table_or_picture(players: int, seed: int) -> None:
    deal = new_deal(players, seed=seed)
    for _ in range(7):
        public = table_view(deal, None)
        shown = text.table_text(public, NAMES[:players], "en", deal_no=1, scores=[0] * 2,
                                target=21, shows=CASSINO)
        visible = {c for it in public["table"] for c in it["cards"]}
        hidden = {c.code for seat in range(players) for c in deal.hand(seat)}
        hidden |= {c.code for c in deal.deck[52 - public["pack"]:]}
        from cogs.render.cards import card_label
        for code in hidden - visible:
            assert card_label(code) not in shown, code
        jpeg = picture.table_picture(public, NAMES[:players], "en", shows=CASSINO)
        assert jpeg[:2] == b"\xff\xd8"
        deal.apply(deal.legal_actions()[0])


def test_refusals_and_log_lines_are_sentences() -> None:
    assert cassino.refusal("en", "can_capture", {"card": "7H"}) == (
        "7♥ can capture, so you may not trail it.")
    assert cassino.refusal("sw", "must_hold_value", {"value": 8})
    assert cassino.refusal("en", "something else", {}) is None
    assert cassino.action_text("en", "trail:KH", "Ana") == "Ana trailed K♦".replace("♦", "♥")
    assert cassino.action_text("en", "build:2D:10:8C", "Ben") == "Ben built 10 with 2♦ (on 8♣)"
    assert cassino.action_text("en", "capture:9S:2C5H", None) == "Your capture with 9♠ counted."


# --------------------------------------------------------------------------- the chooser
def test_a_card_with_several_uses_opens_a_chooser_whose_ids_fit() -> None:
    from cogs.tables import _chooser as chooser
    from cogs.ui import buttons as ids
    from cogs.ui import views

    deal = _deal_with(["AS", "6D", "8C", "KH"], ["9H", "2D", "TS", "3C"], ["4C", "4D", "4H", "4S"])
    view = {**table_view(deal, 0), "move_no": 999_999_999}
    big = 2**63 - 1
    specs = views.hand_buttons(view, big, "en", shows=CASSINO)
    by_card = {}
    for spec in specs:
        parsed = ids.parse(spec.custom_id)
        assert parsed is not None and len(spec.custom_id) <= 100
        if parsed.card or parsed.action:
            by_card[parsed.card or parsed.action.split(":")[1]] = parsed  # type: ignore[union-attr]
    for card in view["hand"]:
        legal = [m for m in view["moves"] if m["code"] in view["legal"]]
        options = CASSINO.card_moves(card, legal)
        parsed = by_card[card]
        if len(options) > 1:
            assert parsed.kind == "options"
            menus, buttons = chooser.chooser_specs(view, big, "en", card, shows=CASSINO)
            values = [v for m in menus for _label, v, _d in m.options]
            assert values == [m["code"] for m in options]  # every option, none cut
            for m in menus:
                assert ids.parse(m.custom_id).kind == "pick"  # type: ignore[union-attr]
                assert len(m.options) <= 25
            assert ids.parse(buttons[0].custom_id).kind == "refresh"  # type: ignore[union-attr]
            rows = chooser.ChooserView(menus, buttons).to_components()
            assert len(rows) <= 5
        elif options:
            assert parsed.kind == "move" and parsed.action == options[0]["code"]


def test_many_options_are_split_by_kind_and_by_25_then_paged() -> None:
    from cogs.tables import _chooser as chooser
    from cogs.ui import buttons as ids

    moves: list[dict[str, Any]] = [{"code": f"capture:9H:{i:02d}", "kind": "capture", "card": "9H",
              "items": [], "cards_taken": 2, "sweep": False} for i in range(120)]
    moves += [{"code": "trail:9H", "kind": "trail", "card": "9H"}]
    view = {"moves": moves, "legal": [m["code"] for m in moves], "move_no": 3}
    menus, buttons = chooser.chooser_specs(view, 1, "en", "9H", shows=CASSINO)
    assert len(menus) == 4 and menus[0].placeholder == "Trail"
    assert menus[1].placeholder == "Take 1–25 of 120"
    assert [ids.parse(b.custom_id).kind for b in buttons] == [  # type: ignore[union-attr]
        "refresh", "options"]
    later, _ = chooser.chooser_specs(view, 1, "en", "9H", 1, shows=CASSINO)
    shown = [v for page in (menus, later) for m in page for _l, v, _d in m.options]
    assert sorted(shown) == sorted(m["code"] for m in moves)
    assert chooser.picked_code({"values": ["build:7C:10:AC3S4H5C"]}) == "build:7C:10:AC3S4H5C"
    assert chooser.picked_code({"values": []}) is None
    assert chooser.picked_code(None) is None


def test_long_move_ids_parse_and_garbage_does_not() -> None:
    from cogs.ui import buttons as ids

    longest = "build:7C:10:" + "AC2C3C4C5C6C8C9CTCAD2D3D4D5D6D8D9DTDAH2H3H4H5H"[:52]
    custom_id = ids.move(2**63 - 1, 999_999_999, "capture:9S:2C5H")
    assert ids.parse(custom_id).action == "capture:9S:2C5H"  # type: ignore[union-attr]
    # the longest code of the shape still fits with the longest table id and move number
    assert len(ids.move(2**63 - 1, 999_999_999, longest)) <= 100
    # a move's code is read by its shape only (the service checks the move): a kind in small
    # letters and up to three arguments of letters and digits
    for garbage in ("alb:m:1:2:PLAY:7H", "alb:m:1:2:play:", "alb:m:1:2:play:7H:x:y:z",
                    "alb:m:1:2:play:7-H", "alb:m:1:2:"):
        assert ids.parse(garbage) is None, garbage
    assert ids.parse("alb:s:1:2:9H:0").kind == "pick"  # type: ignore[union-attr]
    assert ids.parse("alb:o:1:2:9H").kind == "options"  # type: ignore[union-attr]
