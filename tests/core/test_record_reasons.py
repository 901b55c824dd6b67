"""A record's optional ``reasons``: one per action of a hand, why its seat took it (issue 19,
item 5). Old records load as before, records with reasons round-trip, a bad field is refused
with where."""

from __future__ import annotations

import copy
import json
import random

import pytest

from texas42 import Game, Record, Rules, check_record, record_from_game
from texas42.core.reasons import Reason
from texas42.core.record import UNREADABLE, RecordError, action_seats
from texas42.players import RulesBot
from texas42.players.reasons import decide


def _game_with_reasons(seed: int = 3) -> tuple[Game, list[list[Reason | None]]]:
    rules = Rules()
    game = Game(rules, seed)
    bot = RulesBot()
    reasons: list[list[Reason | None]] = []
    for _ in range(60):
        if game.is_over():
            break
        seat = game.seat_to_act()
        assert seat is not None
        decision = decide(bot, game.view(seat))
        reasons.extend([] for _ in range(len(game.hands) - len(reasons)))
        reasons[-1].append(decision.reason)
        game.apply(decision.action)
    return game, reasons


def test_a_record_with_reasons_round_trips() -> None:
    game, reasons = _game_with_reasons()
    record = record_from_game(game, None, reasons)
    assert all(len(h.reasons) == h.action_count for h in record.hands)
    text = record.to_json()
    again = Record.from_json(text)
    assert again == record
    assert again.to_json() == text
    first = json.loads(text)["hands"][0]["reasons"][0]
    assert set(first) == {"text", "public"}
    check_record(again)  # reasons change nothing of the game


def test_a_record_without_reasons_reads_and_writes_as_before() -> None:
    game, _ = _game_with_reasons()
    record = record_from_game(game)
    obj = record.to_dict()
    assert all("reasons" not in hand for hand in obj["hands"])
    assert Record.from_dict(obj).hands[0].reasons == ()


def test_missing_reasons_are_kept_as_null_in_their_place() -> None:
    game, reasons = _game_with_reasons()
    gapped = [list(r) for r in reasons]
    gapped[0][1] = None
    record = record_from_game(game, None, gapped)
    hand = record.to_dict()["hands"][0]
    assert hand["reasons"][1] is None
    assert Record.from_dict(record.to_dict()).hands[0].reasons[1] is None


@pytest.mark.parametrize(
    ("change", "index", "words"),
    [
        (lambda r: r.pop(), None, "entries for the hand's"),
        (lambda r: r.__setitem__(2, "bids 30"), 3, "a reason is an object"),
        (lambda r: r.__setitem__(0, {"text": "x"}), 1, "each a string"),
        (lambda r: r.__setitem__(1, {"text": 1, "public": "y"}), 2, "each a string"),
    ],
)
def test_a_malformed_reasons_field_is_refused_with_where(change, index, words) -> None:  # type: ignore[no-untyped-def]
    game, reasons = _game_with_reasons()
    obj = record_from_game(game, None, reasons).to_dict()
    bad = copy.deepcopy(obj)
    change(bad["hands"][0]["reasons"])
    with pytest.raises(RecordError) as caught:
        Record.from_dict(bad)
    error = caught.value
    assert error.status == UNREADABLE
    assert (error.field, error.hand, error.index) == ("reasons", 1, index)
    assert words in error.message


def test_reasons_that_are_not_a_list_are_refused() -> None:
    game, reasons = _game_with_reasons()
    obj = record_from_game(game, None, reasons).to_dict()
    obj["hands"][0]["reasons"] = {"text": "a", "public": "b"}
    with pytest.raises(RecordError) as caught:
        Record.from_dict(obj)
    assert caught.value.field == "reasons"


def test_action_seats_name_who_took_each_action() -> None:
    game, reasons = _game_with_reasons(random.Random(5).randrange(1000))
    record = record_from_game(game, None, reasons)
    hand = record.hands[0]
    seats = action_seats(record.rules, hand)
    assert len(seats) == hand.action_count
    first = (hand.shaker + 1) % 4
    assert list(seats[:4]) == [(first + i) % 4 for i in range(4)]
