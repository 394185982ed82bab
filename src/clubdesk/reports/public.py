"""Public outputs with each member's consent honoured: the report data with hidden names replaced.

``names`` maps a name as stored (a member's full name, a pair's "A / B") to what public outputs show
(``clubdesk.competition.privacy.public_name``); the services build it from the register. Every string of
the data is read: a name is replaced wherever it stands (a side, a standings row, a tie explained in words),
the longest first so that a pair's name goes before its players'. A record whose own ``name`` was hidden also
loses its ``city`` and ``number`` (initials and club only).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any, TypeVar

_T = TypeVar("_T")
_HIDDEN_WITH_NAME = ("city", "number")


def hide_text(text: str, names: Mapping[str, str]) -> str:
    shown = names.get(text)
    if shown is not None:
        return shown
    for full in sorted((n for n in names if n and n in text), key=len, reverse=True):
        # a whole name only: "Ali" hidden leaves "Alibaba Cup" as it is
        pattern = re.compile(rf"(?<!\w){re.escape(full)}(?!\w)")
        text = pattern.sub(names[full].replace("\\", "\\\\"), text)
    return text


def _hide(value: Any, names: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        return hide_text(value, names)
    if isinstance(value, tuple):
        return tuple(_hide(v, names) for v in value)
    if isinstance(value, list):
        return [_hide(v, names) for v in value]
    if isinstance(value, frozenset):
        return frozenset(_hide(v, names) for v in value)
    if isinstance(value, Mapping):
        return {k: _hide(v, names) for k, v in value.items()}  # keys are codes, never names
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for f in dataclasses.fields(value):
            if not f.init:
                continue
            old = getattr(value, f.name)
            new = _hide(old, names)
            if new is not old and new != old:
                changes[f.name] = new
        if "name" in changes and getattr(value, "name", None) in names:
            for other in _HIDDEN_WITH_NAME:
                if isinstance(getattr(value, other, None), str):
                    changes[other] = ""
        return dataclasses.replace(value, **changes) if changes else value
    return value


def publicly(data: _T, names: Mapping[str, str]) -> _T:
    """``data`` (report data, a list or dict of it) as a public output may show it."""
    if not names:
        return data
    result: _T = _hide(data, names)
    return result
