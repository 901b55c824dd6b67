"""The auction's rules: which calls and contracts are legal, what a bid is worth, and why not.

Everything here reads only the auction so far (the calls made, the high bid, its seat and value)
and the caller's own tiles, so `Hand` and the seat views (`texas42.core.view`) ask the same
functions.

>>> import random
>>> from texas42 import Hand, Rules
>>> from texas42.core.actions import ACTIONS
>>> from texas42.core.auction import legal_calls
>>> hand = Hand.random(Rules(), shaker=0, rng=random.Random(1))
>>> mask = legal_calls(hand.rules, 0, None, 0, hand.hands[hand.turn])
>>> mask == hand.legal_mask()
True
>>> " ".join(ACTIONS[i].notation for i in range(len(ACTIONS)) if mask >> i & 1)
'pass 30 31 32 33 34 35 36 37 38 39 40 41 1m 2m'
"""

from __future__ import annotations

from texas42.core.actions import (
    ACTIONS,
    DECLARE_BASE,
    FOUR_SEAT_ACTIONS,
    HIGH_POINT_BIDS,
    MARK_BID_BASE,
    MOON_ID,
    PASS_ID,
    PLUNGE_ID,
    POINT_BID_BASE,
    SPLASH_ID,
    Bid,
    Declare,
)
from texas42.core.contracts import Contract
from texas42.core.rules import MAX_MARKS, Rules
from texas42.core.tiles import DOUBLE_SIX, DOUBLES

_SUIT_BITS = sum(1 << (DECLARE_BASE + pip) for pip in range(7))
_DECLARE_IDS = {str(a): a.id for a in ACTIONS[DECLARE_BASE:FOUR_SEAT_ACTIONS]}


def special_bid_marks(rules: Rules, aid: int, high_value: int) -> int:
    """What a plunge or splash is worth: its marks, or one more than the bid it jumps."""
    base = rules.plunge_marks if aid == PLUNGE_ID else rules.splash_marks
    if rules.plunge_timing == "jump":
        return min(MAX_MARKS, max(base, high_value // rules.layout.total + 1))
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


def legal_calls(
    rules: Rules, n_calls: int, high_seat: int | None, high_value: int, hand: int
) -> int:
    """The mask of legal calls for a seat holding ``hand`` after ``n_calls`` calls, the high
    bid (worth ``high_value``) made by ``high_seat``, or by nobody yet."""
    mask = 0
    layout = rules.layout
    total = layout.total
    forced = rules.all_pass == "forced" and n_calls == layout.seats - 1 and high_seat is None
    if not forced:
        mask |= 1 << PASS_ID
    low = max(rules.min_bid, high_value + 1 if high_seat is not None else 0)
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
            if rules.plunge_timing == "first-bid" and high_seat is not None:
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


def why_call_illegal(
    rules: Rules, aid: int, who: str, high_id: int | None, high_value: int, hand: int
) -> str:
    """Why ``who``, holding ``hand``, may not make the call ``aid`` now: a player's words."""
    total = rules.layout.total
    if aid == PASS_ID:
        return f"everyone else passed, so {who}, the last to call, must bid"
    bid = ACTIONS[aid]
    assert isinstance(bid, Bid)
    high = None if high_id is None else ACTIONS[high_id].notation
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
        if (hand & DOUBLES).bit_count() < needed:
            return f"{name} needs at least {needed} doubles in hand"
        if name == "plunge" and rules.plunge_needs_66 and not hand >> DOUBLE_SIX & 1:
            return "plunge needs the 6-6 under these rules"
        return f"{name} may be called only before anyone has bid (the bid is {high})"
    if bid.marks == 0:
        if bid.points < rules.min_bid:
            return f"bids start at {rules.min_bid}"
        if bid.points >= total:
            return f"a hand holds {total} points: bid {total - 1} at most, or 1m"
        return f"a bid must beat {high}"
    if high_value >= total * bid.marks:
        return f"a bid must beat {high}"
    if bid.marks > rules.max_bid_marks:
        return f"bids go up to {rules.max_bid_marks}m under these rules"
    top = max(rules.max_opening_marks, high_value // total + rules.mark_raise)
    if high_value < total:
        return f"an opening mark bid may be at most {top}m"
    return f"after {high} the bid may go up to {top}m"


def why_declaration_illegal(rules: Rules, aid: int, high_id: int, bid_marks: int) -> str:
    """Why the declarer may not name the contract ``aid`` after the winning call ``high_id``."""
    declaration = ACTIONS[aid]
    assert isinstance(declaration, Declare)
    kind = declaration.contract.kind
    special = high_id in (PLUNGE_ID, SPLASH_ID)
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
        if bid_marks < least:
            return f"{name} needs a bid of at least {least}m"
    return f"the declarer may not choose how doubles play: {declaration} is not allowed"
