"""The table picture as a player sees it, read from its layout (the boxes the renderer draws):
for every game, every mode and the moments that crowd it most (tests/cogs/tables.py), nothing
covers a plate or another card, everything is large enough to read on a phone, every number
has a word or an icon beside it, the score, target and deal are there, and the end of a deal
shows its result."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from cogs.games import presenter, rules
from cogs.i18n import LANGUAGES, t
from cogs.render import picture
from cogs.render.layout import GAP, MIN_CARD, MIN_TEXT, Box, Layout
from cogs.render.picture import side_count, side_labels
from tests.cogs.tables import Sample, every_sample

SAMPLES = list(every_sample())
CANVAS = Box(0, 0, picture.WIDTH, picture.HEIGHT)


def lay_out(sample: Sample, lang: str) -> Layout:
    names = sample.view["names"]
    return picture.lay_out(sample.view, names, lang, shows=presenter(sample.game))


def _cases() -> Iterator[Any]:
    for sample in SAMPLES:
        for lang in LANGUAGES:
            yield pytest.param(sample, lang, id=f"{sample}-{lang}".replace(" ", "_"))


def cases() -> list[Any]:
    return list(_cases())


def test_the_samples_cover_every_game_mode_and_moment() -> None:
    seen = {(s.game, s.mode.split()[0]) for s in SAMPLES}
    for name in ("albastini", "twentyeight", "cassino", "ass"):
        for p, ts in rules(name).modes:
            assert (name, f"{p}/{ts}") in seen
    moments = {s.moment for s in SAMPLES}
    assert {"start", "busy trick", "trick won", "end", "bids shown", "auction", "trump hidden",
            "trump shown", "build", "crowded table"} <= moments


@pytest.mark.parametrize(("sample", "lang"), cases())
def test_nothing_covers_a_plate_or_another_card(sample: Sample, lang: str) -> None:
    layout = lay_out(sample, lang)
    assert layout.clashes() == []
    outside = [el for el in layout.elements if not el.box.within(CANVAS)]
    assert outside == []


@pytest.mark.parametrize(("sample", "lang"), cases())
def test_every_text_and_card_reads_on_a_phone(sample: Sample, lang: str) -> None:
    """At 400 px wide (a phone), half these sizes: see cogs/render/layout.py."""
    layout = lay_out(sample, lang)
    small_text = [el.text for el in layout.elements if el.kind == "text"
                  and el.size[0] < MIN_TEXT]
    assert small_text == []
    small_cards = [el for el in layout.elements if el.kind in ("card", "back")
                   and (min(el.size) < min(MIN_CARD) or max(el.size) < max(MIN_CARD))]
    assert small_cards == []
    assert all(el.box.width >= 24 for el in layout.elements if el.kind in ("disc", "chip"))


@pytest.mark.parametrize(("sample", "lang"), cases())
def test_words_drawn_on_a_flat_colour_lie_inside_it(sample: Sample, lang: str) -> None:
    """A word drawn as an opaque sprite (on a plate, a panel, the dealer's chip) must lie
    inside that piece, or its box of flat colour would show over the edge."""
    layout = lay_out(sample, lang)
    for el in layout.elements:
        if el.kind == "text" and el.sprite is not None and el.sprite.mode == "RGB":
            under = [Box(m.box.x0 + 3, m.box.y0 + 3, m.box.x1 - 3, m.box.y1 - 3)
                     for m in layout.of_group(el.group) if m.kind in ("plate", "panel", "chip")]
            assert any(el.box.within(box) for box in under), (el.group, el.text)


_NUMBER = re.compile(r"^[\s+\-−\d]+$")


@pytest.mark.parametrize(("sample", "lang"), cases())
def test_every_number_has_a_word_or_an_icon_beside_it(sample: Sample, lang: str) -> None:
    """A bare number ("12") only in a group that also holds a word or an icon (a hand's card
    back, the last trick's cards under which seats are numbered, the contract's heading)."""
    layout = lay_out(sample, lang)
    for el in layout.elements:
        if el.kind == "text" and _NUMBER.match(el.text):
            mates = [m for m in layout.of_group(el.group) if m is not el]
            assert any(m.kind in ("icon", "card", "back") or (
                m.kind == "text" and re.search(r"[^\W\d_]", m.text)) for m in mates), (
                el.group, el.text)


def _score_texts(sample: Sample, lang: str) -> list[str]:
    shows = presenter(sample.game)
    return [shows.score_text(lang, shows.shown_score(s)) for s in sample.view["scores"]]


@pytest.mark.parametrize(("sample", "lang"), cases())
def test_score_target_and_deal_are_on_it(sample: Sample, lang: str) -> None:
    layout = lay_out(sample, lang)
    box = [el.text for el in layout.of_group("score") if el.kind == "text"]
    assert "7" in box[0]  # the deal's number, first
    texts = layout.texts()
    for score in _score_texts(sample, lang):
        assert any(score in text for text in texts), score
    said = presenter(sample.game).target_text(lang, sample.view["target"])
    if rules(sample.game).has_target:
        assert said and said.split()[0] in " ".join(box)
    else:
        assert said is None


@pytest.mark.parametrize(("sample", "lang"), cases())
def test_team_colours_have_a_legend(sample: Sample, lang: str) -> None:
    view = sample.view
    layout = lay_out(sample, lang)
    swatches = [el for el in layout.of_group("score") if el.kind == "swatch"]
    if side_count(view) < view["players"]:
        assert len(swatches) == side_count(view)
        box = " ".join(el.text for el in layout.of_group("score"))
        for side in side_labels(lang, view, view["names"]):
            assert side in box
    else:
        assert swatches == []  # solo: each plate has its name and score


@pytest.mark.parametrize(("sample", "lang"),
                         [c for c in cases() if c.values[0].moment == "end"])
def test_the_end_of_a_deal_shows_its_result_and_the_last_trick(sample: Sample,
                                                                lang: str) -> None:
    view = sample.view
    layout = lay_out(sample, lang)
    shown = " ".join(el.text for el in layout.of_group("result"))
    assert t(lang, "picture.result.title", deal=7) in shown
    table = presenter(sample.game).result_table(lang, view["result"],
                                                side_labels(lang, view, view["names"]))
    for row in table.rows:
        for cell in row:
            assert cell in shown
    if view.get("last_trick"):
        assert any(el.kind == "card" for el in layout.of_group("last"))


@pytest.mark.parametrize(("sample", "lang"),
                         [c for c in cases() if c.values[0].moment == "trump hidden"])
def test_twentyeights_face_down_trump_lies_apart_from_the_played_cards(sample: Sample,
                                                                       lang: str) -> None:
    layout = lay_out(sample, lang)
    groups = layout.groups()
    trump = groups["trump"]
    assert [el.kind for el in layout.of_group("trump")].count("back") == 1
    for group, box in groups.items():
        if group.startswith("front "):
            assert not trump.touches(box, 3 * GAP), group


@pytest.mark.parametrize(("sample", "lang"), cases())
def test_no_hidden_card_is_drawn(sample: Sample, lang: str) -> None:
    """Every card face drawn is one the public view shows, and a view stuffed with the hidden
    cards is laid out the same."""
    layout = lay_out(sample, lang)
    faces = {el.text for el in layout.elements if el.kind == "card"}
    assert not faces & sample.hidden
    stuffed = {**sample.view, "hand": sorted(sample.hidden), "trump_card":
               sample.view.get("trump_card")}
    again = picture.lay_out(stuffed, sample.view["names"], lang,
                            shows=presenter(sample.game))
    assert [(e.kind, e.box, e.text) for e in again.elements] == [
        (e.kind, e.box, e.text) for e in layout.elements]


def test_a_crowded_cassino_table_says_how_many_more_it_holds() -> None:
    crowded = [s for s in SAMPLES if s.moment == "crowded table"]
    assert len(crowded) == 3
    for sample in crowded:
        layout = lay_out(sample, "en")
        drawn = [g for g in layout.groups() if g.startswith("table ") and g != "table more"]
        items = len(sample.view["table"])
        more = [el.text for el in layout.elements if el.group == "table more"]
        if len(drawn) < items:
            assert more == [f"+{items - len(drawn)} more"]
        assert len(drawn) >= 8
