"""Who may do what: the one permission table of the services.

Every service that changes something sensitive calls :func:`require` with its action name before it writes.
A database with no staff account is a one-person club (the person acting holds the role the desk says, as
before accounts existed); from the first account on, the desk and the CLI act only as a person proved by PIN
(:mod:`clubdesk.services.club.staff`), and this table decides.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from clubdesk.i18n import N_, _
from clubdesk.labels import ROLE_LABELS
from clubdesk.models.staff import StaffAccount
from clubdesk.services.kernel.base import Actor, Role, ServiceError
from clubdesk.storage import Database

S, R, C = Role.SECRETARY, Role.REFEREE, Role.SCORER

# action -> (roles allowed, what it is, for the refusal "A scorer may not {what}.")
PERMISSIONS: dict[str, tuple[frozenset[Role], str]] = {
    "members.edit": (frozenset({S}), N_("add or change members")),
    "members.merge": (frozenset({S}), N_("merge members")),
    "members.import": (frozenset({S}), N_("import members")),
    "members.export": (frozenset({S}), N_("export members with their phones and e-mails")),
    # the members' privacy rights: a copy of everything held about a member, his erasure, clearing the
    # contacts of members long inactive (GDPR, KVKK, UU PDP 2022): the organiser (secretary) only
    "members.personal": (frozenset({S}), N_("export everything held about a member")),
    "members.erase": (frozenset({S}), N_("erase members or clear their contact data")),
    "contacts.view": (frozenset({S}), N_("see phones and e-mails")),
    "events.edit": (frozenset({S}), N_("create or change events")),
    "events.status": (frozenset({S}), N_("open, close or cancel events")),
    "desk.register": (frozenset({S, R}), N_("register entrants")),
    "desk.pay": (frozenset({S, R}), N_("take payments")),
    "desk.refund": (frozenset({S}), N_("refund payments")),
    "desk.withdraw": (frozenset({S}), N_("withdraw entrants")),
    "settings.edit": (frozenset({S}), N_("change the club's settings")),
    "staff.manage": (frozenset({S}), N_("manage staff accounts")),
    "database.backup": (frozenset({S, R}), N_("make backups")),
    "database.restore": (frozenset({S}), N_("restore a backup")),
    # the audit log's key: whoever holds it can re-sign the log (G13), so the secretary alone moves it
    "audit.key": (frozenset({S}), N_("move the audit log's key to another PC")),
    "incidents.view": (frozenset({S, R}), N_("see a player's incidents")),  # the player card
    # the night: the organiser (secretary) and the referee pair, publish and set up rounds; a scorer enters
    # results only (E6, T8c). Unpublishing is the referee's alone besides (T10).
    "rounds.edit": (
        frozenset({S, R}),
        N_("pair, publish, take back or throw away rounds or change their tables"),
    ),
    "night.configure": (frozenset({S, R}), N_("change the night's settings")),
    "prizes.pay": (frozenset({S}), N_("pay prizes")),  # money leaves the cash box, as a refund does (T13e)
    "demo.fill": (frozenset({S}), N_("fill the demo club")),
    # rules T12d, T14: a finished event's public results leave the club, signed with its key
    "federation.send": (frozenset({S}), N_("send results to the federation")),
}


def allowed(actor: Actor, action: str) -> bool:
    roles, _what = PERMISSIONS[action]
    return actor.role in roles


def one_person_club(where: Database | Session) -> bool:
    """No staff account yet: everything is allowed, as before accounts existed (scripts and the demo)."""

    if isinstance(where, Session):
        return where.scalar(select(StaffAccount.id).limit(1)) is None
    with where.session() as s:
        return s.scalar(select(StaffAccount.id).limit(1)) is None


def require(actor: Actor, action: str, where: Database | Session | None = None) -> None:
    """Refuse (``not-allowed``) when ``actor``'s role may not do ``action`` (``where``: the database or the
    open session, so that a one-person club is let through)."""
    if where is not None and one_person_club(where):
        return
    if not allowed(actor, action):
        _roles, what = PERMISSIONS[action]
        raise ServiceError(
            "not-allowed",
            _("A {role} may not {what}.").format(role=_(ROLE_LABELS[actor.role]).lower(), what=_(what)),
        )


def mask(text: str | None) -> str | None:
    """A phone or e-mail as a non-secretary sees it: only its last two characters."""
    if not text:
        return text
    return "•" * max(len(text) - 2, 1) + text[-2:]


CONTACT_KEYS = ("phone", "email", "e-mail", "mail")


def _masked(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: (mask(v) if isinstance(v, str) and k.lower() in CONTACT_KEYS else _masked(v))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_masked(v) for v in value]
    return value


def mask_contacts(text: str | None) -> str | None:
    """An audit row's JSON (before/after) with every phone and e-mail masked."""
    if not text:
        return text
    try:
        data = json.loads(text)
    except ValueError:
        return text
    return json.dumps(_masked(data), ensure_ascii=False, sort_keys=True)
