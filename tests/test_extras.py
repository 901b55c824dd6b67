"""A plain install (no extras) plays, and whatever needs an extra names it instead of failing
with a traceback. Building a venv per test would be slow, so the extras' libraries are made
unimportable (``sys.modules[name] = None``) in a subprocess that runs the CLI's entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from texas42.extras import EXTRAS, MissingExtraError, extra_error
from texas42.services.arena.stats import _inverse_diagonal

ROOT = Path(__file__).resolve().parent.parent
POSITION = (
    "standard 0-0 1 3 66.65.64.62.55.33.10/63.54.44.42.31.20.00/61.53.52.43.32.22.11/"
    "60.51.50.41.40.30.21 0:34.pass.pass.pass sixes 66.63.61.60.65 1"
)
PLAIN = r"""
import contextlib, io, json, sys

for name in NAMES:
    sys.modules[name] = None
from texas42.faces.cli import main

answers = []
for args, stdin in json.loads(sys.argv[1]):
    sys.argv = ["texas42", *args]
    sys.stdin = io.StringIO(stdin)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main()
            code = 0
        except SystemExit as stop:
            code = stop.code
    answers.append([code, out.getvalue(), err.getvalue()])
try:
    from texas42.players import make_bot
    make_bot("expert")
except Exception as exc:
    answers.append([type(exc).__name__, str(exc), ""])
try:
    from texas42.search.solver import Solver
except Exception as exc:
    answers.append([type(exc).__name__, str(exc), ""])
print(json.dumps(answers))
"""
"""Runs the CLI over each case with every extra's library blocked, then makes an expert bot
and imports the solver; prints [status, stdout, stderr] for each."""


def test_extra_error_names_the_extra_of_a_missing_library() -> None:
    error = extra_error(ModuleNotFoundError("no numpy.linalg", name="numpy.linalg"), "the solver")
    assert isinstance(error, MissingExtraError)
    assert (error.library, error.extra) == ("numpy", "solver")
    assert str(error) == (
        "the solver needs numpy, which is not installed: pip install 'texas42[solver]'"
    )
    ours = ModuleNotFoundError("no texas42.nothing", name="texas42.nothing")
    assert extra_error(ours, "the solver") is ours  # a bug of ours shows as it is
    nameless = ImportError("cannot import name 'x'")
    assert extra_error(nameless, "the solver") is nameless


def test_a_plain_install_plays_and_names_the_extra_it_lacks() -> None:
    cases = [
        (["check", "examples/ex14-marks.json"], ""),
        (["play", "--bots", "rules", "--seed", "1"], "quit\n"),
        (["arena", "rules", "easy", "--games", "2"], ""),
        (["ladder", "random", "easy", "rules", "--games", "2"], ""),
        (["solve", POSITION], ""),
        (["analyze", "examples/ex14-marks.json"], ""),
        (["hint", POSITION, "--seat", "1"], ""),
        (["arena", "expert", "rules", "--games", "2"], ""),
        (["play", "--bots", "hard"], ""),
        (["engine", "--bot", "expert"], ""),
        (["serve"], ""),
        (["tui"], ""),
    ]
    blocked = [name for name, extra in EXTRAS.items() if extra in ("solver", "server", "tui")]
    script = PLAIN.replace("NAMES", repr(blocked))
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(cases)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    answers = json.loads(done.stdout)
    played, refused, (bot, solver) = answers[:4], answers[4:-2], answers[-2:]
    for (args, _), (code, out, err) in zip(cases, played):
        assert (code, err) == (0, ""), args
        assert out
    assert "A = rules, B = easy" in played[2][1]
    assert "Bradley-Terry ratings" in played[3][1]
    for (args, _), (code, out, err) in zip(cases[4:], refused):
        extra = {"serve": "server", "tui": "tui"}.get(args[0], "solver")
        assert code == 2, args
        assert len(err.splitlines()) == 1, err
        assert err.endswith(f"which is not installed: pip install 'texas42[{extra}]'\n"), err
        assert "Traceback" not in out + err
    assert refused[-2][2].startswith("texas42 serve needs ")
    assert bot[:2] == [
        "MissingExtraError",
        "the expert bot needs numpy, which is not installed: pip install 'texas42[solver]'",
    ]
    assert solver[:2] == [
        "MissingExtraError",
        "the solver needs numpy, which is not installed: pip install 'texas42[solver]'",
    ]


@pytest.mark.parametrize("seed", range(5))
def test_the_ladders_inverse_agrees_with_numpy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 1 + seed
    root = rng.normal(size=(n, n))
    matrix = root @ root.T + n * np.eye(n)  # symmetric positive definite, as the ladder's is
    expected = np.diag(np.linalg.inv(matrix))
    assert _inverse_diagonal(matrix.tolist()) == pytest.approx(expected.tolist(), rel=1e-9)
