"""The ``texas42`` command, run as a user runs it: exact output and exit status."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from helpers import EX14_HAND, EXAMPLE_NAMES, EXAMPLES, record
from texas42 import Game, Rules, __version__
from texas42.core import words
from texas42.core.actions import Declare, Discard
from texas42.core.errors import RulesError
from texas42.core.layout import layout_of
from texas42.core.record import Record, check_record, record_from_game
from texas42.core.tiles import parse_hand, tile_name
from texas42.faces.cli import app, main
from texas42.players import RulesBot

TEXAS42 = str(Path(sys.executable).parent / "texas42")


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TEXAS42, *args], capture_output=True, text=True, input=stdin, timeout=30, check=False
    )


def write(tmp_path: Path, obj: Any) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(obj))
    return str(path)


def test_version_and_short_help() -> None:
    for flag in ("--version", "-V"):
        done = run(flag)
        assert (done.returncode, done.stdout) == (0, f"texas42 {__version__}\n")
    for args in (("-h",), ("--help",), ("check", "-h")):
        done = run(*args)
        assert done.returncode == 0 and "Usage: texas42" in done.stdout, args
    assert "check" in run("-h").stdout and "Check a game record" in run("check", "-h").stdout


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_check_json_prints_the_expected_line(name: str) -> None:
    done = run("check", "--json", str(EXAMPLES / f"{name}.json"))
    assert done.stdout == (EXAMPLES / f"{name}.expected.json").read_text()
    assert done.returncode == (1 if name == "ex14-too-long" else 0)
    assert done.stderr == ""


def test_check_text() -> None:
    done = run("check", str(EXAMPLES / "ex14-marks.json"))
    assert done.returncode == 0
    assert done.stdout == (
        "rules: standard\n"
        "hand 1: West shakes\n"
        "  auction: North 34, East pass, South pass, West pass\n"
        "  contract: North bid 34 · sixes (sixes are trump)\n"
        "  North-South made it\n"
        "  Points: North-South 36, East-West 0\n"
        "  Tricks: North-South 6, East-West 0\n"
        "  Scored: North-South +1 mark\n"
        "game: North-South 1 [/], East-West 0; no winner yet\n"
    )
    nello = run("check", str(EXAMPLES / "ex15-nello.json")).stdout.splitlines()
    assert nello[3:] == [
        "  contract: East bid 1m · Nel-O (no trump, doubles own) · West sits out",
        "  East-West made it",
        "  East-West took 0 tricks of the 7 played",
        "  Scored: East-West +1 mark",
        "game: North-South 0, East-West 1 [/]; no winner yet",
    ]
    points = run("check", str(EXAMPLES / "ex14-points.json")).stdout.splitlines()
    assert points[4:] == [
        "  North-South made it",
        "  Points: North-South 42, East-West 0",
        "  Tricks: North-South 7, East-West 0",
        "  Scored: North-South +42 points",
        "game: North-South 42, East-West 0; no winner yet",
    ]


def test_check_text_names_players_and_the_winner(tmp_path: Path) -> None:
    obj = dict(
        record(EX14_HAND, rules={"preset": "standard", "target": 1}),
        players=["Ann", "Bob", "Cat", "Dan"],
    )
    done = run("check", write(tmp_path, obj))
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[1] == "hand 1: West (Dan) shakes"
    assert lines[2] == (
        "  auction: North (Ann) 34, East (Bob) pass, South (Cat) pass, West (Dan) pass"
    )
    assert lines[-1] == "game: North-South 1 [/], East-West 0; North-South win"


def test_broken_record_one_line_on_stderr() -> None:
    done = run("check", str(EXAMPLES / "ex14-too-long.json"))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "hand 1, play 25: the hand was already made after trick 6\n"


def test_illegal_play(tmp_path: Path) -> None:
    hand = copy.deepcopy(EX14_HAND)
    hand["play"][9] = "3-1"
    path = write(tmp_path, record(hand))
    done = run("check", path)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "hand 1, play 10 (seat 1): 3-1 does not follow fives; seat 1 holds 5-4\n"
    done = run("check", "--json", path)
    assert done.returncode == 1
    assert json.loads(done.stdout) == {
        "error": {
            "hand": 1,
            "field": "play",
            "index": 10,
            "seat": 1,
            "message": "3-1 does not follow fives; seat 1 holds 5-4",
        }
    }


def test_unreadable_records_exit_2(tmp_path: Path) -> None:
    missing = run("check", str(tmp_path / "nope.json"))
    assert (missing.returncode, missing.stdout) == (2, "")
    assert missing.stderr == f"cannot read {tmp_path / 'nope.json'}: No such file or directory\n"
    folder = run("check", str(tmp_path))
    assert (folder.returncode, folder.stderr) == (2, f"cannot read {tmp_path}: Is a directory\n")
    (tmp_path / "bad.json").write_text("{")
    bad = run("check", "--json", str(tmp_path / "bad.json"))
    assert (bad.returncode, bad.stderr) == (2, "")
    error = json.loads(bad.stdout)["error"]
    assert (error["hand"], error["field"]) == (None, None)
    assert error["message"].startswith("not JSON")
    version = run("check", write(tmp_path, dict(record(EX14_HAND), version=2)))
    assert (version.returncode, version.stderr) == (2, "version: expected 1, found 2\n")
    tile = copy.deepcopy(EX14_HAND)
    tile["play"][3] = "7-7"
    unknown = run("check", write(tmp_path, record(tile)))
    assert (unknown.returncode, unknown.stderr) == (
        2,
        "hand 1, play 4: not a tile: '7-7' (ends are 0..6)\n",
    )


def test_check_reads_standard_input() -> None:
    done = run("check", "--json", "-", stdin=(EXAMPLES / "ex14-marks.json").read_text())
    assert done.stdout == (EXAMPLES / "ex14-marks.expected.json").read_text()


@pytest.mark.parametrize("name", ["ex14-marks", "ex14-points", "ex15-nello"])
def test_replay_shows_every_trick(name: str) -> None:
    done = run("replay", str(EXAMPLES / f"{name}.json"))
    assert (done.returncode, done.stderr) == (0, "")
    rows = [line.split() for line in done.stdout.splitlines()]
    if name == "ex15-nello":
        assert ["4", "South", "6-4", "4-2", "4-3", "-", "North", "11", "14", "0"] in rows
        assert ["7", "North", "6-5", "6-3", "3-2", "-", "North", "6", "32", "0"] in rows
        assert "  score: North-South 0, East-West 1 [/]" in done.stdout.splitlines()
        return
    assert ["1", "North", "6-6", "6-3", "6-1", "6-0", "North", "1", "1", "0"] in rows
    assert ["6", "North", "6-2", "4-2", "2-2", "4-1", "North", "6", "36", "0"] in rows
    last = ["7", "North", "1-0", "4-4", "5-3", "5-0", "North", "6", "42", "0"]
    assert (last in rows) == (name == "ex14-points")
    lines = done.stdout.splitlines()
    assert "Hand 1: West shakes; score North-South 0, East-West 0" in lines
    assert "  North  6-6 6-5 6-4 6-2 5-5 3-3 1-0" in lines
    assert "  auction: North 34, East pass, South pass, West pass" in lines
    assert "\x1b[" not in done.stdout


def test_replay_of_a_hand_in_progress_and_a_broken_record(tmp_path: Path) -> None:
    partial = dict(EX14_HAND, play=EX14_HAND["play"][:10])
    done = run("replay", write(tmp_path, record(partial)))
    assert done.returncode == 0
    rows = [line.split() for line in done.stdout.splitlines()]
    assert ["3", "North", "5-5", "5-4"] in rows
    assert "  In progress" in done.stdout.splitlines()
    broken = run("replay", str(EXAMPLES / "ex14-too-long.json"))
    assert (broken.returncode, broken.stdout) == (1, "")
    assert broken.stderr == "hand 1, play 25: the hand was already made after trick 6\n"


def test_rules_command() -> None:
    done = run("rules", "house,target=3")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[:2] == ["house,target=3", "  game to 3 marks"]
    assert "target             3  (changed)" in lines
    assert "nello              true" in lines
    bad = run("rules", "casino")
    assert (bad.returncode, bad.stdout) == (2, "")
    assert (
        bad.stderr
        == "unknown rules preset 'casino'; presets: standard, tournament, house, two-hand, three-hand, moon, five-hand, six-hand, seven-hand\n"
    )


def test_play_rejects_bad_options() -> None:
    rules = run("play", "--rules", "standard,nelo")
    assert rules.returncode == 2
    assert rules.stderr == "--rules: unknown rule option 'nelo' in 'standard,nelo'\n"
    seat = run("play", "--seat", "4")
    assert seat.returncode == 2
    assert seat.stderr == "--seat: a seat is 0..3 (0 North, 1 East, 2 South, 3 West), not 4\n"


@pytest.fixture
def fake_play(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """Stand in for the terminal game, recording how the command calls it."""
    calls: list[tuple[Any, ...]] = []

    def run_play(
        rules: Rules, seed: int | None, seat: int, save: str | None, name: str, *, bots: str
    ) -> int:
        calls.append((rules, seed, seat, save, name, bots))
        if name == "Boom":
            raise RulesError("the bots are off today")
        return 3

    package = types.ModuleType("texas42.faces.terminal")
    module = types.ModuleType("texas42.faces.terminal.line_game")
    module.run_play = run_play  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "texas42.faces.terminal", package)
    monkeypatch.setitem(sys.modules, "texas42.faces.terminal.line_game", module)
    return calls


def test_play_calls_the_terminal_game(fake_play: list[tuple[Any, ...]]) -> None:
    args = [
        "play",
        "--rules",
        "standard,nello",
        "--seed",
        "5",
        "--seat",
        "1",
        "--save",
        "g.json",
        "--name",
        "Ann",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 3
    assert fake_play == [(Rules.parse("standard,nello"), 5, 1, "g.json", "Ann", "medium")]
    result = CliRunner().invoke(app, ["play", "--bots", "expert:samples=8"])
    assert result.exit_code == 3 and fake_play[-1][-1] == "expert:samples=8"
    result = CliRunner().invoke(app, ["play", "--bots", "wizard"])
    assert result.exit_code == 2 and "--bots: no bot called 'wizard'" in result.stderr


def test_main_turns_errors_into_one_line(
    fake_play: list[tuple[Any, ...]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(sys, "argv", ["texas42", "play", "--name", "Boom"])
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 2
    assert capsys.readouterr().err == "texas42: the bots are off today\n"


def test_play_through_stdin_plays_a_whole_game_and_saves_a_clean_record(tmp_path: Path) -> None:
    """A real `texas42 play` process fed by a dumb typist: at every prompt it tries, in turn,
    pass, 30, sixes and every tile, so each wrong answer must be refused and the game go on."""
    tiles = [f"{hi}-{lo}" for hi in range(7) for lo in range(hi + 1)]
    attempts = "\n".join(["pass", "30", "sixes", *tiles]) + "\n"
    saved = tmp_path / "game.json"
    done = run("play", "--seed", "3", "--save", str(saved), stdin=attempts * 400)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert "Game over after" in done.stdout
    assert "is not allowed" in done.stdout
    checked = run("check", "--json", str(saved))
    assert checked.returncode == 0, checked.stdout
    assert json.loads(checked.stdout)["winner"] in (0, 1)


def test_tui_takes_the_play_options(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[Any, ...]] = []

    def fake_tui(*args: Any) -> int:
        calls.append(args)
        return 0

    monkeypatch.setattr("texas42.faces.terminal.full_screen.run_tui", fake_tui)
    args = ["tui", "--rules", "house", "--seed", "7", "--seat", "3", "--bots", "easy"]
    assert CliRunner().invoke(app, args).exit_code == 0
    assert calls == [(Rules.parse("house"), 7, 3, "easy", "You", None)]
    for bad, message in (
        (["--seat", "4"], "--seat: a seat is 0..3"),
        (["--rules", "nope"], "--rules: unknown rules preset"),
        (["--bots", "wizard"], "--bots: no bot called 'wizard'"),
    ):
        result = CliRunner().invoke(app, ["tui", *bad])
        assert result.exit_code == 2 and message in result.stderr
    assert len(calls) == 1


def test_engine_serves_a_bot_over_standard_input() -> None:
    session = "texas42\nisready\nnewgame standard\n"
    session += "position standard 0-0 1 1 ?/?/63.44.40.33.22.21.10/? 2:- - - 2 @2\n"
    session += "legal pass;bid 30;bid 31\ngo movetime 1000\n"
    done = run("engine", "--bot", "rules", stdin=session)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and "texas42ok" in lines and "readyok" in lines
    assert lines[-1] in ("bestaction pass", "bestaction bid 30", "bestaction bid 31")
    refused = run("engine", "--bot", "wizard")
    assert refused.returncode == 2 and "--bot: no bot called 'wizard'" in refused.stderr


# -- every table size ------------------------------------------------------------------------

TABLES = {
    "two-hand": ["--players", "2"],
    "three-hand": ["--players", "3"],
    "moon": ["--rules", "moon"],
    "five-hand": ["--players", "5"],
    "six-hand": ["--players", "6"],
    "six-hand,teams=threes": ["--players", "6", "--rules", "six-hand,teams=threes"],
    "seven-hand": ["--players", "7"],
}
TYPIST = (
    "\n".join(
        [
            "pass",
            "30",
            "4",
            "sixes",
            "ones",
            *(f"{hi}-{lo}" for hi in range(7) for lo in range(hi + 1)),
        ]
    )
    + "\n"
)
"""A dumb typist: at every prompt it tries pass, a bid, a suit and every tile in turn."""


@pytest.mark.parametrize("rules", list(TABLES))
def test_play_at_every_table_size_and_check_the_saved_record(rules: str, tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    args = ["play", *TABLES[rules], "--seed", "3", "--bots", "rules", "--save", str(saved)]
    done = CliRunner().invoke(app, args, input=TYPIST * 400)
    assert done.exit_code == 0, done.output
    played = " ".join(done.stdout.split())  # long lines wrap at the terminal's width
    assert "Game over after" in played and "Traceback" not in played
    layout = layout_of(Rules.parse(rules))
    final_score = played[played.rindex(" Score: ") + len(" Score: ") :].split(". ")[0]
    final_score = final_score[: final_score.rindex(" ─")]  # the rule above "Game over"
    checked = CliRunner().invoke(app, ["check", str(saved)])
    assert checked.exit_code == 0, checked.output
    last = checked.stdout.splitlines()[-1]
    report = check_record(Record.from_json(saved.read_text()))
    assert report.winner is not None and len(report.score) == layout.sides
    winner = layout.side_names[report.winner]
    assert last.startswith(f"game: {final_score}; {winner} win")
    assert f"Game over after {len(report.hands)} hands: {winner} win" in played
    assert f"rules: {Rules.parse(rules)}" == checked.stdout.splitlines()[0]
    as_json = json.loads(CliRunner().invoke(app, ["check", "--json", str(saved)]).stdout)
    assert as_json.get("seats", 4) == layout.seats
    assert (as_json["score"], as_json["winner"]) == (list(report.score), report.winner)
    replayed = CliRunner().invoke(app, ["replay", str(saved)])
    assert replayed.exit_code == 0 and replayed.stdout.rstrip().endswith(last[len("game: ") :])
    for name in layout.seat_names:
        assert f"\n  {name} " in replayed.stdout


def one_hand(rules: str, seed: int = 5) -> dict[str, Any]:
    """The record of a game's first hand, played out by RulesBot."""
    game = Game(Rules.parse(rules), seed)
    bots = [RulesBot() for _ in range(game.layout.seats)]
    while not game.results:
        seat = game.seat_to_act()
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat)))
    return record_from_game(game).to_dict()


def seats_4(d: dict[str, Any]) -> None:
    d["seats"] = 4


def two_hands(d: dict[str, Any]) -> None:
    d["hands"][0]["deal"] = d["hands"][0]["deal"][:2]


def deal_the_1_0(d: dict[str, Any]) -> None:
    deal = d["hands"][0]["deal"]
    held = next(hand for hand in deal if "1-0" not in hand)
    deal[deal.index(held)] = "1-0 " + held.split(" ", 1)[1]


def no_discard(d: dict[str, Any]) -> None:
    d["hands"][0]["discards"] = []


@pytest.mark.parametrize(
    ("rules", "spoil", "status", "message"),
    [
        ("moon", seats_4, 2, "seats: the record has 4 seats; its rules seat 3"),
        ("three-hand", two_hands, 2, "hand 1, deal: a deal is a list of 3 hands, one per seat"),
        ("three-hand", deal_the_1_0, 1, "hand 1, deal 1: 1-0 is not in play under these rules"),
        ("moon", no_discard, 1, "took the widow and must first lay 1 tile face down"),
    ],
)
def test_bad_records_of_every_kind_are_one_line(
    rules: str,
    spoil: Callable[[dict[str, Any]], None],
    status: int,
    message: str,
    tmp_path: Path,
) -> None:
    d = one_hand(rules)
    assert CliRunner().invoke(app, ["check", write(tmp_path, d)]).exit_code == 0
    spoil(d)
    path = write(tmp_path, d)
    for command in ("check", "replay"):
        done = CliRunner().invoke(app, [command, path])
        assert done.exit_code == status and done.stdout == ""
        assert done.stderr.count("\n") == 1 and message in done.stderr
        assert "Traceback" not in done.stderr


def test_check_and_replay_of_moon_show_the_widow_and_a_set_moon_below_zero(
    tmp_path: Path,
) -> None:
    deal = [
        "6-2 6-1 4-4 4-2 3-1 1-1 0-0",
        "6-6 6-5 5-5 5-4 5-2 5-1 2-1",
        "6-3 5-3 4-3 4-1 3-3 3-2 2-2",
    ]
    game = Game(
        Rules.parse("moon"),
        1,
        first_shaker=2,
        deals=[[parse_hand(h) for h in deal]],
        widows=[parse_hand("6-4")],
    )
    for call in ("pass", "pass", "moon"):
        game.apply(game.parse_action(call))
    game.apply(Discard("2-2"))
    game.apply(Declare("blanks"))
    bots = [RulesBot() for _ in range(3)]
    while not game.results:
        seat = game.seat_to_act()
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat)))
    path = write(tmp_path, record_from_game(game, ("Ann", "Bob", "Cat")).to_dict())
    checked = CliRunner().invoke(app, ["check", path])
    assert checked.exit_code == 0
    assert checked.stdout.splitlines()[1:8] == [
        "hand 1: West (Cat) shakes",
        "  auction: North (Ann) pass, East (Bob) pass, West (Cat) moon",
        "  widow 6-4; West (Cat) laid down 2-2",
        "  contract: West (Cat) bid moon · blanks (blanks are trump)",
        "  West went set",
        "  Tricks: North 3, East 3, West 1",
        "  Scored: North +3 points, East +3 points, West -21 points",
    ]
    assert checked.stdout.splitlines()[-1] == "game: North 3, East 3, West -21; no winner yet"
    replayed = CliRunner().invoke(app, ["replay", path]).stdout.splitlines()
    assert "Seats: North (Ann), East (Bob), West (Cat)" in replayed
    assert "  widow 6-4; West (Cat) laid down 2-2" in replayed
    header = next(line for line in replayed if line.lstrip().startswith("trick"))
    assert header.split() == [
        "trick",
        "led",
        "North",
        "East",
        "West",
        "won",
        "by",
        "pts",
        "N",
        "E",
        "W",
    ]
    assert "  score: North 3, East 3, West -21" in replayed


def test_rules_describes_every_table() -> None:
    done = CliRunner().invoke(app, ["rules", "moon"])
    assert done.exit_code == 0
    assert done.stdout.splitlines()[2] == (
        "  3 players, 7 tiles each; a widow of 1; without 6-0 5-0 4-0 3-0 2-0 1-0; 7 points a "
        "hand; everyone scores their own tricks"
    )
    assert "seats              3" in done.stdout.splitlines()


def test_play_options_for_every_table(fake_play: list[tuple[Any, ...]]) -> None:
    for players, preset, seat in (
        (2, "two-hand", 0),
        (3, "three-hand", 0),
        (4, "standard", 2),
        (7, "seven-hand", 0),
    ):
        result = CliRunner().invoke(app, ["play", "--players", str(players)])
        assert result.exit_code == 3
        assert fake_play[-1][:3] == (Rules.parse(preset), None, seat)
    result = CliRunner().invoke(app, ["play", "--players", "6", "--rules", "six-hand,teams=threes"])
    assert fake_play[-1][0] == Rules.parse("six-hand,teams=threes")
    calls = len(fake_play)
    for args, message in (
        (["--players", "8"], "--players: a table seats 2 to 7 players, not 8\n"),
        (["--players", "5", "--rules", "moon"], "--players 5: the rules 'moon' seat 3 players\n"),
        (
            ["--rules", "moon", "--seat", "3"],
            "--seat: a seat is 0..2 (0 North, 1 East, 2 West), not 3\n",
        ),
    ):
        result = CliRunner().invoke(app, ["play", *args])
        assert result.exit_code == 2 and result.stderr == message
    assert len(fake_play) == calls


def test_check_prints_the_sentences_of_core_words(tmp_path: Path) -> None:
    """Every hand's result lines in ``check`` are `words.hand_result_lines` of that hand, word
    for word: the command writes no sentence of its own about a result."""
    game = Game(Rules.parse("standard,nello,nello_min_marks=1,plunge,target=3"), 11)
    bots = [RulesBot() for _ in range(4)]
    while not game.is_over():
        seat = game.seat_to_act()
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat)))
    path = write(tmp_path, record_from_game(game).to_dict())
    printed = CliRunner().invoke(app, ["check", path]).stdout.splitlines()
    report = check_record(Record.from_json(Path(path).read_text()))
    expected = ["rules: standard,nello=true,nello_min_marks=1,plunge=true,target=3"]
    for number, (hand, result) in enumerate(zip(report.hands, report.results), 1):
        view = hand.view(0)
        expected.append(f"hand {number}: {layout_of(hand.rules).seat_names[hand.shaker]} shakes")
        expected.append(f"  auction: {words.auction_line(view)}")
        if result.bidder is not None:
            expected.append(f"  contract: {words.contract_line(view, None, hand.contract)}")
        expected.append(f"  {words.hand_headline(view, result)}")
        lines = words.hand_result_lines(view, result, points=result.points)
        expected.extend(f"  {line}" for line in lines)
    winner = words.winner_words(report.record.rules, report.winner)
    expected.append(f"game: {words.score_line(report.record.rules, report.score)}; {winner}")
    assert printed == expected


def test_check_and_replay_show_a_face_down_hand_as_the_record_holds_it(tmp_path: Path) -> None:
    """A record shows every tile, so a hand whose piles lay face down (a 2-mark bid) still
    shows its points, and a by-lead contract is named as bid, not as the suit its lead named."""
    game = Game(Rules.parse("standard,target=2"), 1)
    for call in ("2m", "pass", "pass", "pass", "by-lead"):
        game.apply(game.hand.parse_action(call))
    bot = RulesBot()
    while not game.is_over():
        seat = game.seat_to_act()
        assert seat is not None
        game.apply(bot.choose(game.view(seat)))
    path = write(tmp_path, record_from_game(game).to_dict())
    shown = [
        "  contract: West bid 2m · by-lead (fours are trump)",
        "  East-West went set",
        "  Points: North-South 6, East-West 0",
        "  Tricks: North-South 1, East-West 0",
        "  Scored: North-South +2 marks",
    ]
    checked = CliRunner().invoke(app, ["check", path]).stdout.splitlines()
    assert checked[3:8] == shown
    replayed = CliRunner().invoke(app, ["replay", path]).stdout.splitlines()
    at = replayed.index(shown[0])
    assert replayed[at + 3 : at + 7] == shown[1:]


# -- analyze, solve and hint say what they found in the words of core.words ------------------

SOLVE_POSITION = (
    "standard 0-0 1 3 66.65.64.62.55.33.10/63.54.44.42.31.20.00/61.53.52.43.32.22.11/"
    "60.51.50.41.40.30.21 0:34.pass.pass.pass sixes 66.63.61.60.65 1"
)
HINT_POSITION = SOLVE_POSITION.removesuffix(" 1") + ".00 2"
"""Ex 14 after trick 1 (solve: East to play to it; hint: South, after East's 0-0)."""


def analyze_lines(path: Path, samples: int) -> list[str]:
    """What ``analyze`` prints of a record, but for the table of plays: made here from the
    review and the record's hands with `texas42.core.words` alone."""
    from texas42.players.review import review_record

    report = check_record(Record.from_json(path.read_text()))
    lines = []
    for hand, review in zip(report.hands, review_record(report.record, bid_samples=samples).hands):
        view = hand.view(0)
        lines.append(f"hand {review.number}: {words.contract_line(view, None, hand.contract)}")
        for bid in review.bids:
            seat = view.layout.seat_names[bid.seat]
            lines.append(f"  {words.bid_review_line(seat, bid.bid, bid.contract, bid.make_share)}")
            lines.append(f"    {words.bid_shares_line(bid.shares, bid.samples)}")
        if not review.plays:
            continue
        unit = "trick" if review.unit == "tricks" else "point"
        lines.append(f"  {words.best_play_line(view, review.plays[0].value_before, unit)}")
        if review.mistakes:
            lines.append("  mistakes, biggest first:")
        else:
            lines.append(f"  {words.no_costly_plays(len(review.plays))}")
        for p in review.mistakes:
            line = words.play_review_line(
                view.layout.seat_names[p.seat],
                words.trick_of_play(view, p.index),
                tile_name(p.tile),
                [tile_name(t) for t in p.best],
                p.cost,
                unit,
            )
            lines.append(f"    {line}")
        lines.append("  plays (value after each, for the bidders):")
    return lines


@pytest.mark.parametrize("name", ["ex14-marks", "ex15-nello"])
def test_analyze_says_the_review_in_the_words_of_core_words(name: str) -> None:
    path = EXAMPLES / f"{name}.json"
    printed = CliRunner().invoke(app, ["analyze", str(path), "--samples", "4"]).stdout
    rows = [line for line in printed.splitlines() if re.match(r" {4}[ \d]\d ", line)]
    lines = [line for line in printed.splitlines() if line not in rows]
    assert lines == analyze_lines(path, 4)
    assert len(rows) == len(Record.from_json(path.read_text()).hands[0].play)


def test_analyze_text_and_json() -> None:
    """Ex 14: South's 1-1 (play 7, in trick 2) and West's 4-1 (play 24, trick 6) each cost
    North-South 6 points; the rows of plays give every play's value before and after."""
    path = str(EXAMPLES / "ex14-marks.json")
    result = CliRunner().invoke(app, ["analyze", path, "--samples", "0"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[:6] == [
        "hand 1: North bid 34 · sixes (sixes are trump)",
        "  With best play throughout, North-South would end with 42 points.",
        "  mistakes, biggest first:",
        (
            "    Trick 2: best play here was 5-3 or 5-2 or 4-3 or 3-2 or 2-2; "
            "South's 1-1 cost 6 points."
        ),
        "    Trick 6: best play here was 5-0; West's 4-1 cost 6 points.",
        "  plays (value after each, for the bidders):",
    ]
    assert lines[6:8] == ["     1 North 6-6  42 -> 42", "     2 East  6-3  42 -> 42"]
    assert len(lines) == 6 + len(EX14_HAND["play"])
    result = CliRunner().invoke(app, ["analyze", path, "--samples", "0", "--json"])
    play = json.loads(result.stdout)["hands"][0]["plays"][0]
    assert play["tile"] == "6-6"
    assert set(play) == {"index", "seat", "tile", "value_before", "value_after", "best", "cost"}


def test_analyze_names_the_players_a_record_names(tmp_path: Path) -> None:
    path = write(tmp_path, dict(record(EX14_HAND), players=["Ann", "Bob", "Cat", "Dan"]))
    lines = CliRunner().invoke(app, ["analyze", path, "--samples", "2"]).stdout.splitlines()
    assert lines[0] == "hand 1: North (Ann) bid 34 · sixes (sixes are trump)"
    assert lines[1].startswith("  North (Ann)'s bid 34 (sixes) makes in ")
    assert lines[2].startswith("    Each contract over the 2 deals drawn: sixes ")
    assert "South (Cat)'s 1-1 cost 6 points." in lines[5]


def test_analyze_reports_record_errors() -> None:
    path = str(EXAMPLES / "ex14-too-long.json")
    result = CliRunner().invoke(app, ["analyze", path])
    assert result.exit_code == 1
    assert "play 25" in result.stderr
    result = CliRunner().invoke(app, ["analyze", path, "--json"])
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"]["index"] == 25
    result = CliRunner().invoke(app, ["analyze", "/no/such/file.json"])
    assert result.exit_code == 2


def test_solve_says_the_contract_and_best_play_in_the_words_of_core_words() -> None:
    from texas42.core.notation import parse_hand_position
    from texas42.players.review import solve_position

    hand = parse_hand_position(SOLVE_POSITION)[0]
    solution = solve_position(hand)
    result = CliRunner().invoke(app, ["solve", SOLVE_POSITION])
    assert result.exit_code == 0
    view = hand.view(solution.turn)
    assert result.stdout.splitlines() == [
        f"contract: {words.contract_line(view)}",
        "to play: East",
        words.best_play_line(view, solution.value, taken=solution.taken),
        *(f"  {tile}  42  best" for tile in ("5-4", "4-4", "4-2", "3-1", "2-0", "0-0")),
    ]
    assert result.stdout.splitlines()[2] == (
        "With best play from here, North-South would end with 42 points (1 taken, 41 to come)."
    )
    result = CliRunner().invoke(app, ["solve", SOLVE_POSITION, "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == solution.to_dict()


def test_solve_refuses_bad_positions_with_a_reason() -> None:
    result = CliRunner().invoke(app, ["solve", "standard 0-0 1 3 not a position"])
    assert result.exit_code == 2
    assert "texas42 solve:" in result.stderr
    no_contract = SOLVE_POSITION.replace(" sixes 66.63.61.60.65 1", " - - 1").replace(
        ".pass.pass.pass", ""
    )
    result = CliRunner().invoke(app, ["solve", no_contract])
    assert result.exit_code == 2
    assert "contract" in result.stderr


def test_hint_says_each_action_in_the_words_of_core_words() -> None:
    """South, partner of the bidder, hears the chance to make; the same hints come from the full
    position and from South's seat view."""
    from texas42.core.notation import parse_hand_position, view_position
    from texas42.players.hints import advise

    runner = CliRunner()
    result = runner.invoke(app, ["hint", HINT_POSITION, "--samples", "6"])
    assert result.exit_code == 0, result.stderr
    hand, score, number = parse_hand_position(HINT_POSITION)
    view = hand.view(2, score, number)
    advice = advise(view, samples=6, seed=0)
    found = advice.hints
    assert result.stdout.splitlines() == [
        "South to act; best first:",
        *(
            f"  {h.action.notation:<10} "
            f"{words.hint_facts(view, h.chance, h.points, h.marks, h.if_stands)}"
            for h in found
        ),
        f"why {advice.choice.notation}: {advice.reason.text}",
    ]
    assert "% to make · the bidders take " in result.stdout and found[-1].action.notation == "1-1"
    args = ["--samples", "6", "--json"]
    as_json = json.loads(runner.invoke(app, ["hint", HINT_POSITION, *args]).stdout)
    from_view = json.loads(runner.invoke(app, ["hint", view_position(view), *args]).stdout)
    assert as_json == from_view and as_json["seat"] == 2
    assert (as_json["choice"], as_json["reason"]) == (advice.choice.notation, advice.reason.text)
    for bad, reason in (
        ([HINT_POSITION, "--seat", "1"], "not its turn"),
        ([HINT_POSITION, "--seat", "7"], "a seat is 0..3"),
        ([view_position(view), "--seat", "1"], "seat 2's"),
        (["junk"], "9 space-separated fields"),
    ):
        result = runner.invoke(app, ["hint", *bad])
        assert result.exit_code == 2 and reason in result.stderr, (bad, result.stderr)


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
