"""The web table's FastAPI app: pages, the JSON API, and the WebSocket every table speaks over.

`create_app(settings)` builds the app; `texas42 serve` runs it under uvicorn. The protocol is
documented in ``docs/web.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import gc
import hashlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, HTTPException, Request, WebSocket
from fastapi import Path as FastApiPath
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.websockets import WebSocketDisconnect, WebSocketState

from texas42.core import words
from texas42.core.errors import Texas42Error
from texas42.core.layout import layout_of
from texas42.core.record import MAX_RECORD_BYTES
from texas42.core.rules import OPTION_CHOICES, OPTION_NAMES, PLAYERS_PRESETS, PRESETS, Rules
from texas42.core.words import OPTION_WORDS, option_value_words
from texas42.faces.server import coaching, refusals
from texas42.faces.server import outbound as out
from texas42.faces.server.access_log import AccessLog
from texas42.faces.server.events import BadEvent, SettingsEvent
from texas42.faces.server.guard import BodyLimit, BodyLimits
from texas42.faces.server.health import health
from texas42.faces.server.house_rules import BODY_BYTES as HOUSE_RULES_BYTES
from texas42.faces.server.house_rules import (
    HouseRulesError,
    house_rules_list,
    house_rules_payload,
    read_house_rules,
)
from texas42.faces.server.invite import qr_svg, table_link
from texas42.faces.server.learn_lab import LAB_BODY_LIMITS
from texas42.faces.server.learn_lab import router as lab_router
from texas42.faces.server.learn_lessons import LESSON_CHECK_BYTES
from texas42.faces.server.learn_lessons import router as lessons_router
from texas42.faces.server.learn_practice import ANSWER_PATH as PRACTICE_ANSWER_PATH
from texas42.faces.server.learn_practice import BODY_BYTES as PRACTICE_ANSWER_BYTES
from texas42.faces.server.learn_practice import router as practice_router
from texas42.faces.server.learn_puzzles import ANSWER_BYTES, ANSWER_PATH
from texas42.faces.server.learn_puzzles import router as puzzles_router
from texas42.faces.server.messages import (
    MAX_MESSAGE_BYTES,
    BadMessage,
    Message,
    RateLimit,
    parse_message,
)
from texas42.faces.server.origins import Gate, GateMiddleware
from texas42.faces.server.player_page import PLAYER_GAMES_LIMIT, PLAYER_ID, player_page
from texas42.faces.server.room import Connection, Room, ServerSettings, person_name
from texas42.faces.server.storage import Storage, StoredTable, database_url
from texas42.faces.server.table_limits import CreationLimit, retry_after
from texas42.faces.server.work import RETRY_AFTER, Busy, Work, replay_job
from texas42.players import BOT_NAMES, LEVELS
from texas42.services.learn.coach import COACH_VERSION

if TYPE_CHECKING:
    from texas42.faces.server.cluster import Cluster

GC_THRESHOLDS = (50_000, 20, 100)
"""The collector's generations for a serving process (Python's are 700, 10, 10): with a
thousand tables in memory a full collection stalls every table for a few hundred
milliseconds, and at the default thresholds one came every few seconds; young cycles are
still collected within 50,000 allocations."""

log = logging.getLogger("texas42.faces.server")

WEB_DIR = Path(__file__).parent / "web"
TABLE_REQUEST_BYTES = 8192
"""The most a ``POST /api/tables`` body takes: its longest fields, every character escaped."""
BODY_LIMITS: BodyLimits = {
    ("POST", "/api/tables"): (TABLE_REQUEST_BYTES, "a new table's request"),
    ("POST", "/api/replay"): (MAX_RECORD_BYTES, "a record"),
    ("POST", "/api/house-rules"): (HOUSE_RULES_BYTES, "a house rules request"),
    ("POST", "/api/learn/check"): (LESSON_CHECK_BYTES, "a lesson's move"),
    ("POST", ANSWER_PATH): (ANSWER_BYTES, "a puzzle's answer"),
    ("POST", PRACTICE_ANSWER_PATH): (PRACTICE_ANSWER_BYTES, "a practice answer"),
    **LAB_BODY_LIMITS,
}
"""The body each route takes, read no further (`guard.BodyLimit`); every other route takes none."""
HISTORY_LIMIT = 100
LOBBY_LIMIT = 100
"""The most public tables the lobby lists, newest first."""
LOBBY_DEBOUNCE = 0.5
"""Seconds the lobby's socket gathers changes before it sends the list again."""
GameNumber = Annotated[int, FastApiPath(ge=1, le=1_000_000)]

OPTION_LABELS = {
    name: OPTION_WORDS[name].label
    for name in (
        "all_pass",
        "nello",
        "plunge",
        "splash",
        "sevens",
        "follow_me_doubles",
        "game",
        "target",
        "min_bid",
        "hide_tricks",
        "doubles_choice",
        "nello_doubles",
        "nello_min_marks",
        "first_bidder",
        "first_lead_trump",
        "undeclared_trump",
        "plunge_marks",
        "splash_marks",
        "sevens_min_marks",
    )
}
"""The options a table's creator sees first, by what players call them."""

TABLE_CHOICES: tuple[tuple[str, str], ...] = (
    ("standard", "Texas 42: two teams of two"),
    ("two-hand", "two-hand: each player holds a partnership"),
    ("three-hand", "three-hand 42: the bid winner alone against two"),
    ("moon", "Moon: trick bids, a widow, everyone for themselves"),
    ("five-hand", "the bid winner alone against four"),
    ("six-hand", "three teams of two"),
    ("six-hand,teams=threes", "two teams of three"),
    ("seven-hand", "the bid winner alone against six"),
)
"""The tables the lobby offers by number of players: a rules string and what it is."""


class TableRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rules: str = Field(default="standard", max_length=600)
    name: str = Field(default="", max_length=60)
    public: bool = False
    bot_level: str | None = Field(default=None, min_length=1, max_length=40)
    away_seconds: float | None = Field(default=None, gt=0, le=3600)
    turn_seconds: float | None = Field(default=None, ge=0, le=3600)


class Tables:
    """Every table the server knows: none is loaded at start; each is loaded from storage (its
    latest snapshot and the events after it) when it is first visited, and leaves memory when
    nobody uses it. The lobby lists the tables not in memory from their stored entries."""

    def __init__(self, storage: Storage, settings: ServerSettings) -> None:
        self.storage = storage
        self.settings = settings
        self.rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()
        self.lobby_watchers: set[Connection] = set()
        self._lobby_dirty = False
        self._lobby_task: asyncio.Task[None] | None = None
        self._lobby_sent = ""
        self.creations = CreationLimit(settings.create_per_minute / 60, settings.create_burst)
        """How many tables each client address may create (`POST /api/tables`)."""
        self._entry_keys: dict[str, tuple[object, ...]] = {}
        """What each room's stored lobby entry was made from (`_entry_key`)."""
        self._broken: set[str] = set()
        """Tables whose log could not be replayed (logged once): the lobby does not try them
        again at every list."""
        self.work = Work(
            settings.work_processes,
            settings.work_per_client,
            settings.work_limit,
            settings.work_cache_bytes,
            settings.work_rate,
        )
        """Reviews, hints and replays, bounded and shared (the tables' and the HTTP API's)."""
        self.cluster: Cluster | None = None
        """With several processes on one PostgreSQL, this one's part (`cluster.Cluster`)."""

    async def _restored(self, stored: StoredTable) -> Room | None:
        """The table its snapshot and log give, or None (logged) if the log cannot be
        replayed; a snapshot that cannot be used is passed over for the whole log. Replayed on
        a worker thread: an old log's first load (before it has a snapshot) may take seconds,
        which the other tables must not wait for."""
        try:
            room = await asyncio.to_thread(Room.restore, stored, self.storage, self.settings)
            room.work = self.work
            return room
        except Exception as exc:
            if stored.snapshot is not None:
                log.warning("table %s: its whole log is read, not its snapshot: %s", stored.id, exc)
                full = await self.storage.run(self.storage.load_table, stored.id, snapshot=False)
                return await self._restored(full) if full is not None else None
            if isinstance(exc, BadEvent):
                log.error("not restored: %s", exc)
            else:
                log.exception("table %s could not be restored from its log", stored.id)
        return None

    async def create(
        self, name: str, rules: Rules, public: bool = False, setup: SettingsEvent | None = None
    ) -> Room:
        """A new table; a public one's log begins with its listing, and ``setup``, its settings
        other than the server's defaults, is the event after it."""
        table_id = secrets.token_urlsafe(6)
        name = " ".join(name.split()) or f"Table {table_id}"
        await self.storage.run(self.storage.create_table, table_id, name, str(rules), public=public)
        room = Room(table_id, name, rules, self.storage, self.settings, public=public)
        room.work = self.work
        room.next_event = 1 if public else 0  # a public table's log begins with its listing
        if setup is not None:
            await self.storage.run(self.storage.append, table_id, room.next_event, setup)
            room.next_event += 1
            room.apply_setup(setup)
        self._adopt(room, None)
        self.lobby_changed()
        return room

    def _adopt(self, room: Room, stored_entry: str | None) -> None:
        """A room created or loaded joins the tables in memory, its lobby entry stored if the
        one stored is not its own."""
        self.rooms[room.id] = room
        room.on_change = functools.partial(self._room_changed, room)
        if self.cluster is not None:
            self.cluster.adopt(room)
        self._entry_keys[room.id] = _entry_key(room)
        entry = _stored_entry(room)
        if entry != stored_entry:
            self._save_entry(room.id, entry)
        room.start_task()

    def _room_changed(self, room: Room) -> None:
        """After a room's broadcast: the lobby's watchers may need the list again, and the
        room's stored lobby entry is written again if what it shows changed."""
        self.lobby_changed()
        key = _entry_key(room)
        if self._entry_keys.get(room.id) != key:
            self._entry_keys[room.id] = key
            self._save_entry(room.id, _stored_entry(room))

    def _save_entry(self, table_id: str, entry: str, used: float | None = None) -> None:
        """Queued on the writer now, so it lands after the events already committed."""
        done = self.storage.submit(self.storage.save_lobby_entry, table_id, entry, used)
        done.add_done_callback(_log_failure)

    async def get(self, table_id: str) -> Room | None:
        """The table, loaded if it is not in memory; None if there is none (or it expired)."""
        if table_id in self.rooms:
            return self.rooms[table_id]
        if len(table_id) > 32:
            return None
        async with self._loading:
            if table_id in self.rooms:
                return self.rooms[table_id]
            stored = await self.storage.run(self.storage.load_table, table_id)
            if stored is None or stored.status == "expired":
                return None
            room = await self._restored(stored)
            if room is None:
                if len(self._broken) >= LOBBY_LIMIT:
                    self._broken.clear()
                self._broken.add(table_id)
                return None
            self._adopt(room, stored.lobby_entry)
            # an old log, or one whose snapshot fell behind: snapshotted now, not at every visit
            await room.save_snapshot(every=self.settings.snapshot_events)
            return room

    async def missing(self, table_id: str) -> tuple[int, str]:
        """Why there is no table of that id: its HTTP status (410 if it expired, else 404) and
        the words for it."""
        status = None
        if len(table_id) <= 32:
            status = await self.storage.run(self.storage.table_status, table_id)
        if status == "expired":
            waited = words.duration(self.settings.lobby_expiry)
            return 410, f"table {table_id!r} expired: nobody used it for {waited}"
        return 404, f"no table {table_id!r}"

    async def evict_idle(self) -> int:
        """Drop the tables nobody uses from memory, each with a snapshot, its lobby entry and
        when it was last used stored; they are loaded again when asked for."""
        now = time.monotonic()
        idle = [room for room in self.rooms.values() if room.idle(now)]
        for room in idle:
            del self.rooms[room.id]
            await self._leave_memory(room)
        return len(idle)

    async def _leave_memory(self, room: Room) -> None:
        """Stop a room, then store its snapshot, lobby entry and last use. Stopped first: a
        room stopped in the middle of a step has taken it back or not yet made it (its event
        is applied only once committed), so what is stored is a state of its log."""
        used = time.time() - (time.monotonic() - room.active)
        self._entry_keys.pop(room.id, None)
        if self.cluster is not None:
            self.cluster.forget(room)
        await room.stop()
        await room.save_snapshot()
        self._save_entry(room.id, _stored_entry(room), used)

    async def expire_lobby(self) -> list[str]:
        """Tables waiting in the lobby that nobody has used for ``lobby_expiry`` expire (one in
        memory is in use unless it is as quiet as that); their ids."""
        async with self._loading:  # no table is being loaded while its row may change
            now = time.monotonic()
            for room in list(self.rooms.values()):
                if room.status == "lobby" and room.idle(now, self.settings.lobby_expiry):
                    del self.rooms[room.id]
                    await self._leave_memory(room)
            cutoff = time.time() - self.settings.lobby_expiry
            expired = await self.storage.run(self.storage.expire_lobby, cutoff, set(self.rooms))
        if expired:
            log.info("%d tables nobody used expired", len(expired))
            self.lobby_changed()
        return expired

    async def sweep(self) -> None:
        period = min(self.settings.idle_seconds, self.settings.lobby_expiry)
        while True:
            await asyncio.sleep(max(1.0, min(60.0, period)))
            try:
                await self.evict_idle()
                await self.expire_lobby()
            except Exception:
                log.exception("the sweep of idle tables failed")

    async def stop(self) -> None:
        if self._lobby_task is not None:
            self._lobby_task.cancel()
        for room in list(self.rooms.values()):
            await self._leave_memory(room)
        await self.work.stop()

    # -- the lobby's list of open tables ---------------------------------------------------

    async def lobby(self) -> out.Lobby:
        """The public tables not yet over, newest first, as the lobby lists them: a table in
        memory as it is, another from its stored entry (loaded only if it has none)."""
        rows = await self.storage.run(self.storage.listed_tables, LOBBY_LIMIT)
        listed = []
        for table_id, entry in rows:
            room = self.rooms.get(table_id)
            if room is None and entry is not None:
                with contextlib.suppress(ValueError):
                    listed.append(out.read(out.LobbyTable, json.loads(entry)))
                    continue
            if room is None and table_id in self._broken:
                continue
            room = room or await self.get(table_id)
            if room is not None and room.public and room.status != "over":
                listed.append(lobby_entry(room))
        return out.Lobby(tables=listed)

    def lobby_changed(self) -> None:
        """A table changed: the lobby's watchers get the list again, once the changes of the
        next moment are gathered, and only if it is not what they have."""
        self._lobby_dirty = True
        if self.lobby_watchers and (self._lobby_task is None or self._lobby_task.done()):
            self._lobby_task = asyncio.create_task(self._push_lobby(), name="lobby")

    async def _push_lobby(self) -> None:
        while self._lobby_dirty and self.lobby_watchers:
            await asyncio.sleep(LOBBY_DEBOUNCE)
            self._lobby_dirty = False
            try:
                text = out.encode(await self.lobby())
            except Exception:
                log.exception("the lobby's list could not be made")
                continue
            if text != self._lobby_sent:
                self._lobby_sent = text
                for watcher in list(self.lobby_watchers):
                    watcher.post_text(text)

    async def watch_lobby(self, connection: Connection) -> None:
        """A new watcher of the lobby gets the list at once."""
        text = out.encode(await self.lobby())
        self.lobby_watchers.add(connection)
        if not self._lobby_dirty:
            self._lobby_sent = text
        connection.post_text(text)


def lobby_entry(room: Room) -> out.LobbyTable:
    """A table in the lobby's list: who sits, what is free, who watches; no hand."""
    seats = room.seats
    return out.LobbyTable(
        id=room.id,
        name=room.name,
        url=f"/t/{room.id}",
        status=room.status,
        rules=str(room.rules),
        rules_text=words.rules_text(room.rules),
        seats=len(seats),
        seats_free=[i for i, seat in enumerate(seats) if seat.kind == "empty"],
        players=[s.name for s in seats if s.kind == "human" and s.holder is None],
        bots=[words.bot_label(s.name, s.level) for s in seats if s.kind == "bot" and s.level],
        spectators=sum(1 for c in room.connections if c.seat is None),
    )


def _entry_key(room: Room) -> tuple[object, ...]:
    """What a table's lobby entry is made of, but its spectators: cheap to compare at every
    broadcast, where building the entry is not."""
    seats = tuple((s.kind, s.name, s.level, s.holder) for s in room.seats)
    return (room.status, room.public, seats)


def _stored_entry(room: Room) -> str:
    """A table's lobby entry as storage keeps it: without spectators, who are not in memory."""
    return json.dumps(dataclasses.asdict(dataclasses.replace(lobby_entry(room), spectators=0)))


def _log_failure(done: asyncio.Future[None]) -> None:
    if not done.cancelled() and done.exception() is not None:
        log.error("a table's lobby entry could not be stored: %r", done.exception())


def options_payload(engines: tuple[tuple[str, str], ...] = ()) -> out.Options:
    """What the lobby offers: presets, every option with its kind and default, bot levels."""
    base = Rules()
    options = []
    names = list(OPTION_NAMES)
    names.sort(
        key=lambda n: (
            n not in OPTION_LABELS,
            list(OPTION_LABELS).index(n) if n in OPTION_LABELS else 0,
        )
    )
    for name in names:
        default = getattr(base, name)
        kind: Literal["choice", "bool", "int"]
        if name in OPTION_CHOICES:
            kind, choices = "choice", list(OPTION_CHOICES[name])
        elif isinstance(default, bool):
            kind, choices = "bool", []
        else:
            kind, choices = "int", []
        options.append(
            out.Option(
                name=name,
                label=OPTION_WORDS[name].label,
                help=OPTION_WORDS[name].help,
                kind=kind,
                choices=choices,
                choice_labels=[option_value_words(name, c) for c in choices],
                default=default,
                common=name in OPTION_LABELS,
            )
        )
    tables = [
        out.TableChoice(
            players=_players(Rules.parse(rules)),
            rules=rules,
            label=label,
            default=PLAYERS_PRESETS.get(_players(Rules.parse(rules))) == rules,
        )
        for rules, label in TABLE_CHOICES
    ]
    return out.Options(
        tables=sorted(tables, key=lambda t: t.players),
        presets={
            name: {option: getattr(rules, option) for option in OPTION_NAMES}
            for name, rules in PRESETS.items()
        },
        options=options,
        levels=[*LEVELS, *(name for name, _ in engines if name not in LEVELS)],
        bots=[name for name in BOT_NAMES if name not in LEVELS],
    )


def _players(rules: Rules) -> int:
    """People at a table: its seats, or two in two-hand, where each holds a partnership."""
    seats = layout_of(rules).seats
    return seats // 2 if rules.see_partner else seats


def origin_allowed(websocket: WebSocket) -> bool:
    """A WebSocket must name one of the server's own hosts and, from a browser, come from a
    page of one of its origins (`origins.Gate`): never whatever the request's Host claims.

    Programs that send no Origin (tests, benchmarks, bots) cannot be tricked by a web page, so
    they may connect."""
    gate: Gate = websocket.app.state.gate
    headers = websocket.headers
    return gate.host_ok(headers.get("host")) and gate.origin_ok(headers.get("origin"))


pages = APIRouter(include_in_schema=False)
"""The browser app's pages: one HTML file that reads its route from the address."""

api = APIRouter(prefix="/api")
"""The JSON API the lobby, the replay viewer and outside tools read."""

sockets = APIRouter()
"""One WebSocket per browser tab at a table."""


def create_app(settings: ServerSettings | None = None) -> FastAPI:
    """The table server: the routes below over the storage and tables that ``settings`` name,
    opened when the app starts and closed when it stops."""
    settings = settings or ServerSettings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(database_url(settings.db))
        tables = Tables(storage, settings)
        app.state.storage = storage
        app.state.tables = tables
        if storage.engine.dialect.name == "postgresql":
            from texas42.faces.server.cluster import Cluster  # psycopg: the postgres extra

            tables.cluster = Cluster(storage.url, tables)
            await tables.cluster.start()
        if settings.freeze_gc:
            # the long-lived objects of start-up leave the collector's view, so full collections
            # stay short and rare instead of stalling every table for tens of milliseconds
            gc.collect()
            gc.freeze()
            gc.set_threshold(*GC_THRESHOLDS)
        sweeper = asyncio.create_task(tables.sweep())
        try:
            yield
        finally:
            sweeper.cancel()
            await tables.stop()
            if tables.cluster is not None:
                await tables.cluster.stop()
            storage.close()

    app = FastAPI(title="texas42 table", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.settings = settings
    app.state.gate = Gate.of(settings)
    app.add_middleware(GateMiddleware, gate=app.state.gate)
    app.add_middleware(BodyLimit, limits=BODY_LIMITS, seconds=settings.body_seconds)
    if settings.access_log:  # outermost, so requests the gate or a limit refuses are logged too
        app.add_middleware(AccessLog)
    app.mount("/static", StaticFiles(directory=WEB_DIR, check_dir=False), name="static")
    for router in (pages, api, sockets, health, lessons_router):
        app.include_router(router)
    app.include_router(puzzles_router)
    app.include_router(practice_router)
    app.include_router(lab_router)
    refusals.install(app)
    return app


def _settings(request: Request | WebSocket) -> ServerSettings:
    settings: ServerSettings = request.app.state.settings
    return settings


def _tables(request: Request | WebSocket) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


def _storage(request: Request) -> Storage:
    storage: Storage = request.app.state.storage
    return storage


# -- pages --------------------------------------------------------------------------------------


def _page() -> FileResponse:
    return FileResponse(WEB_DIR / "index.html", media_type="text/html")


@pages.get("/")
async def lobby_page() -> FileResponse:
    return _page()


@pages.get("/t/{table_id}")
async def table_page(table_id: str) -> FileResponse:
    return _page()


@pages.get("/replay")
async def import_page() -> FileResponse:
    return _page()


@pages.get("/replay/{table_id}/{number}")
async def replay_page(table_id: str, number: int) -> FileResponse:
    return _page()


@pages.get("/learn")
async def learn_page() -> FileResponse:
    return _page()


@pages.get("/learn/lesson/{lesson_id}")
async def lesson_page(lesson_id: str) -> FileResponse:
    return _page()


@pages.get("/p/{player_id}")
async def player_page_route(player_id: str) -> FileResponse:
    return _page()


# -- the JSON API -------------------------------------------------------------------------------


@api.get("/options")
async def options(request: Request) -> Response:
    return _json(options_payload(_settings(request).engines))


@api.post("/tables")
async def create_table(body: TableRequest, request: Request) -> Response:
    try:
        rules = Rules.parse(body.rules)
    except Texas42Error as exc:
        raise HTTPException(400, f"rules: {exc}") from None
    levels = [*LEVELS, *BOT_NAMES, *(name for name, _ in _settings(request).engines)]
    if body.bot_level is not None and body.bot_level not in levels:
        raise HTTPException(400, f"bot_level: no bot level {body.bot_level!r}")
    if body.name.strip() and person_name(body.name) is None:
        raise HTTPException(400, "name: a table's name is printable text")
    chosen = (body.bot_level, body.away_seconds, body.turn_seconds)
    setup = (
        SettingsEvent(
            bot_level=body.bot_level,
            away_seconds=body.away_seconds,
            turn_seconds=body.turn_seconds,
        )
        if chosen != (None, None, None)
        else None
    )
    tables = _tables(request)
    wait = tables.creations.take(request.client.host if request.client else "")
    if wait:
        failure = out.Failure(error=words.too_many_tables(wait))
        return Response(
            out.encode(failure),
            429,
            headers={"Retry-After": retry_after(wait)},
            media_type="application/json",
        )
    room = await tables.create(body.name, rules, body.public, setup)
    public = _settings(request).public_url
    return _json(out.Created(id=room.id, url=table_link(public or "", room.id)))


@api.get("/tables/{table_id}")
async def table_summary(table_id: str, request: Request) -> Response:
    room = await _room(request, table_id)
    game = room.game
    return _json(
        out.TableSummary(
            **out.fields_of(room.table_payload()),
            score=list(game.score) if game is not None else None,
            hand_number=game.hand_number if game is not None else None,
        )
    )


@api.get("/tables/{table_id}/invite")
async def table_invite(table_id: str, request: Request) -> Response:
    room = await _room(request, table_id)
    return _json(out.Invite(url=_invite_link(request, room.id)))


@api.get("/tables/{table_id}/invite.svg")
async def table_invite_qr(table_id: str, request: Request) -> Response:
    room = await _room(request, table_id)
    svg = await asyncio.to_thread(qr_svg, _invite_link(request, room.id))
    # an SVG opened by itself is a document: it may run nothing and is never sniffed as another type
    headers = {
        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
        "X-Content-Type-Options": "nosniff",
    }
    return Response(svg, media_type="image/svg+xml", headers=headers)


def _invite_link(request: Request, table_id: str) -> str:
    """A table's whole invite link: on the public URL if the server has one, else on the
    address this request came to (a link for the asker's own page, trusted for nothing else)."""
    base = _settings(request).public_url or str(request.base_url)
    return table_link(base, table_id)


@api.get("/lobby")
async def lobby_list(request: Request) -> Response:
    return Response(out.encode(await _tables(request).lobby()), media_type="application/json")


@api.get("/history")
async def history(request: Request, limit: int = 20) -> Response:
    storage = _storage(request)
    games = await storage.run(storage.history, max(1, min(limit, HISTORY_LIMIT)))
    return _json(games)


@api.get("/tables/{table_id}/games/{number}/record")
async def game_record(table_id: str, number: GameNumber, request: Request) -> Response:
    finished = await _finished(request, table_id, number)
    return Response(
        finished.record,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="texas42-{table_id}-{number}.json"'},
    )


@api.get("/tables/{table_id}/games/{number}/replay")
async def game_replay(table_id: str, number: GameNumber, request: Request) -> Response:
    async def record() -> str:
        return str((await _finished(request, table_id, number)).record)

    # a finished game never changes: its frames are computed once and kept for every asker
    return await _replayed(request, ("replay", table_id, number), record)


@api.post("/replay")
async def import_replay(request: Request) -> Response:
    body = await request.body()  # at most MAX_RECORD_BYTES: BODY_LIMITS
    key = ("import", hashlib.sha256(body).digest())

    async def record() -> str:
        return body.decode("utf-8", errors="replace")

    return await _replayed(request, key, record)


async def _replayed(
    request: Request, key: tuple[Any, ...], record: Callable[[], Awaitable[str]]
) -> Response:
    """A record's replay (`work.replay_job`) from the server's pool, kept under ``key``; 503
    with ``Retry-After`` if this client or the server has too much under way. The record is
    read only for a request the client's rate lets in and whose answer is not kept."""
    client = ("http", request.client.host if request.client else "")
    work = _tables(request).work
    try:
        work.allow(client)
        kept = work.cache.get(key)
        if kept is not None:
            status, text = kept
        else:
            pending = work.submit(client, key, replay_job, await record(), counted=True)
            status, text = await pending
    except Busy as exc:
        return Response(
            out.encode(out.Failure(error=str(exc))),
            503,
            media_type="application/json",
            headers={"Retry-After": str(RETRY_AFTER)},
        )
    return Response(text, status, media_type="application/json")


@api.get("/players/{player_id}")
async def player(player_id: str, request: Request) -> Response:
    storage = _storage(request)
    entries = []
    if PLAYER_ID.match(player_id):
        entries = await storage.run(storage.player_games, player_id, PLAYER_GAMES_LIMIT)
    if not entries:
        return _json(out.Failure(error=f"no finished games for player {player_id[:32]!r}"), 404)
    games = [(entry.game.table_id, entry.game.number) for entry in entries]
    rows = await storage.run(storage.coaching, games, COACH_VERSION)
    # the page's own background work: counted apart from the asker's reviews and replays
    client = ("coach-fill", request.client.host if request.client else "")
    samples = _settings(request).review_samples
    page = await asyncio.to_thread(player_page, player_id, entries, rows)
    missing = [e for e, g in zip(entries, page.games) if g.coaching is None]
    coaching.fill_coaching(_tables(request).work, storage, client, missing, samples)
    return _json(dataclasses.replace(page, coaching_pending=len(missing)))


@api.get("/learn/coach/{table_id}/{number}/{seat}")
async def game_coaching(
    table_id: str,
    number: GameNumber,
    seat: Annotated[int, FastApiPath(ge=0, le=6)],
    request: Request,
) -> Response:
    """A finished game coached for a seat (`coaching`); a game still being played is 409."""
    client = ("http", request.client.host if request.client else "")
    work = _tables(request).work
    samples = _settings(request).review_samples
    try:
        work.allow(client)
        finished = await _finished(request, table_id, number)
        seats = layout_of(Rules.parse(finished.rules)).seats
        if seat >= seats:
            return _json(out.Failure(error=f"seat: this game has seats 0 to {seats - 1}"), 400)
        answer = coaching.kept(work, table_id, number, samples)
        if answer is None:
            pending = coaching.submit(
                work, client, table_id, number, finished.record, samples, counted=True
            )
            answer = await pending
            await coaching.store(_storage(request), table_id, number, answer)
    except Busy as exc:
        return Response(
            out.encode(out.Failure(error=str(exc))),
            503,
            media_type="application/json",
            headers={"Retry-After": str(RETRY_AFTER)},
        )
    status, text = answer
    if status != 200:
        return Response(text, status, media_type="application/json")
    names = layout_of(Rules.parse(finished.rules)).seat_names
    body = coaching.coaching_body(text, table_id, number, seat, names, samples)
    return _json(body)


@api.get("/house-rules")
async def house_rules(request: Request) -> Response:
    storage = _storage(request)
    return _json(house_rules_list(await storage.run(storage.house_rules)))


@api.post("/house-rules")
async def save_house_rules(request: Request) -> Response:
    try:
        name, rules = read_house_rules(await request.body())
    except HouseRulesError as exc:
        return _json(out.Failure(error=str(exc)), 400)
    storage = _storage(request)
    saved = await storage.run(storage.save_house_rules, name, str(rules))
    return _json(house_rules_payload(name, str(rules), saved))


async def _room(request: Request, table_id: str) -> Room:
    tables = _tables(request)
    room = await tables.get(table_id)
    if room is None:
        raise HTTPException(*await tables.missing(table_id))
    return room


async def _finished(request: Request, table_id: str, number: int) -> Any:
    storage = _storage(request)
    finished = await storage.run(storage.finished_game, table_id, number)
    if finished is None:
        room = await _tables(request).get(table_id)
        if room is not None and 1 <= number <= room.game_number:
            raise HTTPException(409, "that game is still being played")
        raise HTTPException(404, f"no game {number} at table {table_id!r}")
    return finished


# -- the table's WebSocket ----------------------------------------------------------------------


@sockets.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    """The lobby's list of public tables, sent at once and again whenever it changes."""
    settings = _settings(websocket)
    if not origin_allowed(websocket):
        await websocket.close(code=1008, reason="origin not allowed")
        return
    tables = _tables(websocket)
    await websocket.accept()
    connection = Connection(RateLimit(settings.message_rate, settings.message_burst))
    sender = asyncio.create_task(_pump(websocket, connection))
    try:
        await tables.watch_lobby(connection)
        async for message in _messages(websocket, connection):
            if message.type == "ping":
                connection.post(out.Pong())
            else:
                connection.error("the lobby's socket only answers ping", "bad-message")
    finally:
        tables.lobby_watchers.discard(connection)
        connection.close()
        with contextlib.suppress(Exception):
            await sender


@sockets.websocket("/ws/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    settings = _settings(websocket)
    if not origin_allowed(websocket):
        await websocket.close(code=1008, reason="origin not allowed")
        return
    tables = _tables(websocket)
    room = await tables.get(table_id)
    if room is None:
        status, why = await tables.missing(table_id)
        await websocket.accept()
        await websocket.send_text(out.encode(out.Error(message=why, code="not-found")))
        await websocket.close(code=4000 + status)
        return
    room.sockets += 1  # before any await, so the sweep cannot drop the table under us
    try:
        await websocket.accept()
        connection = Connection(RateLimit(settings.message_rate, settings.message_burst))
        sender = asyncio.create_task(_pump(websocket, connection))
        try:
            await _listen(websocket, room, connection)
        finally:
            connection.close()
            await room.part(connection)
            with contextlib.suppress(Exception):
                await sender
    finally:
        room.sockets -= 1


async def _listen(websocket: WebSocket, room: Room, connection: Connection) -> None:
    # whether a hello has been read, not yet whether the room has taken it (``joined``): a
    # message sent right behind the hello waits in the room's queue behind it, not refused
    greeted = False
    async for message in _messages(websocket, connection):
        if not greeted and message.type != "hello":
            connection.error("say hello first", "bad-message")
            continue
        greeted = True
        await room.submit(connection, message)


async def _messages(websocket: WebSocket, connection: Connection) -> AsyncIterator[Message]:
    """Every message a socket sends that can be read, until it closes: one past the
    connection's rate or unreadable is answered with an ``error`` and skipped."""
    while not connection.closed:
        try:
            frame = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if frame["type"] == "websocket.disconnect":
            return
        raw = frame.get("text")
        if raw is None:
            raw = frame.get("bytes") or b""
        if not connection.rate.allow():
            connection.error("too many messages: slow down", "rate")
            continue
        try:
            message = parse_message(raw)
        except BadMessage as exc:
            connection.error(str(exc), exc.code)
            continue
        yield message


async def _pump(websocket: WebSocket, connection: Connection) -> None:
    """Send a connection's outbox in order until it is closed."""
    while True:
        text = await connection.outbox.get()
        if text is None or connection.closed or websocket.client_state != WebSocketState.CONNECTED:
            break
        try:
            await websocket.send_text(text)
        except Exception:
            break
    connection.closed = True
    with contextlib.suppress(Exception):
        await websocket.close()


def _json(body: out.HttpBody | Sequence[out.GameSummary], status: int = 200) -> Response:
    """An HTTP body as the browser reads it, encoded where every message is."""
    return Response(out.encode(body), status, media_type="application/json")


__all__ = ["MAX_MESSAGE_BYTES", "ServerSettings", "Tables", "create_app", "options_payload"]
