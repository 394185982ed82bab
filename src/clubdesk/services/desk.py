"""The registration desk: entries, payments and refunds, the waiting list, check-in, the cash box.

Rules: T2b (payments by method with a reference; the early price follows the payment's date; a transfer's
description holds the check-in code), T2c (capacity, ordered waiting list, automatic promotion with a
notification in the outbox), T2d (refund per policy before registration closes; none after the draw or for a
no-show), T2e (side events free or discounted for main-event entrants), T3a (check-in by code, QR payload,
member number or phone; no check-in, no draw; a waiting player present may take a no-show's place), BC4 (fee
per person).

Nothing is deleted: a withdrawal is a status, a refund a negative payment linked to the one it gives back, a
partner leaving a pair keeps its row with ``left_at``. Every change writes an audit row in the same
transaction. Every refusal raises :class:`ServiceError` before anything is written.

Desk times (payments, check-ins, withdrawals) are local wall-clock times, like the event's close and start
times: prices and the cash box follow the club's local day.

Issue 22 split the desk's service by what it serves; every name stays importable from here:
:mod:`.desk_base` (plain results, shared look-ups), :mod:`.desk_registration`, :mod:`.desk_payments`,
:mod:`.desk_lists` and :mod:`.desk_checkin`.
"""

from __future__ import annotations

from clubdesk.services.desk_base import (
    ACTIVE_STATUSES,
    CODE_ALPHABET,
    CODE_LENGTH,
    CODE_LETTERS,
    MAX_COUNTRY_CODE_DIGITS,
    MAX_REFERENCE,
    MIN_PHONE_DIGITS,
    QR_PREFIX,
    CashBox,
    CashLine,
    CheckIn,
    EntrantRow,
    NoShowSwap,
    OutboxItem,
    PaymentInfo,
    Receipt,
    Registration,
    Withdrawal,
    _active_links,
    _entrant,
    _entrant_snapshot,
    _entry_name,
    _entry_of_member,
    _fee_for,
    _first_waiting,
    _give_back,
    _has_room,
    _is_main_entrant,
    _member,
    _members_of,
    _money,
    _new_code,
    _notify,
    _now,
    _pay_info,
    _payments,
    _promote,
    _registered_count,
    _renumber_waitlist,
    normalise_code,
    phone_digits,
    phones_match,
    price_for,
    qr_payload,
)
from clubdesk.services.desk_checkin import (
    _entry_any_status,
    _find_for_checkin,
    arrival_deadline,
    checkin,
    draw_list,
    give_no_show_places,
)
from clubdesk.services.desk_lists import (
    by_name,
    entrant,
    entrants,
    mark_sent,
    outbox,
)
from clubdesk.services.desk_payments import (
    cash_box,
    find_by_reference,
    pay,
    payments_of,
    receipt,
    refund,
)
from clubdesk.services.desk_registration import (
    _replace_member,
    fill_free_places,
    promote,
    refund_percent,
    register,
    withdraw,
)

# every name, the private helpers too (older code and other branches import them from here)
__all__ = [
    "ACTIVE_STATUSES",
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "CODE_LETTERS",
    "CashBox",
    "CashLine",
    "CheckIn",
    "EntrantRow",
    "MAX_COUNTRY_CODE_DIGITS",
    "MAX_REFERENCE",
    "MIN_PHONE_DIGITS",
    "NoShowSwap",
    "OutboxItem",
    "PaymentInfo",
    "QR_PREFIX",
    "Receipt",
    "Registration",
    "Withdrawal",
    "_active_links",
    "_entrant",
    "_entrant_snapshot",
    "_entry_any_status",
    "_entry_name",
    "_entry_of_member",
    "_fee_for",
    "_find_for_checkin",
    "_first_waiting",
    "_give_back",
    "_has_room",
    "_is_main_entrant",
    "_member",
    "_members_of",
    "_money",
    "_new_code",
    "_notify",
    "_now",
    "_pay_info",
    "_payments",
    "_promote",
    "_registered_count",
    "_renumber_waitlist",
    "_replace_member",
    "arrival_deadline",
    "by_name",
    "cash_box",
    "checkin",
    "draw_list",
    "entrant",
    "entrants",
    "fill_free_places",
    "find_by_reference",
    "give_no_show_places",
    "mark_sent",
    "normalise_code",
    "outbox",
    "pay",
    "payments_of",
    "phone_digits",
    "phones_match",
    "price_for",
    "promote",
    "qr_payload",
    "receipt",
    "refund",
    "refund_percent",
    "register",
    "withdraw",
]
