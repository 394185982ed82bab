"""Rule readings checked again against the seeds: the federation licence, appeal subjects, and
the old readings kept as overrides in every existing event whose preset changed.

* ``members.licence``: the player's federation licence number (rule E15: the match act records it); "" when
  the member has none (the act then prints the club number under its own label).
* ``appeals.subject``: what an appeal is about ("result" unless said otherwise); a decided appeal on the
  same table and subject is final (rules G16, T10).
* Events store only overrides of their preset, so a new preset default would silently rewrite old standings
  and sheets. Every existing event of a preset whose defaults changed gets the old values as overrides
  (a value the event already overrides is kept): its results stay as they were. New events get the new
  readings. :data:`OLD_READINGS` is the list (also used by the event settings to offer the switch).

Revision ID: 0006_rule_readings
Revises: 0005_discipline
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0006_rule_readings"
down_revision = "0005_discipline"
branch_labels = None
depends_on = None

#: preset -> the parameters as ClubDesk read them before this migration (RULES.md B6, B8, T12b)
OLD_READINGS: dict[str, dict[str, object]] = {
    # rule B8: the opening test was on the pure value; rule B6: no fine in a blocked hand, and going out with
    # 0-0 / 6-6 was worth a flat 50 / 100
    "gaple-club": {"open_on": "pure", "fine_in_block": False, "out_double_mode": "flat"},
    # rule T12b: Buchholz followed FIDE's dummy opponent
    "tavla": {"bh_unplayed": "fide"},
}


def upgrade() -> None:
    with op.batch_alter_table("members") as batch:
        batch.add_column(sa.Column("licence", sa.String(length=40), nullable=False, server_default=""))
    with op.batch_alter_table("appeals") as batch:
        batch.add_column(sa.Column("subject", sa.String(length=60), nullable=False, server_default="result"))
    conn = op.get_bind()
    events = sa.table(
        "events",
        sa.column("id", sa.Integer),
        sa.column("ruleset", sa.String),
        sa.column("ruleset_overrides", sa.Text),
    )
    audit = sa.table(
        "audit_log",
        sa.column("at", sa.DateTime),
        sa.column("actor_name", sa.String),
        sa.column("actor_role", sa.String),
        sa.column("action", sa.String),
        sa.column("entity", sa.String),
        sa.column("entity_id", sa.String),
        sa.column("event_id", sa.Integer),
        sa.column("before", sa.Text),
        sa.column("after", sa.Text),
        sa.column("reason", sa.Text),
    )
    rows = conn.execute(
        sa.select(events.c.id, events.c.ruleset, events.c.ruleset_overrides).where(
            events.c.ruleset.in_(list(OLD_READINGS))
        )
    ).all()
    now = datetime.now(UTC).replace(tzinfo=None)
    for event_id, ruleset, raw in rows:
        try:
            overrides = json.loads(raw or "{}")
        except ValueError:
            overrides = {}
        if not isinstance(overrides, dict):
            overrides = {}
        kept = {k: v for k, v in OLD_READINGS[ruleset].items() if k not in overrides}
        if not kept:
            continue
        after = {**overrides, **kept}
        conn.execute(
            events.update()
            .where(events.c.id == event_id)
            .values(ruleset_overrides=json.dumps(after, sort_keys=True))
        )
        values: dict[str, object] = {
            "at": now,
            "actor_name": "ClubDesk upgrade",
            "actor_role": "secretary",
            "action": "event.rule-readings-kept",
            "entity": "event",
            "entity_id": str(event_id),
            "event_id": event_id,
            "before": json.dumps({"ruleset_overrides": overrides}, sort_keys=True),
            "after": json.dumps({"ruleset_overrides": after}, sort_keys=True),
            "reason": "issue 29: the event keeps the rule readings its results were made with",
        }
        conn.execute(audit.insert().values(**values))


def downgrade() -> None:
    with op.batch_alter_table("appeals") as batch:
        batch.drop_column("subject")
    with op.batch_alter_table("members") as batch:
        batch.drop_column("licence")
