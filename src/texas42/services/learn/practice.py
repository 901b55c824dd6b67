"""Bidding practice: "What would you bid?" on deals drawn for the purpose (issue 17, item 2).

A question is a seat's seven tiles at a point of the auction (the seats before it called as
RulesBot would on their own tiles), the game score and the rules (``standard``, or ``house``
with Nel-O, Plunge, Splash and Sevens). Its answer is made by the engine alone:

- for every call the seat could make, the chance to make and the expected marks from the
  expert's own estimate (`texas42.players.hints`, the numbers the ``expert`` bot bids by), and
  a point bid's chance if it stands;
- each bid's make share double dummy over the deals the seat could have faced, drawn and solved
  exactly as ``texas42 analyze`` does (`texas42.players.review`, the same seed and samples: a
  record of the question with the bid, the other seats passing after it, reviews to the same
  share);
- what each call comes to on the actual deal, double dummy, the other seats passing after it;
- the call the expert makes, with its reason in words (`texas42.players.explain`), and how many
  of the expert's expected marks the learner's call gave up.

Questions are sorted by the expert's estimate into `CATEGORIES` and asked in a fixed rotation of
them, so a run of questions mixes easy passes, clear bids, hard cases, mark bids and (under the
house rules) special bids. The shipped set (``data/practice.json``) is built by
``python -m texas42.services.learn.practice`` (see `main`); an answer is looked up, not computed,
so it comes back at once.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from texas42.core.actions import ACTIONS, PASS_ID, Action, Bid, Declare, Pass
from texas42.core.auction import plain_contracts
from texas42.core.errors import Texas42Error
from texas42.core.hand import Hand
from texas42.core.progress import Phase
from texas42.core.rules import PRESETS, Rules
from texas42.core.tiles import TILE_NAMES, hand_name, iter_tiles, parse_hand
from texas42.core.view import View
from texas42.core.words import (
    PRACTICE_CATEGORIES,
    contract_words,
    practice_about_words,
    practice_deal_words,
    practice_position_words,
    practice_score_words,
    practice_share_words,
    practice_verdict_words,
)
from texas42.players.hints import hints
from texas42.players.pimc import PimcBot, PimcSettings
from texas42.players.review import DEFAULT_BID_SAMPLES, bid_worlds, review_bid
from texas42.players.rules_bot import RulesBot
from texas42.search.solver import PlayPosition, Solver

DATA = Path(__file__).parent / "data" / "practice.json"
FORMAT = "texas42-practice"
VERSION = 1

RULE_SETS: dict[str, tuple[str, ...]] = {
    "standard": ("pass", "clear", "hard", "mark"),
    "house": ("pass", "clear", "hard", "mark", "special"),
}
"""The rules a question may be asked under (presets of `texas42.core.rules`) and the categories
asked in turn under each: specials only where the rules have them."""

CATEGORIES = tuple(PRACTICE_CATEGORIES)

EXPERT_SAMPLES = PimcSettings.expert().bid_samples
"""Deals the expert's estimate is made over: the expert's own bidding deals (48)."""

REVIEW_SAMPLES = DEFAULT_BID_SAMPLES
"""Deals a bid's double-dummy make share is taken over: what ``texas42 analyze`` draws (64)."""

CLEAR_MARGIN = 0.3
"""A point bid is clear when the expert expects at least this many marks more from it than
from a pass (and makes it at least `CLEAR_CHANCE` of the time); a pass is easy when every bid
expects this many fewer than the pass."""

CLEAR_CHANCE = 0.6
"""A clear bid's least chance to make, so that a bid made only because a pass loses the game
anyway (the opponents one mark from winning) is not called clear."""

HARD_MARGIN = 0.15
"""A question is hard when the best bid and the pass are within this many expected marks."""

SCORES: tuple[tuple[int, int], ...] = ((0, 0), (2, 3), (4, 1), (1, 5), (6, 2), (2, 6), (5, 5))
"""Game scores (the learner's side first) a question is set at: near the end of a game the
expert bids more freely when behind and less when ahead (`PimcBot.pass_value`)."""

MAX_N = 1_000_000
"""The highest question number a client may ask for."""


class PracticeError(Texas42Error):
    """A practice request that names no question or no legal call; ``field`` names the part."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


# -- one question -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Setup:
    """A practice deal: the rules' name, who shook, the deal by seat, the calls before the
    learner (the seat to call after them), the score (learner's side first) and the seed of
    the expert's estimate and of the review's sampling."""

    rules_name: str
    shaker: int
    deal: tuple[int, ...]
    calls: tuple[int, ...]
    score: tuple[int, int]
    seed: int

    @property
    def rules(self) -> Rules:
        return PRESETS[self.rules_name]

    def hand(self) -> Hand:
        """The hand at the question: the calls before the learner applied."""
        hand = Hand(self.rules, self.shaker, self.deal)
        for call in self.calls:
            hand.apply(call)
        return hand

    def view(self) -> View:
        hand = self.hand()
        seat = hand.turn
        side = hand.layout.side_of[seat]
        score = (self.score[0], self.score[1]) if side == 0 else (self.score[1], self.score[0])
        return hand.view(seat, score)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules_name,
            "shaker": self.shaker,
            "deal": [hand_name(m) for m in self.deal],
            "calls": [ACTIONS[c].notation for c in self.calls],
            "score": list(self.score),
            "seed": self.seed,
        }

    @staticmethod
    def from_dict(obj: dict[str, Any]) -> Setup:
        rules = PRESETS[obj["rules"]]
        hand = Hand(rules, int(obj["shaker"]), tuple(parse_hand(t) for t in obj["deal"]))
        calls = []
        for text in obj["calls"]:
            action = next(a for a in hand.legal_actions() if a.notation == text)
            hand.apply(action)
            calls.append(action.id)
        return Setup(
            obj["rules"],
            int(obj["shaker"]),
            tuple(hand.deal),
            tuple(calls),
            (int(obj["score"][0]), int(obj["score"][1])),
            int(obj["seed"]),
        )


def _relation(view: View, seat: int) -> str:
    if seat == view.seat:
        return "you"
    return "partner" if view.layout.partner(view.seat) == seat else "opponent"


def question_of(view: View, qid: str, n: int, rules_name: str) -> dict[str, Any]:
    """What the learner is asked: made from the seat's view alone, so no other seat's tile can
    be in it."""
    layout = view.layout
    calls = []
    passes = 0
    for k, call in enumerate(view.calls):
        seat = (view.first_bidder + k) % layout.seats
        passes += isinstance(call, Pass)
        calls.append(
            {
                "seat": seat,
                "name": layout.seat_names[seat],
                "who": _relation(view, seat),
                "call": call.notation,
            }
        )
    standing = None if view.bid is None else view.bid.notation
    holder = "" if view.bidder is None else _relation(view, view.bidder)
    holder = "an opponent" if holder == "opponent" else holder
    side = layout.side_of[view.seat]
    ours = view.score[side]
    theirs = max(x for k, x in enumerate(view.score) if k != side)
    unit = "marks" if view.rules.game == "marks" else "points"
    return {
        "id": qid,
        "n": n,
        "rules": rules_name,
        "rules_text": view.rules.describe(),
        "seat": view.seat,
        "seat_name": layout.seat_names[view.seat],
        "first_bidder": view.first_bidder,
        "calls": calls,
        "position": practice_position_words(
            layout.seat_names[view.seat], len(view.calls), passes, standing, holder
        ),
        "score": {
            "ours": ours,
            "theirs": theirs,
            "target": view.rules.winning_target,
            "words": practice_score_words(ours, theirs, view.rules.winning_target, unit),
        },
        "hand": [TILE_NAMES[t] for t in iter_tiles(view.hand)],
        "legal": [a.notation for a in view.legal],
    }


def _contract_name(contract: Any) -> str:
    return contract_words(contract)


class _DealValues:
    """Double-dummy values of the seat's contracts on the actual deal, each position solved
    once: a contract's value does not depend on the bid, only whether it reaches the bid's
    goal."""

    def __init__(self, before: Hand, solver: Solver) -> None:
        self.before = before
        self.solver = solver
        self.values: dict[tuple[str, int | None, int | None], int] = {}
        """By contract, declarer and the seat out: the value, in the order first solved."""

    def probe(self, call: int) -> Hand:
        """The auction with ``call`` made and every later seat passing."""
        probe = self.before.copy()
        probe.apply(call)
        while probe.phase == Phase.AUCTION:
            probe.apply(PASS_ID)
        return probe

    def outcome(self, probe: Hand, contract: Any) -> tuple[bool, int]:
        """Whether ``contract`` makes the probe's bid on the deal double dummy, and its value
        (points, or for Nel-O the tricks the bidder takes)."""
        trial = Hand(probe.rules, probe.shaker, self.before.deal)
        for c in probe.calls:
            trial.apply(c)
        trial.apply(Declare(contract))
        position = PlayPosition.from_hand(trial)
        key = (str(contract), position.declarer, position.out_seat)
        value = self.values.get(key)
        if value is None:
            value = self.solver.value(position)
            self.values[key] = value
        return (value == 0 if position.nello else value >= position.goal), value


def _expert(samples: int, seed: int) -> PimcBot:
    settings = PimcSettings.expert().with_options({"bid_samples": str(samples)})
    return PimcBot(settings, seed)


def evaluate(
    setup: Setup,
    *,
    samples: int = EXPERT_SAMPLES,
    review_samples: int = REVIEW_SAMPLES,
    expert: PimcBot | None = None,
) -> dict[str, Any]:
    """Everything the answer shows, computed: each call's figures, the expert's call and its
    reason, each contract's value on the actual deal (``expert``: the expert bot already used
    on this question, `classify`'s, so its estimate is not made twice)."""
    before = setup.hand()
    view = setup.view()
    ranked = hints(view, samples=samples, seed=setup.seed)
    decision = (expert or _expert(samples, setup.seed)).explain(view)
    solver = Solver()
    outcomes = _DealValues(before, solver)
    worlds = bid_worlds(before, review_samples, random.Random(setup.seed))
    rows = []
    for hint in ranked:
        action = hint.action
        row: dict[str, Any] = {
            "call": action.notation,
            "chance": None if hint.chance is None else round(hint.chance, 4),
            "if_stands": None if hint.if_stands is None else round(hint.if_stands, 4),
            "marks": None if hint.marks is None else round(hint.marks, 4),
        }
        if isinstance(action, Bid):
            probe = outcomes.probe(action.id)
            contracts = plain_contracts(probe.rules, action.id, probe.bid_marks)
            review = review_bid(before, action.id, worlds, solver)
            chosen = review.contract
            named = {str(c): c for c in contracts}
            row["share"] = round(review.make_share, 4)
            row["share_contract"] = _contract_name(named[chosen])
            row["share_words"] = practice_share_words(
                review.make_share, len(worlds), row["share_contract"]
            )
            best = None
            for c in contracts:
                makes, value = outcomes.outcome(probe, c)
                nello = c.kind == "nello"
                rank = (makes, -value if nello else value, str(c) == chosen)
                if best is None or rank > best[0]:
                    best = (rank, c, value, makes)
            assert best is not None
            _, contract, value, makes = best
            unit = "tricks" if contract.kind == "nello" else "points"
            name = _contract_name(contract)
            row["deal"] = {
                "contract": name,
                "value": value,
                "unit": unit,
                "made": makes,
                "words": practice_deal_words(action.notation, name, value, unit, makes),
            }
        else:
            row["share"] = None
            row["deal"] = {
                "contract": None,
                "value": None,
                "unit": None,
                "made": None,
                "words": practice_deal_words(action.notation, None, 0, "points", False),
            }
        rows.append(row)
    contracts_table = []
    seen = set()
    seat = before.turn
    for (name, declarer, _), value in outcomes.values.items():
        if declarer != seat or name in seen:
            continue
        seen.add(name)
        contract = next(
            c
            for c in plain_contracts(before.rules, _top_bid(before), _top_marks(before))
            if str(c) == name
        )
        contracts_table.append(
            {
                "contract": _contract_name(contract),
                "value": value,
                "unit": "tricks" if contract.kind == "nello" else "points",
            }
        )
    return {
        "calls": rows,
        "expert": {"call": decision.action.notation, "reason": decision.reason.text},
        "contracts": contracts_table,
        "samples": {"expert": samples, "review": review_samples},
    }


def _top_bid(hand: Hand) -> int:
    """The highest bid the seat could make now (every plain contract is legal after it)."""
    bids = [a for a in hand.legal_actions() if isinstance(a, Bid) and not a.special]
    return max(bids, key=lambda b: (b.marks, b.points)).id


def _top_marks(hand: Hand) -> int:
    action = ACTIONS[_top_bid(hand)]
    assert isinstance(action, Bid)
    return action.marks


def classify(setup: Setup, samples: int = EXPERT_SAMPLES) -> str | None:
    """The category the expert's estimate puts the question in, or None (a middling case no
    category takes): see `CLEAR_MARGIN` and `HARD_MARGIN`."""
    return _classify(setup, samples)[0]


def _classify(setup: Setup, samples: int) -> tuple[str | None, PimcBot]:
    view = setup.view()
    bot = _expert(samples, setup.seed)
    return _category(view, bot), bot


def _category(view: View, bot: PimcBot) -> str | None:
    expert = bot.choose(view)
    chances = bot.contract_chances(view)
    pass_value = bot.pass_value(view) if Pass() in view.legal else None
    values = {}
    for action in view.legal:
        if isinstance(action, Bid):
            values[action] = bot.call_value(chances, action, view)[1]
    best_bid = max(values.values())
    if isinstance(expert, Bid):
        if expert.special and expert.special != "moon":
            return "special"
        if expert.marks:
            contract = max(chances, key=lambda c: bot.bid_chance({c: chances[c]}, expert, view))
            return "special" if contract.kind in ("nello", "sevens") else "mark"
        if pass_value is None:
            return None
        chance = bot.call_value(chances, expert, view)[0]
        if best_bid - pass_value >= CLEAR_MARGIN and chance >= CLEAR_CHANCE:
            return "clear"
        return "hard" if best_bid - pass_value < HARD_MARGIN else None
    assert pass_value is not None
    if best_bid <= pass_value - CLEAR_MARGIN:
        return "pass"
    partner_holds = view.bidder is not None and view.layout.same_side(view.bidder, view.seat)
    if not partner_holds and abs(best_bid - pass_value) < HARD_MARGIN:
        return "hard"
    return None


# -- drawing deals -------------------------------------------------------------------------------


def _suit_tiles(pip: int) -> list[int]:
    """The tiles of a suit, the double first, then by the other end, highest first."""
    tiles = [t for t in range(28) if pip in _pips(t)]
    return sorted(tiles, key=lambda t: (_pips(t)[0] != _pips(t)[1], -sum(_pips(t))))


@lru_cache(maxsize=28)
def _pips(t: int) -> tuple[int, int]:
    high, low = TILE_NAMES[t].split("-")
    return int(high), int(low)


def _strong_hand(rng: random.Random, kind: str) -> list[int]:
    """Seven tiles of the kind a mark or special bid is made on (the category is then decided
    by the expert's estimate, not by this shape)."""
    doubles = [t for t in range(28) if _pips(t)[0] == _pips(t)[1]]
    if kind == "plunge":
        chosen = rng.sample(sorted(doubles, key=lambda t: -_pips(t)[0])[:5], 4)
    elif kind == "nello":
        low = [t for t in range(28) if _pips(t)[0] != _pips(t)[1] and sum(_pips(t)) <= 6]
        chosen = rng.sample(low, 6)
    elif kind == "sevens":
        near = [t for t in range(28) if abs(sum(_pips(t)) - 7) <= 1]
        chosen = rng.sample(near, 6)
    else:
        suit = _suit_tiles(rng.randrange(7))
        chosen = suit[: rng.choice((4, 5))]
        chosen += [d for d in rng.sample(doubles, 3) if d not in chosen][:2]
    rest = [t for t in range(28) if t not in chosen]
    rng.shuffle(rest)
    return (chosen + rest)[:7]


def draw_setup(rng: random.Random, rules_name: str, want: str) -> Setup:
    """A practice deal: a random seat and position in the auction, the earlier seats calling as
    RulesBot would on their tiles; the learner's tiles shaped for ``want`` (a mark or special
    bid) or random."""
    rules = PRESETS[rules_name]
    shaker = rng.randrange(4)
    order = rng.randrange(4)
    hand0 = Hand(rules, shaker, tuple((1 << 7) - 1 << 7 * s for s in range(4)))
    seat = (hand0.first_bidder + order) % 4
    tiles = list(range(28))
    rng.shuffle(tiles)
    if want == "mark":
        own = _strong_hand(rng, "mark")
    elif want == "special":
        own = _strong_hand(rng, rng.choice(("plunge", "nello", "sevens", "mark")))
    else:
        own = tiles[:7]
    others = [t for t in tiles if t not in own]
    deal = []
    for s in range(4):
        picked = own if s == seat else others[:7]
        if s != seat:
            others = others[7:]
        deal.append(sum(1 << t for t in picked))
    hand = Hand(rules, shaker, tuple(deal))
    bot = RulesBot("practice")
    calls = []
    for _ in range(order):
        action = bot.choose(hand.view(hand.turn))
        hand.apply(action)
        calls.append(action.id)
    return Setup(
        rules_name, shaker, tuple(deal), tuple(calls), rng.choice(SCORES), rng.randrange(1 << 30)
    )


def build(
    per_category: int,
    seed: int,
    *,
    samples: int = EXPERT_SAMPLES,
    review_samples: int = REVIEW_SAMPLES,
    attempts: int = 400,
    log: Any = None,
) -> dict[str, Any]:
    """The practice set: ``per_category`` questions of each category under each rule set,
    drawn from ``seed`` (the same seed and settings give the same set)."""
    rng = random.Random(seed)
    questions = []
    for rules_name, categories in RULE_SETS.items():
        pools: dict[str, list[tuple[Setup, PimcBot]]] = {c: [] for c in categories}
        for _ in range(attempts):
            short = [c for c in categories if len(pools[c]) < per_category]
            if not short:
                break
            want = min(short, key=lambda c: (len(pools[c]), categories.index(c)))
            setup = draw_setup(rng, rules_name, want)
            found, bot = _classify(setup, samples)
            if found in short:
                pools[found].append((setup, bot))
                if log is not None:
                    print(f"{rules_name} {found} {len(pools[found])}", file=log, flush=True)
        for category in categories:
            for k, (setup, bot) in enumerate(pools[category]):
                item = setup.to_dict()
                item["id"] = f"{rules_name}-{category}-{k + 1}"
                item["category"] = category
                item["answer"] = evaluate(
                    setup, samples=samples, review_samples=review_samples, expert=bot
                )
                questions.append(item)
    return {
        "format": FORMAT,
        "version": VERSION,
        "seed": seed,
        "per_category": per_category,
        "samples": {"expert": samples, "review": review_samples},
        "questions": questions,
    }


# -- the shipped set ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Practice:
    """A practice set read from its file: the questions by id and by rules and category."""

    items: dict[str, dict[str, Any]]
    pools: dict[str, dict[str, list[str]]]

    @staticmethod
    def from_dict(obj: dict[str, Any]) -> Practice:
        if obj.get("format") != FORMAT:
            raise Texas42Error(f"not a practice set: format is not {FORMAT!r}")
        items = {item["id"]: item for item in obj["questions"]}
        pools: dict[str, dict[str, list[str]]] = {
            name: {c: [] for c in categories} for name, categories in RULE_SETS.items()
        }
        for item in obj["questions"]:
            pools[item["rules"]][item["category"]].append(item["id"])
        return Practice(items, pools)

    def order(self, rules_name: str) -> tuple[str, ...]:
        """The categories asked in turn under these rules (those the set has questions of)."""
        return tuple(c for c in RULE_SETS[rules_name] if self.pools[rules_name][c])

    def item_at(self, rules_name: str, n: int) -> dict[str, Any]:
        """Question ``n`` of the rotation: category ``n`` modulo the categories, then the next
        question of that category."""
        if rules_name not in RULE_SETS:
            raise PracticeError(
                f"rules is {' or '.join(RULE_SETS)}, not {rules_name[:40]!r}", "rules"
            )
        if not 0 <= n <= MAX_N:
            raise PracticeError(f"n is a question number 0..{MAX_N}", "n")
        order = self.order(rules_name)
        category = order[n % len(order)]
        pool = self.pools[rules_name][category]
        return self.items[pool[(n // len(order)) % len(pool)]]

    def question(self, rules_name: str, n: int) -> dict[str, Any]:
        item = self.item_at(rules_name, n)
        return question_of(Setup.from_dict(item).view(), item["id"], n, rules_name)

    def answer(self, qid: str, call: str) -> dict[str, Any]:
        """The answer to question ``qid`` for the learner's ``call`` (a legal call's notation)."""
        item = self.items.get(qid) if isinstance(qid, str) else None
        if item is None:
            raise PracticeError("id names no practice question", "id")
        setup = Setup.from_dict(item)
        view = setup.view()
        legal = [a.notation for a in view.legal]
        if call not in legal:
            raise PracticeError(
                f"call is one of the legal calls ({', '.join(legal)}), not {str(call)[:20]!r}",
                "call",
            )
        answer = item["answer"]
        rows = {row["call"]: row for row in answer["calls"]}
        expert = answer["expert"]["call"]
        marks = {name: row["marks"] for name, row in rows.items()}
        given_up = 0.0
        if call != expert and marks.get(call) is not None and marks.get(expert) is not None:
            given_up = max(0.0, round(marks[expert] - marks[call], 4))
        layout = view.layout
        return {
            "id": qid,
            "call": call,
            "category": item["category"],
            "category_words": PRACTICE_CATEGORIES[item["category"]],
            "about": practice_about_words(
                PRACTICE_CATEGORIES[item["category"]],
                answer["samples"]["expert"],
                answer["samples"]["review"],
            ),
            "expert": answer["expert"],
            "agrees": call == expert,
            "given_up": given_up,
            "verdict": practice_verdict_words(call, expert, given_up),
            "calls": answer["calls"],
            "contracts": answer["contracts"],
            "samples": answer["samples"],
            "deal": [
                {
                    "seat": s,
                    "name": layout.seat_names[s],
                    "who": _relation(view, s),
                    "tiles": [TILE_NAMES[t] for t in iter_tiles(m)],
                }
                for s, m in enumerate(setup.deal)
            ],
        }


@lru_cache(maxsize=1)
def shipped() -> Practice:
    """The practice set in the package."""
    return Practice.from_dict(json.loads(DATA.read_text(encoding="utf-8")))


def parse_call(text: str, legal: Sequence[Action]) -> str | None:
    """The notation of the legal call the learner typed (``p`` for pass), or None."""
    word = text.strip().lower()
    if word in ("p", "pass"):
        word = "pass"
    for action in legal:
        if action.notation.lower() == word:
            return action.notation
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Build the practice set: ``python -m texas42.services.learn.practice [--per-category N]
    [--seed S] [--out FILE]``."""
    parser = argparse.ArgumentParser(prog="python -m texas42.services.learn.practice")
    parser.add_argument("--per-category", type=int, default=5)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    found = build(args.per_category, args.seed, log=sys.stderr)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(found, separators=(",", ":")) + "\n", encoding="utf-8")
    seconds = time.perf_counter() - started
    print(f"{len(found['questions'])} questions in {seconds:.0f} s: {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
