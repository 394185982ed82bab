"""The club's side of the federation: its signing key (kept outside the club file, ``clubdesk.keys``) and
the signed file of a finished event (``clubdesk.federation.eventfile``), recorded in the club file so the
next export of the same event names the version it corrects and the desk shows what was sent.

Only public fields leave the club (rule T14): a member's name, club, city, member number and federation
licence (E15), the results and the ranking; never phone, e-mail or notes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.orm import Session

from clubdesk import keys
from clubdesk.federation import eventfile
from clubdesk.federation.eventfile import FileError
from clubdesk.federation.replay import ReplayError, check
from clubdesk.i18n import _
from clubdesk.models.club import Club, Setting
from clubdesk.models.discipline import Incident, Penalty
from clubdesk.models.event import Entrant, EntrantMember, Event
from clubdesk.models.member import Member
from clubdesk.models.result import FinalPlace, Match, ResultEntry
from clubdesk.models.round import EventNight, Round
from clubdesk.services.club import CLUB_NAME
from clubdesk.services.kernel import Actor, ServiceError, audit, club_uid, require, verify_chain
from clubdesk.storage import Database

SENT_KEY = "federation.sent"  # {event id: {"digest", "file", "at", "pushed", "accepted", "answer"}}
HUB_KEY = "federation.hub"  # {"url": ..., "token": ...}: where ``federation push`` sends


def key_name(uid: str) -> str:
    return f"sign-{uid}"


def club_key(db: Database) -> tuple[str, bytes]:
    """This club file's id and its signing key (made and kept outside the file the first time)."""
    with db.session() as s:
        uid = club_uid(s)
    assert uid is not None
    return uid, keys.ensure_key(key_name(uid), eventfile.new_private_key)


@dataclass(frozen=True)
class ClubKey:
    club_uid: str
    public_key: str  # 64 hex digits: what the federation secretary adds to the hub
    location: str  # where the private key is kept (the keyring or a file), never the key itself


def public_key(db: Database) -> ClubKey:
    uid, private = club_key(db)
    return ClubKey(uid, eventfile.public_key_hex(private), keys.key_location(key_name(uid)))


def _iso(value: Any) -> str | None:
    return None if value is None else value.isoformat()


def _json(raw: str | None, default: Any) -> Any:
    try:
        return json.loads(raw or "null") or default
    except ValueError:
        return default


def sent_records(s: Session) -> dict[str, dict[str, Any]]:
    row = s.get(Setting, SENT_KEY)
    value = _json(row.value if row is not None else None, {})
    return value if isinstance(value, dict) else {}


def keep_sent(s: Session, records: dict[str, dict[str, Any]]) -> None:
    row = s.get(Setting, SENT_KEY)
    value = json.dumps(records, ensure_ascii=False, sort_keys=True)
    if row is None:
        s.add(Setting(key=SENT_KEY, value=value))
    else:
        row.value = value


def event_payload(s: Session, ev: Event, uid: str, audit_head: dict[str, Any]) -> dict[str, Any]:
    """The public content of a finished event, in the file's form (ids as the club file has them)."""
    n = s.get(EventNight, ev.id)
    club_name = _json(s.get(Setting, CLUB_NAME).value if s.get(Setting, CLUB_NAME) else None, "")
    clubs = {c.id: c.name for c in s.scalars(select(Club))}
    entrants = list(s.scalars(select(Entrant).where(Entrant.event_id == ev.id).order_by(Entrant.id)))
    links = list(
        s.execute(
            select(EntrantMember.entrant_id, EntrantMember.role, EntrantMember.left_at, Member)
            .join(Member, Member.id == EntrantMember.member_id)
            .join(Entrant, Entrant.id == EntrantMember.entrant_id)
            .where(Entrant.event_id == ev.id)
            .order_by(EntrantMember.id)
        )
    )
    people: dict[str, dict[str, Any]] = {}
    members_of: dict[int, list[dict[str, Any]]] = {}
    for entrant_id, role, left_at, m in links:
        # rule T14: name, club, city and licence are public; phone, e-mail and notes never leave
        people[m.number] = {
            "number": m.number,
            "name": m.name,
            "licence": m.licence or "",
            "city": m.city or "",
            "club": clubs.get(m.club_id, "") if m.club_id else "",
        }
        members_of.setdefault(entrant_id, []).append(
            {"member": m.number, "role": role, "left": left_at is not None}
        )
    rounds = list(s.scalars(select(Round).where(Round.event_id == ev.id).order_by(Round.number)))
    matches = list(
        s.scalars(select(Match).where(Match.event_id == ev.id).order_by(Match.round_no, Match.table_no))
    )
    entries: dict[int, list[dict[str, Any]]] = {}
    for r in s.scalars(
        select(ResultEntry)
        .join(Match, Match.id == ResultEntry.match_id)
        .where(Match.event_id == ev.id)
        .order_by(ResultEntry.match_id, ResultEntry.game_no, ResultEntry.seq)
    ):
        entries.setdefault(r.match_id, []).append(
            {"game": r.game_no, "seq": r.seq, "data": json.loads(r.data)}
        )
    penalties = [
        {
            "round": p.round_no,
            "table": p.table_no,
            "game": p.game_no,
            "entrant": p.entrant_id,
            "side": p.side,
            "kind": p.kind,
            "points": p.points,
            "reason": p.reason,
            "action": p.action,
            "decided_by": p.decided_by,
            "decided_at": _iso(p.decided_at),
        }
        for p in s.scalars(select(Penalty).where(Penalty.event_id == ev.id).order_by(Penalty.id))
    ]
    decisions = [
        {
            "round": i.round_no,
            "table": i.table_no,
            "game": i.game_no,
            "entrant": i.entrant_id,
            "kind": i.kind,
            "decision": i.decision,
            "decided_by": i.decided_by,
            "decided_at": _iso(i.decided_at),
        }
        for i in s.scalars(
            select(Incident).where(Incident.event_id == ev.id, Incident.decision != "").order_by(Incident.id)
        )
    ]
    placings = [
        {"entrant": p.entrant_id, "from": p.place_from, "to": p.place_to, "season_points": p.season_points}
        for p in s.scalars(
            select(FinalPlace)
            .where(FinalPlace.event_id == ev.id)
            .order_by(FinalPlace.place_from, FinalPlace.id)
        )
    ]
    return {
        "club": {"uid": uid, "name": club_name},
        "event": {
            "uid": f"{uid}:{ev.id}",
            "id": ev.id,
            "name": ev.name,
            "ruleset": ev.ruleset,
            "ruleset_overrides": _json(ev.ruleset_overrides, {}),
            "format": ev.format,
            "entry_type": ev.entry_type,
            "rounds": ev.rounds,
            "match_lengths": _json(ev.match_lengths, []),
            "target": ev.target,
            "starts_on": _iso(ev.starts_on),
            "ends_on": _iso(ev.ends_on),
            "venue": ev.venue,
            "season": ev.season.strip(),
            "coefficient_class": ev.coefficient_class,  # rule T12d: the event's level
            "status": ev.status,
        },
        "night": {
            "result_mode": n.result_mode if n else "entries",
            "tiebreaks": n.tiebreaks if n else "",
            "lives": n.lives if n else 2,
            "encounter_games": n.encounter_games if n else 0,
            "state": _json(n.state if n else None, {}),
            "season_scale": _json(n.season_scale if n else None, {}),  # base points, coefficients (T12d)
            "finished_at": _iso(n.finished_at if n else None),
        },
        "people": sorted(people.values(), key=lambda p: p["number"]),
        "entrants": [
            {
                "id": e.id,
                "name": e.name,
                "status": e.status,
                "checked_in": e.checked_in_at is not None,
                "joins_from_round": e.joins_from_round,
                "members": members_of.get(e.id, []),
            }
            for e in entrants
        ],
        "rounds": [
            {
                "number": r.number,
                "kind": r.kind,
                "status": r.status,
                "match_length": r.match_length,
                "seed": r.seed,
            }
            for r in rounds
        ],
        "tables": [
            {
                "round": m.round_no,
                "table": m.table_no,
                "a": m.side_a,
                "b": m.side_b,
                "ref": m.ref,
                "kind": m.kind,
                "status": m.status,
                "match_length": m.match_length,
                "score": [m.score_a, m.score_b],
                "points": None if m.points_a is None else [m.points_a, m.points_b],
                "winner": m.winner,
                "confirmed_at": _iso(m.confirmed_at),
                "entries": entries.get(m.id, []),
            }
            for m in matches
        ],
        "placings": placings,
        "penalties": penalties,
        "decisions": decisions,
        "audit": audit_head,
    }


@dataclass(frozen=True)
class Export:
    """One signed export: the file written, the version's digest and the one it corrects (None: the first)."""

    file: Path
    event_uid: str
    digest: str
    supersedes: str | None
    tables: int
    placings: int


def export_event(db: Database, actor: Actor, event_id: int, out: Path) -> Export:
    """Write the signed file of a finished event to ``out`` (rules T12d, T14); the club file records the
    version sent, so a corrected export names the version it supersedes."""
    require(actor, "federation.send", db)
    chain = verify_chain(db)
    if not chain.ok:  # a file must not carry results whose history is broken
        raise ServiceError("audit-broken", chain.message())
    uid, private = club_key(db)
    with db.session() as s:
        ev = s.get(Event, event_id)
        if ev is None:
            raise ServiceError("no-event", _("There is no event {id}.").format(id=event_id), event=event_id)
        if ev.status != "finished":
            raise ServiceError(
                "event-not-finished",
                _("Only a finished event can be sent to the federation: {name} is not finished.").format(
                    name=ev.name
                ),
                event=event_id,
            )
        last = s.execute(
            text("SELECT row_hash FROM audit_log WHERE row_hash IS NOT NULL ORDER BY id DESC LIMIT 1")
        ).scalar()
        head = last.hex() if isinstance(last, bytes) else (str(last) if last else None)
        payload = event_payload(s, ev, uid, {"head": head, "rows": chain.rows})
        records = sent_records(s)
        record = dict(records.get(str(ev.id), {}))
        content = eventfile.digest(_content(payload))
        if record.get("content") == content:  # unchanged since the last export: the same version again
            payload["audit"] = record.get("audit", payload["audit"])
            payload["supersedes"] = record.get("supersedes")
        else:  # a correction names the version it supersedes
            payload["supersedes"] = record.get("digest")
            record = {"supersedes": payload["supersedes"], "pushed": None, "accepted": None, "answer": ""}
        try:
            check(payload)  # the file must agree with itself before it leaves (the hub checks again)
            data = eventfile.seal(payload, private)
        except (ReplayError, FileError) as exc:
            raise ServiceError("export-inconsistent", exc.message, event=event_id) from exc
        digest = eventfile.digest(payload)
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(data)
        except OSError as exc:
            raise ServiceError(
                "cannot-write", _("Cannot write {file}: {why}").format(file=out, why=exc.strerror or exc)
            ) from exc
        record.update({"digest": digest, "file": str(out), "content": content, "audit": payload["audit"]})
        records[str(ev.id)] = record
        keep_sent(s, records)
        audit(s, actor, "federation.export", "event", ev.id, after={"digest": digest, "file": str(out)})
    return Export(
        out,
        payload["event"]["uid"],
        digest,
        payload["supersedes"],
        len(payload["tables"]),
        len(payload["placings"]),
    )


def _content(payload: dict[str, Any]) -> dict[str, Any]:
    """What an event's results are, without the audit head and the version chain (a second export of an
    unchanged event is the same version)."""
    return {k: v for k, v in payload.items() if k not in ("audit", "supersedes")}
