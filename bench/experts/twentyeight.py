"""Twenty-Eight's expert: a rule-based player written from how good players play.

It sees what every player sees (``Deal.view(seat)``, read by the game's own
:func:`~albastini.games.twentyeight.ai.core.read_view`: the hand, the auction, the tricks,
the voids they show) and nothing else.

Auction: it values its four cards for each suit as the prospective trump (the Jack and Nine
held, the suit's length, the other Jacks, the points) and bids up to that value; a partner's
free bid adds to it (the partner holds honours), an opponent's free bid takes from it.
Trump card: the suit it valued, laying its weakest card (the Jack and Nine stay in hand).
Raising: to 24 only when the full hand counts that many points as sure. Play: cash masters
while the trump is hidden (a Jack cannot lose until a void player asks for the trump), keep
a Nine behind its Jack, win cheaply against the other side, load points onto a trick its
side holds for sure, ask for the trump only when the trick is worth it and it probably holds
one; the bidder draws trumps once they are shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from albastini.games.players import CodeChooser
from albastini.games.twentyeight import kernel as K
from albastini.games.twentyeight.ai.core import CODE_INT, Knowledge, card_key, read_view

JACK, NINE, ACE, TEN = 0, 1, 2, 3  # rank positions of a card int (card % 9)

#: What the side expects to take, by mode: the points its four cards (6 trios: six) are
#: worth when they choose the trump. Fitted on deals played out by this player with the
#: hand's owner as the bidder (bench/README.md, "Twenty-Eight expert").
BASE = {3: 7.6, 4: 13.0, 6: 12.2}


def rank(card: int) -> int:
    """The card's rank position: 0 for the Jack, 1 the Nine, 2 the Ace ... (lower is higher)."""
    return card % 9


def suit_cards(hand: list[int], suit: int) -> list[int]:
    """The cards of ``suit`` in ``hand``, strongest first."""
    return sorted(c for c in hand if K.SUIT[c] == suit)


def trump_value(hand: list[int], suit: int, players: int) -> float:
    """The points a side may expect when this hand names ``suit`` trump (before the second
    batch): the trump Jack and Nine count most (they win tricks and take points), then the
    suit's Ace and Ten, its length (control once it is shown) and the other suits' Jacks
    (sure tricks while the trump is hidden)."""
    trumps = suit_cards(hand, suit)
    ranks = {rank(c) for c in trumps}
    v = BASE[players]
    v += 2.7 if JACK in ranks else 0.0
    v += (1.2 if JACK in ranks else 1.8) if NINE in ranks else 0.0
    v += 0.75 * sum(1 for r in (ACE, TEN) if r in ranks)
    v += 0.95 * max(0, len(trumps) - 1)
    v += 1.3 * sum(1 for c in hand if K.SUIT[c] != suit and rank(c) == JACK)
    return v


def best_trump(hand: list[int], players: int) -> tuple[int, float]:
    """(the suit worth most as trump, its value)."""
    values = [(trump_value(hand, s, players), s) for s in range(4) if suit_cards(hand, s)]
    v, s = max(values)
    return s, v


class ExpertPlayer(CodeChooser):
    """The expert rule player of Twenty-Eight (see the module's docstring)."""

    level = "expert"

    #: Bid while the hand's value is at least the bid less this (a free bid's rivals have a
    #: make chance of their own to beat, so a little above an even chance is worth bidding).
    MARGIN = 1.0
    #: Trick points that make a call for the trump worth it: the bidder, anyone else.
    BIDDER_CALL = 2
    #: What a partner's free bid adds to the hand's value, and an opponent's takes from it.
    PARTNER_BID = 1.5
    RIVAL_BID = 0.5
    OTHER_CALL = 3

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        k = read_view(view)
        if k.phase == "bidding":
            return self.bid(k, legal)
        if k.phase == "trump":
            return self.lay_trump(k)
        if k.phase == "raising":
            return self.raise_(k, legal)
        return self.play(k, legal)

    # ----------------------------------------------------------------- auction
    def value(self, k: Knowledge) -> float:
        """What this seat expects its side to take as the bidder: its hand's value, plus what
        the partners' free bids say they hold, less what the opponents' say."""
        _, v = best_trump(k.hand, k.players)
        first = (k.dealer + 1) % k.players
        for i, (seat, bid) in enumerate(k.bids):
            if not bid or seat == k.seat or (i == 0 and seat == first and k.players != 3):
                continue  # a pass, or the compulsory opening: no news
            if k.n_teams != 3 and seat % k.n_teams == k.seat % k.n_teams:
                v += self.PARTNER_BID  # the partner holds honours
            else:
                v -= self.RIVAL_BID  # they do, and they may hold my suit's Jack
        return v

    def bid(self, k: Knowledge, legal: list[str]) -> str:
        """The lowest legal bid while the hand's value covers it; over a partner only with a
        hand worth honours."""
        bids = sorted(int(c[4:]) for c in legal if c.startswith("bid:"))
        if not bids:
            return "pass"
        if "pass" not in legal:
            return f"bid:{bids[0]}"
        v = self.value(k)
        partner_high = (
            k.bidder >= 0 and k.n_teams != 3 and k.bidder % k.n_teams == k.seat % k.n_teams
        )
        if partner_high and v < bids[0] + 1:
            return "pass"
        return f"bid:{bids[0]}" if bids[0] <= v + self.MARGIN else "pass"

    def lay_trump(self, k: Knowledge) -> str:
        """The suit valued most; its weakest card goes face down."""
        suit, _ = best_trump(k.hand, k.players)
        return f"trump:{K.CODES[max(suit_cards(k.hand, suit))]}"

    def sure_points(self, k: Knowledge) -> float:
        """A count of the points the bidder's full hand makes for sure: the top trumps in an
        unbroken run from the Jack, each taking its own and a trick's worth; the length
        beyond them ruffs; the other suits' Jacks."""
        trump = k.trump
        hand = list(k.hand)
        if k.trump_card >= 0 and k.trump_card not in hand and k.face_down:
            hand.append(k.trump_card)
        trumps = suit_cards(hand, trump) if trump >= 0 else []
        run = 0
        for i, c in enumerate(trumps):
            if rank(c) != i:
                break
            run += 1
        sure = sum(K.POINTS[c] for c in trumps[:run]) + 1.5 * run
        sure += 2.0 * max(0, len(trumps) - run - 1)
        for c in hand:
            if K.SUIT[c] != trump and rank(c) == JACK:
                sure += 4.0
        return sure + 6.0  # the partner's share, at least

    def raise_(self, k: Knowledge, legal: list[str]) -> str:
        """Raise to the lowest legal raise when the full hand counts it as sure (the bidder);
        the partner, who does not know the trump, raises only on all four Jacks.
        Thani only with every trick sure: the top trumps and Jacks alone."""
        raises = sorted(int(c[6:]) for c in legal if c.startswith("raise:"))
        if "thani" in legal and self.thani_sure(k):
            return "thani"
        if not raises:
            return "pass"
        if k.seat == k.bidder:
            return f"raise:{raises[0]}" if self.sure_points(k) >= raises[0] + 1 else "pass"
        jacks = sum(1 for c in k.hand if rank(c) == JACK)
        return f"raise:{raises[0]}" if jacks == 4 and raises[0] <= 24 else "pass"

    def thani_sure(self, k: Knowledge) -> bool:
        """Whether every card wins its trick: trumps from the Jack down without a gap, every
        other card a Jack (or a run from it) and at least five trumps."""
        hand = list(k.hand)
        if k.trump_card >= 0 and k.trump_card not in hand:
            hand.append(k.trump_card)
        for suit in range(4):
            cards = suit_cards(hand, suit)
            if any(rank(c) != i for i, c in enumerate(cards)):
                return False
        return len(suit_cards(hand, k.trump)) >= 5

    # ----------------------------------------------------------------- inference
    def trump_odds(self, k: Knowledge) -> list[float]:
        """How likely each suit is the trump, as this seat sees it: certain when known;
        otherwise the suits the bidder may not have led are out, and a suit is likelier the
        more of its cards (and of its Jack and Nine) are unseen: a bidder who bid freely holds
        honours of its suit."""
        if k.trump >= 0:
            return [1.0 if s == k.trump else 0.0 for s in range(4)]
        unseen = set(k.unseen())
        free = any(b and s == k.bidder and i > 0 for i, (s, b) in enumerate(k.bids))
        odds = []
        for s in range(4):
            if s in k.not_trump:
                odds.append(0.0)
                continue
            n = sum(1 for c in unseen if K.SUIT[c] == s)
            w = float(n)
            if free:
                w += 2.0 * (s * 9 + JACK in unseen) + 1.0 * (s * 9 + NINE in unseen)
            odds.append(w)
        total = sum(odds)
        if total <= 0:
            return [0.25] * 4
        return [o / total for o in odds]

    def likely_trump(self, k: Knowledge) -> int:
        """The likeliest trump suit."""
        odds = self.trump_odds(k)
        return max(range(4), key=lambda s: odds[s])

    def may_trump(self, k: Knowledge, seat: int, led: int) -> bool:
        """Whether ``seat`` might beat a card of ``led`` with a trump: it is void in the suit
        and may still hold a trump (or is the bidder, whose face-down card is one)."""
        if led not in k.void[seat]:
            return False
        if k.trump >= 0 and k.trump in k.void[seat] and seat != k.bidder:
            return False
        return not (k.trump >= 0 and led == k.trump)

    def secure(self, k: Knowledge, card: int, seat: int, power: int) -> bool:
        """Whether ``card``, winning the trick now for ``seat``'s side, stays the winner: no
        unseen card of its suit ranks above it (with power: a trump), and no opponent still to
        play is known void in the suit led (one could ask for the trump and ruff)."""
        if not self.master(k, card):
            return False
        led = K.SUIT[k.trick[0][1]] if k.trick else K.SUIT[card]
        if power != K.NO_POWER and K.SUIT[card] != power and self.trumps_out(k):
            later = self.later_seats(k)
            mine = k.side(seat)
            if any(k.side(s) != mine and led in k.void[s] for s in later):
                return False
        if power == K.NO_POWER and k.face_down:
            later = self.later_seats(k)
            mine = k.side(seat)
            if any(k.side(s) != mine and led in k.void[s] for s in later):
                return False
        return True

    def master(self, k: Knowledge, card: int) -> bool:
        """No card of the suit that could still come from another hand ranks above it."""
        unseen = set(k.unseen())
        return all(c not in unseen for c in range(K.SUIT[card] * 9, card))

    def trumps_out(self, k: Knowledge) -> bool:
        """Whether another player may still hold a trump (the trump being known)."""
        if k.trump < 0:
            return True
        return any(K.SUIT[c] == k.trump for c in k.unseen())

    def later_seats(self, k: Knowledge) -> list[int]:
        """The seats still to play to the trick in progress after this one."""
        done = len(k.trick) + 1
        return [(k.seat + i) % k.players for i in range(1, k.players - done + 1)]

    # ----------------------------------------------------------------- play
    def play(self, k: Knowledge, legal: list[str]) -> str:
        """A card (or ``expose``)."""
        cards = [CODE_INT[c[5:]] for c in legal if c.startswith("play:")]
        if not cards:
            return "expose"
        if not k.trick:
            return "play:" + K.CODES[self.lead(k, cards)]
        choice = self.follow(k, cards, "expose" in legal)
        return "expose" if choice < 0 else "play:" + K.CODES[choice]

    def power(self, k: Knowledge) -> int:
        """The suit with power in the trick in progress (``NO_POWER`` while hidden)."""
        return k.trump if not k.face_down and k.trump >= 0 and k.exposed_in >= 0 else K.NO_POWER

    def lead(self, k: Knowledge, cards: list[int]) -> int:
        """Lead: the bidder draws trumps with the top trump once shown; anyone cashes a
        master (most points first) in a suit no opponent can ruff; else a low card of a suit
        where it holds no honour to protect, away from the likely trump (a defender), or a
        short suit (the bidder, to ruff later)."""
        mine = k.side(k.seat)
        opponents = [s for s in range(k.players) if k.side(s) != mine]
        trump = k.trump
        if trump >= 0 and not k.face_down and k.seat == k.bidder and self.trumps_out(k):
            tops = [c for c in cards if K.SUIT[c] == trump and self.master(k, c)]
            if tops:
                return min(tops)
        likely = trump if trump >= 0 else self.likely_trump(k)

        def safe(c: int) -> bool:
            s = K.SUIT[c]
            if trump >= 0 and not k.face_down and s == trump:
                return True
            return not any(s in k.void[o] for o in opponents)

        masters = [c for c in cards if self.master(k, c) and safe(c)]
        if masters:
            return max(masters, key=lambda c: (K.POINTS[c], -c))
        plain = [c for c in cards if K.SUIT[c] != likely] or cards

        def lead_key(c: int) -> tuple[int, int, int, int]:
            s = K.SUIT[c]
            held = suit_cards(k.hand, s)
            guards = any(rank(d) in (JACK, NINE) for d in held)
            length = len(held) if k.seat == k.bidder else -len(held)
            return (K.POINTS[c], int(guards), length, -K.STRENGTH[c])

        return min(plain, key=lead_key)

    def follow(self, k: Knowledge, cards: list[int], may_call: bool) -> int:
        """Follow (or discard, or ask for the trump: -1)."""
        power = self.power(k)
        plays = [c for _, c in k.trick]
        winner = K.trick_winner(k.leader, plays, power, k.players)
        mine = k.side(k.seat)
        ours = k.side(winner) == mine
        last = len(k.trick) == k.players - 1
        points = sum(K.POINTS[c] for c in plays)
        win_card = next(c for s, c in k.trick if s == winner)
        led = K.SUIT[plays[0]]
        following = K.SUIT[cards[0]] == led and all(K.SUIT[c] == led for c in cards)

        if ours and (last or self.secure(k, win_card, winner, power)):
            return self.smear(k, cards, led, following)
        if may_call and not ours and self.call(k, points):
            return -1
        winners = [c for c in cards if self.wins(k, c, power)]
        if winners:
            safe = [c for c in winners if last or self.secure(k, c, k.seat, power)]
            if safe:
                pick = min(safe, key=card_key)
                if points + K.POINTS[pick] >= 1 or not ours:
                    return pick
            elif not ours and (points >= 2 or len(k.trick) == k.players - 2):
                # not sure to hold it, but a cheap winner makes the last player pay
                pick = min(winners, key=card_key)
                if K.POINTS[pick] <= 1 or points >= 3:
                    return pick
        return self.throw(k, cards, led, following)

    def wins(self, k: Knowledge, card: int, power: int) -> bool:
        """Whether ``card`` wins the trick as it stands."""
        plays = [c for _, c in k.trick] + [card]
        return K.trick_winner(k.leader, plays, power, k.players) == k.seat

    def smear(self, k: Knowledge, cards: list[int], led: int, following: bool) -> int:
        """Our side holds the trick for sure: give it points, but not a master that wins a
        trick of its own later, nor a trump the bidder's side needs."""
        def key(c: int) -> tuple[int, int, int]:
            master = self.master(k, c) and K.POINTS[c] >= 2
            trumpish = K.SUIT[c] == k.trump and not following
            return (int(master or trumpish), -K.POINTS[c], K.STRENGTH[c])

        return min(cards, key=key)

    def throw(self, k: Knowledge, cards: list[int], led: int, following: bool) -> int:
        """The trick is lost (or not worth taking): the cheapest card, keeping a Nine whose
        Jack is out (it will win when the Jack has gone) and, void, keeping trumps."""
        likely = k.trump if k.trump >= 0 else self.likely_trump(k)

        def key(c: int) -> tuple[int, int, int, int]:
            trumpish = K.SUIT[c] == likely and not following
            lone_guard = rank(c) in (JACK, NINE) and len(suit_cards(k.hand, K.SUIT[c])) > 1
            return (K.POINTS[c], int(trumpish), int(lone_guard), K.STRENGTH[c])

        return min(cards, key=key)

    def call(self, k: Knowledge, points: int) -> bool:
        """Ask for the trump (void, trump hidden, the other side winning): the bidder when the
        trick is worth two points or more (its face-down card is a trump); anyone else when it
        is worth three or more and it probably holds a trump."""
        if k.seat == k.bidder:
            return points >= self.BIDDER_CALL or k.hand_sizes[k.seat] <= 2
        if points < self.OTHER_CALL:
            return False
        odds = self.trump_odds(k)
        held = sum(odds[K.SUIT[c]] for c in k.hand)
        return held >= 0.6
