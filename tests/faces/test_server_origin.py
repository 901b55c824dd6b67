"""The server answers only to its own names (issue 18, item 5): a page whose name was made to
resolve to the server's address (DNS rebinding) sends ``Host: evil.test`` and a matching Origin,
and is refused on both WebSockets and over HTTP; the bound address, localhost, the
``--public-url``'s origin, ``--allow-origin`` ones and programs that send no Origin get in."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

from texas42.faces.server.origins import Gate, bound_hosts
from texas42.faces.server.room import ServerSettings
from webtest import Socket, TestClient, make_client, new_table, serve

PORT = 4242
HOSTS = bound_hosts("127.0.0.1", PORT)
PUBLIC = "https://tables.example.org"
FRIEND = "https://friend.example"


@contextlib.contextmanager
def gated(tmp_path: Path, **settings: object) -> Iterator[TestClient]:
    """A server in-process that was started on 127.0.0.1:4242, as ``serve`` would be (and
    answers to the test client's own name, ``testserver``, which it sends unless told)."""
    with make_client(tmp_path / "g.sqlite", hosts=(*HOSTS, "testserver"), **settings) as client:
        yield client


def refused(client: TestClient, path: str, **headers: str) -> int:
    """The close code of a WebSocket the server refuses before accepting it."""
    with (
        pytest.raises(WebSocketDisconnect) as caught,
        client.websocket_connect(path, headers=headers) as ws,
    ):
        ws.receive_json()
    return caught.value.code


# -- the names --------------------------------------------------------------------------------


def test_the_names_a_server_answers_to_follow_the_address_it_listens_on() -> None:
    assert bound_hosts("127.0.0.1", 4242) == ("127.0.0.1:4242", "localhost:4242", "[::1]:4242")
    assert set(bound_hosts("localhost", 8000)) == {
        "localhost:8000",
        "127.0.0.1:8000",
        "[::1]:8000",
    }
    every = bound_hosts("0.0.0.0", 4242, lambda: ["192.168.1.20", "fd00::20", "169.254.1.1"])
    assert every == ("192.168.1.20:4242", "127.0.0.1:4242", "localhost:4242", "[::1]:4242")
    both = bound_hosts("::", 4242, lambda: ["192.168.1.20", "fd00::20", "fe80::1%eth0"])
    assert "[fd00::20]:4242" in both and "192.168.1.20:4242" in both
    assert "[fe80::1]:4242" not in both and "[::1]:4242" in both
    assert bound_hosts("192.168.1.20", 4242) == ("192.168.1.20:4242",)
    assert bound_hosts("127.0.0.1", 80)[:2] == ("127.0.0.1:80", "127.0.0.1")


def test_the_gate_trusts_no_host_a_request_names() -> None:
    settings = ServerSettings(hosts=HOSTS, public_url=PUBLIC, allowed_origins=(FRIEND,))
    gate = Gate.of(settings)
    assert gate.host_ok("127.0.0.1:4242") and gate.host_ok("LOCALHOST:4242")
    assert gate.host_ok("tables.example.org") and gate.host_ok("friend.example")
    assert not gate.host_ok("evil.test") and not gate.host_ok("127.0.0.1:4243")
    assert gate.origin_ok("http://localhost:4242") and gate.origin_ok(PUBLIC)
    assert gate.origin_ok(FRIEND) and gate.origin_ok(None)
    assert not gate.origin_ok("http://evil.test") and not gate.origin_ok("null")
    assert not gate.origin_ok("http://tables.example.org")  # not the public URL's scheme
    # in-process, with no names given, any Host is taken but no origin of its
    loose = Gate.of(ServerSettings())
    assert loose.host_ok("evil.test") and not loose.origin_ok("http://testserver")


# -- WebSockets -------------------------------------------------------------------------------


def test_a_forged_host_and_origin_cannot_open_either_socket(tmp_path: Path) -> None:
    with gated(tmp_path) as client:
        table = new_table(client, "standard")
        forged = {"host": "evil.test", "origin": "http://evil.test"}
        assert refused(client, f"/ws/{table}", **forged) == 1008
        assert refused(client, "/ws/lobby", **forged) == 1008
        # the server's own Host does not let another page's origin in either
        own = {"host": "127.0.0.1:4242", "origin": "http://evil.test"}
        assert refused(client, f"/ws/{table}", **own) == 1008
        # nor does a forged Host from a program that sends no Origin
        assert refused(client, f"/ws/{table}", host="evil.test") == 1008


def test_the_servers_own_origins_and_programs_without_one_get_in(tmp_path: Path) -> None:
    with gated(tmp_path, public_url=PUBLIC, allowed_origins=(FRIEND,)) as client:
        table = new_table(client, "standard")
        for host, origin in [
            ("127.0.0.1:4242", "http://127.0.0.1:4242"),
            ("localhost:4242", "http://localhost:4242"),
            ("[::1]:4242", "http://[::1]:4242"),
            ("tables.example.org", PUBLIC),
            ("127.0.0.1:4242", FRIEND),
        ]:
            assert Socket(client, table, host=host, origin=origin).hello()["seat"] is None
            with client.websocket_connect("/ws/lobby", headers={"host": host, "origin": origin}):
                pass
        assert Socket(client, table, host="127.0.0.1:4242").hello()["seat"] is None
        assert Socket(client, table).hello()["seat"] is None  # no Origin at all


def test_the_lobby_socket_takes_the_public_urls_origin_too(tmp_path: Path) -> None:
    with (
        make_client(tmp_path / "l.sqlite", public_url=PUBLIC) as client,
        client.websocket_connect("/ws/lobby", headers={"origin": PUBLIC}) as ws,
    ):
        assert ws.receive_json()["type"] == "lobby"


# -- HTTP -------------------------------------------------------------------------------------


def test_http_requests_naming_another_host_are_misdirected(tmp_path: Path) -> None:
    with gated(tmp_path) as client:
        evil = {"host": "evil.test"}
        made = client.post("/api/tables", json={"name": "x"}, headers=evil)
        assert made.status_code == 421
        assert "does not answer to the name 'evil.test'" in made.json()["error"]
        assert client.get("/api/lobby", headers=evil).status_code == 421
        assert client.get("/", headers=evil).status_code == 421
        saved = client.post(
            "/api/house-rules", json={"name": "x", "rules": "standard"}, headers=evil
        )
        assert saved.status_code == 421
        # nothing was made
        own = {"host": "127.0.0.1:4242"}
        assert client.get("/api/lobby", headers=own).json() == {"type": "lobby", "tables": []}
        assert client.get("/api/house-rules", headers=own).json()["house_rules"] == []


def test_a_post_from_another_sites_page_is_refused(tmp_path: Path) -> None:
    with gated(tmp_path) as client:
        own = {"host": "127.0.0.1:4242"}
        page = {**own, "origin": "http://localhost:4242"}
        other = {**own, "origin": "http://evil.test"}
        body = {"name": "Grandma", "rules": "standard"}
        assert client.post("/api/house-rules", json=body, headers=other).status_code == 403
        assert client.post("/api/tables", json={}, headers=other).status_code == 403
        assert client.get("/api/options", headers=other).status_code == 200  # reading is fine
        assert client.post("/api/house-rules", json=body, headers=page).status_code == 200
        assert client.post("/api/tables", json={}, headers=own).status_code == 200  # no Origin


# -- a real server ------------------------------------------------------------------------------


def _upgrade(port: int, host: str, origin: str | None, path: str = "/ws/lobby") -> int:
    """The status a WebSocket handshake to the server gets: 101 when it is let in."""
    lines = [
        f"GET {path} HTTP/1.1",
        f"Host: {host}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
    ]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        status = sock.recv(4096).split(b"\r\n", 1)[0]
    return int(status.split()[1])


def _status(url: str, host: str) -> int:
    request = urllib.request.Request(url, headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return exc.code


def test_a_served_process_answers_to_its_bound_address_and_localhost_only(tmp_path: Path) -> None:
    with serve(tmp_path, "--allow-origin", "http://localhost:8000/") as base:
        port = int(base.rsplit(":", 1)[1])
        own = f"127.0.0.1:{port}"
        assert _upgrade(port, own, f"http://{own}") == 101
        assert _upgrade(port, f"localhost:{port}", f"http://localhost:{port}") == 101
        assert _upgrade(port, own, "http://localhost:8000") == 101  # --allow-origin, tidied
        assert _upgrade(port, own, None) == 101
        assert _upgrade(port, "evil.test", "http://evil.test") == 403
        assert _upgrade(port, own, "http://evil.test") == 403
        assert _status(base + "/api/options", own) == 200
        assert _status(base + "/api/options", f"evil.test:{port}") == 421


def test_serve_refuses_an_allowed_origin_that_is_not_one() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "texas42", "serve", "--allow-origin", "evil.test/page"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "--allow-origin" in done.stderr + done.stdout
    assert "Traceback" not in done.stderr
