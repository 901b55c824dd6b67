"""Shaking and drawing (`texas42.core.deal`): the first shaker's draw, the order the seats draw
in, dealing from a shuffle, and the checks a deal, a shaker and a widow get from outside."""

from __future__ import annotations

import itertools
import random

import pytest

from helpers import EX14_DEAL, STANDARD, E, N, S, W
from texas42 import Game, Hand, NotationError, Rules
from texas42.core.deal import (
    check_deal,
    check_shaker,
    check_widow,
    deal_from_order,
    draw_for_shaker,
    draw_sequence,
    unshuffled,
    widow_from_order,
)
from texas42.core.tiles import ALL_TILES, PIPS, mask_of, parse_tile

MOON = Rules.preset("moon")
SIX_HAND = Rules.preset("six-hand")


# -- the first shaker ------------------------------------------------------------------------


def test_high_draw_highest_pip_total_shakes_ties_draw_again() -> None:
    redraws = 0
    for seed in range(60):
        game = Game(STANDARD, seed)
        rounds = game.draw_rounds
        assert rounds and [seat for seat, _ in rounds[0]] == [0, 1, 2, 3]
        for earlier, later in itertools.pairwise(rounds):
            best = max(PIPS[t] for _, t in earlier)
            assert [s for s, _ in later] == [s for s, t in earlier if PIPS[t] == best]
        last = rounds[-1]
        best = max(PIPS[t] for _, t in last)
        (winner,) = [s for s, t in last if PIPS[t] == best]
        assert game.hand.shaker == winner
        assert all(len({t for _, t in r}) == len(r) for r in rounds)  # distinct tiles per round
        redraws += len(rounds) > 1
    assert redraws  # some of these seeds tie on the first draw


def test_draw_for_shaker_is_seeded() -> None:
    assert draw_for_shaker(random.Random(9), STANDARD.layout) == draw_for_shaker(
        random.Random(9), STANDARD.layout
    )


@pytest.mark.parametrize(
    ("draw_order", "seats"),
    [
        ("opponents-first", (W, E, N, S)),  # shaker South: West and East, then North, then South
        ("shaker-last", (W, N, E, S)),
        ("deal", None),  # one tile at a time, from the shaker's left
    ],
)
def test_draw_order(draw_order, seats) -> None:
    shaker = S
    order = list(range(28))
    random.Random(11).shuffle(order)
    hand = Hand.random(STANDARD.replace(draw_order=draw_order), shaker, random.Random(11))
    if seats is None:
        expected = [0, 0, 0, 0]
        for i, t in enumerate(order):
            expected[(shaker + 1 + i) % 4] |= 1 << t
    else:
        expected = [0, 0, 0, 0]
        for k, seat in enumerate(seats):
            for t in order[7 * k : 7 * k + 7]:
                expected[seat] |= 1 << t
    assert hand.deal == tuple(expected)


# -- the draw --------------------------------------------------------------------------------


def test_draw_sequence_opponents_first_at_every_size() -> None:
    assert draw_sequence(S, "opponents-first", STANDARD.layout) == (W, E, N, S)
    assert draw_sequence(S, "shaker-last", STANDARD.layout) == (W, N, E, S)
    # six-hand pairs sit opposite: the shaker's partner draws just before the shaker
    assert draw_sequence(0, "opponents-first", SIX_HAND.layout) == (1, 2, 4, 5, 3, 0)


def test_deal_from_order_and_the_widow_after_the_hands() -> None:
    layout = MOON.layout
    order = unshuffled(layout.tiles)
    deal = deal_from_order(order, 0, MOON.draw_order, layout)
    assert [m.bit_count() for m in deal] == [7, 7, 7]
    widow = widow_from_order(order, layout)
    assert widow == 1 << order[21] and not widow & (deal[0] | deal[1] | deal[2])


def test_unshuffled_starts_from_index_order_for_the_whole_set() -> None:
    assert unshuffled(ALL_TILES) == list(range(28))
    assert unshuffled(MOON.layout.tiles) == sorted(unshuffled(MOON.layout.tiles), reverse=True)


def test_random_hand_is_a_legal_deal() -> None:
    hand = Hand.random(STANDARD, 2, random.Random(3))
    assert sorted(m.bit_count() for m in hand.deal) == [7, 7, 7, 7]
    assert hand.deal[0] | hand.deal[1] | hand.deal[2] | hand.deal[3] == (1 << 28) - 1


# -- checking a deal from outside -------------------------------------------------------------


def test_check_deal_returns_the_masks() -> None:
    assert check_deal(list(EX14_DEAL), STANDARD.layout) == EX14_DEAL


def test_check_shaker_names_the_seats_of_the_table() -> None:
    check_shaker(5, SIX_HAND.layout)
    with pytest.raises(NotationError, match=r"the shaker is a seat 0\.\.5, not 6"):
        check_shaker(6, SIX_HAND.layout)
    with pytest.raises(NotationError, match="not True"):
        check_shaker(True, STANDARD.layout)


def test_check_widow() -> None:
    layout = MOON.layout
    hand = Hand.random(MOON, 0, random.Random(2))
    assert check_widow(None, hand.deal, layout) == hand.widow
    assert check_widow(hand.widow, hand.deal, layout) == hand.widow
    dealt = 1 << next(iter(t for t in range(28) if hand.deal[0] >> t & 1))
    with pytest.raises(NotationError, match="both dealt and in the widow"):
        check_widow(dealt, hand.deal, layout)
    with pytest.raises(NotationError, match="the widow has 1 tile under these rules, not 2"):
        check_widow(hand.widow | dealt, hand.deal, layout)
    with pytest.raises(NotationError, match="not a set of tiles in play"):
        check_widow(mask_of([parse_tile("6-0")]), hand.deal, layout)
    assert check_widow(None, EX14_DEAL, STANDARD.layout) == 0


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        (EX14_DEAL[:3], "a deal has 4 hands, not 3"),
        (
            (EX14_DEAL[0] | EX14_DEAL[1] & -EX14_DEAL[1],) + EX14_DEAL[1:],
            "North holds 8 tiles, not 7",
        ),
        ((EX14_DEAL[0], EX14_DEAL[0]) + EX14_DEAL[2:], r"dealt twice \(again to East\)"),
        ((-1,) + EX14_DEAL[1:], "North's hand is not a set of tiles"),
    ],
)
def test_bad_deals(deal, message) -> None:
    with pytest.raises(NotationError, match=message):
        Hand(STANDARD, 0, deal)


def test_bad_shaker() -> None:
    with pytest.raises(NotationError, match=r"the shaker is a seat 0\.\.3, not 4"):
        Hand(STANDARD, 4, EX14_DEAL)
