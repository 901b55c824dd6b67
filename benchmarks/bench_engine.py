"""How fast the rules engine runs through its public API, on one core.

    .venv/bin/python benchmarks/bench_engine.py [--hands N] [--seconds S] [--repeats R]

Part (a) plays random hands and games: every call, declaration and play is ``rng.choice`` over
``legal_actions()``, then ``apply``, until the hand has a result. Part (b) times single operations
on mid-play positions. Each figure is measured ``--repeats`` times after a warm-up; the best and
the median are printed, because other work on the machine only ever makes a run slower.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from texas42 import Game, Hand, Phase, Rules
from texas42.core.notation import (
    hand_position,
    parse_hand_position,
    parse_view_position,
    view_position,
)

T = TypeVar("T")
Measure = Callable[[], tuple[tuple[int, ...], float]]
"""One timed run: the counts of things done (hands, or games and hands, or calls), and seconds."""


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine() -> list[str]:
    return [
        f"platform: {platform.platform()}",
        f"python: {platform.python_implementation()} {platform.python_version()}",
        f"cpu: {cpu_model()}",
        f"os.cpu_count(): {os.cpu_count()}",
    ]


def play_out(hand: Hand, rng: random.Random) -> None:
    while hand.result is None:
        hand.apply(rng.choice(hand.legal_actions()))


def hands_run(rules: Rules, max_hands: int, seconds: float, seed: int) -> Measure:
    """Random hands until ``max_hands`` are played or ``seconds`` have passed."""

    def run() -> tuple[tuple[int, ...], float]:
        rng = random.Random(seed)
        clock = time.perf_counter
        start = clock()
        deadline = start + seconds
        done = 0
        while done < max_hands:
            hand = Hand.random(rules, rng.randrange(4), rng)
            play_out(hand, rng)
            done += 1
            if not done % 64 and clock() > deadline:
                break
        return (done,), clock() - start

    return run


def games_run(rules: Rules, max_hands: int, seconds: float, seed: int) -> Measure:
    """Random whole games until ``max_hands`` hands are played or ``seconds`` have passed."""

    def run() -> tuple[tuple[int, ...], float]:
        rng = random.Random(seed)
        clock = time.perf_counter
        start = clock()
        deadline = start + seconds
        games = hands = 0
        while hands < max_hands:
            game = Game(rules, rng.getrandbits(32))
            while not game.is_over():
                game.apply(rng.choice(game.legal_actions()))
            games += 1
            hands += len(game.hands)
            if clock() > deadline:
                break
        return (games, hands), clock() - start

    return run


def mid_play_positions(count: int, seed: int) -> list[Hand]:
    """Hands of the standard rules stopped at a random point of the play."""
    rules = Rules.preset("standard")
    rng = random.Random(seed)
    positions: list[Hand] = []
    while len(positions) < count:
        hand = Hand.random(rules, rng.randrange(4), rng)
        while hand.phase != Phase.PLAY and hand.result is None:
            hand.apply(rng.choice(hand.legal_actions()))
        stop = rng.randrange(0, 20)
        while stop and hand.result is None:
            hand.apply(rng.choice(hand.legal_actions()))
            stop -= 1
        if hand.result is None:
            positions.append(hand)
    return positions


def per_call(op: Callable[[T], object], items: Sequence[T], seconds: float) -> Measure:
    """Call ``op`` on each item in turn, round after round, for about ``seconds``."""

    def run() -> tuple[tuple[int, ...], float]:
        clock = time.perf_counter
        calls = 0
        start = clock()
        deadline = start + seconds
        while True:
            for item in items:
                op(item)
            calls += len(items)
            if clock() > deadline:
                return (calls,), clock() - start

    return run


def measure(run: Measure, repeats: int) -> list[tuple[float, float]]:
    """For each count a run makes: the best and median rate per second over ``repeats`` timed
    runs, after one warm-up run."""
    run()
    rates: list[list[float]] = []
    for _ in range(repeats):
        counts, took = run()
        rates.append([count / took for count in counts])
    return [(max(r), statistics.median(r)) for r in zip(*rates)]


def row(name: str, rate: tuple[float, float], unit: str) -> str:
    return f"| {name} | {rate[0]:,.0f} | {rate[1]:,.0f} | {unit} |"


def us_row(name: str, rate: tuple[float, float]) -> str:
    """Per-call cost: the best run is the one with the highest rate."""
    return f"| {name} | {1e6 / rate[0]:.2f} | {1e6 / rate[1]:.2f} | µs per call |"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--hands", type=int, default=20_000, help="most hands in one timed run (default 20000)"
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=1.0,
        help="longest one timed run lasts, about (default 1.0)",
    )
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per figure (default 5)")
    args = parser.parse_args(argv)
    if args.hands < 1 or args.seconds <= 0 or args.repeats < 1:
        parser.error("--hands, --seconds and --repeats must be positive")
    n, secs, reps = args.hands, args.seconds, args.repeats

    print("texas42 engine benchmark (one process, one core)")
    for line in machine():
        print(f"  {line}")
    print(f"  command: {' '.join([Path(sys.argv[0]).name, *sys.argv[1:]])}")
    print(f"  each figure: best and median of {reps} runs of up to {n:,} hands or {secs:g} s")
    print()
    print("(a) random play through the public API")
    print("| what | best | median | unit |")
    print("|---|---:|---:|---|")
    standard = Rules.preset("standard")
    variants = (
        ("hands, standard rules (marks)", standard),
        ("hands, points game (all 7 tricks)", Rules.parse("standard,game=points")),
        ("hands, house preset", Rules.preset("house")),
    )
    for name, rules in variants:
        (rate,) = measure(hands_run(rules, n, secs, 1), reps)
        print(row(name, rate, "hands/s"), flush=True)
    games, hands = measure(games_run(standard, n, secs, 2), reps)
    print(row("games, standard rules (to 7 marks)", games, "games/s"))
    print(row("hands inside those games", hands, "hands/s"), flush=True)
    print()
    print("(b) single operations on mid-play positions (standard rules)")
    print("| operation | best | median | unit |")
    print("|---|---:|---:|---|")
    positions = mid_play_positions(500, 3)
    moves = {id(h): random.Random(i).choice(h.legal_ids()) for i, h in enumerate(positions)}
    views = [h.view(h.turn) for h in positions]
    full = [hand_position(h) for h in positions]
    seat_views = [view_position(v) for v in views]

    def computed_mask(h: Hand) -> int:
        h._legal = -1  # as at a position not asked before: the mask is computed, not looked up
        return h.legal_mask()

    def computed_actions(h: Hand) -> object:
        h._legal = -1
        return h.legal_actions()

    def apply_undo(h: Hand) -> None:
        h.apply(moves[id(h)])
        h.undo()

    def timed(name: str, run: Measure) -> None:
        (rate,) = measure(run, reps)
        print(us_row(name, rate), flush=True)

    slice_ = secs / 2
    timed("legal_actions() (computed)", per_call(computed_actions, positions, slice_))
    timed("legal_actions() (mask cached)", per_call(Hand.legal_actions, positions, slice_))
    timed("legal_mask() (computed)", per_call(computed_mask, positions, slice_))
    timed("legal_mask() (cached)", per_call(Hand.legal_mask, positions, slice_))
    timed("apply() + undo()", per_call(apply_undo, positions, slice_))
    timed("copy()", per_call(Hand.copy, positions, slice_))
    timed("view(seat)", per_call(lambda h: h.view(h.turn), positions, slice_))
    timed("full position string: write", per_call(hand_position, positions, slice_))
    timed("full position string: parse", per_call(parse_hand_position, full, slice_))
    timed("seat-view position string: write", per_call(view_position, views, slice_))
    timed("seat-view position string: parse", per_call(parse_view_position, seat_views, slice_))


if __name__ == "__main__":
    main()
