"""Twenty-Eight on Discord: its presenter's texts, buttons and picture, read from real views of
the engine (``albastini.games.twentyeight``), and the hidden trump that never shows.

The hidden trump is checked with twin deals: the same deal, the same moves, but the bidder lays
down two different cards of two different suits. Until the trump is exposed, everything the
public or a player other than the bidder can see (the text table, the picture, hands, "since
your last move" lines, refusals, turn pings) must be the same for both twins: nothing can then
depend on the hidden card.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from albastini.games.twentyeight import Deal, IllegalMove, new_deal, table_view
from albastini.table import SeatInfo, Table
from cogs import games, render
from cogs.games import first_rules_page, presenter, rules_page
from cogs.games import twentyeight as tt
from cogs.i18n import LANGUAGES, t
from cogs.render.presenter import Presenter
from cogs.ui import buttons as ids
from cogs.ui import texts, views

TWENTY_EIGHT = presenter("twentyeight")

NAMES = ["@Anu", "@Binu", "@Chinnu", "@Deepa", "@Eby", "@Fathima"]
SUIT_WORDS = {lang: [t(lang, f"suit.{s}") for s in "CDHS"] for lang in LANGUAGES}


# --------------------------------------------------------------------------- helpers
def bid_out(deal: Deal, rng: random.Random) -> None:
    """Bid at random until the auction is over (no redeal: someone bids)."""
    while deal.phase == "bidding":
        legal = deal.legal_actions()
        bids = [c for c in legal if c.startswith("bid:")]
        if "pass" in legal and (not bids or rng.random() < 0.6):
            deal.apply("pass")
        else:
            deal.apply(bids[0] if rng.random() < 0.7 else rng.choice(bids))


def twins(players: int, seed: int) -> tuple[Deal, Deal] | None:
    """Two copies of one deal whose bidders laid cards of two different suits face down."""
    rng = random.Random(seed)
    deal = new_deal(players, seed=seed)
    bid_out(deal, rng)
    if deal.phase != "trump":
        return None  # everybody passed (3 players)
    choices = [c.partition(":")[2] for c in deal.legal_actions()]
    other = [c for c in choices if c[-1] != choices[0][-1]]
    if not other:
        return None
    a, b = deal.copy(), deal.copy()
    a.apply("trump:" + choices[0])
    b.apply("trump:" + other[0])
    return a, b


def public(deal: Deal, **extra: Any) -> dict[str, Any]:
    return {**table_view(deal, None), **extra}


def table_text(view: dict[str, Any], lang: str = "en", scores: list[int] | None = None) -> str:
    sides = int(view["n_teams"])
    return render.table_text(view, NAMES[: view["players"]], lang, deal_no=2,
                             scores=scores if scores is not None else [6] * sides, target=6,
                             shows=TWENTY_EIGHT)


def hand_text(deal: Deal, seat: int, lang: str = "en") -> str:
    view = {**table_view(deal, seat), "move_no": 3}
    names = NAMES[: deal.players]
    content = texts.hand_content(view, names, lang, shows=TWENTY_EIGHT)
    buttons = views.hand_buttons(view, 1, lang, shows=TWENTY_EIGHT)
    return content + "\n" + " ".join(f"{b.label}|{b.custom_id}|{b.disabled}" for b in buttons)


def refusals(deal: Deal, lang: str = "en") -> list[str]:
    """What the seat to act reads for every move it might try that the rules refuse."""
    said = []
    tries = ["pass", "expose", "thani", "bid:14", "bid:29", "raise:20", "trump:JH"]
    tries += [f"play:{r}{s}" for r in "J9ATKQ876" for s in "CDHS"]
    for code in tries:
        try:
            deal.copy().apply(code)
        except IllegalMove as exc:
            said.append(tt.refusal(lang, exc.reason, exc.details) or "generic")
    return said


def moves_until_exposure(a: Deal, b: Deal, rng: random.Random) -> list[str]:
    """Moves legal in both twins (never a call for the trump), until one has none left."""
    done = []
    while a.phase != "finished" and a.to_act == b.to_act:
        both = [c for c in a.legal_actions() if c in b.legal_actions() and c != "expose"]
        if not both:
            break
        code = rng.choice(both)
        a.apply(code)
        b.apply(code)
        done.append(code)
    return done


def deal_in_phase(players: int, phase: str, seed: int = 0) -> Deal:
    """A deal of ``players`` played at random until ``phase`` (a seat to act in it)."""
    for s in range(seed, seed + 200):
        rng = random.Random(s)
        deal = new_deal(players, seed=s)
        while deal.phase not in (phase, "finished"):
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.phase == phase:
            return deal
    raise AssertionError(f"no deal of {players} reached {phase}")


def _table(players: int = 4, **over: Any) -> Table:
    team_size = {3: 1, 4: 2, 6: 3}[players]
    table = Table(id=1, guild_id=2, channel_id=3, host_id=100, players=players,
                  team_size=team_size, target=6, turn_time=60, computer_level="easy",
                  language="en", status="running", game="twentyeight",
                  seats=[SeatInfo(i, 100 + i, f"P{i}", None) for i in range(players)])
    for key, value in over.items():
        setattr(table, key, value)
    return table


# --------------------------------------------------------------------------- the hidden trump
@pytest.mark.parametrize("players", [3, 4, 6])
def test_nothing_public_or_of_another_seat_depends_on_the_hidden_card(players: int) -> None:
    """Twin deals differ only by the face-down card: every public text, every picture, every
    hand and refusal of a seat but the bidder, is the same for both, step by step, until the
    trump is exposed; the face-down card's label appears in none of them."""
    checked = 0
    for seed in range(12):
        pair = twins(players, seed)
        if pair is None:
            continue
        a, b = pair
        hidden = {tt.card_label(table_view(d, d.state.bidder)["trump_card"]) for d in (a, b)}
        bidder = a.state.bidder
        rng = random.Random(seed)
        steps = 0
        while True:
            for lang in LANGUAGES:
                shown_a, shown_b = table_text(public(a), lang), table_text(public(b), lang)
                assert shown_a == shown_b
                assert not any(label in shown_a for label in hidden), shown_a
                assert not any(word in shown_a for word in SUIT_WORDS[lang]), shown_a
                for seat in range(players):
                    if seat == bidder:
                        continue
                    mine_a, mine_b = hand_text(a, seat, lang), hand_text(b, seat, lang)
                    assert mine_a == mine_b
                    assert not any(re.search(re.escape(label) + r"(?!\d)", mine_a)
                                   for label in hidden), mine_a
                if a.to_act != bidder:
                    assert refusals(a, lang) == refusals(b, lang)
            if steps % 4 == 0:
                assert render.table_picture(public(a), NAMES, "en", shows=TWENTY_EIGHT) == (
                    render.table_picture(public(b), NAMES, "en", shows=TWENTY_EIGHT))
            checked += 1
            if a.phase == "finished" or a.to_act != b.to_act:
                break
            both = [c for c in a.legal_actions() if c in b.legal_actions() and c != "expose"]
            if not both or a.state.exposed_by >= 0:
                break
            code = rng.choice(both)
            a.apply(code)
            b.apply(code)
            steps += 1
        # the bidder, and only the bidder, is told their card
        own = hand_text(a, bidder)
        assert table_view(a, bidder)["trump_card"] and tt.card_label(
            table_view(a, bidder)["trump_card"]) in own
    assert checked > 20


def test_the_masked_log_never_names_the_face_down_card() -> None:
    pair = twins(4, 1)
    assert pair is not None
    a, _b = pair
    card = a.actions[-1].partition(":")[2]
    for lang in LANGUAGES:
        for code in ("trump", f"trump:{card}"):
            said = tt.action_text(lang, code, "@Anu")
            assert tt.card_label(card) not in said and "@Anu" in said
        assert t(lang, "twentyeight.event.trump", name="@Anu") == tt.action_text(
            lang, "trump", "@Anu")
        # to the bidder alone (their own move counted), the card is named
        assert tt.card_label(card) in tt.action_text(lang, f"trump:{card}", None)
    seat = (a.state.bidder + 1) % 4
    since = texts.since_events(table_view(a, seat), NAMES[:4], "en", shows=TWENTY_EIGHT)
    assert NAMES[a.state.bidder] + " laid the trump card face down" in since


def test_a_turn_ping_names_no_card() -> None:
    for phase in ("bidding", "trump", "raising", "playing"):
        for lang in LANGUAGES:
            ping = texts.turn_notice(lang, "twentyeight", phase, name="@Anu", round=3)
            assert "@Anu" in ping and not re.search(r"[♣♦♥♠]", ping)
    assert "choose your trump card" in texts.turn_notice("en", "twentyeight", "trump",
                                                           name="@A", round=1)
    assert texts.turn_notice("en", "albastini", "bidding", name="@A", round=1) == t(
        "en", "notify.your_bid", name="@A")


def test_once_exposed_the_trump_is_told_to_everyone() -> None:
    for seed in range(40):
        pair = twins(4, seed)
        if pair is None:
            continue
        deal, _ = pair
        while deal.phase != "finished" and "expose" not in deal.legal_actions():
            deal.apply(deal.legal_actions()[0])
        if deal.phase == "finished":
            continue
        caller = deal.to_act
        assert caller is not None
        deal.apply("expose")
        view = public(deal)
        card = tt.card_label(view["trump_card"])
        shown = table_text(view)
        suit = render.suit_label("en", view["trump"])
        if caller == deal.state.bidder:
            assert f"Trump (thuruppu) is {suit} ({card} shown by {NAMES[caller]})" in shown
        else:
            assert f"Trump (thuruppu) is {suit} ({card} shown on {NAMES[caller]}'s call)" in shown
        assert render.table_picture(view, NAMES, "en", shows=TWENTY_EIGHT)
        other = (caller + 1) % 4
        assert f"Trump (thuruppu): {suit}." in hand_text(deal, other)
        return
    raise AssertionError("no deal had a call for the trump")


# --------------------------------------------------------------------------- the text table
def test_the_auction_the_contract_and_the_hidden_trump_on_the_table() -> None:
    deal = new_deal(4, dealer=0, seed=5)
    deal.apply("bid:14")
    deal.apply("pass")
    shown = table_text(public(deal))
    assert "Bidding (lelam): @Binu 14 · @Chinnu passed" in shown
    assert "▶ **@Deepa** to bid" in shown
    assert shown.startswith("Twenty-Eight · deal 2 · base cards: Team A 6 — Team B 6")
    deal.apply("pass")
    deal.apply("pass")
    shown = table_text(public(deal))
    assert "Contract: 14 by @Binu (Team B)" in shown
    assert "@Binu is choosing the trump card" in shown
    assert "▶ **@Binu** to choose the trump card" in shown
    deal.apply(deal.legal_actions()[0])
    shown = table_text(public(deal), scores=[8, -2])
    assert "Trump (thuruppu): hidden" in shown and "face down by @Binu" in shown
    assert "Team B −2" in shown or "Team B -2" in shown
    three = new_deal(3, seed=2)
    bid_out(three, random.Random(2))
    if three.phase == "trump":
        assert "alone against the two others" in table_text(public(three))


def test_card_labels_show_the_ten_as_10() -> None:
    assert tt.card_label("TH") == "10♥" and tt.card_label("JS") == "J♠"
    assert tt.card_label("6C") == "6♣"
    with pytest.raises(ValueError):
        tt.card_label("5H")
    assert render.card_label("TD") == "10♦"  # the generic renderer reads the Ten so too


def test_deal_summaries_say_what_moved() -> None:
    sides = ["Team A", "Team B"]
    made = {"points": [20, 8], "game_points": [1, -1], "winner": 0, "made": True,
            "contract": 16, "bidder": 2, "thani": False, "redeal": False, "cot": False}
    assert tt.deal_summary("en", made, sides, deal_no=3, team_size=2) == (
        "Deal 3 — contract 16 by Team A: Team A took 20, Team B took 8. "
        "Contract made: Team B gives Team A 1 base card.")
    failed = {**made, "points": [14, 14], "game_points": [-3, 3], "winner": 1, "made": False,
              "contract": 21}
    assert "contract 21 by Team A" in tt.deal_summary("en", failed, sides, deal_no=1,
                                                       team_size=2)
    assert "Contract failed: Team A gives Team B 3 base cards." in tt.deal_summary(
        "en", failed, sides, deal_no=1, team_size=2)
    people = ["@Anu", "@Binu", "@Chinnu"]
    solo = {"points": [18, 6, 4], "game_points": [2, -1, -1], "winner": 0, "made": True,
            "contract": 16, "bidder": 0, "thani": False, "redeal": False, "cot": False}
    assert "@Binu and @Chinnu each give @Anu 1 base card." in tt.deal_summary(
        "en", solo, people, deal_no=2, team_size=1)
    lost = {**solo, "points": [10, 8, 6], "game_points": [-4, 2, 2], "winner": None,
            "made": False}
    said = tt.deal_summary("en", lost, people, deal_no=2, team_size=1)
    assert "contract 16 by @Anu" in said
    assert "@Anu gives @Binu and @Chinnu 2 base cards each." in said
    redeal = {"points": [0, 0, 0], "game_points": [0, 0, 0], "winner": None, "made": False,
              "contract": None, "bidder": None, "thani": False, "redeal": True, "cot": False}
    assert "everybody passed" in tt.deal_summary("en", redeal, people, deal_no=4, team_size=1)
    for lang in LANGUAGES:
        assert "{" not in tt.deal_summary(lang, {**made, "cot": True, "thani": True}, sides,
                                         deal_no=5, team_size=2)


def test_a_finished_deal_of_the_engine_is_summed_up() -> None:
    rng = random.Random(3)
    for players in (3, 4, 6):
        deal = new_deal(players, seed=players)
        while deal.phase != "finished":
            deal.apply(rng.choice(deal.legal_actions()))
        view = public(deal)
        shown = table_text(view)
        assert ("🏁 Deal 2 — " in shown and "base card" in shown) or "everybody passed" in shown


def test_match_over_says_who_wears_the_kunukku() -> None:
    table = _table(4)
    over = texts.match_over_text(table, "en", winner_team=0, scores=[9, -3])
    assert "Team B wears the kunukku" in over and "base cards: Team A 9 — Team B -3" in over
    assert "VP" not in over
    three = _table(3)
    shared = texts.match_over_text(three, "en", winner_team=None, scores=[7, 7, 4])
    assert "<@100> and <@101> share the best score" in shared
    albastini = _table(4, game="albastini")
    assert "VP" in texts.match_over_text(albastini, "en", winner_team=0, scores=[5, 2])


def test_lobby_and_deal_texts_count_base_cards() -> None:
    table = _table(4, status="lobby")
    title, _ = texts.lobby_text(table, "en")
    assert title.startswith("Twenty-Eight (Irupathiyettu) — 4 players, 2 teams of 2")
    assert "6 base cards per side" in title and "kunukku" in title
    line = texts.deal_over_text(table, "en", deal_no=1, result={
        "points": [20, 8], "game_points": [1, -1], "winner": 0, "made": True, "contract": 16,
        "bidder": 0, "thani": False, "redeal": False, "cot": False},
        scores=[7, 5], next_dealer=None, pause=5)
    assert "Base cards: Team A 7 — Team B 5." in line


# --------------------------------------------------------------------------- the hand
@pytest.mark.parametrize("players", [3, 4, 6])
def test_bidding_buttons_are_the_legal_bids_and_pass(players: int) -> None:
    deal = new_deal(players, seed=7)
    for _ in range(3):
        if deal.phase != "bidding":
            break
        seat = deal.to_act
        view = {**table_view(deal, seat), "move_no": 4}
        specs = views.hand_buttons(view, 5, "en", shows=TWENTY_EIGHT)
        views.build_view(specs).to_components()  # fits Discord: 25 buttons, rows of 5
        enabled = [s for s in specs if not s.disabled and s.custom_id.startswith("alb:m:")]
        codes = []
        for s in enabled:
            parsed = ids.parse(s.custom_id)
            assert parsed is not None and parsed.action is not None
            codes.append(parsed.action)
        assert sorted(codes) == sorted(view["legal"])
        bids = [s.label for s in enabled if s.label.startswith("Bid ")]
        assert len(bids) == len([c for c in view["legal"] if c.startswith("bid:")])
        assert ("Pass" in [s.label for s in enabled]) == ("pass" in view["legal"])
        assert all(s.disabled for s in specs[: len(view["hand"])])
        deal.apply("pass" if "pass" in deal.legal_actions() else deal.legal_actions()[0])


def test_the_bidder_chooses_a_card_of_the_hand_to_lay_face_down() -> None:
    deal = deal_in_phase(4, "trump")
    bidder = deal.to_act
    assert bidder is not None
    view = {**table_view(deal, bidder), "move_no": 9}
    header = render.hand_text(view, "en", NAMES[:4], shows=TWENTY_EIGHT)
    assert "Choose your trump card (it stays face down)" in header
    specs = views.hand_buttons(view, 5, "en", shows=TWENTY_EIGHT)
    laid = [s for s in specs if ":trump:" in s.custom_id]
    assert len(laid) == len(view["hand"]) and all(not s.disabled for s in laid)
    assert all(s.label.endswith("— lay face down") for s in laid)
    other = (bidder + 1) % 4
    theirs = views.hand_buttons({**table_view(deal, other), "move_no": 9}, 5, "en",
                                shows=TWENTY_EIGHT)
    assert not [s for s in theirs if not s.disabled and s.custom_id.startswith("alb:m:")]


def test_raise_buttons_and_roles() -> None:
    deal = deal_in_phase(4, "raising")
    seat = deal.to_act
    view = {**table_view(deal, seat), "move_no": 2}
    specs = views.hand_buttons(view, 5, "en", shows=TWENTY_EIGHT)
    views.build_view(specs).to_components()
    labels = [s.label for s in specs if not s.disabled and s.custom_id.startswith("alb:m:")]
    assert "Raise to 28" in labels and "Pass" in labels
    header = render.hand_text(view, "en", NAMES[:4], shows=TWENTY_EIGHT)
    assert "raise the contract" in header
    bidder = view["bidder"]
    assert ("You are the bidder" in header) == (seat == bidder)
    defender = (bidder + 1) % 4
    assert "You defend against" in render.hand_text(table_view(deal, defender), "en", NAMES[:4],
                                                    shows=TWENTY_EIGHT)
    partner = (bidder + 2) % 4
    assert "Your partner" in render.hand_text(table_view(deal, partner), "en", NAMES[:4],
                                              shows=TWENTY_EIGHT)


def test_ask_for_the_trump_only_when_legal_and_forced_on_the_last_trick() -> None:
    asked = forced = False
    for seed in range(60):
        rng = random.Random(seed)
        deal = new_deal(4, seed=seed)
        while deal.phase != "finished" and not (asked and forced):
            seat = deal.to_act
            assert seat is not None
            view = {**table_view(deal, seat), "move_no": 1}
            specs = views.hand_buttons(view, 5, "en", shows=TWENTY_EIGHT)
            expose = [s for s in specs if s.custom_id.endswith(":expose")]
            assert bool(expose) == ("expose" in view["legal"])
            if view["legal"] == ["expose"]:
                forced = True
                enabled = [s for s in specs if not s.disabled]
                assert [s.label for s in enabled] == ["Ask for the trump", "Refresh"]
                assert "turn it face up" in render.hand_text(view, "en", NAMES[:4],
                                                             shows=TWENTY_EIGHT)
            elif expose:
                asked = True
                assert expose[0].label == "Ask for the trump" and not expose[0].disabled
                assert "ask for the trump" in render.hand_text(view, "en", NAMES[:4],
                                                               shows=TWENTY_EIGHT)
            legal = [c for c in deal.legal_actions() if c != "expose"] or ["expose"]
            deal.apply(rng.choice(legal))
        if asked and forced:
            return
    raise AssertionError((asked, forced))


def test_every_refusal_of_the_rules_has_a_sentence() -> None:
    reasons: dict[str, dict[str, Any]] = {
        "finished": {}, "wrong_phase": {"phase": "playing"}, "not_in_hand": {"card": "TH"},
        "must_bid": {"min": 14}, "bid_too_high": {"max": 28}, "only_pass": {"high": 28},
        "partner_rule": {"min": 20, "high": 16}, "bid_too_low": {"min": 17, "high": 16},
        "no_thani": {}, "thani_bidder_only": {}, "no_raise": {},
        "raise_too_low": {"min": 24, "contract": 16}, "already_exposed": {},
        "leader_cannot_call": {}, "cannot_call": {"suit": "S"}, "must_expose": {},
        "must_trump": {"suit": "H"}, "trump_lead": {}, "follow_suit": {"suit": "S"},
    }
    for lang in LANGUAGES:
        for rule, details in reasons.items():
            said = tt.refusal(lang, rule, details)
            assert said and "{" not in said, (lang, rule)
    assert tt.refusal("en", "not_in_hand", {"card": "TH"}) == (
        "You don't hold 10♥; here is your current hand.")
    assert "♠ spades" in (tt.refusal("en", "follow_suit", {"suit": "S"}) or "")
    assert tt.refusal("en", "bad_code", {}) is None
    table = _table(4)
    assert texts.refusal_text("en", "illegal", {"rule": "partner_rule", "min": 20, "high": 16},
                              table) == tt.refusal("en", "partner_rule", {"min": 20, "high": 16})


def test_refusals_of_real_moves_are_the_presenters() -> None:
    deal = new_deal(4, seed=1)
    said = refusals(deal)
    assert "You speak first, so you must bid: at least 14." in said


# --------------------------------------------------------------------------- the picture
def test_the_picture_shows_the_face_down_card_then_the_trump() -> None:
    pair = twins(4, 2)
    assert pair is not None
    deal, _ = pair
    hidden = render.table_picture(public(deal, scores=[6, 6]), NAMES, "en", shows=TWENTY_EIGHT)
    assert hidden[:2] == b"\xff\xd8"
    while deal.phase != "finished" and not deal.state.exposed_by >= 0:
        legal = deal.legal_actions()
        deal.apply("expose" if "expose" in legal else legal[0])
    shown = render.table_picture(public(deal, scores=[8, -2]), NAMES, "en", shows=TWENTY_EIGHT)
    assert shown != hidden


# --------------------------------------------------------------------------- commands' data
def test_the_rules_book_and_leaderboard_ids_know_the_game() -> None:
    assert first_rules_page("albastini") == 1 and first_rules_page("twentyeight") == 7
    assert rules_page(7) == ("twentyeight", 1, 3, 7) and rules_page(6)[0] == "albastini"
    assert rules_page(9) == ("twentyeight", 3, 3, 7)
    specs = views.rules_pager("en", page=7, pages=3, first_page=7)
    assert specs[0].disabled and not specs[1].disabled
    board = ids.leaderboard(5, 10, "twentyeight")
    parsed = ids.parse(board)
    assert parsed is not None and parsed.game == "twentyeight" and parsed.offset == 10
    # a page of the first game's board sent before boards had games is the first game's
    assert ids.parse("alb:lb:5:10") == ids.parse(ids.leaderboard(5, 10, "albastini"))
    for lang in LANGUAGES:
        for page in range(1, 4):
            assert len(t(lang, f"twentyeight.rules.page.{page}")) < 1800
        # named as the reader's Discord names the choice: Russian clients in Russian
        named = {"Twenty-Eight", t(lang, "choice.game.twentyeight")}
        assert any(name in t(lang, "help.text") for name in named), lang


def test_the_presenter_has_the_whole_interface() -> None:
    wanted = {name for name in dir(Presenter) if not name.startswith("_")}
    shown = games.presenter("twentyeight")
    assert shown is tt
    assert all(hasattr(shown, attr) for attr in wanted)
