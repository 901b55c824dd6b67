"""The words and orders a table shows a 42 player: the hand held as players hold it once trump
is named, the face-down piles turned up once the hand is over, and the counts of a hand's
summary checked against the hand itself."""

from __future__ import annotations

import itertools
import random
import re

import pytest

from texas42.core.contracts import Contract, holding_order, tables_for
from texas42.core.hand import Hand
from texas42.core.progress import Phase
from texas42.core.rules import Rules
from texas42.core.tiles import HI, LO, TILE_NAMES, mask_of, parse_hand, parse_tile
from texas42.core.view import turned_up
from texas42.core.words import hand_result_lines, pile_line

HELD = parse_hand("6-6 6-4 5-5 5-1 4-2 3-3 2-0")


STANDARD = Rules()


def order(contract: str | None, rules: Rules = STANDARD, first_lead: str | None = None) -> str:
    named = None if contract is None else Contract.parse(contract)
    lead = None if first_lead is None else parse_tile(first_lead)
    return " ".join(TILE_NAMES[t] for t in holding_order(rules, named, HELD, lead))


# -- the hand as a player holds it ----------------------------------------------------------------


def test_during_the_auction_the_tiles_keep_the_order_they_are_listed_in() -> None:
    assert order(None) == "6-6 6-4 5-5 5-1 4-2 3-3 2-0"


def test_a_suit_puts_the_trumps_first_highest_first_then_each_suit_by_its_high_end() -> None:
    # fours: the 6-4 is a four, not a six; doubles head their own suits
    assert order("fours") == "6-4 4-2 6-6 5-5 5-1 3-3 2-0"
    assert order("fives") == "5-5 5-1 6-6 6-4 4-2 3-3 2-0"


def test_a_suit_with_doubles_low_puts_each_double_at_the_foot_of_its_suit() -> None:
    low = Rules().replace(suit_doubles="low")
    assert order("fours", low) == "6-4 4-2 6-6 5-1 5-5 3-3 2-0"


def test_doubles_trump_holds_the_doubles_together_highest_first() -> None:
    assert order("doubles") == "6-6 5-5 3-3 6-4 5-1 4-2 2-0"


def test_follow_me_groups_by_high_end_with_doubles_as_the_table_ranks_them() -> None:
    assert order("follow-me:high") == "6-6 6-4 5-5 5-1 4-2 3-3 2-0"
    assert order("follow-me:low") == "6-4 6-6 5-1 5-5 4-2 3-3 2-0"
    # doubles a suit of their own: held together, before the suits
    assert order("follow-me:own") == "6-6 5-5 3-3 6-4 5-1 4-2 2-0"


def test_nello_doubles_inverted_hold_the_blank_double_highest() -> None:
    held = parse_hand("6-6 0-0 3-3 5-1")
    named = Contract.parse("nello:own-inverted")
    said = [TILE_NAMES[t] for t in holding_order(Rules(), named, held)]
    assert said == ["0-0", "3-3", "6-6", "5-1"]


def test_sevens_holds_the_tiles_closest_to_seven_first() -> None:
    assert order("sevens") == "5-1 4-2 3-3 6-4 5-5 6-6 2-0"


def test_by_lead_groups_by_suit_until_the_first_lead_names_trump() -> None:
    assert order("by-lead") == order("follow-me:high")
    assert order("by-lead", first_lead="5-1") == "5-5 5-1 6-6 6-4 4-2 3-3 2-0"


@pytest.mark.parametrize(
    "contract",
    ["sixes", "blanks", "doubles", "follow-me:high", "follow-me:low", "follow-me:own", "nello"],
)
def test_every_order_holds_the_hand_and_ranks_each_group_by_the_contracts_own_tables(
    contract: str,
) -> None:
    rng = random.Random(contract)
    rules = Rules()
    named = Contract.parse(contract)
    tables = tables_for(named, rules)
    for _ in range(50):
        held = mask_of(rng.sample(range(28), 7))
        shown = holding_order(rules, named, held)
        assert mask_of(list(shown)) == held and len(shown) == 7
        groups = [tables.led[t] for t in shown]
        # each group together: once a suit is left behind it never comes back
        assert all(groups.index(g) == i or groups[i - 1] == g for i, g in enumerate(groups))
        for a, b in itertools.pairwise(shown):
            if tables.led[a] == tables.led[b]:
                assert tables.power[tables.led[a]][a] > tables.power[tables.led[a]][b]


def test_a_view_holds_its_tiles_in_the_contracts_order_once_trump_is_named() -> None:
    hand = Hand.random(Rules(), 3, random.Random(4))
    bidder = hand.turn
    seen = [hand.view(bidder).tiles_in_order()]
    hand.apply(hand.parse_action("30"))
    for _ in range(3):
        hand.apply(hand.parse_action("pass"))
    assert hand.phase == Phase.DECLARE
    seen.append(hand.view(bidder).tiles_in_order())
    assert seen[0] == seen[1] == tuple(sorted(seen[0], reverse=True)), "as listed"
    hand.apply(hand.parse_action("doubles"))
    named = hand.view(bidder).tiles_in_order()
    assert sorted(named) == sorted(seen[0])
    doubles = [HI[t] == LO[t] for t in named]
    assert doubles == sorted(doubles, reverse=True), "the doubles, trump, come first"


# -- face-down piles turned up once the hand is over ----------------------------------------------


def finished(rules: str, calls: list[str], seed: int) -> Hand:
    hand = Hand.random(Rules.parse(rules), 3, random.Random(seed))
    for call in calls:
        hand.apply(hand.parse_action(call))
    rng = random.Random(seed)
    while hand.result is None:
        hand.apply(rng.choice(hand.legal_actions()))
    return hand


def test_a_two_mark_hand_set_early_turns_up_only_the_tricks_played() -> None:
    hand = next(
        h
        for seed in range(100)
        if len((h := finished("standard", ["2m", "pass", "pass", "pass", "sixes"], seed)).tricks)
        < 7
    )
    assert hand.result is not None and hand.result.made is False
    for seat in range(4):
        view = hand.view(seat)
        assert view.piles_face_down and view.points is None
        shown = turned_up(view, hand.tricks)
        assert shown.points == hand.points
        assert [t.tiles for t in shown.tricks] == [t.tiles for t in hand.tricks]
        assert [t.points for t in shown.tricks] == [t.points for t in hand.tricks]
        played = mask_of([t for trick in shown.tricks for t in trick.tiles or ()])
        assert played == mask_of(hand.plays), "never a tile still held"
        assert not played & (sum(hand.hands) - hand.hands[seat]), "never another's tile"
        # the sentences now tell the count the piles held
        assert pile_line(shown, 0).endswith(f"{hand.points[0]} points") or hand.points[0] == 1
        lines = hand_result_lines(shown, hand.result)
        assert lines[0] == f"Points: North-South {hand.points[0]}, East-West {hand.points[1]}"


def test_piles_are_turned_up_only_once_the_hand_is_over() -> None:
    hand = Hand.random(Rules(), 3, random.Random(2))
    for call in ["2m", "pass", "pass", "pass", "sixes"]:
        hand.apply(hand.parse_action(call))
    for _ in range(4):
        hand.apply(hand.legal_actions()[0])
    assert hand.result is None and len(hand.tricks) == 1
    with pytest.raises(ValueError, match="once the hand is over"):
        turned_up(hand.view(0), hand.tricks)


def test_tricks_that_are_not_the_views_are_refused() -> None:
    one = finished("standard", ["2m", "pass", "pass", "pass", "sixes"], 1)
    other = next(
        h
        for seed in range(2, 60)
        if len((h := finished("standard", ["2m", "pass", "pass", "pass", "sixes"], seed)).tricks)
        == len(one.tricks)
        and [t.winner for t in h.tricks] != [t.winner for t in one.tricks]
    )
    with pytest.raises(ValueError, match="not the ones the view saw"):
        turned_up(one.view(0), other.tricks)


# -- every count of a hand's summary --------------------------------------------------------------

NUMBERS = re.compile(r" (-?\d+)(?=,|$)")


@pytest.mark.parametrize(
    "rules",
    [
        "standard",
        "house",
        "house,hide_tricks=never",
        "standard,nello,nello_min_marks=1",
        "standard,game=points,nello,nello_min_marks=1",
        "moon",
        "three-hand",
        "six-hand",
        "two-hand",
    ],
)
def test_every_count_in_a_hands_summary_is_the_hands_own(rules: str) -> None:
    """Random hands played out under each table, every seat's summary: the tricks each side
    took, the points (face-down piles turned up), a Nel-O bidder's tricks of those played."""
    table = Rules.parse(rules)
    layout = table.layout
    nello_seen = 0
    for seed in range(120):
        rng = random.Random(seed)
        hand = Hand.random(table, seed % layout.seats, random.Random(seed))
        while hand.result is None:
            hand.apply(rng.choice(hand.legal_actions()))
        result = hand.result
        if result.reshaken:
            continue
        for seat in range(layout.seats):
            view = turned_up(hand.view(seat), hand.tricks)
            for side in range(layout.sides):
                pile = pile_line(view, side)
                assert pile.split(" ")[0] == str(hand.tricks_won[side]), pile
            for line in hand_result_lines(view, result):
                if line.startswith("Tricks:"):
                    assert [int(n) for n in NUMBERS.findall(line)] == list(hand.tricks_won)
                elif line.startswith("Points:"):
                    assert [int(n) for n in NUMBERS.findall(line)] == list(hand.points)
                elif " of the " in line:
                    took = re.fullmatch(r".* took (\d+) tricks? of the (\d+) played", line)
                    assert took is not None and result.bidder is not None, line
                    bidders = layout.side_of[result.bidder]
                    assert int(took[1]) == hand.tricks_won[bidders]
                    assert int(took[2]) == len(hand.tricks)
                    nello_seen += 1
    if "nello" in rules:
        assert nello_seen, "some hand was played at Nel-O"


# -- the rules in a player's words ----------------------------------------------------------------


def test_every_option_has_words_and_every_choice_a_meaning() -> None:
    from texas42.core.rules import OPTION_CHOICES, OPTION_NAMES
    from texas42.core.words import OPTION_WORDS

    assert set(OPTION_WORDS) == set(OPTION_NAMES)
    for name, said in OPTION_WORDS.items():
        assert said.label and said.help.endswith("."), name
        assert set(said.choices) == set(OPTION_CHOICES.get(name, ())), name
        assert not TILE.search(said.label + said.help + " ".join(said.choices.values())), name


def test_the_rules_text_starts_with_describe_and_adds_what_it_leaves_out() -> None:
    from texas42.core.words import rules_text

    for preset in ("standard", "house", "tournament", "moon", "three-hand", "six-hand"):
        rules = Rules.parse(preset)
        lines = rules_text(rules)
        assert lines[: len(rules.describe())] == rules.describe()
        assert not any("_" in line or "=" in line for line in lines)
    low = rules_text(Rules.parse("standard,suit_doubles=low,first_bidder=holder-1-0"))
    assert "Doubles in a trump suit: doubles are the lowest of their suit" in low
    assert "First bidder: whoever holds the one-blank" in low


def test_no_meaning_of_a_choice_names_a_tile() -> None:
    """The leak checks read any ``6-6`` in a message as a tile its reader saw; the words of
    choices say double-six instead."""
    from texas42.core.actions import ACTIONS, Bid, Declare
    from texas42.core.words import choice_words

    for rules in (Rules.parse("house"), Rules.parse("house,doubles_choice=true")):
        for action in ACTIONS:
            if isinstance(action, (Bid, Declare)):
                _, meaning = choice_words(rules, action)
                assert not TILE.search(meaning), meaning


TILE = re.compile(r"(?<![\w-])[0-6]-[0-6](?![\w-])")
