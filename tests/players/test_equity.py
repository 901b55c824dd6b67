"""Match equity: symmetric, monotone, and the end of the game counts more than its start."""

from __future__ import annotations

import itertools

import pytest

from texas42.players.equity import DEFAULT_SHARES, MatchEquity, marks_shares


@pytest.mark.parametrize("shares", [DEFAULT_SHARES, (0.0, 0.3, 0.1, 0.0, 0.05), (0, 1.0)])
@pytest.mark.parametrize("target", [1, 7, 10])
def test_equity_is_symmetric_and_more_marks_never_hurt(
    shares: tuple[float, ...], target: int
) -> None:
    me = MatchEquity(target, shares)
    for a, b in itertools.product(range(target + 2), repeat=2):
        if a >= target and b >= target:
            continue
        assert 0.0 <= me(a, b) <= 1.0
        if a < target and b < target:
            assert me(a, b) + me(b, a) == pytest.approx(1.0, abs=1e-12)
        assert me(a + 1, b) >= me(a, b) - 1e-12
        assert me(a, b + 1) <= me(a, b) + 1e-12


def test_level_scores_are_even_and_being_ahead_is_worth_more_near_the_end() -> None:
    me = MatchEquity(7)
    for k in range(7):
        assert me(k, k) == pytest.approx(0.5)
    # a mark ahead means more at 6-5 than at 1-0
    assert me(6, 5) > me(1, 0) > 0.5
    # at 6-6 the next hand decides: a made bid wins the game, a set loses it
    assert me.after(6, 6, 1) == 1.0 and me.after(6, 6, -1) == 0.0
    # a hand that moves only single marks: 0-0 to 7 is a race of coin flips
    single = MatchEquity(2, (0.0, 1.0))
    assert single(1, 0) == pytest.approx(0.75)


def test_shares_come_from_the_marks_gained_and_bad_tables_are_refused() -> None:
    shares = marks_shares([1, 0, 0, 1, 2, 0, 0, 1])
    assert shares[1] == pytest.approx(3 / 8) and shares[2] == pytest.approx(1 / 8)
    assert marks_shares([]) == DEFAULT_SHARES
    with pytest.raises(ValueError, match="at least one mark"):
        MatchEquity(7, (1.0, 0.0))
    with pytest.raises(ValueError, match="1 mark or more"):
        MatchEquity(0)
