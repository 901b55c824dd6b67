"""`Rules`: presets, the string and record forms (round-trips), and clear errors for bad options.

How each option changes play is tested where it acts: the auction options in test_auction, the
contract options in test_contracts, the shaker, draw and game options in test_game, and
``hide_tricks`` in test_view.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given

from helpers import OPTION_STRATEGIES, any_rules
from texas42 import Rules, RulesError
from texas42.core.rules import OPTION_NAMES, PRESETS


def test_every_option_is_catalogued_here() -> None:
    assert set(OPTION_STRATEGIES) == set(OPTION_NAMES)


def test_standard_defaults() -> None:
    r = Rules()
    assert r == Rules.preset("standard") and str(r) == "standard"
    assert (r.first_shaker, r.draw_order, r.first_bidder) == (
        "high-draw",
        "opponents-first",
        "left-of-shaker",
    )
    assert (r.min_bid, r.max_opening_marks, r.mark_raise, r.max_bid_marks) == (30, 2, 1, 7)
    assert (r.all_pass, r.follow_me, r.doubles_trump, r.follow_me_doubles) == (
        "forced",
        True,
        True,
        "high",
    )
    assert (r.undeclared_trump, r.first_lead_trump, r.suit_doubles) == ("first-lead", False, "high")
    assert (r.nello, r.nello_min_marks, r.nello_doubles) == (False, 2, "high")
    assert (r.plunge, r.plunge_marks, r.plunge_needs_66, r.plunge_timing) == (
        False,
        4,
        False,
        "first-bid",
    )
    assert (r.splash, r.splash_marks, r.sevens, r.sevens_min_marks) == (False, 2, False, 1)
    assert (r.hide_tricks, r.game, r.target, r.cap_score) == ("two-marks", "marks", None, False)


def test_presets() -> None:
    tournament = Rules.preset("tournament")
    assert tournament.overrides() == {}
    assert tournament == Rules(all_pass="reshake", doubles_choice=False)
    house = Rules.preset("house")
    assert house == Rules(nello=True, plunge=True, splash=True, sevens=True)
    for name, rules in PRESETS.items():
        assert str(rules) == name and rules.to_dict() == name
        assert Rules.parse(name) == rules and Rules.from_dict(name) == rules


def test_winning_target() -> None:
    assert Rules().winning_target == 7
    assert Rules(game="points").winning_target == 250
    assert Rules(game="points", target=500).winning_target == 500
    assert Rules(target=3).winning_target == 3


def test_string_form_lists_only_the_changes() -> None:
    r = Rules.preset("standard").replace(nello=True, nello_min_marks=1)
    assert str(r) == "standard,nello=true,nello_min_marks=1"
    assert r.to_dict() == {"preset": "standard", "nello": True, "nello_min_marks": 1}
    assert (
        str(Rules.preset("tournament").replace(all_pass="forced")) == "tournament,all_pass=forced"
    )
    assert str(Rules(game="points", target=150)) == "standard,game=points,target=150"


def test_parse_spellings() -> None:
    assert Rules.parse("standard,nello") == Rules(nello=True)
    assert Rules.parse("nello,nello-min-marks=1") == Rules(nello=True, nello_min_marks=1)
    assert Rules.parse(" house , sevens=false ") == Rules.preset("house").replace(sevens=False)
    assert Rules.parse("standard,plunge=yes,splash=on,sevens=1") == Rules(
        plunge=True, splash=True, sevens=True
    )
    assert Rules.parse("standard,target=default") == Rules()
    assert Rules.parse("standard,game=points,target=250").target == 250


@given(any_rules())
def test_string_and_record_forms_round_trip(rules: Rules) -> None:
    text = str(rules)
    assert Rules.parse(text) == rules
    assert str(Rules.parse(text)) == text
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty rules string"),
        (
            "nonsense",
            "unknown rules preset 'nonsense'; presets: standard, tournament, house, two-hand, three-hand, moon, five-hand, six-hand, seven-hand",
        ),
        ("standard,colour=red", "unknown rule option 'colour'"),
        ("standard,nello=maybe", "rule nello must be true or false, not 'maybe'"),
        ("standard,min_bid=abc", "rule min_bid must be a whole number, not 'abc'"),
        ("standard,min_bid=50", "rule min_bid must be a whole number from 1 to 41, not 50"),
        ("standard,mark_raise=3", "rule mark_raise must be a whole number from 1 to 2, not 3"),
        ("standard,plunge_marks=0", "rule plunge_marks must be a whole number from 1 to 7, not 0"),
        ("standard,target=0", "rule target must be a whole number from 1 to 100000, not 0"),
        (
            "standard,all_pass=sometimes",
            "rule all_pass cannot be 'sometimes'; choose one of forced, reshake",
        ),
        (
            "standard,hide_tricks",
            "rule hide_tricks must be one of never, two-marks, mark-bids, not True",
        ),
        ("standard,game=golf", "rule game cannot be 'golf'; choose one of marks, points, moon"),
    ],
)
def test_bad_rules_strings(text, message) -> None:
    with pytest.raises(RulesError) as info:
        Rules.parse(text)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (5, "rules must be a preset name or an object of options"),
        ({"preset": 3}, "rules preset must be a name"),
        ({"preset": "casual"}, "unknown rules preset 'casual'"),
        ({"min_bid": True}, "rule min_bid must be a whole number, not True"),
        ({"nello": "perhaps"}, "rule nello must be true or false"),
        (
            {"nello_doubles": 2},
            "rule nello_doubles must be one of high, low, own, own-inverted, not 2",
        ),
        ({"speed": 1}, "unknown rule option 'speed'"),
    ],
)
def test_bad_rules_objects(value, message) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_dict(value)
    assert message in str(info.value)


def test_from_dict_reads_json_values() -> None:
    rules = Rules.from_dict(
        {"preset": "house", "nello_min_marks": "1", "plunge": False, "target": None}
    )
    assert rules == Rules.preset("house").replace(nello_min_marks=1, plunge=False)


def test_bad_values_through_the_constructor_and_replace() -> None:
    with pytest.raises(
        RulesError, match="rule min_bid must be a whole number from 1 to 41, not True"
    ):
        Rules(min_bid=True)
    with pytest.raises(RulesError, match="rule first_bidder cannot be 'dealer'"):
        Rules().replace(first_bidder="dealer")
    with pytest.raises(RulesError, match="unknown rule option 'jokers'"):
        Rules().replace(jokers=True)
    with pytest.raises(RulesError, match="unknown rule option 'preset_name'"):
        Rules().replace(preset_name="house")


def test_rules_are_values() -> None:
    a = Rules.parse("standard,nello")
    b = Rules.preset("house").replace(plunge=False, splash=False, sevens=False)
    assert a == b and hash(a) == hash(b)
    with pytest.raises(AttributeError):
        a.nello = False  # type: ignore[misc]


def test_describe() -> None:
    assert Rules().describe() == [
        "game to 7 marks",
        "bids from 30; opening mark bids up to 2, then 1 mark at a time",
        "all pass: the shaker must bid",
        "specials: none (straight 42)",
    ]
    lines = Rules.preset("house").replace(all_pass="reshake", game="points").describe()
    assert lines[0] == "game to 250 points" and lines[2] == "all pass: reshake"
    assert (
        lines[3]
        == "specials: Nel-O from 2 marks, Plunge (4 marks), Splash (2 marks), Sevens from 1 mark"
    )


# -- regressions from the table-size review (issue 7) ---------------------------------------


def test_holder_1_0_first_bidder_cannot_be_paired_with_a_widow_that_may_hold_the_1_0() -> None:
    """check_table counts the widow as dealt, so the 1-0 may lie in the widow and Hand()
    then leaks StopIteration looking for its holder."""
    with pytest.raises(RulesError, match="holder-1-0"):
        Rules.parse("moon,removed=6-0+5-0+4-0+3-0+2-0+0-0,first_bidder=holder-1-0")
