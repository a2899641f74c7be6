"""Arena: two computer-player levels play paired deals against each other.

Each pack is played twice with the sides swapped, so the luck of the cards cancels. Albastini
modes with more than two sides (3, 4 solo, 5, 6 solo, 6 pairs) play a pack once with A on each
side against B on all the others and count each deal once per B side, head to head: A wins
when its side wins the deal, loses when that B side does (a deal another side wins does not
decide that pair), so equal players score 0.5; these comparisons share deals, so their Wilson
interval is somewhat narrower than the truth. ``--all-modes`` also prints, per mode, how
often A's side ate more card points than a B side. Prints
deals won/lost/tied by A, victory points, A's win rate over decided deals with a 95% Wilson
interval, and decision latency p50/p95/max per level (decisions with a real choice only).
The last line is ``win rate: X``. It prints; it does not assert.

    .venv/bin/python bench/arena.py --a search --b greedy --mode 2 --deals 200
    .venv/bin/python bench/arena.py --a heuristic --b greedy --mode "4 pairs" --deals 2000
    .venv/bin/python bench/arena.py --game twentyeight --a hard --b greedy --deals 100

``--game twentyeight`` plays Twenty-Eight (levels ``easy normal hard`` or kinds ``random greedy
search``; modes "3 players", "4 pairs" (default), "6 trios"). A deal is decided unless it was
redealt (3 players, all passed); in 3 players a pack is played three times, A in each seat
against two B players, and A wins a deal when its side (bidder alone, or the two defenders)
does.

``--game cassino`` plays Cassino (levels ``easy normal hard`` or kinds ``random greedy
search``; modes "2" (default), "3", "4 pairs"), each computer seeing ``table_view`` as on the
platform. A deal is decided unless the top points are tied; in 3 players a pack is played
three times, A in each seat against two B players, and each deal counts once per B seat,
head to head (won by A when A wins the deal, lost when that B seat does, not decided
otherwise), so equal players score 0.5. ``--play-cas ismcts`` searches hard's decisions by
information-set MCTS instead of PIMC (``--explore-cas`` its UCB1 constant, ``--paired-cas
off`` one world through one root action an iteration), ``--left-cas on`` values the
position left at a rollout's horizon, ``--rounds-cas N`` plays rollouts N rounds past this
one, ``--end-cas margin`` scores a deal played out by its points' margin, ``--others-cas
greedy|normal|replies`` sets how the other seats of hard's rollouts play (greedy seeing
the hands, normal's choice all along, or normal's until hard's next turn; with ``--play-cas
ismcts`` also the replies its tree opens first; ``--partner-cas greedy``: in 4 pairs the
partner of those rollouts plays as hard's own seat); ``--others-cas
greedy --rounds-cas 1 --left-cas off`` is hard's PIMC with 3 players before its fifth round
(and in 4 pairs before its sixth); bench/README.md has the figures. Cassino also prints each
scoring item's mean points per deal, A's and B's, head to head.

    .venv/bin/python bench/arena.py --game cassino --a hard --b greedy --deals 100

``--game ass`` plays Ass (levels ``easy normal hard`` or kinds ``random greedy search``;
modes "2" to "6", default "4"; ``--trumps`` the variant, default the mode's). Everyone plays
alone, so a pack is played once with A in each seat against B players. Each deal counts once
per B seat: won by A when A's bank change (-1, 0, +1) is lower than that B's, lost when
higher, tied otherwise (symmetric: equal players score 0.5); it also prints A's and B's
mean points per deal, their rates of reaching the target and how often A said "go".
``--ass-hard NAME=V,...`` sets attributes of hard's search player (its variants:
``careful``, the share of worlds played out by careful rollouts, ``reach``, what a comparison
of banks at a world's end is worth in points; ``careful=0,reach=0`` is the hard of before).

    .venv/bin/python bench/arena.py --game ass --a normal --b greedy --deals 300

``--all-modes`` (Albastini) plays A against each level of ``--b`` (comma-separated, default
``normal,greedy``) in every mode, ``--deals`` packs each, all in one pool of workers, and
prints one line per mode and opponent: A's deals won / lost / tied, its win rate of decided
deals with the 95% Wilson interval and n, and A's decision latency p50 / p95.

    .venv/bin/python bench/arena.py --all-modes --a hard --deals 100 --workers 2

``expert`` (``--a`` or ``--b``, every game) is the strong rule-based opponent of
``bench/experts/``: written from how good players play, seeing the same view as every other
player; the measure hard is held to (issue 29). With Twenty-Eight the arena also prints how
many deals each side bid and how often it made them.

    .venv/bin/python bench/arena.py --game twentyeight --a hard --b expert --deals 150 --workers 2

``--classify28 N`` (Twenty-Eight, two sides) also prints why each pack went as it did, by
comparing its two deals (the same cards, sides swapped): one level bid with both hands, each
bid once (then on the same cards: the contracts compared), or the cards decided (split); with
A's net deals per category and N examples of the costliest for A (each seat's cards bid on |
dealt after, the auction, the trump card). ``--dump FILE`` writes every deal (28: its log and
pack) as JSON for more digging without playing them again.

    .venv/bin/python bench/arena.py --game twentyeight --a hard --b expert --deals 120 \
        --time-ms 100 --workers 1 --classify28 4

Latency is measured inside the workers: with ``--workers`` as large as the number of cores
(and other programs running) it is pessimistic; ``--workers 1`` gives the unloaded figure.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from albastini import MODES, new_deal
from albastini.ai import DIFFICULTIES, make_player
from albastini.games import ass as ass_game
from albastini.games import cassino as cas
from albastini.games import twentyeight as t28
from albastini.games.cassino.ai import SearchPlayer as SearchPlayerCas
from albastini.games.twentyeight import kernel as K28
from albastini.games.twentyeight.ai import SearchPlayer as SearchPlayer28
from albastini.games.twentyeight.ai import search as search28
from bench.experts import make_expert

#: Twenty-Eight card code -> its int: suit by suit, the strongest first (to sort hands).
CARD_ORDER_28 = {c.code: c.index for c in t28.CARDS}


#: ``--rollout28`` names that change only hard's auction rollouts (the bid, the trump card,
#: raising; the play keeps ``fair_policy``) -> its ``SearchPlayer.auction_rollout``.
AUCTION_ROLLOUTS_28 = {"auction": "careful", "auctionmin": "min", "auctionmean": "mean"}


#: Twenty-Eight hard's attributes the command line sets as they are: argument -> attribute
#: of its ``SearchPlayer``, which is also the name of ``make_bot``'s option for it.
ATTRS_28 = {"reads28": "read_plays", "defence28": "defence_rollout",
            "hidden28": "hidden_defence", "hiddenworlds28": "hidden_worlds",
            "weakfd28": "weaker_face_down", "partner28": "read_partner",
            "readmodel28": "read_model", "readwhen28": "read_when"}


def make_bot(game: str, level: str, seed: int, options: dict[str, Any]) -> Any:
    """A player of ``game`` for an arena side: ``expert`` (bench/experts/) or any level or
    kind the game's own ``make_player`` knows."""
    if level == "expert":
        return make_expert(game, seed)
    if game == "twentyeight":
        opts = dict(options)
        play = opts.pop("play", None)
        explore = opts.pop("explore", None)
        exact = opts.pop("exact", None)
        honour = opts.pop("honour", None)
        weakest = opts.pop("weakest", None)
        model_trump = opts.pop("model_trump", None)
        rollout = opts.pop("rollout", None)
        edge = opts.pop("edge", None)
        attrs = {name: opts.pop(name) for name in ATTRS_28.values() if name in opts}
        if rollout is not None:
            # the rollout policy is the search module's (one per process: only hard uses it);
            # "gated": fair_policy, and the careful rule for the seats that play by it
            search28.ROLLOUT[0] = search28.ROLLOUTS[
                "fair" if rollout in ("gated", "gatedopp", *AUCTION_ROLLOUTS_28) else rollout]
        bot = t28.make_player(level, seed=seed, **opts)
        if isinstance(bot, SearchPlayer28):
            # how the search player searches its play (--play28, --explore28, --exact28)
            if play is not None:
                bot.play_search = play
            if explore is not None:
                bot.explore = explore
            if exact is not None:
                bot.exact_tricks = exact
            if honour:
                bot.FREE_BID_NEEDS_HONOUR = True
            if weakest:
                bot.TRUMP_WEAKEST = True
            if model_trump:
                bot.TRUMP_BY_MODEL = True
            if rollout in ("gated", "gatedopp"):
                bot.careful_gate = 0.0
                bot.gate_partners = rollout == "gated"
            if rollout in AUCTION_ROLLOUTS_28:
                bot.auction_rollout = AUCTION_ROLLOUTS_28[rollout]
            if edge is not None:
                bot.auction_edge = edge
            for name, value in attrs.items():  # ATTRS_28's
                setattr(bot, name, value)
        return bot
    if game == "cassino":
        opts = dict(options)
        search = {name: opts.pop(name)
                  for name in ("play_search", "explore", "horizon_value", "paired",
                               "horizon_rounds", "end_by_win", "others_policy",
                               "partner_policy", "read_trails", "read_beta", "read_draws",
                               "exact_end", "horizon_model")
                  if name in opts}
        bot = cas.make_player(level, seed=seed, **opts)
        if isinstance(bot, SearchPlayerCas):
            # how the search player searches (--play-cas, --explore-cas, --left-cas)
            for name, value in search.items():
                setattr(bot, name, value)
        return bot
    if game == "ass":
        opts = dict(options)
        tweaks = opts.pop("tweaks", {})
        bot = ass_game.make_player(level, seed=seed, **opts)
        for name, value in tweaks.items():
            # --ass-hard: a variant of the search player, set on it (bench only)
            setattr(bot, name, value)
        return bot
    return make_player(level, seed=seed, **options)


def play_pair(
    index: int, a: str, b: str, mode: str, seed: int, options: dict[str, Any]
) -> dict[str, Any]:
    """Play pack ``index`` with A on each side in turn; results and latencies.

    Two sides (2, 4 pairs, 6 trios): the pack is played twice, and A wins a deal when its
    side scores it. More sides (3, 4 solo, 5, 6 solo, 6 pairs): the pack is played once with
    A on each side against B on all the others, and each deal counts once per B side, head
    to head: won by A when A's side wins the deal, lost when that B side does, not decided
    when another side wins or nobody does (so equal players score 0.5 whatever the number of
    sides; one A against several B would win a deal only 1/sides of the time). ``a_more``
    also compares the card points of A's side and that B side (None when equal)."""
    players, team_size = MODES[mode]
    teams = players // team_size
    rng = random.Random(seed * 1_000_003 + index)
    deck_seed = rng.getrandbits(63)
    dealer = rng.randrange(players)
    out: dict[str, Any] = {"games": [], "lat": {a: [], b: []}}
    for a_side in range(teams if teams > 2 else 2):
        levels = [a if seat % teams == a_side else b for seat in range(players)]
        bots = [
            make_bot("albastini", lv, rng.getrandbits(32), options.get(lv, {})) for lv in levels
        ]
        lat: list[list[float]] = [[] for _ in range(players)]
        deal = new_deal(players, team_size, dealer, seed=deck_seed)
        while deal.phase != "finished":
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat, history=True)
            t0 = time.perf_counter()
            action = bots[seat].choose(view)
            dt = time.perf_counter() - t0
            if len(view["legal"]) > 1:
                lat[seat].append(dt)
            deal.apply(action)
        result = deal.result()
        if teams > 2:
            mine = result.points[a_side]
            for t, theirs in enumerate(result.points):
                if t == a_side:
                    continue
                won = True if result.winner == a_side else False if result.winner == t else None
                out["games"].append({
                    "a_won": won,
                    "a_more": None if mine == theirs else mine > theirs,
                    "vp": result.victory_points if won is not None else 0,
                    "a_points": mine,
                })
        else:
            a_team_won = None if result.winner is None else result.winner % teams == a_side
            out["games"].append(
                {
                    "a_won": a_team_won,
                    "vp": result.victory_points,
                    "a_points": result.points[a_side],
                }
            )
        for seat in range(players):
            out["lat"][levels[seat]].extend(lat[seat])
    return out


def run_deal(deal: Any, bots: list[Any], view_of: Callable[[int], dict[str, Any]]
             ) -> list[list[float]]:
    """Play ``deal`` (a game package's Deal) to the end with one bot per seat, each shown
    ``view_of(seat)``; per seat, the seconds of each decision that had a real choice."""
    lat: list[list[float]] = [[] for _ in range(deal.players)]
    while deal.phase != "finished":
        seat = deal.to_act
        assert seat is not None
        view = view_of(seat)
        t0 = time.perf_counter()
        code = bots[seat].choose(view)
        dt = time.perf_counter() - t0
        if len(view["legal"]) > 1:
            lat[seat].append(dt)
        deal.apply(code)
    return lat


def play_pair_28(
    index: int, a: str, b: str, mode: str, seed: int, options: dict[str, Any]
) -> dict[str, Any]:
    """Twenty-Eight: play pack ``index`` with A on each side in turn (3 players: in each
    seat); results and latencies, as :func:`play_pair`."""
    spec = t28.MODES[mode]
    players, team_size = spec["players"], spec["team_size"]
    teams = players // team_size
    rng = random.Random(seed * 1_000_003 + index)
    deck_seed = rng.getrandbits(63)
    dealer = rng.randrange(players)
    out: dict[str, Any] = {"games": [], "lat": {a: [], b: []}}
    for a_side in range(teams if teams == 3 else 2):
        levels = [a if seat % teams == a_side else b for seat in range(players)]
        bots = [make_bot("twentyeight", lv, rng.getrandbits(32), options.get(lv, {}))
                for lv in levels]
        deal = t28.new_deal(players, team_size, dealer, seed=deck_seed)
        lat = run_deal(deal, bots, deal.view)
        result = deal.result()
        a_won: bool | None
        if result.redeal:
            a_won = None
        elif teams == 3:
            a_won = result.made == (result.bidder == a_side)
        else:
            a_won = result.winner == a_side
        stake = max(result.game_points)
        bidder = result.bidder
        a_bid = None if bidder is None else (bidder % teams == a_side if teams == 2
                                             else bidder == a_side)
        out["games"].append({"a_won": a_won, "vp": stake, "a_points": result.points[a_side],
                             "a_bid": a_bid, "made": result.made,
                             "contract": result.contract, "a_side": a_side,
                             "bidder": bidder, "points": list(result.points),
                             "dealer": dealer, "levels": levels,
                             "deck": [c.code for c in deal.deck],
                             "log": list(zip(deal.seats, deal.actions, strict=True))})
        for seat in range(players):
            out["lat"][levels[seat]].extend(lat[seat])
    return out


def classify_pack_28(games: list[dict[str, Any]]) -> tuple[str, int]:
    """Why a Twenty-Eight pack (two teams: the same cards twice, sides swapped) went as it
    did: a category and A's net deals (won minus lost, -2..2).

    The categories compare who bid with which cards: ``same cards`` when each level bid once
    (then with the same team's cards, the sides being swapped; the contracts compared: ``A
    bid more``, ``same contract``, ``A bid less``), ``A bid both`` / ``B bid both`` when one
    level took the contract with either hand of the pack (the other passed or was outbid
    with cards its opponent bid on), ``split`` when A won one deal and lost the other (the
    cards decided), ``redealt`` when a deal was not played out."""
    if len(games) != 2 or any(g["a_won"] is None or g["bidder"] is None for g in games):
        return "redealt", 0
    net = sum(1 if g["a_won"] else -1 for g in games)
    if net == 0:
        return "split", 0
    teams = 2
    a_deal = next((g for g in games if g["a_bid"]), None)
    b_deal = next((g for g in games if not g["a_bid"]), None)
    if a_deal is not None and b_deal is not None:
        # each level bid once: with the same team's cards (the sides swap between the deals)
        assert a_deal["bidder"] % teams == b_deal["bidder"] % teams
        ca, cb = a_deal["contract"], b_deal["contract"]
        bid = "A bid more" if ca > cb else "A bid less" if ca < cb else "same contract"
        how = "A made, B failed" if net > 0 else "A failed, B made"
        return f"same cards: {how} ({bid})", net
    who = "A" if a_deal is not None else "B"
    how = "made both" if (net > 0) == (who == "A") else "failed both"
    return f"{who} bid both: {how}", net


def high_bids_28(log: list[tuple[int, str]], teams: int) -> list[int]:
    """Each team's highest bid or raise in a Twenty-Eight deal's log (0: none)."""
    high = [0] * teams
    for seat, code in log:
        kind, _, arg = code.partition(":")
        if kind in ("bid", "raise"):
            high[seat % teams] = max(high[seat % teams], int(arg))
    return high


def describe_deal_28(g: dict[str, Any]) -> str:
    """One Twenty-Eight deal in a few lines: each seat's level and cards (those it bid on,
    then ``|`` and those dealt after the trump card is down, strongest first in each suit),
    the auction (seat, level initial, action), the trump card and the outcome."""
    log: list[tuple[int, str]] = [(int(x[0]), str(x[1])) for x in g["log"]]
    players = len(g["levels"])
    first, second = K28.deal_schedule(players, g["dealer"])
    batches: list[list[list[str]]] = [[[], []] for _ in range(players)]
    for i, seat in enumerate(first + second):
        batches[seat][0 if i < len(first) else 1].append(g["deck"][i])
    auction: list[str] = []
    trump = "?"
    for seat, code in log:
        if code.startswith("play:"):
            break  # the auction is over
        if code.startswith("trump:"):
            trump = code[6:]
        auction.append(f"{seat}{g['levels'][seat][0].upper()}:{code}")
    lines = [f"  dealer {g['dealer']}, bidder {g['bidder']} ({g['levels'][g['bidder']]}) "
             f"contract {g['contract']} trump {trump}, points {g['points']}, "
             f"{'made' if g['made'] else 'failed'}"]
    for seat in range(players):
        cards = [" ".join(sorted(b, key=CARD_ORDER_28.__getitem__))
                 for b in batches[seat]]
        lines.append(f"    seat {seat} {g['levels'][seat]:>6}: {' | '.join(cards)}")
    lines.append("    auction: " + " ".join(auction))
    return "\n".join(lines)


def classify_report_28(results: list[dict[str, Any]], examples: int) -> None:
    """Print the pack categories of :func:`classify_pack_28` (packs, A's net deals), the
    costliest first, and ``examples`` packs of the costliest for A."""
    table: dict[str, list[int]] = {}
    packs: dict[str, list[list[dict[str, Any]]]] = {}
    for r in results:
        cat, net = classify_pack_28(r["games"])
        row = table.setdefault(cat, [0, 0])
        row[0] += 1
        row[1] += net
        packs.setdefault(cat, []).append(r["games"])
    print("pack category (28: the same cards twice)           packs  A's net deals")
    for cat, (n, net) in sorted(table.items(), key=lambda kv: kv[1][1]):
        print(f"  {cat:<50} {n:>5}  {net:+d}")
    worst = min(table.items(), key=lambda kv: kv[1][1], default=None)
    if worst is None or worst[1][1] >= 0:
        return
    for games in packs[worst[0]][:examples]:
        print(f"example ({worst[0]}):")
        for g in games:
            print(describe_deal_28(g))


def play_pair_cassino(
    index: int, a: str, b: str, mode: str, seed: int, options: dict[str, Any]
) -> dict[str, Any]:
    """Cassino: play pack ``index`` with A on each side in turn (3 players: in each seat);
    results and latencies, as :func:`play_pair`."""
    spec = cas.MODES[mode]
    players, team_size = spec["players"], spec["team_size"]
    teams = players // team_size
    rng = random.Random(seed * 1_000_003 + index)
    deck_seed = rng.getrandbits(63)
    dealer = rng.randrange(players)
    out: dict[str, Any] = {"games": [], "lat": {a: [], b: []}}
    for a_side in range(teams):
        levels = [a if seat % teams == a_side else b for seat in range(players)]
        bots = [make_bot("cassino", lv, rng.getrandbits(32), options.get(lv, {}))
                for lv in levels]
        deal = cas.new_deal(players, team_size, dealer, seed=deck_seed)
        lat = run_deal(deal, bots, partial(cas.table_view, deal))
        result = deal.result()
        vp = result.points[result.winner or 0]
        # two sides: A's side won or lost; 3 players: head to head with each B seat, as
        # Albastini's modes of more sides (won when A wins the deal, lost when that B
        # does), so equal players score 0.5
        for t in range(teams):
            if t != a_side:
                won = (True if result.winner == a_side else False if result.winner == t
                       else None)
                # where the points came from, A's side and this B side (what A loses most)
                cats = {key: (result.items[a_side][key], result.items[t][key])
                        for key in CAS_ITEMS}
                out["games"].append({"a_won": won, "vp": vp, "a_points": result.points[a_side],
                                     "items": cats})
        for seat in range(players):
            out["lat"][levels[seat]].extend(lat[seat])
    return out


#: The scoring items of a Cassino deal that the arena breaks A's and B's points into.
CAS_ITEMS = ("cards", "spades", "big_cassino", "little_cassino", "aces", "sweeps")


def print_items_cassino(games: list[dict[str, Any]]) -> None:
    """Per deal and head to head (each A side against each B side it met), the mean points
    of each scoring item for A and for B, and A's margin: where A gains and loses."""
    n = len(games) or 1
    parts = []
    for key in CAS_ITEMS:
        a = sum(g["items"][key][0] for g in games) / n
        b = sum(g["items"][key][1] for g in games) / n
        parts.append(f"{key} {a:.2f} / {b:.2f} ({a - b:+.2f})")
    print("points per deal, A / B (A - B): " + ", ".join(parts))


def play_pair_ass(
    index: int, a: str, b: str, mode: str, seed: int, options: dict[str, Any]
) -> dict[str, Any]:
    """Ass: play pack ``index`` once with A in each seat against B players; results and
    latencies, as :func:`play_pair`, and per A seat its points, the B seats' mean points and
    who reached the target (``stats``)."""
    players = ass_game.MODES[mode]["players"]
    trumps = options.get("_trumps")
    rng = random.Random(seed * 1_000_003 + index)
    deck_seed = rng.getrandbits(63)
    dealer = rng.randrange(players)
    out: dict[str, Any] = {"games": [], "stats": [], "lat": {a: [], b: []}}
    for a_seat in range(players):
        levels = [a if seat == a_seat else b for seat in range(players)]
        bots = [make_bot("ass", lv, rng.getrandbits(32), options.get(lv, {}))
                for lv in levels]
        deal = ass_game.new_deal(players, 1, dealer, seed=deck_seed, trumps=trumps)
        lat = run_deal(deal, bots, partial(ass_game.table_view, deal))
        result = deal.result()
        mine = result.banks[a_seat]
        # A against each B seat in turn (fewer banks after the deal wins): symmetric, so
        # equal players score 0.5 whatever the number of seats
        for s, theirs in enumerate(result.banks):
            if s != a_seat:
                out["games"].append({"a_won": None if mine == theirs else mine < theirs,
                                     "vp": 0})
        b_pts = [p for s, p in enumerate(result.points) if s != a_seat]
        others = [x for s, x in enumerate(result.banks) if s != a_seat]
        out["stats"].append({
            "a_points": result.points[a_seat], "b_points": sum(b_pts) / len(b_pts),
            "a_made": mine < 0, "b_made": sum(x < 0 for x in others) / len(others),
            "a_go": result.bets[a_seat] == "go",
        })
        for seat in range(players):
            out["lat"][levels[seat]].extend(lat[seat])
    return out


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (mid - half, mid + half)


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of ``values``."""
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def search_options(level: str, time_ms: float | None, iterations: int | None,
                   rollout: str | None = None,
                   root: dict[str, Any] | None = None) -> dict[str, Any]:
    """The options of an Albastini level: only the search player takes any (its own
    defaults unless given); ``root``: its root options (``root``, ``z``, ``weight``,
    ``margin``, from ``--root``, ``--root-z``, ``--root-weight``, ``--margin``)."""
    if DIFFICULTIES.get(level, level) != "search":
        return {}
    opts: dict[str, Any] = dict(root or {})
    if rollout:
        opts["rollout"] = rollout
    if time_ms is not None:
        opts["time_ms"] = time_ms
    if iterations:
        opts["iterations"] = iterations
    return opts


def root_options(args: argparse.Namespace) -> dict[str, Any]:
    """The Albastini search player's root options given on the command line."""
    given = {"root": args.root, "z": args.root_z, "weight": args.root_weight,
             "margin": args.margin, "infer": args.infer, "horizon": args.horizon,
             "play": args.play_alb, "explore": args.explore_alb,
             "paired": None if args.paired_alb is None else args.paired_alb == "on",
             "widen": None if args.widen_alb is None else args.widen_alb == "on",
             "replies": args.replies_alb,
             "deep": None if args.deep_alb is None else args.deep_alb == "on"}
    return {k: v for k, v in given.items() if v is not None}


def all_modes(args: argparse.Namespace) -> None:
    """``--all-modes``: A against each B level in every Albastini mode, one line each."""
    opponents = [b.strip() for b in (args.b or "normal,greedy").split(",")]
    if args.a in opponents:
        raise SystemExit("--a must differ from every --b level")
    options = {lv: search_options(lv, args.time_ms, args.iterations, args.rollout,
                                  root_options(args))
               for lv in (args.a, *opponents)}
    print(f"arena --all-modes: A={args.a} vs B={','.join(opponents)}, {args.deals} packs per "
          "mode and B (x 2 sides swapped, or A on each side scored against each B side), "
          f"time {args.time_ms or 'default'} ms, iterations {args.iterations or 'default'}, "
          f"workers {args.workers}, seed {args.seed}")
    jobs = [(mode, b, (i, args.a, b, mode, args.seed, options))
            for b in opponents for mode in MODES for i in range(args.deals)]
    t0 = time.perf_counter()
    if args.workers <= 1:
        results = [(mode, b, play_pair(*job)) for mode, b, job in jobs]
    else:
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            futures = [(mode, b, pool.submit(play_pair, *job)) for mode, b, job in jobs]
            results = [(mode, b, f.result()) for mode, b, f in futures]
    load = "unloaded" if args.workers <= 1 else f"under load, {args.workers} workers"
    print(f"{'mode':8} {'B':10} {'won/lost/tied':>14} {'rate':>6} {'95% Wilson':>15} {'n':>5}"
          f"  A latency p50 / p95 ({load})  more points")
    for b in opponents:
        for mode in MODES:
            wins = losses = ties = more = fewer = 0
            lat: list[float] = []
            for m, bb, r in results:
                if m != mode or bb != b:
                    continue
                for g in r["games"]:
                    if g["a_won"] is None:
                        ties += 1
                    elif g["a_won"]:
                        wins += 1
                    else:
                        losses += 1
                    a_more = g.get("a_more", g["a_won"])
                    more += a_more is True
                    fewer += a_more is False
                lat.extend(x * 1000 for x in r["lat"][args.a])
            n = wins + losses
            lo, hi = wilson(wins, n)
            rate = wins / n if n else float("nan")
            by_points = more / (more + fewer) if more + fewer else float("nan")
            print(f"{mode:8} {b:10} {f'{wins}/{losses}/{ties}':>14} {rate:6.3f} "
                  f"{f'{lo:.3f} .. {hi:.3f}':>15} {n:5d}  {pct(lat, 0.5):6.1f} / "
                  f"{pct(lat, 0.95):6.1f} ms  {by_points:6.3f}")
    print(f"elapsed {time.perf_counter() - t0:.1f} s")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--a", default="search", help="level or difficulty of side A")
    parser.add_argument("--b", default=None,
                        help="level or difficulty of side B (default greedy; --all-modes: "
                        "comma-separated, default normal,greedy)")
    parser.add_argument("--game", default="albastini",
                        choices=["albastini", "twentyeight", "cassino", "ass"])
    parser.add_argument("--trumps", type=int, default=None, help="ass: trump variant 1-5")
    parser.add_argument("--mode", default=None, help="table mode (default: 2; 28: 4 pairs)")
    parser.add_argument("--deals", type=int, default=50, help="packs (each played twice)")
    parser.add_argument("--time-ms", type=float, default=None,
                        help="search time per decision (default: albastini the player's own, "
                        "a fixed number of samples capped at 300 ms; 28: 200; cassino: 150)")
    parser.add_argument("--iterations", type=int, default=None, help="search samples instead")
    parser.add_argument("--rollout", default=None,
                        choices=["policy", "expert", "greedy", "rival", "team", "side"],
                        help="albastini search: its rollout policy (default expert; rival: "
                             "heads-up the opponent plays the expert's rules; team: a follower "
                             "counts its partner still to play; side: team for hard's side "
                             "only)")
    parser.add_argument("--root", default=None,
                        choices=["auto", "search", "hybrid", "prior", "leaf"],
                        help="albastini search: how the root card is chosen before the "
                             "endgame (default auto: hybrid heads-up, else search; search: "
                             "the best sampled value; hybrid: the "
                             "expert's card unless another beats it by --root-z standard "
                             "errors on the same deals; prior: values plus --root-weight "
                             "times the expert's values / 120; leaf: hybrid from the card "
                             "of the expert's values with each lead priced on sampled "
                             "hands of the opponent, heads-up)")
    parser.add_argument("--root-z", type=float, default=None,
                        help="albastini search, --root hybrid: the margin (default 1.0)")
    parser.add_argument("--root-weight", type=float, default=None,
                        help="albastini search, --root prior: the weight (default 1.0)")
    parser.add_argument("--infer", type=int, default=None, choices=[0, 1, 2],
                        help="albastini search, heads-up: 1 samples the hidden cards weighted "
                             "by what the opponent's bid and follows reveal, 2 also by whether "
                             "the rules would have led the card it just led (default 0)")
    parser.add_argument("--margin", type=float, default=None,
                        help="albastini search: weight of the card-point margin / 120 "
                             "added to a rollout's score (default: 4 with three or "
                             "more players each on their own, else 0; 0 is hard before "
                             "its twelfth round there)")
    parser.add_argument("--horizon", type=int, default=None,
                        help="albastini search, two sides: stop each rollout this many rounds "
                             "on and score it in card points with the hands' worth (default "
                             "0: play the deal out)")
    parser.add_argument("--play-alb", default=None, choices=["ismcts", "pimc"],
                        help="albastini search, heads-up while there is a stock: how the "
                             "cards are scored (default the player's: pimc; ismcts: a tree of "
                             "the public plays over the sampled deals)")
    parser.add_argument("--explore-alb", type=float, default=None,
                        help="albastini search, --play-alb ismcts: the UCB1 constant "
                             "(default 1.0)")
    parser.add_argument("--paired-alb", default=None, choices=["on", "off"],
                        help="albastini search, --play-alb ismcts: each sampled deal through "
                             "every card (on, the default; off: the root chosen by UCB1 too, "
                             "--iterations times the cards' number of iterations)")
    parser.add_argument("--widen-alb", default=None, choices=["on", "off"],
                        help="albastini search, --play-alb ismcts: nodes open their plays one "
                             "by one, the rollout policy's first (on, the default), or all "
                             "of them at random (off)")
    parser.add_argument("--replies-alb", default=None, choices=["tree", "policy"],
                        help="albastini search, --play-alb ismcts: the opponent's plays "
                             "searched in the tree (tree, the default) or the rollout "
                             "policy's in each sampled deal (policy)")
    parser.add_argument("--deep-alb", default=None, choices=["on", "off"],
                        help="albastini search, more than two sides: play the expert's exact "
                             "endgame once the stock is out (on; the default with 3 and 4 "
                             "solo) or roll it out (off; the default with 5, 6 solo, 6 pairs)")
    parser.add_argument("--ass-hard", default=None, metavar="NAME=V,...",
                        help="ass: attributes set on the search player (hard), e.g. "
                             "careful=1 (its variants, see SearchPlayer)")
    parser.add_argument("--play28", default=None, choices=["ismcts", "pimc"],
                        help="28 hard: how its play is searched (default the player's: "
                             "pimc)")
    parser.add_argument("--explore28", type=float, default=None,
                        help="28 hard, ismcts: the UCB1 exploration constant (default 0.7)")
    parser.add_argument("--exact28", type=int, default=None,
                        help="twentyeight hard: tricks left at which its play is solved "
                             "exactly in each sampled world (0: never; default: the player's)")
    parser.add_argument("--play-cas", default=None, choices=["ismcts", "pimc"],
                        help="cassino: how hard searches (default its own: ismcts heads-up, "
                             "else pimc)")
    parser.add_argument("--explore-cas", type=float, default=None,
                        help="cassino: the ISMCTS exploration constant")
    parser.add_argument("--left-cas", default=None, choices=["on", "off"],
                        help="cassino: value the position left at a rollout's horizon "
                             "(default hard's own: on with 3 or 4 players, off heads-up)")
    parser.add_argument("--paired-cas", default=None, choices=["on", "off"],
                        help="cassino, ismcts: each world through every root action (on)")
    parser.add_argument("--rounds-cas", type=int, default=None,
                        help="cassino: rounds hard's rollouts play after this one (default "
                             "hard's own: 0 with 3 or 4 players, 1 heads-up)")
    parser.add_argument("--others-cas", default=None,
                        choices=["greedy", "normal", "replies", "every"],
                        help="cassino: how the other seats play in hard's rollouts, PIMC "
                             "or ismcts (default hard's own: replies with 3 or 4 players, i.e. "
                             "normal's choice until hard's next turn, then greedy; every: "
                             "every seat, hard's too, normal's choice)")
    parser.add_argument("--partner-cas", default=None, choices=["normal", "greedy"],
                        help="cassino, 4 pairs, --others-cas normal or replies: how the "
                        "partner plays in hard's rollouts (normal's choice, default; greedy: "
                        "as hard's own seat, seeing the hands)")
    parser.add_argument("--trails-cas", action="store_true",
                        help="cassino: hard reads a trail as holding no card that would have "
                        "captured then (dealt such cards last in its sampled worlds)")
    parser.add_argument("--read-cas", default=None, metavar="BETA[,DRAWS]",
                        help="cassino: hard weighs its worlds by the other seats' plays this "
                        "round (a softmax of normal's score, sharpness BETA; DRAWS worlds "
                        "drawn for each one kept, default 8)")
    parser.add_argument("--exact-cas", default=None, choices=["on", "off"],
                        help="cassino: hard plays the end of the deal exactly once the pack "
                        "is dealt (default hard's own: heads-up only; on: with more players "
                        "too, the last 8 cards with 3 players, 7 in 4 pairs)")
    parser.add_argument("--end-cas", default=None, choices=["win", "margin"],
                        help="cassino: a deal played out scored by who won (default) or margin")
    parser.add_argument("--value-cas", default=None, choices=["model", "worth"],
                        help="cassino heads-up: a rollout stopped before the deal's end valued "
                        "by the fitted model of how deals end (model) or by the worth of the "
                        "cards captured (worth); default hard's own")
    parser.add_argument("--honour28", action="store_true",
                        help="twentyeight hard: no free bid without a Jack or a Nine")
    parser.add_argument("--weakest28", action="store_true",
                        help="twentyeight hard: lay only the weakest card of a suit face down")
    parser.add_argument("--modeltrump28", action="store_true",
                        help="twentyeight hard: lay the auction model's trump card, no search")
    parser.add_argument("--rollout28", default=None,
                        choices=[*sorted(search28.ROLLOUTS), "gated", "gatedopp",
                                 *AUCTION_ROLLOUTS_28],
                        help="twentyeight hard: its rollout policy (default the player's: "
                             "fair; careful: the expert's trick rules; gated: careful for "
                             "the seats whose plays in the deal it explains better than "
                             "fair, fair for the others; gatedopp: the other side's seats "
                             "only; auction: careful for the auction's decisions only, the "
                             "play fair; auctionmin / auctionmean: the auction's deals "
                             "played out by both, scored by the lower / the mean)")
    parser.add_argument("--reads28", type=float, default=None, metavar="MISS",
                        help="twentyeight hard: keep a sampled world with MISS to the power of the "
                             "opponents' plays the careful rule would not have made "
                             "(default the player's: 0, off)")
    parser.add_argument("--edge28", default=None, metavar="BID,DEF",
                        help="twentyeight hard: card points by which its speech and trump "
                             "card count its side as playing better than the rollouts, as the "
                             "bidding side and as the defenders (default the player's)")
    parser.add_argument("--defence28", default=None, choices=list(search28.DEFENCE_ROLLOUTS),
                        help="twentyeight hard: how its play's rollouts are played out when "
                             "it defends (default the player's: fair; bidder: the bidding "
                             "side by the careful rule, the defenders fair; all: every seat "
                             "by the careful rule)")
    parser.add_argument("--hidden28", default=None, choices=["search", "fair"],
                        help="twentyeight hard: who decides its leads and follows as a "
                             "defender while the trump is face down (default the player's: "
                             "search; fair: the rollout policy's card)")
    parser.add_argument("--hiddenworlds28", type=float, default=None, metavar="X",
                        help="twentyeight hard: X times the worlds (or time) for its "
                             "decisions as a defender while the trump is face down (default 1)")
    parser.add_argument("--weakfd28", type=float, default=None, metavar="W",
                        help="twentyeight hard: weigh by W a sampled world whose bidder laid "
                             "face down a card stronger than another of its suit among its "
                             "first four (default 1: not weighed)")
    parser.add_argument("--partner28", type=float, default=None, metavar="MISS",
                        help="twentyeight hard: as a defender, keep a sampled world with MISS "
                             "to the power of its partner's plays the careful rule would not "
                             "have made (default 0: not read)")
    parser.add_argument("--readmodel28", default=None, choices=list(search28.READ_MODELS),
                        help="twentyeight hard: the model --reads28 and --partner28 read the "
                             "plays by (default the player's: careful; fair: its own "
                             "rollout policy; either: a play either makes is no miss); with "
                             "both set a defender reads the opponents and its partner")
    parser.add_argument("--readwhen28", default=None, choices=list(search28.READ_WHEN),
                        help="twentyeight hard: when --reads28 and --partner28 read (default "
                             "the player's: always; declaring: only while its side holds the "
                             "contract, the defenders' plays)")
    parser.add_argument("--classify28", type=int, default=None, metavar="N",
                        help="twentyeight 4 pairs: print why each pack went as it did (who "
                             "bid with which cards, made or not) and N examples of the "
                             "category that cost A most")
    parser.add_argument("--dump", default=None, metavar="FILE",
                        help="write each pack's deals (results, 28: the logs) to FILE as JSON")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--all-modes", action="store_true",
                        help="albastini: A against each --b level in every mode (a table)")
    args = parser.parse_args(argv)
    if args.all_modes:
        all_modes(args)
        return
    if args.b is None:
        args.b = "greedy"
    if args.a == args.b:
        parser.error("--a and --b must differ (latencies are kept per level)")

    twenty_eight = args.game == "twentyeight"
    cassino = args.game == "cassino"
    is_ass = args.game == "ass"
    modes = (list(t28.MODES) if twenty_eight else list(cas.MODES) if cassino
             else list(ass_game.MODES) if is_ass else list(MODES))
    if args.mode is None:
        args.mode = "4 pairs" if twenty_eight else "4" if is_ass else "2"
    if args.mode not in modes:
        parser.error(f"--mode must be one of {modes}")
    if args.time_ms is None and (twenty_eight or cassino or is_ass):
        args.time_ms = 200 if twenty_eight else 150
    options: dict[str, dict[str, Any]] = {}
    for lv in (args.a, args.b):
        if (twenty_eight or cassino or is_ass) and lv in ("hard", "search"):
            opts28: dict[str, Any] = {"time_ms": args.time_ms}
            if args.iterations:
                opts28["iterations"] = args.iterations
            if twenty_eight and args.play28:
                opts28["play"] = args.play28
            if twenty_eight and args.explore28 is not None:
                opts28["explore"] = args.explore28
            if twenty_eight and args.exact28 is not None:
                opts28["exact"] = args.exact28
            if cassino and args.play_cas:
                opts28["play_search"] = args.play_cas
            if is_ass and args.ass_hard:
                opts28["tweaks"] = {k: float(v) for k, v in
                                    (kv.split("=") for kv in args.ass_hard.split(","))}
            if cassino and args.explore_cas is not None:
                opts28["explore"] = args.explore_cas
            if cassino and args.left_cas:
                opts28["horizon_value"] = args.left_cas == "on"
            if cassino and args.paired_cas:
                opts28["paired"] = args.paired_cas == "on"
            if cassino and args.rounds_cas is not None:
                opts28["horizon_rounds"] = args.rounds_cas
            if cassino and args.end_cas:
                opts28["end_by_win"] = args.end_cas == "win"
            if cassino and args.others_cas:
                opts28["others_policy"] = args.others_cas
            if cassino and args.value_cas:
                opts28["horizon_model"] = args.value_cas == "model"
            if cassino and args.partner_cas:
                opts28["partner_policy"] = args.partner_cas
            if cassino and args.trails_cas:
                opts28["read_trails"] = True
            if cassino and args.exact_cas:
                opts28["exact_end"] = args.exact_cas == "on"
            if cassino and args.read_cas:
                beta, _, draws = args.read_cas.partition(",")
                opts28["read_beta"] = float(beta)
                opts28["read_draws"] = int(draws or 8)
            if twenty_eight and args.honour28:
                opts28["honour"] = True
            if twenty_eight and args.weakest28:
                opts28["weakest"] = True
            if twenty_eight and args.modeltrump28:
                opts28["model_trump"] = True
            if twenty_eight and args.rollout28:
                opts28["rollout"] = args.rollout28
            if twenty_eight and args.edge28 is not None:
                bid_edge, _, def_edge = args.edge28.partition(",")
                opts28["edge"] = (float(bid_edge), float(def_edge or bid_edge))
            if twenty_eight:
                opts28.update({attr: getattr(args, arg) for arg, attr in ATTRS_28.items()
                               if getattr(args, arg) is not None})
            options[lv] = opts28
        elif not twenty_eight and DIFFICULTIES.get(lv, lv) == "search":
            # the player's own budget (a fixed number of samples, a time cap) unless given
            options[lv] = search_options(lv, args.time_ms, args.iterations, args.rollout,
                                         root_options(args))

    if is_ass:
        options["_trumps"] = args.trumps
    game = ("twentyeight, " if twenty_eight else "cassino, " if cassino
            else "ass, " if is_ass else "")
    times = "x 2 (sides swapped)"
    if (twenty_eight and t28.MODES[args.mode]["team_size"] == 1) or (
        cassino and args.mode == "3"
    ):
        times = "x 3 (A in each seat)"
    if is_ass:
        times = f"x {ass_game.MODES[args.mode]['players']} (A in each seat)"
    if not game and MODES[args.mode][0] // MODES[args.mode][1] > 2:
        sides = MODES[args.mode][0] // MODES[args.mode][1]
        times = f"x {sides} (A on each side, head to head with each B side)"
    print(
        f"arena: {game}A={args.a} vs B={args.b}, mode {args.mode}, {args.deals} packs {times}, "
        f"time {args.time_ms or 'default'} ms, iterations {args.iterations or 'default'}, "
        f"workers {args.workers}, seed {args.seed}"
        + (f", play {args.play28}" if twenty_eight and args.play28 else "")
        + (f", explore {args.explore28}" if twenty_eight and args.explore28 is not None
           else "")
        + (f", exact {args.exact28}" if twenty_eight and args.exact28 is not None else "")
        + (f", play {args.play_cas}" if cassino and args.play_cas else "")
        + (f", explore {args.explore_cas}" if cassino and args.explore_cas is not None
           else "")
        + (f", left {args.left_cas}" if cassino and args.left_cas else "")
        + (f", paired {args.paired_cas}" if cassino and args.paired_cas else "")
        + (f", rounds {args.rounds_cas}" if cassino and args.rounds_cas is not None else "")
        + (f", end by {args.end_cas}" if cassino and args.end_cas else "")
        + (f", others {args.others_cas}" if cassino and args.others_cas else "")
        + (f", partner {args.partner_cas}" if cassino and args.partner_cas else "")
        + (", trails read" if cassino and args.trails_cas else "")
        + (f", plays read {args.read_cas}" if cassino and args.read_cas else "")
        + (f", exact end {args.exact_cas}" if cassino and args.exact_cas else "")
        + (", no free bid without a Jack or a Nine" if twenty_eight and args.honour28 else "")
        + (", trump card: the weakest of a suit" if twenty_eight and args.weakest28 else "")
        + (", trump card: the model's" if twenty_eight and args.modeltrump28 else "")
        + (f", rollout {args.rollout28}" if twenty_eight and args.rollout28 else "")
        + (f", reads {args.reads28}" if twenty_eight and args.reads28 is not None else "")
        + (f", edge {args.edge28}" if twenty_eight and args.edge28 is not None else "")
        + (f", defence {args.defence28}" if twenty_eight and args.defence28 else "")
        + (f", hidden {args.hidden28}" if twenty_eight and args.hidden28 else "")
        + (f", hidden worlds x{args.hiddenworlds28}" if twenty_eight and args.hiddenworlds28
           else "")
        + (f", weaker face-down card {args.weakfd28}" if twenty_eight
           and args.weakfd28 is not None else "")
        + (f", partner read {args.partner28}" if twenty_eight and args.partner28 else "")
        + (f", read by {args.readmodel28}" if twenty_eight and args.readmodel28 else "")
        + (f", read when {args.readwhen28}" if twenty_eight and args.readwhen28 else "")
        + "".join(f", {k} {v}" for k, v in root_options(args).items() if not game)
        + (f", hard {args.ass_hard}" if is_ass and args.ass_hard else "")
    )
    run = (play_pair_28 if twenty_eight else play_pair_cassino if cassino
           else play_pair_ass if is_ass else play_pair)
    t0 = time.perf_counter()
    results: list[dict[str, Any]] = []
    jobs = [(i, args.a, args.b, args.mode, args.seed, options) for i in range(args.deals)]
    if args.workers <= 1:
        results = [run(*job) for job in jobs]
    else:
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            futures = [pool.submit(run, *job) for job in jobs]
            results = [f.result() for f in futures]
    elapsed = time.perf_counter() - t0

    wins = losses = ties = vp_a = vp_b = 0
    lat: dict[str, list[float]] = {args.a: [], args.b: []}
    for r in results:
        for g in r["games"]:
            if g["a_won"] is None:
                ties += 1
            elif g["a_won"]:
                wins += 1
                vp_a += g["vp"]
            else:
                losses += 1
                vp_b += g["vp"]
        for lv, xs in r["lat"].items():
            lat[lv].extend(xs)
    if is_ass:
        games = [g for r in results for g in r["stats"]]
        n = len(games) or 1
        print(f"mean points per deal: A {sum(g['a_points'] for g in games) / n:.1f}, "
              f"B {sum(g['b_points'] for g in games) / n:.1f}; target reached: "
              f"A {sum(g['a_made'] for g in games) / n:.3f}, "
              f"B {sum(g['b_made'] for g in games) / n:.3f}; A said go "
              f"{sum(g['a_go'] for g in games) / n:.3f}")
    if twenty_eight:
        games = [g for r in results for g in r["games"] if g["a_bid"] is not None]
        for who, mine in (("A", True), ("B", False)):
            bid = [g for g in games if g["a_bid"] == mine]
            made = sum(g["made"] for g in bid)
            mean = sum(g["contract"] for g in bid) / len(bid) if bid else float("nan")
            print(f"{who} bid {len(bid)} deals (mean contract {mean:.1f}), made "
                  f"{made / len(bid) if bid else float('nan'):.3f}")
    if twenty_eight and args.classify28 is not None and t28.MODES[args.mode]["team_size"] > 1:
        classify_report_28(results, args.classify28)
    if cassino:
        print_items_cassino([g for r in results for g in r["games"]])
    if args.dump:
        # every pack's deals as JSON, to look at more examples without playing them again
        Path(args.dump).write_text(json.dumps([r["games"] for r in results]))
    decided = wins + losses
    rate = wins / decided if decided else float("nan")
    lo, hi = wilson(wins, decided)
    print(f"deals: {wins + losses + ties}  A won {wins}, lost {losses}, tied {ties}")
    kind = "game" if twenty_eight else "winners' deal" if cassino else "victory"
    if not is_ass:
        print(f"{kind} points: A {vp_a}, B {vp_b}")
    print(f"A's win rate of decided deals: {rate:.3f}  (95% Wilson CI {lo:.3f} .. {hi:.3f})")
    load = "unloaded" if args.workers <= 1 else f"under load, {args.workers} workers"
    for lv, xs in lat.items():
        ms = [x * 1000 for x in xs]
        print(
            f"latency {lv} ({load}, {len(ms)} decisions with a choice): "
            f"p50 {pct(ms, 0.5):.1f} ms, p95 {pct(ms, 0.95):.1f} ms, "
            f"max {max(ms, default=float('nan')):.1f} ms"
        )
    print(f"elapsed {elapsed:.1f} s")
    print(f"win rate: {rate:.3f}")


if __name__ == "__main__":
    main()
