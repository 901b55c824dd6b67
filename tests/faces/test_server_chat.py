"""The lobby's list of open tables and each table's chat, in process: who sees what, the limits,
the host's settings, and that a restart keeps them."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from texas42.faces.server.messages import CHAT_LIMIT, REACTIONS
from texas42.faces.server.outbound import SERVER_MESSAGES
from texas42.faces.server.storage import Storage, database_url
from webtest import (
    TILE_WORD,
    Socket,
    TestClient,
    free_port,
    make_client,
    room_of,
    seat_with_bots,
    serve_command,
    tiles_in,
    visible_tiles,
)


def table(client: TestClient, *, public: bool, rules: str = "standard", name: str = "T") -> str:
    response = client.post("/api/tables", json={"rules": rules, "name": name, "public": public})
    assert response.status_code == 200, response.text
    table_id: str = response.json()["id"]
    return table_id


def seated(client: TestClient, table_id: str, seat: int, name: str) -> tuple[Socket, str]:
    sock = Socket(client, table_id)
    sock.hello()
    sock.send(type="sit", seat=seat, name=name)
    token: str = sock.until("seated")["token"]
    sock.until("state", lambda m: m["table"]["seats"][seat]["name"] == name)
    return sock, token


def watcher(client: TestClient, table_id: str) -> Socket:
    sock = Socket(client, table_id)
    sock.hello()
    return sock


def lobby(client: TestClient) -> list[dict[str, Any]]:
    response = client.get("/api/lobby")
    assert response.status_code == 200
    body = response.json()
    SERVER_MESSAGES.validate_python(body)
    tables: list[dict[str, Any]] = body["tables"]
    return tables


def line(sock: Socket) -> dict[str, Any]:
    """The next new chat line this socket is sent."""
    lines: list[dict[str, Any]] = sock.until("chat", lambda m: not m["history"])["lines"]
    assert len(lines) == 1
    return lines[0]


def refused(sock: Socket) -> str:
    code: str = sock.until("error")["code"]
    return code


def play_out(me: Socket, rng: random.Random) -> None:
    """Play the seat's turns until the game is over."""
    while True:
        m = me.next_turn()
        if m["game"]["outcome"]:
            return
        me.act(m, rng)


# -- the lobby ----------------------------------------------------------------------------------


def test_the_lobby_lists_public_tables_waiting_or_playing_and_nothing_else(
    client: TestClient,
) -> None:
    open_one = table(client, public=True, name="Open")
    private = table(client, public=False, name="Private")
    ann, _ = seated(client, open_one, 0, "Ann")
    ann.send(type="bot", seat=1, level="easy")
    bot = ann.until("state", lambda m: m["table"]["seats"][1]["kind"] == "bot")["table"]["seats"][1]
    watching = watcher(client, open_one)
    ann.until("presence", lambda m: m["spectators"] == 1)
    seated(client, private, 0, "Pat")
    listed = lobby(client)
    assert [t["id"] for t in listed] == [open_one]
    [entry] = listed
    assert entry["name"] == "Open"
    assert entry["url"] == f"/t/{open_one}"
    assert entry["status"] == "lobby"
    assert entry["seats"] == 4 and entry["seats_free"] == [2, 3]
    assert entry["players"] == ["Ann"]
    assert entry["bots"] == [bot["label"]] and bot["label"].endswith(" (easy)")
    assert entry["spectators"] == 1
    assert entry["rules"] == "standard"
    assert entry["rules_text"] and all(isinstance(s, str) for s in entry["rules_text"])
    watching.close()

    # a finished table leaves the list, even a public one
    done = table(client, public=True, rules="standard,target=1", name="Short")
    me = Socket(client, done)
    me.hello()
    me.send(type="sit", seat=0, name="Tess")
    me.until("seated")
    for seat in (1, 2, 3):
        me.send(type="bot", seat=seat, level="easy")
        me.until("state", lambda m, s=seat: m["table"]["seats"][s]["kind"] == "bot")
    me.send(type="start")
    me.until("state", lambda m: m["game"] is not None)
    assert done in [t["id"] for t in lobby(client)]
    assert [t["status"] for t in lobby(client) if t["id"] == done] == ["playing"]
    play_out(me, random.Random(3))
    assert room_of(client, done).status == "over"
    assert done not in [t["id"] for t in lobby(client)]
    assert private not in [t["id"] for t in lobby(client)]


def test_the_host_lists_a_table_or_makes_it_private(client: TestClient) -> None:
    table_id = table(client, public=False)
    ann, _ = seated(client, table_id, 0, "Ann")
    bob, _ = seated(client, table_id, 1, "Bob")
    bob.send(type="listing", public=True)
    assert refused(bob) == "not-allowed"
    assert lobby(client) == []
    ann.send(type="listing", public=True)
    ann.until("state", lambda m: m["table"]["public"])
    assert [t["id"] for t in lobby(client)] == [table_id]
    ann.send(type="listing", public=False)
    ann.until("state", lambda m: not m["table"]["public"])
    assert lobby(client) == []


def test_the_lobby_socket_sends_the_list_when_it_changes(client: TestClient) -> None:
    watch = Socket(client, "lobby")
    assert watch.until("lobby")["tables"] == []
    table_id = table(client, public=True, name="Live")
    first = watch.until("lobby")["tables"]
    assert [t["id"] for t in first] == [table_id] and first[0]["players"] == []
    seated(client, table_id, 2, "Ann")
    after = watch.until("lobby", lambda m: m["tables"][0]["players"] == ["Ann"])
    assert after["tables"][0]["seats_free"] == [0, 1, 3]
    table(client, public=False)  # a private table changes nothing the lobby shows
    spectator = watcher(client, table_id)
    watch.until("lobby", lambda m: m["tables"][0]["spectators"] == 1)
    spectator.close()
    watch.until("lobby", lambda m: m["tables"][0]["spectators"] == 0)
    watch.send(type="ping")
    watch.until("pong")
    watch.send(type="sit", seat=0, name="X")
    assert refused(watch) == "bad-message"


def test_an_old_database_gets_the_listing_column(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    engine = sa.create_engine(f"sqlite:///{db}")
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "CREATE TABLE tables (id VARCHAR(32) PRIMARY KEY, name VARCHAR(80) NOT NULL,"
                " rules TEXT NOT NULL, status VARCHAR(16) NOT NULL, created FLOAT NOT NULL,"
                " updated FLOAT NOT NULL)"
            )
        )
        conn.execute(
            sa.text("INSERT INTO tables VALUES ('old1', 'Old', 'standard', 'lobby', 1.0, 1.0)")
        )
    engine.dispose()
    Storage(database_url(str(db))).close()
    with make_client(db) as client:
        assert lobby(client) == []
        assert client.get("/api/tables/old1").json()["public"] is False
        made = table(client, public=True)
        assert [t["id"] for t in lobby(client)] == [made]


# -- chat ---------------------------------------------------------------------------------------


def test_chat_goes_to_everyone_at_the_table(client: TestClient) -> None:
    table_id = table(client, public=False)
    ann, _ = seated(client, table_id, 0, "Ann")
    bob, _ = seated(client, table_id, 1, "Bob")
    spectator = watcher(client, table_id)
    bob.send(type="chat", text="  hi all  ")
    for sock in (ann, bob, spectator):
        got = line(sock)
        assert (got["seat"], got["name"], got["text"], got["reaction"]) == (
            1,
            "Bob",
            "hi all",
            False,
        )
    ann.send(type="react", reaction="nice bid")
    for sock in (ann, bob, spectator):
        got = line(sock)
        assert (got["seat"], got["name"], got["text"], got["reaction"]) == (
            0,
            "Ann",
            "nice bid",
            True,
        )
    ann.send(type="react", reaction="boo")
    assert refused(ann) == "bad-message"
    assert "sorry partner" in REACTIONS and len(REACTIONS) == 6


def test_a_chat_line_is_one_to_two_hundred_printable_characters(client: TestClient) -> None:
    table_id = table(client, public=False)
    ann, _ = seated(client, table_id, 0, "Ann")
    for bad in ("", "   ", "x" * (CHAT_LIMIT + 1), "two\nlines", "bell\x07"):
        ann.send(type="chat", text=bad)
        assert refused(ann) == "bad-message", bad
    ann.send(type="chat", text=" " + "y" * CHAT_LIMIT + " ")
    assert line(ann)["text"] == "y" * CHAT_LIMIT
    assert len(room_of(client, table_id).chat) == 1


def test_chat_is_rate_limited_per_connection(client: TestClient) -> None:
    table_id = table(client, public=False)
    ann, _ = seated(client, table_id, 0, "Ann")
    bob, _ = seated(client, table_id, 1, "Bob")
    [connection] = [c for c in room_of(client, table_id).connections if c.seat == 0]
    connection.chat_rate.clock = lambda: connection.chat_rate.stamp  # time stands still
    for n in range(5):
        ann.send(type="chat", text=f"line {n}")
        assert line(ann)["text"] == f"line {n}"
    ann.send(type="chat", text="one too many")
    error = ann.until("error")
    assert error["code"] == "rate"
    assert [entry.text for entry in room_of(client, table_id).chat][-1] == "line 4"
    bob.send(type="chat", text="my own limit")  # another connection has its own allowance
    bob.until("chat", lambda m: m["lines"][0]["text"] == "my own limit")


def test_a_reload_shows_the_recent_chat(client: TestClient) -> None:
    table_id = table(client, public=False)
    ann, token = seated(client, table_id, 0, "Ann")
    room = room_of(client, table_id)
    for n in range(55):
        ann.send(type="chat", text=f"n{n}")
        line(ann)
        # the test refills the bucket rather than waiting: the limit has its own test
        for connection in room.connections:
            connection.chat_rate.tokens = connection.chat_rate.burst
    ann.close()
    again = Socket(client, table_id)
    again.send(type="hello", token=token)
    again.until("welcome")
    history = again.until("chat")
    assert history["history"] is True
    assert [entry["text"] for entry in history["lines"]] == [f"n{n}" for n in range(5, 55)]
    fresh = watcher(client, table_id)
    assert next(m for m in fresh.log if m["type"] == "chat")["lines"] == history["lines"]


def test_spectators_read_and_write_only_when_the_host_allows(client: TestClient) -> None:
    table_id = table(client, public=False)
    ann, _ = seated(client, table_id, 0, "Ann")
    bob, _ = seated(client, table_id, 1, "Bob")
    spectator = watcher(client, table_id)
    spectator.send(type="chat", text="hello", name="Sam")
    assert refused(spectator) == "not-allowed"
    bob.send(type="chat_rules", spectators=True)
    assert refused(bob) == "not-allowed"  # only the host
    ann.send(type="chat_rules", spectators=True)
    spectator.until("state", lambda m: m["table"]["spectators_chat"])
    spectator.send(type="chat", text="hello")
    assert refused(spectator) == "bad-message"  # a spectator writes under a name
    spectator.send(type="chat", text="hello", name="  Sam  ")
    got = line(bob)
    assert (got["seat"], got["name"], got["text"]) == (None, "Sam", "hello")
    spectator.send(type="react", reaction="oops", name="Sam")
    assert line(bob)["text"] == "oops"
    ann.send(type="chat_rules", spectators=False)
    spectator.until("state", lambda m: not m["table"]["spectators_chat"])
    spectator.send(type="chat", text="again", name="Sam")
    assert refused(spectator) == "not-allowed"


def test_the_host_mutes_and_unmutes_a_seat(client: TestClient) -> None:
    table_id = table(client, public=False)
    ann, _ = seated(client, table_id, 0, "Ann")
    bob, _ = seated(client, table_id, 1, "Bob")
    cy, _ = seated(client, table_id, 2, "Cy")
    bob.send(type="mute", seat=2, muted=True)
    assert refused(bob) == "not-allowed"
    ann.send(type="mute", seat=0, muted=True)
    assert refused(ann) == "not-allowed"
    ann.send(type="mute", seat=3, muted=True)
    assert refused(ann) == "not-allowed"  # an empty seat
    ann.send(type="mute", seat=1, muted=True)
    bob.until("state", lambda m: m["table"]["muted"] == [1])
    bob.send(type="chat", text="can I talk?")
    assert refused(bob) == "not-allowed"
    bob.send(type="react", reaction="oops")
    assert refused(bob) == "not-allowed"
    cy.send(type="chat", text="I can")
    assert line(ann)["text"] == "I can"
    ann.send(type="mute", seat=1, muted=False)
    bob.until("state", lambda m: m["table"]["muted"] == [])
    bob.send(type="chat", text="thanks")
    assert line(ann)["text"] == "thanks"
    # a mute is for the person: one who leaves the seat takes it away with them
    ann.send(type="mute", seat=2, muted=True)
    cy.until("state", lambda m: m["table"]["muted"] == [2])
    cy.send(type="leave", seat=2)
    ann.until("state", lambda m: m["table"]["seats"][2]["kind"] == "empty")
    assert ann.state["table"]["muted"] == []


def test_a_restart_keeps_the_chat_the_mute_and_the_settings(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    with make_client(db) as client:
        table_id = table(client, public=True)
        ann, token = seated(client, table_id, 0, "Ann")
        bob, bob_token = seated(client, table_id, 1, "Bob")
        bob.send(type="chat", text="before the restart")
        line(ann)
        ann.send(type="react", reaction="thanks")
        line(ann)
        ann.send(type="mute", seat=1, muted=True)
        ann.until("state", lambda m: m["table"]["muted"] == [1])
        ann.send(type="chat_rules", spectators=True)
        ann.until("state", lambda m: m["table"]["spectators_chat"])
        ann.send(type="listing", public=False)
        ann.until("state", lambda m: not m["table"]["public"])
    with make_client(db) as client:
        bob = Socket(client, table_id)
        bob.send(type="hello", token=bob_token)
        history = bob.until("chat")["lines"]
        assert [(x["name"], x["text"], x["reaction"]) for x in history] == [
            ("Bob", "before the restart", False),
            ("Ann", "thanks", True),
        ]
        state = bob.until("state")["table"]
        assert state["muted"] == [1] and state["spectators_chat"] and not state["public"]
        assert lobby(client) == []
        bob.send(type="chat", text="still muted?")
        assert refused(bob) == "not-allowed"
        ann = Socket(client, table_id)
        ann.hello(token)
        ann.send(type="listing", public=True)
        ann.until("state", lambda m: m["table"]["public"])
        assert [t["id"] for t in lobby(client)] == [table_id]


# -- hidden information -------------------------------------------------------------------------

PERSON_TYPED = {"name", "text"}
"""The fields of a chat line a person wrote: "6-4" in them is their own words."""


def server_made(value: object) -> object:
    """A message without what people typed in it (chat lines' names and texts)."""
    if isinstance(value, dict):
        if value.keys() == {"seat", "name", "text", "reaction", "at"}:
            return {k: v for k, v in value.items() if k not in PERSON_TYPED}
        return {k: server_made(v) for k, v in value.items()}
    if isinstance(value, list):
        return [server_made(item) for item in value]
    return value


def test_no_hidden_tile_in_chat_or_lobby_messages(client: TestClient) -> None:
    rng = random.Random(7)
    table_id, me, _ = seat_with_bots(client)
    room = room_of(client, table_id)
    me.send(type="listing", public=True)
    me.until("state", lambda m: m["table"]["public"])
    spectator = watcher(client, table_id)
    watch = Socket(client, "lobby")
    lobby_messages = [watch.until("lobby")]
    game = room.game
    assert game is not None
    for turn in range(30):
        m = me.next_turn()
        if m["game"]["outcome"]:
            break
        if turn % 6 == 0:
            me.send(type="chat", text="I hold 6-4 and 5-5, partner")
            line(me)
            for connection in room.connections:
                connection.chat_rate.tokens = connection.chat_rate.burst
        me.act(m, rng)
    lobby_messages.append(json.loads(client.get("/api/lobby").text))
    sent = sum(1 for m in me.log if m["type"] == "chat" and not m["history"])
    while sum(1 for m in spectator.log if m["type"] == "chat" and not m["history"]) < sent:
        spectator.recv()
    for sock, seat in ((me, 0), (spectator, None)):
        seen = visible_tiles(game, seat)
        for message in sock.log:
            if message["type"] in ("chat", "notice", "error"):
                made = server_made(message)
                assert not set(TILE_WORD.findall(json.dumps(made))) - seen, message
                assert not tiles_in(made) - seen, message
        said = [m for m in sock.log if m["type"] == "chat" and not m["history"]]
        assert said and said[0]["lines"][0]["text"] == "I hold 6-4 and 5-5, partner"
    for message in lobby_messages:
        assert not TILE_WORD.findall(json.dumps(message["tables"])), message
        assert not tiles_in(message)


def test_a_listed_table_out_of_memory_stays_listed_without_being_loaded(tmp_path: Path) -> None:
    with make_client(tmp_path / "idle.sqlite", idle_seconds=0.0) as client:
        table_id = table(client, public=True, name="Quiet")
        ann, _ = seated(client, table_id, 0, "Ann")
        before = lobby(client)
        ann.close()
        tables = client.app.state.tables  # type: ignore[attr-defined]
        for _ in range(200):  # the table's task handles the socket's end first
            client.portal.call(tables.evict_idle)
            if table_id not in tables.rooms:
                break
            time.sleep(0.01)
        assert table_id not in tables.rooms
        assert lobby(client) == before
        assert table_id not in tables.rooms  # listed from what it was when it left
        watching = watcher(client, table_id)  # a visit brings it back, and it is live again
        assert watching.state["table"]["seats"][0]["name"] == "Ann"
        assert [t["spectators"] for t in lobby(client)] == [1]


def test_a_kill_9_keeps_the_chat_the_mute_and_the_listing(tmp_path: Path) -> None:
    """Whatever the table acknowledged (a line everyone was sent, a mute in the state) is in the
    log when the server process is killed, and comes back when it starts again."""
    from websockets.sync.client import connect

    db = tmp_path / "t.sqlite"
    server = started(db, tmp_path)
    base = server[1]
    made = json.loads(
        urllib.request.urlopen(
            urllib.request.Request(
                base + "/api/tables",
                json.dumps({"rules": "standard", "name": "Crash", "public": True}).encode(),
                {"Content-Type": "application/json"},
            ),
            timeout=10,
        ).read()
    )["id"]
    ws_url = base.replace("http://", "ws://") + f"/ws/{made}"
    try:
        with connect(ws_url) as ann, connect(ws_url) as bob:
            ann.send(json.dumps({"type": "hello"}))
            ann.send(json.dumps({"type": "sit", "seat": 0, "name": "Ann"}))
            token = receive(ann, "seated", lambda m: True)["token"]
            bob.send(json.dumps({"type": "hello"}))
            bob.send(json.dumps({"type": "sit", "seat": 1, "name": "Bob"}))
            receive(bob, "seated", lambda m: True)
            receive(ann, "state", lambda m: m["table"]["seats"][1]["kind"] == "human")
            bob.send(json.dumps({"type": "chat", "text": "remember me"}))
            receive(ann, "chat", lambda m: not m["history"])
            ann.send(json.dumps({"type": "mute", "seat": 1, "muted": True}))
            receive(ann, "state", lambda m: m["table"]["muted"] == [1])
        server[0].send_signal(signal.SIGKILL)
        server[0].wait(10)
        server = started(db, tmp_path)
        base = server[1]
        ws_url = base.replace("http://", "ws://") + f"/ws/{made}"
        with connect(ws_url) as ann:
            ann.send(json.dumps({"type": "hello", "token": token}))
            assert receive(ann, "welcome", lambda m: True)["seat"] == 0
            history = receive(ann, "chat", lambda m: m["history"])["lines"]
            assert [(x["name"], x["text"]) for x in history] == [("Bob", "remember me")]
            assert receive(ann, "state", lambda m: True)["table"]["muted"] == [1]
        listed = json.loads(urllib.request.urlopen(base + "/api/lobby", timeout=10).read())
        assert [t["id"] for t in listed["tables"]] == [made]
    finally:
        if server[0].poll() is None:
            server[0].kill()
        server[0].wait(10)


def started(db: Path, folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A ``texas42 serve`` process on ``db`` that answers; its base URL."""
    port = free_port()
    with (folder / "server.log").open("ab") as log:
        process = subprocess.Popen(
            [*serve_command(), "serve", "--port", str(port), "--db", str(db), "--bot-delay", "0"],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(base + "/api/options", timeout=5).read()
            return process, base
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise AssertionError((folder / "server.log").read_text()) from None
            time.sleep(0.05)


def receive(ws: Any, kind: str, test: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=10))
        if message["type"] == kind and test(message):
            return message


def test_in_two_hand_muting_a_partner_seat_mutes_the_person_who_plays_it(
    client: TestClient,
) -> None:
    table_id = table(client, public=False, rules="two-hand")
    ann, _ = seated(client, table_id, 0, "Ann")
    bob, _ = seated(client, table_id, 1, "Bob")
    ann.send(type="mute", seat=2, muted=True)
    assert refused(ann) == "not-allowed"  # Ann's own partner seat
    ann.send(type="mute", seat=3, muted=True)  # Bob's partner seat: Bob is muted
    bob.until("state", lambda m: m["table"]["muted"] == [1])
    bob.send(type="chat", text="still here?")
    assert refused(bob) == "not-allowed"
