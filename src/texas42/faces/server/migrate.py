"""The database's schema version: alembic's migrations, applied from the package itself.

The scripts are in ``migrations/versions`` (no ``alembic.ini``: `config` builds the alembic
configuration, and ``migrations/env.py`` takes the connection given here). The first revision is
the schema as it was when migrations began: it makes an empty database, and brings one made
before migrations existed (recognised by its ``tables`` table) to that schema without touching
what it has, so such a database is in effect stamped. `upgrade` runs at every start of the server
(`texas42.faces.server.storage.Storage`) and by ``texas42 db upgrade``; a database at a revision
this code does not know (made by a newer texas42) is refused, never altered.

A change to the schema (`texas42.faces.server.storage.metadata`) comes with a new revision, a
file in ``migrations/versions`` written like the first (``revision``, ``down_revision`` the one
before, ``upgrade`` and ``downgrade`` with alembic's ``op``; ``op.batch_alter_table`` for what
SQLite cannot alter in place); ``tests/faces/test_migrations.py`` checks that the revisions
make exactly the tables the code uses, on SQLite and PostgreSQL.
"""

from __future__ import annotations

import contextlib
import functools
import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, Engine

from texas42.core.errors import Texas42Error

SCRIPTS = Path(__file__).parent / "migrations"
"""The migration scripts this code knows (``env.py`` and ``versions/``)."""

LOCK = 4242_0016
"""The PostgreSQL advisory lock held while a database is upgraded, so two processes starting at
once upgrade it one after the other."""


class SchemaError(Texas42Error):
    """The database's schema cannot be used by this code (or brought to what it needs)."""


@dataclass(frozen=True, slots=True)
class SchemaState:
    """Where a database's schema stands: its revision (None: no version recorded) and the
    revision this code needs."""

    current: str | None
    head: str
    known: bool
    """Whether this code knows ``current`` (an unknown one was made by a newer texas42)."""

    @property
    def up_to_date(self) -> bool:
        return self.current == self.head

    def problem(self) -> str | None:
        """Why the server cannot serve this database as it is, or None."""
        if self.up_to_date:
            return None
        if not self.known:
            return newer_message(self.current, self.head)
        return f"the database's schema is at {self.current or 'no revision'}, not {self.head}: run texas42 db upgrade"


def newer_message(current: str | None, head: str) -> str:
    return (
        f"the database's schema is at revision {current}, which this texas42 does not know "
        f"(it knows up to {head}): a newer texas42 made it; run that version, or restore a "
        "backup made for this one"
    )


def config(connection: Connection | None = None, scripts: Path = SCRIPTS) -> Config:
    """Alembic's configuration for our scripts, with ``connection`` for ``env.py`` to use."""
    cfg = Config(stdout=io.StringIO())
    cfg.set_main_option("script_location", str(scripts))
    cfg.set_main_option("path_separator", "os")
    cfg.attributes["connection"] = connection
    return cfg


@functools.cache
def _script(scripts: Path) -> ScriptDirectory:
    return ScriptDirectory.from_config(config(scripts=scripts))


def head(scripts: Path = SCRIPTS) -> str:
    """The revision this code's schema is at."""
    found = _script(scripts).get_current_head()
    if found is None:
        raise SchemaError(f"no migration scripts in {scripts}")
    return found


def state(engine: Engine, scripts: Path = SCRIPTS) -> SchemaState:
    """Where ``engine``'s database stands against this code's scripts."""
    with engine.connect() as conn:
        current = MigrationContext.configure(conn).get_current_revision()
    return _state(current, scripts)


def _state(current: str | None, scripts: Path) -> SchemaState:
    known = current is None or _known(current, scripts)
    return SchemaState(current, head(scripts), known)


def _known(revision: str, scripts: Path) -> bool:
    try:
        return _script(scripts).get_revision(revision) is not None
    except Exception:
        return False


def upgrade(engine: Engine, scripts: Path = SCRIPTS) -> tuple[str | None, str]:
    """Bring the database to this code's schema: apply the revisions it lacks (an empty one is
    made, one made before migrations is completed and stamped). Refuse one at a revision this
    code does not know, changing nothing. The revisions before and after."""
    with _changing(engine) as conn:
        current = MigrationContext.configure(conn).get_current_revision()
        found = _state(current, scripts)
        if not found.known:
            raise SchemaError(newer_message(current, found.head))
        if not found.up_to_date:
            command.upgrade(config(conn, scripts), "head")
            _check_foreign_keys(conn)
    return current, found.head


def downgrade(engine: Engine, revision: str, scripts: Path = SCRIPTS) -> None:
    """Take the database back to ``revision`` with the scripts that made its current one (to
    run an older texas42 on it again); the same care as `upgrade`."""
    with _changing(engine) as conn:
        command.downgrade(config(conn, scripts), revision)
        _check_foreign_keys(conn)


@contextlib.contextmanager
def _changing(engine: Engine) -> Iterator[Connection]:
    """A connection in a transaction to change the schema on: SQLite's foreign keys off
    around it, PostgreSQL's `LOCK` held in it."""
    with engine.connect() as conn, _foreign_keys_off(conn), conn.begin(), _locked(conn):
        yield conn


@contextlib.contextmanager
def _foreign_keys_off(conn: Connection) -> Iterator[None]:
    """On SQLite, no foreign key checks while the schema changes: a table rebuilt by a migration
    (alembic's batch mode copies it and drops the old one) would fail them halfway; its keys are
    checked whole after (`_check_foreign_keys`). The pragma works only outside a transaction."""
    if conn.dialect.name != "sqlite":
        yield
        return
    conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
    conn.commit()
    try:
        yield
    finally:
        conn.rollback()
        conn.exec_driver_sql("PRAGMA foreign_keys=ON")
        conn.commit()


def _check_foreign_keys(conn: Connection) -> None:
    if conn.dialect.name == "sqlite":
        broken = conn.exec_driver_sql("PRAGMA foreign_key_check").all()
        if broken:
            raise SchemaError(f"the migration would break {len(broken)} foreign keys: not applied")


def history(scripts: Path = SCRIPTS) -> list[tuple[str, str]]:
    """Every revision this code knows, oldest first: (revision, what it does)."""
    revisions = list(_script(scripts).walk_revisions())
    return [(r.revision, (r.doc or "").strip().split("\n\n")[0]) for r in reversed(revisions)]


@contextlib.contextmanager
def _locked(conn: Connection) -> Iterator[None]:
    """On PostgreSQL, hold `LOCK` for the transaction (SQLite's writer lock does the same)."""
    if conn.dialect.name == "postgresql":
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK})
    yield
