"""The sentences of `texas42.core.words`, pinned word for word, and the doctests that show them."""

from __future__ import annotations

import doctest
import random
from collections.abc import Sequence

import pytest

from texas42.core import words
from texas42.core.actions import Bid, Discard, Pass, Play
from texas42.core.game import Game, Outcome
from texas42.core.hand import Hand, HandResult
from texas42.core.rules import Rules
from texas42.core.tiles import parse_hand
from texas42.core.words import (
    action_said,
    contract_line,
    game_over_line,
    hand_headline,
    hand_result_lines,
    score_line,
    seat_roles,
    winner_words,
)

EX14_DEAL = (
    "6-6 6-5 6-4 6-2 5-5 3-3 1-0",
    "6-3 5-4 4-4 4-2 3-1 2-0 0-0",
    "6-1 5-3 5-2 4-3 3-2 2-2 1-1",
    "6-0 5-1 5-0 4-1 4-0 3-0 2-1",
)
"""rules.md Ex 14: West shakes, North holds the big sixes."""
PLUNGE_DEAL = (
    "6-6 5-5 4-4 3-3 6-5 6-4 1-0",
    "6-3 5-4 6-2 4-2 3-1 2-0 0-0",
    *EX14_DEAL[2:],
)
"""Ex 14 with North's 6-2 and East's 4-4 swapped: four doubles for North to plunge on."""


def played_out(
    rules: str,
    calls: Sequence[str],
    deal: Sequence[str] = EX14_DEAL,
    last: bool = False,
) -> Hand:
    """A hand West shakes, with the ``calls`` made (the contract too), then played out taking the first legal
    tile each time (the last, with ``last``): a fixed play, so the sentences are fixed too."""
    hand = Hand(Rules.parse(rules), 3, [parse_hand(h) for h in deal])
    for call in calls:
        hand.apply(hand.parse_action(call))
    while hand.result is None:
        legal = hand.legal_actions()
        hand.apply(legal[-1 if last else 0])
    return hand


def said(hand: Hand, seat: int = 0) -> list[str]:
    """The contract line, the headline and the result lines, as a seat reads them."""
    view = hand.view(seat)
    assert hand.result is not None
    return [contract_line(view), hand_headline(view, hand.result)] + hand_result_lines(
        view, hand.result
    )


def test_the_doctests_show_real_sentences() -> None:
    result = doctest.testmod(words)
    assert result.attempted > 10
    assert result.failed == 0


def test_a_point_bid_made() -> None:
    assert said(played_out("standard", ["34", "pass", "pass", "pass", "sixes"])) == [
        "North bid 34 · sixes (sixes are trump)",
        "North-South made it",
        "Points: North-South 35, East-West 0",
        "Tricks: North-South 5, East-West 0",
        "Scored: North-South +1 mark",
    ]


def test_a_point_bid_set_in_a_points_game() -> None:
    hand = played_out("standard,game=points", ["pass", "30", "pass", "pass", "fives"], last=True)
    assert said(hand) == [
        "East bid 30 · fives (fives are trump)",
        "East-West went set",
        "Points: North-South 42, East-West 0",
        "Tricks: North-South 7, East-West 0",
        "Scored: North-South +72 points",
    ]


def test_a_mark_bid_keeps_its_face_down_points_to_itself() -> None:
    assert said(played_out("standard", ["2m", "pass", "pass", "pass", "sixes"])) == [
        "North bid 2m · sixes (sixes are trump)",
        "North-South made it",
        "Tricks: North-South 7, East-West 0",
        "Scored: North-South +2 marks",
    ]


def test_nello_set_counts_the_tricks_the_bidder_took_not_those_played() -> None:
    hand = played_out("standard,nello,nello_min_marks=1", ["1m", "pass", "pass", "pass", "nello"])
    assert len(hand.tricks) == 3 and hand.tricks_won == (1, 2)
    assert said(hand, 1) == [
        "North bid 1m · Nel-O (no trump, doubles high) · South sits out",
        "North-South went set",
        "North-South took 1 trick of the 3 played",
        "Scored: East-West +1 mark",
    ]


def test_nello_made() -> None:
    rules = "standard,nello,nello_min_marks=1"
    calls = ["1m", "pass", "pass", "pass", "nello:own"]
    hand = Hand(Rules.parse(rules), 0, [parse_hand(h) for h in EX14_DEAL])
    for call in calls:
        hand.apply(hand.parse_action(call))
    # East must lose every trick: let each seat play its highest tile but East its lowest
    while hand.result is None:
        legal = hand.legal_actions()
        hand.apply(legal[0] if hand.turn == 1 else legal[-1])
    assert hand.result is not None and hand.result.made
    assert said(hand, 2) == [
        "East bid 1m · Nel-O (no trump, doubles own) · West sits out",
        "East-West made it",
        "East-West took 0 tricks of the 7 played",
        "Scored: East-West +1 mark",
    ]


def test_a_plunge_names_the_partner_as_declarer() -> None:
    hand = played_out("standard,plunge", ["plunge", "pass", "pass", "pass", "sixes"], PLUNGE_DEAL)
    assert said(hand, 1) == [
        "North bid plunge · South named sixes (sixes are trump)",
        "North-South made it",
        "Tricks: North-South 7, East-West 0",
        "Scored: North-South +4 marks",
    ]
    assert seat_roles(hand.view(1), 2) == ["declarer"]
    assert seat_roles(hand.view(1), 0) == ["bid plunge"]


def test_a_reshake() -> None:
    hand = Hand(Rules.parse("tournament"), 3, [parse_hand(h) for h in EX14_DEAL])
    for _ in range(4):
        hand.apply(Pass())
    assert said(hand) == [
        "Everyone passed: the hand is reshaken",
        "Reshaken",
        "Everyone passed: the hand was reshaken, nobody scored",
    ]


def test_moon_at_three_seats() -> None:
    hand = Hand.random(Rules.parse("moon"), 0, random.Random(3))
    for call in ("5", "pass", "pass"):
        hand.apply(hand.parse_action(call))
    while hand.result is None:
        hand.apply(hand.legal_actions()[0])
    assert said(hand) == [
        "East bid 5 · blanks (blanks are trump)",
        "East went set",
        "Tricks: North 1, East 1, West 5",
        "Scored: North +1 point, East -5 points, West +5 points",
    ]
    assert score_line(hand.rules, (1, -5, 5)) == "North 1, East -5, West 5"


def test_game_over_and_who_wins() -> None:
    game = Game(Rules.parse("standard,target=2"), seed=5)
    while not game.is_over():
        game.apply(game.legal_actions()[0])
    outcome = game.outcome()
    assert outcome is not None
    winner = ("North-South", "East-West")[outcome.winner]
    high, low = sorted(outcome.score, reverse=True)
    assert game_over_line(game.rules, outcome) == (
        f"Game over after {outcome.hands} hands: {winner} win, {high} to {low}"
    )
    moon = Rules.parse("moon")
    assert game_over_line(moon, Outcome(0, (21, 3, -5), 1)) == (
        "Game over after 1 hand: North wins; North 21, East 3, West -5"
    )
    assert winner_words(moon, 1, ("Ann", "You", "Bob")) == "You win"


def test_roles_at_a_nello_table() -> None:
    rules = Rules.parse("standard,nello,nello_min_marks=1")
    hand = Hand(rules, 0, [parse_hand(h) for h in EX14_DEAL])
    for call in ["1m", "pass", "pass", "pass"]:
        hand.apply(hand.parse_action(call))
    view = hand.view(2)
    assert [seat_roles(view, seat) for seat in range(4)] == [
        ["partner", "shaker"],
        ["bid 1m"],
        [],
        [],
    ]
    hand.apply(hand.parse_action("nello:own"))
    view = hand.view(2)
    assert [seat_roles(view, seat) for seat in range(4)] == [
        ["partner", "shaker"],
        ["bid 1m"],
        [],
        ["sits out"],
    ]
    assert seat_roles(hand.view(3), 1) == ["partner", "bid 1m"]


def test_news_of_the_table_names_a_tile_laid_down_only_to_its_owner() -> None:
    assert action_said("Ann (bot)", Bid("2m")) == "Ann (bot) bid 2m"
    assert action_said("You", Pass()) == "You passed"
    assert action_said("Bob", Play("6-4")) == "Bob played 6-4"
    assert action_said("Bob", Discard("6-6")) == "Bob laid a tile face down"
    assert action_said("You", Discard("6-6"), own=True) == "You laid 6-6 face down"


def test_a_result_in_progress() -> None:
    hand = Hand(Rules(), 3, [parse_hand(h) for h in EX14_DEAL])
    for call in ("34", "pass", "pass", "pass", "sixes", "6-6"):
        hand.apply(hand.parse_action(call))
    view = hand.view(0)
    progress = hand.summary()
    assert isinstance(progress, HandResult) and progress.made is None
    assert hand_headline(view, progress) == "In progress"
    assert hand_result_lines(view, progress) == [
        "Points: North-South 0, East-West 0",
        "Tricks: North-South 0, East-West 0",
    ]


def test_a_review_speaks_to_you_and_of_the_others() -> None:
    assert words.play_review_line("You", 4, "6-6", ["2-0"], 1, "trick") == (
        "Trick 4: best play here was 2-0; your 6-6 cost 1 trick."
    )
    assert words.play_review_line("Ann (bot)", 1, "5-0", ["5-0"], 0) == (
        "Trick 1: Ann (bot)'s 5-0 was as good as the best."
    )
    assert words.bid_review_line("you", "1m", "nello", 0.995) == (
        "Your bid 1m (Nel-O) makes in 100% of the deals you could have held."
    )
    assert words.bid_review_line("Bob", "30", "threes", 0.0) == (
        "Bob's bid 30 (threes) makes in 0% of the deals they could have held."
    )


def test_a_review_with_nothing_to_blame_says_so() -> None:
    assert (
        words.no_costly_plays(7) == "No costly plays: every play reviewed was as good as the best."
    )
    assert words.no_costly_plays(7, "Bob") == (
        "No costly plays: every play of Bob's was as good as the best."
    )
    assert words.no_costly_plays(0) == "No plays to review."
    assert words.no_costly_plays(0, "You") == "You had no plays to review."


def test_a_bid_review_gives_every_contracts_share() -> None:
    assert (
        words.bid_shares_line({"sixes": 1.0}, 1)
        == "Each contract over the 1 deal drawn: sixes 100%."
    )
    assert words.bid_shares_line({"fives": 0.125, "doubles": 0.0}, 8) == (
        "Each contract over the 8 deals drawn: fives 12%, doubles 0%."
    )


def test_the_tricks_of_a_review_follow_the_tiles_each_trick_held() -> None:
    """Ex 14 played out: four tiles a trick, so play 7 is in trick 2 and play 24 in trick 6; at
    Nel-O one seat sits out and a trick holds three."""
    hand = Hand(Rules(), 3, [parse_hand(h) for h in EX14_DEAL])
    for call in ("34", "pass", "pass", "pass", "sixes"):
        hand.apply(hand.parse_action(call))
    assert words.trick_of_play(hand.view(0), 1) == 1
    for tile in ("6-6", "6-3", "6-1", "6-0", "6-5"):
        hand.apply(hand.parse_action(tile))
    assert [words.trick_of_play(hand.view(2), play) for play in (4, 5, 6, 7)] == [1, 2, 2, 2]
    nello = Hand(Rules.parse("standard,nello,nello_min_marks=1"), 3, hand.deal)
    for call in ("1m", "pass", "pass", "pass", "nello"):
        nello.apply(nello.parse_action(call))
    while nello.result is None:
        nello.apply(nello.legal_actions()[0])
    view = nello.view(1)
    last = len(view.tricks)
    assert [words.trick_of_play(view, play) for play in (3, 4, 3 * last)] == [1, 2, last]


def test_best_play_is_told_of_the_bidders_side() -> None:
    hand = Hand(Rules(), 3, [parse_hand(h) for h in EX14_DEAL])
    with pytest.raises(ValueError, match="this hand has none"):
        words.best_play_line(hand.view(1), 0)
    for call in ("34", "pass", "pass", "pass", "sixes"):
        hand.apply(hand.parse_action(call))
    assert words.best_play_line(hand.view(1), 42, sides=["Them", "Us"]) == (
        "With best play throughout, Them would end with 42 points."
    )
    assert words.best_play_line(hand.view(1), 30, taken=12) == (
        "With best play from here, North-South would end with 30 points (12 taken, 18 to come)."
    )


def test_a_reader_who_saw_every_tile_gets_the_points_and_the_contract_as_named() -> None:
    """A 2-mark bid lays the piles face down: a seat's view has no points and shows a by-lead
    contract as the suit its first lead named; a record's reader passes both."""
    hand = played_out("standard", ["2m", "pass", "pass", "pass", "by-lead"])
    view = hand.view(1)
    assert hand.result is not None and view.points is None
    assert said(hand, 1)[0] == "North bid 2m · ones (ones are trump)"
    named = contract_line(view, contract=hand.contract)
    assert named == "North bid 2m · by-lead (ones are trump)"
    assert hand_result_lines(view, hand.result, points=hand.result.points) == [
        "Points: North-South 35, East-West 6",
        *said(hand, 1)[2:],
    ]


def test_the_widow_line_counts_the_tiles_still_to_lay_down() -> None:
    """With a widow of two, the bidder lays down two tiles, and the line counts down."""
    hand = Hand.random(Rules.parse("moon,hand_size=6,widow=2"), 0, random.Random(1))
    hand.apply(hand.parse_action("moon"))  # the highest call ends the auction
    view = hand.view(1)
    assert contract_line(view) == "East bid moon · East took the widow: 2 tiles to lay down"
    hand.apply(view.legal[0])
    for seat in (1, 2):  # the bidder, and a seat that does not see the tile laid down
        said = contract_line(hand.view(seat))
        assert said == "East bid moon · East took the widow: 1 tile to lay down"
