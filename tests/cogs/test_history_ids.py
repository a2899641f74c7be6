"""The ids of issue 19's buttons: each parses back to its state, and a click counts only on a
message that carries that button and is private or public as that kind always is."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from cogs import history_ids as hid
from cogs import ids


def message(custom_ids: list[str], *, ephemeral: bool) -> Any:
    row = SimpleNamespace(children=[SimpleNamespace(custom_id=c) for c in custom_ids])
    return SimpleNamespace(components=[row], flags=SimpleNamespace(ephemeral=ephemeral))


def test_every_id_parses_back_and_is_no_table_button() -> None:
    made = {
        "hist": hid.hist_id(12, 34, 5),
        "board": hid.board_id(12, 10, "rating", "all", "twentyeight"),
        "replay": hid.replay_id(7, 2, 13, "f"),
        "open": hid.open_id(7),
        "watch": hid.watch_id(7),
        "look": hid.look_id(7),
    }
    for kind, custom_id in made.items():
        button = hid.parse(custom_id)
        assert button is not None and button.kind == kind, custom_id
        assert ids.parse(custom_id) is None and len(custom_id) <= 100
    replay = hid.parse(made["replay"])
    assert replay is not None and (replay.num("table"), replay.num("deal"),
                                   replay.num("step")) == (7, 2, 13)
    assert hid.parse("alb:rp:7:2") is None and hid.parse("alb:m:1:2:pass") is None


def test_a_click_counts_only_on_a_message_that_carries_it() -> None:
    step = hid.replay_id(7, 1, 3)
    button = hid.parse(step)
    assert button is not None
    assert hid.carried_by(button, step, message([step], ephemeral=True))
    assert not hid.carried_by(button, step, message([hid.replay_id(7, 1, 4)], ephemeral=True))
    assert not hid.carried_by(button, step, message([step], ephemeral=False))  # never public
    watch = hid.watch_id(7)
    parsed = hid.parse(watch)
    assert parsed is not None
    assert hid.carried_by(parsed, watch, message([watch], ephemeral=False))
    assert not hid.carried_by(parsed, watch, message([watch], ephemeral=True))
    assert not hid.carried_by(parsed, watch, None)
