"""The terminal's words in the language a person chose (``--lang``): a flat catalogue per
language, ``albastini/terminal/lang/<lang>.json`` (package data), keyed by dotted names and filled
by ``{named}`` placeholders. English is the reference: every catalogue has its keys and
placeholders (a test checks them), and a key missing all the same falls back to English.

The terminal keeps its own catalogues: the Discord layer's (``cogs/i18n``) are the bot's, and
nothing under ``albastini`` imports ``cogs``; the games' own words (Lelam, Thani, банк, «иду»)
are the same in both, copied by hand. What a person types (letters of the menu, card codes,
``bid:16``, ``go``/``no``, ``pass``) is the same in every language.
"""

from __future__ import annotations

import json
import string
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "Texts", "catalogue", "placeholders", "texts"]

#: The terminal's languages, English first (the reference).
LANGUAGES: tuple[str, ...] = ("en", "sw", "ml", "ru")
DEFAULT_LANGUAGE = "en"
#: The suits' symbols by the letter of a card code.
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The whole catalogue of ``lang`` (cached: treat it as read-only); KeyError for a language
    the terminal does not speak."""
    if lang not in LANGUAGES:
        raise KeyError(lang)
    text = resources.files(__package__).joinpath("lang", f"{lang}.json").read_text("utf-8")
    data: dict[str, str] = json.loads(text)
    return data


def placeholders(text: str) -> set[str]:
    """The names of the ``{named}`` placeholders of a catalogue text."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


@dataclass(frozen=True)
class Texts:
    """The terminal's words in one language: ``tr("key", name=...)`` fills a text."""

    lang: str

    def __call__(self, key: str, **values: Any) -> str:
        """The text of ``key`` with its placeholders filled (English when this language lacks
        it; the key itself when no catalogue has it, so a slip shows rather than crashes)."""
        text = catalogue(self.lang).get(key) or catalogue(DEFAULT_LANGUAGE).get(key, key)
        return text.format(**values) if values else text

    def n(self, key: str, count: int, **values: Any) -> str:
        """A counted text: ``key.one`` for 1, else ``key.other``; ``{count}`` is ``count``."""
        return self(f"{key}.{'one' if count == 1 else 'other'}", count=count, **values)

    def listed(self, items: Sequence[str]) -> str:
        """``"a, b and c"`` as the language lists things (``"—"`` for none)."""
        if not items:
            return "—"
        if len(items) == 1:
            return items[0]
        return self("list.separator").join(items[:-1]) + self("list.last") + items[-1]

    def suit(self, letter: str) -> str:
        """A suit by its letter with its symbol: ``"♥ hearts"``, ``"♥ червы"``."""
        return self("suit.full", symbol=SUIT_SYMBOLS.get(letter, letter),
                    name=self(f"suit.{letter}") if letter in SUIT_SYMBOLS else letter)


@cache
def texts(lang: str = DEFAULT_LANGUAGE) -> Texts:
    """The terminal's words in ``lang``; ValueError naming the choices for another language."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    return Texts(lang)
