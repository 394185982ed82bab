"""The federation's hub: a PostgreSQL database (or schema) of its own, with its own Alembic chain
(``storage/hub/migrations``), holding every club's signed event files and the players across clubs.

Not part of a club's database: ``clubdesk.storage`` does not import it; the hub's use cases
(``services.federation``) do."""

from clubdesk.storage.hub.database import Hub, HubError, copy_rows, init_hub, open_hub
from clubdesk.storage.hub.models import (
    SCHEMA,
    HubBase,
    HubClub,
    HubEvent,
    HubIdentity,
    HubMatch,
    HubPlacing,
    HubPlayer,
    HubQueueItem,
    HubVersion,
)

__all__ = [
    "SCHEMA",
    "Hub",
    "HubBase",
    "HubClub",
    "HubError",
    "HubEvent",
    "HubIdentity",
    "HubMatch",
    "HubPlacing",
    "HubPlayer",
    "HubQueueItem",
    "HubVersion",
    "copy_rows",
    "init_hub",
    "open_hub",
]
