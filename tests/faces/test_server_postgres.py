"""The server's storage on PostgreSQL as on SQLite: a representative part of the storage and
server tests, run on both (a throwaway cluster, `pg.cluster`; each test its own database)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from texas42.core.errors import Texas42Error
from texas42.faces.server import storage as storage_module
from texas42.faces.server.events import (
    ActionEvent,
    ListingEvent,
    SitEvent,
    StartEvent,
    read_event,
)
from texas42.faces.server.storage import (
    FinishedGame,
    Storage,
    check_database,
    database_url,
)
from webtest import Socket, act_at_random, make_client, room_of, seat_with_bots

BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new empty database, as ``--db`` takes it: an SQLite file, or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "t.sqlite")
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def storage(db: str) -> Iterator[Storage]:
    opened = Storage(database_url(db))
    try:
        yield opened
    finally:
        opened.close()


def test_a_postgresql_url_is_served_by_psycopg(pg_url: str) -> None:
    url = database_url(pg_url)
    assert url.startswith("postgresql+psycopg://")
    check_database(url)
    with pytest.raises(Texas42Error, match="cannot open"):
        check_database(url.replace("/t", "/no_such_database_", 1))


def test_a_game_played_restores_exactly_after_a_restart(db: str) -> None:
    """On SQLite and PostgreSQL alike (the SQLite case was test_server.py's own)."""
    with make_client(db) as c:
        table, me, token = seat_with_bots(c)
        m = act_at_random(me, 8, 12)
        position = room_of(c, table).game.position()  # type: ignore[union-attr]
    with make_client(db) as c:
        assert room_of(c, table).game.position() == position  # type: ignore[union-attr]
        again = Socket(c, table)
        again.hello(token)
        assert again.state["game"] == m["game"] and again.state["seq"] == m["seq"]


def test_events_finished_games_and_players_are_kept(storage: Storage) -> None:
    table = f"t{random.getrandbits(32):x}"
    storage.create_table(table, "Friday", "house")
    storage.append(table, 0, SitEvent(seat=0, name="Ann", digest="d", player="a" * 16))
    storage.append(table, 1, StartEvent(game=1, seed=9), status="playing")
    finished = FinishedGame(
        table,
        1,
        "house",
        ("Ann", "B", "C", "D"),
        (7, 3),
        0,
        1e9 + 1,
        '{"record": 1}',
        ("a" * 16, None, None, None),
    )
    storage.append(
        table, 2, ActionEvent(game=1, seat=0, action="pass"), status="over", finished=finished
    )
    stored = storage.load_table(table)
    assert stored is not None and stored.status == "over" and stored.name == "Friday"
    assert [e.kind for e in stored.events] == ["sit", "start", "action"]
    event = stored.events[2]
    assert read_event(table, event.seq, event.kind, event.data) == ActionEvent(
        game=1, seat=0, action="pass"
    )
    kept = storage.finished_game(table, 1)
    assert kept is not None and kept.record == finished.record and kept.score == (7, 3)
    (summary,) = storage.history(10)
    assert (summary.table, summary.game, summary.name) == (table, 1, "Friday")
    (mine,) = storage.player_games("a" * 16, 10)
    assert mine.seats == [0] and mine.names == ["Ann"] and mine.table_name == "Friday"
    assert storage.player_games("b" * 16, 10) == []
    with pytest.raises(sa.exc.IntegrityError):
        storage.append(table, 2, StartEvent(game=2, seed=1))  # a seq is written once
    assert len(storage.load_table(table).events) == 3  # type: ignore[union-attr]


def test_a_snapshot_replaces_the_last_and_the_table_loads_from_it(storage: Storage) -> None:
    table = "snap"
    storage.create_table(table, "Snap", "standard")
    for seq in range(6):
        storage.append(table, seq, SitEvent(seat=seq % 4, name=f"P{seq}", digest="d"))
    storage.save_snapshot(table, 2, '{"first": true}')
    storage.save_snapshot(table, 4, '{"second": true}')
    stored = storage.load_table(table)
    assert stored is not None and stored.snapshot is not None
    assert (stored.snapshot.seq, json.loads(stored.snapshot.data)) == (4, {"second": True})
    assert [e.seq for e in stored.events] == [4, 5]
    whole = storage.load_table(table, snapshot=False)
    assert whole is not None and whole.snapshot is None and len(whole.events) == 6


def test_house_rules_keep_the_latest(storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(storage_module, "HOUSE_RULES_KEPT", 3)
    for n in range(5):
        storage.save_house_rules(f"Rules {n}", f"standard,target={n + 1}")
        time.sleep(0.002)  # saved times apart, so "latest" is well defined
    storage.save_house_rules("Rules 3", "nello=true")  # a name saved again: its new rules
    assert [(name, rules) for name, rules, _ in storage.house_rules()] == [
        ("Rules 3", "nello=true"),
        ("Rules 4", "standard,target=5"),
        ("Rules 2", "standard,target=3"),
    ]


def test_the_lobby_lists_public_tables_and_expires_unused_ones(storage: Storage) -> None:
    storage.create_table("old", "Old", "standard", public=True)
    storage.create_table("kept", "Kept", "standard", public=True)
    storage.create_table("private", "Private", "standard")
    time.sleep(0.01)
    cutoff = time.time()
    storage.create_table("new", "New", "standard", public=True)
    assert [table for table, _ in storage.listed_tables(10)] == ["new", "kept", "old"]
    storage.save_lobby_entry("new", '{"entry": 1}')
    assert dict(storage.listed_tables(10))["new"] == '{"entry": 1}'
    storage.append("new", 1, ListingEvent(public=False))
    assert [table for table, _ in storage.listed_tables(10)] == ["kept", "old"]
    assert sorted(storage.expire_lobby(cutoff, keep={"kept"})) == ["old", "private"]
    assert storage.table_status("old") == "expired" and storage.table_status("kept") == "lobby"
    expired = storage.load_table("old")
    assert expired is not None and expired.status == "expired" and expired.events == ()
    assert [table for table, _ in storage.listed_tables(10)] == ["kept"]
    assert storage.table_status("nothing") is None


def test_the_http_api_serves_from_postgresql(pg_url: str) -> None:
    with make_client(pg_url) as c:
        made = c.post("/api/tables", json={"rules": "standard", "name": "Pg", "public": True})
        assert made.status_code == 200, made.text
        table = made.json()["id"]
        assert [t["id"] for t in c.get("/api/lobby").json()["tables"]] == [table]
        assert c.get(f"/api/tables/{table}").json()["name"] == "Pg"
        saved = c.post("/api/house-rules", json={"name": "Ours", "rules": "standard"})
        assert saved.status_code == 200, saved.text
        assert [r["name"] for r in c.get("/api/house-rules").json()["house_rules"]] == ["Ours"]


def test_connections_the_database_dropped_while_idle_are_replaced_unnoticed(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database restarted while the server idles: the first use of each pooled connection
    after it finds the connection dead (the idle ping) and takes a new one, so no action
    fails. Without the ping the read below raises."""
    storage = Storage(database_url(pg_url))
    try:
        table = f"t{random.getrandbits(32):x}"
        storage.create_table(table, "Idle", "standard")
        storage.append(table, 0, SitEvent(seat=0, name="Ann", digest="d", player="a" * 16))
        assert [e.seq for e in storage.events_since(table, 0)] == [0]
        other = sa.create_engine(database_url(pg_url), poolclass=sa.pool.NullPool)
        with other.connect() as conn:  # every other session of this database: the pool's
            killed = conn.execute(
                sa.text(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            ).scalar()
        assert killed
        monkeypatch.setattr(storage_module, "IDLE_PING_SECONDS", 0.0)
        storage.append(table, 1, StartEvent(game=1, seed=9), status="playing")
        assert [e.seq for e in storage.events_since(table, 0)] == [0, 1]
    finally:
        storage.close()
