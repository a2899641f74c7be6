"""Message catalogues of the Discord layer: every string a player sees, in English and Kiswahili.

The catalogues are flat JSON files next to this module (``en.json``, ``sw.json``) shipped as package
data, keyed by dotted names grouped by area (``lobby.*``, ``table.*``, ``refuse.*``...). English is
the reference: a key missing from another catalogue falls back to English, and a text whose
placeholders are not all supplied is shown raw rather than crashing a command handler.

Plurals: a key may exist as ``key.one`` / ``key.other``; :func:`tn` picks by count.
"""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES: tuple[str, ...] = ("en", "sw", "ml", "ru")
DEFAULT_LANGUAGE = "en"

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "catalogue",
    "game_key",
    "has",
    "join_list",
    "normalize_lang",
    "placeholders",
    "t",
    "tn",
]


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Return the whole catalogue of ``lang`` (a read-only view by convention; it is cached)."""
    if lang not in LANGUAGES:
        raise KeyError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
    text = resources.files(__package__).joinpath(f"{lang}.json").read_text(encoding="utf-8")
    data: dict[str, str] = json.loads(text)
    return data


def normalize_lang(lang: str | None) -> str:
    """Map a Discord locale or tag (``"sw"``, ``"en-US"``, ``None``) to a known language."""
    if not lang:
        return DEFAULT_LANGUAGE
    base = str(lang).lower().replace("_", "-").split("-")[0]
    return base if base in LANGUAGES else DEFAULT_LANGUAGE


def has(lang: str, key: str) -> bool:
    """True when ``key`` exists in the catalogue of ``lang`` (English fallback not counted)."""
    return key in catalogue(normalize_lang(lang))


@cache
def game_key(game: str, key: str) -> str:
    """``key`` as ``game`` words it: the catalogue's ``<game>.<key>`` (or its counted forms
    ``.one``/``.other``) where that game has a text of its own (Twenty-Eight's "base cards" for
    Albastini's "victory points"), else ``key``, the text every game shares."""
    own = f"{game}.{key}"
    texts = catalogue(DEFAULT_LANGUAGE)
    return own if own in texts or f"{own}.one" in texts else key


@cache  # (language, key) pairs are few: the catalogues' keys; t() runs ~15 times per click
def _raw(lang: str, key: str) -> str:
    text = catalogue(normalize_lang(lang)).get(key)
    if text is None:
        text = catalogue(DEFAULT_LANGUAGE).get(key)
    return key if text is None else text


def t(lang: str, key: str, **kwargs: Any) -> str:
    """Translate ``key`` into ``lang`` and fill its ``{named}`` placeholders from ``kwargs``.

    Falls back to English when the key is missing in ``lang``, and to the key itself when it is
    missing everywhere. A missing or malformed placeholder never raises: the raw text is returned.
    """
    text = _raw(lang, key)
    if not kwargs and "{" not in text:
        return text
    try:
        return text.format(**kwargs)
    except (KeyError, IndexError, ValueError, AttributeError):
        return text


def tn(lang: str, key: str, count: int, **kwargs: Any) -> str:
    """Translate a counted text: ``key.one`` when ``count == 1``, else ``key.other``.

    ``count`` is passed to the text as ``{count}``.
    """
    form = "one" if count == 1 else "other"
    return t(lang, f"{key}.{form}", count=count, **kwargs)


def join_list(lang: str, items: list[str]) -> str:
    """Join items the way the language lists them: "A, B and C" / "A, B na C"."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    sep = t(lang, "list.separator")
    last = t(lang, "list.last_separator")
    return sep.join(items[:-1]) + last + items[-1]


def placeholders(text: str) -> set[str]:
    """The names of the ``{named}`` placeholders used in a catalogue text."""
    names: set[str] = set()
    for _literal, field, _spec, _conv in string.Formatter().parse(text):
        if field is not None:
            names.add(field.split(".")[0].split("[")[0])
    return names
