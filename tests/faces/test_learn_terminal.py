"""``texas42 learn`` in the terminal: the course listed, every lesson played through with its
moves typed, a wrong one refused with the engine's words and asked again, bad input explained."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from texas42.core.tiles import TILE_NAMES, iter_tiles
from texas42.faces.terminal.learn_lessons import UNKNOWN_LESSON, course_lines, run_learn
from texas42.services.learn.lessons import check, lessons, move_notation


def play(lesson_id: str | None, lines: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)
    status = run_learn(
        lesson_id, input_stream=io.StringIO("".join(f"{x}\n" for x in lines)), console=console
    )
    return status, out.getvalue()


def test_the_course_is_listed() -> None:
    status, text = play(None, [])
    assert status == 0
    for found, line in zip(lessons(), course_lines(), strict=True):
        assert line in text and found.title in line


@pytest.mark.parametrize("found", lessons(), ids=lambda x: x.id)
def test_every_lesson_plays_through_in_the_terminal(found) -> None:  # type: ignore[no-untyped-def]
    moves = [move_notation(found.actions[s]) for s in found.steps]
    status, text = play(found.id, ["junk", *moves])
    assert status == 0 and text.rstrip().endswith("Lesson done.")
    assert "'junk' is no move here" in text
    for step, move in zip(found.steps, moves, strict=True):
        assert check(found, step, move).text in text


def test_a_wrong_move_is_refused_and_asked_again() -> None:
    found = lessons()[0]
    step = found.steps[0]
    right = move_notation(found.actions[step])
    held = found.hand_at(step).hands[found.seat]
    wrong = next(TILE_NAMES[t] for t in iter_tiles(held) if TILE_NAMES[t] != right)
    status, text = play(found.id, [wrong, right, "quit"])
    assert status == 0
    said = check(found, step, wrong).text
    assert said in text and f"Play {right}." in said
    assert text.index(said) < text.index(f"Right: {right}")
    assert "You leave the lesson." in text


def test_an_unknown_lesson_and_the_end_of_input() -> None:
    status, text = play("99-nothing", [])
    assert status == UNKNOWN_LESSON and "no lesson '99-nothing'" in text
    status, text = play(lessons()[0].id, [])
    assert status == 0 and "You leave the lesson." in text
