"""The web table's server in-process: the HTTP API, the WebSocket protocol, storage and secrecy."""

from __future__ import annotations

import contextlib
import json
import random
import re
import sqlite3
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from texas42.core import words
from texas42.core.actions import ACTIONS, action_words, parse_action_words
from texas42.core.errors import Texas42Error
from texas42.core.game import Game
from texas42.core.layout import layout_of
from texas42.core.reasons import Reason
from texas42.core.record import Record, check_record
from texas42.core.rules import Rules, piles_face_down
from texas42.core.tiles import TILE_NAMES, tiles_of
from texas42.faces.server import ServerSettings
from texas42.faces.server.events import (
    ActionEvent,
    BadEvent,
    LeaveEvent,
    SitEvent,
    StartEvent,
    read_event,
)
from texas42.faces.server.messages import MAX_MESSAGE_BYTES
from texas42.faces.server.outbound import SERVER_MESSAGES, Hand, State
from texas42.faces.server.payload import game_payload, seat_labels
from texas42.faces.server.room import BOT_FIRST_NAMES, Room, token_digest
from texas42.faces.server.storage import (
    FinishedGame,
    Storage,
    StoredEvent,
    StoredTable,
    check_database,
    database_url,
)
from webtest import (
    FAST,
    TILE_WORD,
    Socket,
    make_client,
    new_table,
    room_of,
    seat_with_bots,
    settle,
    tiles_in,
    visible_tiles,
)

# -- HTTP ---------------------------------------------------------------------------------------


def test_options_offer_presets_options_and_levels(client: TestClient) -> None:
    options = client.get("/api/options").json()
    assert options["presets"]["house"]["nello"] is True
    assert options["presets"]["standard"]["nello"] is False
    assert options["levels"] == ["easy", "medium", "hard", "expert"]
    by_name = {o["name"]: o for o in options["options"]}
    assert by_name["nello"]["kind"] == "bool" and by_name["nello"]["default"] is False
    assert by_name["all_pass"]["choices"] == ["forced", "reshake"]
    assert by_name["min_bid"]["kind"] == "int"
    assert options["options"][0]["common"] is True


def test_bad_rules_are_refused_with_the_reason(client: TestClient) -> None:
    response = client.post("/api/tables", json={"rules": "standard,nello=maybe"})
    assert response.status_code == 400
    assert "nello" in response.json()["detail"]
    assert client.post("/api/tables", json={"rules": "x" * 700}).status_code == 422
    assert client.post("/api/tables", json={"rules": "standard", "oops": 1}).status_code == 422


def test_unknown_tables_and_games_are_404(client: TestClient) -> None:
    assert client.get("/api/tables/nope").status_code == 404
    assert client.get("/api/tables/nope/games/1/record").status_code == 404
    assert client.get("/api/tables/nope/games/99999999999999999999/replay").status_code == 422
    table = new_table(client)
    assert client.get(f"/api/tables/{table}").json()["status"] == "lobby"
    with client.websocket_connect("/ws/nope") as ws:
        assert ws.receive_json()["code"] == "not-found"


# -- a whole game -------------------------------------------------------------------------------


def play_to_end(me: Socket, rng: random.Random) -> dict[str, Any]:
    """Act on every turn until the game is over; the last state."""
    while True:
        m = me.next_turn()
        if m["game"]["outcome"]:
            return m
        me.act(m, rng)


def test_a_whole_game_with_bots_then_history_record_replay_and_rematch(client: TestClient) -> None:
    table, me, _ = seat_with_bots(client)
    final = play_to_end(me, random.Random(1))
    outcome = final["game"]["outcome"]
    assert final["table"]["status"] == "over"
    assert max(outcome["score"]) >= 7 and outcome["score"][outcome["winner"]] >= 7
    history = client.get("/api/history").json()
    assert history[0]["table"] == table and history[0]["score"] == outcome["score"]
    assert history[0]["name"] == "Test" and "record" not in history[0]
    text = client.get(f"/api/tables/{table}/games/1/record").text
    report = check_record(Record.from_json(text))
    assert list(report.score) == outcome["score"] and report.winner == outcome["winner"]
    players = report.record.players
    assert players is not None and players[0] == "Tess"
    # each bot has a name of its own, and the table shows its level beside it
    assert len(set(players)) == 4 and set(players[1:]) <= set(BOT_FIRST_NAMES)
    assert [s["label"] for s in final["table"]["seats"]][1:] == [
        f"{p} (medium)" for p in players[1:]
    ]
    replay = client.get(f"/api/tables/{table}/games/1/replay").json()
    frames = replay["frames"]
    actions = sum(len(h.calls) + (h.contract is not None) + len(h.plays) for h in report.hands)
    assert len(frames) == actions + len(report.hands)
    assert all(
        sum(len(tiles) for tiles in f["hands"])
        + len(f["hand"]["trick"])
        + sum(len(t["plays"]) for t in f["hand"]["tricks"])
        == 28
        for f in frames
    )
    me.send(type="rematch")
    again = me.until("state", lambda m: m["table"]["game_number"] == 2)
    assert again["seq"] == 0 and again["table"]["status"] == "playing"
    assert client.get(f"/api/tables/{table}/games/2/record").status_code == 409


def test_imported_records_replay_or_give_their_error(client: TestClient) -> None:
    example = Path(__file__).parents[2] / "examples"
    record = example / "ex14-marks.json"
    response = client.post("/api/replay", content=record.read_bytes())
    assert response.status_code == 200, response.text
    assert response.json()["frames"][0]["caption"].startswith("Hand 1:")
    broken = client.post("/api/replay", content=b'{"format": "texas42", "version": 9}')
    assert broken.status_code == 400 and "version" in broken.json()["error"]
    assert client.post("/api/replay", content=b"not json").status_code == 400
    assert client.post("/api/replay", content=b"[" * 5000).json()["error"].endswith("too deeply")


# -- refusals -----------------------------------------------------------------------------------


def test_illegal_stale_duplicate_and_out_of_turn_actions_change_nothing(client: TestClient) -> None:
    table, me, _ = seat_with_bots(client)
    room = room_of(client, table)
    m = me.next_turn()
    seq, legal = m["seq"], [a["action"] for a in m["game"]["hand"]["legal"]]
    before = room.game.position() if room.game else ""
    for bad, code in (
        ("bid 29", "illegal"),
        ("play 9-9", "bad-message"),
        ("dance", "bad-message"),
    ):
        me.send(type="act", action=bad, seq=seq)
        error = me.until("error")
        assert error["code"] == code, error
        assert me.until("state")["seq"] == seq
    me.send(type="act", action=legal[0], seq=seq + 5)
    assert me.until("error")["code"] == "stale"
    assert room.game is not None and room.game.position() == before
    me.send(type="act", action=legal[0], seq=seq)
    me.until("state", lambda s: s["seq"] > seq)
    me.send(type="act", action=legal[0], seq=seq)  # the same message again
    assert me.until("error")["code"] == "stale"


def test_an_illegal_tile_is_explained(client: TestClient) -> None:
    for attempt in range(40):
        _table, me, _ = seat_with_bots(client)
        rng = random.Random(attempt)
        m = me.next_turn()
        while not (m["game"]["hand"]["phase"] == "play" and m["game"]["hand"]["illegal"]):
            if m["game"]["outcome"]:
                break
            me.act(m, rng)
            m = me.next_turn()
        else:
            tile, reason = next(iter(m["game"]["hand"]["illegal"].items()))
            me.send(type="act", action=f"play {tile}", seq=m["seq"])
            error = me.until("error")
            assert error["code"] == "illegal" and error["message"] == reason
            assert "must" in reason
            return
    raise AssertionError("no game gave an illegal tile to click")


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('{"type": "fly"}', "unknown message type"),
        ('{"seat": 1}', "needs a type"),
        ('{"type": "sit", "seat": 9, "name": "A"}', "seat"),
        ('{"type": "sit", "seat": "1", "name": "A"}', "seat"),
        ('{"type": "ping", "extra": 1}', "extra"),
        ('{"type": "act", "action": "pass"}', "seq"),
        ('{"type": "ping", "pad": "' + "x" * MAX_MESSAGE_BYTES + '"}', "too long"),
        ('{"type": "sit", "seat": 1, "name": "' + "é" * 2100 + '"}', "too long"),
        ("[" * 4000, "nested too deeply"),
    ],
)
def test_malformed_messages_are_refused(client: TestClient, raw: str, expected: str) -> None:
    table = new_table(client)
    sock = Socket(client, table)
    sock.hello()
    sock.ws.send_text(raw)
    error = sock.until("error")
    assert error["code"] == "bad-message" and expected in error["message"], error
    sock.send(type="ping")
    assert sock.until("pong")


def test_hello_comes_first_and_only_once(client: TestClient) -> None:
    table = new_table(client)
    sock = Socket(client, table)
    sock.send(type="ping")
    assert sock.until("error")["message"] == "say hello first"
    sock.hello()
    sock.send(type="hello")
    assert "already joined" in sock.until("error")["message"]
    # a program need not wait for the welcome: what it sends behind its hello is taken after it
    eager = Socket(client, table)
    eager.send(type="hello")
    eager.send(type="sit", seat=1, name="Bob")
    assert eager.until("seated")["seat"] == 1
    assert not [m for m in eager.log if m["type"] == "error"]


def test_the_rate_limit_refuses_floods(tmp_path: Path) -> None:
    # a bucket that refills too slowly to matter here: the burst passes, the rest is refused
    with make_client(tmp_path / "r.sqlite", message_rate=0.001, message_burst=20.0) as c:
        sock = Socket(c, new_table(c))
        sock.hello()  # the first of the 20
        for _ in range(40):
            sock.send(type="ping")
        replies = [sock.recv() for _ in range(40)]
        pongs = [r for r in replies if r["type"] == "pong"]
        refusals = [r for r in replies if r["type"] == "error"]
        assert len(pongs) == 19 and len(refusals) == 21
        assert all(
            r == {"type": "error", "message": "too many messages: slow down", "code": "rate"}
            for r in refusals
        )


def test_lobby_rules(client: TestClient) -> None:
    table = new_table(client)
    a, b = Socket(client, table), Socket(client, table)
    a.hello()
    b.hello()
    b.send(type="bot", seat=1, level="easy")
    assert b.until("error")["message"] == "take a seat first"
    a.send(type="sit", seat=0, name="  Ann   Lee ")
    a.until("seated")
    assert a.until("state")["table"]["seats"][0]["name"] == "Ann Lee"
    b.send(type="sit", seat=0, name="Bob")
    assert b.until("error")["message"] == "seat 0 is taken"
    b.send(type="sit", seat=2, name="Bob")
    b.until("seated")
    a.send(type="start")
    assert "every seat" in a.until("error")["message"]
    a.send(type="leave", seat=2)
    assert a.until("error")["message"] == "only the player in a seat can give it up"
    a.send(type="bot", seat=1, level="easy")
    a.send(type="bot", seat=3, level="hard")
    a.until("state", lambda m: m["table"]["seats"][3]["kind"] == "bot")
    a.send(type="leave", seat=3)
    a.until("state", lambda m: m["table"]["seats"][3]["kind"] == "empty")
    b.send(type="sit", seat=3, name="Again")
    assert b.until("error")["message"] == "you already have a seat at this table"


# -- reconnecting, spectators, origins -----------------------------------------------------------


def test_a_reconnecting_player_gets_the_seat_and_a_full_resync(client: TestClient) -> None:
    table, me, token = seat_with_bots(client)
    m = me.next_turn()
    me.close()
    again = Socket(client, table)
    assert again.hello(token)["seat"] == 0
    assert again.state["game"] == m["game"] and again.state["seq"] == m["seq"]
    stranger = Socket(client, table)
    stranger.send(type="hello", token="not-a-token")
    assert stranger.until("error")["code"] == "not-allowed"
    assert stranger.until("welcome")["seat"] is None


def test_spectators_see_no_hand_and_cannot_act(client: TestClient) -> None:
    table, me, _ = seat_with_bots(client)
    m = me.next_turn()
    watcher = Socket(client, table)
    watcher.hello()
    hand = watcher.state["game"]["hand"]
    assert hand["tiles"] == [] and hand["legal"] == [] and hand["illegal"] == {}
    watcher.send(type="act", action=m["game"]["hand"]["legal"][0]["action"], seq=m["seq"])
    assert "spectators" in watcher.until("error")["message"]
    watcher.send(type="hint")
    assert watcher.until("error")["code"] == "not-allowed"


def test_websockets_from_other_origins_are_refused(tmp_path: Path) -> None:
    with make_client(
        tmp_path / "o.sqlite", allowed_origins=("https://friend.example",), hosts=("testserver",)
    ) as c:
        table = new_table(c)
        from starlette.websockets import WebSocketDisconnect

        with pytest.raises(WebSocketDisconnect):
            Socket(c, table, origin="https://evil.example").hello()
        Socket(c, table, origin="http://testserver").hello()
        Socket(c, table, origin="https://friend.example").hello()


# -- hints and reviews --------------------------------------------------------------------------


def test_hints_and_the_review_of_a_finished_hand(client: TestClient) -> None:
    _table, me, _ = seat_with_bots(client)
    m = me.next_turn()
    me.send(type="hint")
    hints = me.until("hints")
    legal = {a["action"] for a in m["game"]["hand"]["legal"]}
    assert {h["action"] for h in hints["hints"]} == legal
    fact = "|".join(
        (
            r"\d+% to (make|set)( \(\d+% if it stands\))?",
            r"the bidders take [\d.]+ points on average",
        )
        + (r"-?[\d.]+ marks expected", "no estimate")
    )
    # the expert's choice among them, and why, whole: the asking seat's own reason
    assert hints["choice"] in {h["action"] for h in hints["hints"]}
    assert hints["reason"] and hints["reason"].isprintable()
    for hint in hints["hints"]:  # in words, those of core.words (its doctests pin them)
        assert all(re.fullmatch(fact, f) for f in hint["text"].split(" · ")), hint["text"]
        assert hint["chance"] is None or hint["text"].startswith(f"{round(hint['chance'] * 100)}")
    rng = random.Random(3)
    me.send(type="review", hand=1)
    assert "not finished" in me.until("error")["message"]
    while True:
        m = me.next_turn()
        if m["game"]["hand_number"] > 1 or m["game"]["outcome"]:
            break
        me.act(m, rng)
    me.send(type="review", hand=1)
    review = me.until("review")
    assert review["hand"] == 1 and all(p["seat"] == 0 for p in review["plays"])
    assert all(b["seat"] == 0 for b in review["bids"])
    assert set(review["mistakes"]) <= {p["index"] for p in review["plays"]}
    if m["game"]["last_hand"]["contract"] is not None:
        assert review["plays"], "North played in hand 1, so it has plays to review"
    # each play and bid in words, North's as "your", its trick the one it was played to
    tricks = m["game"]["last_hand"]["tricks"]
    unit = "trick" if review["unit"] == "tricks" else "point"
    for play in review["plays"]:
        trick = next(
            k for k, t in enumerate(tricks, 1) if {"seat": 0, "tile": play["tile"]} in t["plays"]
        )
        assert play["text"] == words.play_review_line(
            "You", trick, play["tile"], play["best"], play["cost"], unit
        )
    for bid in review["bids"]:
        said = words.contract_said(bid["contract"])
        assert bid["text"].startswith(f"Your bid {bid['bid']} ({said}) makes in ")
    # the line the browser shows when no play cost anything, null when one did
    clean = words.no_costly_plays(len(review["plays"]), "You")
    assert review["no_costly_line"] == (None if review["mistakes"] else clean)


def test_a_hints_words_say_the_figures_it_sends(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chance of 0.26504 is sent as 0.265: its words say 26%, as the figure sent does, not the
    27% of the figure before rounding."""
    from texas42.players import hints

    def judged(view: Any, *, samples: int, seed: int) -> hints.Advice:
        hint = hints.Hint(view.legal[0], 0.26504, 28.504999, 0.1234999, 0.31499)
        return hints.Advice([hint], view.legal[0], Reason("the whole reason", "the public one"))

    monkeypatch.setattr(hints, "advise", judged)
    _table, me, _ = seat_with_bots(client)
    me.next_turn()
    me.send(type="hint")
    sent = me.until("hints")
    (hint,) = sent["hints"]
    assert sent["reason"] == "the whole reason"  # the asking seat's own: whole, not public
    assert (hint["chance"], hint["points"], hint["marks"]) == (0.265, 28.5, 0.123)
    assert (
        hint["text"]
        == "26% to make (32% if it stands) · the bidders take 28.5 points on average · 0.12 "
        "marks expected"
    )


# -- the words the browser shows ---------------------------------------------------------------

NELLO = Rules.parse("standard,nello,nello_min_marks=1")
NAMES = ["Ann", "Bob", "Cat", "Dan"]


def nello_game(seed: int) -> Game:
    """A game whose first hand North bids 1m and plays as Nel-O, every seat playing its first
    legal tile, until the hand is over."""
    game = Game(NELLO, seed)
    while not game.results:
        legal = game.legal_actions()
        turn = game.seat_to_act()
        words = [action_words(a) for a in legal]
        if "bid 1m" in words and turn == 0:
            action = legal[words.index("bid 1m")]
        elif "pass" in words:
            action = legal[words.index("pass")]
        else:
            nello = [a for a, w in zip(legal, words) if w.startswith("declare nello")]
            action = nello[0] if nello else legal[0]
        game.apply(action)
    return game


def sentences_of(hand: Hand) -> list[str]:
    """Every sentence a hand payload carries."""
    said = [
        hand.shaker_line,
        hand.contract_line,
        *hand.piles,
        *hand.result_lines,
        *(t.taken for t in hand.tricks),
    ]
    return [*said, *(role for roles in hand.roles for role in roles), hand.headline or ""]


def test_the_payload_says_what_words_make_of_each_seats_view() -> None:
    def took_of_played(game: Game) -> tuple[int, int]:
        tricks = game.hands[0].tricks
        return sum(game.layout.side_of[t.winner] == 0 for t in tricks), len(tricks)

    seed = next(s for s in range(200) if 0 < (n := took_of_played(nello_game(s)))[0] < n[1])
    game = nello_game(seed)
    nello = game.hands[0]
    result = nello.result
    assert result is not None and nello.contract is not None and nello.contract.kind == "nello"
    took, played = took_of_played(game)
    expected_line = f"North-South took {words.plural(took, 'trick')} of the {played} played"
    for seat in [*range(4), None]:
        seats = () if seat is None else (seat,)
        payload = game_payload(game, seats, NAMES)
        view = game.view(0 if seat is None else seat)
        ended = nello.view(0 if seat is None else seat, game.start_score, 1)
        hand, last = payload.hand, payload.last_hand
        assert last is not None and last.number == 1
        assert hand.contract_line == words.contract_line(view, NAMES)
        assert hand.shaker_line == words.shaker_line(NAMES[game.hand.shaker])
        assert last.shaker_line == f"{NAMES[nello.shaker]} shakes."
        assert hand.roles == [words.seat_roles(view, s, seats) for s in range(4)]
        assert hand.piles == [words.pile_line(view, side) for side in range(2)]
        assert last.contract_line == words.contract_line(ended, NAMES)
        assert "Nel-O" in last.contract_line and "Cat sits out" in last.contract_line
        assert last.headline == words.hand_headline(ended, result)
        assert last.result_lines == words.hand_result_lines(ended, result)
        assert expected_line in last.result_lines
        assert [t.taken for t in last.tricks] == [
            words.trick_taken(NAMES[t.winner], k, t.points) for k, t in enumerate(nello.tricks, 1)
        ]
        assert last.roles[2][-1] == "sits out"
        partners = [s for s in range(4) if "partner" in last.roles[s]]
        assert partners == ([] if seat is None else [(seat + 2) % 4])
    while not game.is_over():
        game.apply(game.legal_actions()[0])
    outcome = game.outcome()
    assert outcome is not None
    over = game_payload(game, (1,), NAMES)
    assert over.over_line == words.game_over_line(NELLO, outcome)


def test_at_moon_the_sentences_name_each_side_by_its_player() -> None:
    """In Moon each player is a side, so a result names the player ("Ann made it"), never the
    compass the player sits at, as every other sentence already does."""
    rules = Rules.parse("moon,target=5")
    players = ["Ann", "Bob", "Cat"]
    game = Game(rules, 3)
    rng = random.Random(3)
    compass = re.compile(r"\b(North|East|West|South)\b")
    results = 0
    while not game.is_over():
        hands = len(game.hands)
        game.apply(rng.choice(game.legal_actions()))
        if len(game.hands) == hands and not game.is_over():
            continue  # the hand goes on: its sentences are checked when it ends
        for seat in [*range(3), None]:
            payload = game_payload(game, () if seat is None else (seat,), players)
            told = [payload.over_line or ""]
            for shown in (payload.hand, payload.last_hand):
                if shown is not None:
                    told += sentences_of(shown)
            assert not [line for line in told if compass.search(line)], (seat, told)
            last = payload.last_hand
            if last is not None and last.result is not None and last.bidder is not None:
                said = [f"{players[last.bidder]} {v}" for v in ("made it", "went set")]
                assert last.headline in said
                scored = [line for line in last.result_lines if line.startswith("Scored: ")]
                assert scored and any(name in scored[0] for name in players), last.result_lines
                results += 1
    over = game_payload(game, (), players).over_line
    assert over is not None, "the game is over"
    assert re.search(r": (Ann|Bob|Cat) wins; Ann -?\d+, Bob -?\d+, Cat -?\d+$", over), over
    assert results, "the game should finish a bid hand"


def test_the_news_of_an_action_and_the_replay_captions_are_said_by_words(
    client: TestClient,
) -> None:
    table, me, _ = seat_with_bots(client)
    m = me.next_turn()
    me.act(m, random.Random(0))
    after = me.until("state", lambda s: s["last"] is not None and s["last"]["seat"] == 0)
    room = room_of(client, table)
    assert room.labels() == ["Tess", *(seat.name for seat in room.seats[1:])]
    assert len(set(room.labels())) == 4 and "Medium bot" not in room.labels()
    action = parse_action_words(after["last"]["action"], room.rules)
    assert after["last"]["text"] == words.action_said("Tess", action)
    example = Path(__file__).parents[2] / "examples" / "ex14-marks.json"
    frames = client.post("/api/replay", content=example.read_bytes()).json()["frames"]
    record = Record.from_json(example.read_text())
    names = seat_labels(layout_of(record.rules), record.players or ())
    first = check_record(record).hands[0]
    call = first.calls[0]
    assert frames[1]["caption"] == words.action_said(names[first.first_bidder], ACTIONS[call])


# -- hidden information -------------------------------------------------------------------------


@pytest.mark.parametrize("rules, seed", [("standard", 5), ("house,hide_tricks=mark-bids", 6)])
def test_no_message_shows_a_tile_its_recipient_could_not_see(
    client: TestClient, rules: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        "texas42.faces.server.room.secrets.randbits", lambda bits: seed
    )  # the deals
    table = new_table(client, rules)
    players = [Socket(client, table) for _ in range(4)]
    watcher = Socket(client, table)
    tokens = []
    for seat, sock in enumerate(players):
        sock.hello()
        sock.send(type="sit", seat=seat, name=f"P{seat}")
        tokens.append(sock.until("seated")["token"])
    watcher.hello()
    players[0].send(type="start")
    players[0].until("state", lambda m: m["game"] is not None)
    room = room_of(client, table)
    rng = random.Random(seed)
    everyone: list[tuple[Socket, int | None]] = [(s, k) for k, s in enumerate(players)]
    everyone.append((watcher, None))
    checked = said = 0
    face_down = hidden_results = 0
    for seq in range(2000):
        for sock, seat in everyone:
            if not (sock.state.get("seq") == seq and sock.state["game"] is not None):
                sock.until("state", lambda m, seq=seq: m["seq"] == seq and m["game"] is not None)
            game = room.game  # every seat has the state of this seq, so the server is idle
            assert game is not None and room.seq == seq
            allowed = visible_tiles(game, seat)
            for message in sock.log:
                text = json.dumps(message)
                typed = SERVER_MESSAGES.validate_python(message)
                shown = set(TILE_WORD.findall(text)) | tiles_in(typed)
                assert shown <= allowed, (seat, shown - allowed, message)
                if isinstance(typed, State) and typed.game is not None and typed.seq == seq:
                    hand = typed.game.hand
                    own = game.hand.hands[seat] if seat is not None else 0
                    assert sorted(hand.tiles) == sorted(TILE_NAMES[t] for t in tiles_of(own))
                    assert hand.widow == [] and set(hand.illegal) <= set(hand.tiles)
                    view = game.view(0 if seat is None else seat)
                    assert hand.contract_line == words.contract_line(view, room.labels())
                    mine = () if seat is None else (seat,)
                    assert hand.roles == [words.seat_roles(view, s, mine) for s in range(4)]
                    told = [*sentences_of(hand), typed.game.over_line or ""]
                    if typed.last is not None:
                        told.append(typed.last.text)
                    for shown_hand in (hand, typed.game.last_hand):
                        if shown_hand is None:
                            continue
                        told += sentences_of(shown_hand)
                        if shown_hand.points is None:  # piles face down: no count is told
                            assert not any("point" in said for said in sentences_of(shown_hand))
                            # and only while the hand goes on: a finished one turns them up
                            assert shown_hand.result is None, (seat, shown_hand.result)
                        elif shown_hand.result is not None and piles_face_down(
                            room.rules, shown_hand.bid_marks
                        ):
                            plays = [p for t in shown_hand.tricks for p in t.plays]
                            assert all(p.tile is not None for p in plays), shown_hand.tricks
                            hidden_results += 1
                    assert set(TILE_WORD.findall(" ".join(told))) <= allowed, (seat, told)
                    said += len(told)
                assert not any(
                    t in text for t in tokens if t != (tokens[seat] if seat is not None else None)
                )
                checked += 1
            sock.log.clear()
        if game.is_over():
            break
        face_down += game.hand.tricks_hidden
        turn = game.seat_to_act()
        assert turn is not None
        state = players[turn].state
        players[turn].send(
            type="act", action=rng.choice(state["game"]["hand"]["legal"])["action"], seq=seq
        )
    assert room.game is not None and room.game.is_over() and checked >= 5 * seq and seq > 40
    assert said > 20 * seq, "every state told its sentences"
    if rules.startswith("house"):
        assert face_down, "the seed should reach a hand whose piles lie face down"
        assert hidden_results, "and the end of such a hand, its piles turned up"


# -- storage ------------------------------------------------------------------------------------


def storage_urls(tmp_path: Path, pg_url: str) -> list[str]:
    """An SQLite file and a database of the tests' throwaway PostgreSQL (tests/pg.py)."""
    return [database_url(str(tmp_path / "s.sqlite")), database_url(pg_url)]


def test_storage_keeps_events_in_order_and_finished_games(tmp_path: Path, pg_url: str) -> None:
    for url in storage_urls(tmp_path, pg_url):
        storage = Storage(url)
        try:
            table = f"t{random.getrandbits(32):x}"
            storage.create_table(table, "Friday", "house")
            storage.append(table, 0, SitEvent(seat=0, name="A", digest="d"))
            storage.append(table, 1, StartEvent(game=1, seed=9), status="playing")
            finished = FinishedGame(
                table, 1, "house", ("A", "B", "C", "D"), (7, 3), 0, 1e9 + 1, "{}"
            )
            storage.append(
                table,
                2,
                ActionEvent(game=1, seat=0, action="pass"),
                status="over",
                finished=finished,
            )
            stored = storage.load_table(table)
            assert stored is not None and stored.status == "over" and stored.name == "Friday"
            assert [e.kind for e in stored.events] == ["sit", "start", "action"]
            assert json.loads(stored.events[1].data) == {"game": 1, "seed": 9}
            event = stored.events[2]
            assert read_event(table, event.seq, event.kind, event.data) == ActionEvent(
                game=1, seat=0, action="pass"
            )
            assert storage.finished_game(table, 1) == finished
            assert table not in {t.id for t in storage.open_tables()}
            with pytest.raises(sa.exc.IntegrityError):
                storage.append(table, 2, LeaveEvent(seat=1))  # a seq is written once
            assert len(storage.load_table(table).events) == 3  # type: ignore[union-attr]
        finally:
            storage.close()


def old_log(rules: Rules, seed: int) -> tuple[list[tuple[str, dict[str, Any]]], Game]:
    """A table's events as the server has always written them, (kind, data) rows: Ann at North,
    bots elsewhere, and the game played by first legal actions until it is North's turn again."""
    rows: list[tuple[str, dict[str, Any]]] = [
        ("sit", {"seat": 0, "name": "Ann", "digest": token_digest("ann-token")})
    ]
    rows += [("bot", {"seat": s, "level": "medium", "name": "Medium bot"}) for s in (1, 2, 3)]
    rows.append(("start", {"game": 1, "seed": seed}))
    game = Game(rules, seed)
    while len(rows) < 12 or game.seat_to_act() != 0:
        seat = game.seat_to_act()
        action = game.legal_actions()[0]
        rows.append(("action", {"game": 1, "seat": seat, "action": action_words(action)}))
        game.apply(action)
    return rows, game


def write_rows(db: Path, table: str, rows: list[tuple[str, dict[str, Any]]]) -> None:
    """Rows written with plain SQL and ``json.dumps``, as the server wrote them before events
    had classes."""
    Storage(database_url(str(db))).close()
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        conn.execute(
            "INSERT INTO tables (id, name, rules, status, created, updated)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (table, "Old", "standard", "playing", 1.0, 1.0),
        )
        conn.executemany(
            "INSERT INTO events VALUES (?, ?, ?, ?, ?)",
            [(table, seq, kind, json.dumps(data), 1.0) for seq, (kind, data) in enumerate(rows)],
        )


def test_a_log_written_before_events_had_classes_restores_unchanged(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    rows, game = old_log(Rules(), 42)
    write_rows(db, "oldtable", rows)
    with make_client(db) as c:
        room = room_of(c, "oldtable")
        assert room.game is not None and room.game.position() == game.position()
        assert [s.name for s in room.seats] == ["Ann", "Medium bot", "Medium bot", "Medium bot"]
        assert room.seq == len(rows) - 5 and room.next_event == len(rows)
        ann = Socket(c, "oldtable")
        assert ann.hello("ann-token")["seat"] == 0
        turn = ann.next_turn()
        ann.act(turn, random.Random(1))
        # the state right after Ann's action (bots may already have played on from it)
        assert ann.until("state", lambda m: m["seq"] == turn["seq"] + 1)["last"]["seat"] == 0
    stored = Storage(database_url(str(db)))
    try:
        table = stored.load_table("oldtable", snapshot=False)
        assert table is not None
        assert [(e.kind, json.loads(e.data)) for e in table.events[: len(rows)]] == rows
        new = table.events[len(rows)]
        assert new.kind == "action" and list(json.loads(new.data)) == ["game", "seat", "action"]
    finally:
        stored.close()


@pytest.mark.parametrize(
    "kind, data, expected",
    [
        ("deal", '{"seat": 0}', "event 5: unknown kind 'deal'"),
        ("bot", "{not json", "event 5 (bot): its data is not JSON"),
        ("bot", "[1, 2]", "event 5 (bot): its data is not an object of fields"),
        ("bot", '{"seat": 1, "level": "easy"}', "event 5 (bot): name: Field required"),
        ("leave", '{"seat": "1"}', "event 5 (leave): seat: Input should be a valid integer"),
        ("leave", '{"seat": 1, "why": "x"}', "event 5 (leave): why: Extra inputs"),
        ("sit", '{"seat": 5, "name": "X", "digest": "d"}', "event 5 (sit): this table has seats"),
        ("action", '{"game": 1, "seat": 0, "action": "bid 31"}', "event 5 (action): seat 0 acted"),
        ("action", '{"game": 2, "seat": 1, "action": "bid 31"}', "an action of game 2 in game 1"),
        ("action", '{"game": 1, "seat": 1, "action": "bid 99"}', "event 5 (action): "),
        ("action", '{"game": 1, "seat": 1, "action": "play 6-6"}', "event 5 (action): "),
    ],
)
def test_a_stored_event_the_server_cannot_take_is_refused_by_table_and_number(
    tmp_path: Path, kind: str, data: str, expected: str
) -> None:
    rows, _ = old_log(Rules(), 42)
    events = [StoredEvent(seq, k, json.dumps(d)) for seq, (k, d) in enumerate(rows[:5])]
    events.append(StoredEvent(5, kind, data))
    storage = Storage(database_url(str(tmp_path / "bad.sqlite")))
    try:
        stored = StoredTable("broken", "Broken", "standard", "playing", tuple(events))
        with pytest.raises(BadEvent) as refused:
            Room.restore(stored, storage, ServerSettings(**FAST))
        assert str(refused.value).startswith("table broken, event 5")
        assert expected in str(refused.value)
    finally:
        storage.close()


def test_a_table_with_a_broken_log_is_left_out_and_the_others_restore(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "mixed.sqlite"
    rows, game = old_log(Rules(), 42)
    write_rows(db, "good", rows)
    write_rows(db, "bad", [*rows[:5], ("action", {"game": 1, "seat": 9, "action": "pass"})])
    with caplog.at_level("ERROR", "texas42.faces.server"), make_client(db) as c:
        assert c.get("/api/tables/bad").status_code == 404  # tables are loaded when visited
        assert "not restored: table bad, event 5 (action): seat: " in caplog.text
        assert room_of(c, "good").game.position() == game.position()  # type: ignore[union-attr]
        assert "bad" not in c.app.state.tables.rooms  # type: ignore[attr-defined]


def test_database_urls() -> None:
    assert database_url("/x/y.sqlite") == "sqlite:////x/y.sqlite"
    assert database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("postgres://u:pw@h:5432/db") == "postgresql+psycopg://u:pw@h:5432/db"
    assert database_url("POSTGRES://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("sqlite:///z") == "sqlite:///z"


def test_a_postgres_url_reaches_postgresql_not_an_sqlalchemy_error() -> None:
    """SQLAlchemy has no ``postgres`` dialect; read as PostgreSQL, the URL fails only for what
    is really wrong here: no psycopg, or nobody listening on port 1."""
    with pytest.raises(Texas42Error) as caught:
        check_database(database_url("postgres://u@127.0.0.1:1/db"))
    assert "Can't load plugin" not in str(caught.value)
    assert "postgres" in str(caught.value).lower()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--port", "0"], "--port: a port is 1..65535"),
        (["--bot-delay", "-1"], "--bot-delay: seconds from 0 to 60"),
        (["--db", "foo://x"], "--db: cannot use 'foo://x'"),
        (["--db", "mysql://u@h/d"], "--db: mysql is not supported"),
        (["--db", "/proc/nope/x.sqlite"], "--db: cannot open sqlite:////proc/nope/x.sqlite"),
        (["--create-per-minute", "0"], "--create-per-minute: above 0, at most 10000"),
        (["--create-burst", "0"], "--create-burst: 1 to 100000"),
        (["--lobby-expiry", "0"], "--lobby-expiry: seconds from 1 to a year"),
        (["--snapshot-events", "5"], "--snapshot-events: 10 to 1000000"),
    ],
)
def test_serve_refuses_bad_arguments_before_starting(args: list[str], message: str) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "texas42", "serve", *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_outside_engines_sit_as_bots_and_a_failing_one_gives_way(tmp_path: Path) -> None:
    import shlex
    import sys

    python = shlex.quote(sys.executable)
    engines = (
        ("Ours", f"{python} -m texas42.services.protocol.engine --bot rules"),
        (
            "Broken",
            f"{python} -c 'import sys; sys.stderr.write(\"my hand 6-6 5-5\\n\"); sys.exit(3)'",
        ),
    )
    with make_client(tmp_path / "e.sqlite", engines=engines) as c:
        assert c.get("/api/options").json()["levels"][-2:] == ["Ours", "Broken"]
        table = new_table(c)
        me = Socket(c, table)
        me.hello()
        me.send(type="sit", seat=0, name="Tess")
        me.until("seated")
        me.send(type="bot", seat=1, level="Nobody")
        assert "no bot level 'Nobody'" in me.until("error")["message"]
        for seat, level in ((1, "Ours"), (2, "medium"), (3, "Broken")):
            me.send(type="bot", seat=seat, level=level)
            me.until("state", lambda m, s=seat: m["table"]["seats"][s]["kind"] == "bot")
        assert [s["name"] for s in me.state["table"]["seats"]] == [
            "Tess",
            "Ours",
            room_of(c, table).seats[2].name,
            "Broken",
        ]
        me.send(type="start")
        rng = random.Random(4)
        while True:
            m = me.next_turn()
            if m["game"]["hand_number"] > 1 or m["game"]["outcome"]:
                break
            me.act(m, rng)
        notices = [n["message"] for n in me.log if n["type"] == "notice"]
        assert notices == ["Broken failed (crashed); a medium bot plays its seat now"]
        seats = [call["seat"] for call in m["game"]["last_hand"]["calls"]]
        assert sorted(seats) == [0, 1, 2, 3]


def test_a_table_whose_engine_is_gone_restores_with_a_medium_bot(tmp_path: Path) -> None:
    import shlex
    import sys

    db = tmp_path / "gone.sqlite"
    engines = (
        ("Ours", f"{shlex.quote(sys.executable)} -m texas42.services.protocol.engine --bot rules"),
    )
    with make_client(db, engines=engines) as c:
        table = new_table(c)
        me = Socket(c, table)
        me.hello()
        me.send(type="sit", seat=0, name="Tess")
        token = me.until("seated")["token"]
        for seat, level in ((1, "Ours"), (2, "medium"), (3, "easy")):
            me.send(type="bot", seat=seat, level=level)
            me.until("state", lambda m, s=seat: m["table"]["seats"][s]["kind"] == "bot")
    with make_client(db) as c:
        me = Socket(c, table)
        me.hello(token)
        me.send(type="start")
        m = me.until("state", lambda m: m["game"] is not None)
        assert m["table"]["seats"][1]["name"] == "Ours"
        rng = random.Random(2)
        while m["game"]["hand_number"] == 1:
            me.act(me.next_turn(), rng)
            m = me.next_turn()


def test_idle_tables_leave_memory_and_come_back_from_their_log(tmp_path: Path) -> None:
    with make_client(tmp_path / "idle.sqlite", idle_seconds=0.0) as c:
        table, me, token = seat_with_bots(c)
        m = me.next_turn()
        tables = c.app.state.tables  # type: ignore[attr-defined]
        assert c.portal.call(tables.evict_idle) == 0, "a table with a socket stays"
        me.close()
        for _ in range(200):  # the table's task handles the socket's end first
            c.portal.call(tables.evict_idle)
            if table not in tables.rooms:
                break
            time.sleep(0.01)
        assert table not in tables.rooms
        again = Socket(c, table)
        assert again.hello(token)["seat"] == 0
        assert again.state["game"] == m["game"] and table in tables.rooms


# -- every table size ---------------------------------------------------------------------------


def test_the_lobby_offers_every_table_size(client: TestClient) -> None:
    options = client.get("/api/options").json()
    by_players: dict[int, list[str]] = {}
    for choice in options["tables"]:
        by_players.setdefault(choice["players"], []).append(choice["rules"])
    assert by_players == {
        2: ["two-hand"],
        3: ["three-hand", "moon"],
        4: ["standard"],
        5: ["five-hand"],
        6: ["six-hand", "six-hand,teams=threes"],
        7: ["seven-hand"],
    }
    assert [c["rules"] for c in options["tables"] if c["default"]] == [
        "two-hand",
        "three-hand",
        "standard",
        "five-hand",
        "six-hand",
        "seven-hand",
    ]
    assert options["bots"] == ["random", "rules", "pimc", "eq10", "expert@1"]
    assert options["presets"]["moon"]["seats"] == 3 and options["presets"]["moon"]["widow"] == 1


@pytest.mark.parametrize(
    "rules, seats, sides",
    [
        ("three-hand", 3, 3),
        ("moon", 3, 3),
        ("five-hand", 5, 5),
        ("six-hand", 6, 3),
        ("six-hand,teams=threes", 6, 2),
        ("seven-hand", 7, 7),
        ("two-hand", 4, 2),
    ],
)
def test_a_table_has_the_seats_and_sides_of_its_rules(
    client: TestClient, rules: str, seats: int, sides: int
) -> None:
    table = new_table(client, rules)
    me = Socket(client, table)
    me.hello()
    shown = me.state["table"]
    assert len(shown["seats"]) == seats and shown["layout"]["seats"] == seats
    assert len(shown["layout"]["side_names"]) == sides
    assert [s["side"] for s in shown["seats"]] == shown["layout"]["side_of"]
    side_of = shown["layout"]["side_of"]
    mates = [
        [other for other, its in enumerate(side_of) if its == side and other != seat]
        for seat, side in enumerate(side_of)
    ]
    # a seat without one partner has null for its partner, not -1
    assert shown["layout"]["partner"] == [m[0] if len(m) == 1 else None for m in mates]
    if seats < 7:
        me.send(type="sit", seat=seats, name="Nobody")
        assert me.until("error")["message"] == f"this table has seats 0 to {seats - 1}"


def play_out(
    client: TestClient, rules: str, level: str, seed: int
) -> tuple[str, Socket, dict[str, Any]]:
    """A whole game at a table of these rules: the test at North, bots elsewhere."""
    table, me, _ = seat_with_bots(client, rules, level)
    return table, me, play_to_end(me, random.Random(seed))


@pytest.mark.parametrize(
    "rules, level", [("three-hand", "easy"), ("moon", "medium"), ("six-hand", "easy")]
)
def test_whole_games_at_other_table_sizes_with_bots(
    client: TestClient, rules: str, level: str
) -> None:
    table, me, final = play_out(client, rules, level, 11)
    game = final["game"]
    layout = final["table"]["layout"]
    outcome = game["outcome"]
    assert len(game["score"]) == len(outcome["score"]) == layout["sides"]
    assert outcome["score"][outcome["winner"]] >= game["target"]
    assert not [m for m in me.log if m["type"] == "notice"], "no bot failed"
    calls = [m["game"]["hand"]["calls"] for m in me.log if m["type"] == "state" and m["game"]]
    assert max(len(c) for c in calls) == layout["seats"]
    text = client.get(f"/api/tables/{table}/games/1/record").text
    report = check_record(Record.from_json(text))
    assert json.loads(text).get("seats") == layout["seats"]
    assert list(report.score) == outcome["score"] and len(report.record.players) == layout["seats"]
    mine = [g for g in client.get("/api/history").json() if g["table"] == table]  # other tables'
    assert mine[0]["score"] == outcome["score"]  # bots may finish games meanwhile
    replay = client.get(f"/api/tables/{table}/games/1/replay").json()
    assert replay["layout"] == layout
    in_play = 28 - len(Rules.parse(rules).removed.split("+")) if Rules.parse(rules).removed else 28
    for frame in replay["frames"]:
        hand = frame["hand"]
        shown = (
            [tile for tiles in frame["hands"] for tile in tiles]
            + [p["tile"] for p in hand["trick"]]
            + [p["tile"] for t in hand["tricks"] for p in t["plays"]]
            + hand["discards"]
        )
        if hand["phase"] == "auction" or hand["bidder"] is None:  # the widow untaken (all passed)
            shown += hand["widow"]
        assert len(shown) == len(set(shown)) == in_play - _aside(rules)


def _aside(rules: str) -> int:
    from texas42.core.layout import layout_of

    return layout_of(Rules.parse(rules)).set_aside


def test_moon_bids_tricks_takes_the_widow_and_discards_before_trump(client: TestClient) -> None:
    table, me, _ = seat_with_bots(client, "moon", "medium")
    rng = random.Random(2)
    seen_bids: set[str] = set()
    discarded = False
    while not discarded:
        m = me.next_turn()
        hand = m["game"]["hand"]
        assert not m["game"]["outcome"], "North should win a bid before the game ends"
        if hand["phase"] == "auction":
            seen_bids |= {a["label"] for a in hand["legal"]}
            bids = [a for a in hand["legal"] if a["action"] != "pass"]
            me.acted = m["seq"]
            me.send(
                type="act", action=(bids[-1] if bids else hand["legal"][0])["action"], seq=m["seq"]
            )
            continue
        if hand["phase"] == "discard":
            assert hand["declarer"] == 0 and len(hand["widow"]) == 1 and len(hand["tiles"]) == 8
            assert sorted(a["action"] for a in hand["legal"]) == sorted(
                f"discard {t}" for t in hand["tiles"]
            )
            watcher = Socket(client, table)
            watcher.hello()
            assert watcher.state["game"]["hand"]["widow"] == []
            tile = hand["widow"][0]
            me.acted = m["seq"]
            me.send(type="act", action=f"discard {tile}", seq=m["seq"])
            after = me.until("state", lambda s, m=m: s["seq"] > m["seq"])
            assert after["last"] == {
                "seat": 0,
                "action": "discard",
                "text": "Tess laid a tile face down",
            }
            assert after["game"]["hand"]["phase"] == "declare" and after["game"]["hand"][
                "discards"
            ] == [tile]
            assert tile not in after["game"]["hand"]["tiles"]
            seen = watcher.until("state", lambda s, m=m: s["seq"] > m["seq"])
            public = {
                **seen,
                "game": {k: v for k, v in seen["game"].items() if k != "draw"},
            }  # the draw for the shake is public
            assert seen["game"]["hand"]["discards"] == [None] and tile not in json.dumps(public)
            discarded = True
            continue
        me.act(m, rng)
    assert "Moon (21)" in seen_bids and seen_bids <= {"Pass", "4", "5", "6", "7", "Moon (21)"}


def test_three_hand_reads_a_bid_of_42_as_points_not_a_mark(client: TestClient) -> None:
    table, _me, _ = seat_with_bots(client, "three-hand", "easy")
    room = room_of(client, table)
    assert room.game is not None
    word = room._parse_action(room.game, "bid 42")
    assert word.notation == "42" and not word.marks  # type: ignore[attr-defined]
    assert room._parse_action(room.game, "bid 1m").marks == 1  # type: ignore[attr-defined]


def test_two_people_and_two_bots_at_a_four_seat_table(client: TestClient) -> None:
    table = new_table(client)
    ann, bob = Socket(client, table), Socket(client, table)
    ann.hello()
    bob.hello()
    ann.send(type="sit", seat=0, name="Ann")
    ann.until("seated")
    bob.send(type="sit", seat=2, name="Bob")
    bob.until("seated")
    for seat in (1, 3):
        ann.send(type="bot", seat=seat, level="easy")
        ann.until("state", lambda m, s=seat: m["table"]["seats"][s]["kind"] == "bot")
    ann.send(type="start")
    room = room_of(client, table)
    rng = random.Random(5)
    people = {0: ann, 2: bob}
    for sock in (ann, bob):
        sock.until("state", lambda m: m["game"] is not None)
    for _ in range(20_000):
        states = [settle(sock, room) for sock in (ann, bob)]
        game = states[0]["game"]
        if game is not None and (game["outcome"] or game["hand_number"] > 2):
            break
        turn = game["hand"]["turn"] if game is not None else None
        sock = people.get(turn)  # type: ignore[arg-type]
        if (
            sock is not None
            and sock.state["game"]["hand"]["legal"]
            and sock.acted != sock.state["seq"]
        ):
            sock.act(sock.state, rng)
        else:
            time.sleep(0.005)  # a bot is thinking
    assert game is not None and (game["hand_number"] > 2 or game["outcome"])


def test_two_hand_a_person_plays_and_sees_both_hands_of_a_partnership(client: TestClient) -> None:
    table = new_table(client, "two-hand")
    ann, bob, watcher = Socket(client, table), Socket(client, table), Socket(client, table)
    for sock in (ann, bob, watcher):
        sock.hello()
    ann.send(type="sit", seat=0, name="Ann")
    ann.until("seated")
    bob.send(type="sit", seat=2, name="Bob")
    assert bob.until("error")["message"] == "seat 2 is taken"
    bob.send(type="sit", seat=3, name="Bob")
    bob.until("seated")
    seats = bob.until("state", lambda m: m["table"]["seats"][1]["kind"] == "human")["table"][
        "seats"
    ]
    assert [(s["name"], s["holder"]) for s in seats] == [
        ("Ann", None),
        ("Bob", 3),
        ("Ann", 0),
        ("Bob", None),
    ]
    assert bob.state["you"] == {"seat": 3, "seats": [3, 1]}
    ann.send(type="start")
    room = room_of(client, table)
    rng = random.Random(7)
    players = {0: ann, 2: ann, 1: bob, 3: bob}
    acted_for: set[int] = set()
    for sock in (ann, bob, watcher):
        sock.until("state", lambda m: m["game"] is not None)
    for _ in range(20_000):
        for sock in (ann, bob, watcher):
            settle(sock, room)
        shown = ann.state["game"]
        if shown["outcome"] or shown["hand_number"] > 2:
            break
        game = room.game
        assert game is not None
        # what the messages show is checked against the deals (fixed) and every tile played so
        # far (only ever more), so the server moving on meanwhile cannot fail the check
        deals = [hand.deal for hand in list(game.hands)]
        for sock, mine in ((ann, (0, 2)), (bob, (3, 1)), (watcher, ())):
            allowed = visible_tiles(game, None)
            for deal in deals:
                allowed |= {TILE_NAMES[t] for s in mine for t in tiles_of(deal[s])}
            for message in sock.log:
                assert set(TILE_WORD.findall(json.dumps(message))) <= allowed, (mine, message)
            sock.log.clear()
            state = sock.state["game"]
            held = state["held"]
            assert (
                [h["seat"] for h in held] == sorted(mine, key=lambda s: s != mine[0])
                if mine
                else held == []
            )
            deal = deals[state["hand_number"] - 1]
            for entry in held:
                assert set(entry["tiles"]) <= {TILE_NAMES[t] for t in tiles_of(deal[entry["seat"]])}
        turn = shown["hand"]["turn"]
        sock = players.get(turn)  # type: ignore[arg-type]
        if (
            sock is None
            or not sock.state["game"]["hand"]["legal"]
            or sock.acted == sock.state["seq"]
        ):
            time.sleep(0.005)  # between hands: the next hand's state is on its way
            continue
        assert sock.state["game"]["hand"]["seat"] == turn
        acted_for.add(turn)
        sock.act(sock.state, rng)
    assert acted_for == {0, 1, 2, 3}
    for sock in (ann, bob):
        settle(sock, room)
    if ann.state["game"]["hand"]["legal"] and not ann.state["game"]["outcome"]:
        bob.send(type="act", action="pass", seq=bob.state["seq"])  # Ann's seats are not Bob's
        assert bob.until("error")["message"] == "it is not your turn"


@pytest.mark.parametrize("rules, seed", [("six-hand", 7), ("moon", 8)])
def test_no_seat_at_a_bigger_table_sees_another_seats_tiles_widow_or_discards(
    client: TestClient, rules: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("texas42.faces.server.room.secrets.randbits", lambda bits: seed)
    table = new_table(client, rules)
    seats = layout_seats(rules)
    players = [Socket(client, table) for _ in range(seats)]
    watcher = Socket(client, table)
    for seat, sock in enumerate(players):
        sock.hello()
        sock.send(type="sit", seat=seat, name=f"P{seat}")
        sock.until("seated")
    watcher.hello()
    players[0].send(type="start")
    room = room_of(client, table)
    removed = set(Rules.parse(rules).removed.split("+")) - {""}
    rng = random.Random(seed)
    everyone: list[tuple[Socket, int | None]] = [(s, k) for k, s in enumerate(players)]
    everyone.append((watcher, None))
    checked = widows = 0
    for seq in range(3000):
        for sock, seat in everyone:
            if not (sock.state.get("seq") == seq and sock.state["game"] is not None):
                sock.until("state", lambda m, seq=seq: m["seq"] == seq and m["game"] is not None)
            game = room.game
            assert game is not None and room.seq == seq
            allowed = visible_tiles(game, seat) | removed
            for hand in game.hands:
                if seat is not None and seat == hand.declarer:
                    allowed |= {TILE_NAMES[t] for t in tiles_of(hand.widow)}
            for message in sock.log:
                shown = set(TILE_WORD.findall(json.dumps(message)))
                assert shown <= allowed, (seat, shown - allowed, message)
                checked += 1
            sock.log.clear()
        if game.is_over() or len(game.hands) > 6:
            break
        widows += bool(game.hand.discards)
        turn = game.seat_to_act()
        assert turn is not None
        state = players[turn].state
        players[turn].send(
            type="act", action=rng.choice(state["game"]["hand"]["legal"])["action"], seq=seq
        )
    assert checked >= (seats + 1) * seq and seq > 60
    if rules == "moon":
        assert widows, "a bid winner took the widow and discarded"


def layout_seats(rules: str) -> int:
    from texas42.core.layout import layout_of

    return layout_of(Rules.parse(rules)).seats
