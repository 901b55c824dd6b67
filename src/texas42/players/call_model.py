"""Inference from the calls, learned: how likely each other seat's calls were, given the tiles a
sampled deal gives it.

The learned bidder's model file (`texas42.players.learned`) holds a ``call`` part: from the
calls of self-play, a multinomial logistic over a seat's call (pass, 30..41, one, two or three
marks and more, plunge, splash) given `seat_features` (its tiles' strength, its position, the
standing bid and who holds it, the score), the classes the auction did not allow left out. A
deal the sampler drew is then weighted by the likelihood of every call the other seats made,
holding that deal's tiles: a 30 from partner makes deals where partner is strong likelier, a
pass in fourth seat those where it is weak. A small floor (`FLOOR`) keeps one surprising call
from ruling a deal out.

With ``PimcSettings.call_model`` on, this weight replaces the hand-made model of the calls in
`texas42.players.pimc._weigher`; the contract's and the plays' inference stay as they are set.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from texas42.core.view import View
from texas42.players.learned import (
    BidderModel,
    call_class,
    legal_classes,
    load_model,
    seat_features,
)
from texas42.search.sampler import World, dealt_in

FLOOR = 0.02
"""Each call's likelihood is mixed with this much of a uniform choice over the legal calls, so
no deal is ruled out by one call the model found unlikely."""


def call_weigher(
    view: View,
    base: Callable[[World], float] | None = None,
    model: BidderModel | None = None,
) -> Callable[[World], float] | None:
    """A world's weight: ``base``'s (if any) times the likelihood of the other seats' calls
    given that world's tiles. ``base`` alone where the model does not apply (not a four-seat
    42-point game, or no model with a call part)."""
    model = model if model is not None else load_model()
    layout = view.layout
    if (
        model is None
        or "call" not in model.parts
        or layout.seats != 4
        or layout.total != 42
        or not view.calls
    ):
        return base
    rules = view.rules
    side = layout.side_of[view.seat]
    score = (view.score[side], view.score[1 - side])
    steps: list[tuple[int, tuple[int, ...], int, tuple[int, int]]] = []
    ids = [a.id for a in view.calls]
    for i, aid in enumerate(ids):
        seat = (view.first_bidder + i) % layout.seats
        k = call_class(aid)
        if seat == view.seat or k is None:
            continue
        ours = score if layout.same_side(seat, view.seat) else (score[1], score[0])
        steps.append((seat, tuple(ids[:i]), k, ours))
    if not steps:
        return base
    dealt = dealt_in(view)

    def weight(world: World) -> float:
        log = 0.0
        for seat, before, k, ours in steps:
            hand = dealt(world, seat)
            allowed = legal_classes(rules, before, hand) | 1 << k
            p = model.outcome_chances("call", seat_features(hand, rules, before, ours), allowed)
            legal = allowed.bit_count()
            log += math.log((1 - FLOOR) * float(p[k]) + FLOOR / legal)
        value = math.exp(log)
        return value * base(world) if base is not None else value

    return weight
