"""Money on the screens: an amount as its currency's country writes it; an amount typed in major units; a
spin box for an amount in a currency."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QDoubleSpinBox

from clubdesk.services.kernel import ServiceError
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


def money_box(exp: int, currency: str = "") -> QDoubleSpinBox:
    """An amount in the event's currency, typed and shown as the prize list shows it (₺800,00, not 800.00):
    the currency's own decimal and group separators and its symbol."""
    box = QDoubleSpinBox()
    box.setDecimals(exp)
    box.setRange(0, 10**12 / 10**exp)
    box.setGroupSeparatorShown(True)
    if currency:
        locale = CURRENCY_LOCALES.get(currency, "en")
        box.setLocale(QLocale(locale))
        try:  # the symbol where the prize list puts it: ₺800,00, Rp1.500.000, 25,00 €
            from babel.numbers import format_currency, get_currency_symbol

            symbol = get_currency_symbol(currency, locale=locale)
            sample = format_currency(0, currency, locale=locale)
            at = sample.find(symbol)
            if at == 0:
                gap = sample[len(symbol) : len(symbol) + 1]
                box.setPrefix(symbol + (gap if gap in ("\xa0", " ") else ""))
            elif at > 0:
                gap = sample[at - 1 : at]
                box.setSuffix((gap if gap in ("\xa0", " ") else "") + symbol)
        except Exception:  # noqa: BLE001 - an unknown currency keeps its bare number
            pass
    return box
