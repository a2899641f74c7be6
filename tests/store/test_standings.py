"""Ratings, seasons and match history in the store (schema 0005), on both back ends (a real
SQLite file and a real PostgreSQL database; the ``store`` fixture): ratings kept in the
transaction of each result, in three scopes, equal to a recomputation from the stored
results; seasons; the history a guild or a player reads."""

from __future__ import annotations

import pytest

from albastini.store import InvalidValue, PlayerResult, Store, TeamResult
from tests.doubles import ALICE, BOB, CAROL, DAVE, GUILD, running_table

OTHER_GUILD = GUILD + 1


async def finish(
    store: Store, channel: int, winner_first: bool, *, computers: bool = True
) -> int:
    """A 4-seat table (Alice and Bob in seats 0 and 1, computers after them) finished with
    Alice's side (team 0) winning or losing; returns its id."""
    table_id = await running_table(store, channel)
    a, b = (5, 2) if winner_first else (2, 5)
    await store.finish_table(
        table_id,
        [
            PlayerResult(ALICE, 0, a, winner_first, 3, 2, 0, 70),
            PlayerResult(BOB, 1, b, not winner_first, 3, 1, 0, 50),
        ],
        [TeamResult(0, a, ("easy",) if computers else ()), TeamResult(1, b, ("hard",))],
    )
    return table_id


async def test_a_finished_match_rates_its_people_in_every_scope(store: Store) -> None:
    await finish(store, 500, winner_first=True)
    board = await store.ratings(GUILD, game="albastini")
    assert [e.user_id for e in board.entries] == [ALICE, BOB]
    alice, bob = board.entries
    assert alice.rating > bob.rating and alice.matches == bob.matches == 1
    assert (alice.rank, bob.rank) == (1, 2)
    for scope in (await store.ratings(GUILD, season=0, game="albastini"),
                  await store.ratings(0, game="albastini")):
        assert [(e.user_id, round(e.mu, 9)) for e in scope.entries] == [
            (ALICE, round(alice.mu, 9)), (BOB, round(bob.mu, 9))
        ]  # fmt: skip
    mine = await store.user_rating(GUILD, ALICE, game="albastini")
    # an approx inside the tuple: its stub type does not overlap float, its __eq__ does
    assert mine is not None and mine.rank == 1 and mine.trend == (pytest.approx(alice.rating),)  # type: ignore[comparison-overlap]
    assert await store.user_rating(GUILD, CAROL, game="albastini") is None
    # across servers, as /stats shows it
    everywhere = await store.user_rating(0, ALICE, game="albastini")
    assert everywhere is not None and everywhere.rank == 1 and everywhere.matches == 1


async def test_ratings_computed_again_equal_the_stored_ones(store: Store) -> None:
    for i, first in enumerate([True, False, True, True, False]):
        await finish(store, 600 + i, first)
    await store.start_season(GUILD)
    await finish(store, 700, False)
    scopes = ((GUILD, 1), (GUILD, 2), (GUILD, 0), (0, 0))
    before = [await store.ratings(g, season=s, game="albastini") for g, s in scopes]
    assert await store.recompute_ratings() == 6
    after = [await store.ratings(g, season=s, game="albastini") for g, s in scopes]
    assert after == before
    assert before[1].total == 2 and before[3].entries[0].matches == 6


async def test_a_new_season_starts_empty_and_all_time_keeps_counting(store: Store) -> None:
    await finish(store, 800, True)
    assert await store.current_season(GUILD) == 1
    assert await store.start_season(GUILD) == 2
    assert await store.current_season(GUILD) == 2
    assert await store.current_season(OTHER_GUILD) == 1  # seasons are per guild
    assert (await store.leaderboard(GUILD, game="albastini")).entries == ()
    assert (await store.ratings(GUILD, game="albastini")).entries == ()
    await finish(store, 801, False)
    season = await store.leaderboard(GUILD, game="albastini")
    all_time = await store.leaderboard(GUILD, season=0, game="albastini")
    first = await store.leaderboard(GUILD, season=1, game="albastini")
    assert {e.user_id: e.matches_played for e in season.entries} == {ALICE: 1, BOB: 1}
    assert {e.user_id: e.matches_played for e in all_time.entries} == {ALICE: 2, BOB: 2}
    assert {e.user_id: e.matches_won for e in first.entries} == {ALICE: 1, BOB: 0}
    season_rating = await store.user_rating(GUILD, ALICE, game="albastini")
    all_rating = await store.user_rating(GUILD, ALICE, season=0, game="albastini")
    assert season_rating is not None and all_rating is not None
    assert season_rating.matches == 1 and all_rating.matches == 2
    assert len(all_rating.trend) == 2


async def test_history_lists_finished_matches_newest_first_with_pages(store: Store) -> None:
    ids = [await finish(store, 900 + i, i % 2 == 0) for i in range(5)]
    page = await store.history(GUILD, limit=3)
    assert [m.table_id for m in page] == ids[::-1][:3]
    rest = await store.history(GUILD, limit=3, offset=3)
    assert [m.table_id for m in rest] == ids[::-1][3:]
    newest = page[0]
    assert (newest.game, newest.players, newest.team_size) == ("albastini", 4, 2)
    assert newest.scores == (5, 2) and newest.winners == (0,)
    people = [(u, team) for u, _, team in newest.seats if u is not None]
    assert sorted(people) == [(ALICE, 0), (BOB, 1)]
    assert sum(1 for u, _, _ in newest.seats if u is None) == 2
    assert [m.table_id for m in await store.history(user_id=ALICE, limit=10)] == ids[::-1]
    assert await store.history(user_id=DAVE) == []
    assert await store.history(OTHER_GUILD) == []
    with pytest.raises(ValueError):
        await store.history()


async def test_bad_sides_are_refused_and_nothing_is_written(store: Store) -> None:
    table_id = await running_table(store, 950)
    results = [PlayerResult(ALICE, 0, 5, True, 3, 2, 0, 70)]
    for teams in ([TeamResult(0, 5), TeamResult(0, 2)], [TeamResult(0, 10**7)], "x"):
        with pytest.raises(InvalidValue):
            await store.finish_table(table_id, results, teams)  # type: ignore[arg-type]
    assert (await store.get_table(table_id)).status == "running"
    assert (await store.ratings(GUILD, game="albastini")).entries == ()
