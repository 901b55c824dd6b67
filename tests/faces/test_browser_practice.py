"""Bidding practice on the web (/learn/bids): the API's questions and refusals in-process, and
in a real browser two questions answered, by keyboard and by click, their numbers shown and the
running score kept on the device across a reload."""

from __future__ import annotations

import json
import math
import urllib.request
from typing import Any

from texas42.services.learn.practice import shipped
from webtest import TestClient, Watch, get_json, needs_browser

SCORE = "[data-testid=practice-score]"
QUESTION = "[data-testid=practice-question]"
ANSWER = "[data-testid=practice-answer]"


def test_the_api_asks_the_rotation_s_questions_and_answers_them(client: TestClient) -> None:
    practice = shipped()
    got = client.get("/api/learn/bids/next", params={"rules": "house", "n": 3})
    assert got.status_code == 200
    assert got.json() == practice.question("house", 3)
    q = got.json()
    answered = client.post("/api/learn/bids/answer", json={"id": q["id"], "call": q["legal"][0]})
    assert answered.status_code == 200
    assert answered.json() == practice.answer(q["id"], q["legal"][0])
    assert client.get("/learn/bids").headers["content-type"].startswith("text/html")


def test_the_api_refuses_bad_requests_naming_the_field(client: TestClient) -> None:
    q = client.get("/api/learn/bids/next").json()
    for params, field in (
        ({"rules": "moon"}, "rules"),
        ({"n": -1}, "n"),
        ({"n": "x"}, "n"),
        ({"n": 10**9}, "n"),
    ):
        got = client.get("/api/learn/bids/next", params=params)
        assert got.status_code == 422, params
        assert got.json()["detail"][0]["loc"][-1] == field
    for body, field in (
        ({"id": "nope", "call": "pass"}, "id"),
        ({"id": q["id"], "call": "6-6"}, "call"),
        ({"id": q["id"], "call": "1" * 40}, "call"),
        ({"id": q["id"]}, "call"),
        ({"call": "pass"}, "id"),
    ):
        got = client.post("/api/learn/bids/answer", json=body)
        assert got.status_code == 422, body
        assert got.json()["detail"][0]["loc"][-1] == field, got.json()
    assert client.post("/api/learn/bids/answer", content=b"{" * 5000).status_code == 413
    assert client.get("/api/learn/bids/next").json() == q, "a refusal changed nothing"


def post_json(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


@needs_browser
def test_two_answers_show_the_numbers_and_the_score_after_a_reload(
    server: str, browser: Any
) -> None:
    watch = Watch(browser)
    page = watch.page
    page.goto(server + "/learn/bids")
    page.wait_for_selector("[data-testid=practice-call]")
    first = get_json(server + "/api/learn/bids/next?rules=standard&n=0")
    assert page.get_attribute(QUESTION, "data-id") == first["id"]
    shown = page.locator("[data-testid=practice-call]").all_inner_texts()
    assert shown == first["legal"]
    assert page.locator(f"{QUESTION} [data-tile]").count() == 7, "only the seat's own tiles"
    # the first call has the focus: the keyboard answers
    page.keyboard.press("Enter")
    page.wait_for_selector(ANSWER)
    expected = post_json(
        server + "/api/learn/bids/answer", {"id": first["id"], "call": first["legal"][0]}
    )
    assert page.inner_text("[data-testid=practice-verdict]") == expected["verdict"]
    rows = page.locator("[data-testid=practice-row]")
    assert rows.count() == len(expected["calls"])
    mine = page.locator(f"[data-testid=practice-row][data-call='{first['legal'][0]}']")
    row = next(r for r in expected["calls"] if r["call"] == first["legal"][0])
    marks = row["marks"]
    assert f"{'+' if marks >= 0 else ''}{marks:.2f}" in mine.inner_text()
    # a free point bid's chance if it stands, in brackets (the first question is an opening)
    standing = [r for r in expected["calls"] if r["if_stands"] is not None]
    assert standing, "an opening's point bids each say their chance if they stand"
    for r in standing:
        cell = page.locator(f"[data-testid=practice-row][data-call='{r['call']}']").inner_text()
        assert f"({math.floor(100 * r['if_stands'] + 0.5)}% if it stands)" in cell
    assert page.locator("[data-testid=practice-deal] [data-tile]").count() == 28
    assert "Questions: 1" in page.inner_text(SCORE)
    # the next question, answered by a click on its last call
    page.focus("[data-testid=practice-next]")
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"document.querySelector('{QUESTION}')?.dataset.id !== {json.dumps(first['id'])}"
        f" && !document.querySelector('{ANSWER}')"
    )
    second = get_json(server + "/api/learn/bids/next?rules=standard&n=1")
    assert page.get_attribute(QUESTION, "data-id") == second["id"]
    last = second["legal"][-1]
    page.click(f"[data-testid=practice-call][data-call='{last}']")
    page.wait_for_selector(ANSWER)
    two = post_json(server + "/api/learn/bids/answer", {"id": second["id"], "call": last})
    assert page.inner_text("[data-testid=practice-verdict]") == two["verdict"]
    agreed = expected["agrees"] + two["agrees"]
    given_up = expected["given_up"] + two["given_up"]
    score = page.inner_text(SCORE)
    assert "Questions: 2" in score
    assert f"agreed with the expert: {agreed}" in score
    assert f"expected marks given up: {given_up:.2f}" in score
    # the score and the place in the rotation stay on the device
    page.reload()
    page.wait_for_selector("[data-testid=practice-call]")
    assert page.inner_text(SCORE) == score
    third = get_json(server + "/api/learn/bids/next?rules=standard&n=2")
    assert page.get_attribute(QUESTION, "data-id") == third["id"]
    watch.close()
