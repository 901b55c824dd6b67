"""Coaching over HTTP (``GET /api/learn/coach/{table}/{game}/{seat}``): a finished game coached
for a seat, as `coach_record` says; a live game refused with no tile of it; bad ids refused; the
player's page with each game's figures and their trend; the ``coaching`` table's migration."""

from __future__ import annotations

import random
import secrets
import sqlite3
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from texas42.core.layout import layout_of
from texas42.core.record import Record
from texas42.core.rules import Rules, seats_held
from texas42.faces.server import migrate
from texas42.faces.server.coaching import trend
from texas42.faces.server.room import player_id
from texas42.faces.server.storage import database_url, open_engine
from texas42.services.learn.coach import COACH_VERSION, coach_record
from webtest import FAST, TILE_WORD, Socket, TestClient, make_client, new_table

SHORT = "standard,target=2"


def sit_with_bots(
    client: TestClient, secret: str, seat: int = 0, rules: str = SHORT
) -> tuple[str, Socket]:
    """A table with the test at ``seat`` as the player of ``secret``, bots elsewhere, started."""
    table = new_table(client, rules)
    me = Socket(client, table)
    me.hello()
    me.send(type="sit", seat=seat, name="Tess", player=secret)
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


def record_of(client: TestClient, table: str, number: int = 1) -> Record:
    response = client.get(f"/api/tables/{table}/games/{number}/record")
    assert response.status_code == 200
    return Record.from_json(response.text)


def coached(client: TestClient, table: str, number: int, seat: int) -> Any:
    response = client.get(f"/api/learn/coach/{table}/{number}/{seat}")
    assert response.status_code == 200, response.text
    return response.json()


def settled_page(client: TestClient, pid: str) -> Any:
    """The player's page once no game of theirs waits to be coached (asked again meanwhile)."""
    for _ in range(200):
        page = client.get(f"/api/players/{pid}").json()
        if page["coaching_pending"] == 0:
            return page
        time.sleep(0.05)
    raise AssertionError("the coaching never finished")


def test_a_finished_game_is_coached_for_each_seat(client: TestClient) -> None:
    table, me = sit_with_bots(client, secrets.token_urlsafe(32))
    play_out(me, 1)
    record = record_of(client, table)
    expected = coach_record(record, bid_samples=FAST["review_samples"])
    names = list(record.players or ())
    for seat in range(4):
        body = coached(client, table, 1, seat)
        want = expected[seat].to_dict()
        assert (body["table"], body["game"], body["seat"], body["seats"]) == (
            table,
            1,
            seat,
            [seat],
        )
        assert body["seat_names"] == ["North", "East", "South", "West"]
        assert body["name"] == names[seat]
        assert body["summary_line"] == want["summary_line"]
        assert body["no_mistakes_line"] == want["no_mistakes_line"]
        assert body["version"] == COACH_VERSION and body["samples"] == FAST["review_samples"]
        assert body["replay"] == f"/replay/{table}/1"
        assert client.get(body["replay"]).status_code == 200
        for got, made in zip(body["mistakes"], want["mistakes"], strict=True):
            assert got == {**made, "trick_so_far": [list(p) for p in made["trick_so_far"]]}
        summary = expected[seat].summary
        assert body["summary"]["plays"] == summary.plays
        assert body["summary"]["mistakes"] == summary.mistakes
        assert body["summary"]["given_up"] == summary.given_up
        assert body["summary"]["mistake_rate"] == round(summary.mistake_rate, 2)
    again = client.get(f"/api/learn/coach/{table}/1/0")
    assert again.json() == coached(client, table, 1, 0), "kept and served the same"


def test_in_two_hand_a_seat_is_coached_with_the_partnership_it_plays(client: TestClient) -> None:
    table, me = sit_with_bots(client, secrets.token_urlsafe(32), rules="two-hand,target=1")
    play_out(me, 8)
    record = record_of(client, table)
    (expected,) = coach_record(record, [seats_held(record.rules, 0)], bid_samples=2)
    body = coached(client, table, 1, 0)
    assert body["seats"] == [0, 2]
    assert body["summary"]["plays"] == expected.summary.plays
    assert {m["seat"] for m in body["mistakes"]} <= {0, 2}


def test_a_game_being_played_is_refused_and_tells_no_tile(client: TestClient) -> None:
    table, me = sit_with_bots(client, secrets.token_urlsafe(32), rules="standard")
    state = me.next_turn()
    me.act(state, random.Random(0))
    for seat in range(4):
        response = client.get(f"/api/learn/coach/{table}/1/{seat}")
        assert response.status_code == 409
        assert response.json() == {"detail": "that game is still being played"}
        assert not TILE_WORD.search(response.text)
    assert client.get(f"/api/learn/coach/{table}/2/0").status_code == 404


@pytest.mark.parametrize(
    ("path", "status", "says"),
    [
        ("nosuchtable/1/0", 404, "no game 1 at table 'nosuchtable'"),
        ("{table}/0/0", 422, "number"),
        ("{table}/x/0", 422, "number"),
        ("{table}/1/7", 422, "seat"),
        ("{table}/1/-1", 422, "seat"),
        ("{table}/1/north", 422, "seat"),
        ("{table}/9/0", 404, "no game 9"),
    ],
)
def test_bad_ids_are_refused(client: TestClient, path: str, status: int, says: str) -> None:
    table, me = sit_with_bots(client, secrets.token_urlsafe(32), rules="three-hand,target=1")
    play_out(me, 2)
    response = client.get("/api/learn/coach/" + path.format(table=table))
    assert response.status_code == status
    assert says in response.text
    if status == 422:
        assert "loc" in response.text
    # three-hand has seats 0 to 2
    beyond = client.get(f"/api/learn/coach/{table}/1/3")
    assert beyond.status_code == 400
    assert beyond.json() == {"error": "seat: this game has seats 0 to 2"}
    assert coached(client, table, 1, 2)["seat"] == 2


def test_the_players_page_has_each_games_figures_and_their_trend(client: TestClient) -> None:
    secret = secrets.token_urlsafe(32)
    tables = []
    for seed, seat in ((1, 0), (2, 1), (3, 2)):
        table, me = sit_with_bots(client, secret, seat=seat)
        play_out(me, seed)
        tables.append((table, seat))
    page = settled_page(client, player_id(secret))
    games = list(reversed(page["games"]))  # oldest first
    assert [(g["table"], g["seats"]) for g in games] == [(t, [s]) for t, s in tables]
    rates = []
    for game, (table, seat) in zip(games, tables):
        summary = coached(client, table, 1, seat)["summary"]
        assert game["coaching"] == summary
        rates.append(summary["mistake_rate"])
    first, last = trend(rates)
    assert page["trend_lines"][0].startswith(
        f"Mistakes per 100 plays: from {first:.1f} to {last:.1f}"
    ) or (page["trend_lines"][0] == f"Mistakes per 100 plays: {last:.1f} over 3 games.")
    assert page["trend_lines"][1].startswith("Points given up per hand: ")
    assert page["coaching_pending"] == 0


def coaching_rows(db: Path) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT table_id, number, seat, version FROM coaching").fetchall()


def test_an_old_database_upgraded_keeps_its_games_and_coaches_them_on_demand(
    tmp_path: Path,
) -> None:
    db = tmp_path / "old.sqlite"
    secret = secrets.token_urlsafe(32)
    with make_client(db) as c:
        table, me = sit_with_bots(c, secret)
        play_out(me, 4)
        settled_page(c, player_id(secret))
        record = c.get(f"/api/tables/{table}/games/1/record").text
    assert sorted(coaching_rows(db)) == [(table, 1, s, COACH_VERSION) for s in range(4)]
    engine = open_engine(database_url(str(db)))
    try:
        migrate.downgrade(engine, "0001")  # as a texas42 before coaching left it
        assert migrate.state(engine).current == "0001"
        assert "coaching" not in sa.inspect(engine).get_table_names()
    finally:
        engine.dispose()
    with make_client(db, work_processes=0) as c:
        engine = open_engine(database_url(str(db)))
        try:
            assert migrate.state(engine).current == "0002"
        finally:
            engine.dispose()
        assert c.get(f"/api/tables/{table}/games/1/record").text == record, "the game is kept"
        assert coaching_rows(db) == []
        first = c.get(f"/api/players/{player_id(secret)}").json()
        assert first["coaching_pending"] == 1, "being reviewed"
        assert first["games"][0]["coaching"] is None and first["trend_lines"] == []
        page = settled_page(c, player_id(secret))
        assert page["games"][0]["coaching"] == coached(c, table, 1, 0)["summary"]
    assert sorted(coaching_rows(db)) == [(table, 1, s, COACH_VERSION) for s in range(4)]


def test_a_flood_of_coaching_requests_is_refused_with_retry_after(tmp_path: Path) -> None:
    with make_client(tmp_path / "f.sqlite", work_rate=1.0) as c:
        table, me = sit_with_bots(c, secrets.token_urlsafe(32), rules="standard,target=1")
        play_out(me, 6)
        statuses = [c.get(f"/api/learn/coach/{table}/1/0") for _ in range(4)]
    refused = [r for r in statuses if r.status_code == 503]
    assert refused, [r.status_code for r in statuses]
    assert refused[0].headers["Retry-After"] == "2"
    assert "a second: slow down" in refused[0].json()["error"]
    assert statuses[0].status_code == 200
