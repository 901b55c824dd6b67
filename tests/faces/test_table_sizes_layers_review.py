"""Review of the issue-7 layers at every table size: bots, the line game and the CLI's checks.

Each test here guards something a fresh-eyes review probed: search bots with tiny budgets make
only legal choices at every preset, the line game never prints a tile the human could not see
(another seat's hand, the widow a bot took, its discard), and bad ``--players``/``--seat`` give
a one-line refusal rather than a traceback.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from texas42 import Rules
from texas42.core.hand import Hand
from texas42.core.layout import layout_of
from texas42.core.notation import view_position
from texas42.core.record import Record, check_record
from texas42.core.tiles import TILE_NAMES, tiles_of
from texas42.faces.cli import app
from texas42.faces.terminal.line_game import run_play
from texas42.players import make_bot

PRESETS = (
    "two-hand",
    "three-hand",
    "moon",
    "five-hand",
    "six-hand",
    "six-hand,teams=threes",
    "seven-hand",
)
TINY_HARD = "pimc:samples=2,bid_samples=2,value_samples=1"
TILE_WORD = re.compile(r"(?<![\w-])([0-6]-[0-6])(?![\w-])")


@pytest.mark.parametrize("preset", PRESETS)
def test_hard_bots_with_tiny_budgets_play_whole_hands_legally(preset: str) -> None:
    rules = Rules.parse(preset)
    layout = layout_of(rules)
    for number in range(2):
        hand = Hand.random(rules, number % layout.seats, random.Random(number))
        bots = [make_bot(TINY_HARD, seed=10 * number + s) for s in range(layout.seats)]
        while (seat := hand.seat_to_act()) is not None:
            view = hand.view(seat, (0,) * layout.sides)
            action = bots[seat].choose(view)
            assert action in view.legal, (preset, number, view_position(view), action)
            hand.apply(action)
        assert hand.result is not None and len(hand.result.score) == layout.sides


class _Typist(io.StringIO):
    """Input for the line game: tile names, calls and contracts at random, then end of input."""

    WORDS = (
        *TILE_NAMES,
        "pass",
        "pass",
        *map(str, range(4, 45)),
        "moon",
        "1m",
        "sixes",
        "fives",
        "blanks",
        "follow-me",
        "doubles",
    )

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.rng = random.Random(seed)
        self.lines = 0

    def readline(self, size: int | None = -1) -> str:
        self.lines += 1
        return "" if self.lines > 3000 else self.rng.choice(self.WORDS) + "\n"


@pytest.mark.parametrize("preset, seat", [("moon", 1), ("five-hand", 3), ("three-hand", 0)])
def test_the_line_game_prints_no_tile_the_human_could_not_see(
    preset: str, seat: int, tmp_path: Path
) -> None:
    rules = Rules.parse(preset)
    out = io.StringIO()
    saved = tmp_path / "game.json"
    run_play(
        rules,
        7,
        seat,
        str(saved),
        "You",
        bots="rules",
        input_stream=_Typist(7),
        console=Console(file=out, width=300),
    )
    report = check_record(Record.from_json(saved.read_text()))
    sections = re.split(r"^─+ Hand (\d+): .*$", out.getvalue(), flags=re.M)
    checked = widows_taken_by_bots = 0
    for i in range(1, len(sections), 2):
        k = int(sections[i]) - 1
        hands = report.hands[k : k + 2]  # a section may run into the next hand's first prompt
        allowed: set[str] = set()
        for hand in hands:
            allowed |= {TILE_NAMES[t] for t in tiles_of(hand.deal[seat])}
            allowed |= {TILE_NAMES[t] for t in hand.plays}
            if hand.declarer == seat:
                allowed |= {TILE_NAMES[t] for t in tiles_of(hand.widow)}
        widows_taken_by_bots += report.hands[k].declarer not in (seat, None) and bool(
            report.hands[k].widow
        )
        for line in sections[i + 1].splitlines():
            if "is not allowed" in line or "not a " in line:
                continue  # the human's own typing echoed back
            assert set(TILE_WORD.findall(line)) <= allowed, (k + 1, line)
            checked += 1
    assert checked > 100 and len(report.hands) >= 3
    if preset == "moon":
        assert widows_taken_by_bots, "a bot should take the widow in this game"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--players", "8"], "--players: a table seats 2 to 7 players, not 8"),
        (["--players", "1"], "--players: a table seats 2 to 7 players, not 1"),
        (
            ["--players", "3", "--seat", "3"],
            "--seat: a seat is 0..2 (0 North, 1 East, 2 West), not 3",
        ),
        (["--rules", "moon", "--seat", "-1"], "--seat: a seat is 0..2"),
        (["--players", "4", "--rules", "moon"], "--players 4: the rules 'moon' seat 3 players"),
        (["--rules", "moon,seats=4"], "--rules: 4 hands of 7 and a widow of 1 need 29 tiles"),
    ],
)
def test_bad_table_arguments_are_refused_in_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["play", *args], input="quit\n")
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
