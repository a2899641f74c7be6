"""The Discord layer's pure parts, without Discord: custom ids, buttons as data, texts, and the
coalescing of table-message edits."""

from __future__ import annotations

import asyncio
import re
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from albastini import new_deal
from albastini.table import SeatInfo, Table, TableStatus
from cogs.games import presenter
from cogs.i18n import LANGUAGES
from cogs.messages.publisher import Publisher
from cogs.ui import buttons as ids
from cogs.ui import texts, views

ALB = presenter("albastini")

BIG = 2**63 - 1


@pytest.mark.parametrize(
    ("custom_id", "kind", "action"),
    [
        ("alb:m:12:7:play:7H", "move", "play:7H"),
        ("alb:m:12:1:bid:4C", "move", "bid:4C"),
        ("alb:m:12:3:pass", "move", "pass"),
        ("alb:c:12:3:7H", "card", None),
        # the move buttons of messages sent before alb:m: map to the same moves
        ("alb:p:12:7:7H", "move", "play:7H"),
        ("alb:b:12:1:4C", "move", "bid:4C"),
        ("alb:x:12:3", "move", "pass"),
        ("alb:r:12", "refresh", None),
        ("alb:h:12", "hand", None),
        ("alb:join:12", "join", None),
        ("alb:again:12", "rematch", None),
        ("alb:quit:12", "quit", None),
    ],
)
def test_parse_ids(custom_id: str, kind: str, action: str | None) -> None:
    parsed = ids.parse(custom_id)
    assert parsed is not None and parsed.kind == kind and parsed.table == 12
    assert parsed.action == action


@pytest.mark.parametrize(
    "custom_id",
    ["", "alb:", "alb:p:12:7:ZZ", "alb:p:12:7:10H", "alb:p:x:7:AS", "alb:p:12:7:AS:extra",
     "xalb:p:1:1:AS", "alb:p:1:1:as", "alb:lb:1:-5", "alb:rules:", "alb:p:" + "1" * 120,
     "alb:x:12:3:AS", "alb:p:12:3", "alb:m:12:3:", "alb:m:12:3:Play:7H", "alb:m:12:3:play:",
     "alb:m:12:3:play:7H:x:y:z", "alb:m:12:3:play 7H", "alb:m:x:3:pass", "alb:c:12:3:7H:x"],
)
def test_garbled_ids_are_refused(custom_id: str) -> None:
    assert ids.parse(custom_id) is None


def test_every_id_fits_and_matches_its_template() -> None:
    made = [
        ids.move(BIG, 999_999_999, "play:7H"),
        ids.move(BIG, 999_999_999, "bid:QD"),
        ids.move(BIG, 999_999_999, "pass"),
        # the longest code of any game: 64 characters (the store's limit)
        ids.move(BIG, 999_999_999, "k" * 16 + ":" + "9" * 47),
        ids.card(BIG, 999_999_999, "10H"),
        ids.leaderboard(BIG, 999_990, "twentyeight"),
        ids.rules(6),
        *(ids.table_button(kind, BIG) for kind in ids._SHORT),
    ]
    for custom_id in made:
        assert len(custom_id) <= 100
        parsed = ids.parse(custom_id)
        assert parsed is not None
        assert re.fullmatch(ids.KINDS[parsed.kind].pattern, custom_id)
    for not_a_code in ("Play:7H", "play 7H", "play:", "play:7H:x:y:z", "k" * 17, ""):
        with pytest.raises(ValueError):
            ids.move(1, 1, not_a_code)


async def test_spec_views_send_what_discord_views_send() -> None:
    """The buttons are sent from their specs without discord.ui objects; the payload must be
    the one discord.py's own View makes of the same buttons."""
    deal = new_deal(4, 2, 0, seed=7)
    cases: list[list[views.ButtonSpec]] = [[]]
    for seat in range(4):
        for lang in LANGUAGES:
            cases.append(views.hand_buttons({**deal.view(seat), "move_no": 5}, BIG, lang,
                                            shows=ALB))
    for _ in range(12):  # into the playing phase
        deal.apply(deal.legal_actions()[0])
        cases.append(views.hand_buttons({**deal.view(deal.to_act or 0), "move_no": 9}, 1, "en",
                                        shows=ALB))
    for lang in LANGUAGES:
        cases += [
            views.notice_buttons(BIG, lang),
            views.leave_confirm_buttons(3, lang),
            views.rematch_buttons(3, lang),
            views.rules_pager(lang, page=2, pages=6, first_page=1),
            views.leaderboard_pager(lang, BIG, "cassino", page=0, pages=3, page_size=10),
        ]
    cases.append([views.ButtonSpec(f"alb:r:{i}", "x" * 90) for i in range(12)])  # auto rows
    for specs in cases:
        sent = views.build_view(specs)
        assert sent.to_components() == views.discord_view(specs).to_components(), specs
        # build_view makes buttons only; discord.py types a view's children as any Item
        buttons = cast("list[discord.ui.Button[views.StaticView]]", sent.children)
        assert [(b.custom_id, b.label, b.disabled) for b in buttons] == [
            (s.custom_id, s.label, s.disabled) for s in specs
        ]
        assert not sent.is_dispatchable() and not sent.has_components_v2()


def _deal_view(seat: int, **changes: Any) -> dict[str, Any]:
    deal = new_deal(4, 2, 0, seed=7)
    view = deal.view(seat)
    view["move_no"] = 5
    view.update(changes)
    return view


def test_hand_buttons_follow_legal_moves_only() -> None:
    deal = new_deal(4, 2, 0, seed=7)
    bidder = deal.to_act
    assert bidder is not None
    view = {**deal.view(bidder), "move_no": 5}
    specs = views.hand_buttons(view, 3, "en", shows=ALB)
    bids = [s for s in specs if s.label.startswith("Bid ")]
    assert len(bids) == len(view["hand"])
    for spec in bids:
        parsed = ids.parse(spec.custom_id)
        assert parsed is not None and parsed.table == 3 and parsed.move == 5
        assert spec.disabled == (parsed.kind == "card")
        assert spec.disabled or parsed.action in view["legal"]
    pass_button = next(s for s in specs if s.custom_id == "alb:m:3:5:pass")
    assert not pass_button.disabled
    assert specs[-1].custom_id == "alb:r:3"

    other = (bidder + 1) % 4
    waiting = {**deal.view(other), "move_no": 5}
    specs = views.hand_buttons(waiting, 3, "en", shows=ALB)
    cards = [s for s in specs if s.custom_id.startswith("alb:c:3:5:")]
    assert cards and all(s.disabled for s in cards)
    assert not any(s.custom_id.startswith("alb:m:") for s in specs)
    assert not any(s.label.startswith("Bid ") for s in specs)


def test_hand_buttons_while_playing() -> None:
    deal = new_deal(2, 1, 0, seed=3)
    while deal.phase == "bidding":
        deal.apply("pass")
    seat = deal.to_act
    view = {**deal.view(seat), "move_no": 9}
    specs = views.hand_buttons(view, 1, "en", shows=ALB)
    cards = [s for s in specs if s.custom_id.startswith("alb:m:1:9:play:")]
    assert len(cards) == len(view["hand"]) and not any(s.disabled for s in cards)
    assert all(s.label.split()[0][-1] in "♠♥♦♣" for s in cards)
    view["legal"] = []
    retired = views.hand_buttons(view, 1, "en", shows=ALB)
    assert all(s.disabled for s in retired if s.custom_id.startswith("alb:c:"))
    assert not any(s.custom_id.startswith("alb:m:") for s in retired)


def _running_table() -> Table:
    """Four people playing the first deal of a 4-pairs match."""
    from albastini.games.albastini.match import Match

    table = _table("running", seats=4)
    table.match = Match(4, 2, 5, 0, seed=1)
    table.deal_no = 1
    return table


def _table(status: TableStatus = "lobby", seats: int = 2, players: int = 4) -> Table:
    table = Table(id=4, guild_id=1, channel_id=2, host_id=10, players=players, team_size=2,
                  target=5, turn_time=60, computer_level="normal", language="en", status=status,
                  game="albastini")
    table.seats = [SeatInfo(i, 10 + i, f"P{i}", None) for i in range(seats)]
    table.seats += [None] * (players - seats)
    return table


def test_lobby_and_table_buttons() -> None:
    specs = {s.label: s for s in views.lobby_buttons(_table(), "en")}
    assert set(specs) == {"Join", "Leave", "Add computer", "Start", "Cancel", "Rules"}
    assert specs["Start"].disabled and not specs["Join"].disabled
    full = {s.label: s for s in views.lobby_buttons(_table(seats=4), "en")}
    assert not full["Start"].disabled and full["Join"].disabled

    running = _table("running", seats=4)
    labels = [s.label for s in views.table_buttons(running, "en")]
    assert labels == ["Show my hand", "Leave", "Rules", "Watch"]
    running.seats[1].away = True  # type: ignore[union-attr]
    assert "Back to my seat" in [s.label for s in views.table_buttons(running, "en")]
    assert views.table_buttons(_table("finished", seats=4), "en") == []


def test_pagers() -> None:
    first = views.rules_pager("en", page=1, pages=6, first_page=1)
    assert first[0].disabled and not first[1].disabled and first[1].custom_id == "alb:rules:2"
    last = views.leaderboard_pager("en", 9, "albastini", page=2, pages=3, page_size=10)
    assert last[0].custom_id == "alb:lb:9:10:albastini" and last[1].disabled


def test_since_events_after_own_last_move() -> None:
    view: dict[str, Any] = {
        "seat": 1, "players": 2,
        "log": [[1, "bid:4C"], [0, "pass"], [0, "play:AS"], [1, "play:7S"], [1, "play:KH"],
                [0, "play:3D"], [1, "play:QH"]],
        "tricks": [{"plays": [[0, "AS"], [1, "7S"]], "winner": 1, "points": 21},
                   {"plays": [[1, "KH"], [0, "3D"]], "winner": 1, "points": 4}],
    }
    assert texts.since_events(view, ["A", "B"], "en", shows=ALB) == []  # seat 1 moved last
    view["seat"] = 0
    events = texts.since_events(view, ["A", "B"], "en", shows=ALB)
    assert events == ["B ate the round (4)", "B played Q♥"]
    view["log"].append([0, "play:6C"])
    view["seat"] = 1
    assert texts.since_events(view, ["A", "B"], "en", shows=ALB) == ["A played 6♣"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    ("reason", "details"),
    [("not_your_turn", {"to_act": 1}), ("not_seated", {}), ("stale", {}),
     ("illegal", {"rule": "suit_taken", "suit": "C"}), ("illegal", {"rule": "not_bidder"}),
     ("not_host", {}), ("table_full", {}), ("already_seated", {"seat": 0}), ("bad_value", {}),
     ("seats_empty", {}), ("not_in_lobby", {}), ("away_only", {}), ("whatever", {})],
)
def test_refusals_are_sentences(lang: str, reason: str, details: dict[str, Any]) -> None:
    text = texts.refusal_text(lang, reason, details, _table("running", seats=4), "link")
    assert text and "{" not in text and not text.startswith("refuse.")
    assert "refuse." not in text and "None" not in text


async def test_table_edits_are_coalesced() -> None:
    edits: list[int] = []
    gate = asyncio.Event()
    state = {"n": 0}

    class Message:
        async def edit(self, **payload: Any) -> None:
            edits.append(state["n"])
            await gate.wait()

    channel = SimpleNamespace(get_partial_message=lambda mid: Message())
    bot = SimpleNamespace(get_partial_messageable=lambda cid, guild_id=None: channel)
    table = _table()
    table.message_id = 77
    service = SimpleNamespace(get=lambda tid: table)
    pub = Publisher(bot, service, deal_pause=0, edit_interval=0)

    async def payload(tb: Table) -> dict[str, Any]:
        return {}

    # a stand-in on this instance only, called here with the table alone (no note)
    pub.message_payload = payload  # type: ignore[method-assign,assignment]
    for n in range(1, 30):
        state["n"] = n
        pub.refresh(table.id)
        await asyncio.sleep(0)
    assert edits == [1]  # one edit in flight, the rest waits
    gate.set()
    await asyncio.sleep(0.01)
    assert edits == [1, 29]  # then one more edit with the latest state
    assert pub.settled


async def test_table_edits_keep_the_interval() -> None:
    """At most one edit per edit_interval: changes in between wait and go out together."""
    edits: list[tuple[int, float]] = []
    state = {"n": 0}
    loop = asyncio.get_running_loop()

    class Message:
        async def edit(self, **payload: Any) -> None:
            edits.append((state["n"], loop.time()))

    channel = SimpleNamespace(get_partial_message=lambda mid: Message())
    bot = SimpleNamespace(get_partial_messageable=lambda cid, guild_id=None: channel)
    table = _table()
    table.message_id = 77
    pub = Publisher(bot, SimpleNamespace(get=lambda tid: table), deal_pause=0,
                    edit_interval=0.3)
    start = loop.time()
    state["n"] = 1
    pub.refresh(table.id)
    await asyncio.sleep(0.02)
    assert [n for n, _ in edits] == [1]  # the first change goes out at once
    for n in (2, 3, 4):
        state["n"] = n
        pub.refresh(table.id)
        await asyncio.sleep(0.02)
    assert [n for n, _ in edits] == [1]  # the next ones wait for the interval
    for _ in range(100):
        await asyncio.sleep(0.01)
        if pub.settled:
            break
    assert [n for n, _ in edits] == [1, 4]  # one edit with the latest state
    assert edits[1][1] - start >= 0.29
    await pub.close()


def _notice_publisher(delay: float) -> tuple[Publisher, Table, list[dict[str, Any]]]:

    sent: list[dict[str, Any]] = []

    class Channel:
        async def send(self, **kwargs: Any) -> Any:
            sent.append(kwargs)
            return SimpleNamespace(id=900 + len(sent))

        def get_partial_message(self, mid: int) -> Any:
            return SimpleNamespace(delete=_nothing)

    channel = Channel()
    bot = SimpleNamespace(get_partial_messageable=lambda cid, guild_id=None: channel)
    table = _running_table()
    table.move_no = 7
    service = SimpleNamespace(get=lambda tid: table, clock=SimpleNamespace(time=lambda: 0.0))
    return Publisher(bot, service, deal_pause=0, notice_delay=delay), table, sent


async def _nothing() -> None:
    return None


async def test_turn_notice_waits_its_delay() -> None:
    pub, table, sent = _notice_publisher(0.15)
    pub.turn_started(table.id, 2, 7)
    await asyncio.sleep(0.05)
    assert sent == []  # not yet: the person may be about to play
    await asyncio.sleep(0.25)
    assert len(sent) == 1 and "<@12>" in sent[0]["content"]  # then the ping
    assert sent[0]["allowed_mentions"].users[0].id == 12
    await pub.close()


async def test_a_running_table_keeps_no_notice_queue_between_its_notices() -> None:
    """Memory per open table: once a table's notices are sent, nothing is kept for it (a
    queue and a finished task per table were held for the table's whole life), and its next
    notice goes out as the first did."""
    pub, table, sent = _notice_publisher(0.0)
    for move_no, seat in ((7, 2), (8, 3)):
        table.move_no = move_no
        pub.turn_started(table.id, seat, move_no)
        for _ in range(20):
            await asyncio.sleep(0)
        assert pub.settled
        assert not pub.notices._queues and not pub.notices._workers
    assert len(sent) == 2 and "<@12>" in sent[0]["content"]
    await pub.close()


async def test_no_turn_notice_for_someone_who_played_in_time() -> None:
    pub, table, sent = _notice_publisher(0.1)
    pub.turn_started(table.id, 2, 7)
    await asyncio.sleep(0.02)
    table.move_no = 8  # seat 2 played before the delay ran out
    pub.turn_done(table.id, 7)
    await asyncio.sleep(0.2)
    assert sent == []
    assert pub.settled
    await pub.close()


def test_missing_permission_is_named() -> None:
    import discord

    from cogs.tables._checks import missing_permission

    perms = discord.Permissions(view_channel=True, send_messages=True, embed_links=True)
    assert missing_permission(SimpleNamespace(app_permissions=perms)) == "permission.attach_files"  # type: ignore[arg-type]
    perms.attach_files = True
    assert missing_permission(SimpleNamespace(app_permissions=perms)) is None  # type: ignore[arg-type]


async def test_leaderboard_pages() -> None:
    from albastini.store import LeaderboardPage, PlayerStats
    from cogs.records import leaderboard_payload

    async def leaderboard(guild_id: int, limit: int, offset: int, *, game: str
                          ) -> LeaderboardPage:
        assert game == "albastini"
        entries = tuple(
            PlayerStats(user_id=100 + i, matches_played=4, matches_won=1, score=3, deals_played=9,
                        deals_won=4, deals_won_big=1, card_points=500, rank=i + 1)
            for i in range(offset, min(offset + limit, 25))
        )
        return LeaderboardPage(entries, 25, offset, limit)

    store: Any = SimpleNamespace(leaderboard=leaderboard)
    first = await leaderboard_payload(store, 9, 0, "en", "albastini")
    assert first["embed"].description.splitlines()[0] == "1. <@100> — 1 win out of 4 (25%)"
    labels = {b.label: b for b in first["view"].children}
    assert labels["Previous"].disabled and labels["Next"].custom_id == "alb:lb:9:10:albastini"
    last = await leaderboard_payload(store, 9, 20, "en", "albastini")
    assert len(last["embed"].description.splitlines()) == 5
    assert "Page 3 of 3" in last["embed"].footer.text
    labels = {b.label: b for b in last["view"].children}
    assert labels["Next"].disabled and labels["Previous"].custom_id == "alb:lb:9:10:albastini"


async def test_publisher_forgets_closed_tables() -> None:
    class Message:
        async def edit(self, **payload: Any) -> None:
            return None

    channel = SimpleNamespace(get_partial_message=lambda mid: Message())
    bot = SimpleNamespace(get_partial_messageable=lambda cid, guild_id=None: channel)
    table = _table("cancelled")
    table.message_id = 5
    pub = Publisher(bot, SimpleNamespace(get=lambda tid: table), deal_pause=0)

    async def payload(tb: Table) -> dict[str, Any]:
        return {}

    # a stand-in on this instance only, called here with the table alone (no note)
    pub.message_payload = payload  # type: ignore[method-assign,assignment]
    pub.closed_reasons[table.id] = "cancelled"
    pub.refresh(table.id)
    pub.forget(table.id)
    for _ in range(20):
        await asyncio.sleep(0)
    assert pub.settled
    assert not pub.message._editors and not pub.notices._queues and not pub.closed_reasons


def test_deadline_is_a_discord_timestamp() -> None:
    import time

    table = _table("running", seats=4)
    clock = SimpleNamespace(time=lambda: 1000.0)
    pub = Publisher(SimpleNamespace(), SimpleNamespace(clock=clock), deal_pause=0)
    assert pub.deadline_text(table) == ""
    table.turn_deadline = 1045.0
    text = pub.deadline_text(table)
    stamp = int(text.split("<t:")[1].split(":")[0])
    assert text.endswith(":R>") and abs(stamp - (time.time() + 45)) <= 2


async def test_busy_painter_sends_text_now_and_the_picture_later(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cogs.messages import table_message as table_message_module

    monkeypatch.setattr(table_message_module, "PICTURE_RETRY", 0.05)
    edits: list[dict[str, Any]] = []

    class Message:
        async def edit(self, **payload: Any) -> None:
            edits.append(payload)

    channel = SimpleNamespace(get_partial_message=lambda mid: Message())
    bot = SimpleNamespace(get_partial_messageable=lambda cid, guild_id=None: channel)
    table = _running_table()
    table.message_id = 8
    service = SimpleNamespace(get=lambda tid: table, clock=SimpleNamespace(time=lambda: 0.0))
    pub = Publisher(bot, service, deal_pause=0, edit_interval=0)

    async def wait() -> None:
        for _ in range(200):
            await asyncio.sleep(0.01)
            if pub.settled:
                return

    pub.refresh(table.id)
    await wait()
    assert len(edits) == 1 and len(edits[0]["attachments"]) == 1  # the first picture

    pub.message._painting = 5  # other tables keep the painter busy
    assert table.match is not None
    table.match.deal.apply(table.match.deal.legal_actions()[0])
    table.move_no += 1  # as the service does with every move
    pub.refresh(table.id)
    await asyncio.sleep(0.01)
    assert len(edits) == 2 and "attachments" not in edits[1]  # text now, old picture kept
    # the table still shows the picture the message has
    assert edits[1]["embed"].image.url == "attachment://table.jpg"
    pub.refresh(table.id)  # nothing changed and still busy: no edit at all
    await asyncio.sleep(0.01)
    assert len(edits) == 2

    pub.message._painting = 0  # the painter is free again: the retry brings the picture
    await wait()
    assert len(edits) == 3 and len(edits[2]["attachments"]) == 1
    await pub.close()


def _keys_used_by_cogs() -> set[str]:
    """Catalogue keys the Discord layer asks for: literal t()/tn()/key_str() arguments, f-string
    prefixes (as "prefix*") and the permission names."""
    import ast
    from pathlib import Path

    from cogs.tables._checks import NEEDED_PERMISSIONS

    keys = {key for _attr, key in NEEDED_PERMISSIONS}
    root = Path(__file__).resolve().parents[2] / "cogs"
    # every module (the presenters and the renderer too) but the catalogue machinery itself
    for path in sorted(p for p in root.rglob("*.py") if "i18n" not in p.parts):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            if node.func.id not in {"t", "tn", "key_str"}:
                continue
            index = 0 if node.func.id == "key_str" else 1
            if len(node.args) <= index:
                continue
            arg = node.args[index]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                keys.add(arg.value)
            elif isinstance(arg, ast.JoinedStr):
                prefix = "".join(v.value for v in arg.values
                                 if isinstance(v, ast.Constant) and isinstance(v.value, str))
                keys.add(prefix.split("{")[0] + "*")
    return keys


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_the_cogs_use_exists(lang: str) -> None:
    from cogs.i18n import catalogue

    cat = catalogue(lang)
    keys = _keys_used_by_cogs()
    assert len(keys) > 60
    missing = []
    for key in sorted(keys):
        if key.endswith("*"):
            if not any(k.startswith(key[:-1]) for k in cat):
                missing.append(key)
        elif key not in cat and f"{key}.one" not in cat:
            missing.append(key)
    assert missing == []
