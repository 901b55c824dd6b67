"""Invite links that reach friends: ``serve --host`` and ``--public-url``, the start message, the
links the server makes, and the QR code of a table's invite link."""

from __future__ import annotations

import json
import re
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from texas42.core.errors import Texas42Error
from texas42.faces.cli import app
from texas42.faces.server.invite import (
    check_public_url,
    fib_trie_addresses,
    if_inet6_addresses,
    local_addresses,
    reachable_addresses,
    start_message,
)
from webtest import (
    Socket,
    TestClient,
    get_json,
    make_client,
    new_table,
    qr_matrices,
    qr_matrix,
    serve,
    serve_command,
)

PUBLIC = "https://tables.example.org"

FIB_TRIE = """Main:
  +-- 0.0.0.0/0 3 0 5
     |-- 0.0.0.0
        /0 universe UNICAST
     +-- 127.0.0.0/8 2 0 2
        +-- 127.0.0.0/31 1 0 0
           |-- 127.0.0.0
              /8 host LOCAL
           |-- 127.0.0.1
              /32 host LOCAL
        |-- 127.255.255.255
           /32 link BROADCAST
     +-- 192.168.1.0/24 2 0 2
        +-- 192.168.1.0/27 2 0 2
           |-- 192.168.1.0
              /24 link UNICAST
           |-- 192.168.1.20
              /32 host LOCAL
        |-- 192.168.1.255
           /32 link BROADCAST
"""

IF_INET6 = """00000000000000000000000000000001 01 80 10 80       lo
fe8000000000000000fc00fffe000001 02 40 20 80     eth0
fd000000000000000000000000000020 02 40 00 80     eth0
"""


# -- the public URL -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("https://tables.example.org", "https://tables.example.org"),
        ("https://tables.example.org/", "https://tables.example.org"),
        ("HTTP://Tables.Example.ORG:80", "http://tables.example.org"),
        ("http://example.test:9999", "http://example.test:9999"),
        ("https://example.test:443/", "https://example.test"),
        ("http://192.168.1.20:4242", "http://192.168.1.20:4242"),
        ("http://[FD00::20]:4242/", "http://[fd00::20]:4242"),
        ("https://bücher.example", "https://xn--bcher-kva.example"),
    ],
)
def test_a_public_url_is_kept_as_an_origin(given: str, kept: str) -> None:
    assert check_public_url(given) == kept


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("", "http:// or https://"),
        ("tables.example.org", "starts with http:// or https://"),
        ("ftp://tables.example.org", "starts with http:// or https://"),
        ("javascript:alert(1)", "starts with http:// or https://"),
        ("https://", "names a host"),
        ("https://tables.example.org/?x=1", "no query"),
        ("https://tables.example.org/#x", "fragment"),
        ("https://tables.example.org/t/", "without a path"),
        ("https://ann:secret@tables.example.org", "no user or password"),
        ("https://tables.example.org:99999", "port"),
        ("https://tables.example.org:0", "port"),
        ("https://tables example.org", "http:// or https://"),
        ("http://[::1", "not an address"),
        ("http://[zz]/", "not an address"),
        ("http://%41", "not a host name"),
        ("http://\\evil.example", "not a host name"),
        ("http://a..b", "not a host name"),
    ],
)
def test_a_bad_public_url_is_refused_saying_why(given: str, said: str) -> None:
    with pytest.raises(Texas42Error, match=re.escape(said)):
        check_public_url(given)


def test_serve_refuses_a_bad_public_url_before_starting(tmp_path: Path) -> None:
    for bad in ("ftp://example.test", "https://example.test/?q=1", "https://example.test/sub"):
        result = CliRunner().invoke(
            app, ["serve", "--db", str(tmp_path / "t.sqlite"), "--public-url", bad]
        )
        assert result.exit_code == 2, result.output
        assert "--public-url: a public URL" in result.output
        assert "texas42 table: open" not in result.output
    # the installed command too, on stderr, with nothing started and no database made
    done = subprocess.run(
        [*serve_command(), "serve", "--db", str(tmp_path / "p.sqlite"), "--public-url", "x:y"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("--public-url: a public URL starts with http:// or https://")
    assert done.stdout == ""
    assert not (tmp_path / "p.sqlite").exists()


# -- the links the server makes -----------------------------------------------------------------


def _seat_link(client: TestClient, table: str) -> str:
    me = Socket(client, table)
    me.hello()
    me.send(type="sit", seat=0, name="Ann")
    seated = me.until("seated")
    link: str = seated["link"]
    assert link.endswith(f"/t/{table}#token={seated['token']}")
    me.close()
    return link


def test_without_a_public_url_links_stay_relative(client: TestClient) -> None:
    made = client.post("/api/tables", json={"name": "Friday"}).json()
    assert made["url"] == f"/t/{made['id']}"
    assert _seat_link(client, made["id"]).startswith(f"/t/{made['id']}#token=")
    # the invite link is whole, on the address the request came to
    invite = client.get(f"/api/tables/{made['id']}/invite").json()
    assert invite == {"url": f"http://testserver/t/{made['id']}"}


def test_with_a_public_url_every_link_starts_with_it(tmp_path: Path) -> None:
    with make_client(tmp_path / "p.sqlite", public_url=PUBLIC) as client:
        made = client.post("/api/tables", json={"name": "Friday"}).json()
        assert made["url"] == f"{PUBLIC}/t/{made['id']}"
        assert _seat_link(client, made["id"]).startswith(f"{PUBLIC}/t/{made['id']}#token=")
        invite = client.get(f"/api/tables/{made['id']}/invite").json()
        assert invite == {"url": f"{PUBLIC}/t/{made['id']}"}
        # a request naming another host gets the public link all the same
        other = client.get(f"/api/tables/{made['id']}/invite", headers={"host": "evil.example"})
        assert other.json() == {"url": f"{PUBLIC}/t/{made['id']}"}


def test_a_browser_on_the_public_url_may_open_the_table_socket(tmp_path: Path) -> None:
    with make_client(tmp_path / "o.sqlite", public_url=PUBLIC, hosts=("testserver",)) as client:
        table = new_table(client)
        Socket(client, table, origin=PUBLIC).hello()
        Socket(client, table, origin="http://testserver").hello()
        with pytest.raises(WebSocketDisconnect):
            Socket(client, table, origin="https://evil.example").hello()
        with pytest.raises(WebSocketDisconnect):
            Socket(client, table, origin="http://tables.example.org").hello()


# -- the QR code --------------------------------------------------------------------------------


def test_the_qr_code_says_exactly_the_invite_link(tmp_path: Path) -> None:
    with make_client(tmp_path / "q.sqlite", public_url=PUBLIC) as client:
        table = new_table(client)
        response = client.get(f"/api/tables/{table}/invite.svg")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("image/svg+xml")
        assert "default-src 'none'" in response.headers["content-security-policy"]
        svg = response.text
        assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and svg.rstrip().endswith(
            "</svg>"
        )
        link = f"{PUBLIC}/t/{table}"
        assert f"<title>{link}</title>" in svg
        assert "token" not in svg
        assert qr_matrix(svg) in qr_matrices(link)
        assert qr_matrix(svg) not in qr_matrices(f"{PUBLIC}/t/{table}x")
        assert client.get("/api/tables/nosuchtable/invite.svg").status_code == 404
        assert client.get("/api/tables/nosuchtable/invite").status_code == 404


def test_without_a_public_url_the_qr_code_says_the_requests_address(client: TestClient) -> None:
    table = new_table(client)
    svg = client.get(f"/api/tables/{table}/invite.svg").text
    assert qr_matrix(svg) in qr_matrices(f"http://testserver/t/{table}")


# -- where other machines open the server -------------------------------------------------------


def test_interface_addresses_are_read_from_linux_proc_files() -> None:
    assert fib_trie_addresses(FIB_TRIE) == ["127.0.0.1", "192.168.1.20"]
    assert if_inet6_addresses(IF_INET6) == ["::1", "fe80::fc:ff:fe00:1", "fd00::20"]
    assert fib_trie_addresses("not a table") == []
    assert if_inet6_addresses("zz\n") == []


def test_this_machines_addresses_are_found_without_failing() -> None:
    found = local_addresses()
    assert all(isinstance(address, str) and address for address in found)
    # whatever the machine has, the lists are made of real, openable addresses
    for address in reachable_addresses("::"):
        assert not address.startswith(("127.", "::1", "fe80:"))


MACHINE = ["127.0.0.1", "127.0.1.1", "192.168.1.20", "::1", "fe80::1%eth0", "fd00::20", "10.0.0.7"]


def test_reachable_addresses_leave_out_what_no_other_machine_can_open() -> None:
    assert reachable_addresses("0.0.0.0", lambda: MACHINE) == ["10.0.0.7", "192.168.1.20"]
    assert reachable_addresses("::", lambda: [*MACHINE, "::ffff:192.168.1.20"]) == [
        "10.0.0.7",
        "192.168.1.20",
        "fd00::20",
    ]
    assert reachable_addresses("192.168.1.20", lambda: MACHINE) == ["192.168.1.20"]
    for local in ("127.0.0.1", "::1", "localhost"):
        assert reachable_addresses(local, lambda: MACHINE) == []


def test_the_start_message_lists_the_addresses_other_machines_open() -> None:
    lines = start_message("0.0.0.0", 4242, "/data/t.sqlite", None, lambda: MACHINE)
    assert lines == [
        "texas42 table: open http://localhost:4242/  (games in /data/t.sqlite; Ctrl-C stops)",
        "  Other machines on your network can open:",
        "    http://10.0.0.7:4242/",
        "    http://192.168.1.20:4242/",
    ]
    lines = start_message("::", 8000, "/data/t.sqlite", PUBLIC, lambda: MACHINE)
    assert lines[2:] == [
        "    http://10.0.0.7:8000/",
        "    http://192.168.1.20:8000/",
        "    http://[fd00::20]:8000/",
        f"  Invite and seat links start with {PUBLIC}/ (--public-url)",
    ]
    nothing = start_message("0.0.0.0", 4242, "x", None, lambda: ["127.0.0.1"])
    assert "no network address was found" in nothing[1]


def test_the_start_message_says_a_local_server_is_local_and_how_to_open_it() -> None:
    for host in ("127.0.0.1", "localhost", "::1"):
        lines = start_message(host, 4242, "/data/t.sqlite", None, lambda: MACHINE)
        assert lines[0].startswith("texas42 table: open http://localhost:4242/")
        assert lines[1:] == [
            (
                "  Only this machine can open it; to let other machines on your network join, "
                "add --host 0.0.0.0"
            )
        ]
        assert "192.168" not in "\n".join(lines)
    lines = start_message("192.168.1.20", 4242, "x", None, lambda: MACHINE)
    assert lines == ["texas42 table: open http://192.168.1.20:4242/  (games in x; Ctrl-C stops)"]


def test_a_real_server_on_every_address_prints_them_and_links_to_its_public_url(
    tmp_path: Path,
) -> None:
    public = "http://example.test:9999"
    with serve(tmp_path, "--host", "0.0.0.0", "--public-url", public) as base:
        made = get_json(base + "/api/options")
        assert made["levels"]
        log = tmp_path / "server.log"
        deadline = time.monotonic() + 30
        while "--public-url" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
        text = log.read_text()
        lines = text.splitlines()
        assert lines[0].startswith("texas42 table: open http://localhost:")
        assert f"  Invite and seat links start with {public}/ (--public-url)" in lines
        port = base.rsplit(":", 1)[1]
        listed = [line.strip() for line in lines if re.fullmatch(r"    http://\S+/", line)]
        assert listed == [f"http://{a}:{port}/" for a in reachable_addresses("0.0.0.0")]
        if not listed:
            assert "no network address was found" in text
        for url in listed:
            assert get_json(url + "api/options")["levels"]
        request = urllib.request.Request(
            base + "/api/tables",
            data=json.dumps({"name": "Friday"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            created = json.loads(response.read())
        assert created["url"] == f"{public}/t/{created['id']}"
