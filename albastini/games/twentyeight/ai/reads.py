"""Reading the play so far: how well a sampled world explains the cards the others played.

A world sampled for a decision (:func:`.core.sample_world`) respects what the play proves
(voids, the bidder's leads while the trump was hidden) but not what it suggests: a player
who did not overtake probably could not, a player who threw a Nine probably had no cheaper
card. :func:`play_weight` replays the deal from its first trick in the sampled world and
compares each other player's action with what :func:`.careful.careful_policy` (or the
models given) would have played holding that world's cards: each action it would not have
chosen multiplies the world's weight by ``miss``. Worlds where those players' hands
explain their plays then count more, as the auction's weight (:mod:`.infer`) does for the
speeches.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .. import kernel as K
from .careful import careful_policy
from .core import Knowledge, side_of


def public_plays(k: Knowledge) -> list[tuple[int, int]]:
    """Every action of the play so far in order, as (seat, action int): the cards, and
    ``EXPOSE`` just before the card of the player who called for the trump."""
    out: list[tuple[int, int]] = []
    rounds = [plays for _, plays, _, _ in k.tricks] + [tuple(k.trick)]
    for i, plays in enumerate(rounds):
        for s, c in plays:
            if i == k.exposed_in and s == k.exposed_by:
                out.append((s, K.EXPOSE))
            out.append((s, c))
    return out


def start_of_play(world: K.State, k: Knowledge) -> K.State:
    """``world`` taken back to its first trick: each seat holds its cards and those it has
    played, and the trump card lies face down."""
    st = world.copy()
    for _, plays, _, _ in k.tricks:
        for s, c in plays:
            st.hands[s][K.SUIT[c]].append(c)
    for s, c in k.trick:
        st.hands[s][K.SUIT[c]].append(c)
    card = st.trump_card
    if not st.face_down and card >= 0:
        st.hands[st.bidder][K.SUIT[card]].remove(card)  # it was face down
        st.face_down = True
    st.exposed_by = st.exposed_in = -1
    st.called = False
    st.trick = []
    st.tricks = []
    st.points = [0] * st.n_teams
    first = k.tricks[0][0] if k.tricks else k.leader
    st.leader = st.to_act = first
    st.phase = K.PLAYING
    return st


def play_weight(world: K.State, k: Knowledge, plays: list[tuple[int, int]], miss: float,
                opponents_only: bool = True, stop_below: float = 0.0, seats: int = -1,
                models: Sequence[Callable[[K.State], int]] = (careful_policy,),
                partner_miss: float = 1.0) -> float:
    """``miss`` to the power of the number of choices (more than one legal action) of the
    other players (``opponents_only``: of the other side only; and only the seats in the bit
    mask ``seats``) that no policy of ``models`` (by default :func:`.careful.careful_policy`
    alone) would have made in ``world``; ``plays``: :func:`public_plays`. With
    ``opponents_only``, the partners' such choices count ``partner_miss`` each in the same
    pass (1: not read). Once the weight falls below ``stop_below`` the rest of the play is
    not read (the weight only falls): the value returned is then below it, no more."""
    if not plays:
        return 1.0
    st = start_of_play(world, k)
    mine = side_of(st, k.seat)
    w = 1.0
    for s, action in plays:
        if s != k.seat and seats >> s & 1:
            m = partner_miss if opponents_only and side_of(st, s) == mine else miss
            if m != 1.0 and len(st.play_options()) > 1 and all(
                model(st) != action for model in models
            ):
                w *= m
                if w < stop_below:
                    return w
        st.apply(action)
    return w


def agreement(world: K.State, k: Knowledge, plays: list[tuple[int, int]],
              choices: list[int], matches: list[int],
              other: Callable[[K.State], int] | None = None,
              other_matches: list[int] | None = None) -> None:
    """Replay ``plays`` (:func:`public_plays`) in ``world`` from its first trick and add, per
    other seat, its actions with a choice (more than one legal action) to ``choices``,
    those :func:`.careful.careful_policy` would have made holding that world's cards to
    ``matches``, and those the policy ``other`` would have made to ``other_matches``."""
    st = start_of_play(world, k)
    for s, action in plays:
        if s != k.seat and len(st.play_options()) > 1:
            choices[s] += 1
            matches[s] += careful_policy(st) == action
            if other is not None and other_matches is not None:
                other_matches[s] += other(st) == action
        st.apply(action)


__all__ = ["agreement", "play_weight", "public_plays", "start_of_play"]
