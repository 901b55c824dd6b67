"""The words of a bot's reason, made from the numbers it decided on (issue 19, item 5).

A reason has two forms (`texas42.core.reasons.Reason`). The public one is made by
`public_words` from `PublicFacts` alone: the action and what every seat saw (the calls, the
contract, the trick so far), never the deciding seat's tiles, so it cannot leak one; it says
what the action does ("pulls trump with 6-6", "passes (partner holds the bid)"). The whole one
opens with the public words and goes on with the facts only the deciding seat knew: the chances
the bot computed over its deals against the next best choice, the trumps still out, what in the
hand makes a bid, the rule of thumb that fired. Every sentence is made in `texas42.core.words`;
this module only gathers the numbers (`PlayGrounds`, `CallGrounds`, `ContractGrounds`, filled in
by the bots' own deciding code).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from texas42.core.actions import PASS_ID, Action, Bid, Discard, Pass, Play
from texas42.core.auction import legal_calls
from texas42.core.contracts import TRUMP, Contract, PlayTables, legal_plays, tables_for
from texas42.core.progress import next_player, trick_size
from texas42.core.reasons import Reason
from texas42.core.rules import Rules
from texas42.core.tiles import COUNT_VALUE, TILE_NAMES, count_points, iter_tiles
from texas42.core.view import View
from texas42.core.words import (
    ONLY_CHOICE,
    TIE_BREAKS,
    bid_chance_words,
    call_context,
    contract_choice_words,
    contract_words,
    decision_words,
    equity_words,
    holding_words,
    holds_words,
    marks_words,
    play_chance_words,
    play_effect,
    points_words,
    reason_line,
    rule_words,
    stands_words,
    trumps_out_words,
)


@dataclass(frozen=True, slots=True)
class PublicFacts:
    """What every seat at the table saw when a decision was made: no tile of any hand."""

    rules: Rules
    seat: int
    phase: int
    calls: tuple[Action, ...]
    bidder: int | None
    contract: Contract | None
    first_lead: int | None
    trick: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, view: View) -> PublicFacts:
        first: int | None = None
        if view.tricks:
            first = view.tricks[0].tiles[0] if view.tricks[0].tiles else None
        elif view.trick:
            first = view.trick[0][1]
        return cls(
            view.rules,
            view.seat,
            view.phase,
            view.calls,
            view.bidder,
            view.contract,
            first,
            view.trick,
        )


def public_words(facts: PublicFacts, action: Action) -> str:
    """A decision as every seat may read it: the action and what it does at the table."""
    if isinstance(action, Play):
        return _play_effect(facts, action.tile)
    if isinstance(action, (Bid, Pass)):
        return call_context(action, _call_context(facts))
    return decision_words(action)


def public_reason(view: View, action: Action) -> str:
    """`public_words` for the seat of ``view``: only its public part is read."""
    return public_words(PublicFacts.of(view), action)


def _call_context(facts: PublicFacts) -> str:
    layout = facts.rules.layout
    bidder = facts.bidder
    if bidder is None:
        can_pass = legal_calls(facts.rules, len(facts.calls), None, 0, 0) >> PASS_ID & 1
        return "opens" if can_pass else "forced"
    return "partner" if layout.same_side(bidder, facts.seat) else "opponent"


def _play_effect(facts: PublicFacts, tile: int) -> str:
    contract = facts.contract
    assert contract is not None and facts.bidder is not None
    rules = facts.rules
    layout = rules.layout
    first = facts.first_lead if facts.first_lead is not None else tile
    tables = tables_for(contract, rules, first_lead=first)
    points = COUNT_VALUE[tile] if layout.count else 0
    name = TILE_NAMES[tile]
    trump = bool(tables.trump_mask >> tile & 1)
    if not facts.trick:
        ours = _allied(facts, facts.bidder)
        if trump:
            return play_effect("pulls" if ours else "leads_trump", name)
        return play_effect("leads_count" if points else "leads", name, points)
    tiles = [t for _, t in facts.trick]
    suit = tables.led[tiles[0]]
    holder = facts.trick[tables.trick_winner(tiles)][0]
    wins = tables.trick_winner([*tiles, tile]) == len(tiles)
    follows = bool(tables.follow[suit] >> tile & 1)
    partner = holder != facts.seat and _allied(facts, holder)
    if wins:
        if partner:
            return play_effect("overtakes", name)
        return play_effect("trumps_in" if trump and not follows else "takes", name)
    if partner:
        return play_effect("gives_count" if points else "under_partner", name, points)
    if follows:
        return play_effect("follows_count" if points else "follows", name, points)
    return play_effect("throws_count" if points else "throws_off", name, points)


def _allied(facts: PublicFacts, seat: int) -> bool:
    """Whether ``seat`` plays for the same result as the deciding seat (RulesBot's sides)."""
    layout = facts.rules.layout
    bidder = facts.bidder
    if seat == facts.seat:
        return True
    if bidder is None or facts.rules.game == "moon":
        return layout.same_side(seat, facts.seat)
    side_of = layout.side_of
    return (side_of[seat] == side_of[bidder]) == (side_of[facts.seat] == side_of[bidder])


# -- the facts only the deciding seat knew -------------------------------------------------


def unseen(view: View) -> int:
    """The tiles the seat has not seen: neither in its hand nor laid down by it nor played face
    up (with piles face down, a won trick's tiles count as unseen)."""
    played = (view.dealt | view.widow) & ~view.hand
    for trick in view.tricks:
        if trick.tiles is not None:
            played |= sum(1 << t for t in trick.tiles)
    played |= sum(1 << t for _, t in view.trick)
    return view.layout.tiles & ~view.hand & ~played


def trumps_out(view: View, tables: PlayTables) -> int:
    """How many trumps the seat cannot see."""
    return (unseen(view) & tables.trump_mask).bit_count()


def holding(view: View, contract: Contract) -> str:
    """What in the seat's tiles makes ``contract``: its trumps, the top ones, its count (empty
    for contracts without trump)."""
    tables = tables_for(contract, view.rules)
    if not tables.trump_mask or contract.kind == "nello":
        return ""
    rank = tables.power[TRUMP]
    hand = view.hand
    ours = sorted(iter_tiles(hand & tables.trump_mask), key=rank.__getitem__, reverse=True)
    out = [rank[t] for t in iter_tiles(view.layout.tiles & ~hand & tables.trump_mask)]
    best_out = max(out, default=-1)
    tops = [TILE_NAMES[t] for t in ours if rank[t] > best_out]
    count = count_points(hand) if view.layout.count else 0
    return holding_words(len(ours), tops, count)


@dataclass(frozen=True, slots=True)
class PlayGrounds:
    """What a PIMC play was chosen on: for each legal tile its side's chance (to make the bid
    for the bidders, to set it for the defenders; None in a points game) and its expected points
    (the bidders' total, or in a points game the side's expected score difference), the tiles'
    order, how many deals and whether they were every one that fits, and the tie-break used."""

    chances: dict[int, float] | None
    points: dict[int, float]
    order: tuple[int, ...]
    deals: int
    every: bool
    tie: str | None
    by_points: bool
    hands: tuple[tuple[tuple[int, ...], float], ...] = ()
    """The deals judged on: every seat's holding in each, with the deal's weight."""


def play_reason(view: View, tile: int, grounds: PlayGrounds) -> Reason:
    """A PIMC play's reason, from the numbers it was chosen on."""
    public = public_reason(view, Play(tile))
    assert view.bidder is not None and view.contract is not None
    defending = not view.layout.same_side(view.seat, view.bidder)
    others = [t for t in grounds.order if t != tile]
    best_other = others[0] if others else None
    facts: list[str] = []
    chance_fact = ""
    if grounds.chances is not None:
        next_best = (
            None if best_other is None else (TILE_NAMES[best_other], grounds.chances[best_other])
        )
        chance_fact = play_chance_words(
            grounds.chances[tile],
            grounds.deals,
            grounds.every,
            defending=defending,
            next_best=next_best,
        )
    points_fact = ""
    if grounds.points and view.contract.kind != "nello":  # Nel-O's totals count tricks
        points_next = (
            None if best_other is None else (TILE_NAMES[best_other], grounds.points[best_other])
        )
        side = "bidders" if view.rules.game != "points" else "we"
        points_fact = points_words(grounds.points[tile], points_next, side=side)
    if grounds.by_points or grounds.chances is None:
        facts += [points_fact, chance_fact]
    else:  # the chance chose; the points say more only where the chances tie
        chances = grounds.chances
        tied = best_other is not None and abs(chances[tile] - chances[best_other]) < 1e-9
        facts += [chance_fact, points_fact if tied else ""]
    first = PublicFacts.of(view).first_lead
    tables = tables_for(view.contract, view.rules, first_lead=tile if first is None else first)
    if (
        tables.trump_mask
        and not view.piles_face_down
        and (not view.trick or tables.trump_mask >> tile & 1)
    ):
        facts.append(trumps_out_words(trumps_out(view, tables)))
    held = trick_holds(view, tile, grounds.hands)
    if held is not None:
        winner, share = held
        facts.append(holds_words(winner, share, grounds.deals, grounds.every))
    if grounds.tie is not None:
        facts.append(TIE_BREAKS[grounds.tie])
    return Reason(reason_line(public, facts), public)


def trick_holds(
    view: View, tile: int, hands: Sequence[tuple[tuple[int, ...], float]]
) -> tuple[str, float] | None:
    """When ``tile`` leaves the trick with the seat's side and an opponent is still to play to
    it: the tile winning it then (``partner's 5-5``, or ``6-6`` for the seat's own) and the
    weighted share of the deals in which no opponent still to play holds a tile that may beat
    it. None otherwise (and in Nel-O, where taking a trick is no gain)."""
    contract = view.contract
    if not hands or contract is None or contract.kind == "nello":
        return None
    facts = PublicFacts.of(view)
    rules, layout = view.rules, view.layout
    first = facts.first_lead if facts.first_lead is not None else tile
    tables = tables_for(contract, rules, first_lead=first)
    tiles = [t for _, t in view.trick] + [tile]
    seats = [s for s, _ in view.trick] + [view.seat]
    best = tables.trick_winner(tiles)
    if not _allied(facts, seats[best]):
        return None
    later: list[int] = []
    seat = view.seat
    for _ in range(trick_size(layout, view.out_seat) - len(tiles)):
        seat = next_player(layout.seats, seat, view.out_seat)
        later.append(seat)
    opponents = [s for s in later if not _allied(facts, s)]
    if not opponents:
        return None
    power = tables.power[tables.led[tiles[0]]]
    top = power[tiles[best]]
    first_trick = not view.tricks
    safe = total = 0.0
    for holding, weight in hands:
        total += weight
        beaten = any(
            power[x] > top
            for s in opponents
            for x in iter_tiles(legal_plays(rules, tables, holding[s], tiles, first_trick))
        )
        safe += 0.0 if beaten else weight
    name = TILE_NAMES[tiles[best]]
    winner = name if seats[best] == view.seat else f"partner's {name}"
    return winner, safe / total if total > 0 else 0.0


@dataclass(frozen=True, slots=True)
class CallGrounds:
    """What a PIMC call was chosen on: each bid weighed with its chance and expected marks, the
    value of a pass, the deals drawn, and the contract the chosen (or best) bid would be played
    in."""

    pass_value: float
    options: tuple[tuple[Bid, float, float], ...]
    deals: int
    contract: Contract | None = None
    partner: bool = False
    equity: bool = False
    """The values are match equities (the auction rolled out), not expected marks."""
    stands: tuple[float, ...] = ()
    """With ``equity``: for each option, the share of rolled-out auctions in which it stood."""
    if_stands: tuple[float | None, ...] = ()
    """For each option, its chance of being made should nobody outbid it
    (`texas42.players.pimc.chance_if_it_stands`), where that is known."""


def call_reason(view: View, action: Action, grounds: CallGrounds) -> Reason:
    """A PIMC call's reason: the bid's chance, its marks against a pass's, the hand behind it;
    for a pass, why (partner holds the bid, or the best bid's figures)."""
    public = public_reason(view, action)
    if grounds.partner:
        return Reason(public, public)
    shown: int | None = None
    for k, option in enumerate(grounds.options):
        if option[0] == action or (
            not isinstance(action, Bid) and (shown is None or option[2] > grounds.options[shown][2])
        ):
            shown = k
    if shown is None:
        return Reason(public, public)
    bid, chance, value = grounds.options[shown]
    contract = None if grounds.contract is None else contract_words(grounds.contract)
    head = "" if isinstance(action, Bid) else "the best bid: "
    if_stands = grounds.if_stands[shown] if grounds.if_stands else None
    facts = [head + bid_chance_words(bid.notation, chance, grounds.deals, contract, if_stands)]
    if grounds.equity:
        facts.append(stands_words(grounds.stands[shown]))
        facts.append(equity_words(value, grounds.pass_value))
    else:
        facts.append(marks_words(value, grounds.pass_value))
    facts.append("" if grounds.contract is None else holding(view, grounds.contract))
    return Reason(reason_line(public, facts), public)


@dataclass(frozen=True, slots=True)
class ContractGrounds:
    """What a PIMC contract was chosen on: each contract judged, with its chance of making the
    bid and its expected total, best first."""

    scores: tuple[tuple[Contract, float, float], ...]
    need: int


def contract_reason(
    view: View, action: Action, contract: Contract, grounds: ContractGrounds
) -> Reason:
    """A PIMC declaration's (or discard's) reason: the contract's chance against the next
    best's, and what in the hand makes it."""
    public = public_reason(view, action)
    chosen = next((s for s in grounds.scores if s[0] == contract), None)
    if chosen is None:
        return Reason(public, public)
    others = [s for s in grounds.scores if s[0] != contract]
    next_best = (contract_words(others[0][0]), others[0][1]) if others else None
    need = "every trick" if grounds.need >= view.layout.total else str(grounds.need)
    if contract.kind == "nello":
        need = "no trick"
    facts = [
        contract_choice_words(contract_words(contract), chosen[1], chosen[2], next_best, need),
        holding(view, contract),
    ]
    if isinstance(action, Discard):
        facts.insert(0, f"keeps the hand for {contract_words(contract)}")
        own = decision_words(action, own=True)
        return Reason(reason_line(own, facts), public)
    return Reason(reason_line(public, facts), public)


def rules_reason(view: View, action: Action, rule: str, facts: Sequence[str] = ()) -> Reason:
    """RulesBot's reason: the rule of thumb that fired and the facts that fired it."""
    public = public_reason(view, action)
    head = decision_words(action, own=True) if isinstance(action, Discard) else public
    return Reason(reason_line(head, [rule_words(rule, facts)]), public)


def only_choice(view: View) -> Reason:
    """The reason for the one legal action."""
    action = view.legal[0]
    public = public_reason(view, action)
    head = decision_words(action, own=True) if isinstance(action, Discard) else public
    return Reason(reason_line(head, [ONLY_CHOICE]), public)
