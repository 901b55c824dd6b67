"""Following and trick-taking under every contract: rules.md Ex 1-13 and 22, the edge-case
checklist of section 6.7, and the options that change how a contract plays."""

from __future__ import annotations

import pytest

from helpers import (
    STANDARD,
    E,
    N,
    S,
    W,
    contract_hand,
    fill_deal,
    legal_tiles,
    play,
    sevens_distance,
    suit,
    tiles,
)
from texas42 import Contract, Declare, IllegalActionError, NotationError, Phase, Play
from texas42.core.contracts import DOUBLES_SUIT, TRUMP, tables_for
from texas42.core.tiles import DOUBLES, hand_name, parse_tile

HOUSE_NELLO = STANDARD.replace(nello=True, nello_min_marks=1)


def order_by_power(contract: str, led: str, candidates: str, rules=STANDARD) -> list[str]:
    """Tiles of ``candidates`` that follow or trump a ``led`` tile, strongest first."""
    tables = tables_for(Contract.parse(contract), rules)
    ranks = tables.power[tables.led[parse_tile(led)]]
    scored = [(ranks[parse_tile(t)], t) for t in candidates.split() if ranks[parse_tile(t)]]
    return [t for _, t in sorted(scored, reverse=True)]


# -- rules.md section 17, examples 1-13 and 22 --------------------------------------------------


def test_ex1_suit_trump_led_top_trump_wins() -> None:
    hand = contract_hand("fours", fill_deal({N: "4-2", E: "4-0", S: "4-4", W: "6-4"}))
    play(hand, "4-2")
    assert hand.legal_mask() == hand.hands[E] & suit(4)
    play(hand, "4-0 4-4 6-4")
    (trick,) = hand.tricks
    assert (trick.winner, trick.points) == (S, 11)
    assert hand.points == (11, 0) and hand.seat_to_act() == S


def test_ex2_a_trump_is_not_a_member_of_its_other_suit() -> None:
    deal = fill_deal(
        {N: "2-1", E: "4-2 5-0 6-6", S: "2-0", W: "4-3"},
        avoid={E: suit(2, trump=4), W: suit(2, trump=4)},
    )
    hand = contract_hand("fours", deal)
    play(hand, "2-1")
    assert legal_tiles(hand) == hand_name(hand.hands[E])
    assert {"4-2", "5-0", "6-6"} <= set(legal_tiles(hand).split())
    play(hand, "5-0 2-0 4-3")
    assert (hand.tricks[0].winner, hand.tricks[0].points) == (W, 6)
    assert hand.points == (0, 6)


def test_ex3_lower_end_members_must_follow() -> None:
    deal = fill_deal({N: "5-3", E: "3-3 6-5 1-0", S: "5-5", W: "5-4"}, avoid={E: suit(5, trump=0)})
    hand = contract_hand("blanks", deal)
    play(hand, "5-3")
    assert legal_tiles(hand) == "6-5"
    assert hand.why_illegal(Play("3-3")) == "East must follow fives: 6-5"
    play(hand, "6-5 5-5 5-4")
    assert (hand.tricks[0].winner, hand.tricks[0].points) == (S, 11)


def test_ex4_lead_whose_lower_end_is_trump_is_a_trump_lead() -> None:
    no_deuces = suit(2)
    deal = fill_deal(
        {N: "6-2", E: "6-5 2-0 3-1", S: "6-6", W: "5-1"},
        avoid={E: no_deuces, S: no_deuces, W: no_deuces},
    )
    hand = contract_hand("twos", deal)
    play(hand, "6-2")
    assert legal_tiles(hand) == "2-0"
    assert hand.why_illegal(Play("6-5")) == "East must follow trumps: 2-0"
    play(hand, "2-0")
    assert legal_tiles(hand) == hand_name(hand.hands[S])
    play(hand, "6-6 5-1")
    assert (hand.tricks[0].winner, hand.tricks[0].points) == (N, 1)


def test_ex5_voidness_created_by_trump() -> None:
    void = suit(6, trump=5)
    deal = fill_deal({N: "6-2", E: "6-5 1-0 3-2", S: "6-0", W: "3-3"}, avoid={E: void, W: void})
    hand = contract_hand("fives", deal)
    play(hand, "6-2")
    assert legal_tiles(hand) == hand_name(hand.hands[E])
    play(hand, "6-5 6-0 3-3")
    assert (hand.tricks[0].winner, hand.tricks[0].points) == (E, 1)


def test_ex6_doubles_trump_double_led() -> None:
    deal = fill_deal(
        {N: "6-6", E: "6-4 3-2 1-0", S: "1-1", W: "2-2 5-4"}, avoid={E: DOUBLES, W: DOUBLES}
    )
    hand = contract_hand("doubles", deal)
    play(hand, "6-6")
    assert legal_tiles(hand) == hand_name(hand.hands[E])
    play(hand, "3-2 1-1")
    assert legal_tiles(hand) == "2-2"
    play(hand, "2-2")
    assert (hand.tricks[0].winner, hand.tricks[0].points) == (N, 6)


def test_ex7_doubles_trump_non_double_led() -> None:
    sixes = suit(6, doubles=False)
    deal = fill_deal(
        {N: "6-4", E: "6-6 6-1 3-0", S: "5-5 2-1", W: "6-5"}, avoid={E: sixes, S: sixes}
    )
    hand = contract_hand("doubles", deal)
    play(hand, "6-4")
    assert legal_tiles(hand) == "6-1"
    play(hand, "6-1")
    assert legal_tiles(hand) == hand_name(hand.hands[S])
    play(hand, "5-5 6-5")
    assert (hand.tricks[0].winner, hand.tricks[0].points) == (S, 21)


@pytest.mark.parametrize(
    ("contract", "rules", "winner", "points"),
    [
        ("follow-me", STANDARD, N, (16, 0)),  # Ex 8: doubles high
        ("follow-me:high", STANDARD, N, (16, 0)),
        ("follow-me:low", STANDARD, E, (0, 16)),  # Ex 9: doubles low
        ("follow-me", STANDARD.replace(follow_me_doubles="low"), E, (0, 16)),
    ],
)
def test_ex8_ex9_follow_me_doubles_high_or_low(contract, rules, winner, points) -> None:
    deal = fill_deal({N: "4-4", E: "6-4", S: "5-0", W: "4-0"}, avoid={S: suit(4)})
    hand = contract_hand(contract, deal, rules=rules)
    play(hand, "4-4 6-4")
    assert legal_tiles(hand) == hand_name(hand.hands[S])
    play(hand, "5-0 4-0")
    assert hand.tricks[0].winner == winner and hand.points == points


def test_ex10_follow_me_doubles_own_suit() -> None:
    deal = fill_deal({N: "3-3", E: "6-6 3-1", S: "3-2", W: "0-0"}, avoid={E: DOUBLES, S: DOUBLES})
    hand = contract_hand("follow-me:own", deal)
    play(hand, "3-3")
    assert legal_tiles(hand) == "6-6"
    assert hand.why_illegal(Play("3-1")) == "East must follow doubles: 6-6"
    play(hand, "6-6")
    assert legal_tiles(hand) == hand_name(hand.hands[S])
    play(hand, "3-2 0-0")
    assert (hand.tricks[0].winner, hand.points) == (E, (0, 6))


def test_ex10_own_suit_double_is_not_a_six() -> None:
    deal = fill_deal({N: "6-3", E: "6-6 2-0"}, avoid={E: suit(6, doubles=False)})
    hand = contract_hand("follow-me:own", deal)
    play(hand, "6-3")
    assert legal_tiles(hand) == hand_name(hand.hands[E])


def test_ex11_nello_partner_skipped_and_double_calls_doubles() -> None:
    from helpers import EX14_DEAL

    hand = contract_hand("nello:own", EX14_DEAL, bidder=E, bid="1m", rules=HOUSE_NELLO)
    assert hand.seat_to_act() == E
    play(hand, "2-0 5-2")
    assert hand.seat_to_act() == N  # West sits out
    play(hand, "6-2")
    assert hand.tricks[0].seats == (E, S, N) and hand.tricks[0].winner == N
    play(hand, "3-3")
    assert legal_tiles(hand) == "4-4 0-0"
    play(hand, "0-0 2-2")
    assert hand.tricks[1].winner == N


NELLO_2M = STANDARD.replace(nello=True)


@pytest.mark.parametrize(("treatment", "winner"), [("high", N), ("low", W), ("own", N)])
def test_ex12_nello_doubles_treatment_decides_the_trick(treatment, winner) -> None:
    deal = fill_deal({N: "3-3", E: "3-1", W: "6-3"}, avoid={E: DOUBLES, W: DOUBLES})
    hand = contract_hand(f"nello:{treatment}", deal, bid="2m", rules=NELLO_2M)
    play(hand, "3-3")
    if treatment == "own":
        # 3-3 calls the doubles suit; East holds none, so any tile goes
        assert legal_tiles(hand) == hand_name(hand.hands[E])
    play(hand, "3-1 6-3")
    (trick,) = hand.tricks
    assert trick.seats == (N, E, W) and trick.winner == winner
    if winner == N:
        assert hand.phase == Phase.DONE
        result = hand.summary()
        assert (result.made, result.tricks, result.score) == (False, 1, (0, 2))
    else:
        assert hand.phase == Phase.PLAY and hand.seat_to_act() == W


def test_ex12_nello_own_suit_inverted_blank_double_is_top() -> None:
    deal = fill_deal({N: "1-1", E: "4-4", W: "0-0"})
    hand = contract_hand("nello:own-inverted", deal, bid="2m", rules=NELLO_2M)
    play(hand, "1-1")
    assert legal_tiles(hand) == hand_name(hand.hands[E] & DOUBLES)
    play(hand, "4-4 0-0")
    assert hand.tricks[0].winner == W and hand.phase == Phase.PLAY


SEVENS = STANDARD.replace(sevens=True)


def test_ex13_sevens_closest_wins_earliest_on_ties() -> None:
    deal = fill_deal(
        {N: "4-3", E: "5-1 6-2", S: "5-2", W: "6-1"},
        avoid={E: sevens_distance(0, 1), N: sevens_distance(0)},
    )
    hand = contract_hand("sevens", deal, bid="1m", rules=SEVENS)
    assert legal_tiles(hand) == "4-3"
    play(hand, "4-3")
    assert legal_tiles(hand) == "6-2 5-1"
    play(hand, "6-2")
    assert legal_tiles(hand) == "5-2"
    assert hand.why_illegal(Play(hand_name(hand.hands[S] & ~tiles("5-2")).split()[0])) == (
        "South must play a tile closest to 7 pips: 5-2"
    )
    play(hand, "5-2 6-1")
    assert (hand.tricks[0].winner, hand.phase) == (N, Phase.PLAY)


def test_ex13_sevens_opponent_closer_sets_the_bidders() -> None:
    far = sevens_distance(0)
    deal = fill_deal({N: "6-0", E: "5-1", S: "4-4", W: "5-2"}, avoid={N: far, E: far, S: far})
    hand = contract_hand("sevens", deal, bid="1m", rules=SEVENS)
    play(hand, "6-0 5-1 4-4 5-2")
    assert hand.tricks[0].winner == W
    result = hand.summary()
    assert (hand.phase, result.made, result.tricks, result.score) == (Phase.DONE, False, 1, (0, 1))


def test_ex22_trump_by_first_lead() -> None:
    deal = fill_deal({N: "6-3", E: "3-1 6-0"}, avoid={E: suit(6)})
    hand = contract_hand("by-lead", deal)
    assert hand.trump_description() == "trump is named by the first tile led"
    assert {hand.view(s).trump for s in range(4)} == {hand.trump_description()}
    play(hand, "6-3")
    assert hand.trump_description() == "sixes are trump"
    assert {hand.view(s).trump for s in range(4)} == {hand.trump_description()}
    assert legal_tiles(hand) == "6-0"  # 6-3 was a trump lead, not a three
    assert hand.why_illegal(Play("3-1")) == "East must follow trumps: 6-0"
    assert str(hand.contract) == "by-lead"


def test_by_lead_double_names_its_pip_suit_and_is_top_trump() -> None:
    deal = fill_deal({N: "4-4", E: "6-4 4-0", S: "5-4", W: "4-1"})
    hand = contract_hand("by-lead", deal)
    play(hand, "4-4")
    assert hand.trump_description() == "fours are trump"
    play(hand, "6-4 5-4 4-1")
    assert hand.tricks[0].winner == N


# -- the edge-case checklist of rules.md section 6.7 --------------------------------------------


def test_row1_lower_end_trump_lead_does_not_call_sixes() -> None:
    deal = fill_deal({N: "6-2", E: "6-5 6-4"}, avoid={E: suit(2)})
    hand = contract_hand("twos", deal)
    play(hand, "6-2")
    assert legal_tiles(hand) == hand_name(hand.hands[E])


def test_row2_only_tile_of_the_led_number_is_a_trump() -> None:
    # T42-TRUMPS: fours trump, 2-1 led, 4-2 as the only deuce: void
    deal = fill_deal({N: "2-1", E: "4-2"}, avoid={E: suit(2, trump=4)})
    hand = contract_hand("fours", deal)
    play(hand, "2-1")
    assert legal_tiles(hand) == hand_name(hand.hands[E])


def test_row3_follower_with_the_led_number_on_the_lower_end() -> None:
    deal = fill_deal({N: "5-1", E: "6-5", S: "5-4", W: "5-0"}, avoid={E: suit(5, trump=3)})
    hand = contract_hand("threes", deal)
    play(hand, "5-1")
    assert legal_tiles(hand) == "6-5"
    play(hand, "6-5 5-4 5-0")
    assert (hand.tricks[0].winner, hand.points) == (E, (0, 6))


def test_row4_non_trump_double_calls_its_number_and_tops_it() -> None:
    deal = fill_deal({N: "4-4", E: "4-2 6-4", S: "5-4", W: "4-0"}, avoid={E: suit(4, trump=6)})
    hand = contract_hand("sixes", deal)
    play(hand, "4-4")
    assert legal_tiles(hand) == "4-2"
    play(hand, "4-2 5-4 4-0")
    assert hand.tricks[0].winner == N


def test_row5_doubles_trump_follower_without_doubles_plays_anything() -> None:
    hand = contract_hand("doubles", fill_deal({N: "3-3"}, avoid={E: DOUBLES}))
    play(hand, "3-3")
    assert legal_tiles(hand) == hand_name(hand.hands[E])


def test_row6_doubles_trump_only_six_is_the_six_double() -> None:
    deal = fill_deal({N: "6-1", E: "6-6"}, avoid={E: suit(6)})
    hand = contract_hand("doubles", deal)
    play(hand, "6-1")
    assert legal_tiles(hand) == hand_name(hand.hands[E])
    play(hand, "6-6")
    assert hand.trick == [parse_tile("6-1"), parse_tile("6-6")]


@pytest.mark.parametrize(("followers", "winner"), [("4-1 2-0 3-0", E), ("2-1 2-0 3-0", N)])
def test_row7_follow_me_doubles_low_double_led(followers, winner) -> None:
    no_fours = suit(4)
    holdings = dict(zip((E, S, W), followers.split()))
    deal = fill_deal(
        {N: "4-4", **holdings}, avoid={s: no_fours for s in (E, S, W) if holdings[s][0] != "4"}
    )
    hand = contract_hand("follow-me:low", deal)
    play(hand, "4-4 " + followers)
    assert hand.tricks[0].winner == winner


@pytest.mark.parametrize(("contract", "bid"), [("follow-me:own", "30"), ("nello:own", "2m")])
def test_row8_own_suit_double_does_not_follow_its_number(contract, bid) -> None:
    deal = fill_deal({N: "3-1", E: "3-3 5-0"}, avoid={E: suit(3, doubles=False)})
    hand = contract_hand(contract, deal, bid=bid, rules=NELLO_2M)
    play(hand, "3-1")
    assert legal_tiles(hand) == hand_name(hand.hands[E])


@pytest.mark.parametrize(
    ("lead", "followers", "winner"),
    [("3-1", "5-3 3-2 6-3", W), ("5-1", "5-3 5-4 5-2", S)],
)
def test_row12_a_tile_follows_either_of_its_numbers(lead, followers, winner) -> None:
    led = int(lead[0])
    deal = fill_deal(
        {N: lead, **dict(zip((E, S, W), followers.split()))},
        avoid={E: suit(led, trump=0)},
    )
    hand = contract_hand("blanks", deal)
    play(hand, lead)
    assert legal_tiles(hand) == "5-3"
    play(hand, followers)
    assert hand.tricks[0].winner == winner


# -- suit ranking tables ----------------------------------------------------------------------


def test_trump_ranking_double_then_other_end() -> None:
    # SSK: fours trump rank 4-4, 4-6, 4-5, 4-3, 4-2, 4-1, 4-0
    all_fours = "4-0 4-1 4-2 4-3 4-4 5-4 6-4 6-6"
    assert order_by_power("fours", "4-2", all_fours) == [
        "4-4",
        "6-4",
        "5-4",
        "4-3",
        "4-2",
        "4-1",
        "4-0",
    ]
    # a trump beats any tile of the led suit, the led suit beats off-suit tiles
    assert order_by_power("fours", "2-1", "2-2 6-2 4-0 5-5 2-0") == ["4-0", "2-2", "6-2", "2-0"]


def test_doubles_trump_ranking_and_pip_suits_without_doubles() -> None:
    assert order_by_power("doubles", "0-0", "0-0 3-3 6-6 6-5") == ["6-6", "3-3", "0-0"]
    assert order_by_power("doubles", "6-1", "6-6 6-5 6-1 5-1") == ["6-6", "6-5", "6-1"]


def test_own_suit_doubles_rankings() -> None:
    doubles = "0-0 1-1 4-4 6-6"
    assert order_by_power("follow-me:own", "1-1", doubles + " 1-0") == ["6-6", "4-4", "1-1", "0-0"]
    assert order_by_power("nello:own-inverted", "1-1", doubles, rules=NELLO_2M) == [
        "0-0",
        "1-1",
        "4-4",
        "6-6",
    ]


def test_led_suits() -> None:
    fives = tables_for(Contract.parse("fives"), STANDARD)
    assert fives.led[parse_tile("6-5")] == TRUMP and fives.led[parse_tile("6-4")] == 6
    assert fives.led[parse_tile("3-3")] == 3
    own = tables_for(Contract.parse("follow-me:own"), STANDARD)
    assert own.led[parse_tile("3-3")] == DOUBLES_SUIT and own.led[parse_tile("3-1")] == 3
    doubles = tables_for(Contract.parse("doubles"), STANDARD)
    assert doubles.led[parse_tile("3-3")] == TRUMP


def test_each_pip_suit_contract_makes_its_tiles_trump() -> None:
    for pip, name in enumerate(("blanks", "ones", "twos", "threes", "fours", "fives", "sixes")):
        tables = tables_for(Contract.parse(name), STANDARD)
        assert tables.trump_mask == suit(pip)
        assert tables.description == f"{name} are trump"
        # the double of trump takes a trick against every other trump
        trumps = [t for t in range(28) if suit(pip) >> t & 1]
        top = pip * (pip + 1) // 2 + pip
        for other in trumps:
            if other != top:
                assert tables.trick_winner([other, top]) == 1
                assert tables.trick_winner([top, other]) == 0


# -- contract notation ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("fives", "fives"),
        ("5", "fives"),
        ("aces", "ones"),
        ("deuces", "twos"),
        ("treys", "threes"),
        ("0", "blanks"),
        ("Doubles", "doubles"),
        ("follow-me", "follow-me"),
        ("follow-me:own", "follow-me:own"),
        ("nello", "nello"),
        ("nello:own-inverted", "nello:own-inverted"),
        ("sevens", "sevens"),
        ("by-lead", "by-lead"),
    ],
)
def test_contract_spellings(text, canonical) -> None:
    assert str(Contract.parse(text)) == canonical
    assert str(Declare(text)) == canonical


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("sevens:high", "not a contract"),
        ("follow-me:own-inverted", "follow-me doubles may be high, low, own"),
        ("nello:upside", "nello doubles may be high, low, own, own-inverted"),
        ("hearts", "not a contract: 'hearts'"),
        ("7", "not a contract"),
    ],
)
def test_bad_contracts(text, message) -> None:
    with pytest.raises(NotationError, match=message):
        Contract.parse(text)


# -- options that change how a contract plays -------------------------------------------------


def test_follow_me_off() -> None:
    rules = STANDARD.replace(follow_me=False)
    with pytest.raises(IllegalActionError, match="follow-me is not played under these rules"):
        contract_hand("follow-me", fill_deal({}), rules=rules)
    hand = contract_hand("sixes", fill_deal({}), rules=rules)
    assert hand.contract == Contract("suit", 6)


def test_doubles_trump_off() -> None:
    with pytest.raises(IllegalActionError, match="doubles cannot be trump under these rules"):
        contract_hand("doubles", fill_deal({}), rules=STANDARD.replace(doubles_trump=False))


def declarations(rules, bid="30", bidder=N) -> set[str]:
    from helpers import auction
    from texas42 import Hand

    hand = Hand(rules, (bidder - 1) % 4, fill_deal({}))
    auction(hand, bidder, bid)
    return {str(a) for a in hand.legal_actions()}


SUITS = {"blanks", "ones", "twos", "threes", "fours", "fives", "sixes"}
FOLLOW_ME_ALL = {"follow-me", "follow-me:high", "follow-me:low", "follow-me:own"}


def test_standard_declarations() -> None:
    assert declarations(STANDARD) == SUITS | {"doubles", "by-lead"} | FOLLOW_ME_ALL


def test_doubles_choice_off_allows_only_the_rules_treatment() -> None:
    rules = STANDARD.replace(doubles_choice=False)
    assert declarations(rules) == SUITS | {"doubles", "by-lead", "follow-me", "follow-me:high"}
    low = rules.replace(follow_me_doubles="low")
    assert declarations(low) & FOLLOW_ME_ALL == {"follow-me", "follow-me:low"}
    with pytest.raises(IllegalActionError, match="may not choose how doubles play: follow-me:own"):
        contract_hand("follow-me:own", fill_deal({}), rules=rules)
    nello = STANDARD.replace(nello=True, doubles_choice=False, nello_doubles="own")
    assert {d for d in declarations(nello, "2m") if d.startswith("nello")} == {"nello", "nello:own"}


def test_follow_me_doubles_own_is_what_plain_follow_me_means() -> None:
    rules = STANDARD.replace(follow_me_doubles="own")
    deal = fill_deal({N: "3-3", E: "6-6 3-1"}, avoid={E: DOUBLES})
    hand = contract_hand("follow-me", deal, rules=rules)
    play(hand, "3-3")
    assert legal_tiles(hand) == "6-6"
    assert str(hand.contract) == "follow-me"


def test_suit_doubles_low() -> None:
    rules = STANDARD.replace(suit_doubles="low")
    # the trump double is the lowest trump
    deal = fill_deal({N: "5-5", E: "5-0", S: "4-4", W: "2-0"}, avoid={S: suit(5), W: suit(5)})
    hand = contract_hand("fives", deal, rules=rules)
    play(hand, "5-5 5-0 4-4 2-0")
    assert hand.tricks[0].winner == E
    assert order_by_power("fives", "5-5", "5-5 5-0 5-1", rules=rules) == ["5-1", "5-0", "5-5"]
    assert order_by_power("fives", "5-5", "5-5 5-0 5-1") == ["5-5", "5-1", "5-0"]
    # a plain double is the lowest of its own suit, so a follower beats it
    assert order_by_power("fives", "4-4", "4-4 4-0", rules=rules) == ["4-0", "4-4"]
    assert tables_for(Contract.parse("fives"), rules).description == "fives are trump, doubles low"


def test_undeclared_trump_forbidden() -> None:
    rules = STANDARD.replace(undeclared_trump="forbidden")
    assert "by-lead" not in declarations(rules)
    with pytest.raises(IllegalActionError, match="trump must be named under these rules"):
        contract_hand("by-lead", fill_deal({}), rules=rules)


def test_first_lead_trump() -> None:
    rules = STANDARD.replace(first_lead_trump=True)
    deal = fill_deal({N: "6-5 6-1 3-2", E: "6-4"})
    hand = contract_hand("sixes", deal, rules=rules)
    assert legal_tiles(hand) == hand_name(hand.hands[N] & suit(6))
    assert hand.why_illegal(Play("3-2")) == "North must lead a trump on the first trick: 6-5 or 6-1"
    play(hand, "6-5")
    play(hand, legal_tiles(hand).split()[0])
    play(hand, legal_tiles(hand).split()[0])
    play(hand, legal_tiles(hand).split()[0])
    leader = hand.seat_to_act()
    assert leader is not None
    assert hand.legal_mask() == hand.hands[leader]  # later leads are free


def test_first_lead_trump_without_trumps_leads_anything() -> None:
    rules = STANDARD.replace(first_lead_trump=True)
    hand = contract_hand("sixes", fill_deal({}, avoid={N: suit(6)}), rules=rules)
    assert legal_tiles(hand) == hand_name(hand.hands[N])


def test_first_lead_trump_under_doubles() -> None:
    rules = STANDARD.replace(first_lead_trump=True)
    hand = contract_hand("doubles", fill_deal({N: "2-2 6-5"}), rules=rules)
    assert legal_tiles(hand) == hand_name(hand.hands[N] & DOUBLES)


def test_nello_off_or_below_its_minimum() -> None:
    assert not {d for d in declarations(STANDARD, "2m") if d.startswith("nello")}
    rules = STANDARD.replace(nello=True)
    assert not {d for d in declarations(rules, "1m") if d.startswith("nello")}
    with pytest.raises(IllegalActionError, match="Nel-O needs a bid of at least 2m"):
        contract_hand("nello", fill_deal({}), bid="1m", rules=rules)
    with pytest.raises(IllegalActionError, match="Nel-O is not played under these rules"):
        contract_hand("nello", fill_deal({}), bid="2m")
    nellos = {"nello", "nello:high", "nello:low", "nello:own", "nello:own-inverted"}
    assert {d for d in declarations(rules, "2m") if d.startswith("nello")} == nellos
    assert {d for d in declarations(HOUSE_NELLO, "1m") if d.startswith("nello")} == nellos
    assert not {d for d in declarations(HOUSE_NELLO, "41") if d.startswith("nello")}


@pytest.mark.parametrize(("default", "winner"), [("high", N), ("low", W), ("own", N)])
def test_nello_doubles_is_what_plain_nello_means(default, winner) -> None:
    rules = NELLO_2M.replace(nello_doubles=default)
    deal = fill_deal({N: "3-3", E: "3-1", W: "6-3"}, avoid={E: DOUBLES, W: DOUBLES})
    hand = contract_hand("nello", deal, bid="2m", rules=rules)
    play(hand, "3-3 3-1 6-3")
    assert hand.tricks[0].winner == winner
    assert hand.trump_description() == f"no trump, doubles {default}"


def test_sevens_must_win_every_trick() -> None:
    deal = fill_deal({N: "4-3 5-2 6-1 4-4", E: "6-6", S: "5-5", W: "0-0"})
    hand = contract_hand("sevens", deal, bid="2m", rules=SEVENS)
    # North holds every tile of 7 pips; the last three tricks go to South, which counts for
    # the bidding team
    while hand.phase == Phase.PLAY:
        play(hand, legal_tiles(hand).split()[0])
    assert [t.winner for t in hand.tricks] == [N, N, N, N, S, S, S]
    assert hand.tricks[4].tiles == tuple(parse_tile(t) for t in ("2-0", "3-0", "4-1", "6-4"))
    result = hand.summary()
    assert (result.made, result.tricks, result.score) == (True, 7, (2, 0))
