"""Engine speed: whole random deals per second in every table mode.

Each deal is fully simulated: a uniformly shuffled pack, a random dealer, random bidding among
the legal bids and the pass, and uniformly random play of every card, through the lean fast path
(``albastini.games.albastini.fast.random_deal_points``). For scale, the clean path (``Deal``,
with its checks and objects) is measured once for 4 pairs.

Time is the process's CPU time (``time.process_time``), so other work on a shared machine does
not slow the figure down much; each mode reports the median (and the best) of its timed
batches. The last line is ``deals/s: N`` (the median) for 4 pairs, for scripts to read.

Before it, the computer players' two hot loops on the same kernel (``--ai``, on by default):
greedy rollouts of a 4-pairs deal from its first round (``ai.sim.greedy_rollout``, the search
player's unit of work) and exact endgame solves of 4-pairs deals with three cards in each hand
(``ai.sim.solve``), each over a fixed set of positions drawn from ``--seed``.

    python bench/engine.py [--seconds 1.0]
    python bench/engine.py --game twentyeight     # Twenty-Eight only; last line its 4 pairs
    python bench/engine.py --game all             # both; last line Albastini's, as by default

Twenty-Eight (``--game twentyeight`` or ``all``): random deals (random legal bids, trump
card, raises and plays, ``expose`` included) through its fast path
(``albastini.games.twentyeight.fast.random_deal``, the kernel's rules without per-action
dispatch) per mode, the clean path (``Deal``) for 4 pairs, and the hard player's rollouts
(``ai.search.rollout`` from sampled first-trick worlds). Target: >= 20,000 4-pairs deals/s.

Cassino (``--game cassino`` or ``all``): uniformly random deals through its fast path
(``albastini.games.cassino.fast.random_deal``, the kernel without codes) per mode, the clean
path (``Deal``, codes and checks) for 2 players, then the worst case of legal-move generation
found: deals played by a policy that trails whenever it may (else builds), which is what grows
the table, plus a contrived table of small cards; it prints the most legal actions and items
seen and the slowest single generation. Last line with ``--game cassino``: its 2-player
deals/s.

Ass (``--game ass`` or ``all``): random deals (random bets, uniformly random legal cards)
through its fast path (``albastini.games.ass.fast.random_deal``, the kernel without codes)
per mode in its default trump variant and in variant 5, the clean path (``Deal``) for 4
players, and the hard player's unit of work (greedy rollouts of a 4-player deal from the first
trick, ``ai.core.rollout``). Last line with ``--game ass``: its 4-player deals/s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from albastini import MODES, new_deal
from albastini.games.albastini.ai.sim import greedy_rollout, solve
from albastini.games.albastini.fast import FastDeal, random_deal_points
from albastini.games.ass import MODES as MODES_ASS
from albastini.games.ass import new_deal as new_deal_ass
from albastini.games.ass.ai.core import read_view as read_view_ass
from albastini.games.ass.ai.core import rollout as rollout_ass
from albastini.games.ass.ai.core import sample_world as sample_world_ass
from albastini.games.ass.fast import random_deal as random_deal_ass
from albastini.games.cassino import MODES as MODES_CASSINO
from albastini.games.cassino import kernel as KC
from albastini.games.cassino import new_deal as new_deal_cassino
from albastini.games.cassino.fast import random_deal as random_deal_cassino
from albastini.games.cassino.fast import widest_positions
from albastini.games.twentyeight import MODES as MODES_28
from albastini.games.twentyeight import new_deal as new_deal_28
from albastini.games.twentyeight.ai.core import read_view, sample_world
from albastini.games.twentyeight.ai.search import rollout
from albastini.games.twentyeight.fast import random_deal


def fast_rate(
    players: int, team_size: int, seconds: float, rng: random.Random
) -> tuple[float, float]:
    """Median and best deals per CPU second over batches filling about ``seconds`` of CPU."""
    random_deal_points(players, team_size, rng)  # compile the mode's code outside the timing
    batch = 1000
    rates: list[float] = []
    spent = 0.0
    while spent < seconds:
        start = time.process_time()
        for _ in range(batch):
            random_deal_points(players, team_size, rng)
        took = time.process_time() - start
        spent += took
        if took > 0:
            rates.append(batch / took)
    return statistics.median(rates), max(rates)


def clean_rate(seconds: float, rng: random.Random) -> float:
    """Deals per CPU second through ``Deal`` (4 pairs), for comparison."""
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        deal = new_deal(4, 2, rng.randrange(4), seed=rng.getrandbits(32))
        while deal.phase != "finished":
            deal.apply(rng.choice(deal.legal_actions()))
        done += 1
    return done / (time.process_time() - start)


def positions(players: int, team_size: int, cards: int, count: int, seed: int) -> list[FastDeal]:
    """``count`` states of random deals, played at random until the stock is empty (or, with
    ``cards`` = 5, not at all) and the seat to act holds ``cards`` cards."""
    rng = random.Random(seed)
    out: list[FastDeal] = []
    while len(out) < count:
        deal = new_deal(players, team_size, rng.randrange(players), seed=rng.getrandbits(32))
        while deal.phase == "bidding":
            deal.apply(rng.choice(deal.legal_actions()))
        endgame = cards < 5
        while deal.phase != "finished" and (
            (endgame and deal.stock_size >= players)
            or len(deal.hand(deal.to_act)) > cards  # type: ignore[arg-type]
        ):
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.phase != "finished":
            out.append(FastDeal.from_deal(deal))
    return out


def batches(work: list[FastDeal], run: Callable[[FastDeal], object], seconds: float) -> float:
    """Median of states done per CPU second, over batches of all of ``work``."""
    rates: list[float] = []
    spent = 0.0
    while spent < seconds or len(rates) < 3:
        start = time.process_time()
        for state in work:
            run(state)
        took = time.process_time() - start
        spent += took
        if took > 0:
            rates.append(len(work) / took)
    return statistics.median(rates)


def ai_rates(seconds: float, seed: int) -> None:
    """The computer players' hot loops on the kernel: greedy rollouts and endgame solves."""
    starts = positions(4, 2, 5, 200, seed)
    rate = batches(starts, lambda st: greedy_rollout(st.copy()), seconds)
    print(f"greedy rollouts, 4 pairs from the first round: {rate:,.0f}/s")
    ends = positions(4, 2, 3, 40, seed)
    rate = batches(ends, lambda st: solve(st, 0, 10**7), seconds)
    print(f"exact endgame solves, 4 pairs with 3 cards each: {rate:,.1f}/s")


def batch_rates(play: Callable[[], object], batch: int, seconds: float
                ) -> tuple[float, float]:
    """Median and best calls of ``play`` per CPU second, over batches of ``batch`` calls
    filling about ``seconds`` of CPU (at least three batches)."""
    rates: list[float] = []
    spent = 0.0
    while spent < seconds or len(rates) < 3:
        start = time.process_time()
        for _ in range(batch):
            play()
        took = time.process_time() - start
        spent += took
        if took > 0:
            rates.append(batch / took)
    return statistics.median(rates), max(rates)


def rate_28(players: int, team_size: int, seconds: float, rng: random.Random
            ) -> tuple[float, float]:
    """Twenty-Eight: median and best random deals per CPU second through the fast path."""
    random_deal(players, team_size, rng)
    return batch_rates(lambda: random_deal(players, team_size, rng), 500, seconds)


def clean_rate_28(seconds: float, rng: random.Random) -> float:
    """Twenty-Eight 4-pairs deals per CPU second through ``Deal``, random legal codes."""
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        deal = new_deal_28(4, 2, rng.randrange(4), seed=rng.getrandbits(32))
        while deal.phase != "finished":
            deal.apply(rng.choice(deal.legal_actions()))
        done += 1
    return done / (time.process_time() - start)


def rollout_rate_28(seconds: float, seed: int) -> float:
    """Hard player's unit of work: rollouts per CPU second from sampled first-trick worlds."""
    rng = random.Random(seed)
    worlds = []
    for i in range(100):
        deal = new_deal_28(4, 2, i % 4, seed=rng.getrandbits(32))
        while deal.phase != "playing":
            deal.apply(deal.legal_actions()[0] if deal.phase != "bidding" else
                       rng.choice(deal.legal_actions()))
        seat = deal.to_act
        assert seat is not None
        worlds.append(sample_world(read_view(deal.view(seat)), rng))
    return batches(worlds, lambda w: rollout(w.copy()), seconds)  # type: ignore[arg-type]


def twentyeight(seconds: float, seed: int, ai: bool) -> float:
    """Print the Twenty-Eight lines; return the 4-pairs fast-path median."""
    rng = random.Random(seed)
    print(f"twentyeight clean path (Deal), 4 pairs: {clean_rate_28(seconds, rng):,.0f} deals/s")
    rates: dict[str, float] = {}
    for name, spec in MODES_28.items():
        rates[name], best = rate_28(spec["players"], spec["team_size"], seconds, rng)
        print(f"twentyeight fast path, {name:9}: {rates[name]:,.0f} deals/s ({best:,.0f})")
    if ai:
        rate = rollout_rate_28(seconds, seed)
        print(f"twentyeight hard-player rollouts, 4 pairs from the first trick: {rate:,.0f}/s")
    return rates["4 pairs"]


def rate_cassino(players: int, team_size: int, seconds: float, rng: random.Random
                 ) -> tuple[float, float]:
    """Cassino: median and best random deals per CPU second through the fast path."""
    return batch_rates(lambda: random_deal_cassino(players, team_size, rng), 50, seconds)


def clean_rate_cassino(seconds: float, rng: random.Random) -> float:
    """Cassino 2-player deals per CPU second through ``Deal``, random legal codes."""
    def one() -> None:
        deal = new_deal_cassino(2, 1, rng.randrange(2), seed=rng.getrandbits(32))
        while deal.phase != "finished":
            deal.apply(rng.choice(deal.legal_actions()))

    return batch_rates(one, 20, seconds)[0]


def contrived_cassino() -> tuple[int, float, int]:
    """A crowded table of small cards and builds that no sane play reaches: (legal actions,
    microseconds per generation, items)."""
    c = KC.CODE_INT
    loose = ["AC", "AD", "AH", "AS", "2C", "2D", "3C", "4C", "5C", "JC", "QC", "KC"]
    table: list[KC.Item] = [(c[x], (c[x],), KC.LOOSE, KC.VALUE[c[x]], -1) for x in loose]
    pair = (c["2H"], c["3H"])
    table.append((pair[0], pair, KC.SIMPLE, 5, 1))
    table.sort()
    hand = [c[x] for x in ("5S", "9S", "TD", "TS")]
    runs = 20
    start = time.perf_counter()
    for _ in range(runs):
        actions = KC.legal_actions(table, hand, 0)
    took = (time.perf_counter() - start) / runs
    return len(actions), took * 1e6, len(table)


def cassino(seconds: float, seed: int) -> float:
    """Print the Cassino lines; return the 2-player fast-path median."""
    rng = random.Random(seed)
    print(f"cassino clean path (Deal), 2 players: {clean_rate_cassino(seconds, rng):,.0f} deals/s")
    rates: dict[str, float] = {}
    for name, spec in MODES_CASSINO.items():
        rates[name], best = rate_cassino(spec["players"], spec["team_size"], seconds, rng)
        print(f"cassino fast path, {name:7}: {rates[name]:,.0f} deals/s ({best:,.0f})")
    for name, spec in MODES_CASSINO.items():
        widest, slowest, worst, items = widest_positions(
            spec["players"], spec["team_size"], 300, rng)
        shown = ""
        if worst is not None:
            table = " ".join("+".join(KC.CODES[x] for x in it[1]) for it in worst.table)
            hand = " ".join(KC.CODES[x] for x in worst.hands[worst.to_act])
            shown = f"; widest: table [{table}], hand [{hand}]"
        print(f"cassino worst case, {name:7} (300 trail-first deals): {widest} legal actions, "
              f"{items} table items, slowest generation {slowest * 1000:.2f} ms{shown}")
    n, us, items = contrived_cassino()
    print(f"cassino contrived table of {items} items, hand 5S 9S TD TS: {n} legal actions "
          f"in {us:,.0f} us")
    return rates["2"]


def clean_rate_ass(seconds: float, rng: random.Random) -> float:
    """Ass 4-player deals per CPU second through ``Deal``, random legal codes."""
    def one() -> None:
        deal = new_deal_ass(4, 1, rng.randrange(4), seed=rng.getrandbits(32))
        while deal.phase != "finished":
            deal.apply(rng.choice(deal.legal_actions()))

    return batch_rates(one, 20, seconds)[0]


def rollout_rate_ass(seconds: float, seed: int) -> float:
    """Hard player's unit of work: greedy rollouts per CPU second from sampled worlds at the
    first trick of 4-player deals."""
    rng = random.Random(seed)
    worlds = []
    for i in range(100):
        deal = new_deal_ass(4, 1, i % 4, seed=rng.getrandbits(32))
        while deal.phase == "betting":
            deal.apply("no")
        seat = deal.to_act
        assert seat is not None
        worlds.append(sample_world_ass(read_view_ass(deal.view(seat)), rng))
    return batches(worlds, lambda w: rollout_ass(w.copy()), seconds)  # type: ignore[arg-type]


def ass(seconds: float, seed: int, ai: bool) -> float:
    """Print the Ass lines; return the 4-player fast-path median (default variant)."""
    rng = random.Random(seed)
    print(f"ass clean path (Deal), 4 players: {clean_rate_ass(seconds, rng):,.0f} deals/s")
    rates: dict[str, float] = {}
    for name, spec in MODES_ASS.items():
        players = spec["players"]
        for variant in (1 if players <= 4 else 2, 5):
            def one(players: int = players, variant: int = variant) -> None:
                random_deal_ass(players, variant, rng)

            rate, best = batch_rates(one, 200, seconds)
            if variant != 5:
                rates[name] = rate
            print(f"ass fast path, {name} players, variant {variant}: {rate:,.0f} deals/s "
                  f"({best:,.0f})")
    if ai:
        rate = rollout_rate_ass(seconds, seed)
        print(f"ass hard-player rollouts, 4 players from the first trick: {rate:,.0f}/s")
    return rates["4"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per mode")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--ai", action=argparse.BooleanOptionalAction, default=True,
        help="also time the computer players' rollouts and endgame solves",
    )
    parser.add_argument("--game", default="albastini",
                        choices=["albastini", "twentyeight", "cassino", "ass", "all"])
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    print(f"CPU time of this process, {args.seconds:g} s per mode: median batch (best batch)")
    if args.game == "twentyeight":
        rate = twentyeight(args.seconds, args.seed, args.ai)
        print(f"deals/s: {rate:.0f}")
        return
    if args.game == "cassino":
        rate = cassino(args.seconds, args.seed)
        print(f"deals/s: {rate:.0f}")
        return
    if args.game == "ass":
        rate = ass(args.seconds, args.seed, args.ai)
        print(f"deals/s: {rate:.0f}")
        return
    print(f"clean path (Deal), 4 pairs: {clean_rate(args.seconds, rng):,.0f} deals/s")
    rates: dict[str, float] = {}
    for name, (players, team_size) in MODES.items():
        rates[name], best = fast_rate(players, team_size, args.seconds, rng)
        print(f"fast path, {name:8}: {rates[name]:,.0f} deals/s ({best:,.0f})")
    if args.ai:
        ai_rates(args.seconds, args.seed)
    if args.game == "all":
        twentyeight(args.seconds, args.seed, args.ai)
        cassino(args.seconds, args.seed)
        ass(args.seconds, args.seed, args.ai)
    print(f"deals/s: {rates['4 pairs']:.0f}")


if __name__ == "__main__":
    main()
