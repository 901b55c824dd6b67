"""Marks as 42 players tally them: the seven strokes that spell "ALL", one stroke per mark."""

from __future__ import annotations

from texas42.core.layout import layout_of
from texas42.core.rules import Rules

_ALL = ("", "/", "/\\", "A", "A|", "AL", "AL|", "ALL")
"""The word as it grows: A is drawn in three strokes (/, \\, -), each L in two (|, _)."""

STROKES = len(_ALL) - 1


def marks_tally(marks: int) -> str:
    """``marks`` drawn as strokes of "ALL"; past seven (a game can end 8-x) a new word starts."""
    if marks < 0:
        raise ValueError(f"a tally counts marks from 0, not {marks}")
    words = ["ALL"] * (marks // STROKES)
    if marks % STROKES:
        words.append(_ALL[marks % STROKES])
    return " ".join(words)


def score_line(rules: Rules, score: tuple[int, ...]) -> str:
    """``North-South 3 [A], East-West 1 [/]``: the game score, one entry a side (a team, or a
    player where everyone scores alone), marks also as strokes of "ALL"."""
    names = layout_of(rules).side_names
    if len(score) != len(names):
        raise ValueError(f"a score under these rules has {len(names)} entries, not {len(score)}")
    parts = []
    for name, amount in zip(names, score):
        tally = marks_tally(amount) if rules.game == "marks" else ""
        parts.append(f"{name} {amount}" + (f" [{tally}]" if tally else ""))
    return ", ".join(parts)
