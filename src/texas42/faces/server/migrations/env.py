"""Alembic's entry into our migrations: the connection comes from `texas42.faces.server.migrate`
(the server's own engine), never from an ``alembic.ini``."""

from __future__ import annotations

from alembic import context

from texas42.faces.server.migrate import SchemaError
from texas42.faces.server.storage import metadata

connection = context.config.attributes.get("connection")
if context.is_offline_mode() or connection is None:
    raise SchemaError("migrations run on a live database only: use texas42 db upgrade --db URL")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
