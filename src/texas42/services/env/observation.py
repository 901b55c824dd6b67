"""The observation vector: one seat's `View` as a fixed-length float32 vector for learning code.

`observe` reads nothing but the view, so a vector can only hold what that seat may know: its own
tiles and everything public. Seats are relative to the observer (``rel = (seat - me) % 4``):
0 is the observer, 1 the next seat in turn order (an opponent), 2 the partner, 3 the other
opponent. Teams are "mine" then "theirs". Every value lies in 0..1: flags and one-hots are 0/1,
counts are divided by their largest value. A tile block of 28 is indexed by tile (0-0 is 0,
6-6 is 27, as in `texas42.core.tiles`); a suit block of 9 by led suit (pips 0..6, 7 trump, 8 doubles
led as their own suit).

=====  ====  ==================  ============================================================
start  size  slice               meaning
=====  ====  ==================  ============================================================
0      28    hand                tiles in the observer's hand now
28     112   played              4 x 28: tiles each seat has been seen to play this hand (the
                                 observer's own always; others' only from face-up tricks)
140    112   trick               4 x 28: the tile each seat has put in the trick in progress
252    4     trick_leader        the seat that led the trick in progress
256    4     trick_winning       the seat whose tile holds the trick in progress so far
260    9     led_suit            the suit the trick in progress was led in (none in Sevens)
269    1     trick_count         count in the trick in progress / 42
270    4     tiles_left          tiles each seat still holds / 7
274    36    voids               4 x 9: led suits each seat has failed to follow this hand
310    4     phase               auction, declare, play, done
314    4     to_act              the seat to act (none once the hand is over)
318    4     shaker              the shaker of this hand
322    4     first_bidder        the seat that called first
326    24    calls               4 x 6 per seat: has called, passed, point bid / 42, mark bid /
                                 7, plunge, splash
350    4     bidder              the seat holding the high bid
354    4     declarer            the seat that names (named) the contract
358    4     out_seat            the declarer's partner sitting out a Nel-O
362    2     bid                 the high bid: points / 42 (point bids), marks / 7 (mark bids,
                                 plunge, splash)
364    6     contract            kind: suit, doubles, follow-me, nello, sevens, by-lead
370    7     trump               the trump pip: a suit contract, or by-lead once the first tile
                                 has named it
377    4     doubles             the doubles treatment in force: high, low, own, own-inverted
381    1     piles_face_down     won tricks lie face down (then hand_points is 0)
382    2     hand_points         points taken this hand, mine and theirs / 42
384    2     tricks_won          tricks taken this hand, mine and theirs / 7
386    2     score               game score before this hand, mine and theirs / target (capped)
388    1     hand_number         the hand's number in the game / 20 (capped)
389    8     rules               points game, follow-me, doubles trump, by-lead allowed,
                                 Nel-O, plunge, splash, Sevens
=====  ====  ==================  ============================================================

``OBSERVATION_SIZE`` is 397. ``LAYOUT`` holds the same table as data; ``docs/env.md`` repeats it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from texas42.core.actions import PASS_ID, PLUNGE_ID, SPLASH_ID, Bid
from texas42.core.contracts import SUIT_COUNT, PlayTables, tables_for
from texas42.core.rules import FOUR_SEATS
from texas42.core.tiles import HI, TILE_COUNT, count_points, iter_tiles, mask_of
from texas42.core.view import Claim, HiddenTrick, View

SEATS = FOUR_SEATS.seats
SEAT_NAMES = FOUR_SEATS.seat_names
"""The environments seat four players in two partnerships."""
MAX_HAND_NUMBER = 20
"""Hand numbers are read up to this and capped: later hands look alike."""

_KINDS = ("suit", "doubles", "follow-me", "nello", "sevens", "by-lead")
_TREATMENTS = ("high", "low", "own", "own-inverted")
_CALL_FEATURES = 6


@dataclass(frozen=True, slots=True)
class Slice:
    """One named part of the observation vector."""

    name: str
    start: int
    size: int

    @property
    def stop(self) -> int:
        return self.start + self.size


def _layout(*parts: tuple[str, int]) -> tuple[Slice, ...]:
    out, start = [], 0
    for name, size in parts:
        out.append(Slice(name, start, size))
        start += size
    return tuple(out)


LAYOUT: tuple[Slice, ...] = _layout(
    ("hand", TILE_COUNT),
    ("played", SEATS * TILE_COUNT),
    ("trick", SEATS * TILE_COUNT),
    ("trick_leader", SEATS),
    ("trick_winning", SEATS),
    ("led_suit", SUIT_COUNT),
    ("trick_count", 1),
    ("tiles_left", SEATS),
    ("voids", SEATS * SUIT_COUNT),
    ("phase", 4),
    ("to_act", SEATS),
    ("shaker", SEATS),
    ("first_bidder", SEATS),
    ("calls", SEATS * _CALL_FEATURES),
    ("bidder", SEATS),
    ("declarer", SEATS),
    ("out_seat", SEATS),
    ("bid", 2),
    ("contract", len(_KINDS)),
    ("trump", 7),
    ("doubles", len(_TREATMENTS)),
    ("piles_face_down", 1),
    ("hand_points", 2),
    ("tricks_won", 2),
    ("score", 2),
    ("hand_number", 1),
    ("rules", 8),
)
SLICES: dict[str, Slice] = {s.name: s for s in LAYOUT}
OBSERVATION_SIZE = LAYOUT[-1].stop

Vector = npt.NDArray[np.float32]


def observe(view: View) -> Vector:
    """The observation vector of a seat's view (layout in the module docstring)."""
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    me = view.seat

    def rel(seat: int) -> int:
        return (seat - me) % SEATS

    def put(name: str, index: int, value: float = 1.0) -> None:
        obs[SLICES[name].start + index] = value

    def put_seat(name: str, seat: int | None) -> None:
        if seat is not None:
            put(name, rel(seat))

    def put_pair(name: str, pair: tuple[int, int], scale: float) -> None:
        mine = me & 1
        put(name, 0, min(pair[mine] / scale, 1.0))
        put(name, 1, min(pair[1 - mine] / scale, 1.0))

    for t in iter_tiles(view.hand):
        put("hand", t)
    for seat, t in _played(view):
        put("played", rel(seat) * TILE_COUNT + t)
    for seat, t in view.trick:
        put("trick", rel(seat) * TILE_COUNT + t)
    tables = _tables(view)
    if view.trick:
        put_seat("trick_leader", view.trick[0][0])
        tiles = tuple(t for _, t in view.trick)
        put("trick_count", 0, count_points(mask_of(tiles)) / 42)
        if tables is not None:
            put_seat("trick_winning", view.trick[tables.trick_winner(tiles)][0])
            if not tables.sevens:
                put("led_suit", tables.led[tiles[0]])
    for seat in range(SEATS):
        put("tiles_left", rel(seat), view.tiles_left[seat] / 7)
        for suit in range(SUIT_COUNT):
            if view.voids[seat] >> suit & 1:
                put("voids", rel(seat) * SUIT_COUNT + suit)
    put("phase", view.phase)
    put_seat("to_act", view.turn)
    put_seat("shaker", view.shaker)
    put_seat("first_bidder", view.first_bidder)
    for i, call in enumerate(view.calls):
        base = rel((view.first_bidder + i) % SEATS) * _CALL_FEATURES
        put("calls", base)
        if call.id == PASS_ID:
            put("calls", base + 1)
        elif call.id == PLUNGE_ID:
            put("calls", base + 4)
        elif call.id == SPLASH_ID:
            put("calls", base + 5)
        elif isinstance(call, Bid):
            if call.marks:
                put("calls", base + 3, call.marks / 7)
            else:
                put("calls", base + 2, call.points / 42)
    put_seat("bidder", view.bidder)
    put_seat("declarer", view.declarer)
    put_seat("out_seat", view.out_seat)
    if isinstance(view.bid, Bid):
        if view.bid_marks:
            put("bid", 1, view.bid_marks / 7)
        else:
            put("bid", 0, view.bid.points / 42)
    contract = view.contract
    if contract is not None:
        put("contract", _KINDS.index(contract.kind))
        if contract.kind == "suit" and contract.trump is not None:
            put("trump", contract.trump)
        elif contract.kind == "by-lead" and isinstance(first := _first_lead(view), int):
            put("trump", HI[first])
        if contract.kind != "sevens":
            put("doubles", _TREATMENTS.index(contract.treatment_under(view.rules)))
    put("piles_face_down", 0, float(view.piles_face_down))
    if view.points is not None:
        put_pair("hand_points", (view.points[0], view.points[1]), 42)
    put_pair("tricks_won", (view.tricks_won[0], view.tricks_won[1]), 7)
    put_pair("score", (view.score[0], view.score[1]), view.rules.winning_target)
    put("hand_number", 0, min(view.hand_number, MAX_HAND_NUMBER) / MAX_HAND_NUMBER)
    rules = view.rules
    flags = (
        rules.game == "points",
        rules.follow_me,
        rules.doubles_trump,
        rules.undeclared_trump == "first-lead",
        rules.nello,
        rules.plunge,
        rules.splash,
        rules.sevens,
    )
    for i, on in enumerate(flags):
        put("rules", i, float(on))
    return obs


def _played(view: View) -> list[tuple[int, int]]:
    """(seat, tile) for every tile the seat saw played: face-up tricks, its own tiles in face-down
    ones, and the trick in progress."""
    out: list[tuple[int, int]] = []
    for trick in view.tricks:
        if trick.tiles is not None:
            out.extend(zip(trick.seats, trick.tiles))
        elif trick.mine is not None:
            out.append((view.seat, trick.mine))
    out.extend(view.trick)
    return out


def _first_lead(view: View) -> int | HiddenTrick | None:
    """The first tile led (or the first trick, face down); a claim before it is no lead."""
    for event in view.events:
        if not isinstance(event, Claim):
            return event
    return None


def _tables(view: View) -> PlayTables | None:
    """The play tables in force, once they are known (a by-lead contract waits for its lead)."""
    contract = view.contract
    if contract is None:
        return None
    if contract.kind != "by-lead":
        return tables_for(contract, view.rules)
    first = _first_lead(view)
    return tables_for(contract, view.rules, first) if isinstance(first, int) else None
