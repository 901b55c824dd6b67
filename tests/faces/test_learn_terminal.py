"""``texas42 learn`` in the terminal: the course listed, every lesson played through with its
moves typed, a wrong one refused with the engine's words and asked again, bad input explained."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from texas42.core.actions import Play
from texas42.core.progress import Phase
from texas42.core.tiles import TILE_NAMES, hand_name, iter_tiles
from texas42.faces.terminal.learn_lessons import UNKNOWN_LESSON, course_lines, run_learn
from texas42.search.solver import Solver
from texas42.services.learn.lessons import check, lessons, move_notation, play_values


def play(lesson_id: str | None, lines: list[str], *, colour: bool = False) -> tuple[int, str]:
    out = io.StringIO()
    if colour:
        console = Console(file=out, width=200, force_terminal=True, color_system="standard")
    else:
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


def test_a_tile_as_good_as_the_lesson_s_is_confirmed_in_green_and_the_lesson_plays_its_own() -> (
    None
):
    solver = Solver()
    found = lessons()[0]
    for step in found.steps:
        hand = found.hand_at(step)
        intended = found.actions[step]
        assert isinstance(intended, Play) and hand.phase == Phase.PLAY
        values = play_values(solver, hand)
        tied = [t for t, v in values.items() if t != intended.tile and v == values[intended.tile]]
        if tied:
            break
    else:
        pytest.fail(f"{found.id} has no tie")
    moves = [move_notation(found.actions[s]) for s in found.steps if s < step]
    status, text = play(found.id, [*moves, TILE_NAMES[tied[0]], "quit"], colour=True)
    said = check(found, step, TILE_NAMES[tied[0]]).text
    assert status == 0 and said.startswith("Right: ")
    assert f"\x1b[32m{said}" in text  # styled as right: green
    after = text[text.index(said) :]
    assert f"You played {TILE_NAMES[intended.tile]}" in after  # the lesson goes on with its own


@pytest.mark.parametrize("found", [x for x in lessons() if x.steps[0] == 0], ids=lambda x: x.id)
def test_a_lesson_that_asks_at_once_shows_the_hands_once_before_it(found) -> None:  # type: ignore[no-untyped-def]
    """05-bid and 10-plunge ask for the first call: the deal is printed once, not twice."""
    _, text = play(found.id, [])
    before = text[: text.index("Your move: ")]
    assert before.count(hand_name(found.hand_record.deal[found.seat])) == 1, before
