"""The picture's fonts: every script a player's name or a catalogue commonly uses is drawn with
its own letters, never the "missing glyph" box. Each run of text a picture draws is checked
against the character map of the font it is drawn in, read by fontTools (independently of
Pillow, which chooses the runs), and against Pillow's own rendering of the font's box."""

from __future__ import annotations

import unicodedata
from functools import cache
from importlib import resources

import pytest
from fontTools.ttLib import TTFont

from cogs.games import presenter
from cogs.i18n import LANGUAGES, catalogue
from cogs.render import fonts, picture
from tests.cogs.tables import every_sample

#: A name in each script the fonts cover, as players write them.
NAMES = {
    "Latin": "Zoë Ngũgĩ",
    "Cyrillic": "Дмитрий",
    "Greek": "Αλέξης",
    "Malayalam": "രാജേഷ് കുമാർ",
    "Devanagari": "राहुल शर्मा",
    "Tamil": "தமிழ்செல்வன்",
    "Telugu": "శ్రీనివాస్",
    "Kannada": "ಕನ್ನಡಿಗ",
    "Bengali": "সৌমিত্র",
    "Thai": "สมชาย",
    "Arabic": "محمد علي",
    "Hebrew": "אביגיל",
    "Chinese": "王小明",
    "Japanese": "さくら・タナカ",
    "Korean": "김민준",
}


@cache
def cmap(index: int) -> frozenset[int]:
    """The code points font ``index`` has a glyph for, from its own character map."""
    path = resources.files("cogs").joinpath(fonts.FONT_FILES[index])
    with TTFont(str(path), lazy=True) as font:
        return frozenset(font.getBestCmap())


def boxes_in(text: str) -> list[tuple[str, str]]:
    """Characters of ``text`` that the font of their run would draw as a box."""
    missing = []
    for index, run in fonts.runs(text):
        for ch in run:
            if ch.isspace() or unicodedata.category(ch) in ("Cf", "Mn", "Mc", "Me"):
                continue  # drawn as part of a cluster, or no shape of its own
            if ord(ch) not in cmap(index):
                missing.append((ch, fonts.FONT_FILES[index]))
            elif bytes(fonts.sprite_font(14, index).getmask(ch)) == fonts.notdef_mask(index):
                missing.append((ch, f"{fonts.FONT_FILES[index]} (Pillow)"))
    return missing


@pytest.mark.parametrize("game", ["albastini", "twentyeight", "cassino", "ass"])
def test_a_table_with_a_name_in_every_script_draws_no_box(game: str) -> None:
    scripts = list(NAMES)
    samples = [s for s in every_sample() if s.game == game and s.moment == "start"]
    drawn = set()
    for sample in samples:
        for first in range(0, len(scripts), sample.view["players"]):
            names = [NAMES[scripts[(first + i) % len(scripts)]]
                     for i in range(sample.view["players"])]
            view = {**sample.view, "names": names}
            layout = picture.lay_out(view, names, "en", shows=presenter(game))
            texts = layout.texts()
            for name in names:
                shown = [x for x in texts if name[:2] in x]
                assert shown, (name, texts)  # the name is on its plate, not folded to "?"
                drawn.add(name)
            for text in texts:
                assert boxes_in(text) == [], text
    assert drawn == set(NAMES.values())


def _on_the_picture(key: str) -> bool:
    return "picture." in key or key.startswith((
        "team.", "computer.", "seat.", "suit.", "rank.", "table.finished", "mode.short."))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalogue_word_of_the_picture_is_in_a_font(lang: str) -> None:
    """No text of any catalogue that the picture draws (its labels, the plates' words, the
    results' headings, team and computer names, suits and ranks) holds a character the fonts
    would draw as a box."""
    keys = [key for key in catalogue(lang) if _on_the_picture(key)]
    assert len(keys) > 80
    for key in keys:
        assert boxes_in(catalogue(lang)[key]) == [], (key, catalogue(lang)[key])


def test_each_font_is_chosen_for_its_own_script() -> None:
    """A Malayalam letter is drawn in Noto Sans Malayalam, a Chinese one in the CJK font; the
    first font keeps Latin and Cyrillic; a mark stays with its letter's run."""
    def font_of(ch: str) -> str:
        index = fonts.font_for(ch)
        assert index is not None, ch
        return fonts.FONT_FILES[index]

    assert font_of("A") == font_of("Д") == fonts.FONT_FILE
    assert "Malayalam" in font_of("ക") and "Devanagari" in font_of("क")
    assert "Droid" in font_of("王") and "Droid" in font_of("김")
    runs = fonts.runs("1. രാജേഷ് (Raj)")
    assert [fonts.FONT_FILES[i].split("/")[-1] for i, _ in runs] == [
        "DejaVuSans.ttf", "NotoSansMalayalam-Regular.ttf", "DejaVuSans.ttf"]
    assert "".join(run for _, run in runs) == "1. രാജേഷ് (Raj)"
    assert runs[1][1].startswith("രാജേഷ്")  # the virama and vowel signs with their letters


def test_fonts_are_small_enough_to_ship() -> None:
    """What the fonts weigh in the install (README says it): under 6 MB in all, the CJK font
    the largest."""
    sizes = {name: resources.files("cogs").joinpath(name).read_bytes().__len__()
             for name in fonts.FONT_FILES}
    assert sum(sizes.values()) < 6_000_000, sizes
    assert max(sizes, key=lambda n: sizes[n]).endswith("DroidSansFallback.ttf")
