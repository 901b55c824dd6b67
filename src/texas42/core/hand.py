"""One hand of 42: the phase machine auction -> declare -> play -> done, with undo.

The hand holds the deal, the calls, the contract and the plays as ints and masks; every legal
action is one bit of a mask over the fixed action space (`texas42.core.actions`), computed once per
position and cached, so ``legal_actions``, ``is_legal`` and ``apply`` are lookups.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from texas42.core.actions import (
    ACTIONS,
    DECLARE_BASE,
    DISCARD_BASE,
    FOUR_SEAT_ACTIONS,
    HIGH_POINT_BIDS,
    MARK_BID_BASE,
    MOON_ID,
    NUM_ACTIONS,
    PASS_ID,
    PLUNGE_ID,
    POINT_BID_BASE,
    SPLASH_ID,
    Action,
    Bid,
    Declare,
    parse_call,
)
from texas42.core.contracts import (
    SEVENS_DISTANCE_MASKS,
    SUIT_WORDS,
    Contract,
    PlayTables,
    tables_for,
)
from texas42.core.errors import IllegalActionError, NotationError
from texas42.core.layout import Layout, layout_of
from texas42.core.rules import MAX_MARKS, Rules
from texas42.core.tiles import (
    DOUBLES,
    TILE_NAMES,
    count_points,
    hand_name,
    iter_tiles,
    parse_tile,
    tile,
)
from texas42.core.view import View, view_of

SEATS = 4
"""Seats of the default table; every other size reads its `Layout`."""
SEAT_NAMES = ("North", "East", "South", "West")
TEAM_NAMES = ("North-South", "East-West")
TRICKS_PER_HAND = 7
FOUR_SEATS = layout_of(Rules())
ONE_ZERO = tile(1, 0)
DOUBLE_SIX = tile(6, 6)

_PLAY_BITS = (1 << 28) - 1
_SUIT_BITS = sum(1 << (DECLARE_BASE + pip) for pip in range(7))
_DECLARE_IDS = {str(a): a.id for a in ACTIONS[DECLARE_BASE:FOUR_SEAT_ACTIONS]}


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


@dataclass(frozen=True, slots=True)
class HandResult:
    """What a hand came to, in the terms of ``texas42 check``.

    ``made`` is None while the hand is in progress (then ``score`` is 0-0); a reshaken hand has
    ``bidder`` None.
    """

    bidder: int | None
    bid: str | None
    contract: str | None
    declarer: int | None
    tricks: int
    points: tuple[int, ...]
    made: bool | None
    score: tuple[int, ...]

    @property
    def reshaken(self) -> bool:
        return self.bidder is None and self.made is not None


def partner(seat: int) -> int:
    """The partner at the four-seat table (other tables: `Layout.partner`)."""
    return (seat + 2) % SEATS


def draw_sequence(shaker: int, draw_order: str, layout: Layout = FOUR_SEATS) -> tuple[int, ...]:
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
    order: Sequence[int], shaker: int, draw_order: str, layout: Layout = FOUR_SEATS
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


def check_shaker(shaker: object, layout: Layout = FOUR_SEATS) -> None:
    if not (
        isinstance(shaker, int) and not isinstance(shaker, bool) and 0 <= shaker < layout.seats
    ):
        raise NotationError(f"the shaker is a seat 0..{layout.seats - 1}, not {shaker!r}")


def check_deal(deal: Sequence[int], layout: Layout = FOUR_SEATS) -> tuple[int, ...]:
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


class Hand:
    """One deal played out under a set of rules, from the first call to the score."""

    __slots__ = (
        "_history",
        "_legal",
        "bid_marks",
        "calls",
        "contract",
        "deal",
        "declarer",
        "discards",
        "first_bidder",
        "hands",
        "high_id",
        "high_seat",
        "high_value",
        "layout",
        "out_seat",
        "phase",
        "play_seats",
        "plays",
        "points",
        "result",
        "rules",
        "shaker",
        "tables",
        "trick",
        "trick_leader",
        "trick_seats",
        "trick_size",
        "tricks",
        "tricks_won",
        "turn",
        "widow",
    )

    def __init__(
        self, rules: Rules, shaker: int, deal: Sequence[int], widow: int | None = None
    ) -> None:
        layout = self.layout = layout_of(rules)
        check_shaker(shaker, layout)
        self.rules = rules
        self.shaker = shaker
        self.deal: tuple[int, ...] = check_deal(deal, layout)
        self.widow = check_widow(widow, self.deal, layout)
        self.hands: list[int] = list(self.deal)
        self.phase = Phase.AUCTION
        if rules.first_bidder == "left-of-shaker":
            self.first_bidder = (shaker + 1) % layout.seats
        elif rules.first_bidder == "shaker":
            self.first_bidder = shaker
        else:
            self.first_bidder = next(s for s in range(layout.seats) if self.deal[s] >> ONE_ZERO & 1)
        self.turn = self.first_bidder
        self.calls: list[int] = []
        self.discards: list[int] = []
        self.high_id = -1
        self.high_seat = -1
        self.high_value = 0
        self.bid_marks = 0
        self.declarer = -1
        self.contract: Contract | None = None
        self.tables: PlayTables | None = None
        self.out_seat = -1
        self.trick_size = layout.seats
        self.trick_leader = -1
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
        self.plays: list[int] = []
        self.play_seats: list[int] = []
        self.tricks: list[Trick] = []
        self.points: tuple[int, ...] = (0,) * layout.sides
        self.tricks_won: tuple[int, ...] = (0,) * layout.sides
        self.result: HandResult | None = None
        self._history: list[tuple[Any, ...]] = []
        self._legal = -1

    @classmethod
    def random(cls, rules: Rules, shaker: int, rng: random.Random) -> Hand:
        """Shake and draw: a uniformly random deal drawn in the rules' draw order."""
        layout = layout_of(rules)
        check_shaker(shaker, layout)
        order = (
            list(iter_tiles(layout.tiles)) if layout.tiles != FOUR_SEATS.tiles else list(range(28))
        )
        rng.shuffle(order)
        deal = deal_from_order(order, shaker, rules.draw_order, layout)
        return cls(rules, shaker, deal, widow_from_order(order, layout))

    # -- reading the state ---------------------------------------------------------------

    @property
    def bidder_team(self) -> int:
        """The bid winner's side (its team, or the seat itself where players score alone)."""
        return self.layout.side_of[self.high_seat] if self.high_seat >= 0 else -1

    @property
    def set_aside(self) -> int:
        """Tiles in play that nobody holds: face down all hand, never seen."""
        dealt = self.widow
        for mask in self.deal:
            dealt |= mask
        return self.layout.tiles & ~dealt

    @property
    def winning_call(self) -> Action | None:
        return ACTIONS[self.high_id] if self.high_id >= 0 else None

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.DONE

    @property
    def tricks_hidden(self) -> bool:
        """Whether the trick piles lie face down (the ``hide_tricks`` rule for mark bids)."""
        return piles_face_down(self.rules, self.bid_marks)

    def seat_to_act(self) -> int | None:
        return None if self.phase == Phase.DONE else self.turn

    def legal_mask(self) -> int:
        """Bit ``i`` set when action id ``i`` is legal now."""
        if self._legal < 0:
            self._legal = self._compute_legal()
        return self._legal

    def legal_actions(self) -> list[Action]:
        mask = self.legal_mask()
        out = []
        while mask:
            low = mask & -mask
            out.append(ACTIONS[low.bit_length() - 1])
            mask ^= low
        return out

    def legal_ids(self) -> list[int]:
        mask = self.legal_mask()
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out

    def is_legal(self, action: Action | int) -> bool:
        aid = action if type(action) is int else _action_id(action)
        return 0 <= aid < NUM_ACTIONS and bool(self.legal_mask() >> aid & 1)

    def summary(self) -> HandResult:
        """The hand's result so far; for a finished hand, its final result."""
        if self.result is not None:
            return self.result
        bidder = self.high_seat if self.high_seat >= 0 else None
        return HandResult(
            bidder=bidder,
            bid=ACTIONS[self.high_id].notation if self.high_id >= 0 else None,
            contract=str(self.contract) if self.contract is not None else None,
            declarer=self.declarer if self.declarer >= 0 else None,
            tricks=len(self.tricks),
            points=self.points,
            made=None,
            score=(0,) * self.layout.sides,
        )

    def trump_description(self) -> str | None:
        if self.tables is not None:
            return self.tables.description
        if self.contract is not None:
            return "trump is named by the first tile led"
        return None

    # -- changing the state --------------------------------------------------------------

    def apply(self, action: Action | int) -> None:
        """Take a legal action; an illegal one raises `IllegalActionError` and changes nothing."""
        aid = action if type(action) is int else _action_id(action)
        if not (0 <= aid < NUM_ACTIONS and self.legal_mask() >> aid & 1):
            raise IllegalActionError(self.why_illegal(aid) or "that action is not legal now")
        self._history.append(
            (
                self.phase,
                self.turn,
                self.high_id,
                self.high_seat,
                self.high_value,
                self.bid_marks,
                self.declarer,
                self.contract,
                self.tables,
                self.out_seat,
                self.trick_size,
                self.trick_leader,
                tuple(self.trick),
                tuple(self.trick_seats),
                self.points,
                self.tricks_won,
                self.result,
                tuple(self.hands),
                len(self.calls),
                len(self.plays),
                len(self.tricks),
                len(self.discards),
            )
        )
        self._legal = -1
        phase = self.phase
        if phase == Phase.PLAY:
            self._play(aid)
        elif phase == Phase.AUCTION:
            self._call(aid)
        elif phase == Phase.DISCARD:
            self._discard(aid)
        else:
            self._declare(aid)

    def undo(self) -> None:
        """Take back the last action."""
        if not self._history:
            raise IllegalActionError("nothing to undo in this hand")
        (
            self.phase,
            self.turn,
            self.high_id,
            self.high_seat,
            self.high_value,
            self.bid_marks,
            self.declarer,
            self.contract,
            self.tables,
            self.out_seat,
            self.trick_size,
            self.trick_leader,
            trick,
            trick_seats,
            self.points,
            self.tricks_won,
            self.result,
            hands,
            n_calls,
            n_plays,
            n_tricks,
            n_discards,
        ) = self._history.pop()
        del self.discards[n_discards:]
        self.trick = list(trick)
        self.trick_seats = list(trick_seats)
        self.hands = list(hands)
        del self.calls[n_calls:]
        del self.plays[n_plays:]
        del self.play_seats[n_plays:]
        del self.tricks[n_tricks:]
        self._legal = -1

    @property
    def action_count(self) -> int:
        return len(self._history)

    def copy(self) -> Hand:
        clone = object.__new__(Hand)
        for name in Hand.__slots__:
            setattr(clone, name, getattr(self, name))
        clone.hands = list(self.hands)
        clone.calls = list(self.calls)
        clone.discards = list(self.discards)
        clone.trick = list(self.trick)
        clone.trick_seats = list(self.trick_seats)
        clone.plays = list(self.plays)
        clone.play_seats = list(self.play_seats)
        clone.tricks = list(self.tricks)
        clone._history = list(self._history)
        return clone

    def view(self, seat: int, score: tuple[int, ...] | None = None, hand_number: int = 1) -> View:
        """What one seat may know of this hand (see `texas42.core.view`)."""
        return view_of(self, seat, score or (0,) * self.layout.sides, hand_number)

    def position(self, score: tuple[int, ...] | None = None, hand_number: int = 1) -> str:
        """The full one-line position string (`texas42.core.notation`)."""
        from texas42.core.notation import hand_position

        return hand_position(self, score or (0,) * self.layout.sides, hand_number)

    def parse_action(self, text: str) -> Action:
        """Read an action as the phase expects it: a call, a contract or a tile."""
        if self.phase == Phase.AUCTION:
            return parse_call(text, self.layout.total, self.rules.bids == "tricks")
        if self.phase == Phase.DECLARE:
            return Declare(text)
        word = text.strip()
        if self.phase == Phase.DISCARD:
            return ACTIONS[DISCARD_BASE + parse_tile(word.removeprefix("discard").strip())]
        return ACTIONS[parse_tile(word.removeprefix("play").strip())]

    # -- the auction ---------------------------------------------------------------------

    def _call(self, aid: int) -> None:
        seat = self.turn
        layout = self.layout
        self.calls.append(aid)
        if aid != PASS_ID:
            self.high_id = aid
            self.high_seat = seat
            self.bid_marks, self.high_value = call_value(self.rules, aid, self.high_value)
        if len(self.calls) < layout.seats and aid != MOON_ID:
            self.turn = (seat + 1) % layout.seats
            return
        if self.high_seat < 0:
            self.phase = Phase.DONE
            zeros = (0,) * layout.sides
            self.result = HandResult(None, None, None, None, 0, zeros, False, zeros)
            return
        self.declarer = self.high_seat
        if self.high_id in (PLUNGE_ID, SPLASH_ID):
            self.declarer = layout.partner(self.high_seat)
        self.turn = self.declarer
        if self.widow:
            self.hands[self.declarer] |= self.widow
            self.phase = Phase.DISCARD
        else:
            self.phase = Phase.DECLARE

    def _discard(self, aid: int) -> None:
        t = aid - DISCARD_BASE
        self.hands[self.declarer] ^= 1 << t
        self.discards.append(t)
        if len(self.discards) == self.layout.widow:
            self.phase = Phase.DECLARE

    def _special_marks(self, aid: int) -> int:
        return special_bid_marks(self.rules, aid, self.high_value)

    def _legal_calls(self) -> int:
        return legal_calls(
            self.rules, len(self.calls), self.high_seat, self.high_value, self.hands[self.turn]
        )

    def _legal_discards(self) -> int:
        return self.hands[self.turn] << DISCARD_BASE

    # -- the declaration -----------------------------------------------------------------

    def _legal_declarations(self) -> int:
        return legal_declarations(self.rules, self.high_id, self.bid_marks)

    def _declare(self, aid: int) -> None:
        declaration = ACTIONS[aid]
        assert isinstance(declaration, Declare)
        contract = declaration.contract
        self.contract = contract
        if contract.kind != "by-lead":
            self.tables = tables_for(contract, self.rules)
        if contract.kind == "nello":
            self.out_seat = self.layout.partner(self.declarer)
            self.trick_size = self.layout.seats - 1
        self.phase = Phase.PLAY
        self.turn = self.declarer
        self.trick_leader = self.declarer

    # -- the play ------------------------------------------------------------------------

    def _legal_plays(self) -> int:
        return legal_plays(
            self.rules, self.tables, self.hands[self.turn], self.trick, not self.tricks
        )

    def _play(self, t: int) -> None:
        seat = self.turn
        tables = self.tables
        if tables is None:
            assert self.contract is not None
            tables = self.tables = tables_for(self.contract, self.rules, first_lead=t)
        self.hands[seat] ^= 1 << t
        self.plays.append(t)
        self.play_seats.append(seat)
        self.trick.append(t)
        self.trick_seats.append(seat)
        layout = self.layout
        if len(self.trick) < self.trick_size:
            seat = (seat + 1) % layout.seats
            if seat == self.out_seat:
                seat = (seat + 1) % layout.seats
            self.turn = seat
            return
        tiles = tuple(self.trick)
        seats = tuple(self.trick_seats)
        winner = seats[tables.trick_winner(tiles)]
        mask = 0
        for x in tiles:  # mask_of inlined: this runs once per trick on the hot path
            mask |= 1 << x
        # Layout.trick_value inlined, as mask_of above
        value = layout.trick_points + count_points(mask) if layout.count else layout.trick_points
        self.tricks.append(Trick(self.trick_leader, seats, tiles, winner, value))
        side = layout.side_of[winner]
        points, won = self.points, self.tricks_won
        if layout.sides == 2:  # the four-seat fast path
            if side:
                self.points = (points[0], points[1] + value)
                self.tricks_won = (won[0], won[1] + 1)
            else:
                self.points = (points[0] + value, points[1])
                self.tricks_won = (won[0] + 1, won[1])
        else:
            self.points = (*points[:side], points[side] + value, *points[side + 1 :])
            self.tricks_won = (*won[:side], won[side] + 1, *won[side + 1 :])
        self.trick = []
        self.trick_seats = []
        self.trick_leader = winner
        self.turn = winner
        made = self._decided(winner)
        if made is not None:
            self._finish(made)

    def _decided(self, last_winner: int) -> bool | None:
        """True once the bid is made, False once it is set, None while open (marks game).

        A points game (and Moon) plays every trick and only then asks whether the bid was made.
        Count set aside unseen is out of play: a bid it makes impossible is set only when the
        last trick shows it, since nobody at the table can know sooner.
        """
        done = len(self.tricks) == self.layout.tricks
        if self.rules.game != "marks" and not done:
            return None
        bidders = self.layout.side_of[self.high_seat]
        assert self.contract is not None
        if self.contract.kind == "nello":
            if self.tricks_won[bidders] if done else last_winner == self.high_seat:
                return False
            return True if done else None
        if self.bid_marks:
            if sum(self.tricks_won) - self.tricks_won[bidders]:
                return False
            return True if done else None
        bid = self.high_value
        if self.points[bidders] >= bid:
            return True
        if sum(self.points) - self.points[bidders] > self.layout.total - bid or done:
            return False
        return None

    def _finish(self, made: bool) -> None:
        bidders = self.layout.side_of[self.high_seat]
        sides = self.layout.sides
        score = [0] * sides
        if self.rules.game == "marks":
            marks = self.bid_marks or 1
            for side in range(sides):
                if (side == bidders) == made:
                    score[side] = marks
        elif self.rules.game == "moon":
            score = list(self.points)
            bid = ACTIONS[self.high_id]
            assert isinstance(bid, Bid)
            score[bidders] = (
                (bid.points if self.high_id == MOON_ID else self.points[bidders])
                if made
                else -bid.points
            )
        else:
            value = self.high_value
            assert self.contract is not None
            if made and self.contract.kind == "nello":
                score[bidders] = value
            elif made:
                score = list(self.points)
            else:
                for side in range(sides):
                    if side != bidders:
                        score[side] = self.points[side] + value
        self.phase = Phase.DONE
        self.result = HandResult(
            bidder=self.high_seat,
            bid=ACTIONS[self.high_id].notation,
            contract=str(self.contract),
            declarer=self.declarer,
            tricks=len(self.tricks),
            points=self.points,
            made=made,
            score=tuple(score),
        )

    def _compute_legal(self) -> int:
        phase = self.phase
        if phase == Phase.PLAY:
            return self._legal_plays()
        if phase == Phase.AUCTION:
            return self._legal_calls()
        if phase == Phase.DECLARE:
            return self._legal_declarations()
        if phase == Phase.DISCARD:
            return self._legal_discards()
        return 0

    # -- explaining ----------------------------------------------------------------------

    def why_illegal(self, action: Action | int) -> str | None:
        """None for a legal action; otherwise the reason, in words a player reads."""
        aid = action if type(action) is int else _action_id(action)
        if not 0 <= aid < NUM_ACTIONS:
            return f"no action has id {aid}"
        if self.legal_mask() >> aid & 1:
            return None
        if self.phase == Phase.DONE:
            return "the hand is over"
        who = self.layout.seat_names[self.turn]
        if aid >= DISCARD_BASE:
            return self._why_discard_illegal(aid - DISCARD_BASE, who)
        if self.phase == Phase.DISCARD:
            left = self.layout.widow - len(self.discards)
            return (
                f"{who} took the widow and must first lay {left} tile{'s' * (left > 1)} face down"
            )
        if aid < PASS_ID:
            return self._why_play_illegal(aid, who)
        if aid < DECLARE_BASE or aid in HIGH_POINT_BIDS.values() or aid == MOON_ID:
            if self.phase != Phase.AUCTION:
                return "the auction is over"
            return self._why_call_illegal(aid, who)
        if self.phase != Phase.DECLARE:
            return "the contract is named after the auction, by the declarer"
        return self._why_declaration_illegal(aid)

    def _why_discard_illegal(self, t: int, who: str) -> str:
        if self.phase != Phase.DISCARD:
            if not self.layout.widow:
                return "there is no widow to take under these rules"
            return "the bid winner discards after taking the widow, before naming trump"
        return f"{who} does not hold {TILE_NAMES[t]}"

    def _why_play_illegal(self, t: int, who: str) -> str:
        if self.phase != Phase.PLAY:
            if self.phase == Phase.AUCTION:
                return "tiles are played after the auction"
            return f"{who} must name the contract before the first lead"
        hand = self.hands[self.turn]
        if not hand >> t & 1:
            return f"{who} does not hold {TILE_NAMES[t]}"
        legal = self.legal_mask()
        options = " or ".join(TILE_NAMES[x] for x in iter_tiles(legal))
        tables = self.tables
        assert tables is not None
        if tables.sevens:
            return f"{who} must play a tile closest to 7 pips: {options}"
        if not self.trick:
            return f"{who} must lead a trump on the first trick: {options}"
        suit = SUIT_WORDS[tables.led[self.trick[0]]]
        return f"{who} must follow {suit}: {options}"

    def _why_call_illegal(self, aid: int, who: str) -> str:
        rules = self.rules
        total = self.layout.total
        if aid == PASS_ID:
            return f"everyone else passed, so {who}, the last to call, must bid"
        bid = ACTIONS[aid]
        assert isinstance(bid, Bid)
        high = ACTIONS[self.high_id].notation if self.high_id >= 0 else None
        tricks = rules.bids == "tricks"
        if bid.special == "moon" or tricks:
            if not tricks:
                return "shooting the moon is a Moon bid; bid points or marks here"
            if bid.marks or bid.special not in (None, "moon") or bid.points > total:
                return f"bids are {rules.min_bid} to {total} tricks, or moon"
            if bid.points < rules.min_bid:
                return f"bids start at {rules.min_bid}"
            return f"a bid must beat {high}"
        if bid.special is not None:
            name = bid.special
            on = rules.plunge if name == "plunge" else rules.splash
            if not on:
                return f"{name} is not played under these rules"
            needed = 4 if name == "plunge" else 3
            if (self.hands[self.turn] & DOUBLES).bit_count() < needed:
                return f"{name} needs at least {needed} doubles in hand"
            if name == "plunge" and rules.plunge_needs_66:
                if not self.hands[self.turn] >> DOUBLE_SIX & 1:
                    return "plunge needs the 6-6 under these rules"
            return f"{name} may be called only before anyone has bid (the bid is {high})"
        if bid.marks == 0:
            if bid.points < rules.min_bid:
                return f"bids start at {rules.min_bid}"
            if bid.points >= total:
                return f"a hand holds {total} points: bid {total - 1} at most, or 1m"
            return f"a bid must beat {high}"
        if self.high_value >= total * bid.marks:
            return f"a bid must beat {high}"
        if bid.marks > rules.max_bid_marks:
            return f"bids go up to {rules.max_bid_marks}m under these rules"
        top = max(rules.max_opening_marks, self.high_value // total + rules.mark_raise)
        if self.high_value < total:
            return f"an opening mark bid may be at most {top}m"
        return f"after {high} the bid may go up to {top}m"

    def _why_declaration_illegal(self, aid: int) -> str:
        rules = self.rules
        declaration = ACTIONS[aid]
        assert isinstance(declaration, Declare)
        kind = declaration.contract.kind
        special = self.high_id in (PLUNGE_ID, SPLASH_ID)
        if kind == "doubles":
            return "doubles cannot be trump under these rules"
        if kind == "by-lead":
            return "trump must be named under these rules"
        if kind == "follow-me" and not rules.follow_me:
            return "follow-me is not played under these rules"
        if kind in ("nello", "sevens"):
            on = rules.nello if kind == "nello" else rules.sevens
            least = rules.nello_min_marks if kind == "nello" else rules.sevens_min_marks
            name = "Nel-O" if kind == "nello" else "Sevens"
            if not on:
                return f"{name} is not played under these rules"
            if special:
                return f"{name} cannot be called after a plunge or splash"
            if self.bid_marks < least:
                return f"{name} needs a bid of at least {least}m"
        return f"the declarer may not choose how doubles play: {declaration} is not allowed"


def _action_id(action: object) -> int:
    if isinstance(action, Action):
        return action.id
    if isinstance(action, int) and not isinstance(action, bool):
        return action
    raise IllegalActionError(f"not an action: {action!r}")


# -- the rules of what may be done, shared by the hand and the seat views ----------------------


def piles_face_down(rules: Rules, bid_marks: int) -> bool:
    """Whether won tricks lie face down: for bids of 2 marks or more, or any mark bid."""
    if rules.hide_tricks == "never" or not bid_marks:
        return False
    return bid_marks >= (2 if rules.hide_tricks == "two-marks" else 1)


def special_bid_marks(rules: Rules, aid: int, high_value: int) -> int:
    """What a plunge or splash is worth: its marks, or one more than the bid it jumps."""
    base = rules.plunge_marks if aid == PLUNGE_ID else rules.splash_marks
    if rules.plunge_timing == "jump":
        return min(MAX_MARKS, max(base, high_value // layout_of(rules).total + 1))
    return base


def call_value(rules: Rules, aid: int, high_value: int) -> tuple[int, int]:
    """A bid's marks (0 for a point bid) and the value a later bid must beat.

    A mark is every point of the hand's total; shooting the moon takes every trick (one "mark")
    and stands above a bid of all seven.
    """
    if POINT_BID_BASE <= aid < MARK_BID_BASE + 1:
        return 0, aid - POINT_BID_BASE
    total = rules.layout.total
    if aid in (PLUNGE_ID, SPLASH_ID):
        marks = special_bid_marks(rules, aid, high_value)
    elif aid == MOON_ID:
        return 1, total + 1
    elif MARK_BID_BASE < aid < PLUNGE_ID:
        marks = aid - MARK_BID_BASE
    else:
        bid = ACTIONS[aid]
        assert isinstance(bid, Bid)
        return 0, bid.points
    return marks, total * marks


def _point_bid_ids(low: int, high: int) -> int:
    """The mask of point-bid ids for bids ``low`` to ``high``."""
    mask = 0
    if low <= min(high, 41):
        mask = ((1 << (min(high, 41) - low + 1)) - 1) << (POINT_BID_BASE + low)
    if high >= 42:
        for points, aid in HIGH_POINT_BIDS.items():
            if low <= points <= high:
                mask |= 1 << aid
    return mask


def legal_calls(rules: Rules, n_calls: int, high_seat: int, high_value: int, hand: int) -> int:
    """The mask of legal calls for a seat holding ``hand`` after ``n_calls`` calls."""
    mask = 0
    layout = rules.layout
    total = layout.total
    forced = rules.all_pass == "forced" and n_calls == layout.seats - 1 and high_seat < 0
    if not forced:
        mask |= 1 << PASS_ID
    low = max(rules.min_bid, high_value + 1 if high_seat >= 0 else 0)
    if rules.bids == "tricks":
        return mask | _point_bid_ids(low, total) | 1 << MOON_ID
    if total <= 42:
        if low < total:
            mask |= ((1 << (total - low)) - 1) << (POINT_BID_BASE + low)
    elif high_value < total:
        mask |= _point_bid_ids(low, total - 1)
    high_marks = high_value // total
    top = min(rules.max_bid_marks, max(rules.max_opening_marks, high_marks + rules.mark_raise))
    for marks in range(high_marks + 1, top + 1):
        mask |= 1 << (MARK_BID_BASE + marks)
    if rules.plunge or rules.splash:
        doubles = (hand & DOUBLES).bit_count()
        for aid, on, needed in ((PLUNGE_ID, rules.plunge, 4), (SPLASH_ID, rules.splash, 3)):
            if not on or doubles < needed:
                continue
            if aid == PLUNGE_ID and rules.plunge_needs_66 and not hand >> DOUBLE_SIX & 1:
                continue
            if rules.plunge_timing == "first-bid" and high_seat >= 0:
                continue
            if total * special_bid_marks(rules, aid, high_value) > high_value:
                mask |= 1 << aid
    return mask


def legal_declarations(rules: Rules, high_id: int, bid_marks: int) -> int:
    """The mask of contracts the declarer may name after the winning call ``high_id``."""
    mask = _SUIT_BITS
    special = high_id in (PLUNGE_ID, SPLASH_ID)
    if rules.doubles_trump:
        mask |= 1 << _DECLARE_IDS["doubles"]
    for kind, on, default in (
        ("follow-me", rules.follow_me, rules.follow_me_doubles),
        (
            "nello",
            rules.nello and not special and bid_marks >= rules.nello_min_marks,
            rules.nello_doubles,
        ),
    ):
        if not on:
            continue
        mask |= 1 << _DECLARE_IDS[kind] | 1 << _DECLARE_IDS[f"{kind}:{default}"]
        if rules.doubles_choice:
            for name, aid in _DECLARE_IDS.items():
                if name.startswith(kind + ":"):
                    mask |= 1 << aid
    if rules.sevens and not special and bid_marks >= rules.sevens_min_marks:
        mask |= 1 << _DECLARE_IDS["sevens"]
    if rules.undeclared_trump == "first-lead":
        mask |= 1 << _DECLARE_IDS["by-lead"]
    return mask


def plain_contracts(rules: Rules, high_id: int, bid_marks: int) -> list[Contract]:
    """The contracts the winner of ``high_id`` may name, each once under the rules' default
    doubles treatment: the seven suits, doubles, follow-me, Nel-O and Sevens (by-lead aside)."""
    mask = legal_declarations(rules, high_id, bid_marks)
    kinds = ("suit", "doubles", "follow-me", "nello", "sevens")
    return [
        a.contract
        for a in ACTIONS[DECLARE_BASE:FOUR_SEAT_ACTIONS]
        if mask >> a.id & 1
        and isinstance(a, Declare)
        and a.contract.kind in kinds
        and a.contract.treatment is None
    ]


def legal_plays(
    rules: Rules, tables: PlayTables | None, hand: int, trick: Sequence[int], first_trick: bool
) -> int:
    """The mask of tiles a seat holding ``hand`` may play to ``trick`` (tiles so far)."""
    if tables is None:
        return hand
    if tables.sevens:
        for closest in SEVENS_DISTANCE_MASKS:
            if hand & closest:
                return hand & closest
    if not trick:
        if rules.first_lead_trump and first_trick and hand & tables.trump_mask:
            return hand & tables.trump_mask
        return hand
    following = hand & tables.follow[tables.led[trick[0]]]
    return following or hand
