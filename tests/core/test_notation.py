"""One-line position strings: exact text, round-trips, and errors that name the field."""

from __future__ import annotations

import random

import pytest

from helpers import EX14_DEAL, EX14_PLAYS, STANDARD, E, N, W, play
from texas42 import Declare, Game, Hand, NotationError, Rules
from texas42.core.notation import (
    hand_position,
    parse_hand_position,
    parse_view_position,
    view_position,
)

DEAL_FIELD = "66.65.64.62.55.33.10/63.54.44.42.31.20.00/61.53.52.43.32.22.11/60.51.50.41.40.30.21"
EX14_AFTER_5 = f"standard 0-0 1 3 {DEAL_FIELD} 0:34.pass.pass.pass sixes 66.63.61.60.65 1"


def ex14(plays: int, bid: str = "34", rules: Rules = STANDARD) -> Hand:
    hand = Hand(rules, W, EX14_DEAL)
    for call in (bid, "pass", "pass", "pass"):
        hand.apply(hand.parse_action(call))
    hand.apply(Declare("sixes"))
    play(hand, " ".join(EX14_PLAYS.split()[:plays]))
    return hand


def test_full_position_text() -> None:
    assert hand_position(Hand(STANDARD, W, EX14_DEAL)) == f"standard 0-0 1 3 {DEAL_FIELD} 0:- - - 0"
    assert hand_position(ex14(5)) == EX14_AFTER_5
    assert hand_position(ex14(24)).endswith(" end")
    assert hand_position(ex14(0), (3, 5), 4).startswith("standard 3-5 4 3 ")


def test_view_position_text() -> None:
    hand = ex14(5)
    assert view_position(hand.view(E)) == (
        "standard 0-0 1 3 ?/63.54.44.42.31.20.00/?/? 0:34.pass.pass.pass sixes 66.63.61.60.65 1 @1"
    )
    hidden = ex14(5, bid="2m")
    assert view_position(hidden.view(W)).split()[7:] == ["x0:60.65", "1", "@3"]


def test_full_position_round_trips() -> None:
    for plays in (0, 5, 23, 24):
        text = hand_position(ex14(plays))
        hand, score, number = parse_hand_position(text)
        assert hand_position(hand, score, number) == text
        game = Game.from_position(text)
        if plays < 24:
            assert game.position() == text
        else:  # the hand is over, so the game deals the next one
            assert hand_position(game.hands[0]) == text and game.position().startswith(
                "standard 1-0 2 0 "
            )


def test_view_position_round_trips() -> None:
    for bid in ("34", "2m"):
        hand = ex14(9, bid=bid)
        for seat in range(4):
            view = hand.view(seat)
            assert parse_view_position(view_position(view)) == view


def test_position_with_rules_and_score() -> None:
    rules = Rules.parse("house,game=points")
    hand = Hand(rules, N, EX14_DEAL)
    text = hand_position(hand, (120, 88), 6)
    assert text.startswith("house,game=points 120-88 6 0 ")
    game = Game.from_position(text)
    assert (game.score, game.hand_number, game.rules) == ((120, 88), 6, rules)
    assert game.position() == text


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda w: w[:8], "a position has 9 space-separated fields, this one has 8"),
        (lambda w: ["casual"] + w[1:], "position field 1 (rules): unknown rules preset 'casual'"),
        (
            lambda w: w[:1] + ["3/2"] + w[2:],
            "position field 2 (score): a score looks like 3-2 or 5:-3:2, not '3/2'",
        ),
        (
            lambda w: w[:1] + ["3:2:1"] + w[2:],
            "position field 2 (score) needs 2 entries, one per side, not 3",
        ),
        (lambda w: w[:2] + ["0"] + w[3:], "position field 3 (hand number) should be 1 or more"),
        (
            lambda w: w[:3] + ["5"] + w[4:],
            "position field 4 (shaker) should be a seat 0..3, not '5'",
        ),
        (
            lambda w: w[:4] + ["66.65"] + w[5:],
            "position field 5 (deal) needs 4 hands separated by /",
        ),
        (lambda w: w[:4] + [w[4].replace("10/", "11/", 1)] + w[5:], "position field 5 (deal)"),
        (
            lambda w: w[:5] + ["34.pass"] + w[6:],
            "position field 6 (calls) should start with the first bidder",
        ),
        (lambda w: w[:5] + ["1:34.pass.pass.pass"] + w[6:], "the first bidder is seat 0, not 1"),
        (lambda w: w[:5] + ["0:34.pass.pass.pas"] + w[6:], "position fields 6-7 (calls, contract)"),
        (
            lambda w: w[:6] + ["hearts"] + w[7:],
            "position fields 6-7 (calls, contract): not a contract",
        ),
        (
            lambda w: w[:7] + ["66.63.61.60.54"] + w[8:],
            "position play 5 (5-4): North does not hold 5-4",
        ),
        (lambda w: w[:7] + ["66.63.61.77"] + w[8:], "position field 8 (plays), play 4"),
        (lambda w: w[:8] + ["2"], "position field 9 (to act) says 2, the position gives 1"),
        (lambda w: w[:8] + ["north"], "position field 9 (to act) should be a seat or end"),
        (lambda w: w[:4] + ["?/?/?/?"] + w[5:], "position field 5 (deal), seat 0: not a tile: '?'"),
    ],
)
def test_bad_full_positions(change, message) -> None:
    words = EX14_AFTER_5.split()
    with pytest.raises(NotationError) as info:
        parse_hand_position(" ".join(change(words)))
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda w: w[:9] + ["@4"], "position field 10 (seat) should be @0..@3, not '@4'"),
        (lambda w: w[:9] + ["@0"], "a seat view shows its own hand and ? for the others"),
        (lambda w: w[:7] + ["x0.65"] + w[8:], "position: a face-down trick must give"),
        (lambda w: w[:7] + ["66.63.x0"] + w[8:], "a face-down trick cannot start in the middle"),
        (lambda w: w[:7] + ["66.55.61.60.65"] + w[8:], "the seat played a tile it was not dealt"),
        (lambda w: w[:7] + ["x9"] + w[8:], "position field 8 (plays), play 1"),
        (lambda w: w[:7] + ["66.63.66"] + w[8:], "position: 6-6 is played twice"),
        (lambda w: w[:7] + ["66.54"] + w[8:], "position: 5-4 was not a legal play for this seat"),
        (
            lambda w: w[:7] + ["66.63.61.60.65"] + ["3"] + w[9:],
            "position: seat 1 is to act here, not seat 3",
        ),
        (
            lambda w: w[:7] + ["66.63.61"] + ["end"] + w[9:],
            "position: seat 3 is to act here, not end",
        ),
        (
            lambda w: w[:5] + ["0:29.pass.pass.pass"] + w[6:],
            "position: call 1 (29) is not legal there",
        ),
        (
            lambda w: w[:5] + ["0:pass.pass.pass.pass"] + w[6:],
            "position: call 4 (pass) is not legal there",
        ),
        (
            lambda w: w[:6] + ["nello"] + w[7:],
            "position: nello cannot be named after 34 under these rules",
        ),
        (
            lambda w: w[:4] + ["?/63.54.44/?/?"] + w[5:],
            "position field 5 (deal): a hand has 7 tiles in play, not 3",
        ),
    ],
)
def test_bad_view_positions(change, message) -> None:
    words = view_position(ex14(5).view(E)).split()
    with pytest.raises(NotationError) as info:
        parse_view_position(" ".join(change(words)))
    assert message in str(info.value)


# -- regressions from the table-size review (issue 7) ---------------------------------------


def test_hand_position_default_score_fits_the_table() -> None:
    """notation.hand_position defaults score to (0, 0): a three-side position it writes by
    default does not parse back."""
    hand = Hand.random(Rules.preset("three-hand"), 0, random.Random(1))
    again, score, _ = parse_hand_position(hand_position(hand))
    assert score == (0, 0, 0) and again.deal == hand.deal
