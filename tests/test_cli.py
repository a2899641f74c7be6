"""``python -m albastini``: a terminal game of every game, driven by scripted input, checked by
what a player reads."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import pytest

from albastini import MODES, Deal, new_deal
from albastini.__main__ import main
from albastini.games import GAMES
from albastini.games.interface import MatchLike, game
from albastini.terminal.presenter import presenter
from albastini.terminal.session import Session, menu_keys
from albastini.terminal.words import Names, card, parse_card

from .games.albastini.test_deal import build_deck

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class MatchOf:
    """A match of one deal, as the terminal's presenters read it."""

    deal: Deal


def run(args: list[str], stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "albastini", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env=env,
    )


@pytest.mark.parametrize("mode", list(MODES))
def test_auto_plays_a_whole_deal_in_every_mode(mode: str) -> None:
    out = io.StringIO()
    status = main(
        ["--mode", mode, "--auto", "--one-deal", "--seed", "4", "--level", "random"], out=out
    )
    text = out.getvalue()
    assert status == 0
    assert "Deal 1 over. Card points:" in text
    assert "The dealer turns the indicator" in text
    players = MODES[mode][0]
    rounds = {2: 18, 3: 12, 4: 9, 5: 7, 6: 6}[players]
    assert text.count("eats the round") == rounds


def test_auto_match_to_the_target() -> None:
    out = io.StringIO()
    assert (
        main(
            ["--mode", "4 pairs", "--auto", "--target", "2", "--seed", "1", "--level", "random"],
            out=out,
        )
        == 0
    )
    text = out.getvalue()
    assert "wins the match!" in text
    assert "Deal 2, dealt by" in text or "Deal 1 over" in text


def test_scripted_human_with_bad_input_then_a_whole_deal() -> None:
    script = ["zz", "99", "2H", "AS:x", "?"] + ["a"] * 3 + ["pass"] + ["a"] * 60
    result = run(
        [
            "--mode",
            "3",
            "--seat",
            "2",
            "--dealer",
            "1",
            "--seed",
            "5",
            "--one-deal",
            "--level",
            "random",
        ],
        "\n".join(script) + "\n",
    )
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "Your hand:" in out
    assert "a) bid " in out and ") pass" in out
    assert "'zz' is not one of your moves: type a letter from a to " in out
    assert "'99' is not one of your moves: type a letter from a to " in out
    assert "You don't hold 2♥. Try again." in out  # Albastini's pack has no 2s
    assert "Not an action: 'as:X'" in out
    assert "Bidding is over: play a card." in out
    assert "You play" in out
    assert "Deal 1 over. Card points:" in out


def test_a_card_you_do_not_hold_is_refused_with_a_reason() -> None:
    # Seed 5, mode 3, the first seat deals: the second holds A♠ 3♥ K♣ A♦ Q♦ and bids first.
    result = run(
        [
            "--mode",
            "3",
            "--seat",
            "2",
            "--dealer",
            "1",
            "--seed",
            "5",
            "--one-deal",
            "--level",
            "random",
        ],
        "KH\nQD\nq\n",
    )
    assert "You don't hold the King of hearts. Try again." in result.stdout
    assert "You bid Q♦ (diamonds)." in result.stdout
    assert "Bye." in result.stdout
    assert result.returncode == 1


def test_end_of_input_quits_cleanly() -> None:
    result = run(["--mode", "4 pairs", "--seed", "2", "--level", "random"], "")
    assert result.returncode in (0, 1)
    assert "Traceback" not in result.stderr


def test_bad_arguments_are_explained() -> None:
    result = run(["--mode", "4 pairs", "--seat", "5"])
    assert result.returncode == 2
    assert "--seat must be from 1 to 4" in result.stderr
    result = run(["--mode", "4 pairs", "--seat", "0"])
    assert "--seat must be from 1 to 4" in result.stderr
    result = run(["--mode", "7"])
    assert result.returncode == 2
    assert "invalid choice" in result.stderr


def test_an_unknown_level_is_refused_with_the_choices() -> None:
    result = run(["--mode", "2", "--auto", "--one-deal", "--seed", "1", "--level", "nonsense"])
    assert result.returncode == 2 and result.stdout == ""
    assert "invalid choice: 'nonsense'" in result.stderr
    assert all(level in result.stderr for level in ("easy", "normal", "hard"))


def test_computer_players_come_from_albastini_ai_when_it_is_there() -> None:
    pytest.importorskip("albastini.ai")
    out = io.StringIO()
    assert (
        main(["--mode", "3", "--auto", "--one-deal", "--seed", "2", "--level", "greedy"], out=out)
        == 0
    )
    assert "computer players: greedy" in out.getvalue()


def test_albastini_counts_seats_from_1() -> None:
    out = io.StringIO()
    main(["--mode", "4 pairs", "--auto", "--one-deal", "--seed", "3", "--dealer", "4",
          "--level", "random"], out=out)  # fmt: skip
    text = out.getvalue()
    assert "Deal 1, dealt by Seat 4.\nFive cards each. Bidding: Seat 1, Seat 3." in text
    assert "Seat 0" not in text and "seats 0" not in text
    assert "Team A (seats 1, 3)" in text


def test_albastini_shows_the_trump_the_face_up_card_and_the_stock() -> None:
    """Heads-up, seed 9: the head of the table names the round, the trump, the face-up card
    under the stock and the stock; the person is told the face-up card goes last, and that
    they drew it; the deal ends with the victory points and why."""
    result = run(["--mode", "2", "--one-deal", "--seed", "9", "--level", "easy"],
                 "a\n" * 300)  # fmt: skip
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "a) bid 6♠   b) bid A♥   c) bid 5♣   d) bid 4♣   e) bid A♦   f) pass" in out
    assert "The dealer turns the indicator K♥: hearts are trumps." in out
    assert "The face-up card K♥ will be drawn last." in out
    assert ("Deal 1 · dealt by Seat 2 · round 1 of 18 · trump: ♥ hearts · face up: K♥ · "
            "stock: 26") in out
    assert "Bids: You 6♠ (returned)" in out
    assert "You draw the face-up K♥." in out
    assert "Deal 1 over. Card points: You 40, Seat 2 80." in out
    assert "Seat 2 scores 1 VP (every side ate at least 10)." in out
    assert "Score: You 0 VP · Seat 2 1 VP (to 5)" in out


def test_albastini_tells_the_exchange_and_shows_it_among_the_bids() -> None:
    """Seat 2 bids 5♥ and the indicator is the 3♥: it must exchange. The story says so, and
    the bids, seen by seat 1, say the 5♥ was exchanged and seat 4's 6♠ went back."""
    deck = build_deck(4, 0, {1: ["5H"], 3: ["6S"]}, indicator="3H")
    # the presenters read only the match's deal: MatchOf is that much of a MatchLike
    match = cast(MatchLike, MatchOf(new_deal(4, 2, 0, deck=deck)))
    shows = presenter("albastini")
    names = Names.of(shows.rules.view(match, None), 0)
    before = shows.rules.view(match, 0)
    shows.rules.apply(match, "bid:5H")
    shows.rules.apply(match, "bid:6S")
    after = shows.rules.view(match, 0)
    told = shows.after_move(before, after, names)
    assert told == ["The dealer turns the indicator 3♥: hearts are trumps.",
                    "Seat 2 bid that suit and must exchange: the 3♥ goes to hand, the 5♥ lies "
                    "face up.",
                    "The face-up card 5♥ will be drawn last."]
    assert shows.table_lines(after, names) == [
        "Bids: Seat 2 5♥ (exchanged for the 3♥), Seat 4 6♠ (returned)"]
    assert "face up: 5♥" in shows.head(after, names, 1)


# --------------------------------------------------------------------------- every other game


def play(argv: list[str], answers: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """Play ``python -m albastini argv`` in this process, typing ``answers`` (then the input
    ends); returns the exit status and everything the terminal printed."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(a + "\n" for a in answers)))
    out = io.StringIO()
    status = main(argv, out=out)
    return status, out.getvalue()


GAME_MODES = [(name, mode) for name in ("twentyeight", "cassino", "ass")
              for mode in GAMES[name].MODES]  # fmt: skip


@pytest.mark.parametrize(("name", "mode"), GAME_MODES)
def test_every_game_plays_a_deal_in_every_mode(name: str, mode: str) -> None:
    out = io.StringIO()
    args = ["--game", name, "--mode", mode, "--auto", "--one-deal", "--seed", "2",
            "--level", "easy"]  # fmt: skip
    assert main(args, out=out) == 0
    text = out.getvalue()
    assert "Deal 1 over." in text
    assert "Seat 0" not in text and "side 0" not in text and "Traceback" not in text


@pytest.mark.parametrize("name", ["twentyeight", "cassino", "ass"])
def test_a_whole_match_names_its_winners_counting_seats_from_1(name: str) -> None:
    out = io.StringIO()
    args = ["--game", name, "--auto", "--seed", "5", "--level", "easy"]
    if name != "ass":
        args += ["--target", "2" if name == "twentyeight" else "5"]
    assert main(args, out=out) == 0
    last = out.getvalue().rstrip().splitlines()[-3:]
    said = " ".join(last)
    assert " win" in said, last
    assert "Seat 0" not in said and "side 0" not in said
    assert re.search(r"Seat [1-6]|Team [AB] \(seats [1-6]", said), last


def test_cassino_shows_the_cards_on_the_table_and_the_moves_labels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before their first move a player reads the four cards dealt face up, and their moves
    as the game labels them ("Trail 7♥", "Take 5♠ with 5♣"); a capture they type as a code
    is told as a sentence."""
    public = game("cassino").new_match(2, 1, 21, 1, 4).deal.view(None)
    status, text = play(["--game", "cassino", "--seed", "4", "--dealer", "2", "--one-deal",
                         "--level", "easy"], ["q"], monkeypatch)  # fmt: skip
    assert status == 1 and "Bye." in text
    table = next(line for line in text.splitlines() if line.startswith("On the table: "))
    assert [card(it["id"]) for it in public["table"]] == table.removeprefix(
        "On the table: ").split(" · ")
    menu = next(line for line in text.splitlines() if line.startswith("Your moves: "))
    assert "a) " in menu and ("Trail " in menu or "Take " in menu)


def test_cassino_moves_by_card_and_by_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 4, the first seat deals: after the second's capture it holds K♠ 2♠ 5♣ 4♦ with
    6♦ J♥ J♠ on the table. Typing a card it holds trails it (its one move); a card it does not
    hold is refused with the game's reason; a build it cannot make, with the game's reason."""
    status, text = play(["--game", "cassino", "--seed", "4", "--dealer", "1", "--one-deal",
                         "--level", "easy"],
                        ["9D", "build:4d:10:6d", "ks", "q"], monkeypatch)  # fmt: skip
    assert status == 1
    assert "Your hand: K♠ 2♠ 5♣ 4♦" in text
    assert "On the table: 6♦ · J♥ · J♠" in text
    assert "You don't hold 9D. Try again." in text
    assert "To build 10 you must keep a card of value 10 in hand. Try again." in text
    assert "You trail K♠." in text


def test_a_number_where_there_is_no_bid_points_at_the_menu(monkeypatch: pytest.MonkeyPatch) -> None:
    """A newcomer to Cassino types 1 for the first move: Cassino has no bids, so the answer
    names the menu's letters (not "no bid to make"), and the move is then made by its letter."""
    status, text = play(["--game", "cassino", "--seed", "4", "--dealer", "1", "--one-deal",
                         "--level", "easy"], ["1", "ks", "q"], monkeypatch)  # fmt: skip
    assert status == 1
    assert "'1' is not one of your moves: type a letter from a to " in text
    assert "bid" not in text.lower()
    assert "You trail K♠." in text


@pytest.mark.parametrize(("name", "answers"), [
    ("ass", ["no", "2h", "q"]),
    ("twentyeight", ["pass", "2h", "q"]),
])
def test_a_card_outside_the_games_pack_is_one_you_do_not_hold(
    name: str, answers: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ass and Twenty-Eight play without the 2s: a person who types 2♥ is told they don't
    hold it, not that 'play:2H' is not an action's code."""
    status, text = play(["--game", name, "--seed", "5", "--one-deal", "--level", "easy"],
                        answers, monkeypatch)  # fmt: skip
    assert status == 1
    assert "You don't hold 2♥. Try again." in text
    assert "not an action" not in text


def test_twenty_eight_bids_by_typing_the_number(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first speaker types 15: that bids 15 (the menu's keys are letters, so no number is
    a menu choice); a bid the rules refuse is refused with their reason."""
    status, text = play(["--game", "twentyeight", "--seed", "12", "--dealer", "4",
                         "--one-deal", "--level", "easy"],
                        ["13", "bid:99", "15", "q"], monkeypatch)  # fmt: skip
    assert status == 1
    assert "a) bid 14   b) bid 15" in text
    assert "The opening bid must be at least 14. Try again." in text
    assert "The highest possible bid is 28. Try again." in text
    assert "You bid 15." in text
    assert "Auction: nobody has spoken yet" in text


def test_twenty_eight_refusals_carry_the_rules_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    """Passing as the first speaker, or playing a card during the auction: the rules' own
    sentences, not "not one of your moves"."""
    _, text = play(["--game", "twentyeight", "--seed", "12", "--dealer", "4", "--one-deal",
                    "--level", "easy"], ["pass", "JS", "q"], monkeypatch)  # fmt: skip
    assert "The first speaker must bid: at least 14. Try again." in text
    assert "The auction is on: bid or pass. Try again." in text
    assert "not one of your moves" not in text


@pytest.mark.parametrize(("players", "team_size"), [(3, 1), (4, 2), (6, 3)])
@pytest.mark.parametrize("seed", [12, 3, 8])
def test_twenty_eight_never_shows_the_face_down_trump_to_another_seat(
    players: int, team_size: int, seed: int
) -> None:
    """A person who passes whenever they may (and otherwise makes the first move of the menu)
    is not the bidder: until the trump is exposed, nothing they read names the face-down
    card, and they read that it lies face down."""
    rules = game("twentyeight")
    match = rules.new_match(players, team_size, 6, 0, seed)  # the person deals: speaks last
    out = io.StringIO()

    def read(prompt: str) -> str:
        """``pass``, and the menu's first move when the rules refused it."""
        return "a" if out.getvalue().endswith("Try again.\n") else "pass"

    computers = {s: GAMES["twentyeight"].make_player("easy", seed=s)
                 for s in range(1, players)}  # fmt: skip
    session = Session(rules, presenter("twentyeight"), match, 0, computers, one_deal=True,
                      delay=0, read=read, out=out)  # fmt: skip
    assert session.play() == 0
    text = out.getvalue()
    deal = match.deal
    bidder = deal.view(None)["bidder"]
    if bidder is None:  # 3 players: everyone passed, a redeal
        assert "Redeal" in text
        return
    assert bidder != 0
    trump_card = deal.view(bidder)["trump_card"]
    shown = re.search(r"^(Seat \d( \(partner\))? asks|You ask) for the trump", text, re.MULTILINE)
    assert shown is not None
    hidden = text[: shown.start()]
    assert re.search(rf"^Seat {bidder + 1}( \(partner\))? lays a trump card face down\.$",
                     hidden, re.MULTILINE)
    assert f"Trump: face down by Seat {bidder + 1}" in hidden
    assert card(trump_card) not in hidden


def test_ass_shows_trumps_bets_targets_and_banks_never_a_negative_score(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, text = play(["--game", "ass", "--mode", "3", "--seed", "4", "--dealer", "1",
                         "--one-deal", "--level", "easy"],
                        ["AS", "go", *["a"] * 40], monkeypatch)  # fmt: skip
    assert status == 0
    assert "Trumps, each player's own: You ♠ spades · Seat 2 ♣ clubs · Seat 3 ♥ hearts" in text
    assert "Your moves: a) go (target 56)   b) no (target 80)" in text
    assert "Bet first: say go or no. Try again." in text
    assert "You say go (target 56)." in text
    assert "Bets: You go (target 56) · Seat 2 no (target 80) · Seat 3 no (target 80)" in text
    assert "Banks: You 3 · Seat 2 3 · Seat 3 3" in text
    assert "Deal 1 over." in text and " of 56 (go)" in text
    assert "target 5 " not in text and "-3" not in text


def test_ass_has_no_target_and_takes_its_trump_variant(monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(["--game", "ass", "--target", "5"]).returncode == 2
    _, text = play(["--game", "ass", "--mode", "4", "--trumps", "5", "--seed", "1",
                    "--level", "easy"], ["q"], monkeypatch)  # fmt: skip
    assert "Trumps: ♠ spades senior, ♦ diamonds junior" in text
    hand = next(line for line in text.splitlines() if line.startswith("Your hand: "))
    suits = [c[-1] for c in hand.removeprefix("Your hand: ").split()]
    assert suits == sorted(suits, key="♠♦♣♥".index)  # the trumps first, senior first
    refused = run(["--game", "ass", "--mode", "5", "--trumps", "1"])
    assert refused.returncode == 2 and "needs 2 to 4 players" in refused.stderr


@pytest.mark.parametrize("name", ["albastini", "twentyeight", "cassino", "ass"])
def test_help_and_delay_for_every_game(name: str) -> None:
    helped = run(["--game", name, "--help"])
    assert helped.returncode == 0
    for option in ("--mode", "--seat", "--dealer", "--seed", "--level", "--auto", "--one-deal",
                   "--delay", "--lang"):
        assert option in helped.stdout, (name, option)
    assert ("--target" in helped.stdout) == (name != "ass")
    assert ("--trumps" in helped.stdout) == (name == "ass")
    for mode in GAMES[name].MODES:
        assert mode in helped.stdout
    out = io.StringIO()
    assert main(["--game", name, "--auto", "--one-deal", "--seed", "1", "--delay", "0",
                 "--level", "easy"], out=out) == 0  # fmt: skip


@pytest.mark.parametrize("name", ["twentyeight", "cassino", "ass"])
def test_end_of_input_quits_every_game_cleanly(name: str) -> None:
    result = run(["--game", name, "--seed", "2", "--level", "easy"], "")
    assert result.returncode == 1 and "Bye." in result.stdout
    assert "Traceback" not in result.stderr


def test_menu_keys_never_look_like_a_card_a_bid_or_a_word() -> None:
    keys = menu_keys(200)
    assert keys[:3] == ["a", "b", "c"] and "q" not in keys
    assert len(set(keys)) == 200
    assert not [k for k in keys if k.isdigit() or k in ("go", "no") or parse_card(k)]
