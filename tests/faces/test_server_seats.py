"""No game waits forever for a person: leaving, away and back, the host's seat actions, the turn
clock, bot names, and all of it restored from the event log. In process, with test sockets."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from texas42.core import words
from texas42.faces.server.outbound import SERVER_MESSAGES
from texas42.faces.server.room import BOT_FIRST_NAMES, Room
from webtest import (
    TILE_WORD,
    Socket,
    TestClient,
    make_client,
    room_of,
    tiles_in,
    visible_tiles,
)

State = dict[str, Any]


def table_with(
    client: TestClient, people: list[str], rules: str = "standard", **settings: Any
) -> tuple[str, list[Socket], list[str]]:
    """A started table: ``people`` in the first seats (one socket and token each), bots in the
    rest, the table created with ``settings``."""
    response = client.post("/api/tables", json={"rules": rules, "name": "Seats", **settings})
    assert response.status_code == 200, response.text
    table = response.json()["id"]
    socks, tokens = [], []
    for seat, name in enumerate(people):
        sock = Socket(client, table)
        sock.hello()
        sock.send(type="sit", seat=seat, name=name)
        tokens.append(sock.until("seated")["token"])
        socks.append(sock)
    host = socks[0]
    seats = host.until("state", lambda m: m["table"]["seats"][len(people) - 1]["kind"] == "human")
    for seat in [s["seat"] for s in seats["table"]["seats"] if s["kind"] == "empty"]:
        host.send(type="bot", seat=seat, level="medium")
        host.until("state", lambda m, s=seat: m["table"]["seats"][s]["kind"] == "bot")
    host.send(type="start")
    for sock in socks:
        sock.until("state", lambda m: m["game"] is not None)
    return table, socks, tokens


def play(
    players: dict[int, Socket], watch: Socket, stop: Callable[[State], bool], seed: int = 1
) -> State:
    """People act on their turns (``players`` by seat) until ``watch`` sees a state ``stop``
    takes; that state."""
    rng = random.Random(seed)
    acted = -1
    m = watch.state
    while not stop(m):
        game = m["game"]
        turn = game["hand"]["turn"] if game and not game["outcome"] else None
        owner = next((s for seat, s in players.items() if seat == turn), None)
        if owner is not None and m["seq"] != acted:
            mine = owner.state
            if mine.get("seq") != m["seq"]:
                mine = owner.until("state", lambda x, q=m["seq"]: x["seq"] == q)
            if mine["game"]["hand"]["legal"]:  # else a bot plays the seat still
                acted = m["seq"]
                owner.act(mine, rng)
        m = watch.until("state")
    return m


def notices(sock: Socket) -> list[str]:
    return [m["message"] for m in sock.log if m["type"] == "notice"]


def heard(sock: Socket, test: Callable[[str], bool]) -> str:
    """The first notice (already read or on its way) that ``test`` takes."""
    for message in notices(sock):
        if test(message):
            return message
    found: str = sock.until("notice", lambda n: test(n["message"]))["message"]
    return found


def no_hidden_tile(sock: Socket, room: Room, seats: tuple[int | None, ...]) -> None:
    """Every message the socket got shows only tiles one of the seats it held could see."""
    game = room.game
    assert game is not None
    allowed = set().union(*(visible_tiles(game, seat) for seat in seats))
    for message in sock.log:
        shown = set(TILE_WORD.findall(json.dumps(message)))
        shown |= tiles_in(SERVER_MESSAGES.validate_python(message))
        assert shown <= allowed, (seats, shown - allowed, message)


def test_bots_have_distinct_names_and_show_their_level(client: TestClient) -> None:
    table, (tess,), _ = table_with(client, ["Tess"])
    seats = tess.state["table"]["seats"]
    names = [s["name"] for s in seats[1:]]
    assert len(set(names)) == 3 and set(names) <= set(BOT_FIRST_NAMES)
    assert [s["label"] for s in seats] == ["Tess", *(f"{n} (medium)" for n in names)]
    # the order is the table's own: the same id always names its bots the same
    room = room_of(client, table)
    assert room._bot_names(3) == room._bot_names(3)


def test_leaving_a_game_gives_the_seat_to_a_bot_and_the_game_goes_on_to_its_end(
    client: TestClient,
) -> None:
    table, (tess, ann), tokens = table_with(client, ["Tess", "Ann"])
    room = room_of(client, table)
    ann.send(type="leave", seat=1)
    m = tess.until("state", lambda m: m["table"]["seats"][1]["kind"] == "bot")
    seat = m["table"]["seats"][1]
    assert seat["level"] == "medium" and seat["name"] in BOT_FIRST_NAMES
    assert seat["name"] not in [s["name"] for s in m["table"]["seats"] if s["seat"] != 1]
    said = words.seat_left("Ann", f"{seat['name']} (medium)", "East")
    assert said == f"Ann left; {seat['name']} (medium) plays East now."
    heard(tess, lambda n: n == said)
    assert (
        ann.until("state", lambda m: m["table"]["seats"][1]["kind"] == "bot")["you"]["seat"] is None
    )
    # the leaver's token no longer gives the seat
    again = Socket(client, table)
    again.send(type="hello", token=tokens[1])
    assert again.until("welcome")["seat"] is None
    assert [m["code"] for m in again.log if m["type"] == "error"] == ["not-allowed"]
    final = play({0: tess}, tess, lambda m: bool(m["game"]["outcome"]))
    assert final["table"]["status"] == "over" and room.status == "over"
    no_hidden_tile(ann, room, (1,))
    no_hidden_tile(again, room, (None,))


def test_leaving_two_hand_frees_both_seats_of_the_partnership_to_a_bot_each(
    client: TestClient,
) -> None:
    _, (tess, bo), _ = table_with(client, ["Tess", "Bo"], rules="two-hand")
    bo.send(type="leave", seat=3)
    m = tess.until("state", lambda m: m["table"]["seats"][1]["kind"] == "bot")
    seats = m["table"]["seats"]
    assert seats[3]["kind"] == "bot" and seats[3]["holder"] is None
    names = [s["name"] for s in seats]
    assert names[0] == names[2] == "Tess" and len({names[1], names[3], "Tess"}) == 3
    heard(tess, lambda n: n.startswith("Bo") and "East and West now" in n)
    play({0: tess, 2: tess}, tess, lambda m: m["seq"] >= 12)


def test_an_away_person_is_played_for_and_gets_the_seat_back_between_two_actions(
    tmp_path: Path,
) -> None:
    # the stand-in thinks for two seconds, so the person's return falls inside its thinking:
    # the move it worked out is dropped and the seat waits on its person again
    with make_client(tmp_path / "a.sqlite", bot_delay=2.0) as client:
        people = ["Tess", "Ann", "Bo", "Cy"]
        table, socks, tokens = table_with(client, people, away_seconds=0.2)
        room = room_of(client, table)
        tess, ann = socks[0], socks[1]
        ann.close()
        others = {0: socks[0], 2: socks[2], 3: socks[3]}
        m = play(others, tess, lambda m: m["table"]["seats"][1]["away"])
        waiting = m["seq"]
        assert m["game"]["hand"]["turn"] == 1 and m["table"]["seats"][1]["kind"] == "human"
        heard(tess, lambda n: n.startswith("Ann is away; "))
        back = Socket(client, table)
        back.send(type="hello", token=tokens[1])
        assert back.until("welcome")["seat"] == 1
        m = back.until("state", lambda m: not m["table"]["seats"][1]["away"])
        assert m["seq"] == waiting and m["game"]["hand"]["legal"]
        heard(tess, lambda n: n == words.seat_back("Ann"))
        back.act(m, random.Random(0))
        after = back.until("state", lambda x: x["seq"] == waiting + 1)
        assert after["last"]["seat"] == 1 and room.seats[1].away is False
        no_hidden_tile(back, room, (1,))
        no_hidden_tile(tess, room, (0,))


def test_the_host_replaces_opens_and_passes_on_and_nobody_else_may(client: TestClient) -> None:
    table, (tess, ann, bo), tokens = table_with(client, ["Tess", "Ann", "Bo"])
    room = room_of(client, table)
    assert tess.state["table"]["host"] == 0
    for message in ({"type": "replace", "seat": 2}, {"type": "open", "seat": 3}):
        ann.send(**message)
        error = ann.until("error")
        assert error["code"] == "not-allowed" and "host" in error["message"]
    ann.send(type="settings", bot_level="easy")
    assert ann.until("error")["code"] == "not-allowed"
    # replace: the bot plays at once, Bo is told and watches, his token is spent
    tess.send(type="replace", seat=2)
    m = tess.until("state", lambda m: m["table"]["seats"][2]["kind"] == "bot")
    bot = m["table"]["seats"][2]["name"]
    heard(bo, lambda n: n == words.seat_replaced("Bo", f"{bot} (medium)", "South"))
    assert [m["seat"] for m in bo.log if m["type"] == "welcome"][-1] is None
    assert room.seats[2].digest is None and tokens[2] not in json.dumps(bo.log[-3:])
    # settings: the host's, checked
    tess.send(type="settings", bot_level="nobody")
    assert tess.until("error")["code"] == "bad-message"
    tess.send(type="settings", bot_level="easy", turn_seconds=0)
    tess.until("state", lambda m: m["table"]["bot_level"] == "easy")
    # open: during a game the bot plays on; a person who sits takes it as a new hand begins
    tess.send(type="open", seat=3)
    m = tess.until("state", lambda m: m["table"]["seats"][3]["open"])
    assert m["table"]["seats"][3]["kind"] == "bot"
    cy = Socket(client, table)
    cy.hello()
    cy.send(type="sit", seat=3, name="Cy")
    assert cy.until("seated")["seat"] == 3
    hand = m["game"]["hand_number"]
    start = play(
        {0: tess, 1: ann, 3: cy},
        tess,
        lambda m: m["table"]["seats"][3]["kind"] == "human" or bool(m["game"]["outcome"]),
    )
    # the seat changed hands where a hand begins: this one's first, or a later one's
    assert start["game"]["hand_number"] == hand or start["game"]["hand"]["calls"] == []
    mine = cy.until("state", lambda m: m["table"]["seats"][3]["kind"] == "human")
    assert mine["you"]["seat"] == 3 and mine["table"]["seats"][3]["name"] == "Cy"
    heard(tess, lambda n: n == words.seat_joined("Cy", "West"))
    # pass the host role; the old host is refused from then on
    tess.send(type="host", seat=1)
    tess.until("state", lambda m: m["table"]["host"] == 1)
    heard(bo, lambda n: n == words.host_passed("Ann"))
    tess.send(type="replace", seat=1)
    assert tess.until("error")["code"] == "not-allowed"
    no_hidden_tile(cy, room, (None, 3))
    no_hidden_tile(bo, room, (2,))


def test_the_host_leaving_passes_the_role_and_opening_in_the_lobby_empties_the_seat(
    client: TestClient,
) -> None:
    table = client.post("/api/tables", json={"name": "Lobby"}).json()["id"]
    tess, ann = Socket(client, table), Socket(client, table)
    for seat, (sock, name) in enumerate(((tess, "Tess"), (ann, "Ann"))):
        sock.hello()
        sock.send(type="sit", seat=seat, name=name)
        sock.until("seated")
    tess.send(type="bot", seat=2, level="medium")
    tess.until("state", lambda m: m["table"]["seats"][2]["kind"] == "bot")
    tess.send(type="open", seat=2)
    tess.until("state", lambda m: m["table"]["seats"][2]["kind"] == "empty")
    for seat in (2, 3):
        tess.send(type="bot", seat=seat, level="medium")
        tess.until("state", lambda m, s=seat: m["table"]["seats"][s]["kind"] == "bot")
    tess.send(type="start")
    tess.until("state", lambda m: m["game"] is not None)
    tess.send(type="leave", seat=0)
    m = ann.until("state", lambda m: m["table"]["seats"][0]["kind"] == "bot")
    assert m["table"]["host"] == 1
    ann.send(type="leave", seat=1)
    m = ann.until("state", lambda m: m["table"]["seats"][1]["kind"] == "bot")
    assert m["table"]["host"] is None and {s["kind"] for s in m["table"]["seats"]} == {"bot"}
    # a table of bots only plays itself to the end
    watch = Socket(client, table)
    watch.hello()
    final = watch.until("state", lambda m: bool(m["game"]["outcome"]))
    assert final["table"]["status"] == "over"


def test_the_turn_clock_shows_the_time_left_and_its_expiry_plays_one_action(
    client: TestClient,
) -> None:
    table, (tess,), _ = table_with(client, ["Tess"], turn_seconds=0.3)
    m = tess.next_turn()
    assert m["table"]["turn_seconds"] == 0.3
    assert m["turn_left"] is not None and 0 <= m["turn_left"] <= 0.3
    seq = m["seq"]
    played = tess.until("state", lambda x: x["seq"] == seq + 1)
    assert played["last"]["seat"] == 0 and played["table"]["seats"][0]["kind"] == "human"
    assert played["you"]["seat"] == 0
    heard(tess, lambda n: n.startswith("Time ran out for Tess; "))
    # a bot's turn has no clock
    room = room_of(client, table)
    bots_turn = [
        x for x in tess.log if x["type"] == "state" and x["game"] and x["game"]["hand"]["turn"] != 0
    ]
    assert bots_turn and all(x["turn_left"] is None for x in bots_turn)
    no_hidden_tile(tess, room, (0,))


def test_bad_settings_at_creation_are_refused(client: TestClient) -> None:
    for body in ({"bot_level": "nobody"}, {"away_seconds": 0}, {"turn_seconds": -1}):
        assert client.post("/api/tables", json=body).status_code in (400, 422)
    made = client.post("/api/tables", json={"bot_level": "easy", "away_seconds": 5}).json()
    summary = client.get(f"/api/tables/{made['id']}").json()
    assert summary["bot_level"] == "easy" and summary["away_seconds"] == 5
    assert summary["turn_seconds"] == 0


def test_a_restart_restores_who_holds_each_seat_who_is_away_and_the_host(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    with make_client(db, bot_delay=2.0) as client:
        table, socks, tokens = table_with(
            client, ["Tess", "Ann", "Bo", "Cy"], away_seconds=0.2, bot_level="easy"
        )
        tess, ann, bo, cy = socks
        bo.send(type="leave", seat=2)
        tess.until("state", lambda m: m["table"]["seats"][2]["kind"] == "bot")
        tess.send(type="host", seat=3)
        tess.until("state", lambda m: m["table"]["host"] == 3)
        ann.close()
        play({0: tess, 3: cy}, tess, lambda m: m["table"]["seats"][1]["away"])
        before = room_of(client, table)
        seats = [(s.kind, s.name, s.level, s.away) for s in before.seats]
        position = before.game.position() if before.game else None
    assert seats[2][0] == "bot" and seats[2][2] == "easy" and seats[1][3] is True
    with make_client(db, bot_delay=0.0) as client:
        room = room_of(client, table)
        assert [(s.kind, s.name, s.level, s.away) for s in room.seats] == seats
        assert room.host == 3 and room.bot_level == "easy" and room.away_seconds == 0.2
        # the stand-in may have played on in the moment before the stop
        assert room.game is not None and position is not None
        assert room.game.position().split()[:2] == position.split()[:2]
        # the away seat's bot plays on after the restart; Ann comes back with her token
        ann = Socket(client, table)
        ann.send(type="hello", token=tokens[1])
        assert ann.until("welcome")["seat"] == 1
        ann.until("state", lambda m: not m["table"]["seats"][1]["away"])
        bo = Socket(client, table)
        bo.send(type="hello", token=tokens[2])
        assert bo.until("welcome")["seat"] is None
