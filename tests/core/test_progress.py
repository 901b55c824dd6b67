"""How a hand moves on (`texas42.core.progress`): turns with a seat sitting out, taking a trick,
the sides' totals, and when a bid is decided."""

from __future__ import annotations

from helpers import STANDARD, E, N, S, W
from texas42 import Bid, Rules
from texas42.core.actions import MOON_ID, PLUNGE_ID
from texas42.core.contracts import Contract, tables_for
from texas42.core.progress import (
    Trick,
    add_trick,
    auction_over,
    bid_decided,
    declarer_of,
    next_player,
    sitting_out,
    take_trick,
    trick_size,
)
from texas42.core.tiles import parse_tile

FOUR = STANDARD.layout
SIXES = Contract("suit", 6)


def test_the_auction_ends_after_every_seat_or_a_moon() -> None:
    assert not auction_over(FOUR, 3, Bid("30").id)
    assert auction_over(FOUR, 4, None)
    assert auction_over(Rules.preset("moon").layout, 1, MOON_ID)


def test_partner_declares_after_a_plunge() -> None:
    assert declarer_of(FOUR, PLUNGE_ID, E) == W
    assert declarer_of(FOUR, Bid("30").id, E) == E


def test_the_nello_partner_sits_out_and_is_passed_over() -> None:
    out = sitting_out(FOUR, Contract("nello"), N)
    assert out == S and sitting_out(FOUR, SIXES, N) is None
    assert trick_size(FOUR, out) == 3 and trick_size(FOUR, None) == 4
    assert [next_player(4, s, out) for s in (N, E, W)] == [E, W, N]
    assert next_player(4, W, None) == N


def test_take_trick_and_add_it_to_the_winners_side() -> None:
    played = tuple(parse_tile(t) for t in ("6-4", "5-5", "6-6", "2-1"))  # North leads the 6-4
    trick = take_trick(FOUR, tables_for(SIXES, STANDARD), (N, E, S, W), played)
    assert trick == Trick(N, (N, E, S, W), played, S, 21)  # the 6-6 takes 6-4 and 5-5: 20 + 1
    assert add_trick(FOUR, (0, 0), (0, 0), trick.winner, trick.points) == ((21, 0), (1, 0))
    six = Rules.preset("six-hand").layout
    assert add_trick(six, (0, 0, 0), (0, 0, 0), 4, 5) == ((0, 5, 0), (0, 1, 0))


def test_a_bid_is_decided_once_made_or_set() -> None:
    open_ = bid_decided(STANDARD, SIXES, N, 0, 34, (30, 8), (5, 1), N)
    made = bid_decided(STANDARD, SIXES, N, 0, 34, (34, 8), (5, 1), N)
    set_ = bid_decided(STANDARD, SIXES, N, 0, 34, (20, 9), (4, 2), E)
    assert (open_, made, set_) == (None, True, False)
    # a mark bid is set by the first trick the other side takes
    assert bid_decided(STANDARD, SIXES, N, 2, 84, (10, 1), (1, 1), E) is False
    # a points game plays every trick before it says
    points = STANDARD.replace(game="points")
    assert bid_decided(points, SIXES, N, 0, 34, (34, 8), (5, 1), N) is None
