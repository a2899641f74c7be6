"""The search player (``hard``): determinized sampling with greedy rollouts on the kernel.

Each iteration deals the cards this seat has not seen to the other hands (by their sizes)
and to the rest of the pack, at random (:func:`sample_world`), then scores every legal
action on that same world (common random numbers: the moves are compared on the same
cards) by playing on with :func:`.core.rollout_move` for every seat to the end of the next
round, or of the deal, and valuing what each side captured meanwhile (:func:`outcome`). The
action with the best mean wins. The kernel's own rules run the rollouts.

Two readings of the view make the worlds and their values truer (bench/README.md, "Cassino:
what was tried", has the figures): a card is valued by what it is still worth
(:func:`.core.worth_now`: a majority a side has already won counts nothing, a spade counts
its share of most spades), and a seat that passed up a capture earlier in this round (a
sweep, the 10♦, an Ace) is dealt no card that would have made it (:func:`.core.passed_up`)
while other cards remain.

Heads-up, the decision is searched by information-set MCTS (:mod:`.ismcts`: one tree of
public plays over the sampled worlds, each world through every action at the root), which
measured ahead of the worlds' plain averages there (:meth:`SearchPlayer.search_for`).

With 3 players and in 4 pairs (PIMC), the other seats (a partner too) answer the move
weighed as the normal player would, from what each of them knows (:func:`normal_move`), and
the rollouts stop at the end of this round with the position left valued (:func:`left_worth`),
so that a decision sees more worlds (:meth:`SearchPlayer.rollouts_for`; bench/README.md,
"Fifth round" and "Sixth round").

Heads-up, once the pack is dealt, the last round is played exactly (:mod:`.endgame`: every
unseen card is then in the other hand), as the bench's expert plays it.

Selectable for the bench: the search chosen otherwise (``play_search``), the other seats'
rollout policy (``others_policy``), the position left at the horizon valued or not
(``horizon_value``), the rounds played out (``horizon_rounds``), a finished deal scored by
its margin (``end_by_win``), the exact end on or off (``exact_end``), the other seats' plays of
this round read softly (``read_beta``, :mod:`.reading`), a rollout stopped before the deal's
end valued heads-up by a model fitted to how deals end (``horizon_model``, :mod:`.horizon`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from time import perf_counter
from typing import Any

from .. import kernel as K
from ..deal import code_of
from . import horizon, ismcts, reading
from .core import (
    SWEEP,
    WORTH,
    Knowledge,
    action_of,
    card_key,
    chance_held,
    greedy_move,
    passed_up,
    read_view,
    rollout_move,
    worth_now,
)
from .endgame import exact_choice
from .players import NormalPlayer, score_action

#: Placeholder for a captured card whose identity does not matter (counted, never scored).
HIDDEN = 52


def sample_world(k: Knowledge, rng: random.Random,
                 lacks: Mapping[int, Collection[int]] | None = None) -> K.State:
    """A full :class:`..kernel.State` consistent with what the seat knows: the unseen cards
    shuffled into the other hands and the undealt pack (a seat that controls a build gets a
    card of its value first: the rules say it holds one); the piles as replayed from the
    history (placeholders without one). ``lacks`` (:func:`.core.passed_up`): per seat, the
    card keys it is dealt only when the other unseen cards run out."""
    unseen = list(k.unseen)
    rng.shuffle(unseen)
    forced: dict[int, list[int]] = {}
    for value, seat in sorted({(it[3], it[4]) for it in k.table if it[4] not in (-1, k.seat)}):
        card = next((c for c in unseen if K.VALUE[c] == value), None)
        if card is not None:
            unseen.remove(card)
            forced.setdefault(seat, []).append(card)
    st = object.__new__(K.State)
    st.n = k.players
    st.team_size = k.players // k.n_teams
    st.n_teams = k.n_teams
    st.dealer = k.dealer
    st.rounds = k.rounds
    st.round = k.round
    st.pos = 52 - k.pack
    st.hands = []
    for s, size in enumerate(k.hand_sizes):
        if s == k.seat:
            st.hands.append(sorted(k.hand))
        else:
            mine = forced.get(s, [])
            take = size - len(mine)
            keys = lacks.get(s) if lacks else None
            if keys:
                # the cards it probably lacks only when the others run out (the draw stays
                # uniform among the rest: ``unseen`` is shuffled)
                order = sorted(range(len(unseen)), key=lambda i: card_key(unseen[i]) in keys)
                chosen = set(order[:take])
                mine = mine + [unseen[i] for i in order[:take]]
                unseen = [c for i, c in enumerate(unseen) if i not in chosen]
            else:
                mine = mine + unseen[:take]
                del unseen[:take]
            st.hands.append(sorted(mine))
    st.deck = tuple([HIDDEN] * st.pos + unseen)
    st.table = list(k.table)
    # the captured cards are public (replayed from the history), so the end can be scored
    st.piles = [list(p) for p in k.piles] if k.piles else [[HIDDEN] * n for n in k.captured]
    st.sweeps = list(k.sweeps)
    st.last_capturer = k.last_capturer
    st.leftover = []
    st.first_table = []
    st.to_act = k.seat
    return st


def outcomes(st: K.State, start: K.State, values: Sequence[float] = WORTH,
             left: bool = False, by_win: bool = True, model: bool = False) -> list[float]:
    """Per team, what it gained against the best other team since ``start``: the worth of
    the cards captured (``values``, per card: :func:`.core.worth_now` of the piles at the
    decision) and the sweeps; with ``left``, also what the position left is worth
    (:func:`left_worth`). When the deal is over (and the piles are the real cards), the deal
    itself: 1 for a win, a half for a tie for the top, plus a twentieth of the points'
    margin (``by_win``), or the points' margin alone. With ``model`` (heads-up, ``by_win``),
    a deal not over is valued in that same unit by :func:`.horizon.deal_value`, the model
    of how deals left so end."""
    if st.finished and not any(c == HIDDEN for p in st.piles for c in p):
        points, _ = st.score()
        out = []
        for team, ours in enumerate(points):
            best = max(p for t, p in enumerate(points) if t != team)
            if not by_win:
                out.append(float(ours - best))
                continue
            won = 1.0 if ours > best else 0.5 if ours == best else 0.0
            out.append(won + 0.05 * (ours - best))
        return out
    if model and by_win and st.n_teams == 2 and not st.finished:
        return [horizon.deal_value(st, 0), horizon.deal_value(st, 1)]
    gains = []
    for t in range(st.n_teams):
        new = st.piles[t][len(start.piles[t]):]
        g = sum(values[c] for c in new if c < 52) + SWEEP * (st.sweeps[t] - start.sweeps[t])
        if st.finished:
            counts = [len(p) for p in st.piles]
            top = max(counts)
            g += 3.0 if counts[t] == top and counts.count(top) == 1 else 0.0
        gains.append(g)
    if left and not st.finished:
        gains = [g + x for g, x in zip(gains, left_worth(st, values), strict=True)]
    return [g - max(x for t, x in enumerate(gains) if t != team)
            for team, g in enumerate(gains)]


def outcome(st: K.State, start: K.State, team: int, values: Sequence[float] = WORTH,
            left: bool = False, by_win: bool = True, model: bool = False) -> float:
    """:func:`outcomes` for ``team``."""
    return outcomes(st, start, values, left, by_win, model)[team]


#: How much of the next player's best capture at the horizon is credited to its team (the
#: players after it answer, and it may prefer another play).
NEXT_TAKE = 0.5
#: How much of a build's worth is credited to the team of the seat that controls it (it holds
#: the card that takes it, but another player holding the value may take it first).
BUILD_KEPT = 0.8


def left_worth(st: K.State, values: Sequence[float] = WORTH) -> list[float]:
    """Per team, what the position at a rollout's horizon promises (a round is over and the
    next one dealt): the builds its seats control (their owners hold the card that takes
    them, :data:`BUILD_KEPT`) and, for the next player's team, the best capture that
    player's hand finds on the table (:data:`NEXT_TAKE`)."""
    out = [0.0] * st.n_teams
    seat = st.to_act
    move = greedy_move(st)
    used = set(move[3]) if move[0] == K.CAPTURE else set()
    for it in st.table:
        if it[4] >= 0 and it[0] not in used:
            out[it[4] % st.n_teams] += BUILD_KEPT * sum(values[c] for c in it[1] if c < 52)
    if used:
        taken = [move[1]] + [c for it in st.table if it[0] in used for c in it[1]]
        take = sum(values[c] for c in taken if c < 52)
        out[seat % st.n_teams] += NEXT_TAKE * (take + (SWEEP if len(used) == len(st.table)
                                                       else 0.0))
    return out


def rollout(st: K.State, horizon: int) -> None:
    """Play :func:`.core.rollout_move` (greedy, no sweep left when a trail can avoid it) for
    every seat until round ``horizon`` is over or the deal ends."""
    while not st.finished and st.round <= horizon:
        st.apply(rollout_move(st))


def seat_knowledge(st: K.State) -> Knowledge:
    """What the seat to act on ``st`` would know of it (its hand, the table, the public
    counts; every card in the other hands and the pack unseen): the :class:`.core.Knowledge`
    that :meth:`.players.NormalPlayer.score` weighs, without a view."""
    seat = st.to_act
    unseen = [c for s, h in enumerate(st.hands) if s != seat for c in h]
    unseen += [c for c in st.deck[st.pos:] if c < 52]
    return Knowledge(
        seat=seat, players=st.n, n_teams=st.n_teams, dealer=st.dealer,
        hand=st.hands[seat], table=st.table, unseen=unseen,
        hand_sizes=[len(h) for h in st.hands], captured=[len(p) for p in st.piles],
        sweeps=st.sweeps, last_capturer=st.last_capturer, round=st.round, rounds=st.rounds,
        pack=len(st.deck) - st.pos)


def normal_move(st: K.State) -> K.Action:
    """The move normal would make on ``st`` for the seat to act: :meth:`.players.NormalPlayer.
    score` over the legal actions, knowing only its own hand (ties by the code, as normal
    breaks them). The same scores as from :func:`seat_knowledge`, with the cards it has not
    seen counted by rank once rather than once per chance (the rollouts' hottest path)."""
    legal = st.legal()
    if len(legal) == 1:
        return legal[0]
    seat = st.to_act
    team = seat % st.n_teams
    per_rank = [0] * 13
    unseen = others = 0
    for s, h in enumerate(st.hands):
        if s != seat:
            for c in h:
                per_rank[c >> 2] += 1
            unseen += len(h)
            if s % st.n_teams != team:
                others += len(h)
    for c in st.deck[st.pos:]:
        if c < 52:
            per_rank[c >> 2] += 1
            unseen += 1
    chances: dict[int, float] = {}

    def holds(values: set[int], ranks: set[int]) -> float:
        # NormalPlayer.holds: an unseen number card counts by its value (its rank + 1), a
        # face card (ranks 10-12) by its rank
        copies = (sum(per_rank[v - 1] for v in values if 0 < v <= 10)
                  + sum(per_rank[r] for r in ranks if 10 <= r <= 12))
        chance = chances.get(copies)
        if chance is None:
            chance = chances[copies] = chance_held(unseen, copies, others)
        return chance

    # NormalPlayer.is_last_play
    last = len(st.deck) == st.pos and sum(len(h) for h in st.hands) == 1
    table = st.table
    scores = [score_action(table, seat, a, holds, last) for a in legal]
    top = max(scores)
    tied = [a for a, x in zip(legal, scores, strict=True) if x == top]
    # the tie-break by the code is rare, and the codes cost
    return tied[0] if len(tied) == 1 else max(tied, key=code_of)


def rollout_as(st: K.State, horizon: int, me: int, replies_only: bool = False,
               partner: str = "normal") -> None:
    """:func:`rollout`, but every seat but ``me`` plays :func:`normal_move` (the opponents,
    and a partner, as the normal player they may well be, without seeing the hands); with
    ``replies_only``, only until ``me`` is to act again (the replies to the move weighed, at
    a fraction of the cost), greedily after that. ``partner="greedy"``: a partner plays as
    ``me`` does (:func:`.core.rollout_move`, seeing the hands) instead."""
    while not st.finished and st.round <= horizon:
        if st.to_act == me:
            if replies_only:
                rollout(st, horizon)
                return
            st.apply(rollout_move(st))
        else:
            st.apply(reply_move(st, me, partner))


def rollout_normal(st: K.State, horizon: int) -> None:
    """:func:`rollout`, but every seat (this one too) plays :func:`normal_move`: what normal
    would choose from its own hand, rather than greedily seeing every hand."""
    while not st.finished and st.round <= horizon:
        st.apply(normal_move(st))


def reply_move(st: K.State, me: int, partner: str = "normal") -> K.Action:
    """The move of a seat other than ``me`` in :func:`rollout_as`: :func:`normal_move`, or
    with ``partner="greedy"`` a partner's :func:`.core.rollout_move`."""
    if partner == "greedy" and st.to_act % st.n_teams == me % st.n_teams:
        return rollout_move(st)
    return normal_move(st)


class SearchPlayer(NormalPlayer):
    """Determinized search (``hard``). ``time_ms`` is the thinking time per decision (default
    150); ``iterations`` fixes the number of sampled worlds instead (reproducible)."""

    level = "search"
    #: Rounds played out after the current one.
    HORIZON = 1
    #: With more players than two, where the end is played exactly only when the bench asks
    #: (:attr:`exact_end`): the cards left in the hands from which it is (over every placement
    #: of the unseen cards, if at most :data:`EXACT_WORLDS`), as the bench's expert does.
    EXACT_PLIES: Mapping[int, int] = {3: 8, 4: 7}
    EXACT_WORLDS = 100

    def __init__(self, seed: int | None = None, time_ms: float = 150.0,
                 iterations: int | None = None) -> None:
        super().__init__(seed)
        self.time_ms = float(time_ms)
        self.iterations = iterations
        #: The worlds the last decision weighed (each with every action played out in it;
        #: with ISMCTS, the iterations).
        self.worlds = 0
        #: How a decision is searched: ``"pimc"`` (every action played out on each sampled
        #: world) or ``"ismcts"`` (:mod:`.ismcts`, one tree of public plays over the worlds);
        #: None: :meth:`search_for` the table. The bench sets it (``arena.py --play-cas``);
        #: bench/README.md has the figures.
        self.play_search: str | None = None
        #: The tree search's UCB1 exploration constant.
        self.explore = ismcts.EXPLORE
        #: Whether the tree search plays each world through every action at its root
        #: (:func:`.ismcts.search`).
        self.paired = True
        #: Whether a rollout's end also counts what the position left promises
        #: (:func:`left_worth`: the builds each side controls, the next player's best take);
        #: None: :meth:`rollouts_for` the table.
        self.horizon_value: bool | None = None
        #: Rounds played out after the current one (:data:`HORIZON`); None: :meth:`rollouts_for`
        #: the table.
        self.horizon_rounds: int | None = None
        #: Whether a deal played out to its end counts who won it (else its points' margin).
        self.end_by_win = True
        #: Whether a rollout that stops before the deal's end is valued heads-up by the
        #: fitted model of how such deals end (:func:`.horizon.deal_value`) rather than by
        #: the worth of the cards captured; None: :meth:`value_for` the table. The bench
        #: sets it (``arena.py --value-cas``).
        self.horizon_model: bool | None = None
        #: How the other seats play in PIMC's rollouts: ``"greedy"`` (:func:`.core.
        #: rollout_move`, seeing the hands), ``"normal"`` (:func:`normal_move`, normal's
        #: choice from what the seat knows) or ``"replies"`` (normal's choice until this
        #: seat is to act again, greedy after), or ``"every"`` (every seat, this one too,
        #: normal's choice: :func:`rollout_normal`); None: :meth:`rollouts_for` the table.
        #: The bench sets it (``arena.py --others-cas``).
        self.others_policy: str | None = None
        #: How a partner plays in rollouts where the others play normal's choice (``"normal"``
        #: or ``"replies"``): ``"normal"`` as the opponents do, or ``"greedy"`` as this seat
        #: does (:func:`.core.rollout_move`). The bench sets it (``arena.py --partner-cas``).
        self.partner_policy = "normal"
        #: Whether a seat that trailed this round is dealt a card that would have captured
        #: then only when the other unseen cards run out (:func:`.core.passed_up`'s
        #: ``trails``). The bench sets it (``arena.py --trails-cas``).
        self.read_trails = False
        #: How sharply the other seats' plays this round are read (:mod:`.reading`: the
        #: softmax's ``beta`` on normal's score; 0: not read), and how many worlds are drawn
        #: for each one kept by that reading. The bench sets them (``arena.py --read-cas``).
        self.read_beta = 0.0
        self.read_draws = 8
        #: Whether the end of the deal is played exactly once the pack is dealt
        #: (:func:`.endgame.exact_choice`: heads-up the whole last round, with more players
        #: the last :data:`EXACT_PLIES` cards); None: :meth:`exact_for` the table. The bench
        #: sets it (``arena.py --exact-cas``).
        self.exact_end: bool | None = None

    @staticmethod
    def search_for(players: int) -> str:
        """The search hard plays with at a table of ``players``: the tree heads-up, where it
        measured ahead of PIMC against the expert (0.59 against 0.53, three sittings) and
        against normal (0.65 against 0.57, the same packs); PIMC with more players, where
        the tree's one screen was behind (4 pairs against normal, 0.43 against 0.51)."""
        return "ismcts" if players == 2 else "pimc"

    @staticmethod
    def exact_for(players: int) -> bool:
        """Whether hard plays the end of the deal exactly at a table of ``players``: heads-up,
        where the last round is a game of open cards (every unseen card is in the other hand)
        and the minimax is simply right; not with more players, where averaging the exact
        values of every placement of the hidden cards (each played as if all hands were
        open) lost to hard's own search against normal in 4 pairs (bench/README.md,
        "Cassino heads-up: what the plays say", eighth round)."""
        return players == 2

    @staticmethod
    def value_for(players: int) -> bool:
        """Whether hard values a rollout stopped before the deal's end by the fitted model
        (:func:`.horizon.deal_value`) at a table of ``players``: no, a bench option (heads-up
        it was ahead of the cards' worth at fixed worlds against the expert but not clearly
        on fresh packs at the time budget, and level against normal: bench/README.md,
        "Cassino heads-up: the value of a world"); it is fitted to heads-up deals only."""
        return False

    @classmethod
    def rollouts_for(cls, players: int) -> tuple[str, int, bool]:
        """How hard's rollouts play at a table of ``players``: the other seats' policy, the
        rounds played after this one, and whether the position left at the horizon is
        valued. With 3 players and in 4 pairs: the other seats (a partner too) answer the
        move weighed as normal would (then greedily), and the rollouts stop at the end of
        this round with the position left valued, so that a decision sees more worlds;
        measured ahead of greedy rollouts against normal (bench/README.md, "Fifth round",
        and for 4 pairs "Sixth round"). Heads-up (searched by the tree): greedy seeing the
        hands, to the end of the next round."""
        if players > 2:
            return "replies", 0, True
        return "greedy", cls.HORIZON, False

    def tree_policies(self, me: int, others: str) -> tuple[
            Callable[[K.State, int], None], Callable[[K.State], K.Action]]:
        """The tree search's rollout and the policy whose reply a node opens first, for
        ``others`` as in PIMC's rollouts: ``"greedy"``, every seat :func:`.core.rollout_move`
        (seeing the hands); otherwise the other seats answer as normal would
        (:func:`normal_move`), in the tree and in the rollout (``"replies"``: until ``me`` is
        to act again), a partner as :attr:`partner_policy` says; ``"every"``: every seat,
        this one too, as normal would (:func:`rollout_normal`)."""
        if others == "greedy":
            return rollout, rollout_move
        if others == "every":
            return rollout_normal, normal_move
        replies = others == "replies"
        partner = self.partner_policy

        def roll(st: K.State, horizon: int) -> None:
            rollout_as(st, horizon, me, replies, partner)

        def policy(st: K.State) -> K.Action:
            return rollout_move(st) if st.to_act == me else reply_move(st, me, partner)

        return roll, policy

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        k = read_view(view)
        actions = [action_of(c) for c in legal]
        team = k.team_of(k.seat)
        others, rounds, valued = self.rollouts_for(k.players)
        others = self.others_policy or others
        rounds = rounds if self.horizon_rounds is None else self.horizon_rounds
        left = valued if self.horizon_value is None else self.horizon_value
        horizon = k.round + rounds  # builds are settled within a round
        # the heuristic's order breaks ties and is the answer if no world fits in the time
        prior = [self.score(k, a) for a in actions]
        exact_end = self.exact_for(k.players) if self.exact_end is None else self.exact_end
        if exact_end and len(actions) > 1:
            order = sorted(range(len(legal)), key=lambda i: (prior[i], legal[i]), reverse=True)
            exact = exact_choice(k, [legal[i] for i in order], self.EXACT_PLIES,
                                 self.EXACT_WORLDS)
            if exact is not None:
                self.worlds = 0
                return exact
        # what a card is worth now (majorities already won count nothing), and the cards
        # the others showed they lack by passing up a capture this round
        values = worth_now(k.piles, k.captured)
        lacks = passed_up(view, k, self.read_trails)
        plays = reading.read_plays(view, k, self.read_beta) if self.read_beta else []

        def draw() -> K.State:
            if not plays:
                return sample_world(k, self.rng, lacks)
            return reading.weighted_world(lambda: sample_world(k, self.rng, lacks), plays,
                                          self.rng, self.read_draws)
        deadline = perf_counter() + self.time_ms / 1000
        by_win = self.end_by_win
        model = self.value_for(k.players) if self.horizon_model is None else self.horizon_model
        search = self.play_search or self.search_for(k.players)
        if search == "ismcts" and len(actions) > 1:
            paired = self.paired
            # (a fixed budget: as many rollouts as PIMC plays on that many worlds)
            fixed = (self.iterations or 0) * (1 if paired else len(actions))

            def more(done: int) -> bool:
                if self.iterations is not None:
                    return done < fixed
                return done < 1 or perf_counter() < deadline

            roll, policy = self.tree_policies(k.seat, others)
            root = ismcts.search(
                draw, actions, self.rng, more, horizon,
                roll, lambda end, world: outcomes(end, world, values, left, by_win, model),
                policy, self.explore, paired)
            visits = [child.visits for child in root.children.values()]
            self.worlds = min(visits) if paired else sum(visits)
            best = ismcts.choice(root, actions, prior, paired)
            return legal[best]
        totals = [0.0] * len(actions)
        done = 0
        while True:
            if self.iterations is not None:
                if done >= self.iterations:
                    break
            elif done and perf_counter() >= deadline:
                break
            world = draw()
            scores = []
            for action in actions:
                # a world with many builds to play out can take long under load: once one
                # world is in, the deadline is kept between actions and a world left half
                # done is dropped (its actions would be weighed on different worlds)
                if done and self.iterations is None and perf_counter() >= deadline:
                    break
                st = world.copy()
                st.apply(action)
                if others == "greedy":
                    rollout(st, horizon)
                elif others == "every":
                    rollout_normal(st, horizon)
                else:
                    rollout_as(st, horizon, k.seat, others == "replies",
                               self.partner_policy)
                scores.append(outcome(st, world, team, values, left, by_win, model))
            if len(scores) < len(actions):
                break
            totals = [t + s for t, s in zip(totals, scores, strict=True)]
            done += 1
        self.worlds = done
        best = max(range(len(actions)),
                   key=lambda i: (totals[i] / max(done, 1) + 0.05 * prior[i], legal[i]))
        return legal[best]
