"""Regressions found reviewing the table-size core (issue 7): each test pins one bug."""

from __future__ import annotations

import random

import pytest

from texas42 import Hand, Phase
from texas42.core.actions import ACTIONS, PASS_ID, Bid, Discard, parse_call
from texas42.core.errors import NotationError, RulesError
from texas42.core.notation import (
    hand_position,
    parse_hand_position,
    parse_view_position,
    view_position,
)
from texas42.core.rules import Rules
from texas42.core.tiles import TILE_CODES, tiles_of


def _moon_after_first_trick_starts() -> Hand:
    """Moon, seat 1 wins with 4, discards, names trump, leads; seat 2 follows (seat 0 to act)."""
    hand = Hand.random(Rules.preset("moon"), 0, random.Random(8))
    hand.apply(Bid(4))
    hand.apply(ACTIONS[PASS_ID])
    hand.apply(ACTIONS[PASS_ID])
    hand.apply(Discard(tiles_of(hand.hands[1])[0]))
    hand.apply(hand.legal_actions()[0])
    hand.apply(hand.legal_actions()[0])
    hand.apply(hand.legal_actions()[0])
    assert hand.turn == 0 and hand.declarer == 1
    return hand


def test_holder_1_0_first_bidder_cannot_be_paired_with_a_widow_that_may_hold_the_1_0() -> None:
    """check_table counts the widow as dealt, so the 1-0 may lie in the widow and Hand()
    then leaks StopIteration looking for its holder."""
    with pytest.raises(RulesError, match="holder-1-0"):
        Rules.parse("moon,removed=6-0+5-0+4-0+3-0+2-0+0-0,first_bidder=holder-1-0")


def test_a_set_mark_bid_in_moon_loses_the_hands_total_not_42_a_mark() -> None:
    """game=moon with bids=points is accepted; a set 1m must cost the bid's value (7, every
    point of the hand), not Bid.points (42)."""
    try:
        rules = Rules.parse("moon,widow=0,bids=points")
    except RulesError:
        return  # refusing the combination is a fix too
    for seed in range(200):
        rng = random.Random(seed)
        hand = Hand.random(rules, 0, rng)
        hand.apply(Bid("1m"))
        while hand.phase == Phase.AUCTION:
            hand.apply(ACTIONS[PASS_ID])
        while not hand.is_over:
            hand.apply(rng.choice(hand.legal_ids()))
        assert hand.result is not None
        if hand.result.made is False:
            assert hand.result.score[hand.layout.side_of[hand.high_seat]] == -hand.layout.total
            return
    raise AssertionError("no set 1m found")


def test_a_seat_view_refuses_a_widow_of_tiles_out_of_play() -> None:
    hand = _moon_after_first_trick_starts()
    text = view_position(hand.view(1))
    widow = TILE_CODES[tiles_of(hand.widow)[0]]
    with pytest.raises(NotationError):
        parse_view_position(text.replace("+" + widow, "+60"))


def test_a_seat_view_refuses_a_play_of_a_tile_out_of_play() -> None:
    hand = _moon_after_first_trick_starts()
    words = view_position(hand.view(0)).split()
    lead = words[7].split(".")[0]
    words[7] = f"{lead}.60"  # 6-0 is not in Moon's set
    with pytest.raises(NotationError):
        parse_view_position(" ".join(words))


def test_the_bid_winners_view_refuses_another_seat_playing_the_widow_tile_it_holds() -> None:
    hand = _moon_after_first_trick_starts()
    kept = hand.widow & hand.hands[1]
    assert kept, "seed keeps the widow tile"
    words = view_position(hand.view(1)).split()
    lead = words[7].split(".")[0]
    words[7] = f"{lead}.{TILE_CODES[tiles_of(kept)[0]]}"
    with pytest.raises(NotationError):
        parse_view_position(" ".join(words))


def test_hand_position_default_score_fits_the_table() -> None:
    """notation.hand_position defaults score to (0, 0): a three-side position it writes by
    default does not parse back."""
    hand = Hand.random(Rules.preset("three-hand"), 0, random.Random(1))
    again, score, _ = parse_hand_position(hand_position(hand))
    assert score == (0, 0, 0) and again.deal == hand.deal


def test_a_bare_multiple_of_42_is_not_marks_on_a_44_point_hand() -> None:
    """On a 44-point hand 2m is 88 points; parse_call("84", 44) silently reads 2m."""
    try:
        call = parse_call("84", 44)
    except NotationError:
        return
    assert call is not Bid("2m")
