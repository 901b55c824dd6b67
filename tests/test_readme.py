"""The README's library example runs as written, and its command output is what the CLI prints."""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
TEXAS42 = str(Path(sys.executable).parent / "texas42")


def test_readme_python_example_runs_as_shown() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def test_readme_check_output_is_real() -> None:
    text = README.read_text()
    done = subprocess.run(
        [TEXAS42, "check", "examples/ex14-marks.json"],
        capture_output=True,
        text=True,
        cwd=README.parent,
        check=False,
    )
    assert done.returncode == 0
    assert f"$ texas42 check examples/ex14-marks.json\n{done.stdout}" in text


def test_readme_analyze_and_solve_output_is_real() -> None:
    text = README.read_text()
    done = subprocess.run(
        [TEXAS42, "analyze", "examples/ex14-marks.json"],
        capture_output=True,
        text=True,
        cwd=README.parent,
        check=True,
    )
    shown = "\n".join(done.stdout.splitlines()[:8])
    assert f"$ texas42 analyze examples/ex14-marks.json\n{shown}\n...\n" in text
    command = next(line for line in text.splitlines() if line.startswith("$ texas42 solve "))
    position = command.removeprefix("$ texas42 solve ").strip('"')
    done = subprocess.run(
        [TEXAS42, "solve", position], capture_output=True, text=True, cwd=README.parent, check=True
    )
    assert f"{command}\n{done.stdout}" in text


def test_readme_moon_session_and_three_hand_arena_are_real() -> None:
    """The Moon transcript's lines (after "pass") and the arena's figures are what the CLI prints."""
    text = README.read_text()
    block = text.split("$ texas42 play --rules moon --seed 4 --bots rules\n", 1)[1].split("```", 1)[
        0
    ]
    done = subprocess.run(
        [TEXAS42, "play", "--rules", "moon", "--seed", "4", "--bots", "rules"],
        input="pass\n" + "1-1\n" * 200,
        capture_output=True,
        text=True,
        cwd=README.parent,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"},
        check=False,
    )
    printed = done.stdout.replace("): \n", "): pass\n", 1).splitlines()
    shown = [line for line in block.splitlines() if line != "..."]
    start = printed.index(shown[0])
    assert shown[:2] == printed[start : start + 2]
    later = printed.index(shown[2])
    assert shown[2:] == printed[later : later + len(shown) - 2]
    arena = text.split("$ texas42 arena rules easy --rules three-hand --games 20 --seed 1\n", 1)[1]
    done = subprocess.run(
        [
            TEXAS42,
            "arena",
            "rules",
            "easy",
            "--rules",
            "three-hand",
            "--games",
            "20",
            "--seed",
            "1",
        ],
        capture_output=True,
        text=True,
        cwd=README.parent,
        check=True,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"},
    )
    for line in arena.split("```", 1)[0].splitlines():
        if line != "...":
            assert line in done.stdout.splitlines()
