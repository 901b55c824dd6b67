"""How fast the double-dummy solver and the deal sampler run, on one core.

    .venv/bin/python benchmarks/bench_solver.py [--deals N] [--seed S] [--samples K]

(a) ``--deals`` seeded deals (default 200) spread evenly over the nine standard contracts (the
seven suits, doubles, follow-me), each solved from the first lead with a fresh table: the exact
value, the threshold query "can the bidders take 30?", and the threshold query at the deal's bid
(drawn from 30..36). Median, 90th percentile and maximum of the time and of the positions visited.
(b) The deal sampler: worlds drawn per second from mid-hand views. (c) Start-up: a fresh process
compiling the kernel into an empty cache, then a fresh process loading it from the warm cache,
each timed from process start to its first answer.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_engine import machine
from texas42 import Hand, Phase, Rules
from texas42.core.actions import Declare
from texas42.core.view import View
from texas42.search.sampler import DealSampler
from texas42.search.solver import PlayPosition, Solver

CONTRACTS = ("blanks", "ones", "twos", "threes", "fours", "fives", "sixes", "doubles", "follow-me")


def deals(count: int, seed: int) -> list[tuple[PlayPosition, int]]:
    """Positions at the first lead, North having bid and named the contract, with the bid."""
    rules = Rules()
    rng = random.Random(seed)
    found = []
    for k in range(count):
        hand = Hand.random(rules, 3, rng)
        bid = rng.randrange(30, 37)
        hand.apply(hand.parse_action(str(bid)))
        while hand.phase == Phase.AUCTION:
            hand.apply(hand.parse_action("pass"))
        hand.apply(Declare(CONTRACTS[k % len(CONTRACTS)]))
        found.append((PlayPosition.from_hand(hand), bid))
    return found


def timed(
    solver: Solver,
    items: list[tuple[PlayPosition, int]],
    query: Callable[[PlayPosition, int], object],
) -> tuple[list[float], list[int]]:
    times, nodes = [], []
    for position, bid in items:
        solver.new_table()
        before = solver.nodes
        start = time.perf_counter()
        query(position, bid)
        times.append(time.perf_counter() - start)
        nodes.append(solver.nodes - before)
    return times, nodes


def quantiles(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return statistics.median(ordered), p90, ordered[-1]


def mid_hand_views(count: int, seed: int, face_down: bool) -> list[View]:
    """Views of random seats 4 to 13 plays into random standard hands, piles face up or down
    (face down: a bid of 2 marks or more)."""
    rules = Rules()
    rng = random.Random(seed)
    views: list[View] = []
    while len(views) < count:
        hand = Hand.random(rules, rng.randrange(4), rng)
        while hand.phase != Phase.PLAY and hand.result is None:
            hand.apply(rng.choice(hand.legal_actions()))
        for _ in range(rng.randrange(4, 14)):
            if hand.result is not None:
                break
            hand.apply(rng.choice(hand.legal_actions()))
        if hand.result is None and hand.tricks and hand.tricks_hidden == face_down:
            views.append(hand.view(rng.randrange(4)))
    return views


FIRST_SOLVE = """
import time
start = time.perf_counter()
from texas42 import Hand, Rules
from texas42.search.solver import PlayPosition, Solver
import random
hand = Hand.random(Rules(), 3, random.Random(1))
hand.apply(hand.parse_action("30"))
for _ in range(3):
    hand.apply(hand.parse_action("pass"))
hand.apply(hand.parse_action("sixes"))
Solver().value(PlayPosition.from_hand(hand))
print(time.perf_counter() - start)
"""


def first_solve(cache_dir: str) -> float:
    """Seconds from a fresh interpreter's start to its first exact solve (imports included)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", FIRST_SOLVE], env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="deals to solve (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument(
        "--samples",
        type=int,
        default=20_000,
        help="worlds drawn for the sampler figure (default 20000)",
    )
    args = parser.parse_args(argv)
    if args.deals < 1 or args.samples < 1:
        parser.error("--deals and --samples must be positive")

    print("texas42 solver benchmark (one process, one core)")
    for line in machine():
        print(f"  {line}")
    print(f"  command: {' '.join([Path(sys.argv[0]).name, *sys.argv[1:]])}")
    print()
    items = deals(args.deals, args.seed)
    solver = Solver()
    solver.value(items[0][0])  # compile or load the kernel before timing
    queries: tuple[tuple[str, Callable[[PlayPosition, int], object]], ...] = (
        ("exact value from the first lead", lambda p, bid: solver.value(p)),
        ("threshold: bidders reach 30", lambda p, bid: solver.reaches(p, 30)),
        ("threshold: bidders reach their bid", solver.reaches),
    )
    print(f"(a) {len(items)} deals over {len(CONTRACTS)} contracts, a fresh table for each solve")
    print("| query | median ms | p90 ms | max ms | median nodes | p90 nodes | max nodes |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, query in queries:
        times, nodes = timed(solver, items, query)
        t50, t90, tmax = quantiles(times)
        n50, n90, nmax = quantiles([float(n) for n in nodes])
        print(
            f"| {name} | {t50 * 1e3:.2f} | {t90 * 1e3:.2f} | {tmax * 1e3:.2f} "
            f"| {n50:,.0f} | {n90:,.0f} | {nmax:,.0f} |",
            flush=True,
        )
    print()
    rng = random.Random(args.seed)
    print("(b) deal sampler, standard rules, views of random seats 4 to 13 plays into a hand")
    print("| views | worlds drawn | worlds/s |")
    print("|---|---:|---:|")
    samplers = [DealSampler(v) for v in mid_hand_views(50, args.seed, face_down=False)]
    per = max(1, args.samples // len(samplers))
    start = time.perf_counter()
    for sampler in samplers:
        sampler.samples(per, rng)
    took = time.perf_counter() - start
    print(
        f"| 50, piles face up: `samples()`, exact | {per * len(samplers):,} "
        f"| {per * len(samplers) / took:,.0f} |"
    )
    samplers = [DealSampler(v) for v in mid_hand_views(20, args.seed, face_down=True)]
    start = time.perf_counter()
    for sampler in samplers:
        sampler.weighted(200, rng, lambda world: 1.0)
    took = time.perf_counter() - start
    print(
        f"| 20, piles face down: `weighted()`, 200 each | {200 * len(samplers):,} "
        f"| {200 * len(samplers) / took:,.0f} |"
    )
    print()
    print("(c) start-up, a fresh process to its first exact solve (imports included)")
    with tempfile.TemporaryDirectory() as cache:
        cold = first_solve(cache)
        warm = min(first_solve(cache) for _ in range(3))
    print(f"| cold: compiling into an empty cache | {cold:.2f} s |")
    print(f"| warm: loading the cached kernel (best of 3) | {warm:.2f} s |")


if __name__ == "__main__":
    main()
