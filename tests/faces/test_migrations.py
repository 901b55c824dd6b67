"""Schema migrations (`texas42.faces.server.migrate`): the first revision is the schema as it was
before migrations, a database made then is stamped and not altered and its games replay to the
same states, a later revision is applied with the data kept, and a database newer than the code
is refused; on SQLite and on PostgreSQL."""

from __future__ import annotations

import shutil
import sqlite3
import threading
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from typer.testing import CliRunner

from texas42.faces.cli import app as cli
from texas42.faces.server import migrate
from texas42.faces.server.events import StartEvent
from texas42.faces.server.storage import (
    FinishedGame,
    Storage,
    database_url,
    metadata,
    open_engine,
)
from webtest import Socket, act_at_random, make_client, room_of, seat_with_bots

HEAD = migrate.head()
"""The revision this code's schema is at; the test's own revision comes after it."""
NEXT = "9001"
SECOND = '''"""Tables get a note (a revision made by the test).

Revision ID: 9001
Revises: the head
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "9001"
down_revision = "{head}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("note", sa.Text, nullable=False, server_default="none"))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("note")
'''


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "m.sqlite")
    url: str = request.getfixturevalue("pg_url")
    return url


def engine_of(db: str) -> sa.engine.Engine:
    return open_engine(database_url(db))


def revision_of(db: str) -> str | None:
    engine = engine_of(db)
    try:
        with engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()
    finally:
        engine.dispose()


def schema_of(db: str) -> dict[str, Any]:
    """Every table's columns (name, type, nullable, default), indexes and keys, as reflected."""
    engine = engine_of(db)
    try:
        inspector = sa.inspect(engine)
        return {
            name: (
                [
                    (c["name"], str(c["type"]), c["nullable"], c.get("default"))
                    for c in inspector.get_columns(name)
                ],
                sorted((i["name"], tuple(i["column_names"])) for i in inspector.get_indexes(name)),
                inspector.get_pk_constraint(name)["constrained_columns"],
                sorted(
                    (tuple(f["constrained_columns"]), f["referred_table"])
                    for f in inspector.get_foreign_keys(name)
                ),
            )
            for name in sorted(inspector.get_table_names())
            if name != "alembic_version"
        }
    finally:
        engine.dispose()


def drop_version(db: str) -> None:
    """Make the database look as one made before migrations existed: no version table."""
    engine = engine_of(db)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("DROP TABLE alembic_version"))
    finally:
        engine.dispose()


def with_second_revision(tmp_path: Path) -> Path:
    """Our scripts and one more revision, made here: ``tables`` gets a ``note``."""
    scripts = tmp_path / "scripts"
    shutil.copytree(migrate.SCRIPTS, scripts, ignore=shutil.ignore_patterns("__pycache__"))
    (scripts / "versions" / "9001_note.py").write_text(SECOND.replace("{head}", HEAD))
    return scripts


def test_the_first_revision_makes_exactly_the_schema_the_code_uses(db: str) -> None:
    engine = engine_of(db)
    try:
        assert migrate.state(engine).current is None
        assert migrate.upgrade(engine) == (None, migrate.head())
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
        assert migrate.state(engine).up_to_date and migrate.state(engine).problem() is None
        assert migrate.upgrade(engine) == (migrate.head(), migrate.head())  # nothing to do
    finally:
        engine.dispose()
    revisions = [revision for revision, _ in migrate.history()]
    assert revisions[0] == "0001" and revisions[-1] == HEAD


def test_a_database_from_before_migrations_is_stamped_and_replays_its_games(db: str) -> None:
    with make_client(db) as c:
        table, me, token = seat_with_bots(c)
        m = act_at_random(me, 2, 14)
        position = room_of(c, table).game.position()  # type: ignore[union-attr]
        storage: Storage = c.app.state.storage  # type: ignore[attr-defined]
        storage.create_table("done", "Done", "standard")
        finished = FinishedGame(
            "done", 1, "standard", ("A", "B", "C", "D"), (7, 2), 0, 1e9, '{"r": 1}'
        )
        storage.append("done", 0, StartEvent(game=1, seed=3), status="over", finished=finished)
    drop_version(db)
    before = schema_of(db)
    assert revision_of(db) is None
    with make_client(db) as c:
        assert revision_of(db) == migrate.head()  # stamped at start
        assert schema_of(db) == before, "nothing altered"
        assert room_of(c, table).game.position() == position  # type: ignore[union-attr]
        again = Socket(c, table)
        again.hello(token)
        assert again.state["game"] == m["game"] and again.state["seq"] == m["seq"]
        record = c.get("/api/tables/done/games/1/record")
        assert record.status_code == 200 and record.text == '{"r": 1}'


def test_a_database_made_before_columns_and_tables_existed_is_completed(tmp_path: Path) -> None:
    """Older still: the first ``tables`` of all, without listing or lobby columns, and none of
    the later tables; upgraded, its table keeps its row and the schema is today's."""
    db = tmp_path / "oldest.sqlite"
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute(
            "CREATE TABLE tables (id VARCHAR(32) NOT NULL, name VARCHAR(80) NOT NULL, "
            "rules TEXT NOT NULL, status VARCHAR(16) NOT NULL, created FLOAT NOT NULL, "
            "updated FLOAT NOT NULL, PRIMARY KEY (id))"
        )  # as SQLAlchemy made it then
        conn.execute("INSERT INTO tables VALUES ('old', 'Old', 'standard', 'lobby', 1.0, 1.0)")
    engine = engine_of(str(db))
    try:
        assert migrate.upgrade(engine) == (None, HEAD)
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
            row = conn.execute(sa.text("SELECT name, public, used FROM tables")).one()
        assert tuple(row) == ("Old", 0, None)
    finally:
        engine.dispose()


def event_rows(db: str) -> list[tuple[Any, ...]]:
    engine = engine_of(db)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT * FROM events ORDER BY table_id, seq")).all()
        return [tuple(row) for row in rows]
    finally:
        engine.dispose()


def test_a_second_revision_is_applied_and_the_data_survives(db: str, tmp_path: Path) -> None:
    with make_client(db) as c:
        table, me, token = seat_with_bots(c)
        m = act_at_random(me, 5, 6)
        position = room_of(c, table).game.position()  # type: ignore[union-attr]
    logged = event_rows(db)
    scripts = with_second_revision(tmp_path)
    engine = engine_of(db)
    try:
        assert "run texas42 db upgrade" in (migrate.state(engine, scripts).problem() or "")
        assert migrate.upgrade(engine, scripts) == (HEAD, NEXT)
        with engine.connect() as conn:
            notes = conn.execute(sa.text("SELECT id, note FROM tables")).all()
        assert [tuple(n) for n in notes] == [(table, "none")]
    finally:
        engine.dispose()
    assert event_rows(db) == logged
    # this code knows only up to HEAD: the database at NEXT is refused, and left as it is
    with pytest.raises(migrate.SchemaError, match=f"{NEXT}, which this texas42 does not know"):
        Storage(database_url(db))
    assert revision_of(db) == NEXT
    result = CliRunner().invoke(cli, ["db", "upgrade", "--db", db])
    assert result.exit_code == 2 and "does not know" in result.output
    current = CliRunner().invoke(cli, ["db", "current", "--db", db])
    assert f"{NEXT} (this texas42: {HEAD})" in current.output
    served = CliRunner().invoke(cli, ["serve", "--db", db, "--port", "4243"])
    assert served.exit_code == 2 and "a newer texas42 made it" in served.output
    assert revision_of(db) == NEXT
    # back down to HEAD, the table's game replays to the state it was in
    engine = engine_of(db)
    try:
        migrate.downgrade(engine, HEAD, scripts)
    finally:
        engine.dispose()
    assert revision_of(db) == HEAD and event_rows(db) == logged
    with make_client(db) as c:
        assert room_of(c, table).game.position() == position  # type: ignore[union-attr]
        again = Socket(c, table)
        again.hello(token)
        assert again.state["game"] == m["game"] and again.state["seq"] == m["seq"]


def test_db_upgrade_current_and_history_from_the_command_line(db: str) -> None:
    runner = CliRunner()
    first = runner.invoke(cli, ["db", "upgrade", "--db", db])
    assert first.exit_code == 0, first.output
    assert f"schema is at {HEAD} (it had no revision recorded)" in first.output
    again = runner.invoke(cli, ["db", "upgrade", "--db", db])
    assert again.exit_code == 0 and f"up to date ({HEAD})" in again.output
    current = runner.invoke(cli, ["db", "current", "--db", db])
    assert current.exit_code == 0 and current.output.strip() == f"{HEAD} (this texas42: {HEAD})"
    history = runner.invoke(cli, ["db", "history"])
    assert history.exit_code == 0 and history.output.startswith("0001  The schema as it was")


def test_two_processes_upgrading_at_once_upgrade_once(pg_url: str) -> None:
    """Two starts at once on one PostgreSQL database: the advisory lock orders them."""
    results: list[object] = []

    def start() -> None:
        engine = engine_of(pg_url)
        try:
            results.append(migrate.upgrade(engine))
        except Exception as exc:
            results.append(exc)
        finally:
            engine.dispose()

    threads = [threading.Thread(target=start) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results, key=str) == sorted([(None, HEAD), (HEAD, HEAD), (HEAD, HEAD)], key=str)
