"""Hostile input to the command line and the server, case by case (issue 18, item 7): each
input a fuzz turned into a traceback or a 500 now gets one clear line and the documented status
(2: cannot be read), and a record's free text never reaches the terminal raw."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from helpers import EXAMPLES
from texas42 import Rules
from texas42.core.errors import RulesError, Texas42Error
from texas42.core.notation import parse_hand_position, parse_view_position
from texas42.core.record import MAX_DEPTH, MAX_RECORD_BYTES, UNREADABLE, Record, RecordError
from texas42.core.words import printable
from texas42.faces.cli import app
from texas42.faces.server.messages import BadMessage, parse_message
from texas42.faces.terminal.line_game import save_problem
from texas42.services.protocol.engine import MAX_MOVETIME, run_engine
from webtest import Socket, TestClient, new_table

HOSTILE_NAMES = ["\x1b[2J\x1b]0;owned\x07Ann", "Bo\u202eb", "Cy\x00\r", "Di\u2066\u200b"]
"""Player names that would clear the screen, set the window title, ring the bell, reverse the
text's direction or hide characters if printed raw."""


def example() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((EXAMPLES / "ex14-marks.json").read_text())
    return loaded


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return str(path)


def refused(args: list[str], stdin: str | bytes | None = None) -> str:
    """Run a command that must refuse its input: status 2, one line on stderr, no traceback;
    the line is returned."""
    done = CliRunner().invoke(app, args, input=stdin)
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
    assert done.exit_code == UNREADABLE, (args, done.stdout, done.stderr)
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    return done.stderr


# -- the five causes of the fuzz's tracebacks ----------------------------------------------------


@pytest.mark.parametrize("position", ["", "   ", "\n"])
def test_an_empty_position_is_refused_by_hint_and_solve(position: str) -> None:
    assert "9 space-separated fields, this one has 0" in refused(["hint", position])
    assert "9 space-separated fields, this one has 0" in refused(["solve", position])


@pytest.mark.parametrize("parse", [parse_hand_position, parse_view_position])
@pytest.mark.parametrize("text", ["", " ", "\t\n"])
def test_position_parsers_refuse_empty_text(parse: Any, text: str) -> None:
    with pytest.raises(Texas42Error, match="this one has 0"):
        parse(text)


def test_a_deeply_nested_record_is_refused_with_where() -> None:
    for opening, closing in (("[", "]"), ('{"a":', "}"), ("[\n", "]")):
        text = opening * 1000 + "1" + closing * 1000
        with pytest.raises(RecordError) as error:
            Record.from_json(text)
        assert error.value.status == UNREADABLE
        at = len(opening) * MAX_DEPTH
        where = f"line {text.count(chr(10), 0, at) + 1} column {at - text.rfind(chr(10), 0, at)}"
        levels = f"more than {MAX_DEPTH} levels down"
        assert str(error.value) == f"not JSON: at {where}, {levels}: nested too deeply"
    # brackets inside strings are text, not nesting
    d = example()
    d["players"] = ["[" * 100, "{" * 100, "]", "}"]
    assert Record.from_json(json.dumps(d)).players == tuple(d["players"])


def test_a_huge_number_is_refused_with_where(tmp_path: Path) -> None:
    text = json.dumps(example(), indent=1).replace('"shaker": 3', '"shaker": ' + "9" * 5000)
    line = 1 + text[: text.index("9" * 5000)].count("\n")
    with pytest.raises(RecordError, match=f"a number of more than 40 digits at line {line} "):
        Record.from_json(text)
    assert "a number of more than 40 digits" in refused(["check", write(tmp_path, text)])
    # digits inside strings are text
    d = example()
    d["players"] = ["9" * 5000, "b", "c", "d"]
    assert Record.from_json(json.dumps(d)).players == tuple(d["players"])


@pytest.mark.parametrize("escape", ["\\ud800", "\\udfff", "x\\udc00y"])
def test_a_lone_surrogate_is_refused_with_where(escape: str, tmp_path: Path) -> None:
    d = example()
    d["players"] = ["Ann", "SURROGATE", "Cy", "Di"]
    text = json.dumps(d).replace("SURROGATE", escape)
    with pytest.raises(RecordError) as error:
        Record.from_json(text)
    assert error.value.field == "players" and "in players[1]: not text" in str(error.value)
    for command in ("check", "replay", "analyze"):
        assert "lone surrogate" in refused([command, write(tmp_path, text)])
    # as a key, and deep in a hand
    with pytest.raises(RecordError, match=r"in hands\[0\]\.play\[2\]"):
        Record.from_json(json.dumps(example()).replace('"6-1"', '"\\ud83d"', 1))
    with pytest.raises(RecordError, match="lone surrogate"):
        Record.from_json(json.dumps(example()).replace('"format"', '"\\ud800": 1, "format"', 1))
    # a pair that makes one character is text
    d["players"][1] = "\U0001f600"
    assert Record.from_json(json.dumps(d)).players == tuple(d["players"])


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_endless_file_is_refused_as_too_large_without_reading_it_all() -> None:
    for command in ("check", "replay", "analyze"):
        line = refused([command, "/dev/zero"])
        assert line == f"cannot read /dev/zero: a record is at most {MAX_RECORD_BYTES} bytes\n"


def test_a_record_one_byte_too_large_is_refused_from_a_file_and_from_stdin(
    tmp_path: Path,
) -> None:
    text = json.dumps(example())
    padded = text + " " * (MAX_RECORD_BYTES - len(text))
    assert CliRunner().invoke(app, ["check", write(tmp_path, padded)]).exit_code == 0
    assert "at most" in refused(["check", write(tmp_path, padded + " ")])
    assert "cannot read -: a record is at most" in refused(["check", "-"], padded + " ")
    with pytest.raises(RecordError, match="a record is at most"):
        Record.from_json(padded + " ")


def test_a_folder_or_bytes_that_are_not_utf8_are_unreadable(tmp_path: Path) -> None:
    assert "cannot read" in refused(["check", str(tmp_path)])
    path = tmp_path / "latin.json"
    path.write_bytes(b'{"format": "texas42", "players": ["Jos\xe9"]}')
    assert refused(["check", str(path)]) == f"cannot read {path}: not UTF-8 text\n"


# -- a record's free text on the terminal -------------------------------------------------------


def test_printable_shows_every_control_character_and_keeps_the_rest() -> None:
    assert printable("Ann Zoë 🀱") == "Ann Zoë 🀱"
    assert printable("\x1b[31m") == "\\x1b[31m"
    assert printable("a\u202eb\u2066c\u200bd\ud800") == "a\\u202eb\\u2066c\\u200bd\\ud800"
    assert printable("\U000e0001\x7f\t\n") == "\\U000e0001\\x7f\\x09\\x0a"
    for text in HOSTILE_NAMES:
        assert printable(text).isprintable()


@pytest.mark.parametrize("command", ["check", "replay", "analyze"])
def test_check_replay_and_analyze_escape_the_players_names(command: str, tmp_path: Path) -> None:
    d = example()
    d["players"] = HOSTILE_NAMES
    args = [command, write(tmp_path, json.dumps(d))]
    if command == "analyze":
        args += ["--samples", "2"]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.stderr
    shown = done.stdout
    for name in HOSTILE_NAMES if command != "analyze" else HOSTILE_NAMES[:1]:
        assert printable(name) in shown  # analyze names only the bidder and those who erred
    assert all(ch == "\n" or ch.isprintable() for ch in shown), repr(shown)
    assert "\\x1b[2J\\x1b]0;owned\\x07Ann" in shown


def test_an_error_line_that_quotes_the_record_is_escaped(tmp_path: Path) -> None:
    d = example()
    d["hands"][0]["contract"] = "\x1b[2Jsixes"
    line = refused(["check", write(tmp_path, json.dumps(d))])
    assert "\x1b" not in line and "\\x1b[2J" in line


# -- more causes found by fuzzing the other commands ---------------------------------------------

HUGE = "9" * 5000
"""More digits than ``int()`` reads (4,300): each reader must refuse it, not raise ValueError."""


@pytest.mark.parametrize(
    "args",
    [
        ["rules", f"seats={HUGE}"],
        ["rules", f"standard,target={HUGE}"],
        ["hint", f"standard 0-0 {HUGE} 0 ?/65.62.61.41.40.22.10/?/? 1:- - - 1 @1"],
        ["hint", f"standard {HUGE}-0 1 0 ?/65.62.61.41.40.22.10/?/? 1:- - - 1 @1"],
        ["hint", f"standard 0-0 1 0 ?/65.62.61.41.40.22.10/?/? 1:{HUGE} - - 2 @1"],
        ["play", "--bots", f"expert:samples={HUGE}"],
        ["play", "--bots", f"engine[movetime={HUGE}]:cat"],
        ["arena", "random", f"pimc:samples={HUGE}", "--games", "2"],
    ],
)
def test_a_number_of_thousands_of_digits_is_refused(args: list[str]) -> None:
    refused(args)


def test_the_engine_refuses_huge_numbers_and_a_movetime_past_a_day() -> None:
    position = "standard 0-0 1 0 ?/65.62.61.41.40.22.10/?/? 1:- - - 1 @1"
    lines = [
        f"setoption name Samples value {HUGE}",
        f"setoption name Seed value {HUGE}",
        f"position {position}",
        f"go movetime {HUGE}",
        f"go nodes {HUGE}",
        f"go movetime {MAX_MOVETIME + 1}",
        "setoption name Seed value 9223372036854775807",  # the largest seed is still taken
        "isready",
    ]
    out = io.StringIO()
    assert run_engine("rules", io.StringIO("\n".join(lines) + "\n"), out) == 0
    said = out.getvalue().splitlines()
    errors = [line for line in said if line.startswith("info string error")]
    assert len(errors) == 5 and said[-1] == "readyok", said
    assert f"movetime is at most {MAX_MOVETIME} (a day)" in errors[-1]
    assert not any(line.startswith("bestaction") for line in said)


def test_play_refuses_a_name_that_is_not_printable_and_a_save_path_the_system_refuses(
    tmp_path: Path,
) -> None:
    for name in ("\x1b[2JEve", "\udcff", " ", ""):
        assert "--name: a name is printable text" in refused(["play", "--name", name])
    too_long = str(tmp_path / ("x" * 300))
    done = CliRunner().invoke(app, ["play", "--save", too_long], input="q\n")
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
    assert done.exit_code == 2 and "File name too long" in done.stdout
    assert save_problem("a\x00b") == "cannot save to 'a\\x00b': a file name has no NUL character"


# -- the server: the same inputs never give a 500 ------------------------------------------------


def test_a_lone_surrogate_in_a_new_tables_fields_is_a_422_not_a_500(client: TestClient) -> None:
    for body in (
        b'{"name": "\\ud800"}',
        b'{"rules": "standard\\udfff"}',
        b'{"bot_level": "\\ud800"}',
        b'{"\\ud800": 1}',
    ):
        response = client.post(
            "/api/tables", content=body, headers={"content-type": "application/json"}
        )
        assert response.status_code == 422, (body, response.text)
        detail = response.json()["detail"]
        assert detail and all(set(d) == {"loc", "msg", "type"} for d in detail)
        assert response.content.isascii()
    # the refusal names the field and does not echo the input
    response = client.post("/api/tables", json={"rules": "x" * 700})
    assert response.status_code == 422 and "x" * 700 not in response.text
    assert response.json()["detail"][0]["loc"] == ["body", "rules"]


def test_a_table_name_must_be_printable(client: TestClient) -> None:
    for name in ("\x1b[2J", "Ann\u202e", "tab\x00"):
        response = client.post("/api/tables", json={"name": name})
        assert response.status_code == 400 and "printable" in response.json()["detail"]
    assert client.post("/api/tables", json={"name": "  Zoë's   table "}).status_code == 200
    assert client.post("/api/tables", json={"name": "   "}).status_code == 200


def test_an_imported_record_with_a_huge_number_or_a_lone_surrogate_is_a_400(
    client: TestClient,
) -> None:
    text = json.dumps(example())
    for body in (
        text.replace('"shaker": 3', f'"shaker": {HUGE}'),
        text.replace('"version": 1', f'"version": {HUGE}'),
        text.replace('"North"', '"\\ud800North"', 1),
        "[" * 100_000,
    ):
        response = client.post("/api/replay", content=body.encode())
        assert response.status_code == 400, response.text[:300]
        assert response.json()["error"]


def test_a_websocket_message_with_a_lone_surrogate_is_refused_and_the_table_goes_on(
    client: TestClient,
) -> None:
    for raw in (
        '{"type": "hello", "token": "\\ud800"}',
        '{"type": "hello", "\\ud800": 1}',
        '{"type": "\\udc00"}',
        '{"type": "chat", "text": "hi", "name": "\\udfff"}',
    ):
        with pytest.raises(BadMessage, match="lone surrogate"):
            parse_message(raw)
    sock = Socket(client, new_table(client))
    sock.hello()
    sock.ws.send_text('{"type": "hello", "token": "\\ud800"}')
    assert "lone surrogate" in sock.until("error")["message"]
    sock.send(type="ping")
    sock.until("pong")


def test_rules_objects_refuse_lists_and_numbers_too_long_to_print() -> None:
    for options in ({"seats": 10**5000}, {"target": -(10**200)}, {"nello": [10**5000]}):
        with pytest.raises(RulesError):
            Rules.from_dict(options)
    with pytest.raises(RulesError, match="not a list or object"):
        Rules.from_dict({"seats": {"a": 1}})
    assert Rules.from_dict({"seats": 3, "preset": "three-hand"}).seats == 3
