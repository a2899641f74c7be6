"""How every game's view lists a hand: grouped by suit, the trump suit first, highest first.

A hand in deal order (``A♠ A♦ 6♦ J♠ 7♦``) is hard to read; a view lists it the way a player
holds it: the trump suits first (as far as the seat knows them: a trump it may not know must
not change the order), then the other suits, each suit's cards by the game's own rank order
(its ``RANKS``, highest first). Suits that follow each other change colour where they can
(♠ ♥ ♣ ♦ without a trump), so the groups stand apart on a screen. Pure: no game, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["SUIT_ORDER", "sorted_hand", "suit_order"]

#: The suits' order without a trump: black and red by turns.
SUIT_ORDER = "SHCD"
_RED = frozenset("HD")


def suit_order(trumps: Sequence[str] = ()) -> str:
    """The four suits as a hand lists them: ``trumps`` first, in their order (the highest
    trump first), then the others, each one of the other colour than the suit before it when
    one is left (otherwise in :data:`SUIT_ORDER`)."""
    order = [s for i, s in enumerate(trumps) if s in SUIT_ORDER and s not in trumps[:i]]
    rest = [s for s in SUIT_ORDER if s not in order]
    while rest:
        last_red = order[-1] in _RED if order else None
        pick = next((s for s in rest if (s in _RED) != last_red), rest[0])
        order.append(pick)
        rest.remove(pick)
    return "".join(order)


def sorted_hand(codes: Iterable[str], ranks: str, trumps: Sequence[str] = ()) -> list[str]:
    """``codes`` (rank then suit, ``"TS"``) grouped by suit in :func:`suit_order` of
    ``trumps``, highest first within a suit by ``ranks`` (the game's ``RANKS``, highest
    first). ``trumps`` must hold only suits the seat may know. ValueError for a code whose
    rank is not in ``ranks`` or whose suit is not one of ``CDHS``."""
    order = suit_order(trumps)
    hand = list(codes)
    for code in hand:
        if len(code) != 2 or code[0] not in ranks or code[1] not in order:
            raise ValueError(f"Not a card of this pack: {code!r}")
    return sorted(hand, key=lambda code: (order.index(code[1]), ranks.index(code[0])))
