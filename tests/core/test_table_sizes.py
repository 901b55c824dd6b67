"""Every table size from three to seven seats: the presets, their arithmetic and scoring
(rules.md section 17, Ex 24 and 25), conservation of tiles and points, and hidden tiles."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples
from texas42 import Game, Hand, IllegalActionError, Phase
from texas42.core.actions import ACTIONS, DISCARD_BASE, MOON_ID, Bid, Discard, parse_call
from texas42.core.errors import RulesError
from texas42.core.layout import layout_of
from texas42.core.notation import (
    hand_position,
    parse_hand_position,
    parse_view_position,
    view_position,
)
from texas42.core.record import Record, RecordError, check_record, record_from_game
from texas42.core.rules import PLAYERS_PRESETS, Rules
from texas42.core.tiles import COUNT_VALUE, TILE_CODES, mask_of, parse_tile, tiles_of

SIZES = [
    "two-hand",
    "three-hand",
    "moon",
    "five-hand",
    "six-hand",
    "six-hand,teams=threes",
    "seven-hand",
]


def sensible_game(rules: Rules, seed: int, max_hands: int = 60) -> Game:
    """A game of random legal actions, with Moon's bidders kept modest so the game ends."""
    rng = random.Random(seed)
    game = Game(rules, seed)
    while not game.is_over() and len(game.hands) <= max_hands:
        ids = game.hand.legal_ids()
        if rules.bids == "tricks" and game.hand.phase == Phase.AUCTION:
            ids = ids[:2]
        game.apply(rng.choice(ids))
    return game


# -- the presets -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "seats", "hand", "aside", "widow", "total", "sides", "lowest"),
    [
        ("standard", 4, 7, 0, 0, 42, 2, 30),
        ("two-hand", 4, 7, 0, 0, 42, 2, 30),
        ("three-hand", 3, 9, 0, 0, 44, 3, 30),
        ("moon", 3, 7, 0, 1, 7, 3, 4),
        ("five-hand", 5, 5, 3, 0, 40, 5, 29),
        ("six-hand", 6, 4, 4, 0, 39, 3, 28),
        ("six-hand,teams=threes", 6, 4, 4, 0, 39, 2, 28),
        ("seven-hand", 7, 4, 0, 0, 39, 7, 28),
    ],
)
def test_preset_tables(name, seats, hand, aside, widow, total, sides, lowest) -> None:
    rules = Rules.parse(name)
    layout = layout_of(rules)
    assert (layout.seats, layout.hand_size, layout.set_aside, layout.widow) == (
        seats,
        hand,
        aside,
        widow,
    )
    assert (layout.total, layout.sides, rules.min_bid) == (total, sides, lowest)
    assert str(Rules.parse(str(rules))) == str(rules)


def test_players_presets_cover_two_to_seven() -> None:
    assert sorted(PLAYERS_PRESETS) == [2, 3, 4, 5, 6, 7]
    assert [Rules.preset(PLAYERS_PRESETS[n]).seats for n in range(2, 8)] == [4, 3, 4, 5, 6, 7]


def test_ex24_three_hand_holds_44_points() -> None:
    """rules.md Ex 24: 1-0 removed, 27 tiles, 9 tricks of 3 tiles: 35 count + 9 = 44."""
    layout = layout_of(Rules.preset("three-hand"))
    assert layout.tiles.bit_count() == 27 and not layout.tiles >> parse_tile("1-0") & 1
    assert layout.tricks == 9 and layout.total == 44
    game = sensible_game(Rules.parse("three-hand,game=points,target=200"), 7)  # every trick played
    full = [
        h for h in game.hands if h.result and h.result.bidder is not None and len(h.tricks) == 9
    ]
    assert full and all(sum(h.points) == 44 for h in full)
    assert all(len(t.tiles) == 3 for h in full for t in h.tricks)


def test_three_hand_bids_run_past_42() -> None:
    rules = Rules.preset("three-hand")
    hand = Hand.random(rules, 0, random.Random(1))
    legal = [a.notation for a in hand.legal_actions()]
    assert legal[:2] == ["pass", "30"] and "42" in legal and "43" in legal and "1m" in legal
    forty_two = hand.parse_action("42")
    assert isinstance(forty_two, Bid) and (forty_two.points, forty_two.marks) == (42, 0)
    hand.apply(hand.parse_action("43"))
    assert [a.notation for a in hand.legal_actions()] == ["pass", "1m", "2m"]
    assert hand.why_illegal(forty_two) == "a bid must beat 43"
    assert Hand.random(Rules(), 0, random.Random(2)).parse_action("42") is Bid("1m")


def _moon_hand(bid: str, tricks: tuple[int, int, int]) -> Hand:
    """A Moon hand in which seat 1 (A) wins the auction with ``bid`` and the seats take
    ``tricks`` (A, B, C = seats 1, 2, 0), found by seeded random play."""
    rules = Rules.preset("moon")
    for seed in range(20_000):
        rng = random.Random(seed)
        hand = Hand.random(rules, 0, rng)
        hand.apply(parse_call(bid, rules))
        if hand.phase == Phase.AUCTION:
            hand.apply(ACTIONS[28])
            hand.apply(ACTIONS[28])
        while not hand.is_over:
            hand.apply(rng.choice(hand.legal_ids()))
        if (hand.tricks_won[1], hand.tricks_won[2], hand.tricks_won[0]) == tricks:
            return hand
    raise AssertionError("no such hand")


@pytest.mark.parametrize(
    ("bid", "tricks", "score"),
    [
        ("5", (4, 2, 1), (1, -5, 2)),
        ("5", (5, 1, 1), (1, 5, 1)),
        ("4", (6, 1, 0), (0, 6, 1)),
        ("21", (7, 0, 0), (0, 21, 0)),
        ("21", (6, 1, 0), (0, -21, 1)),
    ],
)
def test_ex25_moon_scoring(bid, tricks, score) -> None:
    """rules.md Ex 25: A bids 5 and takes 4 tricks, B 2, C 1: A -5, B +2, C +1; taking 5, 1, 1:
    A +5, B +1, C +1; a made 21 scores 21. Scores are by seat (C, A, B = seats 0, 1, 2)."""
    hand = _moon_hand(bid, tricks)
    assert hand.result is not None and hand.result.score == score
    assert hand.result.made == (score[1] > 0)
    assert len(hand.tricks) == 7  # Moon plays every trick: each player scores their own


def test_moon_auction_widow_and_discard() -> None:
    rules = Rules.preset("moon")
    hand = Hand.random(rules, 2, random.Random(3))
    assert hand.widow.bit_count() == 1 and hand.set_aside == 0
    assert [a.notation for a in hand.legal_actions()] == ["pass", "4", "5", "6", "7", "moon"]
    hand.apply(hand.parse_action("5"))
    assert [a.notation for a in hand.legal_actions()] == ["pass", "6", "7", "moon"]
    hand.apply(hand.parse_action("21"))  # shooting the moon ends the auction at once
    bidder = 1
    assert hand.phase == Phase.DISCARD and hand.turn == bidder and len(hand.calls) == 2
    assert hand.hands[bidder] == hand.deal[bidder] | hand.widow
    assert hand.legal_mask() == hand.hands[bidder] << DISCARD_BASE
    foreign = next(iter(tiles_of(hand.deal[0])))
    with pytest.raises(IllegalActionError, match="does not hold"):
        hand.apply(Discard(foreign))
    assert "must first lay 1 tile face down" in hand.why_illegal(ACTIONS[parse_tile("6-6")])  # type: ignore[operator]
    keep = hand.hands[bidder]
    gone = next(iter(tiles_of(keep)))
    hand.apply(Discard(gone))
    assert hand.phase == Phase.DECLARE and hand.hands[bidder].bit_count() == 7
    names = [a.notation for a in hand.legal_actions()]
    assert "doubles" not in names and "follow-me" in names and "sixes" in names
    hand.undo()
    assert hand.phase == Phase.DISCARD and hand.hands[bidder] == keep and hand.discards == []


def test_bids_a_table_cannot_take_are_refused() -> None:
    moon = Hand.random(Rules.preset("moon"), 0, random.Random(4))
    for text, reason in (
        ("8", "bids are 4 to 7 tricks"),
        ("1m", "bids are 4 to 7 tricks"),
        ("3", "bids start at 4"),
    ):
        assert reason in moon.why_illegal(Bid(text))  # type: ignore[operator]
    four = Hand.random(Rules(), 0, random.Random(4))
    assert "Moon bid" in four.why_illegal(Bid("moon"))  # type: ignore[operator]
    assert "bid 41 at most" in four.why_illegal(Bid(43))  # type: ignore[operator]
    assert "no widow" in four.why_illegal(Discard("6-6"))  # type: ignore[operator]


# -- scoring at the bigger tables ---------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["three-hand", "five-hand", "six-hand", "six-hand,teams=threes", "seven-hand"]
)
def test_marks_go_to_the_bidder_or_to_every_other_side(name) -> None:
    rules = Rules.parse(name)
    layout = layout_of(rules)
    game = sensible_game(rules, 11)
    assert game.is_over()
    scored = [r for r in game.results if r.bidder is not None]
    assert scored
    for result in scored:
        bidders = layout.side_of[result.bidder]  # type: ignore[index]
        marks = max(result.score)
        winners = {s for s, n in enumerate(result.score) if n}
        assert winners == ({bidders} if result.made else set(range(layout.sides)) - {bidders})
        assert all(result.score[s] == marks for s in winners)
    outcome = game.outcome()
    assert outcome is not None and game.score[outcome.winner] == max(game.score) >= 7


def test_six_hand_partners_sit_opposite() -> None:
    pairs = layout_of(Rules.preset("six-hand"))
    assert [pairs.partner(s) for s in range(6)] == [3, 4, 5, 0, 1, 2]
    assert pairs.side_names == ("North-South", "Northeast-Southwest", "Southeast-Northwest")
    threes = layout_of(Rules.parse("six-hand,teams=threes"))
    assert threes.side_seats(0) == (0, 2, 4) and threes.partner(0) is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("standard,seats=5", "teams=partners needs 4 seats"),
        ("five-hand,teams=pairs", "teams=pairs needs 6 seats"),
        ("seven-hand,hand_size=5", "need 35 tiles; only 28"),
        ("three-hand,nello", "nello needs a partner"),
        ("moon,game=marks", "game=moon and teams=solo go together"),
        ("three-hand,min_bid=44", "rule min_bid must be a whole number from 1 to 43, not 44"),
        ("standard,removed=7-7", "rule removed"),
        ("standard,see_partner,seats=6,teams=pairs,hand_size=4", "see_partner"),
    ],
)
def test_tables_that_do_not_fit_are_refused(text, message) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.parse(text)


# -- conservation, views and notation at every size --------------------------------------------


@pytest.mark.parametrize("name", SIZES)
def test_every_tile_and_point_is_accounted_for(name) -> None:
    rules = Rules.parse(name)
    layout = layout_of(rules)
    game = sensible_game(rules, 5)
    for hand in game.hands:
        places = [*hand.hands, mask_of(hand.plays), mask_of(hand.discards), hand.set_aside]
        if hand.declarer is None:
            places.append(hand.widow)
        assert sum(m.bit_count() for m in places) == layout.tiles.bit_count()
        played_out = hand.result and hand.result.bidder is not None
        trick_game = hand.contract is not None and hand.contract.kind != "nello"
        if played_out and trick_game and len(hand.tricks) == layout.tricks:
            out = sum(COUNT_VALUE[t] for t in tiles_of(hand.set_aside)) if layout.count else 0
            assert sum(hand.points) == layout.total - out


@pytest.mark.parametrize("name", SIZES)
def test_positions_views_and_records_round_trip(name) -> None:
    rules = Rules.parse(name)
    game = Game(rules, 3)
    rng = random.Random(3)
    while not game.is_over() and len(game.hands) < 4:
        text = game.position()
        hand, score, number = parse_hand_position(text)
        assert hand_position(hand, score, number) == text
        for seat in range(rules.seats):
            view = game.view(seat)
            assert parse_view_position(view_position(view)) == view
        ids = game.hand.legal_ids()
        game.apply(
            rng.choice(
                ids[:2] if rules.bids == "tricks" and game.hand.phase == Phase.AUCTION else ids
            )
        )
    record = record_from_game(game)
    data = record.to_dict()
    assert data.get("seats", 4) == rules.seats
    again = Record.from_json(record.to_json())
    assert again == record and check_record(again).score == game.score


def test_a_record_without_seats_has_four() -> None:
    game = sensible_game(Rules.preset("three-hand"), 2, max_hands=1)
    data = record_from_game(game).to_dict()
    del data["seats"]
    with pytest.raises(RecordError, match="a record without seats has four"):
        Record.from_dict(data)


@settings(max_examples=examples(60))
@given(st.sampled_from(SIZES[1:]), st.integers(0, 2**32 - 1), st.data())
def test_views_ignore_the_widow_and_the_tiles_set_aside(name, seed, data) -> None:
    """Swap a tile nobody at the table has seen (the widow before it is taken, or a tile set
    aside) with a tile of another seat: the seat's view never changes."""
    rules = Rules.parse(name)
    layout = layout_of(rules)
    rng = random.Random(seed)
    hand = Hand.random(rules, rng.randrange(layout.seats), rng)
    unseen = hand.set_aside | hand.widow
    if not unseen:
        return
    seat = data.draw(st.integers(0, layout.seats - 1), label="seat")
    other = data.draw(st.sampled_from([s for s in range(layout.seats) if s != seat]), label="other")
    x = data.draw(st.sampled_from(tiles_of(unseen)), label="unseen tile")
    y = data.draw(st.sampled_from(tiles_of(hand.deal[other])), label="other's tile")
    deal = list(hand.deal)
    deal[other] ^= 1 << x | 1 << y
    widow = hand.widow ^ (1 << x | 1 << y) if hand.widow >> x & 1 else hand.widow
    one, two = (
        Hand(rules, hand.shaker, hand.deal, hand.widow),
        Hand(rules, hand.shaker, deal, widow),
    )
    steps = 0
    while not one.is_over and steps < 40:
        assert one.view(seat) == two.view(seat) or (seat == one.declarer and one.widow != two.widow)
        if seat == one.declarer and one.widow != two.widow:
            return  # the bid winner took the widow: it sees the tile now
        ids = one.legal_ids()
        action = rng.choice(
            ids[:2] if rules.bids == "tricks" and one.phase == Phase.AUCTION else ids
        )
        if not two.is_legal(action):
            return
        one.apply(action)
        two.apply(action)
        steps += 1


def test_only_the_bid_winner_sees_the_widow_and_its_discard() -> None:
    rules = Rules.preset("moon")
    hand = Hand.random(rules, 0, random.Random(8))
    hand.apply(Bid(4))
    hand.apply(ACTIONS[28])
    hand.apply(ACTIONS[28])
    bidder = 1
    gone = next(iter(tiles_of(hand.hands[bidder])))
    hand.apply(Discard(gone))
    for seat in range(3):
        view = hand.view(seat)
        if seat == bidder:
            assert view.widow == hand.widow and view.discards == (gone,)
            assert (
                view_position(view)
                .split()[4]
                .endswith("+" + TILE_CODES[next(iter(tiles_of(hand.widow)))])
            )
        else:
            assert view.widow == 0 and view.discards == (None,)
            assert view_position(view).split()[4].endswith("+?") and "|?" in view_position(view)
            assert not view.hand & (hand.widow | 1 << gone)
    assert MOON_ID not in hand.legal_ids()


@pytest.mark.parametrize("name", ["three-hand", "moon"])
def test_the_draw_for_the_first_shake_uses_the_tiles_in_play(name) -> None:
    rules = Rules.parse(name)
    for seed in range(30):
        game = Game(rules, seed)
        drawn = [t for round_ in game.draw_rounds for _, t in round_]
        assert drawn and all(layout_of(rules).tiles >> t & 1 for t in drawn)


def test_no_trump_is_follow_me_as_moon_players_say_it() -> None:
    moon = Hand.random(Rules.preset("moon"), 0, random.Random(6))
    moon.apply(Bid(4))
    moon.apply(ACTIONS[28])
    moon.apply(ACTIONS[28])
    moon.apply(Discard(next(iter(tiles_of(moon.hands[1])))))
    assert moon.parse_action("no-trump") is moon.parse_action("follow-me")
    moon.apply(moon.parse_action("no-trump"))
    assert str(moon.contract) == "follow-me" and moon.tables is not None
    assert moon.tables.description == "no trump, doubles high" and not moon.tables.trump_mask
