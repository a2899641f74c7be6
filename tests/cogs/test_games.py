"""Games on Discord: the generic renderer asks the table's game's presenter, move buttons carry
any game's codes, old buttons still work, and sides come from the view.

A toy presenter shaped like Twenty-Eight (numeric bids that put down no card, "expose", a
contract line) stands in for a second game: if the renderer or the buttons knew Albastini, this
game would show it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from types import SimpleNamespace
from typing import Any

import pytest

from albastini import new_deal
from albastini.table import SeatInfo, Table
from cogs import games, render
from cogs.games import albastini as albastini_presenter
from cogs.games import presenter
from cogs.render import picture
from cogs.render.layout import Layout
from cogs.render.presenter import ButtonStyle, Presenter, ResultTable, View, single_use_options
from cogs.ui import buttons as ids
from cogs.ui import texts, views

ALB = presenter("albastini")

NAMES = ["@Neema", "@Baraka", "@Juma", "@Amina"]


# --------------------------------------------------------------------------- a second game
class TwentyEightLike:
    """A presenter of a made-up game: bids are numbers, the contract has its own line."""

    NAME = "twenty-eight"
    RULES_PAGES = 1
    ACCENT = 0x123456

    def card_label(self, code: str) -> str:
        return render.card_label(code)

    def shown_score(self, score: int) -> int:
        return score

    def score_text(self, lang: str, score: int) -> str:
        return f"{score} pts"

    def target_text(self, lang: str, target: int) -> str | None:
        return f"to {target}"

    def result_table(self, lang: str, result: Any, side_names: Sequence[str]) -> ResultTable:
        return ResultTable(("Made",), tuple((str(p),) for p in result["points"]))

    def spoken_facts(self, lang: str, view: Any, names: Sequence[str]) -> list[str]:
        return [f"Contract: {view.get('contract')}"]

    def card_moves(self, card: str, moves: Sequence[View]) -> list[View]:
        return single_use_options(self.card_label, self.move_button)[0](card, moves)

    def option_label(self, lang: str, move: View) -> str:
        return str(move["code"])

    def option_group(self, lang: str, kind: str) -> str:
        return kind

    def table_facts(self, lang: str, view: Any) -> list[str]:
        return [f"Contract: {view.get('contract')}"]

    def table_lines(self, lang: str, view: Any, names: Sequence[str]) -> list[str]:
        return [f"Auction: {view.get('auction')}"]

    def deal_summary(self, lang: str, result: Any, side_names: Sequence[str], *, deal_no: int,
                     team_size: int | None) -> str:
        return f"Deal {deal_no}: {side_names[0]} made {result['points'][0]}"

    def hand_header(self, lang: str, view: Any, names: Sequence[str]) -> str:
        return "Twenty-eight hand"

    def hand_shows(self, view: Any) -> Hashable:
        contract: Hashable = view.get("contract")
        return contract

    def action_text(self, lang: str, code: str, by: str | None) -> str:
        return f"{by or 'you'}: {code}"

    def refusal(self, lang: str, rule: str, details: Any) -> str | None:
        return "Bid higher" if rule == "too_low" else None

    def card_button(self, lang: str, card: str, move: Any, *, moves: Sequence[Any],
                    points: int) -> tuple[str, ButtonStyle]:
        return f"[{card}]", "primary" if move else "secondary"

    def move_button(self, lang: str, move: Any) -> tuple[str, ButtonStyle]:
        return str(move["code"]).replace("bid:", "Bid "), "success"

    def front_cards(self, view: Any) -> list[tuple[int, str]]:
        return []

    def draw_centre(self, layout: Layout, lang: str, view: Any, names: Sequence[str]) -> None:
        cx, cy = layout.centre.centre
        layout.back("contract", cx, cy, picture.CARD_W, picture.CARD_H)


@pytest.fixture
def second_game(monkeypatch: pytest.MonkeyPatch) -> Presenter:
    shown: Presenter = TwentyEightLike()
    real = games.presenter

    def lookup(game: str) -> Presenter:
        return shown if game == "twenty-eight" else real(game)

    monkeypatch.setattr(texts, "presenter", lookup)  # a table of that game, for its refusals
    return shown


def _view(**over: Any) -> dict[str, Any]:
    view: dict[str, Any] = {
        "players": 4, "teams": 2, "team_size": 2, "team_of": [0, 1, 0, 1], "seat": 1,
        "dealer": 0, "phase": "bidding", "to_act": 1, "hand": ["JH", "9H", "AS", "TD"],
        "hand_sizes": [4] * 4, "tricks_won": [0] * 4, "result": None, "contract": 16,
        "auction": "14, 15, 16", "move_no": 7, "card_points": {"JH": 3, "9H": 2},
        "moves": [{"code": "bid:17", "kind": "bid", "card": None},
                  {"code": "pass", "kind": "pass", "card": None}],
        "legal": ["bid:17", "pass"],
    }
    view.update(over)
    return view


def test_the_text_table_is_the_games(second_game: Presenter) -> None:
    text = render.table_text(_view(), NAMES, "en", deal_no=2, scores=[0, 0], target=5,
                             shows=second_game)
    assert "Contract: 16" in text and "Auction: 14, 15, 16" in text
    assert "Trump" not in text and "Stock" not in text and "Bids" not in text
    finished = _view(phase="finished", to_act=None, result={"points": [20, 8]})
    text = render.table_text(finished, NAMES, "en", deal_no=2, scores=[0, 0], target=5,
                             shows=second_game)
    assert "🏁 Deal 2: Team A made 20" in text
    assert render.hand_text(_view(), "en", NAMES,
                            shows=second_game) == "Twenty-eight hand"


def test_numeric_bids_are_buttons_with_the_games_codes(second_game: Presenter) -> None:
    specs = views.hand_buttons(_view(), 9, "en", shows=second_game)
    labels = {s.label: s for s in specs}
    # one disabled button per card (no move puts one down while bidding), then the moves
    assert [s.label for s in specs[:4]] == ["[JH]", "[9H]", "[AS]", "[TD]"]
    assert all(s.disabled and ids.parse(s.custom_id).kind == "card"  # type: ignore[union-attr]
               for s in specs[:4])
    assert labels["Bid 17"].custom_id == "alb:m:9:7:bid:17"
    assert labels["pass"].custom_id == "alb:m:9:7:pass"
    parsed = ids.parse(labels["Bid 17"].custom_id)
    assert parsed is not None and parsed.kind == "move" and parsed.action == "bid:17"
    expose = _view(moves=[{"code": "expose", "kind": "expose", "card": None}], legal=["expose"])
    (button,) = [s for s in views.hand_buttons(expose, 9, "en", shows=second_game)
                 if not s.disabled and s.custom_id.startswith("alb:m:")]
    assert button.custom_id == "alb:m:9:7:expose"


def test_the_pictures_middle_is_the_games(second_game: Presenter) -> None:
    view = _view(phase="playing", current=[], last_trick=None, round=1, rounds_total=8)
    ours = render.table_picture(view, NAMES, "en", shows=second_game)
    albastini = render.table_picture({**view, "stock": 0, "trump": None}, NAMES, "en", shows=ALB)
    assert ours != albastini  # no trump disc: the toy game draws one card back in the middle


def test_a_games_refusals_and_log_are_its_own(second_game: Presenter) -> None:
    table = _table(game="twenty-eight")
    assert texts.refusal_text("en", "illegal", {"rule": "too_low"}, table) == "Bid higher"
    assert "isn't possible" in texts.refusal_text("en", "illegal", {"rule": "other"}, table)
    view = {"seat": 0, "log": [[0, "bid:16"], [1, "bid:17"], [2, "pass"]], "tricks": []}
    assert texts.since_events(view, NAMES, "en", shows=second_game) == [
        "@Baraka: bid:17", "@Juma: pass"]


def test_every_presenter_has_the_whole_interface() -> None:
    wanted = {name for name in dir(Presenter) if not name.startswith("_")}
    assert len(wanted) >= 10
    for name in games.GAME_NAMES:
        shown = games.presenter(name)
        assert all(hasattr(shown, attr) for attr in wanted), name
        assert name == shown.NAME and shown.RULES_PAGES >= 1
    assert games.presenter("albastini") is albastini_presenter
    with pytest.raises(KeyError):
        games.presenter("no such game")


# --------------------------------------------------------------------------- ids
@pytest.mark.parametrize(
    ("old", "code"),
    [("alb:p:12:7:7H", "play:7H"), ("alb:b:12:1:4C", "bid:4C"), ("alb:x:12:3", "pass")],
)
def test_buttons_sent_before_the_move_ids_still_make_the_same_move(old: str, code: str) -> None:
    parsed = ids.parse(old)
    assert parsed is not None and parsed.kind == "move" and parsed.table == 12
    assert parsed.action == code
    new = ids.move(12, parsed.move or 0, code)
    assert ids.parse(new) == parsed  # the same click, old button or new
    hand = [old, ids.table_button("refresh", 12)]
    assert ids.carried_by(parsed, old, message(hand, True))  # on the hand that carries it
    assert not ids.carried_by(parsed, old, message(hand, False))  # never on a public message


@pytest.mark.parametrize("custom_id", ["alb:m:12:7:play:7H", "alb:c:12:7:7H"])
def test_forged_move_and_card_ids_are_refused_where_they_are_not(custom_id: str) -> None:
    button = ids.parse(custom_id)
    assert button is not None
    table_message = [ids.table_button("hand", 12), ids.table_button("leave", 12)]
    assert not ids.carried_by(button, custom_id, message(table_message, False))
    # a private message of another table, or one that is no hand
    assert not ids.carried_by(button, custom_id, message([ids.table_button("refresh", 13)], True))
    assert not ids.carried_by(button, custom_id, message([ids.rules(2)], True))
    # a hand of this table that has moved on routes it (the service calls it stale)
    assert ids.carried_by(button, custom_id, message([ids.table_button("refresh", 12)], True))


def message(custom_ids: list[str], ephemeral: bool) -> Any:
    """A message carrying these buttons (in a row, as Discord sends them back)."""
    row = SimpleNamespace(children=[SimpleNamespace(custom_id=c) for c in custom_ids])
    return SimpleNamespace(components=[row], flags=SimpleNamespace(ephemeral=ephemeral))


def test_a_move_id_fits_discord_with_any_table_and_move_number() -> None:
    """Any code the store keeps (64 characters at most) travels in a move button."""
    longest = ids.move(2**63 - 1, 999_999_999, "z" * 16 + ":" + "Z" * 47)
    assert len(longest) == 100 and ids.parse(longest) is not None
    with pytest.raises(ValueError):
        ids.move(2**63 - 1, 999_999_999, "z" * 16 + ":" + "Z" * 48)


# --------------------------------------------------------------------------- sides
def _table(**over: Any) -> Table:
    table = Table(id=1, guild_id=2, channel_id=3, host_id=100, players=4, team_size=2, target=5,
                  turn_time=60, computer_level="easy", language="en", status="running",
                  seats=[SeatInfo(i, 100 + i, f"P{i}", None) for i in range(4)], game="albastini")
    for key, value in over.items():
        setattr(table, key, value)
    return table


def test_sides_come_from_the_views_team_of_not_from_seat_numbers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game whose sides are not seat % teams (here seats 1-2 against 3-4) shows them so."""
    table = _table()
    team_of = [0, 0, 1, 1]
    text = texts.teams_text(table, "en", team_of)
    team_a = next(line for line in text.splitlines() if line.startswith("Team A"))
    assert "<@100>" in team_a and "<@101>" in team_a and "<@102>" not in team_a
    monkeypatch.setattr(table, "public_view", lambda: {"team_of": team_of})
    assert texts.teams_text(table, "en") == text
    over = texts.match_over_text(table, "en", winner_team=1, scores=[2, 5])
    assert "<@102>" in over and "<@103>" in over and "<@101>" not in over
    # and Albastini's own deal says seat % teams, through its view
    deal = new_deal(4, 2, 0, seed=1)
    assert deal.view(None)["team_of"] == [0, 1, 0, 1]
