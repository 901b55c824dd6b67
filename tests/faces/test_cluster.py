"""Several ``texas42 serve`` processes on one PostgreSQL share every table (`cluster`).

Real processes on a throwaway cluster (``pg_url``), spoken to over real WebSockets as
``docs/web.md`` says: players on different processes play one game to its end; two actions
racing for one turn from two processes give one accepted and one ``stale``; a process killed
with SIGKILL mid-hand loses nothing acknowledged and its player goes on at another; the process
holding a table's bots is killed while a bot is to act, and the bot acts exactly once. And, in
this process, two replicas of one table racing on the same database: the loser reads the
winner's event and refuses its own action as ``stale``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
from websockets.sync.client import ClientConnection, connect

from texas42.core.actions import action_words
from texas42.core.rules import Rules
from texas42.faces.server.cluster import conninfo, lease_key
from texas42.faces.server.events import ActionEvent, read_event
from texas42.faces.server.messages import parse_message
from texas42.faces.server.room import Connection, Room, ServerSettings
from texas42.faces.server.storage import Storage, database_url
from webtest import free_port, get_json, serve_command

START_SECONDS = 30
WAIT_SECONDS = 30
"""Generous: the machine is shared; nothing here measures speed."""


@dataclass
class Node:
    """One ``texas42 serve`` process of the cluster."""

    process: subprocess.Popen[bytes]
    port: int
    sockets: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)
    """Its clients' sockets, closed when the test ends (websockets wants ``connect`` entered)."""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, table: str) -> ClientConnection:
        return self.sockets.enter_context(
            connect(f"ws://127.0.0.1:{self.port}/ws/{table}", close_timeout=1)
        )

    def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)


StartNode = Callable[..., Node]


@pytest.fixture
def start_node(tmp_path: Path, pg_url: str) -> Iterator[StartNode]:
    """Starts servers on the test's database and waits until they answer; every one is killed
    when the test ends. Their output goes to ``server-N.log``."""
    started: list[Node] = []

    def start(*args: str) -> Node:
        port = free_port()
        command = [
            *serve_command(),
            "serve",
            "--port",
            str(port),
            "--db",
            pg_url,
            "--bot-delay",
            "0",
            "--create-burst",
            "10000",
            *args,
        ]
        log = tmp_path / f"server-{len(started)}.log"
        with log.open("ab") as out:
            process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        node = Node(process, port)
        started.append(node)
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                get_json(node.base + "/api/options")
                return node
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    process.kill()
                    pytest.fail(f"the server did not start: {log.read_text(errors='replace')}")
                time.sleep(0.05)

    try:
        yield start
    finally:
        for node in started:
            node.sockets.close()
            if node.process.poll() is None:
                node.process.kill()
            node.process.wait(10)


def post(url: str, body: Any) -> Any:
    import urllib.request

    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


@dataclass
class Client:
    """A socket at a table and what it was sent (the errors kept, not failed on)."""

    ws: ClientConnection
    state: dict[str, Any] = field(default_factory=dict)
    errors: list[dict[str, Any]] = field(default_factory=list)
    seen: list[dict[str, Any]] = field(default_factory=list)

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def next(self, timeout: float = WAIT_SECONDS) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.seen.append(message)
        if message["type"] == "error":
            self.errors.append(message)
        elif message["type"] == "state":
            self.state = message
        elif message["type"] == "presence" and self.state:  # who is here, between states
            for seat, connected in zip(self.state["table"]["seats"], message["connected"]):
                seat["connected"] = connected
            self.state["table"]["spectators"] = message["spectators"]
        return message

    def until(self, kind: str) -> dict[str, Any]:
        """The next message of ``kind``; an error first fails the test."""
        while True:
            message = self.next()
            assert message["type"] != "error", message
            if message["type"] == kind:
                return message

    def wait(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """States until one is ``done``, within `WAIT_SECONDS`."""
        deadline = time.monotonic() + WAIT_SECONDS
        while not (self.state and done(self.state)):
            left = deadline - time.monotonic()
            assert left > 0, f"never came: last state {self.state.get('seq')}"
            message = self.next(left)
            assert message["type"] != "error", message
        return self.state

    def hello(self, token: str | None = None) -> int | None:
        self.send(type="hello", **({"token": token} if token else {}))
        seat: int | None = self.until("welcome")["seat"]
        self.until("state")
        return seat

    def sit(self, seat: int, name: str) -> str:
        self.send(type="sit", seat=seat, name=name)
        token: str = self.until("seated")["token"]
        return token


def my_turn(state: dict[str, Any]) -> bool:
    game = state.get("game")
    return bool(game) and game["outcome"] is None and bool(game["hand"]["legal"])


def over(state: dict[str, Any]) -> bool:
    game = state.get("game")
    return bool(game) and game["outcome"] is not None


def table_log(pg_url: str, table: str) -> list[tuple[int, str, str]]:
    """The table's events as stored: (seq, kind, data)."""
    with psycopg.connect(conninfo(database_url(pg_url))) as conn:
        rows = conn.execute(
            "SELECT seq, kind, data FROM events WHERE table_id = %s ORDER BY seq", (table,)
        ).fetchall()
    return [(int(s), str(k), str(d)) for s, k, d in rows]


def leader_pid(pg_url: str, table: str) -> int | None:
    """The OS process id of the server holding the table's lease (its connection's name)."""
    key = lease_key(table)
    high, low = (key >> 32) & 0xFFFFFFFF, key & 0xFFFFFFFF
    with psycopg.connect(conninfo(database_url(pg_url))) as conn:
        row = conn.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a USING (pid)"
            " WHERE l.locktype = 'advisory' AND l.granted AND l.classid = %s AND l.objid = %s"
            " AND l.objsubid = 1",
            (high, low),
        ).fetchone()
    return int(str(row[0]).split()[2]) if row is not None else None


def wait_for(check: Callable[[], Any], what: str) -> Any:
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.05)


# -- players on two processes -------------------------------------------------------------------


def test_four_players_on_two_processes_play_a_game_to_its_end(
    start_node: StartNode, pg_url: str
) -> None:
    """Seats 0 and 2 on A, 1 and 3 on B: every action one process accepts reaches the players
    on the other; presence and chat cross too; both end with the same table."""
    a, b = start_node(), start_node()
    lobby = b.ws("lobby")
    assert json.loads(lobby.recv(timeout=WAIT_SECONDS))["tables"] == []
    body = {"rules": "standard,target=1", "name": "Two", "public": True}
    table = post(a.base + "/api/tables", body)["id"]
    # the lobby's live list at B shows the table made at A
    listed = json.loads(lobby.recv(timeout=WAIT_SECONDS))["tables"]
    assert [t["id"] for t in listed] == [table]
    lobby.close()
    nodes = [a, b, a, b]
    clients = [Client(nodes[seat].ws(table)) for seat in range(4)]
    for seat, client in enumerate(clients):
        assert client.hello() is None
        client.sit(seat, f"P{seat}")
    # every seat is shown connected at both processes, the far ones by the cluster's presence
    for client in clients:
        client.wait(lambda s: all(seat["connected"] for seat in s["table"]["seats"]))
    clients[1].send(type="chat", text="hello from B")
    line = next(m for m in iter(clients[0].next, None) if m["type"] == "chat" and not m["history"])
    assert line["lines"][0]["text"] == "hello from B" and line["lines"][0]["seat"] == 1
    clients[0].send(type="start")
    for client in clients:
        client.wait(lambda s: s["table"]["status"] == "playing")

    errors: list[str] = []

    def play(client: Client) -> None:
        try:
            acted = -1
            while not over(client.state):
                if my_turn(client.state) and client.state["seq"] != acted:
                    acted = client.state["seq"]
                    action = client.state["game"]["hand"]["legal"][0]["action"]
                    client.send(type="act", action=action, seq=acted)
                client.next()
            if client.errors:
                errors.append(f"{client.errors}")
        except Exception as exc:  # the assertion below names it
            errors.append(repr(exc))

    threads = [threading.Thread(target=play, args=(c,)) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT_SECONDS * 4)
    assert errors == []
    final = [c.state for c in clients]
    assert all(over(s) for s in final)
    assert len({s["seq"] for s in final}) == 1
    assert len({json.dumps(s["game"]["score"]) for s in final}) == 1
    # a spectator at each process is given the same table
    watched = []
    for node in (a, b):
        watcher = Client(node.ws(table))
        watcher.hello()
        watched.append(watcher.state)
    assert watched[0]["game"] == watched[1]["game"] and watched[0]["seq"] == watched[1]["seq"]
    steps = [row for row in table_log(pg_url, table) if row[1] == "action"]
    assert len(steps) == final[0]["seq"]  # each accepted action stored once
    assert get_json(f"{b.base}/api/tables/{table}")["status"] == "over"


# -- racing ---------------------------------------------------------------------------------


@pytest.mark.parametrize("same", [True, False], ids=["same-action", "two-actions"])
def test_one_turn_raced_from_two_processes_gives_one_accepted_and_one_stale(
    start_node: StartNode, pg_url: str, same: bool
) -> None:
    a, b = start_node(), start_node()
    table = post(a.base + "/api/tables", {"rules": "standard", "name": "Race"})["id"]
    here, there = Client(a.ws(table)), Client(b.ws(table))
    here.hello()
    token = here.sit(0, "Ann")
    for seat in (1, 2, 3):
        here.send(type="bot", seat=seat, level="rules")
    assert there.hello(token) == 0
    there.wait(lambda s: all(seat["kind"] != "empty" for seat in s["table"]["seats"]))
    here.send(type="start")
    state = here.wait(my_turn)
    there.wait(lambda s: s["seq"] == state["seq"] and my_turn(s))
    legal = [m["action"] for m in state["game"]["hand"]["legal"]]
    first, second = legal[0], legal[0] if same or len(legal) == 1 else legal[1]
    seq = state["seq"]
    here.send(type="act", action=first, seq=seq)
    there.send(type="act", action=second, seq=seq)
    for client in (here, there):
        client.wait(lambda s: s["seq"] > seq)
    # each socket is answered: the loser after the winner's state (its process read it first)
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and len(here.errors) + len(there.errors) < 1:
        for client in (here, there):
            with contextlib.suppress(TimeoutError):  # nothing more came: look again
                client.next(0.1)
    stale = [e for c in (here, there) for e in c.errors]
    assert [e["code"] for e in stale] == ["stale"], stale
    accepted = first if there.errors else second
    rows = table_log(pg_url, table)
    actions = [read_event(table, *row) for row in rows if row[1] == "action"]
    assert isinstance(actions[seq], ActionEvent) and actions[seq].seat == 0
    assert actions[seq].action == accepted
    assert len([e for e in actions if isinstance(e, ActionEvent) and e.seat == 0]) == 1
    # both processes end at the same table: where Ann is to act again, nothing moves
    mine = here.wait(lambda s: s["seq"] > seq and my_turn(s))
    theirs = there.wait(lambda s: s["seq"] >= mine["seq"])
    assert theirs["seq"] == mine["seq"] and theirs["game"] == mine["game"]


def test_two_replicas_racing_on_one_log_the_loser_reads_the_winner_and_is_stale(
    pg_url: str,
) -> None:
    """Two rooms of one table, as two processes hold them, on two connections to one database:
    the first stores its action; the second, behind, checks against its own state, finds the
    place taken (`SeqTaken`), reads the winner's event and refuses its action as ``stale``.
    Neither applies anything twice; both end in the same state."""
    url = database_url(pg_url)
    settings = ServerSettings(db=pg_url, bot_delay=0.0)

    async def race() -> None:
        one, two = Storage(url), Storage(url)
        rooms: list[Room] = []
        try:
            await one.run(one.create_table, "race", "Race", "standard")
            first = Room("race", "Race", Rules.parse("standard"), one, settings)
            rooms.append(first)
            first.start_task()
            people = [Connection() for _ in range(4)]
            for seat, person in enumerate(people):
                await _say(first, person, {"type": "hello"})
                sit = {"type": "sit", "seat": seat, "name": f"P{seat}", "token": f"{seat}" * 32}
                await _say(first, person, sit)
            await _say(first, people[0], {"type": "start"})
            assert first.game is not None
            seat = first.game.seat_to_act()
            assert seat is not None
            stored = await two.run(two.load_table, "race")
            assert stored is not None
            second = Room.restore(stored, two, settings)
            rooms.append(second)
            second.start_task()
            far = Connection()
            await _say(second, far, {"type": "hello", "token": f"{seat}" * 32})
            assert far.seat == seat and second.seq == first.seq
            _errors(far), _errors(people[seat])
            legal = first.game.view(seat).legal
            seq = first.seq
            act = {"type": "act", "action": action_words(legal[0]), "seq": seq}
            await _say(first, people[seat], act)
            assert first.next_event == second.next_event + 1  # the second is behind
            act = {"type": "act", "action": action_words(legal[-1]), "seq": seq}
            await _say(second, far, act)
            errors = _errors(far)
            assert [e["code"] for e in errors] == ["stale"], errors
            assert _errors(people[seat]) == []
            assert second.seq == first.seq == seq + 1
            assert second.next_event == first.next_event
            assert second.game is not None
            assert second.game.position() == first.game.position()
            assert second.last == first.last
            log = await two.run(two.events_since, "race", 0)
            assert [row.seq for row in log] == list(range(len(log)))
            assert [row.kind for row in log].count("action") == 1
        finally:
            for room in rooms:
                await room.stop()
            one.close()
            two.close()

    asyncio.run(race())


async def _say(room: Room, connection: Connection, message: dict[str, Any]) -> None:
    """Send ``message`` to the room and wait until its task has taken it."""
    await room.submit(connection, parse_message(json.dumps(message)))
    while not room.queue.empty():
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    for _ in range(100):
        if room.queue.empty():
            break
        await asyncio.sleep(0.01)


def _errors(connection: Connection) -> list[dict[str, Any]]:
    found = []
    while not connection.outbox.empty():
        text = connection.outbox.get_nowait()
        if text is not None:
            message = json.loads(text)
            if message["type"] == "error":
                found.append(message)
    return found


# -- processes dying ------------------------------------------------------------------------


def _sit_with_bots(client: Client, level: str = "medium") -> str:
    client.hello()
    token = client.sit(0, "Ann")
    for seat in (1, 2, 3):
        client.send(type="bot", seat=seat, level=level)
    client.wait(lambda s: all(seat["kind"] != "empty" for seat in s["table"]["seats"]))
    client.send(type="start")
    client.wait(lambda s: s["table"]["status"] == "playing")
    return token


def test_a_process_killed_mid_hand_its_player_goes_on_at_another(
    start_node: StartNode, pg_url: str
) -> None:
    a, b = start_node(), start_node()
    table = post(a.base + "/api/tables", {"rules": "standard", "name": "Crash"})["id"]
    ann = Client(a.ws(table))
    token = _sit_with_bots(ann)
    for _ in range(5):
        state = ann.wait(my_turn)
        seq = state["seq"]
        ann.send(type="act", action=state["game"]["hand"]["legal"][0]["action"], seq=seq)
        ann.wait(lambda s, seq=seq: s["seq"] > seq)
    seen = ann.wait(my_turn)  # nothing moves while Ann is to act: this is the table's last word
    a.kill()
    again = Client(b.ws(table))
    assert again.hello(token) == 0
    assert again.state["seq"] == seen["seq"]
    assert again.state["game"] == seen["game"]
    # and the game goes on at B, bots included (B leads them now)
    hand = seen["game"]["hand_number"]
    while again.state["game"]["hand_number"] == hand and not over(again.state):
        state = again.wait(lambda s: my_turn(s) or s["game"]["hand_number"] != hand)
        if state["game"]["hand_number"] != hand:
            break
        seq = state["seq"]
        again.send(type="act", action=state["game"]["hand"]["legal"][0]["action"], seq=seq)
        again.wait(lambda s, seq=seq: s["seq"] > seq)
    assert again.errors == []
    rows = table_log(pg_url, table)
    assert [row[0] for row in rows] == list(range(len(rows)))
    assert leader_pid(pg_url, table) == b.process.pid


def test_the_bots_holder_killed_while_a_bot_is_to_act_another_takes_over_and_it_acts_once(
    start_node: StartNode, pg_url: str
) -> None:
    a, b = start_node("--bot-delay", "1.5"), start_node("--bot-delay", "1.5")
    table = post(a.base + "/api/tables", {"rules": "standard", "name": "Lease"})["id"]
    first = Client(a.ws(table))
    token = _sit_with_bots(first)
    holder = wait_for(lambda: leader_pid(pg_url, table), "a process leads the table")
    nodes = {a.process.pid: a, b.process.pid: b}
    dying, living = nodes[holder], nodes[next(p for p in nodes if p != holder)]
    # Ann watches from the process that lives; a bot is to act when its holder is killed
    ann = Client(living.ws(table))
    assert ann.hello(token) == 0
    first.ws.close()
    while my_turn(ann.state):
        seq = ann.state["seq"]
        ann.send(type="act", action=ann.state["game"]["hand"]["legal"][0]["action"], seq=seq)
        ann.wait(lambda s, seq=seq: s["seq"] > seq)
    state = ann.state
    assert not my_turn(state)
    seq = state["seq"]
    dying.kill()
    moved = ann.wait(lambda s: s["seq"] > seq)
    assert moved["last"]["seat"] != 0
    assert wait_for(lambda: leader_pid(pg_url, table), "the lease is taken") == living.process.pid
    rows = table_log(pg_url, table)
    assert [row[0] for row in rows] == list(range(len(rows)))  # no seq twice, none missing
    steps = [read_event(table, *row) for row in rows if row[1] == "action"]
    assert len(steps) >= seq + 1
    # the state after the kill is the bot's one move at that point, stored once
    assert isinstance(steps[seq], ActionEvent) and steps[seq].seat == moved["last"]["seat"]
    # the log replays: every action was in turn, none applied twice
    storage = Storage(database_url(pg_url))
    try:
        stored = storage.load_table(table, snapshot=False)
        assert stored is not None
        replayed = Room.restore(stored, storage, ServerSettings(db=pg_url))
        assert replayed.seq >= seq + 1
    finally:
        storage.close()
