"""Whole hands: rules.md Ex 14-19 (full hands, scoring, early ends), the phase machine, undo,
errors and the messages a player reads."""

from __future__ import annotations

import random

import pytest

from helpers import (
    EX14_DEAL,
    EX14_PLAYS,
    EX16_DEAL,
    EX16_PLAYS,
    STANDARD,
    E,
    N,
    S,
    W,
    auction,
    contract_hand,
    fill_deal,
    legal_tiles,
    play,
    tiles,
)
from texas42 import (
    Bid,
    Declare,
    Hand,
    IllegalActionError,
    NotationError,
    Pass,
    Phase,
    Play,
    Rules,
)
from texas42.core.actions import ACTIONS, PASS_ID
from texas42.core.errors import RulesError
from texas42.core.notation import hand_position
from texas42.core.tiles import COUNT_TILES, hand_name, parse_tile

POINTS = STANDARD.replace(game="points")
NELLO_1M = STANDARD.replace(nello=True, nello_min_marks=1)


def ex14(bid: str = "34", rules=STANDARD) -> Hand:
    """Ex 14: shaker West; North bids, the others pass; North names sixes."""
    hand = Hand(rules, W, EX14_DEAL)
    for call in (bid, "pass", "pass", "pass"):
        hand.apply(hand.parse_action(call))
    hand.apply(Declare("sixes"))
    return hand


def ex14_tricks(n: int) -> str:
    return " ".join(EX14_PLAYS.split()[: 4 * n])


# -- Ex 14: a full hand in sixes --------------------------------------------------------------


def test_ex14_marks_game_made_after_trick_6() -> None:
    hand = ex14()
    assert hand.seat_to_act() == N and hand.declarer == N
    play(hand, ex14_tricks(2))
    # trick 3: East, South and West each must follow fives
    play(hand, "5-5")
    assert legal_tiles(hand) == "5-4"
    play(hand, "5-4")
    assert legal_tiles(hand) == "5-3 5-2"
    play(hand, "5-2")
    assert legal_tiles(hand) == "5-1 5-0"
    play(hand, "5-1 3-3 3-1")
    # trick 4: South must play a three and chooses 4-3
    assert legal_tiles(hand) == "5-3 4-3 3-2"
    play(hand, "4-3 3-0")
    play(hand, " ".join(EX14_PLAYS.split()[16:24]))
    assert [t.winner for t in hand.tricks] == [N] * 6
    assert [t.points for t in hand.tricks] == [1, 1, 11, 1, 16, 6]
    result = hand.summary()
    assert hand.phase == Phase.DONE and hand.seat_to_act() is None
    assert (result.bidder, result.bid, result.contract, result.declarer) == (N, "34", "sixes", N)
    assert (result.tricks, result.points, result.made, result.score) == (6, (36, 0), True, (1, 0))
    with pytest.raises(IllegalActionError, match="the hand is over"):
        hand.apply(Play("1-0"))
    assert hand.legal_actions() == []


def test_ex14_points_game_plays_all_seven_tricks() -> None:
    hand = ex14(rules=POINTS)
    running = []
    for trick in range(7):
        play(hand, " ".join(EX14_PLAYS.split()[4 * trick : 4 * trick + 4]))
        running.append(hand.points[0])
    assert running == [1, 2, 13, 14, 30, 36, 42]
    result = hand.summary()
    assert (result.tricks, result.points, result.made, result.score) == (7, (42, 0), True, (42, 0))
    assert len(hand.plays) == 28


def test_ex14_two_mark_bid_needs_all_seven_tricks() -> None:
    hand = ex14("2m")
    play(hand, ex14_tricks(6))
    assert hand.phase == Phase.PLAY  # a mark bid is made only after the last trick
    play(hand, ex14_tricks(7).split(maxsplit=24)[-1])
    result = hand.summary()
    assert (result.bid, result.tricks, result.made, result.score) == ("2m", 7, True, (2, 0))


def test_ex14_play_sequence_from_every_seat() -> None:
    hand = ex14()
    play(hand, ex14_tricks(6))
    assert hand.play_seats[:8] == [N, E, S, W, N, E, S, W]
    assert [Play(t).notation for t in hand.plays] == EX14_PLAYS.split()[:24]


# -- Ex 15: Nel-O on the same deal -------------------------------------------------------------

EX15 = [
    ("E 2-0, S 5-2, N 6-2", N),
    ("N 3-3, E 0-0, S 2-2", N),
    ("N 1-0, E 3-1, S 6-1", S),
    ("S 4-3, N 6-4, E 4-2", N),
    ("N 6-6, E 4-4, S 1-1", N),
    ("N 5-5, E 5-4, S 5-3", N),
    ("N 6-5, E 6-3, S 3-2", N),
]


def test_ex15_nello_own_suit_full_hand() -> None:
    hand = Hand(NELLO_1M, W, EX14_DEAL)
    for call in ("pass", "1m", "pass", "pass"):
        hand.apply(hand.parse_action(call))
    assert hand.declarer == E and hand.seat_to_act() == E
    hand.apply(Declare("nello:own"))
    assert hand.out_seat == W
    seat_of = {"N": N, "E": E, "S": S}
    for number, (plays, winner) in enumerate(EX15, start=1):
        seats, tiles_played = [], []
        for item in plays.split(", "):
            who, tile = item.split()
            assert hand.seat_to_act() == seat_of[who]
            if number == 4 and who == "E":
                # 4-4 does not count as a four when doubles are their own suit
                assert legal_tiles(hand) == "5-4 4-2"
            play(hand, tile)
            seats.append(seat_of[who])
            tiles_played.append(parse_tile(tile))
        trick = hand.tricks[-1]
        assert (trick.seats, trick.tiles, trick.winner) == (
            tuple(seats),
            tuple(tiles_played),
            winner,
        )
    result = hand.summary()
    assert (result.bidder, result.bid, result.contract) == (E, "1m", "nello:own")
    assert (result.tricks, result.points, result.made, result.score) == (7, (32, 0), True, (0, 1))
    assert len(hand.plays) == 21 and hand.hands[W] == EX14_DEAL[W]


def test_ex15_in_a_points_game_scores_the_bid() -> None:
    hand = Hand(NELLO_1M.replace(game="points"), W, EX14_DEAL)
    for call in ("pass", "1m", "pass", "pass"):
        hand.apply(hand.parse_action(call))
    hand.apply(Declare("nello:own"))
    for plays, _ in EX15:
        play(hand, " ".join(item.split()[1] for item in plays.split(", ")))
    result = hand.summary()
    # a Nel-O has no points of its own to score: the bidders take the bid's 42 a mark
    assert (result.tricks, result.points, result.made, result.score) == (7, (32, 0), True, (0, 42))


# -- Ex 16, 17, 18: scoring and early ends ----------------------------------------------------


def play_out(hand: Hand, plays: str) -> None:
    """Play until the hand ends or the plays run out."""
    for word in plays.split():
        if hand.phase == Phase.DONE:
            break
        play(hand, word)


def test_ex16_points_game_bid_made_both_teams_score() -> None:
    hand = ex14_like(EX16_DEAL, "34", POINTS)
    play_out(hand, EX16_PLAYS)
    won = [0, 0]
    for trick in hand.tricks:
        won[trick.winner & 1] |= sum(1 << t for t in trick.tiles)
    assert hand_name(won[0] & COUNT_TILES) == "6-4 5-5 5-0 4-1"
    assert hand_name(won[1] & COUNT_TILES) == "3-2"
    result = hand.summary()
    assert (result.tricks, result.points, result.made, result.score) == (7, (34, 8), True, (34, 8))
    assert hand.tricks_won == (4, 3)


def test_ex16_marks_game_made_when_the_bid_is_reached() -> None:
    hand = ex14_like(EX16_DEAL, "34")
    play_out(hand, EX16_PLAYS)
    result = hand.summary()
    # North-South reach 34 with the fifth trick (1 + 11 + 16 + 6)
    assert (result.tricks, result.points, result.made, result.score) == (5, (34, 6), True, (1, 0))


def test_ex17_set_points_game_opponents_score_points_plus_bid() -> None:
    hand = ex14_like(EX16_DEAL, "35", POINTS)
    play_out(hand, EX16_PLAYS)
    result = hand.summary()
    assert (result.tricks, result.points, result.made, result.score) == (7, (34, 8), False, (0, 43))


def test_ex17_set_marks_game() -> None:
    hand = ex14_like(EX16_DEAL, "35")
    play_out(hand, EX16_PLAYS)
    result = hand.summary()
    # East-West need 43 - 35 = 8: they get there only with the last trick
    assert (result.tricks, result.points, result.made, result.score) == (7, (34, 8), False, (0, 1))


def ex14_like(deal, bid: str, rules=STANDARD, contract: str = "sixes") -> Hand:
    hand = Hand(rules, W, deal)
    for call in (bid, "pass", "pass", "pass"):
        hand.apply(hand.parse_action(call))
    hand.apply(Declare(contract))
    return hand


# found by search: the opponents take a 1-point trick and the hand goes on, then reach 2
EX18_41_DEAL = (
    tiles("6-6 6-1 5-5 5-4 5-3 3-3 3-0"),
    tiles("6-4 6-3 6-2 6-0 4-1 3-1 1-1"),
    tiles("6-5 5-1 5-0 4-0 2-0 1-0 0-0"),
    tiles("5-2 4-4 4-3 4-2 3-2 2-2 2-1"),
)
EX18_41_PLAYS = "3-3 3-1 5-0 4-3 6-1 6-3 6-5 5-2 5-1 4-4 5-5 1-1 6-6 6-4 4-0 4-2 5-3 6-0 0-0 2-2 6-2 1-0 2-1 3-0"
# the opponents reach 8 (not enough against 34) and then 9
EX18_34_DEAL = (
    tiles("6-0 5-4 5-3 5-2 4-3 2-2 2-0"),
    tiles("6-5 6-3 5-0 3-2 3-0 2-1 1-0"),
    tiles("5-5 5-1 4-4 4-0 3-3 1-1 0-0"),
    tiles("6-6 6-4 6-2 6-1 4-2 4-1 3-1"),
)
EX18_34_PLAYS = "4-3 6-3 4-4 4-2 2-1 4-0 6-6 2-0 4-1 5-4 3-2 0-0 5-3 5-0 5-1 6-1 6-2 6-0 6-5 1-1"


@pytest.mark.parametrize(
    ("deal", "bid", "plays", "opponents_after_each_trick"),
    [
        (EX18_41_DEAL, "41", EX18_41_PLAYS, [0, 0, 0, 0, 1, 2]),
        (EX18_34_DEAL, "34", EX18_34_PLAYS, [1, 2, 2, 8, 9]),
    ],
)
def test_ex18_set_once_the_opponents_hold_43_minus_the_bid(
    deal, bid, plays, opponents_after_each_trick
) -> None:
    hand = ex14_like(deal, bid)
    threshold = 43 - int(bid)
    seen = []
    for word in plays.split():
        assert hand.phase == Phase.PLAY
        play(hand, word)
        if not hand.trick:
            seen.append(hand.points[1])
            assert (hand.phase == Phase.DONE) == (hand.points[1] >= threshold)
    assert seen == opponents_after_each_trick
    result = hand.summary()
    assert (result.made, result.score) == (False, (0, 1))


@pytest.mark.parametrize("bid", ["1m", "2m"])
def test_ex18_ex19_mark_bid_set_at_the_first_opponent_trick(bid) -> None:
    # Ex 19 with Ex 14's deal: North-South take four tricks, then North leads 1-0 and West's
    # 4-1 takes the fifth
    hand = ex14(bid)
    play(hand, ex14_tricks(4))
    play(hand, "1-0 2-0 3-2")
    assert legal_tiles(hand) == "4-1"
    play(hand, "4-1")
    marks = int(bid[0])
    result = hand.summary()
    assert hand.tricks[-1].winner == W
    assert (result.tricks, result.made, result.score) == (5, False, (0, marks))


def test_ex18_threshold_for_every_point_bid() -> None:
    """A point bid B ends the moment the bidders hold B (made) or the opponents 43 - B (set)."""
    rng = random.Random(42)
    for bid in range(30, 42):
        for _ in range(25):
            hand = Hand.random(STANDARD, W, rng)
            auction(hand, N, str(bid))
            hand.apply(rng.choice(hand.legal_actions()))
            while hand.phase == Phase.PLAY:
                hand.apply(rng.choice(hand.legal_actions()))
                if hand.trick:
                    continue
                ours, theirs = hand.points
                decided = ours >= bid or theirs >= 43 - bid
                assert (hand.phase == Phase.DONE) == decided
            result = hand.summary()
            assert result.made == (result.points[0] >= bid)


# -- undo, copy and errors --------------------------------------------------------------------


def test_undo_walks_back_through_play_declaration_and_auction() -> None:
    hand = ex14()
    start = Hand(STANDARD, W, EX14_DEAL)
    play(hand, ex14_tricks(6))
    finished = hand_position(hand)
    hand.undo()
    assert hand.phase == Phase.PLAY and hand.result is None and len(hand.tricks) == 5
    assert hand.points == (30, 0) and hand.trick == [parse_tile(t) for t in ("6-2", "4-2", "2-2")]
    play(hand, "4-1")
    assert hand_position(hand) == finished
    while hand.action_count:
        hand.undo()
    assert hand_position(hand) == hand_position(start)
    assert hand.legal_mask() == start.legal_mask()
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        hand.undo()


def test_copy_is_independent() -> None:
    hand = ex14()
    play(hand, ex14_tricks(1))
    clone = hand.copy()
    play(clone, "6-5")
    assert len(hand.plays) == 4 and len(clone.plays) == 5
    hand.undo()
    assert len(clone.tricks) == 1 and clone.hands[N] != hand.hands[N]
    clone.undo()
    clone.undo()
    assert hand_position(clone) == hand_position(hand)


def test_illegal_action_changes_nothing() -> None:
    hand = ex14()
    play(hand, "6-6")
    before, mask = hand_position(hand), hand.legal_mask()
    for action in (
        Play("6-6"),
        Play("5-4"),
        Play("1-0"),
        Bid("35"),
        Pass(),
        Declare("fives"),
        99,
        -1,
    ):
        with pytest.raises(IllegalActionError):
            hand.apply(action)
        assert hand_position(hand) == before and hand.legal_mask() == mask


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Play("5-4"), "East must follow trumps: 6-3"),
        (Play("6-6"), "East does not hold 6-6"),
        (Bid("35"), "the auction is over"),
        (Pass(), "the auction is over"),
        (Declare("fives"), "the contract is named after the auction, by the declarer"),
        (130, "no action has id 130"),
    ],
)
def test_why_illegal_in_play(action, message) -> None:
    hand = ex14()
    play(hand, "6-6")
    assert hand.why_illegal(action) == message
    assert hand.why_illegal(Play("6-3")) is None


def test_why_illegal_names_every_option() -> None:
    # the example from design.md: East holds 6-5 and 5-1 in a fives lead, trump blanks
    deal = fill_deal({N: "5-3", E: "6-5 5-1 4-4"}, avoid={E: tiles("5-5 5-4 5-2 5-0")})
    hand = contract_hand("blanks", deal)
    play(hand, "5-3")
    assert hand.why_illegal(Play("4-4")) == "East must follow fives: 6-5 or 5-1"


def test_why_illegal_before_play() -> None:
    hand = Hand(STANDARD, W, EX14_DEAL)
    assert hand.why_illegal(Play("6-6")) == "tiles are played after the auction"
    assert (
        hand.why_illegal(Declare("sixes"))
        == "the contract is named after the auction, by the declarer"
    )
    auction(hand, N, "30")
    assert hand.why_illegal(Play("6-6")) == "North must name the contract before the first lead"
    assert hand.why_illegal(Pass()) == "the auction is over"


def test_non_actions_are_rejected() -> None:
    hand = ex14()
    with pytest.raises(IllegalActionError, match="not an action"):
        hand.apply("6-6")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="not an action"):
        hand.is_legal(True)  # type: ignore[arg-type]


def test_parse_action_reads_by_phase() -> None:
    hand = Hand(STANDARD, W, EX14_DEAL)
    assert hand.parse_action("30") is Bid("30")
    assert hand.parse_action("42") is Bid("1m")
    assert hand.parse_action("pass") is Pass()
    auction(hand, N, "30")
    assert hand.parse_action("6") is Declare("sixes")
    hand.apply(Declare("sixes"))
    assert hand.parse_action("30") is Play("3-0")
    assert hand.parse_action("6-6") is Play("6-6")
    with pytest.raises(NotationError):
        hand.parse_action("77")


def test_phase_machine_and_turns() -> None:
    hand = Hand(STANDARD, S, EX14_DEAL)
    assert (hand.phase, hand.first_bidder, hand.seat_to_act()) == (Phase.AUCTION, W, W)
    for seat, call in zip((W, N, E, S), ("pass", "31", "pass", "pass")):
        assert hand.seat_to_act() == seat
        hand.apply(hand.parse_action(call))
    assert (hand.phase, hand.seat_to_act(), hand.declarer) == (Phase.DECLARE, N, N)
    assert hand.winning_call is Bid("31") and hand.bidder_team == 0
    hand.apply(Declare("sixes"))
    assert (hand.phase, hand.seat_to_act(), hand.trick_leader) == (Phase.PLAY, N, N)
    assert hand.trump_description() == "sixes are trump"
    summary = hand.summary()
    assert (summary.bidder, summary.bid, summary.contract, summary.made) == (N, "31", "sixes", None)
    assert summary.score == (0, 0)


# -- regressions from the table-size review (issue 7) ---------------------------------------


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
