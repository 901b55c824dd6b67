"""What the rest of the auction is likely to do: a call valued by rolling the auction out.

A bid is not worth its chance of being made alone: a 30 may be overcalled, and a pass leaves the
hand to the others, partner included. Texas 42's auction goes round once, so after a seat's
call at most three more calls follow. For each deal drawn for the bidding, `call_equities` plays
those calls out with the learned model of how a seat calls given its tiles (the ``call`` part of
the bidder's model file, `texas42.players.learned`: learned from self-play, as the inference from
the calls uses it), several times a deal, and scores each finished auction:

- the seat itself won: its own chance of making the bid (the caller's, from whatever it
  bids on: the simulation's calibrated chance, or the learned one);
- another seat won: the learned chance of that seat's tiles making its bid (the model's
  ``trump`` and special parts, `texas42.players.learned.hand_bid_chance`);
- nobody bid (a reshake): the score stands.

A finished auction is worth the match equity after it (`texas42.players.equity`): the chance of
making times the equity after the bidding side gains the bid's marks, plus the rest times the
equity after it loses them. Every call of the seat is judged on the same deals and the same
random draws, so the comparison between calls is not drowned by the draws' noise.

The rollouts need a model with ``call`` and ``trump`` parts and a four-seat marks game of 42
points (`rollout_applies`), the table the model was learned at.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from texas42.core.actions import (
    MARK_BID_BASE,
    PASS_ID,
    PLUNGE_ID,
    POINT_BID_BASE,
    SPLASH_ID,
)
from texas42.core.auction import call_value, legal_calls, special_bid_marks
from texas42.core.rules import Rules
from texas42.core.view import View
from texas42.players.learned import (
    BidderModel,
    auction_state,
    call_class,
    hand_bid_chance,
    match_equity,
    seat_features,
)
from texas42.search.sampler import World, dealt_in

ROLLOUTS = 4
"""Auctions played out for each deal and call."""

Choices = list[tuple[float, int]]
"""A seat's calls to draw from: the cumulative chance up to each class, and its lowest call."""


@dataclass(frozen=True, slots=True)
class CallOutlook:
    """One call of the seat judged over the rolled-out auctions: the match equity it leaves,
    the marks the seat's side gains on average, and the share of auctions in which the seat's
    own call stood (0 for a pass)."""

    aid: int
    equity: float
    marks: float
    stands: float


def rollout_applies(view: View, model: BidderModel | None) -> bool:
    """Whether the auction can be rolled out here: a model that knows how seats call and what
    their bids make, at the table it was learned at (four seats, 42 points, a marks game)."""
    layout = view.layout
    return (
        model is not None
        and "call" in model.parts
        and "trump" in model.parts
        and layout.seats == 4
        and layout.sides == 2
        and layout.total == 42
        and view.rules.game == "marks"
    )


def call_equities(
    view: View,
    calls: Sequence[int],
    own_chance: Callable[[int], float],
    worlds: Sequence[tuple[World, float]],
    model: BidderModel,
    rng: random.Random,
    rollouts: int = ROLLOUTS,
) -> list[CallOutlook]:
    """Each of ``calls`` (action ids legal for the seat) valued over ``worlds`` (deals with
    weights summing to 1): see the module docstring. ``own_chance(aid)`` is the seat's chance
    of making its bid ``aid`` if it stands."""
    rules = view.rules
    layout = view.layout
    me = match_equity(rules.winning_target, model.shares)
    side = layout.side_of[view.seat]
    ours, theirs = view.score[side], view.score[1 - side]
    before = tuple(a.id for a in view.calls)
    first = view.first_bidder
    dealt = dealt_in(view)
    left = layout.seats - len(before) - 1
    draws = [[rng.random() for _ in range(left)] for _ in range(len(worlds) * rollouts)]
    own = {aid: own_chance(aid) for aid in calls if aid != PASS_ID}
    seat_chances: dict[tuple[int, int], float] = {}
    known: dict[tuple[int, tuple[int, ...]], Choices] = {}
    results: list[CallOutlook] = []
    for aid in calls:
        equity = marks = stands = 0.0
        for w, (world, weight) in enumerate(worlds):
            hands = [dealt(world, s) for s in range(layout.seats)]
            share = weight / rollouts
            for r in range(rollouts):
                u = draws[w * rollouts + r]
                history = _finish(
                    rules, (*before, aid), first, hands, model, u, (ours, theirs), known
                )
                high_pos, _, high_id = auction_state(rules, history)
                if high_pos is None:
                    equity += share * me(ours, theirs)
                    continue
                winner = (first + high_pos) % layout.seats
                if winner == view.seat:
                    chance = own[aid]
                    stands += share
                else:
                    key = (hands[winner], high_id)
                    if key not in seat_chances:
                        seat_chances[key] = hand_bid_chance(model, hands[winner], rules, high_id)
                    chance = seat_chances[key]
                stake = _stake(rules, history, high_pos)
                gain = stake if layout.side_of[winner] == side else -stake
                equity += share * (
                    chance * me.after(ours, theirs, gain)
                    + (1 - chance) * me.after(ours, theirs, -gain)
                )
                marks += share * gain * (2 * chance - 1)
        results.append(CallOutlook(aid, equity, marks, stands))
    return results


def _finish(
    rules: Rules,
    calls: tuple[int, ...],
    first: int,
    hands: list[int],
    model: BidderModel,
    draws: list[float],
    score: tuple[int, int],
    known: dict[tuple[int, tuple[int, ...]], Choices],
) -> tuple[int, ...]:
    """The auction after ``calls``, each later seat calling by the model's chances for its tiles
    (the class drawn by inverting its cumulative chances at ``draws[k]``), then the lowest legal
    call of that class. ``known`` keeps each seat's choices by its tiles and the calls before
    it, which the rollouts of one deal share."""
    history = calls
    seats = len(hands)
    for k in range(seats - len(calls)):
        position = len(history)
        seat = (first + position) % seats
        key = (hands[seat], history)
        choices = known.get(key)
        if choices is None:
            partner = (position - len(calls) + 1) % 2 == 0  # of the seat whose call is judged
            ours = score if partner else (score[1], score[0])
            choices = known[key] = _choices(rules, history, hands[seat], model, ours)
        pick = choices[-1][1]
        for total, aid in choices:
            if draws[k] < total:
                pick = aid
                break
        history = (*history, pick)
    return history


def _choices(
    rules: Rules, history: tuple[int, ...], hand: int, model: BidderModel, score: tuple[int, int]
) -> Choices:
    """A seat's calls after ``history``: the model's chance of each class of call legal for
    ``hand`` (cumulated), each with the lowest legal call of its class."""
    high_pos, high_value, _ = auction_state(rules, history)
    legal = legal_calls(rules, len(history), high_pos, high_value, hand)
    by_class: dict[int, int] = {}
    rest = legal
    while rest:
        low = rest & -rest
        rest ^= low
        aid = low.bit_length() - 1
        c = call_class(aid)
        if c is not None and c not in by_class:
            by_class[c] = aid  # the calls come lowest first
    if not by_class:
        return [(1.0, PASS_ID if legal >> PASS_ID & 1 else legal.bit_length() - 1)]
    allowed = sum(1 << c for c in by_class)
    chances = model.outcome_chances("call", seat_features(hand, rules, history, score), allowed)
    out: Choices = []
    total = 0.0
    for c in sorted(by_class):
        total += float(chances[c])
        out.append((total, by_class[c]))
    return out


def _stake(rules: Rules, history: tuple[int, ...], high_pos: int) -> int:
    """The marks the winning call puts at stake: a point bid one, a mark bid its marks, a
    plunge or splash what it is worth over the bid before it."""
    high_id = history[high_pos]
    if high_id in (PLUNGE_ID, SPLASH_ID):
        prior = auction_state(rules, history[:high_pos])[1]
        return special_bid_marks(rules, high_id, prior)
    if MARK_BID_BASE < high_id < PLUNGE_ID:
        return high_id - MARK_BID_BASE
    if POINT_BID_BASE <= high_id <= MARK_BID_BASE:
        return max(1, call_value(rules, high_id, 0)[0])
    return 1
