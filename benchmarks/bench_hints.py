"""How long a hint at the table takes: every turn of one seat, by phase.

    .venv/bin/python benchmarks/bench_hints.py [--games N] [--samples K] [--seed S] [--rules RULES]

Plays ``--games`` whole games (default 4) with ``rules`` bots at every seat and, at every turn of
North that has a choice, asks for the hint the web table shows (`texas42.players.hints.advise`:
the hints and the expert's reason, with the server's ``hint_samples``, 24, or ``--samples``),
timing it on one core. Prints the
median, 95th percentile and maximum per phase (calls, contracts, plays). The web table runs the
same function in its worker process, so this is the hint's time there less the message's trip.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_bots import percentile
from bench_engine import machine
from texas42 import Game, Rules
from texas42.core.progress import Phase
from texas42.faces.server.room import ServerSettings
from texas42.players import make_bot
from texas42.players.hints import advise

PHASES = {Phase.AUCTION: "call", Phase.DECLARE: "declare", Phase.DISCARD: "discard"}


def time_hints(games: int, samples: int, seed: int, rules: Rules) -> dict[str, list[float]]:
    """Seconds per hint of North's turns, by phase (and all of them)."""
    times: dict[str, list[float]] = defaultdict(list)
    bot = make_bot("rules")
    for g in range(games):
        game = Game(rules, seed + g)
        while not game.is_over():
            seat = game.seat_to_act()
            assert seat is not None
            view = game.view(seat)
            if seat == 0 and len(view.legal) > 1:
                began = time.perf_counter()
                advise(view, samples=samples, seed=seed + len(times["all hints"]))
                took = time.perf_counter() - began
                times[PHASES.get(view.phase, "play")].append(took)
                times["all hints"].append(took)
            game.apply(bot.choose(view))
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="whole games to play (default 4)")
    parser.add_argument(
        "--samples", type=int, default=ServerSettings.hint_samples, help="deals a hint draws"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the games (default 1)")
    parser.add_argument("--rules", default="standard", help="rules or preset (default standard)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.samples < 1:
        parser.error("--games and --samples must be positive")
    rules = Rules.parse(args.rules)
    print("texas42 hint benchmark (one process, one core)")
    for line in machine():
        print(f"  {line}")
    print(f"  command: {' '.join([Path(sys.argv[0]).name, *sys.argv[1:]])}")
    print()
    make_bot("expert")  # load the solver before any clock starts
    times = time_hints(args.games, args.samples, args.seed, rules)
    print(f"North's hints, {args.samples} deals each, {args.games} games, {rules}")
    print("| hint | count | median ms | p95 ms | max ms |")
    print("|---|---:|---:|---:|---:|")
    for key in ("call", "discard", "declare", "play", "all hints"):
        if key in times:
            values = times[key]
            print(
                f"| {key} | {len(values)} | {statistics.median(values) * 1e3:.1f} "
                f"| {percentile(values, 0.95) * 1e3:.1f} | {max(values) * 1e3:.1f} |"
            )


if __name__ == "__main__":
    main()
