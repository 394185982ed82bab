"""A copy of everything the club holds about a member (his right of access: GDPR art. 15, KVKK art. 11,
UU PDP 2022 art. 7): identity, contact, club, registrations, payments, results, penalties, incidents,
ratings and the audit rows about him, as JSON and as a readable PDF (private: contact data included).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import or_, select, text
from sqlalchemy.orm import Session

from clubdesk import labels
from clubdesk.i18n import _
from clubdesk.models.audit import at_of
from clubdesk.models.club import Club
from clubdesk.models.discipline import Incident, Penalty
from clubdesk.models.event import Entrant, EntrantMember, Event
from clubdesk.models.member import Member
from clubdesk.models.money import Payment
from clubdesk.models.result import FinalPlace, Match, PrizeAward, RatingEntry
from clubdesk.reports.data import PersonalRecord, PersonalSection
from clubdesk.reports.frame import fmt_money
from clubdesk.reports.private import personal_record
from clubdesk.services.kernel import Actor, ServiceError, require
from clubdesk.services.publishing.header import in_language, report_header, write_atomically
from clubdesk.storage import Database


@dataclass(frozen=True)
class PersonalExport:
    number: str
    json_path: Path
    pdf_path: Path
    sections: dict[str, int]  # rows per section (identity and contact: 1)


def _plain(value: Any) -> Any:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    return value


def _when(at: object) -> str:
    """An audit row's time as ISO text: SQLite holds UTC milliseconds (``models.audit.stored_at``) or, in rows
    written before 0018_audit_compact, SQLAlchemy's text."""
    if isinstance(at, int):
        return at_of(at).isoformat(timespec="seconds")
    return at.isoformat() if isinstance(at, datetime) else str(at).replace(" ", "T")


def _rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: _plain(v) for k, v in r.items()} for r in rows]


def personal_data(s: Session, number: str) -> dict[str, list[dict[str, Any]]]:
    """Every row about member ``number``, by section (JSON-able values; money in minor units)."""
    m = s.scalars(select(Member).where(Member.number == number.strip())).one_or_none()
    if m is None:
        raise ServiceError("unknown-member", _("No member has the number {number}.").format(number=number))
    club = s.get(Club, m.club_id) if m.club_id is not None else None
    sides = {
        em.entrant_id: em for em in s.scalars(select(EntrantMember).where(EntrantMember.member_id == m.id))
    }
    entrants = {e.id: e for e in s.scalars(select(Entrant).where(Entrant.id.in_(list(sides))))}
    events = {e.id: e.name for e in s.scalars(select(Event))}
    currencies = {int(r[0]): str(r[1]) for r in s.execute(select(Event.id, Event.currency))}
    names = {int(r[0]): str(r[1]) for r in s.execute(select(Entrant.id, Entrant.name))}
    ids = list(entrants)
    out: dict[str, list[dict[str, Any]]] = {}
    out["identity"] = [
        {
            "number": m.number,
            "name": m.name,
            "licence": m.licence,
            "club": club.name if club else "",
            "gender": m.gender or "",
            "birth_year": m.birth_year,
            "rating": m.rating,
            "rating_experience": m.rating_experience,
            "active": m.active,
            "public_name": m.public_name,
            "created_at": m.created_at,
        }
    ]
    out["contact"] = [{"phone": m.phone, "email": m.email, "city": m.city, "notes": m.notes}]
    out["registrations"] = [
        {
            "event": events.get(e.event_id, ""),
            "side": e.name,
            "role": sides[e.id].role,
            "status": e.status,
            "fee": e.fee,
            "currency": currencies.get(e.event_id, ""),
            "registered_at": e.registered_at,
            "checked_in_at": e.checked_in_at,
        }
        for e in entrants.values()
    ]
    out["payments"] = [
        {
            "receipt": p.id,
            "event": events.get(entrants[p.entrant_id].event_id, ""),
            "kind": p.kind,
            "amount": p.amount,
            "currency": p.currency,
            "method": p.method,
            "reference": p.reference,
            "paid_at": p.paid_at,
            "note": p.note,
        }
        for p in s.scalars(select(Payment).where(Payment.entrant_id.in_(ids)).order_by(Payment.id))
    ]
    results = []
    for x in s.scalars(
        select(Match).where(or_(Match.side_a.in_(ids), Match.side_b.in_(ids))).order_by(Match.id)
    ):
        mine_a = x.side_a in entrants
        other = x.side_b if mine_a else x.side_a
        score = (x.score_a, x.score_b) if mine_a else (x.score_b, x.score_a)
        results.append(
            {
                "event": events.get(x.event_id, ""),
                "round": x.round_no,
                "table": x.table_no,
                "opponent": names.get(other, "") if other is not None else "",
                "score": "" if score[0] is None else f"{score[0]}-{score[1]}",
                "status": x.status,
                "won": None if x.winner is None else x.winner in entrants,
            }
        )
    out["results"] = results
    out["places"] = [
        {"event": events.get(f.event_id, ""), "place_from": f.place_from, "place_to": f.place_to}
        for f in s.scalars(select(FinalPlace).where(FinalPlace.entrant_id.in_(ids)))
    ]
    out["prizes"] = [
        {
            "event": events.get(p.event_id, ""),
            "prize": p.description,
            "amount": p.amount,
            "currency": p.currency,
            "paid_at": p.paid_at,
        }
        for p in s.scalars(select(PrizeAward).where(PrizeAward.entrant_id.in_(ids)))
    ]
    out["penalties"] = [
        {
            "event": events.get(p.event_id, ""),
            "round": p.round_no,
            "table": p.table_no,
            "kind": p.kind,
            "points": p.points,
            "reason": p.reason,
            "decided_by": p.decided_by,
        }
        for p in s.scalars(select(Penalty).where(Penalty.entrant_id.in_(ids)).order_by(Penalty.id))
    ]
    out["incidents"] = [
        {"event": events.get(i.event_id, ""), "kind": i.kind, "text": i.text, "decision": i.decision}
        for i in s.scalars(
            select(Incident).where(or_(Incident.member_id == m.id, Incident.entrant_id.in_(ids)))
        )
    ]
    out["ratings"] = [
        {
            "event": events.get(r.event_id, ""),
            "played_on": r.played_on,
            "won": r.won,
            "before": round(r.before, 1),
            "after": round(r.after, 1),
        }
        for r in s.scalars(select(RatingEntry).where(RatingEntry.member_id == m.id).order_by(RatingEntry.id))
    ]
    audit_rows = s.execute(
        text(
            "SELECT id, at, actor_name, action, before, after FROM audit_log"
            " WHERE (entity = 'member' AND entity_id = :n) OR before LIKE :nm OR after LIKE :nm ORDER BY id"
        ),
        {"n": m.number, "nm": f"%{m.name}%"},
    )
    out["audit"] = [
        {
            "row": r[0],
            "at": _when(r[1]),
            "by": r[2],
            "action": r[3],
            "before": r[4] or "",
            "after": r[5] or "",
        }
        for r in audit_rows
    ]
    return {k: _rows(v) for k, v in out.items()}


def _titles() -> dict[str, str]:
    return {
        "identity": _("Identity"),
        "contact": _("Contact"),
        "registrations": _("Registrations"),
        "payments": _("Payments"),
        "results": _("Results"),
        "places": _("Final places"),
        "prizes": _("Prizes"),
        "penalties": _("Penalties"),
        "incidents": _("Incidents"),
        "ratings": _("Ratings"),
        "audit": _("Audit log"),
    }


def _labels() -> dict[str, str]:
    """The PDF's column heading of each JSON key (the JSON keeps its keys, for programs)."""
    return {
        "number": _("Member number"),
        "name": _("Name"),
        "licence": _("Licence"),
        "club": _("Club"),
        "gender": _("Gender"),
        "birth_year": _("Birth year"),
        "rating": _("Rating"),
        "rating_experience": _("Rated matches"),
        "active": _("Active"),
        "public_name": _("Name in public"),
        "created_at": _("Member since"),
        "phone": _("Phone"),
        "email": _("E-mail"),
        "city": _("City"),
        "notes": _("Notes"),
        "event": _("Event"),
        "side": _("Side"),
        "role": _("Role"),
        "status": _("Status"),
        "fee": _("Fee"),
        "registered_at": _("Registered"),
        "checked_in_at": _("Checked in"),
        "receipt": _("Receipt"),
        "kind": _("Kind"),
        "amount": _("Amount"),
        "method": _("Method"),
        "reference": _("Reference"),
        "paid_at": _("Paid"),
        "note": _("Note"),
        "round": _("Round"),
        "table": _("Table"),
        "opponent": _("Opponent"),
        "score": _("Score"),
        "won": _("Won"),
        "place_from": _("Place"),
        "place_to": _("Place"),
        "prize": _("Prize"),
        "points": _("Points"),
        "reason": _("Reason"),
        "decided_by": _("Decided by"),
        "text": _("Note"),
        "decision": _("Decision"),
        "played_on": _("Date"),
        "before": _("Before"),
        "after": _("After"),
        "row": "#",
        "at": _("Time"),
        "by": _("By"),
        "action": _("Action"),
    }


_MONEY = ("amount", "fee")
_WORDS: dict[str, Callable[[str], str]] = {  # stored codes in the words the desk shows
    "status": labels.status_label,
    "method": labels.payment_method_label,
    "action": labels.audit_action_label,
    "public_name": lambda code: consent_label(code),
}


def consent_label(code: str) -> str:
    """A member's consent for public outputs in words, as the member dialog shows it."""
    return _("initials and club only") if code == "initials" else _("full name")


_ONE_RECORD = ("identity", "contact")  # printed as field and value, one line each


def _cell(key: str, row: dict[str, Any], lang: str) -> str:
    value = row[key]
    if key in _MONEY and "currency" in row and value is not None:
        return fmt_money(int(value), str(row["currency"]), lang)
    if value is None:
        return ""
    if key in _WORDS:
        return _WORDS[key](str(value))
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, float):
        return f"{value:.1f}"
    if isinstance(value, str) and len(value) >= 19 and value[10:11] == "T" and value[:4].isdigit():
        return value[:16].replace("T", " ")  # a time as stored: to the minute
    return str(value)


def personal_record_of(data: dict[str, list[dict[str, Any]]], lang: str) -> PersonalRecord:
    """The PDF's shape: each section a table of written cells; the member's own record as field and value."""
    labels = _labels()
    sections = []
    for key, title in _titles().items():
        rows = data.get(key, [])
        if key in _ONE_RECORD:
            record = rows[0]
            cells = tuple((labels.get(k, k), _cell(k, record, lang)) for k in record)
            sections.append(PersonalSection(title, (_("Field"), _("Value")), cells))
            continue
        columns = tuple(k for k in (rows[0] if rows else {}) if k != "currency")
        sections.append(
            PersonalSection(
                title,
                tuple(labels.get(c, c) for c in columns),
                tuple(tuple(_cell(c, r, lang) for c in columns) for r in rows),
            )
        )
    who = data["identity"][0]
    return PersonalRecord(str(who["number"]), str(who["name"]), tuple(sections))


def export_personal(
    db: Database, actor: Actor, number: str, out_dir: str | Path, *, language: str | None = None
) -> PersonalExport:
    """``member export-personal NUMBER --out DIR``: ``member-NUMBER.json`` and ``member-NUMBER.pdf``."""
    require(actor, "members.personal", db)  # permission table: contact data leaves the building
    folder = Path(out_dir)
    if not folder.is_dir():
        raise ServiceError("no-folder", _("The folder does not exist: {path}").format(path=folder))
    with db.read_session() as s:
        data = personal_data(s, number)
    stem = f"member-{data['identity'][0]['number']}"
    header = report_header(db, None, language=language)
    with in_language(header.language):
        record = personal_record_of(data, header.language)
    pdf = folder / f"{stem}.pdf"
    write_atomically(pdf, lambda p: personal_record(p, header, record))
    target = folder / f"{stem}.json"
    part = folder / f".{stem}.json.part"
    part.write_text(json.dumps(data, ensure_ascii=False, indent=2, default=str), encoding="utf-8")
    part.replace(target)
    return PersonalExport(str(record.number), target, pdf, {k: len(v) for k, v in data.items()})
