"""The arena's chart: how the margin settled as pairs were played, and how pairs spread.

matplotlib is an optional extra (``texas42[plot]``), imported only here and only when a chart is
asked for, with the Agg backend so no display is needed.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from texas42.core.layout import layout_of
from texas42.core.rules import Rules
from texas42.extras import extra_error
from texas42.services.arena.match import MatchResult
from texas42.services.arena.run import MatchSummary
from texas42.services.arena.stats import mean_ci

POINTS = 200
"""Most points drawn along the running-margin curve (each needs its own t quantile)."""


def import_pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend, or a clear error naming the extra that brings it."""
    try:
        matplotlib = importlib.import_module("matplotlib")
    except ImportError as exc:
        raise extra_error(exc, "--plot") from None
    matplotlib.use("Agg")
    return importlib.import_module("matplotlib.pyplot")


def margin_step(rules: Rules) -> float:
    """The grain of a pair's margin: half (the mean of two games) of one over the least common
    multiple of the sides each bot holds, scores being whole numbers (a half at four seats, a
    quarter at three, a twelfth at five)."""
    sides = layout_of(rules).sides
    return 1 / (2 * math.lcm((sides + 1) // 2, sides // 2))


def plot_match(summary: MatchSummary, results: Sequence[MatchResult], path: Path) -> None:
    """Two panels in one PNG: the running margin with its 95% interval, and a histogram of the
    pairs' margins."""
    plt = import_pyplot()
    margins = [result.margin for result in results]
    n = len(margins)
    step = max(1, n // POINTS)
    counts = sorted({*range(2, n + 1, step), n} - {1}) if n > 1 else []
    estimates = [mean_ci(margins[:k]) for k in counts]
    figure, (running, spread) = plt.subplots(1, 2, figsize=(11, 4.2))
    figure.suptitle(f"A = {summary.bot_a} against B = {summary.bot_b}; rules: {summary.rules}")
    if counts:
        running.fill_between(
            counts,
            [e.low for e in estimates],
            [e.high for e in estimates],
            alpha=0.25,
            label="95% interval",
        )
        running.plot(counts, [e.mean for e in estimates], label="mean")
        running.legend(loc="best")
    running.axhline(0, color="grey", linewidth=0.8)
    running.set_xlabel("duplicate pairs played")
    running.set_ylabel(f"A - B, {summary.unit}")
    running.set_title("running margin")
    # pair margins are multiples of a step: bins centred on them, at most about 30 of them
    grain = margin_step(summary.rules)
    low, high = min(margins), max(margins)
    width = grain * max(1, math.ceil((high - low) / (30 * grain) - 1e-9))
    edges = [low - width / 2 + width * i for i in range(int((high - low) / width + 1e-9) + 2)]
    spread.hist(margins, bins=edges)
    spread.axvline(summary.margin.mean, color="black", linewidth=1)
    spread.set_xlabel(f"pair margin, {summary.unit}")
    spread.set_ylabel("pairs")
    spread.set_title(f"{n} pair{'s' if n > 1 else ''}: mean {summary.margin.mean:+.2f}")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
