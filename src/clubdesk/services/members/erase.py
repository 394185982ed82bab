"""A member's erasure and the clearing of contact data kept too long (GDPR art. 17, KVKK art. 7,
UU PDP 2022 art. 8): the person goes, his results stay.

An erased member is named "Member 1042" (his number, which stays: results, standings and ratings keep
pointing at the same rows and read exactly as before); his phone, e-mail, city, birth year, licence and
notes are wiped, and his name is replaced wherever the club file copied it (his sides' names, incidents,
prize payments, notices, approvals at the table). Older audit rows that held his name or contacts are
redacted in place (``kernel.redact_row``); the erasing row records which, and the hash each has now, but
never the erased values. One transaction: refused, nothing changes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import or_, select, text, update
from sqlalchemy.orm import Session

from clubdesk.i18n import _
from clubdesk.models.base import utcnow
from clubdesk.models.discipline import Incident
from clubdesk.models.event import Entrant, EntrantMember, OutboxMessage
from clubdesk.models.member import Member
from clubdesk.models.result import Match, PrizeAward
from clubdesk.services.kernel import Actor, ServiceError, audit, redact_row, require
from clubdesk.services.members.search import by_number
from clubdesk.storage import Database

CONTACT_FIELDS = ("phone", "email", "city", "birth_year", "notes", "licence")  # wiped by an erasure
CLEARED_FIELDS = ("phone", "email", "birth_year", "notes")  # wiped from members long inactive
ERASED_TEXT = "•"  # what a redacted audit row holds where a contact was


@dataclass(frozen=True)
class ErasureResult:
    number: str
    name: str  # the name the member has now ("Member 1042")
    redacted_rows: int  # older audit rows rewritten without his name or contacts


@dataclass(frozen=True)
class ClearResult:
    numbers: tuple[str, ...]  # the members whose contact data was (or, dry run, would be) cleared
    dry_run: bool
    redacted_rows: int = 0


def anonymous_name(number: str) -> str:
    return _("Member {number}").format(number=number)


def _whole(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")


def _scrub(value: Any, swaps: list[tuple[re.Pattern[str], str]], keys: tuple[str, ...]) -> Any:
    """``value`` (an audit row's before/after) with each erased text replaced and ``keys`` blanked."""
    if isinstance(value, dict):
        return {
            k: (ERASED_TEXT if k in keys and v not in (None, "") else _scrub(v, swaps, keys))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_scrub(v, swaps, keys) for v in value]
    if isinstance(value, str):
        for pattern, new in swaps:
            value = pattern.sub(new, value)
        return value
    return value


def _redact(s: Session, number: str, texts: dict[str, str], keys: tuple[str, ...]) -> dict[str, str]:
    """Rewrite every audit row about member ``number`` or holding one of ``texts`` (old -> new); the hash
    each redacted row has now, by row id."""
    found = [t for t in texts if t]
    if not found:
        return {}
    likes = " OR ".join(f"before LIKE :t{k} OR after LIKE :t{k}" for k in range(len(found)))
    rows = s.execute(
        text(
            "SELECT id, entity, entity_id, before, after FROM audit_log"
            f" WHERE (entity = 'member' AND entity_id = :num) OR {likes} ORDER BY id"
        ),
        {"num": number} | {f"t{k}": f"%{t}%" for k, t in enumerate(found)},
    ).all()
    swaps = [(_whole(old), new) for old, new in sorted(texts.items(), key=lambda t: -len(t[0])) if old]
    hashes: dict[str, str] = {}
    for row_id, entity, entity_id, before, after in rows:
        mine = keys if entity == "member" and entity_id == number else ()
        old = (json.loads(before) if before else None, json.loads(after) if after else None)
        new = (_scrub(old[0], swaps, mine), _scrub(old[1], swaps, mine))
        if new != old:
            hashes[str(row_id)] = redact_row(s, int(row_id), *new)
    return hashes


def _rename_copies(s: Session, m: Member, old: str, new: str) -> None:
    """His name wherever the file copied it: his sides' names, incidents, prizes, notices, approvals."""
    pattern = _whole(old)
    mine = select(EntrantMember.entrant_id).where(EntrantMember.member_id == m.id)
    for en in s.scalars(select(Entrant).where(Entrant.id.in_(mine))):
        en.name = pattern.sub(new, en.name)
    for inc in s.scalars(
        select(Incident).where(or_(Incident.member_id == m.id, Incident.entrant_id.in_(mine)))
    ):
        inc.player_name = pattern.sub(new, inc.player_name)
        inc.text = pattern.sub(new, inc.text)
    for prize in s.scalars(select(PrizeAward).where(PrizeAward.entrant_id.in_(mine))):
        prize.paid_to = pattern.sub(new, prize.paid_to)
    for note in s.scalars(select(OutboxMessage).where(OutboxMessage.member_id == m.id)):
        note.text = pattern.sub(new, note.text)
    sides = or_(Match.side_a.in_(mine), Match.side_b.in_(mine))
    for column in (Match.scorer, Match.counter, Match.late_notice_by):
        s.execute(update(Match).where(sides, column == old).values({column.key: new}))


def erase_member(db: Database, actor: Actor, number: str) -> ErasureResult:
    """Erase a member: anonymised by number, contacts wiped, results kept (refused for one erased before)."""
    require(actor, "members.erase", db)  # permission table
    with db.session() as s:
        m = by_number(s, number, follow_merged=False)
        new = anonymous_name(m.number)
        done = s.execute(
            text("SELECT 1 FROM audit_log WHERE action = 'member.erase' AND entity_id = :n LIMIT 1"),
            {"n": m.number},
        ).first()
        if done is not None:
            raise ServiceError(
                "already-erased", _("Member {number} was erased already.").format(number=m.number)
            )
        hashes: dict[str, str] = {}
        for person in [m, *_merged_into(s, m)]:  # the records merged into his are the same person's (T2a)
            hashes |= _erase_one(s, person)
        # what was erased is recorded, never the erased values themselves
        audit(
            s,
            actor,
            "member.erase",
            "member",
            m.number,
            after={"name": new, **dict.fromkeys(CONTACT_FIELDS, "")}
            | {"birth_year": None, "erased": ["name", *CONTACT_FIELDS], "redacted": hashes},
        )
        return ErasureResult(m.number, new, len(hashes))


def _merged_into(s: Session, m: Member) -> list[Member]:
    """Every record merged into ``m``, directly or through another merged record."""
    found: list[Member] = []
    ids = [m.id]
    while ids:
        more = list(s.scalars(select(Member).where(Member.merged_into_id.in_(ids))))
        more = [x for x in more if x.id != m.id and x not in found]
        found += more
        ids = [x.id for x in more]
    return found


def _erase_one(s: Session, m: Member) -> dict[str, str]:
    """One record anonymised by its number, its contacts wiped, its name replaced wherever it was copied;
    the audit rows redacted (their new hashes by row id)."""
    old, new = m.name, anonymous_name(m.number)
    texts = {old: new, m.phone: "", m.email: ""}
    _rename_copies(s, m, old, new)
    m.name = new
    m.phone = m.email = m.notes = m.city = m.licence = ""
    m.birth_year = None
    s.flush()
    return _redact(s, m.number, texts, ("name", *CONTACT_FIELDS))


def _last_seen(s: Session) -> dict[int, datetime]:
    """Each member's last sign of life: joining a side, or the register's own record of him."""
    seen: dict[int, datetime] = {}
    for member_id, at in s.execute(
        select(EntrantMember.member_id, EntrantMember.joined_at).order_by(EntrantMember.joined_at)
    ):
        seen[int(member_id)] = at
    return seen


def clear_inactive(db: Database, actor: Actor, years: int, *, dry_run: bool = False) -> ClearResult:
    """Clear phone, e-mail, birth year and notes of every member who has played nothing, and was not
    added, in the last ``years`` years (results, names and clubs stay); ``dry_run``: only say who."""
    require(actor, "members.erase", db)  # permission table
    if not 1 <= years <= 100:
        raise ServiceError("bad-years", _("The number of years must be between 1 and 100."))
    cutoff = utcnow() - timedelta(days=round(365.25 * years))
    with db.session() as s:
        seen = _last_seen(s)
        chosen = [
            m
            for m in s.scalars(select(Member).order_by(Member.number))
            if max(seen.get(m.id, m.created_at), m.created_at) < cutoff
            and any(getattr(m, f) not in (None, "") for f in CLEARED_FIELDS)
        ]
        numbers = tuple(m.number for m in chosen)
        if dry_run or not chosen:
            return ClearResult(numbers, dry_run)
        redacted = 0
        for m in chosen:  # a row per member: what his record holds now, never what it held
            hashes = _redact(s, m.number, {m.phone: "", m.email: ""}, CLEARED_FIELDS)
            m.phone = m.email = m.notes = ""
            m.birth_year = None
            after = {"phone": "", "email": "", "birth_year": None, "notes": ""}
            audit(
                s,
                actor,
                "member.clear-contacts",
                "member",
                m.number,
                after=after | {"inactive_years": years, "redacted": hashes},
            )
            redacted += len(hashes)
        return ClearResult(numbers, False, redacted)
