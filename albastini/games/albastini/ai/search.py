"""The search player: determinized sampling of the hidden cards (PIMC) with rollouts by the
normal player's rule (with the expert's last-draw rule when there are partners), and exact
alpha-beta once the stock is empty; heads-up, the expert's card unless the sampled deals
clearly prefer another."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from time import perf_counter
from typing import Any

from ..actions import Action
from ..fast import FastDeal
from .core import Knowledge, cheap_key, play_action, read_view, utility
from .heuristic import best_card, heuristic_bid, heuristic_card, stock_empty
from .infer import Fact, facts, lead_check, sample_inferred
from .ismcts import EXPLORE
from .ismcts import search as tree_search
from .players import Player, bid_or_pass
from .sim import (
    Budget,
    expert_rollout,
    greedy_rollout,
    horizon_rollout,
    policy_card,
    policy_rollout,
    rival_rollout,
    side_rollout,
    solve,
    solve_size,
    team_rollout,
)
from .terms import deep_endgame, expert_values, leaf_values

#: Largest endgame (product of hand-size factorials) searched exactly.
EXACT_SIZE = 20_000
#: Node budget of one exact solve.
EXACT_NODES = 60_000
#: Sampled deals per decision by default: a fixed amount of work, so the player is as strong
#: on a loaded machine as on an idle one until the time cap binds. 200 played no better than
#: 100 heads-up against normal (bench/README.md, issue 20) and took twice the time.
ITERATIONS = 100
#: Sampled deals per decision by default in two pairs (4 pairs) and with three or four
#: players each on their own (:meth:`SearchPlayer.worlds_for`), capped by the same time:
#: there the search is still limited by its sampling noise, and twice the deals fit in the
#: cap (bench/README.md, issue 29, twelfth and thirteenth rounds). In 4 pairs 300, which fit
#: in the same time once the rollouts got faster, played no better (thirteenth round).
ITERATIONS_MORE = 200
#: The weight of the card-point margin in a rollout's score by default with three or more
#: players each on their own (``margin`` not given): there a seat wins one deal in three to
#: six, so on many sampled deals every card loses alike and winning alone barely tells the
#: cards apart, where the margin over the best other seat does (most in 6 solo). Elsewhere
#: 0: no better in 6 pairs, nor heads-up (bench/README.md, issue 20 and issue 29, twelfth
#: round).
MARGIN_MANY = 4.0
#: At most this many sampled deals are solved exactly (each solve costs as much as hundreds
#: of rollouts; the normal player averages 6): past it, the exact values stand.
EXACT_ITERATIONS = 30
#: The default time cap per decision (a safety net: the iterations above fit well inside it).
TIME_MS = 300.0
#: The rollout policies: ``expert`` (the normal player's rule with the expert's last-draw
#: rule with partners, the default: against the expert in 4 pairs 0.616 where ``policy`` gave
#: 0.561 on the same 50 packs, and 0.648 on seed 34 where it gave 0.530; heads-up it is
#: ``policy``; bench/README.md, issue 29), ``policy`` (the normal player's rule) and ``greedy``
#: (both kept for comparison in the arena), ``team`` (a bench option: ``expert`` where a
#: follower also counts its partner still to play, ``sim.team_rollout``; bench/README.md,
#: issue 29, twelfth round). Not in this table, as they need the seat: ``side`` (a bench
#: option) is ``team`` for this seat's side only, the opponents by ``expert``
#: (``sim.side_rollout``); ``rival`` is heads-up ``sim.rival_rollout``, the opponent playing
#: the expert's rules; with partners it is ``expert``.
ROLLOUTS: dict[str, Callable[[FastDeal], list[int]]] = {
    "policy": policy_rollout,
    "expert": expert_rollout,
    "greedy": greedy_rollout,
    "team": team_rollout,
}

#: How the card is chosen while there is a stock: ``search`` (the best sampled value),
#: ``hybrid`` (the expert's card, ``terms.expert_values``, unless the search's best beats it
#: by ``z`` standard errors of their difference on the same sampled deals: the search's
#: values are noisy there, the expert's one-round pricing is not), ``prior`` (the sampled
#: values plus ``weight`` times the expert's values / 120) and ``auto``, the default:
#: ``hybrid`` heads-up, ``search`` otherwise. Heads-up, hybrid at z = 1 beat the expert
#: 0.533 where search gave 0.473 on the same packs (770 decided deals each) and kept 0.607
#: against normal (search 0.589); prior did not help; the other modes were not measured
#: (bench/README.md, issue 29, third round). ``leaf`` (a bench option) is ``hybrid`` from the
#: card of ``terms.leaf_values``: heads-up each lead priced on sampled hands of the opponent,
#: the follower answering by the rules it plays by (bench/README.md, issue 29, sixth round).
ROOTS = ("auto", "search", "hybrid", "prior", "leaf")
#: How the cards are scored heads-up while there is a stock: ``pimc`` (every sampled deal
#: played out by the rollout policy after each card, :meth:`SearchPlayer.evaluate`) or
#: ``ismcts`` (a tree of the public plays over the sampled deals, :mod:`.ismcts`, each deal
#: through every card; the root choice is the same; a bench option: no better against the
#: expert, worse against normal, bench/README.md, issue 29, ninth round). With more players,
#: and once the stock is out, it is always ``pimc``.
PLAYS = ("pimc", "ismcts")


class SearchPlayer(Player):
    """Information-set search by sampling.

    Each iteration deals the cards this seat cannot see at random among the places they may be
    (consistent with every card played, the bid cards taken back, the indicator, the exchange
    and who drew the face-up card, which stay in those hands until played), then scores every
    legal card on that deal: by a rollout of the rest of the deal while the stock is not empty
    (every seat playing the normal player's rule, in two pairs also the expert's last-draw
    rule, ``sim.expert_rollout``), by an exact
    alpha-beta search (the seat's side maximising) once it is empty and the endgame is small,
    when there are two sides.
    The card with the best average score wins; the score is mostly winning the deal, a little
    the card-point margin (``core.utility``, plus ``margin`` times the margin / 120 in
    rollouts: by default ``MARGIN_MANY`` with three or more players each on their own,
    else 0; :meth:`margin_for`). Every card is scored on the same sampled deals, so their
    comparison is not blurred by luck. Heads-up, while there is a stock, the expert's card
    (``terms.expert_values``: the normal player's pricing with the lead and face-up terms)
    is played unless the search's best card beats it by ``z`` standard errors of their
    paired difference (``root``, see ``ROOTS``). Bench options, heads-up (not measurably
    better, bench/README.md, issue 29, fifth round): ``infer`` 1 weighs the sampled deals by
    what the opponent's bid and follows exclude from its hand (``infer.facts``), 2 also by
    whether the rules would have led the card it just led (``infer.lead_check``);
    ``rollout="rival"`` plays the opponent by the expert's rules in the rollouts. Bench
    option (issue 29, sixth round): ``horizon`` H > 0 stops each rollout H rounds on and
    scores it in card points, the hands' worth included (``sim.horizon_rollout``, two sides).
    With three or four players each on their own, once the stock is out and the endgame is
    small, it plays the expert's exact endgame (``terms.deep_endgame``, everyone else against
    this seat; ``deep``, :meth:`deep_for`).
    Bench option (ninth round, not better): ``play="ismcts"`` scores the cards heads-up while
    there is a stock by a tree of the public plays (:meth:`tree`, :mod:`.ismcts`) instead of
    plain rollouts, with ``explore``, ``paired``, ``widen`` and ``replies`` its settings.

    The budget: by default ``ITERATIONS`` sampled deals (``ITERATIONS_MORE`` in 4 pairs, 3
    and 4 solo: :meth:`worlds_for`), stopped early at 80% of ``TIME_MS`` should the machine
    be too slow (``worlds``: this decision's number). ``iterations`` alone fixes the number
    of sampled deals with no time cap (deterministic, for tests and reproducible arena
    runs); ``time_ms`` alone samples until 80% of it has passed; both: that many deals,
    capped by that time.
    Bidding follows the heuristic player.
    """

    level = "search"

    def __init__(
        self,
        seed: int | None = None,
        time_ms: float | None = None,
        iterations: int | None = None,
        rollout: str = "expert",
        root: str = "auto",
        z: float = 1.0,
        weight: float = 1.0,
        margin: float | None = None,
        infer: int = 0,
        horizon: int = 0,
        play: str = "pimc",
        explore: float = EXPLORE,
        paired: bool = True,
        widen: bool = True,
        replies: str = "tree",
        deep: bool | None = None,
    ) -> None:
        super().__init__(seed)
        if (time_ms is not None and time_ms <= 0) or (iterations is not None and iterations < 1):
            raise ValueError("time_ms and iterations must be positive")
        if rollout not in ROLLOUTS and rollout not in ("rival", "side"):
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, rival, side")
        if root not in ROOTS:
            raise ValueError(f"root must be one of {', '.join(ROOTS)}")
        if horizon < 0:
            raise ValueError("horizon must be 0 (play the deal out) or a number of rounds")
        if play not in PLAYS:
            raise ValueError(f"play must be one of {', '.join(PLAYS)}")
        if replies not in ("tree", "policy"):
            raise ValueError("replies must be tree or policy")
        if explore < 0:
            raise ValueError("explore must not be negative")
        #: the player's own budget (not given): :meth:`worlds_for` may sample more deals
        self.default_budget = time_ms is None and iterations is None
        if time_ms is None and iterations is None:
            time_ms, iterations = TIME_MS, ITERATIONS
        self.time_ms = time_ms
        self.iterations = iterations
        self.worlds = iterations  # this decision's number of sampled deals (``_choose``)
        self.rollout = rollout
        self.root = root
        self.z = z
        self.weight = weight
        self.margin = margin
        self.infer = infer
        self.horizon = horizon
        self.play = play
        self.explore = explore
        self.paired = paired
        self.widen = widen
        self.replies = replies
        self.deep = deep
        self._sq: dict[int, float] = {}
        self.last_samples = 0

    def _choose(self, view: dict[str, Any]) -> Action:
        start = perf_counter()
        k = read_view(view)
        if k.phase == "bidding":
            return bid_or_pass(heuristic_bid(k))
        # 80%: room for the work after the deadline (the last sample, the view read before
        # it, the worker's round trip) on a loaded machine, where 85% once gave a p95 of 310 ms
        deadline = None if self.time_ms is None else start + self.time_ms * 0.0008
        self.worlds = self.worlds_for(k)
        if self.deep_for(k):
            exact = deep_endgame(k, self.rng)
            if exact:
                return play_action(best_card(exact, k.trump))
        root = self.root
        if root == "auto":
            root = "hybrid" if k.players == 2 else "search"
        ref = None
        guide: dict[int, float] = {}
        # once the stock is out the search is exact (or its rollouts see every card heads-up)
        if root != "search" and not stock_empty(k):
            guide = leaf_values(k, self.rng) if root == "leaf" else expert_values(k)
            ref = min(guide, key=lambda c: (-guide[c], cheap_key(c, k.trump)))
        found = facts(view, k) if self.infer else []
        check = lead_check(view, k) if self.infer >= 2 else None
        if self.play == "ismcts" and k.players == 2 and not stock_empty(k):
            values = self.tree(k, deadline, ref, found, check)
        else:
            values = self.evaluate(k, deadline, ref, found, check)
        if not values:
            return play_action(heuristic_card(k))
        if ref is not None and root in ("hybrid", "leaf"):
            return play_action(self._hybrid(values, ref, k.trump))
        if ref is not None and root == "prior":
            values = {c: v + self.weight * guide[c] / 120.0 for c, v in values.items()}
        return play_action(best_card(values, k.trump))

    def worlds_for(self, k: Knowledge) -> int | None:
        """How many deals this decision samples: ``iterations`` if given (or a time alone),
        else ``ITERATIONS_MORE`` in 4 pairs and with three or four players each on their own,
        where twice the deals measured ahead against the expert and normal (bench/README.md,
        issue 29, twelfth and thirteenth rounds), else ``ITERATIONS`` (heads-up 150 were no
        better than 100; with five and six players 300 no better either)."""
        if self.default_budget and ((k.players == 4 and k.teams == 2) or few_alone(k)):
            return ITERATIONS_MORE
        return self.iterations

    def deep_for(self, k: Knowledge) -> bool:
        """Whether this decision plays the expert's exact endgame once the stock is out:
        ``deep`` if given (more than two sides only), else with three or four players each
        on their own, where it measured ahead of the rollouts against normal and the expert
        (bench/README.md, issue 29, twelfth round; with five and six players the same kind
        of solve was no better in issue 20)."""
        if k.teams <= 2:
            return False
        if self.deep is not None:
            return self.deep
        return few_alone(k)

    def margin_for(self, k: Knowledge) -> float:
        """The weight of the card-point margin in this decision's rollout scores: ``margin``
        if given, else ``MARGIN_MANY`` with three or more players each on their own, else 0."""
        if self.margin is not None:
            return self.margin
        return MARGIN_MANY if k.team_size == 1 and k.players >= 3 else 0.0

    def _scorer(self, k: Knowledge) -> Callable[[list[int], int, int], float]:
        """How a rollout's card points are scored for a side at ``k``: ``core.utility``, plus
        the margin over the best other side times :meth:`margin_for` over 120."""
        weight = self.margin_for(k)
        return utility if weight == 0 else partial(margin_score, weight=weight)

    def _hybrid(self, values: dict[int, float], ref: int, trump: int) -> int:
        """The expert's card ``ref`` unless the search's best beats it, on the same sampled
        deals, by more than ``z`` standard errors of their paired difference."""
        best = best_card(values, trump)
        if best == ref or not self._sq:  # unpaired trees keep no paired differences
            return best
        n = self.last_samples
        mean = values[best] - values[ref]
        if n < 2:
            return best if mean > 0 else ref
        var = max(0.0, self._sq[best] / n - mean * mean) * n / (n - 1)
        return best if mean > self.z * (var / n) ** 0.5 else ref

    def tree(
        self,
        k: Knowledge,
        deadline: float | None,
        ref: int | None = None,
        found: Sequence[Fact] = (),
        check: Callable[[Sequence[int]], bool] | None = None,
    ) -> dict[int, float]:
        """Heads-up with a stock: each card's mean score from an ISMCTS tree of the public
        plays (:func:`.ismcts.search`) over deals sampled as :meth:`evaluate` samples them,
        rolled out by the same policy. Paired (the default), each deal goes through every
        card, so ``iterations`` counts deals as PIMC's does and ``self._sq`` holds each card's
        squared differences from ``ref`` for the hybrid root; unpaired, the root is chosen by
        UCB1 too and the search runs ``iterations`` times the cards' number of iterations.
        ``widen``: the nodes below the root open their plays one by one, the rollout
        policy's first (``sim.policy_card``); otherwise all of them, at random.
        ``replies="policy"``: the opponent's plays are the rollout policy's in each deal,
        only this seat's are searched."""
        moves = sorted(set(k.hand))
        team = k.team
        team_size = k.team_size
        play_out, rival = self._rollout(k)
        score = self._scorer(k)

        def rollout(st: FastDeal) -> list[float]:
            """Each side's score of one rollout from ``st``."""
            points = play_out(st)
            return [score(points, t, team_size) for t in range(st.teams)]

        scale = 1 if self.paired else len(moves)
        rng = self.rng
        result = tree_search(
            lambda: sample_inferred(k, found, rng, check=check),
            moves,
            team,
            lambda n: not self._done(n // scale, deadline),
            rollout,
            rng,
            self.explore,
            self.paired,
            ref,
            partial(policy_card, rival=rival) if self.widen else None,
            partial(policy_card, rival=rival) if self.replies == "policy" else None,
        )
        self._sq = result.sq
        self.last_samples = result.worlds if self.paired else result.worlds // scale
        if not self.paired:
            # unpaired, the root's statistics are visits: the most visited card scores best
            root = result.root
            top = max(c.visits for c in root.children.values()) or 1
            return {m: c.visits / top + c.mean() * 1e-3 for m, c in root.children.items()}
        return result.values

    def _rollout(self, k: Knowledge) -> tuple[Callable[[FastDeal], list[int]], int]:
        """The rollout policy this player's ``rollout`` names at ``k``, and the seat it plays
        by the expert's rules (``"rival"``, heads-up only; -1: none)."""
        if self.rollout == "rival" and k.players == 2:
            rival = 1 - k.seat
            return partial(rival_rollout, rival=rival), rival
        if self.rollout == "side":
            return partial(side_rollout, side=k.team), -1
        return ROLLOUTS.get(self.rollout, expert_rollout), -1

    def _done(self, n: int, deadline: float | None) -> bool:
        if self.worlds is not None and n >= self.worlds:
            return True
        return deadline is not None and perf_counter() >= deadline

    def evaluate(
        self,
        k: Knowledge,
        deadline: float | None,
        ref: int | None = None,
        found: Sequence[Fact] = (),
        check: Callable[[Sequence[int]], bool] | None = None,
    ) -> dict[int, float]:
        """Average score of each legal card over the sampled deals; with ``ref`` (a card of
        the hand) also each card's sum of squared differences from ``ref``'s score on the
        same deal (``self._sq``); with ``found`` (``infer.facts``) the deals are sampled
        weighted by what the opponent's plays revealed (``infer.sample_inferred``), and by
        ``check`` (``infer.lead_check``) of the opponent's sampled hand."""
        moves = sorted(set(k.hand))
        totals = dict.fromkeys(moves, 0.0)
        sq = dict.fromkeys(moves, 0.0)
        self._sq = sq
        n = 0
        # The solver is exact only for two sides: with more it assumes everyone else plays
        # against this seat, which they do not; the rollouts, where each side plays for
        # itself, did as well in 5 and 6 solo at half the time (bench/README.md, issue 20).
        exact = k.teams == 2 and stock_empty(k) and solve_size(k.hand_sizes, 0) <= EXACT_SIZE
        # With nothing to draw and every unseen card in one hand (always so heads-up) only one
        # deal is possible: solving it again and again only spent the decision's time.
        unique = k.fully_known() or (k.stock_hidden == 0 and sum(1 for x in k.slots if x) <= 1)
        rng = self.rng
        team = k.team
        team_size = k.team_size
        play_out, _ = self._rollout(k)
        score = self._scorer(k)

        def outcome(st: FastDeal) -> float:
            """The score of one rollout from ``st``."""
            if self.horizon:
                ahead = horizon_rollout(st, self.horizon)
                return (2 * ahead[team] - sum(ahead)) / 120.0
            return score(play_out(st), team, team_size)

        while True:
            sim = sample_inferred(k, found, rng, check=check)
            if exact:
                try:
                    # every card's exact value: with need_all=False the others are only bounds,
                    # and one equal to the best would win the tie-break by being cheaper
                    values = solve(sim, team, EXACT_NODES, deadline)
                except Budget:
                    exact = False
                else:
                    for m, v in values.items():
                        totals[m] += v
                    n += 1
                    if unique or n >= EXACT_ITERATIONS or self._done(n, deadline):
                        break
                    continue
            if ref is None:
                for m in moves:
                    c = sim.copy()
                    c.play(m)
                    totals[m] += outcome(c)
            else:
                got = {}
                for m in moves:
                    c = sim.copy()
                    c.play(m)
                    got[m] = outcome(c)
                    totals[m] += got[m]
                base = got[ref]
                for m in moves:
                    sq[m] += (got[m] - base) ** 2
            n += 1
            if self._done(n, deadline):
                break
        self.last_samples = n
        return {m: t / n for m, t in totals.items()}


def few_alone(k: Knowledge) -> bool:
    """Whether three or four players sit at ``k``'s table, each on their own (3, 4 solo)."""
    return k.team_size == 1 and 3 <= k.players <= 4


def margin_score(points: list[int], team: int, team_size: int, weight: float) -> float:
    """``core.utility`` of ``points`` for ``team`` plus ``weight`` times its card-point
    margin over the best other side, over 120."""
    others = max(p for t, p in enumerate(points) if t != team)
    return utility(points, team, team_size) + weight * (points[team] - others) / 120.0
