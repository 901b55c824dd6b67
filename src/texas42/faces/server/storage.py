"""The server's storage: every table is an append-only event log, through SQLAlchemy Core.

SQLite (WAL mode) by default, PostgreSQL by URL. An event is committed before the server tells
anyone about it, so whatever a player saw acknowledged is on disk when the process dies; a table
is rebuilt when it is next visited, from its latest snapshot and the events after it. A finished
game is also written as a record to ``games``, for the history list, export and replay.

All calls here are synchronous; the server runs them on one writer thread (`Storage.run`) so a
slow disk or database never stalls the event loop and writes keep their order.
"""

from __future__ import annotations

import asyncio
import functools
import importlib.util
import json
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from texas42.core.errors import Texas42Error
from texas42.faces.server import migrate
from texas42.faces.server.events import (
    BotEvent,
    Event,
    LeaveEvent,
    ListingEvent,
    OpenEvent,
    SitEvent,
    TakeoverEvent,
    event_row,
)
from texas42.faces.server.outbound import GameSummary

T = TypeVar("T")

metadata = sa.MetaData()
"""The schema this code reads and writes. The database gets it from the migrations
(`texas42.faces.server.migrate`), never from ``create_all``: a change here needs a new revision
in ``migrations/versions``, and ``tests/faces/test_migrations.py`` holds the two to each other."""

tables_table = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
    sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("lobby_entry", sa.Text, nullable=True),
    sa.Column("used", sa.Float, nullable=True),
)
"""``lobby_entry``: the table's `LobbyTable` as JSON (spectators 0), so the lobby lists a table
not in memory without its log; None until written, and set back to None by every event that may
change it (`LOBBY_EVENTS`) in that event's transaction, so a stale entry is never read.
``used``: when the table was last used (created, or left memory), for `Storage.expire_lobby`.
``status`` is ``lobby``, ``playing``, ``over`` or ``expired``."""

events_table = sa.Table(
    "events",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

games_table = sa.Table(
    "games",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("players", sa.Text, nullable=False),
    sa.Column("score", sa.String(32), nullable=False),
    sa.Column("winner", sa.Integer, nullable=False),
    sa.Column("finished", sa.Float, nullable=False),
    sa.Column("record", sa.Text, nullable=False),
)

game_players_table = sa.Table(
    "game_players",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("player_id", sa.String(32), nullable=False),
    sa.Column("name", sa.String(80), nullable=False),
    sa.ForeignKeyConstraint(
        ["table_id", "number"], ["games.table_id", "games.number"], name="game_players_game"
    ),
)
"""Which player sat in which seat of a finished game (seats without a player have no row)."""

coaching_table = sa.Table(
    "coaching",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("plays", sa.Integer, nullable=False),
    sa.Column("mistakes", sa.Integer, nullable=False),
    sa.Column("given_up", sa.Integer, nullable=False),
    sa.Column("hands", sa.Integer, nullable=False),
    sa.Column("bids", sa.Integer, nullable=False),
    sa.Column("made", sa.Integer, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.ForeignKeyConstraint(
        ["table_id", "number"], ["games.table_id", "games.number"], name="coaching_game"
    ),
)
"""Each finished game's coaching figures for each seat (`texas42.services.learn.coach`
`Summary`), under the coaching's ``version``; filled when the game finishes, or when a player's
page first asks (revision 0002)."""

COACHING_FIGURES = ("plays", "mistakes", "given_up", "hands", "bids", "made")
"""The figures a ``coaching`` row keeps, as `Summary.to_dict` names them."""

house_rules_table = sa.Table(
    "house_rules",
    metadata,
    sa.Column("name", sa.String(80), primary_key=True),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("saved", sa.Float, nullable=False),
)
"""House rules a group saved under a name; only the latest `HOUSE_RULES_KEPT` are kept."""

snapshots_table = sa.Table(
    "snapshots",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
"""The latest snapshot of each table's room (`texas42.faces.server.snapshot`): its state after
the events before ``seq``, so a table loads from it and the events after it."""

LOBBY_EVENTS = (SitEvent, BotEvent, LeaveEvent, TakeoverEvent, OpenEvent, ListingEvent)
"""Events that may change a table's lobby entry (and any that changes its status)."""

HOUSE_RULES_KEPT = 200
"""House rules stored at most: saving more drops the oldest, so no client can fill the disk."""

_INSERT_EVENT = events_table.insert()
"""Built once: compiling the statement per event was most of a commit's cost."""

EVENTS_CHANNEL = "texas42_events"
"""The PostgreSQL channel every append is told on, at its commit, when several processes share
the database (`texas42.faces.server.cluster`): ``table seq origin``."""
_NOTIFY = sa.text("SELECT pg_notify(:channel, :payload)")
_INSERT_AND_NOTIFY = sa.text(
    "WITH stored AS (INSERT INTO events (table_id, seq, kind, data, at)"
    " VALUES (:table_id, :seq, :kind, :data, :at) RETURNING seq)"
    " SELECT pg_notify(:channel, :payload) FROM stored"
)
"""An event and its notification in one statement (PostgreSQL: an append with nothing else)."""
READ_THREADS = 4
"""Reads of committed rows at once (each its own pooled connection)."""
IDLE_PING_SECONDS = 10.0
"""A pooled connection unused for this long is pinged before it is used again."""


def _writes_more(event: Event, status: str | None, finished: FinishedGame | None) -> bool:
    """Whether an append writes more than its event and notification (`Storage._append_rest`:
    a new status, a lobby entry dropped, the listing, a finished game)."""
    return status is not None or finished is not None or isinstance(event, LOBBY_EVENTS)


class SeqTaken(sa.exc.IntegrityError):
    """The event's place in the table's log is taken: another process appended there first.
    Nothing was written; the table reads the newer events and tries again (`Room._catch_up`)."""


def _seq_taken(exc: sa.exc.IntegrityError) -> bool:
    """Whether a failed insert hit the events' primary key (a unique violation)."""
    orig = exc.orig
    if getattr(orig, "sqlstate", None) == "23505":
        return True
    return "UNIQUE constraint failed: events." in str(orig)


sa.Index("games_by_finish", games_table.c.finished)
sa.Index("tables_by_status", tables_table.c.status)
sa.Index("tables_by_listing", tables_table.c.public, tables_table.c.status)
sa.Index("game_players_by_player", game_players_table.c.player_id)
sa.Index("house_rules_by_saved", house_rules_table.c.saved)


def default_db_path() -> Path:
    """``texas42.sqlite`` in the user's data folder."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "texas42" / "texas42.sqlite"


def database_url(db: str | None) -> str:
    """A SQLAlchemy URL from ``--db``: a URL as given, a path as an SQLite file. A plain
    PostgreSQL URL gets the psycopg driver, and ``postgres://`` (as Heroku and many hosts write
    it, but SQLAlchemy refuses) is read as ``postgresql://``."""
    if db is None:
        db = str(default_db_path())
    if "://" in db:
        scheme, _, rest = db.partition("://")
        if scheme.lower() in ("postgres", "postgresql"):
            return "postgresql+psycopg://" + rest
        return db
    return f"sqlite:///{Path(db).expanduser()}"


def check_database(url: str) -> None:
    """Refuse a database URL that cannot work before the server starts on it."""
    try:
        parsed = sa.engine.make_url(url)
        parsed.get_dialect()
    except Exception as exc:
        raise Texas42Error(f"cannot use {url!r}: {exc}") from None
    if parsed.get_backend_name() == "postgresql":
        if importlib.util.find_spec("psycopg") is None:
            raise Texas42Error(
                "PostgreSQL needs the postgres extra: pip install 'texas42[postgres]'"
            )
    elif parsed.get_backend_name() != "sqlite":
        raise Texas42Error(
            f"{parsed.get_backend_name()} is not supported: use SQLite or PostgreSQL"
        )
    try:
        engine = open_engine(url)
        with engine.connect():
            pass
        engine.dispose()
    except Exception as exc:
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        raise Texas42Error(f"cannot open {parsed.render_as_string()}: {reason}") from None


def upgrade_schema(url: str) -> tuple[str | None, str]:
    """Bring the database at ``url`` to this code's schema (`migrate.upgrade`): the revisions
    before and after."""
    engine = open_engine(url)
    try:
        return migrate.upgrade(engine)
    finally:
        engine.dispose()


def schema_state(url: str) -> migrate.SchemaState:
    """Where the schema of the database at ``url`` stands, changing nothing."""
    engine = open_engine(url)
    try:
        return migrate.state(engine)
    finally:
        engine.dispose()


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event's row as stored: `texas42.faces.server.events.read_event` reads it."""

    seq: int
    kind: str
    data: str


@dataclass(frozen=True, slots=True)
class StoredSnapshot:
    """A room's snapshot as stored: its state after the events before ``seq``."""

    seq: int
    data: str


@dataclass(frozen=True, slots=True)
class StoredTable:
    id: str
    name: str
    rules: str
    status: str
    events: tuple[StoredEvent, ...]
    """The whole log, or with a ``snapshot`` the events from its ``seq`` on."""
    snapshot: StoredSnapshot | None = None
    lobby_entry: str | None = None


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A game over, as the history list and the record export need it."""

    table_id: str
    number: int
    rules: str
    players: tuple[str, ...]
    score: tuple[int, ...]
    winner: int
    finished: float
    record: str
    player_ids: tuple[str | None, ...] = ()
    """Each seat's player (their public id), or None where no player sat; written to
    ``game_players``, never read back into this class."""

    def summary(self, name: str) -> GameSummary:
        """The game in the history list, at the table called ``name``."""
        return GameSummary(
            table=self.table_id,
            game=self.number,
            rules=self.rules,
            players=list(self.players),
            score=list(self.score),
            winner=self.winner,
            finished=self.finished,
            name=name,
        )


class Storage:
    """The event log of every table, on one database."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = open_engine(url)
        self._autocommit = (
            self.engine
            if url.startswith("sqlite")
            else self.engine.execution_options(isolation_level="AUTOCOMMIT")
        )
        """On PostgreSQL, for a single statement that needs no transaction around it (reading the
        log, `events_since`; an append of an event alone, `append`): one round trip."""
        # the schema this code needs, by its migrations (`texas42.faces.server.migrate`)
        migrate.upgrade(self.engine)
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="texas42-db")
        self._reader = ThreadPoolExecutor(
            max_workers=READ_THREADS, thread_name_prefix="texas42-db-read"
        )
        """For reads that need only what is committed (`read`), so they wait on no write; a
        few at once, so that one table catching up does not wait for every other one."""
        self.origin: str | None = None
        """With several processes on one PostgreSQL, this one's id: every append is then told
        on `EVENTS_CHANNEL` in its own transaction (None, as on SQLite: nothing is told)."""

    async def run(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run one storage call on the writer thread, in the order calls were made."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._writer, functools.partial(call, *args, **kwargs))

    async def read(self, call: Callable[..., T], *args: Any) -> T:
        """Run a read of committed rows on a thread of its own, not behind this process's
        queued writes (a table reading what other processes stored, `Room._catch_up`)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._reader, functools.partial(call, *args))

    def submit(self, call: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """Queue a storage call on the writer thread now, behind those already queued, without
        waiting for it (`run` queues it only when awaited)."""
        loop = asyncio.get_running_loop()
        return loop.run_in_executor(self._writer, functools.partial(call, *args))

    def close(self) -> None:
        self._writer.shutdown(wait=True)
        self._reader.shutdown(wait=True)
        self.engine.dispose()

    # -- writing ---------------------------------------------------------------------------

    def create_table(self, table_id: str, name: str, rules: str, *, public: bool = False) -> None:
        """A new table's row and, for a public one, its first event (`ListingEvent`), at once."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                tables_table.insert().values(
                    id=table_id,
                    name=name,
                    rules=rules,
                    status="lobby",
                    created=now,
                    updated=now,
                    public=public,
                    used=now,
                )
            )
            if public:
                kind, data = event_row(ListingEvent(public=True))
                conn.execute(
                    _INSERT_EVENT,
                    {"table_id": table_id, "seq": 0, "kind": kind, "data": data, "at": now},
                )
                self._notify(conn, table_id, 0)

    def _notify(self, conn: Connection, table_id: str, seq: int) -> None:
        """Tell the other processes (at this transaction's commit) that ``table_id`` has an
        event at ``seq``; a hint only: they read the log itself."""
        if self.origin is not None:
            payload = f"{table_id} {seq} {self.origin}"
            conn.execute(_NOTIFY, {"channel": EVENTS_CHANNEL, "payload": payload})

    def append(
        self,
        table_id: str,
        seq: int,
        event: Event,
        *,
        status: str | None = None,
        finished: FinishedGame | None = None,
    ) -> None:
        """One event, with the table's new status and a finished game, in one transaction;
        `SeqTaken` (nothing written) if the log has an event at ``seq`` already."""
        now = time.time()
        kind, data = event_row(event)
        row = {"table_id": table_id, "seq": seq, "kind": kind, "data": data, "at": now}
        try:
            if self._autocommit is not self.engine and not _writes_more(event, status, finished):
                # most of a game's events: the row and its notification are one statement,
                # committed alone, so the writer makes one round trip, not four
                with self._autocommit.connect() as conn:
                    if self.origin is None:
                        conn.execute(_INSERT_EVENT, row)
                    else:
                        payload = f"{table_id} {seq} {self.origin}"
                        conn.execute(
                            _INSERT_AND_NOTIFY,
                            {**row, "channel": EVENTS_CHANNEL, "payload": payload},
                        )
                return
            with self.engine.begin() as conn:
                conn.execute(_INSERT_EVENT, row)
                self._append_rest(conn, table_id, seq, event, now, status, finished)
        except sa.exc.IntegrityError as exc:
            if exc.orig is not None and _seq_taken(exc):
                raise SeqTaken(exc.statement, exc.params, exc.orig) from None
            raise

    def _append_rest(
        self,
        conn: Connection,
        table_id: str,
        seq: int,
        event: Event,
        now: float,
        status: str | None,
        finished: FinishedGame | None,
    ) -> None:
        """What an append writes beside its event, in the event's transaction (nothing but the
        notification unless `_writes_more`)."""
        if status is not None:
            conn.execute(
                tables_table.update()
                .where(tables_table.c.id == table_id)
                .values(status=status, updated=now, lobby_entry=None)
            )
        elif isinstance(event, LOBBY_EVENTS):
            conn.execute(
                tables_table.update().where(tables_table.c.id == table_id).values(lobby_entry=None)
            )
        if isinstance(event, ListingEvent):
            # the column the lobby's query reads, kept in step with the log
            conn.execute(
                tables_table.update()
                .where(tables_table.c.id == table_id)
                .values(public=event.public)
            )
        if finished is not None:
            _insert_game(conn, finished)
        self._notify(conn, table_id, seq)

    def save_lobby_entry(self, table_id: str, entry: str, used: float | None = None) -> None:
        """A table's lobby entry as it is now (and when it was last used, if given)."""
        values: dict[str, Any] = {"lobby_entry": entry}
        if used is not None:
            values["used"] = used
        with self.engine.begin() as conn:
            conn.execute(
                tables_table.update().where(tables_table.c.id == table_id).values(**values)
            )

    def save_snapshot(self, table_id: str, seq: int, data: str) -> None:
        """A table's snapshot after its events before ``seq``, in place of the one it had."""
        with self.engine.begin() as conn:
            conn.execute(snapshots_table.delete().where(snapshots_table.c.table_id == table_id))
            conn.execute(
                snapshots_table.insert().values(
                    table_id=table_id, seq=seq, data=data, at=time.time()
                )
            )

    def expire_lobby(self, cutoff: float, keep: set[str]) -> list[str]:
        """Tables waiting in the lobby unused since ``cutoff`` (no event since either), but
        those in ``keep``, become ``expired``: never listed or loaded again. Their ids."""
        t, e = tables_table, events_table
        recent = sa.exists().where(e.c.table_id == t.c.id, e.c.at >= cutoff)
        with self.engine.begin() as conn:
            ids = conn.execute(
                sa.select(t.c.id).where(
                    t.c.status == "lobby",
                    sa.func.coalesce(t.c.used, t.c.updated) < cutoff,
                    ~recent,
                )
            ).scalars()
            stale = [table_id for table_id in ids if table_id not in keep]
            for start in range(0, len(stale), 500):
                conn.execute(
                    t.update()
                    .where(t.c.id.in_(stale[start : start + 500]), t.c.status == "lobby")
                    .values(status="expired", updated=time.time(), lobby_entry=None)
                )
        return stale

    # -- reading ---------------------------------------------------------------------------

    def load_table(self, table_id: str, *, snapshot: bool = True) -> StoredTable | None:
        """A table's row and its log: from its latest snapshot on (unless ``snapshot`` is
        False: the whole log); an expired table's without its events."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(tables_table).where(tables_table.c.id == table_id)).first()
            if row is None:
                return None
            if row.status == "expired":
                return StoredTable(row.id, row.name, row.rules, row.status, ())
            saved = None
            if snapshot:
                found = conn.execute(
                    sa.select(snapshots_table.c.seq, snapshots_table.c.data).where(
                        snapshots_table.c.table_id == table_id
                    )
                ).first()
                saved = StoredSnapshot(found.seq, found.data) if found is not None else None
            return _stored(conn, row, saved)

    def events_since(self, table_id: str, seq: int) -> list[StoredEvent]:
        """A table's events from ``seq`` on, in order: what another process appended since
        this one last read (`Room._catch_up`)."""
        with self._autocommit.connect() as conn:
            rows = conn.execute(
                sa.select(events_table.c.seq, events_table.c.kind, events_table.c.data)
                .where(events_table.c.table_id == table_id, events_table.c.seq >= seq)
                .order_by(events_table.c.seq)
            ).all()
        return [StoredEvent(e.seq, e.kind, e.data) for e in rows]

    def table_status(self, table_id: str) -> str | None:
        """A table's status, or None if there is no such table."""
        with self.engine.connect() as conn:
            status: str | None = conn.execute(
                sa.select(tables_table.c.status).where(tables_table.c.id == table_id)
            ).scalar()
        return status

    def listed_tables(self, limit: int) -> list[tuple[str, str | None]]:
        """The listed tables waiting or in play, newest first: (id, stored lobby entry)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(tables_table.c.id, tables_table.c.lobby_entry)
                .where(
                    tables_table.c.public.is_(True),
                    tables_table.c.status.in_(("lobby", "playing")),
                )
                .order_by(tables_table.c.created.desc())
                .limit(limit)
            ).all()
        return [(row.id, row.lobby_entry) for row in rows]

    def open_tables(self) -> Iterator[StoredTable]:
        """Every table waiting in the lobby or in play, with its whole log (the server loads
        a table when it is visited, `load_table`; this is for tools that read every log)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(tables_table)
                .where(tables_table.c.status.in_(("lobby", "playing")))
                .order_by(tables_table.c.created)
            ).all()
            for row in rows:
                yield _stored(conn, row)

    def finished_game(self, table_id: str, number: int) -> FinishedGame | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(games_table).where(
                    games_table.c.table_id == table_id, games_table.c.number == number
                )
            ).first()
        return _finished(row) if row is not None else None

    def history(self, limit: int) -> list[GameSummary]:
        """The latest finished games' summaries, newest first (without their records)."""
        columns = [c for c in games_table.c if c.name != "record"]
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(*columns, tables_table.c.name)
                .join(tables_table, tables_table.c.id == games_table.c.table_id)
                .order_by(games_table.c.finished.desc())
                .limit(limit)
            ).all()
        return [_finished(row, record="").summary(row.name) for row in rows]

    def player_games(self, player_id: str, limit: int) -> list[PlayerSeats]:
        """The latest ``limit`` finished games a player sat in, newest first, with their
        records and the seats the player held."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(
                    game_players_table.c.table_id,
                    game_players_table.c.number,
                    game_players_table.c.seat,
                    game_players_table.c.name.label("player_name"),
                    tables_table.c.name.label("table_name"),
                    *[c for c in games_table.c if c.name not in ("table_id", "number")],
                )
                .join(
                    games_table,
                    sa.and_(
                        games_table.c.table_id == game_players_table.c.table_id,
                        games_table.c.number == game_players_table.c.number,
                    ),
                )
                .join(tables_table, tables_table.c.id == games_table.c.table_id)
                .where(game_players_table.c.player_id == player_id)
                .order_by(games_table.c.finished.desc(), game_players_table.c.seat)
            ).all()
        games: dict[tuple[str, int], PlayerSeats] = {}
        for row in rows:
            key = (row.table_id, row.number)
            if key not in games:
                if len(games) == limit:
                    break
                games[key] = PlayerSeats(_finished(row), row.table_name, [], [])
            games[key].seats.append(row.seat)
            games[key].names.append(row.player_name)
        return list(games.values())

    def save_coaching(
        self, table_id: str, number: int, seats: list[dict[str, int]], version: int
    ) -> None:
        """A finished game's coaching figures, one dict a seat (`COACHING_FIGURES`), replacing
        what it had."""
        table = coaching_table
        rows = [
            {"table_id": table_id, "number": number, "seat": seat, "version": version}
            | {name: int(figures[name]) for name in COACHING_FIGURES}
            for seat, figures in enumerate(seats)
        ]
        with self.engine.begin() as conn:
            conn.execute(
                table.delete().where(table.c.table_id == table_id, table.c.number == number)
            )
            if rows:
                conn.execute(table.insert(), rows)

    def coaching(
        self, games: list[tuple[str, int]], version: int
    ) -> dict[tuple[str, int, int], dict[str, int]]:
        """The coaching figures stored under ``version`` for these games, by (table, game,
        seat); a game missing has none."""
        table = coaching_table
        found: dict[tuple[str, int, int], dict[str, int]] = {}
        tables = sorted({table_id for table_id, _ in games})
        wanted = set(games)
        with self.engine.connect() as conn:
            for start in range(0, len(tables), 500):
                rows = conn.execute(
                    sa.select(table).where(
                        table.c.table_id.in_(tables[start : start + 500]),
                        table.c.version == version,
                    )
                ).all()
                for row in rows:
                    if (row.table_id, row.number) in wanted:
                        key = (row.table_id, row.number, row.seat)
                        found[key] = {name: getattr(row, name) for name in COACHING_FIGURES}
        return found

    def save_house_rules(self, name: str, rules: str) -> float:
        """Keep ``rules`` under ``name`` (replacing what that name held), then drop all but the
        latest `HOUSE_RULES_KEPT`; when it was saved."""
        now = time.time()
        table = house_rules_table
        with self.engine.begin() as conn:
            conn.execute(table.delete().where(table.c.name == name))
            conn.execute(table.insert().values(name=name, rules=rules, saved=now))
            kept = sa.select(table.c.name).order_by(table.c.saved.desc()).limit(HOUSE_RULES_KEPT)
            conn.execute(table.delete().where(table.c.name.not_in(kept.scalar_subquery())))
        return now

    def house_rules(self) -> list[tuple[str, str, float]]:
        """The saved house rules as (name, rules, saved), latest first."""
        table = house_rules_table
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(table.c.name, table.c.rules, table.c.saved).order_by(
                    table.c.saved.desc(), table.c.name
                )
            ).all()
        return [(row.name, row.rules, row.saved) for row in rows]


@dataclass(frozen=True, slots=True)
class PlayerSeats:
    """A finished game a player sat in: the game, its table's name, the player's seats and the
    name they sat under at each."""

    game: FinishedGame
    table_name: str
    seats: list[int]
    names: list[str]


def open_engine(url: str) -> Engine:
    """The database engine for ``url``; SQLite in WAL mode with foreign keys on, its folder
    made."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode: a commit survives the process being killed, which is the
            # promise made to players; only a power cut can lose the last transactions.
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    engine = sa.create_engine(url)
    _ping_when_idle(engine)
    return engine


def _ping_when_idle(engine: Engine) -> None:
    """Ping a pooled connection only when it has been idle: a database restarted overnight
    costs no failed action, and a busy server pays no round trip a statement (which
    ``pool_pre_ping`` would cost every action and every read of another process's events)."""

    @sa.event.listens_for(engine, "checkin")
    def _returned(_dbapi_conn: Any, record: Any) -> None:
        record.info["used"] = time.monotonic()

    @sa.event.listens_for(engine, "checkout")
    def _taken(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        if time.monotonic() - record.info.get("used", time.monotonic()) < IDLE_PING_SECONDS:
            return
        try:
            with dbapi_conn.cursor() as cursor:
                cursor.execute("SELECT 1")
            dbapi_conn.rollback()
        except Exception as exc:  # the pool then tries with a fresh connection
            raise sa.exc.DisconnectionError(str(exc)) from exc


def _insert_game(conn: Connection, game: FinishedGame) -> None:
    conn.execute(
        games_table.insert().values(
            table_id=game.table_id,
            number=game.number,
            rules=game.rules,
            players=json.dumps(list(game.players)),
            score=json.dumps(list(game.score), separators=(",", ":")),
            winner=game.winner,
            finished=game.finished,
            record=game.record,
        )
    )
    rows = [
        {
            "table_id": game.table_id,
            "number": game.number,
            "seat": seat,
            "player_id": player,
            "name": game.players[seat] if seat < len(game.players) else "",
        }
        for seat, player in enumerate(game.player_ids)
        if player is not None
    ]
    if rows:
        conn.execute(game_players_table.insert(), rows)


def _stored(conn: Connection, row: Any, snapshot: StoredSnapshot | None = None) -> StoredTable:
    events = conn.execute(
        sa.select(events_table.c.seq, events_table.c.kind, events_table.c.data)
        .where(
            events_table.c.table_id == row.id,
            events_table.c.seq >= (snapshot.seq if snapshot is not None else 0),
        )
        .order_by(events_table.c.seq)
    ).all()
    return StoredTable(
        row.id,
        row.name,
        row.rules,
        row.status,
        tuple(StoredEvent(e.seq, e.kind, e.data) for e in events),
        snapshot,
        row.lobby_entry,
    )


def _finished(row: Any, record: str | None = None) -> FinishedGame:
    score = json.loads(row.score)
    return FinishedGame(
        row.table_id,
        row.number,
        row.rules,
        tuple(json.loads(row.players)),
        tuple(int(n) for n in score),
        row.winner,
        row.finished,
        row.record if record is None else record,
    )
