"""The tokens that open a published round's tables on the players' phones, and each side's approval code.

Publishing a round gives each two-sided table a random token (>= 128 bits); the token opens that table only,
through the web app. Unpublishing drops them. Each side of a table has its own short approval code (rules
G13, E6, T8c: each side approves for itself), printed in that side's box on the score sheet: derived from
the table's token and the club file's own id (HMAC), so it needs no column and changes with the token.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.models.result import Match
from clubdesk.models.round import Round
from clubdesk.models.table_entry import TableToken
from clubdesk.services.kernel import Actor, club_uid
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


SIDE_CODE_DIGITS = 6  # typed on a phone's number keypad; wrong tries are counted (phones.posts)


def side_code(club: str, token: str, side: int) -> str:
    """The approval code of ``side`` (0 home, 1 rival) of the table ``token`` opens, ``club`` the club
    file's id: only the printed score sheet carries it (the token alone does not give it)."""
    digest = hmac.new(club.encode(), f"side-approval|{token}|{side}".encode(), hashlib.sha256).digest()
    return f"{int.from_bytes(digest[:8], 'big') % 10**SIDE_CODE_DIGITS:0{SIDE_CODE_DIGITS}d}"


def side_code_in(s: Session, token: str, side: int) -> str:
    """:func:`side_code` in the caller's transaction (the club's id is made on first use)."""
    return side_code(club_uid(s) or "", token, side)


def side_code_valid(s: Session, token: str, side: int, code: str) -> bool:
    """The typed ``code`` is ``side``'s approval code of this table (spaces ignored)."""
    typed = "".join(str(code or "").split())
    if side not in (0, 1) or len(typed) != SIDE_CODE_DIGITS or not typed.isdigit():
        return False
    return hmac.compare_digest(side_code_in(s, token, side), typed)


def side_codes(db: Database, event_id: int, round_no: int) -> dict[int, tuple[str, str]]:
    """Each table's two approval codes (home, rival) of a published round, for its score sheets."""
    with db.session() as s:
        uid = club_uid(s) or ""
        rows = s.execute(
            select(TableToken.table_no, TableToken.token).where(
                TableToken.event_id == event_id, TableToken.round_no == round_no
            )
        ).all()
        return {int(t): (side_code(uid, tok, 0), side_code(uid, tok, 1)) for t, tok in sorted(rows)}


def side_code_matches(db: Database, token: str, side: int, code: str) -> bool:
    """:func:`side_code_valid` in a transaction of its own (a phone shows a side's code: its QR, the
    hand-over step)."""
    with db.session() as s:
        return side_code_valid(s, token, side, code)
