"""Seat views: what a seat may know, trick piles face up or down (``hide_tricks``), inferred voids."""

from __future__ import annotations

import random

import pytest

from helpers import EX14_DEAL, EX14_PLAYS, STANDARD, E, N, S, W, play
from texas42 import Declare, Hand, NotationError, Phase, Rules
from texas42.core.actions import ACTIONS, PASS_ID, Bid, Discard
from texas42.core.contracts import TRUMP
from texas42.core.notation import parse_view_position, view_position
from texas42.core.tiles import TILE_CODES, parse_tile, tiles_of


def ex14(bid: str, rules=STANDARD, tricks: int = 1, extra: str = "") -> Hand:
    hand = Hand(rules, W, EX14_DEAL)
    for call in (bid, "pass", "pass", "pass"):
        hand.apply(hand.parse_action(call))
    hand.apply(Declare("sixes"))
    play(hand, " ".join(EX14_PLAYS.split()[: 4 * tricks]) + " " + extra)
    return hand


@pytest.mark.parametrize(
    ("hide_tricks", "bid", "face_down"),
    [
        ("two-marks", "34", False),
        ("two-marks", "1m", False),
        ("two-marks", "2m", True),
        ("mark-bids", "34", False),
        ("mark-bids", "1m", True),
        ("mark-bids", "2m", True),
        ("never", "2m", False),
        ("never", "1m", False),
    ],
)
def test_hide_tricks(hide_tricks, bid, face_down) -> None:
    rules = STANDARD.replace(hide_tricks=hide_tricks)
    hand = ex14(bid, rules, tricks=1, extra="6-5 0-0")
    assert hand.tricks_hidden == face_down
    for seat in range(4):
        view = hand.view(seat)
        assert view.piles_face_down == face_down
        (trick,) = view.tricks
        assert (trick.winner, trick.leader, trick.seats) == (N, N, (N, E, S, W))
        assert trick.mine == EX14_DEAL_TILES[seat]
        assert view.tricks_won == (1, 0)
        # the trick being played lies face up either way
        assert view.trick == ((N, parse_tile("6-5")), (E, parse_tile("0-0")))
        text = view_position(view)
        if face_down:
            assert (trick.tiles, trick.points, view.points) == (None, None, None)
            own = ["66", "63", "61", "60"][seat]
            assert text.split()[7] == f"x0:{own}.65.00"
        else:
            assert trick.tiles == tuple(parse_tile(t) for t in ("6-6", "6-3", "6-1", "6-0"))
            assert trick.points == 1 and view.points == (1, 0)
            assert text.split()[7] == "66.63.61.60.65.00"
        assert parse_view_position(text) == view


EX14_DEAL_TILES = tuple(parse_tile(t) for t in ("6-6", "6-3", "6-1", "6-0"))


def test_face_down_piles_show_only_own_tiles() -> None:
    hand = ex14("2m", tricks=3)
    view = hand.view(E)
    assert [t.mine for t in view.tricks] == [parse_tile(t) for t in ("6-3", "0-0", "5-4")]
    assert view_position(view).split()[7] == "x0:63.x0:00.x0:54"
    assert view.voids == (0, 0, 0, 0)  # nothing is inferred from tricks nobody can see
    assert view.tiles_left == (4, 4, 4, 4)


def test_view_contents_in_play() -> None:
    hand = ex14("34", tricks=2, extra="5-5")
    view = hand.view(E)
    assert (view.seat, view.shaker, view.first_bidder, view.turn) == (E, W, N, E)
    assert view.phase == Phase.PLAY and view.contract is not None and str(view.contract) == "sixes"
    assert view.trump == "sixes are trump"
    assert (view.bidder, view.declarer, view.bid_marks, str(view.bid)) == (N, N, 0, "34")
    assert [str(c) for c in view.calls] == ["34", "pass", "pass", "pass"]
    assert view.dealt == EX14_DEAL[E]
    assert view.hand == hand.hands[E]
    assert view.tiles_left == (4, 5, 5, 5)
    assert view.points == (2, 0) and view.tricks_won == (2, 0)
    assert list(view.legal) == hand.legal_actions()
    assert hand.view(N).legal == () and hand.view(S).legal == ()
    # trick 2: 6-5 was trumps, and East, South and West each showed out
    assert view.voids == (0, 1 << TRUMP, 1 << TRUMP, 1 << TRUMP)


def test_view_during_the_auction_shows_only_own_tiles() -> None:
    hand = Hand(STANDARD, W, EX14_DEAL)
    hand.apply(hand.parse_action("30"))
    view = hand.view(S)
    assert view.phase == Phase.AUCTION and view.turn == E and view.legal == ()
    assert view.hand == EX14_DEAL[S] and view.contract is None and view.events == ()
    assert view_position(view).split()[4] == "?/?/61.53.52.43.32.22.11/?"
    east = hand.view(E)
    assert list(east.legal) == hand.legal_actions()


def test_nello_view_partner_sits_out() -> None:
    rules = STANDARD.replace(nello=True, nello_min_marks=1)
    hand = Hand(rules, W, EX14_DEAL)
    for call in ("pass", "1m", "pass", "pass"):
        hand.apply(hand.parse_action(call))
    hand.apply(Declare("nello:own"))
    play(hand, "2-0 5-2 6-2 3-3")
    view = hand.view(W)
    assert view.out_seat == W and view.tiles_left == (5, 6, 6, 7)
    assert view.tricks[0].seats == (E, S, N)
    assert view.points == (1, 0)  # a 1-mark Nel-O keeps piles face up under two-marks
    assert parse_view_position(view_position(view)) == view


def test_finished_hand_view() -> None:
    hand = ex14("34", tricks=6)
    view = hand.view(S)
    assert view.turn is None and view.phase == Phase.DONE and view.legal == ()
    assert view_position(view).split()[8] == "end"


def test_bad_seat() -> None:
    hand = ex14("34")
    with pytest.raises(NotationError, match=r"a seat is 0\.\.3, not 4"):
        hand.view(4)


def test_by_lead_trump_survives_face_down_piles() -> None:
    hand = Hand(STANDARD, W, EX14_DEAL)
    for call in ("2m", "pass", "pass", "pass"):
        hand.apply(hand.parse_action(call))
    hand.apply(Declare("by-lead"))
    play(hand, "6-6")
    assert str(hand.view(E).contract) == "by-lead"  # the lead is still on the table
    play(hand, "6-3 6-1 6-0 5-5")
    view = hand.view(E)
    assert (
        str(view.contract) == "sixes"
        and view.trump == hand.trump_description() == "sixes are trump"
    )
    assert view_position(view).split()[6:8] == ["sixes", "x0:63.55"]
    assert list(view.legal) == hand.legal_actions()
    assert parse_view_position(view_position(view)) == view


def test_face_down_first_trick_cannot_leave_a_by_lead_trump_unknown() -> None:
    words = "standard 0-0 1 3 ?/63.54.44.42.31.20.00/?/? 0:2m.pass.pass.pass by-lead x0:63.55 1 @1"
    with pytest.raises(
        NotationError, match="a by-lead trump cannot be read from a face-down trick"
    ):
        parse_view_position(words)


@pytest.mark.parametrize(
    ("plays", "words"),
    [
        ("x0", "a face-down trick must give this seat's own tile, if it played"),
        ("x0:63.x0:63", "6-3 is played twice"),
        ("x0:63.63", "6-3 is played twice"),
        ("54", "5-4 is this seat's tile, played by seat 0"),
        ("66.x0:63", "a face-down trick cannot start in the middle of a trick"),
    ],
)
def test_a_seat_view_refuses_plays_its_seat_could_not_have_seen(plays: str, words: str) -> None:
    """East's view of a 2-mark hand (piles face down): each face-down trick and face-up tile
    is checked against the tricks before it and East's own tiles."""
    position = f"standard 0-0 1 3 ?/63.54.44.42.31.20.00/?/? 0:2m.pass.pass.pass sixes {plays} 0 @1"
    with pytest.raises(NotationError, match=words):
        parse_view_position(position)


# -- regressions from the table-size review (issue 7) ---------------------------------------


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
