"""Alembic environment of the hub's own chain: runs in-process on the connection the hub hands over; its
version table lives in the ``federation`` schema, apart from any club server's."""

from __future__ import annotations

from alembic import context

from clubdesk.storage.hub.models import SCHEMA, HubBase

config = context.config
connection = config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=HubBase.metadata,
    version_table_schema=SCHEMA,
    include_schemas=True,
)
with context.begin_transaction():
    context.run_migrations()
