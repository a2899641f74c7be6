"""The ids of the history's buttons (issue 19), in the one scheme: each parses back to its state,
and a click counts only on a message that carries that button and is private or public as that
kind always is."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from cogs.ui import buttons as ids


def message(custom_ids: list[str], *, ephemeral: bool) -> Any:
    row = SimpleNamespace(children=[SimpleNamespace(custom_id=c) for c in custom_ids])
    return SimpleNamespace(components=[row], flags=SimpleNamespace(ephemeral=ephemeral))


def test_every_id_parses_back_to_its_own_kind() -> None:
    made = {
        "history": ids.history(12, 34, 5),
        "board": ids.board(12, 10, "rating", "all", "twentyeight"),
        "replay": ids.replay(7, 2, 13, "f"),
        "replay_open": ids.replay_open(7),
        "watch": ids.watch(7),
        "look": ids.look(7),
    }
    for kind, custom_id in made.items():
        button = ids.parse(custom_id)
        assert button is not None and button.kind == kind, custom_id
        assert len(custom_id) <= 100
    replay = ids.parse(made["replay"])
    assert replay is not None and (replay.table, replay.deal, replay.step, replay.tag) == (
        7, 2, 13, "f")
    board = ids.parse(made["board"])
    assert board is not None and (board.guild, board.offset, board.sort, board.period,
                                  board.game) == (12, 10, "r", "a", "twentyeight")
    assert ids.parse("alb:rp:7:2") is None


def test_a_click_counts_only_on_a_message_that_carries_it() -> None:
    step = ids.replay(7, 1, 3)
    button = ids.parse(step)
    assert button is not None
    assert ids.carried_by(button, step, message([step], ephemeral=True))
    assert not ids.carried_by(button, step, message([ids.replay(7, 1, 4)], ephemeral=True))
    assert not ids.carried_by(button, step, message([step], ephemeral=False))  # never public
    watch = ids.watch(7)
    parsed = ids.parse(watch)
    assert parsed is not None
    assert ids.carried_by(parsed, watch, message([watch], ephemeral=False))
    assert not ids.carried_by(parsed, watch, message([watch], ephemeral=True))
    assert not ids.carried_by(parsed, watch, None)


def test_custom_ids_are_found_at_any_depth_of_a_message() -> None:
    """Rows, and Components V2 containers, sections and their accessories: one function lists
    a message's ids for every kind of button."""
    deep = SimpleNamespace(components=[SimpleNamespace(children=[
        SimpleNamespace(components=[SimpleNamespace(custom_id="alb:h:1")],
                        accessory=SimpleNamespace(custom_id="alb:watch:1")),
        SimpleNamespace(custom_id="alb:rules:3"),
    ])], flags=SimpleNamespace(ephemeral=False))
    assert ids.custom_ids(deep) == {"alb:h:1", "alb:watch:1", "alb:rules:3"}
    watch = ids.parse("alb:watch:1")
    assert watch is not None and ids.carried_by(watch, "alb:watch:1", deep)
