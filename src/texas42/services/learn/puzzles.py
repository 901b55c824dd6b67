"""Play puzzles found by the solver: positions where exactly one play (or two) makes or sets the
contract with best play from there, each with the line of best play that proves it.

A puzzle is a position of a hand that bots played out (`build`), written in the project's
position notation (`texas42.core.notation`). The seat to move belongs to the side that can get
its way with best play: the bidders can make the contract, or the defenders can set it; and at
most two of the seat's legal tiles keep that result, while at least as many lose it. Each legal
tile carries the total the solver gives the bidders after it (every trick played out) and its
line: that tile, then best play by every seat until the hand ends under the rules (a hand ends
as soon as the bid is made or set, so the line stops there).

The grade (1 to 5) comes from the search alone: how many legal tiles lose (`Puzzle.losing`),
how many tricks are left (`Puzzle.tricks_left`), and how many tricks the answer's line takes
to decide the hand (`Puzzle.depth`); see `grade_of`.

The shipped set is ``data/puzzles.json``, written by::

    python -m texas42.services.learn.puzzles build --count 200 --seed 42 --out PATH

Reading the set, the daily puzzle and the answers need the core alone: no solver, no numpy.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import hashlib
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from texas42.core import words
from texas42.core.actions import Play
from texas42.core.errors import NotationError, Texas42Error
from texas42.core.hand import Hand
from texas42.core.notation import hand_position, parse_hand_position
from texas42.core.progress import Phase
from texas42.core.rules import Rules
from texas42.core.tiles import TILE_CODES, parse_tile, tile_name, tiles_of

if TYPE_CHECKING:
    from texas42.search.solver import PlayPosition, Solver

DATA = Path(__file__).parent / "data" / "puzzles.json"
"""The shipped set."""

RULES = ("standard", "house")
"""The rules the shipped set's deals are played under, one deal each in turn."""

MAX_ANSWERS = 2
"""The most winning tiles a puzzle may have."""

GRADES = (1, 2, 3, 4, 5)

WEEKDAY_GRADES = (1, 2, 2, 3, 3, 4, 5)
"""The daily puzzle's grade on each weekday, Monday first: easy early in the week."""

ID_PATTERN = re.compile(r"^p[0-9a-f]{8}$")
DATE_PATTERN = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")


class PuzzleError(Texas42Error):
    """A puzzle asked for that does not exist, a date that is not one, or an answer refused.

    ``field`` names what was wrong (``id``, ``date`` or ``tile``)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class UnknownPuzzle(PuzzleError):
    """An id written as ids are, of no puzzle in the set."""


@dataclass(frozen=True, slots=True)
class Move:
    """One legal tile of the puzzle: the bidders' total after it with best play (every trick
    played out), whether that total makes the contract, and its line (the tile first)."""

    tile: int
    total: int
    makes: bool
    line: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "tile": TILE_CODES[self.tile],
            "total": self.total,
            "makes": self.makes,
            "line": ".".join(TILE_CODES[t] for t in self.line),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Move:
        return cls(
            tile=parse_tile(data["tile"]),
            total=int(data["total"]),
            makes=bool(data["makes"]),
            line=tuple(parse_tile(t) for t in data["line"].split(".")),
        )


@dataclass(frozen=True)
class Puzzle:
    """A position, its legal tiles valued double dummy, and its grade."""

    id: str
    position: str
    moves: tuple[Move, ...]
    tricks_left: int
    depth: int
    grade: int

    @functools.cached_property
    def hand(self) -> Hand:
        return parse_hand_position(self.position)[0]

    @property
    def seat(self) -> int:
        turn = self.hand.seat_to_act()
        assert turn is not None  # a puzzle is a hand in play
        return turn

    @property
    def make(self) -> bool:
        """Whether the seat to move is on the bidding side (its task: make the contract)."""
        hand = self.hand
        assert hand.high_seat is not None
        return hand.layout.same_side(self.seat, hand.high_seat)

    @property
    def answers(self) -> tuple[int, ...]:
        """The tiles that get the seat's side its way, highest first."""
        return tuple(m.tile for m in self.moves if m.makes == self.make)

    @property
    def losing(self) -> int:
        return len(self.moves) - len(self.answers)

    def move(self, tile: int) -> Move:
        return next(m for m in self.moves if m.tile == tile)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "position": self.position,
            "grade": self.grade,
            "tricks_left": self.tricks_left,
            "depth": self.depth,
            "losing": self.losing,
            "answers": [TILE_CODES[t] for t in self.answers],
            "moves": [m.to_dict() for m in self.moves],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Puzzle:
        return cls(
            id=str(data["id"]),
            position=str(data["position"]),
            moves=tuple(Move.from_dict(m) for m in data["moves"]),
            tricks_left=int(data["tricks_left"]),
            depth=int(data["depth"]),
            grade=int(data["grade"]),
        )


def grade_of(losing: int, answers: int, tricks_left: int, depth: int) -> int:
    """The difficulty, 1 to 5, from the search's figures: each losing tile, each trick left and
    each trick the winning line needs to decide the hand makes a puzzle harder; a second answer
    makes it easier.

    >>> grade_of(losing=1, answers=1, tricks_left=1, depth=1)
    1
    >>> grade_of(losing=5, answers=1, tricks_left=6, depth=5)
    5
    """
    score = 2 * losing + tricks_left + depth - 2 * (answers - 1)
    for grade, ceiling in enumerate((6, 9, 12, 15), 1):
        if score <= ceiling:
            return grade
    return 5


def puzzle_id(position: str) -> str:
    """A puzzle's id: a short digest of its position, stable across builds."""
    return "p" + hashlib.sha256(position.encode()).hexdigest()[:8]


# -- the shipped set ----------------------------------------------------------------------------


@functools.cache
def load(path: Path = DATA) -> tuple[Puzzle, ...]:
    """The puzzles of a set file, in the file's order (by grade, then id)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return tuple(Puzzle.from_dict(p) for p in data["puzzles"])


def by_id(puzzle_id: str, puzzles: Sequence[Puzzle] | None = None) -> Puzzle:
    """The puzzle with this id; raises `PuzzleError` (field ``id``) for any other text."""
    if not isinstance(puzzle_id, str) or not ID_PATTERN.match(puzzle_id):
        raise PuzzleError("id", "id: a puzzle's id is p and eight hex digits, like p0123abcd")
    for puzzle in load() if puzzles is None else puzzles:
        if puzzle.id == puzzle_id:
            return puzzle
    raise UnknownPuzzle("id", f"id: no puzzle {puzzle_id}")


def parse_date(text: str) -> datetime.date:
    """A calendar date written ``YYYY-MM-DD``; raises `PuzzleError` (field ``date``)."""
    if not isinstance(text, str) or not DATE_PATTERN.match(text):
        raise PuzzleError("date", "date: write the day as YYYY-MM-DD, like 2026-12-02")
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise PuzzleError("date", f"date: {text} is not a day of the calendar") from None


def daily(day: datetime.date, puzzles: Sequence[Puzzle] | None = None) -> Puzzle:
    """The puzzle of the day, the same for everyone: a pure function of the date.

    The weekday picks the grade (`WEEKDAY_GRADES`, easy on Monday, hardest on Sunday); a digest
    of the ISO week picks where in that grade's puzzles the week starts, and each day of the
    week steps one on, so that no two days of a week share a puzzle.
    """
    pool = tuple(load() if puzzles is None else puzzles)
    if not pool:
        raise PuzzleError("date", "date: there are no puzzles to choose from")
    year, week, weekday = day.isocalendar()
    band = [p for p in pool if p.grade == WEEKDAY_GRADES[weekday - 1]]
    if len(band) < 7:
        band = list(pool)
    digest = hashlib.sha256(f"texas42-puzzle {year}-W{week:02d}".encode()).digest()
    start = int.from_bytes(digest[:8], "big")
    return band[(start + weekday - 1) % len(band)]


# -- what the learner is shown --------------------------------------------------------------------


def _names(hand: Hand) -> tuple[list[str], list[str]]:
    seats = list(hand.layout.seat_names)
    return seats, words.side_labels(hand.layout, seats)


def _needed(hand: Hand) -> int:
    """What the bidders need to make it, on the scale the words use (points; Nel-O: no trick)."""
    assert hand.contract is not None
    if hand.contract.kind == "nello":
        return 0
    return hand.layout.total if hand.bid_marks else hand.high_value


def _unit(hand: Hand) -> str:
    assert hand.contract is not None
    return "trick" if hand.contract.kind == "nello" else "point"


def _bidders_score(hand: Hand) -> int:
    """What the bidders have taken so far: points, or for Nel-O the bidder's tricks."""
    assert hand.high_seat is not None and hand.contract is not None
    if hand.contract.kind == "nello":
        return sum(1 for t in hand.tricks if t.winner == hand.high_seat)
    return hand.points[hand.layout.side_of[hand.high_seat]]


def summary(puzzle: Puzzle) -> dict[str, Any]:
    """A puzzle as the list shows it: no tiles, no answer."""
    hand = puzzle.hand
    assert hand.contract is not None
    seats, _ = _names(hand)
    return {
        "id": puzzle.id,
        "grade": puzzle.grade,
        "grade_words": words.puzzle_grade_words(puzzle.grade),
        "contract": words.contract_said(str(hand.contract)),
        "task": words.puzzle_task(seats[puzzle.seat], puzzle.make),
        "tricks_left": puzzle.tricks_left,
        "label": words.puzzle_label(
            words.contract_said(str(hand.contract)),
            puzzle.tricks_left,
            seats[puzzle.seat],
            puzzle.make,
        ),
    }


def _plays(seats: Sequence[int], tiles: Sequence[int]) -> list[dict[str, Any]]:
    return [{"seat": s, "tile": tile_name(t)} for s, t in zip(seats, tiles)]


def next_id(puzzle: Puzzle, puzzles: Sequence[Puzzle] | None = None) -> str:
    """The id of the puzzle after this one in the set (the first after the last)."""
    pool = load() if puzzles is None else puzzles
    ids = [p.id for p in pool]
    return ids[(ids.index(puzzle.id) + 1) % len(ids)] if puzzle.id in ids else ids[0]


def show(puzzle: Puzzle) -> dict[str, Any]:
    """The position as the learner sees it: every hand (double dummy), the trick on the table,
    the tricks before it, the contract and the task; not the answer. ``next`` is the id of the
    next puzzle in the set."""
    hand = puzzle.hand
    assert hand.contract is not None and hand.high_seat is not None
    seats, sides = _names(hand)
    view = hand.view(puzzle.seat)
    bidders = sides[hand.layout.side_of[hand.high_seat]]
    return {
        **summary(puzzle),
        "position": puzzle.position,
        "rules": str(hand.rules),
        "seat": puzzle.seat,
        "seat_names": seats,
        "bidder": hand.high_seat,
        "contract_line": words.contract_line(view),
        "make": puzzle.make,
        "standing": words.puzzle_standing(
            seats[hand.high_seat] if _unit(hand) == "trick" else bidders,
            _bidders_score(hand),
            _needed(hand),
            _unit(hand),
            len(hand.tricks),
        ),
        "hands": [[tile_name(t) for t in tiles_of(m)] for m in hand.hands],  # highest first
        "trick": _plays(hand.trick_seats, hand.trick),
        "tricks": [
            {"plays": _plays(t.seats, t.tiles), "winner": t.winner, "points": t.points}
            for t in hand.tricks
        ],
        "legal": [tile_name(m.tile) for m in puzzle.moves],
        "next": next_id(puzzle),
    }


def replay_line(puzzle: Puzzle, move: Move) -> dict[str, Any]:
    """A move's line trick by trick, every seat's play (the plays already on the table marked
    ``before``), and how the hand ended: made or set, and the bidders' points then."""
    hand = puzzle.hand.copy()
    assert hand.high_seat is not None
    seats, sides = _names(hand)
    start = len(hand.tricks)
    before = len(hand.trick)
    for t in move.line:
        hand.apply(Play(t))
    assert hand.result is not None  # a line runs to the end of the hand
    tricks = []
    for number, trick in enumerate(hand.tricks[start:], start + 1):
        plays = _plays(trick.seats, trick.tiles)
        for k, play in enumerate(plays):
            play["before"] = number == start + 1 and k < before
        tricks.append(
            {
                "number": number,
                "plays": plays,
                "winner": trick.winner,
                "points": trick.points,
                "words": words.trick_taken(seats[trick.winner], number, trick.points),
            }
        )
    bidders = sides[hand.layout.side_of[hand.high_seat]]
    score = _bidders_score(hand)
    made = bool(hand.result.made)
    return {
        "tile": tile_name(move.tile),
        "made": made,
        "points": score,
        "needed": _needed(hand),
        "total": move.total,
        "tricks": tricks,
        "result": words.puzzle_result(
            bidders, made, score, _needed(hand), _unit(hand), len(hand.tricks)
        ),
    }


def answer(puzzle: Puzzle, tile_text: str) -> dict[str, Any]:
    """The verdict on a tile: right or wrong, in words, with the tile's line (for a wrong tile,
    the line that refutes it) and the answer's line (the line that proves it)."""
    hand = puzzle.hand
    try:
        tile = parse_tile(tile_text) if isinstance(tile_text, str) else -1
    except NotationError:
        tile = -1
    if tile < 0:
        raise PuzzleError("tile", "tile: write a tile like 6-4")
    legal = {m.tile for m in puzzle.moves}
    if tile not in legal:
        reason = hand.why_illegal(Play(tile)) or "it is not a legal play here"
        raise PuzzleError("tile", f"tile: {tile_name(tile)} cannot be played: {reason}")
    _, sides = _names(hand)
    right = tile in puzzle.answers
    chosen = puzzle.move(tile)
    best = chosen if right else puzzle.move(puzzle.answers[0])
    lines = [replay_line(puzzle, chosen)]
    lines[0]["title"] = words.puzzle_line_title(tile_name(tile), proves=right, after_answer=right)
    if not right:
        lines.append(replay_line(puzzle, best))
        lines[1]["title"] = words.puzzle_line_title(tile_name(best.tile), proves=True)
    assert hand.high_seat is not None
    return {
        "id": puzzle.id,
        "tile": tile_name(tile),
        "right": right,
        "answers": [tile_name(t) for t in puzzle.answers],
        "verdict": words.puzzle_verdict(
            right,
            tile_name(tile),
            [tile_name(t) for t in puzzle.answers],
            puzzle.make,
            sides[hand.layout.side_of[hand.high_seat]],
            chosen.total,
            _needed(hand),
            _unit(hand),
        ),
        "lines": lines,
    }


# -- finding puzzles (the solver) -----------------------------------------------------------------


def makes(position: PlayPosition, total: int) -> bool:
    """Whether a total for the bidders (``position.taken`` included) makes the contract."""
    return total <= 0 if position.nello else total >= position.goal


def best_line(hand: Hand, position: PlayPosition, solver: Solver) -> list[int]:
    """Best play by every seat from here until the hand ends: at each turn the tile the solver
    values best for the seat's side (the highest such tile on a tie)."""
    hand = hand.copy()
    line = []
    while not hand.is_over:
        values = solver.move_values(position)
        pick = max if position.maximizing(position.turn) else min
        value = pick(values.values())
        tile = max(t for t, v in values.items() if v == value)
        line.append(tile)
        hand.apply(Play(tile))
        position = position.play(tile)
    return line


def solve_moves(hand: Hand, solver: Solver) -> tuple[Move, ...]:
    """Every legal tile of a hand in play, valued and with its line, highest tile first."""
    from texas42.search.solver import PlayPosition

    position = PlayPosition.from_hand(hand)
    values = solver.move_values(position)
    moves = []
    for tile in sorted(values, reverse=True):
        after = hand.copy()
        after.apply(Play(tile))
        child = position.play(tile)
        total = position.taken + values[tile]
        rest = [] if after.is_over else best_line(after, child, solver)
        moves.append(Move(tile, total, makes(position, total), (tile, *rest)))
    return tuple(moves)


def examine(hand: Hand, solver: Solver) -> Puzzle | None:
    """The hand's position as a puzzle, or None if it is not one: the side to move can get its
    way, at most `MAX_ANSWERS` tiles do it, and at least as many tiles lose it."""
    from texas42.search.solver import PlayPosition

    if hand.phase != Phase.PLAY or hand.high_seat is None:
        return None
    position = PlayPosition.from_hand(hand)
    values = solver.move_values(position)
    turn = hand.seat_to_act()
    assert turn is not None
    make = hand.layout.same_side(turn, hand.high_seat)
    winning = [t for t, v in values.items() if makes(position, position.taken + v) == make]
    if not 1 <= len(winning) <= MAX_ANSWERS or len(values) - len(winning) < len(winning):
        return None
    moves = solve_moves(hand, solver)
    text = hand_position(hand)
    answer_move = next(m for m in moves if m.makes == make)
    depth = _tricks_in(hand, answer_move.line)
    tricks_left = hand.layout.tricks - len(hand.tricks)
    losing = len(moves) - len(winning)
    return Puzzle(
        id=puzzle_id(text),
        position=text,
        moves=moves,
        tricks_left=tricks_left,
        depth=depth,
        grade=grade_of(losing, len(winning), tricks_left, depth),
    )


def _tricks_in(hand: Hand, line: Sequence[int]) -> int:
    """How many tricks a line completes from the hand's position (the trick under way first)."""
    after = hand.copy()
    for t in line:
        after.apply(Play(t))
    return len(after.tricks) - len(hand.tricks)


def play_deal(rules: Rules, shaker: int, seed: int, bot: str) -> list[Hand]:
    """A deal shaken from ``seed`` and played out by four ``bot`` players: the hand at each of
    its play positions, in order (none if the hand never reached play)."""
    import random

    from texas42.players import make_bot

    rng = random.Random(seed)
    hand = Hand.random(rules, shaker, rng)
    bots = [make_bot(bot, seed=seed * 8 + s) for s in range(hand.layout.seats)]
    positions = []
    while not hand.is_over:
        if hand.phase == Phase.PLAY:
            positions.append(hand.copy())
        seat = hand.seat_to_act()
        assert seat is not None
        hand.apply(bots[seat].choose(hand.view(seat)))
    return positions


def build(count: int, seed: int, deals: int, bot: str = "rules") -> list[Puzzle]:
    """Play ``deals`` deals (seeds ``seed``, ``seed + 1``, ...; rules in turn from `RULES`),
    take at most one puzzle from each, the one of the grade the set has fewest of so far (then
    the hardest), and stop at ``count``. The set comes back by grade, then id."""
    from texas42.search.solver import Solver

    solver = Solver()
    chosen: list[Puzzle] = []
    seen: set[str] = set()
    tally: Counter[int] = Counter()
    for k in range(deals):
        if len(chosen) >= count:
            break
        rules = Rules.preset(RULES[k % len(RULES)])
        found = []
        for hand in play_deal(rules, k % 4, seed + k, bot):
            solver.new_table()
            puzzle = examine(hand, solver)
            if puzzle is not None and puzzle.id not in seen:
                found.append(puzzle)
        if found:
            pick = min(found, key=lambda p: (tally[p.grade], -p.grade, p.id))
            chosen.append(pick)
            seen.add(pick.id)
            tally[pick.grade] += 1
    return sorted(chosen, key=lambda p: (p.grade, p.id))


def write(puzzles: Sequence[Puzzle], path: Path, command: str) -> None:
    """A set file: what wrote it, then one puzzle a line (so a rebuild's diff reads well)."""
    about = "Play puzzles found by the solver (texas42.services.learn.puzzles)."
    lines = [
        "{",
        f' "about": {json.dumps(about)},',
        f' "command": {json.dumps(command)},',
        ' "puzzles": [',
        ",\n".join("  " + json.dumps(p.to_dict(), separators=(",", ":")) for p in puzzles),
        " ]",
        "}",
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m texas42.services.learn.puzzles")
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("build", help="find puzzles in bot-played deals")
    make.add_argument("--count", type=int, default=200, help="puzzles wanted")
    make.add_argument("--seed", type=int, default=42, help="the first deal's seed")
    make.add_argument("--deals", type=int, default=2000, help="the most deals to play")
    make.add_argument("--bot", default="rules", help="the bot playing every seat")
    make.add_argument("--out", type=Path, default=DATA, help="the set file to write")
    args = parser.parse_args(argv)
    if args.count < 1 or args.deals < 1:
        parser.error("--count and --deals: at least 1")
    started = time.process_time()
    puzzles = build(args.count, args.seed, args.deals, args.bot)
    command = (
        f"python -m texas42.services.learn.puzzles build --count {args.count} "
        f"--seed {args.seed} --deals {args.deals} --bot {args.bot}"
    )
    write(puzzles, args.out, command)
    grades = Counter(p.grade for p in puzzles)
    spent = time.process_time() - started
    print(
        f"{len(puzzles)} puzzles to {args.out} in {spent:.0f} s of CPU; by grade: "
        + ", ".join(f"{g}: {grades[g]}" for g in GRADES),
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
