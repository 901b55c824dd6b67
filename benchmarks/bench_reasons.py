"""What a bot's reason costs: the same decisions taken with ``choose`` and with ``explain``.

    .venv/bin/python benchmarks/bench_reasons.py [--bot SPEC] [--positions N] [--seed S]

Collects ``--positions`` decisions (default 40: calls, contracts and plays with more than one
legal action) from RulesBot hands on seeded deals, then times two fresh bots of ``--bot``
(default ``expert@1``, the same seed) over them, one calling ``choose`` and one ``explain``,
interleaved
(issue 19, item 5: the words are made from numbers the decision computed, so the two should
cost the same). Prints both totals, the difference per decision, and checks that the actions
agree. Then the same for RulesBot over twenty times as many positions, whose decisions are
instant, so the difference is the making of the words alone.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_engine import machine
from texas42 import Hand, Rules
from texas42.core.view import View
from texas42.players import RulesBot, make_bot


def positions(count: int, seed: int) -> list[View]:
    """Every third decision with a choice, from RulesBot hands, until ``count``."""
    found: list[View] = []
    model = RulesBot()
    deal = 0
    while len(found) < count * 3:
        hand = Hand.random(Rules(), deal % 4, random.Random(f"{seed}:{deal}"))
        while hand.result is None:
            view = hand.view(hand.turn)
            if len(view.legal) > 1:
                found.append(view)
            hand.apply(model.choose(view))
        deal += 1
    return found[::3][:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="expert@1")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    views = positions(args.positions, args.seed)
    chooser, explainer = make_bot(args.bot, seed=1), make_bot(args.bot, seed=1)
    plain = said = 0.0
    for k, view in enumerate(views):  # interleaved, each first in turn: warm caches favour none
        for which in (k % 2, 1 - k % 2):
            start = time.perf_counter()
            if which == 0:
                chosen = chooser.choose(view)
                plain += time.perf_counter() - start
            else:
                decision = explainer.explain(view)  # type: ignore[attr-defined]
                said += time.perf_counter() - start
        assert chosen == decision.action, f"explain chose otherwise at {view}"
    for line in machine():
        print(line)
    print(f"{args.bot}, {len(views)} decisions: choose {plain:.2f} s, explain {said:.2f} s")
    print(f"explain minus choose: {1000 * (said - plain) / len(views):+.1f} ms a decision")
    # the words alone, where the decision itself is instant: RulesBot over many more positions
    many = positions(20 * args.positions, args.seed)
    rules = RulesBot()
    start = time.perf_counter()
    for view in many:
        rules.choose(view)
    middle = time.perf_counter()
    for view in many:
        rules.explain(view)
    end = time.perf_counter()
    each = 1e6 * ((end - middle) - (middle - start)) / len(many)
    print(f"rules, {len(many)} decisions: the words add {each:.0f} microseconds a decision")


if __name__ == "__main__":
    main()
