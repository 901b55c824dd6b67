"""The shape of the table a set of rules plays on: seats, sides, tiles, hand size and totals.

Every size of table is one `Layout`, derived once from the `Rules` by `layout_of` and cached, so
the core asks it "who is this seat's partner?" or "how many points does a hand hold?" instead of
writing ``seat + 2`` or ``42``. Four seats in two partnerships is the default layout.

A *side* is what a score belongs to: a partnership (``partners``, ``pairs``, ``threes``) or a
single player (``bidder-alone``, ``solo``). In a hand the bid winner's side plays against every
other side together.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from texas42.core.errors import NotationError, RulesError
from texas42.core.tiles import (
    ALL_TILES,
    COUNT_TILES,
    TILE_NAMES,
    count_points,
    parse_tile,
    tiles_of,
)

SEAT_NAMES_BY_SIZE: dict[int, tuple[str, ...]] = {
    3: ("North", "East", "West"),
    4: ("North", "East", "South", "West"),
    5: ("North", "East", "Southeast", "Southwest", "West"),
    6: ("North", "Northeast", "Southeast", "South", "Southwest", "Northwest"),
    7: ("North", "Northeast", "East", "Southeast", "Southwest", "West", "Northwest"),
}
"""Seat names clockwise round the table, North first, for every size the engine plays."""


@dataclass(frozen=True, slots=True)
class Layout:
    """Everything about a table's shape that the rules fix."""

    seats: int
    teams: str
    side_of: tuple[int, ...]
    """The side each seat scores for."""
    partner_of: tuple[int | None, ...]
    """Each seat's one partner, or None where a seat has none or more than one."""
    sides: int
    hand_size: int
    widow: int
    tiles: int
    """The mask of tiles in play: the set with the removed tiles taken out."""
    set_aside: int
    """How many tiles of ``tiles`` are neither dealt nor in the widow: face down, never seen."""
    trick_points: int
    count: bool
    total: int
    """Points a hand holds: the count in play plus a trick's points for each trick."""
    seat_names: tuple[str, ...]
    side_names: tuple[str, ...]

    @property
    def tricks(self) -> int:
        return self.hand_size

    @property
    def side_size(self) -> int:
        """Seats on each side: 2 for partners and pairs, 3 for threes, 1 for players alone."""
        return self.seats // self.sides

    @property
    def alone(self) -> bool:
        """Whether every side is one player (bidder-alone, Moon)."""
        return self.sides == self.seats

    @property
    def dealt(self) -> int:
        """Tiles dealt to the seats, all hands together."""
        return self.seats * self.hand_size

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.seats

    def partner(self, seat: int) -> int | None:
        """The seat's partner; None when the table has no single partner for it."""
        return self.partner_of[seat]

    def side_seats(self, side: int) -> tuple[int, ...]:
        return tuple(s for s in range(self.seats) if self.side_of[s] == side)

    def same_side(self, a: int, b: int) -> bool:
        return self.side_of[a] == self.side_of[b]

    def trick_value(self, tiles_mask: int) -> int:
        """What winning a trick of these tiles scores."""
        return self.trick_points + (count_points(tiles_mask) if self.count else 0)

    def describe(self) -> str:
        parts = [f"{self.seats} players, {self.hand_size} tiles each"]
        if self.widow:
            parts.append(f"a widow of {self.widow}")
        if self.set_aside:
            parts.append(f"{self.set_aside} set aside unseen")
        removed = ALL_TILES & ~self.tiles
        if removed:
            parts.append("without " + " ".join(TILE_NAMES[t] for t in tiles_of(removed)))
        parts.append(f"{self.total} points a hand")
        parts.append(TEAM_WORDS[self.teams])
        return "; ".join(parts)


TEAM_WORDS = {
    "partners": "partners sit opposite",
    "pairs": "three teams of two, partners opposite",
    "threes": "two teams of three, alternate seats",
    "bidder-alone": "the bid winner plays alone against the rest",
    "solo": "everyone scores their own tricks",
}


def parse_removed(text: str) -> int:
    """The mask of tiles named in a ``removed`` option: ``"1-0"``, ``"6-0+5-0"`` (or spaces)."""
    mask = 0
    for word in text.replace("+", " ").replace("/", " ").replace(".", " ").split():
        try:
            t = parse_tile(word)
        except NotationError as exc:
            raise RulesError(f"rule removed: {exc}") from None
        mask |= 1 << t
    return mask


def format_removed(mask: int) -> str:
    """The canonical ``removed`` value: tile names, highest first, joined by ``+``."""
    return "+".join(TILE_NAMES[t] for t in tiles_of(mask))


def _sides(seats: int, teams: str) -> tuple[int, ...]:
    if teams in {"partners", "threes"}:
        return tuple(s % 2 for s in range(seats))
    if teams == "pairs":
        return tuple(s % (seats // 2) for s in range(seats))
    return tuple(range(seats))


def hand_total(in_play: int, count: bool, trick_points: int, hand_size: int) -> int:
    """Points a hand holds: the count among the tiles in play, and each trick's points."""
    counted = count_points(in_play & COUNT_TILES) if count else 0
    return counted + trick_points * hand_size


class HasLayout(Protocol):
    """Anything that knows its table: `texas42.core.rules.Rules`, named by what it has so that
    this module need not import the rules, which build their layout here."""

    @property
    def layout(self) -> Layout: ...


def layout_of(rules: HasLayout) -> Layout:
    """The table the rules describe (computed once, when the rules are made)."""
    return rules.layout


@lru_cache(maxsize=64)
def table_layout(
    seats: int,
    teams: str,
    hand_size: int,
    widow: int,
    removed: str,
    trick_points: int,
    count: bool,
) -> Layout:
    """Derive the layout from the table options; `Rules` calls this once and keeps the result."""
    side_of = _sides(seats, teams)
    sides = max(side_of) + 1
    partner_of = tuple(
        next((p for p in range(seats) if p != s and side_of[p] == side_of[s]), None)
        if teams in ("partners", "pairs")
        else None
        for s in range(seats)
    )
    tiles = ALL_TILES & ~parse_removed(removed)
    names = SEAT_NAMES_BY_SIZE[seats]
    if teams in ("partners", "pairs", "threes"):
        side_names = tuple(
            "-".join(names[s] for s in range(seats) if side_of[s] == side) for side in range(sides)
        )
    else:
        side_names = names
    return Layout(
        seats=seats,
        teams=teams,
        side_of=side_of,
        partner_of=partner_of,
        sides=sides,
        hand_size=hand_size,
        widow=widow,
        tiles=tiles,
        set_aside=tiles.bit_count() - seats * hand_size - widow,
        trick_points=trick_points,
        count=count,
        total=hand_total(tiles, count, trick_points, hand_size),
        seat_names=names,
        side_names=side_names,
    )
