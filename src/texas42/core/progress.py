"""How a hand moves on: its phases, whose turn it is, how a trick is taken and when the bid is
decided.

These are the rules of the hand's progression as small pure functions. `Hand` applies them one
action at a time; `texas42.core.view.build_view` replays them over the public events of a seat's
view; neither computes a turn, a trick or a result of its own.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from texas42.core.actions import MOON_ID, PLUNGE_ID, SPLASH_ID
from texas42.core.contracts import Contract, PlayTables
from texas42.core.layout import Layout
from texas42.core.rules import Rules
from texas42.core.tiles import count_points


class Phase(enum.IntEnum):
    AUCTION = 0
    DECLARE = 1
    PLAY = 2
    DONE = 3
    DISCARD = 4
    """The bid winner has taken the widow and lays tiles face down (Moon); before DECLARE."""


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: who led, the seats and tiles in play order, who won, what it was worth."""

    leader: int
    seats: tuple[int, ...]
    tiles: tuple[int, ...]
    winner: int
    points: int


def auction_over(layout: Layout, calls: int, high_id: int | None) -> bool:
    """Every seat has called once, or a seat shot the moon, which nothing can follow."""
    return calls == layout.seats or high_id == MOON_ID


def declarer_of(layout: Layout, high_id: int, high_seat: int) -> int:
    """Who names the contract and leads: the bid winner, or its partner after a plunge or splash
    (the rules allow those only where every seat has a partner)."""
    partner = layout.partner(high_seat)
    if high_id in (PLUNGE_ID, SPLASH_ID) and partner is not None:
        return partner
    return high_seat


def sitting_out(layout: Layout, contract: Contract, declarer: int) -> int | None:
    """The seat that lays its hand down for the whole play: the declarer's partner in Nel-O."""
    return layout.partner(declarer) if contract.kind == "nello" else None


def trick_size(layout: Layout, out_seat: int | None) -> int:
    """How many tiles make a trick: one from every seat still playing."""
    return layout.seats if out_seat is None else layout.seats - 1


def next_player(seats: int, seat: int, out_seat: int | None) -> int:
    """The seat that plays after ``seat`` within a trick, passing over the one sitting out."""
    following = (seat + 1) % seats
    return (following + 1) % seats if following == out_seat else following


def take_trick(
    layout: Layout, tables: PlayTables, seats: tuple[int, ...], tiles: tuple[int, ...]
) -> Trick:
    """The trick these seats played these tiles to: its winner and what it is worth."""
    mask = 0
    for t in tiles:  # mask_of inlined: this runs once a trick on the hot path
        mask |= 1 << t
    value = layout.trick_points + count_points(mask) if layout.count else layout.trick_points
    return Trick(seats[0], seats, tiles, seats[tables.trick_winner(tiles)], value)


def add_trick(
    layout: Layout, points: tuple[int, ...], won: tuple[int, ...], winner: int, value: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each side's points and tricks once the winner's side takes a trick worth ``value``."""
    side = layout.side_of[winner]
    if layout.sides == 2:  # the four-seat fast path
        if side:
            return (points[0], points[1] + value), (won[0], won[1] + 1)
        return (points[0] + value, points[1]), (won[0] + 1, won[1])
    return (
        (*points[:side], points[side] + value, *points[side + 1 :]),
        (*won[:side], won[side] + 1, *won[side + 1 :]),
    )


def bid_decided(
    rules: Rules,
    contract: Contract,
    high_seat: int,
    bid_marks: int,
    high_value: int,
    points: tuple[int, ...],
    won: tuple[int, ...],
    last_winner: int,
) -> bool | None:
    """True once the bid is made, False once it is set, None while open (marks game).

    A points game (and Moon) plays every trick and only then asks whether the bid was made.
    Count set aside unseen is out of play: a bid it makes impossible is set only when the
    last trick shows it, since nobody at the table can know sooner.
    """
    layout = rules.layout
    done = sum(won) == layout.tricks
    if rules.game != "marks" and not done:
        return None
    bidders = layout.side_of[high_seat]
    if contract.kind == "nello":
        if won[bidders] if done else last_winner == high_seat:
            return False
        return True if done else None
    if bid_marks:
        if sum(won) - won[bidders]:
            return False
        return True if done else None
    if points[bidders] >= high_value:
        return True
    if sum(points) - points[bidders] > layout.total - high_value or done:
        return False
    return None
