"""What one seat may know: its own tiles and everything public, never a tile it could not see.

A `View` is built from public events only (the calls, the contract, the tiles played face up, the
winners of tricks whose piles lie face down) plus the seat's own dealt tiles, by `build_view`.
`Hand.view` and the seat-view position string (`texas42.core.notation`) both go through it, so a
view can only contain what those inputs carry: changing tiles hidden from the seat cannot change
it. A ``by-lead`` contract
whose first trick lies face down shows as the suit its first lead named, as every seat saw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from texas42.core.actions import (
    ACTIONS,
    DISCARD_BASE,
    MOON_ID,
    PASS_ID,
    PLUNGE_ID,
    SPLASH_ID,
    Action,
    Declare,
)
from texas42.core.auction import call_value, legal_calls, legal_declarations
from texas42.core.contracts import Contract, PlayTables, legal_plays, tables_for
from texas42.core.errors import NotationError
from texas42.core.layout import Layout, layout_of
from texas42.core.progress import Phase
from texas42.core.rules import Rules, piles_face_down
from texas42.core.tiles import DOUBLES, TILE_NAMES, mask_of


@dataclass(frozen=True, slots=True)
class HiddenTrick:
    """A won trick lying face down: who won it, and the tile this seat put in it (if it played)."""

    winner: int
    mine: int | None


@dataclass(frozen=True, slots=True)
class TrickView:
    """A completed trick as the seat sees it; ``tiles`` and ``points`` are None when face down."""

    leader: int
    seats: tuple[int, ...]
    winner: int
    tiles: tuple[int, ...] | None
    points: int | None
    mine: int | None


Event = int | HiddenTrick
"""A tile played face up, or a whole trick lying face down."""


@dataclass(frozen=True, slots=True)
class View:
    """One seat's knowledge of the hand in progress and of the game score."""

    rules: Rules
    seat: int
    hand_number: int
    score: tuple[int, ...]
    shaker: int
    first_bidder: int
    dealt: int
    calls: tuple[Action, ...]
    widow: int
    """The widow's tiles, for the seat that took it; 0 for every other seat."""
    discards: tuple[int | None, ...]
    """The bid winner's discards after taking the widow; None where this seat cannot see it."""
    contract: Contract | None
    events: tuple[Event, ...]
    turn: int | None
    # derived from the fields above by build_view
    phase: int
    hand: int
    bidder: int | None
    bid: Action | None
    bid_marks: int
    declarer: int | None
    out_seat: int | None
    trump: str | None
    tricks: tuple[TrickView, ...]
    trick: tuple[tuple[int, int], ...]
    tiles_left: tuple[int, ...]
    points: tuple[int, ...] | None
    tricks_won: tuple[int, ...]
    voids: tuple[int, ...]
    legal: tuple[Action, ...]

    @property
    def piles_face_down(self) -> bool:
        return self.contract is not None and piles_face_down(self.rules, self.bid_marks)

    @property
    def layout(self) -> Layout:
        return layout_of(self.rules)

    @property
    def discarded(self) -> int:
        """The mask of the discards this seat saw (its own)."""
        return mask_of([t for t in self.discards if t is not None])


def build_view(
    rules: Rules,
    seat: int,
    hand_number: int,
    score: tuple[int, ...],
    shaker: int,
    first_bidder: int,
    dealt: int,
    calls: Sequence[int],
    contract: Contract | None,
    events: Sequence[Event],
    turn: int | None,
    widow: int = 0,
    discards: Sequence[int | None] = (),
) -> View:
    """Derive everything a seat sees from public events; raises NotationError if they don't fit.

    ``widow`` is the widow as this seat saw it (only the seat that took it sees it) and
    ``discards`` the tiles laid down after taking it, None for each one this seat did not see.
    """
    layout = layout_of(rules)
    seats = layout.seats
    if len(score) != layout.sides:
        raise NotationError(
            f"a score has {layout.sides} entries under these rules, not {len(score)}"
        )
    if len(calls) > seats:
        raise NotationError(f"an auction has at most {seats} calls")
    high_id, high_seat, high_value, bid_marks = -1, -1, 0, 0
    for i, aid in enumerate(calls):
        if high_id == MOON_ID:
            raise NotationError(
                f"call {i + 1} follows a bid to shoot the moon, which ends the auction"
            )
        caller = (first_bidder + i) % seats
        # another seat's plunge or splash is judged as if it held every double it might hold
        holding = dealt if caller == seat else DOUBLES
        bidder = None if high_seat < 0 else high_seat
        if not legal_calls(rules, i, bidder, high_value, holding) >> aid & 1:
            raise NotationError(f"call {i + 1} ({ACTIONS[aid]}) is not legal there")
        if aid == PASS_ID:
            continue
        high_id, high_seat = aid, caller
        bid_marks, high_value = call_value(rules, aid, high_value)
    auction_over = len(calls) == seats or high_id == MOON_ID
    declarer = -1
    if auction_over and high_seat >= 0:
        partner = layout.partner(high_seat)
        special = high_id in (PLUNGE_ID, SPLASH_ID) and partner is not None
        declarer = partner if special and partner is not None else high_seat
    took_widow = declarer >= 0 and layout.widow > 0
    if widow and not (took_widow and seat == declarer):
        raise NotationError("only the bid winner sees the widow, once the auction is over")
    if took_widow and seat == declarer and widow.bit_count() != layout.widow:
        raise NotationError(f"the bid winner sees the {layout.widow}-tile widow it took")
    if widow & dealt:
        raise NotationError("a widow tile cannot also be dealt to the seat")
    if (dealt | widow) & ~layout.tiles:
        raise NotationError("the seat holds a tile these rules take out of the set")
    if len(discards) > (layout.widow if took_widow else 0):
        raise NotationError(
            f"the bid winner discards {layout.widow if took_widow else 0} tiles here"
        )
    own_discards = [t for t in discards if t is not None]
    if seat == declarer and len(own_discards) != len(discards):
        raise NotationError("the bid winner sees its own discards")
    if seat != declarer and own_discards:
        raise NotationError("only the bid winner sees its discards")
    if len(set(own_discards)) != len(own_discards) or mask_of(own_discards) & ~(dealt | widow):
        raise NotationError("the bid winner discards tiles from its hand and the widow, once each")
    discarding = took_widow and len(discards) < layout.widow
    if contract is not None and declarer < 0:
        raise NotationError("a contract needs a finished auction with a bid")
    if contract is not None and discarding:
        raise NotationError("trump is named after the discards")
    named = Declare(contract).id if contract is not None else -1
    if named >= 0 and not legal_declarations(rules, high_id, bid_marks) >> named & 1:
        raise NotationError(
            f"{contract} cannot be named after {ACTIONS[high_id]} under these rules"
        )
    if events and contract is None:
        raise NotationError("tiles are played only after the contract is named")
    tables: PlayTables | None = None
    out_seat = -1
    trick_size = seats
    if contract is not None:
        if contract.kind != "by-lead":
            tables = tables_for(contract, rules)
        if contract.kind == "nello":
            out_seat = layout.partner(declarer) or 0
            trick_size = seats - 1
    hidden = piles_face_down(rules, bid_marks)
    side_of = layout.side_of

    def next_seat(s: int) -> int:
        s = (s + 1) % seats
        return (s + 1) % seats if s == out_seat else s

    leader = declarer
    trick: list[tuple[int, int]] = []
    tricks: list[TrickView] = []
    points = [0] * layout.sides
    won = [0] * layout.sides
    played = [0] * seats
    mine = mask_of(own_discards)
    held = dealt | widow
    seen = mine
    voids = [0] * seats
    for event in events:
        shown = event.mine if isinstance(event, HiddenTrick) else event
        if shown is not None:
            if not layout.tiles >> shown & 1:
                raise NotationError(f"{TILE_NAMES[shown]} is not in play under these rules")
            if seen >> shown & 1:
                raise NotationError(f"{TILE_NAMES[shown]} is played twice")
            seen |= 1 << shown
        if trick and isinstance(event, HiddenTrick):
            raise NotationError("a face-down trick cannot start in the middle of a trick")
        if isinstance(event, HiddenTrick):
            if tables is None:
                raise NotationError("a by-lead trump cannot be read from a face-down trick")
            in_trick = [leader]
            while len(in_trick) < trick_size:
                in_trick.append(next_seat(in_trick[-1]))
            for s in in_trick:
                played[s] += 1
            if (event.mine is None) == (seat in in_trick):
                raise NotationError(
                    "a face-down trick must give this seat's own tile, if it played"
                )
            if event.mine is not None:
                mine |= 1 << event.mine
            if not 0 <= event.winner < seats:
                raise NotationError(f"a face-down trick is won by a seat 0..{seats - 1}")
            won[side_of[event.winner]] += 1
            tricks.append(TrickView(leader, tuple(in_trick), event.winner, None, None, event.mine))
            leader = event.winner
            continue
        player = next_seat(trick[-1][0]) if trick else leader
        if tables is None:
            assert contract is not None
            tables = tables_for(contract, rules, first_lead=event)
        if player != seat and held >> event & 1:
            raise NotationError(f"{TILE_NAMES[event]} is this seat's tile, played by seat {player}")
        if player == seat and (held & ~mine) >> event & 1:
            own = legal_plays(rules, tables, held & ~mine, [t for _, t in trick], not tricks)
            if not own >> event & 1:
                raise NotationError(f"{TILE_NAMES[event]} was not a legal play for this seat")
        trick.append((player, event))
        played[player] += 1
        if player == seat:
            mine |= 1 << event
        if len(trick) > 1 and not tables.sevens:
            led = tables.led[trick[0][1]]
            if not tables.follows(event, led):
                voids[player] |= 1 << led
        if len(trick) == trick_size:
            tiles = tuple(t for _, t in trick)
            winner = trick[tables.trick_winner(tiles)][0]
            value = layout.trick_value(mask_of(tiles))
            points[side_of[winner]] += value
            won[side_of[winner]] += 1
            theirs = next((t for s, t in trick if s == seat), None)
            tricks.append(
                TrickView(leader, tuple(s for s, _ in trick), winner, tiles, value, theirs)
            )
            leader = winner
            trick = []
    if mine & ~held:
        raise NotationError("the seat played a tile it was not dealt")
    if not auction_over:
        expected: int | None = (first_bidder + len(calls)) % seats
    elif high_seat < 0:
        expected = None
    elif contract is None:
        expected = declarer
    else:
        expected = next_seat(trick[-1][0]) if trick else leader
    ended = expected is None or (bool(tricks) and not trick)
    if turn != expected and not (turn is None and ended):
        given, actual = ("end" if s is None else f"seat {s}" for s in (turn, expected))
        raise NotationError(f"{actual} is to act here, not {given}")
    if turn is None:
        phase = Phase.DONE
    elif not auction_over:
        phase = Phase.AUCTION
    elif discarding:
        phase = Phase.DISCARD
    elif contract is None:
        phase = Phase.DECLARE
    else:
        phase = Phase.PLAY
    legal_mask = 0
    hand = held & ~mine
    if turn == seat:
        if phase == Phase.AUCTION:
            bidder = None if high_seat < 0 else high_seat
            legal_mask = legal_calls(rules, len(calls), bidder, high_value, hand)
        elif phase == Phase.DISCARD:
            legal_mask = hand << DISCARD_BASE
        elif phase == Phase.DECLARE:
            legal_mask = legal_declarations(rules, high_id, bid_marks)
        else:
            legal_mask = legal_plays(rules, tables, hand, [t for _, t in trick], not tricks)
    legal = tuple(ACTIONS[i] for i in range(len(ACTIONS)) if legal_mask >> i & 1)
    trump = (
        tables.description
        if tables is not None
        else ("trump is named by the first tile led" if contract is not None else None)
    )
    return View(
        rules=rules,
        seat=seat,
        hand_number=hand_number,
        score=score,
        shaker=shaker,
        first_bidder=first_bidder,
        dealt=dealt,
        calls=tuple(ACTIONS[a] for a in calls),
        widow=widow,
        discards=tuple(discards),
        contract=contract,
        events=tuple(events),
        turn=turn,
        phase=int(phase),
        hand=hand,
        bidder=high_seat if high_seat >= 0 else None,
        bid=ACTIONS[high_id] if high_id >= 0 else None,
        bid_marks=bid_marks,
        declarer=declarer if declarer >= 0 else None,
        out_seat=out_seat if out_seat >= 0 else None,
        trump=trump,
        tricks=tuple(tricks),
        trick=tuple(trick),
        tiles_left=tuple(
            layout.hand_size
            - n
            + (layout.widow - len(discards) if s == declarer and took_widow else 0)
            for s, n in enumerate(played)
        ),
        points=None if hidden else tuple(points),
        tricks_won=tuple(won),
        voids=tuple(voids),
        legal=legal,
    )
