"""``federation push``: a club desk sends an event's signed file to the hub over HTTPS with the club's
token, when it has internet; the hub takes it into the same import as a file carried on a stick. The club
file records what was sent and what the hub answered (accepted, or refused and why), for the desk to show.

Where the hub is: ``federation hub URL --token T`` (kept in the club's settings; the token is the club's
own, from ``federation club add`` at the hub). Plain ``http://`` is refused except to the loopback."""

from __future__ import annotations

import datetime as dt
import json
import ssl
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import select

from clubdesk.i18n import _
from clubdesk.models.base import utcnow
from clubdesk.models.club import Setting
from clubdesk.models.event import Event
from clubdesk.services.federation.export import HUB_KEY, export_event, keep_sent, sent_records
from clubdesk.services.kernel import Actor, ServiceError, audit, require
from clubdesk.storage import Database

PUSH_PATH = "/federation/v1/events"
TIMEOUT_S = 60
LOOPBACK = ("127.0.0.1", "::1", "localhost")


@dataclass(frozen=True)
class HubAddress:
    url: str
    token_set: bool
    cafile: str  # a CA bundle for a hub with its own certificate, "" for the system's


def _check_url(url: str) -> str:
    parts = urlsplit(url.strip())
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise ServiceError("bad-hub-url", _("The hub's address is an https:// URL."), field="url")
    if parts.scheme == "http" and parts.hostname not in LOOPBACK:
        raise ServiceError(
            "hub-not-https",
            _("Results go to the hub over HTTPS only (http:// only on this computer)."),
            field="url",
        )
    return url.strip().rstrip("/")


def set_hub(db: Database, actor: Actor, url: str, token: str, cafile: str = "") -> HubAddress:
    """Where ``federation push`` sends, with the club's token (kept in the club's settings)."""
    require(actor, "federation.send", db)
    clean = _check_url(url)
    if not token.strip():
        raise ServiceError(
            "no-token", _("Give the club's push token from the federation secretary."), field="token"
        )
    if cafile and not Path(cafile).is_file():
        raise ServiceError(
            "no-cafile", _("The file does not exist: {path}").format(path=cafile), field="cafile"
        )
    with db.session() as s:
        row = s.get(Setting, HUB_KEY)
        value = json.dumps({"url": clean, "token": token.strip(), "cafile": cafile})
        if row is None:
            s.add(Setting(key=HUB_KEY, value=value))
        else:
            row.value = value
        audit(s, actor, "federation.hub", "setting", HUB_KEY, after={"url": clean})
    return HubAddress(clean, True, cafile)


def hub_address(db: Database) -> HubAddress | None:
    with db.session() as s:
        row = s.get(Setting, HUB_KEY)
        value = json.loads(row.value) if row is not None else None
    if not isinstance(value, dict) or not value.get("url"):
        return None
    return HubAddress(str(value["url"]), bool(value.get("token")), str(value.get("cafile") or ""))


@dataclass(frozen=True)
class Pushed:
    event: int
    digest: str
    accepted: bool
    status: str  # the hub's word: new, corrected, same, older; or the refusal's code
    message: str  # the hub's refusal, "" when accepted
    version: int | None


def _post(url: str, token: str, cafile: str, data: bytes) -> tuple[int, dict[str, Any]]:
    context = ssl.create_default_context(cafile=cafile or None) if url.startswith("https") else None
    request = urllib.request.Request(
        url + PUSH_PATH,
        data=data,
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S, context=context) as answer:  # noqa: S310
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as exc:
        try:
            body = json.loads(exc.read() or b"{}")
        except ValueError:
            body = {}
        return exc.code, body if isinstance(body, dict) else {}
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ServiceError(
            "hub-unreachable", _("The hub cannot be reached: {why}").format(why=reason)
        ) from exc


def push_event(db: Database, actor: Actor, event_id: int, folder: Path) -> Pushed:
    """Export the event's signed file into ``folder`` and send it to the hub; what was sent and the hub's
    answer are recorded in the club file either way."""
    require(actor, "federation.send", db)
    with db.session() as s:
        row = s.get(Setting, HUB_KEY)
        hub = json.loads(row.value) if row is not None else {}
    if not isinstance(hub, dict) or not hub.get("url") or not hub.get("token"):
        raise ServiceError(
            "no-hub", _("This club has no federation hub yet: set it with federation hub URL --token T.")
        )
    done = export_event(db, actor, event_id, folder / f"event-{event_id}.json")
    code, answer = _post(
        str(hub["url"]), str(hub["token"]), str(hub.get("cafile") or ""), done.file.read_bytes()
    )
    accepted = code == 200
    result = Pushed(
        event_id,
        done.digest,
        accepted,
        str(answer.get("status" if accepted else "code", code)),
        "" if accepted else str(answer.get("message") or _("The hub answered {code}.").format(code=code)),
        int(answer["version"]) if accepted and "version" in answer else None,
    )
    with db.session() as s:
        records = sent_records(s)
        record = records.setdefault(str(event_id), {})
        record.update(
            {
                "pushed": utcnow().replace(tzinfo=dt.UTC).isoformat(timespec="seconds"),
                "accepted": accepted,
                "answer": result.message or result.status,
            }
        )
        keep_sent(s, records)
        audit(
            s,
            actor,
            "federation.push",
            "event",
            event_id,
            after={"digest": done.digest, "accepted": accepted},
        )
    return result


@dataclass(frozen=True)
class SentLine:
    """What the desk shows of one event sent to the federation."""

    event: int
    name: str
    digest: str
    file: str
    pushed: str | None  # when it was pushed (UTC, ISO), None: only written to a file
    accepted: bool | None  # the hub's answer to the push, None: not pushed
    answer: str


def sent_events(db: Database) -> list[SentLine]:
    """Every event this club exported or pushed to the federation, with the hub's last answer."""
    with db.session() as s:
        records = sent_records(s)
        names = dict(s.execute(select(Event.id, Event.name)).all())
    return [
        SentLine(
            int(k),
            str(names.get(int(k), "")),
            str(r.get("digest", "")),
            str(r.get("file", "")),
            r.get("pushed"),
            r.get("accepted"),
            str(r.get("answer") or ""),
        )
        for k, r in sorted(records.items(), key=lambda kv: int(kv[0]))
    ]
