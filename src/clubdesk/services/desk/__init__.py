"""The registration desk: entries, the waiting list, check-in, name look-up.

The package's face: what ui/, cli/, web/ and the packages above may use. A name is imported from its module
when first used, so a screen that needs one use case does not load the whole package (the first
section paints before the engines load)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clubdesk.services.desk.arrivals import checkin, give_no_show_places
    from clubdesk.services.desk.lists import by_name, entrant, entrants, mark_sent, outbox
    from clubdesk.services.desk.name_lookup import (
        Choice,
        entrant_choices,
        entrant_member_choices,
        member_choices,
    )
    from clubdesk.services.desk.records import (
        ACTIVE_STATUSES,
        CODE_ALPHABET,
        CODE_LENGTH,
        MAX_REFERENCE,
        CashBox,
        CashLine,
        EntrantRow,
        OutboxItem,
        PaymentInfo,
        Receipt,
        Registration,
        entrant_of,
        entrant_payments,
        give_back,
        money,
        pay_info,
        price_for,
        qr_payload,
    )
    from clubdesk.services.desk.registration import promote, register, withdraw

_HOMES = {
    "ACTIVE_STATUSES": "clubdesk.services.desk.records",
    "CODE_ALPHABET": "clubdesk.services.desk.records",
    "CODE_LENGTH": "clubdesk.services.desk.records",
    "CashBox": "clubdesk.services.desk.records",
    "CashLine": "clubdesk.services.desk.records",
    "Choice": "clubdesk.services.desk.name_lookup",
    "EntrantRow": "clubdesk.services.desk.records",
    "MAX_REFERENCE": "clubdesk.services.desk.records",
    "OutboxItem": "clubdesk.services.desk.records",
    "PaymentInfo": "clubdesk.services.desk.records",
    "Receipt": "clubdesk.services.desk.records",
    "Registration": "clubdesk.services.desk.records",
    "by_name": "clubdesk.services.desk.lists",
    "checkin": "clubdesk.services.desk.arrivals",
    "entrant": "clubdesk.services.desk.lists",
    "entrant_choices": "clubdesk.services.desk.name_lookup",
    "entrant_member_choices": "clubdesk.services.desk.name_lookup",
    "entrant_of": "clubdesk.services.desk.records",
    "entrant_payments": "clubdesk.services.desk.records",
    "entrants": "clubdesk.services.desk.lists",
    "give_back": "clubdesk.services.desk.records",
    "give_no_show_places": "clubdesk.services.desk.arrivals",
    "mark_sent": "clubdesk.services.desk.lists",
    "member_choices": "clubdesk.services.desk.name_lookup",
    "money": "clubdesk.services.desk.records",
    "outbox": "clubdesk.services.desk.lists",
    "pay_info": "clubdesk.services.desk.records",
    "price_for": "clubdesk.services.desk.records",
    "promote": "clubdesk.services.desk.registration",
    "qr_payload": "clubdesk.services.desk.records",
    "register": "clubdesk.services.desk.registration",
    "withdraw": "clubdesk.services.desk.registration",
}

__all__ = [
    "ACTIVE_STATUSES",
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "CashBox",
    "CashLine",
    "Choice",
    "EntrantRow",
    "MAX_REFERENCE",
    "OutboxItem",
    "PaymentInfo",
    "Receipt",
    "Registration",
    "by_name",
    "checkin",
    "entrant",
    "entrant_choices",
    "entrant_member_choices",
    "entrant_of",
    "entrant_payments",
    "entrants",
    "give_back",
    "give_no_show_places",
    "mark_sent",
    "member_choices",
    "money",
    "outbox",
    "pay_info",
    "price_for",
    "promote",
    "qr_payload",
    "register",
    "withdraw",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from the module that defines it on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
