"""What every service shares: who is acting, domain errors, the audit trail, plain results.

Services are the only code that opens a database session. Each use case is one short transaction
(``db.session()``) and returns plain frozen dataclasses, never live ORM objects.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from clubdesk.competition.errors import CompetitionError
from clubdesk.i18n import N_, _
from clubdesk.labels import ROLE_LABELS
from clubdesk.models.audit import to_the_ms
from clubdesk.models.base import utcnow
from clubdesk.services.kernel import audit_chain, audit_key, audit_seal

if TYPE_CHECKING:  # the annotation only: the game engines load when a hand is checked, not at start
    from clubdesk.games import EntryError


audit_seal.install()  # every audited transaction of a keyed file seals the watched rows it wrote


class Role(StrEnum):
    SECRETARY = "secretary"
    REFEREE = "referee"
    SCORER = "scorer"
    TABLE = "table"  # a player's phone at a table (audited with the table and its address)


# the roles a person at the desk can hold (the phones' role is not one of them)
DESK_ROLES: tuple[Role, ...] = (Role.SECRETARY, Role.REFEREE, Role.SCORER)


@dataclass(frozen=True)
class Actor:
    """The person at the desk: a name or initials and a role. Every service call takes one."""

    name: str
    role: Role = Role.SECRETARY

    def label(self) -> str:
        # the unnamed default person is shown in the window's language (the audit log keeps "Desk")
        name = _(DEFAULT_ACTOR_NAME) if self.name == DEFAULT_ACTOR_NAME else self.name
        return _("{name} ({role})").format(name=name, role=_(ROLE_LABELS[self.role]))


# TRANSLATORS: the person acting before anyone has said who they are: the desk PC itself
DEFAULT_ACTOR_NAME = N_("Desk")
DEFAULT_ACTOR = Actor(DEFAULT_ACTOR_NAME, Role.SECRETARY)


class ServiceError(Exception):
    """A refused request. ``code`` is stable for programs; ``message`` is translated for people;
    ``details`` lists further lines (e.g. every bad line of an import)."""

    def __init__(self, code: str, message: str, details: list[str] | None = None, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or []
        self.params = params


def refusal(exc: CompetitionError) -> ServiceError:
    """The service's refusal for what the competition rules refuse (same code, message and params)."""
    return ServiceError(exc.code, exc.message, **exc.params)


def entry_refusal(exc: EntryError) -> ServiceError:
    """The service's refusal for an entry the game engine refuses, numbered for people."""
    return ServiceError(
        exc.code,
        _("Entry {n} is not possible: {reason}").format(n=exc.index + 1, reason=exc.message or exc.code),
        index=exc.index,
        reason=exc.message or exc.code,  # the rule's words alone, for a form that shows the hand itself
    )


def audit_json(value: Any) -> str | None:
    """An audit row's before/after as stored: compact JSON, keys sorted (0018_audit_compact;
    older rows hold ``", "``/``": "`` separators, read the same)."""
    if value is None:
        return None
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)


def changed_fields(before: Any, after: Any) -> tuple[Any, Any]:
    """What an audit row stores: for an update, the before and after of only the fields that
    changed (a field present on one side only counts as changed); an insert keeps the new fields and a
    delete the old ones. Anything that is not a pair of mappings is kept whole."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return before, after
    keys = [k for k in {**before, **after} if k not in before or k not in after or before[k] != after[k]]
    return (
        {k: before[k] for k in keys if k in before},
        {k: after[k] for k in keys if k in after},
    )


def audit(
    session: Session,
    actor: Actor,
    action: str,
    entity: str,
    entity_id: object = None,
    *,
    before: Any = None,
    after: Any = None,
    event_id: int | None = None,
    round_no: int | None = None,
    table_no: int | None = None,
    reason: str | None = None,
) -> None:
    """Write one audit row in the caller's transaction (so it lands exactly when the change does). Of an
    update only the changed fields are stored, each before and after (:func:`changed_fields`);
    the row's hash covers what is stored."""
    if not actor.name.strip():
        raise ServiceError("actor-required", _("Say who is acting before changing anything."))

    values: dict[str, Any] = {
        "at": to_the_ms(utcnow()),  # stored as whole milliseconds (0018_audit_compact), hashed as stored
        "actor_name": actor.name.strip(),
        "actor_role": str(actor.role),
        "action": action,
        "entity": entity,
        "entity_id": None if entity_id is None else str(entity_id),
        "event_id": event_id,
        "round_no": round_no,
        "table_no": table_no,
    }
    before, after = changed_fields(before, after)
    values |= {
        "before": audit_json(before),
        "after": audit_json(after),
        "reason": reason,
    }
    # tamper-evident chain; from 0017 the row keeps its hash (as bytes) and no prev_hash; keyed with the
    # club's audit key kept outside the file (audit_key)
    try:
        audit_chain.add_row(session, values)
    except audit_key.AuditKeyMissing as exc:
        raise key_missing(exc) from exc


def key_missing(exc: audit_key.AuditKeyMissing) -> ServiceError:
    """The refusal of a change to a club file whose audit key is not on this PC."""
    return ServiceError(
        "audit-key-missing",
        _(
            "This club file's audit log is signed with a key that is not on this PC ({name}, looked "
            "for in {where}). Copy the key file {name}.key from the PC that kept the club into that "
            "folder, or on that PC write the key to a file with 'clubdesk-cli audit key export --out FILE' "
            "and take it in here with 'clubdesk-cli audit key import FILE' (with '--backup BACKUP' for a "
            "backup to restore); nothing was changed."
        ).format(name=exc.name, where=exc.where),
    )


def require_audit_key(name: str) -> None:
    """Refuse (ServiceError) unless the audit key ``name`` is on this PC: before a restore replaces the
    club file with one whose log is signed with it, since every change after would be refused."""
    try:
        audit_key.read_audit_key(name)
    except audit_key.AuditKeyMissing as exc:
        raise key_missing(exc) from exc
