"""Expensive work (reviews, hints, replays) is bounded per client and in all, shared, and kept
out of the tables' way (issue 18, item 1): `texas42.faces.server.work`."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from texas42.core import words
from texas42.faces.server import work
from texas42.faces.server.work import Busy, Cache, Work, replay_job, review_job
from texas42.players import hints, review
from webtest import (
    Socket,
    TestClient,
    free_port,
    get_json,
    make_client,
    room_of,
    seat_with_bots,
    serve_command,
)

EXAMPLE = Path(__file__).parents[2] / "examples" / "ex14-marks.json"
SAFETY = 60.0
"""Seconds after which a test's held-back work is let go anyway, so a broken server fails the
test instead of hanging it."""


def finish_hand_one(me: Socket, rng: random.Random) -> dict[str, Any]:
    """Play North (bots elsewhere) until hand 1 is over; the state then."""
    while True:
        m = me.next_turn()
        if m["game"]["hand_number"] > 1 or m["game"]["outcome"]:
            return m
        me.act(m, rng)


@pytest.fixture
def gate() -> Iterator[threading.Event]:
    """An event the held-back jobs wait on: set by the test, or after `SAFETY` seconds."""
    event = threading.Event()
    timer = threading.Timer(SAFETY, event.set)
    timer.start()
    yield event
    event.set()
    timer.cancel()


def held(gate: threading.Event, real: Callable[..., Any], calls: list[Any]) -> Callable[..., Any]:
    """``real``, counted in ``calls``, that waits for ``gate`` before it runs."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        gate.wait()
        return real(*args, **kwargs)

    return wrapper


# -- the pool by itself -------------------------------------------------------------------------


def test_identical_requests_share_one_computation_and_its_answer_is_kept() -> None:
    calls: list[int] = []
    gate = threading.Event()

    def job(n: int) -> str:
        calls.append(n)
        gate.wait(SAFETY)
        return f"answer {n}"

    async def scenario() -> None:
        pool = Work(0, per_client=1, limit=1, cache_bytes=1000)
        first = pool.submit("ann", "k", job, 1)
        second = pool.submit("bob", "k", job, 1)  # waits for Ann's: it adds no work
        with pytest.raises(Busy):
            pool.submit("cat", "other", job, 2)  # the one computation allowed is under way
        with pytest.raises(Busy):
            pool.submit("ann", "k", job, 1)  # Ann waits for one answer already
        gate.set()
        assert await first == await second == "answer 1"
        assert calls == [1]
        # kept: served at once to anyone, whatever is under way, and not computed again
        gate.clear()
        busy = pool.submit("dan", "other", job, 3)
        assert await pool.submit("dan", "k", job, 1) == "answer 1"
        gate.set()
        assert await busy == "answer 3"
        assert calls == [1, 3]
        await pool.stop()
        with pytest.raises(Busy):
            pool.submit("eve", None, job, 4)

    asyncio.run(scenario())


def test_one_client_may_ask_only_so_often_even_for_kept_answers() -> None:
    async def scenario() -> None:
        pool = Work(0, per_client=5, limit=5, cache_bytes=1000, rate=1.0)
        pool.cache.put("k", "kept")
        assert await pool.submit("ann", "k", str, 1) == "kept"
        assert await pool.submit("ann", "k", str, 1) == "kept"  # a burst of twice the rate
        with pytest.raises(Busy, match="a second"):
            pool.submit("ann", "k", str, 1)
        assert await pool.submit("bob", "k", str, 1) == "kept"  # a bucket each
        await pool.stop()

    asyncio.run(scenario())


def test_the_cache_drops_the_least_recently_used_past_its_bytes() -> None:
    cache = Cache(max_bytes=40)
    cache.put("a", "x" * 10)
    cache.put("b", (200, "y" * 10))
    cache.put("c", "z" * 10)
    assert cache.get("a") == "x" * 10  # a is now the most recently used
    cache.put("d", "w" * 10)
    cache.put("e", "v" * 10)
    cache.put("f", (400, "u" * 10))
    assert cache.get("b") is None and cache.get("c") is None
    assert cache.get("a") == "x" * 10 and cache.get("f") == (400, "u" * 10)
    assert cache.size == 40 and len(cache) == 4
    cache.put("huge", "h" * 11)  # over a quarter of the whole: never kept
    assert cache.get("huge") is None and cache.get("a") is not None


# -- at a table ---------------------------------------------------------------------------------


def test_a_hands_review_is_computed_once_and_the_kept_one_is_a_fresh_one(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = review.review_hand
    calls: list[Any] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(review, "review_hand", counted)
    lines: list[Any] = []
    play_line = words.play_review_line
    monkeypatch.setattr(words, "play_review_line", lambda *a: lines.append(a) or play_line(*a))
    table, me, _ = seat_with_bots(client)
    finish_hand_one(me, random.Random(5))
    me.send(type="review", hand=1)
    first = me.until("review")
    written = len(lines)
    me.send(type="review", hand=1)
    again = me.until("review")
    assert again == first and len(calls) == 1
    # what this asker is sent is kept too: its words are not written again
    assert written > 0 and len(lines) == written
    # review_hand is deterministic for a hand: the kept figures are what a fresh review gives
    room = room_of(client, table)
    assert room.game is not None and room.work is not None
    hand = room.game.hands[0]
    samples = room.settings.review_samples
    fresh = json.loads(review_job(hand.copy(), 1, samples))
    assert fresh == json.loads(review_job(hand.copy(), 1, samples))
    # the kept figures are every seat's; mid-game North is sent only North's own plays
    own = [p for p in fresh["plays"] if p["seat"] == 0]
    assert len(own) < len(fresh["plays"])
    assert [{k: p[k] for k in own[0]} for p in first["plays"]] == own
    room.work.cache = Cache(room.work.cache.max_bytes)  # forgotten: computed again, the same
    before = len(calls)
    me.send(type="review", hand=1)
    assert me.until("review") == first and len(calls) == before + 1


def test_one_connection_waits_for_its_hints_before_it_may_ask_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gate: threading.Event
) -> None:
    calls: list[Any] = []
    monkeypatch.setattr(hints, "advise", held(gate, hints.advise, calls))
    with make_client(tmp_path / "h.sqlite", work_per_client=1) as client:
        _table, me, _ = seat_with_bots(client)
        m = me.next_turn()
        me.send(type="hint")
        me.send(type="hint")
        refused = me.until("error")
        assert refused["code"] == "busy" and "wait for" in refused["message"]
        assert not gate.is_set(), "refused at once, while the first was still being worked on"
        gate.set()
        assert me.until("hints")["seq"] == m["seq"]
        me.send(type="hint")
        assert me.until("hints")["seq"] == m["seq"]
        assert len(calls) == 2


def test_past_the_limit_in_all_http_replays_are_refused_with_503_and_retry_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gate: threading.Event
) -> None:
    calls: list[Any] = []
    monkeypatch.setattr(work, "check_record", held(gate, work.check_record, calls))
    body = EXAMPLE.read_bytes()
    with make_client(tmp_path / "r.sqlite", work_limit=1, work_per_client=5) as client:
        answers: list[Any] = []
        first = threading.Thread(
            target=lambda: answers.append(client.post("/api/replay", content=body))
        )
        first.start()
        while not calls:  # the first is being computed
            assert first.is_alive()
            threading.Event().wait(0.01)
        refused = client.post("/api/replay", content=body + b"\n")  # another record, by hash
        assert refused.status_code == 503
        assert refused.headers["retry-after"] == str(work.RETRY_AFTER)
        assert "busy" in refused.json()["error"]
        assert not gate.is_set()
        gate.set()
        first.join(SAFETY)
        assert answers[0].status_code == 200
        later = client.post("/api/replay", content=body + b"\n")
        assert later.status_code == 200 and later.json() == answers[0].json()
        # the first record's frames are kept: asked again, nothing is computed
        assert client.post("/api/replay", content=body).json() == answers[0].json()
        assert len(calls) == 2


def test_a_tables_bots_keep_playing_while_a_flood_of_replays_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gate: threading.Event
) -> None:
    """Thirty replays held back, more than the threads the tables' own work runs in: the
    flood waits in the pool (what does not fit is refused), the bots go on."""
    calls: list[Any] = []
    monkeypatch.setattr(work, "check_record", held(gate, work.check_record, calls))
    body = EXAMPLE.read_bytes()
    with make_client(tmp_path / "f.sqlite", work_per_client=100) as client:
        _table, me, _ = seat_with_bots(client)
        statuses: list[int] = []

        def ask(n: int) -> None:
            statuses.append(client.post("/api/replay", content=body + b" " * n).status_code)

        flood = [threading.Thread(target=ask, args=(n,)) for n in range(30)]
        for thread in flood:
            thread.start()
        pool = client.app.state.tables.work  # type: ignore[attr-defined]
        while pool.pending + statuses.count(503) < 30:  # admitted (and held back) or refused
            threading.Event().wait(0.01)
        rng = random.Random(2)
        seen = len(me.log)
        bots_moved = 0
        while bots_moved < 3 and not gate.is_set():  # North acts until the bots have, thrice
            me.act(me.next_turn(), rng)
            me.next_turn()
            bots_moved = sum(
                1
                for s in me.log[seen:]
                if s["type"] == "state" and s["last"] is not None and s["last"]["seat"] != 0
            )
        assert bots_moved >= 3
        assert not gate.is_set(), "the bots played only once the flood was let go"
        gate.set()
        for thread in flood:
            thread.join(SAFETY)
        assert sorted(set(statuses)) == [200, 503] and len(statuses) == 30
        assert statuses.count(200) == len(calls) == pool.limit


def test_the_work_runs_in_a_worker_process_that_ends_with_the_app(tmp_path: Path) -> None:
    """Hints, a review and a replay answered from a worker process (their arguments and answers
    cross to it and back), the same as computed here, at a lower priority than the server's;
    the app's stop ends the process."""
    with make_client(tmp_path / "p.sqlite", work_processes=1) as client:
        table, me, _ = seat_with_bots(client)
        m = me.next_turn()
        me.send(type="hint")
        found = me.until("hints")
        assert {h["action"] for h in found["hints"]} == {
            a["action"] for a in m["game"]["hand"]["legal"]
        }
        finish_hand_one(me, random.Random(3))
        me.send(type="review", hand=1)
        reviewed = me.until("review")
        room = room_of(client, table)
        assert room.game is not None and room.work is not None
        fresh = json.loads(review_job(room.game.hands[0].copy(), 1, room.settings.review_samples))
        assert [p["cost"] for p in reviewed["plays"]] == [
            p["cost"] for p in fresh["plays"] if p["seat"] == 0
        ]
        text = EXAMPLE.read_text()
        response = client.post("/api/replay", content=text)
        status, expected = replay_job(text)
        assert (response.status_code, response.json()) == (status, json.loads(expected))
        pids = room.work.worker_pids()
        assert pids and os.getpid() not in pids
        # where they share a core, the tables' process goes first
        own = psutil.Process().nice()
        assert psutil.Process(pids[0]).nice() == min(19, own + work.WORKER_NICENESS)
    for pid in pids:
        assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


def test_the_worker_ends_when_the_server_is_killed(tmp_path: Path) -> None:
    """A server killed with SIGKILL cannot stop its pool: the worker sees it gone and ends, so
    restarts after crashes leave no processes behind."""
    port = free_port()
    command = [*serve_command(), "serve", "--port", str(port), "--db", str(tmp_path / "k.sqlite")]
    with (tmp_path / "server.log").open("w") as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    workers: list[psutil.Process] = []
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + SAFETY
        while True:
            try:
                get_json(base + "/api/options")
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline
                time.sleep(0.1)
        request = urllib.request.Request(base + "/api/replay", EXAMPLE.read_bytes(), method="POST")
        with urllib.request.urlopen(request, timeout=SAFETY) as response:
            assert response.status == 200
        workers = [
            p
            for p in psutil.Process(server.pid).children()
            if "spawn_main" in " ".join(p.cmdline())
        ]
        assert workers
        server.kill()
        server.wait()
        _gone, alive = psutil.wait_procs(workers, timeout=SAFETY)
        assert not alive
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        for worker in workers:
            if worker.is_running():
                worker.kill()
