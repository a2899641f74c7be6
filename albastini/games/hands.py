"""How every game's view lists a hand: grouped by suit, the trump suit first, highest first.

A hand in deal order (``A♠ A♦ 6♦ J♠ 7♦``) is hard to read; a view lists it the way a player
holds it: the trump suits first (as far as the seat knows them: a trump it may not know must
not change the order), then the other suits, each suit's cards by the game's own rank order
(its ``RANKS``, highest first). Suits that follow each other change colour where they can
(♠ ♥ ♣ ♦ without a trump), so the groups stand apart on a screen. Pure: no game, no I/O.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

__all__ = ["SUIT_ORDER", "sorted_hand", "suit_order"]

#: The suits' order without a trump: black and red by turns.
SUIT_ORDER = "SHCD"
_RED = frozenset("HD")


def suit_order(trumps: Sequence[str] = ()) -> str:
    """The four suits as a hand lists them: ``trumps`` first, in their order (the highest
    trump first), then the others, each one of the other colour than the suit before it when
    one is left (otherwise in :data:`SUIT_ORDER`)."""
    return _suit_order(tuple(trumps))


@functools.lru_cache(maxsize=128)
def _suit_order(trumps: tuple[str, ...]) -> str:
    order = [s for i, s in enumerate(trumps) if s in SUIT_ORDER and s not in trumps[:i]]
    rest = [s for s in SUIT_ORDER if s not in order]
    while rest:
        last_red = order[-1] in _RED if order else None
        pick = next((s for s in rest if (s in _RED) != last_red), rest[0])
        order.append(pick)
        rest.remove(pick)
    return "".join(order)


@functools.lru_cache(maxsize=256)
def _places(ranks: str, order: str) -> dict[str, int]:
    """Each card's place in a hand listed in suit ``order``, by ``ranks`` within a suit: every
    view of every deal sorts its hands, so the order is worked out once per pack and trump."""
    return {rank + suit: i * len(ranks) + j
            for i, suit in enumerate(order) for j, rank in enumerate(ranks)}


def sorted_hand(codes: Iterable[str], ranks: str, trumps: Sequence[str] = ()) -> list[str]:
    """``codes`` (rank then suit, ``"TS"``) grouped by suit in :func:`suit_order` of
    ``trumps``, highest first within a suit by ``ranks`` (the game's ``RANKS``, highest
    first). ``trumps`` must hold only suits the seat may know. ValueError for a code whose
    rank is not in ``ranks`` or whose suit is not one of ``CDHS``."""
    places = _places(ranks, suit_order(trumps))
    try:
        return sorted(codes, key=places.__getitem__)
    except KeyError as exc:
        raise ValueError(f"Not a card of this pack: {exc.args[0]!r}") from None
