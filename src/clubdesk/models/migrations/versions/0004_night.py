"""Competition night: rounds, tables (matches), result entries, substitutions, rating history, final places,
prize awards, per-event night settings.

Revision ID: 0004_night
Revises: 0003_events
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_night"
down_revision = "0003_events"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "event_night",
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("result_mode", sa.String(length=10), nullable=False),
        sa.Column("tiebreaks", sa.String(length=200), nullable=False),
        sa.Column("lives", sa.Integer(), nullable=False),
        sa.Column("call_minutes", sa.Integer(), nullable=False),
        sa.Column("encounter_games", sa.Integer(), nullable=False),
        sa.Column("deadline", sa.DateTime(), nullable=True),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("prize_plan", sa.Text(), nullable=False),
        sa.Column("season_scale", sa.Text(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name=op.f("fk_event_night_event_id_events")),
        sa.PrimaryKeyConstraint("event_id", name=op.f("pk_event_night")),
    )
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("match_length", sa.Integer(), nullable=True),
        sa.Column("explanations", sa.Text(), nullable=False),
        sa.Column("proposed_at", sa.DateTime(), nullable=False),
        sa.Column("published_at", sa.DateTime(), nullable=True),
        sa.Column("call_at", sa.DateTime(), nullable=True),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name=op.f("fk_rounds_event_id_events")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rounds")),
        sa.UniqueConstraint("event_id", "number", name="uq_rounds_event_number"),
    )
    op.create_index(op.f("ix_rounds_event_id"), "rounds", ["event_id"], unique=False)
    op.create_table(
        "final_places",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("entrant_id", sa.Integer(), nullable=False),
        sa.Column("place_from", sa.Integer(), nullable=False),
        sa.Column("place_to", sa.Integer(), nullable=False),
        sa.Column("season_points", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["entrant_id"], ["entrants.id"], name=op.f("fk_final_places_entrant_id_entrants")
        ),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name=op.f("fk_final_places_event_id_events")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_final_places")),
    )
    op.create_index(op.f("ix_final_places_entrant_id"), "final_places", ["entrant_id"], unique=False)
    op.create_index(op.f("ix_final_places_event_id"), "final_places", ["event_id"], unique=False)
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("round_no", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("side_a", sa.Integer(), nullable=False),
        sa.Column("side_b", sa.Integer(), nullable=True),
        sa.Column("ref", sa.String(length=20), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("match_length", sa.Integer(), nullable=True),
        sa.Column("score_a", sa.Integer(), nullable=False),
        sa.Column("score_b", sa.Integer(), nullable=False),
        sa.Column("points_a", sa.Integer(), nullable=True),
        sa.Column("points_b", sa.Integer(), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("scorer", sa.String(length=80), nullable=False),
        sa.Column("counter", sa.String(length=80), nullable=False),
        sa.Column("referee", sa.String(length=80), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(), nullable=True),
        sa.Column("locked", sa.Boolean(), nullable=False),
        sa.Column("excuse", sa.Text(), nullable=False),
        sa.Column("postponed_to", sa.DateTime(), nullable=True),
        sa.Column("seats", sa.Text(), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name=op.f("fk_matches_event_id_events")),
        sa.ForeignKeyConstraint(["round_id"], ["rounds.id"], name=op.f("fk_matches_round_id_rounds")),
        sa.ForeignKeyConstraint(["side_a"], ["entrants.id"], name=op.f("fk_matches_side_a_entrants")),
        sa.ForeignKeyConstraint(["side_b"], ["entrants.id"], name=op.f("fk_matches_side_b_entrants")),
        sa.ForeignKeyConstraint(["winner"], ["entrants.id"], name=op.f("fk_matches_winner_entrants")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_matches")),
    )
    op.create_index(op.f("ix_matches_event_id"), "matches", ["event_id"], unique=False)
    op.create_index(op.f("ix_matches_round_id"), "matches", ["round_id"], unique=False)
    op.create_index(op.f("ix_matches_side_a"), "matches", ["side_a"], unique=False)
    op.create_index(op.f("ix_matches_side_b"), "matches", ["side_b"], unique=False)
    op.create_table(
        "prize_awards",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("entrant_id", sa.Integer(), nullable=False),
        sa.Column("award_key", sa.String(length=80), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("paid_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["entrant_id"], ["entrants.id"], name=op.f("fk_prize_awards_entrant_id_entrants")
        ),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name=op.f("fk_prize_awards_event_id_events")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_prize_awards")),
    )
    op.create_index(op.f("ix_prize_awards_entrant_id"), "prize_awards", ["entrant_id"], unique=False)
    op.create_index(op.f("ix_prize_awards_event_id"), "prize_awards", ["event_id"], unique=False)
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("opponent_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("match_length", sa.Integer(), nullable=False),
        sa.Column("k", sa.Float(), nullable=False),
        sa.Column("before", sa.Float(), nullable=False),
        sa.Column("after", sa.Float(), nullable=False),
        sa.Column("matches_before", sa.Integer(), nullable=False),
        sa.Column("experience_before", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name=op.f("fk_rating_history_event_id_events")),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_rating_history_match_id_matches")
        ),
        sa.ForeignKeyConstraint(
            ["member_id"], ["members.id"], name=op.f("fk_rating_history_member_id_members")
        ),
        sa.ForeignKeyConstraint(
            ["opponent_id"], ["members.id"], name=op.f("fk_rating_history_opponent_id_members")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_history")),
    )
    op.create_index(op.f("ix_rating_history_event_id"), "rating_history", ["event_id"], unique=False)
    op.create_index(op.f("ix_rating_history_match_id"), "rating_history", ["match_id"], unique=False)
    op.create_index(op.f("ix_rating_history_member_id"), "rating_history", ["member_id"], unique=False)
    op.create_table(
        "result_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("entered_by", sa.String(length=80), nullable=False),
        sa.Column("entered_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_result_entries_match_id_matches")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_result_entries")),
    )
    op.create_index(op.f("ix_result_entries_match_id"), "result_entries", ["match_id"], unique=False)
    op.create_table(
        "substitutions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("side", sa.Integer(), nullable=False),
        sa.Column("member_out", sa.Integer(), nullable=False),
        sa.Column("member_in", sa.Integer(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name=op.f("fk_substitutions_match_id_matches")),
        sa.ForeignKeyConstraint(
            ["member_in"], ["members.id"], name=op.f("fk_substitutions_member_in_members")
        ),
        sa.ForeignKeyConstraint(
            ["member_out"], ["members.id"], name=op.f("fk_substitutions_member_out_members")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_substitutions")),
    )
    op.create_index(op.f("ix_substitutions_match_id"), "substitutions", ["match_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_substitutions_match_id"), table_name="substitutions")
    op.drop_table("substitutions")
    op.drop_index(op.f("ix_result_entries_match_id"), table_name="result_entries")
    op.drop_table("result_entries")
    op.drop_index(op.f("ix_rating_history_member_id"), table_name="rating_history")
    op.drop_index(op.f("ix_rating_history_match_id"), table_name="rating_history")
    op.drop_index(op.f("ix_rating_history_event_id"), table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index(op.f("ix_prize_awards_event_id"), table_name="prize_awards")
    op.drop_index(op.f("ix_prize_awards_entrant_id"), table_name="prize_awards")
    op.drop_table("prize_awards")
    op.drop_index(op.f("ix_matches_side_b"), table_name="matches")
    op.drop_index(op.f("ix_matches_side_a"), table_name="matches")
    op.drop_index(op.f("ix_matches_round_id"), table_name="matches")
    op.drop_index(op.f("ix_matches_event_id"), table_name="matches")
    op.drop_table("matches")
    op.drop_index(op.f("ix_final_places_event_id"), table_name="final_places")
    op.drop_index(op.f("ix_final_places_entrant_id"), table_name="final_places")
    op.drop_table("final_places")
    op.drop_index(op.f("ix_rounds_event_id"), table_name="rounds")
    op.drop_table("rounds")
    op.drop_table("event_night")
