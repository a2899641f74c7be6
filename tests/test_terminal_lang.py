"""The terminal in the language a person chooses (``--lang``): its catalogues have every key
and placeholder of English, an unknown language is refused with the choices, and a whole deal
played at the terminal in each language, for every game, leaves no English sentence on the
screen (cards, codes and the words a person types aside)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from albastini.__main__ import main
from albastini.games import GAMES
from albastini.terminal.texts import LANGUAGES, catalogue, placeholders, texts

ROOT = Path(__file__).resolve().parent.parent
OTHERS = [lang for lang in LANGUAGES if lang != "en"]

#: What a person types (the same in every language) and what the command line names: the
#: words of the moves (``go``, ``no``, ``pass``, ``expose``), the computer players' levels and
#: the modes (``--mode "4 pairs"``).
TYPED = {"go", "no", "pass", "expose", "easy", "normal", "hard", "random", "greedy",
         "heuristic", "search"} | {word for package in GAMES.values() for mode in package.MODES
                                   for word in re.findall(r"[a-z]+", mode)}


#: Texts a language may keep as English writes them: names (Albastini, Ass (Жопа), Thani).
SAME_BY_DESIGN = {"albastini.title", "ass.title", "twentyeight.raise.thani"}


#: English words every language keeps: the games' and languages' names (Twenty-Eight,
#: Albastini, Kiswahili), the Malayalam words the English text quotes (lelam, kunukku, Thani,
#: Cot), and the command line's (``--game NAME --help``, ``--target``) in the help.
KEPT = {"albastini", "ass", "cassino", "twenty", "eight", "english", "kiswahili", "lelam",
        "kunukku", "thani", "cot", "terminal", "game", "help", "lang", "target"}


def words_of(text: str) -> set[str]:
    """The words of three letters or more of ``text`` (placeholders and moves' codes, such as
    ``play:JH``, left out), in lower case."""
    text = re.sub(r"\{\w+\}|\b[a-z]+:[\w:]*", " ", text)
    return {w.lower() for w in re.findall(r"[A-Za-z]{3,}", text)}


#: The English catalogue's words that no other language keeps.
ENGLISH = {w for text in catalogue("en").values() for w in words_of(text)} - KEPT - TYPED


def english_left(text: str, lang: str) -> list[str]:
    """The lines of ``text`` holding a word of the English catalogue (and where ``lang`` is
    written in another script, any Latin word but a kept one or one a person types)."""
    latin = lang in ("ml", "ru")
    return [line for line in text.splitlines()
            if words_of(line) & ENGLISH or (latin and words_of(line) - KEPT - TYPED)]


# --------------------------------------------------------------------------- the catalogues
def test_catalogues_are_package_data_and_valid_json() -> None:
    for lang in LANGUAGES:
        text = resources.files("albastini.terminal").joinpath("lang", f"{lang}.json").read_text(
            encoding="utf-8")
        data = json.loads(text)
        assert data and all(isinstance(v, str) and v for v in data.values()), lang


@pytest.mark.parametrize("lang", OTHERS)
def test_every_catalogue_has_the_keys_and_placeholders_of_english(lang: str) -> None:
    english, other = catalogue("en"), catalogue(lang)
    assert sorted(set(english) - set(other)) == [], f"missing in {lang}"
    assert sorted(set(other) - set(english)) == [], "missing in en"
    wrong = [key for key in english if placeholders(other[key]) != placeholders(english[key])]
    assert wrong == []


@pytest.mark.parametrize("lang", OTHERS)
def test_every_text_is_translated_and_formats(lang: str) -> None:
    """No text is left as English wrote it, unless it holds no English word (a name, a
    symbol, a placeholder alone); every text formats with its placeholders."""
    english, other = catalogue("en"), catalogue(lang)
    same = [k for k in english if other[k] == english[k] and k not in SAME_BY_DESIGN
            and words_of(english[k]) - TYPED]
    assert same == []
    tr = texts(lang)
    for key, text in other.items():
        filled = tr(key, **{name: "X" for name in placeholders(text)})
        assert "{" not in filled, (lang, key)


def test_the_detector_finds_english() -> None:
    """The check below can fail: an English line is found in every language, a translated one
    is not."""
    for lang in OTHERS:
        assert english_left("Seat 2 wins the trick.", lang)
        assert not english_left(texts(lang)("story.won.other", name="X 2", points=""), lang)


# --------------------------------------------------------------------------- the command line
def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "albastini", *args], capture_output=True,
                          text=True, timeout=60, cwd=ROOT, env=env)


def test_an_unknown_language_is_refused_with_the_choices() -> None:
    refused = run(["--game", "ass", "--lang", "fr", "--auto", "--one-deal"])
    assert refused.returncode == 2 and refused.stdout == ""
    assert "--lang" in refused.stderr and "'fr'" in refused.stderr
    assert all(lang in refused.stderr for lang in LANGUAGES)


@pytest.mark.parametrize("name", list(GAMES))
def test_help_lists_the_languages_in_the_language_chosen(name: str) -> None:
    helped = run(["--game", name, "--lang", "ru", "--help"])
    assert helped.returncode == 0
    assert "--lang {en,sw,ml,ru}" in helped.stdout
    assert "язык терминала" in helped.stdout and "против компьютерных игроков" in helped.stdout


def test_a_seat_the_table_lacks_is_explained_in_the_language() -> None:
    refused = run(["--game", "twentyeight", "--lang", "ml", "--mode", "3 players", "--seat", "5"])
    assert refused.returncode == 2
    assert "--seat 1 മുതൽ 3 വരെ ആയിരിക്കണം" in refused.stderr
    refused = run(["--game", "ass", "--lang", "ru", "--mode", "5", "--trumps", "1"])
    assert refused.returncode == 2 and "вариант козырей невозможен" in refused.stderr


# --------------------------------------------------------------------------- played
#: A deal at a seat, with answers the rules refuse first (their reasons are said in the
#: language too): Albastini's bid of a card not held, Twenty-Eight's pass by the first speaker
#: and a card during the auction, Cassino's card not held and a build it cannot make, Ass's
#: card before the bets.
SCRIPTS = {
    "albastini": (["--mode", "3", "--seat", "2", "--dealer", "1", "--seed", "5",
                   "--level", "random"], ["zz", "99", "AS", "AS:x", "?", "pass", "p"]),
    "twentyeight": (["--seed", "12", "--dealer", "4", "--level", "easy"],
                    ["x", "13", "bid:99", "pass", "JS", "2C", "expose"]),
    "cassino": (["--seed", "4", "--dealer", "1", "--level", "easy"],
                ["9D", "build:4d:10:6d", "zz", "77"]),
    "ass": (["--mode", "3", "--seed", "4", "--dealer", "1", "--level", "easy"],
            ["AS", "pass", "7"]),
}


def play(argv: list[str], answers: list[str], monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(a + "\n" for a in answers)))
    out = io.StringIO()
    main(argv, out=out)
    return out.getvalue()


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("name", list(GAMES))
def test_a_deal_played_in_the_language_leaves_no_english(
    name: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The person's deal (table, menus, refusals, the story, the result) and then a whole
    match between computer players (its end and winner) read in ``lang`` alone."""
    args, refused = SCRIPTS[name]
    seat = play(["--game", name, "--lang", lang, "--one-deal", *args],
                [*refused, *["a"] * 300], monkeypatch)
    over = {"albastini": "albastini.over", "twentyeight": "twentyeight.over.points"}
    said = texts(lang)(over.get(name, "over.deal"), deal=1, points="\0").split("\0")[0]
    assert said.strip() in seat  # the deal was played to its end
    assert texts(lang)("refuse.again", reason="").strip() in seat  # the refusals were said
    assert english_left(seat, lang) == []
    target = {"twentyeight": ["--target", "1"], "cassino": ["--target", "5"],
              "albastini": ["--target", "2"]}.get(name, [])
    match = play(["--game", name, "--lang", lang, "--auto", "--seed", "5", "--level",
                  "random" if name == "albastini" else "easy", *target], [], monkeypatch)
    last = match.rstrip().splitlines()[-1]
    assert texts(lang)("seat.other", seat="").strip() in last or texts(lang)(
        "side.team", letter="", seats="").split(" ")[0] in last, last
    assert english_left(match, lang) == []


def test_english_is_the_default_and_the_same_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = play(["--game", "ass", "--lang", "en", "--auto", "--one-deal", "--seed", "3",
                   "--level", "easy"], [], monkeypatch)
    default = play(["--game", "ass", "--auto", "--one-deal", "--seed", "3", "--level", "easy"],
                   [], monkeypatch)
    assert chosen == default and "Deal 1 over." in chosen and "says no (target" in chosen
