"""How many tables a server keeps and how it loads them (issue 18, item 3): a limit on creating
tables per client, lobby tables nobody uses expire, nothing is loaded at start, and a long log
loads from its latest snapshot, which restores exactly the table its whole log gives."""

from __future__ import annotations

import json
import random
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from texas42.core.actions import action_words
from texas42.core.rules import Rules
from texas42.faces.server import outbound as out
from texas42.faces.server.events import (
    ActionEvent,
    AwayEvent,
    BackEvent,
    BotEvent,
    ChatEvent,
    ChatRulesEvent,
    ClaimEvent,
    Event,
    HostEvent,
    LeaveEvent,
    ListingEvent,
    MuteEvent,
    OpenEvent,
    RematchEvent,
    SettingsEvent,
    SitEvent,
    StartEvent,
    TakeoverEvent,
    event_row,
)
from texas42.faces.server.room import Room, ServerSettings, token_digest
from texas42.faces.server.storage import (
    Storage,
    StoredEvent,
    StoredSnapshot,
    StoredTable,
    database_url,
)
from texas42.faces.server.table_limits import CreationLimit
from webtest import (
    FAST,
    Socket,
    TestClient,
    Watch,
    act_at_random,
    chromium,
    create_table,
    make_client,
    needs_browser,
    room_of,
    seat_with_bots,
    serve,
)

# -- creating tables ------------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_client_past_its_burst_gets_429_with_retry_after_until_the_bucket_refills(
    tmp_path: Path,
) -> None:
    with make_client(tmp_path / "t.sqlite", create_burst=2, create_per_minute=30) as c:
        clock = Clock()
        c.app.state.tables.creations.clock = clock  # type: ignore[attr-defined]
        made = [c.post("/api/tables", json={"name": f"T{n}"}) for n in range(2)]
        assert [r.status_code for r in made] == [200, 200]
        refused = c.post("/api/tables", json={"name": "T2"})
        assert refused.status_code == 429
        assert refused.headers["retry-after"] == "2"  # one table every 2 s
        assert refused.json() == {
            "error": "Too many new tables from your address: try again in 2 seconds."
        }
        out.read(out.Failure, refused.json())
        rows = c.app.state.storage.listed_tables  # type: ignore[attr-defined]
        assert len(c.app.state.tables.rooms) == 2 and rows(10) == []  # type: ignore[attr-defined]
        clock.now += 1.0
        assert c.post("/api/tables", json={"name": "T2"}).headers["retry-after"] == "1"
        clock.now += 1.0
        assert c.post("/api/tables", json={"name": "T2"}).status_code == 200
        assert c.post("/api/tables", json={"name": "T3"}).status_code == 429
        # a refused request counts nothing: bad rules are refused before the limit is asked
        assert c.post("/api/tables", json={"rules": "nope"}).status_code == 400
        clock.now += 2.0
        assert c.post("/api/tables", json={"name": "T3"}).status_code == 200


def test_each_address_has_its_own_bucket_and_full_ones_are_forgotten(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = Clock()
    limit = CreationLimit(rate=0.5, burst=1, clock=clock)
    assert limit.take("10.0.0.1") == 0
    assert limit.take("10.0.0.1") == pytest.approx(2.0)
    assert limit.take("10.0.0.2") == 0, "another address is not held back"
    monkeypatch.setattr("texas42.faces.server.table_limits.CLIENTS_KEPT", 2)
    clock.now += 2.0  # both buckets full again: the next new address drops them
    assert limit.take("10.0.0.3") == 0
    assert set(limit.buckets) == {"10.0.0.3"}


# -- lobby tables expire --------------------------------------------------------------------------


def create(c: TestClient, name: str, public: bool = True) -> str:
    response = c.post("/api/tables", json={"name": name, "public": public})
    assert response.status_code == 200, response.text
    table: str = response.json()["id"]
    return table


def listed(c: TestClient) -> list[str]:
    return [t["id"] for t in c.get("/api/lobby").json()["tables"]]


def test_a_lobby_table_nobody_uses_expires_for_good_and_a_game_never_does(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    with make_client(db, idle_seconds=0.0, lobby_expiry=0.2) as c:
        tables = c.app.state.tables  # type: ignore[attr-defined]
        quiet = create(c, "Quiet")
        private = create(c, "Private", public=False)
        started, me, token = seat_with_bots(c)
        watched = create(c, "Watched")
        spectator = Socket(c, watched)
        spectator.hello()
        me.close()
        time.sleep(0.3)
        c.portal.call(tables.expire_lobby)  # (the sweep may have run already)
        storage = c.app.state.storage  # type: ignore[attr-defined]
        status = {t: storage.table_status(t) for t in (quiet, private, started, watched)}
        assert status == {
            quiet: "expired",
            private: "expired",
            started: "playing",
            watched: "lobby",
        }
        assert listed(c) == [watched], "an expired table leaves the lobby, a watched one stays"
        answer = c.get(f"/api/tables/{quiet}")
        assert answer.status_code == 410
        assert answer.json()["detail"] == f"table {quiet!r} expired: nobody used it for 0.2 seconds"
        ws = Socket(c, quiet)
        ws.send(type="hello")
        error = ws.until("error")
        assert error["code"] == "not-found" and "expired" in error["message"]
        assert c.get("/api/tables/nosuchtable").status_code == 404
        assert c.get(f"/api/tables/{started}").json()["status"] == "playing"
    restores: list[str] = []
    with make_client(db, lobby_expiry=0.2) as c:
        real = Room.restore

        def counted(stored: StoredTable, *args: Any) -> Room:
            restores.append(stored.id)
            return real(stored, *args)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(Room, "restore", counted)
            assert c.get(f"/api/tables/{private}").status_code == 410, "expired after a restart"
            assert quiet not in listed(c)
            again = Socket(c, started)
            assert again.hello(token)["seat"] == 0, "a game started never expires"
        assert restores == [started], "an expired table is never loaded again"


def test_the_sweep_expires_tables_on_its_own(tmp_path: Path) -> None:
    with make_client(tmp_path / "t.sqlite", lobby_expiry=0.5) as c:
        table = create(c, "Soon gone")
        deadline = time.monotonic() + 30
        while c.get(f"/api/tables/{table}").status_code != 410:
            assert time.monotonic() < deadline, "the sweep never expired the table"
            time.sleep(0.2)


# -- nothing is loaded at start -------------------------------------------------------------------


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, int]]]:
    """Every table storage loads: its id and the number of events read."""
    seen: list[tuple[str, int]] = []
    real = Storage.load_table

    def load_table(self: Storage, table_id: str, **kwargs: Any) -> StoredTable | None:
        stored = real(self, table_id, **kwargs)
        if stored is not None:
            seen.append((table_id, len(stored.events)))
        return stored

    monkeypatch.setattr(Storage, "load_table", load_table)
    yield seen


def test_start_up_loads_no_table_and_the_lobby_lists_them_without_their_logs(
    tmp_path: Path, loads: list[tuple[str, int]]
) -> None:
    db = tmp_path / "t.sqlite"
    with make_client(db) as c:
        made = [create(c, f"Old {n}", public=n % 3 != 0) for n in range(150)]
        started, _, _ = seat_with_bots(c)
        before = listed(c)
    assert len(before) == 100 and started not in before  # the newest 100, a private one not
    loads.clear()
    with make_client(db) as c:
        assert loads == [] and c.app.state.tables.rooms == {}  # type: ignore[attr-defined]
        assert listed(c) == before and loads == [], "the lobby needs no log"
        c.get(f"/api/tables/{made[-1]}")
        assert [table for table, _ in loads] == [made[-1]], "a table visited is loaded"


def test_a_table_is_replayed_off_the_event_loop(tmp_path: Path) -> None:
    """An old log's first load may take seconds: the other tables must not wait for it."""
    import threading

    db = tmp_path / "t.sqlite"
    with make_client(db) as c:
        table = create(c, "Far")
    threads: list[threading.Thread] = []
    real = Room.restore

    def restore(stored: StoredTable, *args: Any) -> Room:
        threads.append(threading.current_thread())
        return real(stored, *args)

    with pytest.MonkeyPatch.context() as patch, make_client(db) as c:
        patch.setattr(Room, "restore", restore)
        assert c.get(f"/api/tables/{table}").status_code == 200
    # (the in-process server's loop runs in a thread of its own, so its name tells them apart)
    assert len(threads) == 1 and threads[0].name.startswith("asyncio_"), "the loop's workers"


def test_an_old_database_opens_and_its_lobby_entries_are_made_once(tmp_path: Path) -> None:
    """A database from before lobby entries, snapshots and ``used``: the columns and the table
    are added; each listed table is loaded once to make its entry, then never for the lobby."""
    db = tmp_path / "old.sqlite"
    with make_client(db) as c:
        tables = [create(c, f"Old {n}") for n in range(5)]
        before = listed(c)
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("DROP TABLE snapshots")
        conn.execute("DROP TABLE alembic_version")  # made before migrations, too
        conn.execute("ALTER TABLE tables DROP COLUMN lobby_entry")
        conn.execute("ALTER TABLE tables DROP COLUMN used")
    with make_client(db) as c:
        assert listed(c) == before
        rooms = c.app.state.tables.rooms  # type: ignore[attr-defined]
        assert sorted(rooms) == sorted(tables), "loaded to make their entries"
    with make_client(db) as c:
        assert listed(c) == before
        assert c.app.state.tables.rooms == {}  # type: ignore[attr-defined]


def test_a_stale_entry_after_a_crash_is_never_listed(tmp_path: Path) -> None:
    """A seat taken is committed with the table's entry cleared in the same transaction, so
    a kill before the new entry is written leaves no entry (the table is loaded) rather than
    an old one."""
    db = tmp_path / "t.sqlite"
    with make_client(db) as c:
        table = create(c, "Crash")
    storage = Storage(database_url(str(db)))
    try:
        storage.append(table, 1, SitEvent(seat=2, name="Kim", digest="d"))
        assert storage.listed_tables(10) == [(table, None)]
    finally:
        storage.close()
    with make_client(db) as c:
        (entry,) = c.get("/api/lobby").json()["tables"]
        assert entry["players"] == ["Kim"] and entry["seats_free"] == [0, 1, 3]


def test_a_listed_table_whose_log_is_broken_is_tried_once_not_at_every_list(
    tmp_path: Path, loads: list[tuple[str, int]], caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "t.sqlite"
    with make_client(db) as c:
        table = create(c, "Broken")
    storage = Storage(database_url(str(db)))
    try:
        storage.append(table, 1, SitEvent(seat=5, name="Nobody", digest="d"))  # 4 seats
    finally:
        storage.close()
    with caplog.at_level("ERROR", "texas42.faces.server"), make_client(db) as c:
        assert listed(c) == []
        tried = len(loads)  # its snapshot and the event after it, then its whole log
        assert tried == 2 and caplog.text.count("not restored") == 1
        assert listed(c) == [] and len(loads) == tried, "not tried again"
        assert c.get(f"/api/tables/{table}").status_code == 404


# -- snapshots --------------------------------------------------------------------------------------


def random_log(rules: str, seed: int, length: int, storage: Storage) -> list[Event]:
    """A table's log as the server could write it: people and bots sit, leave and sit again,
    games are played, claimed and rematched, people go away and come back, leave mid-game (a
    bot takes over), the host opens bots' seats to newcomers, passes the role, mutes, changes the
    settings, and everyone chats. Each event is checked by applying it to a room."""
    rng = random.Random(seed)
    room = Room("snap", "Snap", Rules.parse(rules), storage, ServerSettings(**FAST))
    events: list[Event] = []
    seats = room.layout.seats

    def do(event: Event) -> None:
        room._apply(event)
        events.append(event)

    def people() -> list[int]:
        return [s for s, st in enumerate(room.seats) if st.kind == "human" and st.holder is None]

    def chat() -> ChatEvent:
        seat = rng.choice([None, *range(seats)])
        words = rng.choice(["gg", "nice", "oops", "who leads?"])
        return ChatEvent(
            seat=seat, name=f"N{seat}", text=words, reaction=rng.random() < 0.3, at=1.5
        )

    do(ListingEvent(public=True))
    while any(st.kind == "empty" for st in room.seats):
        seat = next(s for s, st in enumerate(room.seats) if st.kind == "empty")
        if rng.random() < 0.5:
            player = rng.choice([None, f"p{seat}"])
            do(SitEvent(seat=seat, name=f"P{seat}", digest=f"d{seat}", player=player))
        else:
            do(BotEvent(seat=seat, level="easy", name=f"B{seat}"))
        if rng.random() < 0.3:
            taken = rng.choice([s for s, st in enumerate(room.seats) if st.kind != "empty"])
            holder = room.seats[taken].holder
            do(LeaveEvent(seat=taken if holder is None else holder))
        if rng.random() < 0.3:
            do(chat())
    do(ChatRulesEvent(spectators=True))
    do(SettingsEvent(bot_level="easy", away_seconds=30.0))
    do(StartEvent(game=1, seed=rng.randrange(2**62)))
    while len(events) < length:
        game = room.game
        assert game is not None
        roll = rng.random()
        persons = people()
        if room.status == "over":
            if roll < 0.3:
                do(chat())
            else:
                do(RematchEvent(game=room.game_number + 1, seed=rng.randrange(2**62)))
        elif roll < 0.05:
            do(chat())
        elif roll < 0.08 and persons:
            seat = rng.choice(persons)
            do(BackEvent(seat=seat) if room.seats[seat].away else AwayEvent(seat=seat))
        elif roll < 0.09 and persons:
            seat = rng.choice(persons)
            names = [f"T{s}" for s in room.controls(seat)]
            do(
                TakeoverEvent(
                    seat=seat, level="easy", names=names, why=rng.choice(["leave", "replace"])
                )
            )
        elif roll < 0.11:
            bots = [s for s, st in enumerate(room.seats) if st.kind == "bot" and not st.open]
            if bots:
                do(OpenEvent(seat=rng.choice(bots)))
        elif roll < 0.13:
            opened = [s for s, st in enumerate(room.seats) if st.open and st.pending is None]
            if opened and room.seats[opened[0]].holder is None:
                seat = opened[0]
                do(SitEvent(seat=seat, name=f"New{seat}", digest=f"n{seat}", player="pn"))
        elif roll < 0.14 and persons:
            do(HostEvent(seat=rng.choice(persons)))
        elif roll < 0.15 and persons:
            do(MuteEvent(seat=rng.choice(persons), muted=rng.random() < 0.5))
        elif roll < 0.16:
            do(SettingsEvent(bot_level=rng.choice(["easy", "medium"]), turn_seconds=5.0))
        else:
            seat = game.seat_to_act()
            assert seat is not None
            if game.why_claim_illegal(seat) is None and rng.random() < 0.15:
                do(ClaimEvent(game=room.game_number, seat=seat))
            else:
                action = rng.choice(game.legal_actions())
                do(ActionEvent(game=room.game_number, seat=seat, action=action_words(action)))
    room._close_bots()
    return events


def stored(
    rules: str, events: list[Event], start: int = 0, saved: StoredSnapshot | None = None
) -> StoredTable:
    """The table ``random_log`` made, from event ``start`` on after the snapshot ``saved``."""
    rows = tuple(StoredEvent(seq, *event_row(e)) for seq, e in enumerate(events) if seq >= start)
    return StoredTable("snap", "Snap", rules, "playing", rows, saved)


def assert_same_table(a: Room, b: Room) -> None:
    """Two rooms every seat and a spectator see alike, that go on alike."""
    assert a.take_snapshot() == b.take_snapshot()
    for seat in [None, *range(a.layout.seats)]:
        assert out.encode(a.state_for(seat)) == out.encode(b.state_for(seat)), seat
    assert list(a.chat) == list(b.chat) and a.host == b.host and a.muted == b.muted
    assert a.seats == b.seats and a.next_event == b.next_event
    assert a._bot_names(3) == b._bot_names(3)
    if a.status == "playing":
        assert {s: bot.name for s, bot in a.bots.items()} == {
            s: bot.name for s, bot in b.bots.items()
        }
    if a.game is None or b.game is None:
        assert a.game is None and b.game is None
        return
    assert a.game.position() == b.game.position() and a.game.score == b.game.score
    if a.status == "playing":
        assert a.game.legal_actions() == b.game.legal_actions()
        action = random.Random(a.seq).choice(a.game.legal_actions())
        next_a, next_b = a.game.copy(), b.game.copy()
        next_a.apply(action)
        next_b.apply(action)
        assert next_a.position() == next_b.position()


@pytest.mark.parametrize(
    "rules, seed",
    [
        ("standard,target=2", 1),
        ("standard,target=1,false_claim=set", 2),
        ("two-hand,target=1", 3),
        ("moon,target=7", 4),
        ("six-hand,target=1", 5),
    ],
)
def test_a_table_restored_from_a_snapshot_equals_the_one_its_whole_log_gives(
    tmp_path: Path, rules: str, seed: int
) -> None:
    storage = Storage(database_url(str(tmp_path / "s.sqlite")))
    try:
        settings = ServerSettings(**FAST)
        events = random_log(rules, seed, 260, storage)
        kinds = {e.kind for e in events}
        assert {"rematch", "takeover", "away", "back", "open", "chat", "claim"} <= kinds
        full = Room.restore(stored(rules, events), storage, settings)
        cuts = sorted({0, len(events), *random.Random(seed).sample(range(len(events)), 14)})
        for cut in cuts:
            prefix = Room.restore(stored(rules, events[:cut]), storage, settings)
            saved = StoredSnapshot(cut, prefix.take_snapshot())
            prefix._close_bots()
            again = Room.restore(stored(rules, events, cut, saved), storage, settings)
            try:
                assert again.snapshot_seq == cut
                assert_same_table(full, again)
            finally:
                again._close_bots()
        full._close_bots()
    finally:
        storage.close()


def test_a_snapshot_that_cannot_be_read_gives_way_to_the_whole_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, loads: list[tuple[str, int]]
) -> None:
    db = tmp_path / "t.sqlite"
    with make_client(db) as c:
        table, me, token = seat_with_bots(c)
        seen = act_at_random(me, 3, 6)
    storage = Storage(database_url(str(db)))
    try:
        whole = storage.load_table(table, snapshot=False)
        assert whole is not None
        text = Room.restore(whole, storage, ServerSettings(**FAST)).take_snapshot()
        broken = {
            "not JSON": "{not json",
            "another table's": text.replace('"next_event":', '"next_event":1'),
            "a game that cannot be played": text.replace('"action":"', '"action":"bid 99 '),
            "a seat it lacks": text.replace('"host":0', '"host":5'),
            "a field of the wrong type": text.replace('"seed":', '"seed":"'),
        }
        assert all(bad != text for bad in broken.values())
    finally:
        storage.close()
    for why, bad in broken.items():
        storage = Storage(database_url(str(db)))
        try:
            storage.save_snapshot(table, len(whole.events), bad)
        finally:
            storage.close()
        loads.clear()
        caplog.clear()
        with caplog.at_level("WARNING", "texas42.faces.server"), make_client(db) as c:
            again = Socket(c, table)
            assert again.hello(token)["seat"] == 0, why
            assert again.state["game"] == seen["game"], why
            assert f"table {table}: its whole log is read, not its snapshot" in caplog.text
            assert token_digest(token) not in caplog.text, "a snapshot's digests stay out of logs"
            assert [n for _, n in loads] == [0, len(whole.events)], why


def test_a_long_log_loads_from_its_snapshot(tmp_path: Path, loads: list[tuple[str, int]]) -> None:
    db = tmp_path / "t.sqlite"
    with make_client(db, snapshot_events=20, idle_seconds=0.0) as c:
        table, me, token = seat_with_bots(c)
        while room_of(c, table).next_event < 90:
            # passing leaves the bidding to the bots, so no wild bid of ours ends the game early
            turn = me.next_turn()
            legal = [a["action"] for a in turn["game"]["hand"]["legal"]]
            me.acted = turn["seq"]
            action = "pass" if "pass" in legal else legal[0]
            me.send(type="act", action=action, seq=turn["seq"])
        seen = me.next_turn()
        room = room_of(c, table)
        # the snapshot is stored after the step is told, so the turn may arrive first
        deadline = time.monotonic() + 10
        while room.next_event - room.snapshot_seq >= 20 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert room.next_event - room.snapshot_seq < 20, "a snapshot every 20 events"
        storage = c.app.state.storage  # type: ignore[attr-defined]
        kept = c.portal.call(storage.run, storage.load_table, table)
        assert kept.snapshot.seq == room.snapshot_seq > 60
        assert len(kept.events) == room.next_event - room.snapshot_seq
        total = room.next_event
        me.close()
        tables = c.app.state.tables  # type: ignore[attr-defined]
        deadline = time.monotonic() + 10
        while table in tables.rooms:
            assert time.monotonic() < deadline
            c.portal.call(tables.evict_idle)
            time.sleep(0.01)
        loads.clear()
        again = Socket(c, table)
        assert again.hello(token)["seat"] == 0
        assert again.state["game"] == seen["game"] and again.state["seq"] == seen["seq"]
        assert loads == [(table, 0)], f"the snapshot at leaving memory, not {total} events"


# -- a real server, killed ---------------------------------------------------------------------------

from test_server_process import (  # noqa: E402  (the process tests' own server and helpers)
    StartServer,
    _act,
    _free_port,
    _get,
    _my_turn,
    _post,
    _receive,
    _sit_with_bots,
    _until_my_turn,
    start_server,  # noqa: F401  (a fixture)
)


def _status(url: str) -> int:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_sigkill_keeps_snapshots_lobby_entries_and_expiry(
    tmp_path: Path,
    start_server: StartServer,  # noqa: F811  (the fixture imported above)
) -> None:
    """Killed mid-game with snapshots every 10 events: restarted, the lobby lists both tables
    from their entries, the game is where it was and goes on; then, with a short expiry, the
    lobby table nobody joined expires, and stays expired after another kill."""
    from websockets.sync.client import connect

    db = tmp_path / "t.sqlite"
    process, port = start_server(db, _free_port(), "--snapshot-events", "10")
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    waiting = _post(base + "/api/tables", {"name": "Waiting", "public": True})["id"]
    table = _post(base + "/api/tables", {"name": "Played", "public": True})["id"]
    with connect(f"{ws_base}/ws/{table}", close_timeout=1) as ws:
        token = _sit_with_bots(ws)
        state = _receive(ws, "state")
        while state["table"]["status"] != "playing":
            state = _receive(ws, "state")
        state = _until_my_turn(ws, state)
        for _ in range(5):
            state = _until_my_turn(ws, _act(ws, state))
        assert _my_turn(state)
        lobby = _get(base + "/api/lobby")["tables"]
        process.kill()
        process.wait(10)
    process, port = start_server(db, port, "--lobby-expiry", "3")
    again = _get(base + "/api/lobby")["tables"]
    for entry in lobby:
        entry["spectators"] = 0
    assert again == lobby and [t["id"] for t in again] == [table, waiting]
    with connect(f"{ws_base}/ws/{table}", close_timeout=1) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        assert _receive(ws, "welcome")["seat"] == 0
        resynced = _receive(ws, "state")
        assert resynced == state
        _until_my_turn(ws, _act(ws, resynced))
    deadline = time.monotonic() + 30
    while _status(f"{base}/api/tables/{waiting}") != 410:
        assert time.monotonic() < deadline, "the lobby table never expired"
        time.sleep(0.2)
    process.kill()
    process.wait(10)
    start_server(db, port, "--lobby-expiry", "3")
    assert _status(f"{base}/api/tables/{waiting}") == 410
    assert [t["id"] for t in _get(base + "/api/lobby")["tables"]] == [table]
    assert _get(f"{base}/api/tables/{table}")["status"] == "playing"


@needs_browser
def test_in_chromium_the_lobby_says_why_a_table_was_refused_and_the_page_that_it_expired(
    tmp_path: Path,
) -> None:
    limits = ("--create-burst", "1", "--create-per-minute", "0.01", "--lobby-expiry", "2")
    with serve(tmp_path, *limits) as base, chromium() as browser:
        watch = Watch(browser)
        page = watch.page
        url = create_table(page, base, "First")
        page.goto(base + "/")
        page.fill("[data-testid=table-name]", "Second")
        page.click("[data-testid=create-table]")
        toast = page.wait_for_selector("[data-testid=toast]:has-text('Too many new tables')")
        assert toast.text_content() == (
            "Could not create the table: Too many new tables from your address: "
            "try again in 100 minutes."
        )
        assert page.url == base + "/"
        table = url.rsplit("/", 1)[1]
        deadline = time.monotonic() + 30
        while _status(f"{base}/api/tables/{table}") != 410:
            assert time.monotonic() < deadline, "the table never expired"
            time.sleep(0.2)
        page.goto(url)
        shown = page.wait_for_selector("[data-testid=not-found]").text_content()
        assert f"Table '{table}' expired: nobody used it for 2 seconds." in str(shown)
        watch.close()
