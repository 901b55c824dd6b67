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
        capture_output=True, text=True, cwd=README.parent, check=False,
    )  # fmt: skip
    assert done.returncode == 0
    assert f"$ texas42 check examples/ex14-marks.json\n{done.stdout}" in text
