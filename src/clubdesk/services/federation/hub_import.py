"""The hub takes a club's signed event file (carried on a stick, mailed, or pushed): the signature must be a
known club's key and the file must name that club, the file must agree with itself (its tables replay to
their scores and its results to its placings, with the ruleset it names), and a correction must supersede
the version the hub holds. An event is stored once however often it arrives; a correction supersedes the
version before with the difference recorded (tables and places moved). Each file is one transaction: a
refused file leaves nothing behind."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from clubdesk.federation import eventfile
from clubdesk.federation.diff import difference
from clubdesk.federation.eventfile import EventFile, FileError
from clubdesk.federation.replay import ReplayError, check, event_params
from clubdesk.i18n import _
from clubdesk.models.base import utcnow
from clubdesk.services.federation.hub_players import identity_for
from clubdesk.services.kernel import ServiceError
from clubdesk.storage.hub import (
    Hub,
    HubClub,
    HubEvent,
    HubIdentity,
    HubMatch,
    HubPlacing,
    HubVersion,
    copy_rows,
)

PLACING_COLUMNS = (
    "event_id",
    "entrant",
    "identity_id",
    "place_from",
    "place_to",
    "season_points",
    "disqualified",
)
MATCH_COLUMNS = (
    "event_id",
    "round_no",
    "table_no",
    "identity_a",
    "identity_b",
    "a_won",
    "match_length",
    "played_on",
)
HUB_LOCK = 0x46454431  # one import at a time decides an event's versions (pg advisory lock)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class AddedClub:
    id: int
    name: str
    public_key: str
    token: str  # the club's push token, shown once (the hub keeps only its hash)


def add_club(hub: Hub, name: str, public_key: str) -> AddedClub:
    """A club of the federation with the public key its desk shows (``federation key``) and a new push
    token."""
    clean = name.strip()
    if not clean or len(clean) > 120:
        raise ServiceError("club-name", _("A club's name is 1 to 120 characters."))
    try:
        key = eventfile.normal_public_key(public_key)
    except FileError as exc:
        raise ServiceError(exc.code, exc.message) from exc
    token = secrets.token_urlsafe(24)
    with hub.session() as s:
        for row in s.scalars(select(HubClub).where((HubClub.name == clean) | (HubClub.public_key == key))):
            what = _("name") if row.name == clean else _("key")
            raise ServiceError(
                "club-exists",
                _("The hub already has a club with this {what}: {name}.").format(what=what, name=row.name),
            )
        club = HubClub(name=clean, public_key=key, token_hash=token_hash(token))
        s.add(club)
        s.flush()
        return AddedClub(club.id, club.name, key, token)


@dataclass(frozen=True)
class Imported:
    """What the hub did with one file: ``new`` (a first version), ``corrected`` (a version superseding the
    one before, ``diff`` says what moved), ``same`` (already stored) or ``older`` (already superseded)."""

    status: str
    event_uid: str
    event_name: str
    club: str
    digest: str
    version: int
    diff: dict[str, Any] | None = None


def _refuse(code: str, message: str) -> ServiceError:
    return ServiceError(code, message)


def _signed(data: bytes) -> EventFile:
    try:
        return eventfile.read(data)
    except FileError as exc:
        raise _refuse(exc.code, exc.message) from exc


def _club_of(s: Session, f: EventFile) -> HubClub:
    club = s.scalar(select(HubClub).where(HubClub.public_key == f.public_key))
    if club is None:
        raise _refuse(
            "unknown-club",
            _("The file is signed with a key the hub does not know: no club of the federation signed it."),
        )
    if club.club_uid is None:
        taken = s.scalar(select(HubClub).where(HubClub.club_uid == f.club_uid))
        if taken is not None:
            raise _refuse(
                "foreign-file",
                _("The file names the club {other} but is signed by {club}.").format(
                    other=taken.name, club=club.name
                ),
            )
        club.club_uid = f.club_uid
    elif club.club_uid != f.club_uid:
        raise _refuse(
            "foreign-file",
            _("The file is signed by {club} but names another club's file.").format(club=club.name),
        )
    if not f.event_uid.startswith(f"{f.club_uid}:"):
        raise _refuse("foreign-file", _("The file's event does not belong to the club that signed it."))
    return club


def _day(value: Any) -> dt.date | None:
    return dt.date.fromisoformat(str(value)) if value else None


def _store_results(s: Session, club: HubClub, ev: HubEvent, payload: dict[str, Any]) -> None:
    """The current version's placings (per person) and its rated singles tavla matches, rebuilt."""
    s.execute(delete(HubPlacing).where(HubPlacing.event_id == ev.id))
    s.execute(delete(HubMatch).where(HubMatch.event_id == ev.id))
    people = {str(p["number"]): p for p in payload.get("people", [])}
    idents: dict[str, int] = {}
    known = {
        i.number: i
        for i in s.scalars(
            select(HubIdentity).where(HubIdentity.club_id == club.id, HubIdentity.number.in_(list(people)))
        )
    }
    for number, person in people.items():
        ident = known.get(number)
        licence = str(person.get("licence") or "").strip().upper()
        if ident is None or (licence and licence != ident.licence):
            ident = identity_for(s, club, person)  # a new member, or a new licence: matched and queued
        else:  # the member as the hub knows him: his name and city as his club has them now
            ident.name, ident.city = str(person.get("name", "")), str(person.get("city") or "")
        idents[number] = ident.id
    members = {
        str(e["id"]): [str(m["member"]) for m in e.get("members", []) if not m.get("left")]
        for e in payload["entrants"]
    }
    dq = {str(e["id"]) for e in payload["entrants"] if e.get("status") == "disqualified"}
    placings = [
        (
            ev.id,
            str(p["entrant"]),
            idents[number],
            int(p["from"]),
            int(p["to"]),
            int(p.get("season_points", 0)),
            str(p["entrant"]) in dq,
        )
        for p in payload["placings"]
        for number in members.get(str(p["entrant"]), [])
    ]
    s.flush()  # the identities above are in the transaction before COPY reads them
    copy_rows(s, "placings", PLACING_COLUMNS, placings)
    family, params = event_params(payload["event"])
    if family != "tavla":
        return
    lengths = [int(x) for x in payload["event"].get("match_lengths") or []]
    played_on = _day(payload["event"].get("starts_on"))
    matches = []
    for t in payload["tables"]:
        a, b = members.get(str(t["a"]), []), members.get(str(t.get("b")), [])
        if t.get("kind") != "played" or t.get("winner") is None or len(a) != 1 or len(b) != 1:
            continue  # rule T12c: played singles matches only; a forfeit is not rated
        length = t.get("match_length") or (
            lengths[min(int(t["round"]), len(lengths)) - 1] if lengths else None
        )
        matches.append(
            (
                ev.id,
                int(t["round"]),
                int(t["table"]),
                idents[a[0]],
                idents[b[0]],
                str(t["winner"]) == str(t["a"]),
                int(length or params.get("match_length", 5)),
                played_on,
            )
        )
    copy_rows(s, "matches", MATCH_COLUMNS, matches)  # one exchange for the event's rated matches


def import_file(hub: Hub, data: bytes, *, via: str = "file", club_token: str | None = None) -> Imported:
    """Take one signed event file into the hub (one transaction), or refuse it with the reason and store
    nothing. ``club_token``: a push must come with the signing club's own token."""
    f = _signed(data)
    try:
        check(f.payload)  # the file agrees with itself, or it is refused
    except ReplayError as exc:
        raise _refuse(exc.code, exc.message) from exc
    try:
        with hub.session() as s:
            s.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": HUB_LOCK})
            return _take(s, f, data, via, club_token)
    except IntegrityError as exc:  # a row the hub cannot hold: nothing was stored
        raise _refuse(
            "cannot-store",
            _("The hub cannot store this file: {why}").format(why=str(exc.orig).splitlines()[0]),
        ) from exc


def _take(s: Session, f: EventFile, data: bytes, via: str, club_token: str | None) -> Imported:
    club = _club_of(s, f)
    if club_token is not None and token_hash(club_token) != club.token_hash:
        raise _refuse("bad-token", _("This push token is not {club}'s.").format(club=club.name))
    payload = f.payload
    info = payload["event"]
    ev = s.scalar(select(HubEvent).where(HubEvent.uid == f.event_uid))
    known = s.scalar(select(HubVersion).where(HubVersion.digest == f.digest))
    if ev is not None and known is not None:
        status = "same" if ev.current_digest == f.digest else "older"
        return Imported(status, ev.uid, ev.name, club.name, f.digest, known.number)
    before: dict[str, Any] | None = None
    if ev is None:
        ev = HubEvent(
            uid=f.event_uid,
            club_id=club.id,
            name=str(info["name"]),
            season=str(info.get("season") or ""),
            tier=str(info.get("coefficient_class") or ""),
            starts_on=_day(info.get("starts_on")),
            ruleset=str(info["ruleset"]),
            format=str(info["format"]),
            current_digest=f.digest,
            versions=1,
        )
        s.add(ev)
        s.flush()
        number, status = 1, "new"
    else:
        if f.supersedes != ev.current_digest:
            raise _refuse(
                "broken-chain",
                _(
                    "The file corrects a version of {event} the hub does not hold as current "
                    "(it supersedes {theirs}, the hub holds {ours}): send the versions in order."
                ).format(event=ev.name, theirs=(f.supersedes or "-")[:12], ours=ev.current_digest[:12]),
            )
        current = s.scalar(select(HubVersion).where(HubVersion.digest == ev.current_digest))
        assert current is not None
        before = json.loads(current.payload)
        ev.versions += 1
        number, status = ev.versions, "corrected"
        ev.name = str(info["name"])
        ev.season = str(info.get("season") or "")
        ev.tier = str(info.get("coefficient_class") or "")
        ev.starts_on = _day(info.get("starts_on"))
        ev.current_digest = f.digest
        ev.updated_at = utcnow()
    diff = difference(before, payload) if before is not None else None
    s.add(
        HubVersion(
            event_id=ev.id,
            digest=f.digest,
            supersedes=f.supersedes,
            number=number,
            via=via,
            payload=eventfile.canonical(payload).decode("utf-8"),
            signature=data.decode("utf-8"),
            diff=json.dumps(diff, ensure_ascii=False) if diff is not None else "",
        )
    )
    _store_results(s, club, ev, payload)
    s.flush()
    return Imported(status, ev.uid, ev.name, club.name, f.digest, number, diff)
