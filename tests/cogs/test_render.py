"""What players see: card labels, the text table, the hand header, VP explanations, the picture."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

from albastini import PACK, new_deal
from cogs.games import albastini as albastini_presenter
from cogs.games import presenter
from cogs.games.albastini import explain_result
from cogs.i18n import LANGUAGES, t
from cogs.render import (
    PICTURE_FILE,
    card_button_label,
    card_label,
    deal_summary_text,
    default_side_names,
    hand_text,
    suit_label,
    suit_name,
    suit_symbol,
    table_picture,
    table_text,
)

ALB = presenter("albastini")
NAMES = ["@Neema", "@Baraka", "@Juma", "@Amina", "@Zawadi", "@Fatuma"]


def make_view(players: int, team_size: int, **over: Any) -> dict[str, Any]:
    """A hand-made public view of a deal in play; ``over`` replaces any field. The facts of the
    rules the texts read (sides, bidders, whether the face-up card is drawn) come from a real
    deal of the same mode."""
    real = new_deal(players, team_size, 0, seed=0).view(None)
    view: dict[str, Any] = {
        "players": players, "team_size": team_size, "teams": players // team_size,
        "seat": None, "dealer": 0, "phase": "playing", "to_act": 2 % players, "hand": [],
        "hand_sizes": [5] * players, "stock": 7, "trump": "H", "indicator": "3H",
        "face_up": "5H", "bids": [{"seat": 1, "card": "4C"}], "exchange": None,
        "round": 4, "rounds_total": 9, "leader": 1,
        "current": [[1, "AS"]], "winning": 1,
        "last_trick": {"leader": 0, "plays": [[s, c] for s, c in
                                              zip(range(players), ["KH", "3C", "QH", "6D",
                                                                   "4S", "5D"], strict=False)],
                       "winner": 0, "points": 6},
        "tricks_won": [2, 1] + [0] * (players - 2), "legal": [], "result": None,
        "team_of": real["team_of"], "bidders": real["bidders"],
        "face_up_never_drawn": real["face_up_never_drawn"], "moves": [], "card_points": {},
    }
    view.update(over)
    return view


# --------------------------------------------------------------------------- cards
def test_card_labels() -> None:
    assert card_label("AS") == "A♠"
    assert card_label("7H") == "7♥"
    assert card_label("QD") == "Q♦"
    assert card_label("3C") == "3♣"
    # the generic label reads a code's shape (another game's pack has twos and tens)...
    assert card_label("2S") == "2♠" and card_label("10D") == "10♦"
    for bad in ("", "S", "AX", "as", "100H"):
        with pytest.raises(ValueError):
            card_label(bad)
    # ...Albastini's presenter knows its own pack, which has no two
    assert albastini_presenter.card_label("7H") == "7♥"
    with pytest.raises(ValueError):
        albastini_presenter.card_label("2S")


def test_card_buttons_show_the_points_the_view_gives() -> None:
    # 2 players, dealer 0: seat 1 is dealt the 1st, 3rd, 5th... card of the pack
    first = ["AS", "3H", "7C", "4H", "QD", "5H", "5S", "6H", "3D", "6D"]
    deal = new_deal(2, 1, 0, deck=first + [c.code for c in PACK if c.code not in first])
    view = deal.view(1)
    labels = [card_button_label(c, view["card_points"][c]) for c in view["hand"]]
    assert labels == ["A♠ 11", "5♠", "7♣ 10", "Q♦ 2", "3♦"]  # by suit, highest first
    rng = random.Random(1)
    while deal.phase != "finished":
        deal.apply(rng.choice(deal.legal_actions()))
    assert sum(deal.view(None, history=True)["card_points"].values()) == 120


def test_suit_names() -> None:
    assert [suit_symbol(s) for s in "CDHS"] == ["♣", "♦", "♥", "♠"]
    assert suit_name("en", "H") == "hearts"
    assert suit_name("en", "C", capitalize=True) == "Clubs"
    assert suit_name("sw", "H") == "kopa"
    assert suit_label("en", "S") == "♠ spades"
    assert len({suit_name("sw", s) for s in "CDHS"}) == 4


def test_side_names() -> None:
    assert default_side_names("en", 4, 2, NAMES) == ["Team A", "Team B"]
    assert default_side_names("sw", 6, 3, NAMES) == ["Timu A", "Timu B", "Timu C"]
    assert default_side_names("en", 3, 3, NAMES) == NAMES[:3]


# --------------------------------------------------------------------------- text table
def _check_table(text: str, to_act: str, must: list[str]) -> None:
    assert len(text) <= 1500
    lines = text.splitlines()
    assert to_act in lines[1] and "▶" in lines[1], "whose turn is the second line"
    for needle in must:
        assert needle in text, needle


def test_table_text_four_pairs() -> None:
    view = make_view(4, 2, bids=[{"seat": 1, "card": "4C"}, {"seat": 3, "card": "5H"}],
                     exchange={"seat": 3, "gave": "5H", "took": "3H"},
                     current=[[1, "AS"], [2, "7S"]], to_act=3, winning=1)
    text = table_text(view, NAMES[:4], "en", deal_no=3, scores=[2, 1], target=5, shows=ALB)
    _check_table(text, "@Amina", [
        "deal 3", "Team A 2 VP", "Team B 1 VP", "(to 5)", "Dealer: @Neema", "♥ hearts",
        "face-up 5♥ under the stock", "Stock: 7 cards", "@Baraka 4♣ (returned)",
        "@Amina 5♥ → took the indicator 3♥", "Round 4 of 9", "@Baraka **A♠**", "@Juma 7♠",
        "@Amina … (to play)", "Last round: @Neema won with K♥ (eats 6)", "@Baraka 3♣",
        "Rounds eaten: Team A 2 · Team B 1",
    ])


def test_table_text_two_players() -> None:
    view = make_view(2, 1, to_act=1, current=[], stock=20, rounds_total=18, winning=None,
                     bids=[{"seat": 1, "card": None}])
    text = table_text(view, NAMES[:2], "en", deal_no=1, scores=[0, 0], target=5, shows=ALB)
    _check_table(text, "@Baraka", [
        "@Neema 0 VP", "@Baraka 0 VP", "Stock: 20 cards", "face-up 5♥", "Bids: everybody passed",
        "Round 4 of 18: @Baraka leads", "Last round: @Neema won with K♥",
    ])


def test_table_text_five_players_face_up_never_drawn() -> None:
    view = make_view(5, 1, to_act=4, stock=1, face_up="9H" if False else "JH",
                     current=[[2, "KC"], [3, "AC"]], winning=3, rounds_total=7)
    text = table_text(view, NAMES[:5], "en", deal_no=2, scores=[1, 0, 0, 2, 0], target=5, shows=ALB)
    _check_table(text, "@Zawadi", [
        "J♥ face up, never drawn", "Stock: 1 card", "@Amina **A♣**", "@Juma K♣",
        "@Zawadi … (to play)", "Round 4 of 7", "@Amina 2 VP",
    ])


def test_table_text_six_trios_in_swahili() -> None:
    view = make_view(6, 3, to_act=4, face_up=None, stock=0, current=[[3, "7D"]], winning=3,
                     rounds_total=6, bids=[{"seat": 1, "card": "4C"}, {"seat": 3, "card": None},
                                           {"seat": 5, "card": "AD"}])
    text = table_text(view, NAMES, "sw", deal_no=5, scores=[3, 4], target=5, shows=ALB)
    _check_table(text, "@Zawadi", [
        "mgawo wa 5", "Timu A VP 3", "Timu B VP 4", "Turufu: ♥ kopa", "Fungu: limekwisha",
        "@Baraka 4♣ (imerudishwa)", "@Amina amepita", "@Fatuma A♦ (imerudishwa)",
        "Mzunguko wa 4 kati ya 6", "@Amina **7♦**", "Mzunguko uliopita",
    ])
    assert "under the stock" not in text


def test_table_text_while_bidding_hides_the_indicator() -> None:
    view = make_view(4, 2, phase="bidding", trump=None, indicator=None, face_up=None,
                     current=[], winning=None, leader=None, last_trick=None, round=1,
                     tricks_won=[0, 0, 0, 0], to_act=3, stock=16)
    text = table_text(view, NAMES[:4], "en", deal_no=1, scores=[0, 0], target=5, shows=ALB)
    _check_table(text, "@Amina", ["to bid", "Trump: turned after the bids", "Bids: @Baraka 4♣"])
    assert "Round" not in text and "Last round" not in text
    assert "3♥" not in text


def test_table_text_finished_explains_the_result() -> None:
    view = make_view(4, 2, phase="finished", to_act=None, current=[], winning=None,
                     result={"points": [96, 24], "winner": 0, "victory_points": 1,
                             "threshold": 20, "lowest": 1})
    text = table_text(view, NAMES[:4], "en", deal_no=3, scores=[3, 1], target=5, shows=ALB)
    assert "Team A ate 96, Team B ate 24" in text.splitlines()[1], "the result is the news"
    assert "every team ate at least 20, so Team A scores 1 VP" in text.replace("Every", "every")
    assert "▶" not in text


def test_table_text_custom_side_names_and_long_names_stay_short() -> None:
    long_names = [f"<@{10**17 + i}>" + "x" * 60 for i in range(6)]
    view = make_view(6, 2, current=[[s, c] for s, c in zip(range(5),
                                                           ["AS", "7S", "KS", "JS", "QS"],
                                                           strict=True)], to_act=5)
    text = table_text(view, long_names, "en", deal_no=12, scores=[4, 4, 4], target=5,
                      side_names=["Simba", "Yanga", "Azam"], shows=ALB)
    assert len(text) <= 1500
    assert "Simba 4 VP" in text and "▶" in text


# --------------------------------------------------------------------------- hand header
def test_hand_text_playing() -> None:
    view = make_view(4, 2, seat=3, to_act=3, hand=["AH", "7C"])
    assert hand_text(view, "en", NAMES, shows=ALB) == "Your hand — your turn (round 4, trump ♥)"
    view = make_view(4, 2, seat=1, to_act=3, hand=["AH"])
    assert hand_text(view, "en", NAMES, shows=ALB) == (
        "Your hand — waiting for @Amina (round 4, trump ♥)")
    assert "@Amina" in hand_text(view, "sw", NAMES, shows=ALB)


def test_hand_text_bidding_names_taken_suits() -> None:
    view = make_view(4, 2, phase="bidding", seat=3, to_act=3, trump=None, face_up=None,
                     hand=["AH", "4D"], bids=[{"seat": 1, "card": "4C"}])
    text = hand_text(view, "en", NAMES, shows=ALB)
    assert "your turn to bid" in text and "Suits already bid: ♣ clubs" in text
    view = make_view(4, 2, phase="bidding", seat=2, to_act=1, trump=None, face_up=None,
                     hand=["AH"], bids=[])
    text = hand_text(view, "en", NAMES, shows=ALB)
    assert "waiting for @Baraka" in text and "dealer's side" in text
    assert "No suit has been bid yet." in text


# --------------------------------------------------------------------------- results
@pytest.mark.parametrize(
    ("result", "sides", "expected"),
    [
        ({"points": [60, 60], "winner": None, "victory_points": 0, "threshold": 20,
          "lowest": 0}, ["Team A", "Team B"],
         "Tie for the most points (60 each) between Team A and Team B: nobody scores."),
        ({"points": [96, 24], "winner": 0, "victory_points": 1, "threshold": 20, "lowest": 1},
         ["Team A", "Team B"], "Every team ate at least 20, so Team A scores 1 VP."),
        ({"points": [20, 100], "winner": 1, "victory_points": 1, "threshold": 20, "lowest": 0},
         ["Team A", "Team B"], "Every team ate at least 20, so Team B scores 1 VP."),
        ({"points": [106, 14], "winner": 0, "victory_points": 2, "threshold": 20, "lowest": 1},
         ["Team A", "Team B"], "Team B ate only 14 — under 20 — so Team A scores 2 VP."),
        ({"points": [50, 40, 30], "winner": 0, "victory_points": 1, "threshold": 10,
          "lowest": 2}, ["Neema", "Baraka", "Juma"],
         "Every player ate at least 10, so Neema scores 1 VP."),
        ({"points": [70, 46, 4], "winner": 0, "victory_points": 2, "threshold": 10,
          "lowest": 2}, ["Neema", "Baraka", "Juma"],
         "Juma ate only 4 — under 10 — so Neema scores 2 VP."),
        ({"points": [50, 50, 20], "winner": None, "victory_points": 0, "threshold": 10,
          "lowest": 2}, ["Neema", "Baraka", "Juma"],
         "Tie for the most points (50 each) between Neema and Baraka: nobody scores."),
        ({"points": [80, 40], "winner": 0, "victory_points": 1, "threshold": 30, "lowest": 1},
         ["Team A", "Team B"], "Team B ate 40 — at least 30 — so Team A scores 1 VP."),
        ({"points": [95, 25], "winner": 0, "victory_points": 2, "threshold": 30, "lowest": 1},
         ["Team A", "Team B"], "Team B ate only 25 — under 30 — so Team A scores 2 VP."),
        ({"points": [60, 60], "winner": None, "victory_points": 0, "threshold": 30,
          "lowest": 0}, ["Team A", "Team B"],
         "Tie for the most points (60 each) between Team A and Team B: nobody scores."),
    ],
)
def test_explain_result(result: dict[str, Any], sides: list[str], expected: str) -> None:
    assert explain_result("en", result, sides) == expected
    sw = explain_result("sw", result, sides)
    assert sw != expected and all(name in sw for name in sides if name in expected)


def test_explain_result_swahili_agrees_with_people_and_teams() -> None:
    solo = {"points": [70, 46, 4], "winner": 0, "victory_points": 2, "threshold": 10, "lowest": 2}
    team = {"points": [106, 14], "winner": 0, "victory_points": 2, "threshold": 20, "lowest": 1}
    assert "Juma amekula 4 tu" in explain_result("sw", solo, ["Neema", "Baraka", "Juma"])
    assert "Timu B imekula 14 tu" in explain_result("sw", team, ["Timu A", "Timu B"])


def test_deal_summary() -> None:
    result = {"points": [96, 24], "winner": 0, "victory_points": 1, "threshold": 20, "lowest": 1}
    assert deal_summary_text("en", result, ["Team A", "Team B"], deal_no=3, shows=ALB) == (
        "Deal 3 — Team A ate 96, Team B ate 24. "
        "Every team ate at least 20, so Team A scores 1 VP."
    )


# --------------------------------------------------------------------------- picture
def _decode(jpeg: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(jpeg))
    img.load()
    return img


@pytest.mark.parametrize(("players", "team_size"), [(2, 1), (3, 1), (4, 2), (4, 1), (5, 1),
                                                    (6, 1), (6, 2), (6, 3)])
def test_picture_every_mode(players: int, team_size: int) -> None:
    view = make_view(players, team_size, current=[[s, c] for s, c in
                                                  zip(range(players - 1),
                                                      ["AS", "7S", "KS", "JS", "QS"],
                                                      strict=False)])
    picture = table_picture(view, NAMES[:players], "en", shows=ALB)
    img = _decode(picture)
    assert img.format == "JPEG" and img.size == (800, 500)
    assert len(picture) < 150_000


def test_picture_changes_when_a_card_is_played() -> None:
    before = make_view(4, 2, current=[[1, "AS"]], to_act=2)
    after = make_view(4, 2, current=[[1, "AS"], [2, "7S"]], to_act=3,
                      hand_sizes=[5, 4, 4, 5])
    assert table_picture(before, NAMES[:4], "en", shows=ALB) != table_picture(
        after, NAMES[:4], "en", shows=ALB)
    plain = table_picture(before, NAMES[:4], "en", highlight_winning=False, shows=ALB)
    assert plain != table_picture(before, NAMES[:4], "en", shows=ALB)


def test_picture_bidding_and_finished() -> None:
    bidding = make_view(4, 2, phase="bidding", trump=None, indicator=None, face_up=None,
                        current=[], winning=None, last_trick=None, stock=16)
    finished = make_view(4, 2, phase="finished", to_act=None, current=[], stock=0,
                         face_up=None, hand_sizes=[0] * 4)
    for view in (bidding, finished):
        assert _decode(table_picture(view, NAMES[:4], "en", shows=ALB)).size == (800, 500)


@pytest.mark.parametrize("name", ["Zoë", "中文名字", "🎲🎲", "", "<@123456789012345678>",
                                  "x" * 200, "\u202eevil", "a\nb"])
def test_picture_any_name_never_crashes(name: str) -> None:
    view = make_view(4, 2)
    assert _decode(table_picture(view, [name, "Baraka", name, "Amina"], "en",
                                 shows=ALB)).size == (800, 500)


def test_picture_saved_for_a_look() -> None:
    view = make_view(4, 2, bids=[{"seat": 1, "card": "4C"}, {"seat": 3, "card": "5H"}],
                     exchange={"seat": 3, "gave": "5H", "took": "3H"},
                     current=[[1, "AS"], [2, "7S"]], to_act=3, winning=1,
                     hand_sizes=[5, 4, 4, 5])
    picture = table_picture(view, ["Neema", "Baraka", "Juma", "Amina"], "en", shows=ALB)
    with open(f"/tmp/{PICTURE_FILE}", "wb") as fh:
        fh.write(picture)


# --------------------------------------------------------------------------- nothing hidden
def _hidden_cards(deal: Any) -> set[str]:
    """Cards in hands that nobody else has seen: bid cards were shown face up to everyone and
    the indicator taken in an exchange was seen too, so those may be named."""
    hands: set[str] = set()
    for seat in range(deal.players):
        hands |= set(deal.view(seat)["hand"])
    public = deal.view(None)
    seen = {b["card"] for b in public["bids"] if b["card"]}
    if public["exchange"]:
        seen.add(public["exchange"]["took"])
    return hands - seen


@pytest.mark.parametrize(("players", "team_size"), [(2, 1), (4, 2), (5, 1), (6, 3), (6, 2)])
def test_public_text_and_picture_show_no_hidden_card(players: int, team_size: int) -> None:
    names = NAMES[:players]
    for seed in range(3):
        rng = random.Random(seed)
        deal = new_deal(players, team_size, dealer=seed % players, seed=seed)
        step = 0
        while True:
            public = deal.view(None)
            hidden = _hidden_cards(deal)
            if public["phase"] == "bidding":  # the indicator is still face down
                hidden.add(deal.indicator_card.code)
            scores = [0] * public["teams"]
            for lang in LANGUAGES:
                text = table_text(public, names, lang, deal_no=1, scores=scores, target=5,
                                  shows=ALB)
                for code in hidden:
                    assert card_label(code) not in text, (code, text)
            stuffed = dict(public, hand=sorted(hidden))
            assert table_text(stuffed, names, "en", deal_no=1, scores=scores, target=5,
                              shows=ALB) == (
                table_text(public, names, "en", deal_no=1, scores=scores, target=5, shows=ALB))
            if step % 15 == 0:
                # The picture is drawn from public fields only: seat 0's own view (with its
                # hand) and a public view stuffed with every hidden card draw the same picture.
                jpeg = table_picture(public, names, "en", shows=ALB)
                assert table_picture(deal.view(0), names, "en", shows=ALB) == jpeg
                assert table_picture(stuffed, names, "en", shows=ALB) == jpeg
            if deal.phase == "finished":
                break
            deal.apply(rng.choice(deal.legal_actions()))
            step += 1


def test_every_text_of_the_table_has_a_catalogue_entry_in_swahili() -> None:
    view = make_view(4, 2)
    text = table_text(view, NAMES[:4], "sw", deal_no=1, scores=[0, 0], target=5, shows=ALB)
    for key in ["table.dealer", "table.round"]:
        assert t("sw", key).split("{")[0] in text


def test_hand_made_view_with_a_hand_leaks_nothing() -> None:
    """Even a view wrongly carrying a hand never shows it: text and picture use public fields."""
    secret = ["AH", "7D", "KC", "JS", "QC"]  # none of them on the table
    public = make_view(4, 2)
    leaky = dict(public, hand=secret, legal=[f"play:{c}" for c in secret])
    text = table_text(leaky, NAMES[:4], "en", deal_no=1, scores=[0, 0], target=5, shows=ALB)
    for code in secret:
        assert card_label(code) not in text
    assert text == table_text(public, NAMES[:4], "en", deal_no=1, scores=[0, 0], target=5,
                              shows=ALB)
    assert table_picture(leaky, NAMES[:4], "en", shows=ALB) == table_picture(
        public, NAMES[:4], "en", shows=ALB)


def test_picture_from_several_threads_at_once_is_the_same_picture() -> None:
    """Sprites are cached lazily: threads racing to fill the caches must all draw it right."""
    from concurrent.futures import ThreadPoolExecutor

    from cogs.render import sprites

    views = [make_view(p, ts, to_act=p - 1) for p, ts in [(2, 1), (3, 1), (4, 2), (5, 1), (6, 3)]]
    serial = [table_picture(v, NAMES[: v["players"]], "en", shows=ALB) for v in views]
    sprites._SPRITES.clear()
    with ThreadPoolExecutor(max_workers=4) as pool:
        parallel = list(pool.map(lambda v: table_picture(v, NAMES[: v["players"]], "en", shows=ALB),
                                                         views * 4))
    assert parallel == serial * 4


# --------------------------------------------------------------------------- names in any script
def test_names_in_other_alphabets_are_drawn_with_their_own_letters() -> None:
    from cogs.render import fonts

    for name in ("Zoë", "Дмитрий", "Αλέξης", "രാജേഷ്", "राहुल", "王小明", "김민준", "สมชาย"):
        assert fonts.drawable_name(name, 0) == name  # not folded to ASCII, nor to "?"
        # each letter has a shape of its own in one of the fonts, not the "missing glyph" box
        for ch in name:
            index = fonts.font_for(ch)
            assert index is not None, ch
            assert bytes(fonts.sprite_font(14, index).getmask(ch)) != fonts.notdef_mask(index), ch
    # Egyptian hieroglyphs are in no font: the plate shows the seat number alone (the text form
    # of the table, beside the picture, names everyone)
    assert fonts.drawable_name("\U00013080\U00013081", 3) == ""


def test_picture_draws_names_in_every_script_and_falls_back_for_one_it_lacks() -> None:
    view = make_view(4, 2)
    names = ["Zoë", "Дмитрий", "രാജേഷ്", "\U00013080\U00013081"]
    picture = table_picture(view, names, "en", shows=ALB)
    for seat in range(3):  # without the name, the plate would show "#2" alone: another picture
        assert picture != table_picture(view, [n if i != seat else "" for i, n in
                                               enumerate(names)], "en", shows=ALB), names[seat]
    assert picture == table_picture(view, [*names[:3], ""], "en",
                                    shows=ALB)  # no glyphs: the seat number alone


def test_the_font_ships_with_the_package() -> None:
    import fnmatch
    import tomllib
    from importlib import resources
    from pathlib import Path

    fonts = resources.files("cogs").joinpath("fonts")
    assert fonts.joinpath("DejaVuSans.ttf").is_file()
    assert "Bitstream" in fonts.joinpath("LICENSE").read_text(encoding="utf-8")
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    patterns = data["tool"]["setuptools"]["package-data"]["cogs"]
    from cogs.render.fonts import FONT_FILES

    for name in (*FONT_FILES, "fonts/LICENSE", "fonts/LICENSE-Noto",
                 "fonts/LICENSE-DroidSansFallback"):
        assert resources.files("cogs").joinpath(name).is_file(), name
        assert any(fnmatch.fnmatch(name, p) for p in patterns), name
