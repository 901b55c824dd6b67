"""The table server as a real process: killed with SIGKILL in the middle of a hand, started again
on the same database, it gives a returning player exactly the table they last saw acknowledged,
and the game goes on. Its SQLite file holds seat-token digests, never a token.

Each test starts ``python -m texas42 serve`` on a free port with a fresh database and
``--bot-delay 0``, and speaks the protocol of ``docs/web.md`` over real WebSockets.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

START_SECONDS = 20
RECV_SECONDS = 10
OWN_ACTIONS_BEFORE_KILL = 6
"""Enough of the player's own calls and plays that the kill lands well inside the game."""

Server = tuple[subprocess.Popen[bytes], int]
StartServer = Callable[..., Server]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.loads(response.read())


def _post(url: str, body: Any) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[StartServer]:
    """Starts servers and waits until they answer; every one is killed when the test ends.

    Their output goes to ``server.log`` beside the database, never into a pipe that could fill."""
    started: list[subprocess.Popen[bytes]] = []

    def start(db: Path, port: int, *args: str) -> Server:
        command = [
            sys.executable,
            "-m",
            "texas42",
            "serve",
            "--port",
            str(port),
            "--db",
            str(db),
            "--bot-delay",
            "0",
            *args,
        ]
        with open(tmp_path / "server.log", "ab") as log:
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        started.append(process)
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                _get(f"http://127.0.0.1:{port}/api/options")
                return process, port
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    process.kill()
                    output = (tmp_path / "server.log").read_text(errors="replace")
                    pytest.fail(f"the server did not start: {output}")
                time.sleep(0.05)

    try:
        yield start
    finally:
        for process in started:
            if process.poll() is None:
                process.kill()
            process.wait(10)


def _receive(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of ``kind``; an ``error`` from the server fails the test."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=RECV_SECONDS))
        assert message["type"] != "error", message
        if message["type"] == kind:
            return message


def _my_turn(state: dict[str, Any]) -> bool:
    game = state["game"]
    return game is not None and game["outcome"] is None and bool(game["hand"]["legal"])


def _act(ws: ClientConnection, state: dict[str, Any]) -> dict[str, Any]:
    """Make the first legal action and return the state that acknowledges it."""
    action = state["game"]["hand"]["legal"][0]["action"]
    ws.send(json.dumps({"type": "act", "action": action, "seq": state["seq"]}))
    while True:
        answer = _receive(ws, "state")
        if answer["seq"] > state["seq"]:
            assert answer["last"]["seat"] == 0 and answer["last"]["action"] == action
            return answer


def _until_my_turn(ws: ClientConnection, state: dict[str, Any]) -> dict[str, Any]:
    """States as the bots play, until the player is to act or the game is over."""
    while not _my_turn(state) and state["game"]["outcome"] is None:
        state = _receive(ws, "state")
    return state


def _new_table(base: str) -> str:
    table: str = _post(base + "/api/tables", {"rules": "standard", "name": "Crash"})["id"]
    return table


def _sit_with_bots(ws: ClientConnection) -> str:
    """The player at seat 0 and medium bots at 1 to 3, the game started; the seat's token."""
    ws.send(json.dumps({"type": "hello"}))
    assert _receive(ws, "welcome")["seat"] is None
    ws.send(json.dumps({"type": "sit", "seat": 0, "name": "Ann"}))
    token: str = _receive(ws, "seated")["token"]
    for seat in (1, 2, 3):
        ws.send(json.dumps({"type": "bot", "seat": seat, "level": "medium"}))
    ws.send(json.dumps({"type": "start"}))
    return token


def test_sigkill_mid_hand_resumes_exactly_where_acknowledged(
    tmp_path: Path, start_server: StartServer
) -> None:
    """Killed when it is the player's turn, so nothing can have moved since their last state;
    the restarted server must give back that state, field for field, and play on."""
    db = tmp_path / "t.sqlite"
    process, port = start_server(db, _free_port())
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    table = _new_table(base)
    with connect(f"{ws_base}/ws/{table}", close_timeout=1) as ws:
        token = _sit_with_bots(ws)
        state = _receive(ws, "state")
        while state["table"]["status"] != "playing":
            state = _receive(ws, "state")
        acted = 0
        state = _until_my_turn(ws, state)
        while acted < OWN_ACTIONS_BEFORE_KILL:
            assert state["game"]["outcome"] is None, "the game ended before the kill"
            acknowledged = _act(ws, state)
            acted += 1
            state = _until_my_turn(ws, acknowledged)
        # The player is to act, so no bot can move: this state is the table's last word.
        assert _my_turn(state) and state["seq"] >= acknowledged["seq"]
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
    seen = state

    start_server(db, port)
    with connect(f"{ws_base}/ws/{table}", close_timeout=1) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        assert _receive(ws, "welcome")["seat"] == 0
        resynced = _receive(ws, "state")
        assert resynced["seq"] == seen["seq"]
        assert resynced["game"] == seen["game"]
        assert resynced == seen

        hand_number = resynced["game"]["hand_number"]
        state = resynced
        while state["game"]["hand_number"] == hand_number and state["game"]["outcome"] is None:
            state = _until_my_turn(ws, _act(ws, state))
        finished = state["game"]["last_hand"]
        assert finished["number"] == hand_number and finished["result"] is not None
        assert state["seq"] > seen["seq"]
    summary = _get(f"{base}/api/tables/{table}")
    assert summary["hand_number"] == state["game"]["hand_number"]
    assert summary["score"] == state["game"]["score"]


def test_database_holds_token_digests_not_tokens(tmp_path: Path, start_server: StartServer) -> None:
    """A seat token is taken (``sit``) and used (``hello``); the database and the server's output
    hold its digest at most, never the token."""
    db = tmp_path / "t.sqlite"
    process, port = start_server(db, _free_port())
    table = _new_table(f"http://127.0.0.1:{port}")
    with connect(f"ws://127.0.0.1:{port}/ws/{table}", close_timeout=1) as ws:
        token = _sit_with_bots(ws)
        state = _receive(ws, "state")
        while state["table"]["status"] != "playing":
            state = _receive(ws, "state")
    with connect(f"ws://127.0.0.1:{port}/ws/{table}", close_timeout=1) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        assert _receive(ws, "welcome")["seat"] == 0
    # Killed, not stopped: whatever is still only in the WAL file is read too.
    os.kill(process.pid, signal.SIGKILL)
    process.wait(10)
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("t.sqlite"))
    output = (tmp_path / "server.log").read_bytes()
    digest = hashlib.sha256(token.encode()).hexdigest().encode()
    found = {name: name.encode() in stored for name in (table, token)}
    assert digest in stored and found[table], "the database does not hold the seat"
    assert not found[token], "a seat token is stored in the database"
    assert token.encode() not in output, "a seat token is in the server's output"


def test_sigkill_after_a_takeover_and_an_away_restores_both_and_the_game_goes_on(
    tmp_path: Path, start_server: StartServer
) -> None:
    db = tmp_path / "t.sqlite"
    process, port = start_server(db, _free_port(), "--bot-delay", "0.2")
    base = f"http://127.0.0.1:{port}"
    table: str = _post(base + "/api/tables", {"name": "Crash", "away_seconds": 0.3})["id"]
    url = f"ws://127.0.0.1:{port}/ws/{table}"
    tokens: list[str] = []
    with connect(url, close_timeout=1) as ann, connect(url, close_timeout=1) as bo:
        for ws, seat, name in ((ann, 0, "Ann"), (bo, 1, "Bo")):
            ws.send(json.dumps({"type": "hello"}))
            _receive(ws, "welcome")
            ws.send(json.dumps({"type": "sit", "seat": seat, "name": name}))
            tokens.append(_receive(ws, "seated")["token"])
        for seat in (2, 3):
            ann.send(json.dumps({"type": "bot", "seat": seat, "level": "medium"}))
        ann.send(json.dumps({"type": "start"}))
        state = _receive(ann, "state")
        while state["game"] is None:
            state = _receive(ann, "state")
        bo.send(json.dumps({"type": "leave", "seat": 1}))
        while state["table"]["seats"][1]["kind"] != "bot":
            state = _receive(ann, "state")
    bot = state["table"]["seats"][1]["name"]
    # Ann's connection is closed: when the table waits on her, her grace runs out
    deadline = time.monotonic() + 60
    while not _get(f"{base}/api/tables/{table}")["seats"][0]["away"]:
        assert time.monotonic() < deadline, "Ann never went away"
        time.sleep(0.1)
    os.kill(process.pid, signal.SIGKILL)
    process.wait(10)
    _, port = start_server(db, _free_port(), "--bot-delay", "0.2")
    base = f"http://127.0.0.1:{port}"
    summary = _get(f"{base}/api/tables/{table}")
    assert summary["seats"][1]["kind"] == "bot" and summary["seats"][1]["name"] == bot
    assert summary["seats"][0]["kind"] == "human" and summary["seats"][0]["away"]
    assert summary["host"] == 0 and summary["away_seconds"] == 0.3
    # the game goes on: the bots and Ann's stand-in play
    with connect(f"ws://127.0.0.1:{port}/ws/{table}", close_timeout=1) as watcher:
        watcher.send(json.dumps({"type": "hello"}))
        first = _receive(watcher, "state")
        later = _receive(watcher, "state")
        while later["seq"] <= first["seq"] and later["game"]["outcome"] is None:
            later = _receive(watcher, "state")
    # and Ann's token gives her seat back
    with connect(f"ws://127.0.0.1:{port}/ws/{table}", close_timeout=1) as ws:
        ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
        assert _receive(ws, "welcome")["seat"] == 0
        state = _receive(ws, "state")
        while state["table"]["seats"][0]["away"]:
            state = _receive(ws, "state")
