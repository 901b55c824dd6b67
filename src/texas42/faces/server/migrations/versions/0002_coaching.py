"""Coaching summaries: each finished game's figures for each seat, from its review (plays,
costly plays, points given up, hands, bids won and made), so a player's page does not review
every game each time it is shown.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """The ``coaching`` table, empty: an older game gets its rows when a page asks for them (a
    database that has it already, made by this code and then stripped of its version, keeps it)."""
    if "coaching" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "coaching",
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


def downgrade() -> None:
    op.drop_table("coaching")
