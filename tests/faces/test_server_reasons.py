"""The web table's "why?": every bot action keeps its reason (issue 19, item 5), in the log and
across a restart, and each reader gets only the form of it they may read (`reason_words`)."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from texas42.core.actions import Action
from texas42.core.game import Game
from texas42.core.hand import Hand
from texas42.core.reasons import Reason, reason_words
from texas42.core.rules import Rules
from texas42.core.tiles import TILE_NAMES, tiles_of
from texas42.core.view import View
from texas42.faces.server import room as room_module
from texas42.faces.server.events import ActionEvent, read_event
from texas42.faces.server.reasons import REASON_CHARS, stored
from texas42.faces.server.room import Room, ServerSettings
from texas42.faces.server.storage import Storage, database_url
from texas42.players import Bot, RulesBot
from texas42.players.reasons import Decision, decide
from webtest import (
    FAST,
    TILE_WORD,
    Socket,
    TestClient,
    make_client,
    my_turn,
    room_of,
    seat_with_bots,
    settle,
)

POINTS = "standard,game=points"
"""A points game plays every trick of a hand, so every seat's tiles are shown by its end."""


class Telling:
    """A bot that plays as ``inner`` and says, in its whole reason, every tile it holds: a
    reason that leaks if it reaches anyone but its own seat while the hand is on."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name

    def choose(self, view: View) -> Action:
        return self.inner.choose(view)

    def explain(self, view: View) -> Decision:
        held = " ".join(TILE_NAMES[t] for t in tiles_of(view.hand))
        action = self.inner.choose(view)
        return Decision(
            action,
            Reason(f"SECRET of seat {view.seat}: holds {held}", f"PUBLIC of seat {view.seat}"),
        )


@pytest.fixture
def telling(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every bot a table makes tells its tiles in its reasons."""
    real = room_module.make_bot

    def make(spec: str, **kwargs: Any) -> Bot:
        return Telling(real(spec, **kwargs))

    monkeypatch.setattr(room_module, "make_bot", make)


def whys(state: dict[str, Any]) -> list[tuple[int, dict[str, Any], dict[str, Any]]]:
    """(hand number, hand, reason) of every reason a state carries: the hand in play's and the
    last hand's."""
    game = state.get("game")
    if not game:
        return []
    found = [(game["hand_number"], game["hand"], why) for why in game["hand"]["reasons"]]
    last = game["last_hand"]
    if last is not None:
        found += [(last["number"], last, why) for why in last["reasons"]]
    return found


def hand_visible(hand: Hand, seat: int | None) -> set[str]:
    """The tiles of one hand a seat (None: a spectator) saw by its end: its own, every tile
    played, every hand laid down."""
    seen = {TILE_NAMES[t] for t in hand.plays}
    seen |= {TILE_NAMES[t] for _, claim in hand.claims for t in tiles_of(claim.tiles)}
    if seat is not None:
        seen |= {TILE_NAMES[t] for t in tiles_of(hand.deal[seat])}
    return seen


def check_readers(sock: Socket, seats: tuple[int, ...], game: Game) -> int:
    """Every reason sent to ``sock`` (which plays ``seats``; none: a spectator) is the public
    form for another seat's action while its hand is on, and names no tile the reader had not
    seen by the hand's end; the number of whole reasons of other seats it was sent."""
    whole = 0
    for message in sock.log:
        if message["type"] != "state":
            continue
        for number, hand, why in whys(message):
            played = game.hands[number - game.first_hand]
            reader = seats[0] if seats else None
            if why["seat"] in seats:
                assert why["text"].startswith("SECRET"), why
            elif hand["phase"] != "done":
                assert why["text"] == f"PUBLIC of seat {why['seat']}", why
            else:
                whole += why["text"].startswith("SECRET")
            named = set(TILE_WORD.findall(why["text"]))
            assert named <= hand_visible(played, reader), (why, named)
    return whole


def play_until(me: Socket, room: Any, test: Any, rng: random.Random) -> dict[str, Any]:
    """Take random turns at ``me``'s seat until a state passes ``test``."""
    while True:
        state = settle(me, room)
        if test(state):
            return state
        if my_turn(state) and state["seq"] != me.acted and not state["game"]["outcome"]:
            me.act(state, rng)
        else:
            me.until("state")


# -- who reads what -------------------------------------------------------------------------


def played_hand(rules: Rules, seed: int, *, stop: Any = None) -> Game:
    """A game whose first hand RulesBots play (to its end, or until ``stop(hand)``)."""
    game = Game(rules, seed)
    bot = RulesBot()
    while len(game.hands) == 1 and not (stop and stop(game.hand)):
        seat = game.seat_to_act()
        assert seat is not None
        game.apply(bot.choose(game.view(seat)))
    return game


REASON = Reason("whole: what the seat knew", "public: what everyone saw")


def test_during_the_hand_only_the_seat_s_own_player_reads_the_whole_reason() -> None:
    game = played_hand(Rules(game="points"), 3, stop=lambda hand: len(hand.plays) == 5)
    hand = game.hand
    assert hand.result is None
    assert reason_words(REASON, hand, 1, (1,)) == REASON.text
    for reader in [(0,), (2,), (3,), ()]:  # an opponent, the partner, the other, a spectator
        assert reason_words(REASON, hand, 1, reader) == REASON.public
    # two-hand: a person plays a seat and its partner's, and reads both seats' whole reasons
    assert reason_words(REASON, hand, 2, (0, 2)) == REASON.text


def test_after_a_hand_played_out_everyone_reads_the_whole_reason() -> None:
    game = played_hand(Rules(game="points"), 3)
    hand = game.hands[0]
    assert hand.result is not None and not any(hand.hands)  # every tile was played
    for seat in range(4):
        for reader in [(0,), (1,), ()]:
            assert reason_words(REASON, hand, seat, reader) == REASON.text


def test_a_seat_whose_tiles_were_not_all_shown_keeps_its_reason_public() -> None:
    for seed in range(40):  # a marks game stops once the bid is decided, often tiles in hand
        hand = played_hand(Rules(), seed).hands[0]
        assert hand.result is not None
        if hand.result.reshaken:  # everyone passed: no tile was shown at all
            assert reason_words(REASON, hand, 1, (0,)) == REASON.public
            continue
        for seat in range(4):
            shown = not hand.hands[seat]
            expected = REASON.text if shown else REASON.public
            assert reason_words(REASON, hand, seat, ((seat + 1) % 4,)) == expected
            assert reason_words(REASON, hand, seat, ()) == expected
            assert reason_words(REASON, hand, seat, (seat,)) == REASON.text


# -- at the table -----------------------------------------------------------------------------


@pytest.mark.usefixtures("telling")
@pytest.mark.parametrize("rules", [POINTS, "standard"])
def test_no_seat_reads_another_seat_s_whole_reason_while_the_hand_is_on(
    client: TestClient, rules: str
) -> None:
    """In a points game every tile is played, and after the hand everyone reads every whole
    reason; a marks game stops once the bid is decided, and a seat left holding tiles keeps its
    reasons public."""
    table, me, _ = seat_with_bots(client, rules)
    room = room_of(client, table)
    watcher = Socket(client, table)
    watcher.hello()
    rng = random.Random(4)
    last = play_until(me, room, lambda m: bool(m["game"]["last_hand"]), rng)
    while last["game"]["last_hand"]["result"] is None:  # all passed: play the next hand out
        number = last["game"]["hand_number"]
        last = play_until(me, room, lambda m, n=number: m["game"]["hand_number"] > n, rng)
    settle(watcher, room)
    game = room.game
    assert game is not None
    # every bot action of the hand has its reason, each where the payload shows it
    ended = last["game"]["last_hand"]
    first = game.hands[ended["number"] - 1]
    bot_calls = [i for i in range(len(first.calls)) if (first.first_bidder + i) % 4 != 0]
    bot_plays = [k for k, seat in enumerate(first.play_seats) if seat != 0]
    kinds = sorted((why["kind"], why["index"]) for why in ended["reasons"])
    expected = [("call", i) for i in bot_calls] + [("play", k) for k in bot_plays]
    if first.contract is not None and first.declarer != 0:
        expected.append(("contract", 0))
    assert kinds == sorted(expected)
    for why in ended["reasons"]:
        seat = why["seat"]
        if why["kind"] == "play":
            assert first.play_seats[why["index"]] == seat
        elif why["kind"] == "call":
            assert (first.first_bidder + why["index"]) % 4 == seat
    # after the hand everyone reads the whole reasons of the seats whose tiles were all shown
    shown = hand_visible(first, None)
    for why in ended["reasons"]:
        seat = why["seat"]
        whole = {TILE_NAMES[t] for t in tiles_of(first.deal[seat])} <= shown
        assert why["text"].startswith("SECRET" if whole else "PUBLIC"), (why, whole)
    if rules == POINTS:
        assert all(why["text"].startswith("SECRET") for why in ended["reasons"])
        assert check_readers(me, (0,), game) > 0
        assert check_readers(watcher, (), game) > 0
    else:
        check_readers(me, (0,), game)
        check_readers(watcher, (), game)
    events = room.steps
    assert all((event.reason is None) == (event.seat == 0) for event in events)


@pytest.mark.usefixtures("telling")
def test_a_bot_playing_for_an_away_person_explains_itself_to_them_alone(
    tmp_path: Path,
) -> None:
    with make_client(tmp_path / "away.sqlite", away_seconds=0.05) as client:
        table, me, token = seat_with_bots(client, POINTS)
        room = room_of(client, table)
        watcher = Socket(client, table)
        watcher.hello()
        me.close()
        deadline = time.monotonic() + 30
        while not any(e.seat == 0 for filed in room.reasons.values() for e in filed.values()):
            assert time.monotonic() < deadline, "no bot played the away seat"
            time.sleep(0.01)
        back = Socket(client, table)
        back.hello(token)
        mine = [why for _, _, why in whys(back.state) if why["seat"] == 0]
        assert mine and all(why["text"].startswith("SECRET of seat 0") for why in mine)
        settle(watcher, room)
        game = room.game
        assert game is not None
        check_readers(back, (0,), game)
        check_readers(watcher, (), game)
        assert any(
            why["seat"] == 0 and why["text"] == "PUBLIC of seat 0"
            for message in watcher.log
            if message["type"] == "state"
            for _, _, why in whys(message)
        )


def test_reasons_survive_a_restart(tmp_path: Path) -> None:
    """A restarted server shows the same reasons, and a table read from its whole log and one
    read from its snapshot (and the events after it) keep the same ones."""
    db = tmp_path / "restart.sqlite"
    with make_client(db, snapshot_events=3) as c:
        table, me, token = seat_with_bots(c)
        room = room_of(c, table)
        rng = random.Random(2)
        state = play_until(
            me,
            room,
            lambda m: my_turn(m) and m["seq"] != me.acted and len(m["game"]["hand"]["reasons"]) > 3,
            rng,
        )
        before = state["game"]["hand"]["reasons"]
        kept = dict(room.reasons)
    storage = Storage(database_url(str(db)))
    try:
        for snapshot in (False, True):
            stored = storage.load_table(table, snapshot=snapshot)
            assert stored is not None and (stored.snapshot is not None) == snapshot
            restored = Room.restore(stored, storage, ServerSettings(**FAST))
            assert restored.reasons == kept
    finally:
        storage.close()
    with make_client(db) as c:
        again = Socket(c, table)
        again.hello(token)
        assert again.state["game"]["hand"]["reasons"] == before
        assert room_of(c, table).reasons == kept


def test_a_bot_s_reason_is_the_one_decide_gives(client: TestClient) -> None:
    """The room asks its bots through `decide`: the first bot call's reason is the one a bot of
    the same level and seed gives for the same view."""
    table, me, _ = seat_with_bots(client, level="rules")
    room = room_of(client, table)
    first = play_until(me, room, lambda m: bool(m["game"]["hand"]["reasons"]), random.Random(1))
    why = first["game"]["hand"]["reasons"][0]
    assert room.game is not None
    game = Game(room.rules, room.seed)
    for call in room.game.hands[0].calls[: why["index"]]:
        game.apply(call)
    seat = why["seat"]
    assert why["kind"] == "call" and game.seat_to_act() == seat
    bot = room_module.make_bot("rules", seed=room.seed + seat, name=room.seats[seat].name)
    expected = decide(bot, game.view(seat))
    assert why["text"] == expected.reason.public
    event = next(e for e in room.steps if isinstance(e, ActionEvent) and e.seat == seat)
    assert event.reason is not None
    assert event.reason.model_dump() == expected.reason.to_dict()


def seen_then(game: Game, number: int, hand: dict[str, Any], reader: int | None) -> set[str]:
    """The tiles ``reader`` (None: a spectator) had seen of hand ``number`` when it was sent
    ``hand`` (its payload): the draw, its own dealt tiles, the tiles played so far, the hands
    laid down so far."""
    played = game.hands[number - game.first_hand]
    count = sum(len(trick["plays"]) for trick in hand["tricks"]) + len(hand["trick"])
    seen = {TILE_NAMES[t] for rnd in game.draw_rounds for _, t in rnd}
    seen |= {TILE_NAMES[t] for t in played.plays[:count]}
    seen |= {
        TILE_NAMES[t] for at, claim in played.claims if at <= count for t in tiles_of(claim.tiles)
    }
    if reader is not None:
        seen |= {TILE_NAMES[t] for t in tiles_of(played.deal[reader])}
    return seen


@pytest.mark.parametrize("level", ["rules", "medium", "easy"])
def test_the_bots_public_reasons_name_no_tile_the_reader_has_not_seen(
    client: TestClient, level: str
) -> None:
    """The real bots' words, as a partner, an opponent and a spectator read them over a hand:
    a tile they name was in the reader's hand, played, laid down or drawn by then."""
    table, me, _ = seat_with_bots(client, level=level)
    room = room_of(client, table)
    watcher = Socket(client, table)
    watcher.hello()
    play_until(me, room, lambda m: m["game"]["hand_number"] >= 2, random.Random(5))
    settle(watcher, room)
    game = room.game
    assert game is not None
    read = 0
    for sock, reader in ((me, 0), (watcher, None)):
        for message in sock.log:
            if message["type"] != "state":
                continue
            for number, hand, why in whys(message):
                named = set(TILE_WORD.findall(why["text"]))
                assert named <= seen_then(game, number, hand, reader), (why, named)
                read += 1
    assert read > 0


def test_a_table_keeps_at_most_reason_chars_of_each_form() -> None:
    long = Reason("t" * (REASON_CHARS + 50), "p" * REASON_CHARS)
    kept = stored(long)
    assert kept is not None
    assert kept.text == "t" * (REASON_CHARS - 1) + "…" and kept.public == long.public
    assert stored(None) is None


def test_a_log_written_before_reasons_loads_with_none() -> None:
    old = '{"game": 1, "seat": 2, "action": "bid 30"}'
    assert read_event("t", 4, "action", old) == ActionEvent(game=1, seat=2, action="bid 30")


FINISHED_BY_A_BOT = 2
"""A game seed whose one-mark game, North playing at random with seed 5, ends on a bot's action
(seeds 1 and 3 end on North's: with the seed drawn at random the test failed now and then)."""


def test_a_finished_game_s_record_keeps_the_bots_reasons(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import secrets

    from test_server_players import play_out, sit_with_bots

    from texas42.core.record import Record, action_seats, check_record

    # the table draws its game's seed at random: fixed here to a deal a bot's action ends
    monkeypatch.setattr(secrets, "randbits", lambda bits: FINISHED_BY_A_BOT)
    table, me = sit_with_bots(client, None, seat=0)
    play_out(me, 5)  # a game of one mark: its last action, a bot's, ends it
    response = client.get(f"/api/tables/{table}/games/1/record")
    assert response.status_code == 200
    record = Record.from_json(response.text)
    check_record(record)
    assert action_seats(record.rules, record.hands[-1])[-1] != 0  # a bot's action ended it
    for hand in record.hands:
        assert len(hand.reasons) == hand.action_count
        for seat, reason in zip(action_seats(record.rules, hand), hand.reasons, strict=True):
            # the person at North gave no reason; every bot did, in its own words
            assert (reason is None) == (seat == 0)
            assert reason is None or reason.text
