"""Game records: reading aliases, writing canonical text, and checking against the rules."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import EX14_HAND, EXAMPLE_NAMES, EXAMPLES, record
from texas42 import Bid, Contract, Game, Pass, Rules, parse_hand, parse_tile
from texas42.core.record import (
    BROKEN,
    UNREADABLE,
    HandRecord,
    Record,
    RecordError,
    check_record,
    record_from_game,
)
from texas42.core.words import marks_tally

EX14_DEAL = EX14_HAND["deal"]
EX14_PLAY = EX14_HAND["play"]

SET_HAND: dict[str, Any] = {
    "shaker": 3,
    "deal": EX14_DEAL,
    "auction": ["pass", "30", "pass", "pass"],
    "contract": "fours",
    "play": [
        "6-3",
        "6-1",
        "6-0",
        "6-6",
        "6-5",
        "5-4",
        "5-3",
        "5-1",
        "4-4",
        "4-3",
        "4-1",
        "6-4",
        "4-2",
        "5-2",
        "4-0",
        "6-2",
        "3-1",
        "3-2",
        "3-0",
        "3-3",
        "5-5",
        "2-0",
        "2-2",
        "5-0",
    ],
}
"""Ex 14's deal with East bidding 30 in fours: North-South reach 23 in trick 6 and set it."""


def check(obj: dict[str, Any]) -> dict[str, Any]:
    return check_record(Record.from_dict(obj)).to_dict()


def error_of(obj: Any, text: str | None = None) -> tuple[int, dict[str, Any]]:
    with pytest.raises(RecordError) as caught:
        check_record(Record.from_json(text) if text is not None else Record.from_dict(obj))
    return caught.value.status, caught.value.to_dict()


def err(
    hand: int | None, field: str | None, index: int | None, seat: int | None, message: str
) -> dict[str, Any]:
    return {"hand": hand, "field": field, "index": index, "seat": seat, "message": message}


# -- the example records ------------------------------------------------------------------


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_example_checks_to_the_expected_line(name: str) -> None:
    text = (EXAMPLES / f"{name}.json").read_text()
    expected = (EXAMPLES / f"{name}.expected.json").read_text()
    try:
        out: dict[str, Any] = check_record(Record.from_json(text)).to_dict()
    except RecordError as exc:
        assert exc.status == BROKEN
        out = {"error": exc.to_dict()}
    assert out == json.loads(expected)
    assert json.dumps(out) + "\n" == expected


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_example_text_is_canonical(name: str) -> None:
    text = (EXAMPLES / f"{name}.json").read_text()
    assert Record.from_json(text).to_json() == text


def test_ex14_in_both_games() -> None:
    assert check(record(EX14_HAND)) == {
        "hands": [
            {
                "bidder": 0,
                "bid": "34",
                "contract": "sixes",
                "tricks": 6,
                "points": [36, 0],
                "made": True,
                "score": [1, 0],
            }
        ],
        "score": [1, 0],
        "winner": None,
    }
    points = dict(EX14_HAND, play=EX14_PLAY + ["1-0", "4-4", "5-3", "5-0"])
    report = check(record(points, rules={"preset": "standard", "game": "points"}))
    assert report["hands"][0]["points"] == [42, 0]
    assert report["score"] == [42, 0]


def test_set_hand_scores_for_the_opponents() -> None:
    assert check(record(SET_HAND)) == {
        "hands": [
            {
                "bidder": 1,
                "bid": "30",
                "contract": "fours",
                "tricks": 6,
                "points": [23, 18],
                "made": False,
                "score": [1, 0],
            }
        ],
        "score": [1, 0],
        "winner": None,
    }


def test_hand_in_progress_and_next_shaker() -> None:
    second = {"shaker": 0, "deal": EX14_DEAL, "auction": ["pass", "31"]}
    report = check(record(EX14_HAND, second))
    assert report["hands"][1] == {
        "bidder": 2,
        "bid": "31",
        "contract": None,
        "tricks": 0,
        "points": [0, 0],
        "made": None,
        "score": [0, 0],
    }
    partial = dict(EX14_HAND, play=EX14_PLAY[:10])
    assert check(record(partial))["hands"][0] == {
        "bidder": 0,
        "bid": "34",
        "contract": "sixes",
        "tricks": 2,
        "points": [2, 0],
        "made": None,
        "score": [0, 0],
    }


def test_reshaken_hand_scores_nothing_and_the_shake_moves_on() -> None:
    reshaken = {"shaker": 3, "deal": EX14_DEAL, "auction": ["pass"] * 4}
    next_hand = dict(
        EX14_HAND, shaker=0, auction=["pass", "pass", "pass", "34"], contract="sixes", play=[]
    )
    report = check(record(reshaken, next_hand, rules="tournament"))
    assert report["hands"][0] == {
        "bidder": None,
        "bid": None,
        "contract": None,
        "tricks": 0,
        "points": [0, 0],
        "made": False,
        "score": [0, 0],
    }
    assert report["hands"][1]["bidder"] == 0


def test_game_won_and_empty_record() -> None:
    report = check(record(EX14_HAND, rules={"preset": "standard", "target": 1}))
    assert (report["score"], report["winner"]) == ([1, 0], 0)
    assert check(record()) == {"hands": [], "score": [0, 0], "winner": None}


# -- records that cannot be read (status 2) ---------------------------------------------------


def test_not_json() -> None:
    status, error = error_of(None, "{")
    assert status == UNREADABLE
    assert (error["hand"], error["field"]) == (None, None)
    assert error["message"].startswith("not JSON: ")


DELETE = object()


def changed(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """The Ex 14 record with the value at ``path`` replaced (or deleted, for ``DELETE``)."""
    obj = record(EX14_HAND)
    inner: Any = obj
    for key in path[:-1]:
        inner = inner[key]
    if value is DELETE:
        del inner[path[-1]]
    else:
        inner[path[-1]] = value
    return obj


H = ("hands", 0)


@pytest.mark.parametrize(
    ("path", "value", "where", "message"),
    [
        (("format",), DELETE, (None, "format", None), 'expected "texas42", found nothing'),
        (("format",), "chess", (None, "format", None), 'expected "texas42", found "chess"'),
        (("version",), 2, (None, "version", None), "expected 1, found 2"),
        (("rules",), DELETE, (None, "rules", None), "the record has no rules"),
        (
            ("rules",),
            "casino",
            (None, "rules", None),
            "unknown rules preset 'casino'; presets: standard, tournament, house, two-hand, three-hand, moon, five-hand, six-hand, seven-hand",
        ),
        (
            ("rules",),
            {"preset": "standard", "nello": "maybe"},
            (None, "rules", None),
            "rule nello must be true or false, not 'maybe'",
        ),
        (
            ("players",),
            ["Ann", "Bob"],
            (None, "players", None),
            "players is a list of 4 names, by seat",
        ),
        (("hands",), DELETE, (None, "hands", None), "the record has no list of hands"),
        ((*H, "deal"), DELETE, (1, "deal", None), "the hand has no deal"),
        ((*H, "auction"), DELETE, (1, "auction", None), "the hand has no auction"),
        ((*H, "shaker"), 4, (1, "shaker", None), "the shaker is a seat 0..3, not 4"),
        (
            (*H, "deal", 2),
            "6-1 5-3 5-2 4-3 3-2 2-2 1-7",
            (1, "deal", 3),
            "not a tile: '1-7' (ends are 0..6)",
        ),
        (
            (*H, "auction", 0),
            "29x",
            (1, "auction", 1),
            "not a bid: '29x' (say 30..41, 1m, 2m, ..., plunge or splash)",
        ),
        (
            (*H, "auction", 1),
            "9m",
            (1, "auction", 2),
            "not a bid: '9m' (mark bids go from 1m to 7m)",
        ),
        (
            (*H, "contract"),
            "trumps",
            (1, "contract", None),
            (
                "not a contract: 'trumps' (a suit such as fives, doubles, follow-me, nello, sevens or "
                "by-lead)"
            ),
        ),
        ((*H, "play", 9), "5-9", (1, "play", 10), "not a tile: '5-9' (ends are 0..6)"),
    ],
)
def test_unreadable(
    path: tuple[Any, ...], value: Any, where: tuple[Any, ...], message: str
) -> None:
    hand, field, index = where
    assert error_of(changed(path, value)) == (UNREADABLE, err(hand, field, index, None, message))


# -- records that break a rule (status 1) -----------------------------------------------------


def broken(obj: dict[str, Any]) -> dict[str, Any]:
    status, error = error_of(obj)
    assert status == BROKEN
    return error


def test_tile_dealt_twice_names_the_second_seat() -> None:
    hand = copy.deepcopy(EX14_HAND)
    hand["deal"][2] = "6-6 5-3 5-2 4-3 3-2 2-2 1-1"
    assert broken(record(hand)) == err(1, "deal", 3, None, "6-6 is dealt twice (first to seat 0)")
    hand["deal"][2] = "6-1 5-3 5-2 4-3 3-2 2-2 3-2"
    assert broken(record(hand)) == err(1, "deal", 3, None, "3-2 is dealt twice (first to seat 2)")


def test_short_hand_in_the_deal() -> None:
    hand = copy.deepcopy(EX14_HAND)
    hand["deal"][1] = "6-3 5-4 4-4 4-2 3-1 2-0"
    assert broken(record(hand)) == err(1, "deal", 2, None, "seat 1 is dealt 6 tiles, not 7")


def test_wrong_shaker() -> None:
    second = {"shaker": 2, "deal": EX14_DEAL, "auction": []}
    assert broken(record(EX14_HAND, second)) == err(
        2, "shaker", None, None, "seat 0 shakes after seat 3, not seat 2"
    )


def test_illegal_play_names_the_seat_and_what_it_holds() -> None:
    hand = copy.deepcopy(EX14_HAND)
    hand["play"][9] = "3-1"
    error = broken(record(hand))
    assert error == err(1, "play", 10, 1, "3-1 does not follow fives; seat 1 holds 5-4")
    assert (
        str(RecordError(error["message"], status=BROKEN, field="play", hand=1, index=10, seat=1))
        == "hand 1, play 10 (seat 1): 3-1 does not follow fives; "
        "seat 1 holds 5-4"
    )


def test_play_of_a_tile_not_held() -> None:
    hand = copy.deepcopy(EX14_HAND)
    hand["play"][1] = "6-1"
    assert broken(record(hand)) == err(1, "play", 2, 1, "seat 1 does not hold 6-1")


@pytest.mark.parametrize(
    ("auction", "expected"),
    [
        (["34", "33", "pass", "pass"], err(1, "auction", 2, 1, "a bid must beat 34")),
        (["29", "pass", "pass", "pass"], err(1, "auction", 1, 0, "bids start at 30")),
        (
            ["3m", "pass", "pass", "pass"],
            err(1, "auction", 1, 0, "an opening mark bid may be at most 2m"),
        ),
        (
            ["pass", "pass", "pass", "pass"],
            err(1, "auction", 4, 3, "everyone else passed, so West, the last to call, must bid"),
        ),
        (["34", "pass", "pass", "pass", "pass"], err(1, "auction", 5, 0, "the auction is over")),
    ],
)
def test_illegal_call(auction: list[str], expected: dict[str, Any]) -> None:
    hand = dict(EX14_HAND, auction=auction)
    assert broken(record(hand)) == expected


@pytest.mark.parametrize(
    ("rules", "auction", "contract", "message"),
    [
        (
            "standard",
            ["34", "pass", "pass", "pass"],
            "nello",
            "Nel-O is not played under these rules",
        ),
        (
            {"preset": "standard", "nello": True},
            ["1m", "pass", "pass", "pass"],
            "nello",
            "Nel-O needs a bid of at least 2m",
        ),
        (
            {"preset": "standard", "undeclared_trump": "forbidden"},
            ["34", "pass", "pass", "pass"],
            "by-lead",
            "trump must be named under these rules",
        ),
        (
            {"preset": "standard", "doubles_trump": False},
            ["34", "pass", "pass", "pass"],
            "doubles",
            "doubles cannot be trump under these rules",
        ),
        (
            {"preset": "standard", "follow_me": False},
            ["34", "pass", "pass", "pass"],
            "follow-me",
            "follow-me is not played under these rules",
        ),
        ("house", ["34", "pass", "pass", "pass"], "sevens", "Sevens needs a bid of at least 1m"),
    ],
)
def test_contract_the_rules_do_not_offer(
    rules: Any, auction: list[str], contract: str, message: str
) -> None:
    hand = dict(EX14_HAND, auction=auction, contract=contract, play=[])
    assert broken(record(hand, rules=rules)) == err(1, "contract", None, 0, message)


def test_contract_before_the_auction_ends_or_after_a_reshake() -> None:
    early = dict(EX14_HAND, auction=["34", "pass"], play=[])
    assert broken(record(early)) == err(
        1, "contract", None, None, "the contract is named after the auction, by the declarer"
    )
    reshaken = dict(EX14_HAND, auction=["pass"] * 4, play=[])
    assert broken(record(reshaken, rules="tournament")) == err(
        1, "contract", None, None, "everyone passed and the hand was reshaken: no contract"
    )


def test_plays_without_a_contract() -> None:
    hand = copy.deepcopy(EX14_HAND)
    del hand["contract"]
    assert broken(record(hand)) == err(
        1, "contract", None, 0, "tiles are played but no contract is named"
    )


def test_plays_after_the_hand_is_decided() -> None:
    made = dict(EX14_HAND, play=EX14_PLAY + ["1-0"])
    assert broken(record(made)) == err(
        1, "play", 25, None, "the hand was already made after trick 6"
    )
    set_ = dict(SET_HAND, play=SET_HAND["play"] + ["1-1"])
    assert broken(record(set_)) == err(
        1, "play", 25, None, "the hand was already set after trick 6"
    )


def test_hand_after_the_game_was_won() -> None:
    second = {"shaker": 0, "deal": EX14_DEAL, "auction": []}
    target_1 = {"preset": "standard", "target": 1}
    assert broken(record(EX14_HAND, second, rules=target_1)) == err(
        2, "hands", None, None, "the game was already won by team 0 after hand 1"
    )


def test_unfinished_hand_followed_by_another() -> None:
    first = dict(EX14_HAND, play=EX14_PLAY[:10])
    second = {"shaker": 0, "deal": EX14_DEAL, "auction": []}
    assert broken(record(first, second)) == err(
        1, "play", None, 2, "the hand is not finished, yet hand 2 follows"
    )


def test_error_line_and_dict() -> None:
    error = RecordError(
        "the hand was already made after trick 6", status=BROKEN, field="play", hand=1, index=25
    )
    assert str(error) == "hand 1, play 25: the hand was already made after trick 6"
    assert RecordError("boom", status=UNREADABLE, field="rules").line() == "rules: boom"
    assert RecordError("x", status=BROKEN, field="hands", hand=3).line() == "hand 3: x"
    assert isinstance(error, ValueError)


# -- writing ------------------------------------------------------------------------------


def test_aliases_in_canonical_out() -> None:
    obj = record(
        {
            "shaker": 1,
            "deal": ["1-0 6-6 5-6 4-6 2-6 55 3-3", EX14_DEAL[1], EX14_DEAL[2], EX14_DEAL[3]],
            "auction": ["42", "Pass", "84", "p"],
            "contract": "6",
            "play": ["66", "3-6"],
        },
        {
            "shaker": 2,
            "deal": EX14_DEAL,
            "auction": [30, "pass", "pass", "pass"],
            "contract": "follow-me",
        },
        {"shaker": 3, "deal": EX14_DEAL, "auction": ["31"], "contract": None, "play": []},
        rules={"preset": "standard", "nello": True},
    )
    rec = Record.from_dict(obj)
    out = rec.to_dict()
    assert out["rules"] == {"preset": "standard", "nello": True}
    assert out["hands"][0] == {
        "shaker": 1,
        "deal": EX14_DEAL,
        "auction": ["1m", "pass", "2m", "pass"],
        "contract": "sixes",
        "play": ["6-6", "6-3"],
    }
    assert out["hands"][1]["contract"] == "follow-me"
    assert out["hands"][1]["auction"] == ["30", "pass", "pass", "pass"]
    assert out["hands"][1]["play"] == []
    assert out["hands"][2] == {"shaker": 3, "deal": EX14_DEAL, "auction": ["31"]}
    assert "players" not in out
    assert Record.from_dict(out) == rec
    assert Record.from_json(rec.to_json()) == rec


def test_record_value_holds_engine_values() -> None:
    rec = Record.from_dict(dict(record(EX14_HAND), players=["Ann", "Bob", "Cat", "Dan"]))
    hand = rec.hands[0]
    assert hand == HandRecord(
        3,
        tuple(parse_hand(h) for h in EX14_DEAL),
        (Bid("34"), Pass(), Pass(), Pass()),
        Contract.parse("sixes"),
        tuple(parse_tile(t) for t in EX14_PLAY),
    )
    assert rec.players == ("Ann", "Bob", "Cat", "Dan")
    assert rec.to_dict()["players"] == ["Ann", "Bob", "Cat", "Dan"]


# -- records of real games --------------------------------------------------------------------


def random_game(rules: Rules, seed: int, actions: int = 10_000) -> Game:
    game = Game(rules, seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize(
    ("rules", "seed"),
    [("standard", 1), ("house", 2), ("tournament", 3), ("house,game=points,target=150", 4)],
)
def test_full_random_game_round_trips_and_checks_the_same(rules: str, seed: int) -> None:
    game = random_game(Rules.parse(rules), seed)
    outcome = game.outcome()
    assert outcome is not None
    rec = record_from_game(game, ["Ann", "Bob", "Cat", "Dan"])
    assert len(rec.hands) == len(game.hands) == len(game.results)
    assert Record.from_json(rec.to_json()) == rec
    report = check_record(rec)
    assert report.results == tuple(game.results)
    assert report.score == game.score
    assert report.winner == outcome.winner


RULES_TO_TRY = [
    "standard",
    "tournament",
    "house",
    "house,game=points",
    "house,plunge_timing=jump,mark_raise=2,max_opening_marks=3,target=3",
    "standard,nello=true,nello_min_marks=1,nello_doubles=own-inverted,follow_me_doubles=own",
    "standard,undeclared_trump=forbidden,doubles_trump=false,follow_me=false,doubles_choice=false",
    "standard,first_bidder=holder-1-0,first_lead_trump=true,suit_doubles=low",
    "tournament,game=points,target=100,draw_order=deal",
]


@given(
    rules=st.sampled_from(RULES_TO_TRY),
    seed=st.integers(0, 2**32),
    actions=st.integers(0, 600),
)
def test_random_games_written_as_records_check_clean(rules: str, seed: int, actions: int) -> None:
    game = random_game(Rules.parse(rules), seed, actions)
    text = record_from_game(game).to_json()
    report = check_record(Record.from_json(text))
    assert report.results == tuple(hand.summary() for hand in game.hands)
    assert report.score == game.score
    outcome = game.outcome()
    assert report.winner == (outcome.winner if outcome is not None else None)


def test_marks_tally() -> None:
    assert [marks_tally(n) for n in range(8)] == ["", "/", "/\\", "A", "A|", "AL", "AL|", "ALL"]
    assert marks_tally(9) == "ALL /\\"
    assert marks_tally(14) == "ALL ALL"
    with pytest.raises(ValueError):
        marks_tally(-1)
