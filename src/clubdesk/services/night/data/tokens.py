"""The tokens that open a published round's tables on the players' phones.

Publishing a round gives each two-sided table a random token (>= 128 bits); the token opens that table only,
through the web app. Unpublishing drops them.
"""

from __future__ import annotations

import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.models.result import Match
from clubdesk.models.round import Round
from clubdesk.models.table_entry import TableToken
from clubdesk.services.kernel import Actor
from clubdesk.services.night.data.reads import find_round, get_event
from clubdesk.storage import Database

TOKEN_BYTES = 24  # secrets.token_urlsafe(24): 192 random bits, 32 characters


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def ensure_in(s: Session, event_id: int, round_no: int) -> dict[int, str]:
    """Every two-sided table of the round has its token (in the caller's transaction); idempotent."""
    rnd = s.scalar(select(Round).where(Round.event_id == event_id, Round.number == round_no))
    if rnd is None:
        return {}
    have = {
        t.table_no: t.token
        for t in s.scalars(
            select(TableToken).where(TableToken.event_id == event_id, TableToken.round_no == round_no)
        )
    }
    for m in s.scalars(select(Match).where(Match.round_id == rnd.id)):
        if m.side_b is not None and m.table_no not in have:
            tok = new_token()
            s.add(TableToken(event_id=event_id, round_no=round_no, table_no=m.table_no, token=tok))
            have[m.table_no] = tok
    s.flush()
    return dict(sorted(have.items()))


def ensure_tokens(db: Database, actor: Actor, event_id: int, round_no: int) -> dict[int, str]:
    """The tokens of a round's tables, made for the tables that have none (publishing calls this)."""
    with db.session() as s:
        find_round(s, get_event(s, event_id), round_no)
        return ensure_in(s, event_id, round_no)


def drop_tokens(s: Session, event_id: int, round_no: int) -> None:
    """An unpublished round's tokens open nothing any more (in the caller's transaction)."""
    for t in s.scalars(
        select(TableToken).where(TableToken.event_id == event_id, TableToken.round_no == round_no)
    ):
        s.delete(t)


def round_tokens(db: Database, event_id: int, round_no: int) -> dict[int, str]:
    with db.read_session() as s:
        rows = s.execute(
            select(TableToken.table_no, TableToken.token).where(
                TableToken.event_id == event_id, TableToken.round_no == round_no
            )
        ).all()
    return {int(t): str(tok) for t, tok in sorted(rows)}
