"""The auction (`texas42.core.auction`): rules.md Ex 20 (bid legality) and Ex 21 (all pass), and
every option that shapes the bidding: first bidder, minimum bid, mark-bid limits, all pass, Plunge
and Splash; then the auction's functions on their own, as `Hand` and the seat views call them."""

from __future__ import annotations

import pytest

from helpers import EX14_DEAL, STANDARD, E, N, S, W, fill_deal, tiles
from texas42 import Bid, Declare, Hand, IllegalActionError, NotationError, Pass, Phase, Rules
from texas42.core.actions import ACTIONS, MARK_BID_BASE, PASS_ID, PLUNGE_ID, SPLASH_ID, parse_call
from texas42.core.auction import (
    call_value,
    legal_calls,
    legal_declarations,
    plain_contracts,
    special_bid_marks,
    why_call_illegal,
    why_declaration_illegal,
)
from texas42.core.contracts import Contract

POINT_BIDS = {str(p) for p in range(30, 42)}


def calls(hand: Hand) -> set[str]:
    """The legal calls, as written."""
    return {str(a) for a in hand.legal_actions()}


def bid(hand: Hand, *words: str) -> None:
    for word in words:
        hand.apply(parse_call(word, hand.rules))


def ex20(rules=STANDARD, deal=EX14_DEAL) -> Hand:
    """Ex 20: shaker South, so the order is West, North, East, South."""
    hand = Hand(rules, S, deal)
    assert hand.first_bidder == W
    return hand


# -- Ex 20: bid legality, majority rule ---------------------------------------------------------


def test_opening_calls() -> None:
    assert calls(ex20()) == {"pass"} | POINT_BIDS | {"1m", "2m"}


def test_ex20_jump_to_two_marks_then_one_more() -> None:
    hand = ex20()
    bid(hand, "30", "pass")
    assert calls(hand) == {"pass", "1m", "2m"} | {str(p) for p in range(31, 42)}
    bid(hand, "84")
    assert calls(hand) == {"pass", "3m"}
    bid(hand, "3m")
    assert (hand.phase, hand.declarer, hand.bid_marks, hand.winning_call) == (
        Phase.DECLARE,
        S,
        3,
        Bid("3m"),
    )


def test_ex20_two_marks_then_four_is_illegal() -> None:
    hand = ex20()
    bid(hand, "2m", "pass")
    assert hand.why_illegal(Bid("4m")) == "after 2m the bid may go up to 3m"
    with pytest.raises(IllegalActionError, match="after 2m the bid may go up to 3m"):
        hand.apply(Bid("4m"))
    assert calls(hand) == {"pass", "3m"}


def test_ex20_a_bid_must_be_higher() -> None:
    hand = ex20()
    bid(hand, "31")
    assert hand.why_illegal(Bid("30")) == "a bid must beat 31"
    assert hand.why_illegal(Bid("31")) == "a bid must beat 31"
    bid(hand, "1m")
    assert hand.why_illegal(Bid("41")) == "a bid must beat 1m"
    assert hand.why_illegal(Bid("1m")) == "a bid must beat 1m"
    assert hand.why_illegal(Bid("29")) == "bids start at 30"


def test_ex20_high_bidder_plays_whatever_partners_call() -> None:
    hand = ex20()
    bid(hand, "30", "pass", "pass", "pass")
    assert (hand.phase, hand.declarer, hand.seat_to_act(), hand.winning_call) == (
        Phase.DECLARE,
        W,
        W,
        Bid("30"),
    )


def test_ex20_outbidding_a_partner_is_legal() -> None:
    hand = ex20()
    bid(hand, "30", "32", "pass", "33")
    assert (hand.declarer, hand.high_value) == (S, 33)


def test_ex20_lechner_raises_two_marks_at_a_time() -> None:
    hand = ex20(STANDARD.replace(mark_raise=2))
    bid(hand, "30", "2m")
    assert calls(hand) == {"pass", "3m", "4m"}
    assert hand.why_illegal(Bid("5m")) == "after 2m the bid may go up to 4m"
    bid(hand, "4m")
    assert calls(hand) == {"pass", "5m", "6m"}
    bid(hand, "6m")
    assert hand.bid_marks == 6 and hand.declarer == S


FOUR_DOUBLES = fill_deal({E: "6-6 5-5 4-4 3-3"}, avoid={W: tiles("2-2 1-1 0-0")})
PLUNGE = STANDARD.replace(plunge=True)
HOUSE = Rules.preset("house")


def test_ex20_plunge_opening_and_overbid() -> None:
    hand = ex20(PLUNGE, FOUR_DOUBLES)
    bid(hand, "pass", "pass")
    assert "plunge" in calls(hand)
    bid(hand, "plunge")
    assert hand.bid_marks == 4 and hand.high_value == 168
    assert calls(hand) == {"pass", "5m"}
    assert hand.why_illegal(Bid("6m")) == "after plunge the bid may go up to 5m"
    bid(hand, "5m")
    assert (hand.declarer, hand.bid_marks) == (S, 5)


def test_plunge_partner_declares_and_leads() -> None:
    hand = ex20(HOUSE, FOUR_DOUBLES)
    bid(hand, "pass", "pass", "plunge", "pass")
    assert (hand.phase, hand.declarer, hand.seat_to_act()) == (Phase.DECLARE, W, W)
    assert hand.high_seat == E
    declarations = calls(hand)
    assert "nello" not in declarations and "sevens" not in declarations
    assert {"sixes", "doubles", "follow-me", "by-lead"} <= declarations
    assert hand.why_illegal(Declare("nello")) == "Nel-O cannot be called after a plunge or splash"
    assert hand.why_illegal(Declare("sevens")) == "Sevens cannot be called after a plunge or splash"
    hand.apply(Declare("doubles"))
    assert hand.seat_to_act() == W and hand.trick_leader == W


def test_plunge_only_before_anyone_has_bid() -> None:
    hand = ex20(PLUNGE, FOUR_DOUBLES)
    bid(hand, "30", "pass")
    assert "plunge" not in calls(hand)
    assert (
        hand.why_illegal(Bid("plunge"))
        == "plunge may be called only before anyone has bid (the bid is 30)"
    )


def test_plunge_needs_four_doubles() -> None:
    deal = fill_deal({E: "6-6 5-5 4-4"}, avoid={E: tiles("3-3 2-2 1-1 0-0")})
    hand = ex20(PLUNGE, deal)
    bid(hand, "pass", "pass")
    assert "plunge" not in calls(hand)
    assert hand.why_illegal(Bid("plunge")) == "plunge needs at least 4 doubles in hand"


def test_plunge_off() -> None:
    hand = ex20(STANDARD, FOUR_DOUBLES)
    bid(hand, "pass", "pass")
    assert hand.why_illegal(Bid("plunge")) == "plunge is not played under these rules"
    assert hand.why_illegal(Bid("splash")) == "splash is not played under these rules"


def test_plunge_needs_66() -> None:
    no_66 = fill_deal({E: "5-5 4-4 3-3 2-2"}, avoid={E: tiles("6-6")})
    rules = PLUNGE.replace(plunge_needs_66=True)
    hand = ex20(rules, no_66)
    bid(hand, "pass", "pass")
    assert hand.why_illegal(Bid("plunge")) == "plunge needs the 6-6 under these rules"
    hand = ex20(rules, FOUR_DOUBLES)
    bid(hand, "pass", "pass")
    assert "plunge" in calls(hand)
    hand = ex20(PLUNGE, no_66)
    bid(hand, "pass", "pass")
    assert "plunge" in calls(hand)


@pytest.mark.parametrize("marks", [2, 3, 5])
def test_plunge_marks(marks) -> None:
    hand = ex20(PLUNGE.replace(plunge_marks=marks), FOUR_DOUBLES)
    bid(hand, "pass", "pass", "plunge")
    assert hand.bid_marks == marks
    assert "pass" in calls(hand) and f"{marks + 1}m" in calls(hand)
    assert f"{marks}m" not in calls(hand)


def test_plunge_timing_jump() -> None:
    rules = PLUNGE.replace(plunge_timing="jump")
    hand = ex20(rules, FOUR_DOUBLES)
    bid(hand, "30", "pass")
    assert "plunge" in calls(hand)
    bid(hand, "plunge")
    assert hand.bid_marks == 4
    # over a 4-mark bid the plunge is worth one mark more
    hand = ex20(rules, FOUR_DOUBLES)
    bid(hand, "2m", "3m")
    assert "plunge" in calls(hand)
    hand.apply(Bid("4m"))
    assert hand.bid_marks == 4
    assert calls(hand) == {"pass", "5m"}
    deal = fill_deal({S: "6-6 5-5 4-4 3-3"})
    hand = ex20(rules, deal)
    bid(hand, "2m", "3m", "4m", "plunge")
    assert (hand.bid_marks, hand.declarer) == (5, N)


def test_splash() -> None:
    three = fill_deal({E: "6-6 5-5 4-4"}, avoid={E: tiles("3-3 2-2 1-1 0-0")})
    rules = STANDARD.replace(splash=True)
    hand = ex20(rules, three)
    bid(hand, "pass", "pass")
    assert "splash" in calls(hand) and "plunge" not in calls(hand)
    bid(hand, "splash")
    assert hand.bid_marks == 2 and calls(hand) == {"pass", "3m"}
    bid(hand, "pass")
    assert hand.declarer == W
    hand = ex20(rules.replace(splash_marks=3), three)
    bid(hand, "pass", "pass", "splash")
    assert hand.bid_marks == 3
    two = fill_deal({E: "6-6 5-5"}, avoid={E: tiles("4-4 3-3 2-2 1-1 0-0")})
    hand = ex20(rules, two)
    bid(hand, "pass", "pass")
    assert hand.why_illegal(Bid("splash")) == "splash needs at least 3 doubles in hand"


def test_splash_partner_declares_and_leads() -> None:
    rules = STANDARD.replace(splash=True)
    hand = Hand(rules, W, EX14_DEAL)  # North holds 6-6, 5-5 and 3-3
    bid(hand, "splash", "pass", "pass", "pass")
    assert hand.declarer == S
    hand.apply(Declare("sixes"))
    assert hand.seat_to_act() == S


# -- Ex 21: all pass -------------------------------------------------------------------------


def test_ex21_forced_shaker_must_bid() -> None:
    hand = ex20()
    bid(hand, "pass", "pass", "pass")
    assert hand.seat_to_act() == S
    assert "pass" not in calls(hand) and calls(hand) == POINT_BIDS | {"1m", "2m"}
    assert hand.why_illegal(Pass()) == "everyone else passed, so South, the last to call, must bid"
    bid(hand, "30")
    assert (hand.declarer, hand.winning_call) == (S, Bid("30"))


def test_ex21_reshake_nobody_scores() -> None:
    hand = ex20(STANDARD.replace(all_pass="reshake"))
    bid(hand, "pass", "pass", "pass")
    assert "pass" in calls(hand)
    bid(hand, "pass")
    result = hand.summary()
    assert hand.phase == Phase.DONE and result.reshaken
    assert (result.bidder, result.bid, result.contract, result.score) == (None, None, None, (0, 0))


# -- first bidder and bid limits ---------------------------------------------------------------


def test_first_bidder_holder_of_the_one_blank() -> None:
    rules = STANDARD.replace(first_bidder="holder-1-0")
    deal = fill_deal({S: "1-0"})
    hand = Hand(rules, N, deal)
    assert hand.first_bidder == S and hand.seat_to_act() == S
    bid(hand, "pass", "pass", "pass")
    assert hand.seat_to_act() == E and "pass" not in calls(hand)
    assert hand.why_illegal(Pass()) == "everyone else passed, so East, the last to call, must bid"


def test_first_bidder_shaker() -> None:
    hand = Hand(STANDARD.replace(first_bidder="shaker"), E, EX14_DEAL)
    assert hand.first_bidder == E
    bid(hand, "30", "31", "pass", "pass")
    assert hand.declarer == S


def test_min_bid() -> None:
    hand = ex20(STANDARD.replace(min_bid=32))
    assert calls(hand) == {"pass", "1m", "2m"} | {str(p) for p in range(32, 42)}
    assert hand.why_illegal(Bid("31")) == "bids start at 32"


def test_max_opening_marks() -> None:
    hand = ex20(STANDARD.replace(max_opening_marks=1))
    assert hand.why_illegal(Bid("2m")) == "an opening mark bid may be at most 1m"
    bid(hand, "1m")
    assert calls(hand) == {"pass", "2m"}
    hand = ex20(STANDARD.replace(max_opening_marks=3))
    bid(hand, "35")
    assert {"1m", "2m", "3m"} <= calls(hand) and "4m" not in calls(hand)
    bid(hand, "3m")
    assert calls(hand) == {"pass", "4m"}


def test_max_bid_marks() -> None:
    hand = ex20(STANDARD.replace(max_bid_marks=3))
    bid(hand, "2m", "3m")
    assert calls(hand) == {"pass"}
    assert hand.why_illegal(Bid("4m")) == "bids go up to 3m under these rules"
    hand = ex20(STANDARD.replace(max_bid_marks=1))
    assert "2m" not in calls(hand) and "1m" in calls(hand)


def test_marks_never_go_past_seven() -> None:
    hand = ex20(STANDARD.replace(mark_raise=2))
    bid(hand, "2m", "4m", "6m")
    assert calls(hand) == {"pass", "7m"}


# -- call notation ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("30", "30"),
        ("42", "1m"),
        ("84", "2m"),
        ("1 mark", "1m"),
        ("3marks", "3m"),
        ("Plunge", "plunge"),
        ("SPLASH", "splash"),
        ("pass", "pass"),
        ("p", "pass"),
    ],
)
def test_call_spellings(text, canonical) -> None:
    assert parse_call(text, STANDARD).notation == canonical


@pytest.mark.parametrize("text", ["44", "8m", "0m", "-1", "thirty", "", "30.5"])
def test_bad_calls(text) -> None:
    with pytest.raises(NotationError, match="not a bid"):
        parse_call(text, STANDARD)


def test_bid_values() -> None:
    assert (Bid(35).points, Bid(35).marks, Bid(35).is_mark_bid) == (35, 0, False)
    assert (Bid("2m").points, Bid("2m").marks, Bid("2m").is_mark_bid) == (84, 2, True)
    assert Bid("plunge").special == "plunge" and Bid("42") is Bid("1m")


def test_opening_limit_with_two_mark_raises() -> None:
    # a point bid counts as no marks, so a 2-mark raise allows a 2-mark opening
    hand = ex20(STANDARD.replace(max_opening_marks=1, mark_raise=2))
    assert {"1m", "2m"} <= calls(hand) and "3m" not in calls(hand)
    assert hand.why_illegal(Bid("3m")) == "an opening mark bid may be at most 2m"


# -- the auction's functions -------------------------------------------------------------------


def ids(mask: int) -> set[str]:
    return {ACTIONS[i].notation for i in range(len(ACTIONS)) if mask >> i & 1}


def test_legal_calls_open_and_after_a_bid() -> None:
    assert ids(legal_calls(STANDARD, 0, None, 0, 0)) == {"pass"} | POINT_BIDS | {"1m", "2m"}
    after_35 = ids(legal_calls(STANDARD, 1, N, 35, 0))
    assert "35" not in after_35 and {"36", "41", "1m", "2m"} <= after_35
    # the last seat with no bid yet must bid under all_pass=forced
    assert "pass" not in ids(legal_calls(STANDARD, 3, None, 0, 0))


def test_legal_calls_offer_plunge_to_four_doubles() -> None:
    house = Rules.preset("house")
    four = tiles("6-6 5-5 4-4 3-3 6-5 6-4 6-3")
    assert "plunge" in ids(legal_calls(house, 0, None, 0, four))
    assert "plunge" not in ids(legal_calls(house, 0, None, 0, tiles("6-6 5-5 4-4 6-5")))


def test_call_value_marks_and_what_the_next_bid_must_beat() -> None:
    assert call_value(STANDARD, Bid("31").id, 0) == (0, 31)
    assert call_value(STANDARD, MARK_BID_BASE + 2, 31) == (2, 84)
    assert special_bid_marks(Rules.preset("house"), PLUNGE_ID, 0) == 4
    assert special_bid_marks(Rules.preset("house"), SPLASH_ID, 0) == 2


def test_legal_declarations_and_plain_contracts() -> None:
    named = {str(c) for c in plain_contracts(STANDARD, Bid("30").id, 0)}
    suits = {"blanks", "ones", "twos", "threes", "fours", "fives", "sixes"}
    assert named == suits | {"doubles", "follow-me"}
    nello = STANDARD.replace(nello=True)
    assert not legal_declarations(nello, Bid("1m").id, 1) >> Declare("nello").id & 1
    assert legal_declarations(nello, Bid("2m").id, 2) >> Declare("nello").id & 1


def test_why_a_call_or_a_contract_is_illegal() -> None:
    assert why_call_illegal(STANDARD, Bid("29").id, "West", None, 0, 0) == "bids start at 30"
    assert (
        why_call_illegal(STANDARD, PASS_ID, "South", None, 0, 0)
        == "everyone else passed, so South, the last to call, must bid"
    )
    sevens = Declare(Contract("sevens")).id
    assert (
        why_declaration_illegal(STANDARD, sevens, Bid("30").id, 0)
        == "Sevens is not played under these rules"
    )
