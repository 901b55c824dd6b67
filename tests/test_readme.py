"""The README's library example runs as written, and its command output is what the CLI prints.

Measured figures (the arena's time and games a minute) vary with the machine, and a rich table's
column widths follow its widest cell, so table rows are compared cell by cell, without their
padding and without the timing row; every command also runs under a clock slowed a
thousandfold, which must change nothing the README shows.
"""

from __future__ import annotations

import doctest
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
TEXAS42 = str(Path(sys.executable).parent / "texas42")

SLOW_CLOCK = """\
import time

_SLOWER = 1000.0
_start = {name: getattr(time, name)() for name in ("perf_counter", "monotonic")}


def _slowed(name):
    real = getattr(time, name)
    return lambda: _start[name] + (real() - _start[name]) * _SLOWER


time.perf_counter = _slowed("perf_counter")
time.monotonic = _slowed("monotonic")
"""
"""A ``sitecustomize`` that makes every measured interval a thousand times longer, as on a
machine a thousand times slower (or busier)."""


@pytest.fixture(params=["real clock", "slowed clock"])
def clock_path(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The PYTHONPATH the commands run with: ours, and for the slowed clock its sitecustomize."""
    ours = [os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else []
    if request.param == "real clock":
        return os.pathsep.join(ours)
    (tmp_path / "sitecustomize.py").write_text(SLOW_CLOCK)
    return os.pathsep.join([str(tmp_path), *ours])


def texas42(
    args: Sequence[str], path: str, stdin: str | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """Run the CLI from the repository's root, 200 columns wide, with a known environment."""
    env = {"COLUMNS": "200", "PATH": "/usr/bin:/bin", "PYTHONPATH": path}
    return subprocess.run(
        [TEXAS42, *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=README.parent,
        env=env,
        check=check,
    )


def table_cells(line: str) -> list[str] | str:
    """A table row as its cells without padding; any other line as it is."""
    if "│" not in line:
        return line
    return [cell.strip() for cell in line.split("│")]


def test_readme_python_example_runs_as_shown() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def test_table_cells_ignore_padding_only() -> None:
    assert table_cells("│ games played │    20 │   │") == ["", "games played", "20", "", ""]
    assert table_cells("│ games played │ 20 │ │") == table_cells("│ games played │    20 │   │")
    assert table_cells("│ games played │ 21 │ │") != table_cells("│ games played │ 20 │ │")
    assert table_cells("  6-6  42  best") == "  6-6  42  best"


def test_readme_check_output_is_real(clock_path: str) -> None:
    text = README.read_text()
    done = texas42(["check", "examples/ex14-marks.json"], clock_path)
    assert f"$ texas42 check examples/ex14-marks.json\n{done.stdout}" in text


def test_readme_analyze_and_solve_output_is_real(clock_path: str) -> None:
    text = README.read_text()
    done = texas42(["analyze", "examples/ex14-marks.json"], clock_path)
    shown = "\n".join(done.stdout.splitlines()[:9])
    assert f"$ texas42 analyze examples/ex14-marks.json\n{shown}\n...\n" in text
    command = next(line for line in text.splitlines() if line.startswith("$ texas42 solve "))
    position = command.removeprefix("$ texas42 solve ").strip('"')
    done = texas42(["solve", position], clock_path)
    assert f"{command}\n{done.stdout}" in text


def test_readme_moon_session_is_real(clock_path: str) -> None:
    """The Moon transcript's lines (after "pass") are what the CLI prints."""
    text = README.read_text()
    block = text.split("$ texas42 play --rules moon --seed 4 --bots rules\n", 1)[1]
    block = block.split("```", 1)[0]
    done = texas42(
        ["play", "--rules", "moon", "--seed", "4", "--bots", "rules"],
        clock_path,
        stdin="pass\n" + "1-1\n" * 200,
        check=False,
    )
    printed = done.stdout.replace("): \n", "): pass\n", 1).splitlines()
    shown = [line for line in block.splitlines() if line != "..."]
    start = printed.index(shown[0])
    assert shown[:2] == printed[start : start + 2]
    later = printed.index(shown[2])
    assert shown[2:] == printed[later : later + len(shown) - 2]


def test_readme_three_hand_arena_is_real(clock_path: str) -> None:
    """The arena's figures are what the CLI prints, whatever the run's width or time."""
    command = "arena rules easy --rules three-hand --games 20 --seed 1"
    text = README.read_text()
    shown = text.split(f"$ texas42 {command}\n", 1)[1].split("```", 1)[0]
    done = texas42(command.split(), clock_path)
    printed = [table_cells(line) for line in done.stdout.splitlines()]
    assert any(cells[1:2] == ["time"] for cells in printed if isinstance(cells, list))
    for line in shown.splitlines():
        cells = table_cells(line)
        if line != "..." and cells[1:2] != ["time"]:  # a time row holds the machine's figures
            assert cells in printed


def test_readme_serve_for_friends_prints_what_serve_prints() -> None:
    """The start message of ``serve --host 0.0.0.0`` in "Play with friends", on a machine whose
    one network address is the README's."""
    from texas42.faces.server.invite import start_message
    from texas42.faces.server.storage import default_db_path

    text = README.read_text()
    block = text.split("$ texas42 serve --host 0.0.0.0\n", 1)[1].split("```", 1)[0]
    shown = block.rstrip("\n").splitlines()
    where = "/root/.local/share/texas42/texas42.sqlite"
    assert shown == start_message("0.0.0.0", 4242, where, None, lambda: ["192.168.1.20"])
    assert default_db_path().name == Path(where).name


def test_readme_learn_practice_and_puzzle_output_is_real(clock_path: str) -> None:
    """The "Learn to play" block: each command's lines are what it prints, "..." standing for
    lines left out; practice is answered "pass"."""
    text = README.read_text()
    block = text.split("## Learn to play\n", 1)[1].split("```\n", 2)[1]
    commands = block.split("$ texas42 ")[1:]
    assert [c.split("\n", 1)[0] for c in commands] == [
        "learn",
        "practice",
        "puzzle pf233dc6f --answer 4-3",
    ]
    for command in commands:
        args, shown = command.split("\n", 1)
        done = texas42(args.split(), clock_path, stdin="pass\n")
        printed = done.stdout.splitlines()
        at = 0
        for chunk in "\n".join(shown.splitlines()).split("..."):
            lines = chunk.strip("\n").splitlines()
            if not lines:
                continue
            starts = [k for k in range(at, len(printed)) if printed[k : k + len(lines)] == lines]
            assert starts, (args, lines, printed)
            at = starts[0] + len(lines)
