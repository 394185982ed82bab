"""Tables of a round and their results (migration 0004_night).

A :class:`Match` is one table of one round: two sides (entrant ids; ``side_b`` None for a bye), its state
and the result derived from its entries. :class:`ResultEntry` rows are the source of truth: one row per hand
or game, saved the moment it is entered (a crash loses nothing); a final-score-only result has no entries.
Ratings history, places, season points and prize awards are stored here too.
"""

# no `from __future__ import annotations` here: SQLAlchemy takes the Mapped[...] annotations as
# they are instead of evaluating each column's string (about 20 ms of every start-up)

from datetime import date, datetime

from sqlalchemy import BigInteger, Boolean, Date, DateTime, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from clubdesk.models.base import Base, utcnow

# waiting: published, nothing entered; in_play: entries being entered; pending: final, awaiting both
# sides' approval; confirmed; disputed (referee); postponed (rule G20); bye.
MATCH_STATUSES: tuple[str, ...] = (
    "waiting",
    "in_play",
    "pending",
    "confirmed",
    "disputed",
    "postponed",
    "bye",
)
# played; forfeit (G15, T3b, T9a); bye (pairing bye); zero-bye (latecomer's missed round); both-lost (BC3)
MATCH_KINDS: tuple[str, ...] = ("played", "forfeit", "bye", "zero-bye", "both-lost")


class Match(Base):
    __tablename__ = "matches"
    # migration 0011_speed: rated tavla matches are found by confirmation time
    __table_args__ = (Index("ix_matches_status_confirmed", "status", "confirmed_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), index=True)
    round_no: Mapped[int] = mapped_column(Integer)
    table_no: Mapped[int] = mapped_column(Integer)
    side_a: Mapped[int] = mapped_column(ForeignKey("entrants.id"), index=True)
    side_b: Mapped[int | None] = mapped_column(ForeignKey("entrants.id"), nullable=True, index=True)
    ref: Mapped[str] = mapped_column(String(20), default="")  # bracket match "W1-3" / league match "M4"
    status: Mapped[str] = mapped_column(String(12), default="waiting")
    kind: Mapped[str] = mapped_column(String(12), default="played")
    match_length: Mapped[int | None] = mapped_column(Integer, nullable=True)
    score_a: Mapped[int] = mapped_column(Integer, default=0)
    score_b: Mapped[int] = mapped_column(Integer, default=0)
    points_a: Mapped[int | None] = mapped_column(Integer, nullable=True)
    points_b: Mapped[int | None] = mapped_column(Integer, nullable=True)
    winner: Mapped[int | None] = mapped_column(ForeignKey("entrants.id"), nullable=True)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    scorer: Mapped[str] = mapped_column(String(80), default="")  # side A's approval (E6 anotador)
    counter: Mapped[str] = mapped_column(String(80), default="")  # side B's approval (E6 recuento)
    # rule E6 (migration 0009_sheets): the players named as scorer (home pair) and counter (rival pair),
    # member numbers; ``scored_by_referee``: the referee who scored and counted, with their approval
    scorer_member: Mapped[str] = mapped_column(String(20), default="")
    counter_member: Mapped[str] = mapped_column(String(20), default="")
    scored_by_referee: Mapped[str] = mapped_column(String(80), default="")
    captain_a: Mapped[str] = mapped_column(String(20), default="")  # seed 002 art. 15: named in the act
    captain_b: Mapped[str] = mapped_column(String(20), default="")
    referee: Mapped[str] = mapped_column(String(80), default="")
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    locked: Mapped[bool] = mapped_column(Boolean, default=False)  # rule T10
    excuse: Mapped[str] = mapped_column(Text, default="")  # rule G15: an accepted excuse
    postponed_to: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)  # rule G20
    seats: Mapped[str] = mapped_column(Text, default="")  # JSON seat draw (rule E7)
    # rule G15 (migration 0007): a notice of lateness given at the desk: who gave it, for which side, when.
    # It suspends the automatic walkover; the referee decides.
    late_notice_by: Mapped[str] = mapped_column(String(80), default="")
    late_notice_side: Mapped[int | None] = mapped_column(Integer, nullable=True)
    late_notice_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    note: Mapped[str] = mapped_column(Text, default="")
    # migration 0012_server: no lost updates between desks. Every UPDATE of a match checks the
    # version it read (version_id_col); changed_by / changed_at say who changed it last, for the refusal.
    version: Mapped[int] = mapped_column(Integer, nullable=False, default=1, server_default="1")
    changed_by: Mapped[str] = mapped_column(String(80), default="", server_default="")
    changed_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)

    __mapper_args__ = {"version_id_col": version}


class ResultEntry(Base):
    """One hand (dominoes) or game (tavla) as entered; ``game_no`` separates the games of a team
    encounter (each its own sheet)."""

    __tablename__ = "result_entries"

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    game_no: Mapped[int] = mapped_column(Integer, default=1)
    seq: Mapped[int] = mapped_column(Integer)
    data: Mapped[str] = mapped_column(Text)  # JSON entry of CONTRACTS.md §1
    entered_by: Mapped[str] = mapped_column(String(80))
    entered_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Substitution(Base):
    """A substitute takes the seat of the player he replaces (rules E7b, E20)."""

    __tablename__ = "substitutions"

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    game_no: Mapped[int] = mapped_column(Integer)
    side: Mapped[int] = mapped_column(Integer)
    member_out: Mapped[int] = mapped_column(ForeignKey("members.id"))
    member_in: Mapped[int] = mapped_column(ForeignKey("members.id"))
    reason: Mapped[str] = mapped_column(Text, default="")
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    from_hand: Mapped[int | None] = mapped_column(Integer, nullable=True)  # rule E7.2 (0009_sheets)


class RatingEntry(Base):
    """One line of a member's FIBS rating history (rule T12c)."""

    __tablename__ = "rating_history"
    # migration 0011_speed: rows in rule T12c's match order (day, then match id)
    __table_args__ = (Index("ix_rating_history_order", "played_on", "match_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    opponent_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    won: Mapped[bool] = mapped_column(Boolean)
    match_length: Mapped[int] = mapped_column(Integer)
    k: Mapped[float] = mapped_column(Float)
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    matches_before: Mapped[int] = mapped_column(Integer, default=0)
    experience_before: Mapped[int] = mapped_column(Integer, default=0)
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    played_on: Mapped[date | None] = mapped_column(Date, nullable=True)  # the rated match's day (T12c)


class FinalPlace(Base):
    """An entrant's final place in a finished event and the season points it gave (rules T12a, T12d)."""

    __tablename__ = "final_places"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    entrant_id: Mapped[int] = mapped_column(ForeignKey("entrants.id"), index=True)
    place_from: Mapped[int] = mapped_column(Integer)
    place_to: Mapped[int] = mapped_column(Integer)
    season_points: Mapped[int] = mapped_column(Integer, default=0)  # hundredths


class PrizeAward(Base):
    """One prize awarded (rules T13a-T13e); ``paid_at`` when handed out."""

    __tablename__ = "prize_awards"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    entrant_id: Mapped[int] = mapped_column(ForeignKey("entrants.id"), index=True)
    award_key: Mapped[str] = mapped_column(String(80))
    kind: Mapped[str] = mapped_column(String(20))
    amount: Mapped[int] = mapped_column(Integer, default=0)  # minor units
    currency: Mapped[str] = mapped_column(String(3))
    description: Mapped[str] = mapped_column(Text, default="")
    paid_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    # rule T13e (migration 0007): who paid, to whom, how (cash, transfer, ...)
    paid_by: Mapped[str] = mapped_column(String(80), default="")
    paid_to: Mapped[str] = mapped_column(String(120), default="")
    paid_method: Mapped[str] = mapped_column(String(20), default="")


class StandingsStamp(Base):
    """A stamp per event that the database itself sets to a new random number on every change its
    standings read (triggers of migration 0017 on a club file): the event's row and night, its
    rounds, entrants and tables, except a table's hand in play (its status stays open and its sides
    stay). Kept standings are shown again while the stamp stands: a hand in play updates its sheet only."""

    __tablename__ = "standings_stamps"

    event_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    n: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")  # random(): 64 bits
