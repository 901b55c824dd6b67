"""Tiles of a double-six set as ints 0..27, and sets of tiles as 28-bit masks.

A tile ``hi-lo`` (``hi >= lo``) has index ``hi*(hi+1)//2 + lo``, so 0-0 is 0 and 6-6 is 27, and
sorting indexes high to low sorts a hand the way players read it: 6-6 6-5 ... 1-0 0-0.

>>> from texas42.core.tiles import count_points, hand_name, parse_hand, parse_tile, tile_name
>>> t = parse_tile("6-4")
>>> t, tile_name(t), parse_tile("4-6") == parse_tile("64") == t
(25, '6-4', True)
>>> hand = parse_hand("3-2 6-4 0-0 5-5")
>>> hand_name(hand), hand.bit_count(), count_points(hand)
('6-4 5-5 3-2 0-0', 4, 25)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from texas42.core.errors import NotationError

TILE_COUNT = 28
ALL_TILES = (1 << TILE_COUNT) - 1
HAND_SIZE = 7
TOTAL_POINTS = 42

HI: tuple[int, ...] = tuple(hi for hi in range(7) for _ in range(hi + 1))
LO: tuple[int, ...] = tuple(lo for hi in range(7) for lo in range(hi + 1))
PIPS: tuple[int, ...] = tuple(HI[t] + LO[t] for t in range(TILE_COUNT))
COUNT_VALUE: tuple[int, ...] = tuple(
    10 if PIPS[t] == 10 else 5 if PIPS[t] == 5 else 0 for t in range(TILE_COUNT)
)

DOUBLES = sum(1 << t for t in range(TILE_COUNT) if HI[t] == LO[t])
COUNT10 = sum(1 << t for t in range(TILE_COUNT) if COUNT_VALUE[t] == 10)
COUNT5 = sum(1 << t for t in range(TILE_COUNT) if COUNT_VALUE[t] == 5)
COUNT_TILES = COUNT10 | COUNT5
SUIT_MASKS: tuple[int, ...] = tuple(
    sum(1 << t for t in range(TILE_COUNT) if pip in (HI[t], LO[t])) for pip in range(7)
)
"""Every tile carrying the pip, whatever the contract."""

TILE_NAMES: tuple[str, ...] = tuple(f"{HI[t]}-{LO[t]}" for t in range(TILE_COUNT))
TILE_CODES: tuple[str, ...] = tuple(f"{HI[t]}{LO[t]}" for t in range(TILE_COUNT))
"""Compact two-digit spelling used inside one-line position strings."""


def tile(hi: int, lo: int) -> int:
    """The index of the tile with these two ends, in either order."""
    if not (0 <= hi <= 6 and 0 <= lo <= 6):
        raise NotationError(f"a double-six tile has ends 0..6, not {hi} and {lo}")
    if lo > hi:
        hi, lo = lo, hi
    return hi * (hi + 1) // 2 + lo


ONE_ZERO = tile(1, 0)
"""Its holder bids first under ``first_bidder=holder-1-0``."""
DOUBLE_SIX = tile(6, 6)
"""Plunge needs it in hand under ``plunge_needs_66``."""


def is_double(t: int) -> bool:
    return HI[t] == LO[t]


def parse_tile(text: str) -> int:
    """Read ``"6-4"``, ``"4-6"`` or ``"64"`` into a tile index."""
    spelled = text.strip()
    if len(spelled) == 3 and spelled[1] == "-":
        ends = spelled[0] + spelled[2]
    elif len(spelled) == 2:
        ends = spelled
    else:
        raise NotationError(f"not a tile: {text!r} (write it like 6-4)")
    if not (ends[0] in "0123456" and ends[1] in "0123456"):
        raise NotationError(f"not a tile: {text!r} (ends are 0..6)")
    return tile(int(ends[0]), int(ends[1]))


def tile_name(t: int) -> str:
    """The tile as players write it, higher end first: ``"6-4"``."""
    return TILE_NAMES[t]


def count_points(mask: int) -> int:
    """Count in a set of tiles: 10 for 5-5 and 6-4, 5 for 5-0, 4-1 and 3-2."""
    return 10 * (mask & COUNT10).bit_count() + 5 * (mask & COUNT5).bit_count()


def iter_tiles(mask: int) -> Iterator[int]:
    """The tiles of a mask, highest first."""
    while mask:
        t = mask.bit_length() - 1
        yield t
        mask ^= 1 << t


def tiles_of(mask: int) -> list[int]:
    """The tiles of a mask as a list, highest first."""
    return list(iter_tiles(mask))


def mask_of(tiles: Iterable[int]) -> int:
    mask = 0
    for t in tiles:
        mask |= 1 << t
    return mask


def parse_hand(text: str) -> int:
    """Read space- or comma-separated tiles into a mask; a tile named twice is an error."""
    mask = 0
    for word in text.replace(",", " ").split():
        t = parse_tile(word)
        if mask >> t & 1:
            raise NotationError(f"tile {tile_name(t)} appears twice in {text!r}")
        mask |= 1 << t
    return mask


def hand_name(mask: int) -> str:
    """A set of tiles as players read it: ``"6-6 6-5 6-4"``, highest first."""
    return " ".join(TILE_NAMES[t] for t in iter_tiles(mask))
