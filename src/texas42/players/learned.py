"""The learned bidder: calls and contracts chosen by match equity over chances learned from play.

**What it predicts.** For each contract a seat could name
(`texas42.players.rules_bot.candidate_contracts`: RulesBot's three best trumps, Nel-O and Sevens
when the rules have them, and a plunge or splash when the rules allow it), the chance of making
each bid: ``P(points >= b)`` for b = 30..42 for a trump, doubles or follow-me contract (42, all
the tricks, is what every mark bid asks), and the chance the contract is made for Nel-O, Sevens,
a plunge and a splash. The models are learned from self-play (`docs/selfplay.md`): every
contract the bidder could have named was played out to the last trick, so one row labels every
level.

- Trumps: a cumulative logistic over `contract_features`, ``P(points >= b) = sigmoid(w . x +
  a_b)``, one weight vector for every level and the level's offsets ``a_b`` made non-increasing
  in ``b``: the chance never rises with the bid.
- Nel-O, Sevens, plunge, splash: a logistic each, over features of their own.
- The pass: a seat that passes leaves the hand to the others; what that is worth is learned from
  the seats that passed in self-play, a multinomial logistic over the marks the passer's side
  then gained (-4..+4) given `seat_features` (the seat's tiles, position, the standing bid and
  who holds it, the score).

The features are cheap lookups on the tiles (trumps held and their ranks, the trump double,
count, doubles, off-suit winners and losers, RulesBot's `estimate`), never the solver, so a call
decision takes well under 5 ms (``benchmarks/bench_bidder.py``).

**How it chooses** (`LearnedBidder`). A bid is worth ``P(make) * ME(after we gain its marks) +
(1 - P(make)) * ME(after they gain them)``, with ``ME`` the match equity at the game's score
(`texas42.players.equity`, its table from the marks the self-play hands moved); a pass is worth
the equity its learned outcomes give. The seat makes the call worth most. Declaring, it names the
contract with the best chance of making the bid, then the most points expected.

The learned bidder plays a four-seat marks game of 42 points, the table its data comes from;
elsewhere (`applies`) PimcBot keeps its simulation. The model file is
``texas42/players/data/bidder.npz`` (`load_model`), rebuilt by ``texas42 bidder train``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from texas42.core.actions import (
    ACTIONS,
    MARK_BID_BASE,
    PASS_ID,
    PLUNGE_ID,
    POINT_BID_BASE,
    SPLASH_ID,
    Action,
    Bid,
    Declare,
    Pass,
)
from texas42.core.auction import call_value, legal_calls, special_bid_marks
from texas42.core.contracts import TRUMP, Contract, tables_for
from texas42.core.errors import Texas42Error
from texas42.core.progress import Phase
from texas42.core.reasons import Reason
from texas42.core.rules import Rules
from texas42.core.tiles import COUNT_TILES, DOUBLE_SIX, DOUBLES, HI, LO, PIPS, count_points
from texas42.core.view import View
from texas42.core.words import (
    contract_words,
    equity_words,
    learned_chance_words,
    learned_contract_words,
    reason_line,
)
from texas42.players.equity import DEFAULT_SHARES, MatchEquity
from texas42.players.explain import holding, public_reason
from texas42.players.rules_bot import (
    Estimate,
    _suit_contracts,
    candidate_contracts,
    estimate_in,
    nello_risk,
    sevens_sure,
)

LEVELS = tuple(range(30, 43))
"""The bids a trump contract's chance is given for: 30..41 points and 42, every trick (a mark
bid asks all of them)."""

MARKS_RANGE = 4
"""The pass model's outcomes: the marks the passer's side gains, clipped to -4..+4."""

CALL_CLASSES = 18
"""The call model's classes: pass, 30..41, 1 mark, 2 marks, 3 marks or more, plunge, splash."""

SPECIAL_KINDS = ("nello", "sevens", "plunge", "splash")
"""The contracts with a made-or-set model of their own."""

MODEL_FORMAT = "texas42-bidder/1"

TRUMP_KINDS = ("suit", "doubles", "follow-me")


# -- features -------------------------------------------------------------------------------


@lru_cache(maxsize=1 << 16)
def contract_features(hand: int, rules: Rules, contract: Contract) -> tuple[float, ...]:
    """What a trump, doubles or follow-me contract is worth to ``hand``: RulesBot's estimate
    (points, losers, sure), the trumps held (how many, how many above every outstanding one,
    which of the seven ranks), the count held and in trump, the off-suit doubles and tiles, and
    the contract's kind."""
    tables = tables_for(contract, rules)
    value = estimate_in(hand, rules, contract)
    rank = tables.power[TRUMP]
    trumps = sorted(
        (t for t in range(28) if tables.trump_mask >> t & 1), key=rank.__getitem__, reverse=True
    )
    held = [hand >> t & 1 for t in trumps]
    top = 0
    for h in held:
        if not h:
            break
        top += 1
    ranks = [float(held[k]) if k < len(held) else 0.0 for k in range(7)]
    off = hand & ~tables.trump_mask
    points = value.points / 42
    return (
        points,
        points * points,
        value.losers / 7,
        float(value.sure),
        sum(held) / 7,
        top / 7,
        *ranks,
        count_points(hand) / 35,
        count_points(hand & tables.trump_mask) / 35,
        (off & DOUBLES).bit_count() / 7,
        off.bit_count() / 7,
        float(contract.kind == "doubles"),
        float(contract.kind == "follow-me"),
    )


@lru_cache(maxsize=1 << 14)
def special_features(hand: int, rules: Rules, kind: str) -> tuple[float, ...]:
    """Features of a hand for Nel-O, Sevens, or a plunge or splash (partner naming trump)."""
    layout = rules.layout
    tiles = [t for t in range(28) if hand >> t & 1]
    doubles = (hand & DOUBLES).bit_count() / 7
    count = count_points(hand & COUNT_TILES) / 35
    if kind == "nello":
        risk = nello_risk(hand, tables_for(Contract("nello"), rules), layout)
        return (
            risk / 7,
            doubles,
            sum(PIPS[t] for t in tiles) / 84,
            count,
            sum(1 for t in tiles if HI[t] >= 5) / 7,
            sum(1 for t in tiles if HI[t] <= 2) / 7,
        )
    if kind == "sevens":
        distance = [abs(PIPS[t] - 7) for t in tiles]
        return (
            float(sevens_sure(hand, layout)),
            sum(distance) / 42,
            sum(1 for d in distance if d == 0) / 7,
            sum(1 for d in distance if d == 1) / 7,
            sum(1 for d in distance if d >= 3) / 7,
        )
    _, value = best_trump(hand, rules)
    return (
        doubles,
        value.points / 42,
        value.losers / 7,
        float(value.sure),
        float(hand >> DOUBLE_SIX & 1),
        count,
        sum(1 for t in tiles if LO[t] == HI[t] and HI[t] >= 4) / 7,
    )


def best_trump(hand: int, rules: Rules) -> tuple[Contract, Estimate]:
    """RulesBot's `best_contract` for the hand, through the estimates `candidate_contracts` caches."""
    best: tuple[Contract, Estimate] | None = None
    for contract in _contracts(rules):
        value = estimate_in(hand, rules, contract)
        if best is None or (value.sure, value.points) > (best[1].sure, best[1].points):
            best = (contract, value)
    assert best is not None, "every rule set offers the seven suits"
    return best


@lru_cache(maxsize=64)
def _contracts(rules: Rules) -> tuple[Contract, ...]:
    return tuple(_suit_contracts(rules))


@lru_cache(maxsize=1 << 16)
def _strength(hand: int, rules: Rules) -> tuple[float, ...]:
    """The seat's best trump's estimate (points, losers, sure, trumps held), its doubles and
    count."""
    contract, value = best_trump(hand, rules)
    trumps = (hand & tables_for(contract, rules).trump_mask).bit_count()
    return (
        value.points / 42,
        value.losers / 7,
        float(value.sure),
        trumps / 7,
        (hand & DOUBLES).bit_count() / 7,
        count_points(hand) / 35,
    )


def auction_state(rules: Rules, before: tuple[int, ...]) -> tuple[int | None, int, int]:
    """After the calls ``before`` (action ids, the first caller's first): the position of the
    high bid's caller (None: nobody has bid), its value on the auction's one scale, and its id
    (-1 for none)."""
    high_pos: int | None = None
    high_value = 0
    high_id = -1
    for i, aid in enumerate(before):
        if aid == PASS_ID:
            continue
        _, value = call_value(rules, aid, high_value)
        high_pos, high_value, high_id = i, value, aid
    return high_pos, high_value, high_id


def seat_features(
    hand: int, rules: Rules, before: tuple[int, ...], score: tuple[int, int]
) -> tuple[float, ...]:
    """What a seat knows when it calls: its tiles' strength (`_strength`), its position in the
    auction, the standing bid and who holds it (partner or an opponent), and the score (its
    side's and the other's, over the target, and whether either is a hand from winning)."""
    position = len(before)
    high_pos, high_value, _ = auction_state(rules, before)
    total = rules.layout.total
    target = rules.winning_target
    if high_pos is None:
        level, marks, partner, opponent = 0.0, 0.0, 0.0, 0.0
    else:
        level = min(high_value, total) / total
        marks = high_value // total / 2
        partner = float((position - high_pos) % 2 == 0)
        opponent = 1.0 - partner
    ours, theirs = score
    return (
        *_strength(hand, rules),
        *(float(position == k) for k in range(4)),
        level,
        marks,
        partner,
        opponent,
        min(ours, target) / target,
        min(theirs, target) / target,
        float(ours >= target - 1),
        float(theirs >= target - 1),
        float(rules.nello),
        float(rules.plunge or rules.splash),
        float(rules.sevens),
    )


def call_class(aid: int) -> int | None:
    """The call model's class of a call (see `CALL_CLASSES`), None for calls it does not model
    (point bids above 41, shooting the moon: other tables)."""
    if aid == PASS_ID:
        return 0
    if POINT_BID_BASE + 30 <= aid <= POINT_BID_BASE + 41:
        return aid - POINT_BID_BASE - 29
    if MARK_BID_BASE < aid < PLUNGE_ID:
        return 12 + min(aid - MARK_BID_BASE, 3)
    if aid == PLUNGE_ID:
        return 16
    if aid == SPLASH_ID:
        return 17
    return None


def legal_classes(rules: Rules, before: tuple[int, ...], hand: int) -> int:
    """The mask of call classes legal for a seat holding ``hand`` after the calls ``before``."""
    high_pos, high_value, _ = auction_state(rules, before)
    mask = legal_calls(rules, len(before), high_pos, high_value, hand)
    classes = 0
    for aid in range(mask.bit_length()):
        if mask >> aid & 1:
            k = call_class(aid)
            if k is not None:
                classes |= 1 << k
    return classes


# -- the model file --------------------------------------------------------------------------


@dataclass(frozen=True)
class Linear:
    """One fitted linear model over standardised features: ``(x - mean) / scale`` times
    ``weights`` plus ``offsets``. The trump part has one weight vector and an offset per level
    (its scores are the levels' logits), a made-or-set part one offset, the pass and call parts
    a row of weights and an offset per class."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    offsets: np.ndarray

    def scores(self, x: np.ndarray) -> np.ndarray:
        z = (np.asarray(x, dtype=float) - self.mean) / self.scale
        return np.asarray(z @ self.weights.T + self.offsets)


class BidderModel:
    """The learned models read from a file written by `texas42.services.bidder` (an ``.npz``:
    one `Linear` per part, prefixed ``trump_``, ``nello_``, ... ``pass_``, ``call_``, the marks
    shares for the match equity, and ``meta``, a JSON document: how it was made)."""

    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        try:
            self.meta: dict[str, Any] = json.loads(str(arrays["meta"]))
        except (KeyError, ValueError) as exc:
            raise Texas42Error(f"not a bidder model: {exc}") from None
        if self.meta.get("format") != MODEL_FORMAT:
            raise Texas42Error(f"not a bidder model of format {MODEL_FORMAT}")
        self.parts: dict[str, Linear] = {}
        for name in ("trump", *SPECIAL_KINDS, "pass", "call"):
            if f"{name}_weights" in arrays:
                self.parts[name] = Linear(
                    *(np.asarray(arrays[f"{name}_{k}"], dtype=float) for k in _LINEAR_KEYS)
                )
        if "trump" not in self.parts:
            raise Texas42Error("a bidder model needs its trump part")
        sizes = feature_sizes()
        for name, part in self.parts.items():
            if part.mean.shape != (sizes[name],):
                raise Texas42Error(
                    f"the bidder model's {name} part has {part.mean.shape[0]} features, this "
                    f"version computes {sizes[name]}: retrain it (texas42 bidder train)"
                )
        shares = arrays.get("marks_shares")
        self.shares = tuple(float(x) for x in shares) if shares is not None else DEFAULT_SHARES

    @staticmethod
    def read(path: str | Path) -> BidderModel:
        try:
            with np.load(path, allow_pickle=False) as data:
                return BidderModel({k: data[k] for k in data.files})
        except (OSError, ValueError) as exc:
            raise Texas42Error(f"cannot read the bidder model {path}: {exc}") from None

    def trump_chances(self, hand: int, rules: Rules, contract: Contract) -> np.ndarray:
        """``P(points >= b)`` for b in `LEVELS`, never rising with b."""
        scores = self.parts["trump"].scores(np.array(contract_features(hand, rules, contract)))
        return np.asarray(_sigmoid(scores))

    def special_chance(self, kind: str, hand: int, rules: Rules) -> float | None:
        """The chance a Nel-O, Sevens, plunge or splash is made, None when the model has no such
        part (its data had none)."""
        part = self.parts.get(kind)
        if part is None:
            return None
        return float(_sigmoid(part.scores(np.array(special_features(hand, rules, kind)))[0]))

    def outcome_chances(self, name: str, x: tuple[float, ...], allowed: int = -1) -> np.ndarray:
        """Class chances of the ``pass`` or ``call`` part for seat features ``x``, classes
        outside the mask ``allowed`` given none."""
        part = self.parts[name]
        s = part.scores(np.array(x))
        if allowed != -1:
            keep = np.array([allowed >> k & 1 for k in range(len(s))], dtype=bool)
            if not keep.any():
                keep[:] = True
            s = np.where(keep, s, -np.inf)
        s = s - s.max()
        e = np.exp(s)
        return np.asarray(e / e.sum())


_LINEAR_KEYS = ("mean", "scale", "weights", "offsets")


@lru_cache(maxsize=1)
def feature_sizes() -> dict[str, int]:
    """How many features each part of the model reads."""
    rules = Rules()
    hand = 0b1111111
    seat = len(seat_features(hand, rules, (), (0, 0)))
    return {
        "trump": len(contract_features(hand, rules, Contract("suit", 6))),
        **{kind: len(special_features(hand, rules, kind)) for kind in SPECIAL_KINDS},
        "pass": seat,
        "call": seat,
    }


def _sigmoid(z: Any) -> Any:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))


SHIPPED = "bidder.npz"


@lru_cache(maxsize=8)
def load_model(path: str | None = None) -> BidderModel | None:
    """The model in ``path``, or the one shipped in the package (None if it has none)."""
    if path is not None:
        return BidderModel.read(path)
    source = resources.files("texas42.players").joinpath("data", SHIPPED)
    if not source.is_file():
        return None
    with resources.as_file(source) as real:
        return BidderModel.read(real)


# -- the bidder --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CallValue:
    """One call judged: its chance of being made (None for a pass), the marks at stake, the
    match equity it leaves, and the contract it would be played in."""

    action: Action
    chance: float | None
    marks: int
    equity: float
    contract: Contract | None


class LearnedBidder:
    """Calls and contracts by match equity over the learned chances (module docstring)."""

    def __init__(self, model: BidderModel | None = None) -> None:
        self.model = model if model is not None else load_model()

    def applies(self, view: View) -> bool:
        """Whether the model speaks for this table: four seats, 42 points, a marks game, and a
        model to speak with."""
        layout = view.layout
        return (
            self.model is not None
            and layout.seats == 4
            and layout.total == 42
            and view.rules.game == "marks"
        )

    def equity(self, view: View) -> MatchEquity:
        assert self.model is not None
        return match_equity(view.rules.winning_target, self.model.shares)

    def _score(self, view: View) -> tuple[int, int]:
        side = view.layout.side_of[view.seat]
        return view.score[side], view.score[1 - side]

    # -- chances ---------------------------------------------------------------------------

    def chances(self, hand: int, rules: Rules) -> dict[Contract, np.ndarray | float]:
        """For each contract of `candidate_contracts` the model has a part for: a trump's chances of
        every level in `LEVELS`, or a Nel-O's or Sevens' chance of being made."""
        return _chances(self.model, hand, rules)

    def bid_chance(self, view: View, bid: Bid) -> tuple[float, Contract | None]:
        """The best chance over the seat's contracts of making ``bid``, and that contract."""
        assert self.model is not None
        return _bid_chance(self.model, view.dealt, view.rules, bid)

    def contract_chance(
        self, view: View, contract: Contract, level: int, marks: int
    ) -> float | None:
        """The chance ``contract`` makes a bid of ``level`` points (42 for every trick) or
        ``marks`` marks, for the seat's tiles; None where it may not be named at that bid or
        the model has no part for it."""
        chances = self.chances(view.hand, view.rules).get(contract)
        if chances is None and contract.kind in TRUMP_KINDS:
            assert self.model is not None
            chances = self.model.trump_chances(view.hand, view.rules, contract)
        if chances is None:
            return None
        return _at(view.rules, contract, chances, level, marks)

    def make_chance(self, view: View, action: Action) -> float | None:
        """The chance this bidder gives ``action`` of being made: a bid by its best contract,
        a contract at the standing bid; None for anything else (a pass, a play) or where the
        model does not apply."""
        if not self.applies(view):
            return None
        if view.phase == Phase.AUCTION and isinstance(action, Bid):
            return self.bid_chance(view, action)[0]
        if view.phase == Phase.DECLARE and isinstance(action, Declare):
            level, marks = _standing(view)
            if view.bid is not None and view.bid.id in (PLUNGE_ID, SPLASH_ID):
                level, marks = 42, 0
            return self.contract_chance(view, action.contract, level, marks)
        return None

    # -- calls -----------------------------------------------------------------------------

    def call_values(self, view: View) -> list[CallValue]:
        """Every legal call with its chance, marks at stake and the equity it leaves."""
        model = self.model
        assert model is not None
        me = self.equity(view)
        ours, theirs = self._score(view)
        before = tuple(a.id for a in view.calls)
        values: list[CallValue] = []
        for action in view.legal:
            if isinstance(action, Pass):
                x = seat_features(view.dealt, view.rules, before, (ours, theirs))
                outcomes = model.outcome_chances("pass", x)
                equity = sum(
                    float(p) * me.after(ours, theirs, m - MARKS_RANGE)
                    for m, p in enumerate(outcomes)
                )
                values.append(CallValue(action, None, 0, equity, None))
                continue
            if not isinstance(action, Bid):
                continue
            chance, contract = self.bid_chance(view, action)
            if action.id in (PLUNGE_ID, SPLASH_ID):
                _, high, _ = auction_state(view.rules, before)
                marks = special_bid_marks(view.rules, action.id, high)
            else:
                marks = action.marks or 1
            equity = chance * me.after(ours, theirs, marks) + (1 - chance) * me.after(
                ours, theirs, -marks
            )
            values.append(CallValue(action, chance, marks, equity, contract))
        return values

    def call(self, view: View) -> Action:
        """The call worth the most equity (ties to the first legal one: the pass, then the
        lower bid)."""
        return self.decide_call(view)[0]

    def decide_call(self, view: View) -> tuple[Action, Reason]:
        """`call`'s action with its reason, told from the numbers it was chosen on: the bid's
        chance and contract, its equity against a pass's (for a pass, the best bid's)."""
        values = self.call_values(view)
        best = values[0]
        for value in values[1:]:
            if value.equity > best.equity + 1e-12:
                best = value
        passing = next((v for v in values if isinstance(v.action, Pass)), None)
        bids = [v for v in values if v.chance is not None]
        shown = best if best.chance is not None else max(bids, key=lambda v: v.equity, default=None)
        public = public_reason(view, best.action)
        if shown is None or shown.chance is None:
            return best.action, Reason(public, public)
        head = "" if shown is best else "the best bid: "
        contract = None if shown.contract is None else contract_words(shown.contract)
        facts = [
            head + learned_chance_words(shown.action.notation, shown.chance, contract),
            equity_words(shown.equity, None if passing is None else passing.equity),
            "" if shown.contract is None else holding(view, shown.contract),
        ]
        return best.action, Reason(reason_line(public, facts), public)

    def declare(self, view: View) -> Action | None:
        """The contract likeliest to make the standing bid, then the one with the most points
        expected; None when none of the seat's contracts may be named."""
        found = self.decide_declare(view)
        return None if found is None else found[0]

    def decide_declare(self, view: View) -> tuple[Action, Reason] | None:
        """`declare`'s action with its reason: its chance of making the bid against the next
        best contract's, and what in the hand makes it."""
        named = {a.contract: a for a in view.legal if isinstance(a, Declare)}
        level, marks = _standing(view)
        if view.bid is not None and view.bid.id in (PLUNGE_ID, SPLASH_ID):
            level, marks = 42, 0
        model = self.model
        assert model is not None
        judged: list[tuple[tuple[float, float, int], Contract, Action]] = []
        for contract in candidate_contracts(view.rules, view.hand):
            named_as = named.get(contract)
            if named_as is None:
                continue
            chance = self.contract_chance(view, contract, level, marks)
            if chance is None:
                continue
            chances = self.chances(view.hand, view.rules).get(contract)
            spread = float(np.sum(chances)) if isinstance(chances, np.ndarray) else 0.0
            judged.append(((chance, spread, -named_as.id), contract, named_as))
        if not judged:
            return None
        judged.sort(key=lambda item: item[0], reverse=True)
        (chance, _, _), contract, action = judged[0]
        public = public_reason(view, action)
        next_best = (contract_words(judged[1][1]), judged[1][0][0]) if len(judged) > 1 else None
        need = "every trick" if level >= view.layout.total else str(level)
        if contract.kind == "nello":
            need = "no trick"
        facts = [
            learned_contract_words(contract_words(contract), chance, next_best, need),
            holding(view, contract),
        ]
        return action, Reason(reason_line(public, facts), public)


def _standing(view: View) -> tuple[int, int]:
    """The standing bid as (points needed, marks): a mark bid needs every point."""
    if view.bid_marks:
        return 42, view.bid_marks
    bid = view.bid
    return (bid.points if isinstance(bid, Bid) else view.rules.min_bid), 0


@lru_cache(maxsize=4096)
def _chances(
    model: BidderModel | None, hand: int, rules: Rules
) -> dict[Contract, np.ndarray | float]:
    assert model is not None
    found: dict[Contract, np.ndarray | float] = {}
    for contract in candidate_contracts(rules, hand):
        if contract.kind in TRUMP_KINDS:
            found[contract] = model.trump_chances(hand, rules, contract)
        else:
            chance = model.special_chance(contract.kind, hand, rules)
            if chance is not None:
                found[contract] = chance
    return found


def _at(
    rules: Rules, contract: Contract, chances: np.ndarray | float, level: int, marks: int
) -> float | None:
    """A contract's chance at a bid of ``level`` points or ``marks`` marks (None where it may
    not be named at that bid)."""
    if isinstance(chances, np.ndarray):
        return float(chances[min(max(level, 30), 42) - 30])
    if contract.kind == "nello" and rules.nello and marks >= rules.nello_min_marks:
        return chances
    if contract.kind == "sevens" and rules.sevens and marks >= rules.sevens_min_marks:
        return chances
    return None


def _bid_chance(
    model: BidderModel, hand: int, rules: Rules, bid: Bid
) -> tuple[float, Contract | None]:
    if bid.id in (PLUNGE_ID, SPLASH_ID):
        kind = "plunge" if bid.id == PLUNGE_ID else "splash"
        return model.special_chance(kind, hand, rules) or 0.0, None
    best, choice = 0.0, None
    level = 42 if bid.marks else bid.points
    for contract, chances in _chances(model, hand, rules).items():
        chance = _at(rules, contract, chances, level, bid.marks)
        if chance is not None and chance > best:
            best, choice = chance, contract
    return best, choice


def hand_bid_chance(model: BidderModel, hand: int, rules: Rules, aid: int) -> float:
    """The learned chance that a seat dealt ``hand`` makes its bid ``aid`` (action id), naming
    its best contract for it: what `LearnedBidder.bid_chance` gives the seat's own bid, here for
    any seat's tiles (`texas42.players.rollout` scores the other seats' bids with it)."""
    bid = ACTIONS[aid]
    assert isinstance(bid, Bid), f"action {aid} is not a bid"
    return _bid_chance(model, hand, rules, bid)[0]


@lru_cache(maxsize=32)
def match_equity(target: int, shares: tuple[float, ...]) -> MatchEquity:
    """The match equity table for a game to ``target`` marks and a model's marks shares."""
    return MatchEquity(target, shares)
