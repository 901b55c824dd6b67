"""The statistics of the arena: means with confidence intervals, Wilson intervals, the SPRT and
Bradley-Terry ratings.

Pure functions over plain numbers, so each is tested on synthetic data with known answers. The
t distribution is computed here (regularized incomplete beta function) rather than imported, to
keep the arena's dependencies to what the package already has.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Literal

from texas42.core.errors import Texas42Error

LEVEL = 0.95
"""The confidence level of every interval the arena reports."""

ELO_PER_NAT = 400 / math.log(10)
"""Elo points per unit of log-strength: a 400-point gap is 10-to-1 odds."""


def _finite(x: float) -> float | None:
    """A number for JSON: None stands for an infinite or undefined bound."""
    return x if math.isfinite(x) else None


# -- the t distribution ---------------------------------------------------------------------


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 1000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def beta_regularized(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularized incomplete beta function, for 0 <= x <= 1."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1 - math.exp(log_front) * _beta_fraction(b, a, 1 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    tail = 0.5 * beta_regularized(df / 2, 0.5, df / (df + t * t))
    return 1 - tail if t > 0 else tail


@functools.lru_cache(maxsize=1024)
def t_quantile(p: float, df: float) -> float:
    """The t with P(T <= t) = p (bisection on `t_cdf`, to about 1e-12 relative; remembered,
    since a match asks for the same few)."""
    if not 0 < p < 1:
        raise ValueError(f"a probability strictly between 0 and 1, not {p}")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        low, high = high, high * 2
    while high - low > 1e-12 * high:
        mid = (low + high) / 2
        low, high = (mid, high) if t_cdf(mid, df) < p else (low, mid)
    return (low + high) / 2


def normal_quantile(p: float) -> float:
    return NormalDist().inv_cdf(p)


# -- a mean and a proportion ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean with its two-sided confidence interval (infinite with a single observation)."""

    mean: float
    low: float
    high: float
    n: int
    sd: float
    level: float = LEVEL

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def to_dict(self) -> dict[str, Any]:
        return {
            "mean": self.mean,
            "low": _finite(self.low),
            "high": _finite(self.high),
            "n": self.n,
            "sd": _finite(self.sd),
            "level": self.level,
        }


def mean_ci(values: Sequence[float], level: float = LEVEL) -> Estimate:
    """The mean and its interval mean +- t(n-1) * s / sqrt(n), s the sample standard deviation.

    The t quantile (not the normal one) keeps the interval honest for a few dozen pairs.
    """
    n = len(values)
    if n == 0:
        raise ValueError("no values to average")
    mean = math.fsum(values) / n
    if n == 1:
        return Estimate(mean, -math.inf, math.inf, 1, math.nan, level)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile(1 - (1 - level) / 2, n - 1) * sd / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n, sd, level)


@dataclass(frozen=True, slots=True)
class Proportion:
    """``k`` successes in ``n`` trials with the Wilson score interval (0..1 when n is 0)."""

    k: int
    n: int
    low: float
    high: float
    level: float = LEVEL

    @property
    def share(self) -> float:
        return self.k / self.n if self.n else math.nan

    def to_dict(self) -> dict[str, Any]:
        return {
            "k": self.k,
            "n": self.n,
            "share": _finite(self.share),
            "low": self.low,
            "high": self.high,
            "level": self.level,
        }


def wilson(k: int, n: int, level: float = LEVEL) -> Proportion:
    """The Wilson score interval: unlike p +- z*sqrt(p(1-p)/n) it stays inside 0..1 and does not
    collapse to a point when every game is won."""
    if not 0 <= k <= n:
        raise ValueError(f"{k} successes in {n} trials")
    if n == 0:
        return Proportion(0, 0, 0.0, 1.0, level)
    z = normal_quantile(1 - (1 - level) / 2)
    p = k / n
    scale = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / scale
    half = z / scale * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low = 0.0 if k == 0 else centre - half
    high = 1.0 if k == n else centre + half
    return Proportion(k, n, low, high, level)


# -- the sequential probability ratio test ---------------------------------------------------

Decision = Literal["H0", "H1"]


@dataclass(frozen=True, slots=True)
class Sprt:
    """Wald's SPRT on wins and losses: H0 says A wins a game with chance ``p0``, H1 with ``p1``.

    After each result the log-likelihood ratio is
    ``LLR = wins * ln(p1/p0) + losses * ln((1-p1)/(1-p0))``; the test accepts H1 once
    ``LLR >= ln((1-beta)/alpha)`` and H0 once ``LLR <= ln(beta/(1-alpha))``, so a false H1 has
    chance at most about ``alpha`` and a missed one about ``beta``.
    """

    p0: float = 0.5
    p1: float = 0.55
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not 0 < self.p0 < self.p1 < 1:
            raise Texas42Error(f"the SPRT needs 0 < p0 < p1 < 1, not p0={self.p0}, p1={self.p1}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < value < 0.5:
                raise Texas42Error(f"the SPRT's {name} is an error rate in (0, 0.5), not {value}")

    @property
    def bounds(self) -> tuple[float, float]:
        """The LLR at which the test accepts H0 (lower) and H1 (upper)."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, wins: int, losses: int) -> float:
        return wins * math.log(self.p1 / self.p0) + losses * math.log((1 - self.p1) / (1 - self.p0))

    def decide(self, wins: int, losses: int) -> Decision | None:
        """H1, H0, or None while the evidence lies between the bounds."""
        llr = self.llr(wins, losses)
        lower, upper = self.bounds
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None

    def run(self, results: Iterable[bool]) -> tuple[Decision | None, int]:
        """Feed results one by one: the decision and how many results it took (all of them when
        there is none)."""
        wins = losses = count = 0
        for won in results:
            count += 1
            wins += won
            losses += not won
            decision = self.decide(wins, losses)
            if decision is not None:
                return decision, count
        return None, count

    def to_dict(self) -> dict[str, float]:
        return {"p0": self.p0, "p1": self.p1, "alpha": self.alpha, "beta": self.beta}


# -- Bradley-Terry ratings --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ratings:
    """Bradley-Terry log-strengths, the first player's fixed at 0, with standard errors.

    Player i beats player j with chance ``1 / (1 + exp(strength[j] - strength[i]))``.
    """

    strength: tuple[float, ...]
    stderr: tuple[float, ...]
    iterations: int

    def elo(self, i: int) -> float:
        return ELO_PER_NAT * self.strength[i]

    def elo_half_width(self, i: int, level: float = LEVEL) -> float:
        """Half the Elo interval of player i (normal approximation; 0 for the anchor)."""
        return normal_quantile(1 - (1 - level) / 2) * ELO_PER_NAT * self.stderr[i]

    def win_chance(self, i: int, j: int) -> float:
        return 1 / (1 + math.exp(self.strength[j] - self.strength[i]))


def bradley_terry(
    wins: Sequence[Sequence[float]], prior: float = 0.0, tolerance: float = 1e-10
) -> Ratings:
    """Fit strengths to a matrix of results, ``wins[i][j]`` the games i won against j.

    Hunter's MM algorithm: ``p_i <- W_i / sum_j n_ij / (p_i + p_j)``, W_i the wins of i and n_ij
    the games between i and j, until no log-strength moves by more than ``tolerance``. ``prior``
    adds that many virtual wins each way to every pairing that played, so a player who won or
    lost every game still gets a finite rating. Standard errors come from the inverse Fisher
    information of the log-strengths with the first one held at 0.
    """
    k = len(wins)
    if k < 2 or any(len(row) != k for row in wins):
        raise ValueError("a square table of results between at least two players")
    w = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(k):
            if i != j and wins[i][j] < 0:
                raise ValueError("a negative number of wins")
            if i != j and wins[i][j] + wins[j][i] > 0:
                w[i][j] = wins[i][j] + prior
    _check_connected(w)
    games = [[w[i][j] + w[j][i] for j in range(k)] for i in range(k)]
    total = [sum(row) for row in w]
    p = [1.0] * k
    iterations = 0
    while True:
        iterations += 1
        new = [
            total[i] / sum(games[i][j] / (p[i] + p[j]) for j in range(k) if j != i and games[i][j])
            for i in range(k)
        ]
        scale = math.exp(-sum(math.log(x) for x in new) / k)
        new = [x * scale for x in new]
        moved = max(abs(math.log(a / b)) for a, b in zip(new, p))
        p = new
        if moved < tolerance or iterations >= 100_000:
            break
    strength = [math.log(x / p[0]) for x in p]
    info = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(k):
            if i != j and games[i][j]:
                v = games[i][j] * p[i] * p[j] / (p[i] + p[j]) ** 2
                info[i][j] -= v
                info[i][i] += v
    variances = _inverse_diagonal([row[1:] for row in info[1:]])
    stderr = [0.0, *(math.sqrt(v) for v in variances)]
    return Ratings(tuple(strength), tuple(stderr), iterations)


def _inverse_diagonal(matrix: list[list[float]]) -> list[float]:
    """The diagonal of the inverse of an invertible matrix, by Gauss-Jordan elimination with
    partial pivoting: a ladder's few bots need no numpy, so the arena runs on a plain install."""
    n = len(matrix)
    rows = [[*row, *(float(i == j) for j in range(n))] for i, row in enumerate(matrix)]
    for col in range(n):
        size = [abs(row[col]) for row in rows]
        pivot = max(range(col, n), key=size.__getitem__)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(n):
            factor = rows[r][col]
            if r != col and factor:
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col])]
    return [rows[i][n + i] for i in range(n)]


def _check_connected(w: list[list[float]]) -> None:
    """Strengths exist only if every player can be reached from every other through wins: a
    player who never lost (or never won) would run off to infinity."""
    k = len(w)
    for forward in (True, False):
        seen = {0}
        stack = [0]
        while stack:
            i = stack.pop()
            for j in range(k):
                if j not in seen and (w[i][j] if forward else w[j][i]) > 0:
                    seen.add(j)
                    stack.append(j)
        if len(seen) < k:
            raise ValueError(
                "no finite ratings: some player won or lost every game against the others "
                "(fit with a prior)"
            )
