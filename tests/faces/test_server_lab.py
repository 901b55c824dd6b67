"""The hand laboratory over HTTP (``/learn/lab``, ``/api/learn/lab``): boards, edits and figures,
bad input refused naming what, the figures' pool limits, and no way in for a live table."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from texas42.core.tiles import tile_name
from texas42.faces.server import learn_lab, work
from texas42.faces.server.outbound import LabBoard, LabFigures, LabHands, read
from texas42.players.review import solve_position
from texas42.services.learn import lab
from webtest import TestClient, make_client

EXAMPLE = Path(__file__).parents[2] / "examples" / "ex14-marks.json"
DEAL = "standard 0-0 1 3 64.63.62.61.43.40.20/53.42.33.31.22.11.00/66.55.54.52.51.41.21/65.60.50.44.32.30.10 0:- - - 0"
SAMPLES = 8


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setattr(learn_lab, "SAMPLES", SAMPLES)
    with make_client(tmp_path / "lab.sqlite") as made:
        yield made


def edit(client: TestClient, position: str, **change: Any) -> dict[str, Any]:
    answer = client.post("/api/learn/lab/edit", json={"position": position, **change})
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    read(LabBoard, body)
    return body


def test_the_page_is_the_app_and_a_random_deal_is_a_board(client: TestClient) -> None:
    page = client.get("/learn/lab?p=" + DEAL)
    assert page.status_code == 200 and "/static/app.js" in page.text
    first = client.get("/api/learn/lab/random?seed=4").json()
    read(LabBoard, first)
    assert first == client.get("/api/learn/lab/random?seed=4").json()
    assert first["position"] == lab.random_position(4)
    assert all(len(hand) == 7 for hand in first["hands"]) and first["phase"] == "auction"
    assert client.get("/api/learn/lab/random").status_code == 200
    assert client.get("/api/learn/lab/random?seed=-1").status_code == 422


def test_edits_give_the_positions_the_lab_computes(client: TestClient) -> None:
    board = edit(client, DEAL)
    assert board["position"] == DEAL and board["back"] is None and board["turn"] == 0
    assert board["hands"][0] == ["6-4", "6-3", "6-2", "6-1", "4-3", "4-0", "2-0"]
    assert "sixes" in board["contracts"]
    named = edit(client, DEAL, contract={"seat": 0, "bid": "30", "contract": "sixes"})
    assert (named["bidder"], named["bid"], named["contract"], named["phase"]) == (
        0,
        "30",
        "sixes",
        "play",
    )
    assert set(named["legal"]) == set(board["hands"][0])
    played = edit(client, named["position"], play="6-4")
    assert played["plays"] == ["6-4"] and played["trick"] == ["6-4"] and played["turn"] == 1
    assert played["back"] == named["position"] and played["start"] == named["position"]
    assert edit(client, played["position"], back=True)["position"] == named["position"]
    swapped = edit(client, named["position"], swap=["2-0", "6-5"])
    expected = lab.swap_tiles(lab.read_position(named["position"]), "2-0", "6-5")
    assert swapped["position"] == lab.write_position(expected)
    assert "6-5" in swapped["hands"][0] and "2-0" in swapped["hands"][3]


def test_the_figures_are_the_labs_and_the_solvers(client: TestClient) -> None:
    named = lab.set_contract(lab.read_position(DEAL), 0, "30", "sixes")
    position = lab.write_position(named)
    answer = client.post("/api/learn/lab", json={"position": position})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    read(LabFigures, body)
    expected = lab.analyse(named, samples=SAMPLES)
    assert (body["seat"], body["bid"], body["need"]) == (0, "30", 30)
    assert [c["contract"] for c in body["contracts"]] == [
        c.contract for c in expected.bid.contracts
    ]
    assert [c["total"] for c in body["contracts"]] == [c.total for c in expected.bid.contracts]
    solution = solve_position(named)
    assert body["value"] == solution.value == 40 and body["unit"] == "points"
    assert [(m["tile"], m["value"], m["best"]) for m in body["moves"]] == [
        (tile_name(m.tile), m.value, m.best) for m in solution.moves
    ]
    assert (
        body["best_line"]
        == "With best play from here, North-South would end with 40 points (0 taken, 40 to come)."
    )
    sixes = next(c for c in body["contracts"] if c["contract"] == "sixes")
    assert sixes["line"].startswith("North bidding 30 in sixes: makes in ")
    assert sixes["line"].endswith("on this deal, with best play, 40 points: made.")
    other = client.post("/api/learn/lab", json={"position": DEAL, "seat": 2, "bid": "31"}).json()
    assert (other["seat"], other["bid"], other["moves"], other["value"]) == (2, "31", [], None)


def test_a_records_hands_open_in_the_lab(client: TestClient) -> None:
    answer = client.post("/api/learn/lab/record", content=EXAMPLE.read_bytes())
    assert answer.status_code == 200, answer.text
    body = answer.json()
    read(LabHands, body)
    (position,) = body["positions"]
    board = edit(client, position)
    assert board["contract"] == "sixes" and len(board["plays"]) == 24 and board["phase"] == "done"
    broken = client.post("/api/learn/lab/record", content=b'{"format": "texas42"')
    assert broken.status_code == 400 and broken.json()["error"]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (
            {"position": DEAL.replace("64.63", "64.64")},
            "position field 5 (deal), seat 0: tile 64 appears twice",
        ),
        ({"position": DEAL.replace("64.63.", "")}, "position field 5 (deal)"),
        ({"position": "standard 0-0"}, "a position has 9 space-separated fields"),
        ({"play": "6-4"}, "play: the hand is not in its play"),
        ({"swap": ["6-4", "6-3"]}, "swap: 6-4 and 6-3 are both in seat 0's hand"),
        ({"swap": ["6-4", "9-9"]}, "swap, second tile"),
        ({"contract": {"seat": 0, "bid": "29", "contract": "sixes"}}, "bid (29 by seat 0)"),
        ({"contract": {"seat": 0, "bid": "30", "contract": "eights"}}, "contract:"),
        ({"back": True}, "back: no tile has been played yet"),
        ({"play": "6-4", "back": True}, "give at most one of swap, contract, play and back"),
    ],
)
def test_a_bad_edit_is_refused_naming_what_and_where(
    client: TestClient, change: dict[str, Any], says: str
) -> None:
    answer = client.post("/api/learn/lab/edit", json={"position": DEAL, **change})
    assert answer.status_code == 400, answer.text
    assert says in answer.json()["error"]


def test_an_illegal_play_is_refused_and_changes_nothing(client: TestClient) -> None:
    named = edit(client, DEAL, contract={"seat": 0, "bid": "30", "contract": "sixes"})
    answer = client.post("/api/learn/lab/edit", json={"position": named["position"], "play": "1-1"})
    assert answer.status_code == 400 and "play (1-1)" in answer.json()["error"]
    assert edit(client, named["position"]) == named


def test_bad_figure_requests_are_refused(client: TestClient) -> None:
    bad = client.post("/api/learn/lab", json={"position": DEAL.replace("64.63", "64.64")})
    assert bad.status_code == 400 and "tile 64 appears twice" in bad.json()["error"]
    seat = client.post("/api/learn/lab", json={"position": DEAL, "seat": 4})
    assert seat.status_code == 400 and "seat: a seat is 0..3" in seat.json()["error"]
    bid = client.post("/api/learn/lab", json={"position": DEAL, "bid": "3x"})
    assert bid.status_code == 400 and "bid: not a bid" in bid.json()["error"]
    assert client.post("/api/learn/lab", json={}).status_code == 422
    assert client.post("/api/learn/lab", content=b"not json").status_code == 422
    long = client.post("/api/learn/lab", json={"position": "x" * 5000})
    assert long.status_code == 413 and "a lab request" in long.json()["error"]


def test_no_lab_route_takes_a_table(client: TestClient) -> None:
    """The lab reads what the learner gives it: a table's id is no field of any request and no
    part of any route, so a hand in play cannot be opened in the lab."""
    created = client.post("/api/tables", json={"bot_level": "easy"}).json()
    table = created["id"]
    for path in ("/api/learn/lab", "/api/learn/lab/edit"):
        answer = client.post(path, json={"position": DEAL, "table": table})
        assert answer.status_code == 422
        assert answer.json()["detail"][0]["loc"] == ["body", "table"]
    paths = [getattr(r, "path", "") for r in learn_lab.router.routes]
    assert len(paths) == 5 and all("{" not in p for p in paths)
    # and a game still being played has no replay, the page the "Open in the lab" link is on
    assert client.get(f"/api/tables/{table}/games/1/replay").status_code in (404, 409)


def test_figures_are_rate_limited_and_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(learn_lab, "SAMPLES", SAMPLES)
    calls: list[Any] = []
    real = learn_lab.figures_job

    def counted(*args: Any) -> tuple[int, str]:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(learn_lab, "figures_job", counted)
    with make_client(tmp_path / "k.sqlite") as client:
        first = client.post("/api/learn/lab", json={"position": DEAL})
        again = client.post("/api/learn/lab", json={"position": DEAL})
        assert first.status_code == again.status_code == 200
        assert first.json() == again.json() and len(calls) == 1  # kept: computed once
    with make_client(tmp_path / "r.sqlite", work_rate=0.01) as client:
        assert client.post("/api/learn/lab", json={"position": DEAL}).status_code == 200
        refused = client.post("/api/learn/lab", json={"position": DEAL})
        assert refused.status_code == 503
        assert refused.headers["retry-after"] == str(work.RETRY_AFTER)
        assert "slow down" in refused.json()["error"]
        later = client.post("/api/learn/lab/record", content=EXAMPLE.read_bytes())
        assert later.status_code == 503  # records count against the same rate


def test_figures_past_the_pool_limit_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = threading.Event()
    calls: list[Any] = []

    def held(*args: Any) -> tuple[int, str]:
        calls.append(args)
        gate.wait(60)
        return 200, json.dumps({"held": True})

    monkeypatch.setattr(learn_lab, "figures_job", held)
    with make_client(tmp_path / "p.sqlite", work_limit=1, work_per_client=5) as client:
        answers: list[Any] = []
        first = threading.Thread(
            target=lambda: answers.append(client.post("/api/learn/lab", json={"position": DEAL}))
        )
        first.start()
        while not calls:
            assert first.is_alive()
            threading.Event().wait(0.01)
        other = lab.random_position(2)  # (DEAL is the deal of seed 1)
        refused = client.post("/api/learn/lab", json={"position": other})
        assert refused.status_code == 503, (refused.text, len(calls), answers)
        assert "busy" in refused.json()["error"]
        gate.set()
        first.join(60)
        assert answers[0].status_code == 200
