"""How long ``texas42 serve`` takes to start on a database of many old tables or one long log.

    .venv/bin/python benchmarks/bench_start.py [--lobby-tables 5000] [--events 90000]
        [--src PATH]

Builds two SQLite databases in a temporary folder, with plain SQL in the shape the server
writes: one with ``--lobby-tables`` public tables waiting in the lobby (a listing and one person
seated each), one with a single table whose log has ``--events`` events (Ann at North and three
bots, game after game to 7 marks played by first legal actions, rematched, ending at Ann's turn so
no bot moves). Then, on each, it starts ``python -m texas42 serve`` (with ``--src`` first on
``PYTHONPATH``: another checkout's ``src`` measures that version) and times how long it takes to
answer ``GET /api/options``, then the first ``GET /api/lobby`` and ``GET /api/tables/{id}`` of
the long table; the server is stopped and started again on the same database, and the same
requests are timed once more (a version with snapshots loads the long table from the snapshot
its first visit wrote). One line of JSON per run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from texas42.core.actions import action_words  # noqa: E402
from texas42.core.game import Game  # noqa: E402
from texas42.core.rules import Rules  # noqa: E402

START_SECONDS = 300
LONG_TABLE = "longtable"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


SCHEMA = """
CREATE TABLE tables (id VARCHAR(32) PRIMARY KEY, name VARCHAR(80) NOT NULL, rules TEXT NOT NULL,
  status VARCHAR(16) NOT NULL, created FLOAT NOT NULL, updated FLOAT NOT NULL,
  public BOOLEAN NOT NULL DEFAULT FALSE);
CREATE TABLE events (table_id VARCHAR(32) NOT NULL REFERENCES tables (id), seq INTEGER NOT NULL,
  kind VARCHAR(16) NOT NULL, data TEXT NOT NULL, at FLOAT NOT NULL, PRIMARY KEY (table_id, seq));
CREATE INDEX tables_by_status ON tables (status);
CREATE INDEX tables_by_listing ON tables (public, status);
"""
"""The two tables a log needs, as every version of the server has made them; each version adds
what else it needs when it opens the file."""


def lobby_database(path: Path, count: int) -> None:
    now = time.time()
    with contextlib.closing(sqlite3.connect(path)) as conn, conn:
        conn.executescript(SCHEMA)
        conn.executemany(
            "INSERT INTO tables VALUES (?, ?, 'standard', 'lobby', ?, ?, 1)",
            [(f"lobby{n}", f"Table {n}", now - count + n, now - count + n) for n in range(count)],
        )
        sit = json.dumps({"seat": 0, "name": "Ann", "digest": "0" * 64, "player": None})
        conn.executemany(
            "INSERT INTO events VALUES (?, ?, ?, ?, ?)",
            [
                row
                for n in range(count)
                for row in (
                    (f"lobby{n}", 0, "listing", '{"public": true}', now),
                    (f"lobby{n}", 1, "sit", sit, now),
                )
            ],
        )


def long_log(events: int) -> list[tuple[str, str]]:
    rules = Rules()
    rows = [("sit", json.dumps({"seat": 0, "name": "Ann", "digest": "0" * 64, "player": None}))]
    rows += [
        ("bot", json.dumps({"seat": s, "level": "medium", "name": f"Bot {s}"})) for s in (1, 2, 3)
    ]
    number = 1
    rows.append(("start", json.dumps({"game": 1, "seed": 1})))
    game = Game(rules, 1)
    while len(rows) < events or game.seat_to_act() != 0 or game.is_over():
        if game.is_over():
            number += 1
            rows.append(("rematch", json.dumps({"game": number, "seed": number})))
            game = Game(rules, number)
            continue
        seat = game.seat_to_act()
        action = game.legal_actions()[0]
        rows.append(
            ("action", json.dumps({"game": number, "seat": seat, "action": action_words(action)}))
        )
        game.apply(action)
    return rows


def long_database(path: Path, events: int) -> int:
    rows = long_log(events)
    with contextlib.closing(sqlite3.connect(path)) as conn, conn:
        conn.executescript(SCHEMA)
        conn.execute(
            "INSERT INTO tables VALUES (?, 'Long', 'standard', 'playing', 1.0, 1.0, 0)",
            (LONG_TABLE,),
        )
        conn.executemany(
            "INSERT INTO events VALUES (?, ?, ?, ?, 1.0)",
            [(LONG_TABLE, seq, kind, data) for seq, (kind, data) in enumerate(rows)],
        )
    return len(rows)


def timed_get(url: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=START_SECONDS) as response:
        response.read()
    return round(time.perf_counter() - start, 3)


@contextlib.contextmanager
def server(db: Path, src: Path) -> Iterator[tuple[str, float]]:
    """A server on ``db``; its base URL and the seconds it took to answer."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, "-m", "texas42", "serve", "--port", str(port), "--db", str(db)]
    command += ["--bot-delay", "0"]
    log = db.with_suffix(".log").open("ab")
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        while True:
            try:
                with urllib.request.urlopen(base + "/api/options", timeout=1):
                    break
            except OSError:
                if process.poll() is not None or time.perf_counter() - start > START_SECONDS:
                    sys.exit("the server did not start: " + db.with_suffix(".log").read_text())
                time.sleep(0.02)
        yield base, round(time.perf_counter() - start, 3)
    finally:
        process.terminate()
        process.wait(60)
        log.close()


def measure(db: Path, src: Path, what: str, table: str | None) -> list[dict[str, Any]]:
    runs = []
    for start in ("first", "again"):
        with server(db, src) as (base, seconds):
            run: dict[str, Any] = {"database": what, "start": start, "start_seconds": seconds}
            run["lobby_seconds"] = timed_get(base + "/api/lobby")
            if table is not None:
                run["table_seconds"] = timed_get(f"{base}/api/tables/{table}")
            runs.append(run)
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lobby-tables", type=int, default=5000)
    parser.add_argument("--events", type=int, default=90_000)
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        empty = Path(folder) / "empty.sqlite"
        lobby = Path(folder) / "lobby.sqlite"
        long = Path(folder) / "long.sqlite"
        lobby_database(lobby, args.lobby_tables)
        events = long_database(long, args.events)
        source = str(args.src.resolve())
        for run in [
            *measure(empty, args.src, "empty", None),
            *measure(lobby, args.src, f"{args.lobby_tables} lobby tables", None),
            *measure(long, args.src, f"one table of {events} events", LONG_TABLE),
        ]:
            print(json.dumps({**run, "src": source}), flush=True)


if __name__ == "__main__":
    main()
