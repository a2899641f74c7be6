"""Ass's expert: a rule-based player written from how a counting player plays.

It sees what every player sees (``table_view(deal, seat)``, read by the game's own
:func:`~albastini.games.ass.ai.core.read_view`: its hand, the trumps, the bets, the trick in
progress and every card played, with who took each trick and its points) and nothing else.

* Betting: a "go" costs a bank when missed, and its lower target is worth it only when the
  hand makes it very likely: "go" when ``2 P(reach the "go" target) - 1 > P(reach the usual
  one) + GO_MARGIN``, both chances from a logistic model of the four cards (eights above
  all, the own trump's high cards, a King-Queen pair), fitted on deals this player played
  (four players; elsewhere always "no").
* Points are weighed by what they do to the banks, not counted flat: a bank changes only when
  a player's total crosses their target, so a point is worth the chance that it carries its
  taker over (a normal spread of what the tricks still to play will bring, by the points
  already won, which every player has seen). Points for itself count once per opponent
  (each is a comparison of banks), twice after its "go" (a miss takes a bank); points to an
  opponent count against it by the same measure: most for one near the target, twice for
  one who said "go", nothing for one who has reached it or cannot any more.
* Each card is valued by the trick it makes: when it would hold the trick, the chance that
  nobody still to play holds a card that takes it over (counted from the unseen cards by
  the rules of the trick, seat by seat), times what the trick is worth, less what it hands
  over otherwise; when it would not hold the trick, the points it gives to the holder (a
  Six, worth -1, is a good card to give; an eight, worth 16, the worst). A card that wins
  tricks later (a Six, an eight, a Ten or an Ace beats most of its suit) costs its power.
* The endgame: once nobody draws any more, every unseen card is in another hand, and a
  player who has discarded on a suit (or interrupted it with an eight of another suit) has
  shown that it holds none of it for the rest of the deal. Each card is then priced by
  :data:`ENDGAME_WORLDS` deals of the unseen cards to the other hands, none of a suit its
  holder lacks, played out as the normal player plays them out (normal's own
  ``sample_world`` and ``rollout``), by the weighed points above.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from math import comb
from typing import Any

from albastini.games.ass import kernel as K
from albastini.games.ass.ai.core import (
    POWER,
    Knowledge,
    deal_around_voids,
    known_voids,
    read_view,
    rollout,
)
from albastini.games.players import CodeChooser

#: The bet's models, per number of players: logistic weights of (1, sixes, eights, Jacks,
#: Queens, Kings, Tens, Aces, own trumps, own trumps Queen and up, the chance of leading the
#: first trick, a King-Queen pair) for reaching the "go" target and the usual one, fitted on
#: ~5,000 four-player deals of this player's rules against themselves (without the endgame).
#: Eights are nearly all of it, and four cards say little: with four players no hand clears
#: the margin (the best, all four eights, 2 P(go) - 1 - P(no) = 0.008), so the expert says
#: "no"; a weaker margin lost in the arena. Tables without a model always say "no".
GO_MODEL: dict[int, tuple[tuple[float, ...], tuple[float, ...]]] = {
    4: ((-0.984, 0.004, 0.630, 0.049, -0.059, 0.037, -0.079, 0.023, -0.001, 0.156, -0.047,
         0.136),
        (-1.914, -0.033, 0.628, -0.003, -0.088, -0.040, -0.196, -0.131, 0.032, 0.135, -0.126,
         0.151)),
}
#: How much surer than the break-even a "go" must be (the model is a rough guide).
GO_MARGIN = 0.05
#: Points of trick a card's later power is worth, and the share of it that spending the card
#: costs when it takes the trick and when it does not.
POWER_WORTH = 8.0
COST_WIN = 1.0
COST_LOSE = 0.5
#: Deals sampled per card once nobody draws any more (the stock holds fewer cards than
#: ENDGAME_DRAWS rounds of draws): 0 plays the rules to the end.
ENDGAME_WORLDS = 12
ENDGAME_DRAWS = 1
#: The points a deal brings in all (cards and combinations: more with more players, whose
#: tricks hold more combinations), and the spread of one player's points over the tricks
#: still to play: SPREAD_PER_TRICK * (mean trick) / 24.7 * tricks ** 0.35 (measured with
#: four players: s.d. 33 over nine tricks, 15 over the last one).
DEAL_POINTS = {2: 196.0, 3: 210.0, 4: 222.0, 5: 240.0, 6: 255.0}
SPREAD_PER_TRICK = 15.4
#: A floor on every weight, so that points still count a little when no bank is in reach,
#: and the weight of the chance of a bank against it.
FLOOR = 0.02
REACH_WEIGHT = 20.0


def hand_features(k: Knowledge) -> list[float]:
    """The bet model's inputs for the seat's four cards (see :data:`GO_MODEL`)."""
    ranks = [c % 9 for c in k.hand]
    own = [c for c in k.hand if k.levels[k.seat][c // 9] > 0]
    if k.first_leader is not None:
        lead = 1.0 if k.first_leader == k.seat else 0.0
    else:
        # the match's first deal: the lowest diamond leads; each lower one I do not hold is
        # in the stock (not in another hand) with the stock's share of the unseen cards
        diamonds = [c % 9 for c in k.hand if c // 9 == K.DIAMONDS]
        share = k.stock / max(1, len(k.unseen))
        lead = share ** min(diamonds) if diamonds else 0.0
    return [1.0, *(float(ranks.count(r)) for r in (K.SIX, K.EIGHT, K.JACK, K.QUEEN, K.KING,
                                                    K.TEN, K.ACE)),
            float(len(own)), float(sum(c % 9 >= K.QUEEN for c in own)), lead,
            1.0 if K.KING in ranks and K.QUEEN in ranks else 0.0]


def chance(weights: Sequence[float], features: Sequence[float]) -> float:
    """The logistic model's probability."""
    z = sum(w * x for w, x in zip(weights, features, strict=True))
    return 1.0 / (1.0 + math.exp(-z))


def reach_density(points: int, target: int, tricks_left: int, players: int) -> float:
    """How much one more point raises a player's chance of reaching ``target`` from
    ``points`` with ``tricks_left`` tricks to play: the density of a normal spread of what
    those tricks bring (0 once reached, or with nothing left to play)."""
    if points >= target or tricks_left <= 0:
        return 0.0
    tricks = 36 // players
    mean_trick = DEAL_POINTS.get(players, 222.0) / tricks
    mu = mean_trick * tricks_left / players
    sigma = SPREAD_PER_TRICK * mean_trick / 24.7 * math.pow(tricks_left, 0.35)
    z = (target - points - mu) / sigma
    return math.exp(-0.5 * z * z) / (sigma * math.sqrt(2 * math.pi))


class ExpertPlayer(CodeChooser):
    """The expert rule player of Ass (see the module's docstring)."""

    level = "expert"

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        k = read_view(view)
        if view["phase"] == "betting":
            return self.bet(k, legal)
        weights = self.weights(k, len(view["tricks"]), int(view["tricks_total"]))
        cards = [K.CODE_INT[c[5:]] for c in legal]
        if k.stock < ENDGAME_DRAWS * k.players and ENDGAME_WORLDS > 0 and len(cards) > 1:
            voids = known_voids(k, view["tricks"])
            return "play:" + K.CODES[self.endgame(k, cards, weights, voids)]
        return "play:" + K.CODES[max(cards, key=lambda c: (self.value(k, c, weights), -c))]

    def bet(self, k: Knowledge, legal: list[str]) -> str:
        """"go" when the hand makes it pay (see the module's docstring)."""
        model = GO_MODEL.get(k.players)
        if model is None or "go" not in legal:
            return "no"
        x = hand_features(k)
        go, no = chance(model[0], x), chance(model[1], x)
        return "go" if 2 * go - 1 > no + GO_MARGIN else "no"

    def weights(self, k: Knowledge, done: int, total: int) -> list[float]:
        """Per seat, what one more point for that seat is worth to this one, in compared
        banks (see the module's docstring): positive for itself, negative for the others."""
        out = []
        for s in range(k.players):
            go = k.bets[s] == 1
            w = FLOOR + (2.0 if go else 1.0) * REACH_WEIGHT * reach_density(
                k.points[s], K.target(k.players, go), total - done, k.players)
            out.append(w * (k.players - 1) if s == k.seat else -w)
        return out

    def endgame(self, k: Knowledge, cards: list[int], weights: Sequence[float],
                voids: Sequence[set[int]]) -> int:
        """Nobody draws any more: the card whose deals, the unseen cards dealt at random
        to the other hands (none of a suit its holder has shown it lacks) and played out as
        the normal player plays them out, bring the most weighed points (:meth:`weights`)."""
        totals = dict.fromkeys(cards, 0.0)
        for _ in range(int(ENDGAME_WORLDS)):
            world = deal_around_voids(k, voids, self.rng)
            for c in cards:
                st = world.copy()
                st.play(c)
                pts = rollout(st)
                totals[c] += sum(w * (p - q) for w, p, q in zip(weights, pts, k.points,
                                                                 strict=True))
        return max(cards, key=lambda c: (totals[c], -c))

    def takes_over(self, k: Knowledge, tr: K.Trick, seat: int) -> list[int]:
        """The unseen cards with which ``seat`` would take the trick ``tr`` over."""
        out = []
        for c in k.unseen:
            t2 = tr.copy()
            # assume it still holds the main suit: an eight of another suit then cannot
            # interrupt (a player is rarely void early)
            t2.play(seat, c, k.levels, k.main_levels, True)
            if t2.holder() == seat:
                out.append(c)
        return out

    def stands(self, k: Knowledge, tr: K.Trick, later: list[int]) -> float:
        """The chance that nobody in ``later`` holds a card that takes ``tr`` over."""
        pool = len(k.unseen)
        p = 1.0
        for s in later:
            held = k.hand_sizes[s]
            threats = len(self.takes_over(k, tr, s))
            if held <= 0 or threats <= 0 or pool <= 0:
                continue
            if pool - threats < held:
                return 0.0
            p *= comb(pool - threats, held) / comb(pool, held)
        return p

    def value(self, k: Knowledge, card: int, weights: Sequence[float]) -> float:
        """What playing ``card`` is worth (see the module's docstring), in points weighed by
        ``weights`` (:meth:`weights`)."""
        n = k.players
        tr = k.trick.copy()
        holds = bool(tr.plays) and any(c // 9 == tr.main_suit for c in k.hand)
        tr.play(k.seat, card, k.levels, k.main_levels, holds)
        cards = [c for _, c in tr.plays]
        worth = K.trick_value(cards)
        later = [(k.seat + i) % n for i in range(1, n - len(cards) + 1)]
        mine = weights[k.seat]
        cost = POWER_WORTH * POWER[card % 9] * mine
        holder = tr.holder()
        if holder != k.seat:
            # its points go to another player (the holder now: rarely taken over)
            return weights[holder] * worth - cost * COST_LOSE
        p = self.stands(k, tr, later)
        expected = worth + 2.0 * len(later)  # the others add a little when they cannot win
        taker = sum(weights[s] for s in later) / len(later) if later else 0.0
        return p * expected * mine + (1 - p) * worth * taker - cost * COST_WIN
