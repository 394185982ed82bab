"""What every use case uses: errors and results, the permission table, the audit chain, look-ups.

The package's face: what ui/, cli/, web/ and the packages above may use. A name is imported from its module
when first used, so a screen that needs one use case does not load the whole package (the first
section paints before the engines load)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clubdesk.services.kernel.audit_anchor import (
        Anchor,
        anchor_for_print,
        audit_state,
        record_anchor,
        signed_with,
    )
    from clubdesk.services.kernel.audit_chain import audit_head, hand_ref
    from clubdesk.services.kernel.audit_redaction import redact_row
    from clubdesk.services.kernel.audit_seal import unsealed
    from clubdesk.services.kernel.audit_verify import (
        ChainReport,
        key_signs,
        key_signs_file,
        signed_key_name,
        verify_chain,
    )
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
        require_audit_key,
    )
    from clubdesk.services.kernel.changes import Changes
    from clubdesk.services.kernel.clock import DESK_CLOCK
    from clubdesk.services.kernel.identity import CLUB_UID_KEY, club_uid
    from clubdesk.services.kernel.lookups import MESSAGE_LOCALES, load_event, money_text
    from clubdesk.services.kernel.permissions import allowed, mask_contacts, require

_HOMES = {
    "Actor": "clubdesk.services.kernel.base",
    "Anchor": "clubdesk.services.kernel.audit_anchor",
    "ChainReport": "clubdesk.services.kernel.audit_verify",
    "key_signs": "clubdesk.services.kernel.audit_verify",
    "key_signs_file": "clubdesk.services.kernel.audit_verify",
    "signed_key_name": "clubdesk.services.kernel.audit_verify",
    "CLUB_UID_KEY": "clubdesk.services.kernel.identity",
    "Changes": "clubdesk.services.kernel.changes",
    "DEFAULT_ACTOR": "clubdesk.services.kernel.base",
    "DESK_CLOCK": "clubdesk.services.kernel.clock",
    "DESK_ROLES": "clubdesk.services.kernel.base",
    "MESSAGE_LOCALES": "clubdesk.services.kernel.lookups",
    "Role": "clubdesk.services.kernel.base",
    "ServiceError": "clubdesk.services.kernel.base",
    "allowed": "clubdesk.services.kernel.permissions",
    "anchor_for_print": "clubdesk.services.kernel.audit_anchor",
    "audit": "clubdesk.services.kernel.base",
    "audit_head": "clubdesk.services.kernel.audit_chain",
    "redact_row": "clubdesk.services.kernel.audit_redaction",
    "audit_json": "clubdesk.services.kernel.base",
    "audit_state": "clubdesk.services.kernel.audit_anchor",
    "club_uid": "clubdesk.services.kernel.identity",
    "entry_refusal": "clubdesk.services.kernel.base",
    "hand_ref": "clubdesk.services.kernel.audit_chain",
    "load_event": "clubdesk.services.kernel.lookups",
    "mask_contacts": "clubdesk.services.kernel.permissions",
    "money_text": "clubdesk.services.kernel.lookups",
    "refusal": "clubdesk.services.kernel.base",
    "require": "clubdesk.services.kernel.permissions",
    "require_audit_key": "clubdesk.services.kernel.base",
    "signed_with": "clubdesk.services.kernel.audit_anchor",
    "record_anchor": "clubdesk.services.kernel.audit_anchor",
    "unsealed": "clubdesk.services.kernel.audit_seal",
    "verify_chain": "clubdesk.services.kernel.audit_verify",
}

__all__ = [
    "CLUB_UID_KEY",
    "Actor",
    "Anchor",
    "ChainReport",
    "Changes",
    "DEFAULT_ACTOR",
    "DESK_CLOCK",
    "DESK_ROLES",
    "MESSAGE_LOCALES",
    "Role",
    "ServiceError",
    "allowed",
    "anchor_for_print",
    "audit",
    "audit_head",
    "audit_json",
    "audit_state",
    "club_uid",
    "entry_refusal",
    "hand_ref",
    "key_signs",
    "key_signs_file",
    "load_event",
    "mask_contacts",
    "money_text",
    "record_anchor",
    "redact_row",
    "refusal",
    "require",
    "require_audit_key",
    "signed_key_name",
    "signed_with",
    "unsealed",
    "verify_chain",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from the module that defines it on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
