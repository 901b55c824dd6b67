"""Laying down at the web table: the ``claim`` message, its event, its news and the face-up hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from texas42.core.game import Game
from texas42.core.rules import Rules
from texas42.core.tiles import hand_name, parse_hand
from texas42.faces.server.outbound import SERVER_MESSAGES
from webtest import (
    TILE_WORD,
    Socket,
    make_client,
    new_table,
    room_of,
    settle,
    tiles_in,
    visible_tiles,
)

# North holds every trump: its claim in sixes holds
HOLD_DEAL = tuple(
    parse_hand(h)
    for h in (
        "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
        "5-5 5-4 5-3 5-2 5-1 5-0 4-4",
        "4-3 4-2 4-1 4-0 3-3 3-2 3-1",
        "3-0 2-2 2-1 2-0 1-1 1-0 0-0",
    )
)
# East keeps the 1-1 for North's last lead: the claim fails
FAIL_DEAL = tuple(
    parse_hand(h)
    for h in (
        "6-6 6-5 6-4 6-3 6-2 6-1 1-0",
        "6-0 1-1 5-5 5-4 5-3 5-2 5-1",
        "5-0 4-4 4-3 4-2 4-1 4-0 3-3",
        "3-2 3-1 3-0 2-2 2-1 2-0 0-0",
    )
)


@pytest.fixture
def dealt(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, ...]]:
    """The deals the table's games start from (then random ones); West shakes, North bids first."""
    deals: list[tuple[int, ...]] = []

    def game(rules: Rules, seed: int) -> Game:
        return Game(rules, seed, first_shaker=3, deals=list(deals))

    monkeypatch.setattr("texas42.faces.server.room.Game", game)
    return deals


def four_people(client: Any, rules: str = "standard") -> tuple[str, list[Socket], list[str]]:
    table = new_table(client, rules)
    players = [Socket(client, table) for _ in range(4)]
    tokens = []
    for seat, sock in enumerate(players):
        sock.hello()
        sock.send(type="sit", seat=seat, name=["Ann", "Bob", "Cat", "Dan"][seat])
        tokens.append(sock.until("seated")["token"])
    players[0].send(type="start")
    for sock in players:
        sock.until("state", lambda m: m["game"] is not None)
    return table, players, tokens


def act(players: list[Socket], room: Any, seat: int, action: str) -> dict[str, Any]:
    state = settle(players[seat], room)
    players[seat].send(type="act", action=action, seq=state["seq"])
    players[seat].until("state", lambda m: m["seq"] == state["seq"] + 1)
    return settle(players[seat], room)


def sixes_by_north(players: list[Socket], room: Any) -> dict[str, Any]:
    act(players, room, 0, "bid 30")
    for seat in (1, 2, 3):
        act(players, room, seat, "pass")
    return act(players, room, 0, "declare sixes")


def assert_nothing_hidden_shown(sock: Socket, game: Game, seat: int | None) -> None:
    allowed = visible_tiles(game, seat)
    for message in sock.log:
        typed = SERVER_MESSAGES.validate_python(message)
        shown = set(TILE_WORD.findall(json.dumps(message))) | tiles_in(typed)
        assert shown <= allowed, (seat, shown - allowed, message)


def test_a_claim_that_fails_shows_the_hand_to_everyone_and_survives_a_restart(
    tmp_path: Path, dealt: list[tuple[int, ...]]
) -> None:
    dealt.append(FAIL_DEAL)
    db = tmp_path / "claims.sqlite"
    with make_client(db) as client:
        table, players, tokens = four_people(client)
        watcher = Socket(client, table)
        watcher.hello()
        room = room_of(client, table)
        state = sixes_by_north(players, room)
        assert state["game"]["hand"]["can_claim"] is True
        east = settle(players[1], room)
        assert east["game"]["hand"]["can_claim"] is False
        # only the player on lead may claim, with the state's seq; nothing changes otherwise
        players[1].send(type="claim", seq=east["seq"])
        error = players[1].until("error")
        assert error["code"] == "illegal" and "on lead" in error["message"]
        watcher.send(type="claim", seq=east["seq"])
        assert "spectators" in watcher.until("error")["message"]
        players[0].send(type="claim", seq=state["seq"] + 5)
        assert players[0].until("error")["code"] == "stale"
        assert room.seq == state["seq"] and not room.game.hand.claims  # type: ignore[union-attr]
        for sock in [*players, watcher]:
            sock.log.clear()
        players[0].send(type="claim", seq=state["seq"])
        north_tiles = hand_name(FAIL_DEAL[0]).split()
        for seat, sock in [*enumerate(players), (None, watcher)]:
            notice = sock.until("notice")
            assert notice["message"] == (
                "Ann laid the hand down and claimed the rest: "
                f"{' '.join(north_tiles)}. "
                "Ann's claim failed: play goes on with that hand face up."
            )
            after = sock.until("state")
            assert after["last"] == {"seat": 0, "action": "claim", "text": notice["message"]}
            hand = after["game"]["hand"]
            assert hand["face_up"] == [{"seat": 0, "tiles": north_tiles}]
            assert hand["phase"] == "play" and hand["turn"] == 0
            assert hand["tiles"] == (north_tiles if seat == 0 else hand["tiles"])
            assert_nothing_hidden_shown(sock, room.game, seat)  # type: ignore[arg-type]
        after = act(players, room, 0, "play 6-6")
        assert after["game"]["hand"]["face_up"] == [{"seat": 0, "tiles": north_tiles[1:]}]
        position = room.game.position()  # type: ignore[union-attr]
    with make_client(db) as client:
        room = room_of(client, table)
        assert room.game is not None and room.game.position() == position
        again = Socket(client, table)
        again.hello(tokens[2])
        assert again.state["game"]["hand"]["face_up"] == [{"seat": 0, "tiles": north_tiles[1:]}]


def test_a_claim_that_holds_ends_the_hand_scored(
    tmp_path: Path, dealt: list[tuple[int, ...]]
) -> None:
    dealt.append(HOLD_DEAL)
    with make_client(tmp_path / "hold.sqlite") as client:
        table, players, _ = four_people(client)
        room = room_of(client, table)
        state = sixes_by_north(players, room)
        players[2].log.clear()
        players[0].send(type="claim", seq=state["seq"])
        notice = players[2].until("notice")
        assert notice["message"].endswith("Ann's claim held: North-South took the last 7 tricks.")
        after = players[2].until("state")
        game = after["game"]
        assert game["score"] == [1, 0] and game["hand_number"] == 2
        last = game["last_hand"]
        assert last["face_up"] == [{"seat": 0, "tiles": hand_name(HOLD_DEAL[0]).split()}]
        assert last["result"]["made"] is True and last["tricks_won"] == [7, 0]
        assert_nothing_hidden_shown(players[2], room.game, 2)  # type: ignore[arg-type]
        assert room.game is not None and room.game.results[0].claimant == 0


def test_a_table_without_claims_refuses_them_with_the_reason(
    tmp_path: Path, dealt: list[tuple[int, ...]]
) -> None:
    dealt.append(HOLD_DEAL)
    with make_client(tmp_path / "off.sqlite") as client:
        table, players, _ = four_people(client, "standard,claims=false")
        room = room_of(client, table)
        state = sixes_by_north(players, room)
        assert state["game"]["hand"]["can_claim"] is False
        players[0].send(type="claim", seq=state["seq"])
        error = players[0].until("error")
        assert error["message"] == "these rules do not allow laying down: every hand is played out"
        assert room.seq == state["seq"]


def test_a_claim_in_the_auction_is_refused(tmp_path: Path, dealt: list[tuple[int, ...]]) -> None:
    dealt.append(HOLD_DEAL)
    with make_client(tmp_path / "early.sqlite") as client:
        table, players, _ = four_people(client)
        room = room_of(client, table)
        state = settle(players[0], room)
        players[0].send(type="claim", seq=state["seq"])
        error = players[0].until("error")
        assert (
            error["message"] == "a hand is laid down during the play, by the seat to lead a trick"
        )


def test_the_replay_makes_the_claims_again_and_goes_on_to_the_next_hand(tmp_path: Path) -> None:
    from texas42.faces.server.payload import replay_frames

    game = Game(Rules(), 3, first_shaker=3, deals=[HOLD_DEAL])
    for word in ("30", "pass", "pass", "pass", "sixes"):
        game.apply(game.parse_action(word))
    game.claim(0)
    game.apply(game.legal_actions()[0])  # the second hand's first call
    frames = replay_frames(game.hands, game.rules, ["Ann", "Bob", "Cat", "Dan"])
    captions = [frame.caption for frame in frames]
    claim_at = next(i for i, c in enumerate(captions) if "claimed the rest" in c)
    assert captions[claim_at].endswith("Ann's claim held: North-South took the last 7 tricks.")
    assert frames[claim_at].hand.face_up[0].tiles == hand_name(HOLD_DEAL[0]).split()
    assert frames[claim_at].hand.result is not None and frames[claim_at].hand.result.made
    assert frames[-1].hand_number == 2 and frames[-1].score == [1, 0]


def test_texas42_check_reports_the_claims_of_a_record(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from texas42.core.record import record_from_game
    from texas42.faces.cli import app

    game = Game(Rules(), 3, first_shaker=3, deals=[FAIL_DEAL])
    for word in ("30", "pass", "pass", "pass", "sixes"):
        game.apply(game.parse_action(word))
    game.claim(0)
    path = tmp_path / "claims.json"
    path.write_text(record_from_game(game, ["Ann", "Bob", "Cat", "Dan"]).to_json())
    done = CliRunner().invoke(app, ["check", str(path)])
    assert done.exit_code == 0, done.output
    said = "North (Ann) laid the hand down and claimed the rest: 6-6 6-5 6-4 6-3 6-2 6-1 1-0"
    assert said in done.output
    assert "North (Ann)'s claim failed: play goes on with that hand face up" in done.output


@pytest.mark.parametrize(
    "rules, seed", [("standard,target=3", 5), ("house,hide_tricks=mark-bids,target=3", 6)]
)
def test_with_claims_no_message_shows_a_tile_its_recipient_could_not_see(
    tmp_path: Path, rules: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four people play a short game in which the player on lead lays down now and then: every
    message to every seat and to a spectator names only tiles it could see, a hand laid down
    included (`visible_tiles`), and the claims really happen, held and failed."""
    import random

    monkeypatch.setattr("texas42.faces.server.room.secrets.randbits", lambda bits: seed)
    with make_client(tmp_path / "leak.sqlite") as client:
        table, players, _ = four_people(client, rules)
        watcher = Socket(client, table)
        watcher.hello()
        room = room_of(client, table)
        rng = random.Random(seed)
        everyone: list[tuple[Socket, int | None]] = [(s, k) for k, s in enumerate(players)]
        everyone.append((watcher, None))
        verdicts: list[bool] = []
        for _ in range(3000):
            game = room.game
            assert game is not None
            for sock, seat in everyone:
                settle(sock, room)
                assert_nothing_hidden_shown(sock, game, seat)
                sock.log.clear()
            if game.is_over():
                break
            turn = game.seat_to_act()
            assert turn is not None
            state = players[turn].state
            if state["game"]["hand"]["can_claim"] and rng.random() < 0.35:
                hand = game.hand
                players[turn].send(type="claim", seq=state["seq"])
                players[turn].until("state", lambda m, s=state["seq"]: m["seq"] == s + 1)
                verdicts.append(hand.claims[-1][1].holds)
                continue
            action = rng.choice(state["game"]["hand"]["legal"])["action"]
            players[turn].send(type="act", action=action, seq=state["seq"])
            players[turn].until("state", lambda m, s=state["seq"]: m["seq"] == s + 1)
        assert room.game is not None and room.game.is_over()
        assert True in verdicts and False in verdicts, "the seed should lead to both verdicts"
