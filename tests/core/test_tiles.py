"""Tiles and tile masks: indexing, spelling, count."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from texas42 import NotationError, hand_name, parse_hand, parse_tile, tile_name
from texas42.core.tiles import (
    ALL_TILES,
    COUNT_TILES,
    COUNT_VALUE,
    DOUBLES,
    HI,
    LO,
    PIPS,
    SUIT_MASKS,
    TILE_COUNT,
    count_points,
    is_double,
    iter_tiles,
    mask_of,
    tile,
    tiles_of,
)


def test_index_layout() -> None:
    assert tile(0, 0) == 0 and tile(1, 0) == 1 and tile(6, 6) == 27
    assert tile(4, 6) == tile(6, 4) == 25
    assert [tile_name(t) for t in range(4)] == ["0-0", "1-0", "1-1", "2-0"]
    assert all(HI[t] >= LO[t] and tile(HI[t], LO[t]) == t for t in range(TILE_COUNT))
    assert len({(HI[t], LO[t]) for t in range(TILE_COUNT)}) == 28


def test_doubles_and_suits() -> None:
    assert DOUBLES.bit_count() == 7
    assert [is_double(t) for t in (0, 2, 27, 25)] == [True, True, True, False]
    for pip in range(7):
        assert SUIT_MASKS[pip].bit_count() == 7  # a suit has seven tiles, its double included
        assert SUIT_MASKS[pip] & DOUBLES == 1 << tile(pip, pip)


def test_count() -> None:
    assert hand_name(COUNT_TILES) == "6-4 5-5 5-0 4-1 3-2"
    assert count_points(ALL_TILES) == 35
    assert count_points(parse_hand("5-5 6-4")) == 20
    assert count_points(parse_hand("5-0 4-1 3-2 6-6")) == 15
    assert [COUNT_VALUE[parse_tile(t)] for t in ("6-4", "5-5", "3-2", "6-3")] == [10, 10, 5, 0]
    assert PIPS[parse_tile("6-3")] == 9


@pytest.mark.parametrize("text", ["6-4", "4-6", "64", "46", " 6-4 "])
def test_tile_spellings(text) -> None:
    assert parse_tile(text) == tile(6, 4)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("7-1", r"not a tile: '7-1' \(ends are 0..6\)"),
        ("6", r"not a tile: '6' \(write it like 6-4\)"),
        ("6-4-1", "not a tile"),
        ("a-b", "ends are 0..6"),
        ("", "not a tile"),
    ],
)
def test_bad_tiles(text, message) -> None:
    with pytest.raises(NotationError, match=message):
        parse_tile(text)


def test_bad_ends() -> None:
    with pytest.raises(NotationError, match=r"a double-six tile has ends 0\.\.6, not 7 and 1"):
        tile(7, 1)


def test_hands() -> None:
    mask = parse_hand("1-0, 6-6 4-6")
    assert hand_name(mask) == "6-6 6-4 1-0"
    assert tiles_of(mask) == [27, 25, 1] == list(iter_tiles(mask))
    assert mask_of([1, 25, 27]) == mask
    assert parse_hand("") == 0 and hand_name(0) == ""
    with pytest.raises(NotationError, match="tile 6-4 appears twice in '6-4 4-6'"):
        parse_hand("6-4 4-6")


@given(st.integers(0, ALL_TILES))
def test_hand_names_round_trip(mask: int) -> None:
    assert parse_hand(hand_name(mask)) == mask
    assert count_points(mask) == sum(COUNT_VALUE[t] for t in iter_tiles(mask))
