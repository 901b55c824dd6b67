"""RulesBot: a rule-of-thumb player: bid what the hand is worth, pull trumps with the top trump,
take tricks worth taking, give count to a partner who holds the trick, duck in Nel-O.

It plays every table size: seats, sides and the hand's total come from the rules' `Layout`. In a
hand the bid winner's side plays against every other side together, so "partner" below means
any seat on the same side of that line (in Moon, where each player scores alone, only itself).

It reads only its seat's `View` and asks every rule question of the contract's play tables
(`texas42.core.contracts`), so it never plays a rule of its own; it has no memory and no randomness,
so the same view always gets the same answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from texas42.core.actions import ACTIONS, Action, Bid, Declare, Discard, Pass, Play
from texas42.core.auction import legal_declarations, plain_contracts
from texas42.core.contracts import TRUMP, Contract, PlayTables, tables_for
from texas42.core.errors import IllegalActionError
from texas42.core.layout import Layout, layout_of
from texas42.core.progress import Phase, next_player, trick_size
from texas42.core.rules import FOUR_SEATS, Rules
from texas42.core.tiles import (
    COUNT_TILES,
    COUNT_VALUE,
    DOUBLES,
    HI,
    PIPS,
    count_points,
    iter_tiles,
)
from texas42.core.view import View
from texas42.core.words import contract_words, count_words, trumps_out_words, worth_words
from texas42.players.explain import only_choice, rules_reason, unseen
from texas42.players.reasons import Decision

Ruled = tuple[Action, str, tuple[str, ...]]
"""A RulesBot decision: the action, the rule of thumb that chose it (a key of
`texas42.core.words.RULES_OF_THUMB`, or ``only``) and the facts that fired it."""

MARGIN_WITH_PARTNERS = 0.8
"""Off the four-seat table, how many tricks' worth of count (the count in play over the tricks)
a bidder with partners (six-hand) holds back from its estimate when it bids (see `_worth`)."""
MARGIN_ALONE = 1.0
"""The same for a bid winner who plays alone (three-, five- and seven-hand): nobody covers its
losers."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """What a hand is worth to its holder declaring one contract and leading."""

    points: float
    """The points the bidding team takes on average with such a hand (partner unseen)."""
    losers: int
    """Tiles likely to lose a trick, when the defenders hold the outstanding trumps that hurt most
    (the best two thirds of them)."""
    sure: bool
    """All seven tricks are certain: the top trumps draw every outstanding trump and every other
    tile is the best left of its suit."""


def estimate(hand: int, tables: PlayTables, layout: Layout = FOUR_SEATS) -> Estimate:
    """Value a hand for a trump-or-suit contract at a table of ``layout``.

    On four seats ``points`` is a least-squares fit of the points RulesBot teams took in 8000
    self-played hands (all seven tricks) on the features below; it misses by about 9.5 points
    either way, mostly the partner's tiles, so a bid wants a margin. Other tables have no fit:
    see `_table_points`.
    """
    unseen = layout.tiles & ~hand
    rank = tables.power[TRUMP]
    ours = sorted(iter_tiles(hand & tables.trump_mask), key=rank.__getitem__, reverse=True)
    theirs = sorted(iter_tiles(unseen & tables.trump_mask), key=rank.__getitem__, reverse=True)
    top = sum(1 for t in ours if not theirs or rank[t] > rank[theirs[0]])
    # the defenders hold their share of the outstanding trumps, the best ones, and each hand
    # of theirs follows every trump trick while it can
    hands = layout.seats - layout.side_size
    held = hands * layout.hand_size
    defenders = theirs[: -(-len(theirs) * held // max(unseen.bit_count(), 1))]
    lost = 0
    left = list(ours)
    while left and defenders:
        if rank[left[0]] > rank[defenders[0]]:
            left.pop(0)
            del defenders[max(0, len(defenders) - hands) :]
        else:
            left.pop()
            lost += 1
            defenders.pop(0)
            del defenders[max(0, len(defenders) - hands + 1) :]
    off = hand & ~tables.trump_mask
    winners = [t for t in iter_tiles(off) if _best_left(t, tables.led[t], tables, unseen)]
    winning_doubles = sum(1 for t in winners if DOUBLES >> t & 1)
    safe_count = count_points(hand & tables.trump_mask) + sum(COUNT_VALUE[t] for t in winners)
    losing_count = count_points(off) - sum(COUNT_VALUE[t] for t in winners)
    losers = lost + off.bit_count() - len(winners) + min(len(winners), len(defenders))
    sure = top >= len(theirs) and len(winners) == off.bit_count()
    if layout != FOUR_SEATS:
        points = _table_points(hand, losers, safe_count, unseen, layout)
        return Estimate(min(points, layout.total), losers, sure)
    points = (
        9.5
        + 4 * len(ours)
        + top
        + 3 * winning_doubles
        + 0.5 * (len(winners) - winning_doubles)
        + safe_count / 3
        - losing_count / 10
    )
    return Estimate(min(points, layout.total), losers, sure)


def _table_points(hand: int, losers: int, safe_count: int, unseen: int, layout: Layout) -> float:
    """The points a bidding side takes off the four-seat table, where no fit exists: the tricks
    the hand does not lose, each partner's fair share of the rest, the count in the hand's sure
    winners, and of the count in the other hands the share of the tricks the side takes.

    With a widow just taken the hand holds a tile more than the tricks: the extra one goes in
    the discard.
    """
    tricks = layout.tricks
    won = max(0, min(tricks, hand.bit_count() - losers))
    partners = layout.side_size - 1
    taken = won + (tricks - won) * partners / (layout.seats - 1)
    points = layout.trick_points * taken
    if layout.count:
        in_hands = (layout.seats - 1) * layout.hand_size / max(unseen.bit_count(), 1)
        others = count_points(unseen & COUNT_TILES) * min(in_hands, 1.0)
        points += safe_count + others * taken / tricks
    return points


def _best_left(t: int, suit: int, tables: PlayTables, unseen: int) -> bool:
    """Whether no outstanding tile following ``suit`` outranks ``t`` in it."""
    power = tables.power[suit]
    return all(power[x] < power[t] for x in iter_tiles(unseen & tables.follow[suit]))


def nello_risk(hand: int, tables: PlayTables, layout: Layout = FOUR_SEATS) -> int:
    """How many times the defenders could force a Nel-O bidder holding ``hand`` to take a trick.

    The bidder leads only the first trick (taking none, it never leads again), so it needs one tile
    every outstanding follower beats; after that, in each suit the defenders lead their lowest
    tiles and the bidder follows with its lowest, and each time its tile is the higher one it is
    caught.
    """
    unseen = layout.tiles & ~hand
    risk = 0 if any(_all_beat(t, tables, unseen) for t in iter_tiles(hand)) else 1
    for suit, follow in enumerate(tables.follow):
        power = tables.power[suit]
        mine = sorted(power[t] for t in iter_tiles(hand & follow))
        leads = sorted(power[x] for x in iter_tiles(unseen & follow) if tables.led[x] == suit)
        risk += sum(1 for m, lead in zip(mine, leads) if m > lead)
    return risk


def _all_beat(t: int, tables: PlayTables, unseen: int) -> bool:
    suit = tables.led[t]
    power = tables.power[suit]
    followers = list(iter_tiles(unseen & tables.follow[suit]))
    return len(followers) >= 2 and all(power[x] > power[t] for x in followers)


def sevens_sure(hand: int, layout: Layout = FOUR_SEATS) -> bool:
    """Whether leading every trick wins it in Sevens whoever holds the other tiles: the bidder's
    i-th closest tile is never farther from 7 than the i-th closest outstanding one."""
    distance = [abs(PIPS[t] - 7) for t in range(len(PIPS))]
    ours = sorted(distance[t] for t in iter_tiles(hand))
    theirs = sorted(distance[t] for t in iter_tiles(layout.tiles & ~hand))
    return all(d <= u for d, u in zip(ours, theirs))


def _suit_contracts(rules: Rules) -> list[Contract]:
    """The contracts a plain bid lets its winner name, Nel-O, Sevens and by-lead aside."""
    mask = legal_declarations(rules, Bid(rules.min_bid).id, 0)
    return [
        a.contract
        for a in ACTIONS
        if mask >> a.id & 1
        and isinstance(a, Declare)
        and a.contract.kind in ("suit", "doubles", "follow-me")
    ]


def best_contract(hand: int, rules: Rules) -> tuple[Contract, Estimate]:
    """The trump, doubles or follow-me contract this hand is worth most under."""
    best: tuple[Contract, Estimate] | None = None
    layout = layout_of(rules)
    for contract in _suit_contracts(rules):
        value = estimate(hand, tables_for(contract, rules), layout)
        if best is None or (value.sure, value.points) > (best[1].sure, best[1].points):
            best = (contract, value)
    assert best is not None, "every rule set offers the seven suits"
    return best


def _nello_declarations(rules: Rules, hand: int, marks: int) -> list[tuple[int, Declare]]:
    """The Nel-O declarations a bid of ``marks`` allows, each with its risk for this hand."""
    mask = legal_declarations(rules, Bid(f"{marks}m").id, marks)
    return [
        (nello_risk(hand, tables_for(a.contract, rules), layout_of(rules)), a)
        for a in ACTIONS
        if mask >> a.id & 1 and isinstance(a, Declare) and a.contract.kind == "nello"
    ]


class RulesBot:
    """A simple rule-based player; see the module docstring for its habits."""

    def __init__(self, name: str = "Rules") -> None:
        self.name = name

    def choose(self, view: View) -> Action:
        return self._decide(view)[0]

    def explain(self, view: View) -> Decision:
        """`choose`'s action and the rule of thumb that chose it, with the facts that fired it."""
        action, rule, facts = self._decide(view)
        if rule == "only":
            return Decision(action, only_choice(view))
        return Decision(action, rules_reason(view, action, rule, facts))

    def _decide(self, view: View) -> Ruled:
        """The action, the rule of thumb that chose it and its facts: the one path of `choose`
        and `explain`."""
        if not view.legal:
            raise IllegalActionError(f"seat {view.seat} has nothing to do: it is not its turn")
        if len(view.legal) == 1:
            return view.legal[0], "only", ()
        if view.phase == Phase.AUCTION:
            return self._call(view)
        if view.phase == Phase.DECLARE:
            return self._declare(view)
        if view.phase == Phase.DISCARD:
            return self._discard(view)
        trick = _Trick(view)
        action = trick.choose()
        return action, trick.rule, trick.facts

    # -- the auction ---------------------------------------------------------------------

    def _call(self, view: View) -> Ruled:
        rules = view.rules
        legal = view.legal
        layout = view.layout
        total = layout.total

        def value_of(bid: Action | None) -> int:
            return _bid_value(bid, total)

        bids = [a for a in legal if isinstance(a, Bid) and a.special is None]
        high = value_of(view.bid)
        if Pass() not in legal:
            return min(bids, key=value_of), "forced", ()
        contract, value = best_contract(view.hand, rules)
        worth = _worth(value, layout)
        facts = (worth_words(value.points, contract_words(contract), worth, value.losers),)
        if value.sure and Bid("moon") in legal:
            return Bid("moon"), "moon", facts
        for rule, marks, sure in (
            ("nello", rules.nello_min_marks, self._nello_safe(view, rules.nello_min_marks)),
            ("sevens", rules.sevens_min_marks, rules.sevens and sevens_sure(view.hand, layout)),
        ):
            if sure and Bid(f"{marks}m") in legal and total * marks > worth:
                return Bid(f"{marks}m"), rule, facts
        doubles = (view.hand & DOUBLES).bit_count()
        for special, least in (("plunge", 5), ("splash", 4)):
            bid = Bid(special)
            if bid in legal and doubles >= least and worth < rules.min_bid:
                return bid, special, (count_words(doubles, "double"), *facts)
        bidder = view.bidder
        partner_bid = (
            bidder is not None and bidder != view.seat and layout.same_side(bidder, view.seat)
        )
        if partner_bid and not (value.sure and high < total):
            return Pass(), "partner", ()
        if value.sure:
            mark_bids = [b for b in bids if b.is_mark_bid]
            two = [b for b in mark_bids if b.marks >= 2]
            if mark_bids:
                chosen = min(two, key=value_of) if two else max(mark_bids, key=value_of)
                return chosen, "sure", facts
        affordable = [b for b in bids if value_of(b) <= worth]
        if affordable:
            return min(affordable, key=value_of), "worth", facts
        return Pass(), "short", facts

    def _nello_safe(self, view: View, marks: int) -> bool:
        return view.rules.nello and any(
            risk == 0 for risk, _ in _nello_declarations(view.rules, view.hand, marks)
        )

    # -- the widow ----------------------------------------------------------------------

    def _discard(self, view: View) -> Ruled:
        """Lay down the tile the hand misses least: never a trump of the best contract while
        another tile will do; of the rest, the one whose loss leaves the hand worth most, then
        the lowest."""
        rules = view.rules
        layout = view.layout
        contract, _ = best_contract(view.hand, rules)
        tables = tables_for(contract, rules)
        tiles = [a.tile for a in view.legal if isinstance(a, Discard)]
        plain = [t for t in tiles if not tables.trump_mask >> t & 1] or tiles

        def cost(t: int) -> tuple[bool, float, int, int, int]:
            left = estimate(view.hand & ~(1 << t), tables, layout)
            rank = tables.power[tables.led[t]][t]
            return (not left.sure, -left.points, COUNT_VALUE[t], rank, t)

        keep = estimate(view.hand, tables, layout)
        facts = (worth_words(keep.points, contract_words(contract), None, keep.losers),)
        return Discard(min(plain, key=cost)), "discard", facts

    # -- the declaration -----------------------------------------------------------------

    def _declare(self, view: View) -> Ruled:
        rules = view.rules
        contract, value = best_contract(view.hand, rules)
        facts = (worth_words(value.points, contract_words(contract), None, value.losers),)
        if not value.sure and view.bid_marks:
            nello = [
                (risk, a)
                for risk, a in _nello_declarations(rules, view.hand, view.bid_marks)
                if a in view.legal
            ]
            if nello:
                risk, declare = min(nello, key=lambda pair: (pair[0], pair[1].id))
                if risk == 0:
                    return declare, "nello", ()
            if Declare("sevens") in view.legal and sevens_sure(view.hand, view.layout):
                return Declare("sevens"), "sevens", ()
        return Declare(contract), "best_trump", facts


def _bid_value(bid: Action | None, total: int) -> int:
    """What a call is worth on the auction's one scale, where a mark is every point of the
    hand's ``total`` and shooting the moon tops a bid of every trick."""
    if not isinstance(bid, Bid):
        return 0
    if bid.special == "moon":
        return total + 1
    return total * bid.marks if bid.marks else bid.points


def _worth(value: Estimate, layout: Layout = FOUR_SEATS) -> int:
    """The highest bid a hand supports: a mark needs every trick; on four seats a point bid is
    made a little more often than not when it is one over the expected points. Other tables
    hold back about a trick's count (`MARGIN_ALONE`, `MARGIN_WITH_PARTNERS`): the estimate
    spreads the count evenly over the tricks, but the tricks a bidder loses are the ones the
    defenders load with count. Moon has no count and needs no margin: its estimate of tricks
    was measured within a trick."""
    total = layout.total
    if value.sure:
        return 2 * total
    if value.losers == 0:
        return total
    if layout == FOUR_SEATS:
        return min(int(value.points) + 1, total - 1)
    margin = MARGIN_ALONE if layout.side_size == 1 else MARGIN_WITH_PARTNERS
    count = total - layout.trick_points * layout.tricks
    return min(int(value.points - margin * count / layout.tricks), total - 1)


class _Trick:
    """One play decision: what the seat knows of the tiles and of the trick in front of it."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.seat = view.seat
        self.layout = view.layout
        self.legal = [a.tile for a in view.legal if isinstance(a, Play)]
        self.unseen = unseen(view)
        assert view.contract is not None
        self.contract = view.contract
        self.tables = self._tables()
        self.ours = view.bidder is not None and self.layout.same_side(view.bidder, self.seat)
        self.later = self._later_seats()
        self.rule = "cheap"
        """The rule of thumb that chose the tile (set as it is chosen)."""
        self.facts: tuple[str, ...] = ()

    def _tables(self) -> PlayTables:
        """The contract's tables; before the first lead of a by-lead hand, those of the suit this
        seat would make trump by leading."""
        view = self.view
        first: int | None = None
        if view.tricks:
            first = view.tricks[0].tiles[0] if view.tricks[0].tiles else None
        elif view.trick:
            first = view.trick[0][1]
        if first is None and self.contract.kind == "by-lead":
            return tables_for(Contract("suit", self.by_lead_suit()), view.rules)
        return tables_for(self.contract, view.rules, first_lead=first)

    def by_lead_suit(self) -> int:
        """The suit worth most as trump among those this seat can name by leading a tile."""
        hand = self.view.hand
        return max(
            (pip for pip in range(7) if any(HI[t] == pip for t in iter_tiles(hand))),
            key=lambda pip: (self.worth_as_trump(pip), pip),
        )

    def worth_as_trump(self, pip: int) -> float:
        tables = tables_for(Contract("suit", pip), self.view.rules)
        return estimate(self.view.hand, tables, self.layout).points

    def _later_seats(self) -> list[int]:
        """The seats still to play to this trick after this one, in their order."""
        view = self.view
        seats: list[int] = []
        seat = self.seat
        for _ in range(trick_size(self.layout, view.out_seat) - len(view.trick) - 1):
            seat = next_player(self.layout.seats, seat, view.out_seat)
            seats.append(seat)
        return seats

    def allied(self, seat: int) -> bool:
        """Whether ``seat`` plays for the same result as this one: the bid winner's side against
        everyone else (in Moon, where every player scores its own tricks, only itself)."""
        bidder = self.view.bidder
        if seat == self.seat:
            return True
        if bidder is None or self.view.rules.game == "moon":
            return self.layout.same_side(seat, self.seat)
        side_of = self.layout.side_of
        return (side_of[seat] == side_of[bidder]) == (side_of[self.seat] == side_of[bidder])

    # -- what the tables say about a tile ------------------------------------------------

    def power(self, t: int, suit: int) -> int:
        return self.tables.power[suit][t]

    def power_led(self, t: int) -> int:
        """How high ``t`` ranks in the suit it calls when led."""
        return self.tables.power[self.tables.led[t]][t]

    def is_trump(self, t: int) -> bool:
        return bool(self.tables.trump_mask >> t & 1)

    def can_beat(self, seat: int, suit: int, power: int) -> bool:
        """Whether ``seat`` may hold a tile beating ``power`` in a trick led in ``suit``."""
        tables = self.tables
        ranks = tables.power[suit]
        if tables.sevens:
            return any(ranks[x] > power for x in iter_tiles(self.unseen))
        voids = self.view.voids[seat]
        followers = self.unseen & tables.follow[suit]
        if not voids >> suit & 1 and any(ranks[x] > power for x in iter_tiles(followers)):
            return True
        if suit == TRUMP or voids >> TRUMP & 1 or not (voids >> suit & 1 or not followers):
            return False
        return any(ranks[x] > power for x in iter_tiles(self.unseen & tables.trump_mask))

    def opponents_can_beat(self, suit: int, power: int) -> bool:
        return any(self.can_beat(s, suit, power) for s in self.later if not self.allied(s))

    def winner_if(self, t: int) -> int:
        """Index in the trick, counting this play, of the tile that would be winning."""
        return self.tables.trick_winner([*(x for _, x in self.view.trick), t])

    def best_left(self, t: int) -> bool:
        return _best_left(t, self.tables.led[t], self.tables, self.unseen)

    def keep(self, t: int) -> int:
        """How much a tile is worth holding on to: trumps, then sure winners, then high tiles."""
        trump = 40 if self.is_trump(t) else 0
        return trump + (20 if self.best_left(t) else 0) + self.power_led(t)

    def cheapest(self, tiles: list[int], rule: str = "cheap") -> int:
        """The tile to throw away: no count if possible, then the least worth keeping."""
        self.rule = rule
        return min(tiles, key=lambda t: (COUNT_VALUE[t], self.keep(t), t))

    # -- choosing ------------------------------------------------------------------------

    def choose(self) -> Action:
        view = self.view
        if self.contract.kind == "by-lead" and not view.tricks and not view.trick:
            tile = self.naming_lead()
            self.rule = "naming_lead"
        elif self.contract.kind == "nello":
            tile = self.nello_play()
        elif self.view.trick:
            tile = self.follow()
        else:
            tile = self.lead()
        return ACTIONS[tile]

    def naming_lead(self) -> int:
        """The first lead of a by-lead hand names trump by its higher end: the best tile of the
        best suit this seat holds."""
        suit = self.by_lead_suit()
        rank = self.tables.power[TRUMP]
        return max((t for t in self.legal if HI[t] == suit), key=rank.__getitem__)

    def lead(self) -> int:
        """Bidders pull trumps with the top trump (or a low one to force it out), then cash their
        winners; defenders cash winners the bidders cannot trump, else lead low."""
        legal = self.legal
        trumps = [t for t in legal if self.is_trump(t)]
        rank = self.tables.power[TRUMP]
        out = self.unseen & self.tables.trump_mask
        opponents = [s for s in range(self.layout.seats) if not self.allied(s)]
        trump_out = bool(out) and not all(self.view.voids[s] >> TRUMP & 1 for s in opponents)
        winners = [t for t in legal if not self.is_trump(t) and self.best_left(t)]

        def best_winner(tiles: list[int]) -> int:
            return max(tiles, key=lambda t: (COUNT_VALUE[t], self.power_led(t), t))

        self.facts = (trumps_out_words(out.bit_count()),) if self.tables.trump_mask else ()
        if self.ours:
            if trumps and trump_out:
                top = max(trumps, key=rank.__getitem__)
                if all(rank[top] > rank[x] for x in iter_tiles(out)):
                    self.rule = "pull_top"
                    return top
                if len(trumps) >= 2:
                    return self.cheapest(trumps, "force_trump")
            if winners:
                self.rule = "cash"
                return best_winner(winners)
            if trumps:
                self.rule = "trump_last"
                return max(trumps, key=rank.__getitem__)
            return self.cheapest(legal, "lead_low")
        if trump_out:
            winners = [t for t in winners if not COUNT_VALUE[t]]
        self.rule = "defend_cash"
        return best_winner(winners) if winners else self.cheapest(legal, "lead_low")

    def follow(self) -> int:
        view = self.view
        legal = self.legal
        tiles = [t for _, t in view.trick]
        suit = self.tables.led[tiles[0]]
        leader_index = self.tables.trick_winner(tiles)
        holder = view.trick[leader_index][0]
        holding = self.power(tiles[leader_index], suit)
        worth = self.layout.trick_value(sum(1 << t for t in tiles))
        big = worth >= 5 or not self.layout.count
        if self.allied(holder):
            if not self.opponents_can_beat(suit, holding):
                counters = [t for t in legal if COUNT_VALUE[t] and self.keeps_trick(t, suit)]
                if counters:
                    self.rule = "count_partner"
                    return max(counters, key=lambda t: (COUNT_VALUE[t], -self.keep(t), -t))
                return self.cheapest(legal, "partner_cheap")
            safe = [t for t in self.winners(legal, len(tiles)) if self.keeps_trick(t, suit)]
            if safe and big:
                self.rule = "cover_partner"
                return min(safe, key=lambda t: (self.keep(t), t))
            return self.cheapest(legal)
        winners = self.winners(legal, len(tiles))
        safe = [t for t in winners if self.keeps_trick(t, suit)]
        if safe:
            self.rule = "win_safe"
            return max(safe, key=lambda t: (COUNT_VALUE[t], -self.power(t, suit), -t))
        risky = [t for t in winners if not COUNT_VALUE[t]]
        if risky and (big or self.need_every_trick()):
            self.rule = "win_risky"
            return min(risky, key=lambda t: (self.power(t, suit), t))
        return self.cheapest(legal)

    def keeps_trick(self, t: int, suit: int) -> bool:
        """Playing ``t`` leaves the trick with our side: it ducks under partner or wins for good."""
        index = len(self.view.trick)
        return self.winner_if(t) != index or not self.opponents_can_beat(suit, self.power(t, suit))

    def winners(self, legal: list[int], index: int) -> list[int]:
        return [t for t in legal if self.winner_if(t) == index]

    def need_every_trick(self) -> bool:
        """Mark bids and Sevens: one trick decides the hand, whatever it holds."""
        return self.view.bid_marks > 0

    # -- Nel-O ---------------------------------------------------------------------------

    def nello_play(self) -> int:
        view = self.view
        bidder = view.bidder
        assert bidder is not None
        self.rule = "nello_low"
        if not view.trick:
            if self.seat == bidder:
                self.rule = "nello_lead"
                return min(self.legal, key=lambda t: (-self.beaters(t), self.power_led(t), t))
            return min(self.legal, key=lambda t: (self.power_led(t), t))
        tiles = [t for _, t in view.trick]
        suit = self.tables.led[tiles[0]]
        index = len(tiles)
        if self.seat == bidder:
            under = [t for t in self.legal if self.winner_if(t) != index]
            if under:
                self.rule = "nello_duck"
                return max(under, key=lambda t: (self.power(t, suit), -self.beaters(t), t))
            self.rule = "nello_forced"
            return min(self.legal, key=lambda t: (self.power(t, suit), t))
        played = [s for s, _ in view.trick]
        if bidder in played:
            bidder_winning = view.trick[self.tables.trick_winner(tiles)][0] == bidder
            if bidder_winning:
                under = [t for t in self.legal if self.winner_if(t) != index]
                if under:
                    self.rule = "nello_let"
                    return max(under, key=lambda t: (self.power(t, suit), t))
        return min(self.legal, key=lambda t: (self.power(t, suit), -self.keep(t), t))

    def beaters(self, t: int) -> int:
        """Outstanding tiles that outrank ``t`` in the suit it leads."""
        suit = self.tables.led[t]
        power = self.tables.power[suit]
        followers = self.unseen & self.tables.follow[suit]
        return sum(1 for x in iter_tiles(followers) if power[x] > power[t])


@lru_cache(maxsize=65536)
def estimate_in(dealt: int, rules: Rules, contract: Contract) -> Estimate:
    """`estimate` of a dealt hand for a contract, kept (bidders and inference ask often), as
    at four seats whatever the table: `best_contract` values other tables with their own
    layout, so away from four seats the two can differ."""
    return estimate(dealt, tables_for(contract, rules))


def worth_in(dealt: int, rules: Rules, contract: Contract) -> float:
    """The points `estimate_in` expects."""
    return estimate_in(dealt, rules, contract).points


def candidate_contracts(rules: Rules, hand: int) -> list[Contract]:
    """The contracts a bidder weighs for ``hand``: the trumps RulesBot rates best (three of
    them), and Nel-O and Sevens when the rules offer them at some bid."""
    marks = rules.max_bid_marks
    contracts = plain_contracts(rules, Bid(f"{marks}m").id, marks)
    trumps = [c for c in contracts if c.kind in ("suit", "doubles", "follow-me")]
    special = [c for c in contracts if c.kind in ("nello", "sevens")]
    trumps.sort(key=lambda c: -worth_in(hand, rules, c))
    return trumps[:3] + special
