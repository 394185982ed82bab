"""Look-ups several services share, so that each refusal is written once."""

from __future__ import annotations

from sqlalchemy.orm import Session

from clubdesk.i18n import _, current_language
from clubdesk.models.event import Event
from clubdesk.services.kernel.base import ServiceError
from clubdesk.standings.money import format_money, minor_to_major_str


def load_event(s: Session, event_id: int) -> Event:
    """The event row, or the "no-event" refusal (events and desk services)."""
    ev = s.get(Event, event_id)
    if ev is None:
        raise ServiceError("no-event", _("No event {id}.").format(id=event_id), event=event_id)
    return ev


MESSAGE_LOCALES = {"id": "id_ID", "es": "es_ES", "tr": "tr_TR"}


def money_text(amount: int, currency: str) -> str:
    """Minor units for messages: "12.50 EUR" in English, through Babel in the other languages ("12,50 €",
    "₺250,00", "Rp 5.000")."""
    locale = MESSAGE_LOCALES.get(current_language())
    if locale is not None:
        try:
            return format_money(amount, currency, locale)
        except Exception:  # noqa: BLE001 - an unknown currency still prints
            pass
    return f"{minor_to_major_str(amount, currency)} {currency}"
