"""What the server's tests share: an in-process server with test sockets, the hidden-tile
checks, and a real ``texas42 serve`` process with a Chromium page on it.

The fixtures that use these (``client``, ``server``, ``browser``) are in ``tests/faces/conftest.py``.
The browser parts need the Python ``playwright`` package and Debian's ``/usr/bin/chromium``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from texas42.core.game import Game
from texas42.core.tiles import TILE_NAMES, tiles_of
from texas42.faces.server import ServerSettings, create_app
from texas42.faces.server.outbound import SERVER_MESSAGES
from texas42.faces.server.room import Room

# -- in process ---------------------------------------------------------------------------------

FAST = {
    "bot_delay": 0.0,
    "message_rate": 10_000.0,
    "message_burst": 10_000.0,
    "hint_samples": 4,
    "review_samples": 2,
    "create_burst": 10_000.0,
    "work_processes": 0,
    "work_rate": 10_000.0,
}
TILE_WORD = re.compile(r"(?<![\w-])([0-6]-[0-6])(?![\w-])")


OPEN: list[Socket] = []


@contextlib.contextmanager
def make_client(db: Path, **settings: Any) -> Iterator[TestClient]:
    """A server in-process; the sockets a test leaves open are closed before it stops."""
    with TestClient(create_app(ServerSettings(db=str(db), **{**FAST, **settings}))) as client:
        try:
            yield client
        finally:
            while OPEN:
                OPEN[-1].close()


class Socket:
    """A test's WebSocket: every message kept, reading until what the test waits for."""

    def __init__(self, client: TestClient, table: str, **headers: str) -> None:
        self._context = client.websocket_connect(f"/ws/{table}", headers=dict(headers))
        self.ws = self._context.__enter__()
        self.log: list[dict[str, Any]] = []
        self.state: dict[str, Any] = {}
        self.acted = -1
        OPEN.append(self)

    def send(self, **message: Any) -> None:
        self.ws.send_text(json.dumps(message))

    def recv(self) -> dict[str, Any]:
        """The next message, which must be one of the server's classes field for field."""
        message: dict[str, Any] = self.ws.receive_json()
        SERVER_MESSAGES.validate_python(message)
        self.log.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    def until(
        self, kind: str, test: Callable[[dict[str, Any]], bool] = lambda m: True
    ) -> dict[str, Any]:
        while True:
            message = self.recv()
            if message["type"] == kind and test(message):
                return message

    def next_turn(self) -> dict[str, Any]:
        """The first state, newest first, where this seat must act and has not yet."""
        m = self.state
        while not (m and my_turn(m) and m["seq"] != self.acted):
            m = self.until("state")
        return m

    def act(self, state: dict[str, Any], rng: random.Random) -> None:
        self.acted = state["seq"]
        self.send(
            type="act",
            action=rng.choice(state["game"]["hand"]["legal"])["action"],
            seq=state["seq"],
        )

    def hello(self, token: str | None = None) -> dict[str, Any]:
        self.send(type="hello", token=token) if token else self.send(type="hello")
        welcome = self.until("welcome")
        self.until("state")
        return welcome

    def close(self) -> None:
        if self in OPEN:
            OPEN.remove(self)
            self._context.__exit__(None, None, None)


def new_table(client: TestClient, rules: str = "standard") -> str:
    response = client.post("/api/tables", json={"rules": rules, "name": "Test"})
    assert response.status_code == 200, response.text
    table: str = response.json()["id"]
    return table


def seat_with_bots(
    client: TestClient, rules: str = "standard", level: str = "medium"
) -> tuple[str, Socket, str]:
    """A table with the test at North and a bot in every other seat it does not hold, started."""
    table = new_table(client, rules)
    me = Socket(client, table)
    me.hello()
    me.send(type="sit", seat=0, name="Tess")
    token = me.until("seated")["token"]
    seats = me.until("state", lambda m: m["table"]["seats"][0]["kind"] == "human")["table"]["seats"]
    for seat in [s["seat"] for s in seats if s["kind"] == "empty"]:
        me.send(type="bot", seat=seat, level=level)
        me.until("state", lambda m, s=seat: m["table"]["seats"][s]["kind"] == "bot")
    me.send(type="start")
    me.until("state", lambda m: m["game"] is not None)
    return table, me, token


def act_at_random(me: Socket, seed: int, actions: int) -> dict[str, Any]:
    """The test takes ``actions`` random legal actions, each on its turn (the bots between);
    the state of its next turn."""
    rng = random.Random(seed)
    for _ in range(actions):
        me.act(me.next_turn(), rng)
    return me.next_turn()


def settle(sock: Socket, room: Room) -> dict[str, Any]:
    """The socket's state once it has caught up with the room's latest: reads only while a newer
    state is on its way, so it never waits for one that will not come."""
    while sock.state.get("seq") != room.seq:
        sock.recv()
    return sock.state


def my_turn(m: dict[str, Any]) -> bool:
    game = m["game"]
    return bool(game and (game["hand"]["legal"] or game["outcome"]))


def room_of(client: TestClient, table: str) -> Room:
    """The table's room, loaded if it is not in memory (the server loads a table when it is
    first visited)."""
    tables = client.app.state.tables  # type: ignore[attr-defined]
    room: Room | None = tables.rooms.get(table) or client.portal.call(tables.get, table)
    assert room is not None, f"no table {table}"
    return room


# -- hidden information -------------------------------------------------------------------------


def visible_tiles(game: Game, seat: int | None) -> set[str]:
    """Every tile a seat (None: a spectator) has seen so far in the game: the draw, its own
    dealt tiles in each hand, every tile played, which is face up while it is played, and every
    hand laid down by a claim, which lies face up for everyone."""
    seen = {TILE_NAMES[t] for rnd in game.draw_rounds for _, t in rnd}
    for hand in game.hands:
        seen |= {TILE_NAMES[t] for t in hand.plays}
        seen |= {TILE_NAMES[t] for _, claim in hand.claims for t in tiles_of(claim.tiles)}
        if seat is not None:
            seen |= {TILE_NAMES[t] for t in tiles_of(hand.deal[seat])}
    return seen


def tiles_in(value: object) -> set[str]:
    """Every tile in a typed message's fields, walked class by class (dict keys included)."""
    if dataclasses.is_dataclass(value):
        return set().union(*(tiles_in(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if isinstance(value, dict):
        return tiles_in(list(value)) | tiles_in(list(value.values()))
    if isinstance(value, (list, tuple)):
        return set().union(*(tiles_in(item) for item in value))
    return {value} if isinstance(value, str) and value in TILE_NAMES else set()


# -- a real server and a browser -----------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "src" / "texas42" / "faces" / "server" / "web"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
PLAYWRIGHT = importlib.util.find_spec("playwright") is not None
WAIT_MS = 15_000

needs_browser = pytest.mark.skipif(
    not (PLAYWRIGHT and os.path.exists(CHROMIUM)),
    reason="needs the playwright package and /usr/bin/chromium",
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve_command() -> list[str]:
    if importlib.util.find_spec("texas42.__main__") is not None:
        return [sys.executable, "-m", "texas42"]
    script = Path(sys.executable).with_name("texas42")
    return [str(script if script.exists() else shutil.which("texas42"))]


def get_json(url: str, timeout: float = 5) -> Any:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return json.loads(response.read())


@contextlib.contextmanager
def serve(folder: Path, *args: str, port: int | None = None) -> Iterator[str]:
    """A ``texas42 serve`` process on a free port with its database in ``folder`` and bots that
    do not wait; its base URL. ``args`` are more options of ``serve``."""
    port = port or free_port()
    command = [
        *serve_command(),
        "serve",
        "--port",
        str(port),
        "--db",
        str(folder / "t.sqlite"),
        "--bot-delay",
        "0",
        "--create-burst",
        "10000",
        *args,
    ]
    log = folder / "server.log"
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    try:
        while True:
            try:
                get_json(base + "/api/options")
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the server did not start: {log.read_text()}")
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


class Watch:
    """A page with the browser errors it reported; a test fails on any uncaught JS error."""

    def __init__(self, browser: Any, width: int = 1280, height: int = 900) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.set_default_timeout(WAIT_MS)

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


CALLS = (
    "[data-testid=bidding-box] button:not([disabled]), "
    "[data-testid=trump-box] button:not([disabled])"
)
ACTIONABLE = f"""() => {{
  const call = document.querySelector('{CALLS}');
  if (call) return 'call';
  if (document.querySelector('[data-testid=hand] [data-legal=true]:not([disabled])')) return 'tile';
  return '';
}}"""


def seq_of(page: Any) -> str:
    return str(page.get_attribute("[data-testid=table-page]", "data-seq"))


def act_once(page: Any, *, keys: bool = False) -> bool:
    """Take the first legal call or tile if it is this page's turn, by a click or (``keys``) by
    its shortcut; wait for the table to move. The page must say it is our turn."""
    what, status = page.evaluate(
        f"() => [({ACTIONABLE})(), document.querySelector('[data-testid=status]').textContent]"
    )
    if not what:
        return False
    assert status.startswith("Your turn"), status
    before = seq_of(page)
    if what == "call":
        if keys and page.get_attribute(CALLS, "data-action") == "pass":
            page.keyboard.press("p")
        else:
            page.click(CALLS)
    elif keys:
        legal = page.eval_on_selector_all(
            "[data-testid=hand] [data-tile]", "tiles => tiles.map(t => t.dataset.legal)"
        )
        page.keyboard.press(str(legal.index("true") + 1))
    else:
        page.click("[data-testid=hand] [data-legal=true]")
    page.wait_for_function(
        "s => document.querySelector('[data-testid=table-page]').dataset.seq !== s", arg=before
    )
    return True


def hand_number(page: Any) -> int:
    text = page.text_content("[data-testid=hand-number]") or ""
    return int(text.split()[-1]) if text.strip() else 0


def create_table(page: Any, base: str, name: str, *, target: str | None = None) -> str:
    """Create a table in the lobby form (standard rules, maybe a shorter game); its address."""
    page.goto(base + "/")
    page.fill("[data-testid=table-name]", name)
    if target is not None:
        page.fill("[data-testid=option-target]", target)
        page.dispatch_event("[data-testid=option-target]", "change")
    page.click("[data-testid=create-table]")
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    page.wait_for_selector("[data-testid=pregame]")
    return str(page.url)


def sit(page: Any, seat: int, name: str) -> None:
    page.fill("[data-testid=player-name]", name)
    page.click(f"[data-testid=sit-{seat}]")
    page.wait_for_selector(f"[data-testid=seat-{seat}] .badge.you")


def add_bot(page: Any, seat: int, level: str = "medium") -> None:
    page.select_option(f"[data-testid=bot-level-{seat}]", level)
    page.click(f"[data-testid=add-bot-{seat}]")
    page.wait_for_selector(f"[data-testid=seat-{seat}][data-kind=bot]")


def no_horizontal_scroll(page: Any) -> None:
    width, inner = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert width <= inner, f"the page scrolls sideways: {width} > {inner}"


class Player:
    """A person at a seat by a plain WebSocket, no page: passes in the bidding, plays its first
    legal tile, and keeps the newest state it was sent."""

    def __init__(self, base: str, table: str, seat: int, name: str) -> None:
        from websockets.sync.client import connect

        self.open = contextlib.ExitStack()
        self.ws = self.open.enter_context(
            connect(base.replace("http://", "ws://") + f"/ws/{table}")
        )
        self.state: dict[str, Any] = {}
        self.acted = -1
        self.send(type="hello")
        self.send(type="sit", seat=seat, name=name)

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def catch_up(self) -> dict[str, Any]:
        """Read what has come; the newest state."""
        while True:
            try:
                message = json.loads(self.ws.recv(timeout=0.02))
            except TimeoutError:
                return self.state
            if message["type"] == "state":
                self.state = message

    def step(self) -> None:
        state = self.catch_up()
        game = state.get("game")
        legal = [a["action"] for a in game["hand"]["legal"]] if game else []
        if legal and state["seq"] != self.acted:
            self.acted = state["seq"]
            action = "pass" if "pass" in legal else legal[0]
            self.send(type="act", action=action, seq=state["seq"])

    def close(self) -> None:
        self.open.close()


# -- QR codes -----------------------------------------------------------------------------------


def qr_matrix(svg: str) -> tuple[tuple[int, ...], ...]:
    """The modules an SVG of segno's draws, read back from its path: ``M x y`` starts at the
    top left dark run, ``h n`` draws n dark modules, ``m dx dy`` moves (relative)."""
    size = re.search(r'viewBox="0 0 (\d+) \d+"', svg)
    path = re.search(r'<path[^>]*stroke="#000"[^>]*d="([^"]+)"', svg)
    assert size and path, "not a QR code of segno's"
    width = int(size[1])
    grid = [[0] * width for _ in range(width)]
    x = y = 0.0
    for op, args in re.findall(r"([MmHh])([-\d. ]+)", path[1]):
        numbers = [float(n) for n in args.split()]
        if op == "M":
            x, y = numbers
        elif op == "m":
            x, y = x + numbers[0], y + numbers[1]
        else:
            for column in range(int(x), int(x + numbers[0])):
                grid[int(y)][column] = 1
            x += numbers[0]
    return tuple(tuple(row) for row in grid)


def qr_matrices(link: str) -> list[tuple[tuple[int, ...], ...]]:
    """What segno itself draws for ``link`` at each error level, with the quiet zone of four:
    a QR code says exactly ``link`` when its `qr_matrix` is one of them."""
    import segno

    found = []
    for error in "lmqh":
        code = segno.make_qr(link, error=error)
        found.append(tuple(tuple(int(bool(m)) for m in row) for row in code.matrix_iter(border=4)))
    return found
