"""A table rebuilt from the store: its seats, and its match replayed through the game's own
``Match`` from the stored seeds and move log (state is never stored twice)."""

from __future__ import annotations

from collections.abc import Iterator

from ..games.interface import DealScore
from ..store import DealRecord, TableSnapshot
from ..table import SeatInfo, Table

__all__ = ["rebuild", "replay_steps", "seated"]


def rebuild(snap: TableSnapshot) -> Table:
    """A table as the store describes it, its match replayed through the engine.

    ValueError (or the game's IllegalMove, a ValueError) when the stored log does not replay:
    a deal dealt by the wrong seat, a move out of turn, an illegal move; KeyError for a game
    this code does not have."""
    table = seated(snap)
    if table.status != "lobby":
        _replay(table, snap)
    return table


def seated(snap: TableSnapshot) -> Table:
    """The table and its seats as the store describes them (in seat order once it started),
    without its match: :func:`replay_steps` plays the log into it."""
    rec = snap.table
    settings = dict(rec.settings)
    players = int(settings["players"])
    table = Table(
        id=rec.id,
        guild_id=rec.guild_id,
        channel_id=rec.channel_id,
        host_id=int(settings.get("host_id", rec.host_id)),
        players=players,
        team_size=int(settings["team_size"]),
        target=int(settings["target"]),
        turn_time=int(settings["turn_time"]),
        computer_level=str(settings["computer_level"]),
        language=rec.language,
        game=rec.game,
        options={str(k): int(v) for k, v in dict(settings.get("options") or {}).items()},
        status=rec.status,
        message_id=rec.message_id,
        thread_id=int(settings["thread_id"]) if settings.get("thread_id") else None,
        interactions_only=bool(settings.get("interactions_only", False)),
    )
    by_slot: dict[int, SeatInfo] = {}
    for s in snap.seats:
        by_slot[s.seat_no] = SeatInfo(
            s.seat_no,
            s.user_id,
            s.display_name,
            s.computer_level,
            away=(s.away or s.computer_control) if s.user_id is not None else False,
            timeouts=s.timeouts,
        )
    if rec.status == "lobby":
        table.seats = [by_slot.get(i) for i in range(players)]
        return table
    order = [int(x) for x in settings["seating"]]
    table.slots = order
    seats: list[SeatInfo | None] = []
    for seat, slot in enumerate(order):
        info = by_slot[slot]
        info.seat = seat
        seats.append(info)
    table.seats = seats
    return table


def replay_steps(table: Table, snap: TableSnapshot) -> Iterator[tuple[int, int | None]]:
    """Replay the stored log into ``table.match``, step by step: yields ``(deal_no, None)``
    when a deal is dealt and ``(deal_no, index in snap.moves)`` after each of its moves, the
    match showing that state. ValueError (or the game's IllegalMove) if the log does not
    replay."""
    rules = table.rules
    deals: tuple[DealRecord, ...] = snap.deals
    seat_of_slot = {slot: seat for seat, slot in enumerate(table.slots)}
    moves_by_deal: dict[int, list[tuple[int, int]]] = {}
    for i, m in enumerate(snap.moves):
        moves_by_deal.setdefault(m.deal_no, []).append((i, seat_of_slot[m.seat_no]))
    if not set(moves_by_deal) <= {d.deal_no for d in deals}:
        raise ValueError(f"table {table.id} has moves of a deal it never dealt")
    table.results = []
    for d in deals:
        dealer = seat_of_slot[d.dealer_seat]
        if table.match is None:
            table.match = rules.new_match(
                table.players, table.team_size, table.target, dealer, d.seed, table.options
            )
        else:
            expected = rules.next_dealer(table.match)
            if expected != dealer:
                raise ValueError(
                    f"table {table.id} deal {d.deal_no}: stored dealer {dealer}, "
                    f"rules say {expected}"
                )
            rules.next_deal(table.match, d.seed)
        table.deal_no = d.deal_no
        yield d.deal_no, None
        for i, seat in moves_by_deal.get(d.deal_no, []):
            if table.match.deal.to_act != seat:
                raise ValueError(f"table {table.id}: a stored move of seat {seat} out of turn")
            rules.apply(table.match, snap.moves[i].action)  # IllegalMove if the log is corrupt
            yield d.deal_no, i
        table.result_recorded = d.result is not None
        if d.result is not None:
            r = d.result
            table.results.append(DealScore(r.card_points, r.winner_team, r.game_points))


def _replay(table: Table, snap: TableSnapshot) -> None:
    for _ in replay_steps(table, snap):
        pass
    table.deal_no = len(snap.deals)
    table.move_no = snap.last_move_no + 1
