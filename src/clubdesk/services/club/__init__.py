"""The club itself: its settings, staff and PINs, data safety, copying, about, the audit log view.

The package's face: what ui/, cli/, web/ and the packages above may use. A name is imported from its module
when first used, so a screen that needs one use case does not load the whole package (the first
section paints before the engines load)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clubdesk.services.club.about_info import about
    from clubdesk.services.club.audit_keys import KeyMove, export_audit_key, import_audit_key
    from clubdesk.services.club.audit_log import (
        AUDIT_COLUMNS,
        AUDIT_TITLES,
        AuditRow,
        audit_rows,
        export_audit_csv,
        iter_audit_rows,
    )
    from clubdesk.services.club.db_copy import copy_database
    from clubdesk.services.club.safety import (
        AUTO_INTERVAL_MINUTES,
        backup,
        backup_quietly,
        backups,
        change_marker,
        restore,
    )
    from clubdesk.services.club.settings import (
        CLUB_NAME,
        RECENT_ACTORS,
        club_settings,
        get,
        put,
        save_club_settings,
    )
    from clubdesk.services.club.staff import (
        add_staff,
        authenticate,
        deactivate,
        has_accounts,
        list_staff,
        set_pin,
    )

_HOMES = {
    "KeyMove": "clubdesk.services.club.audit_keys",
    "export_audit_key": "clubdesk.services.club.audit_keys",
    "import_audit_key": "clubdesk.services.club.audit_keys",
    "AUDIT_COLUMNS": "clubdesk.services.club.audit_log",
    "AUDIT_TITLES": "clubdesk.services.club.audit_log",
    "AUTO_INTERVAL_MINUTES": "clubdesk.services.club.safety",
    "AuditRow": "clubdesk.services.club.audit_log",
    "CLUB_NAME": "clubdesk.services.club.settings",
    "RECENT_ACTORS": "clubdesk.services.club.settings",
    "about": "clubdesk.services.club.about_info",
    "add_staff": "clubdesk.services.club.staff",
    "audit_rows": "clubdesk.services.club.audit_log",
    "authenticate": "clubdesk.services.club.staff",
    "backup": "clubdesk.services.club.safety",
    "backup_quietly": "clubdesk.services.club.safety",
    "backups": "clubdesk.services.club.safety",
    "change_marker": "clubdesk.services.club.safety",
    "club_settings": "clubdesk.services.club.settings",
    "copy_database": "clubdesk.services.club.db_copy",
    "deactivate": "clubdesk.services.club.staff",
    "export_audit_csv": "clubdesk.services.club.audit_log",
    "get": "clubdesk.services.club.settings",
    "has_accounts": "clubdesk.services.club.staff",
    "iter_audit_rows": "clubdesk.services.club.audit_log",
    "list_staff": "clubdesk.services.club.staff",
    "put": "clubdesk.services.club.settings",
    "restore": "clubdesk.services.club.safety",
    "save_club_settings": "clubdesk.services.club.settings",
    "set_pin": "clubdesk.services.club.staff",
}

__all__ = [
    "AUDIT_COLUMNS",
    "AUDIT_TITLES",
    "AUTO_INTERVAL_MINUTES",
    "AuditRow",
    "KeyMove",
    "CLUB_NAME",
    "RECENT_ACTORS",
    "about",
    "add_staff",
    "audit_rows",
    "authenticate",
    "backup",
    "backup_quietly",
    "backups",
    "change_marker",
    "club_settings",
    "copy_database",
    "deactivate",
    "export_audit_csv",
    "export_audit_key",
    "get",
    "has_accounts",
    "import_audit_key",
    "iter_audit_rows",
    "list_staff",
    "put",
    "restore",
    "save_club_settings",
    "set_pin",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from the module that defines it on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
