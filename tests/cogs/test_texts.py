"""Texts of the Discord layer built from real tables: computer players' names in the reader's
language, counted words in the singular for one, the 5-player deal summary."""

from __future__ import annotations

import contextlib
import random
import re
import sqlite3
from pathlib import Path

from albastini import new_deal
from albastini.store import PlayerStats
from cogs import render
from cogs.games import presenter
from cogs.i18n import LANGUAGES, catalogue, t, tn
from cogs.ui import texts
from tests.doubles import CHANNEL, GUILD, HOST, P2, service

ALB = presenter("albastini")


async def test_computers_are_named_in_the_readers_language(tmp_path: Path) -> None:
    async with service(tmp_path / "a.db") as (svc, _store, _rec):
        table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", players=4, language="sw",
                                     game="albastini")
        await svc.join(table.id, P2, "Zoë")
        await svc.add_computer(table.id, HOST, "easy")
        await svc.add_computer(table.id, HOST, "hard")
        _title, lobby = texts.lobby_text(table, "sw")
        assert "Kompyuta 1" in lobby and "Kompyuta 2" in lobby
        assert "Computer" not in lobby  # no English left in a Kiswahili lobby
        assert texts.seat_names(table, "en")[2:] == ["Computer 1", "Computer 2"]
        # the picture draws people by their display names and computers in the table's language
        assert texts.picture_names(table, "sw") == ["Host", "Zoë", "Kompyuta 1", "Kompyuta 2"]

        await svc.start_match(table.id, HOST)
        names = texts.seat_names(table, "sw")
        assert sorted(n for n in names if not n.startswith("<@")) == ["Kompyuta 1", "Kompyuta 2"]
        assert "Kompyuta" in texts.teams_text(table, "sw")
        assert "Computer" not in texts.teams_text(table, "sw")
        over = texts.match_over_text(table, "sw", winner_team=0, scores=[1, 0])
        assert "Computer" not in over


async def test_old_english_computer_names_still_show_in_the_readers_language(
    tmp_path: Path,
) -> None:
    """A database from before stores "Computer 1" as a computer seat's name: after a restart it
    reads "Kompyuta 1" at a Kiswahili table, and a computer added next is not a second "1"."""
    db = tmp_path / "old.db"
    async with service(db) as (svc, _store, _rec):
        table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", players=3, language="sw",
                                     game="albastini")
        await svc.add_computer(table.id, HOST, "easy")
    # what the bot stored before computers were named by the Discord layer
    with contextlib.closing(sqlite3.connect(db)) as con, con:
        con.execute("UPDATE seats SET display_name = 'Computer 1' WHERE user_id IS NULL")
    async with service(db) as (svc, _store, _rec):
        again = svc.table_in_channel(CHANNEL)
        assert again is not None
        assert texts.seat_names(again, "sw")[1] == "Kompyuta 1"
        await svc.add_computer(again.id, HOST, "easy")
        assert texts.seat_names(again, "sw")[1:] == ["Kompyuta 1", "Kompyuta 2"]
        assert texts.picture_names(again, "en")[1:] == ["Computer 1", "Computer 2"]


def _stats(**kw: int) -> PlayerStats:
    values = dict(user_id=7, matches_played=4, matches_won=1, score=3, deals_played=9,
                  deals_won=4, deals_won_big=1, card_points=500)
    values.update(kw)
    return PlayerStats(**values)


def test_counted_words_are_singular_for_one() -> None:
    assert texts.leaderboard_row("en", _stats(), rank=1) == "1. <@7> — 1 win out of 4 (25%)"
    assert "3 wins out of 4" in texts.leaderboard_row("en", _stats(matches_won=3), rank=2)
    lines = texts.stats_lines("en", _stats(), "albastini")
    assert "Victory points scored: 3 (1 deal worth 2 VP)" in lines
    big = _stats(deals_won_big=2)
    assert "(2 deals worth 2 VP)" in "\n".join(texts.stats_lines("en", big, "albastini"))
    # Kiswahili: "mgawo" (a deal) takes "migawo" for more than one, and its "wa" / "ya" agree
    assert "(mgawo 1 wa VP 2)" in "\n".join(texts.stats_lines("sw", _stats(), "albastini"))
    assert "(migawo 2 ya VP 2)" in "\n".join(texts.stats_lines("sw", big, "albastini"))
    assert tn("en", "match.abandoned_idle", 1, minutes=1) == (
        "The match was stopped: nobody played for 1 minute."
    )
    assert tn("en", "stats.deals", 1, played=3, won=2, ties=1).endswith(", 1 tie")


async def test_a_target_of_one_victory_point_is_singular(tmp_path: Path) -> None:
    async with service(tmp_path / "a.db") as (svc, _store, _rec):
        table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", players=2, target=1,
                                     game="albastini")
        title, _ = texts.lobby_text(table, "en")
        assert title.endswith("first to 1 victory point")
        table.target = 3
        assert texts.lobby_text(table, "en")[0].endswith("first to 3 victory points")
    assert texts.target_text("en", 1) == "Match target: 1 victory point"


def _finished_deal(players: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    deal = new_deal(players, 1, 0, seed=seed)
    while deal.phase != "finished":
        deal.apply(rng.choice(deal.legal_actions()))
    return dict(deal.view(None))


def test_five_player_deal_summary_names_the_card_left_over() -> None:
    view = _finished_deal(5, 3)
    result = view["result"]
    assert isinstance(result, dict)
    left = result["leftover"]
    assert left == view["face_up"]  # the face-up card under the stock, never drawn
    sides = ["A", "B", "C", "D", "E"]
    text = render.deal_summary_text("en", result, sides, deal_no=2, team_size=1, shows=ALB)
    assert result["leftover_points"] == view["card_points"][left]  # type: ignore[index]
    points = tn("en", "card.points", result["leftover_points"])
    assert f"The {render.card_label(left)} ({points}) lay face up and counts for nobody." in text
    assert sum(result["points"]) == 120 - result["leftover_points"]
    sw = render.deal_summary_text("sw", result, sides, deal_no=2, team_size=1, shows=ALB)
    assert render.card_label(left) in sw and t("sw", "deal.summary.left_over") not in sw
    # the table text, which carries the same summary at the end of the deal, says it too
    table = render.table_text(view, sides, "en", deal_no=2, scores=[0] * 5, target=5, shows=ALB)
    assert "counts for nobody" in table


def test_other_modes_have_nothing_left_over() -> None:
    for players in (2, 3, 4, 6):
        view = _finished_deal(players, 5)
        result = view["result"]
        assert isinstance(result, dict) and result["leftover"] is None
        text = render.deal_summary_text("en", result, ["A"] * players, deal_no=1, team_size=1,
                                        shows=ALB)
        assert "nobody" not in text
        assert sum(result["points"]) == 120


def test_every_plural_has_both_forms_in_every_language() -> None:
    for lang in LANGUAGES:
        cat = catalogue(lang)
        for key, text in cat.items():
            if key.endswith(".one") and "{" in text:  # ("suit.C.one" is a word, not a count)
                assert key[:-4] + ".other" in cat, (lang, key)
            if key.endswith(".other"):
                assert key[:-6] + ".one" in cat, (lang, key)


#: Placeholders that hold a count; "players", "teams" and "max" are never below 2.
COUNTS = {"count", "n", "won", "played", "ties", "two_vp", "vp", "minutes", "target", "seconds",
          "points", "bids", "trump", "min"}


def test_no_english_text_puts_a_plural_noun_after_a_count_that_can_be_one() -> None:
    """"{won} wins", "{target} victory points": such a text needs a ``.one`` form."""
    counted = re.compile(r"\{(\w+)\}(?: [a-z]+)? ([a-z]+s)\b")
    bare = []
    for key, text in catalogue("en").items():
        if key.endswith(".other") or key.startswith("rules.page."):
            continue
        for name, word in counted.findall(text):
            if name in COUNTS and word not in {"s", "each"}:
                bare.append((key, text))
    assert bare == []


async def test_a_match_whose_best_score_is_shared_says_so(tmp_path: Path) -> None:
    """Three players of Twenty-Eight can end with two sharing the most base cards: the match
    is over without one winner, and the message names both."""
    async with service(tmp_path / "a.db") as (svc, _store, _rec):
        table = await svc.open_table(GUILD, CHANNEL, HOST, "Host", game="twentyeight",
                                     players=3)  # fmt: skip
        await svc.fill_computers(table.id, HOST)
        await svc.start_match(table.id, HOST)
        for lang in ("en", "sw"):
            text = texts.match_over_text(table, lang, winner_team=None, scores=[7, 7, -2])
            shared = texts.side_names(table, lang)
            assert shared[0] in text and shared[1] in text and "🏆" in text
