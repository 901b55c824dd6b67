"""Players and their games, and house rules kept by name, at the server in process."""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import secrets
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from texas42.core.layout import layout_of
from texas42.core.record import Record, check_record
from texas42.core.rules import Rules
from texas42.faces.server import storage as storage_module
from texas42.faces.server.room import Room, ServerSettings, player_id, token_digest
from texas42.faces.server.storage import Storage, StoredEvent, StoredTable, database_url
from webtest import FAST, TILE_WORD, Socket, TestClient, new_table

SHORT = "standard,target=1"
"""One mark wins: the first hand bid ends the game."""


def sit_with_bots(
    client: TestClient, secret: str | None, seat: int = 0, rules: str = SHORT
) -> tuple[str, Socket]:
    """A table with the test at ``seat`` (sent with ``secret``), bots elsewhere, started."""
    table = new_table(client, rules)
    me = Socket(client, table)
    me.hello()
    sit: dict[str, Any] = {"type": "sit", "seat": seat, "name": "Tess"}
    if secret is not None:
        sit["player"] = secret
    me.send(**sit)
    me.until("seated")
    seats = me.until("state", lambda m: m["table"]["seats"][seat]["kind"] == "human")
    for other in range(layout_of(Rules.parse(rules)).seats):
        if seats["table"]["seats"][other]["kind"] == "empty":
            me.send(type="bot", seat=other, level="easy")
            me.until("state", lambda m, s=other: m["table"]["seats"][s]["kind"] == "bot")
    me.send(type="start")
    me.until("state", lambda m: m["game"] is not None)
    return table, me


def play_out(me: Socket, seed: int) -> None:
    rng = random.Random(seed)
    while True:
        state = me.next_turn()
        if state["game"]["outcome"]:
            return
        me.act(state, rng)


def expected(client: TestClient, table: str, seats: set[int]) -> tuple[bool, int, int]:
    """Won, bids and bids made at a finished game, worked out here from its record."""
    response = client.get(f"/api/tables/{table}/games/1/record")
    assert response.status_code == 200
    record = Record.from_json(response.text)
    report = check_record(record)
    side = layout_of(record.rules).side_of[min(seats)]
    bids = [r.made for r in report.results if r.bidder in seats and r.made is not None]
    return report.winner == side, len(bids), sum(bool(m) for m in bids)


def test_a_player_at_two_tables_has_both_games_on_their_page(client: TestClient) -> None:
    secret = secrets.token_urlsafe(32)
    first, me = sit_with_bots(client, secret, seat=0)
    play_out(me, 1)
    second, you = sit_with_bots(client, secret, seat=1)
    play_out(you, 2)
    pid = player_id(secret)
    assert me.state["table"]["seats"][0]["player"] == pid
    assert [s["player"] for s in me.state["table"]["seats"][1:]] == [None, None, None]

    page = client.get(f"/api/players/{pid}")
    assert page.status_code == 200
    body = page.json()
    assert body["id"] == pid and body["names"] == ["Tess"]
    assert [(g["table"], g["seats"]) for g in body["games"]] == [(second, [1]), (first, [0])]
    figures = [expected(client, first, {0}), expected(client, second, {1})]
    assert body["played"] == 2
    assert body["won"] == sum(won for won, _, _ in figures)
    assert body["bids"] == sum(bids for _, bids, _ in figures)
    assert body["made"] == sum(made for _, _, made in figures)
    latest = body["games"][0]
    won, bids, made = figures[1]
    assert (latest["won"], latest["bids"], latest["made"]) == (won, bids, made)
    names = [seat["name"] for seat in you.state["table"]["seats"]]  # the bots' names
    assert latest["side"] == 1 and latest["partners"] == [names[3]]
    assert latest["opponents"] == [names[0], names[2]]
    assert latest["replay"] == f"/replay/{second}/1"
    assert client.get(f"/api/tables/{second}/games/1/replay").status_code == 200
    assert client.get(latest["record"]).status_code == 200
    assert client.get(f"/p/{pid}").status_code == 200


def test_in_two_hand_both_seats_a_person_plays_are_theirs(client: TestClient) -> None:
    secret = secrets.token_urlsafe(32)
    table, me = sit_with_bots(client, secret, rules="two-hand,target=1")
    play_out(me, 8)
    pid = player_id(secret)
    assert [s["player"] for s in me.state["table"]["seats"]] == [pid, None, pid, None]
    body = client.get(f"/api/players/{pid}").json()
    (game,) = body["games"]
    won, bids, made = expected(client, table, {0, 2})
    assert game["seats"] == [0, 2] and game["partners"] == []
    assert (game["won"], game["bids"], game["made"]) == (won, bids, made)
    assert (body["played"], body["won"], body["bids"], body["made"]) == (1, won, bids, made)


def test_another_secret_is_another_player(client: TestClient) -> None:
    one, two = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    table, me = sit_with_bots(client, one)
    play_out(me, 3)
    other, you = sit_with_bots(client, two)
    play_out(you, 4)
    assert player_id(one) != player_id(two)
    first = client.get(f"/api/players/{player_id(one)}").json()
    second = client.get(f"/api/players/{player_id(two)}").json()
    assert [g["table"] for g in first["games"]] == [table]
    assert [g["table"] for g in second["games"]] == [other]


def test_the_public_id_does_not_give_the_secret_away(client: TestClient) -> None:
    secret = secrets.token_urlsafe(32)
    table, me = sit_with_bots(client, secret)
    play_out(me, 5)
    pid = player_id(secret)
    digest = token_digest(secret)
    assert len(pid) == 16 and secret not in pid and pid not in digest
    assert pid != hashlib.sha256(secret.encode()).hexdigest()[:16]
    # neither the secret nor its digest is sent to anyone, nor stored anywhere
    sent = json.dumps(me.log)
    assert pid in sent and secret not in sent and digest not in sent
    page = client.get(f"/api/players/{pid}").text
    assert secret not in page and digest not in page
    store: Storage = client.app.state.storage  # type: ignore[attr-defined]
    stored = store.load_table(table)
    assert stored is not None
    assert all(secret not in e.data and digest not in e.data for e in stored.events)
    # sitting with the public id as a secret is another player, not this one
    _, thief = sit_with_bots(client, pid + pid)
    assert thief.state["table"]["seats"][0]["player"] != pid


def test_the_page_shows_only_finished_games_and_no_tile(client: TestClient) -> None:
    secret = secrets.token_urlsafe(32)
    done, me = sit_with_bots(client, secret)
    play_out(me, 6)
    playing, you = sit_with_bots(client, secret, rules="standard")
    you.next_turn()  # a game under way, the player holding tiles
    response = client.get(f"/api/players/{player_id(secret)}")
    assert [g["table"] for g in response.json()["games"]] == [done]
    assert playing not in response.text
    assert TILE_WORD.findall(response.text) == []


def test_an_unknown_player_is_not_found(client: TestClient) -> None:
    for pid in ["0123456789abcdef", "nothex", "x" * 200, player_id("never-sat-anywhere-at-all")]:
        response = client.get(f"/api/players/{pid}")
        assert response.status_code == 404
        assert "no finished games" in response.json()["error"]
    # a person without a secret has no player, and no page
    _, me = sit_with_bots(client, None)
    play_out(me, 7)
    assert me.state["table"]["seats"][0]["player"] is None


@pytest.mark.parametrize("secret", ["short", "has space in it ok?", "é" * 20, "x" * 129, 12])
def test_a_bad_player_secret_is_refused_and_the_seat_stays_empty(
    client: TestClient, secret: object
) -> None:
    table = new_table(client)
    me = Socket(client, table)
    me.hello()
    me.send(type="sit", seat=0, name="Tess", player=secret)
    error = me.until("error")
    assert error["code"] == "bad-message" and "player" in error["message"]
    me.send(type="ping")
    me.until("pong")
    assert me.state["table"]["seats"][0]["kind"] == "empty"


def test_an_old_log_without_players_restores(tmp_path: Path) -> None:
    storage = Storage(database_url(str(tmp_path / "old.sqlite")))
    try:
        sit = StoredEvent(0, "sit", json.dumps({"seat": 0, "name": "Ann", "digest": "d"}))
        bot = StoredEvent(1, "bot", json.dumps({"seat": 1, "level": "easy", "name": "Easy bot"}))
        stored = StoredTable("old", "Old", "standard", "lobby", (sit, bot))
        room = Room.restore(stored, storage, ServerSettings(**FAST))
        assert room.seats[0].name == "Ann" and room.seats[0].player is None
        assert room.table_payload().seats[0].player is None
    finally:
        storage.close()


def test_an_old_database_gets_the_new_tables(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        conn.execute(
            "CREATE TABLE tables (id VARCHAR(32) PRIMARY KEY, name VARCHAR(80) NOT NULL, "
            "rules TEXT NOT NULL, status VARCHAR(16) NOT NULL, created FLOAT NOT NULL, "
            "updated FLOAT NOT NULL)"
        )
        conn.execute("INSERT INTO tables VALUES ('old', 'Old', 'standard', 'lobby', 1.0, 1.0)")
    storage = Storage(database_url(str(db)))
    try:
        assert storage.house_rules() == []
        assert storage.player_games("0123456789abcdef", 10) == []
        stored = storage.load_table("old")
        assert stored is not None and stored.name == "Old"
    finally:
        storage.close()


def test_a_player_survives_a_restart(tmp_path: Path) -> None:
    from webtest import make_client

    db = tmp_path / "t.sqlite"
    secret = secrets.token_urlsafe(32)
    with make_client(db) as client:
        table, me = sit_with_bots(client, secret, rules="standard")
        me.next_turn()
    with make_client(db) as client:
        sock = Socket(client, table)
        sock.hello()
        assert sock.state["table"]["seats"][0]["player"] == player_id(secret)


# -- house rules --------------------------------------------------------------------------------


def test_house_rules_are_saved_listed_and_replaced_by_name(client: TestClient) -> None:
    assert client.get("/api/house-rules").json() == {"house_rules": []}
    saved = client.post("/api/house-rules", json={"name": "Grandma's  rules ", "rules": "nello"})
    assert saved.status_code == 200
    body = saved.json()
    assert body["name"] == "Grandma's rules" and body["rules"] == "standard,nello=true"
    assert body["rules_text"] == Rules.parse("standard,nello=true").describe()
    client.post("/api/house-rules", json={"name": "Friday", "rules": "standard,target=3"})
    listed = client.get("/api/house-rules").json()["house_rules"]
    assert [h["name"] for h in listed] == ["Friday", "Grandma's rules"]
    again = client.post("/api/house-rules", json={"name": "Grandma's rules", "rules": "house"})
    assert again.status_code == 200
    listed = client.get("/api/house-rules").json()["house_rules"]
    assert [(h["name"], h["rules"]) for h in listed] == [
        ("Grandma's rules", "house"),
        ("Friday", "standard,target=3"),
    ]


@pytest.mark.parametrize(
    "body, reason",
    [
        ({"name": "", "rules": "standard"}, "1 to 40 printable"),
        ({"name": "   ", "rules": "standard"}, "1 to 40 printable"),
        ({"name": "x" * 41, "rules": "standard"}, "1 to 40 printable"),
        ({"name": "bell\x07", "rules": "standard"}, "1 to 40 printable"),
        ({"name": "Ok", "rules": "standard,nello=maybe"}, "rules: "),
        ({"name": "Ok", "rules": "nosuchpreset"}, "rules: "),
        ({"name": "Ok", "rules": ""}, "rules: "),
        ({"name": "Ok", "rules": "standard", "extra": 1}, "exactly two fields"),
        ({"name": "Ok"}, "exactly two fields"),
        ({"name": 3, "rules": "standard"}, "strings"),
        ([1, 2], "exactly two fields"),
        ("{not json", "send JSON"),
    ],
)
def test_bad_house_rules_are_refused_and_nothing_is_saved(
    client: TestClient, body: object, reason: str
) -> None:
    if isinstance(body, str):
        response = client.post("/api/house-rules", content=body)
    else:
        response = client.post("/api/house-rules", json=body)
    assert response.status_code == 400
    assert reason in response.json()["error"]
    assert client.get("/api/house-rules").json() == {"house_rules": []}


def test_only_the_latest_house_rules_are_kept(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage_module, "HOUSE_RULES_KEPT", 3)
    for n in range(5):
        assert (
            client.post(
                "/api/house-rules", json={"name": f"Rules {n}", "rules": f"standard,target={n + 1}"}
            ).status_code
            == 200
        )
    listed = client.get("/api/house-rules").json()["house_rules"]
    assert [h["name"] for h in listed] == ["Rules 4", "Rules 3", "Rules 2"]
