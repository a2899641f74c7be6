"""Ass (Жопа)'s presenter: every player's trump, the bets by Go/No buttons with their targets,
the card holding the trick and why (the seed's worked examples, the eight taking a trick over),
banks as the match score, the deal's summary, and nothing hidden in anything public: another
hand, the stock, or (while the first deal's bets are made) who holds the lowest diamond."""

from __future__ import annotations

import json
from typing import Any

import pytest

from albastini.games import GAMES
from albastini.games.ass import Deal, new_deal
from albastini.games.ass.table_view import table_view
from albastini.table import SeatInfo, Table
from cogs import games
from cogs.games import ass, first_rules_page, presenter, rules_page, shown_score
from cogs.i18n import LANGUAGES, t
from cogs.render import card_label, picture, text
from cogs.render.presenter import Presenter
from cogs.ui import texts, views

ASS = presenter("ass")

NAMES = ["Ana", "Ben", "Cy", "Di"]
CODES = [r + s for s in "CDHS" for r in "6789TJQKA"]


def deal_for(played: list[str], *, trumps: int = 2, suits: str | None = None) -> Deal:
    """A first deal where seat ``i`` holds ``played[i]`` and three hearts or diamonds (seat 0
    the 6♦, so it leads), bets said. Without trumps it has 5 players, so that a trick of the
    four cards ``played`` is still open; a trump variant needs 4."""
    players = 5 if trumps == 2 else 4
    pool = [c for c in CODES if c[1] in "DH" and c not in played and c != "6D"]
    extra = [c for c in CODES if c[1] == "C" and c not in played]
    hands = [[played[0], "6D", pool.pop(), pool.pop()]]
    hands += [[played[i], pool.pop(), pool.pop(), pool.pop()] for i in (1, 2, 3)]
    if players == 5:
        hands.append([extra.pop(), pool.pop(), pool.pop(), pool.pop()])
    rest = [c for c in CODES if all(c not in h for h in hands)]
    deck = [hands[k][i] for i in range(4) for k in range(players)] + rest
    deal = new_deal(players, dealer=players - 1, deck=deck, trumps=trumps, suits=suits)
    for _ in range(players):
        deal.apply("no")
    assert deal.to_act == 0
    return deal


def holder_text(deal: Any) -> str:
    line = ass.holder_line("en", table_view(deal, None), NAMES)
    assert line is not None
    return line


def test_ass_is_registered_with_a_presenter_and_a_rules_book() -> None:
    assert "ass" in GAMES and presenter("ass") is ass
    wanted = {name for name in dir(Presenter) if not name.startswith("_")}
    assert all(hasattr(ass, attr) for attr in wanted)
    first = first_rules_page("ass")
    assert rules_page(first) == ("ass", 1, 3, first)
    assert t("en", "choice.game.ass") == "Ass (Жопа)"
    for lang in LANGUAGES:
        page = t(lang, "ass.rules.page.1")
        assert page.startswith("*") and "\n" in page  # one line first: a reconstruction
        assert len(page) < 1800
        assert "Жопа" in t(lang, "help.text")
    first_line = t("en", "ass.rules.page.1").split("\n")[0]
    assert "reconstruction" in first_line and "trump variant" in first_line


@pytest.mark.parametrize(("row", "played", "trumps", "after", "said"), [
    # the seed's rows (players 1-4 = seats 0-3), as ass.md lists them
    (15, ["8S", "9S", "8C", "QC"], 2, 3,
     "Main suit ♣ clubs · 8♣ takes over: clubs are now the main suit → Cy holds the trick"),
    (15, ["8S", "9S", "8C", "QC"], 2, 4,
     "Q♣ holds: it beats 8♣, which stood since the eight → Di holds the trick"),
    (16, ["8S", "8C", "QC", "TC"], 2, 4, "10♣ holds: it beats Q♣, which stood since"),
    (3, ["6S", "JS", "7C", "QH"], 1, 3, "7♣ holds: its player's trump beats 6♠ → Cy"),
    (4, ["6S", "JS", "TC", "QS"], 2, 4, "Q♠ holds: it beats 6♠ in spades → Di"),
    (7, ["6S", "8S", "KS", "7C"], 2, 4,
     "6♠ holds again: the card covering it was killed → Ana"),
    (9, ["6S", "JS", "TC", "6C"], 2, 4, "6♣ holds: same rank as the main card 6♠ → Di"),
    (21, ["KS", "QS", "JS", "9S"], 2, 4,
     "9♠ holds: one step below J♠, nobody else interrupted → Di"),
    (1, ["6S", "JS", "TS", "QH"], 2, 4, "6♠ holds: nobody has interrupted it → Ana"),
])
def test_the_table_says_which_card_holds_the_trick_and_why(
    row: int, played: list[str], trumps: int, after: int, said: str
) -> None:
    # row 3: player 3's own trump is clubs
    deal = deal_for(played, trumps=trumps, suits="SHCD" if trumps == 1 else None)
    for card in played[:after]:
        deal.apply("play:" + card)
    public = table_view(deal, None)
    assert said in holder_text(deal)
    shown = text.table_text(public, [*NAMES, "Ed"], "en", deal_no=1, scores=[-3] * 5,
                            target=5, shows=ASS)
    assert said in shown, shown
    for lang in LANGUAGES:
        assert "{" not in (ass.holder_line(lang, public, NAMES) or "")
    # and the trick goes to the player whose card holds it when the last card is played,
    # if that card does not take it
    while True:
        before = table_view(deal, None)
        code = deal.legal_actions()[0]
        deal.apply(code)
        if not deal.view(None)["trick"]["plays"]:
            break
    last = deal.view(None)["last_trick"]
    if deal.effects[-1] in ("follow", "discard"):
        assert last["winner"] == before["winning"]


def test_every_players_trump_bets_and_targets_are_on_the_table() -> None:
    deal = new_deal(3, dealer=0, seed=5)
    public = table_view(deal, None)
    lines = ass.table_lines("en", public, NAMES)
    assert lines[0] == "Trumps, each player's own: Ana ♠ spades · Ben ♣ clubs · Cy ♥ hearts"
    assert lines[1] == "Bets: Ana … · Ben … · Cy …"
    assert lines[2] == "After the bets, whoever holds the lowest diamond leads"
    deal.apply("go")
    lines = ass.table_lines("en", table_view(deal, None), NAMES)
    assert lines[1] == "Bets: Ana … · Ben go (target 56) · Cy …"
    for variant, said in [(2, "No trumps at this table"), (3, "Trump for everyone: ♠ spades"),
                          (4, "Trumps for everyone: ♠ spades and ♦ diamonds (equal)"),
                          (5, "Trumps: ♠ spades senior, ♦ diamonds junior")]:
        other = table_view(new_deal(3, seed=5, trumps=variant), None)
        assert ass.trumps_line("en", other, NAMES) == said
        assert ass.trumps_line("sw", other, NAMES)
    later = table_view(new_deal(3, dealer=1, seed=5, first_deal=False), None)
    assert ass.table_lines("en", later, NAMES)[2] == "After the bets, Cy leads"


def test_bets_are_go_and_no_buttons_with_their_targets() -> None:
    deal = new_deal(3, dealer=0, seed=5)
    view = {**table_view(deal, 1), "move_no": 3}
    specs = views.hand_buttons(view, 7, "en", shows=ASS)
    enabled = [(s.label, s.style) for s in specs if not s.disabled]
    assert enabled == [("Go (target 56)", "success"), ("No (target 80)", "secondary"),
                       ("Refresh", "secondary")]
    assert all(s.disabled for s in specs[:4])  # the cards wait for the bets
    header = ass.hand_header("en", view, NAMES)
    assert header.startswith("Your hand — your turn to bet: **go** (target 56")
    assert "Your trump: ♣ clubs" in header and "Your banks: 3" in header
    assert ass.action_text("en", "go", "Ben") == "Ben says go"
    assert ass.action_text("en", "no", None) == "Your bet, no, counted."
    assert ass.action_text("en", "play:TS", "Cy") == "Cy played 10♠"
    for _ in range(3):
        deal.apply("no")
    view = {**table_view(deal, deal.to_act), "move_no": 4}
    specs = views.hand_buttons(view, 7, "en", shows=ASS)
    playable = {s.label.split(" ")[0] for s in specs if not s.disabled} - {"Refresh"}
    assert playable == {card_label(c) for c in view["hand"]}  # the leader may lead anything


def test_banks_are_the_score_people_read() -> None:
    assert shown_score("ass", -3) == 3 and shown_score("albastini", 4) == 4
    assert text.scores_text("en", ["Ana", "Ben", "Cy"], [-3, -2, -6], shows=ASS) == (
        "Ana 3 — Ben 2 — Cy 6")
    deal = new_deal(3, dealer=0, seed=5)
    title = text.table_text(table_view(deal, None), NAMES[:3], "en", deal_no=2,
                            scores=[-1, -3, -5], target=5, shows=ASS).split("\n")[0]
    assert title == "Ass (Жопа) · deal 2 · banks: Ana 1 — Ben 3 — Cy 5"


def test_the_deal_summary_says_points_against_targets_and_banks() -> None:
    deal = new_deal(3, dealer=0, seed=5)
    for code in ("go", "no", "no"):
        deal.apply(code)
    while deal.phase != "finished":
        deal.apply(deal.legal_actions()[0])
    view = table_view(deal, None)
    result = view["result"]
    line = ass.deal_summary("en", result, NAMES[:3], deal_no=1, team_size=1)
    for seat in range(3):
        bet = result["bets"][seat]
        change = {-1: "drops a bank", 0: "banks unchanged", 1: "takes a bank"}[
            result["banks"][seat]]
        assert (f"{NAMES[seat]} {result['points'][seat]} of {result['targets'][seat]} "
                f"({bet}): {change}") in line, line
    for lang in LANGUAGES:
        assert "{" not in ass.deal_summary(lang, result, NAMES[:3], deal_no=1, team_size=1)
    assert view["match_banks"] == [3 + d for d in result["banks"]]


def _public_outputs(deal: Any) -> tuple[str, bytes, str]:
    public = table_view(deal, None)
    shown = text.table_text(public, NAMES[:deal.players], "en", deal_no=1,
                            scores=[-3] * deal.players, target=5, shows=ASS)
    return shown, picture.table_picture(public, NAMES[:deal.players], "en", shows=ASS), json.dumps(
        public, sort_keys=True)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (6, 4)])
def test_no_hidden_card_in_the_public_table_or_picture(players: int, seed: int) -> None:
    deal = new_deal(players, seed=seed)
    for _ in range(40):
        if deal.phase == "finished":
            break
        shown, jpeg, public = _public_outputs(deal)
        assert jpeg[:2] == b"\xff\xd8"
        view = table_view(deal, None)
        seen = {c for _, c in view["current"]} | {
            c for tr in view["tricks"] for _, c in tr["plays"]}
        stock = list(deal.deck[4 * players + deal.state.pos:])
        hidden = {c for s in range(players) for c in deal.hand(s)} | set(stock)
        for code in hidden - seen:
            assert card_label(code) not in shown.replace(card_label(code) + "0", ""), code
            assert f'"{code}"' not in public, code
        # nor in another seat's hand message or buttons
        for seat in range(players):
            own = {**table_view(deal, seat), "move_no": 1}
            words = ass.hand_header("en", own, NAMES) + " ".join(
                s.label for s in views.hand_buttons(own, 1, "en", shows=ASS))
            others = {c for s in range(players) if s != seat for c in deal.hand(s)} | set(stock)
            for code in others - seen:
                assert card_label(code) + " " not in words + " ", (seat, code, words)
        deal.apply(deal.legal_actions()[0])


def test_who_holds_the_lowest_diamond_is_not_shown_before_the_first_card() -> None:
    """Twin first deals that differ only in which of two seats holds 6♦ and which 7♦ look
    the same on the table, in its picture and to the third seat while the bets are made."""
    # dealer 2: seat k gets the cards k, 3 + k, 6 + k and 9 + k of the deck
    rest = [c for c in new_deal(3, seed=3).deck if c not in ("6D", "7D")]
    a, twin = ["6D", "7D", *rest], ["7D", "6D", *rest]
    one, two = new_deal(3, dealer=2, deck=a), new_deal(3, dealer=2, deck=twin)
    assert one.state.first_leader != two.state.first_leader
    for _ in range(2):
        assert _public_outputs(one)[:2] == _public_outputs(two)[:2]
        for seat in (None, 2):  # everyone, and the seat holding neither
            assert ass.hand_header("en", table_view(one, seat), NAMES) == ass.hand_header(
                "en", table_view(two, seat), NAMES)
        one.apply("no")
        two.apply("no")
    one.apply("no")
    two.apply("no")
    assert one.to_act != two.to_act  # now it shows: that player leads


def test_refusals_are_sentences() -> None:
    assert ass.refusal("en", "must_follow", {"card": "7C", "suit": "S"}) == (
        "7♣ neither follows ♠ spades nor interrupts: play a card of ♠ spades.")
    assert ass.refusal("en", "betting", {}) == "Bet first: go or no."
    assert ass.refusal("sw", "not_in_hand", {"card": "AS"})
    assert ass.refusal("en", "something else", {}) is None
    with pytest.raises(ValueError):
        ass.card_label("5S")
    assert games.presenter("ass").card_label("TS") == "10♠"


def test_the_table_does_not_add_up_points_before_the_deal_is_scored() -> None:
    """Won tricks go face down and points stay hidden until the deal is scored (rules: what
    players see): the last trick line names its taker and cards, not what it was worth."""
    deal = new_deal(3, seed=5)
    while not table_view(deal, None)["tricks"]:
        deal.apply(deal.legal_actions()[0])
    shown, _, _ = _public_outputs(deal)
    last = next(line for line in shown.splitlines() if line.startswith("Last trick"))
    assert "worth" not in last and "point" not in last.lower(), last


def test_everyone_with_the_fewest_banks_wins_together() -> None:
    table = Table(id=1, guild_id=2, channel_id=3, host_id=100, players=3, team_size=1,
                  target=0, turn_time=60, computer_level="easy", language="en",
                  status="finished", game="ass",
                  seats=[SeatInfo(i, 100 + i, NAMES[i], None) for i in range(3)])
    over = texts.match_over_text(table, "en", winner_team=None, scores=[-3, 0, 0])
    assert "win the match together, with the fewest banks" in over, over
    assert "banks: " in over and "share the best score" not in over
