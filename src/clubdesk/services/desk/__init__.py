"""The registration desk: entries, the waiting list, check-in, name look-up.

The package's face: what ui/, cli/ and web/ may use. Everything else is the package's own."""

from clubdesk.services.desk.arrivals import checkin, give_no_show_places
from clubdesk.services.desk.lists import by_name, entrant, entrants, mark_sent, outbox
from clubdesk.services.desk.name_lookup import Choice, entrant_choices, entrant_member_choices, member_choices
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
