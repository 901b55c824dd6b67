"""Actions (`texas42.core.actions`): one interned value per id, and reading calls as written."""

from __future__ import annotations

from texas42.core.actions import ACTIONS, NUM_ACTIONS, Bid, Pass, Play, actions_in, parse_call
from texas42.core.errors import NotationError


def test_a_bare_multiple_of_42_is_not_marks_on_a_44_point_hand() -> None:
    """On a 44-point hand 2m is 88 points; parse_call("84", 44) silently reads 2m."""
    try:
        call = parse_call("84", 44)
    except NotationError:
        return
    assert call is not Bid("2m")


def test_actions_in_reads_a_mask_lowest_id_first() -> None:
    mask = 1 << Bid("30").id | 1 << Pass().id | 1 << Play("6-6").id
    assert actions_in(mask) == (Play("6-6"), Pass(), Bid("30"))
    assert actions_in(0) == ()
    assert actions_in((1 << NUM_ACTIONS) - 1) == ACTIONS
