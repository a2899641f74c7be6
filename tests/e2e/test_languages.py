"""Each game in its home language, at the real bot against the fake Discord: a whole match of
Twenty-Eight in Malayalam and one of Ass in Russian, chosen by the server's setting (and, for
the Russian player, their own /albastini language), with every text the players see collected
as it is shown — the table message and its picture's alt text at each turn, each private hand,
every button and menu, the summaries and the end, the rules, help, stats, leaderboard and
history — and no word of English left in any (people's names aside). And the slash commands
reach Discord with Russian names and descriptions for its Russian clients, each name within
Discord's rules, and nothing for Malayalam, which Discord has no locale for.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Any

from bot import AlbastiniBot
from cogs.i18n import catalogue, t
from tests.e2e.conftest import (
    assert_clean,
    enabled_moves,
    hand_messages,
    settle,
    table_of,
)
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser

#: Latin words a Malayalam or Russian player may see: the bot's name, Discord's, and the
#: permission names Discord's own (English) screens show, quoted beside their translation.
ALLOWED = {"Albastini", "Discord", "View", "Channel", "Send", "Messages", "Embed", "Links",
           "Attach", "Files", "Create", "Public", "Threads", "False"}


#: The options' names as Discord's English client shows them (a Malayalam reader's: Discord has
#: no Malayalam locale), which help quotes in bold.
OPTIONS = {text for key, text in catalogue("en").items()
           if key.startswith("cmd.") and ".opt." in key and key.endswith(".name")}


def english_left(text: str, names: list[str]) -> list[str]:
    """Latin words of three letters or more in ``text`` (mentions, people's names, slash
    commands and card labels taken out first): English that a catalogue did not translate."""
    text = re.sub(r"<[@#][!&]?\d+>|<a?:\w+:\d+>|https?://\S+", " ", text)
    for name in names:
        text = text.replace(name, " ")
    text = re.sub(r"/albastini[^\n*]*", " ", text)  # the commands a player types, as Discord shows
    text = re.sub(r"\*\*(\w+)\*\*", lambda m: " " if m[1] in OPTIONS else m[0], text)  # options too
    return [w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in ALLOWED]


class Seen:
    """Every text shown to the players, with where it was seen."""

    def __init__(self) -> None:
        self.texts: list[tuple[str, str]] = []

    def message(self, where: str, message: FakeMessage | None) -> None:
        if message is None:
            return
        self.texts.append((where, message.text))
        for button in message.buttons:
            self.texts.append((f"{where} button", button.label or ""))
        for menu in message.selects:
            self.texts.append((f"{where} menu", menu.placeholder or ""))
            self.texts += [(f"{where} option", label) for label, _value in menu.options]
        for file in message.attachments:
            self.texts.append((f"{where} alt text", file.description or ""))

    def english(self, names: list[str]) -> list[tuple[str, list[str], str]]:
        found = []
        for where, text in self.texts:
            words = english_left(text, names)
            if words:
                found.append((where, words, text[:300]))
        return found


def script_of(lang: str) -> str:
    """A pattern matching one letter of the language's own script."""
    return {"ml": r"[\u0d00-\u0d7f]", "ru": r"[\u0400-\u04ff]"}[lang]


async def play_in(bot: AlbastiniBot, fake: FakeDiscord, lang: str, person: FakeUser,
                  table_msg: FakeMessage, seen: Seen) -> None:
    """The person plays the match to its end, each turn with their first enabled move, by the
    buttons' labels in ``lang``; what the table and the hand show is seen at every turn."""
    table = table_of(bot, fake)
    show, refresh = t(lang, "button.show_hand"), t(lang, "button.refresh")
    turns = 0
    while table.status == "running":
        await fake.wait_until(
            lambda: table.status != "running"
            or (table.to_act is not None and table.seats[table.to_act].user_id == person.id),
            timeout=20,
        )
        if table.status != "running":
            break
        await settle(bot, fake)
        seen.message("table", table_msg)
        hands = hand_messages(fake, person)
        if hands:
            r = await fake.click(person, hands[-1], label=refresh)
            assert r.response_type == 7, r
            hand = hands[-1]
        else:
            r = await fake.click(person, table_msg, label=show)
            assert r.ephemeral and r.message is not None, r
            hand = r.message
        seen.message("hand", hand)
        moves = enabled_moves(hand)
        assert moves, hand.text
        r = await fake.click(person, hand, custom_id=moves[0].custom_id)
        assert r.response_type == 7 and r.message is hand, r
        seen.message("hand after the move", hand)
        turns += 1
        assert turns < 400, "the match does not end"
    await settle(bot, fake)
    assert table.status == "finished"


async def look_around(fake: FakeDiscord, person: FakeUser, game: str, seen: Seen) -> None:
    """What a player reads after the match: the game's rules page by page, help, stats,
    the leaderboard and the history; then every message of the channel and every private one."""
    r = await fake.slash(person, "albastini rules", game=game)
    rules = r.message
    assert rules is not None
    seen.message("rules", rules)
    pages = len([k for k in catalogue("en") if k.startswith(f"{game}.rules.page.")])
    lang_next = [b.label for b in rules.buttons]
    for _ in range(pages - 1):
        nxt = next(b for b in rules.buttons if b.label == lang_next[-1])
        await fake.click(person, rules, custom_id=nxt.custom_id)
        seen.message("rules", rules)
    commands: tuple[tuple[str, dict[str, Any]], ...] = (
        ("albastini help", {}), ("albastini stats", {"game": game}),
        ("albastini leaderboard", {"game": game}), ("albastini history", {}))
    for command, options in commands:
        r = await fake.slash(person, command, **options)
        seen.message(command, r.message)
    for message in fake.messages():
        seen.message("channel", message)
    for message in fake.ephemerals(person):
        seen.message("private", message)


async def open_in(fake: FakeDiscord, lang: str, host: FakeUser,
                  **options: Any) -> tuple[FakeMessage, Seen]:
    """The host opens a table filled with computers and presses Start, by the buttons' labels
    in ``lang``; the lobby is seen as it was opened."""
    r = await fake.slash(host, "albastini start", computers=True, **options)
    lobby = r.message
    assert lobby is not None and not r.ephemeral
    seen = Seen()
    seen.message("lobby", lobby)
    start = t(lang, "button.start")
    await fake.wait_until(lambda: fake.find_button(lobby, label=start) is not None, timeout=10)
    await fake.click(host, lobby, label=start)
    await fake.wait_until(
        lambda: fake.find_button(lobby, label=t(lang, "button.show_hand")), timeout=10)
    return lobby, seen


async def test_a_match_of_twenty_eight_in_malayalam_leaves_no_english(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        anu = fake.add_user("Anu", manage_guild=True)
        async with fake.run_bot(make_bot()) as bot:
            r = await fake.slash(anu, "albastini settings", language="ml")
            assert r.message is not None
            assert "മലയാളം" in r.message.text, r.message.text
            lobby, seen = await open_in(fake, "ml", anu, game="twentyeight", players=4,
                                        target=1)
            opened = seen.texts[0][1]
            assert "ഇരുപത്തിയെട്ട്" in opened and "കുണുക്ക്" in opened, opened
            await play_in(bot, fake, "ml", anu, lobby, seen)
            posted = "\n".join(m.text for m in fake.messages())
            assert "ലേലം" in "\n".join(text for _, text in seen.texts)
            assert "ബേസ് കാർഡുകൾ: " in posted and "കുണുക്ക്" in posted, posted
            await look_around(fake, anu, "twentyeight", seen)
            names = ["Anu"]
            assert seen.english(names) == []
            # the table spoke the language's own script throughout, not just no English
            table_texts = [text for where, text in seen.texts if where == "table" and text]
            assert table_texts and all(re.search(script_of("ml"), x) for x in table_texts)
        assert_clean(fake)


async def test_a_match_of_ass_in_russian_leaves_no_english(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        admin = fake.add_user("Admin", manage_guild=True)
        olga = fake.add_user("Olga", locale="ru")
        async with fake.run_bot(make_bot()) as bot:
            await fake.slash(admin, "albastini settings", language="ru")
            r = await fake.slash(olga, "albastini language", language="ru")
            assert r.message is not None
            assert r.ephemeral and "Русский" in r.message.text, r.message.text
            lobby, seen = await open_in(fake, "ru", olga, game="ass", players=3)
            opened = seen.texts[0][1]
            assert "Жопа" in opened and "банк" in opened, opened
            await play_in(bot, fake, "ru", olga, lobby, seen)
            everything = "\n".join(text for _, text in seen.texts)
            assert re.search(r"Иду \(цель \d+\)", everything), "the bets' buttons"
            assert "Банки: " in "\n".join(m.text for m in fake.messages())
            await look_around(fake, olga, "ass", seen)
            assert seen.english(["Olga", "Admin"]) == []
            table_texts = [text for where, text in seen.texts if where == "table" and text]
            assert table_texts and all(re.search(script_of("ru"), x) for x in table_texts)
        assert_clean(fake)


def _valid_name(name: str) -> bool:
    """Discord's rule for a command or option name: 1-32 characters, lowercase where the
    letter has a case, each a letter, a digit, "-" or "_" (Devanagari and Thai marks too)."""
    if not 1 <= len(name) <= 32 or name != name.lower():
        return False
    return all(ch in "-_" or unicodedata.category(ch)[0] in "LN" for ch in name)


def _localized(node: dict[str, Any], out: list[tuple[str, dict[str, Any]]], path: str) -> None:
    out.append((path, node))
    for option in node.get("options") or []:
        _localized(option, out, f"{path} {option['name']}")


async def test_commands_reach_discord_in_russian_and_never_in_an_unknown_locale(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    ru = catalogue("ru")
    async with FakeDiscord() as fake, fake.run_bot(make_bot(sync_commands="always")):
        await fake.wait_until(lambda: fake.commands(), timeout=10)
        nodes: list[tuple[str, dict[str, Any]]] = []
        for command in fake.commands():
            _localized(command, nodes, command["name"])
    subcommands = [node for path, node in nodes if path.count(" ") == 1]
    assert len(subcommands) >= 10
    for path, node in nodes:
        names = node.get("name_localizations") or {}
        descriptions = node.get("description_localizations") or {}
        assert set(names) <= {"ru"} and set(descriptions) <= {"ru"}, (path, names)  # no "ml"
        if path == "albastini":
            continue
        assert "ru" in descriptions and 1 <= len(descriptions["ru"]) <= 100, path
        assert re.search(script_of("ru"), descriptions["ru"]), (path, descriptions)
        name = names.get("ru")
        assert name is not None and _valid_name(name), (path, name)
        siblings = [o.get("name_localizations", {}).get("ru") for o in node.get("options") or []]
        assert len(siblings) == len(set(siblings)), (path, siblings)  # each option its own
        for choice in node.get("choices") or []:
            shown = (choice.get("name_localizations") or {}).get("ru")
            assert shown and 1 <= len(shown) <= 100, (path, choice)
    start = next(node for node in subcommands if node["name"] == "start")
    assert start["name_localizations"]["ru"] == ru["cmd.start.name"] == "начать"
    game = next(o for o in start["options"] if o["name"] == "game")
    shown = {c["value"]: c["name_localizations"]["ru"] for c in game["choices"]}
    assert shown["ass"] == "Жопа" and shown["twentyeight"] == "Двадцать восемь"
