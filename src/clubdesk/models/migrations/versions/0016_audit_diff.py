"""The audit log stores what changed.

Revision ID: 0016_audit_diff
Revises: 0015_member_search

From this revision on, an update's audit row holds the before and after of only the fields that changed
(``services.kernel.base.changed_fields``); the audit hash chain covers what is stored, as before. Rows
written earlier as whole snapshots are left as they are: they stay readable (the same two JSON columns)
and verifiable (their hashes cover their stored text; rewriting them would break the chain that
backups recorded).

The four single-column indexes of the foundation on ``at``, ``action``, ``entity`` and ``event_id`` go:
``at`` and ``event_id`` are the first columns of 0011's ``(at, id)`` and ``(event_id, at, id)``, and no
hot path filters by action or entity alone (the few look-ups by action also name their event). At a
million hand entries they were a third of the log's size.
"""

from __future__ import annotations

from alembic import op

revision = "0016_audit_diff"
down_revision = "0015_member_search"
branch_labels = None
depends_on = None

_DROPPED = (
    ("ix_audit_log_at", "at"),
    ("ix_audit_log_action", "action"),
    ("ix_audit_log_entity", "entity"),
    ("ix_audit_log_event_id", "event_id"),
)


def upgrade() -> None:
    for name, _col in _DROPPED:
        op.drop_index(name, table_name="audit_log")


def downgrade() -> None:
    for name, col in reversed(_DROPPED):
        op.create_index(name, "audit_log", [col])
