"""The register: members and clubs, search, edits, merges, CSV import and export.

The package's face: what ui/, cli/ and web/ may use. Everything else is the package's own."""

from clubdesk.services.members.csv_io import ImportPreview, export_csv, import_members, preview_import
from clubdesk.services.members.edit import (
    create_member,
    deactivate_member,
    list_clubs,
    save_club,
    update_member,
)
from clubdesk.services.members.merge import MergeResult, merge_members, merge_preview
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
    list_members,
    member_page,
    public_list,
)

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
    "list_clubs",
    "list_members",
    "member_page",
    "merge_members",
    "merge_preview",
    "preview_import",
    "public_list",
    "save_club",
    "update_member",
]
