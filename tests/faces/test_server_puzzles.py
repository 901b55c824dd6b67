"""The play puzzles' HTTP API: the list, one puzzle, the daily puzzle for the device's date, and
answers; bad ids, dates and bodies are refused with the field named, and nothing changes."""

from __future__ import annotations

import pytest

from texas42.core.tiles import tile_name
from texas42.services.learn import puzzles
from webtest import TestClient

ANSWER = "/api/learn/puzzles/answer"


def test_the_list_has_every_puzzle_without_tiles_or_answers(client: TestClient) -> None:
    got = client.get("/api/learn/puzzles")
    assert got.status_code == 200
    body = got.json()
    assert [p["id"] for p in body["puzzles"]] == [p.id for p in puzzles.load()]
    assert [g["grade"] for g in body["grades"]] == [1, 2, 3, 4, 5]
    assert body["grades"][0]["words"] == "warm-up"
    assert body["intro"].startswith("Each position comes from a deal the bots played")
    assert "position" not in body["puzzles"][0] and "answers" not in body["puzzles"][0]


def test_a_puzzle_its_page_and_an_answer(client: TestClient) -> None:
    puzzle = puzzles.load()[5]
    shown = client.get(f"/api/learn/puzzles/{puzzle.id}").json()
    assert shown["id"] == puzzle.id and shown["position"] == puzzle.position
    assert "answers" not in shown
    assert shown["next"] == puzzles.load()[6].id
    last = puzzles.load()[-1]
    assert client.get(f"/api/learn/puzzles/{last.id}").json()["next"] == puzzles.load()[0].id
    page = client.get(f"/learn/puzzles/{puzzle.id}")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    for path in ("/learn/puzzles", "/learn/puzzles/daily"):
        assert client.get(path).status_code == 200
    tile = tile_name(puzzle.answers[0])
    answered = client.post(ANSWER, json={"id": puzzle.id, "tile": tile})
    assert answered.status_code == 200
    assert answered.json() == puzzles.answer(puzzle, tile)


def test_the_daily_puzzle_follows_the_date_the_browser_sends(client: TestClient) -> None:
    one = client.get("/api/learn/puzzles/daily", params={"date": "2026-12-02"}).json()
    assert one["date"] == "2026-12-02"
    assert one["id"] == puzzles.daily(puzzles.parse_date("2026-12-02")).id
    again = client.get("/api/learn/puzzles/daily?date=2026-12-02").json()
    assert again == one
    other = client.get("/api/learn/puzzles/daily?date=2026-12-03").json()
    assert other["id"] != one["id"]


@pytest.mark.parametrize("date", ["", "2026-02-30", "tomorrow", "2026-12-2", "9" * 40])
def test_a_date_that_is_not_one_is_refused(client: TestClient, date: str) -> None:
    got = client.get("/api/learn/puzzles/daily", params={"date": date})
    assert got.status_code in (400, 422)
    detail = got.json()["detail"]
    assert "date" in (detail if isinstance(detail, str) else str(detail[0]["loc"]))


def test_bad_ids_and_answers_are_refused_with_the_field_named(client: TestClient) -> None:
    puzzle = puzzles.load()[0]
    assert client.get("/api/learn/puzzles/nope").json()["detail"].startswith("id:")
    missing = client.get("/api/learn/puzzles/p00000000")
    assert missing.status_code == 404 and missing.json()["detail"].startswith("id: no puzzle")
    bad = client.post(ANSWER, json={"id": "p00000000", "tile": "6-4"})
    assert bad.status_code == 404
    for tile in ("7-7", "", "x"):
        got = client.post(ANSWER, json={"id": puzzle.id, "tile": tile})
        assert got.status_code == 400 and got.json()["detail"].startswith("tile:")
    not_held = next(t for t in range(28) if not puzzle.hand.hands[puzzle.seat] >> t & 1)
    got = client.post(ANSWER, json={"id": puzzle.id, "tile": tile_name(not_held)})
    assert got.status_code == 400 and "cannot be played" in got.json()["detail"]
    for body in ({"id": puzzle.id}, {"id": puzzle.id, "tile": 64}, {"id": 1, "tile": "6-4"}):
        got = client.post(ANSWER, json=body)
        assert got.status_code == 422 and got.json()["detail"][0]["loc"][0] == "body"
    extra = client.post(ANSWER, json={"id": puzzle.id, "tile": "6-4", "seat": 0})
    assert extra.status_code == 422
    huge = client.post(ANSWER, content=b"{" + b" " * 1000 + b"}")
    assert huge.status_code == 413
    assert client.get(f"/api/learn/puzzles/{puzzle.id}").json()["id"] == puzzle.id
