"""Several ``texas42 serve`` processes on one PostgreSQL, sharing every table.

Nothing is home-made between the processes: the database is the only thing they share.

- **One ordered log.** Each process that has a table in memory holds a replica `Room` that
  follows the table's log. An action is checked against the replica and appended at the next
  ``seq``; the events' primary key (table, seq) lets only one process store an event there, and
  the loser (`storage.SeqTaken`) reads the newer events, applies them and takes its message
  again, refused as ``stale`` if it no longer applies (`Room._take`). A client is told of an
  action only after its commit.
- **Told at commit.** Every append NOTIFYs `storage.EVENTS_CHANNEL` in its own transaction with
  ``table seq origin``; one LISTEN connection per process wakes the replicas, which read what
  they miss from the log itself (`Room._catch_up`), never from the payload. A notification
  missed (the LISTEN connection lost) is healed by a poll of every table's last ``seq`` every
  `POLL_SECONDS`, and by reading every table again when the connection comes back.
- **Bots and timers once.** One process holds each table's lease: a session advisory lock
  (`pg_try_advisory_lock`) on one connection of its own, which PostgreSQL frees when the process
  dies (kill -9 included). Only the holder (`Room.leader`) runs the table's bots, grace and turn
  clock; a bot's move is appended through the same checked path. Every `LEASE_SECONDS` each
  process tries the leases of the tables it has in memory and of every table in play, so a
  table nobody watches still has its bots run by some process.
- **Presence.** Which seats have a connection anywhere, and how many watch, is told on
  `PRESENCE_CHANNEL` when it changes at a process; each process beats every `BEAT_SECONDS`, and
  one silent for `PRESENCE_EXPIRY` seconds (dead) is forgotten, so its people count as gone and
  their grace runs. A process starting asks the others to tell theirs again.
- **The lobby.** Any event told at any process makes the lobby's watchers' list be read again
  (the list comes from the database and the tables in memory).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import secrets
import time
from typing import Any, Protocol

import psycopg
import sqlalchemy as sa

from texas42.faces.server.room import Room
from texas42.faces.server.storage import EVENTS_CHANNEL, Storage

log = logging.getLogger("texas42.faces.server.cluster")

PRESENCE_CHANNEL = "texas42_presence"
"""Who is at which table through which process, and each process's heartbeat (JSON)."""
LEASE_SECONDS = 1.0
"""How often a process tries the leases it does not hold (and is woken sooner when it loads one)."""
BEAT_SECONDS = 2.0
"""How often a process tells the others it is alive, and polls every table's last ``seq``."""
POLL_SECONDS = BEAT_SECONDS
PRESENCE_EXPIRY = 3 * BEAT_SECONDS
"""A process not heard from for this long is dead: its people count as gone."""
RECONNECT_SECONDS = 1.0


def lease_key(table_id: str) -> int:
    """A table's advisory lock: 64 bits of a hash of its id, under a label of its own."""
    digest = hashlib.sha256(f"texas42 table lease {table_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def conninfo(url: str) -> str:
    """The libpq address of a SQLAlchemy PostgreSQL URL (``postgresql+psycopg://...``)."""
    return sa.engine.make_url(url).set(drivername="postgresql").render_as_string(False)


class ClusterTables(Protocol):
    """What a cluster needs of the server's tables (``app.Tables``), named here so that the
    cluster does not import the app that starts it."""

    storage: Storage
    rooms: dict[str, Room]

    async def get(self, table_id: str) -> Room | None: ...

    def lobby_changed(self) -> None: ...


class Cluster:
    """This process's part in a cluster of servers on one PostgreSQL (the module's doc)."""

    def __init__(self, url: str, tables: ClusterTables) -> None:
        self.conninfo = conninfo(url)
        self.tables = tables
        self.id = secrets.token_hex(6)
        self.held: set[str] = set()
        """The tables whose lease this process holds."""
        self.remote: dict[str, dict[str, tuple[frozenset[int], int]]] = {}
        """Each table's presence at each other process: (seats, spectators)."""
        self.heard: dict[str, float] = {}
        """When each other process was last heard from (monotonic)."""
        self.published: dict[str, tuple[frozenset[int], int]] = {}
        """What this process last told of each table's presence."""
        self._control: psycopg.AsyncConnection[Any] | None = None
        self._control_lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = False

    # -- life -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect (the leases' connection at once, so a failure stops the start) and run."""
        self.tables.storage.origin = self.id
        await self._connect_control()
        for name, job in (
            ("listen", self._listen_loop()),
            ("leases", self._lease_loop()),
            ("beat", self._beat_loop()),
        ):
            self._tasks.append(asyncio.create_task(job, name=f"cluster {name}"))

    async def stop(self) -> None:
        self._stopping = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self._tell({"p": self.id, "bye": True})
        if self._control is not None:
            with contextlib.suppress(Exception):
                await self._control.close()  # frees every lease this process holds

    def application_name(self) -> str:
        """How this process's connections name themselves in ``pg_stat_activity``: the
        holder of a lease is found from ``pg_locks`` by it (docs/deploy.md)."""
        return f"texas42 serve {os.getpid()} {self.id}"

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        return await psycopg.AsyncConnection.connect(
            self.conninfo, autocommit=True, application_name=self.application_name()
        )

    async def _connect_control(self) -> None:
        self._control = await self._connect()

    async def _execute(self, query: str, params: Any = None) -> list[Any]:
        """One statement on the leases' connection (its locks are this session's)."""
        async with self._control_lock:
            if self._control is None or self._control.closed:
                self._step_down()
                await self._connect_control()
            assert self._control is not None
            try:
                cursor = await self._control.execute(query, params)
                return await cursor.fetchall() if cursor.description is not None else []
            except psycopg.OperationalError:
                # the session is gone, and its locks with it: this process leads nothing now
                self._step_down()
                with contextlib.suppress(Exception):
                    await self._control.close()
                self._control = None
                raise

    def _step_down(self) -> None:
        for table_id in self.held:
            room = self.tables.rooms.get(table_id)
            if room is not None:
                room.leader = False
        self.held.clear()

    # -- the tables in memory ---------------------------------------------------------------

    def adopt(self, room: Room) -> None:
        """A table comes into memory: it follows the log, leads if this process holds its lease,
        and knows who is at it elsewhere."""
        room.leader = room.id in self.held
        room.on_presence = lambda: self._publish(room)
        seats, spectators = self._remote_of(room.id)
        room.remote_seats, room.remote_spectators = seats, spectators
        self._wake.set()

    def forget(self, room: Room) -> None:
        """A table leaves memory: its lease is given back and its people here are gone."""
        room.on_presence = None
        if room.id in self.published:
            self._spawn(self._tell(self._presence_of(room.id, frozenset(), 0)))
            del self.published[room.id]
        if room.id in self.held and not self._stopping:
            self.held.discard(room.id)
            room.leader = False
            self._spawn(self._unlock(room.id))

    async def _unlock(self, table_id: str) -> None:
        if table_id in self.held:  # taken again meanwhile: the lock stays (it counts twice)
            return
        await self._execute("SELECT pg_advisory_unlock(%s)", (lease_key(table_id),))

    def _spawn(self, job: Any) -> None:
        task: asyncio.Task[None] = asyncio.create_task(job)
        self._tasks.append(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        with contextlib.suppress(ValueError):
            self._tasks.remove(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("cluster: %r", task.exception())

    # -- leases -----------------------------------------------------------------------------

    async def _lease_loop(self) -> None:
        while True:
            try:
                await self._leases()
            except Exception as exc:
                log.warning("cluster: the leases could not be tried: %s", exc)
                await asyncio.sleep(RECONNECT_SECONDS)
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), LEASE_SECONDS)

    async def _leases(self) -> None:
        """Try the lease of every table in memory or in play that this process does not lead;
        lead those it gets (a table in play not in memory is loaded to run its bots)."""
        playing = await self._execute("SELECT id FROM tables WHERE status = 'playing'")
        wanted = [t for t in self.tables.rooms if t not in self.held]
        wanted += [row[0] for row in playing if row[0] not in self.tables.rooms]
        wanted = [t for t in dict.fromkeys(wanted) if t not in self.held]
        if not wanted:
            return
        keys = {lease_key(t): t for t in wanted}
        rows = await self._execute(
            "SELECT k FROM unnest(%s::bigint[]) AS k WHERE pg_try_advisory_lock(k)",
            (list(keys),),
        )
        for (key,) in rows:
            table_id = keys[key]
            self.held.add(table_id)
            room = self.tables.rooms.get(table_id)
            if room is None:
                room = await self.tables.get(table_id)
                if room is None:  # expired or broken: nothing to lead
                    self.held.discard(table_id)
                    await self._execute("SELECT pg_advisory_unlock(%s)", (key,))
                    continue
            if table_id in self.held:
                room.leader = True
                room.wake()  # read what the last holder stored, then run the bots and timers
                log.info("cluster %s leads table %s", self.id, table_id)

    # -- events told ------------------------------------------------------------------------

    async def _listen_loop(self) -> None:
        first = True
        while True:
            try:
                async with await self._connect() as conn:
                    await conn.execute(f"LISTEN {EVENTS_CHANNEL}")
                    await conn.execute(f"LISTEN {PRESENCE_CHANNEL}")
                    await self._tell({"p": self.id, "hello": True})
                    if not first:  # what was told while deaf is read from the log
                        for room in list(self.tables.rooms.values()):
                            room.wake()
                    first = False
                    async for notify in conn.notifies():
                        self._heard(notify.channel, notify.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("cluster: listening failed, again in a moment: %s", exc)
            await asyncio.sleep(RECONNECT_SECONDS)

    def _heard(self, channel: str, payload: str) -> None:
        try:
            if channel == EVENTS_CHANNEL:
                table_id, seq, origin = payload.split(" ")
                if origin == self.id:
                    return
                self.heard[origin] = time.monotonic()
                room = self.tables.rooms.get(table_id)
                if room is not None and int(seq) >= room.next_event:
                    room.wake()
                self.tables.lobby_changed()
            else:
                self._presence_told(json.loads(payload))
        except Exception:
            log.exception("cluster: a notification could not be read: %r", payload[:200])

    # -- presence ---------------------------------------------------------------------------

    def _presence_of(self, table_id: str, seats: frozenset[int], spectators: int) -> Any:
        return {"p": self.id, "t": table_id, "s": sorted(seats), "n": spectators}

    def _publish(self, room: Room) -> None:
        """Tell the others who is at ``room`` through this process, if that changed."""
        now = room.local_presence()
        if self.published.get(room.id, (frozenset(), 0)) == now:
            return
        self.published[room.id] = now
        self._spawn(self._tell(self._presence_of(room.id, *now)))

    async def _tell(self, message: Any) -> None:
        text = json.dumps(message, separators=(",", ":"))
        await self._execute("SELECT pg_notify(%s, %s)", (PRESENCE_CHANNEL, text))

    def _presence_told(self, message: dict[str, Any]) -> None:
        origin = str(message["p"])
        if origin == self.id:
            return
        self.heard[origin] = time.monotonic()
        if message.get("hello"):  # a process started (or listens again): it is told everything
            for table_id, (seats, spectators) in list(self.published.items()):
                if seats or spectators:
                    self._spawn(self._tell(self._presence_of(table_id, seats, spectators)))
        elif message.get("bye"):
            self._drop(origin)
        elif "t" in message:
            table_id = str(message["t"])
            seats = frozenset(int(s) for s in message["s"])
            spectators = int(message["n"])
            at = self.remote.setdefault(table_id, {})
            if seats or spectators:
                at[origin] = (seats, spectators)
            else:
                at.pop(origin, None)
                if not at:
                    del self.remote[table_id]
            self._remote_changed(table_id)

    def _drop(self, origin: str) -> None:
        """A process stopped or died: its people are gone from every table."""
        self.heard.pop(origin, None)
        for table_id in [t for t, at in self.remote.items() if origin in at]:
            del self.remote[table_id][origin]
            if not self.remote[table_id]:
                del self.remote[table_id]
            self._remote_changed(table_id)

    def _remote_of(self, table_id: str) -> tuple[frozenset[int], int]:
        at = self.remote.get(table_id, {})
        seats = frozenset(s for seats, _ in at.values() for s in seats)
        return seats, sum(n for _, n in at.values())

    def _remote_changed(self, table_id: str) -> None:
        room = self.tables.rooms.get(table_id)
        if room is None:
            return
        seats, spectators = self._remote_of(table_id)
        if (seats, spectators) != (room.remote_seats, room.remote_spectators):
            room.remote_seats, room.remote_spectators = seats, spectators
            room.wake(sync=False)

    async def _beat_loop(self) -> None:
        while True:
            await asyncio.sleep(BEAT_SECONDS)
            try:
                await self._tell({"p": self.id, "beat": True})
                cutoff = time.monotonic() - PRESENCE_EXPIRY
                for origin in [o for o, at in self.heard.items() if at < cutoff]:
                    log.info("cluster: process %s is gone", origin)
                    self._drop(origin)
                await self._poll()
            except Exception as exc:
                log.warning("cluster: the heartbeat failed: %s", exc)

    async def _poll(self) -> None:
        """Every table in memory whose log has events it has not read is woken: a backstop for
        a notification lost."""
        rooms = dict(self.tables.rooms)
        if not rooms:
            return
        # one step down the events' primary key a table, not a scan of every table's events
        rows = await self._execute(
            "SELECT t.id, (SELECT max(seq) FROM events WHERE table_id = t.id)"
            " FROM unnest(%s::varchar[]) AS t(id)",
            (list(rooms),),
        )
        for table_id, last in rows:
            room = rooms.get(table_id)
            if room is not None and last is not None and last >= room.next_event:
                room.wake()
