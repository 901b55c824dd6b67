"""A table at the server: its seats, its game, the people watching, and the one task that changes it.

Everything that changes a table goes through `Room.submit` into one queue, and one task applies
the queue in order, so two players clicking at once are simply taken one after the other. Each
change is an event: it is committed to storage, then applied, then every connection is sent a
fresh `state` built from its own seat's view (`texas42.faces.server.payload`). A table loaded after
a restart (or after it left memory) starts from its latest snapshot (`texas42.faces.server.snapshot`)
and replays the events after it through the same `_apply`, and ends where it was.

Bots think in a task of their own (on a worker thread for the search bots) and hand their
action back through the queue, where it is taken only if the table has not moved on.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, assert_never

from texas42.core import words
from texas42.core.actions import Action, Discard, action_words, parse_action_words
from texas42.core.errors import Texas42Error
from texas42.core.game import Game
from texas42.core.layout import Layout, layout_of
from texas42.core.reasons import Reason
from texas42.core.record import record_from_game
from texas42.core.rules import Rules, seats_held
from texas42.core.view import Claim
from texas42.faces.server import outbound as out
from texas42.faces.server import snapshot
from texas42.faces.server.events import (
    ActionEvent,
    AwayEvent,
    BackEvent,
    BadEvent,
    BotEvent,
    ChatEvent,
    ChatRulesEvent,
    ClaimEvent,
    Event,
    HostEvent,
    LeaveEvent,
    ListingEvent,
    MuteEvent,
    OpenEvent,
    RematchEvent,
    SettingsEvent,
    SitEvent,
    StartEvent,
    TakeoverEvent,
    read_event,
)
from texas42.faces.server.invite import table_link
from texas42.faces.server.messages import (
    CHAT_BURST,
    CHAT_LIMIT,
    CHAT_RATE,
    RATE_BURST,
    RATE_PER_SECOND,
    Act,
    AddBot,
    AskHint,
    AskReview,
    ChangeSettings,
    Chat,
    ChatRules,
    Hello,
    LayDown,
    Leave,
    Listing,
    MakeHost,
    Message,
    Mute,
    OpenSeat,
    Ping,
    RateLimit,
    React,
    Rematch,
    Replace,
    Sit,
    Start,
)
from texas42.faces.server.payload import game_payload, layout_payload, seat_labels
from texas42.faces.server.reasons import (
    Kept,
    file_reason,
    reason_key,
    record_reasons,
    stored,
    unfile_reason,
)
from texas42.faces.server.storage import FinishedGame, SeqTaken, Storage, StoredTable
from texas42.faces.server.work import Busy, Work, hint_job, review_job
from texas42.players import BOT_NAMES, LEVELS, Bot, RulesBot
from texas42.players.reasons import decide
from texas42.services.protocol import close_bot, make_bot

log = logging.getLogger("texas42.faces.server")

OUTBOX_LIMIT = 512
"""Messages waiting for one slow connection before it is dropped (it resyncs on reconnect)."""
BOT_RETRY_SECONDS = 2.0
"""How long a bot waits to act again after its action could not be stored."""
FAST_BOTS = ("easy", "medium", "random", "rules")
"""Levels that answer in microseconds and so think on the event loop itself."""
CHAT_KEPT = 50
"""The chat lines a table keeps to send whoever joins."""
PRESENCE_SECONDS = 0.5
"""How long the comings and goings at a table are gathered before the others are told them."""
CONFLICT_RETRIES = 8
"""How many times a table takes a message again after another process stored an event in the
place its event was to go (`SeqTaken`), each time after reading the newer events."""

BOT_FIRST_NAMES = (
    "Rosa",
    "Hank",
    "Lupe",
    "Earl",
    "Dot",
    "Cody",
    "Faye",
    "Buck",
    "Nell",
    "Walt",
    "June",
    "Otis",
    "Ida",
    "Clem",
    "Opal",
    "Gus",
)
"""The names bots sit under, drawn in an order of each table's own (seeded by its id), so no two
seats of a table share one and a restored table keeps its names (they are in its events)."""


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def person_name(raw: str) -> str | None:
    """A name a person gives (to sit, or as a spectator in the chat) with its spaces tidied;
    None when nothing printable is left (the message schema bounds its length)."""
    name = " ".join(raw.split())
    return name if name and name.isprintable() else None


PLAYER_ID_LENGTH = 16
"""Hex digits of a player's public id."""


def player_id(secret: str) -> str:
    """A player's public id: the start of a hash of their secret's digest, under a label of its
    own. It names the player on pages and links; it cannot be turned back into the secret (nor
    into the digest), so knowing it never lets anyone sit as that player."""
    digest = token_digest(secret)
    return hashlib.sha256(f"texas42 player {digest}".encode()).hexdigest()[:PLAYER_ID_LENGTH]


@dataclass
class SeatState:
    kind: out.SeatKind = "empty"
    name: str = ""
    level: str | None = None
    digest: str | None = None
    holder: int | None = None
    """In two-hand, the seat of the person who also plays this one (their partner's seat)."""
    player: str | None = None
    """The public id of the person's player (`player_id`), if their device sent a secret."""
    away: bool = False
    """The person is away: the seat's stand-in bot plays for them until they come back."""
    open: bool = False
    """A bot's seat the host opened during a game: the bot plays until a person takes it."""
    pending: tuple[str, str, str | None] | None = None
    """The name, token digest and player id of the person who sat in this open seat, who takes
    it as the next hand begins."""


@dataclass
class ServerSettings:
    """How the server runs; the defaults are what ``texas42 serve`` uses."""

    db: str | None = None
    bot_delay: float = 0.7
    allowed_origins: tuple[str, ...] = ()
    hint_samples: int = 24
    review_samples: int = 12
    message_rate: float = RATE_PER_SECOND
    message_burst: float = RATE_BURST
    engines: tuple[tuple[str, str], ...] = ()
    """Outside engines offered as bot levels: (name, command) pairs (``serve --engine``)."""
    idle_seconds: float = 900.0
    """A table nobody has watched or touched for this long leaves memory (its log stays)."""
    freeze_gc: bool = False
    """Freeze the objects alive after start-up out of the garbage collector and make its full
    collections rarer (`app.GC_THRESHOLDS`); ``serve`` does."""
    public_url: str | None = None
    """Where browsers reach the server behind a proxy or a tunnel (``serve --public-url``, as
    `invite.check_public_url` gives it): every invite and seat link starts with it, and its
    origin may open WebSockets. None: links are relative to the page (or the request's own
    base URL where a link must be whole, as in the invite's QR code)."""
    away_seconds: float = 60.0
    """The grace a disconnected person the table waits on gets before a bot plays for them
    (``serve --away-seconds``); a table's own setting wins."""
    presence_seconds: float = PRESENCE_SECONDS
    """How long a table gathers people coming and going before it tells the others (`Presence`)."""
    hosts: tuple[str, ...] = ()
    """The Host headers this server answers to, as ``texas42 serve`` was started (its address
    and port, `origins.bound_hosts`); their origins may open WebSockets. Empty (in-process
    tests): any Host is taken, and only ``allowed_origins`` and the public URL's origin."""
    header_seconds: float = 10.0
    """A connection whose request headers are not all in this long after it opens (or after
    its last response) is closed (``serve --header-seconds``)."""
    keep_alive_seconds: int = 5
    """An HTTP connection kept open between requests is closed after this long without one
    (``serve --keep-alive-seconds``)."""
    body_seconds: float = 30.0
    """A request body not all received this long after its headers is refused with 408
    (``serve --body-seconds``)."""
    max_connections: int = 1000
    """HTTP connections and WebSockets together; beyond them a new connection gets a 503 and is
    closed (``serve --max-connections``; kept under the process's descriptor limit)."""
    create_per_minute: float = 6.0
    """Tables one client address may create a minute, on average (``serve --create-per-minute``)."""
    create_burst: float = 12.0
    """Tables one client address may create at once (``serve --create-burst``)."""
    lobby_expiry: float = 86_400.0
    """A table waiting in the lobby that nobody has used for this long expires
    (``serve --lobby-expiry``); a game started never does."""
    snapshot_events: int = 500
    """A table writes a snapshot of its state every this many events (and when it leaves
    memory), so loading it reads at most about this many events."""
    work_processes: int = 1
    """Worker processes for reviews, hints and replays (`work.Work`), beside the one that runs
    the tables; 0 runs them in a thread of the server's process instead (the tests do)."""
    work_per_client: int = 2
    """Reviews, hints and replays one client (a WebSocket, an HTTP client's address) may wait
    for at once; one more is refused with ``busy``."""
    work_limit: int = 8
    """Reviews, hints and replays being computed at once in all, running or queued for a worker
    process; one more is refused with ``busy`` (HTTP 503) unless its answer is kept."""
    work_rate: float = 4.0
    """Reviews, hints and replays one client may ask for a second (twice that at once), kept
    answers included; one more is refused with ``busy``."""
    work_cache_bytes: int = 32 << 20
    """The text of finished hands' reviews and finished games' replays kept to share."""
    access_log: bool = False
    """Log one JSON line per request on ``texas42.access`` (``serve --access-log json``,
    `access_log.AccessLog`)."""


class Connection:
    """One WebSocket: the seat it speaks for (None for a spectator) and its outgoing queue.

    The room never waits on a socket: it posts text to the outbox, and the socket's own task
    sends it. A connection that falls hopelessly behind is closed and resyncs when it returns.
    """

    def __init__(self, rate: RateLimit | None = None) -> None:
        self.seat: int | None = None
        self.waiting: tuple[int, str] | None = None
        """The open seat this connection sat in during a hand, and its token's digest: the
        seat becomes its own as the next hand begins; until then it watches."""
        self.joined = False
        self.closed = False
        self.rate = rate or RateLimit()
        self.chat_rate = RateLimit(CHAT_RATE, CHAT_BURST)
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(OUTBOX_LIMIT)

    def post(self, message: out.ServerMessage) -> None:
        self.post_text(out.encode(message))

    def post_text(self, text: str) -> None:
        """Queue a message already in JSON (a broadcast builds each seat's text once)."""
        if self.closed:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.close()

    def error(self, message: str, code: out.ErrorCode) -> None:
        self.post(out.Error(message=message, code=code))

    def close(self) -> None:
        self.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            self.outbox.put_nowait(None)


@dataclass
class _BotMove:
    seat: int
    seq: int
    action: Action
    forced: bool = False
    """The turn clock ran out: the stand-in plays a person's seat this once."""
    reason: Reason | None = None
    """Why the bot chose it (`texas42.players.reasons.decide`)."""


@dataclass
class _Timer:
    """A grace period (``away``, for the person at ``seat``) or a turn clock (``turn``, for the
    seat to act) that ran out at state ``seq``; it counts only if the table is still there."""

    kind: Literal["away", "turn"]
    seat: int
    seq: int


@dataclass
class _Part:
    connection: Connection


@dataclass
class _Wake:
    """Another process changed the table (``sync``: read its new events) or who is at it
    anywhere, or this process took over its bots and timers (`texas42.faces.server.cluster`)."""

    sync: bool = True


@dataclass
class _Envelope:
    connection: Connection
    message: Message


class Refused(Exception):
    """An action a table will not take; the message goes back to the sender, nothing changes."""

    def __init__(self, message: str, code: out.ErrorCode = "not-allowed") -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Room:
    """One table."""

    id: str
    name: str
    rules: Rules
    storage: Storage
    settings: ServerSettings
    seats: list[SeatState] = field(default_factory=list)
    status: out.TableStatus = "lobby"
    game: Game | None = None
    game_number: int = 0
    seed: int = 0
    seq: int = 0
    next_event: int = 0
    last: out.Last | None = None
    bots: dict[int, Bot] = field(default_factory=dict)
    connections: set[Connection] = field(default_factory=set)
    queue: asyncio.Queue[_Envelope | _BotMove | _Part | _Timer | _Wake] = field(
        default_factory=asyncio.Queue
    )
    task: asyncio.Task[None] | None = None
    helpers: set[asyncio.Task[None]] = field(default_factory=set)
    bot_pending: int | None = None
    """The ``seq`` a bot is thinking about, so it is asked once a state; None while none is."""
    active: float = field(default_factory=time.monotonic)
    sockets: int = 0
    """Open WebSockets on this table, joined or not yet."""
    host: int | None = None
    """The seat of the person who runs the table: the first to sit; None while no person sits."""
    public: bool = False
    """Listed in the lobby (`ListingEvent`); otherwise only its link finds it."""
    spectators_chat: bool = False
    """Whether spectators may write in the chat (`ChatRulesEvent`)."""
    muted: set[int] = field(default_factory=set)
    """Seats the host has muted (`MuteEvent`)."""
    chat: deque[out.ChatLine] = field(default_factory=lambda: deque(maxlen=CHAT_KEPT))
    """The latest lines of the chat (`ChatEvent`)."""
    on_change: Callable[[], None] | None = None
    """Called after every broadcast: the lobby's list may have changed."""
    bot_level: str = "medium"
    """The level of the bots that take a person's seat (leaving, away, replaced, the clock)."""
    away_seconds: float | None = None
    """The table's grace for a disconnected person; None: the server's (`ServerSettings`)."""
    turn_seconds: float = 0.0
    """A person's time for a turn, after which the seat's bot plays that action; 0 is off."""
    standins: dict[int, Bot] = field(default_factory=dict)
    """The bots that play a person's seat while they are away or their clock ran out."""
    grace: tuple[int, int, asyncio.TimerHandle] | None = None
    """The grace running: the person's seat, the state it began at, and its timer."""
    clock: tuple[int, float, asyncio.TimerHandle] | None = None
    """The turn clock running: the state, when it runs out (monotonic), and its timer."""
    presence_told: tuple[int, tuple[bool, ...]] | None = None
    """The spectators and the seats' connected marks every connection was last sent."""
    presence_due: bool = False
    """A `Presence` is being gathered (`_presence_changed`)."""
    steps: list[ActionEvent | ClaimEvent] = field(default_factory=list)
    """The game's steps since its deal, as its snapshot keeps them (`take_snapshot`)."""
    reasons: Kept = field(default_factory=dict)
    """The bots' reasons for the game's actions, from their events (`texas42.faces.server.reasons`)."""
    snapshot_seq: int = 0
    """The ``next_event`` of the table's latest stored snapshot (0: none)."""
    work: Work | None = None
    """The server's pool for reviews and hints (`Tables` gives it every table it holds)."""
    leader: bool = True
    """This process runs the table's bots and timers: always with one process; with several
    on one PostgreSQL, the one holding the table's lease (`texas42.faces.server.cluster`)."""
    remote_seats: frozenset[int] = frozenset()
    """Seats a connection of another process is open at (`cluster`): present, as local ones."""
    remote_spectators: int = 0
    """Spectators watching through other processes."""
    on_presence: Callable[[], None] | None = None
    """Called when who is here through this process may have changed (`cluster` tells it)."""
    sync_due: bool = False
    """A `_Wake` to read newer events is in the queue already."""

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = [SeatState() for _ in range(self.layout.seats)]

    @property
    def layout(self) -> Layout:
        return layout_of(self.rules)

    def labels(self) -> list[str]:
        """Each seat as the table's sentences name it (`seat_labels`)."""
        return seat_labels(self.layout, [seat.name for seat in self.seats])

    def controls(self, seat: int | None) -> tuple[int, ...]:
        """The seats the person at ``seat`` plays: in two-hand their partner's too."""
        if seat is None:
            return ()
        return seats_held(self.rules, seat)

    # -- life -------------------------------------------------------------------------------

    @classmethod
    def restore(cls, stored: StoredTable, storage: Storage, settings: ServerSettings) -> Room:
        """The table its snapshot (if it has one) and its log after it leave; a `BadEvent` names
        the first event that cannot be applied, a `snapshot.BadSnapshot` a snapshot that cannot
        be used (and the engines started are quit, since the table is given up)."""
        room = cls(stored.id, stored.name, Rules.parse(stored.rules), storage, settings)
        try:
            if stored.snapshot is not None:
                room._fill(stored.snapshot.data, stored.snapshot.seq)
                room.snapshot_seq = stored.snapshot.seq
                if stored.events and stored.events[0].seq != stored.snapshot.seq:
                    raise snapshot.BadSnapshot(f"table {stored.id}: events missing after it")
            for row in stored.events:
                event = read_event(stored.id, row.seq, row.kind, row.data)
                try:
                    room._apply(event)
                except (Texas42Error, Refused) as exc:
                    where = f"table {stored.id}, event {row.seq} ({row.kind})"
                    raise BadEvent(f"{where}: {exc}") from None
                room.next_event = row.seq + 1
        except BaseException:
            room._close_bots()
            raise
        return room

    async def save_snapshot(self, *, every: int | None = None) -> None:
        """Store the room's state (`take_snapshot`) if ``every`` events or more came after its
        last snapshot (None: if any did); a snapshot that cannot be written is only logged,
        since the log still holds everything."""
        since = self.next_event - self.snapshot_seq
        if since <= 0 or (every is not None and (since < every or not self.leader)):
            return
        seq, data = self.next_event, self.take_snapshot()
        try:
            await self.storage.run(self.storage.save_snapshot, self.id, seq, data)
        except Exception:
            log.exception("table %s: its snapshot could not be stored", self.id)
            return
        self.snapshot_seq = seq

    def take_snapshot(self) -> str:
        """The room's state now, after its events before ``next_event`` (`snapshot`)."""
        return snapshot.RoomSnapshot(
            version=snapshot.VERSION,
            next_event=self.next_event,
            status=self.status,
            seats=[snapshot.SeatSnapshot(**asdict(seat)) for seat in self.seats],
            host=self.host,
            public=self.public,
            spectators_chat=self.spectators_chat,
            muted=sorted(self.muted),
            chat=list(self.chat),
            bot_level=self.bot_level,
            away_seconds=self.away_seconds,
            turn_seconds=self.turn_seconds,
            game_number=self.game_number,
            seed=self.seed,
            seq=self.seq,
            last=self.last,
            steps=list(self.steps),
        ).model_dump_json()

    def _fill(self, data: str, seq: int) -> None:
        """Set a new room's state from its snapshot stored at ``seq``; a `snapshot.BadSnapshot`
        if the text is not a snapshot of this table (nothing of the room is to be used then)."""
        taken = snapshot.read(data, seq, self.id, self.layout.seats)
        self.seats = [SeatState(**seat.model_dump()) for seat in taken.seats]
        self.next_event = taken.next_event
        self.host = taken.host
        self.public = taken.public
        self.spectators_chat = taken.spectators_chat
        self.muted = set(taken.muted)
        self.chat = deque(taken.chat, maxlen=self.chat.maxlen)
        self.bot_level = taken.bot_level
        self.away_seconds = taken.away_seconds
        self.turn_seconds = taken.turn_seconds
        self.game_number = taken.game_number
        self.seed = taken.seed
        self.seq = taken.seq
        self.last = taken.last
        self.status = taken.status
        self.steps = list(taken.steps)
        if taken.status == "lobby":
            return
        game = self.deal(taken.seed)
        self.reasons = snapshot.replay(taken, game, self.rules, self.id)
        self.game = game
        if taken.status == "playing":
            self.bots = {
                seat: self._make_bot(state.level, taken.seed + seat, state.name)
                for seat, state in enumerate(self.seats)
                if state.kind == "bot" and state.level is not None
            }

    def deal(self, seed: int) -> Game:
        """The game a seed deals at this table: one place, so a snapshot's game is dealt as the
        log's ``start`` or ``rematch`` dealt it."""
        return Game(self.rules, seed)

    def apply_setup(self, setup: SettingsEvent) -> None:
        """The settings a new table was created with, already stored as its first event."""
        self._apply(setup)

    def start_task(self) -> None:
        if self.task is None:
            self.task = asyncio.create_task(self._run(), name=f"table {self.id}")
            self._schedule_bot()

    async def stop(self) -> None:
        self._cancel_grace()
        self._cancel_clock()
        await asyncio.to_thread(self._close_bots)
        for task in [self.task, *self.helpers]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for connection in list(self.connections):
            connection.close()

    def idle(self, now: float, seconds: float | None = None) -> bool:
        """Nobody connected, nothing waiting or thinking, and quiet for ``seconds`` (None: the
        server's ``idle_seconds``)."""
        quiet = self.settings.idle_seconds if seconds is None else seconds
        return (
            not self.sockets
            and not self.connections
            and not self.helpers
            and self.queue.empty()
            and now - self.active >= quiet
        )

    async def submit(self, connection: Connection, message: Message) -> None:
        await self.queue.put(_Envelope(connection, message))

    async def part(self, connection: Connection) -> None:
        await self.queue.put(_Part(connection))

    def wake(self, sync: bool = True) -> None:
        """Another process changed the table or who is at it (`_Wake`); queued once."""
        if sync:
            if self.sync_due:
                return
            self.sync_due = True
        self.queue.put_nowait(_Wake(sync))

    async def _run(self) -> None:
        while True:
            item = await self.queue.get()
            self.active = time.monotonic()
            try:
                await self._take(item)
            except Refused as refused:
                if isinstance(item, _Envelope):
                    item.connection.error(str(refused), refused.code)
                    if refused.code != "busy":  # too much asked: nothing to set right
                        self.send_state(item.connection)
            except Exception:
                log.exception("table %s: an event could not be handled", self.id)
                if isinstance(item, _Envelope):
                    item.connection.error("the server could not do that", "busy")

    async def _take(self, item: _Envelope | _BotMove | _Part | _Timer | _Wake) -> None:
        """One item of the queue; taken again, after the newer events are read, when another
        process stored an event where this one's was to go: an action that no longer applies
        is then refused as any late one is (``stale``), so nothing is applied twice or lost."""
        for attempt in range(CONFLICT_RETRIES):
            try:
                if isinstance(item, _Envelope):
                    await self._handle(item.connection, item.message)
                elif isinstance(item, _BotMove):
                    await self._bot_move(item)
                elif isinstance(item, _Timer):
                    await self._timer(item)
                elif isinstance(item, _Wake):
                    if item.sync:
                        self.sync_due = False
                        await self._catch_up()
                    else:
                        self._presence_changed()
                    self._schedule_bot()
                else:
                    self.connections.discard(item.connection)
                    if item.connection.joined:
                        self._presence_changed()
                    self._schedule_bot()
                return
            except SeqTaken:
                if attempt == CONFLICT_RETRIES - 1:
                    raise
                await self._catch_up()

    async def _catch_up(self) -> None:
        """Read and apply the events other processes stored after this one's last, then tell
        this process's connections and ask the next bot (`_follow` for each event)."""
        rows = await self.storage.read(self.storage.events_since, self.id, self.next_event)
        rows = [row for row in rows if row.seq >= self.next_event]
        if not rows:
            return
        for row in rows:
            event = read_event(self.id, row.seq, row.kind, row.data)
            try:
                self._follow(event)
            except (Texas42Error, Refused) as exc:
                raise BadEvent(f"table {self.id}, event {row.seq} ({row.kind}): {exc}") from None
            self.next_event = row.seq + 1
        self.broadcast()
        self._schedule_bot()

    def _follow(self, event: Event) -> None:
        """An event another process stored, applied here as that process applied it, with what
        it did to its connections done to this one's (seats given up, chat, notices)."""
        labels = self.labels()
        waiting = self._waiting()
        self._apply(event)
        match event:
            case ActionEvent() | ClaimEvent():
                if isinstance(event, ClaimEvent) and self.last is not None:
                    self._tell(self.last.text)
                for taken in waiting:
                    if self.seats[taken].pending is None:
                        self._joined(taken)
            case ChatEvent():
                text = out.encode(out.Chat(lines=[self.chat[-1]], history=False))
                for other in list(self.connections):
                    other.post_text(text)
            case LeaveEvent(seat=seat):
                for other in self.connections:
                    if other.seat == seat:
                        other.seat = None
            case TakeoverEvent(seat=person, why=why):
                for other in self.connections:
                    if other.seat == person:
                        other.seat = None
                        other.post(out.Welcome(seat=None))
                bot = words.bot_label(self.seats[person].name, self.bot_level)
                said = words.seat_left if why == "leave" else words.seat_replaced
                self._tell(said(labels[person], bot, self._compasses(person)))
            case BackEvent(seat=seat):
                self._tell(words.seat_back(labels[seat]))
            case HostEvent(seat=seat):
                self._tell(words.host_passed(labels[seat]))
            case OpenEvent(seat=seat):
                self._tell(words.seat_opened(self._compasses(seat), now=False))
            case _:
                pass

    # -- messages ---------------------------------------------------------------------------

    async def _handle(self, connection: Connection, message: Message) -> None:
        if isinstance(message, Hello):
            await self._hello(connection, message)
        elif isinstance(message, Ping):
            connection.post(out.Pong())
        elif isinstance(message, Sit):
            await self._sit(connection, message)
        elif isinstance(message, AddBot):
            self._seated(connection)
            self._lobby_seat(message.seat, empty=True)
            engines = dict(self.settings.engines)
            if message.level not in self._bot_levels():
                known = ", ".join(self._bot_levels())
                raise Refused(f"no bot level {message.level!r}: choose from {known}", "bad-message")
            is_engine = message.level in engines and message.level not in LEVELS
            name = message.level if is_engine else self._bot_names(1)[0]
            await self._commit(BotEvent(seat=message.seat, level=message.level, name=name))
        elif isinstance(message, Leave):
            await self._leave(connection, message)
        elif isinstance(message, Start):
            self._seated(connection)
            if self.status != "lobby":
                raise Refused("the game has already started")
            if any(seat.kind == "empty" for seat in self.seats):
                raise Refused("every seat needs a player or a bot before the start")
            await self._commit(StartEvent(game=1, seed=secrets.randbits(62)))
        elif isinstance(message, Rematch):
            self._seated(connection)
            if self.status != "over":
                raise Refused("a rematch starts only when the game is over")
            await self._commit(RematchEvent(game=self.game_number + 1, seed=secrets.randbits(62)))
        elif isinstance(message, Act):
            await self._act(connection, message)
        elif isinstance(message, AskHint):
            self._hint(connection)
        elif isinstance(message, AskReview):
            self._review(connection, message.hand)
        elif isinstance(message, LayDown):
            await self._claim(connection, message)
        elif isinstance(message, Chat | React):
            await self._chat(connection, message)
        elif isinstance(message, Mute | ChatRules | Listing):
            await self._host_setting(connection, message)
        elif isinstance(message, Replace):
            await self._replace(connection, message.seat)
        elif isinstance(message, OpenSeat):
            await self._open(connection, message.seat)
        elif isinstance(message, MakeHost):
            await self._make_host(connection, message.seat)
        elif isinstance(message, ChangeSettings):
            await self._change_settings(connection, message)

    def _bot_levels(self) -> tuple[str, ...]:
        """The levels, every bot `make_bot` knows by name, and this server's engines."""
        names = [*LEVELS, *BOT_NAMES, *(name for name, _ in self.settings.engines)]
        return tuple(dict.fromkeys(names))

    async def _hello(self, connection: Connection, message: Hello) -> None:
        if connection.joined:
            raise Refused("already joined: say hello once per connection", "bad-message")
        connection.joined = True
        self.connections.add(connection)
        if message.token:
            digest = token_digest(message.token)
            matches = [
                seat
                for seat, state in enumerate(self.seats)
                if state.digest is not None and hmac.compare_digest(state.digest, digest)
            ]
            waiting = [
                seat
                for seat, state in enumerate(self.seats)
                if state.pending is not None and hmac.compare_digest(state.pending[1], digest)
            ]
            if matches:
                connection.seat = matches[0]
            elif waiting:
                connection.waiting = (waiting[0], digest)
            else:
                connection.error(
                    "that seat token is not for this table; you are watching", "not-allowed"
                )
        connection.post(out.Welcome(seat=connection.seat))
        connection.post(out.Chat(lines=list(self.chat), history=True))
        seat = connection.seat
        for _ in range(CONFLICT_RETRIES - 1):
            if seat is None or not self.seats[seat].away:
                break
            try:
                # back between any two actions: a stand-in's move for this state is dropped
                await self._commit(BackEvent(seat=seat))
                self._tell(words.seat_back(self.labels()[seat]))
                return
            except SeqTaken:  # another process stored an event first: read it, look again
                await self._catch_up()
                seat = connection.seat
        # the newcomer gets the table; the others only who is here now, a moment later
        self.send_state(connection)
        self._presence_changed()
        self._schedule_bot()

    async def _sit(self, connection: Connection, message: Sit) -> None:
        if not connection.joined:
            raise Refused("say hello first", "bad-message")
        if connection.seat is not None or connection.waiting is not None:
            raise Refused("you already have a seat at this table")
        self._check_seat(message.seat)
        opened = self.status == "playing" and self.seats[message.seat].open
        if opened:
            if self.seats[message.seat].pending is not None:
                raise Refused(f"seat {message.seat} is taken")
        else:
            for seat in self.controls(message.seat):
                self._lobby_seat(seat, empty=True)
        name = person_name(message.name)
        if name is None:
            raise Refused("a name is 1 to 24 printable characters", "bad-message")
        # a token the client made itself is one it holds before the seat is stored: a crash
        # between the commit and the `seated` leaves a seat its hello gives back
        token = message.token or secrets.token_urlsafe(24)
        digest = token_digest(token)
        if self._token_taken(digest):
            raise Refused("that seat token is in use at this table: make another", "bad-message")
        player = player_id(message.player) if message.player is not None else None
        await self._commit(SitEvent(seat=message.seat, name=name, digest=digest, player=player))
        if self.seats[message.seat].pending is not None:
            connection.waiting = (message.seat, digest)
            self._tell(words.seat_opened(self.labels()[message.seat], now=False), connection)
        else:
            connection.seat = message.seat
            if opened:  # a hand was just beginning: the seat is theirs at once
                self._tell(
                    words.seat_joined(self.labels()[message.seat], self._compasses(message.seat))
                )
        connection.post(
            out.Seated(
                seat=message.seat,
                token=token,
                link=f"{table_link(self.settings.public_url or '', self.id)}#token={token}",
            )
        )
        self.broadcast()

    def _token_taken(self, digest: str) -> bool:
        """Whether a seat (or a person waiting for an opened one) has this token already."""
        held = [s.digest for s in self.seats] + [s.pending[1] for s in self.seats if s.pending]
        return any(d is not None and hmac.compare_digest(d, digest) for d in held)

    async def _leave(self, connection: Connection, message: Leave) -> None:
        self._seated(connection)
        self._check_seat(message.seat)
        if self.status != "lobby":
            # a game under way (or over, before a rematch) never waits: a bot takes the seat
            if message.seat not in self.controls(connection.seat):
                raise Refused("only the player in a seat can give it up")
            person = self._person(message.seat)
            name = self.labels()[person]
            await self._takeover(person, "leave")
            bot = self.seats[person]
            self._tell(
                words.seat_left(
                    name,
                    words.bot_label(bot.name, self.bot_level),
                    self._compasses(person),
                )
            )
            return
        seat = self.seats[message.seat]
        if seat.kind == "empty":
            raise Refused("that seat is already empty")
        target = seat.holder if seat.holder is not None else message.seat
        if seat.kind == "human" and target != connection.seat:
            raise Refused("only the player in a seat can give it up")
        await self._commit(LeaveEvent(seat=target))
        for other in self.connections:
            if other.seat == target:
                other.seat = None
        self.broadcast()

    async def _takeover(self, person: int, why: Literal["leave", "replace"]) -> None:
        """A bot of the table's level takes a person's seats at once; their token stops
        giving them, and their connections watch from now on."""
        held = self.controls(person)
        names = self._bot_names(len(held), freeing=held)
        event = TakeoverEvent(seat=person, level=self.bot_level, names=names, why=why)
        await self._commit(event, tell=False)
        for connection in self.connections:
            if connection.seat == person:
                connection.seat = None
                connection.post(out.Welcome(seat=None))
        self.broadcast()

    def _host_only(self, connection: Connection) -> None:
        if not self._is_host(connection):
            raise Refused("only the host can do that")

    async def _replace(self, connection: Connection, seat: int) -> None:
        self._host_only(connection)
        self._check_seat(seat)
        person = self._person(seat)
        if self.seats[seat].kind != "human":
            raise Refused(f"seat {seat} has no person to replace")
        if person == connection.seat:
            raise Refused("to give up your own seat, leave the table")
        name = self.labels()[person]
        await self._takeover(person, "replace")
        bot = self.seats[person]
        self._tell(
            words.seat_replaced(
                name, words.bot_label(bot.name, self.bot_level), self._compasses(person)
            )
        )

    async def _open(self, connection: Connection, seat: int) -> None:
        self._host_only(connection)
        self._check_seat(seat)
        state = self.seats[seat]
        if state.kind != "bot":
            raise Refused(f"seat {seat} is not a bot's seat")
        if state.open:
            raise Refused(f"seat {seat} is open already")
        if self.status == "playing":
            await self._commit(OpenEvent(seat=seat))
            self._tell(words.seat_opened(self._compasses(seat), now=False))
        else:
            await self._commit(LeaveEvent(seat=seat))
            self._tell(words.seat_opened(self._compasses(seat), now=True))

    async def _make_host(self, connection: Connection, seat: int) -> None:
        self._host_only(connection)
        self._check_seat(seat)
        state = self.seats[seat]
        if state.kind != "human" or state.holder is not None:
            raise Refused(f"seat {seat} has no person to be the host")
        if seat == self.host:
            raise Refused("you are the host already")
        await self._commit(HostEvent(seat=seat))
        self._tell(words.host_passed(self.labels()[seat]))

    async def _change_settings(self, connection: Connection, message: ChangeSettings) -> None:
        self._host_only(connection)
        if message.bot_level is not None and message.bot_level not in self._bot_levels():
            known = ", ".join(self._bot_levels())
            raise Refused(f"no bot level {message.bot_level!r}: choose from {known}", "bad-message")
        await self._commit(
            SettingsEvent(
                bot_level=message.bot_level,
                away_seconds=message.away_seconds,
                turn_seconds=message.turn_seconds,
            )
        )

    async def _act(self, connection: Connection, message: Act) -> None:
        game = self._playing()
        seat = connection.seat
        if seat is None:
            raise Refused("spectators cannot play; take a seat at another table")
        if message.seq != self.seq:
            raise Refused(
                f"stale: the table has moved on (you sent {message.seq}, now {self.seq})", "stale"
            )
        turn = game.seat_to_act()
        if turn is None or turn not in self.controls(seat):
            raise Refused("it is not your turn", "illegal")
        try:
            action = self._parse_action(game, message.action)
        except Texas42Error as exc:
            raise Refused(str(exc), "bad-message") from None
        why = game.why_illegal(action)
        if why is not None:
            raise Refused(why, "illegal")
        await self._play(turn, action)

    def _parse_action(self, game: Game, text: str) -> Action:
        """An action in words, its bid read on this table's scale: on a hand of 44 points
        ``bid 42`` is 42 points, not a mark, and in Moon ``bid 21`` shoots the moon."""
        return parse_action_words(text, self.rules)

    async def _bot_move(self, move: _BotMove) -> None:
        self.bot_pending = None
        game = self.game
        if game is None or move.seq != self.seq or game.seat_to_act() != move.seat:
            return
        if not self.leader:
            return  # another process took the table's bots over while this one thought
        if not move.forced and not self._bot_plays(move.seat):
            return  # its person came back, or took the seat, while the bot thought
        if game.why_illegal(move.action) is not None:
            log.error("table %s: the bot at seat %d chose an illegal action", self.id, move.seat)
            move.action, move.reason = _stand_in(RulesBot(), game.view(move.seat))
        try:
            await self._play(move.seat, move.action, move.reason)
        except SeqTaken:
            raise  # read the newer events and look again (`_take`), not a failure
        except Exception:
            # nothing changed; the bot tries again shortly rather than leaving the table stuck
            self._spawn(self._retry_bot())
            raise

    async def _retry_bot(self) -> None:
        await asyncio.sleep(BOT_RETRY_SECONDS)
        self._schedule_bot()

    async def _play(self, seat: int, action: Action, reason: Reason | None = None) -> None:
        """Apply an action in memory, commit it (with the finished game, if it ends one, and
        the bot's ``reason`` for it), and only then tell everyone; a failed commit takes the
        action back."""
        game = self._playing()
        waiting = self._waiting()
        key = reason_key(game, action)
        game.apply(action)
        event = ActionEvent(
            game=self.game_number, seat=seat, action=action_words(action), reason=stored(reason)
        )
        # filed before the commit, so that a game this action ends keeps it in its record
        file_reason(self.reasons, key, seat, event.reason)
        try:
            await self._commit_step(game, event)
        except BaseException:
            unfile_reason(self.reasons, key)
            raise
        await self._stepped(game, self._last(seat, action), waiting)

    async def _claim(self, connection: Connection, message: LayDown) -> None:
        """The person on lead lays their hand down: the claim is judged, committed, and told to
        every connection (a `notice` and `Last.text`); a claim that may not be made is refused
        with the reason and changes nothing."""
        game = self._playing()
        seat = connection.seat
        if seat is None:
            raise Refused("spectators cannot lay a hand down; take a seat at another table")
        if message.seq != self.seq:
            raise Refused(
                f"stale: the table has moved on (you sent {message.seq}, now {self.seq})", "stale"
            )
        turn = game.seat_to_act()
        if turn is None or turn not in self.controls(seat):
            raise Refused("only the player on lead may lay the hand down", "illegal")
        why = game.why_claim_illegal(turn)
        if why is not None:
            raise Refused(why, "illegal")
        # the search can take a moment at a big table: judged on a copy, off the event loop,
        # then made at once (the verdict is remembered)
        await asyncio.to_thread(game.hand.copy().judge_claim, turn)
        waiting = self._waiting()
        claim = game.claim(turn)
        await self._commit_step(game, ClaimEvent(game=self.game_number, seat=turn))
        last = self._claim_last(game, turn, claim)
        for other in list(self.connections):
            other.post(out.Notice(message=last.text))
        await self._stepped(game, last, waiting)

    def _waiting(self) -> list[int]:
        """The opened seats a person has sat in, who take them when the next hand begins."""
        return [s for s, state in enumerate(self.seats) if state.pending is not None]

    async def _commit_step(self, game: Game, event: ActionEvent | ClaimEvent) -> None:
        """Commit a step of the game already made in memory (with the finished game, if it
        ends one); a failed commit takes the step back and raises."""
        try:
            finished = self._finished_game() if game.is_over() else None
            status = "over" if finished is not None else None
            await self.storage.run(
                self.storage.append,
                self.id,
                self.next_event,
                event,
                status=status,
                finished=finished,
            )
        except BaseException:
            game.undo()
            raise
        self.next_event += 1
        self.steps.append(event)

    async def _stepped(self, game: Game, last: out.Last, waiting: list[int]) -> None:
        """After a committed step: the news of it, the game's end or the people waiting for an
        opened seat let in as a hand begins, then everyone told and the next bot asked."""
        self.seq += 1
        self.last = last
        if game.is_over():
            self.status = "over"
            await asyncio.to_thread(self._close_bots)
            # coaching is worked out when asked (the panel, the player's page), not here: a
            # game's review takes seconds of CPU that the tables still playing need
        else:
            self._seat_pending()
            for taken in waiting:
                if self.seats[taken].pending is None:
                    self._joined(taken)
        self.broadcast()
        self._schedule_bot()
        await self.save_snapshot(every=self.settings.snapshot_events)

    def _claim_last(self, game: Game, seat: int, claim: Claim) -> out.Last:
        """A claim as news of the table: the tiles laid down and whether the claim held, told
        from the claimed hand's public side (its tiles lie face up for everyone)."""
        index = len(game.hands) - 1 if game.hand.claims else len(game.hands) - 2
        hand = game.hands[index]
        labels = self.labels()
        text = (
            words.claim_line(labels[seat], claim.tiles)
            + ". "
            + words.claim_outcome(hand.view(seat), claim, labels)
            + "."
        )
        return out.Last(seat=seat, action="claim", text=text)

    async def _commit(self, event: Event, *, tell: bool = True) -> None:
        """Store an event of the lobby or a game's start, then apply it (an action of a game
        goes through `_play`, which must apply it first to learn whether it ends the game)."""
        status = "playing" if isinstance(event, StartEvent | RematchEvent) else None
        await self.storage.run(self.storage.append, self.id, self.next_event, event, status=status)
        self.next_event += 1
        self._apply(event)
        if tell and not isinstance(event, SitEvent):
            self.broadcast()
        self._schedule_bot()
        await self.save_snapshot(every=self.settings.snapshot_events)

    # -- the state, from events -------------------------------------------------------------

    def _apply(self, event: Event) -> None:
        """One event of the log, live or while restoring; one it cannot take raises before it
        changes anything."""
        match event:
            case SitEvent(seat=seat, name=name, digest=digest, player=player) if (
                self.status == "playing" and seat < len(self.seats) and self.seats[seat].open
            ):
                self.seats[seat].pending = (name, digest, player)
                self._seat_pending()
            case SitEvent(seat=seat, name=name, digest=digest, player=player):
                self._check_seat(seat)
                self.seats[seat] = SeatState("human", name, None, digest, player=player)
                if self.host is None:
                    self.host = seat
                for other in self.controls(seat)[1:]:
                    self.seats[other] = SeatState("human", name, None, None, seat, player)
            case BotEvent(seat=seat, level=level, name=name):
                self._check_seat(seat)
                self.seats[seat] = SeatState("bot", name, level)
            case LeaveEvent(seat=seat):
                self._check_seat(seat)
                self.seats[seat] = SeatState()
                for other, state in enumerate(self.seats):
                    if state.holder == seat:
                        self.seats[other] = SeatState()
                if self.host == seat:
                    self.host = self._first_person()
                self.muted.discard(seat)  # the mute was for the person who left
            case StartEvent(game=number, seed=seed) | RematchEvent(game=number, seed=seed):
                self.game_number = number
                self.seed = seed
                self.game = self.deal(self.seed)
                self.status = "playing"
                self.seq = 0
                self.last = None
                self.steps = []
                self.reasons = {}
                self._close_bots()
                self.bots = {
                    seat: self._make_bot(state.level, self.seed + seat, state.name)
                    for seat, state in enumerate(self.seats)
                    if state.kind == "bot" and state.level is not None
                }
            case ActionEvent(game=number, seat=seat, action=spelled):
                game = self._playing()
                if number != self.game_number:
                    raise Texas42Error(f"an action of game {number} in game {self.game_number}")
                if seat != game.seat_to_act():
                    raise Texas42Error(f"seat {seat} acted out of turn")
                action = self._parse_action(game, spelled)
                key = reason_key(game, action)
                game.apply(action)
                file_reason(self.reasons, key, seat, event.reason)
                self.steps.append(event)
                self.seq += 1
                self.last = self._last(seat, action)
                if game.is_over():
                    self.status = "over"
                    self._close_bots()
                else:
                    self._seat_pending()
            case ClaimEvent(game=number, seat=seat):
                game = self._playing()
                if number != self.game_number:
                    raise Texas42Error(f"a claim of game {number} in game {self.game_number}")
                why = game.why_claim_illegal(seat)
                if why is not None:
                    raise Texas42Error(why)
                claim = game.claim(seat)
                self.steps.append(event)
                self.seq += 1
                self.last = self._claim_last(game, seat, claim)
                if game.is_over():
                    self.status = "over"
                    self._close_bots()
                else:
                    self._seat_pending()
            case ListingEvent(public=public):
                self.public = public
            case ChatRulesEvent(spectators=spectators):
                self.spectators_chat = spectators
            case MuteEvent(seat=seat, muted=muted):
                self._check_seat(seat)
                if muted:
                    self.muted.add(seat)
                else:
                    self.muted.discard(seat)
            case ChatEvent(seat=seat, name=name, text=text, reaction=reaction, at=at):
                if seat is not None:
                    self._check_seat(seat)
                self.chat.append(
                    out.ChatLine(seat=seat, name=name, text=text, reaction=reaction, at=at)
                )
            case TakeoverEvent(seat=seat, level=level, names=names):
                self._check_seat(seat)
                held = self.controls(seat)
                state = self.seats[seat]
                if state.kind != "human" or state.holder is not None or len(names) != len(held):
                    raise Refused(f"seat {seat} is not a person's to hand to a bot")
                for taken, name in zip(held, names, strict=True):
                    self.seats[taken] = SeatState("bot", name, level)
                    self._drop_standin(taken)
                    if self.status == "playing":
                        self.bots[taken] = self._make_bot(level, self.seed + taken, name)
                if self.host == seat:
                    self.host = self._first_person()
            case OpenEvent(seat=seat):
                self._check_seat(seat)
                if self.status != "playing" or self.seats[seat].kind != "bot":
                    raise Refused(f"seat {seat} is not a bot's seat in a game under way")
                for opened in self.controls(seat):
                    self.seats[opened].open = True
            case AwayEvent(seat=seat) | BackEvent(seat=seat):
                self._check_seat(seat)
                if self.seats[seat].kind != "human" or self.seats[seat].holder is not None:
                    raise Refused(f"seat {seat} is not a person's")
                self.seats[seat].away = isinstance(event, AwayEvent)
            case HostEvent(seat=seat):
                self._check_seat(seat)
                if self.seats[seat].kind != "human" or self.seats[seat].holder is not None:
                    raise Refused(f"seat {seat} is not a person's")
                self.host = seat
            case SettingsEvent(bot_level=level, away_seconds=away, turn_seconds=turn):
                if level is not None and level != self.bot_level:
                    self.bot_level = level
                    for seat in list(self.standins):
                        self._drop_standin(seat)
                if away is not None:
                    self.away_seconds = away
                if turn is not None:
                    self.turn_seconds = turn
            case _:
                assert_never(event)

    def _last(self, seat: int, action: Action) -> out.Last:
        """The action everyone is told was taken: a discard is face down, so not its tile."""
        spelled = "discard" if isinstance(action, Discard) else action_words(action)
        text = words.action_said(self.labels()[seat], action)
        return out.Last(seat=seat, action=spelled, text=text)

    def _finished_game(self) -> FinishedGame:
        game = self._playing()
        outcome = game.outcome()
        assert outcome is not None
        players = tuple(seat.name for seat in self.seats)
        return FinishedGame(
            self.id,
            self.game_number,
            str(self.rules),
            players,
            outcome.score,
            outcome.winner,
            time.time(),
            record_from_game(game, players, record_reasons(game, self.reasons)).to_json(),
            tuple(seat.player if seat.kind == "human" else None for seat in self.seats),
        )

    def _playing(self) -> Game:
        if self.game is None or self.status == "lobby":
            raise Refused("the game has not started")
        if self.status == "over":
            raise Refused("the game is over", "illegal")
        return self.game

    def _first_person(self) -> int | None:
        """The first seat a person holds (not as a partner's holder), or None."""
        return next(
            (
                s
                for s, state in enumerate(self.seats)
                if state.kind == "human" and state.holder is None
            ),
            None,
        )

    def _seat_pending(self) -> None:
        """As a hand begins (no call made yet), the people who sat in open seats take them."""
        game = self.game
        if game is None or self.status != "playing" or game.hand.calls:
            return
        for seat, state in enumerate(self.seats):
            if state.pending is None:
                continue
            name, digest, player = state.pending
            held = self.controls(seat)
            for taken in held:
                bot = self.bots.pop(taken, None)
                if bot is not None:
                    with contextlib.suppress(Exception):
                        close_bot(bot)
            self.seats[seat] = SeatState("human", name, None, digest, player=player)
            for other in held[1:]:
                self.seats[other] = SeatState("human", name, None, None, seat, player=player)
            if self.host is None:
                self.host = seat

    def _joined(self, seat: int) -> None:
        """The connections waiting for an open seat that is now theirs play it, and all are told."""
        digest = self.seats[seat].digest
        for connection in self.connections:
            if connection.waiting is not None and connection.waiting == (seat, digest):
                connection.seat, connection.waiting = seat, None
        self._tell(words.seat_joined(self.labels()[seat], self._compasses(seat)))

    def _person(self, seat: int) -> int:
        """The seat of the person who plays ``seat`` (in two-hand, the partnership's first)."""
        holder = self.seats[seat].holder
        return seat if holder is None else holder

    def _compasses(self, seat: int) -> str:
        """The compass names of the seats a person plays, for the notices: ``North`` or
        ``North and South``."""
        return " and ".join(self.layout.seat_names[s] for s in self.controls(seat))

    def _present(self) -> set[int]:
        here = {c.seat for c in self.connections if c.seat is not None and not c.closed}
        return here | self.remote_seats

    def local_presence(self) -> tuple[frozenset[int], int]:
        """The seats this process's connections hold and its spectators (`cluster` shares it)."""
        live = [c for c in self.connections if c.joined and not c.closed]
        seats = frozenset(c.seat for c in live if c.seat is not None)
        return seats, sum(1 for c in live if c.seat is None)

    def _tell(self, message: str, only: Connection | None = None) -> None:
        """A notice to every connection (or to ``only``): news of the table in words."""
        notice = out.encode(out.Notice(message=message))
        for connection in [only] if only is not None else list(self.connections):
            connection.post_text(notice)

    def _is_host(self, connection: Connection) -> bool:
        return connection.seat is not None and connection.seat == self.host

    def _seated(self, connection: Connection) -> None:
        if connection.seat is None:
            raise Refused("take a seat first")

    def _check_seat(self, seat: int) -> None:
        if seat >= self.layout.seats:
            raise Refused(f"this table has seats 0 to {self.layout.seats - 1}", "bad-message")

    def _lobby_seat(self, seat: int, *, empty: bool) -> None:
        if self.status != "lobby":
            raise Refused("seats can change only before the game starts")
        self._check_seat(seat)
        if empty and self.seats[seat].kind != "empty":
            raise Refused(f"seat {seat} is taken")

    # -- bots -------------------------------------------------------------------------------

    def _make_bot(self, level: str, seed: int, name: str) -> Bot:
        """The bot for a seat's level; an engine this server no longer offers (it restarted
        without its ``--engine``) gives way to a medium bot, as a failing engine does."""
        if level in LEVELS or level in BOT_NAMES:
            return make_bot(level, seed=seed, name=name)
        command = dict(self.settings.engines).get(level)
        if command is None:
            log.warning("table %s: no engine %r here; a medium bot takes its seat", self.id, level)
            return make_bot("medium", seed=seed, name=name)
        return make_bot(f"engine:{command}", seed=seed, name=name)

    def _close_bots(self) -> None:
        """Outside engines are processes: quit them when their game ends."""
        standins, self.standins = self.standins, {}
        for bot in [*self.bots.values(), *standins.values()]:
            with contextlib.suppress(Exception):
                close_bot(bot)

    def _bot_names(self, count: int, freeing: tuple[int, ...] = ()) -> list[str]:
        """``count`` names for new bots: the table's own order of `BOT_FIRST_NAMES`, skipping
        the names its seats (but those in ``freeing``) already have."""
        used = {
            state.name.casefold() for seat, state in enumerate(self.seats) if seat not in freeing
        }
        order = random.Random(self.id).sample(BOT_FIRST_NAMES, len(BOT_FIRST_NAMES))
        free = [name for name in order if name.casefold() not in used]
        return [free[k % len(free)] for k in range(count)]

    def _standin(self, seat: int) -> Bot:
        """The bot that plays a person's seat while they are away or out of time: the table's
        bot level, named after the first of the table's names no seat has."""
        bot = self.standins.get(seat)
        if bot is None:
            free = self._bot_names(len(self.seats))
            name = free[seat % len(free)]
            bot = self.standins[seat] = self._make_bot(self.bot_level, self.seed + seat, name)
        return bot

    def _drop_standin(self, seat: int) -> None:
        bot = self.standins.pop(seat, None)
        if bot is not None:
            with contextlib.suppress(Exception):
                close_bot(bot)

    def _bot_plays(self, seat: int) -> bool:
        """A bot plays this seat: a bot's seat, or a person's while they are away."""
        if seat in self.bots:
            return True
        state = self.seats[seat]
        return state.kind == "human" and self.seats[self._person(seat)].away

    def _away_seconds(self) -> float:
        return self.away_seconds if self.away_seconds is not None else self.settings.away_seconds

    def _schedule_bot(self) -> None:
        """Ask the bot of the seat to act, if a bot plays it; else a person is waited on, and
        their grace (if they are not connected) and the turn clock run."""
        game = self.game
        if game is None or self.status != "playing" or self.task is None:
            self._cancel_grace()
            self._cancel_clock()
            return
        seat = game.seat_to_act()
        if seat is None:
            return
        if self._bot_plays(seat):
            self._cancel_grace()
            self._cancel_clock()
            if self.bot_pending == self.seq or not self.leader:
                return
            self.bot_pending = self.seq
            bot = self.bots.get(seat) or self._standin(seat)
            self._spawn(self._think(seat, self.seq, game.view(seat), bot))
            return
        person = self._person(seat)
        if person in self._present() or not self.leader:
            self._cancel_grace()
        elif self.grace is None or self.grace[:2] != (person, self.seq):
            self._cancel_grace()
            handle = asyncio.get_running_loop().call_later(
                self._away_seconds(), self.queue.put_nowait, _Timer("away", person, self.seq)
            )
            self.grace = (person, self.seq, handle)
        self._arm_clock()

    def _arm_clock(self) -> None:
        """Start the turn clock for a person's turn, once a state (idempotent)."""
        game = self.game
        if (
            self.turn_seconds <= 0
            or game is None
            or self.status != "playing"
            or self.task is None
            or (self.clock is not None and self.clock[0] == self.seq)
        ):
            return
        seat = game.seat_to_act()
        self._cancel_clock()
        if seat is None or self._bot_plays(seat):
            return
        handle = asyncio.get_running_loop().call_later(
            self.turn_seconds, self.queue.put_nowait, _Timer("turn", seat, self.seq)
        )
        self.clock = (self.seq, time.monotonic() + self.turn_seconds, handle)

    def _turn_left(self) -> float | None:
        self._arm_clock()
        if self.clock is None or self.clock[0] != self.seq:
            return None
        return round(max(0.0, self.clock[1] - time.monotonic()), 2)

    def _cancel_grace(self) -> None:
        if self.grace is not None:
            self.grace[2].cancel()
            self.grace = None

    def _cancel_clock(self) -> None:
        if self.clock is not None:
            self.clock[2].cancel()
            self.clock = None

    async def _timer(self, timer: _Timer) -> None:
        """A grace or a turn clock ran out: if the table still waits on that person at that
        state, the person is away (stored), or their bot plays this one action."""
        game = self.game
        if game is None or self.status != "playing" or timer.seq != self.seq or not self.leader:
            return
        seat = game.seat_to_act()
        if seat is None or self._bot_plays(seat) or self.seats[seat].kind != "human":
            return
        person = self._person(seat)
        if timer.kind == "away":
            self.grace = None
            if person != timer.seat or person in self._present():
                return
            await self._commit(AwayEvent(seat=person))
            bot = self._standin(seat)
            label = words.bot_label(bot.name, self.bot_level)
            self._tell(words.seat_away(self.labels()[person], label))
            return
        if seat != timer.seat:
            return
        self.clock = None
        bot = self._standin(seat)
        self._tell(
            words.time_ran_out(self.labels()[person], words.bot_label(bot.name, self.bot_level))
        )
        self.bot_pending = self.seq
        self._spawn(self._think(seat, self.seq, game.view(seat), bot, forced=True))

    async def _think(self, seat: int, seq: int, view: Any, bot: Bot, forced: bool = False) -> None:
        if self.settings.bot_delay > 0 and not forced:
            await asyncio.sleep(self.settings.bot_delay)
        level = self.seats[seat].level if seat in self.bots else self.bot_level
        reason: Reason | None
        try:
            if level in FAST_BOTS:
                decision = decide(bot, view)
            else:
                decision = await asyncio.to_thread(decide, bot, view)
            action, reason = decision.action, decision.reason
        except Exception as exc:
            # an outside engine that times out, crashes or answers nonsense gives its seat to
            # a medium bot for the rest of the game, and the table is told why; only the kind
            # of failure, since the error's details name the seat's legal tiles
            why = str(getattr(exc, "kind", "error"))
            log.error("table %s: the bot at seat %d failed (%s)", self.id, seat, why)
            fallback: Bot = make_bot("medium", seed=self.seed + seat, name=bot.name)
            if self.bots.get(seat) is bot:
                self.bots[seat] = fallback
            else:
                self.standins[seat] = fallback
            with contextlib.suppress(Exception):
                await asyncio.to_thread(close_bot, bot)
            for connection in list(self.connections):
                connection.post(
                    out.Notice(
                        message=f"{bot.name} failed ({why}); a medium bot plays its seat now"
                    )
                )
            action, reason = _stand_in(fallback, view)
        await self.queue.put(_BotMove(seat, seq, action, forced, reason))

    def _spawn(self, coroutine: Any) -> None:
        task: asyncio.Task[None] = asyncio.create_task(coroutine)
        self.helpers.add(task)
        task.add_done_callback(self._helper_done)

    def _helper_done(self, task: asyncio.Task[None]) -> None:
        self.helpers.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: a helper task failed: %r", self.id, task.exception())

    # -- hints and reviews ------------------------------------------------------------------

    def _hint(self, connection: Connection) -> None:
        game = self._playing()
        seat = game.seat_to_act()
        if seat is None or seat not in self.controls(connection.seat):
            raise Refused("hints are for the player whose turn it is")
        view, seq, number = game.view(seat), self.seq, self.game_number
        samples = self.settings.hint_samples
        pending = self._expensive(connection, None, hint_job, view, samples, self.seed + seq)

        async def work() -> None:
            try:
                advice = await pending
                found = advice.hints
                # the words are made from the figures as sent, so the two never disagree
                sent = [h.to_dict() for h in found]
                ranked = [
                    out.read(
                        out.Hint,
                        {
                            **fields,
                            "action": action_words(h.action),
                            "text": words.hint_facts(
                                view,
                                fields["chance"],
                                fields["points"],
                                fields["marks"],
                                fields["if_stands"],
                            ),
                        },
                    )
                    for h, fields in zip(found, sent)
                ]
                connection.post(
                    out.Hints(
                        seq=seq,
                        game=number,
                        hints=ranked,
                        choice=action_words(advice.choice),
                        reason=advice.reason.text,  # the seat's own: its player reads it whole
                    )
                )
            except Exception:
                log.exception("table %s: no hints for %s", self.id, self.rules)
                connection.error("no hints at this table", "busy")

        self._spawn(work())

    def _review(self, connection: Connection, number: int) -> None:
        game = self.game
        if game is None:
            raise Refused("the game has not started")
        index = number - game.first_hand
        if not 0 <= index < len(game.hands) or game.hands[index].result is None:
            raise Refused(f"hand {number} is not finished yet")
        over = game.is_over()
        seat = connection.seat
        mine = self.controls(seat)
        if seat is None and not over:
            raise Refused("reviews are for the players until the game is over")
        hand = game.hands[index].copy()
        samples = self.settings.review_samples
        # a finished hand never changes: its review is computed once and kept for every asker
        key = ("review", self.id, self.game_number, number, samples)
        pending = self._expensive(connection, key, review_job, hand, number, samples)
        names = ["You" if s in mine else label for s, label in enumerate(self.labels())]
        view = hand.view(0)  # who played to each trick is public: any view numbers them

        # what one asker is sent depends on the names, whether the game is over and their seats
        told = ("review-told", *key, tuple(names), over, mine)

        async def work() -> None:
            try:
                # the engine's figures for every seat; the words and the filter are this asker's
                figures = await pending
                kept = self.work.cache.get(told) if self.work is not None else None
                if kept is not None:
                    connection.post_text(kept)
                    return
                data = json.loads(figures)
                unit = "trick" if data["unit"] == "tricks" else "point"
                for play in data["plays"]:
                    play["text"] = words.play_review_line(
                        names[play["seat"]],
                        words.trick_of_play(view, play["index"]),
                        play["tile"],
                        play["best"],
                        play["cost"],
                        unit,
                    )
                for bid in data["bids"]:
                    bid["text"] = words.bid_review_line(
                        names[bid["seat"]], bid["bid"], bid["contract"], bid["make_share"]
                    )
                if not over:
                    data["plays"] = [p for p in data["plays"] if p["seat"] in mine]
                    data["bids"] = [b for b in data["bids"] if b["seat"] in mine]
                    own = {p["index"] for p in data["plays"]}
                    data["mistakes"] = [i for i in data["mistakes"] if i in own]
                # while the game is on, a player is sent only their own plays
                whose = None if over or not mine else "You"
                data["no_costly_line"] = (
                    None if data["mistakes"] else words.no_costly_plays(len(data["plays"]), whose)
                )
                text = out.encode(out.read(out.Review, data))
                if self.work is not None:
                    self.work.cache.put(told, text)
                connection.post_text(text)
            except Exception:
                log.exception("table %s: no review for %s", self.id, self.rules)
                connection.error("no review of hands at this table", "busy")

        self._spawn(work())

    def _expensive(
        self, connection: Connection, key: Any, job: Callable[..., Any], *args: Any
    ) -> asyncio.Future[Any]:
        """An expensive request of ``connection`` admitted to the server's pool (`Work`), or
        refused with ``busy`` at once, nothing started."""
        if self.work is None:
            raise Refused("this table has no one to do that work", "busy")
        try:
            return self.work.submit(connection, key, job, *args)
        except Busy as exc:
            raise Refused(str(exc), "busy") from None

    # -- telling people ---------------------------------------------------------------------

    def presence(self) -> out.Presence:
        """Who is here: the connections watching, and each seat's connected mark (a bot's
        always; a person's while a connection of theirs is open, in two-hand for both seats)."""
        present = {c.seat for c in self.connections} | self.remote_seats
        return out.Presence(
            spectators=sum(1 for c in self.connections if c.seat is None) + self.remote_spectators,
            connected=[
                state.kind == "bot" or self._person(seat) in present
                for seat, state in enumerate(self.seats)
            ],
        )

    def _presence_changed(self) -> None:
        """Someone came or went: once the comings and goings of the next moment are gathered,
        every connection is sent who is here (`Presence`) if it differs from what they were
        last sent, so N people joining cost O(N) messages, not a state for everyone each."""
        if self.presence_due:
            return
        self.presence_due = True

        async def tell() -> None:
            try:
                await asyncio.sleep(self.settings.presence_seconds)
            finally:
                self.presence_due = False
            presence = self.presence()
            told = (presence.spectators, tuple(presence.connected))
            if told != self.presence_told:
                self.presence_told = told
                text = out.encode(presence)
                for connection in list(self.connections):
                    if connection.joined:
                        connection.post_text(text)
            if self.on_change is not None:
                self.on_change()
            if self.on_presence is not None:
                self.on_presence()

        self._spawn(tell())

    def table_payload(self) -> out.Table:
        presence = self.presence()
        return out.Table(
            id=self.id,
            name=self.name,
            rules=str(self.rules),
            rules_text=words.rules_text(self.rules),
            status=self.status,
            game_number=self.game_number,
            layout=layout_payload(self.rules),
            host=self.host,
            public=self.public,
            spectators_chat=self.spectators_chat,
            muted=sorted(self.muted),
            spectators=presence.spectators,
            bot_level=self.bot_level,
            away_seconds=self._away_seconds(),
            turn_seconds=self.turn_seconds,
            seats=[
                out.Seat(
                    seat=seat,
                    name=state.name,
                    kind=state.kind,
                    level=state.level,
                    connected=presence.connected[seat],
                    compass=self.layout.seat_names[seat],
                    side=self.layout.side_of[seat],
                    holder=state.holder,
                    player=state.player if state.kind == "human" else None,
                    label=words.bot_label(state.name, state.level)
                    if state.kind == "bot" and state.level is not None
                    else state.name,
                    away=self.seats[self._person(seat)].away,
                    open=state.open,
                )
                for seat, state in enumerate(self.seats)
            ],
        )

    def state_for(
        self, seat: int | None, table: out.Table | None = None, left: float | None = None
    ) -> out.State:
        return out.State(
            turn_left=self._turn_left() if left is None else left,
            seq=self.seq,
            table=table or self.table_payload(),
            you=out.You(seat=seat, seats=list(self.controls(seat))),
            last=self.last,
            game=game_payload(self.game, self.controls(seat), self.labels(), self.reasons)
            if self.game is not None
            else None,
        )

    def send_state(self, connection: Connection) -> None:
        connection.post(self.state_for(connection.seat))

    def broadcast(self) -> None:
        """A fresh state to every connection, each built once per seat from that seat's view."""
        table = self.table_payload()
        left = self._turn_left()
        self.presence_told = (table.spectators, tuple(seat.connected for seat in table.seats))
        built: dict[int | None, str] = {}
        for connection in list(self.connections):
            if connection.closed:
                self.connections.discard(connection)
                continue
            if connection.seat not in built:
                built[connection.seat] = out.encode(self.state_for(connection.seat, table, left))
            connection.post_text(built[connection.seat])
        if self.on_change is not None:
            self.on_change()

    # -- chat and the host's settings -------------------------------------------------------

    async def _chat(self, connection: Connection, message: Chat | React) -> None:
        """A line of chat or a quick reaction: checked, committed, then sent to everyone."""
        if not connection.joined:
            raise Refused("say hello first", "bad-message")
        seat = connection.seat
        if seat is None:
            if not self.spectators_chat:
                raise Refused("at this table only the players write in the chat")
            spectator = person_name(message.name or "")
            if spectator is None:
                raise Refused(
                    "a spectator needs a name (1 to 24 printable characters) to chat",
                    "bad-message",
                )
            name = spectator
        else:
            if seat in self.muted:
                raise Refused("the host has muted your chat")
            name = self.seats[seat].name
        text: str
        if isinstance(message, React):
            text, reaction = message.reaction, True
        else:
            text, reaction = message.text.strip(), False
            if not 1 <= len(text) <= CHAT_LIMIT or not text.isprintable():
                raise Refused(
                    f"a chat line is 1 to {CHAT_LIMIT} printable characters", "bad-message"
                )
        if not connection.chat_rate.allow():
            raise Refused("too many chat lines: wait a few seconds", "rate")
        event = ChatEvent(
            seat=seat, name=name, text=text, reaction=reaction, at=round(time.time(), 3)
        )
        await self.storage.run(self.storage.append, self.id, self.next_event, event)
        self.next_event += 1
        self._apply(event)
        text_out = out.encode(out.Chat(lines=[self.chat[-1]], history=False))
        for other in list(self.connections):
            other.post_text(text_out)
        await self.save_snapshot(every=self.settings.snapshot_events)

    async def _host_setting(
        self, connection: Connection, message: Mute | ChatRules | Listing
    ) -> None:
        """A setting only the host changes: a seat's mute, spectators' chat, the lobby listing."""
        if not self._is_host(connection):
            raise Refused("only the host can change that")
        event: Event
        if isinstance(message, Mute):
            self._check_seat(message.seat)
            state = self.seats[message.seat]
            # in two-hand the person speaks from the seat they sat in, not their partner's
            target = state.holder if state.holder is not None else message.seat
            if target == self.host:
                raise Refused("the host cannot mute their own seat")
            if state.kind != "human":
                raise Refused("only a person's seat can be muted")
            event = MuteEvent(seat=target, muted=message.muted)
        elif isinstance(message, ChatRules):
            event = ChatRulesEvent(spectators=message.spectators)
        else:
            if self.status == "over":
                raise Refused("a finished table is not listed")
            event = ListingEvent(public=message.public)
        await self._commit(event)


def _stand_in(bot: Bot, view: Any) -> tuple[Action, Reason | None]:
    """A stand-in bot's action and its reason; should it fail too, the first legal action
    (with no reason: nothing chose it), so a table never sticks."""
    try:
        decision = decide(bot, view)
    except Exception:
        log.exception("a stand-in bot failed; the seat takes its first legal action")
        action: Action = view.legal[0]
        return action, None
    return decision.action, decision.reason
