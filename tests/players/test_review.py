"""Hand review: play values and costs on the shared example records, bid shares (the words
the faces print of it are tested with each face)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from texas42 import Hand, Phase, Rules
from texas42.core.actions import ACTIONS, PASS_ID
from texas42.core.notation import hand_position, parse_hand_position
from texas42.core.record import Record, RecordError, check_record
from texas42.core.tiles import tile_name
from texas42.players.review import (
    bid_worlds,
    review_bid,
    review_hand,
    review_record,
    solve_position,
    start_of_play,
)
from texas42.search.solver import PlayPosition, Solver

EXAMPLES = Path(__file__).parents[2] / "examples"


def load(name: str) -> Record:
    return Record.from_json((EXAMPLES / name).read_text())


def test_ex14_plays_are_valued_double_dummy() -> None:
    """rules.md Ex 14 (marks game, North 34 in sixes). North holds the top three trumps and
    draws them; South's 1-1 at play 7 lets East-West in for 6 points, and West's 4-1 at play 24
    (instead of 5-0, which keeps 4-1 to win the last trick) gives them back."""
    review = review_record(load("ex14-marks.json"), bid_samples=0).to_dict()
    (hand,) = review["hands"]
    assert (hand["bidder"], hand["contract"], hand["unit"]) == (0, "sixes", "points")
    plays = hand["plays"]
    assert len(plays) == 24
    assert plays[0] == {
        "index": 1,
        "seat": 0,
        "tile": "6-6",
        "value_before": 42,
        "value_after": 42,
        "best": ["6-6", "6-5", "6-4", "5-5", "3-3", "1-0"],
        "cost": 0,
    }
    assert plays[6] == {
        "index": 7,
        "seat": 2,
        "tile": "1-1",
        "value_before": 42,
        "value_after": 36,
        "best": ["5-3", "5-2", "4-3", "3-2", "2-2"],
        "cost": 6,
    }
    assert plays[23] == {
        "index": 24,
        "seat": 3,
        "tile": "4-1",
        "value_before": 36,
        "value_after": 42,
        "best": ["5-0"],
        "cost": 6,
    }
    assert hand["mistakes"] == [7, 24]
    assert [p["cost"] for p in plays if p["index"] not in (7, 24)] == [0] * 22


def test_values_chain_and_costs_match_the_difference() -> None:
    for name in ("ex14-marks.json", "ex14-points.json", "ex15-nello.json"):
        (hand,) = review_record(load(name), bid_samples=0).hands
        for play, following in zip(hand.plays, hand.plays[1:]):
            assert play.value_after == following.value_before
        for play in hand.plays:
            assert play.cost >= 0
            assert (play.cost == 0) == (play.tile in play.best)
            assert abs(play.value_before - play.value_after) == play.cost


def test_best_tiles_are_exactly_those_keeping_the_value() -> None:
    (played,) = check_record(load("ex14-points.json")).hands
    start = PlayPosition.from_hand(parse_hand_position(_start_text(played))[0])
    (hand,) = review_record(load("ex14-points.json"), bid_samples=0).hands
    position = start
    for play in hand.plays[:8]:
        fresh = Solver()
        for tile in range(28):
            if position.legal() >> tile & 1:
                child = position.play(tile)
                total = child.taken + fresh.value(child)
                assert (total == play.value_before) == (tile in play.best), tile_name(tile)
        position = position.play(play.tile)


def _start_text(hand: object) -> str:
    from texas42 import Hand
    from texas42.core.actions import Declare

    assert isinstance(hand, Hand) and hand.contract is not None
    start = Hand(hand.rules, hand.shaker, hand.deal)
    for call in hand.calls:
        start.apply(call)
    start.apply(Declare(hand.contract))
    return hand_position(start)


def test_nello_is_valued_in_the_bidders_tricks() -> None:
    (hand,) = review_record(load("ex15-nello.json"), bid_samples=0).hands
    assert hand.unit == "tricks"
    assert hand.contract == "nello:own"
    assert all(0 <= p.value_before <= 7 for p in hand.plays)
    # East took no trick in the record: the last position's value is what East actually took
    assert hand.plays[-1].value_after == 0


def test_bids_are_judged_from_the_bidders_view() -> None:
    record = load("ex14-marks.json")
    review = review_record(record, bid_samples=24, seed=5)
    (bid,) = review.hands[0].bids
    assert (bid.index, bid.seat, bid.bid, bid.contract, bid.samples) == (1, 0, "34", "sixes", 24)
    assert 0.0 <= bid.make_share <= 1.0 and bid.make_share == bid.shares["sixes"]
    assert review_record(record, bid_samples=24, seed=5) == review
    (again,) = review_record(record, bid_samples=24, seed=5).hands[0].bids
    assert again.make_share == bid.make_share


def test_an_overcalled_bid_is_judged_with_its_best_contract() -> None:
    (played,) = check_record(load("ex14-marks.json")).hands
    from texas42 import Hand

    hand = Hand(played.rules, played.shaker, played.deal)
    for word in ("30", "31", "pass", "pass"):
        hand.apply(hand.parse_action(word))
    hand.apply(hand.parse_action("fives"))
    review = review_hand(hand, bid_samples=12)
    first, second = review.bids
    assert (first.seat, first.bid, second.seat, second.bid) == (0, "30", 1, "31")
    assert first.contract == max(first.shares, key=lambda name: first.shares[name])
    assert {"sixes", "doubles", "follow-me"} <= set(first.shares)
    assert second.contract == "fives" and set(second.shares) == {"fives"}
    assert review.plays == ()


def test_a_bid_s_figures_at_a_position_are_the_review_s_of_its_record() -> None:
    """`bid_worlds` and `review_bid`, the bid's figures for a position (bidding practice's),
    are what reviewing a record of that auction gives: the same deals drawn, the same shares."""
    (played,) = check_record(load("ex14-marks.json")).hands
    hand = Hand(played.rules, played.shaker, played.deal)
    for word in ("30", "31", "pass"):
        hand.apply(hand.parse_action(word))
    before = hand.copy()
    call = hand.parse_action("32").id
    hand.apply(call)
    review = review_hand(hand, bid_samples=12, rng=random.Random(7))
    worlds = bid_worlds(before, 12, random.Random(7))
    alone = review_bid(before, call, worlds, Solver(), index=4)
    assert review.bids[-1] == alone and alone.bid == "32" and alone.samples == 12
    assert start_of_play(played).phase == Phase.PLAY


def test_solve_position_lists_every_legal_tile() -> None:
    text = (
        "standard 0-0 1 3 66.65.64.62.55.33.10/63.54.44.42.31.20.00/61.53.52.43.32.22.11/"
        "60.51.50.41.40.30.21 0:34.pass.pass.pass sixes 66.63.61.60.65 1"
    )
    solution = solve_position(parse_hand_position(text)[0])
    assert (solution.turn, solution.bidder, solution.taken, solution.value) == (1, 0, 1, 42)
    assert {tile_name(m.tile) for m in solution.moves} == {"5-4", "4-4", "4-2", "3-1", "2-0", "0-0"}
    assert all(m.best and m.value == 42 for m in solution.moves)


def test_a_record_that_breaks_the_rules_is_not_reviewed() -> None:
    with pytest.raises(RecordError):
        review_record(load("ex14-too-long.json"))


def test_reshaken_hand_has_no_plays() -> None:
    (played,) = check_record(load("ex14-marks.json")).hands
    from texas42 import Hand
    from texas42.core.rules import Rules

    hand = Hand(Rules.parse("standard,all_pass=reshake"), played.shaker, played.deal)
    for _ in range(4):
        hand.apply(hand.parse_action("pass"))
    review = review_hand(hand, bid_samples=8)
    assert (review.bidder, review.contract, review.plays, review.bids) == (None, None, (), ())


TABLES = ("three-hand", "moon", "five-hand", "six-hand", "six-hand,teams=threes", "seven-hand")


def played_hand(text: str, seed: int) -> Hand:
    """A seeded hand on the table ``text`` played out at random (redealt until someone bids)."""
    rules = Rules.parse(text)
    rng = random.Random(seed)
    while True:
        hand = Hand.random(rules, rng.randrange(rules.seats), rng)
        while hand.phase != Phase.DONE:
            hand.apply(rng.choice(hand.legal_actions()))
        if hand.contract is not None:
            return hand


@pytest.mark.parametrize("text", TABLES)
def test_a_hand_on_every_table_is_reviewed_against_the_solver(text: str) -> None:
    """Each play's values, best tiles and cost are the solver's at that point of the hand; the
    bids are judged where there is no widow (Moon's discard is left to the bid winner)."""
    hand = played_hand(text, 5)
    review = review_hand(hand, solver=Solver(), bid_samples=2)
    assert review.bidder == hand.high_seat and review.contract == str(hand.contract)
    assert len(review.plays) == len(hand.plays) > 0
    start = hand.copy()
    for _ in hand.plays:
        start.undo()
    position = PlayPosition.from_hand(start)
    solver = Solver()
    for play, tile in zip(review.plays, hand.plays):
        values = solver.move_values(position)
        maximizing = position.maximizing(position.turn)
        best = max(values.values()) if maximizing else min(values.values())
        assert (play.seat, play.tile) == (position.turn, tile)
        assert play.value_before == position.taken + best
        assert play.value_after == position.taken + values[tile]
        assert set(play.best) == {t for t, v in values.items() if v == best}
        assert play.cost == abs(best - values[tile])
        position = position.play(tile)
    seats = hand.layout.seats
    bids = [((hand.first_bidder + k) % seats, c) for k, c in enumerate(hand.calls) if c != PASS_ID]
    if hand.layout.widow:
        assert hand.discards and review.bids == ()
    else:
        assert [(b.seat, b.bid) for b in review.bids] == [(s, ACTIONS[c].notation) for s, c in bids]
        assert all(0.0 <= b.make_share <= 1.0 and b.samples == 2 for b in review.bids)
