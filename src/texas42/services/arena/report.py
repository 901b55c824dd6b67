"""The arena's tables as people read them (rich), and the record files it saves."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table

from texas42.core.layout import layout_of
from texas42.core.rules import Rules
from texas42.services.arena.match import MatchResult, sides_held
from texas42.services.arena.run import LadderSummary, MatchSummary
from texas42.services.arena.stats import Estimate, Proportion

FORFEITS_SHOWN = 3
"""Forfeit reasons printed under the match table; ``--json`` has them all."""


def _signed(x: float) -> str:
    return f"{x:+.2f}" if math.isfinite(x) else "?"


def _interval(estimate: Estimate) -> str:
    if not math.isfinite(estimate.half_width):
        return "needs two pairs"
    return f"{_signed(estimate.low)} to {_signed(estimate.high)}"


def _share(p: Proportion, of: str) -> tuple[str, str]:
    if not p.n:
        return f"- (0 {of})", ""
    return f"{p.share:.1%} ({p.k} of {p.n} {of})", f"{p.low:.1%} to {p.high:.1%}"


def _per_minute(count: int, seconds: float) -> str:
    return f"{count / seconds * 60:,.0f}" if seconds > 0 else "?"


def match_table(summary: MatchSummary) -> Table:
    """The arena's result: the margin, A's wins and each side's make rate, with 95% intervals."""
    played = "hands" if summary.hands_mode else "games"
    title = (
        f"A = {summary.bot_a}, B = {summary.bot_b}: {summary.pairs} duplicate "
        f"pair{'s' if summary.pairs > 1 else ''} of "
        f"{played}; rules: {summary.rules}; seed {summary.seed}"
    )
    table = Table(title=title, title_justify="left", header_style="bold")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_row(f"A - B, {summary.unit}", _signed(summary.margin.mean), _interval(summary.margin))
    table.add_row(f"A wins ({played[:-1]} win rate)", *_share(summary.wins, played))
    layout = layout_of(summary.rules)
    for bot, made in zip("AB", summary.make):
        label = f"{bot} made its bids" if layout.alone else f"{bot}'s team made its bid"
        table.add_row(label, *_share(made, "bids"))
    table.add_row("hands played", str(summary.hands), "")
    if not summary.hands_mode:
        table.add_row("games played", str(summary.games), "")
    now = summary.played_now
    if summary.seconds is not None and now == 0:
        table.add_row("time", "nothing played", "every pair was read back from the records")
    elif summary.seconds is not None:
        rate = _per_minute(now, summary.seconds)
        table.add_row("time", f"{summary.seconds:.1f} s", f"{rate} {played} a minute")
        if now < summary.games:
            table.add_row(f"{played} played now", str(now), "the rest read back from the records")
    notes = []
    if layout.seats != 4:
        first, second = (_sides_text(summary.rules, parity) for parity in (0, 1))
        notes.append(f"each deal twice: A holds {first}, then {second}; B the rest")
    a, b = summary.forfeits
    if a or b:
        table.add_row(f"{played} forfeited by A, by B", f"{a}, {b}", "")
        reasons = summary.forfeit_reasons
        notes.append("forfeits:")
        notes.extend(f"- {reason}" for reason in reasons[:FORFEITS_SHOWN])
        if len(reasons) > FORFEITS_SHOWN:
            notes.append(f"- and {len(reasons) - FORFEITS_SHOWN} more")
    if notes:
        table.caption = "\n".join(notes)
        table.caption_justify = "left"
    return table


def sprt_line(summary: MatchSummary) -> str | None:
    """What the SPRT concluded, in one line, or None when it was not asked for."""
    sprt = summary.sprt
    if sprt is None:
        return None
    lower, upper = sprt.bounds
    verdict = {
        "H1": f"H1 accepted: A wins with chance p1 = {sprt.p1} or more",
        "H0": f"H0 accepted: A wins with chance p0 = {sprt.p0} or less",
        None: "no decision yet",
    }[summary.decision]
    return (
        f"SPRT (p0 {sprt.p0}, p1 {sprt.p1}, alpha {sprt.alpha}, beta {sprt.beta}): {verdict} "
        f"after {summary.wins.n} decided {'hands' if summary.hands_mode else 'games'}, "
        f"LLR {summary.llr:.2f} (bounds {lower:.2f}, {upper:.2f})"
    )


def ladder_tables(ladder: LadderSummary) -> list[Table]:
    """The ratings, strongest first, and the margin of every pairing."""
    anchor = ladder.bots[0]
    ratings = Table(
        title=f"Bradley-Terry ratings, Elo scale with {anchor} at 0; rules: {ladder.rules}; "
        f"seed {ladder.seed}",
        title_justify="left",
        header_style="bold",
    )
    ratings.add_column("rank", justify="right")
    ratings.add_column("bot")
    for name in ("Elo", "95% interval", "games", "won"):
        ratings.add_column(name, justify="right")
    for rank, i in enumerate(ladder.order(), 1):
        elo = ladder.ratings.elo(i)
        half = ladder.ratings.elo_half_width(i)
        games = ladder.games(i)
        ratings.add_row(
            str(rank),
            ladder.bots[i],
            f"{elo:+.0f}",
            "anchor" if i == 0 else f"{elo - half:+.0f} to {elo + half:+.0f}",
            str(games),
            f"{ladder.won(i)} ({ladder.won(i) / games:.0%})" if games else "0",
        )
    pairings = Table(title="pairings", title_justify="left", header_style="bold")
    for name in ("A", "B", "A - B", "95% interval", "A won"):
        pairings.add_column(name, justify="left" if name in ("A", "B") else "right")
    for summary in ladder.pairings:
        pairings.add_row(
            summary.bot_a,
            summary.bot_b,
            f"{_signed(summary.margin.mean)} {summary.unit}",
            _interval(summary.margin),
            f"{summary.wins.k} of {summary.wins.n}",
        )
    return [ratings, pairings]


def print_tables(tables: Sequence[Table], lines: Sequence[str] = ()) -> None:
    console = Console(highlight=False, markup=False, soft_wrap=True)
    for table in tables:
        console.print(table)
    for line in lines:
        console.print(line)


def _sides_text(rules: Rules, parity: int) -> str:
    """The sides a bot holds in one game of a pair, by name: ``North+West``."""
    layout = layout_of(rules)
    names = [layout.side_names[side] for side in sides_held(layout.sides, parity)]
    return "+".join(names)


def record_name(result: MatchResult, a_team: int) -> str:
    """``pair00001-A-north-south.json``, ``pair00001-A-north+west.json``: the pair and where
    bot A sat."""
    sides = _sides_text(result.spec.rules, a_team).lower()
    return f"pair{result.spec.index + 1:05d}-A-{sides}.json"


_RECORD_NAME = re.compile(r"pair(\d{5,})-A-[a-z+-]+\.json")
"""What `record_name` writes: the pair, then where bot A sat."""


def record_pair(name: str) -> int | None:
    """The pair (from 1) of a record `record_name` named; None for any other file name.

    >>> record_pair("pair00298-A-east-west.json"), record_pair("notes.json")
    (298, None)
    """
    found = _RECORD_NAME.fullmatch(name)
    return int(found.group(1)) if found else None


def save_records(results: Sequence[MatchResult], folder: Path) -> int:
    """Write both games of every pair played with records; the number of files written."""
    written = 0
    for result in results:
        for game in result.games:
            if game.record is not None:
                (folder / record_name(result, game.a_team)).write_text(game.record + "\n")
                written += 1
    return written
