"""The command line's argument types: each turns what was typed into a value, or refuses it with a translated
message that says what it expects (argparse prints it and exits 2)."""

from __future__ import annotations

import argparse
import json
import re
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from clubdesk.i18n import _


def date_arg(text: str) -> date:
    """A date argument (YYYY-MM-DD); a clear message when it is not one."""
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("not a date (YYYY-MM-DD): {text}").format(text=text)) from None


def datetime_arg(text: str) -> datetime:
    """A date-and-time argument (YYYY-MM-DD HH:MM, or with a T); a clear message when it is not one."""
    try:
        return datetime.fromisoformat(text.replace("T", " "))
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("not a date and time (YYYY-MM-DD HH:MM): {text}").format(text=text)
        ) from None


def lengths_arg(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.replace(" ", "").split(",") if x)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("match lengths are whole numbers: {text}").format(text=text)
        ) from None


def override_arg(text: str) -> tuple[str, Any]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(_("an override is NAME=VALUE: {text}").format(text=text))
    key, raw = text.split("=", 1)
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key.strip(), value


def pair_arg(text: str) -> tuple[int, int]:
    found = re.fullmatch(r"\s*(-?\d+)\s*-\s*(-?\d+)\s*", text)
    if found is None:
        raise argparse.ArgumentTypeError(_("expected A-B, e.g. 5-3: {t}").format(t=text))
    return int(found.group(1)), int(found.group(2))


def when_arg(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("expected a date and time like 2024-05-01T19:30")) from None


def percent_arg(text: str) -> int:
    """A percentage ("80", "12.5") as basis points (10 000 = 100 %)."""
    try:
        value = Decimal(text.strip().rstrip("%"))
    except InvalidOperation:
        raise argparse.ArgumentTypeError(
            _("expected a percentage like 80 or 12.5: {t}").format(t=text)
        ) from None
    bp = value * 100
    if bp != bp.to_integral_value() or not 0 <= bp <= 10_000:
        raise argparse.ArgumentTypeError(
            _("a percentage between 0 and 100, at most 2 decimals: {t}").format(t=text)
        )
    return int(bp)


def percent_list_arg(text: str) -> list[int]:
    return [percent_arg(x) for x in text.split(",") if x.strip()]


def int_list_arg(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("expected whole numbers like 100,70,50: {t}").format(t=text)
        ) from None
    if not values or any(v < 0 for v in values):
        raise argparse.ArgumentTypeError(_("expected whole numbers like 100,70,50: {t}").format(t=text))
    return values


def coefficient_arg(text: str) -> tuple[str, int]:
    """``regional=1.5`` as ("regional", 150) hundredths."""
    name, sep, value = text.partition("=")
    try:
        hundredths = Decimal(value.strip()) * 100
    except InvalidOperation:
        hundredths = Decimal(-1)
    if not sep or not name.strip() or hundredths < 0 or hundredths != hundredths.to_integral_value():
        raise argparse.ArgumentTypeError(_("expected CLASS=FACTOR, e.g. regional=1.5: {t}").format(t=text))
    return name.strip(), int(hundredths)
