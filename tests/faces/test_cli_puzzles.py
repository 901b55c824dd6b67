"""``texas42 puzzle``: the list, a puzzle shown with every hand, a tile read (again after a
refused one), the verdict and the lines, the daily puzzle; bad ids and tiles end with status 2."""

from __future__ import annotations

import datetime

from typer.testing import CliRunner

from texas42.core.tiles import tile_name
from texas42.faces.cli import app
from texas42.services.learn import puzzles

runner = CliRunner()


def test_without_an_id_it_lists_the_set_by_grade() -> None:
    done = runner.invoke(app, ["puzzle"])
    assert done.exit_code == 0
    rows = done.stdout.splitlines()
    assert [row.split()[0] for row in rows] == [p.id for p in puzzles.load()]


def test_a_wrong_tile_then_the_answer_read_from_the_terminal() -> None:
    puzzle = next(p for p in puzzles.load() if len(p.answers) == 1 and p.make)
    right = tile_name(puzzle.answers[0])
    wrong = tile_name(next(m.tile for m in puzzle.moves if not m.makes))
    not_held = next(t for t in range(28) if not puzzle.hand.hands[puzzle.seat] >> t & 1)
    done = runner.invoke(app, ["puzzle", puzzle.id], input=f"{tile_name(not_held)}\n{right}\n")
    assert done.exit_code == 0, done.output
    shown = puzzles.show(puzzle)
    assert shown["task"] in done.stdout and shown["contract_line"] in done.stdout
    assert f"{tile_name(not_held)} cannot be played" in done.stdout
    verdict = puzzles.answer(puzzle, right)
    assert verdict["verdict"] in done.stdout
    assert verdict["lines"][0]["result"] in done.stdout
    wrong_done = runner.invoke(app, ["puzzle", puzzle.id, "--answer", wrong])
    assert wrong_done.exit_code == 0
    assert f"The line that refutes {wrong}:" in wrong_done.stdout
    assert f"The line that proves {right}:" in wrong_done.stdout


def test_the_daily_puzzle_and_refusals() -> None:
    day = puzzles.daily(datetime.date(2026, 12, 6))
    answer = tile_name(day.answers[0])
    done = runner.invoke(app, ["puzzle", "--daily", "--date", "2026-12-06", "--answer", answer])
    assert done.exit_code == 0 and f"puzzle {day.id}" in done.stdout and "Right:" in done.stdout
    before = puzzles.daily(datetime.date.today()).id
    today = runner.invoke(app, ["puzzle", "--daily"], input="")
    after = puzzles.daily(datetime.date.today()).id
    assert f"puzzle {before}" in today.stdout or f"puzzle {after}" in today.stdout
    bad_day = runner.invoke(app, ["puzzle", "--daily", "--date", "2026-12-32"])
    assert bad_day.exit_code == 2 and "date: 2026-12-32 is not a day" in bad_day.stderr
    alone = runner.invoke(app, ["puzzle", "--date", "2026-12-02"])
    assert alone.exit_code == 2 and "--date: goes with --daily" in alone.stderr
    bad = runner.invoke(app, ["puzzle", "nope"])
    assert bad.exit_code == 2 and "id: a puzzle's id" in bad.stderr
    illegal = runner.invoke(app, ["puzzle", day.id, "--answer", "7-7"])
    assert illegal.exit_code == 2 and "tile: write a tile" in illegal.stderr
    silent = runner.invoke(app, ["puzzle", day.id], input="")
    assert silent.exit_code == 2 and "no tile given" in silent.stderr
