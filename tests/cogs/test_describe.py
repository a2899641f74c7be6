"""The picture in words (its alt text): what a screen reader says about the table, for every
game, mode and moment (tests/cogs/tables.py), in every language: within Discord's limit, the
public story in words, no hidden card."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cogs.games import presenter, rules
from cogs.i18n import LANGUAGES, t
from cogs.render import ALT_LIMIT, describe_table
from cogs.render.describe import card_name, speakable
from cogs.render.picture import side_count
from cogs.render.text import default_side_names
from tests.cogs.tables import Sample, every_sample

SAMPLES = [s for s in every_sample() if s.moment != "crowded table"]


def cases() -> list[Any]:
    return [pytest.param(s, lang, id=f"{s}-{lang}".replace(" ", "_"))
            for s in SAMPLES for lang in LANGUAGES]


def said(sample: Sample, lang: str) -> str:
    return describe_table(sample.view, sample.view["names"], lang, shows=presenter(sample.game))


def spoken(lang: str, code: str, game: str = "albastini") -> str:
    return card_name(lang, code[:-1], code[-1], game)


@pytest.mark.parametrize(("sample", "lang"), cases())
def test_it_fits_discord_and_reads_as_words(sample: Sample, lang: str) -> None:
    text = said(sample, lang)
    assert 0 < len(text) <= ALT_LIMIT == 1024
    assert not re.search(r"[♣♦♥♠▶🏁🂠✓*]|<@", text), text
    assert "{" not in text


@pytest.mark.parametrize(("sample", "lang"), cases())
def test_it_says_the_game_the_deal_the_score_and_the_turn(sample: Sample, lang: str) -> None:
    view = sample.view
    shows = presenter(sample.game)
    text = said(sample, lang)
    assert text.startswith(t(lang, "alt.title", game=t(lang, f"choice.game.{sample.game}"),
                             deal=7))
    for score in view["scores"]:
        assert shows.score_text(lang, shows.shown_score(score)) in text
    target = shows.target_text(lang, view["target"])
    assert (target is None) == (not rules(sample.game).has_target)
    if target:
        assert target in text
    if view["phase"] == "finished":
        assert t(lang, "alt.over") in text
    elif isinstance(view.get("to_act"), int):
        seat = view["to_act"]
        name = view["names"][seat]
        shown = t(lang, "picture.seat", seat=seat + 1) if name.startswith("<@") else name
        assert shown in text


@pytest.mark.parametrize(("sample", "lang"),
                         [c for c in cases() if c.values[0].moment == "end"])
def test_at_the_end_it_says_the_result(sample: Sample, lang: str) -> None:
    view = sample.view
    shows = presenter(sample.game)
    names = [t(lang, "picture.seat", seat=i + 1) if n.startswith("<@") else n
             for i, n in enumerate(view["names"])]
    sides = default_side_names(lang, view["players"], side_count(view), names)
    summary = speakable(lang, shows.deal_summary(lang, view["result"], sides, deal_no=7,
                                                 team_size=view.get("team_size")), sample.game)
    assert summary[:60] in said(sample, lang)


@pytest.mark.parametrize(("sample", "lang"), cases())
def test_it_names_no_hidden_card(sample: Sample, lang: str) -> None:
    text = said(sample, lang)
    for code in sample.hidden:
        assert not re.search(re.escape(spoken(lang, code, sample.game)) + r"\b", text), code
    stuffed = {**sample.view, "hand": sorted(sample.hidden)}
    assert describe_table(stuffed, sample.view["names"], lang,
                          shows=presenter(sample.game)) == text


def test_the_trick_is_said_card_by_card_with_the_card_that_wins_it() -> None:
    sample = next(s for s in SAMPLES if s.game == "albastini" and s.mode == "4/2"
                  and s.moment == "busy trick")
    text = said(sample, "en")
    view = sample.view
    for _seat, code in view["current"]:
        assert spoken("en", code) in text
    winning = dict(view["current"])[view["winning"]]
    assert f"{spoken('en', winning)}, winning so far" in text
    assert "Last round:" in text and "Round 2 of 9" in text


def test_cards_and_suits_are_words_in_the_readers_language() -> None:
    assert speakable("en", "Trump: ♥ hearts (face-up 5♥ under the stock)", "albastini") == (
        "Trump: hearts (face-up Five of hearts under the stock)")
    assert speakable("sw", "**A♠** · 10♦", "cassino") == "Azi ya shupaza; Kumi ya kisu"
    assert speakable("sw", "A♠ 7♦ K♣", "albastini") == (
        "Dume ya shupaza Jike ya kisu Mzungu ya karanga")
    assert speakable("en", "▶ **@Juma** to play 🂠", "twentyeight") == "@Juma to play"
