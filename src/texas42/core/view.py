"""What one seat may know: its own tiles and everything public, never a tile it could not see.

A `View` is built from public events only (the calls, the contract, the tiles played face up, the
winners of tricks whose piles lie face down) plus the seat's own dealt tiles, by `build_view`.
`Hand.view` and the seat-view position string (`texas42.core.notation`) both go through it, so a
view can only contain what those inputs carry: changing tiles hidden from the seat cannot change
it. A ``by-lead`` contract whose first trick lies face down shows as the suit its first lead named,
as every seat saw. The auction and the tricks are replayed by the same rules `Hand` plays by
(`texas42.core.auction`, `texas42.core.progress`).

>>> import random
>>> from texas42 import Hand, Rules
>>> hand = Hand.random(Rules(), shaker=0, rng=random.Random(7))
>>> view = hand.view(1)  # East, left of the shaker, bids first
>>> view.turn, view.hand == hand.hands[1], list(view.legal) == hand.legal_actions()
(1, True, True)
>>> hand.view(2).legal  # South waits its turn
()
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from texas42.core.actions import (
    ACTIONS,
    DISCARD_BASE,
    MOON_ID,
    PASS_ID,
    Action,
    Declare,
    actions_in,
)
from texas42.core.auction import call_value, legal_calls, legal_declarations
from texas42.core.claims import side_taking_rest
from texas42.core.contracts import (
    Contract,
    PlayTables,
    holding_order,
    legal_plays,
    tables_for,
    trump_description,
)
from texas42.core.errors import NotationError
from texas42.core.layout import Layout, layout_of
from texas42.core.progress import (
    Phase,
    Trick,
    add_trick,
    auction_over,
    declarer_of,
    next_player,
    sitting_out,
    take_trick,
    trick_size,
)
from texas42.core.rules import Rules, piles_face_down
from texas42.core.tiles import DOUBLES, TILE_NAMES, mask_of


@dataclass(frozen=True, slots=True)
class HiddenTrick:
    """A won trick lying face down: who won it, and the tile this seat put in it (if it played).

    ``shown`` is the mask of the tiles in it that came from a hand lying face up after a claim
    (`Claim`): every seat saw them leave that hand, so they are public."""

    winner: int
    mine: int | None
    shown: int = 0


@dataclass(frozen=True, slots=True)
class Claim:
    """A seat on lead laid its hand down and claimed the rest (`texas42.core.hand.Hand.claim`):
    the tiles it showed to every seat, and whether the claim held. A claim that holds ends the
    hand; one that fails leaves the hand face up for the rest of the hand (or, under
    ``false_claim=set``, ends the hand too)."""

    seat: int
    tiles: int
    holds: bool
    points: int = 0
    """What the tricks left were worth, credited with them when the claim ends the hand (the
    count those tricks would have shown had they been played out); 0 when play goes on."""


@dataclass(frozen=True, slots=True)
class TrickView:
    """A completed trick as the seat sees it; ``tiles`` and ``points`` are None when face down."""

    leader: int
    seats: tuple[int, ...]
    winner: int
    tiles: tuple[int, ...] | None
    points: int | None
    mine: int | None


Event = int | HiddenTrick | Claim
"""A tile played face up, a whole trick lying face down, or a hand laid down."""


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
    face_up: tuple[int, ...]
    """Each seat's tiles lying face up for every seat to see since it laid its hand down
    (`Claim`); 0 for a seat whose hand is hidden."""

    @property
    def piles_face_down(self) -> bool:
        return self.contract is not None and piles_face_down(self.rules, self.bid_marks)

    @property
    def layout(self) -> Layout:
        return layout_of(self.rules)

    def tiles_in_order(self) -> tuple[int, ...]:
        """The seat's tiles as a player holds them: as dealt during the auction, grouped by the
        contract once it is named, trumps first (`texas42.core.contracts.holding_order`)."""
        return self.in_holding_order(self.hand)

    def in_holding_order(self, tiles: int) -> tuple[int, ...]:
        """Any tiles (a mask: the seat's own, a hand laid face up) in the order a player holds
        them under this view's contract."""
        first_lead = None
        if self.tricks and self.tricks[0].tiles is not None:
            first_lead = self.tricks[0].tiles[0]
        elif not self.tricks and self.trick:
            first_lead = self.trick[0][1]
        return holding_order(self.rules, self.contract, tiles, first_lead)

    @property
    def discarded(self) -> int:
        """The mask of the discards this seat saw (its own)."""
        return mask_of([t for t in self.discards if t is not None])


def turned_up(view: View, tricks: Sequence[Trick]) -> View:
    """A finished hand's view with its face-down piles turned up, as a table does once the hand
    is over: ``tricks`` are the hand's tricks (`Hand.tricks`), each tile of which every seat saw
    face up when it was played. Only tricks played are shown, never a tile still held (a hand
    set or made before its last trick), and the points are those tricks' count. The ``events``
    stay as the seat saw them during play, so a position string of the view is unchanged.

    Raises ValueError for a hand not over, or for tricks that are not the view's.

    >>> import random
    >>> from texas42.core.hand import Hand
    >>> hand = Hand.random(Rules(), 3, random.Random(1))
    >>> for call in ("2m", "pass", "pass", "pass", "sixes"):
    ...     hand.apply(hand.parse_action(call))
    >>> while hand.result is None:
    ...     hand.apply(hand.legal_actions()[0])
    >>> view = hand.view(1)
    >>> view.points, view.tricks[0].tiles
    (None, None)
    >>> shown = turned_up(view, hand.tricks)
    >>> shown.points == hand.points, shown.tricks[0].tiles == hand.tricks[0].tiles
    (True, True)
    """
    if view.phase != Phase.DONE:
        raise ValueError("piles are turned up once the hand is over, not during it")
    if len(tricks) != len(view.tricks):
        raise ValueError(f"the view holds {len(view.tricks)} tricks, not {len(tricks)}")
    if view.points is not None:
        return view
    shown = []
    points = won = (0,) * view.layout.sides
    for seen, trick in zip(view.tricks, tricks, strict=True):
        if (seen.leader, seen.seats, seen.winner) != (trick.leader, trick.seats, trick.winner):
            raise ValueError("these tricks are not the ones the view saw")
        if seen.mine is not None and seen.mine != trick.tiles[trick.seats.index(view.seat)]:
            raise ValueError("these tricks are not the ones the view saw")
        points, won = add_trick(view.layout, points, won, trick.winner, trick.points)
        shown.append(replace(seen, tiles=trick.tiles, points=trick.points))
    return replace(view, tricks=tuple(shown), points=points)


class _Auction(NamedTuple):
    """The auction as the public calls give it."""

    high_id: int | None
    high_seat: int | None
    high_value: int
    bid_marks: int
    over: bool
    declarer: int | None


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
    if len(score) != layout.sides:
        raise NotationError(
            f"a score has {layout.sides} entries under these rules, not {len(score)}"
        )
    auction = _replay_auction(rules, seat, first_bidder, dealt, calls)
    declarer = auction.declarer
    took_widow = declarer is not None and layout.widow > 0
    own_discards = _check_widow(layout, seat, declarer, dealt, widow, discards)
    discarding = took_widow and len(discards) < layout.widow
    out_seat = _check_contract(rules, auction, contract, discarding, bool(events))
    held = dealt | widow
    play = None
    if contract is not None and declarer is not None:
        play = _replay_play(rules, seat, contract, declarer, out_seat, held, own_discards, events)
        if play.mine & ~held:
            raise NotationError("the seat played a tile it was not dealt")
    expected = _to_act(layout, first_bidder, len(calls), auction, play, out_seat)
    ended = expected is None or (
        play is not None and (play.over or (bool(play.tricks) and not play.trick_tiles))
    )
    if turn != expected and not (turn is None and ended):
        given, actual = ("end" if s is None else f"seat {s}" for s in (turn, expected))
        raise NotationError(f"{actual} is to act here, not {given}")
    if turn is None:
        phase = Phase.DONE
    elif not auction.over:
        phase = Phase.AUCTION
    elif discarding:
        phase = Phase.DISCARD
    elif contract is None:
        phase = Phase.DECLARE
    else:
        phase = Phase.PLAY
    hand = held & ~(play.mine if play is not None else own_discards)
    legal_mask = 0
    if turn == seat:
        legal_mask = _legal_mask(rules, phase, auction, len(calls), hand, play)
    trump = trump_description(contract, play.tables if play is not None else None)
    played = play.played if play is not None else (0,) * layout.seats
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
        bidder=auction.high_seat,
        bid=None if auction.high_id is None else ACTIONS[auction.high_id],
        bid_marks=auction.bid_marks,
        declarer=declarer,
        out_seat=out_seat,
        trump=trump,
        tricks=tuple(play.tricks) if play is not None else (),
        trick=tuple(zip(play.trick_seats, play.trick_tiles, strict=True))
        if play is not None
        else (),
        tiles_left=tuple(
            layout.hand_size
            - n
            + (layout.widow - len(discards) if s == declarer and took_widow else 0)
            for s, n in enumerate(played)
        ),
        points=(
            None
            if piles_face_down(rules, auction.bid_marks)
            else (play.points if play is not None else (0,) * layout.sides)
        ),
        tricks_won=play.won if play is not None else (0,) * layout.sides,
        voids=tuple(play.voids) if play is not None else (0,) * layout.seats,
        legal=actions_in(legal_mask),
        face_up=tuple(play.face_up) if play is not None else (0,) * layout.seats,
    )


def _replay_auction(
    rules: Rules, seat: int, first_bidder: int, dealt: int, calls: Sequence[int]
) -> _Auction:
    """The high bid, its seat and value, and the declarer once the calls end the auction."""
    layout = rules.layout
    seats = layout.seats
    if len(calls) > seats:
        raise NotationError(f"an auction has at most {seats} calls")
    high_id: int | None = None
    high_seat: int | None = None
    high_value, bid_marks = 0, 0
    for i, aid in enumerate(calls):
        if high_id == MOON_ID:
            raise NotationError(
                f"call {i + 1} follows a bid to shoot the moon, which ends the auction"
            )
        caller = (first_bidder + i) % seats
        # another seat's plunge or splash is judged as if it held every double it might hold
        holding = dealt if caller == seat else DOUBLES
        if not legal_calls(rules, i, high_seat, high_value, holding) >> aid & 1:
            raise NotationError(f"call {i + 1} ({ACTIONS[aid]}) is not legal there")
        if aid == PASS_ID:
            continue
        high_id, high_seat = aid, caller
        bid_marks, high_value = call_value(rules, aid, high_value)
    over = auction_over(layout, len(calls), high_id)
    declarer = None
    if over and high_id is not None and high_seat is not None:
        declarer = declarer_of(layout, high_id, high_seat)
    return _Auction(high_id, high_seat, high_value, bid_marks, over, declarer)


def _check_widow(
    layout: Layout,
    seat: int,
    declarer: int | None,
    dealt: int,
    widow: int,
    discards: Sequence[int | None],
) -> int:
    """The mask of the seat's own discards, once the widow and the discards fit who took it."""
    took_widow = declarer is not None and layout.widow > 0
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
    mine = mask_of(own_discards)
    if len(set(own_discards)) != len(own_discards) or mine & ~(dealt | widow):
        raise NotationError("the bid winner discards tiles from its hand and the widow, once each")
    return mine


def _check_contract(
    rules: Rules, auction: _Auction, contract: Contract | None, discarding: bool, played: bool
) -> int | None:
    """The seat sitting out, once the contract fits the auction and comes before any play."""
    if contract is not None and auction.declarer is None:
        raise NotationError("a contract needs a finished auction with a bid")
    if contract is not None and discarding:
        raise NotationError("trump is named after the discards")
    if contract is not None and auction.high_id is not None:
        named = Declare(contract).id
        if not legal_declarations(rules, auction.high_id, auction.bid_marks) >> named & 1:
            raise NotationError(
                f"{contract} cannot be named after {ACTIONS[auction.high_id]} under these rules"
            )
    if played and contract is None:
        raise NotationError("tiles are played only after the contract is named")
    if contract is None or auction.declarer is None:
        return None
    return sitting_out(rules.layout, contract, auction.declarer)


def _replay_play(
    rules: Rules,
    seat: int,
    contract: Contract,
    declarer: int,
    out_seat: int | None,
    held: int,
    mine: int,
    events: Sequence[Event],
) -> _Play:
    """Walk the tricks as the seat saw them: who played what, who won, and the voids shown.

    ``held`` is every tile the seat had (its hand and any widow), ``mine`` those it has laid down
    already (its discards).
    """
    play = _Play(rules, seat, contract, declarer, out_seat, held, mine)
    hidden_trick, face_up_play = play.hidden_trick, play.face_up_play
    in_play, seen = rules.layout.tiles, mine
    for event in events:
        shown = (
            None
            if isinstance(event, Claim)
            else event.mine
            if isinstance(event, HiddenTrick)
            else event
        )
        if shown is not None:  # every tile the seat saw, face up or its own face down, once
            if not in_play >> shown & 1:
                raise NotationError(f"{TILE_NAMES[shown]} is not in play under these rules")
            if seen >> shown & 1:
                raise NotationError(f"{TILE_NAMES[shown]} is played twice")
            seen |= 1 << shown
        if play.over:
            raise NotationError("nothing is played after a claim that ends the hand")
        if isinstance(event, HiddenTrick):
            hidden_trick(event)
        elif isinstance(event, Claim):
            if event.tiles & seen:
                raise NotationError("a hand laid down shows only tiles not yet played")
            play.claim(event)
        else:
            face_up_play(event)
    return play


class _Play:
    """The play as the seat saw it (the tricks, the one in progress, and what they tell),
    replayed one public event at a time, each checked against what came before.

    A face-down trick and a face-up tile tell the seat different things (a winner and its own
    tile; a tile, its player and any void shown), so each has its own step. The trick in
    progress is kept as its seats and its tiles, the two ways it is read.
    """

    __slots__ = (
        "contract",
        "exposed",
        "face_up",
        "held",
        "layout",
        "leader",
        "mine",
        "out_seat",
        "over",
        "played",
        "points",
        "rules",
        "seat",
        "size",
        "tables",
        "trick_seats",
        "trick_tiles",
        "tricks",
        "voids",
        "won",
    )

    def __init__(
        self,
        rules: Rules,
        seat: int,
        contract: Contract,
        declarer: int,
        out_seat: int | None,
        held: int,
        mine: int,
    ) -> None:
        layout = rules.layout
        self.rules = rules
        self.layout = layout
        self.seat = seat
        self.contract = contract
        self.out_seat = out_seat
        self.held = held
        self.size = trick_size(layout, out_seat)
        self.tables: PlayTables | None = (
            None if contract.kind == "by-lead" else tables_for(contract, rules)
        )
        self.leader = declarer
        self.trick_seats: list[int] = []
        self.trick_tiles: list[int] = []
        self.tricks: list[TrickView] = []
        self.points = self.won = (0,) * layout.sides
        self.played = [0] * layout.seats
        self.voids = [0] * layout.seats
        self.mine = mine
        self.face_up = [0] * layout.seats
        self.exposed = 0
        """Every tile lying face up in a hand laid down, all such hands together."""
        self.over = False
        """Whether a claim ended the hand."""

    def claim(self, event: Claim) -> None:
        """A seat on lead laid its hand down: its tiles lie face up from now on, checked against
        what the seat still holds as far as this seat can tell."""
        layout, claimant = self.layout, event.seat
        if not 0 <= claimant < layout.seats:
            raise NotationError(f"a hand is laid down by a seat 0..{layout.seats - 1}")
        if self.trick_tiles or claimant != self.leader:
            raise NotationError("only the seat to lead a trick may lay its hand down")
        if event.tiles & ~layout.tiles:
            raise NotationError("a hand laid down holds only tiles in play")
        if event.tiles.bit_count() != layout.hand_size - self.played[claimant]:
            raise NotationError("a hand laid down shows every tile its seat still holds")
        if claimant == self.seat and event.tiles != self.held & ~self.mine:
            raise NotationError("the seat laid down tiles it does not hold")
        if claimant != self.seat and event.tiles & self.held:
            raise NotationError("a hand laid down shows this seat's own tile")
        for s, tiles in enumerate(self.face_up):
            if s != claimant and tiles & event.tiles:
                raise NotationError("a hand laid down shows a tile of another face-up hand")
        self.face_up[claimant] = event.tiles
        self.exposed |= event.tiles
        self.over = event.holds or self.rules.false_claim == "set"
        if self.over:  # the tricks left go to one side, as `Hand.claim` credits them
            nello = self.contract.kind == "nello"
            side = side_taking_rest(layout, claimant, self.out_seat, event.holds and not nello)
            left = layout.tricks - len(self.tricks)
            points, won = list(self.points), list(self.won)
            points[side] += event.points
            won[side] += left
            self.points, self.won = tuple(points), tuple(won)

    def _shown_play(self, player: int, tile: int, tables: PlayTables) -> None:
        """A tile from a hand lying face up: every seat checks it came from that hand, legally."""
        if not self.exposed:
            return
        shown = self.face_up[player]
        if not shown:
            if self.exposed >> tile & 1:
                raise NotationError(f"{TILE_NAMES[tile]} lies face up in another seat's hand")
            return
        if not shown >> tile & 1:
            raise NotationError(f"{TILE_NAMES[tile]} is not in seat {player}'s face-up hand")
        legal = legal_plays(self.rules, tables, shown, self.trick_tiles, not self.tricks)
        if not legal >> tile & 1:
            raise NotationError(f"{TILE_NAMES[tile]} was not a legal play from the face-up hand")
        self.face_up[player] = shown & ~(1 << tile)
        self.exposed &= ~(1 << tile)

    def hidden_trick(self, event: HiddenTrick) -> None:
        """A whole trick lying face down: its seats in turn from the leader, its winner, and the
        seat's own tile in it, if it played; its points stay hidden with the pile."""
        if self.trick_tiles:
            raise NotationError("a face-down trick cannot start in the middle of a trick")
        if self.tables is None:
            raise NotationError("a by-lead trump cannot be read from a face-down trick")
        seats = self.layout.seats
        in_trick = [self.leader]
        while len(in_trick) < self.size:
            in_trick.append(next_player(seats, in_trick[-1], self.out_seat))
        for s in in_trick:
            self.played[s] += 1
        if (event.mine is None) == (self.seat in in_trick):
            raise NotationError("a face-down trick must give this seat's own tile, if it played")
        if event.mine is not None:
            self.mine |= 1 << event.mine
        if not 0 <= event.winner < seats:
            raise NotationError(f"a face-down trick is won by a seat 0..{seats - 1}")
        shown = event.shown
        for s in in_trick:
            if self.face_up[s]:
                own = shown & self.face_up[s]
                if own.bit_count() != 1:
                    raise NotationError("a face-down trick shows one tile of each face-up hand")
                self.face_up[s] ^= own
                self.exposed ^= own
                shown ^= own
        if shown:
            raise NotationError("a face-down trick shows only tiles of face-up hands")
        # it counts as a trick won, for no points
        self.points, self.won = add_trick(self.layout, self.points, self.won, event.winner, 0)
        self.tricks.append(
            TrickView(self.leader, tuple(in_trick), event.winner, None, None, event.mine)
        )
        self.leader = event.winner

    def face_up_play(self, tile: int) -> None:
        """One tile played face up by the seat whose turn it is: a legal play if it is this
        seat's, a void shown if it does not follow, and the trick taken once it is full."""
        seats, tiles, seat = self.trick_seats, self.trick_tiles, self.seat
        player = next_player(self.layout.seats, seats[-1], self.out_seat) if seats else self.leader
        tables = self.tables
        if tables is None:
            tables = self.tables = tables_for(self.contract, self.rules, first_lead=tile)
        if player != seat and self.held >> tile & 1:
            raise NotationError(f"{TILE_NAMES[tile]} is this seat's tile, played by seat {player}")
        self._shown_play(player, tile, tables)
        if player == seat and (self.held & ~self.mine) >> tile & 1:
            own = legal_plays(self.rules, tables, self.held & ~self.mine, tiles, not self.tricks)
            if not own >> tile & 1:
                raise NotationError(f"{TILE_NAMES[tile]} was not a legal play for this seat")
        seats.append(player)
        tiles.append(tile)
        self.played[player] += 1
        if player == seat:
            self.mine |= 1 << tile
        if len(tiles) > 1 and not tables.sevens:
            led = tables.led[tiles[0]]
            if not tables.follows(tile, led):
                self.voids[player] |= 1 << led
        if len(tiles) == self.size:
            layout = self.layout
            taken = take_trick(layout, tables, tuple(seats), tuple(tiles))
            self.points, self.won = add_trick(
                layout, self.points, self.won, taken.winner, taken.points
            )
            theirs = tiles[seats.index(seat)] if seat in seats else None
            self.tricks.append(
                TrickView(self.leader, taken.seats, taken.winner, taken.tiles, taken.points, theirs)
            )
            self.leader = taken.winner
            self.trick_seats, self.trick_tiles = [], []


def _to_act(
    layout: Layout,
    first_bidder: int,
    calls: int,
    auction: _Auction,
    play: _Play | None,
    out_seat: int | None,
) -> int | None:
    """The seat whose turn the public events give: None once a bidless auction ends."""
    if not auction.over:
        return (first_bidder + calls) % layout.seats
    if auction.declarer is None:
        return None
    if play is None:
        return auction.declarer
    if play.trick_seats:
        return next_player(layout.seats, play.trick_seats[-1], out_seat)
    return play.leader


def _legal_mask(
    rules: Rules, phase: Phase, auction: _Auction, calls: int, hand: int, play: _Play | None
) -> int:
    """The actions the seat to act may take, as a mask of action ids."""
    if phase == Phase.AUCTION:
        return legal_calls(rules, calls, auction.high_seat, auction.high_value, hand)
    if phase == Phase.DISCARD:
        return hand << DISCARD_BASE
    if phase == Phase.DECLARE and auction.high_id is not None:
        return legal_declarations(rules, auction.high_id, auction.bid_marks)
    if phase == Phase.PLAY and play is not None:
        return legal_plays(rules, play.tables, hand, play.trick_tiles, not play.tricks)
    return 0
