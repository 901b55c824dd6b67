"""The engine protocol (docs/engine-protocol.md): the host side against a scripted mock engine
over real pipes, through every message and every way an engine can fail; texas42's own engine
driven in-process command by command; the two talking to each other over real pipes; the seat
view as all an engine ever learns; and the arena forfeiting a failing engine."""

from __future__ import annotations

import asyncio
import functools
import gc
import io
import os
import pickle
import random
import re
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from typer.testing import CliRunner

import texas42.services.protocol as protocol
import texas42.services.protocol.engine as engine_module
from helpers import endgame_views
from texas42 import Game, Hand, Rules
from texas42.core.actions import (
    ACTIONS,
    HIGH_POINT_BIDS,
    Action,
    Bid,
    Discard,
    Pass,
    Play,
    action_words,
    parse_action_words,
)
from texas42.core.errors import NotationError, Texas42Error
from texas42.core.notation import parse_view_position, view_position
from texas42.core.progress import Phase
from texas42.core.rules import FOUR_SEATS
from texas42.core.tiles import TILE_CODES, tiles_of
from texas42.core.view import HiddenTrick, View
from texas42.faces.cli import app
from texas42.players import Bot
from texas42.services.arena import MatchSpec, play_ladder, play_match, run_match
from texas42.services.arena.report import match_table
from texas42.services.protocol import (
    Answer,
    AsyncEngine,
    EngineBot,
    EngineError,
    EngineOption,
    EngineSpec,
    Info,
    make_bot,
    parse_engine_spec,
    parse_info,
    parse_option,
)
from texas42.services.protocol.engine import run_engine
from texas42.services.protocol.host import read_action

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine-protocol.md"
OUR_ENGINE = [sys.executable, "-m", "texas42.services.protocol.engine", "--bot"]
STANDARD = Rules()
T = TypeVar("T")

MOCK = r"""
import os, sys, time

mode = sys.argv[1]
log = open(sys.argv[2], "a") if len(sys.argv) > 2 else None
goes = 0
legal = []


def say(*lines):
    for line in lines:
        sys.stdout.write(line + "\n")
    sys.stdout.flush()


if mode == "hangs":
    with open(sys.argv[2] + ".pid", "w") as pid_file:
        pid_file.write(str(os.getpid()))
if mode == "silent":
    say("a banner nobody asked for")
    time.sleep(60)
for line in sys.stdin:
    if log:
        log.write(line)
        log.flush()
    command, _, rest = line.strip().partition(" ")
    if command == "texas42":
        if mode == "exit-at-hello":
            sys.stderr.write("cannot find my opening book\n")
            sys.exit(4)
        say("Mock engine 1.0, a banner", "id name Mock", "id author Tester",
            "option name Seed type spin default 0 min 0 max 1000",
            "option name Style type combo default calm var calm var wild",
            "option name Ponder type check default false",
            "option name Book File type string default <empty>")
        if mode == "bad-option":
            say("option name Broken type spin default 5")
        if mode == "version-2":
            say("protocolversion 2")
        elif mode != "no-version":
            say("protocolversion 1")
        say("texas42ok")
    elif command == "isready":
        if mode == "deaf":
            continue
        if mode == "answers-unasked" and goes:
            say("bestaction pass")
        say("info string ready when you are", "readyok")
    elif command == "legal":
        legal = rest.split(";")
    elif command == "go":
        goes += 1
        if mode == "crash" and goes == 3:
            sys.stderr.write("boom: out of dominoes\n")
            sys.stderr.flush()
            os._exit(3)
        if mode in ("slow", "waits-for-stop"):
            continue
        if mode == "hangs":
            time.sleep(600)
        if mode == "flood":
            while True:
                say("info string still thinking")
        if mode == "long-line":
            say("info string " + "x" * 100_000)
        if mode == "stderr-flood":
            sys.stderr.write(("noise " * 20 + "\n") * 5000)
            sys.stderr.flush()
        answer = {"illegal": "bestaction play 6-6",
                  "unreadable-action": "bestaction fly away",
                  "chess": "bestmove e2e4",
                  "bad-info": "info chance 1.7"}.get(mode, "bestaction " + legal[-1])
        say("", "info time 5 nodes 100 chance 0.25 points 31.5 marks -0.5 depth 7 line "
            + legal[-1] + " pass reason the last legal action", "info string done", answer)
    elif command == "stop":
        if mode == "waits-for-stop":
            say("bestaction " + legal[-1])
    elif command == "quit":
        break
"""


@pytest.fixture
def mock(tmp_path: Path) -> Callable[..., list[str]]:
    """The command of the mock engine in a mode; it logs what it receives to tmp_path/log."""
    script = tmp_path / "mock_engine.py"
    script.write_text(MOCK)

    def command(mode: str = "good") -> list[str]:
        return [sys.executable, str(script), mode, str(tmp_path / "log")]

    return command


def received(tmp_path: Path) -> list[str]:
    return (tmp_path / "log").read_text().splitlines()


def first_view(seed: int = 1) -> View:
    game = Game(STANDARD, seed)
    seat = game.seat_to_act()
    assert seat is not None
    return game.view(seat)


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def engine_failure(
    command: list[str],
    *,
    view: View | None = None,
    limit: float = 2.0,
    timeout: float = 5.0,
    grace: float = 0.3,
) -> EngineError:
    """The EngineError a mock engine raises over a handshake and one decision; the engine is
    dead afterwards."""
    engine = AsyncEngine(command, timeout=timeout, grace=grace)

    async def attempt() -> None:
        try:
            await engine.start()
            await engine.go(view or first_view(), limit)
        finally:
            await engine.close()

    with pytest.raises(EngineError) as caught:
        run(attempt())
    assert not engine.running
    assert "Mock" in str(caught.value) or shlex.join(command) in str(caught.value)
    return caught.value


def play_game(bots: list[Bot], seed: int, rules: Rules = STANDARD) -> tuple[Game, list[Action]]:
    game = Game(rules, seed)
    actions = []
    while not game.is_over():
        seat = game.seat_to_act()
        assert seat is not None
        action = bots[seat].choose(game.view(seat))
        game.apply(action)
        actions.append(action)
    return game, actions


def gone(pid: int) -> bool:
    """Whether the process has ended (and been reaped), waiting up to 5 s."""
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


# -- what engines say -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "option"),
    [
        (
            "option name Samples type spin default 0 min 0 max 10000",
            EngineOption("Samples", "spin", "0", 0, 10000),
        ),
        ("option name Ponder type check default false", EngineOption("Ponder", "check", "false")),
        (
            "option name Level type combo default hard var easy var hard var very hard",
            EngineOption("Level", "combo", "hard", vars=("easy", "hard", "very hard")),
        ),
        (
            "option name Book File type string default <empty>",
            EngineOption("Book File", "string", ""),
        ),
        (
            "option name Greeting type string default min max var",
            EngineOption("Greeting", "string", "min max var"),
        ),
        ("option name Name type string", EngineOption("Name", "string", "")),
    ],
)
def test_option_lines_of_every_type(line: str, option: EngineOption) -> None:
    assert parse_option(line) == option


@pytest.mark.parametrize(
    "line",
    [
        "option Samples type spin default 0 min 0 max 9",
        "option name Samples spin default 0",
        "option name Samples type slider default 0",
        "option name Samples type spin default 0 min 0",
        "option name Samples type spin default 12 min 0 max 9",
        "option name Samples type spin default few min 0 max 9",
        "option name Ponder type check default maybe",
        "option name Ponder type check default true min 0 max 1",
        "option name Level type combo default hard var easy",
        "option name Level type combo default hard",
        "option name Style type check default true var x",
        "option name Samples type spin default 0 default 1 min 0 max 9",
        "option name Samples type spin default 0 min 0 max 9 colour red",
    ],
)
def test_unreadable_option_lines(line: str) -> None:
    with pytest.raises(NotationError):
        parse_option(line)


def test_option_values_are_checked_before_they_are_sent() -> None:
    spin = EngineOption("Samples", "spin", "0", 0, 100)
    assert (spin.check(40), spin.check("-0"), spin.check(" 7 ")) == ("40", "0", "7")
    combo = EngineOption("Level", "combo", "hard", vars=("easy", "Hard"))
    assert combo.check("HARD") == "Hard"
    assert EngineOption("Ponder", "check", "false").check(True) == "true"
    assert EngineOption("Book", "string", "").check("my book.txt") == "my book.txt"
    refused: list[tuple[EngineOption, str | int]] = [
        (spin, 101),
        (spin, "many"),
        (combo, "medium"),
        (EngineOption("Ponder", "check", "false"), "yes"),
        (EngineOption("Book", "string", ""), "two\nlines"),
    ]
    for option, value in refused:
        with pytest.raises(Texas42Error, match=option.name):
            option.check(value)


def test_info_lines_read_every_token() -> None:
    info = parse_info(
        "info time 412 nodes 220279 chance 0.83 points 36.4 marks -1.25 "
        "line play 5-1 pass bid 2m declare nello:low reason pulling  trump, as one does"
    )
    assert info == Info(
        time=412,
        nodes=220279,
        chance=0.83,
        points=36.4,
        marks=-1.25,
        line=(Play("5-1"), Pass(), Bid("2m"), parse_action_words("declare nello:low", Rules())),
        reason="pulling trump, as one does",
    )
    assert parse_info("info string error: chance 2 is off") == Info(string="error: chance 2 is off")
    # a keyword of a later version is skipped, with its value
    assert parse_info("info depth 7 seldepth 9 chance 0.5") == Info(chance=0.5)
    assert parse_info("info") == Info()


@pytest.mark.parametrize(
    "line",
    [
        "info chance 1.7",
        "info chance -0.1",
        "info chance nan",
        "info points 45",
        "info marks inf",
        "info time 3.5",
        "info nodes -1",
        "info time",
        "info line",
        "info line play 9-9",
        "info line play",
        "information chance 0.5",
        "bestaction pass",
    ],
)
def test_unreadable_info_lines(line: str) -> None:
    with pytest.raises(NotationError):
        parse_info(line)


# -- a good session with the mock engine ------------------------------------------------------


def test_a_good_session_message_by_message(mock: Callable[..., list[str]], tmp_path: Path) -> None:
    view = first_view()

    async def session() -> tuple[AsyncEngine, Answer]:
        async with AsyncEngine(mock(), move_time=2.0) as engine:
            await engine.set_option("seed", 42)
            await engine.set_option("STYLE", "Wild")
            await engine.set_option("Ponder", True)
            await engine.set_option("book file", "my book.txt")
            with pytest.raises(Texas42Error, match=r"no option 'Hash'.*Seed, Style, Ponder"):
                await engine.set_option("Hash", 64)
            with pytest.raises(Texas42Error, match=r"0\.\.1000"):
                await engine.set_option("Seed", 1001)
            answer = await engine.go(view, nodes=500)
            second = await engine.choose(view, 0.5)
            assert second is answer.action
        return engine, answer

    engine, answer = run(session())
    assert (engine.id_name, engine.id_author, engine.protocol_version) == ("Mock", "Tester", 1)
    assert engine.name == "Mock"
    assert list(engine.options) == ["seed", "style", "ponder", "book file"]
    assert engine.options["style"].vars == ("calm", "wild")
    assert list(engine.messages) == ["ready when you are"] * 8
    assert not engine.running
    assert answer.action is view.legal[-1]
    assert answer.info == (
        Info(
            time=5,
            nodes=100,
            chance=0.25,
            points=31.5,
            marks=-0.5,
            line=(view.legal[-1], Pass()),
            reason="the last legal action",
        ),
        Info(string="done"),
    )
    assert answer.evaluation == Info(
        time=5,
        nodes=100,
        chance=0.25,
        points=31.5,
        marks=-0.5,
        line=(view.legal[-1], Pass()),
        reason="the last legal action",
        string="done",
    )
    legal = ";".join(action_words(a) for a in view.legal)
    decision = [f"position {view_position(view)}", f"legal {legal}", "isready"]
    assert received(tmp_path) == [
        "texas42",
        "isready",
        "setoption name Seed value 42",
        "isready",
        "setoption name Style value wild",
        "isready",
        "setoption name Ponder value true",
        "isready",
        "setoption name Book File value my book.txt",
        "isready",
        "newgame standard",
        "isready",
        *decision,
        "go movetime 2000 nodes 500",
        *decision,
        "go movetime 500",
        "quit",
    ]


def test_newgame_is_sent_when_the_rules_change_or_the_hands_start_again(
    mock: Callable[..., list[str]], tmp_path: Path
) -> None:
    house = Rules.parse("house")

    async def session() -> None:
        async with AsyncEngine(mock()) as engine:
            for rules, seed in [(STANDARD, 1), (STANDARD, 2), (house, 2)]:
                game = Game(rules, seed)
                for _ in range(3):  # a view of hand 2, then hand 1 again
                    seat = game.seat_to_act()
                    assert seat is not None
                    await engine.choose(game.view(seat))
                    game.apply(game.legal_actions()[0])

    run(session())
    newgames = [line for line in received(tmp_path) if line.startswith("newgame")]
    assert newgames == ["newgame standard", f"newgame {house}"]


def test_engine_bot_plays_whole_games_and_closes_its_process(
    mock: Callable[..., list[str]],
) -> None:
    with EngineBot(mock(), name="Last", seed=3, time_limit=2.0) as bot:
        game, _actions = play_game(
            [bot, make_bot("rules"), make_bot("rules"), make_bot("rules")], 5
        )
        assert game.is_over()
        pid = bot.engine.pid
        assert pid is not None and bot.engine.running
        assert bot.last_answer is not None and bot.last_answer.evaluation.chance == 0.25
    assert gone(pid)
    bot.close()  # again: nothing to do
    with pytest.raises(Texas42Error, match="closed"):
        bot.choose(first_view())


def test_a_forgotten_engine_bot_kills_its_process(mock: Callable[..., list[str]]) -> None:
    bot = EngineBot(mock())
    bot.choose(first_view())
    pid = bot.engine.pid
    assert pid is not None
    del bot
    gc.collect()
    assert gone(pid)


def test_engines_left_open_are_closed_when_the_host_exits(
    mock: Callable[..., list[str]], tmp_path: Path
) -> None:
    script = (
        "import sys\nfrom texas42 import Game\nfrom texas42.services.protocol import EngineBot\n"
        f"bot = EngineBot({mock()!r})\n"
        "game = Game(seed=1)\nbot.choose(game.view(game.seat_to_act()))\n"
        "print(bot.engine.pid, flush=True)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=30, check=True
    )
    assert gone(int(done.stdout))
    assert received(tmp_path)[-1] == "quit"


def test_a_command_that_cannot_run_is_refused_at_once(tmp_path: Path) -> None:
    with pytest.raises(Texas42Error, match=r"no program '\./nobot' that can be run"):
        EngineBot("./nobot --fast")
    with pytest.raises(Texas42Error, match="names a program"):
        make_bot("engine:  ")
    with pytest.raises(Texas42Error, match="No closing quotation"):
        make_bot("engine:./bot 'open")
    script = tmp_path / "not-executable"
    script.write_text("print('hi')\n")
    with pytest.raises(Texas42Error, match="that can be run"):
        AsyncEngine(str(script))


# -- every way an engine fails ----------------------------------------------------------------


def test_a_slow_engine_is_stopped_then_times_out(
    mock: Callable[..., list[str]], tmp_path: Path
) -> None:
    """The engine never answers, so only the host's stop and kill end the wait (a host that
    waited for the engine would hang until pytest's timeout)."""
    error = engine_failure(mock("slow"), limit=0.3, grace=0.2)
    assert error.kind == "timeout"
    assert str(error).startswith("engine 'Mock' (")
    assert "gave no bestaction within 0.3 s and 0.2 s of grace" in str(error)
    assert received(tmp_path)[-2:] == ["go movetime 300", "stop"]


def test_an_answer_to_stop_within_the_grace_is_taken(mock: Callable[..., list[str]]) -> None:
    view = first_view()

    async def session() -> Action:
        async with AsyncEngine(mock("waits-for-stop"), grace=1.0) as engine:
            return await engine.choose(view, 0.2)

    assert run(session()) is view.legal[-1]


def test_an_illegal_action_names_the_engine_and_the_line(mock: Callable[..., list[str]]) -> None:
    view = first_view()  # an auction: playing the 6-6 is not legal
    error = engine_failure(mock("illegal"), view=view)
    assert error.kind == "illegal"
    assert error.line == "bestaction play 6-6"
    assert "chose play 6-6, which is not legal here (legal: pass, bid 30" in str(error)
    assert str(error).endswith(": 'bestaction play 6-6'")


@pytest.mark.parametrize(
    ("mode", "line", "problem"),
    [
        ("unreadable-action", "bestaction fly away", "answered with no action"),
        ("chess", "bestmove e2e4", "sent this while the host waited for bestaction"),
        ("bad-info", "info chance 1.7", "unreadable info line (info chance 1.7 is out of range)"),
        ("long-line", None, "sent a line longer than 65536 bytes"),
    ],
)
def test_unreadable_lines(
    mock: Callable[..., list[str]], mode: str, line: str | None, problem: str
) -> None:
    error = engine_failure(mock(mode))
    assert (error.kind, error.line) == ("unreadable", line)
    assert problem in str(error)


def test_an_answer_nobody_asked_for_is_unreadable(mock: Callable[..., list[str]]) -> None:
    game = Game(STANDARD, 1)

    async def session() -> None:
        async with AsyncEngine(mock("answers-unasked")) as engine:
            for _ in range(2):
                seat = game.seat_to_act()
                assert seat is not None
                game.apply(await engine.choose(game.view(seat)))

    with pytest.raises(EngineError, match="while the host waited for readyok: 'bestaction pass'"):
        run(session())


def test_a_crash_mid_game_reports_the_exit_code_and_the_error_output(
    mock: Callable[..., list[str]],
) -> None:
    bot = EngineBot(mock("crash"), name="Crashy")
    bots: list[Bot] = [bot, make_bot("rules"), make_bot("rules"), make_bot("rules")]
    with pytest.raises(EngineError) as caught:
        play_game(bots, 1)
    error = caught.value
    assert (error.kind, error.returncode, error.line) == ("crashed", 3, None)
    assert error.stderr == ("boom: out of dominoes",)
    assert str(error) == (
        f"engine 'Crashy' ({shlex.join(mock('crash'))}): exited with code 3 while the host "
        "waited for bestaction (its last error output: boom: out of dominoes)"
    )
    assert str(pickle.loads(pickle.dumps(error))) == str(error)
    with pytest.raises(EngineError, match="stopped after an earlier error") as again:
        bot.choose(first_view())
    assert again.value.kind == "closed"
    bot.close()


@pytest.mark.parametrize(
    ("mode", "kind", "problem"),
    [
        ("version-2", "handshake", "speaks protocol version 2; this host speaks version 1"),
        ("no-version", "handshake", "said texas42ok without protocolversion first"),
        ("bad-option", "handshake", "offered an unreadable option"),
        ("silent", "handshake", "did not say texas42ok within 0.5 s; its last line: 'a banner"),
        ("exit-at-hello", "crashed", "exited with code 4 while the host waited for texas42ok"),
    ],
)
def test_bad_handshakes(mock: Callable[..., list[str]], mode: str, kind: str, problem: str) -> None:
    error = engine_failure(mock(mode), timeout=0.5)
    assert error.kind == kind
    assert problem in str(error)
    if mode == "exit-at-hello":
        assert error.stderr == ("cannot find my opening book",)


def test_a_flood_of_output_is_cut_off(mock: Callable[..., list[str]]) -> None:
    error = engine_failure(mock("flood"), limit=30.0)
    assert (error.kind, error.line) == ("flood", "info string still thinking")
    assert "sent 10000 lines while the host waited for bestaction" in str(error)


def test_an_engine_flooding_its_error_output_still_plays(mock: Callable[..., list[str]]) -> None:
    view = first_view()

    async def session() -> Action:
        async with AsyncEngine(mock("stderr-flood")) as engine:
            return await engine.choose(view)

    assert run(session()) is view.legal[-1]


def test_the_engine_that_cannot_start_is_not_tried_again(tmp_path: Path) -> None:
    script = tmp_path / "bot"
    script.write_text("#!/nonexistent/interpreter\n")
    script.chmod(0o755)
    engine = AsyncEngine([str(script)])
    for kind, problem in [("start", "cannot be started"), ("closed", "earlier error")]:
        with pytest.raises(EngineError, match=problem) as caught:
            run(engine.go(first_view()))
        assert caught.value.kind == kind


def test_an_engine_that_never_says_readyok_times_out(mock: Callable[..., list[str]]) -> None:
    error = engine_failure(mock("deaf"), timeout=0.5)
    assert error.kind == "timeout"
    assert str(error).endswith("did not say readyok within 0.5 s; its last line: 'texas42ok'")


# -- hidden information -----------------------------------------------------------------------


def test_the_engine_learns_the_seat_view_and_nothing_more(
    mock: Callable[..., list[str]], tmp_path: Path
) -> None:
    rules = Rules.parse("standard,hide_tricks=mark-bids")
    views: list[View] = []

    class Recording:
        """The engine bot, keeping each view it was asked about."""

        name = "recording"

        def __init__(self, bot: EngineBot) -> None:
            self.bot = bot

        def choose(self, view: View) -> Action:
            views.append(view)
            return self.bot.choose(view)

    with EngineBot(mock()) as bot:
        bots: list[Bot] = [make_bot("rules"), Recording(bot), make_bot("rules"), make_bot("easy")]
        for seed in range(3):
            play_game(bots, seed, rules)
    sent = [line for line in received(tmp_path) if line.split(" ")[0] in ("position", "legal")]
    assert len(sent) == 2 * len(views)
    face_down = 0
    for view, position, legal in zip(views, sent[::2], sent[1::2]):
        assert position == f"position {view_position(view)}"
        assert legal == "legal " + ";".join(action_words(a) for a in view.legal)
        # every tile named is the seat's own or was played face up
        seen = view.dealt
        for event in view.events:
            seen |= 0 if isinstance(event, HiddenTrick) else 1 << event
        face_down += any(isinstance(event, HiddenTrick) for event in view.events)
        fields = position.split(" ")[1:]
        codes = re.findall(r"[0-6]{2}", fields[4] + "/" + fields[7])
        assert codes and set(codes) <= {TILE_CODES[t] for t in tiles_of(seen)}
        assert parse_view_position(position.removeprefix("position ")) == view
    assert face_down, "no position with a face-down trick"


def test_swapping_hidden_tiles_changes_nothing_the_engine_is_told(
    mock: Callable[..., list[str]], tmp_path: Path
) -> None:
    seat = 2
    deal = list(Hand.random(STANDARD, 0, __import__("random").Random(4)).deal)
    others = [s for s in range(FOUR_SEATS.seats) if s != seat]
    swapped = list(deal)
    a, b = tiles_of(deal[others[0]])[0], tiles_of(deal[others[1]])[0]
    swapped[others[0]] = deal[others[0]] ^ (1 << a) | (1 << b)
    swapped[others[1]] = deal[others[1]] ^ (1 << b) | (1 << a)
    transcripts = []
    for holding in (deal, swapped):
        hand = Hand(STANDARD, 0, holding)
        while hand.seat_to_act() != seat:
            hand.apply(Pass())
        (tmp_path / "log").unlink(missing_ok=True)

        view = hand.view(seat)

        async def ask(view: View = view) -> None:
            async with AsyncEngine(mock()) as engine:
                await engine.choose(view)

        run(ask())
        transcripts.append(received(tmp_path))
    assert swapped != deal
    assert transcripts[0] == transcripts[1]
    assert any(line.startswith("position ") for line in transcripts[0])


def test_an_engine_behind_a_wrapper_script_dies_with_it(
    mock: Callable[..., list[str]], tmp_path: Path
) -> None:
    wrapper = tmp_path / "wrapper.sh"
    wrapper.write_text("#!/bin/sh\n" + shlex.join(mock("hangs")) + "\n")  # no exec: a child
    wrapper.chmod(0o755)
    bot = EngineBot([str(wrapper)], time_limit=0.3, grace=0.2)
    with pytest.raises(EngineError) as caught:
        bot.choose(first_view())
    assert caught.value.kind == "timeout"
    bot.close()
    pid = int((tmp_path / "log.pid").read_text())
    for _ in range(100):
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            break
        if state == "Z":  # killed, waiting for a parent that may never reap it
            break
        time.sleep(0.05)
    else:
        raise AssertionError(f"the wrapped engine {pid} still runs")


def test_go_refuses_more_nodes_than_the_samples_option_allows() -> None:
    lines = serve(
        "texas42\nnewgame standard\nposition " + view_position(first_view()) + "\ngo nodes 10001\n"
    )
    assert "info string error: go: nodes is at most 10000, not 10001" in lines
    assert not any(line.startswith("bestaction") for line in lines)


# -- texas42's engine, in-process -------------------------------------------------------------


def serve(commands: str, spec: str = "rules", seed: int = 0) -> list[str]:
    out = io.StringIO()
    assert run_engine(spec, io.StringIO(commands), out, seed=seed) == 0
    return out.getvalue().splitlines()


HANDSHAKE = [
    "id name texas42 medium",
    "id author the texas42 authors",
    "option name Level type combo default medium var easy var medium var hard var expert",
    "option name Samples type spin default 0 min 0 max 10000",
    "option name Seed type spin default 0 min 0 max 9223372036854775807",
    "protocolversion 1",
    "texas42ok",
]


def test_run_engine_handshake_and_readiness() -> None:
    assert serve("texas42\nisready\n\n   \nisready\n") == [*HANDSHAKE, "readyok", "readyok"]
    assert serve("texas42\n", "pimc:samples=4", seed=9)[2:5] == [
        (
            "option name Level type combo default pimc:samples=4 "
            "var easy var medium var hard var expert var pimc:samples=4"
        ),
        "option name Samples type spin default 0 min 0 max 10000",
        "option name Seed type spin default 9 min 0 max 9223372036854775807",
    ]
    assert serve("texas42\n", "expert")[0] == "id name texas42 expert"


def answer_lines(lines: list[str]) -> list[str]:
    """The lines with the time taken blanked out and the bot's reason left off (its words are
    tested in test_engine_reason.py)."""
    blanked = (re.sub(r"^info time \d+", "info time _", line) for line in lines)
    return [re.sub(r"^(info time _.*?) reason .*$", r"\1", line) for line in blanked]


def test_run_engine_answers_go_like_the_bot_it_serves() -> None:
    game = Game(STANDARD, 3)
    rules_bot = make_bot("rules")
    for _ in range(12):
        seat = game.seat_to_act()
        assert seat is not None
        view = game.view(seat)
        legal = ";".join(action_words(a) for a in view.legal)
        choice = rules_bot.choose(view)
        position = f"position {view_position(view)}\nlegal {legal}\n"
        lines = serve(f"newgame standard\n{position}go movetime 5000\n")
        assert answer_lines(lines) == ["info time _", f"bestaction {action_words(choice)}"]
        game.apply(choice)


@pytest.mark.parametrize(
    ("command", "error"),
    [
        ("bogus", "unknown command 'bogus'"),
        ("setoption", "setoption: say setoption name NAME value VALUE"),
        ("setoption value 3", "setoption: say setoption name NAME value VALUE"),
        (
            "setoption name Hash value 64",
            "setoption: no option 'hash' (options: Level, Samples, Seed)",
        ),
        (
            "setoption name Level value master",
            "setoption Level: choose from easy, expert, hard, medium, not 'master'",
        ),
        (
            "setoption name Samples value lots",
            "setoption Samples: a whole number 0..10000, not 'lots'",
        ),
        (
            "setoption name Seed value -1",
            "setoption Seed: a whole number 0..9223372036854775807, not '-1'",
        ),
        ("newgame", "newgame: empty rules string; start with a preset name such as 'standard'"),
        ("newgame standard,jokers", "newgame: unknown rule option 'jokers' in 'standard,jokers'"),
        ("position standard 0-0", "a position has 10 space-separated fields, this one has 2"),
        ("legal play 9-9", "legal: not a tile: '9-9' (ends are 0..6)"),
        ("go", "go: there is no position with this seat to act (send position first)"),
        ("go movetime", "go: say go [movetime MS] [nodes N], not 'movetime'"),
        ("go movetime soon", "go: say go [movetime MS] [nodes N], not 'movetime soon'"),
        ("go depth 3", "go: say go [movetime MS] [nodes N], not 'depth 3'"),
        ("go nodes 0", "go: say go [movetime MS] [nodes N], not 'nodes 0'"),
    ],
)
def test_run_engine_answers_bad_commands_with_an_error_and_carries_on(
    command: str, error: str
) -> None:
    assert serve(f"{command}\nisready\n") == [f"info string error: {error}", "readyok"]


def test_run_engine_refuses_an_unknown_bot() -> None:
    with pytest.raises(Texas42Error, match="no bot called 'grandmaster'"):
        serve("texas42\n", "grandmaster")


def test_run_engine_position_legal_and_go() -> None:
    view = first_view()
    position = f"position {view_position(view)}"
    legal = ";".join(action_words(a) for a in view.legal)
    expected = action_words(make_bot("rules").choose(view))
    # a bad position forgets the last good one: go has nothing to answer
    assert serve(f"{position}\nposition {view_position(view).replace('@', '@@')}\ngo\n")[1] == (
        "info string error: go: there is no position with this seat to act (send position first)"
    )
    # a legal line that is not the position's is reported; the position's own legal actions rule
    lines = serve(f"{position}\nlegal pass;bid 41\ngo nodes 3\n")
    assert answer_lines(lines) == [
        "info string error: legal: not the legal actions of the position, which is the one played",
        "info time _",
        f"bestaction {expected}",
    ]
    # a position where another seat is to act
    game = Game(STANDARD, 1)
    seat = game.seat_to_act()
    assert seat is not None
    other = view_position(game.view((seat + 1) % FOUR_SEATS.seats))
    assert serve(f"position {other}\nlegal {legal}\ngo\n") == [
        "info string error: legal: not the legal actions of the position, which is the one played",
        "info string error: go: there is no position with this seat to act (send position first)",
    ]


def test_run_engine_quit_and_the_end_of_input() -> None:
    view = first_view()
    go = f"position {view_position(view)}\ngo\n"
    assert serve("quit\ntexas42\n") == []
    assert len(serve(go)) == 2  # the end of the input: the pending go is answered first
    assert serve(f"{go}isready\n")[-1] == "readyok"


class Sleeper:
    """A bot that thinks until told to stop, for the clock and stop."""

    name = "Sleeper"
    wake = threading.Event()

    def choose(self, view: View) -> Action:
        self.wake.wait(10)
        return view.legal[-1]


@pytest.fixture
def sleeper(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    def make(spec: str, seed: int = 0, name: str | None = None) -> Bot:
        return Sleeper() if spec == "sleeper" else make_bot(spec, seed, name)

    monkeypatch.setattr(engine_module, "make_bot", make)
    Sleeper.wake.clear()
    yield
    Sleeper.wake.set()


@pytest.mark.usefixtures("sleeper")
def test_run_engine_answers_in_time_with_the_rules_of_thumb() -> None:
    view = first_view()
    rules_choice = action_words(make_bot("rules").choose(view))
    start = time.perf_counter()
    lines = serve(f"position {view_position(view)}\ngo movetime 200\nisready\n", "sleeper")
    # The sleeper never wakes: that an answer came at all shows the deadline held.
    assert time.perf_counter() - start > 0.17
    assert answer_lines(lines) == [
        "readyok",  # at once, while the bot thinks
        "info time _ string out of time: answering with the rules of thumb",
        f"bestaction {rules_choice}",
    ]


@pytest.mark.usefixtures("sleeper")
def test_run_engine_isready_while_thinking_and_stop() -> None:
    view = first_view()
    rules_choice = action_words(make_bot("rules").choose(view))
    lines = serve(f"position {view_position(view)}\ngo\nisready\nstop\nstop\nisready\n", "sleeper")
    assert answer_lines(lines) == [
        "readyok",
        "info time _ string stopped: answering with the rules of thumb",
        f"bestaction {rules_choice}",
        "readyok",
    ]


def test_run_engine_options_change_the_bot() -> None:
    view = first_view(4)
    position = f"newgame standard\nposition {view_position(view)}\n"
    easy = serve(f"setoption name Level value easy\n{position}go\n", seed=5)
    assert easy[-1] == f"bestaction {action_words(make_bot('easy', 5).choose(view))}"
    random_moves = serve(f"{position}go\ngo\ngo\n", "random", seed=8)
    bot = make_bot("random", 8)
    assert [line for line in random_moves if line.startswith("bestaction")] == [
        f"bestaction {action_words(bot.choose(view))}" for _ in range(3)
    ]
    reseeded = serve(f"setoption name Seed value 8\n{position}go\ngo\ngo\n", "random", seed=1)
    assert [line for line in reseeded if line.startswith("best")] == [
        line for line in random_moves if line.startswith("best")
    ]


def test_run_engine_expert_says_what_it_thinks() -> None:
    game = Game(STANDARD, 1)
    game.apply(Bid(30))
    view = game.view(0)  # North, with three doubles, over West's 30
    commands = f"setoption name Samples value 8\nposition {view_position(view)}\ngo nodes 6\n"
    lines = serve(commands, "expert")
    info = parse_info(lines[0])
    assert info.time is not None and info.nodes is not None and info.nodes > 0
    assert info.marks is not None and info.reason
    action = parse_action_words(lines[1].removeprefix("bestaction "), view.rules)
    assert action in view.legal
    if isinstance(action, Bid):
        assert info.chance is not None and 0 <= info.chance <= 1


def test_run_engine_expert_reports_its_numbers_in_the_information_set_endgame() -> None:
    """With three tiles left and few deals, the expert judges every deal that fits (and with
    ``endgame_tiles`` searches them as one information set); the info line carries its chance
    and expected points."""
    (view,) = endgame_views(1, STANDARD, most_worlds=120)
    lines = serve(f"position {view_position(view)}\ngo\n", "expert")
    info = parse_info(lines[0])
    assert info.chance is not None and 0 <= info.chance <= 1
    assert info.points is not None and info.reason


# -- texas42's engine over real pipes ---------------------------------------------------------


def test_our_engine_over_pipes_plays_exactly_like_the_bot() -> None:
    seed = 6
    plain, plain_actions = play_game(
        [make_bot("rules", seed) for _ in range(FOUR_SEATS.seats)], seed
    )
    with EngineBot(OUR_ENGINE + ["rules"]) as north, EngineBot(OUR_ENGINE + ["rules"]) as south:
        bots: list[Bot] = [north, make_bot("rules"), south, make_bot("rules")]
        game, actions = play_game(bots, seed)
        assert north.engine.id_name == "texas42 medium"
    assert actions == plain_actions
    assert game.outcome() == plain.outcome()


def test_our_engine_over_pipes_passes_the_seed() -> None:
    seed = 2
    _plain, plain_actions = play_game(
        [make_bot("random", 40 + s) for s in range(FOUR_SEATS.seats)], seed
    )
    with EngineBot(OUR_ENGINE + ["random"], seed=40) as north:
        bots = [north, *(make_bot("random", 40 + s) for s in range(1, FOUR_SEATS.seats))]
        _game, actions = play_game(bots, seed)
    assert actions == plain_actions


# -- the arena --------------------------------------------------------------------------------


def test_an_engine_in_the_arena_plays_as_the_bot_it_serves() -> None:
    engine = "engine:" + shlex.join(OUR_ENGINE + ["rules"])
    spec = MatchSpec(engine, "easy", STANDARD, seed=17, records=True)
    result = run_match(spec)
    plain = run_match(MatchSpec("rules", "easy", STANDARD, seed=17, records=True))
    for game, twin in zip(result.games, plain.games):
        assert (game.score, game.winner, game.hands, game.forfeit) == (
            twin.score,
            twin.winner,
            twin.hands,
            None,
        )


def test_an_engine_that_crashes_forfeits_the_game(mock: Callable[..., list[str]]) -> None:
    engine = "engine:" + shlex.join(mock("crash"))
    summary, results = play_match(engine, "rules", STANDARD, 1, seed=3, records=True)
    for game in results[0].games:
        assert game.a_won is False
        assert game.score[1 - game.a_team] == 7
        assert game.forfeit is not None
        assert game.forfeit.startswith(f"A forfeits at seat {game.a_team}: engine ")
        assert "exited with code 3 while the host waited for bestaction" in game.forfeit
        assert game.record is not None and '"hands"' in game.record
    assert summary.forfeits == (2, 0)
    assert summary.to_dict()["forfeits"]["reasons"] == list(summary.forfeit_reasons)
    assert len(summary.forfeit_reasons) == 2
    table = match_table(summary)
    assert table.caption is not None and str(table.caption).startswith("forfeits:\n- A forfeits")
    hands = play_match("rules", engine, STANDARD, 1, seed=3, hands=True)[1][0]
    for game in hands.games:
        assert game.a_won is True and game.forfeit is not None
        assert game.score[game.a_team] >= 1 and game.score[1 - game.a_team] == 0


@pytest.mark.parametrize(
    ("spec", "engine"),
    [
        ("engine:./bot --fast", EngineSpec("./bot --fast")),
        (" Engine : ./bot", EngineSpec("./bot")),
        ("engine[]:./bot", EngineSpec("./bot")),
        (
            "engine[movetime=250, nodes=40, Threads=2, Book File=my book.bin]:./bot -x",
            EngineSpec("./bot -x", 0.25, 40, (("Threads", "2"), ("Book File", "my book.bin"))),
        ),
        ("engine[MoveTime=1500]:./bot", EngineSpec("./bot", 1.5)),
        ("rules", None),
        ("pimc:samples=8", None),
        ("engineer", None),
    ],
)
def test_engine_specs_carry_a_move_time_nodes_and_options(
    spec: str, engine: EngineSpec | None
) -> None:
    assert parse_engine_spec(spec) == engine


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("engine", "write engine:CMD, or engine[movetime=MS,NAME=VALUE,...]:CMD"),
        (
            "engine[movetime=500:./bot",
            "write engine:CMD, or engine[movetime=MS,NAME=VALUE,...]:CMD",
        ),
        (
            "engine[movetime=fast]:./bot",
            "movetime is milliseconds, a whole number from 1, not 'fast'",
        ),
        ("engine[movetime=0]:./bot", "movetime is milliseconds, a whole number from 1, not '0'"),
        ("engine[nodes=-3]:./bot", "nodes is a node count, a whole number from 1, not '-3'"),
        ("engine[Threads]:./bot", "setting 'Threads' is not NAME=VALUE"),
        ("engine[Threads=1,threads=2]:./bot", "threads is set twice"),
    ],
)
def test_engine_specs_that_cannot_be_read_say_why(spec: str, message: str) -> None:
    with pytest.raises(Texas42Error) as caught:
        make_bot(spec)
    assert str(caught.value) == f"engine spec {spec.strip()!r}: {message}"


def test_an_engine_spec_sends_its_options_and_move_time(
    mock: Callable[..., list[str]], tmp_path: Path
) -> None:
    spec = f"engine[movetime=300,nodes=50,style=wild,Book File=my book.bin]:{shlex.join(mock())}"
    with make_bot(spec, seed=7) as bot:
        assert isinstance(bot, EngineBot)
        bot.choose(first_view())
    sent = received(tmp_path)
    assert "setoption name Seed value 7" in sent
    assert sent.index("setoption name Style value wild") > sent.index("setoption name Seed value 7")
    assert "setoption name Book File value my book.bin" in sent
    assert "go movetime 300 nodes 50" in sent


@pytest.fixture
def quick_handshake(monkeypatch: pytest.MonkeyPatch) -> None:
    """Engines made from specs wait half a second for the handshake instead of ten."""
    monkeypatch.setattr(protocol, "EngineBot", functools.partial(EngineBot, timeout=0.5))


@pytest.mark.usefixtures("quick_handshake")
@pytest.mark.parametrize(
    ("mode", "settings", "why"),
    [
        ("exit-at-hello", "", "exited with code 4 "),
        ("silent", "", "did not say texas42ok within 0.5 s"),
        ("good", "[Hash=64]", "has no option 'Hash' (it offers: Seed, Style, Ponder, Book File)"),
        ("good", "[Style=loud]", "option Style (combo) takes one of calm, wild, not 'loud'"),
    ],
)
def test_an_engine_that_cannot_play_stops_the_arena_before_the_first_game(
    mock: Callable[..., list[str]], tmp_path: Path, mode: str, settings: str, why: str
) -> None:
    engine = f"engine{settings}:{shlex.join(mock(mode))}"
    with pytest.raises(Texas42Error) as caught:
        play_match("rules", engine, STANDARD, 3, seed=1)
    message = str(caught.value)
    name = "'Mock' (" if mode == "good" else repr(shlex.join(mock(mode)))  # named once it said
    assert message.startswith(f"bot B cannot play, so no game was played: engine {name}")
    assert why in message
    if mode == "exit-at-hello":
        assert "cannot find my opening book" in message
    sent = received(tmp_path)  # the silent engine reads nothing
    assert sent.count("texas42") == (mode != "silent")  # one handshake, and no game
    assert not any(line.startswith(("newgame", "go")) for line in sent)


@pytest.mark.usefixtures("quick_handshake")
def test_a_ladder_names_the_engine_that_cannot_play(mock: Callable[..., list[str]]) -> None:
    engine = "engine:" + shlex.join(mock("exit-at-hello"))
    with pytest.raises(Texas42Error) as caught:
        play_ladder(["random", engine, "rules"], STANDARD, 2)
    assert str(caught.value).startswith(f"{engine} cannot play, so no game was played: engine ")


@pytest.mark.usefixtures("quick_handshake")
def test_the_arena_command_names_the_engine_that_cannot_play(
    mock: Callable[..., list[str]],
) -> None:
    engine = "engine:" + shlex.join(mock("exit-at-hello"))
    done = CliRunner().invoke(app, ["arena", engine, "rules", "--games", "2"])
    assert (done.exit_code, done.stdout) == (2, "")
    assert done.stderr == (
        "texas42 arena: bot A cannot play, so no game was played: engine "
        f"{shlex.join(mock('exit-at-hello'))!r}: exited with code 4 while the host waited for "
        "texas42ok (its last error output: cannot find my opening book)\n"
    )


# -- the documentation ------------------------------------------------------------------------


def test_the_minimal_engine_in_the_documentation_plays_a_whole_game(tmp_path: Path) -> None:
    text = DOC.read_text()
    code = text.split("## A minimal engine", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    assert len(code.splitlines()) <= 25
    script = tmp_path / "first.py"
    script.write_text(code)
    with EngineBot([sys.executable, str(script)]) as bot:
        game, _ = play_game([bot, make_bot("rules"), make_bot("rules"), make_bot("rules")], 9)
        assert game.is_over() and bot.engine.id_name == "First Legal"
        assert bot.last_answer is not None
        assert bot.last_answer.evaluation.reason == "the first legal action"


def test_the_documented_positions_are_real_seat_views() -> None:
    text = DOC.read_text()
    positions = re.findall(r"^> position (.*)$", text, re.M)
    positions.append(re.findall(r"^(standard 1-4 .*)$", text, re.M)[0])
    assert len(positions) == 4
    for position in positions:
        view = parse_view_position(position)
        assert view_position(view) == position
        legal = re.findall(rf"^> position {re.escape(position)}\n> legal (.*)$", text, re.M)
        if legal:
            assert legal[0] == ";".join(action_words(a) for a in view.legal)


# -- every table size ----------------------------------------------------------------------------

SIZES = ("three-hand", "moon", "five-hand", "six-hand", "six-hand,teams=threes", "seven-hand")


def views_of_every_phase(rules: Rules, seed: int) -> Iterator[View]:
    """The view of the seat to act at every decision of a hand RulesBots play."""
    hand = Hand.random(rules, seed % rules.seats, random.Random(seed))
    bot = make_bot("rules")
    while (seat := hand.seat_to_act()) is not None:
        view = hand.view(seat)
        yield view
        hand.apply(bot.choose(view))


@pytest.mark.parametrize("text", SIZES)
def test_the_engine_answers_like_rules_bot_at_every_table_size(text: str) -> None:
    rules = Rules.parse(text)
    phases: set[Phase] = set()
    for view in views_of_every_phase(rules, 4):
        legal = ";".join(action_words(a) for a in view.legal)
        lines = serve(f"newgame {rules}\nposition {view_position(view)}\nlegal {legal}\ngo\n")
        expected = action_words(make_bot("rules").choose(view))
        assert answer_lines(lines) == ["info time _", f"bestaction {expected}"], view_position(view)
        phases.add(view.phase)
    assert Phase.PLAY in phases and Phase.DECLARE in phases
    assert (Phase.DISCARD in phases) == (text == "moon")


def test_three_hand_point_bids_over_42_are_read_as_points_not_marks() -> None:
    rules = Rules.parse("three-hand")
    assert read_action("bid 42", rules) is ACTIONS[HIGH_POINT_BIDS[42]]
    assert read_action("bid 42") is Bid("1m")  # four seats: 42 is one mark
    assert read_action("bid 21", Rules.parse("moon")) is Bid("moon")
    assert read_action("discard 5-5", rules) is Discard("5-5")
    # North bids 42 and 43 are both legal after 41: the legal line must name both, not 1m twice
    hand = Hand.random(rules, 2, random.Random(1))
    hand.apply(Bid("41"))
    view = hand.view(hand.seat_to_act())  # type: ignore[arg-type]
    words = [action_words(a) for a in view.legal]
    assert "bid 42" in words and "bid 43" in words and "bid 1m" in words
    assert {read_action(w, rules) for w in words} == set(view.legal)
    legal = ";".join(words)
    lines = serve(f"position {view_position(view)}\nlegal {legal}\ngo\n")
    assert not any("error" in line for line in lines)
    assert parse_info("info points 44 line bid 42 pass", rules).line == (
        ACTIONS[HIGH_POINT_BIDS[42]],
        Pass(),
    )


@pytest.mark.parametrize(
    ("position", "error"),
    [
        ("moon 0:0:0 1 0 66.65/?/?+? 1:- - - 1 @1", "position field 5 (deal)"),
        ("moon 0-0 1 0 ?/66.65.64.63.62.61.55/?+? 1:- - - 1 @1", "position field 2 (score)"),
        ("three-hand 0:0:0 1 0 ?/66.65.64.63.62.61.55.54.53/?/? 1:- - - 1 @1", "field 5 (deal)"),
        ("six-hand 0:0:0 1 0 ?/66.65.64.63/?/?/?/? 1:- - - 1 @7", "@0..@5"),
        ("moon 0:0:0 1 0 ?/66.65.64.63.62.61.55/?+44 1:- - - 1 @1", "widow"),
    ],
)
def test_bad_positions_of_other_table_sizes_get_an_error_line(position: str, error: str) -> None:
    lines = serve(f"position {position}\ngo\nisready\n")
    assert lines[0].startswith("info string error: ") and error in lines[0], lines
    assert lines[1:] == [
        "info string error: go: there is no position with this seat to act (send position first)",
        "readyok",
    ]


def test_our_engine_plays_a_whole_moon_game_through_the_protocol() -> None:
    rules = Rules.parse("moon")
    with EngineBot([*OUR_ENGINE, "rules"], seed=1, time_limit=5.0) as bot:
        game, actions = play_game([bot, make_bot("rules"), make_bot("easy")], 2, rules)
    assert game.is_over()
    outcome = game.outcome()
    assert outcome is not None and max(outcome.score) >= 21
    assert any(isinstance(a, Discard) for a in actions)
