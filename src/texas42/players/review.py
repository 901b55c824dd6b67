"""Hand review for players: what each play was worth double dummy, and how sound each bid was.

A play's value is the total the bidding side (the bid winner's team, or the bidder alone) ends
the hand with if every trick is played out from there with best play by all seats (points already
taken included, an early end ignored); for Nel-O it is the number of tricks the bidder ends up
taking. A play's ``cost`` is what it gave up for the player's own side (the bidders, or the
defenders together) against the best play. A bid's ``make_share`` is the share of deals, drawn
uniformly from what the bidder could see when bidding, in which its contract is made double
dummy; bids are not reviewed on a table with a widow, where the bid winner's discard is a choice
the share would have to search as well.

`review_record` serves ``texas42 analyze``; `solve_position` serves ``texas42 solve``; both
return plain data (``to_dict``) for the web table.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from texas42.core.actions import ACTIONS, PASS_ID, Declare, Discard
from texas42.core.auction import plain_contracts
from texas42.core.contracts import Contract
from texas42.core.hand import Hand
from texas42.core.progress import Phase
from texas42.core.record import Record, check_record
from texas42.core.tiles import tile_name
from texas42.search.solver import PlayPosition, Solver

DEFAULT_BID_SAMPLES = 64
"""Deals drawn per bid: enough for a share to within about six points either way."""


@dataclass(frozen=True, slots=True)
class PlayReview:
    """One play: the values before and after it, the tiles that were best, and its cost."""

    index: int
    seat: int
    tile: int
    value_before: int
    value_after: int
    best: tuple[int, ...]
    cost: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seat": self.seat,
            "tile": tile_name(self.tile),
            "value_before": self.value_before,
            "value_after": self.value_after,
            "best": [tile_name(t) for t in self.best],
            "cost": self.cost,
        }


@dataclass(frozen=True, slots=True)
class BidReview:
    """One bid: the share of the bidder's possible deals in which ``contract`` makes it.

    ``shares`` gives the share for each contract the bidder could name; ``contract`` is the one
    named (for the winning bid) or the best of them (for a bid that was overcalled).
    """

    index: int
    seat: int
    bid: str
    contract: str
    make_share: float
    samples: int
    shares: dict[str, float]

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seat": self.seat,
            "bid": self.bid,
            "contract": self.contract,
            "make_share": round(self.make_share, 4),
            "samples": self.samples,
            "shares": {name: round(share, 4) for name, share in self.shares.items()},
        }


@dataclass(frozen=True, slots=True)
class HandReview:
    """A hand's plays and bids reviewed; ``unit`` is ``points``, or ``tricks`` for Nel-O."""

    number: int
    bidder: int | None
    bid: str | None
    contract: str | None
    unit: str
    plays: tuple[PlayReview, ...]
    bids: tuple[BidReview, ...] = field(default=())

    @property
    def mistakes(self) -> list[PlayReview]:
        """Plays that cost their team something, the costliest first (then in play order)."""
        return sorted((p for p in self.plays if p.cost > 0), key=lambda p: (-p.cost, p.index))

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": self.number,
            "bidder": self.bidder,
            "bid": self.bid,
            "contract": self.contract,
            "unit": self.unit,
            "plays": [p.to_dict() for p in self.plays],
            "mistakes": [p.index for p in self.mistakes],
            "bids": [b.to_dict() for b in self.bids],
        }


@dataclass(frozen=True, slots=True)
class RecordReview:
    hands: tuple[HandReview, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"hands": [h.to_dict() for h in self.hands]}


@dataclass(frozen=True, slots=True)
class MoveValue:
    tile: int
    value: int
    best: bool


@dataclass(frozen=True, slots=True)
class PositionSolution:
    """A position solved: the seat to play, the bidders' total under best play, each move's."""

    turn: int
    bidder: int
    contract: str
    unit: str
    taken: int
    value: int
    moves: tuple[MoveValue, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "bidder": self.bidder,
            "contract": self.contract,
            "unit": self.unit,
            "taken": self.taken,
            "value": self.value,
            "moves": [
                {"tile": tile_name(m.tile), "value": m.value, "best": m.best} for m in self.moves
            ],
        }


def _unit(position: PlayPosition) -> str:
    return "tricks" if position.nello else "points"


def _order(tiles: Sequence[int]) -> tuple[int, ...]:
    """Highest tile first, as players read a hand."""
    return tuple(sorted(tiles, reverse=True))


def solve_position(hand: Hand, solver: Solver | None = None) -> PositionSolution:
    """The exact total for the bidders and every legal tile's, for a hand in play."""
    position = PlayPosition.from_hand(hand)
    if position.is_over or hand.phase != Phase.PLAY:
        raise ValueError("the hand is over: there is no play left to solve")
    solver = solver or Solver()
    values = solver.move_values(position)
    pick = max if position.maximizing(position.turn) else min
    value = pick(values.values())
    moves = tuple(
        MoveValue(t, position.taken + values[t], values[t] == value)
        for t in sorted(values, key=lambda t: (-values[t] if pick is max else values[t], -t))
    )
    return PositionSolution(
        turn=position.turn,
        bidder=position.bidder,
        contract=str(position.contract),
        unit=_unit(position),
        taken=position.taken,
        value=position.taken + value,
        moves=moves,
    )


def review_plays(start: PlayPosition, plays: Sequence[int], solver: Solver) -> list[PlayReview]:
    """Each play from ``start`` on, valued double dummy against the best play there."""
    reviews = []
    position = start
    for index, tile in enumerate(plays, 1):
        seat = position.turn
        values = solver.move_values(position)
        maximizing = position.maximizing(seat)
        best_value = max(values.values()) if maximizing else min(values.values())
        before = position.taken + best_value
        after = position.taken + values[tile]
        reviews.append(
            PlayReview(
                index=index,
                seat=seat,
                tile=tile,
                value_before=before,
                value_after=after,
                best=_order([t for t, v in values.items() if v == best_value]),
                cost=before - after if maximizing else after - before,
            )
        )
        position = position.play(tile)
    return reviews


def start_of_play(hand: Hand) -> Hand:
    """The hand again from its deal, just after the contract was named."""
    start = Hand(hand.rules, hand.shaker, hand.deal, hand.widow)
    for call in hand.calls:
        start.apply(call)
    for tile in hand.discards:
        start.apply(Discard(tile))
    assert hand.contract is not None
    start.apply(Declare(hand.contract))
    return start


def _bid_draws(
    hand: Hand, samples: int, rng: random.Random
) -> Iterator[tuple[int, Hand, int, list[Any]]]:
    """Each bid of the hand's auction, in order: its number among the calls, the hand just
    before it, the bid, and the deals drawn with ``rng`` that the bidder could have faced."""
    from texas42.search.sampler import DealSampler

    replay = Hand(hand.rules, hand.shaker, hand.deal)
    for index, call in enumerate(hand.calls, 1):
        if call != PASS_ID:
            yield (
                index,
                replay.copy(),
                call,
                DealSampler(replay.view(replay.turn)).samples(samples, rng),
            )
        replay.apply(call)


def bid_worlds(before: Hand, samples: int, rng: random.Random) -> list[Any]:
    """The deals `review_bids` draws for a bid made at ``before`` (a hand in its auction),
    ``rng`` as `review_record` starts it: the earlier bids' draws first, so a record of this
    auction and a bid reviews that bid over these very deals."""
    from texas42.search.sampler import DealSampler

    for _ in _bid_draws(before, samples, rng):
        pass
    return DealSampler(before.view(before.turn)).samples(samples, rng)


def review_bids(hand: Hand, solver: Solver, samples: int, rng: random.Random) -> list[BidReview]:
    """For every bid of the auction, its make share over deals the bidder could have faced."""
    reviews = []
    for index, before, call, worlds in _bid_draws(hand, samples, rng):
        won = hand.high_seat == before.turn and hand.high_id == call
        named = hand.contract if won else None
        reviews.append(review_bid(before, call, worlds, solver, index=index, named=named))
    return reviews


def review_bid(
    before: Hand,
    call: int,
    worlds: Sequence[Any],
    solver: Solver,
    *,
    index: int = 1,
    named: Contract | None = None,
) -> BidReview:
    """A bid's figures at ``before`` (the hand just before it): each contract's share of
    ``worlds`` (`bid_worlds`) in which it is made double dummy, every later seat passing; the
    contracts are the one ``named`` when the bid won the auction, or every plain contract. The
    contract shown is the named one, or the one with the best share."""
    seat = before.turn
    probe = before.copy()
    probe.apply(call)
    while probe.phase == Phase.AUCTION:
        probe.apply(PASS_ID)
    candidates = (
        [named]
        if named is not None and named.kind != "by-lead"
        else plain_contracts(probe.rules, call, probe.bid_marks)
    )
    made = {str(c): 0 for c in candidates}
    for world in worlds:
        for contract in candidates:
            trial = Hand(before.rules, before.shaker, world.hands)
            for c in probe.calls:
                trial.apply(c)
            trial.apply(Declare(contract))
            if solver.makes(PlayPosition.from_hand(trial)):
                made[str(contract)] += 1
    shares = {name: count / len(worlds) for name, count in made.items()}
    chosen = max(shares, key=lambda name: shares[name])
    if named is not None and str(named) in shares:
        chosen = str(named)
    return BidReview(
        index=index,
        seat=seat,
        bid=ACTIONS[call].notation,
        contract=chosen,
        make_share=shares[chosen],
        samples=len(worlds),
        shares=shares,
    )


def review_hand(
    hand: Hand,
    number: int = 1,
    *,
    solver: Solver | None = None,
    bid_samples: int = DEFAULT_BID_SAMPLES,
    rng: random.Random | None = None,
) -> HandReview:
    """Review one hand as played (any phase): its plays double dummy and, if ``bid_samples``,
    its bids by sampling."""
    solver = solver or Solver()
    rng = rng or random.Random(0)
    bids: list[BidReview] = []
    auction_over = hand.high_seat is not None and hand.phase != Phase.AUCTION
    if bid_samples > 0 and auction_over and not hand.layout.widow:
        bids = review_bids(hand, solver, bid_samples, rng)
    if hand.contract is None:
        bid = None if hand.high_id is None else ACTIONS[hand.high_id].notation
        return HandReview(number, hand.high_seat, bid, None, "points", (), tuple(bids))
    assert hand.high_id is not None  # a named contract follows a winning bid
    start = PlayPosition.from_hand(start_of_play(hand))
    plays = review_plays(start, hand.plays, solver)
    return HandReview(
        number=number,
        bidder=hand.high_seat,
        bid=ACTIONS[hand.high_id].notation,
        contract=str(hand.contract),
        unit=_unit(start),
        plays=tuple(plays),
        bids=tuple(bids),
    )


def review_record(
    record: Record, *, bid_samples: int = DEFAULT_BID_SAMPLES, seed: int = 0
) -> RecordReview:
    """Review every hand of a record; a record that breaks the rules raises `RecordError`."""
    report = check_record(record)
    solver = Solver()
    rng = random.Random(seed)
    return RecordReview(
        tuple(
            review_hand(hand, k + 1, solver=solver, bid_samples=bid_samples, rng=rng)
            for k, hand in enumerate(report.hands)
        )
    )


__all__ = [
    "BidReview",
    "HandReview",
    "MoveValue",
    "PlayReview",
    "PositionSolution",
    "RecordReview",
    "bid_worlds",
    "review_bid",
    "review_bids",
    "review_hand",
    "review_plays",
    "review_record",
    "solve_position",
    "start_of_play",
]
