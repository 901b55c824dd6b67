"""How long the learned bidder takes per call decision, and how big its model file is.

    .venv/bin/python benchmarks/bench_bidder.py [--model FILE] [--positions N] [--seed S]
        [--rules RULES]

Deals ``--positions`` auctions (default 300, standard rules or ``--rules``) and plays each one
through with the learned bidder at every seat, timing every call and declaration it makes
(`texas42.players.learned.LearnedBidder`, the part of ``pimc:bidding=learned`` that decides
the auction). Each position is a fresh deal, so the feature lookups are mostly cache misses,
as in play. Prints the median, 95th percentile and maximum per decision, in wall-clock time
and in the process's CPU time (on a shared machine the second is what the bidder costs; the
first adds the waits for a core), the load average, and the model file's size. The target (issue 19): under 5 ms per call decision, under 5 MB shipped.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_bots import percentile
from bench_engine import machine
from texas42 import Hand, Rules
from texas42.core.progress import Phase
from texas42.players.learned import LearnedBidder, load_model
from texas42.services.bidder import shipped_path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None, help="a model file (default: the shipped one)")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="standard")
    args = parser.parse_args()
    path = args.model or shipped_path()
    if path is None:
        sys.exit("no model: pass --model FILE (texas42 bidder train writes one)")
    model = load_model(path)
    bidder = LearnedBidder(model)
    rules = Rules.parse(args.rules)
    rng = random.Random(args.seed)
    calls: list[tuple[float, float]] = []
    declares: list[tuple[float, float]] = []
    warm = Hand.random(rules, 0, random.Random(0))
    bidder.call(warm.view(warm.seat_to_act() or 0))
    for k in range(args.positions):
        hand = Hand.random(rules, k % rules.seats, rng)
        while hand.phase in (Phase.AUCTION, Phase.DECLARE):
            seat = hand.seat_to_act()
            assert seat is not None
            view = hand.view(seat)
            began, cpu = time.perf_counter(), time.process_time()
            action = bidder.call(view) if view.phase == Phase.AUCTION else bidder.declare(view)
            took = (time.perf_counter() - began, time.process_time() - cpu)
            (calls if view.phase == Phase.AUCTION else declares).append(took)
            if action is None:
                break
            hand.apply(action)
    for line in machine():
        print(line)
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"model {path}: {os.path.getsize(path):,} bytes")
    for name, times in (("call", calls), ("declare", declares)):
        for k, clock in enumerate(("wall", "cpu")):
            ms = [t[k] * 1000 for t in times]
            if ms:
                print(
                    f"{name:8s} {clock:4s} {len(ms):5d} decisions  p50 "
                    f"{percentile(ms, 0.5):6.2f} ms  p95 {percentile(ms, 0.95):6.2f} ms  "
                    f"max {max(ms):6.2f} ms"
                )


if __name__ == "__main__":
    main()
