"""How long the bots take to decide, by phase and trick, and how many games a minute they play.

    .venv/bin/python benchmarks/bench_bots.py [--bot SPEC] [--opponent SPEC] [--games N] [--seed S]
        [--rules RULES]

Plays ``--games`` whole games (default 6, standard rules or ``--rules``, any table size) with
``--bot`` (default ``expert``) in the even sides' seats (North-South at four seats; as the arena
seats them elsewhere) against ``--opponent`` (default ``rules``) in the others, on one core, and
times every decision ``--bot`` takes: the calls, the declarations, and the plays of each trick.
Prints the median, 95th percentile and maximum per phase and trick, and the games per minute of
the whole run. Then times single decisions of the instant bots (``easy``, ``medium``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_engine import machine
from texas42 import Game, Rules
from texas42.core.progress import Phase
from texas42.players import make_bot


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def play_games(
    bot: str, opponent: str, games: int, seed: int, rules: Rules
) -> tuple[dict[str, list[float]], float, int]:
    """Decision times of ``bot`` by phase and trick, the run's seconds and the hands played."""
    times: dict[str, list[float]] = defaultdict(list)
    start = time.perf_counter()
    hands = 0
    side_of = rules.layout.side_of
    timed = [side_of[s] % 2 == 0 for s in range(rules.seats)]
    for g in range(games):
        players = [
            make_bot(bot if timed[s] else opponent, seed + 10 * g + s) for s in range(rules.seats)
        ]
        game = Game(rules, seed + g)
        while not game.is_over():
            seat = game.seat_to_act()
            assert seat is not None
            view = game.view(seat)
            began = time.perf_counter()
            action = players[seat].choose(view)
            took = time.perf_counter() - began
            if timed[seat]:
                if view.phase == Phase.AUCTION:
                    times["call"].append(took)
                elif view.phase == Phase.DISCARD:
                    times["discard"].append(took)
                elif view.phase == Phase.DECLARE:
                    times["declare"].append(took)
                else:
                    times[f"play, trick {len(view.tricks) + 1}"].append(took)
                times["all decisions"].append(took)
            game.apply(action)
        hands += len(game.hands)
    return times, time.perf_counter() - start, hands


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--bot", default="expert", help="the bot timed (default expert)")
    parser.add_argument("--opponent", default="rules", help="its opponents (default rules)")
    parser.add_argument("--games", type=int, default=6, help="whole games to play (default 6)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games (default 1)")
    parser.add_argument(
        "--rules", default="standard", help="rules or table preset (default standard)"
    )
    args = parser.parse_args(argv)
    rules = Rules.parse(args.rules)
    if args.games < 1:
        parser.error("--games must be positive")
    print("texas42 bot benchmark (one process, one core)")
    for line in machine():
        print(f"  {line}")
    print(f"  command: {' '.join([Path(sys.argv[0]).name, *sys.argv[1:]])}")
    print()
    make_bot(args.bot)  # load the solver before any clock starts
    times, took, hands = play_games(args.bot, args.opponent, args.games, args.seed, rules)
    held = "+".join(
        name for s, name in enumerate(rules.layout.seat_names) if rules.layout.side_of[s] % 2 == 0
    )
    print(
        f"(a) {args.bot} ({held}) against {args.opponent}, {rules}: {args.games} games, {hands} hands"
    )
    print("| decision | count | median ms | p95 ms | max ms |")
    print("|---|---:|---:|---:|---:|")
    tricks = range(1, rules.layout.tricks + 1)
    order = ["call", "discard", "declare", *(f"play, trick {k}" for k in tricks), "all decisions"]
    for key in order:
        if key in times:
            values = times[key]
            print(
                f"| {key} | {len(values)} | {statistics.median(values) * 1e3:.1f} "
                f"| {percentile(values, 0.95) * 1e3:.1f} | {max(values) * 1e3:.1f} |"
            )
    print(f"| games per minute | {60 * args.games / took:.1f} | | | |")
    print()
    print("(b) the instant levels: one decision, mid-game views from the run above")
    print("| bot | median µs | max µs |")
    print("|---|---:|---:|")
    views = []
    game = Game(rules, args.seed)
    rules_bot = make_bot("rules")
    while not game.is_over() and len(views) < 200:
        seat = game.seat_to_act()
        assert seat is not None
        views.append(game.view(seat))
        game.apply(rules_bot.choose(views[-1]))
    for level in ("easy", "medium"):
        bot = make_bot(level)
        spent = []
        for view in views:
            began = time.perf_counter()
            bot.choose(view)
            spent.append(time.perf_counter() - began)
        print(f"| {level} | {statistics.median(spent) * 1e6:.0f} | {max(spent) * 1e6:.0f} |")


if __name__ == "__main__":
    main()
