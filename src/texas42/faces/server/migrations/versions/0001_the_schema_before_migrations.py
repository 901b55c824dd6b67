"""The schema as it was when migrations began (tables, events, games, game players, house rules,
snapshots); completes a database made before migrations without touching what it has.

Revision ID: 0001
Revises: none
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None

INDEXES = (
    ("games_by_finish", "games", ["finished"]),
    ("tables_by_status", "tables", ["status"]),
    ("tables_by_listing", "tables", ["public", "status"]),
    ("game_players_by_player", "game_players", ["player_id"]),
    ("house_rules_by_saved", "house_rules", ["saved"]),
)


def _tables() -> dict[str, list[sa.schema.SchemaItem]]:
    """Each table's columns and constraints, in the order the tables are made."""
    return {
        "tables": [
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("name", sa.String(80), nullable=False),
            sa.Column("rules", sa.Text, nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("updated", sa.Float, nullable=False),
            sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()),
            sa.Column("lobby_entry", sa.Text, nullable=True),
            sa.Column("used", sa.Float, nullable=True),
        ],
        "events": [
            sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
            sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("kind", sa.String(16), nullable=False),
            sa.Column("data", sa.Text, nullable=False),
            sa.Column("at", sa.Float, nullable=False),
        ],
        "games": [
            sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
            sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("rules", sa.Text, nullable=False),
            sa.Column("players", sa.Text, nullable=False),
            sa.Column("score", sa.String(32), nullable=False),
            sa.Column("winner", sa.Integer, nullable=False),
            sa.Column("finished", sa.Float, nullable=False),
            sa.Column("record", sa.Text, nullable=False),
        ],
        "game_players": [
            sa.Column("table_id", sa.String(32), primary_key=True),
            sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
            sa.Column("player_id", sa.String(32), nullable=False),
            sa.Column("name", sa.String(80), nullable=False),
            sa.ForeignKeyConstraint(
                ["table_id", "number"],
                ["games.table_id", "games.number"],
                name="game_players_game",
            ),
        ],
        "house_rules": [
            sa.Column("name", sa.String(80), primary_key=True),
            sa.Column("rules", sa.Text, nullable=False),
            sa.Column("saved", sa.Float, nullable=False),
        ],
        "snapshots": [
            sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
            sa.Column("seq", sa.Integer, nullable=False),
            sa.Column("data", sa.Text, nullable=False),
            sa.Column("at", sa.Float, nullable=False),
        ],
    }


def upgrade() -> None:
    """Make each table and index missing; a ``tables`` made before tables could be listed, or
    kept their lobby entry, gets those columns (every old table private, its entry empty)."""
    bind = op.get_bind()
    inspector = sa.inspect(bind)
    have = set(inspector.get_table_names())
    if "tables" in have:
        columns = {column["name"] for column in inspector.get_columns("tables")}
        if "public" not in columns:
            op.execute("ALTER TABLE tables ADD COLUMN public BOOLEAN NOT NULL DEFAULT FALSE")
        if "lobby_entry" not in columns:
            op.execute("ALTER TABLE tables ADD COLUMN lobby_entry TEXT")
        if "used" not in columns:
            op.execute("ALTER TABLE tables ADD COLUMN used FLOAT")
    for name, items in _tables().items():
        if name not in have:
            op.create_table(name, *items)
    for index, table, indexed in INDEXES:
        made = {found["name"] for found in sa.inspect(bind).get_indexes(table)}
        if index not in made:
            op.create_index(index, table, indexed)


def downgrade() -> None:
    for index, table, _columns in reversed(INDEXES):
        op.drop_index(index, table_name=table)
    for name in reversed(list(_tables())):
        op.drop_table(name)
