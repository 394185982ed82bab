"""The register: members and clubs, search, edits, merges, CSV import and export.

The package's face: what ui/, cli/, web/ and the packages above may use. A name is imported from its module
when first used, so a screen that needs one use case does not load the whole package (the first
section paints before the engines load)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clubdesk.services.members.csv_io import ImportPreview, export_csv, import_members, preview_import
    from clubdesk.services.members.edit import (
        create_member,
        deactivate_member,
        list_clubs,
        save_club,
        update_member,
    )
    from clubdesk.services.members.erase import (
        ClearResult,
        ErasureResult,
        anonymous_name,
        clear_inactive,
        erase_member,
    )
    from clubdesk.services.members.merge import MergeResult, merge_members, merge_preview
    from clubdesk.services.members.privacy import public_names
    from clubdesk.services.members.records import (
        DEFAULT_RATING,
        FIRST_NUMBER,
        ClubInfo,
        MemberData,
        MemberInfo,
        field_errors,
    )
    from clubdesk.services.members.search import (
        PAGE,
        MemberPage,
        count_matching,
        count_members,
        get_member,
        likely_duplicates,
        list_members,
        member_page,
        public_list,
    )

_HOMES = {
    "ClubInfo": "clubdesk.services.members.records",
    "DEFAULT_RATING": "clubdesk.services.members.records",
    "FIRST_NUMBER": "clubdesk.services.members.records",
    "ImportPreview": "clubdesk.services.members.csv_io",
    "MemberData": "clubdesk.services.members.records",
    "MemberInfo": "clubdesk.services.members.records",
    "MemberPage": "clubdesk.services.members.search",
    "MergeResult": "clubdesk.services.members.merge",
    "PAGE": "clubdesk.services.members.search",
    "count_matching": "clubdesk.services.members.search",
    "count_members": "clubdesk.services.members.search",
    "create_member": "clubdesk.services.members.edit",
    "deactivate_member": "clubdesk.services.members.edit",
    "export_csv": "clubdesk.services.members.csv_io",
    "field_errors": "clubdesk.services.members.records",
    "get_member": "clubdesk.services.members.search",
    "import_members": "clubdesk.services.members.csv_io",
    "likely_duplicates": "clubdesk.services.members.search",
    "list_clubs": "clubdesk.services.members.edit",
    "list_members": "clubdesk.services.members.search",
    "member_page": "clubdesk.services.members.search",
    "merge_members": "clubdesk.services.members.merge",
    "merge_preview": "clubdesk.services.members.merge",
    "preview_import": "clubdesk.services.members.csv_io",
    "public_list": "clubdesk.services.members.search",
    "save_club": "clubdesk.services.members.edit",
    "update_member": "clubdesk.services.members.edit",
    "ClearResult": "clubdesk.services.members.erase",
    "ErasureResult": "clubdesk.services.members.erase",
    "anonymous_name": "clubdesk.services.members.erase",
    "clear_inactive": "clubdesk.services.members.erase",
    "erase_member": "clubdesk.services.members.erase",
    "public_names": "clubdesk.services.members.privacy",
}

__all__ = [
    "ClubInfo",
    "DEFAULT_RATING",
    "FIRST_NUMBER",
    "ImportPreview",
    "MemberData",
    "MemberInfo",
    "MemberPage",
    "MergeResult",
    "PAGE",
    "count_matching",
    "count_members",
    "create_member",
    "deactivate_member",
    "export_csv",
    "field_errors",
    "get_member",
    "import_members",
    "likely_duplicates",
    "list_clubs",
    "list_members",
    "member_page",
    "merge_members",
    "merge_preview",
    "preview_import",
    "public_list",
    "save_club",
    "update_member",
    "ClearResult",
    "ErasureResult",
    "anonymous_name",
    "clear_inactive",
    "erase_member",
    "public_names",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from the module that defines it on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
