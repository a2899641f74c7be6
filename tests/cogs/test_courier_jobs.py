"""What crosses the pipe to the courier process comes out whole: its jobs (and the cards and
buttons in them) pickle by hand (``__reduce__``, for speed), so a field added to one of them
and not to its ``__reduce__`` would silently vanish on the way."""

from __future__ import annotations

import dataclasses
import pickle
from typing import Any

import pytest

from cogs.messages.courier import Edit, HandEdit
from cogs.ui.cards import Card
from cogs.ui.views import ButtonSpec


def _unusual(field: dataclasses.Field[Any], index: int) -> Any:
    """A value for ``field`` that is not its default (so that a field left out of the round
    trip shows)."""
    kind = str(field.type)
    if kind.startswith("tuple[ButtonSpec"):
        return (ButtonSpec("a", "b", "primary", True, 2),)
    if kind.startswith("tuple"):
        return ("one", "two") if "str" in kind else (index, f"token{index}")
    if kind.startswith("bool"):
        return field.default is not True
    if kind.startswith("int"):
        return 1000 + index
    if kind.startswith("str"):
        return f"{field.name}-{index}"
    if kind.startswith("Style"):
        return "danger"
    if kind.startswith("Picture"):
        return ({"phase": "playing", "hand": []}, ["Asha", "Baraka"], "albastini", "sw")
    return Card(0xABCDEF, ("### t", "body"), (ButtonSpec("c", "d"),), "alt", True)


@pytest.mark.parametrize("cls", [ButtonSpec, Card, Edit, HandEdit])
def test_every_field_survives_the_pipe(cls: type[Any]) -> None:
    fields = dataclasses.fields(cls)
    obj = cls(**{f.name: _unusual(f, i) for i, f in enumerate(fields)})
    for f in fields:
        assert getattr(obj, f.name) != f.default, f.name
    back = pickle.loads(pickle.dumps(obj))
    assert type(back) is cls
    assert [getattr(back, f.name) for f in fields] == [getattr(obj, f.name) for f in fields]
