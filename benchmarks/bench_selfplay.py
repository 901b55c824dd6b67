"""What a self-play play-out costs, and how its play compares with the expert's.

    .venv/bin/python benchmarks/bench_selfplay.py [--deals N] [--seed S] [--rules RULES]
        [--playout SPEC ...]

Deals ``--deals`` random hands (default 4, standard rules) and plays every play-out the
self-play data holds for them (`texas42.services.selfplay.play_out`: each seat, each contract
it could name, every other seat passing, played to the last trick) once with each ``--playout``
bot at all four seats (default: ``expert``, then the self-play default,
`texas42.services.selfplay.play.DEFAULT_PLAYOUT`). Prints, per bot, the seconds a play-out
takes (mean and the slowest), and over the same play-outs the bidder's mean points and make
rate; and, bot by bot against the first, how often both gave the same verdict (made or set) and
the mean points difference.
The same deals and contracts for every bot, so the differences are the bots'.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_engine import machine
from texas42 import Hand, Rules
from texas42.services.protocol import make_bot
from texas42.services.selfplay import contract_calls, play_out
from texas42.services.selfplay.play import DEFAULT_PLAYOUT


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--playout", action="append")
    args = parser.parse_args()
    rules = Rules.parse(args.rules)
    specs = args.playout or ["expert", DEFAULT_PLAYOUT]
    rng = random.Random(args.seed)
    hands = [Hand.random(rules, rng.randrange(4), rng) for _ in range(args.deals)]
    jobs = [
        (hand, seat, call, contract)
        for hand in hands
        for seat in range(4)
        for call, contract in contract_calls(rules, hand, seat)
    ]
    print("\n".join(machine()))
    print(f"{args.deals} deals, {len(jobs)} play-outs, rules {rules}")
    results: dict[str, list[tuple[int, bool]]] = {}
    for spec in specs:
        out = []
        times = []
        for k, (hand, seat, call, contract) in enumerate(jobs):
            players = [make_bot(spec, 1000 * k + s) for s in range(4)]
            began = time.perf_counter()
            _declare, made, points, _tricks = play_out(rules, hand, seat, call, contract, players)
            times.append(time.perf_counter() - began)
            out.append((points[hand.layout.side_of[seat]], made))
        results[spec] = out
        print(
            f"{spec}: {statistics.mean(times):.2f} s a play-out (slowest {max(times):.2f} s); "
            f"bidder's points {statistics.mean(p for p, _ in out):.2f}, "
            f"made {sum(m for _, m in out) / len(out):.1%}"
        )
    first = results[specs[0]]
    for spec in specs[1:]:
        other = results[spec]
        same = sum(a[1] == b[1] for a, b in zip(first, other, strict=True)) / len(first)
        diff = statistics.mean(b[0] - a[0] for a, b in zip(first, other, strict=True))
        print(f"{spec} against {specs[0]}: same verdict {same:.1%}, points {diff:+.2f}")


if __name__ == "__main__":
    main()
