"""The hand laboratory: any deal set up by the learner, and what the engine makes of it.

A lab position is a full position string (`texas42.core.notation`): the rules, the shaker, all
the hands and, optionally, the auction, the contract and the plays so far. The lab answers two
questions about it, both from the engine's own computation:

- **the bid**: for a chosen seat, each contract's chance of making the bid from that seat's
  point of view (the expert bot's estimate, `PimcBot.contract_chances`, over the deals that fit
  the seat's own tiles before any call) beside the double-dummy result of the same contract,
  the seat bidding and leading, on THIS deal (the solver);
- **the play**: at the current position, every legal tile's double-dummy value and the best
  ones (`texas42.players.review.solve_position`).

The edits the page offers are here too, each a new position string: swap two tiles between
hands (the auction and plays are replayed as far as they stay legal), give the contract to a
seat at a bid, play a tile, take the last play back. The lab takes only what the learner gives
it; it never reads a table. A table with a widow is refused (its discard is a choice the
figures would have to search as well, as the hand review says).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from texas42.core.actions import ACTIONS, Action, Bid, Declare, Pass, Play
from texas42.core.contracts import Contract
from texas42.core.errors import NotationError, Texas42Error
from texas42.core.hand import Hand
from texas42.core.layout import layout_of
from texas42.core.notation import hand_position, parse_deal, parse_hand_position
from texas42.core.progress import Phase
from texas42.core.record import Record, check_record
from texas42.core.rules import Rules
from texas42.core.tiles import iter_tiles, parse_tile, tile_name
from texas42.players.pimc import PimcBot, PimcSettings
from texas42.players.review import PositionSolution, solve_position
from texas42.search.solver import PlayPosition, Solver

MAX_POSITION_CHARS = 1000
"""The longest position string the lab reads (a four-seat hand played out is about 250)."""
DEFAULT_SAMPLES = PimcSettings.expert().bid_samples
"""Deals the expert draws for a bid: the lab's chances are the expert's own."""


class LabError(NotationError):
    """A lab request the lab cannot take: the message names what and where."""


@dataclass(frozen=True, slots=True)
class ContractFigures:
    """One contract for the chosen seat: the expert's chance of making the bid with it and its
    expected total over the deals the seat could face, and on this deal the double-dummy total
    (Nel-O: tricks the bidder takes) and whether the bid is made. ``chance`` and ``expected``
    are None for a contract the expert does not consider for the hand; the double-dummy figures
    are None for a contract the bid does not allow (Nel-O on a point bid)."""

    contract: str
    chance: float | None
    expected: float | None
    total: int | None
    makes: bool | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "contract": self.contract,
            "chance": None if self.chance is None else round(self.chance, 4),
            "expected": None if self.expected is None else round(self.expected, 2),
            "total": self.total,
            "makes": self.makes,
        }


@dataclass(frozen=True, slots=True)
class BidFigures:
    """The chosen seat's bid: its chance of being made with the best contract (the expert's
    `call_value`), and each contract's figures."""

    seat: int
    bid: str
    need: int
    samples: int
    chance: float
    contracts: tuple[ContractFigures, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "bid": self.bid,
            "need": self.need,
            "samples": self.samples,
            "chance": round(self.chance, 4),
            "contracts": [c.to_dict() for c in self.contracts],
        }


@dataclass(frozen=True, slots=True)
class LabAnalysis:
    """A lab position with its figures: the bid's and, in the play, the best play's."""

    position: str
    bid: BidFigures
    play: PositionSolution | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "bid": self.bid.to_dict(),
            "play": None if self.play is None else self.play.to_dict(),
        }


# -- reading and writing positions -----------------------------------------------------------


def read_position(text: str) -> Hand:
    """The hand of a lab position: a full position string, or just its deal field (four hands
    of tiles joined by ``/``), then under the standard rules with seat 3 shaking. Raises
    `NotationError` naming the field at fault (`parse_hand_position`'s own messages)."""
    if not isinstance(text, str):
        raise LabError("the position should be a string in the position notation")
    if len(text) > MAX_POSITION_CHARS:
        raise LabError(f"the position is over {MAX_POSITION_CHARS} characters long")
    words = text.split()
    if len(words) == 1:
        return _deal_hand(words[0])
    hand, _, _ = parse_hand_position(text)
    if hand.layout.widow:
        raise LabError("position field 1 (rules): the lab takes tables without a widow")
    return hand


def _deal_hand(deal: str) -> Hand:
    """A bare deal field's hand: the standard rules, seat 3 shaking, no call made."""
    rules = Rules()
    seats = layout_of(rules).seats
    try:
        masks = parse_deal(deal, seats)
    except NotationError as exc:
        raise LabError(str(exc)) from None
    try:
        return Hand(rules, seats - 1, masks)
    except Texas42Error as exc:
        raise LabError(f"position field 5 (deal): {exc}") from None


def write_position(hand: Hand) -> str:
    """The lab position of a hand (its full position string)."""
    return hand_position(hand)


def random_position(seed: int, rules: Rules | None = None) -> str:
    """A deal shaken at random for ``seed``, the shaker drawn too, no call made yet."""
    rules = rules or Rules()
    if layout_of(rules).widow:
        raise LabError("rules: the lab takes tables without a widow")
    rng = random.Random(f"lab:{seed}")
    shaker = rng.randrange(layout_of(rules).seats)
    return write_position(Hand.random(rules, shaker, rng))


def record_positions(record: Record) -> list[str]:
    """Each hand of a record as the lab position it ended at (the game score before it and its
    number kept); a record that breaks the rules raises `RecordError`."""
    if layout_of(record.rules).widow:
        raise LabError("rules: the lab takes tables without a widow")
    report = check_record(record)
    sides = layout_of(record.rules).sides
    positions = []
    for k, hand in enumerate(report.hands):
        before = report.results[k - 1].score if k else (0,) * sides
        positions.append(hand_position(hand, tuple(before), k + 1))
    return positions


# -- edits --------------------------------------------------------------------------------------


def _actions(hand: Hand) -> list[Action | int]:
    """The hand's calls, contract and plays in order (claims left out: the lab plays on)."""
    found: list[Action | int] = list(hand.calls)
    if hand.contract is not None:
        found.append(Declare(hand.contract))
    found += [Play(t) for t in hand.plays]
    return found


def _replayed(hand: Hand, deal: Sequence[int], actions: Sequence[Action | int]) -> Hand:
    """A hand on ``deal`` with ``actions`` applied as far as each stays legal."""
    again = Hand(hand.rules, hand.shaker, deal)
    for action in actions:
        if not again.is_legal(action):
            break
        again.apply(action)
    return again


def swap_tiles(hand: Hand, first: str, second: str) -> Hand:
    """The deal with two tiles exchanged between the hands holding them; the auction and the
    plays replayed as far as they stay legal (a swapped tile's play no longer is)."""
    a = _tile(first, "swap, first tile")
    b = _tile(second, "swap, second tile")
    holder = {t: seat for seat, mask in enumerate(hand.deal) for t in iter_tiles(mask)}
    if holder[a] == holder[b]:
        raise LabError(
            f"swap: {tile_name(a)} and {tile_name(b)} are both in seat {holder[a]}'s hand"
        )
    swap = (1 << a) | (1 << b)
    deal = [m ^ swap if m & swap else m for m in hand.deal]
    return _replayed(hand, deal, _actions(hand))


def set_contract(hand: Hand, seat: int, bid: str, contract: str) -> Hand:
    """The same deal with an auction in which ``seat`` wins at ``bid`` (every other seat passes)
    and names ``contract``; the plays replayed as far as they stay legal."""
    trial = bid_won(hand, seat, bid)
    try:
        declare = Declare(contract)
    except Texas42Error as exc:
        raise LabError(f"contract: {exc}") from None
    reason = trial.why_illegal(declare)
    if reason is not None:
        raise LabError(f"contract ({contract}): {reason}")
    trial.apply(declare)
    for t in hand.plays:
        if not trial.is_legal(Play(t)):
            break
        trial.apply(Play(t))
    return trial


def bid_won(hand: Hand, seat: int, bid: str) -> Hand:
    """The deal again, its auction a bid of ``bid`` by ``seat`` and a pass from every other seat
    (in turn from the first bidder), up to naming the contract."""
    _seat(hand, seat, "seat")
    try:
        call = Bid(bid)
    except Texas42Error as exc:
        raise LabError(f"bid: {exc}") from None
    trial = Hand(hand.rules, hand.shaker, hand.deal)
    while trial.phase == Phase.AUCTION:
        action: Action = call if trial.turn == seat and trial.high_seat is None else Pass()
        reason = trial.why_illegal(action)
        if reason is not None:
            raise LabError(f"bid ({call.notation} by seat {seat}): {reason}")
        trial.apply(action)
    return trial


def play_tile(hand: Hand, tile: str) -> Hand:
    """The position after the seat to play plays ``tile``."""
    t = _tile(tile, "play")
    if hand.phase != Phase.PLAY:
        raise LabError("play: the hand is not in its play (name a contract first)")
    played = hand.copy()
    reason = played.why_illegal(Play(t))
    if reason is not None:
        raise LabError(f"play ({tile_name(t)}): {reason}")
    played.apply(Play(t))
    return played


def take_back(hand: Hand) -> Hand:
    """The position before the last play (or the last claim)."""
    if not hand.plays and not hand.claims:
        raise LabError("back: no tile has been played yet")
    back = hand.copy()
    back.undo()
    return back


def _tile(text: object, where: str) -> int:
    if not isinstance(text, str):
        raise LabError(f"{where}: a tile is written as 6-4, not {text!r}")
    try:
        return parse_tile(text)
    except NotationError as exc:
        raise LabError(f"{where}: {exc}") from None


def _seat(hand: Hand, seat: object, where: str) -> int:
    seats = hand.layout.seats
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise LabError(f"{where}: a seat is 0..{seats - 1}, not {seat!r}")
    return seat


# -- the figures --------------------------------------------------------------------------------


def default_seat(hand: Hand) -> int:
    """The seat the bid's figures are for when none is chosen: the bid's winner, or else the
    first bidder."""
    return hand.high_seat if hand.high_seat is not None else hand.first_bidder


def default_bid(hand: Hand, seat: int) -> str:
    """The bid the figures are for when none is chosen: the seat's winning bid, or else the
    lowest bid the rules allow."""
    if hand.high_seat == seat and hand.high_id is not None:
        return ACTIONS[hand.high_id].notation
    return Bid(hand.rules.min_bid).notation


def bid_figures(
    hand: Hand,
    seat: int | None = None,
    bid: str | None = None,
    *,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    solver: Solver | None = None,
) -> BidFigures:
    """The chosen seat's bid judged by the expert from its own tiles, and each contract's
    double-dummy result on this deal (the seat bidding ``bid``, every other seat passing)."""
    seat = default_seat(hand) if seat is None else _seat(hand, seat, "seat")
    bid = default_bid(hand, seat) if bid is None else bid
    trial = bid_won(hand, seat, bid)
    call = Bid(bid)
    solver = solver or Solver()
    opening = Hand(hand.rules, hand.shaker, hand.deal).view(seat)
    bot = PimcBot(PimcSettings.expert().with_options({"bid_samples": str(samples)}), seed)
    chances = bot.contract_chances(opening)
    need = hand.layout.total if call.marks else call.points
    named: list[Contract] = list(chances)
    if hand.contract is not None and hand.contract not in chances:
        named.append(hand.contract)
    contracts = []
    for contract in named:
        values = chances.get(contract)
        chance = expected = None
        if values:
            chance, expected = bot.contract_score(opening, contract, values, need)
        total = makes = None
        declared = trial.copy()
        if declared.is_legal(Declare(contract)):
            declared.apply(Declare(contract))
            position = PlayPosition.from_hand(declared)
            total = solver.value(position)
            makes = solver.makes(position)
        contracts.append(ContractFigures(str(contract), chance, expected, total, makes))
    chance, _ = bot.call_value(chances, call, opening)
    return BidFigures(seat, call.notation, need, samples, chance, tuple(contracts))


def analyse(
    hand: Hand,
    seat: int | None = None,
    bid: str | None = None,
    *,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
) -> LabAnalysis:
    """A lab position's figures: the bid's (`bid_figures`) and, while a tile is to be played,
    every legal tile's double-dummy value (`solve_position`). The same for the same position,
    seat, bid, seed and samples."""
    solver = Solver()
    figures = bid_figures(hand, seat, bid, seed=seed, samples=samples, solver=solver)
    play = None
    if hand.phase == Phase.PLAY and hand.seat_to_act() is not None:
        play = solve_position(hand, solver)
    return LabAnalysis(write_position(hand), figures, play)


__all__ = [
    "DEFAULT_SAMPLES",
    "MAX_POSITION_CHARS",
    "BidFigures",
    "ContractFigures",
    "LabAnalysis",
    "LabError",
    "analyse",
    "bid_figures",
    "bid_won",
    "default_bid",
    "default_seat",
    "play_tile",
    "random_position",
    "read_position",
    "record_positions",
    "set_contract",
    "swap_tiles",
    "take_back",
    "write_position",
]
