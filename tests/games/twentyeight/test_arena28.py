"""bench/arena.py's Twenty-Eight pack classification: why a pair of deals (the same cards,
sides swapped) went to one level or was split."""

from __future__ import annotations

from typing import Any

import pytest

from ..albastini.test_arena import arena


def deal(a_side: int, bidder: int, contract: int, made: bool) -> dict[str, Any]:
    """A finished 4-pairs deal as play_pair_28 records it (A on ``a_side``)."""
    bidder_side = bidder % 2
    won_side = bidder_side if made else 1 - bidder_side
    return {"a_won": won_side == a_side, "a_bid": bidder_side == a_side, "bidder": bidder,
            "contract": contract, "made": made}


def test_the_same_cards_bid_by_both_levels_compare_the_contracts() -> None:
    # seat 1's cards bid both times: A (side 1 in the second deal) bid 20 and failed where
    # B bid 17 on the same cards and made it
    games = [deal(0, 1, 17, True), deal(1, 1, 20, False)]
    assert arena.classify_pack_28(games) == ("same cards: A failed, B made (A bid more)", -2)
    games = [deal(0, 3, 18, False), deal(1, 3, 18, True)]
    assert arena.classify_pack_28(games) == ("same cards: A made, B failed (same contract)", 2)


def test_one_level_bidding_with_both_hands_of_the_pack() -> None:
    # B bid with side 1's cards in the first deal and side 0's in the second, made both:
    # A never took the contract, with either hand
    games = [deal(0, 1, 16, True), deal(1, 0, 17, True)]
    assert arena.classify_pack_28(games) == ("B bid both: made both", -2)
    games = [deal(0, 0, 16, False), deal(1, 1, 19, False)]
    assert arena.classify_pack_28(games) == ("A bid both: failed both", -2)
    games = [deal(0, 0, 16, True), deal(1, 1, 19, True)]
    assert arena.classify_pack_28(games) == ("A bid both: made both", 2)


def test_a_split_pack_is_the_cards_not_the_players() -> None:
    games = [deal(0, 1, 16, True), deal(1, 1, 16, True)]
    assert arena.classify_pack_28(games) == ("split", 0)
    redealt = [deal(0, 1, 16, True), {**deal(1, 1, 16, True), "a_won": None}]
    assert arena.classify_pack_28(redealt) == ("redealt", 0)


def test_high_bids_count_bids_and_raises_per_team() -> None:
    log = [(1, "bid:14"), (2, "bid:15"), (3, "bid:16"), (0, "pass"), (1, "pass"),
           (2, "pass"), (3, "trump:7D"), (0, "pass"), (3, "raise:24"), (0, "play:JC")]
    assert arena.high_bids_28(log, 2) == [15, 24]


def test_classify_prints_a_table_and_examples_of_real_deals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    arena.main(["--game", "twentyeight", "--a", "random", "--b", "greedy", "--deals", "6",
                "--workers", "1", "--classify28", "1"])
    out = capsys.readouterr().out
    assert "pack category" in out
    table = out.split("pack category")[1].split("example (")[0].split("deals:")[0]
    # every pack in one row: the packs column adds up to the number of packs
    rows = [ln for ln in table.splitlines()[1:] if ln.startswith("  ")]
    assert sum(int(ln.split()[-2]) for ln in rows) == 6
    if "example (" in out:
        # each seat of an example shows the four cards it bid on and the four dealt after,
        # and the four seats of a deal hold the whole pack
        seats = [ln.split(":", 1)[1] for ln in out.splitlines()
                 if ln.strip().startswith("seat ")]
        assert seats and len(seats) % 4 == 0
        for cards in seats:
            assert [len(half.split()) for half in cards.split("|")] == [4, 4]
        for i in range(0, len(seats), 4):
            pack = {c for cards in seats[i:i + 4] for c in cards.replace("|", " ").split()}
            assert len(pack) == 32
