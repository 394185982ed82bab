"""What every use case uses: errors and results, the permission table, the audit chain, look-ups.

The package's face: what ui/, cli/ and web/ may use. Everything else is the package's own."""

from clubdesk.services.kernel.audit_chain import ChainReport, audit_head, hand_ref, verify_chain
from clubdesk.services.kernel.base import (
    DEFAULT_ACTOR,
    DESK_ROLES,
    Actor,
    Role,
    ServiceError,
    audit,
    audit_json,
    entry_refusal,
    refusal,
)
from clubdesk.services.kernel.changes import Changes
from clubdesk.services.kernel.clock import DESK_CLOCK
from clubdesk.services.kernel.lookups import MESSAGE_LOCALES, load_event, money_text
from clubdesk.services.kernel.permissions import allowed, mask_contacts, require

__all__ = [
    "Actor",
    "ChainReport",
    "Changes",
    "DEFAULT_ACTOR",
    "DESK_CLOCK",
    "DESK_ROLES",
    "MESSAGE_LOCALES",
    "Role",
    "ServiceError",
    "allowed",
    "audit",
    "audit_head",
    "audit_json",
    "entry_refusal",
    "hand_ref",
    "load_event",
    "mask_contacts",
    "money_text",
    "refusal",
    "require",
    "verify_chain",
]
