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
    from clubdesk.services.federation.hub_import import (
        AddedClub,
        Imported,
        add_club,
        import_file,
        token_hash,
    )
    from clubdesk.services.federation.hub_players import (
        Merged,
        QueueLine,
        keep_apart,
        merge_players,
        queue,
        root_players,
    )
    from clubdesk.services.federation.hub_season import (
        CircuitEvent,
        CircuitLine,
        CircuitSeason,
        Finalist,
        circuit_season,
        event_places,
    )
    from clubdesk.services.federation.hub_site import (
        circuit_pdf,
        circuit_site,
    )
    from clubdesk.services.federation.hub_status import (
        ClubStatus,
        HubStatus,
        hub_status,
    )
    from clubdesk.services.federation.push import (
        HubAddress,
        Pushed,
        SentLine,
        hub_address,
        push_event,
        sent_events,
        set_hub,
    )

_HOMES = {
    "AddedClub": "clubdesk.services.federation.hub_import",
    "CircuitEvent": "clubdesk.services.federation.hub_season",
    "CircuitLine": "clubdesk.services.federation.hub_season",
    "CircuitSeason": "clubdesk.services.federation.hub_season",
    "ClubKey": "clubdesk.services.federation.export",
    "ClubStatus": "clubdesk.services.federation.hub_status",
    "Export": "clubdesk.services.federation.export",
    "Finalist": "clubdesk.services.federation.hub_season",
    "HubAddress": "clubdesk.services.federation.push",
    "HubStatus": "clubdesk.services.federation.hub_status",
    "Imported": "clubdesk.services.federation.hub_import",
    "Merged": "clubdesk.services.federation.hub_players",
    "Pushed": "clubdesk.services.federation.push",
    "QueueLine": "clubdesk.services.federation.hub_players",
    "SentLine": "clubdesk.services.federation.push",
    "add_club": "clubdesk.services.federation.hub_import",
    "circuit_pdf": "clubdesk.services.federation.hub_site",
    "circuit_season": "clubdesk.services.federation.hub_season",
    "circuit_site": "clubdesk.services.federation.hub_site",
    "club_key": "clubdesk.services.federation.export",
    "event_places": "clubdesk.services.federation.hub_season",
    "export_event": "clubdesk.services.federation.export",
    "hub_address": "clubdesk.services.federation.push",
    "hub_status": "clubdesk.services.federation.hub_status",
    "import_file": "clubdesk.services.federation.hub_import",
    "keep_apart": "clubdesk.services.federation.hub_players",
    "merge_players": "clubdesk.services.federation.hub_players",
    "public_key": "clubdesk.services.federation.export",
    "push_event": "clubdesk.services.federation.push",
    "queue": "clubdesk.services.federation.hub_players",
    "root_players": "clubdesk.services.federation.hub_players",
    "sent_events": "clubdesk.services.federation.push",
    "sent_records": "clubdesk.services.federation.export",
    "set_hub": "clubdesk.services.federation.push",
    "token_hash": "clubdesk.services.federation.hub_import",
}

__all__ = [
    "AddedClub",
    "CircuitEvent",
    "CircuitLine",
    "CircuitSeason",
    "ClubKey",
    "ClubStatus",
    "Export",
    "Finalist",
    "HubAddress",
    "HubStatus",
    "Imported",
    "Merged",
    "Pushed",
    "QueueLine",
    "SentLine",
    "add_club",
    "circuit_pdf",
    "circuit_season",
    "circuit_site",
    "club_key",
    "event_places",
    "export_event",
    "hub_address",
    "hub_status",
    "import_file",
    "keep_apart",
    "merge_players",
    "public_key",
    "push_event",
    "queue",
    "root_players",
    "sent_events",
    "sent_records",
    "set_hub",
    "token_hash",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from the module that defines it on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
