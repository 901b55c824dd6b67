"""Actions (`texas42.core.actions`): one interned value per id, and reading calls as written."""

from __future__ import annotations

import pytest

from texas42.core.actions import ACTIONS, NUM_ACTIONS, Bid, Pass, Play, actions_in, parse_call
from texas42.core.errors import NotationError
from texas42.core.rules import Rules


def test_a_bare_multiple_of_42_is_not_marks_on_a_44_point_hand() -> None:
    """On a 44-point hand (three-hand) two marks are 88 points: 84 is no bid and 42 a point bid,
    though at the standard table both are marks."""
    three_hand = Rules.parse("three-hand")
    assert three_hand.layout.total == 44
    with pytest.raises(NotationError, match="a hand holds 44"):
        parse_call("84", three_hand)
    assert parse_call("88", three_hand) is Bid("2m")
    assert parse_call("42", three_hand).notation == "42"
    assert parse_call("84", Rules()) is Bid("2m")
    assert parse_call("42", Rules()) is Bid("1m")


def test_in_moon_21_shoots_the_moon() -> None:
    assert parse_call("21", Rules.parse("moon")) is Bid("moon")
    assert parse_call("moon", Rules.parse("moon")) is Bid("moon")


def test_actions_in_reads_a_mask_lowest_id_first() -> None:
    mask = 1 << Bid("30").id | 1 << Pass().id | 1 << Play("6-6").id
    assert actions_in(mask) == (Play("6-6"), Pass(), Bid("30"))
    assert actions_in(0) == ()
    assert actions_in((1 << NUM_ACTIONS) - 1) == ACTIONS
