"""Running the server for others: ``/healthz`` and ``/readyz``, the JSON access log (never a
token or a tile in it), and one process per SQLite file (two real processes)."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from pg import Cluster
from texas42.faces.cli import app as cli
from texas42.faces.server import migrate
from texas42.faces.server.storage import database_url, open_engine
from webtest import TILE_WORD, Socket, free_port, make_client, new_table, serve_command

FIELDS = {"time", "method", "path", "status", "duration", "client"}


def set_revision(db: str, revision: str) -> None:
    engine = open_engine(database_url(db))
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("UPDATE alembic_version SET version_num = :r"), {"r": revision})
    finally:
        engine.dispose()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_healthz_answers_and_readyz_says_whether_the_schema_is_current(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    db = str(tmp_path / "h.sqlite") if backend == "sqlite" else request.getfixturevalue("pg_url")
    with make_client(db) as c:
        alive = c.get("/healthz")
        assert alive.status_code == 200 and alive.json() == {"status": "ok"}
        assert alive.headers["cache-control"] == "no-store"
        ready = c.get("/readyz")
        assert ready.status_code == 200 and ready.json() == {"status": "ready"}
        set_revision(db, "0099")  # as a newer texas42 would leave it
        stale = c.get("/readyz")
        assert stale.status_code == 503 and stale.json()["status"] == "not ready"
        assert "0099, which this texas42 does not know" in stale.json()["reason"]
        assert c.get("/healthz").status_code == 200  # alive all the same
        set_revision(db, migrate.head())
        assert c.get("/readyz").status_code == 200


def test_readyz_is_503_while_the_database_does_not_answer(pg_url: str, pg_cluster: Cluster) -> None:
    name = pg_url.split("/")[3].split("?", maxsplit=1)[0]
    with make_client(pg_url) as c:
        assert c.get("/readyz").status_code == 200
        pg_cluster.sql(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        pg_cluster.sql(
            f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"
        )
        down = c.get("/readyz")
        assert down.status_code == 503, down.text
        assert down.json()["reason"].startswith("the database does not answer")
        assert c.get("/healthz").status_code == 200
        pg_cluster.sql(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        assert c.get("/readyz").status_code == 200


def test_the_access_log_has_one_line_a_request_and_no_token(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    secrets = ["querysecret123", "bearersecret456", "cookiesecret789", "invitesecret000"]
    caplog.set_level(logging.INFO, logger="texas42.access")
    with make_client(tmp_path / "a.sqlite", access_log=True) as c:
        table = new_table(c)
        assert (
            c.get(
                f"/api/lobby?token={secrets[0]}&invite={secrets[3]}",
                headers={"Authorization": f"Bearer {secrets[1]}", "Cookie": f"seat={secrets[2]}"},
            ).status_code
            == 200
        )
        assert c.get("/api/tables/nothing").status_code == 404
        me = Socket(c, table)
        me.hello()
        me.send(type="sit", seat=0, name="Tess")
        seat_token = me.until("seated")["token"]
        me.close()
        again = Socket(c, table)
        again.hello(seat_token)  # the seat token rides in a message, and is never logged
        again.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "texas42.access"]
    entries = [json.loads(line) for line in lines]
    assert all(set(entry) == FIELDS for entry in entries)
    seen = [(e["method"], e["path"], e["status"]) for e in entries]
    assert ("POST", "/api/tables", 200) in seen
    assert ("GET", "/api/lobby", 200) in seen
    assert ("GET", "/api/tables/nothing", 404) in seen
    assert seen.count(("WEBSOCKET", f"/ws/{table}", 101)) == 2
    assert all(e["client"] == "testclient" and e["duration"] >= 0 for e in entries)
    text = "\n".join(lines)
    for secret in [*secrets, seat_token]:
        assert secret not in text
    assert "?" not in text and not TILE_WORD.search(text)


def test_access_log_takes_json_or_off() -> None:
    result = CliRunner().invoke(cli, ["serve", "--access-log", "loud"])
    assert result.exit_code == 2 and "--access-log: json or off" in result.output


def start(folder: Path, port: int, *args: str) -> subprocess.Popen[bytes]:
    command = [*serve_command(), "serve", "--port", str(port), "--db", str(folder / "t.sqlite")]
    log = (folder / f"server-{port}.log").open("w")
    with log:
        return subprocess.Popen([*command, *args], stdout=log, stderr=subprocess.STDOUT)


def wait_ready(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + 40
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=5) as r:
                assert json.loads(r.read()) == {"status": "ready"}
                return
        except (OSError, urllib.error.URLError):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the server did not start: {log.read_text()}")
            time.sleep(0.1)


def test_a_second_process_on_one_sqlite_file_is_refused_until_the_first_is_gone(
    tmp_path: Path,
) -> None:
    first_port = free_port()
    first = start(tmp_path, first_port, "--access-log", "json")
    try:
        wait_ready(first, first_port, tmp_path / f"server-{first_port}.log")
        with urllib.request.urlopen(
            f"http://127.0.0.1:{first_port}/healthz?token=querysecret", timeout=5
        ) as r:
            assert r.status == 200
        second = subprocess.run(
            [
                *serve_command(),
                "serve",
                "--port",
                str(free_port()),
                "--db",
                str(tmp_path / "t.sqlite"),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert second.returncode == 2
        assert f"another texas42 serve (process {first.pid}) is using" in second.stderr
        assert "SQLite serves one process" in second.stderr
        os.kill(first.pid, signal.SIGKILL)  # the operating system drops the lock with it
        first.wait(10)
        logged = (tmp_path / f"server-{first_port}.log").read_text().splitlines()
        health = [json.loads(line) for line in logged if line.startswith("{")]
        assert {"method": "GET", "path": "/healthz", "status": 200}.items() <= health[-1].items()
        assert "querysecret" not in "\n".join(logged)
        third_port = free_port()
        third = start(tmp_path, third_port)
        try:
            wait_ready(third, third_port, tmp_path / f"server-{third_port}.log")
        finally:
            third.terminate()
            third.wait(10)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait(10)
