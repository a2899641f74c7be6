"""The table picture in words, for a screen reader: its alt text (an attachment's description).

:func:`describe_table` says what the picture shows, from the same public view, in the reader's
catalogue language: the game and the deal, the score and what ends the match, whose turn it is
(or, once the deal is over, its result), the trick on the table, the game's own facts (its
presenter's ``spoken_facts``: the trump, the contract, the cards on Cassino's table...), the
last trick, the dealer and the cards in hand. Cards are said in words ("Ace of spades", not
"A♠", which a screen reader spells out as symbols), and so are suits; no markdown, no emoji.

Discord keeps at most :data:`ALT_LIMIT` characters of a description: the sentences go in in that
order of importance, and one that does not fit is left out (a later, shorter one may still go
in). Like the picture, it is drawn from the public view only: it names no hidden card.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from cogs.i18n import game_key, t
from cogs.render.cards import SUIT_SYMBOLS
from cogs.render.picture import side_count
from cogs.render.presenter import Presenter
from cogs.render.text import default_side_names, last_trick_line, turn_line

__all__ = ["ALT_LIMIT", "card_name", "describe_table", "speakable"]

#: The most characters Discord keeps of an attachment's description.
ALT_LIMIT = 1024
_SUIT_OF = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}
_CARD = re.compile(r"(10|[2-9AKQJT])([♣♦♥♠])")
_SUIT_BEFORE_NAME = re.compile(r"[♣♦♥♠]\s+(?=\w)")
_MENTION = re.compile(r"<@!?\d+>")
_KEEP = {"—", "–", "…"}
#: Characters that may be symbols (Unicode's category S): ASCII's few, and every non-ASCII one;
#: the rest of a text (most of it) is passed over by the regular expression, not char by char.
_SYMBOL = re.compile(r"[$^`|~]|[^\x00-\x7f]")


def _symbol_out(match: re.Match[str]) -> str:
    """A symbol said as nothing (▶, 🏁, 🂠), but the dashes and the signs a number needs."""
    ch = match[0]
    if ch in _KEEP or ch in "+<=>−±" or unicodedata.category(ch)[0] != "S":
        return ch
    return ""


def card_name(lang: str, rank: str, suit: str, game: str) -> str:
    """A card in words, as the players of ``game`` call it: ``("A", "S")`` -> "Ace of
    spades" ("Dume ya shupaza" at Albastini in Kiswahili); a rank of "10" or "T" is the Ten."""
    rank = "T" if rank == "10" else rank
    return t(lang, "card.name", rank=t(lang, game_key(game, f"alt.rank.{rank}")),
             suit=t(lang, f"suit.{suit}"))


def speakable(lang: str, text: str, game: str) -> str:
    """``text`` as a screen reader should read it: cards (as ``game`` calls them) and suits
    in words, markdown and symbols (▶, 🏁, 🂠) out, separators as punctuation."""
    text = text.replace("**", "")
    text = _CARD.sub(lambda m: card_name(lang, m[1], _SUIT_OF[m[2]], game), text)
    text = _SUIT_BEFORE_NAME.sub("", text)  # "♥ hearts": the name alone
    text = re.sub(r"[♣♦♥♠]", lambda m: t(lang, f"suit.{_SUIT_OF[m[0]]}"), text)
    text = text.replace(" · ", t(lang, "alt.separator")).replace(" → ", ", ")
    text = _SYMBOL.sub(_symbol_out, text)
    text = text.replace("…", "")
    return re.sub(r"\s+([,.;:)])", r"\1", re.sub(r"\s{2,}", " ", text)).strip()


def _name(lang: str, names: Sequence[str], seat: int) -> str:
    """A seat's name as said: a mention or nothing at all reads as "Seat 3"."""
    name = names[seat] if 0 <= seat < len(names) else ""
    if not name.strip() or _MENTION.fullmatch(name.strip()):
        return t(lang, "picture.seat", seat=seat + 1)
    return name


def _score(lang: str, view: dict[str, Any], names: Sequence[str], shows: Presenter) -> str | None:
    scores = view.get("scores")
    if not isinstance(scores, list):
        return None
    sides = default_side_names(lang, int(view["players"]), side_count(view), names)
    items = [t(lang, "picture.side_score", side=sides[i],
               score=shows.score_text(lang, shows.shown_score(int(s))))
             for i, s in enumerate(scores) if i < len(sides)]
    text = t(lang, "alt.score", scores=", ".join(items))
    target = view.get("target")
    said = shows.target_text(lang, target) if isinstance(target, int) else None
    return f"{text} {said}." if said else text


def _trick(lang: str, view: dict[str, Any], names: Sequence[str], shows: Presenter) -> str | None:
    """The trick in progress, card by card, the one winning it so far said so."""
    if view["phase"] != "playing" or "current" not in view or not view.get("rounds_total"):
        return None
    label = t(lang, game_key(shows.NAME, "picture.round"), round=view.get("round", 1),
              total=view["rounds_total"])
    winning = view.get("winning")
    plays = [t(lang, "alt.play_winning" if seat == winning else "alt.play",
               name=_name(lang, names, int(seat)),
               card=speakable(lang, shows.card_label(card), shows.NAME))
             for seat, card in view.get("current") or []]
    if not plays:
        return f"{label}."
    return t(lang, "alt.plays", label=label, plays=t(lang, "alt.separator").join(plays))


def describe_table(view: dict[str, Any], names: Sequence[str], lang: str, *,
                   shows: Presenter) -> str:
    """The public ``view`` of a table (``Table.public_view``) in words for a screen reader,
    in ``lang``, at most :data:`ALT_LIMIT` characters: see the module's description.
    ``names`` name the seats as the picture does (display names; a mention is said as the
    seat)."""
    game = t(lang, f"choice.game.{shows.NAME}")
    shown = [_name(lang, names, seat) for seat in range(int(view["players"]))]
    deal_no = view.get("deal_no")
    if isinstance(deal_no, int) and deal_no > 0:
        title = t(lang, "alt.title", game=game, deal=deal_no)
    else:
        title = t(lang, "alt.title_no_deal", game=game)
    if view["phase"] == "finished":
        result = view.get("result")
        sides = default_side_names(lang, int(view["players"]), side_count(view), shown)
        status = t(lang, "alt.over")
        if result:
            status += " " + shows.deal_summary(lang, result, sides, deal_no=int(deal_no or 0),
                                               team_size=view.get("team_size"))
    else:
        status = turn_line(lang, view, shown, shows.NAME) or ""
    sentences: list[str | None] = [
        title, _score(lang, view, shown, shows), status, _trick(lang, view, shown, shows),
        *shows.spoken_facts(lang, view, shown),
        last_trick_line(lang, view, shown, shows.NAME),
        t(lang, "table.dealer", name=shown[int(view["dealer"])])
        if isinstance(view.get("dealer"), int) and 0 <= view["dealer"] < len(shown) else None,
    ]
    if view["phase"] != "finished":
        hands = [t(lang, "table.hand_size", name=shown[s], count=n)
                 for s, n in enumerate(view.get("hand_sizes") or []) if s < len(shown)]
        if hands:
            sentences.append(t(lang, "table.hands", hands=" · ".join(hands)))
    out = ""
    for sentence in sentences:
        if not sentence:
            continue
        said = speakable(lang, sentence, shows.NAME)
        if said and said[-1] not in ".!?":
            said += "."
        joined = f"{out} {said}".strip()
        if len(joined) <= ALT_LIMIT:
            out = joined
        elif not out:  # the first sentence alone is too long: cut it
            out = said[: ALT_LIMIT - 1] + "…"
    return out
