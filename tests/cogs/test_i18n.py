"""The catalogues: same keys and placeholders in every language, safe lookups, rules pages."""

from __future__ import annotations

import ast
import json
import re
from importlib import resources
from pathlib import Path

import pytest

from albastini.games import GAMES
from cogs import i18n
from cogs.i18n import LANGUAGES, catalogue, join_list, placeholders, t, tn

COGS = Path(__file__).resolve().parents[2] / "cogs"
#: The renderer and the games' presenters: the texts of the table, the hand and the results.
RENDER = sorted([*(COGS / "render").glob("*.py"), *(COGS / "games").glob("*.py")])


def test_languages_are_english_swahili_malayalam_and_russian() -> None:
    assert LANGUAGES == ("en", "sw", "ml", "ru")
    for lang in ("ml", "ru"):  # offered under their own names, in every catalogue
        names = {catalogue(other)[f"language.{lang}"] for other in LANGUAGES}
        assert names == {{"ml": "മലയാളം", "ru": "Русский"}[lang]}


def test_catalogues_are_package_data_and_valid_json() -> None:
    for lang in LANGUAGES:
        text = resources.files("cogs.i18n").joinpath(f"{lang}.json").read_text(encoding="utf-8")
        data = json.loads(text)
        assert data and all(isinstance(v, str) and v for v in data.values())


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_catalogues_have_the_same_keys(lang: str) -> None:
    en, other = set(catalogue("en")), set(catalogue(lang))
    assert sorted(en - other) == [], f"missing in {lang}"
    assert sorted(other - en) == [], "missing in en"


@pytest.mark.parametrize("key", sorted(catalogue("en")))
def test_placeholders_match_across_languages(key: str) -> None:
    expected = placeholders(catalogue("en")[key])
    for lang in LANGUAGES:
        assert placeholders(catalogue(lang)[key]) == expected, (lang, key)


def test_every_text_formats_with_its_placeholders() -> None:
    for lang in LANGUAGES:
        for key, text in catalogue(lang).items():
            values = {name: "X" for name in placeholders(text)}
            assert "{" not in t(lang, key, **values).replace("{{", ""), (lang, key)


#: Texts every catalogue keeps as English writes them: names (the bot's, the languages' own,
#: Albastini's), and the command names of languages Discord has no client locale for (its
#: English client shows English names, which the help and rules of those languages quote).
SAME_BY_DESIGN = {"app.name", "cmd.albastini.name", "choice.game.albastini",
                  *(f"language.{lang}" for lang in LANGUAGES)}


def _no_discord_locale(lang: str) -> bool:
    from cogs.ui.lang import LOCALE_LANGUAGES

    return lang not in LOCALE_LANGUAGES.values()


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_no_leftover_english_in_other_languages(lang: str) -> None:
    en, other = catalogue("en"), catalogue(lang)

    def words(text: str) -> str:
        return re.sub(r"\{[^}]*\}|[^A-Za-z ]", "", text).strip()

    def by_design(key: str) -> bool:
        if key in SAME_BY_DESIGN:
            return True
        return _no_discord_locale(lang) and key.startswith("cmd.") and key.endswith(".name")

    same = [k for k in en if en[k] == other[k] and len(words(en[k])) > 8 and not by_design(k)]
    assert same == []
    if lang in ("ml", "ru"):  # no sentence of the other scripts' catalogues is left in Latin
        latin = [k for k, v in other.items() if len(words(v).split()) >= 4 and not by_design(k)
                 and not re.search(r"[\u0d00-\u0d7f\u0400-\u04ff]", v)]
        assert latin == []


def test_lookup_and_format() -> None:
    assert t("en", "refuse.not_your_turn", name="@Juma") == (
        "It's @Juma's turn — you'll be able to play in a moment."
    )
    assert "@Juma" in t("sw", "refuse.not_your_turn", name="@Juma")


def test_missing_key_falls_back_to_english_then_to_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    sw = dict(catalogue("sw"))
    del sw["button.join"]
    monkeypatch.setattr(i18n, "catalogue", lambda lang: sw if lang == "sw" else catalogue(lang))
    i18n._raw.cache_clear()  # texts are cached once looked up
    try:
        assert i18n.t("sw", "button.join") == "Join"
        assert i18n.t("sw", "no.such.key") == "no.such.key"
    finally:
        i18n._raw.cache_clear()  # no patched text left for the other tests


def test_missing_placeholder_does_not_crash() -> None:
    raw = catalogue("en")["refuse.not_your_turn"]
    assert t("en", "refuse.not_your_turn") == raw
    assert t("en", "refuse.not_your_turn", other="x") == raw


def test_unknown_language_falls_back_to_english() -> None:
    assert t("fr", "button.join") == "Join"
    assert i18n.normalize_lang("sw-TZ") == "sw"
    assert i18n.normalize_lang("en-US") == "en"
    assert i18n.normalize_lang(None) == "en"


def test_plurals_and_lists() -> None:
    assert tn("en", "table.stock", 1) == "Stock: 1 card"
    assert tn("en", "table.stock", 7) == "Stock: 7 cards"
    assert join_list("en", ["A", "B", "C"]) == "A, B and C"
    assert join_list("sw", ["A", "B"]) == "A na B"
    assert join_list("en", []) == ""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_pages_fit_discord_and_cover_the_game(lang: str) -> None:
    cat = catalogue(lang)
    pages = sorted(k for k in cat if k.startswith("rules.page."))
    assert 4 <= len(pages) <= 6
    assert pages == [f"rules.page.{i}" for i in range(1, len(pages) + 1)]
    assert all(len(cat[k]) < 1800 for k in pages)
    text = " ".join(cat[k] for k in pages)
    for needle in ["A 7 K J Q 6 5 4 3", "11", "120", "20", "30"]:
        assert needle in text
    if lang == "sw":
        for word in ["kula", "turufu", "otea", "dume", "jike", "mzungu", "ngarasha"]:
            assert word in text.lower()


#: Words of each game's own players that its rules say in their language.
HOME_WORDS = {
    ("twentyeight", "ml"): ["ലേലം", "തുറുപ്പ്", "തനി", "കുണുക്ക്", "ഗുലാൻ"],
    ("ass", "ru"): ["банк", "козыр", "иду", "пас", "взятк"],
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", ["twentyeight", "cassino", "ass"])
def test_every_games_rules_in_every_language_fit_a_message(game: str, lang: str) -> None:
    """Each game's rules come in as many pages as in English, each under Discord's 2,000
    characters with its title, keeping the rules' numbers (of two digits and more: "3 players"
    may be a word); the game's home language says
    them in its players' words."""
    cat, en = catalogue(lang), catalogue("en")
    pages = sorted(k for k in cat if k.startswith(f"{game}.rules.page."))
    assert pages == sorted(k for k in en if k.startswith(f"{game}.rules.page.")) and pages
    title = t(lang, f"{game}.rules.title", page=9, pages=9)
    for key in pages:
        assert len(cat[key]) + len(title) + 2 < 2000, (key, len(cat[key]))
        for number in re.findall(r"\d\d+", en[key]):  # "3 players" may be a word
            assert number in cat[key], (key, number)
    text = " ".join(cat[k] for k in pages).lower()
    for word in HOME_WORDS.get((game, lang), []):
        assert word in text, word


def test_command_texts_respect_discord_limits() -> None:
    for lang in LANGUAGES:
        for key, text in catalogue(lang).items():
            if key.startswith("cmd.") and key.endswith(".name"):
                assert re.fullmatch(r"[-_\w]{1,32}", text) and text == text.lower(), (lang, key)
            if key.startswith("cmd.") and key.endswith(".description"):
                assert 1 <= len(text) <= 100, (lang, key)
            if key.startswith(("button.", "choice.")):
                assert len(text) <= 80, (lang, key)


def test_ux_areas_are_covered() -> None:
    cat = catalogue("en")
    for key in ["lobby.title", "lobby.join", "table.turn.play", "refuse.not_your_turn",
                "refuse.not_seated", "refuse.stale", "refuse.bid_suit_taken", "match.won",
                "deal.summary.line", "leaderboard.title", "stats.title", "settings.language.set",
                "error.generic", "button.show_hand", "hand.your_turn", "rules.title",
                "cmd.start.description"]:
        assert key in cat or f"{key}.one" in cat  # a counted text comes in .one/.other forms


def _keys_used_in_render() -> set[str]:
    keys: set[str] = set()
    nodes = [n for p in RENDER for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))]
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
                node.func.id in {"t", "tn"}):
            arg = node.args[1] if len(node.args) > 1 else None
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                keys.add(arg.value + (".one" if node.func.id == "tn" else ""))
            elif isinstance(arg, ast.JoinedStr):
                prefix = "".join(v.value for v in arg.values
                                 if isinstance(v, ast.Constant) and isinstance(v.value, str))
                keys.add(prefix.split("{")[0] + "*")
    return keys


def test_every_key_used_by_render_exists() -> None:
    keys = _keys_used_in_render()
    assert len(keys) > 20
    for lang in LANGUAGES:
        cat = catalogue(lang)
        for key in keys:
            if key.endswith("*"):
                assert any(k.startswith(key[:-1]) for k in cat), (lang, key)
            else:
                assert key in cat, (lang, key)
    # The keys built at run time, spelled out.
    for suffix in ["two_vp.team", "two_vp.solo", "one_vp.team", "one_vp.solo", "one_vp.trios"]:
        assert f"result.{suffix}" in catalogue("sw")
    for suit in "CDHS":
        assert f"suit.{suit}" in catalogue("sw")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_names_every_game_and_how_to_start_it(lang: str) -> None:
    """``/albastini help`` tells a newcomer every game the bot hosts and the command that
    opens a table of each (Albastini is the start command's default), within an embed's
    description (4096 characters), in the command names the reader's Discord shows: the
    language's own where Discord has its locale (Russian), English where it has none."""
    text = t(lang, "help.text")
    shown_in = "en" if _no_discord_locale(lang) else lang
    names = catalogue(shown_in)

    def command(name: str) -> str:
        return f"/albastini {names[f'cmd.{name}.name']}"

    option = names["cmd.start.opt.game.name"]
    players = names["cmd.start.opt.players.name"]
    assert len(text) <= 4096
    assert f"**{command('start')}**" in text  # Albastini, the default game
    for name in GAMES:
        assert catalogue(lang)[f"choice.game.{name}"] in text or shown_in == "en", (lang, name)
        shown = names[f"choice.game.{name}"]
        assert shown in text, (lang, name)
        if name != "albastini":
            assert f"**{command('start')} {option}:{shown} {players}:" in text, (lang, name)
            assert f"**{command('rules')} {option}:{shown}**" in text, (lang, name)
