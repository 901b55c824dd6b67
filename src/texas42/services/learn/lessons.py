"""Lessons for someone who has never played: guided deals whose every explanation is computed.

A lesson is a game record in the package (``data/lessons/NN-name.json``, the record format of
`texas42.core.record`, one hand) with a ``lesson`` object beside the record's fields: its
``title``, a one-line ``summary``, the ``seat`` the learner plays, ``auto`` (how many of the
hand's first actions the lesson takes itself: the auction, say, in a lesson about play), the
``intro`` (a sentence or two on the topic, true of every deal) and ``teach``: the steps (counted
from 0 over the hand's actions: calls, declaration, plays) at which the topic comes up, each with
its words on the topic. The learner makes the record's moves at their seat; the other seats'
moves are the record's.

Nothing said about the deal itself is written by hand. `check` judges a learner's move at a step
with the engine: an illegal one by the rules' own reason (`Hand.why_illegal`) and why the tile
does not follow; a legal play by the solver's value of every tile (double dummy: a lesson shows
all four hands); a bid by the most the learner's side takes with its best trump; a trump by
what each contract takes. A move as good as the lesson's (the solver's value the same) is
right too, and the lesson goes on with its own move; a move refused changes nothing (the step
is the same). The words are made in `texas42.core.words`.
"""

from __future__ import annotations

import functools
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from texas42.core.actions import ACTIONS, Action, Bid, Declare, Pass, Play
from texas42.core.auction import plain_contracts
from texas42.core.contracts import SUIT_WORDS, Contract
from texas42.core.errors import Texas42Error
from texas42.core.hand import Hand
from texas42.core.progress import Phase
from texas42.core.record import HandRecord, Record, action_seats, check_record
from texas42.core.tiles import TILE_NAMES, iter_tiles, tile_name
from texas42.core.words import (
    contract_words,
    lesson_bid_words,
    lesson_call_prompt,
    lesson_contract_words,
    lesson_declare_prompt,
    lesson_illegal_play,
    lesson_nello_outcome,
    lesson_not_following,
    lesson_outcome,
    lesson_right_play,
    lesson_sevens_detail,
    lesson_sevens_situation,
    lesson_situation,
    lesson_tied_contract,
    lesson_tied_play,
    lesson_worse_nello,
    lesson_worse_play,
)
from texas42.search.solver import PlayPosition, Solver

LESSON_ID = re.compile(r"^[0-9]{2}-[a-z0-9-]{1,40}$")
"""A lesson's id: its file's name without ``.json``."""


class LessonError(Texas42Error):
    """A lesson, step or move that is not one: ``field`` names what was wrong."""

    def __init__(self, field: str, message: str, *, missing: bool = False) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.missing = missing


@dataclass(frozen=True, slots=True)
class Lesson:
    """A lesson read from its file: the record, the script, and the hand's actions in order."""

    id: str
    title: str
    summary: str
    seat: int
    auto: int
    intro: tuple[str, ...]
    teach: dict[int, str]
    record: Record
    actions: tuple[Action, ...]
    seats: tuple[int, ...]

    @property
    def hand_record(self) -> HandRecord:
        return self.record.hands[0]

    @property
    def steps(self) -> tuple[int, ...]:
        """The steps at which the learner moves (the lesson's own moves at the learner's seat)."""
        return tuple(k for k in range(self.auto, len(self.actions)) if self.seats[k] == self.seat)

    def hand_at(self, step: int) -> Hand:
        """The hand after the lesson's first ``step`` actions."""
        played = self.hand_record
        hand = Hand(self.record.rules, played.shaker, played.deal, played.widow)
        for action in self.actions[:step]:
            hand.apply(action)
        return hand

    def next_step(self, after: int) -> int | None:
        """The learner's first step at or after ``after``; None when the lesson is over."""
        return next((k for k in self.steps if k >= after), None)


def _actions(record: HandRecord) -> tuple[Action, ...]:
    actions: list[Action] = [*record.auction]
    if record.contract is not None:
        actions.append(Declare(record.contract))
    actions.extend(Play(t) for t in record.play)
    return tuple(actions)


def read_lesson(lesson_id: str, text: str) -> Lesson:
    """A lesson from its file's text; a file that is not one raises `LessonError`."""
    try:
        record = Record.from_json(text)
        check_record(record)
    except Texas42Error as exc:
        raise LessonError("record", f"lesson {lesson_id}: {exc}") from None
    script = json.loads(text).get("lesson")
    if not isinstance(script, dict) or len(record.hands) != 1:
        raise LessonError("lesson", f"lesson {lesson_id} has no script or not one hand")
    hand = record.hands[0]
    seats = action_seats(record.rules, hand)
    teach = {int(k): str(v) for k, v in dict(script.get("teach", {})).items()}
    lesson = Lesson(
        id=lesson_id,
        title=str(script["title"]),
        summary=str(script["summary"]),
        seat=int(script["seat"]),
        auto=int(script.get("auto", 0)),
        intro=tuple(str(line) for line in script.get("intro", [])),
        teach=teach,
        record=record,
        actions=_actions(hand),
        seats=seats,
    )
    stray = [k for k in teach if k not in lesson.steps]
    if stray or not lesson.steps:
        raise LessonError("teach", f"lesson {lesson_id}: steps {stray} are not the learner's")
    return lesson


@functools.cache
def lessons() -> tuple[Lesson, ...]:
    """Every shipped lesson, in the course's order (by file name)."""
    folder = resources.files("texas42.services.learn").joinpath("data", "lessons")
    found = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            found.append(read_lesson(entry.name[: -len(".json")], entry.read_text("utf-8")))
    return tuple(found)


def lesson(lesson_id: object) -> Lesson:
    """The lesson of that id; `LessonError` (``missing``) for any other text."""
    if isinstance(lesson_id, str) and LESSON_ID.match(lesson_id):
        for found in lessons():
            if found.id == lesson_id:
                return found
    shown = str(lesson_id)[:48]
    raise LessonError("lesson", f"no lesson {shown!r}", missing=True)


@dataclass(frozen=True, slots=True)
class Verdict:
    """A learner's move judged: ``right`` lets the lesson go on (with the lesson's own move);
    ``legal`` is the rules' say; ``text`` the words; ``better`` the lesson's move when this one
    was not it (refused, or right as good as it)."""

    step: int
    move: str
    right: bool
    legal: bool
    text: str
    better: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "move": self.move,
            "right": self.right,
            "legal": self.legal,
            "text": self.text,
            "better": self.better,
        }


_solvers: list[Solver] = []
_solver_lock = threading.Lock()


def _solve(fn: Callable[..., Verdict], *args: Any) -> Verdict:
    """Run ``fn(solver, *args)`` with the one solver of this process (a solver is not shared
    between threads), made when first needed."""
    with _solver_lock:
        if not _solvers:
            _solvers.append(Solver())
        return fn(_solvers[0], *args)


def move_notation(action: Action) -> str:
    """A move as the learner sends it: a call (``34``, ``pass``), a contract, or a tile."""
    if isinstance(action, Play):
        return tile_name(action.tile)
    if isinstance(action, Declare):
        return str(action.contract)
    return action.notation


def _side_of(hand: Hand, seat: int) -> int:
    return hand.layout.side_of[seat]


def _bid_words(hand: Hand) -> str | None:
    return None if hand.high_id is None else ACTIONS[hand.high_id].notation


def _bidding(hand: Hand, seat: int) -> bool:
    return hand.high_seat is not None and _side_of(hand, hand.high_seat) == _side_of(hand, seat)


def _nello(hand: Hand) -> bool:
    return hand.contract is not None and hand.contract.kind == "nello"


def _own(hand: Hand, seat: int, bidders_total: int) -> int:
    """What a bidders' total is worth to the learner's side, higher better: its points, or at
    Nel-O the tricks the bidder takes, counted against the bidder's side."""
    if _nello(hand):
        return -bidders_total if _bidding(hand, seat) else bidders_total
    return bidders_total if _bidding(hand, seat) else hand.layout.total - bidders_total


def _outcome(hand: Hand, seat: int, bidders_total: int) -> str:
    bidding = _bidding(hand, seat)
    if _nello(hand):
        return lesson_nello_outcome(bidders_total, bidding)
    goal = PlayPosition.from_hand(hand).goal
    return lesson_outcome(
        _own(hand, seat, bidders_total),
        "point",
        _bid_words(hand),
        bidding,
        bidders_total >= goal,
    )


def play_values(solver: Solver, hand: Hand) -> dict[int, int]:
    """Each legal tile's bidders' total at the end of the hand, double dummy (every trick
    played, an early end ignored)."""
    position = PlayPosition.from_hand(hand)
    return {t: position.taken + v for t, v in solver.move_values(position).items()}


def rated_contracts(hand: Hand) -> list[Contract]:
    """For a hand whose contract is to be named: the contracts a lesson rates and offers (a
    trump suit, doubles, follow-me), of those the declarer may name."""
    assert hand.high_id is not None
    plain = plain_contracts(hand.rules, hand.high_id, hand.bid_marks)
    return [c for c in plain if c.kind in ("suit", "doubles", "follow-me")]


def choices(lesson: Lesson, step: int) -> list[str]:
    """What the learner may pick at ``step``: every tile they hold, highest first (the rules
    judge it, so an illegal tile can be tried and explained), the legal calls, or the
    contracts `contract_values` rates."""
    hand = lesson.hand_at(step)
    if hand.phase == Phase.PLAY:
        return [TILE_NAMES[t] for t in iter_tiles(hand.hands[lesson.seat])][::-1]
    if hand.phase == Phase.DECLARE:
        return [str(c) for c in rated_contracts(hand)]
    return [move_notation(a) for a in hand.legal_actions()]


def contract_values(solver: Solver, hand: Hand) -> dict[str, int]:
    """For a hand whose contract is to be named: each rated contract's bidders' total under
    best play (`rated_contracts`, by its notation)."""
    found = {}
    for contract in rated_contracts(hand):
        trial = hand.copy()
        trial.apply(Declare(contract))
        position = PlayPosition.from_hand(trial)
        found[str(contract)] = position.taken + solver.value(position)
    return found


def best_take(solver: Solver, hand: Hand, bid: Action) -> tuple[int, str]:
    """The most the bidder's side takes, with its best trump, if ``bid`` wins the auction with
    every later seat passing: (total, contract)."""
    trial = hand.copy()
    trial.apply(bid)
    while trial.phase == Phase.AUCTION:
        trial.apply(Pass())
    values = contract_values(solver, trial)
    best = max(values, key=lambda name: (values[name], name))
    return values[best], best


def _not_following(hand: Hand, tile: int) -> str:
    tables = hand.tables
    if tables is not None and tables.sevens:
        held = hand.hands[hand.turn]
        closest = min(abs(7 - _pips(t)) for t in iter_tiles(held))
        return lesson_sevens_detail(TILE_NAMES[tile], _pips(tile), closest)
    if tables is None or not hand.trick:
        return ""
    suit = tables.led[hand.trick[0]]
    high, low = _ends(tile)
    trump = tables.trump_mask >> tile & 1
    contract = hand.contract
    if suit < 7 and suit in (high, low) and trump and contract is not None:
        return lesson_not_following(
            TILE_NAMES[tile], SUIT_WORDS[suit], suit, contract_words(contract)
        )
    return lesson_not_following(TILE_NAMES[tile], SUIT_WORDS[suit], None, None)


def _pips(tile: int) -> int:
    return sum(_ends(tile))


def _ends(tile: int) -> tuple[int, int]:
    """A tile's two ends, higher first."""
    name = TILE_NAMES[tile]
    return int(name[0]), int(name[2])


def situation(lesson: Lesson, step: int) -> str:
    """The learner's turn at ``step`` as the rules make it (which tiles may be played), or what
    the step asks for (a bid, a trump)."""
    hand = lesson.hand_at(step)
    if hand.phase == Phase.AUCTION:
        return lesson_call_prompt(hand.legal_actions())
    if hand.phase == Phase.DECLARE:
        return lesson_declare_prompt(choices(lesson, step))
    tables = hand.tables
    held = hand.hands[lesson.seat]
    legal = [TILE_NAMES[t] for t in iter_tiles(hand.legal_mask() & held)]
    contract = hand.contract
    trump = None
    if contract is not None and contract.kind in ("suit", "doubles"):
        trump = contract_words(contract)
    if tables is not None and tables.sevens:
        return lesson_sevens_situation(legal)
    if not hand.trick or tables is None:
        return lesson_situation(None, None, legal, False, trump)
    led = hand.trick[0]
    suit = tables.led[led]
    holds_suit = bool(held & tables.follow[suit])
    return lesson_situation(TILE_NAMES[led], SUIT_WORDS[suit], legal, holds_suit, trump)


def check(lesson: Lesson, step: object, move: object) -> Verdict:
    """Judge the learner's ``move`` (a call, a contract or a tile, as `move_notation` writes
    it) at ``step``; `LessonError` for a step that is not the learner's or a move that is no
    move there."""
    if not isinstance(step, int) or isinstance(step, bool) or step not in lesson.steps:
        upcoming = ", ".join(str(k) for k in lesson.steps)
        raise LessonError("step", f"{str(step)[:16]!r} is not one of your steps ({upcoming})")
    if not isinstance(move, str) or not move.strip() or len(move) > 32:
        raise LessonError("move", "a move is a call, a contract or a tile such as 6-4")
    return _check(lesson.id, step, move.strip().lower())


@functools.lru_cache(maxsize=4096)
def _check(lesson_id: str, step: int, move: str) -> Verdict:
    found = lesson(lesson_id)
    hand = found.hand_at(step)
    try:
        action = hand.parse_action(move)
    except Texas42Error as exc:
        raise LessonError("move", f"{move[:32]!r} is no move here: {exc}") from None
    intended = found.actions[step]
    said, best = move_notation(action), move_notation(intended)
    if isinstance(action, Play) and not hand.hands[found.seat] >> action.tile & 1:
        raise LessonError("move", f"you do not hold {said}")
    why = hand.why_illegal(action)
    if why is not None:
        detail = _not_following(hand, action.tile) if isinstance(action, Play) else ""
        return Verdict(step, said, False, False, lesson_illegal_play(said, why, detail, best), best)
    if isinstance(action, Play):
        return _solve(_judge_play, found, hand, step, action.tile, intended)
    if isinstance(action, Declare):
        return _solve(_judge_contract, found, hand, step, said, best)
    return _solve(_judge_call, found, hand, step, action, intended)


def _judge_play(
    solver: Solver, lesson: Lesson, hand: Hand, step: int, tile: int, to: Action
) -> Verdict:
    assert isinstance(to, Play)
    values = play_values(solver, hand)
    seat = lesson.seat
    own = {t: _own(hand, seat, v) for t, v in values.items()}
    said, best = TILE_NAMES[tile], TILE_NAMES[to.tile]
    if tile == to.tile:
        also = [
            TILE_NAMES[t] for t in sorted(own, reverse=True) if t != tile and own[t] == own[tile]
        ]
        text = lesson_right_play(said, also, _outcome(hand, seat, values[tile]))
        return Verdict(step, said, True, True, text, None)
    if own[tile] == own[to.tile]:
        text = lesson_tied_play(said, best, _outcome(hand, seat, values[tile]))
        return Verdict(step, said, True, True, text, best)
    outcome = _outcome(hand, seat, values[tile])
    if _nello(hand):
        text = lesson_worse_nello(said, best, values[to.tile], values[tile], outcome)
    else:
        text = lesson_worse_play(said, best, own[to.tile], own[tile], "point", outcome)
    return Verdict(step, said, False, True, text, best)


def _judge_contract(
    solver: Solver, lesson: Lesson, hand: Hand, step: int, said: str, best: str
) -> Verdict:
    values = contract_values(solver, hand)
    goal = hand.layout.total if hand.bid_marks else hand.high_value
    bid = _bid_words(hand) or ""
    chosen = values.get(said)
    if chosen is None:  # a contract the solver's list does not value (by-lead and the like)
        trial = hand.copy()
        trial.apply(hand.parse_action(said))
        position = PlayPosition.from_hand(trial)
        chosen = position.taken + solver.value(position)
    chosen_words, best_words = (contract_words(Declare(x).contract) for x in (said, best))
    if said != best and chosen == values[best]:
        words = lesson_tied_contract(chosen_words, best_words, chosen, bid)
        return Verdict(step, said, True, True, words, best)
    words = lesson_contract_words(chosen_words, chosen, best_words, values[best], bid, goal)
    if said == best:
        return Verdict(step, said, True, True, words, None)
    return Verdict(step, said, False, True, words, best)


def _judge_call(
    solver: Solver, lesson: Lesson, hand: Hand, step: int, call: Action, to: Action
) -> Verdict:
    total, contract = best_take(solver, hand, to)
    said, best = move_notation(call), move_notation(to)
    trump = contract_words(Declare(contract).contract)
    if isinstance(call, Bid) and call.id == to.id:
        higher = total < hand.layout.total  # a mark bid needs every point: it would be set
        text = lesson_bid_words(said, best, total, trump, True, True, higher_set=higher)
        return Verdict(step, said, True, True, text, None)
    makes = False
    if isinstance(call, Bid):
        made_total, _ = best_take(solver, hand, call)
        trial = hand.copy()
        trial.apply(call)
        needs = trial.layout.total if trial.bid_marks else trial.high_value
        makes = made_total >= needs
    text = lesson_bid_words(said, best, total, trump, makes, False)
    return Verdict(step, said, False, True, text, best)


__all__ = [
    "Lesson",
    "LessonError",
    "Verdict",
    "best_take",
    "check",
    "choices",
    "contract_values",
    "lesson",
    "lessons",
    "move_notation",
    "play_values",
    "rated_contracts",
    "read_lesson",
    "situation",
]
