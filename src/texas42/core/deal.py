"""Shaking and drawing: who shakes first, the order the seats draw in, and checking a deal.

A shuffle is a sequence of tiles; the seats draw their hands from it in the rules' draw order,
the widow comes next, and the rest is set aside. The checks turn a deal given from outside (a
record, a position, a test) into masks the hand can trust, or a `NotationError` that says what is
wrong and where.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from texas42.core.errors import NotationError
from texas42.core.layout import Layout
from texas42.core.tiles import ALL_TILES, PIPS, TILE_COUNT, hand_name, tiles_of


def unshuffled(tiles: int) -> list[int]:
    """The tiles in play in the order a shuffle starts from: 0..27 for the whole set, as every
    seeded game has always drawn, else highest first."""
    return list(range(TILE_COUNT)) if tiles == ALL_TILES else tiles_of(tiles)


def draw_for_shaker(
    rng: random.Random, layout: Layout
) -> tuple[int, list[tuple[tuple[int, int], ...]]]:
    """Each seat draws a tile of the set in play; the highest pip total shakes first, and tied
    seats draw again.

    Returns the first shaker and every round of the draw as (seat, tile) pairs.
    """
    seats = list(range(layout.seats))
    rounds: list[tuple[tuple[int, int], ...]] = []
    in_play = unshuffled(layout.tiles)
    while True:
        drawn = rng.sample(in_play, len(seats))
        rounds.append(tuple(zip(seats, drawn)))
        best = max(PIPS[t] for t in drawn)
        seats = [s for s, t in zip(seats, drawn) if PIPS[t] == best]
        if len(seats) == 1:
            return seats[0], rounds


def draw_sequence(shaker: int, draw_order: str, layout: Layout) -> tuple[int, ...]:
    """The seats in the order they draw their hands (``opponents-first``: every other side
    clockwise from the shaker's left, then the shaker's partners, the shaker last)."""
    return _draw_sequence(shaker, draw_order, layout.side_of)


@lru_cache(maxsize=256)
def _draw_sequence(shaker: int, draw_order: str, side_of: tuple[int, ...]) -> tuple[int, ...]:
    """Cached by the table's sides: every hand dealt asks for one of a few sequences."""
    n = len(side_of)
    around = [(shaker + k) % n for k in range(1, n + 1)]
    if draw_order != "opponents-first":
        return tuple(around)
    theirs = [s for s in around if side_of[s] != side_of[shaker]]
    ours = [s for s in around if side_of[s] == side_of[shaker] and s != shaker]
    return (*theirs, *ours, shaker)


def deal_from_order(
    order: Sequence[int], shaker: int, draw_order: str, layout: Layout
) -> tuple[int, ...]:
    """Hand out the shuffled tiles the way the rules say the seats draw them.

    Only the hands: the tiles after them in ``order`` are the widow, then the tiles set aside
    (`widow_from_order`).
    """
    hands = [0] * layout.seats
    size = layout.hand_size
    if draw_order == "deal":
        for i, t in enumerate(order[: layout.dealt]):
            hands[(shaker + 1 + i) % layout.seats] |= 1 << t
        return tuple(hands)
    for k, seat in enumerate(draw_sequence(shaker, draw_order, layout)):
        for t in order[k * size : (k + 1) * size]:
            hands[seat] |= 1 << t
    return tuple(hands)


def widow_from_order(order: Sequence[int], layout: Layout) -> int:
    """The widow: the tiles drawn right after the hands."""
    mask = 0
    for t in order[layout.dealt : layout.dealt + layout.widow]:
        mask |= 1 << t
    return mask


def check_shaker(shaker: object, layout: Layout) -> None:
    if not (
        isinstance(shaker, int) and not isinstance(shaker, bool) and 0 <= shaker < layout.seats
    ):
        raise NotationError(f"the shaker is a seat 0..{layout.seats - 1}, not {shaker!r}")


def check_deal(deal: Sequence[int], layout: Layout) -> tuple[int, ...]:
    """The deal as a tuple of one mask per seat, each a full hand of tiles in play, no tile
    twice; or a clear error."""
    names = layout.seat_names
    if len(deal) != layout.seats:
        raise NotationError(f"a deal has {layout.seats} hands, not {len(deal)}")
    seen = 0
    for seat, mask in enumerate(deal):
        if not isinstance(mask, int) or isinstance(mask, bool) or mask < 0 or mask & ~layout.tiles:
            if isinstance(mask, int) and mask > 0 and not mask >> 28:
                raise NotationError(
                    f"{names[seat]} holds {hand_name(mask & ~layout.tiles)}, "
                    "which these rules take out of the set"
                )
            raise NotationError(f"{names[seat]}'s hand is not a set of tiles")
        if mask.bit_count() != layout.hand_size:
            raise NotationError(
                f"{names[seat]} holds {mask.bit_count()} tiles, not {layout.hand_size}"
            )
        twice = seen & mask
        if twice:
            raise NotationError(f"{hand_name(twice)} dealt twice (again to {names[seat]})")
        seen |= mask
    return tuple(deal)


def check_widow(widow: int | None, deal: Sequence[int], layout: Layout) -> int:
    """The widow's mask: as given, or what is left when nothing is set aside; or a clear error."""
    if widow is None and not layout.widow:
        return 0
    dealt = 0
    for mask in deal:
        dealt |= mask
    if widow is None:
        if layout.widow and layout.set_aside:
            raise NotationError(f"these rules need the {layout.widow}-tile widow given")
        return layout.tiles & ~dealt if layout.widow else 0
    if not isinstance(widow, int) or isinstance(widow, bool) or widow < 0 or widow & ~layout.tiles:
        raise NotationError("the widow is not a set of tiles in play")
    if widow.bit_count() != layout.widow:
        size = f"{layout.widow} tile{'s' * (layout.widow != 1)}"
        raise NotationError(f"the widow has {size} under these rules, not {widow.bit_count()}")
    if widow & dealt:
        raise NotationError(f"{hand_name(widow & dealt)} is both dealt and in the widow")
    return widow
