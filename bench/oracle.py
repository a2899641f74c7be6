"""The arena with a hard player that sees the cards: how far better inference could take it.

Hard's search samples the hidden hands it cannot see. Given the true ones instead, the same
search (the same rollouts, the same decisions by the auction, the trump card, raising and
the play) shows what perfect inference would be worth, and so whether a target such as
issue 29's 0.70 against the expert is within reach of better sampling at all, or needs a
stronger search. Twenty-Eight: every world hard plays out is the deal as dealt (the other
hands, and the face-down trump card); before the second batch is dealt, it sees every hand
but the undealt cards stay shuffled, as nobody knows them. Its rollouts are deterministic, so
one world a play decision is the whole search there. Cassino and Ass: every world has the
others' true hands, and the undealt cards (the stock), which nobody knows, in a random
order (Ass's bet, "go" or not, is made on rollouts of those worlds too). Albastini (the
arena's default game): every world has the others' hands as they stand, the stock's
face-down cards in a random order (its bids are the heuristic's rule, which samples nothing).

Takes ``bench/arena.py``'s arguments; side ``--a hard`` is the player that sees; with
Twenty-Eight ``--sees auction`` (the bids, the trump card, raising) or ``--sees play`` limits
what it sees to those decisions; with Cassino ``--after N`` shows a seat's hand only once it
has played N cards of this round (its sample otherwise is hard's own); with Ass
``--tricks-ass N-M`` shows the hands only in tricks N to M (the first is 1); with Albastini
``--sees-alb partner`` or ``opponents`` shows only those seats' hands (default ``all``), and
``--rounds-alb N-M`` only in rounds N to M (the first is 1):

    .venv/bin/python bench/oracle.py --game twentyeight --a hard --b expert --deals 60 \
        --workers 1 --seed 250

It prints what the arena prints. A bench tool only: the shipped players never see a hidden
card: they are given their seat's view only (Cassino's and Ass's
``test_hard_sees_only_its_view`` deal the hidden cards differently around one view and get
the same choice).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from albastini.games.albastini.ai import search as search_alb
from albastini.games.albastini.ai.core import Knowledge as KnowledgeAlb
from albastini.games.albastini.ai.heuristic import sample_sim
from albastini.games.albastini.ai.search import SearchPlayer as SearchPlayerAlb
from albastini.games.albastini.fast import FastDeal
from albastini.games.albastini.kernel import card_int
from albastini.games.ass.ai import players as ass_players
from albastini.games.ass.ai.players import SearchPlayer as SearchPlayerAss
from albastini.games.cassino.ai import SearchPlayer as SearchPlayerCas
from albastini.games.cassino.ai import search as search_cas
from albastini.games.twentyeight import kernel as K
from albastini.games.twentyeight.ai import SearchPlayer as SearchPlayer28
from albastini.games.twentyeight.ai import search as search28
from albastini.games.twentyeight.ai.core import Knowledge, build_state
from bench import arena


@contextmanager
def replaced(module: ModuleType, **names: Any) -> Iterator[None]:
    """``module``'s functions ``names`` replaced for the block (a search draws its worlds
    with its module's own functions, looked up at each call)."""
    table = vars(module)
    saved = {name: table[name] for name in names}
    table.update(names)
    try:
        yield
    finally:
        table.update(saved)


class Oracle28(SearchPlayer28):
    """Twenty-Eight's hard player, whose sampled worlds are the true deal (:attr:`truth`, the
    arena's Deal, set before the deal is played)."""

    truth: Any = None
    #: Which decisions see the cards: ``auction`` (the bids, the trump card, raising),
    #: ``play``, or both (``all``, the default; ``--sees``).
    sees = "all"

    def true_world(self, k: Knowledge) -> K.State:
        """The deal as it stands, as a world in phase playing for ``k``."""
        st = self.truth.state
        hands = {s: [c for suit in st.hands[s] for c in suit] for s in range(k.players)}
        return build_state(k, hands, st.trump, st.trump_card)

    def world(self, k: Knowledge, said: dict[int, list[tuple[int, int]]]) -> K.State:
        if self.sees == "play":
            return super().world(k, said)
        return self.true_world(k)

    def read_world(self, k: Knowledge, history: list[tuple[int, int]], seats: int = -1
                   ) -> K.State:
        return self.true_world(k)

    def first_batch(self, k: Knowledge, said: dict[int, list[tuple[int, int]]]
                    ) -> list[list[int]]:
        if self.sees == "play":
            return super().first_batch(k, said)
        first, _ = K.deal_schedule(k.players, k.dealer)
        deck = [c.index for c in self.truth.deck]
        hands: list[list[int]] = [[] for _ in range(k.players)]
        for i, seat in enumerate(first):
            hands[seat].append(deck[i])
        rest = deck[len(first):]
        self.rng.shuffle(rest)  # the second batch: dealt later, known to nobody
        hands.append(rest)
        return hands

    def evaluate(self, k: Knowledge, actions: list[int], deadline: float,
                 worlds: int | None = None) -> list[float]:
        if self.sees == "auction":
            return super().evaluate(k, actions, deadline, worlds)
        # the search module draws its play worlds with its own functions: the true deal,
        # never weighed away, and once (the rollouts are deterministic)
        with replaced(search28, sample_world=lambda k, rng, *_: self.true_world(k),
                      world_weight=lambda *_: 1.0):
            return super().evaluate(k, actions, deadline, 1)


class OracleCas(SearchPlayerCas):
    """Cassino's hard player, whose sampled worlds hold the true hands of the deal
    (:attr:`truth`, the arena's Deal); the undealt cards in a random order."""

    truth: Any = None
    #: The cards of this round a seat must have played before its hand is seen (``--after``;
    #: 0: always): what reading the hands from this round's plays could be worth at most,
    #: since a seat's new cards say nothing until it plays.
    after = 0

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        sample = search_cas.sample_world

        def seeing(k: Any, rng: Any, lacks: Any = None) -> Any:
            world = sample(k, rng, lacks)
            truth = self.truth.state
            seen = [s for s in range(k.players) if s == k.seat
                    or 4 - k.hand_sizes[s] >= self.after]
            if len(seen) == 1:
                return world  # hard's own sample, its reading of the plays included
            known = {c for s in seen for c in truth.hands[s]}
            rest = [c for c in k.unseen if c not in known]
            rng.shuffle(rest)
            hands = []
            for s, size in enumerate(k.hand_sizes):
                if s in seen:
                    hands.append(sorted(truth.hands[s]))
                else:
                    hands.append(sorted(rest[:size]))
                    del rest[:size]
            world.hands = hands
            world.deck = tuple(world.deck[:truth.pos]) + tuple(rest)
            return world

        with replaced(search_cas, sample_world=seeing):
            return super()._choose(view, legal)


class OracleAss(SearchPlayerAss):
    """Ass's hard player, whose sampled worlds hold the true hands of the deal
    (:attr:`truth`, the arena's Deal); the stock in a random order. With :attr:`tricks`
    set, it sees only in those tricks (1 is the first; the bets count as the first trick's)
    and samples as hard does in the others."""

    truth: Any = None
    tricks: tuple[int, int] | None = None

    def _choose(self, view: Mapping[str, Any], legal: list[str]) -> str:
        sample = vars(ass_players)["sample_world"]
        trick = len(view["tricks"]) + 1
        if self.tricks is not None and not self.tricks[0] <= trick <= self.tricks[1]:
            return super()._choose(view, legal)

        def seeing(k: Any, rng: Any) -> Any:
            world = sample(k, rng)
            truth = self.truth.state
            world.hands = [list(h) for h in truth.hands]
            world.stock = list(truth.stock[truth.pos:])
            rng.shuffle(world.stock)
            world.pos = 0
            return world

        with replaced(ass_players, sample_world=seeing):
            return super()._choose(view, legal)


class OracleAlb(SearchPlayerAlb):
    """Albastini's hard player, whose sampled worlds hold the true hands of the seats it
    sees (:attr:`sees`) as they stand in the deal (:attr:`truth`, the arena's Deal); the
    other seats' unplaced cards and the stock's face-down cards (known to nobody) dealt at
    random from what is left, the face-up card last, as hard samples them. Its bids are
    hard's own (the heuristic's rule, which samples nothing)."""

    truth: Any = None
    #: Whose hands it sees: ``all`` (the three others), ``partner`` or ``opponents``
    #: (``--sees-alb``).
    sees = "all"
    #: The rounds in which it sees (the first is 1; ``--rounds-alb N-M``); None: every one.
    rounds: tuple[int, int] | None = None

    def seen(self, k: KnowledgeAlb) -> list[int]:
        """The seats whose true hands this player's worlds hold."""
        others = [s for s in range(k.players) if s != k.seat]
        if self.sees == "partner":
            return [s for s in others if s % k.teams == k.team]
        if self.sees == "opponents":
            return [s for s in others if s % k.teams != k.team]
        return others

    def true_world(self, k: KnowledgeAlb, rng: Any) -> FastDeal:
        """A world with the seen seats' true hands, the rest sampled as hard samples it (its
        own sampler, told those hands as known cards with no unknown slot)."""
        hands_now = self.truth._hands  # the deal's hands as they stand (bench only)
        truth = {s: [card_int(c) for c in hands_now[s]] for s in self.seen(k)}
        placed = {c for h in truth.values() for c in h}
        told = replace(k, known=[truth.get(s, k.known[s]) for s in range(k.players)],
                       slots=[0 if s in truth else k.slots[s] for s in range(k.players)],
                       unknown=[c for c in k.unknown if c not in placed])
        return sample_sim(told, rng)

    def _choose(self, view: dict[str, Any]) -> Any:
        def seeing(k: KnowledgeAlb, found: Any, rng: Any, tries: int = 0,
                   check: Any = None) -> FastDeal:
            return self.true_world(k, rng)

        round_no = len(view.get("tricks") or []) + 1
        if self.rounds is not None and not self.rounds[0] <= round_no <= self.rounds[1]:
            return super()._choose(view)
        with replaced(search_alb, sample_inferred=seeing):
            return super()._choose(view)


SEEING: dict[type, type] = {SearchPlayer28: Oracle28, SearchPlayerCas: OracleCas,
                             SearchPlayerAss: OracleAss, SearchPlayerAlb: OracleAlb}
SEERS = (Oracle28, OracleCas, OracleAss, OracleAlb)


def oracle_bots(make_bot: Callable[[str, str, int, dict[str, Any]], Any]
                ) -> Callable[[str, str, int, dict[str, Any]], Any]:
    """``arena.make_bot`` with the hard players made ones that see (:data:`SEEING`)."""

    def make(game: str, level: str, seed: int, options: dict[str, Any]) -> Any:
        bot = make_bot(game, level, seed, options)
        seeing = SEEING.get(type(bot))
        if seeing is None:
            return bot
        oracle: Any = object.__new__(seeing)
        oracle.__dict__.update(bot.__dict__)
        return oracle

    return make


def truthful_run_deal(run_deal: Callable[..., list[list[float]]]
                      ) -> Callable[..., list[list[float]]]:
    """``arena.run_deal`` that first shows the deal to the bots that see the cards."""

    def run(deal: Any, bots: list[Any], view_of: Callable[[int], Mapping[str, Any]]
            ) -> list[list[float]]:
        for bot in bots:
            if isinstance(bot, SEERS):
                bot.truth = deal
        return run_deal(deal, bots, view_of)

    return run


def truthful_new_deal(new_deal: Callable[..., Any]) -> Callable[..., Any]:
    """Albastini's ``arena.new_deal`` that shows each new deal to the bots that see the cards
    (its arena plays a deal in ``play_pair``, not ``run_deal``; one deal at a time in a
    process, so the class holds it)."""

    def deal(*args: Any, **kwargs: Any) -> Any:
        made = new_deal(*args, **kwargs)
        OracleAlb.truth = made
        return made

    return deal


def take_choice(args: list[str], flag: str, choices: tuple[str, ...]) -> str | None:
    """The value given after ``flag``, one of ``choices`` (both taken out of ``args``), or
    None when ``flag`` is not there; exits with a message when it is not one of them."""
    if flag not in args:
        return None
    i = args.index(flag)
    value = args[i + 1] if i + 1 < len(args) else ""
    if value not in choices:
        raise SystemExit(f"oracle.py: {flag} {', '.join(choices[:-1])} or {choices[-1]}")
    del args[i:i + 2]
    return value


def take_span(args: list[str], flag: str, what: str) -> tuple[int, int] | None:
    """The span ``N`` or ``N-M`` given after ``flag`` (both taken out of ``args``), or None
    when ``flag`` is not there; exits with a message when the span is not one."""
    if flag not in args:
        return None
    i = args.index(flag)
    first, _, last = (args[i + 1] if i + 1 < len(args) else "").partition("-")
    if not (first.isdigit() and (last or first).isdigit()):
        raise SystemExit(f"oracle.py: {flag} N or N-M (the {what} where it sees)")
    del args[i:i + 2]
    return int(first), int(last or first)


def main(argv: list[str] | None = None) -> None:
    """Run the arena with side A's hard player seeing the cards (``--sees auction|play``:
    Twenty-Eight's auction or play decisions only)."""
    args = list(sys.argv[1:] if argv is None else argv)
    sees = take_choice(args, "--sees", ("auction", "play", "all"))
    if sees is not None:
        Oracle28.sees = sees
    if "--after" in args:
        i = args.index("--after")
        OracleCas.after = int(args[i + 1])
        del args[i:i + 2]
    tricks = take_span(args, "--tricks-ass", "tricks")
    if tricks is not None:
        OracleAss.tricks = tricks
    sees = take_choice(args, "--sees-alb", ("all", "partner", "opponents"))
    if sees is not None:
        OracleAlb.sees = sees
    rounds = take_span(args, "--rounds-alb", "rounds")
    if rounds is not None:
        OracleAlb.rounds = rounds
    if "--b" in args and args[args.index("--b") + 1:][:1] == ["hard"]:
        raise SystemExit("oracle.py: side B must not be hard (every hard player would see)")
    arena.make_bot = oracle_bots(arena.make_bot)  # type: ignore[assignment]
    arena.run_deal = truthful_run_deal(arena.run_deal)
    table = vars(arena)
    table["new_deal"] = truthful_new_deal(table["new_deal"])
    if {"twentyeight", "cassino", "ass"} & set(args):
        print(f"oracle: side A's hard player sees every dealt card ({Oracle28.sees} decisions)")
    else:
        print(f"oracle: side A's hard player sees the hands of: {OracleAlb.sees}"
              + (f", in rounds {OracleAlb.rounds}" if OracleAlb.rounds else ""))
    arena.main(args)


if __name__ == "__main__":
    main()
