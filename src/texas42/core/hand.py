"""One hand of 42: the phase machine auction -> declare -> play -> done, with undo.

The hand holds the deal, the calls, the contract and the plays as ints and masks; every legal
action is one bit of a mask over the fixed action space (`texas42.core.actions`), computed once per
position and cached, so ``legal_actions``, ``is_legal`` and ``apply`` are lookups.

>>> from texas42 import Bid, Declare, Hand, Pass, Play, Rules, parse_hand
>>> deal = [
...     parse_hand(h)
...     for h in (
...         "6-6 6-5 6-4 6-2 5-5 3-3 1-0",
...         "6-3 5-4 4-4 4-2 3-1 2-0 0-0",
...         "6-1 5-3 5-2 4-3 3-2 2-2 1-1",
...         "6-0 5-1 5-0 4-1 4-0 3-0 2-1",
...     )
... ]
>>> hand = Hand(Rules(), shaker=3, deal=deal)  # West shakes, North bids first
>>> for action in (Bid("34"), Pass(), Pass(), Pass(), Declare("sixes"), Play("5-5")):
...     hand.apply(action)
>>> hand.legal_actions()
[Play('5-4')]
>>> hand.why_illegal(Play("0-0"))
'East must follow fives: 5-4'
>>> hand.undo()
>>> hand.seat_to_act(), len(hand.legal_actions())
(0, 7)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from texas42.core.actions import (
    ACTIONS,
    DECLARE_BASE,
    DISCARD_BASE,
    HIGH_POINT_BIDS,
    MOON_ID,
    NUM_ACTIONS,
    PASS_ID,
    Action,
    Bid,
    Declare,
    parse_call,
)
from texas42.core.auction import (
    call_value,
    legal_calls,
    legal_declarations,
    why_call_illegal,
    why_declaration_illegal,
)
from texas42.core.claims import claim_holds, side_taking_rest
from texas42.core.contracts import (
    SUIT_WORDS,
    Contract,
    PlayTables,
    legal_plays,
    tables_for,
    trump_description,
)
from texas42.core.deal import (
    check_deal,
    check_shaker,
    check_widow,
    deal_from_order,
    unshuffled,
    widow_from_order,
)
from texas42.core.errors import IllegalActionError, NotationError
from texas42.core.layout import layout_of
from texas42.core.progress import (
    Phase,
    Trick,
    add_trick,
    auction_over,
    bid_decided,
    declarer_of,
    next_player,
    sitting_out,
    take_trick,
    trick_size,
)
from texas42.core.rules import Rules, piles_face_down
from texas42.core.tiles import HI, ONE_ZERO, TILE_NAMES, count_points, iter_tiles, parse_tile
from texas42.core.view import Claim, Event, HiddenTrick, View, build_view

__all__ = ["Hand", "HandResult"]
"""`Phase` and `Trick`, which the seat views share, live in `texas42.core.progress`."""


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
    claimant: int | None = None
    """The seat whose claim ended the hand (`Hand.claim`), else None."""
    claimed: int = 0
    """Tricks the claim settled without their being played: ``tricks`` counts only those
    played, while ``points`` (and `Hand.tricks_won`) count the claimed ones too."""

    @property
    def reshaken(self) -> bool:
        return self.bidder is None and self.made is not None


class _StateRecord(NamedTuple):
    """The hand's state before a call, a discard or the declaration, kept for `Hand.undo`.

    Those actions change much of the state (the high bid, the declarer, the contract, the
    tables, the hands after a widow), so undo restores it whole; the lists that only grow keep
    their lengths."""

    phase: Phase
    turn: int
    high_id: int | None
    high_seat: int | None
    high_value: int
    bid_marks: int
    declarer: int | None
    contract: Contract | None
    tables: PlayTables | None
    out_seat: int | None
    trick_size: int
    trick_leader: int | None
    result: HandResult | None
    hands: tuple[int, ...]
    n_calls: int
    n_discards: int


class _PlayRecord(NamedTuple):
    """What a play changes that the plays and tricks themselves do not tell `Hand.undo`: the
    tables a by-lead first tile resolved, and the totals before a trick was taken. It is kept
    small because it is pushed at every play, the hot path."""

    tables: PlayTables | None
    points: tuple[int, ...]
    tricks_won: tuple[int, ...]


class _ClaimRecord(NamedTuple):
    """The totals and result before a claim, kept for `Hand.undo`: a claim that holds (or counts
    as set) credits the tricks left and ends the hand."""

    points: tuple[int, ...]
    tricks_won: tuple[int, ...]
    result: HandResult | None


class Hand:
    """One deal played out under a set of rules, from the first call to the score.

    Beside the actions of the fixed action space, a seat on lead may lay its hand down and claim
    the rest (`claim`): that is not an `Action`, so bots, the action ids and the perft counts know
    nothing of it.
    """

    __slots__ = (
        "_history",
        "_legal",
        "bid_marks",
        "calls",
        "claims",
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
        self.high_id: int | None = None
        self.high_seat: int | None = None
        self.high_value = 0
        self.bid_marks = 0
        self.declarer: int | None = None
        self.contract: Contract | None = None
        self.tables: PlayTables | None = None
        self.out_seat: int | None = None
        """The declarer's partner, sitting out a Nel-O."""
        self.trick_size = layout.seats
        self.trick_leader: int | None = None
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
        self.plays: list[int] = []
        self.play_seats: list[int] = []
        self.tricks: list[Trick] = []
        self.points: tuple[int, ...] = (0,) * layout.sides
        self.tricks_won: tuple[int, ...] = (0,) * layout.sides
        self.result: HandResult | None = None
        self.claims: list[tuple[int, Claim]] = []
        """Each claim made, with the number of tiles played before it, in order."""
        self._history: list[_StateRecord | _PlayRecord | _ClaimRecord] = []
        self._legal = -1

    @classmethod
    def random(cls, rules: Rules, shaker: int, rng: random.Random) -> Hand:
        """Shake and draw: a uniformly random deal drawn in the rules' draw order."""
        layout = layout_of(rules)
        check_shaker(shaker, layout)
        order = unshuffled(layout.tiles)
        rng.shuffle(order)
        deal = deal_from_order(order, shaker, rules.draw_order, layout)
        return cls(rules, shaker, deal, widow_from_order(order, layout))

    # -- reading the state ---------------------------------------------------------------

    @property
    def bidder_team(self) -> int | None:
        """The bid winner's side (its team, or the seat itself where players score alone)."""
        return None if self.high_seat is None else self.layout.side_of[self.high_seat]

    @property
    def set_aside(self) -> int:
        """Tiles in play that nobody holds: face down all hand, never seen."""
        dealt = self.widow
        for mask in self.deal:
            dealt |= mask
        return self.layout.tiles & ~dealt

    @property
    def winning_call(self) -> Action | None:
        return None if self.high_id is None else ACTIONS[self.high_id]

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
        return HandResult(
            bidder=self.high_seat,
            bid=None if self.high_id is None else ACTIONS[self.high_id].notation,
            contract=str(self.contract) if self.contract is not None else None,
            declarer=self.declarer,
            tricks=len(self.tricks),
            points=self.points,
            made=None,
            score=(0,) * self.layout.sides,
        )

    def trump_description(self) -> str | None:
        """What is trump, in the words every seat's `View.trump` uses
        (`texas42.core.contracts.trump_description`)."""
        return trump_description(self.contract, self.tables)

    # -- changing the state --------------------------------------------------------------

    def apply(self, action: Action | int) -> None:
        """Take a legal action; an illegal one raises `IllegalActionError` and changes nothing."""
        aid = action if type(action) is int else _action_id(action)
        if not (0 <= aid < NUM_ACTIONS and self.legal_mask() >> aid & 1):
            raise IllegalActionError(self.why_illegal(aid) or "that action is not legal now")
        self._legal = -1
        phase = self.phase
        if phase == Phase.PLAY:
            self._history.append(_PlayRecord(self.tables, self.points, self.tricks_won))
            self._play(aid)
            return
        self._history.append(
            _StateRecord(
                phase,
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
                self.result,
                tuple(self.hands),
                len(self.calls),
                len(self.discards),
            )
        )
        if phase == Phase.AUCTION:
            self._call(aid)
        elif phase == Phase.DISCARD:
            self._discard(aid)
        else:
            self._declare(aid)

    def undo(self) -> None:
        """Take back the last action."""
        if not self._history:
            raise IllegalActionError("nothing to undo in this hand")
        record = self._history.pop()
        self._legal = -1
        if type(record) is _PlayRecord:
            self._unplay(record)
            return
        if type(record) is _ClaimRecord:
            self.points, self.tricks_won, self.result = record
            self.phase = Phase.PLAY
            self.claims.pop()
            return
        assert type(record) is _StateRecord
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
            self.result,
            hands,
            n_calls,
            n_discards,
        ) = record
        self.hands = list(hands)
        del self.calls[n_calls:]
        del self.discards[n_discards:]

    def _unplay(self, record: _PlayRecord) -> None:
        """Take back the last play: the seat takes its tile back, and a trick it completed is
        open again with the other tiles in it."""
        self.tables, self.points, self.tricks_won = record
        self.phase = Phase.PLAY
        self.result = None
        t = self.plays.pop()
        seat = self.turn = self.play_seats.pop()
        self.hands[seat] |= 1 << t
        if self.trick:
            self.trick.pop()
            self.trick_seats.pop()
            return
        trick = self.tricks.pop()
        self.trick = list(trick.tiles[:-1])
        self.trick_seats = list(trick.seats[:-1])
        self.trick_leader = trick.leader

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
        clone.claims = list(self.claims)
        clone._history = list(self._history)
        return clone

    def view(self, seat: int, score: tuple[int, ...] | None = None, hand_number: int = 1) -> View:
        """What one seat may know of this hand (see `texas42.core.view`): only the public events
        and the seat's own tiles go into it."""
        seats = self.layout.seats
        if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < seats):
            raise NotationError(f"a seat is 0..{seats - 1}, not {seat!r}")
        events: list[Event] = []
        contract = self.contract
        claims = self.claims
        hidden = self.tricks_hidden
        played = 0
        face_up = 0  # the seats whose hands lie face up, as seat bits
        for trick in self.tricks:
            if claims:
                face_up = self._claims_at(played, events, face_up)
            if hidden:
                own = trick.tiles[trick.seats.index(seat)] if seat in trick.seats else None
                shown = 0
                for s, t in zip(trick.seats, trick.tiles, strict=True):
                    if face_up >> s & 1:
                        shown |= 1 << t
                events.append(HiddenTrick(trick.winner, own, shown))
            else:
                events.extend(trick.tiles)
            played += len(trick.tiles)
        if claims:
            self._claims_at(played, events, face_up)
        if hidden and contract is not None and contract.kind == "by-lead" and self.tricks:
            # everyone saw the first lead name trump before its trick went face down
            contract = Contract("suit", HI[self.plays[0]])
        events.extend(self.trick)
        return build_view(
            self.rules,
            seat,
            hand_number,
            score or (0,) * self.layout.sides,
            self.shaker,
            self.first_bidder,
            self.deal[seat],
            self.calls,
            contract,
            events,
            self.seat_to_act(),
            self.widow if seat == self.declarer else 0,
            [t if seat == self.declarer else None for t in self.discards],
        )

    def _claims_at(self, played: int, events: list[Event], face_up: int) -> int:
        """Add the claims made after ``played`` tiles to a view's events; the seats face up.
        While the piles lie face down the points a claim credited stay hidden with them: the
        count left would tell the count in the face-down tricks."""
        hidden = self.tricks_hidden
        for at, claim in self.claims:
            if at == played:
                events.append(Claim(claim.seat, claim.tiles, claim.holds) if hidden else claim)
                face_up |= 1 << claim.seat
        return face_up

    # -- laying down ---------------------------------------------------------------------

    def why_claim_illegal(self, seat: int) -> str | None:
        """None when ``seat`` may lay its hand down and claim the rest now; else the reason.

        Only the seat to lead a trick may claim, in the play (the seat to act in the middle of a
        trick may not: the trick on the table would make "the rest" a different question). In
        Nel-O only the bidder claims, to take none of the rest, and only where one side plays
        against it (four seats, or two teams of three)."""
        layout = self.layout
        if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < layout.seats):
            return f"a seat is 0..{layout.seats - 1}, not {seat!r}"
        if not self.rules.claims:
            return "these rules do not allow laying down: every hand is played out"
        if self.phase == Phase.DONE:
            return "the hand is over"
        if self.phase != Phase.PLAY:
            return "a hand is laid down during the play, by the seat to lead a trick"
        who = layout.seat_names[seat]
        if self.trick or self.turn != seat:
            if self.trick:
                return f"{who} may lay down only when leading a trick, not in the middle of one"
            return f"{who} may lay down only when leading; {layout.seat_names[self.turn]} leads"
        if self.contract is not None and self.contract.kind == "nello":
            if seat != self.high_seat:
                return "in Nel-O only the bidder may lay down, to take none of the rest"
            if layout.sides > 2:
                return "at this table a Nel-O bidder may not lay down: no one side takes the rest"
        return None

    def can_claim(self, seat: int) -> bool:
        return self.why_claim_illegal(seat) is None

    def claim(self, seat: int) -> Claim:
        """``seat`` lays its hand down and claims the rest: its side takes every remaining trick
        (in Nel-O, the bidder takes none). The verdict is exact (`texas42.core.claims`).

        A claim that holds ends the hand, scored as if played out: the claimant's side takes the
        tricks left and their count (in Nel-O the defenders do). One that fails leaves the hand
        face up in every view for the rest of the hand and play goes on, or under
        ``false_claim=set`` ends the hand lost for the claimant's side (the defenders take the
        rest; a bidder's side is set, a defenders' false claim makes the bid). An illegal claim
        raises `IllegalActionError` and changes nothing. Undo takes a claim back like an action.
        """
        holds = self.judge_claim(seat)
        layout = self.layout
        assert self.contract is not None and self.high_seat is not None
        nello = self.contract.kind == "nello"
        side = layout.side_of[seat]
        record = _ClaimRecord(self.points, self.tricks_won, self.result)
        ends = holds or self.rules.false_claim == "set"
        value = 0
        if ends:
            takers = side_taking_rest(layout, seat, self.out_seat, holds and not nello)
            value = self._credit_rest(takers)
        claim = Claim(seat, self.hands[seat], holds, value)
        self._history.append(record)
        self.claims.append((len(self.plays), claim))
        self._legal = -1
        if ends:
            if holds:
                made = self._bid_decided(seat)
                assert made is not None  # every trick is accounted for
            else:
                made = side != layout.side_of[self.high_seat]
            self._finish(made, claimant=seat, claimed=layout.tricks - len(self.tricks))
        return claim

    def judge_claim(self, seat: int) -> bool:
        """Whether a claim by ``seat`` would hold, without making it (`claim` makes it); an
        illegal claim raises `IllegalActionError`. The verdict is remembered for the position
        (`texas42.core.claims.claim_holds`), so judging it on a copy first costs `claim` nothing."""
        reason = self.why_claim_illegal(seat)
        if reason is not None:
            raise IllegalActionError(reason)
        layout = self.layout
        assert self.contract is not None
        side = layout.side_of[seat]
        claimers = sum(
            1 << s for s in range(layout.seats) if layout.side_of[s] == side and s != self.out_seat
        )
        return claim_holds(
            self.rules,
            self.contract,
            self.tables,
            self.hands,
            seat,
            self.out_seat,
            claimers,
            self.contract.kind != "nello",
            not self.tricks,
        )

    def _credit_rest(self, side: int) -> int:
        """Give ``side`` every trick not yet played and the count still in the hands of the
        seats that play (what playing them out would show); the points credited."""
        layout = self.layout
        left = layout.tricks - len(self.tricks)
        live = 0
        for s, held in enumerate(self.hands):
            if s != self.out_seat:
                live |= held
        value = left * layout.trick_points + (count_points(live) if layout.count else 0)
        points, won = list(self.points), list(self.tricks_won)
        points[side] += value
        won[side] += left
        self.points, self.tricks_won = tuple(points), tuple(won)
        return value

    @property
    def face_up(self) -> tuple[int, ...]:
        """Each seat's tiles lying face up since it laid its hand down; 0 for a hidden hand."""
        shown = [0] * self.layout.seats
        for _, claim in self.claims:
            shown[claim.seat] = self.hands[claim.seat]
        return tuple(shown)

    def parse_action(self, text: str) -> Action:
        """Read an action as the phase expects it: a call, a contract or a tile."""
        if self.phase == Phase.AUCTION:
            return parse_call(text, self.rules)
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
        if not auction_over(layout, len(self.calls), self.high_id):
            self.turn = (seat + 1) % layout.seats
            return
        if self.high_id is None or self.high_seat is None:
            self.phase = Phase.DONE
            zeros = (0,) * layout.sides
            self.result = HandResult(None, None, None, None, 0, zeros, False, zeros)
            return
        declarer = self.declarer = self.turn = declarer_of(layout, self.high_id, self.high_seat)
        if self.widow:
            self.hands[declarer] |= self.widow
            self.phase = Phase.DISCARD
        else:
            self.phase = Phase.DECLARE

    def _discard(self, aid: int) -> None:
        t = aid - DISCARD_BASE
        self.hands[self.turn] ^= 1 << t
        self.discards.append(t)
        if len(self.discards) == self.layout.widow:
            self.phase = Phase.DECLARE

    def _legal_calls(self) -> int:
        return legal_calls(
            self.rules, len(self.calls), self.high_seat, self.high_value, self.hands[self.turn]
        )

    def _legal_discards(self) -> int:
        return self.hands[self.turn] << DISCARD_BASE

    # -- the declaration -----------------------------------------------------------------

    def _legal_declarations(self) -> int:
        assert self.high_id is not None
        return legal_declarations(self.rules, self.high_id, self.bid_marks)

    def _declare(self, aid: int) -> None:
        declaration = ACTIONS[aid]
        assert isinstance(declaration, Declare)
        contract = declaration.contract
        self.contract = contract
        if contract.kind != "by-lead":
            self.tables = tables_for(contract, self.rules)
        self.out_seat = sitting_out(self.layout, contract, self.turn)
        self.trick_size = trick_size(self.layout, self.out_seat)
        self.phase = Phase.PLAY
        self.trick_leader = self.turn

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
            self.turn = next_player(layout.seats, seat, self.out_seat)
            return
        trick = take_trick(layout, tables, tuple(self.trick_seats), tuple(self.trick))
        self.tricks.append(trick)
        self.points, self.tricks_won = add_trick(
            layout, self.points, self.tricks_won, trick.winner, trick.points
        )
        self.trick = []
        self.trick_seats = []
        self.trick_leader = self.turn = trick.winner
        made = self._bid_decided(trick.winner)
        if made is not None:
            self._finish(made)

    def _bid_decided(self, last_winner: int) -> bool | None:
        """`bid_decided` for this hand's contract and the tricks taken so far."""
        assert self.high_seat is not None and self.contract is not None
        return bid_decided(
            self.rules,
            self.contract,
            self.high_seat,
            self.bid_marks,
            self.high_value,
            self.points,
            self.tricks_won,
            last_winner,
        )

    def _finish(self, made: bool, claimant: int | None = None, claimed: int = 0) -> None:
        assert self.high_id is not None and self.high_seat is not None
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
            claimant=claimant,
            claimed=claimed,
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
            return why_call_illegal(
                self.rules, aid, who, self.high_id, self.high_value, self.hands[self.turn]
            )
        if self.phase != Phase.DECLARE:
            return "the contract is named after the auction, by the declarer"
        assert self.high_id is not None  # the declaration phase follows a winning bid
        return why_declaration_illegal(self.rules, aid, self.high_id, self.bid_marks)

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


def _action_id(action: object) -> int:
    if isinstance(action, Action):
        return action.id
    if isinstance(action, int) and not isinstance(action, bool):
        return action
    raise IllegalActionError(f"not an action: {action!r}")
