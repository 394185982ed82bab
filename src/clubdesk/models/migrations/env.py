"""Alembic environment: ClubDesk runs migrations in-process on the connection it hands over."""

from __future__ import annotations

from alembic import context

from clubdesk.models import Base

config = context.config
connection = config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
