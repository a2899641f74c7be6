"""The simple computer players: random, greedy (``easy``) and the card-counting heuristic
(``normal``). All choose from their seat's view only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ...players import CodeChooser
from .. import kernel as K
from .core import CODE_INT, Knowledge, card_key, read_view

#: The base of this game's players: a legal code from a view (albastini/games/players.py).
Player = CodeChooser


class RandomPlayer(CodeChooser):
    """Uniform over the legal codes, sorted first (for tests and the arena)."""

    level = "random"

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        return self.rng.choice(sorted(legal))


# --------------------------------------------------------------------------- shared pieces
def bids_in(legal: list[str]) -> list[int]:
    """The bid (or raise) values among legal codes, lowest first."""
    return sorted(int(c.partition(":")[2]) for c in legal if c[:4] in ("bid:", "rais"))


def hand_points(hand: list[int]) -> int:
    """Card points in a hand."""
    return sum(K.POINTS[c] for c in hand)


def best_suit(hand: list[int]) -> int:
    """The suit to make trump: the most cards, then the most points, then the best card."""
    def score(s: int) -> tuple[int, int, int]:
        cards = [c for c in hand if K.SUIT[c] == s]
        return len(cards), sum(K.POINTS[c] for c in cards), -min(cards, default=99)

    return max(range(4), key=score)


def trump_code(hand: list[int]) -> str:
    """Lay the weakest card of the best suit: the strong ones stay playable."""
    suit = best_suit(hand)
    card = max(c for c in hand if K.SUIT[c] == suit)  # the highest int is the weakest
    return f"trump:{K.CODES[card]}"


def would_win(k: Knowledge, card: int, power: int) -> bool:
    """Whether ``card`` would win the trick in progress as it stands (kernel rule)."""
    plays = [c for _, c in k.trick] + [card]
    return K.trick_winner(k.leader, plays, power, k.players) == k.seat


def known_power(k: Knowledge) -> int:
    """The trump with power in this trick as far as this seat knows."""
    return k.trump if not k.face_down and k.trump >= 0 else K.NO_POWER


def plays_in(legal: list[str]) -> list[int]:
    """The cards among the legal codes."""
    return [CODE_INT[c[5:]] for c in legal if c.startswith("play:")]


class GreedyPlayer(Player):
    """The baseline (``easy``). Bids the lowest legal bid while it is at most 14 (12 with
    3 players, 16 with 6) plus the card points of its hand; lays the weakest card of its
    longest suit; never raises, never calls for the trump unless forced; plays the cheapest
    card that wins the trick as it stands, else the cheapest card."""

    level = "greedy"

    BASE: ClassVar[dict[int, int]] = {3: 12, 4: 14, 6: 16}

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        k = read_view(view)
        if k.phase == "bidding":
            bids = bids_in(legal)
            if bids and (bids[0] <= self.BASE[k.players] + hand_points(k.hand) or
                         "pass" not in legal):
                return f"bid:{bids[0]}"
            return "pass"
        if k.phase == "trump":
            return trump_code(k.hand)
        if k.phase == "raising":
            return "pass"
        cards = plays_in(legal)
        if not cards:
            return "expose"
        power = known_power(k)
        winners = [c for c in cards if k.trick and would_win(k, c, power)]
        return "play:" + K.CODES[min(winners or cards, key=card_key)]


class NormalPlayer(Player):
    """The heuristic player (``normal``): counts cards, bids from hand strength, infers the
    trump from the bidder's play, plays with its partner.

    Bidding: an estimate of its side's points from the four cards (the points held, the
    length and honours of the best suit, a partner's share), bidding the lowest legal bid up
    to it, and overbidding a partner only when well above 20. Play: leads cards that are
    masters (no unplayed higher card of the suit elsewhere), else low cards; as a follower
    with the trick won by its side it adds points, against it wins as cheaply as it can;
    void before the exposure, it calls for the trump when the trick is worth it and it
    probably holds a trump (the bidder always does: its face-down card).
    """

    level = "normal"

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        k = read_view(view)
        if k.phase == "bidding":
            return self.bid(k, legal)
        if k.phase == "trump":
            return trump_code(k.hand)
        if k.phase == "raising":
            return self.raise_(k, legal)
        return self.play(k, legal)

    # ----------------------------------------------------------------- auction
    @staticmethod
    def estimate(hand: list[int], players: int) -> float:
        """Card points the bidding side may expect with this hand choosing trump."""
        suit = best_suit(hand)
        trumps = [c for c in hand if K.SUIT[c] == suit]
        honours = sum(1 for c in hand if K.STRENGTH[c] >= 7)  # Jacks and Nines
        est = 10.0 + 1.1 * hand_points(hand) + 1.5 * max(0, len(trumps) - 1) + 0.5 * honours
        if players == 3:
            est -= 2.0  # alone against two
        if players == 6:
            est = 12.0 + 0.9 * hand_points(hand) + 1.0 * max(0, len(trumps) - 2)
        return est

    def bid(self, k: Knowledge, legal: list[str]) -> str:
        """The lowest legal bid when it is within the estimate (forced: the minimum)."""
        bids = bids_in(legal)
        if not bids:
            return "pass"
        if "pass" not in legal:
            return f"bid:{bids[0]}"
        est = self.estimate(k.hand, k.players)
        partner_high = k.bidder >= 0 and k.side(k.seat) == 0 and k.n_teams != 3
        if partner_high and est < 22:
            return "pass"
        if bids[0] <= est:
            return f"bid:{bids[0]}"
        return "pass"

    def raise_(self, k: Knowledge, legal: list[str]) -> str:
        """Raise to 24 only with an overwhelming full hand (the bidder's trump in hand)."""
        trump = k.trump if k.seat == k.bidder else -1
        strong = sum(1 for c in k.hand if K.STRENGTH[c] >= 7)
        if trump >= 0:
            strong += sum(1 for c in k.hand if K.SUIT[c] == trump)
        if strong >= 9 and "raise:24" in legal:
            return "raise:24"
        return "pass"

    # ----------------------------------------------------------------- play
    def likely_trump(self, k: Knowledge) -> int:
        """The trump if known, else the suit the bidder most probably chose: not one it led
        before the exposure, and the one with the most unseen cards."""
        if k.trump >= 0:
            return k.trump
        unseen = k.unseen()
        options = [s for s in range(4) if s not in k.not_trump] or list(range(4))
        return max(options, key=lambda s: sum(1 for c in unseen if K.SUIT[c] == s))

    def play(self, k: Knowledge, legal: list[str]) -> str:
        """A card (or ``expose``) by the heuristics above."""
        cards = plays_in(legal)
        if not cards:
            return "expose"
        power = known_power(k)
        if not k.trick:
            return "play:" + K.CODES[self.lead(k, cards)]
        my_side = k.side(k.seat)
        winner = K.trick_winner(k.leader, [c for _, c in k.trick], power, k.players)
        ours = k.side(winner) == my_side
        last = len(k.trick) == k.players - 1
        trick_points = sum(K.POINTS[c] for _, c in k.trick)
        if "expose" in legal and not ours and self.should_call(k, trick_points):
            return "expose"
        winners = [c for c in cards if would_win(k, c, power)]
        if ours:
            safe = last or self.secure(k, winner, power)
            if safe:
                return "play:" + K.CODES[max(cards, key=card_key)]
            return "play:" + K.CODES[min(cards, key=card_key)]
        if winners:
            masters = [c for c in winners if k.master(c) or last]
            pick = min(masters or winners, key=card_key)
            if masters or trick_points >= 2 or K.POINTS[pick] == 0:
                return "play:" + K.CODES[pick]
        return "play:" + K.CODES[min(cards, key=card_key)]

    def secure(self, k: Knowledge, winner: int, power: int) -> bool:
        """Whether the card winning the trick for our side is a master of its suit."""
        card = next(c for s, c in k.trick if s == winner)
        return k.master(card) and (power == K.NO_POWER or K.SUIT[card] == power)

    def should_call(self, k: Knowledge, trick_points: int) -> bool:
        """Call for the trump (void, before the exposure) when the trick is worth it and this
        seat probably holds a trump."""
        if k.seat == k.bidder:
            return trick_points >= 3
        suit = self.likely_trump(k)
        return trick_points >= 3 and any(K.SUIT[c] == suit for c in k.hand)

    def lead(self, k: Knowledge, cards: list[int]) -> int:
        """Lead a master if any (the one with most points), else the cheapest card of a
        suit nobody is known to be void in."""
        masters = [c for c in cards if k.master(c)]
        if masters:
            return max(masters, key=lambda c: (K.POINTS[c], K.STRENGTH[c]))
        trump = self.likely_trump(k) if k.seat != k.bidder else k.trump
        plain = [c for c in cards if K.SUIT[c] != trump] or cards
        return min(plain, key=card_key)
