"""Actions (`texas42.core.actions`): one interned value per id, and reading calls as written."""

from __future__ import annotations

from texas42.core.actions import Bid, parse_call
from texas42.core.errors import NotationError


def test_a_bare_multiple_of_42_is_not_marks_on_a_44_point_hand() -> None:
    """On a 44-point hand 2m is 88 points; parse_call("84", 44) silently reads 2m."""
    try:
        call = parse_call("84", 44)
    except NotationError:
        return
    assert call is not Bid("2m")
