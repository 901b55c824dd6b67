"""What one client may cost the server (``faces/server/guard.py``): request bodies refused before
they are read or as soon as they pass their route's limit, and, on a real ``texas42 serve``
with short settings, slow requests closed, a connection cap that refuses the connections beyond
it at once and keeps serving the ones it has, WebSockets counted in it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner
from websockets.sync.client import ClientConnection, connect

from texas42.faces.cli import app as cli_app
from texas42.faces.server import ServerSettings, create_app
from texas42.faces.server.app import BODY_LIMITS, MAX_RECORD_BYTES, TABLE_REQUEST_BYTES
from texas42.faces.server.guard import DESCRIPTORS_KEPT, connection_cap, open_files_limit
from webtest import TestClient, free_port, new_table, serve

EXAMPLES = Path(__file__).parents[2] / "examples"
CHUNK = 65_536
WAIT = 15.0
"""A generous deadline for what the server must do within a second or two."""
CAP = 20
SHORT = 2
"""The real server's header, keep-alive and body timeouts, in seconds: short, with room for a
busy machine to open the sockets a test holds before the first of them times out."""


# -- request bodies, in process -----------------------------------------------------------------


class Sent:
    """One request sent to the app at the ASGI level: its body comes from ``chunks`` as the app
    asks for it, so ``pulled`` counts the bytes the app read."""

    def __init__(
        self,
        db: Path,
        method: str,
        path: str,
        headers: dict[str, str],
        chunks: Iterator[bytes],
        **settings: Any,
    ) -> None:
        self.pulled = 0
        self.messages: list[dict[str, Any]] = []
        app = create_app(ServerSettings(db=str(db), **settings))
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "scheme": "http",
            "server": ("127.0.0.1", 4242),
            "client": ("127.0.0.1", 50000),
            "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        }

        async def receive() -> dict[str, Any]:
            chunk = next(chunks, None)
            if chunk is None:
                await asyncio.Event().wait()  # a client that sends nothing more
            assert chunk is not None
            self.pulled += len(chunk)
            return {"type": "http.request", "body": chunk, "more_body": True}

        async def send(message: dict[str, Any]) -> None:
            self.messages.append(message)

        asyncio.run(asyncio.wait_for(app(scope, receive, send), WAIT))

    @property
    def status(self) -> int:
        status: int = self.messages[0]["status"]
        return status

    def json(self) -> Any:
        return json.loads(b"".join(m.get("body", b"") for m in self.messages[1:]))

    def header(self, name: bytes) -> bytes | None:
        return dict(self.messages[0]["headers"]).get(name)


def endless() -> Iterator[bytes]:
    while True:
        yield b"x" * CHUNK


def untouched() -> Iterator[bytes]:
    raise AssertionError("the body was read")
    yield b""  # pragma: no cover


def test_a_streamed_body_far_over_the_limit_is_cut_off_at_the_limit(tmp_path: Path) -> None:
    """A chunked body with no length: read no further than the limit and one chunk beyond."""
    sent = Sent(
        tmp_path / "t.sqlite", "POST", "/api/replay", {"transfer-encoding": "chunked"}, endless()
    )
    assert sent.status == 413
    assert sent.json() == {"error": f"a record is at most {MAX_RECORD_BYTES} bytes"}
    assert sent.header(b"connection") == b"close"
    assert MAX_RECORD_BYTES < sent.pulled <= MAX_RECORD_BYTES + CHUNK


def test_a_body_longer_than_its_length_said_is_cut_off_too(tmp_path: Path) -> None:
    sent = Sent(tmp_path / "t.sqlite", "POST", "/api/tables", {"content-length": "100"}, endless())
    assert sent.status == 413 and sent.pulled <= TABLE_REQUEST_BYTES + CHUNK


@pytest.mark.parametrize(
    ("method", "path", "length"),
    [
        ("POST", "/api/replay", 200_000_000),
        ("POST", "/api/tables", 50_000_000),
        ("POST", "/api/tables", TABLE_REQUEST_BYTES + 1),
        ("POST", "/api/house-rules", 5000),
        ("GET", "/api/options", 10),
        ("POST", "/api/nowhere", 10),
    ],
)
def test_a_length_over_the_limit_is_refused_before_a_byte_is_read(
    tmp_path: Path, method: str, path: str, length: int
) -> None:
    headers = {"content-length": str(length)}
    sent = Sent(tmp_path / "t.sqlite", method, path, headers, untouched())
    assert sent.status == 413 and sent.pulled == 0
    limit, what = BODY_LIMITS.get((method, path), (0, ""))
    said = f"{what} is at most {limit} bytes" if limit else f"{method} {path} takes no body"
    assert sent.json() == {"error": said}


def test_a_length_that_is_not_a_number_is_refused(tmp_path: Path) -> None:
    headers = {"content-length": "12abc"}
    sent = Sent(tmp_path / "t.sqlite", "POST", "/api/tables", headers, untouched())
    assert sent.status == 400 and "Content-Length" in sent.json()["error"]


def test_a_body_that_does_not_arrive_in_time_is_refused(tmp_path: Path) -> None:
    headers = {"content-length": "1000"}
    chunks = iter([b"{"])
    sent = Sent(tmp_path / "t.sqlite", "POST", "/api/tables", headers, chunks, body_seconds=0.2)
    assert sent.status == 408 and "did not arrive" in sent.json()["error"]


def test_every_route_that_takes_a_body_has_its_limit(tmp_path: Path) -> None:
    app = create_app(ServerSettings(db=str(tmp_path / "t.sqlite")))
    taking = {
        (method.upper(), path)
        for path, operations in app.openapi()["paths"].items()
        for method in operations
        if method in {"post", "put", "patch"}
    }
    assert taking == set(BODY_LIMITS)


def test_docs_name_every_route_that_takes_a_body_with_its_limit() -> None:
    """docs/web.md's limits say "every other route none": so each route with a body is named."""
    doc = " ".join((Path(__file__).parents[2] / "docs" / "web.md").read_text().split())
    bodies = doc[doc.index("**Bodies.**") : doc.index("every other route none")]
    for (method, path), (limit, _) in BODY_LIMITS.items():
        assert f"`{method} {path}` {limit:,}" in bodies, (method, path, limit)


def test_bodies_under_their_limits_are_served_as_before(client: TestClient) -> None:
    assert new_table(client)
    record = (EXAMPLES / "ex14-marks.json").read_bytes()
    assert client.post("/api/replay", content=record).status_code == 200
    saved = client.post("/api/house-rules", json={"name": "Friday", "rules": "nello"})
    assert saved.status_code == 200 and saved.json()["name"] == "Friday"
    bad = client.post("/api/tables", json={"rules": "nonsense"})
    assert bad.status_code == 400  # read and answered by the route, not the limit
    assert client.get("/api/options").status_code == 200


# -- descriptors and the cap ---------------------------------------------------------------------


def test_the_cap_stays_under_the_descriptor_limit() -> None:
    assert connection_cap(1000, 1024) == 1024 - DESCRIPTORS_KEPT
    assert connection_cap(20, 1024) == 20
    assert connection_cap(1000, None) == 1000
    assert connection_cap(1000, 50) == 1


def test_the_soft_descriptor_limit_is_raised_to_the_hard_one() -> None:
    resource = pytest.importorskip("resource")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        pytest.skip("no hard limit on open files to raise the soft one to")
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, hard, 512), hard))
    try:
        assert open_files_limit() == hard == resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_serve_keeps_its_cap_under_a_low_descriptor_limit(tmp_path: Path) -> None:
    """Started with 1,024 files allowed, ``serve`` caps its connections 100 under and says so."""
    pytest.importorskip("resource")
    # the limit is set in the server's own process, just before the CLI runs in it
    start = (
        "import resource, runpy, sys; "
        "resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024)); "
        "sys.argv = ['texas42', *sys.argv[1:]]; runpy.run_module('texas42', run_name='__main__')"
    )
    command = [sys.executable, "-c", start, "serve", "--port", str(free_port())]
    command += ["--db", str(tmp_path / "t.sqlite")]
    log = tmp_path / "server.log"
    with log.open("w") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        said = f"At most {1024 - DESCRIPTORS_KEPT} connections: 1024 files may be open."
        while said not in log.read_text():
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
    finally:
        process.terminate()
        process.wait(10)


@pytest.mark.parametrize(
    "bad",
    [
        ["--header-seconds", "0"],
        ["--keep-alive-seconds", "0"],
        ["--body-seconds", "-1"],
        ["--max-connections", "0"],
    ],
)
def test_serve_refuses_limits_that_make_no_sense(bad: list[str]) -> None:
    result = CliRunner().invoke(cli_app, ["serve", *bad])
    assert result.exit_code == 2 and bad[0] in result.output


# -- a real server with short settings -----------------------------------------------------------


@pytest.fixture(scope="module")
def short(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = ["--header-seconds", str(SHORT), "--keep-alive-seconds", str(SHORT)]
    settings += ["--body-seconds", str(SHORT)]
    with serve(tmp_path_factory.mktemp("limits"), *settings, "--max-connections", str(CAP)) as base:
        yield base


def _port(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


def _open(base: str, data: bytes = b"") -> socket.socket:
    """A connection to the server that sends ``data`` (``HOST`` in it: the server's own host and
    port, the name it answers to)."""
    sock = socket.create_connection(("127.0.0.1", _port(base)), timeout=WAIT)
    if data:
        sock.sendall(data.replace(b"HOST", f"127.0.0.1:{_port(base)}".encode()))
    return sock


def _answer(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a test fails on a timeout)."""
    chunks = []
    while chunk := sock.recv(CHUNK):
        chunks.append(chunk)
    return b"".join(chunks)


def _get(base: str, path: str = "/api/options") -> bytes:
    with _open(
        base, f"GET {path} HTTP/1.1\r\nHost: HOST\r\nConnection: close\r\n\r\n".encode()
    ) as s:
        return _answer(s)


def _served(base: str) -> None:
    """The server answers again (the connections it closed are gone from its count)."""
    deadline = time.monotonic() + WAIT
    while not _get(base).startswith(b"HTTP/1.1 200"):
        assert time.monotonic() < deadline, "the server did not answer again"
        time.sleep(0.1)


def _table_socket(stack: contextlib.ExitStack, base: str) -> ClientConnection:
    """A spectator's WebSocket at a new table, greeted."""
    table = json.loads(_post(base, "/api/tables", b'{"name": "Slow"}').split(b"\r\n\r\n", 1)[1])
    url = f"ws://127.0.0.1:{_port(base)}/ws/{table['id']}"
    ws = stack.enter_context(connect(url, open_timeout=WAIT))
    ws.send(json.dumps({"type": "hello"}))
    assert _next(ws, "welcome")["seat"] is None
    return ws


def _post(base: str, path: str, body: bytes) -> bytes:
    head = f"POST {path} HTTP/1.1\r\nHost: HOST\r\nConnection: close\r\n"
    head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    with _open(base, head.encode() + body) as s:
        return _answer(s)


def _next(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=WAIT))
        if message["type"] == kind:
            return message


def test_a_half_sent_request_is_closed_by_the_server(short: str) -> None:
    with _open(short, b"GET /api/options HTTP/1.1\r\nHost: HOST\r\n") as half, _open(short) as mute:
        assert _answer(half) == b""
        assert _answer(mute) == b""


def test_headers_over_their_limit_are_refused_and_endless_ones_cut_off(short: str) -> None:
    with _open(short, b"GET /api/options HTTP/1.1\r\nX-Pad: " + b"a" * 100_000 + b"\r\n\r\n") as s:
        assert _answer(s).startswith(b"HTTP/1.1 400")
    sent = 0
    # a header without end: the server reads at most its limit and one read more, answers 431
    # and closes, so sending fails long before 50 MB however fast the machine sends
    with _open(short, b"GET /api/options HTTP/1.1\r\nX-Pad: ") as s:
        with pytest.raises(OSError):
            while sent < 50_000_000:
                s.sendall(b"a" * CHUNK)
                sent += CHUNK
        with contextlib.suppress(OSError):
            answer = s.recv(CHUNK)
            assert not answer or answer.startswith(b"HTTP/1.1 431")
    assert sent < 50_000_000


def test_a_body_that_stops_coming_is_answered_408(short: str) -> None:
    head = b"POST /api/replay HTTP/1.1\r\nHost: HOST\r\nContent-Length: 1000\r\n\r\n{"
    with _open(short, head) as s:
        answer = _answer(s)
    assert answer.startswith(b"HTTP/1.1 408")
    assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"].startswith("the request's body")


def test_a_huge_length_is_refused_at_once_and_a_huge_stream_early(short: str) -> None:
    head = b"POST /api/replay HTTP/1.1\r\nHost: HOST\r\nContent-Length: 200000000\r\n\r\n"
    with _open(short, head) as s:
        assert _answer(s).startswith(b"HTTP/1.1 413")
    chunked = b"POST /api/replay HTTP/1.1\r\nHost: HOST\r\nTransfer-Encoding: chunked\r\n\r\n"
    sent = 0
    # the server stops reading and closes: sending fails
    with _open(short, chunked) as s, pytest.raises(OSError):
        while sent < 50_000_000:
            s.sendall(b"%x\r\n" % CHUNK + b"x" * CHUNK + b"\r\n")
            sent += CHUNK
    assert sent < 50_000_000


def test_beyond_the_cap_connections_are_refused_and_the_held_ones_served(short: str) -> None:
    """One WebSocket and slow sockets fill the cap; a new connection gets a 503 at once, the
    WebSocket plays on, and once the slow ones are closed the server answers again."""
    _served(short)
    with contextlib.ExitStack() as stack:
        ws = _table_socket(stack, short)
        slow = [stack.enter_context(_open(short, b"GET / HTTP/1.1\r\n")) for _ in range(CAP - 1)]
        refused = _get(short)
        assert refused.startswith(b"HTTP/1.1 503")
        assert json.loads(refused.split(b"\r\n\r\n", 1)[1])["error"].startswith(
            "the server is full"
        )
        ws.send(json.dumps({"type": "sit", "seat": 0, "name": "Ann"}))
        assert _next(ws, "seated")["seat"] == 0
        for sock in slow:
            assert _answer(sock) == b""  # closed by the header timeout
        _served(short)
        time.sleep(
            SHORT + 0.5
        )  # past the header timeout: a WebSocket is not a request awaiting headers
        ws.send(json.dumps({"type": "ping"}))
        assert _next(ws, "pong") == {"type": "pong"}


def test_websockets_count_against_the_cap(short: str) -> None:
    _served(short)
    lobby = f"ws://127.0.0.1:{_port(short)}/ws/lobby"
    with contextlib.ExitStack() as stack:
        held = [stack.enter_context(connect(lobby, open_timeout=WAIT)) for _ in range(CAP)]
        upgrade = "GET /ws/lobby HTTP/1.1\r\nHost: HOST\r\nUpgrade: websocket\r\n"
        upgrade += "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        upgrade += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        with _open(short, upgrade.encode()) as refused:
            assert _answer(refused).startswith(b"HTTP/1.1 503")
        assert _get(short).startswith(b"HTTP/1.1 503")
        held.pop().close()
        _served(short)
        for ws in held:
            ws.send(json.dumps({"type": "ping"}))
            assert _next(ws, "pong") == {"type": "pong"}


def test_a_kept_alive_connection_serves_its_next_request_then_is_closed_when_idle(
    short: str,
) -> None:
    request = b"GET /api/options HTTP/1.1\r\nHost: HOST\r\n\r\n"
    with _open(short, request) as s:
        first = s.recv(CHUNK)
        assert first.startswith(b"HTTP/1.1 200")
        length = int(first.split(b"content-length: ", 1)[1].split(b"\r\n", 1)[0])
        while len(first.split(b"\r\n\r\n", 1)[1]) < length:
            first += s.recv(CHUNK)
        s.sendall(request.replace(b"HOST", f"127.0.0.1:{_port(short)}".encode()))
        assert _answer(s).startswith(b"HTTP/1.1 200")  # the second answer, then the idle close
