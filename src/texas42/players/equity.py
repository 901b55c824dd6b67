"""Match equity: the chance a side wins a marks game from a score, for choosing calls.

A call is worth what it does to the chance of winning the game, not its marks alone: at 6-6
the next hand decides everything, at 0-0 a set mark is one of many. `MatchEquity` holds the
table ``ME(ours, theirs)`` for a game to ``target`` marks, computed from how many marks a hand
moves: ``share[k]``, the chance one given side gains ``k`` marks in a hand (the other side's
chance is the same, by symmetry; what is left, nobody scores). Then

    ME(a, b) = sum_k share[k] * (ME(a + k, b) + ME(a, b + k)) / (2 * sum_k share[k])

with ME = 1 once ``a`` reaches the target and 0 once ``b`` does. The table is symmetric
(``ME(a, b) + ME(b, a) = 1``) and more marks never hurt. The shipped shares are measured from
self-play hands (`texas42.players.learned`, the ``hands`` rows: marks gained per hand);
`DEFAULT_SHARES` stands in when a model file has none.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

DEFAULT_SHARES: tuple[float, ...] = (0.0, 0.46, 0.03, 0.005, 0.005)
"""``share[k]`` for k = 0..4 marks when no data is at hand: a hand moves one mark almost always
(a point bid made or set), now and then two (a 2-mark bid), rarely more. Only the ratios
matter; index 0 is unused."""


class MatchEquity:
    """The chance of winning a game to ``target`` marks from every score, for one table of
    marks moved per hand."""

    def __init__(self, target: int = 7, shares: Sequence[float] = DEFAULT_SHARES) -> None:
        if target < 1:
            raise ValueError(f"a game is to 1 mark or more, not {target}")
        cleaned = tuple(max(0.0, float(x)) for x in shares)
        if len(cleaned) < 2 or sum(cleaned[1:]) <= 0:
            raise ValueError("a hand must move at least one mark now and then")
        self.target = target
        self.shares = (0.0, *cleaned[1:])
        self._table = _table(target, self.shares)

    def __call__(self, ours: int, theirs: int) -> float:
        """The chance the side with ``ours`` marks wins against ``theirs`` (each clipped to the
        target: a score at or past it has won)."""
        if ours >= self.target:
            return 1.0
        if theirs >= self.target:
            return 0.0
        return self._table[max(0, ours)][max(0, theirs)]

    def after(self, ours: int, theirs: int, gained: int) -> float:
        """The equity after ``gained`` marks go to our side (negative: to theirs)."""
        if gained >= 0:
            return self(ours + gained, theirs)
        return self(ours, theirs - gained)


@lru_cache(maxsize=32)
def _table(target: int, shares: tuple[float, ...]) -> tuple[tuple[float, ...], ...]:
    """ME for every score below the target, filled from the scores nearest the end back."""
    total = 2 * sum(shares[1:])
    me = [[0.0] * target for _ in range(target)]
    for a in range(target - 1, -1, -1):
        for b in range(target - 1, -1, -1):
            value = 0.0
            for k, p in enumerate(shares):
                if k == 0 or p == 0:
                    continue
                value += p * (1.0 if a + k >= target else me[a + k][b])
                value += p * (0.0 if b + k >= target else me[a][b + k])
            me[a][b] = value / total
    return tuple(tuple(row) for row in me)


def marks_shares(gained: Sequence[int], max_marks: int = 7) -> tuple[float, ...]:
    """``share[k]`` from the marks each side gained in some hands (one number per side per hand):
    the share of those numbers equal to ``k``, for k = 0..max_marks."""
    counts = [0] * (max_marks + 1)
    for g in gained:
        counts[min(max(int(g), 0), max_marks)] += 1
    n = sum(counts)
    if n == 0 or n == counts[0]:
        return DEFAULT_SHARES
    return tuple(c / n for c in counts)
