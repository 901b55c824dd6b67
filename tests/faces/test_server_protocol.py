"""The protocol does what docs/web.md says (issue 18, item 6): messages sent right behind a
`hello` are taken, a seat survives a kill between its `sit` being stored and its `seated` being
sent, a `hello` is not a whole new state for everyone at the table, and `hints` name their game."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from webtest import (
    Socket,
    TestClient,
    Watch,
    free_port,
    get_json,
    make_client,
    needs_browser,
    new_table,
    room_of,
    seat_with_bots,
    seq_of,
    serve,
    serve_command,
    sit,
)

RECV_SECONDS = 15
TOKEN = "a" * 40
"""A seat token a client made itself (the browser makes 64 hex digits)."""


def _token(n: int) -> str:
    return f"{n:x}".rjust(64, "0")


# -- hints name their game ----------------------------------------------------------------------


def test_hints_carry_the_game_they_are_for(client: TestClient) -> None:
    _table, me, _ = seat_with_bots(client, "standard,target=1")
    m = me.next_turn()
    me.send(type="hint")
    hints = me.until("hints")
    assert hints["game"] == m["table"]["game_number"] == 1 and hints["seq"] == m["seq"]
    rng = random.Random(3)
    while me.state["game"]["outcome"] is None:
        turn = me.next_turn()
        if turn["game"]["outcome"] is None:
            me.act(turn, rng)
    me.send(type="rematch")
    me.until("state", lambda s: s["table"]["game_number"] == 2)
    again = me.next_turn()
    me.send(type="hint")
    later = me.until("hints")
    # seq starts again with the game, so only the game tells these hints from the first game's
    assert later["game"] == again["table"]["game_number"] == 2 and later["seq"] == again["seq"]


# -- a hello tells the others only who is here ------------------------------------------------


def _view(sock: Socket) -> dict[str, Any]:
    """What the browser shows: the last state with the presences sent after it put in."""
    last = max(i for i, m in enumerate(sock.log) if m["type"] == "state")
    state: dict[str, Any] = json.loads(json.dumps(sock.log[last]))
    for message in sock.log[last + 1 :]:
        if message["type"] == "presence":
            state["table"]["spectators"] = message["spectators"]
            for seat, connected in zip(state["table"]["seats"], message["connected"], strict=True):
                seat["connected"] = connected
    return state


def test_spectators_joining_cost_messages_in_proportion_not_a_state_each(tmp_path: Path) -> None:
    count = 16
    with make_client(tmp_path / "p.sqlite", presence_seconds=2.0) as client:
        table, me, _ = seat_with_bots(client)
        me.next_turn()  # the table waits on the player: nothing else moves
        before = len(me.log)
        watchers = [Socket(client, table) for _ in range(count)]
        for watcher in watchers:
            watcher.send(type="hello")
        for sock in [*watchers, me]:
            sock.until("presence", lambda m: m["spectators"] == count)
        sent = sum(len(w.log) for w in watchers) + len(me.log) - before
        # each newcomer: welcome, chat, its state, and a presence or two; before, every hello was
        # a state for everyone there: count * (count + 1) / 2 states
        assert sent < 6 * (count + 1), sent
        assert [m["type"] for m in me.log[before:]].count("state") == 0
        for sock in [*watchers, me]:
            view = _view(sock)
            assert view["table"]["spectators"] == count
            assert [s["connected"] for s in view["table"]["seats"]] == [True] * 4
            assert view["seq"] == room_of(client, table).seq

        # going: the rest are told once the goings are gathered, and the player's seat is marked
        # as not connected once its connection goes too
        for watcher in watchers[: count // 2]:
            watcher.close()
        me.until("presence", lambda m: m["spectators"] == count // 2)
        me.close()
        last = watchers[-1].until("presence", lambda m: m["connected"][0] is False)
        assert last["spectators"] == count // 2
        assert _view(watchers[-1])["table"]["seats"][0]["connected"] is False


def test_a_newcomer_gets_the_whole_table_at_once(tmp_path: Path) -> None:
    with make_client(tmp_path / "n.sqlite", presence_seconds=60.0) as client:
        table, me, token = seat_with_bots(client)
        m = me.next_turn()
        watcher = Socket(client, table)
        watcher.hello()
        assert watcher.state["table"]["spectators"] == 1 and watcher.state["seq"] == m["seq"]
        me.close()
        again = Socket(client, table)
        assert again.hello(token)["seat"] == 0
        seats = again.state["table"]["seats"]
        assert seats[0]["connected"] is True and again.state["game"] == m["game"]


# -- a seat survives a lost `seated` -----------------------------------------------------------


def test_a_sit_with_the_clients_own_token_gives_that_token(client: TestClient) -> None:
    table = new_table(client)
    ann = Socket(client, table)
    ann.hello()
    ann.send(type="sit", seat=0, name="Ann", token=TOKEN)
    seated = ann.until("seated")
    assert seated["token"] == TOKEN and seated["link"].endswith(f"#token={TOKEN}")
    ann.close()
    assert Socket(client, table).hello(TOKEN)["seat"] == 0
    # a token that already gives a seat is not another's, and a short one is no token
    bob = Socket(client, table)
    bob.hello()
    bob.send(type="sit", seat=1, name="Bob", token=TOKEN)
    refused = bob.until("error")
    assert refused["code"] == "bad-message" and "token" in refused["message"]
    bob.send(type="sit", seat=1, name="Bob", token="short")
    assert bob.until("error")["code"] == "bad-message"
    assert room_of(client, table).seats[1].kind == "empty"


def test_the_host_frees_a_seat_whose_sitter_never_got_the_token(client: TestClient) -> None:
    """A client without a token of its own that lost its `seated`: the host gives the seat to
    a bot and empties it, and the person sits again."""
    table = new_table(client)
    host = Socket(client, table)
    host.hello()
    host.send(type="sit", seat=0, name="Host")
    host.until("seated")
    lost = Socket(client, table)
    lost.hello()
    lost.send(type="sit", seat=1, name="Lost")
    host.until("state", lambda m: m["table"]["seats"][1]["kind"] == "human")
    lost.close()  # as if the `seated` never came
    host.send(type="replace", seat=1)
    host.until("state", lambda m: m["table"]["seats"][1]["kind"] == "bot")
    host.send(type="leave", seat=1)
    host.until("state", lambda m: m["table"]["seats"][1]["kind"] == "empty")
    back = Socket(client, table)
    back.hello()
    back.send(type="sit", seat=1, name="Lost")
    assert back.until("seated")["seat"] == 1


# -- over a real socket -------------------------------------------------------------------------


def _recv(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of ``kind``; an ``error`` fails the test."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=RECV_SECONDS))
        assert message["type"] != "error", message
        if message["type"] == kind:
            return message


def _send(ws: ClientConnection, **message: Any) -> None:
    ws.send(json.dumps(message))


def _post(base: str, path: str, body: Any) -> Any:
    import urllib.request

    request = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


def test_messages_right_behind_hello_are_taken_over_a_real_socket(tmp_path: Path) -> None:
    with serve(tmp_path) as base:
        ws_base = base.replace("http://", "ws://")
        table = _post(base, "/api/tables", {"name": "Quick"})["id"]
        with connect(f"{ws_base}/ws/{table}", close_timeout=1) as ws:
            # hello, sit and a chat line in one go, none waiting for the welcome
            ws.send(json.dumps({"type": "hello"}))
            _send(ws, type="sit", seat=0, name="Ann")
            _send(ws, type="chat", text="hi")
            assert _recv(ws, "welcome")["seat"] is None
            token = _recv(ws, "seated")["token"]
            assert _recv(ws, "chat")["lines"][-1]["text"] == "hi"
            for seat in (1, 2, 3):
                _send(ws, type="bot", seat=seat, level="easy")
            _send(ws, type="start")
            state = _recv(ws, "state")
            while not (state["game"] and state["game"]["hand"]["legal"]):
                state = _recv(ws, "state")
        # back with the token, the action sent at once behind the hello
        with connect(f"{ws_base}/ws/{table}", close_timeout=1) as ws:
            action = state["game"]["hand"]["legal"][0]["action"]
            _send(ws, type="hello", token=token)
            _send(ws, type="act", action=action, seq=state["seq"])
            assert _recv(ws, "welcome")["seat"] == 0
            acted = _recv(ws, "state")
            while acted["seq"] == state["seq"]:
                acted = _recv(ws, "state")
            assert acted["seq"] == state["seq"] + 1
            assert acted["last"]["seat"] == 0 and acted["last"]["action"] == action


# -- killed between the `sit` stored and the `seated` sent ----------------------------------


@contextlib.contextmanager
def _server(db: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    command = [*serve_command(), "serve", "--port", str(port), "--db", str(db), "--bot-delay", "0"]
    with (db.parent / "server.log").open("ab") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                get_json(f"http://127.0.0.1:{port}/api/options")
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail((db.parent / "server.log").read_text(errors="replace"))
                time.sleep(0.05)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)


def _sits(db: Path, table: str) -> int:
    """The `sit` events of the table stored in the database (read as another process would)."""
    with contextlib.closing(sqlite3.connect(db, timeout=5)) as conn:
        row = conn.execute(
            "select count(*) from events where table_id = ? and kind = 'sit'", (table,)
        ).fetchone()
    return int(row[0])


def test_a_kill_between_the_sit_stored_and_the_seated_sent_loses_no_seat(tmp_path: Path) -> None:
    """Ann sends a token of her own with her `sit`, Cal none; neither reads a word after it,
    and the server is killed with SIGKILL as soon as both `sit` events are in its database (so
    whatever it sent after the commit never reached them). Started again, Ann's hello with her
    token gives her seat back; Cal's seat, whose token he never got, the host frees."""
    db, port = tmp_path / "t.sqlite", free_port()
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    ann_token = _token(0xA11)
    with _server(db, port) as process, contextlib.ExitStack() as sockets:
        table = _post(base, "/api/tables", {"name": "Crash"})["id"]
        host, ann, cal = (
            sockets.enter_context(connect(f"{ws_base}/ws/{table}", close_timeout=1))
            for _ in range(3)
        )
        _send(host, type="hello")
        _send(host, type="sit", seat=0, name="Host")
        host_token = _recv(host, "seated")["token"]
        _send(ann, type="hello")
        _send(ann, type="sit", seat=1, name="Ann", token=ann_token)
        _send(cal, type="hello")
        _send(cal, type="sit", seat=2, name="Cal")
        deadline = time.monotonic() + 20
        while _sits(db, table) < 3:
            assert time.monotonic() < deadline, "the sits were never stored"
            time.sleep(0.005)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
        for ws in (host, ann, cal):
            ws.close_socket()

    with _server(db, port):
        with connect(f"{ws_base}/ws/{table}", close_timeout=1) as ws:
            _send(ws, type="hello", token=ann_token)
            assert _recv(ws, "welcome")["seat"] == 1
            seats = _recv(ws, "state")["table"]["seats"]
            assert [s["name"] for s in seats[:3]] == ["Host", "Ann", "Cal"]
        with connect(f"{ws_base}/ws/{table}", close_timeout=1) as ws:
            _send(ws, type="hello", token=host_token)
            assert _recv(ws, "welcome")["seat"] == 0
            _send(ws, type="replace", seat=2)
            state = _recv(ws, "state")
            while state["table"]["seats"][2]["kind"] != "bot":
                state = _recv(ws, "state")
            _send(ws, type="leave", seat=2)
            while state["table"]["seats"][2]["kind"] != "empty":
                state = _recv(ws, "state")
        with connect(f"{ws_base}/ws/{table}", close_timeout=1) as ws:
            _send(ws, type="hello")
            _send(ws, type="sit", seat=2, name="Cal", token=_token(0xCA1))
            assert _recv(ws, "seated")["seat"] == 2


# -- in the browser -----------------------------------------------------------------------------


class _Relay:
    """A page's table socket passed through the test (Playwright's WebSocket routing): what the
    server sends may be dropped (``drop``) or added to (``inject``), and the socket cut."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.routes: list[tuple[Any, Any]] = []
        self.drop: set[str] = set()
        self.dropped: list[dict[str, Any]] = []
        self.passed: list[dict[str, Any]] = []
        page.route_web_socket(re.compile(r"/ws/(?!lobby)"), self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        self.routes.append((ws, server))
        ws.on_message(server.send)

        def down(text: str | bytes) -> None:
            message = json.loads(text)
            if message["type"] in self.drop:
                self.dropped.append(message)
            else:
                self.passed.append(message)
                ws.send(text)

        server.on_message(down)

    def kinds(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.passed if m["type"] == kind]

    def wait(self, test: Any, what: str) -> None:
        """Let the page run until ``test()`` holds (the relay's callbacks run meanwhile)."""
        deadline = time.monotonic() + 15
        while not test():
            assert time.monotonic() < deadline, what
            self.page.wait_for_timeout(20)

    def inject(self, **message: Any) -> None:
        self.routes[-1][0].send(json.dumps(message))

    def cut(self) -> None:
        page_side, server_side = self.routes[-1]
        server_side.close()
        page_side.close()


@needs_browser
def test_the_browser_keeps_its_seat_when_seated_never_comes(server: str, browser: Any) -> None:
    """The page holds the token it made before the server stores the seat: its `seated` lost
    and its socket cut (as by a server killed right after the commit), its next hello gives the
    seat back."""
    watch = Watch(browser)
    page = watch.page
    relay = _Relay(page)
    table = _post(server, "/api/tables", {"name": "Lost"})["id"]
    page.goto(f"{server}/t/{table}")
    page.wait_for_selector("[data-testid=pregame]")
    relay.drop = {"seated"}
    page.fill("[data-testid=player-name]", "Flo")
    page.click("[data-testid=sit-2]")
    relay.wait(lambda: relay.dropped, "the sit was never answered")
    relay.drop = set()
    relay.cut()
    relay.wait(lambda: len(relay.kinds("welcome")) == 2, "the page did not come back")
    assert relay.kinds("welcome")[-1]["seat"] == 2
    page.wait_for_selector("[data-testid=table-page][data-seat='2']")
    kept = page.evaluate(f"localStorage.getItem('texas42:token:{table}')")
    assert kept == relay.dropped[0]["token"]
    watch.close()


@needs_browser
def test_the_browser_follows_presence_and_shows_hints_only_for_its_game_and_seq(
    server: str, browser: Any
) -> None:
    tess, ann = Watch(browser), Watch(browser)
    relay = _Relay(tess.page)
    try:
        table = _post(server, "/api/tables", {"name": "Hints"})["id"]
        tess.page.goto(f"{server}/t/{table}")
        sit(tess.page, 0, "Tess")
        ann.page.goto(f"{server}/t/{table}")
        sit(ann.page, 1, "Ann")
        tess.page.wait_for_selector("[data-testid=seat-1][data-kind=human]")
        # Ann's page closes: Tess's shows her seat offline, told by a presence, not a state
        states = len(relay.kinds("state"))
        ann.page.close()
        tess.page.wait_for_selector("[data-testid=seat-1] .badge.away:has-text('offline')")
        assert len(relay.kinds("state")) == states and relay.kinds("presence")
        # hints for this seq of another game are not shown; for this game they are
        seq = int(seq_of(tess.page))
        hint = {"action": "pass", "chance": None, "points": None, "marks": None}
        relay.inject(type="hints", seq=seq, game=7, hints=[{**hint, "text": "not this game"}])
        relay.inject(type="notice", message="sync")
        tess.page.wait_for_selector("[data-testid=toast]:has-text('sync')")
        assert tess.page.query_selector("[data-testid=hints] li") is None
        relay.inject(type="hints", seq=seq, game=0, hints=[{**hint, "text": "this game"}])
        tess.page.wait_for_selector("[data-testid=hints] li:has-text('this game')")
    finally:
        tess.close()
        ann.context.close()
