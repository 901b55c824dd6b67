"""The lessons in the terminal, a line at a time (``texas42 learn [LESSON]``), as the line game.

The same lessons as the web's ``/learn`` (`texas42.services.learn.lessons`): every hand is shown
(a lesson is played open), the lesson makes the other seats' moves, and each move the learner
types is judged by the engine: a wrong one is refused with the reason and the better play and
asked again; the lesson's own, or one the solver values as much, is confirmed and the lesson
goes on with its own. Every sentence is the
engine's (`texas42.core.words`, `texas42.services.learn.lessons`).
"""

from __future__ import annotations

import sys
from typing import TextIO

from rich.console import Console

from texas42.core.actions import Declare
from texas42.core.hand import Hand
from texas42.core.tiles import hand_name
from texas42.core.words import action_said, contract_line, hand_headline, trick_taken
from texas42.services.learn.lessons import Lesson, LessonError, check, lesson, lessons, situation

UNKNOWN_LESSON = 2
"""Exit status for a lesson that does not exist."""
QUIT_WORDS = ("quit", "exit", "q")


def course_lines() -> list[str]:
    """The course as ``texas42 learn`` lists it: id, title and summary, one lesson a line."""
    return [f"{x.id:<15} {x.title}: {x.summary}" for x in lessons()]


class _Lesson:
    def __init__(self, found: Lesson, input_stream: TextIO, console: Console) -> None:
        self.found = found
        self.input = input_stream
        self.console = console
        self.names = list(found.record.players or found.record.rules.layout.seat_names)
        self.names[found.seat] = "You"

    def say(self, text: str = "", style: str | None = None) -> None:
        self.console.print(text, style=style, markup=False, highlight=False, soft_wrap=True)

    def show_hands(self, hand: Hand) -> None:
        for seat in range(hand.layout.seats):
            if seat == hand.out_seat:
                continue
            label = f"{hand.layout.seat_names[seat]}{' (you)' if seat == self.found.seat else ''}"
            self.say(f"  {label:<12} {hand_name(hand.hands[seat])}")

    def apply(self, hand: Hand, step: int) -> None:
        action = self.found.actions[step]
        tricks = len(hand.tricks)
        hand.apply(action)
        self.say(action_said(self.names[self.found.seats[step]], action, own=True))
        if isinstance(action, Declare):
            self.say(contract_line(hand.view(self.found.seat), self.names))
        if len(hand.tricks) > tricks:
            trick = hand.tricks[-1]
            self.say(trick_taken(self.names[trick.winner], len(hand.tricks), trick.points))

    def run(self) -> int:
        found = self.found
        self.say(found.title, style="bold")
        for line in found.intro:
            self.say(line)
        self.say(
            "Every hand is shown. Type your move (a tile such as 6-4, a bid, a trump); quit stops."
        )
        hand = found.hand_at(0)
        if found.steps[0] > 0:  # else the first question shows them
            self.show_hands(hand)
        for step in range(len(found.actions)):
            if step in found.steps and not self.ask(hand, step):
                self.say("You leave the lesson.")
                return 0
            self.apply(hand, step)
        assert hand.result is not None
        self.say(hand_headline(hand.view(found.seat), hand.result), style="bold")
        self.say("Lesson done.")
        return 0

    def ask(self, hand: Hand, step: int) -> bool:
        """Ask for the learner's move at ``step`` until it is the lesson's; False at the end of
        input or a quit."""
        self.say()
        self.show_hands(hand)
        teach = self.found.teach.get(step)
        if teach:
            self.say(teach, style="bold")
        self.say(situation(self.found, step))
        while True:
            self.console.print("Your move: ", end="", markup=False, highlight=False)
            line = self.input.readline()
            if not line:
                self.say()
                return False
            move = line.strip()
            if move.lower() in QUIT_WORDS:
                return False
            try:
                verdict = check(self.found, step, move)
            except LessonError as exc:
                self.say(exc.message)
                continue
            self.say(verdict.text, style="green" if verdict.right else "yellow")
            if verdict.right:
                return True


def run_learn(
    lesson_id: str | None,
    *,
    input_stream: TextIO | None = None,
    console: Console | None = None,
) -> int:
    """List the lessons (no ``lesson_id``) or play one; the exit status is returned."""
    console = console if console is not None else Console(highlight=False)
    if lesson_id is None:
        for line in course_lines():
            console.print(line, markup=False, highlight=False, soft_wrap=True)
        console.print("Play one: texas42 learn ID", markup=False, highlight=False)
        return 0
    try:
        found = lesson(lesson_id)
    except LessonError as exc:
        console.print(f"{exc}; texas42 learn lists them", markup=False, highlight=False)
        return UNKNOWN_LESSON
    try:
        return _Lesson(found, input_stream or sys.stdin, console).run()
    except KeyboardInterrupt:
        console.print("\nInterrupted.", markup=False, highlight=False)
        return 0


__all__ = ["UNKNOWN_LESSON", "course_lines", "run_learn"]
