"""``python -m albastini``: a terminal game, driven by scripted input."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from albastini import MODES
from albastini.__main__ import main

ROOT = Path(__file__).resolve().parent.parent


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
    assert text.count("the round.") == rounds


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
    assert "Next deal, dealt by" in text or "Deal 1 over" in text


def test_scripted_human_with_bad_input_then_a_whole_deal() -> None:
    script = ["zz", "99", "2H", "AS:x", "?"] + ["1"] * 3 + ["pass"] + ["1"] * 60
    result = run(
        [
            "--mode",
            "3",
            "--seat",
            "1",
            "--dealer",
            "0",
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
    assert "1) bid" in out and "pass" in out
    assert "'zz' is not a card or a choice: type a card code like 7H" in out
    assert "There is no choice 99: type a number from 1 to" in out
    assert "'2H' is not a card or a choice" in out
    assert "Bidding is over: play a card." in out
    assert "You play" in out
    assert "Deal 1 over. Card points:" in out


def test_a_card_you_do_not_hold_is_refused_with_a_reason() -> None:
    # Seed 5, mode 3, dealer 0: seat 1 holds JD KH 5D 4D 5S and bids first.
    result = run(
        [
            "--mode",
            "3",
            "--seat",
            "1",
            "--dealer",
            "0",
            "--seed",
            "5",
            "--one-deal",
            "--level",
            "random",
        ],
        "AS\nKH\nq\n",
    )
    assert "You don't hold the Ace of spades. Try again." in result.stdout
    assert "You bid KH (hearts)." in result.stdout
    assert "Bye." in result.stdout
    assert result.returncode == 1


def test_end_of_input_quits_cleanly() -> None:
    result = run(["--mode", "4 pairs", "--seed", "2", "--level", "random"], "")
    assert result.returncode in (0, 1)
    assert "Traceback" not in result.stderr


def test_bad_arguments_are_explained() -> None:
    result = run(["--mode", "4 pairs", "--seat", "4"])
    assert result.returncode == 2
    assert "--seat must be from 0 to 3" in result.stderr
    result = run(["--mode", "7"])
    assert result.returncode == 2
    assert "invalid choice" in result.stderr


def test_unknown_level_falls_back_to_random_players() -> None:
    out = io.StringIO()
    assert (
        main(["--mode", "2", "--auto", "--one-deal", "--seed", "1", "--level", "nonsense"], out=out)
        == 0
    )
    text = out.getvalue()
    assert "computer players: random" in text


def test_computer_players_come_from_albastini_ai_when_it_is_there() -> None:
    pytest.importorskip("albastini.ai")
    out = io.StringIO()
    assert (
        main(["--mode", "3", "--auto", "--one-deal", "--seed", "2", "--level", "greedy"], out=out)
        == 0
    )
    assert "computer players: greedy" in out.getvalue()


# --------------------------------------------------------------------------- other games


@pytest.mark.parametrize("mode", ["3 players", "4 pairs", "6 trios"])
def test_twenty_eight_plays_a_deal_in_every_mode(mode: str) -> None:
    out = io.StringIO()
    args = ["--game", "twentyeight", "--mode", mode, "--auto", "--one-deal", "--seed", "2",
            "--level", "easy"]  # fmt: skip
    assert main(args, out=out) == 0
    text = out.getvalue()
    assert "Deal 1 over. Card points:" in text and "game points:" in text


def test_twenty_eight_in_the_terminal_hides_the_face_down_trump() -> None:
    """A person who passes whenever they may (and otherwise plays the first move of the menu)
    is not the bidder: they read that the trump was laid face down, and no trump card, until
    it is exposed."""
    done = run(["--game", "twentyeight", "--seed", "12", "--level", "easy", "--one-deal"],
               stdin="pass\n1\n" * 80)  # fmt: skip
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "Deal 1 over." in text and "You: trump:" not in text
    laid = [line for line in text.splitlines() if ": trump" in line]
    assert len(laid) == 1 and laid[0].rstrip().endswith(": trump")  # a computer laid it
    hidden_part = text[: text.find(": expose")]
    assert "Trump card:" not in hidden_part
    assert "Trump: face down by the bidder" in hidden_part


def test_a_typed_answer_that_is_not_a_move_is_explained() -> None:
    done = run(["--game", "twentyeight", "--seed", "3", "--one-deal"], stdin="bid:99\nq\n")
    assert done.returncode == 0
    assert "is not one of your moves" in done.stdout
