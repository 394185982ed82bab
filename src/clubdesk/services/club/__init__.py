"""The club itself: its settings, staff and PINs, data safety, copying, about, the audit log view.

The package's face: what ui/, cli/ and web/ may use. Everything else is the package's own."""

from clubdesk.services.club.about_info import about
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

__all__ = [
    "AUDIT_COLUMNS",
    "AUDIT_TITLES",
    "AUTO_INTERVAL_MINUTES",
    "AuditRow",
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
    "get",
    "has_accounts",
    "iter_audit_rows",
    "list_staff",
    "put",
    "restore",
    "save_club_settings",
    "set_pin",
]
