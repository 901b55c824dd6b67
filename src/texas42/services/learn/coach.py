"""Coaching after a game: one seat's three costliest mistakes in words, and the game's figures.

Everything here is read from the game's review (`texas42.players.review.review_record`, what
``texas42 analyze`` prints), never from a second one: a play's cost is the review's, and a bid
counts as a mistake when the seat won it, the review's bid share says it made in none of the
deals its bidder could have held, and the bidders fall short of it on the deal itself with best
play throughout (the review's value before the first play). Mistakes are ranked by cost, in the
hand's unit (points, or tricks at Nel-O), then by hand and play. Only the coached seats' own
plays and bids count: a partner's or an opponent's mistakes are theirs.

The game is over when it is coached, so a mistake's position shows every seat's tiles. The
answer is plain data (`Coaching.to_dict`) for the web table, the player's page and the terminal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from texas42.core import words
from texas42.core.actions import PLAY_BASE
from texas42.core.hand import Hand
from texas42.core.layout import layout_of
from texas42.core.record import CheckReport, Record, check_record
from texas42.core.tiles import tile_name, tiles_of
from texas42.players.review import (
    DEFAULT_BID_SAMPLES,
    HandReview,
    RecordReview,
    review_record,
    start_of_play,
)
from texas42.search.solver import PlayPosition

COACH_VERSION = 1
"""The version of what a coaching says; a summary stored under an older one is made again."""
MISTAKES_SHOWN = 3
"""How many of a seat's costliest mistakes a coaching tells."""


@dataclass(frozen=True, slots=True)
class Mistake:
    """One costly play (or an unmakeable winning bid) of the coached seat, with its position.

    ``values`` is the bidders' total with best play after the better choice and after the one
    made (for a bid: what the bid needed, and what best play throughout gave); ``made`` says
    whether the contract is made after each. ``hands`` is every seat's tiles at that moment."""

    kind: Literal["play", "bid"]
    hand: int
    index: int
    """The play's number in the hand (from 1), or the bid's among the auction's calls."""
    trick: int
    """The trick played to (from 1); 0 for a bid."""
    seat: int
    tile: str | None
    best: tuple[str, ...]
    bid: str
    contract: str
    bidder: int
    cost: int
    unit: str
    values: tuple[int, int]
    made: tuple[bool, bool]
    make_share: float | None
    samples: int | None
    hands: tuple[tuple[str, ...], ...]
    trick_so_far: tuple[tuple[int, str], ...]
    position: str
    advice: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "hand": self.hand,
            "index": self.index,
            "trick": self.trick,
            "seat": self.seat,
            "tile": self.tile,
            "best": list(self.best),
            "bid": self.bid,
            "contract": self.contract,
            "bidder": self.bidder,
            "cost": self.cost,
            "unit": self.unit,
            "value_best": self.values[0],
            "value_played": self.values[1],
            "made_best": self.made[0],
            "made_played": self.made[1],
            "make_share": self.make_share,
            "samples": self.samples,
            "hands": [list(h) for h in self.hands],
            "trick_so_far": [[seat, tile] for seat, tile in self.trick_so_far],
            "position": self.position,
            "advice": self.advice,
        }


@dataclass(frozen=True, slots=True)
class Summary:
    """A seat's game in figures: its plays, the costly ones (``mistakes``), the points they gave
    up (in points contracts; Nel-O's tricks are not points), the hands played to a contract,
    and the bids the seat won and made."""

    plays: int
    mistakes: int
    given_up: int
    hands: int
    bids: int
    made: int

    @property
    def mistake_rate(self) -> float:
        """Mistakes per 100 plays."""
        return 100 * self.mistakes / self.plays if self.plays else 0.0

    @property
    def given_up_per_hand(self) -> float:
        return self.given_up / self.hands if self.hands else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "plays": self.plays,
            "mistakes": self.mistakes,
            "given_up": self.given_up,
            "hands": self.hands,
            "bids": self.bids,
            "made": self.made,
        }


@dataclass(frozen=True, slots=True)
class Coaching:
    """The coaching of one finished game for one seat."""

    seat: int
    name: str
    summary: Summary
    mistakes: tuple[Mistake, ...]
    summary_line: str
    no_mistakes_line: str | None
    version: int = COACH_VERSION

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "summary": self.summary.to_dict(),
            "summary_line": self.summary_line,
            "mistakes": [m.to_dict() for m in self.mistakes],
            "no_mistakes_line": self.no_mistakes_line,
            "version": self.version,
        }


def _names(hand: Hand) -> list[str]:
    return list(hand.layout.seat_names)


def _holdings(hand: Hand) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(tile_name(t) for t in sorted(tiles_of(m), reverse=True)) for m in hand.hands)


def _made(position: PlayPosition, value: int) -> bool:
    return value <= position.goal if position.nello else value >= position.goal


def _play_mistakes(
    played: Hand, reviewed: HandReview, seats: set[int], who: str
) -> list[tuple[Mistake, int]]:
    """The costly plays of ``seats`` in a hand, each with its position (the cost, to rank)."""
    start = start_of_play(played)
    position = PlayPosition.from_hand(start)
    names = _names(played)
    bidders = words.side_labels(played.layout, names)[played.layout.side_of[position.bidder]]
    contract = words.contract_line(played.view(0), names, played.contract)
    view = played.view(0)  # who played to each trick is public: any view numbers them
    unit = reviewed.unit.removesuffix("s")
    found = []
    replay = start
    for p in reviewed.plays:
        if p.seat in seats and p.cost > 0:
            trick = words.trick_of_play(view, p.index)
            so_far = tuple(
                (seat, tile_name(t)) for seat, t in zip(replay.trick_seats, replay.trick)
            )
            hands = _holdings(replay)
            best = tuple(tile_name(t) for t in p.best)
            values = (p.value_before, p.value_after)
            made = (_made(position, p.value_before), _made(position, p.value_after))
            defending = played.layout.side_of[p.seat] != played.layout.side_of[position.bidder]
            mistake = Mistake(
                kind="play",
                hand=reviewed.number,
                index=p.index,
                trick=trick,
                seat=p.seat,
                tile=tile_name(p.tile),
                best=best,
                bid=reviewed.bid or "",
                contract=reviewed.contract or "",
                bidder=position.bidder,
                cost=p.cost,
                unit=reviewed.unit,
                values=values,
                made=made,
                make_share=None,
                samples=None,
                hands=hands,
                trick_so_far=so_far,
                position=words.coach_position_words(
                    reviewed.number,
                    trick,
                    contract,
                    hands[p.seat],
                    [(names[s], t) for s, t in so_far],
                    who,
                ),
                advice=words.coach_play_words(
                    tile_name(p.tile),
                    best,
                    p.cost,
                    bidders,
                    values,
                    made,
                    defending=defending,
                    unit=unit,
                    who=who,
                ),
            )
            found.append((mistake, p.cost))
        replay.apply(PLAY_BASE + p.tile)
    return found


def _bid_mistake(played: Hand, reviewed: HandReview, seats: set[int], who: str) -> Mistake | None:
    """The seat's winning bid, if it made in none of the deals drawn and falls short on the
    deal itself with best play throughout."""
    if reviewed.bidder not in seats or not reviewed.plays or played.contract is None:
        return None
    won = [b for b in reviewed.bids if b.seat == reviewed.bidder and b.bid == reviewed.bid]
    if not won or won[-1].make_share > 0:
        return None
    bid = won[-1]
    start = start_of_play(played)
    position = PlayPosition.from_hand(start)
    total = reviewed.plays[0].value_before
    short = total - position.goal if position.nello else position.goal - total
    if short <= 0:
        return None  # the deals drawn missed this one: it could be made
    names = _names(played)
    bidders = words.side_labels(played.layout, names)[played.layout.side_of[bid.seat]]
    hands = _holdings(start)
    contract = words.contract_line(played.view(0), names, played.contract)
    return Mistake(
        kind="bid",
        hand=reviewed.number,
        index=bid.index,
        trick=0,
        seat=bid.seat,
        tile=None,
        best=(),
        bid=bid.bid,
        contract=bid.contract,
        bidder=bid.seat,
        cost=short,
        unit=reviewed.unit,
        values=(position.goal, total),
        made=(True, False),
        make_share=bid.make_share,
        samples=bid.samples,
        hands=hands,
        trick_so_far=(),
        position=words.coach_position_words(reviewed.number, 0, contract, hands[bid.seat], [], who),
        advice=words.coach_bid_words(
            bid.bid,
            bid.contract,
            bid.samples,
            bidders,
            total,
            short,
            reviewed.unit.removesuffix("s"),
            who,
        ),
    )


def coach_review(
    report: CheckReport, review: RecordReview, seats: Iterable[int], who: str = "You"
) -> Coaching:
    """The coaching of ``seats`` (one player's: one seat, or two in two-hand) from a game's
    review (`review_record` of ``report.record``)."""
    mine = set(seats)
    ranked: list[tuple[int, int, int, Mistake]] = []
    plays = mistakes = given_up = hands = bids = made = 0
    for played, reviewed, result in zip(report.hands, review.hands, report.results):
        if reviewed.plays:
            hands += 1
        own = [p for p in reviewed.plays if p.seat in mine]
        plays += len(own)
        mistakes += sum(1 for p in own if p.cost > 0)
        if reviewed.unit == "points":
            given_up += sum(p.cost for p in own)
        if result.bidder in mine and result.made is not None:
            bids += 1
            made += bool(result.made)
        if reviewed.contract is None:
            continue
        bad_bid = _bid_mistake(played, reviewed, mine, who)
        if bad_bid is not None:
            ranked.append((-bad_bid.cost, reviewed.number, 0, bad_bid))
        for mistake, cost in _play_mistakes(played, reviewed, mine, who):
            ranked.append((-cost, reviewed.number, mistake.index, mistake))
    ranked.sort(key=lambda entry: entry[:3])
    summary = Summary(plays, mistakes, given_up, hands, bids, made)
    top = tuple(entry[3] for entry in ranked[:MISTAKES_SHOWN])
    first = min(mine) if mine else 0
    players = report.record.players or ()
    name = (
        players[first] if first < len(players) else layout_of(report.record.rules).seat_names[first]
    )
    return Coaching(
        seat=first,
        name=name,
        summary=summary,
        mistakes=top,
        summary_line=words.coach_summary_words(plays, mistakes, given_up, bids, made, who),
        no_mistakes_line=None if top else words.no_costly_plays(plays, who),
    )


def coach_record(
    record: Record,
    seats: Sequence[Iterable[int]] | None = None,
    *,
    bid_samples: int = DEFAULT_BID_SAMPLES,
    seed: int = 0,
    who: str = "You",
) -> list[Coaching]:
    """Review a finished game once (`review_record`, as ``texas42 analyze --samples
    bid_samples --seed seed``) and coach each of ``seats`` (each a player's seats; every seat
    alone if None). A record that breaks the rules raises `RecordError`."""
    report = check_record(record)
    review = review_record(record, bid_samples=bid_samples, seed=seed)
    groups = [(s,) for s in range(layout_of(record.rules).seats)] if seats is None else list(seats)
    return [coach_review(report, review, group, who) for group in groups]


__all__ = [
    "COACH_VERSION",
    "MISTAKES_SHOWN",
    "Coaching",
    "Mistake",
    "Summary",
    "coach_record",
    "coach_review",
]
