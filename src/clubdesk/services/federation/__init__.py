"""The federation: a club's signed event files and the hub that merges every club's season.

The package's face: what ui/, cli/, web/ and the packages above may use. A name is imported from its module
when first used (the hub's engines and the signing library load only when the federation is used)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clubdesk.services.federation.export import (
        ClubKey,
        Export,
        club_key,
        export_event,
        public_key,
        sent_records,
    )

_HOMES = {
    "ClubKey": "clubdesk.services.federation.export",
    "Export": "clubdesk.services.federation.export",
    "club_key": "clubdesk.services.federation.export",
    "export_event": "clubdesk.services.federation.export",
    "public_key": "clubdesk.services.federation.export",
    "sent_records": "clubdesk.services.federation.export",
}

__all__ = [
    "ClubKey",
    "Export",
    "club_key",
    "export_event",
    "public_key",
    "sent_records",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from the module that defines it on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
