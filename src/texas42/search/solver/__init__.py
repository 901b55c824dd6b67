"""Exact double-dummy solving of the play of a hand: every tile known, best play by both sides.

`PlayPosition` is the play of one hand reduced to what the search needs (who holds what, the
trick on the table, the contract's tables); unlike `Hand` it never ends early, because the
solver's values count every trick. It plays on any table the rules describe (3 to 7 seats): the
bid winner's side (its team, or the bidder alone) against every other seat together, and tiles
set aside or discarded are simply in nobody's hand. `Solver` answers three questions about a
position and keeps one transposition table across calls on the same deal:

- `Solver.value`: what the bidding side takes from here (points; for Nel-O, tricks the bidder
  is forced to take);
- `Solver.reaches`: whether that is at least a target, by a cheaper null-window search;
- `Solver.move_values`: the value after each legal tile.

The search itself is the numba kernel in `texas42.search.solver.kernel`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache
from typing import cast

from texas42.core.actions import Bid
from texas42.core.contracts import (
    SEVENS_DISTANCE_MASKS,
    SUIT_COUNT,
    Contract,
    PlayTables,
    legal_plays,
    tables_for,
)
from texas42.core.errors import RulesError
from texas42.core.hand import Hand
from texas42.core.layout import Layout, layout_of
from texas42.core.progress import Phase, next_player, trick_size
from texas42.core.rules import Rules
from texas42.core.tiles import COUNT5, COUNT10, TILE_COUNT, count_points, mask_of, tiles_of
from texas42.core.view import View
from texas42.extras import extra_error

try:
    import numpy as np

    from texas42.search.solver import kernel
except ImportError as exc:  # numpy and numba come with the solver extra
    raise extra_error(exc, "the solver") from None

__all__ = ["KernelTables", "PlayPosition", "Solver", "kernel_tables", "points_needed"]


@dataclass(frozen=True, slots=True)
class PlayPosition:
    """The play of a hand from some point on, with every seat's tiles known.

    ``hands`` has one mask per seat of the table. ``taken`` is what the bidding side already has
    on the solver's scale (points, or for Nel-O the bidder's tricks); ``goal`` is the total it
    needs to make the contract (for Nel-O, the most tricks the bidder may take: 0). ``layout``
    is the rules' table, looked up once when not given and carried along from play to play.
    """

    rules: Rules
    contract: Contract
    tables: PlayTables | None
    hands: tuple[int, ...]
    trick: tuple[int, ...]
    leader: int
    bidder: int
    declarer: int
    out_seat: int | None
    """The Nel-O declarer's partner, who sits the hand out; None in every other contract."""
    taken: int
    goal: int
    tricks_played: int
    layout: Layout = field(default=cast(Layout, None), compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.layout is None:
            object.__setattr__(self, "layout", layout_of(self.rules))
        if len(self.hands) != self.layout.seats:
            raise RulesError(f"a position on {self.layout.seats} seats needs a hand for each")

    @classmethod
    def from_hand(cls, hand: Hand) -> PlayPosition:
        """The position of a hand in play (or over, if it ended early with tiles left)."""
        if hand.contract is None or hand.phase not in (Phase.PLAY, Phase.DONE):
            raise RulesError("the solver needs a hand whose contract is named")
        bidder, declarer, leader = hand.high_seat, hand.declarer, hand.trick_leader
        assert bidder is not None and declarer is not None and leader is not None
        layout = hand.layout
        nello = hand.contract.kind == "nello"
        if nello:
            taken = sum(1 for trick in hand.tricks if trick.winner == bidder)
            goal = 0
        else:
            taken = hand.points[layout.side_of[bidder]]
            goal = layout.total if hand.bid_marks else hand.high_value
        return cls(
            rules=hand.rules,
            contract=hand.contract,
            tables=hand.tables,
            hands=tuple(hand.hands),
            trick=tuple(hand.trick),
            leader=leader,
            bidder=bidder,
            declarer=declarer,
            out_seat=hand.out_seat,
            taken=taken,
            goal=goal,
            tricks_played=len(hand.tricks),
            layout=layout,
        )

    @classmethod
    def from_view(
        cls,
        view: View,
        hands: tuple[int, ...],
        hidden: tuple[tuple[int, ...], ...] = (),
    ) -> PlayPosition:
        """The position one seat sees, completed by a sampled world: every seat's current
        ``hands`` (one per seat of the table) and the tiles of each face-down trick (``hidden``,
        in order) if piles lie down.
        """
        if view.contract is None or view.bidder is None or view.declarer is None:
            raise RulesError("the solver needs a hand whose contract is named")
        layout = view.layout
        if len(hands) != layout.seats:
            raise RulesError(f"the sampled world needs {layout.seats} hands, not {len(hands)}")
        if hands[view.seat] != view.hand:
            raise RulesError("the sampled hands must give the seat its own tiles")
        contract = view.contract
        rules = view.rules
        tricks = view.tricks
        trick = tuple(t for _, t in view.trick)
        first_lead = None
        if tricks and tricks[0].tiles is not None:
            first_lead = tricks[0].tiles[0]
        elif not tricks and trick:
            first_lead = trick[0]
        tables = None
        if contract.kind != "by-lead" or first_lead is not None:
            tables = tables_for(contract, rules, first_lead=first_lead)
        bidder = view.bidder
        face_down = iter(hidden)
        taken = 0
        for done in tricks:
            tiles = done.tiles if done.tiles is not None else next(face_down, None)
            if contract.kind == "nello":
                taken += done.winner == bidder
            elif layout.same_side(done.winner, bidder):
                if tiles is None:
                    raise RulesError("a face-down trick needs its sampled tiles")
                taken += layout.trick_value(mask_of(tiles))
        leader = view.trick[0][0] if view.trick else tricks[-1].winner if tricks else view.declarer
        return cls(
            rules=rules,
            contract=contract,
            tables=tables,
            hands=tuple(hands),
            trick=trick,
            leader=leader,
            bidder=bidder,
            declarer=view.declarer,
            out_seat=view.out_seat,
            taken=taken,
            goal=0 if contract.kind == "nello" else points_needed(view),
            tricks_played=len(tricks),
            layout=layout,
        )

    @property
    def nello(self) -> bool:
        return self.contract.kind == "nello"

    @property
    def bidders(self) -> int:
        """The bidding side (`Layout.side_of`): on four seats 0 for North-South, 1 for East-West."""
        return self.layout.side_of[self.bidder]

    @property
    def trick_size(self) -> int:
        return trick_size(self.layout, self.out_seat)

    @property
    def is_over(self) -> bool:
        return self.tricks_played == self.layout.tricks

    @property
    def turn(self) -> int:
        seat, seats = self.leader, self.layout.seats
        for _ in self.trick:
            seat = next_player(seats, seat, self.out_seat)
        return seat

    def maximizing(self, seat: int) -> bool:
        """Whether ``seat`` wants the value high (the bidding side, or in Nel-O the opponents)."""
        side_of = self.layout.side_of
        return (side_of[seat] == side_of[self.bidder]) != self.nello

    def bid_side_mask(self) -> int:
        """The seats on the bid winner's side, as a mask of seat bits: they play together."""
        side_of = self.layout.side_of
        bidders = side_of[self.bidder]
        return sum(1 << s for s in range(self.layout.seats) if side_of[s] == bidders)

    def legal(self) -> int:
        """The mask of tiles the seat to play may play."""
        if self.is_over:
            return 0
        return legal_plays(
            self.rules, self.tables, self.hands[self.turn], self.trick, self.tricks_played == 0
        )

    def play(self, tile: int) -> PlayPosition:
        """The position after ``tile``; raises RulesError if it is not a legal play here."""
        if not self.legal() >> tile & 1:
            raise RulesError(f"tile {tile} is not a legal play in this position")
        seat = self.turn
        tables = self.tables
        if tables is None:
            tables = tables_for(self.contract, self.rules, first_lead=tile)
        hands = list(self.hands)
        hands[seat] ^= 1 << tile
        trick = self.trick + (tile,)
        if len(trick) < self.trick_size:
            return replace(self, tables=tables, hands=tuple(hands), trick=trick)
        seats = [self.leader]
        while len(seats) < len(trick):
            seats.append(next_player(self.layout.seats, seats[-1], self.out_seat))
        winner = seats[tables.trick_winner(trick)]
        gain = 0
        if self.nello:
            gain = 1 if winner == self.bidder else 0
        elif self.layout.same_side(winner, self.bidder):
            gain = self.layout.trick_value(mask_of(trick))
        return replace(
            self,
            tables=tables,
            hands=tuple(hands),
            trick=(),
            leader=winner,
            taken=self.taken + gain,
            tricks_played=self.tricks_played + 1,
        )

    def remaining_bound(self) -> int:
        """The most the bidding side can still add: the tricks and count not yet won."""
        layout = self.layout
        tricks_left = layout.tricks - self.tricks_played
        if self.nello:
            return tricks_left
        bound = tricks_left * layout.trick_points
        if layout.count:
            live = mask_of(self.trick)
            for seat, held in enumerate(self.hands):
                if seat != self.out_seat:
                    live |= held
            bound += count_points(live)
        return bound


def points_needed(view: View) -> int:
    """The total the bidding side needs to make its bid: the points (or tricks) bid, or the
    hand's whole total for a mark bid or a moon (the minimum bid while no bid is known)."""
    if view.bid_marks:
        return view.layout.total
    return view.bid.points if isinstance(view.bid, Bid) else view.rules.min_bid


@dataclass(frozen=True)
class KernelTables:
    """A contract's `PlayTables` as the arrays the kernel reads (see `kernel.search`)."""

    led: np.ndarray
    follow: np.ndarray
    power: np.ndarray
    higher_mates: np.ndarray
    between: np.ndarray
    beats: np.ndarray
    sevens_masks: np.ndarray


@cache
def kernel_tables(tables: PlayTables) -> KernelTables:
    """Arrays for the kernel, with the equivalence classes used to search equal tiles once.

    Two tiles are in one comparison group when they follow exactly the same suits and call the
    same suit when led, so that every trick ranks them the same way against any third tile; a
    class is a group and a count value. In Sevens every tile is ranked by its closeness to 7
    alone, and a class is a distance from 7 and a count value.
    """
    if tables.sevens:
        group = [0] * TILE_COUNT
        rank = list(tables.power[0])
    else:
        group = [
            hash((tables.led[t],) + tuple(tables.follow[s] >> t & 1 for s in range(SUIT_COUNT)))
            for t in range(TILE_COUNT)
        ]
        rank = [tables.power[tables.led[t]][t] for t in range(TILE_COUNT)]
    klass = [
        (group[t], count_points(1 << t), rank[t] if tables.sevens else 0) for t in range(TILE_COUNT)
    ]
    higher_mates = np.zeros(TILE_COUNT, np.int64)
    between = np.zeros((TILE_COUNT, TILE_COUNT), np.int64)
    beats = np.zeros(TILE_COUNT, np.int64)
    for a in range(TILE_COUNT):
        ranks_led = tables.power[tables.led[a]]
        for b in range(TILE_COUNT):
            if ranks_led[b] > ranks_led[a]:
                beats[a] |= 1 << b
            if group[a] != group[b]:
                continue
            if klass[a] == klass[b] and (rank[b], b) > (rank[a], a):
                higher_mates[a] |= 1 << b
            low, high = sorted((rank[a], rank[b]))
            for x in range(TILE_COUNT):
                if group[x] == group[a] and low < rank[x] < high:
                    between[a, b] |= 1 << x
    return KernelTables(
        led=np.array(tables.led, np.int64),
        follow=np.array(tables.follow, np.int64),
        power=np.array(tables.power, np.int64),
        higher_mates=higher_mates,
        between=between,
        beats=beats,
        sevens_masks=np.array(SEVENS_DISTANCE_MASKS, np.int64),
    )


class Solver:
    """Double-dummy answers for positions, reusing one transposition table per deal.

    The table is keyed by the tiles left and the leader, which name a position only while every
    tile stays with the same seat; a position whose tiles sit elsewhere, or another contract,
    starts a new generation of the table (no clearing needed). ``table_bits`` sets its size: 2**16
    entries hold a whole solve and stay in the processor's cache, which measured faster than
    larger tables.
    """

    def __init__(self, table_bits: int = 16) -> None:
        size = 1 << table_bits
        self._tt_key = np.zeros(size, np.int64)
        self._tt_lo = np.zeros(size, np.int8)
        self._tt_hi = np.zeros(size, np.int8)
        self._tt_move = np.zeros(size, np.int8)
        self._tt_gen = np.zeros(size, np.int32)
        self._generation = 0
        self._context: tuple[object, ...] | None = None
        self._holdings: list[int] = []
        self.stats = np.zeros(kernel.STAT_COUNT, np.int64)

    @property
    def nodes(self) -> int:
        """Positions visited since this solver was made."""
        return int(self.stats[kernel.S_NODES])

    def new_table(self) -> None:
        """Forget every stored bound (the next solve starts a fresh generation)."""
        self._context = None

    def _prepare(self, position: PlayPosition) -> None:
        assert position.tables is not None
        bid_side = position.bid_side_mask()
        context = (
            position.tables,
            bid_side,
            position.nello,
            position.out_seat,
            len(position.hands),
        )
        hands = position.hands
        seats = range(len(hands))
        consistent = context == self._context and all(
            hands[s] & self._holdings[o] == 0 for s in seats for o in seats if o != s
        )
        if not consistent:
            self._generation += 1
            self._context = context
            self._holdings = [0] * len(hands)
        for s in seats:
            self._holdings[s] |= hands[s]

    def _search(self, position: PlayPosition, alpha: int, beta: int) -> int:
        self._prepare(position)
        tables = position.tables
        assert tables is not None
        arrays = kernel_tables(tables)
        rules = position.rules
        first_lead_mask = 0
        if rules.first_lead_trump and position.tricks_played == 0 and not position.trick:
            first_lead_mask = tables.trump_mask
        layout = position.layout
        params = np.zeros(kernel.PARAM_COUNT, np.int64)
        params[kernel.P_BID_SIDE] = position.bid_side_mask()
        params[kernel.P_MINIMIZE] = 1 if position.nello else 0
        params[kernel.P_COUNT_ON] = 0 if position.nello or not layout.count else 1
        params[kernel.P_OUT_SEAT] = -1 if position.out_seat is None else position.out_seat
        params[kernel.P_FIRST_LEAD_MASK] = first_lead_mask
        params[kernel.P_SEVENS] = 1 if tables.sevens else 0
        params[kernel.P_TRICK_BASE] = 1 if position.nello else layout.trick_points
        params[kernel.P_FIVES] = COUNT5
        params[kernel.P_TENS] = COUNT10
        params[kernel.P_SEATS] = layout.seats
        trick = np.zeros(kernel.MAX_SEATS, np.int64)
        for i, t in enumerate(position.trick):
            trick[i] = t
        return int(
            kernel.search(
                np.array(position.hands, np.int64),
                trick,
                len(position.trick),
                position.leader,
                alpha,
                beta,
                arrays.led,
                arrays.follow,
                arrays.power,
                arrays.higher_mates,
                arrays.between,
                arrays.beats,
                arrays.sevens_masks,
                params,
                self._tt_key,
                self._tt_lo,
                self._tt_hi,
                self._tt_move,
                self._tt_gen,
                self._generation,
                self.stats,
            )
        )

    def value(self, position: PlayPosition) -> int:
        """What the bidding side takes from here on under best play by both sides.

        Points for a trump, follow-me or Sevens contract (the tiles on the table count with the
        trick they are in); for Nel-O, the tricks the bidder can be forced to take. Add
        ``position.taken`` for the total at the end of the hand.
        """
        if position.is_over:
            return 0
        if position.tables is None:
            return self._over_first_leads(position)
        # null-window tests halving the range: cheaper than one wide search, since each test
        # prunes hard and the table carries what it learned into the next
        lo, hi = 0, position.remaining_bound()
        while lo < hi:
            target = (lo + hi + 1) // 2
            found = self._search(position, target - 1, target)
            if found >= target:
                lo = found
            else:
                hi = found
        return lo

    def reaches(self, position: PlayPosition, target: int) -> bool:
        """Whether the bidding side takes at least ``target`` from here under best play."""
        if target <= 0:
            return True
        if position.is_over or target > position.remaining_bound():
            return False
        if position.tables is None:
            outcomes = (self.reaches(position.play(t), target) for t in tiles_of(position.legal()))
            return any(outcomes)
        return self._search(position, target - 1, target) >= target

    def makes(self, position: PlayPosition) -> bool:
        """Whether the contract is made under best play (Nel-O: the bidder takes no trick)."""
        if position.nello:
            return position.taken == 0 and not self.reaches(position, 1)
        return self.reaches(position, position.goal - position.taken)

    def move_values(self, position: PlayPosition) -> dict[int, int]:
        """For each legal tile, the value of this position if that tile is played now."""
        values: dict[int, int] = {}
        for t in tiles_of(position.legal()):
            child = position.play(t)
            values[t] = child.taken - position.taken + self.value(child)
        return values

    def _over_first_leads(self, position: PlayPosition) -> int:
        """A by-lead hand before its first lead: the leader picks trump by what it leads."""
        values = self.move_values(position).values()
        return max(values) if position.maximizing(position.turn) else min(values)
