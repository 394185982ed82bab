"""Money on the screens: an amount as its currency's country writes it; an amount typed in major units."""

from __future__ import annotations

from typing import Any

from clubdesk.services.base import ServiceError
from clubdesk.standings.money import MoneyError, format_money, parse_amount

# Amounts are shown the way the currency's own country writes them: ₺250,00 · Rp 5.000 · 25,00 €.
CURRENCY_LOCALES = {"TRY": "tr_TR", "IDR": "id_ID", "EUR": "es_ES"}


def money(amount: int, currency: str) -> str:
    try:
        return str(format_money(amount, currency, CURRENCY_LOCALES.get(currency, "en")))
    except Exception:  # noqa: BLE001 - an unknown locale must never break a screen
        return f"{amount} {currency}"


def parse_money(text: str, currency: str, **params: Any) -> int:
    """An amount typed in major units as minor units; a bad one is the "bad-amount" ServiceError (``params``
    as its parameters, e.g. the form field)."""
    try:
        return parse_amount(text, currency)
    except MoneyError as exc:
        raise ServiceError("bad-amount", exc.message, **params) from None
