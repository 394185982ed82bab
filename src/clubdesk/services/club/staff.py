"""Staff accounts and PINs: the secretary, referees and scorers who act at the desk.

- A PIN is 4 to 12 ASCII digits, stored only as a salted ``hashlib.scrypt`` hash.
- A database without accounts is a one-person club: everything is allowed as today. The first account must be
  a secretary; from then on the window and the CLI act only as a person whose PIN was given.
- Five wrong PINs in a row lock that person for a minute. Every switch, wrong PIN and lock is audited.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from clubdesk.i18n import _
from clubdesk.models.base import utcnow
from clubdesk.models.staff import StaffAccount
from clubdesk.services.kernel import DESK_ROLES, Actor, Role, ServiceError, audit, require
from clubdesk.storage import Database

MAX_FAILURES = 5
LOCK_SECONDS = 60
_N, _R, _P = 2**14, 8, 1


@dataclass(frozen=True)
class StaffInfo:
    name: str
    role: Role
    active: bool

    def as_json(self) -> dict[str, object]:
        return {"name": self.name, "role": str(self.role), "active": self.active}


def hash_pin(pin: str, *, salt: bytes | None = None) -> str:
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.scrypt(pin.encode("ascii"), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return f"scrypt${_N}${_R}${_P}${salt.hex()}${digest.hex()}"


def pin_matches(pin: str, stored: str) -> bool:
    try:
        _kind, n, r, p, salt, digest = stored.split("$")
        got = hashlib.scrypt(
            pin.encode("ascii"), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=32
        )
    except (ValueError, UnicodeEncodeError):
        return False
    return hmac.compare_digest(got.hex(), digest)


def _check_pin(pin: str) -> str:
    pin = (pin or "").strip()
    if not (pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 12):
        raise ServiceError("bad-pin", _("A PIN is 4 to 12 digits."))
    return pin


def _check_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not any(ch.isalpha() for ch in name) or len(name) > 80:
        raise ServiceError("bad-name", _("A name needs at least one letter (80 characters at most)."))
    if any(not ch.isprintable() for ch in name):
        raise ServiceError("bad-name", _("A name cannot hold control characters."))
    return name


def _count(s: Session) -> int:
    return int(s.scalar(select(func.count()).select_from(StaffAccount)) or 0)


def has_accounts(db: Database) -> bool:
    with db.session() as s:
        return _count(s) > 0


def _by_name(s: Session, name: str) -> StaffAccount:
    row = s.scalar(
        select(StaffAccount).where(func.lower(StaffAccount.name) == " ".join(name.split()).lower())
    )
    if row is None:
        raise ServiceError("no-such-person", _("Nobody called {name} has a staff account.").format(name=name))
    return row


def _info(row: StaffAccount) -> StaffInfo:
    return StaffInfo(row.name, Role(row.role), row.active)


def list_staff(db: Database) -> list[StaffInfo]:
    with db.session() as s:
        return [_info(r) for r in s.scalars(select(StaffAccount).order_by(StaffAccount.name))]


def add_staff(db: Database, actor: Actor, name: str, role: Role | str, pin: str) -> StaffInfo:
    """A new account. The first one must be a secretary (who then manages the others)."""
    name, pin = _check_name(name), _check_pin(pin)
    try:
        role = Role(role)
        if role not in DESK_ROLES:  # the phones' role is no person's account
            raise ValueError(role)
    except ValueError:
        raise ServiceError("bad-role", _("Unknown role: {role}").format(role=role)) from None
    with db.session() as s:
        if _count(s) == 0:
            if role is not Role.SECRETARY:
                raise ServiceError("first-secretary", _("The first staff account must be the secretary's."))
        else:
            require(actor, "staff.manage", s)
        if s.scalar(select(StaffAccount.id).where(func.lower(StaffAccount.name) == name.lower())) is not None:
            raise ServiceError("name-taken", _("{name} already has a staff account.").format(name=name))
        row = StaffAccount(name=name, role=str(role), pin_hash=hash_pin(pin), active=True, failed=0)
        s.add(row)
        s.flush()
        audit(s, actor, "staff.add", "staff", row.id, after={"name": name, "role": str(role)})
        return _info(row)


def set_pin(db: Database, actor: Actor, name: str, pin: str) -> StaffInfo:
    """A new PIN: the person themself or the secretary."""
    pin = _check_pin(pin)
    with db.session() as s:
        row = _by_name(s, name)
        if actor.name.lower() != row.name.lower():
            require(actor, "staff.manage", s)
        row.pin_hash = hash_pin(pin)
        row.failed, row.locked_until = 0, None
        audit(s, actor, "staff.pin", "staff", row.id, after={"name": row.name})
        return _info(row)


def deactivate(db: Database, actor: Actor, name: str) -> StaffInfo:
    with db.session() as s:
        require(actor, "staff.manage", s)
        row = _by_name(s, name)
        if row.role == Role.SECRETARY and row.active:
            others = s.scalar(
                select(func.count())
                .select_from(StaffAccount)
                .where(
                    StaffAccount.role == str(Role.SECRETARY), StaffAccount.active, StaffAccount.id != row.id
                )
            )
            if not others:
                raise ServiceError("last-secretary", _("The last active secretary cannot be deactivated."))
        row.active = False
        audit(s, actor, "staff.deactivate", "staff", row.id, before={"active": True}, after={"active": False})
        return _info(row)


def authenticate(db: Database, name: str, pin: str, *, now: datetime | None = None) -> Actor:
    """The person ``name`` proved by ``pin``, as the :class:`Actor` the services act for.

    A wrong PIN is counted and audited; the fifth in a row locks the person for a minute."""
    now = now or utcnow()
    refusal: ServiceError | None = None
    with db.session() as s:
        row = _by_name(s, name)
        if not row.active:
            raise ServiceError("inactive", _("{name}'s account is deactivated.").format(name=row.name))
        if row.locked_until is not None and row.locked_until > now:
            raise ServiceError(
                "pin-locked",
                _("Too many wrong PINs: {name} is locked for a minute.").format(name=row.name),
            )
        who = Actor(row.name, Role(row.role))
        if not pin_matches((pin or "").strip(), row.pin_hash):
            row.failed += 1
            after: dict[str, object] = {"failed": row.failed}
            if row.failed >= MAX_FAILURES:
                row.locked_until = now + timedelta(seconds=LOCK_SECONDS)
                row.failed = 0
                after["locked_until"] = row.locked_until.isoformat(timespec="seconds")
            audit(s, who, "staff.pin-failed", "staff", row.id, after=after)
            refusal = ServiceError("wrong-pin", _("Wrong PIN for {name}.").format(name=row.name))
        else:
            row.failed, row.locked_until = 0, None
            audit(s, who, "staff.switch", "staff", row.id, after={"name": row.name, "role": row.role})
    if refusal is not None:
        raise refusal  # raised after the commit, so the failure stays counted
    return who
